/* crypto.c - commitments, log hashes and digests (see crypto.h). */
#include <string.h>

#include "core/crypto.h"

int ord_crypto_init(void)
{
	if (sodium_init() < 0)
		return ord_error_set(ORD_ERROR, "libsodium cannot be initialised");
	return 0;
}

static void put64(unsigned char p[8], int64_t v)
{
	uint64_t u = (uint64_t)v;
	int i;

	for (i = 7; i >= 0; i--) {
		p[i] = (unsigned char)(u & 0xff);
		u >>= 8;
	}
}

void ord_digest_init(struct ord_digest *d, const char *tag)
{
	crypto_generichash_init(&d->st, NULL, 0, 32);
	ord_digest_str(d, tag);
}

void ord_digest_str(struct ord_digest *d, const char *s)
{
	crypto_generichash_update(&d->st, (const unsigned char *)s, strlen(s) + 1);
}

void ord_digest_int(struct ord_digest *d, int64_t v)
{
	unsigned char p[8];

	put64(p, v);
	crypto_generichash_update(&d->st, p, 8);
}

void ord_digest_bytes(struct ord_digest *d, const void *p, size_t len)
{
	/* length first, so that adjacent fields cannot be re-split */
	ord_digest_int(d, (int64_t)len);
	crypto_generichash_update(&d->st, p, len);
}

void ord_digest_final(struct ord_digest *d, unsigned char out[32])
{
	crypto_generichash_final(&d->st, out, 32);
}

void ord_commit_sheet(unsigned char out[32], const struct ord_sheet_binding *b,
		      const unsigned char nonce[32], const void *bytes, size_t len)
{
	struct ord_digest d;

	ord_digest_init(&d, "orderly-sheet-v2");
	ord_digest_bytes(&d, b->game_id, 16);
	ord_digest_int(&d, b->turn);
	ord_digest_str(&d, b->side);
	ord_digest_bytes(&d, b->seed_commitment, 32);
	ord_digest_bytes(&d, b->witness, 32);
	ord_digest_bytes(&d, nonce, 32);
	ord_digest_bytes(&d, bytes, len);
	ord_digest_final(&d, out);
}

void ord_stand_in_nonce(unsigned char out[32], const unsigned char game_id[16], int turn,
			const char *side)
{
	struct ord_digest d;

	ord_digest_init(&d, "orderly-stand-in-v2");
	ord_digest_bytes(&d, game_id, 16);
	ord_digest_int(&d, turn);
	ord_digest_str(&d, side);
	ord_digest_final(&d, out);
}

void ord_close_blind(unsigned char out[32], const unsigned char game_id[16], int turn, int index,
		     const unsigned char seed[32])
{
	struct ord_digest d;

	ord_digest_init(&d, "orderly-close-blind-v1");
	ord_digest_bytes(&d, seed, 32);
	ord_digest_bytes(&d, game_id, 16);
	ord_digest_int(&d, turn);
	ord_digest_int(&d, index);
	ord_digest_final(&d, out);
}

void ord_link_blind(unsigned char out[32], const unsigned char game_id[16], int turn, int index,
		    const char *side, const unsigned char seed[32])
{
	struct ord_digest d;

	ord_digest_init(&d, "orderly-link-blind-v1");
	ord_digest_bytes(&d, seed, 32);
	ord_digest_bytes(&d, game_id, 16);
	ord_digest_int(&d, turn);
	ord_digest_int(&d, index);
	ord_digest_str(&d, side);
	ord_digest_final(&d, out);
}

void ord_digest_unit(struct ord_digest *d, const char *unit, const char *state)
{
	ord_digest_str(d, unit);
	ord_digest_str(d, state);
}

void ord_digest_side(struct ord_digest *d, const char *name, const char *title,
		     const unsigned char *pubkey)
{
	ord_digest_str(d, name);
	ord_digest_str(d, title);
	ord_digest_int(d, pubkey != NULL);
	if (pubkey)
		ord_digest_bytes(d, pubkey, 32);
}

void ord_digest_roster_unit(struct ord_digest *d, const char *id, const char *side,
			    const char *name, const char *attrs)
{
	ord_digest_str(d, id);
	ord_digest_str(d, side);
	ord_digest_str(d, name);
	ord_digest_str(d, attrs);
}

void ord_hash_bytes(unsigned char out[32], const void *bytes, size_t len)
{
	struct ord_digest d;

	ord_digest_init(&d, "orderly-bytes-v2");
	ord_digest_bytes(&d, bytes, len);
	ord_digest_final(&d, out);
}

void ord_commit_seed(unsigned char out[32], const unsigned char game_id[16], int turn,
		     const unsigned char seed[32])
{
	struct ord_digest d;

	ord_digest_init(&d, "orderly-seed-v1");
	ord_digest_bytes(&d, game_id, 16);
	ord_digest_int(&d, turn);
	ord_digest_bytes(&d, seed, 32);
	ord_digest_final(&d, out);
}

void ord_log_hash(unsigned char out[32], const unsigned char prev[32], int64_t seq, int turn,
		  const char *kind, const char *body, int64_t at)
{
	struct ord_digest d;

	ord_digest_init(&d, "orderly-log-v1");
	ord_digest_bytes(&d, prev, 32);
	ord_digest_int(&d, seq);
	ord_digest_int(&d, turn);
	ord_digest_str(&d, kind);
	ord_digest_int(&d, at);
	ord_digest_bytes(&d, body, strlen(body));
	ord_digest_final(&d, out);
}

/* ---- the rows of a phase digest ---- */

void ord_digest_roll(struct ord_digest *d, int turn, const char *phase, int event_seq,
		     const char *purpose, int idx, int sides, int value, int fixed)
{
	ord_digest_str(d, "roll");
	ord_digest_int(d, turn);
	ord_digest_str(d, phase);
	ord_digest_int(d, event_seq);
	ord_digest_str(d, purpose);
	ord_digest_int(d, idx);
	ord_digest_int(d, sides);
	ord_digest_int(d, value);
	ord_digest_int(d, fixed);
}

void ord_digest_result(struct ord_digest *d, int turn, const char *phase, int event_seq,
		       const char *unit, const char *vals, const char *explanation,
		       const struct ord_kv *texts)
{
	size_t i;

	ord_digest_str(d, "result");
	ord_digest_int(d, turn);
	ord_digest_str(d, phase);
	ord_digest_int(d, event_seq);
	ord_digest_str(d, unit);
	ord_digest_str(d, vals);
	ord_digest_str(d, explanation);
	/* a result in one language digests as it always did */
	if (!texts || texts->n < 2)
		return;
	ord_digest_str(d, "texts");
	ord_digest_int(d, (int)texts->n);
	for (i = 0; i < texts->n; i++) {
		ord_digest_str(d, texts->items[i].key);
		ord_digest_str(d, texts->items[i].value);
	}
}

void ord_result_hash(unsigned char out[16], const char *phase, int event_seq, const char *unit,
		     const char *vals, const char *explanation, const struct ord_kv *texts)
{
	struct ord_digest d;
	size_t i;

	crypto_generichash_init(&d.st, NULL, 0, 16);
	ord_digest_str(&d, "result-hash");
	ord_digest_str(&d, phase);
	ord_digest_int(&d, event_seq);
	ord_digest_str(&d, unit);
	ord_digest_str(&d, vals);
	ord_digest_str(&d, explanation);
	/* every text, however many: the verifier compares them all */
	ord_digest_int(&d, (int64_t)texts->n);
	for (i = 0; i < texts->n; i++) {
		ord_digest_str(&d, texts->items[i].key);
		ord_digest_str(&d, texts->items[i].value);
	}
	crypto_generichash_final(&d.st, out, 16);
}

void ord_digest_state(struct ord_digest *d, const char *unit, const char *attrs, int turn,
		      int phase, const char *state)
{
	ord_digest_str(d, "state");
	ord_digest_str(d, unit);
	ord_digest_str(d, attrs);
	ord_digest_int(d, turn);
	ord_digest_int(d, phase);
	ord_digest_str(d, state);
}

/* ---- the dice key ---- */

void ord_dice_key_begin(struct ord_digest *d, int v2, const unsigned char game_id[16], int turn,
			const unsigned char seed[32])
{
	ord_digest_init(d, v2 ? "orderly-dice-v2" : "orderly-dice-v1");
	ord_digest_bytes(d, game_id, 16);
	ord_digest_int(d, turn);
	ord_digest_bytes(d, seed, 32);
}

void ord_dice_key_side(struct ord_digest *d, const char *side, const unsigned char commitment[32],
		       const unsigned char *nonce)
{
	ord_digest_str(d, side);
	ord_digest_bytes(d, commitment, 32);
	if (nonce)
		ord_digest_bytes(d, nonce, 32);
}

/* ---- signatures ---- */

/* A side's commitment for a turn, under the name of what it is for. */
static void sig_commitment_msg(unsigned char out[32], const char *tag, const unsigned char game_id[16],
			       int turn, const char *side, const unsigned char commitment[32])
{
	struct ord_digest d;

	ord_digest_init(&d, tag);
	ord_digest_bytes(&d, game_id, 16);
	ord_digest_int(&d, turn);
	ord_digest_str(&d, side);
	ord_digest_bytes(&d, commitment, 32);
	ord_digest_final(&d, out);
}

void ord_sig_sheet_msg(unsigned char out[32], const unsigned char game_id[16], int turn,
		       const char *side, const unsigned char commitment[32])
{
	sig_commitment_msg(out, "orderly-sheet-signature-v1", game_id, turn, side, commitment);
}

void ord_sig_draft_msg(unsigned char out[32], const unsigned char game_id[16], int turn,
		       const char *side, const unsigned char commitment[32])
{
	sig_commitment_msg(out, "orderly-draft-signature-v1", game_id, turn, side, commitment);
}

void ord_sig_head_msg(unsigned char out[32], const unsigned char game_id[16], int turn,
		      const char *at, int64_t seq, const unsigned char hash[32],
		      const unsigned char seed_commitment[32])
{
	struct ord_digest d;

	ord_digest_init(&d, "orderly-head-signature-v2");
	ord_digest_bytes(&d, game_id, 16);
	ord_digest_int(&d, turn);
	ord_digest_str(&d, at);
	ord_digest_int(&d, seq);
	ord_digest_bytes(&d, hash, 32);
	ord_digest_bytes(&d, seed_commitment, 32);
	ord_digest_final(&d, out);
}

void ord_sig_close_msg(unsigned char out[32], const unsigned char game_id[16], int turn, int phase,
		       int64_t seq, const unsigned char hash[32])
{
	struct ord_digest d;

	ord_digest_init(&d, "orderly-close-head-signature-v1");
	ord_digest_bytes(&d, game_id, 16);
	ord_digest_int(&d, turn);
	ord_digest_int(&d, phase);
	ord_digest_int(&d, seq);
	ord_digest_bytes(&d, hash, 32);
	ord_digest_final(&d, out);
}

void ord_sig_unnumbered_msg(unsigned char out[32], const unsigned char game_id[16], int turn,
			    const char *at, int phase, const unsigned char hash[32])
{
	struct ord_digest d;

	/* no entry number: the hash fixes the entry (its number is hashed
	 * in it, and the close's blind keeps it from being guessed), so the
	 * head tells nobody how many entries came before it (attack 49) */
	ord_digest_init(&d, "orderly-head-signature-v3");
	ord_digest_bytes(&d, game_id, 16);
	ord_digest_int(&d, turn);
	ord_digest_str(&d, at);
	ord_digest_int(&d, phase);
	ord_digest_bytes(&d, hash, 32);
	ord_digest_final(&d, out);
}

void ord_sig_words_msg(unsigned char out[32], const unsigned char game_id[16], int turn, const char *at,
		       int64_t seq, const unsigned char hash[32], const struct ord_receipt *words)
{
	struct ord_digest d;

	ord_digest_init(&d, "orderly-receipt-words-signature-v1");
	ord_digest_bytes(&d, game_id, 16);
	ord_digest_int(&d, turn);
	ord_digest_str(&d, at);
	ord_digest_int(&d, seq);
	ord_digest_bytes(&d, hash, 32);
	ord_digest_int(&d, words->turn);
	ord_digest_str(&d, words->side);
	ord_digest_int(&d, words->version);
	ord_digest_bytes(&d, words->commitment, 32);
	ord_digest_final(&d, out);
}

void ord_sig_bundle_msg(unsigned char out[32], const void *bytes, size_t len)
{
	struct ord_digest d;

	ord_digest_init(&d, ORD_SIG_BUNDLE_TAG);
	ord_digest_bytes(&d, bytes, len);
	ord_digest_final(&d, out);
}

void ord_sig_sign(unsigned char sig[64], const unsigned char msg[32], const unsigned char sk[64])
{
	crypto_sign_detached(sig, NULL, msg, 32, sk);
}

int ord_sig_check(const unsigned char sig[64], const unsigned char msg[32], const unsigned char pk[32])
{
	return crypto_sign_verify_detached(sig, msg, 32, pk) == 0 ? 0 : -1;
}

/* ---- witnessed dice ---- */

void ord_witness_start(unsigned char out[32], const unsigned char key_seed[32],
		       const unsigned char game_id[16], int turn, const char *side,
		       const unsigned char *nonce)
{
	crypto_generichash_state st;
	unsigned char t[8];
	int i;

	/* keyed by the player's secret: nobody else can compute his chain;
	 * and of his sheet's nonce (v3), fresh for every sheet he signs, so
	 * that no other game, nor this one played again from a copy, has the
	 * same chain (docs/threat-model.md, 19) */
	crypto_generichash_init(&st, key_seed, 32, 32);
	crypto_generichash_update(&st,
				  (const unsigned char *)(nonce ? "orderly-witness-start-v3"
								: "orderly-witness-start-v2"),
				  25);
	crypto_generichash_update(&st, game_id, 16);
	for (i = 0; i < 8; i++)
		t[i] = (unsigned char)((uint64_t)(int64_t)turn >> (56 - 8 * i));
	crypto_generichash_update(&st, t, 8);
	crypto_generichash_update(&st, (const unsigned char *)side, strlen(side) + 1);
	if (nonce)
		crypto_generichash_update(&st, nonce, 32);
	crypto_generichash_final(&st, out, 32);
}

void ord_witness_up(unsigned char link[32], unsigned n)
{
	while (n--) {
		struct ord_digest d;
		ord_digest_init(&d, "orderly-witness-link-v2");
		ord_digest_bytes(&d, link, 32);
		ord_digest_final(&d, link);
	}
}

void ord_phase_key_begin(struct ord_digest *d, const unsigned char dice_key[32], int index,
			 const char *phase, const unsigned char events[32])
{
	ord_digest_init(d, "orderly-phase-key-v2");
	ord_digest_bytes(d, dice_key, 32);
	ord_digest_int(d, index);
	ord_digest_str(d, phase);
	ord_digest_bytes(d, events, 32);
}

void ord_phase_key_side(struct ord_digest *d, const char *side, const unsigned char link[32],
			int stood_in)
{
	ord_digest_str(d, side);
	ord_digest_bytes(d, link, 32);
	ord_digest_int(d, stood_in);
}

void ord_digest_event(struct ord_digest *d, unsigned seq, const char *kind, const char *args,
		      const char *override, const char *checks)
{
	ord_digest_int(d, seq);
	ord_digest_str(d, kind);
	ord_digest_str(d, args);
	ord_digest_int(d, override != NULL);
	ord_digest_str(d, override ? override : "");
	ord_digest_str(d, checks ? checks : "");
}
