/*
 * crypto.h - the hashes that make a game auditable: sheet commitments, the
 * turn seed's commitment, the dice key, log entry hashes and digests.  All
 * are BLAKE2b-256 (libsodium crypto_generichash) over a domain tag first, so
 * that no hash of one kind can stand for another.
 */
#ifndef ORD_CRYPTO_H
#define ORD_CRYPTO_H

#include <sodium.h>
#include "core/common.h"

/* Commitment to a turn's dice seed, logged when the turn opens. */
void ord_commit_seed(unsigned char out[32], const unsigned char game_id[16], int turn,
		     const unsigned char seed[32]);
/* Hash of a log entry, chaining from prev. */
void ord_log_hash(unsigned char out[32], const unsigned char prev[32], int64_t seq, int turn,
		  const char *kind, const char *body, int64_t at);

/* An incremental digest of many fields (rolls, results, states of a phase). */
struct ord_digest {
	crypto_generichash_state st;
};
void ord_digest_init(struct ord_digest *d, const char *tag);
void ord_digest_str(struct ord_digest *d, const char *s);   /* with its NUL */
void ord_digest_int(struct ord_digest *d, int64_t v);
void ord_digest_bytes(struct ord_digest *d, const void *p, size_t len);
void ord_digest_final(struct ord_digest *d, unsigned char out[32]);

/* Must be called once before anything else of libsodium. */
int ord_crypto_init(void);

#endif
