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
void ord_digest_str(struct ord_digest *d, const char *s); /* with its NUL */
void ord_digest_int(struct ord_digest *d, int64_t v);
void ord_digest_bytes(struct ord_digest *d, const void *p, size_t len);
void ord_digest_final(struct ord_digest *d, unsigned char out[32]);

/* The nonce of a stand-in sheet (the NMR policy's hold or repeat): derived
 * from public values, so that re-sealing a copy of the game cannot draw
 * another one, and so another dice key (docs/threat-model.md). */
void ord_stand_in_nonce(unsigned char out[32], const unsigned char game_id[16], int turn,
			const char *side);
/* The digest of every unit's state, in unit order: logged when a turn
 * opens, so that a turn's bundle shows where its units stood. */
#define ORD_UNITS_TAG "orderly-units-v2"
void ord_digest_unit(struct ord_digest *d, const char *unit, const char *state);
/* The digests of the game's roster, logged when a turn opens (sides_root,
 * units_root): each side's name, title and public key (NULL: none) in
 * side order, each unit's id, side, name and serialised attributes in
 * unit order.  Nothing of them changes in a game: a change holds the
 * side and unit rows it acts on to them (game_live.c), the verifier them
 * to the scenario. */
#define ORD_SIDES_TAG "orderly-roster-sides-v1"
#define ORD_ROSTER_TAG "orderly-roster-units-v1"
void ord_digest_side(struct ord_digest *d, const char *name, const char *title,
		     const unsigned char *pubkey);
void ord_digest_roster_unit(struct ord_digest *d, const char *id, const char *side,
			    const char *name, const char *attrs);
/* A hash of the bytes of a sheet (no nonce): logged when the next turn
 * opens, after the sheet was revealed, so that a "repeat" stand-in can be
 * checked against it. */
void ord_hash_bytes(unsigned char out[32], const void *bytes, size_t len);
/* The digest of the rolls, results and unit states recorded under one log
 * entry ("orderly-phase-v1"): begun with ord_digest_init(d, ORD_PHASE_TAG),
 * then one call per row in the order of their ids.  game.c digests the rows
 * of the game file, bundle.c those of a bundle, with the same functions. */
#define ORD_PHASE_TAG "orderly-phase-v1"
void ord_digest_roll(struct ord_digest *d, int turn, const char *phase, int event_seq,
		     const char *purpose, int idx, int sides, int value, int fixed);
void ord_digest_result(struct ord_digest *d, int turn, const char *phase, int event_seq,
		       const char *unit, const char *vals, const char *explanation,
		       const struct ord_kv *texts);
/* A result's 16-byte BLAKE2b of what the verifier compares of it (all but
 * its turn): two results alike in every such field, and only they, have
 * one hash (a second preimage costs 2^128). */
void ord_result_hash(unsigned char out[16], const char *phase, int event_seq, const char *unit,
		     const char *vals, const char *explanation, const struct ord_kv *texts);
void ord_digest_state(struct ord_digest *d, const char *unit, const char *attrs, int turn,
		      int phase, const char *state);

/*
 * The dice key of a turn.  v1 (a refereed game): hash(game id, turn, seed,
 * every side's sealed commitment in side order), fixed at the seal.  v2 (a
 * referee-less game): the sealed sheets' nonces are hashed too, so that the
 * key is unknown to everybody until the last sheet is opened: a host who
 * knows the seed cannot grind a nonce for the dice it wants (see
 * docs/threat-model.md).  ord_dice_key_begin, then ord_dice_key_side for
 * each side in side order, then ord_digest_final.
 */
void ord_dice_key_begin(struct ord_digest *d, int v2, const unsigned char game_id[16], int turn,
			const unsigned char seed[32]);
void ord_dice_key_side(struct ord_digest *d, const char *side, const unsigned char commitment[32],
		       const unsigned char *nonce /* v2 only, else NULL */);

/*
 * What Ed25519 signs: a domain-tagged BLAKE2b-256 of the fields, so that a
 * signature over one kind of thing can never pass for another.
 */
/* A player's signature over his sheet's commitment. */
void ord_sig_sheet_msg(unsigned char out[32], const unsigned char game_id[16], int turn,
		       const char *side, const unsigned char commitment[32]);
/* The same for a draft to be checked ('orderly sign --draft', a CHECK
 * mail): another name, so that no signature of one is one of the other. */
void ord_sig_draft_msg(unsigned char out[32], const unsigned char game_id[16], int turn,
		       const char *side, const unsigned char commitment[32]);
/* The game's signature over the head of its log at a turn's opening, seal,
 * close of a phase's events or exchange; seed_commitment is the one of the
 * turn open for sheets after the head ("open", "exchange"), else zeros. */
void ord_sig_head_msg(unsigned char out[32], const unsigned char game_id[16], int turn,
		      const char *at, int64_t seq, const unsigned char hash[32],
		      const unsigned char seed_commitment[32]);
/* The game's signature over the head of a phase's close, which states the
 * phase (1-based): a player reveals his witness link for phase N only
 * against it (docs/threat-model.md).  Close heads signed before it existed
 * are signed by ord_sig_head_msg (at "close", zeros) and state no phase. */
void ord_sig_close_msg(unsigned char out[32], const unsigned char game_id[16], int turn, int phase,
		       int64_t seq, const unsigned char hash[32]);
/* The game's signature over a head that states no entry number (format
 * v3: a close head, with its phase, or a link head, phase 0), handed out
 * before the exchange: the entry's hash alone fixes which entry it signs,
 * and the number, which would tell how many events the phase logged, is
 * read from the bundle after the exchange (docs/threat-model.md, 49). */
void ord_sig_unnumbered_msg(unsigned char out[32], const unsigned char game_id[16], int turn,
			    const char *at, int phase, const unsigned char hash[32]);
/* The game's signature over a receipt's (or sealed head's) words, the
 * turn, side, version and commitment a player reads in its comment, with
 * the head's game, turn, kind, entry and hash: a message of its own
 * beside the head's, so that a head signed by an orderly before it still
 * checks as it did (docs/threat-model.md, 47). */
void ord_sig_words_msg(unsigned char out[32], const unsigned char game_id[16], int turn, const char *at,
		       int64_t seq, const unsigned char hash[32], const struct ord_receipt *words);
/* The game's signature over a bundle: every byte before its <signature>,
 * digested under this tag (begun with ord_digest_init(d, it) for bytes
 * that come in pieces). */
#define ORD_SIG_BUNDLE_TAG "orderly-bundle-signature-v1"
void ord_sig_bundle_msg(unsigned char out[32], const void *bytes, size_t len);
/* Sign / check a 32-byte message; check returns 0 when the signature holds. */
void ord_sig_sign(unsigned char sig[64], const unsigned char msg[32], const unsigned char sk[64]);
int ord_sig_check(const unsigned char sig[64], const unsigned char msg[32], const unsigned char pk[32]);

/*
 * Witnessed dice (opt-in per game, docs/threat-model.md): each side commits
 * with its sheet to the top of a hash chain and reveals one link per phase
 * after the phase's events are closed; the phase's dice come from the dice
 * key, the events and every reveal.  The chain has ORD_WITNESS_LINKS links:
 * link 0 is secret, link i = H(link i-1), the top is link ORD_WITNESS_LINKS;
 * phase p (1-based) reveals link ORD_WITNESS_LINKS - p.
 */
#define ORD_WITNESS_LINKS 64
/* Link 0 of a side's chain for one turn, from the player's secret key seed
 * and his sheet's nonce (NULL: as an orderly before the nonce made it). */
void ord_witness_start(unsigned char out[32], const unsigned char key_seed[32],
		       const unsigned char game_id[16], int turn, const char *side,
		       const unsigned char *nonce);
/* The link n steps above link (in place). */
void ord_witness_up(unsigned char link[32], unsigned n);
/* The dice key of phase index p (1-based) of a witnessed turn: reveals has
 * one link per side in side order (a stood-in side's from the referee's
 * chain). */
void ord_phase_key_begin(struct ord_digest *d, const unsigned char dice_key[32], int index,
			 const char *phase, const unsigned char events[32]);
void ord_phase_key_side(struct ord_digest *d, const char *side, const unsigned char link[32],
			int stood_in);
/* The digest of a phase's events (seq, kind, arguments, override, checks),
 * in their order: what the "close" entry logs and the phase key binds. */
#define ORD_EVENTS_TAG "orderly-events-v2"
void ord_digest_event(struct ord_digest *d, unsigned seq, const char *kind, const char *args,
		      const char *override, const char *checks);
/* The blind a witnessed phase's "close" entry logs (blind=): of the turn's
 * seed, which stays secret until the exchange, so that the close's hash,
 * signed in the head every side is handed before it reveals its link,
 * gives no player a way to try his guesses of the phase's events against
 * it (threat model, attack 49); derived, not drawn, so that it is no value
 * the referee chooses, and checked by the verifier once the seed is
 * revealed. */
void ord_close_blind(unsigned char out[32], const unsigned char game_id[16], int turn, int index,
		     const unsigned char seed[32]);
/* The blind a "witness" entry logs (blind=), of the turn's seed likewise:
 * the head of the link a side is handed states no entry number (attack
 * 49's leftover), and without it the side that revealed first after a
 * close, which knows every other field of its link's entry and the hash
 * it chains from (the close head's), would find the entry's number by
 * trying each, and with it the close's and the phase's count of events. */
void ord_link_blind(unsigned char out[32], const unsigned char game_id[16], int turn, int index,
		    const char *side, const unsigned char seed[32]);

/* Must be called once before anything else of libsodium. */
int ord_crypto_init(void);

#endif
