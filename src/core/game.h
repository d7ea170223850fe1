/*
 * game.h - internals of a game shared by game*.c: the open game handle,
 * the log, and loading a module context from the file.
 */
#ifndef ORD_GAME_H
#define ORD_GAME_H

#include <sqlite3.h>

#include "core/common.h"
#include "core/crypto.h"
#include "core/ctx.h"
#include "ruleset.h"
#include "store/store.h"

struct ord_game_side {
	int64_t id;
	char *name; /* the side's id in the scenario */
	char *title;
	int has_key;              /* the side signs its sheets */
	unsigned char pubkey[32]; /* its player's Ed25519 key, when has_key */
};

struct ord_game {
	sqlite3 *db;
	char *path;
	unsigned char game_id[16];
	char *title;
	char *nmr; /* hold | repeat | wait */
	int fixed_dice;
	const struct ord_ruleset *rs;
	const struct ord_notation *notation;
	struct ord_rules *rules;
	struct ord_game_side *sides;
	size_t nsides;
	int refereeless;      /* sides commit first, open after the seal */
	int have_pk, have_sk; /* the game's key: public, and secret (in the file or given) */
	unsigned char pk[32];
	unsigned char sk[64];
	ord_change_fn hook; /* ord_game_set_hook, or NULL */
	void *hook_ud;
	int in_transact; /* inside ord_game_transact: changes refused */
};

/* The current (highest) turn and its state. */
struct ord_turn {
	int turn;
	char state[16];   /* open | sealed | resolved | exchanged */
	int phase;        /* phases resolved so far */
	int64_t deadline; /* 0: none */
	unsigned char seed[32];
	unsigned char seed_commitment[32];
	unsigned char dice_key[32];
	int have_dice_key;
};

int ord_game_turn(struct ord_game *g, struct ord_turn *t, int turn /* <= 0: current */);
size_t ord_game_nphases(const struct ord_game *g);
const struct ord_game_side *ord_game_side_by_name(const struct ord_game *g, const char *name);
/* "a, b, c" of the sides' names */
void ord_game_side_list(const struct ord_game *g, struct ord_buf *out);

/* Tell the hook (if any) what the change did, inside its transaction. */
int ord_game_notify(struct ord_game *g, const struct ord_change *c);
/* ORD_ESTATE inside ord_game_transact (a change would nest a transaction). */
int ord_game_may_change(struct ord_game *g);

/* Append a log entry (inside a transaction); *seq receives its number. */
int ord_game_log(struct ord_game *g, int64_t *seq, int turn, const char *kind, const char *body);

/* Fill ctx with the units and their state as of now, the sealed orders of
 * turn (when with_orders) and the events of phase (NULL: none; "*": all). */
int ord_game_load_ctx(struct ord_game *g, struct ord_ctx *ctx, int turn, int with_orders,
		      const char *phase);
/* Parse a stored sheet with the game's notation. */
int ord_game_parse_sheet(struct ord_game *g, struct ord_sheet *out, const char *bytes, size_t len,
			 struct ord_diag *diag);

/* Open turn n: a fresh seed, its commitment logged (inside a transaction). */
int ord_game_open_turn(struct ord_game *g, int n);

/* The dice key of a sealed turn from its seed and the sealed commitments
 * (and, in a referee-less game, their nonces: ORD_ESTATE while a sealed
 * commitment is not opened yet). */
int ord_game_dice_key(struct ord_game *g, int turn, const unsigned char seed[32],
		      unsigned char out[32]);

/* The latest version a side has handed in this turn, sheet or commitment
 * alone: *version 0 when none; *opened 1 when its sheet is stored. */
int ord_game_latest(struct ord_game *g, int turn, int64_t side_id, int *version,
		    unsigned char commitment[32], int *opened);

/* A game made before keys gets its key at its first seal, logged (inside a
 * transaction). */
int ord_game_ensure_key(struct ord_game *g, int turn);
/* Sign the log's head (the entry just written at a seal or exchange) and
 * store the signed head (inside the transaction). */
int ord_game_sign_head(struct ord_game *g, int turn, const char *at);

/* Digest of the rolls, results and unit states recorded under one log entry. */
int ord_game_phase_digest(struct ord_game *g, int64_t log_seq, unsigned char out[32], int *nrolls,
			  int *nresults, int *nstates);

#endif
