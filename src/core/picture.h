/*
 * picture.h - the one drawer of a turn's map (picture.c), whatever the
 * turn's source: the game file (ord_game_map) or a turn bundle that
 * verified (ord_bundle_verify_map_take, bundle.c).  What the map shows
 * comes from the units' states after each phase, the turn's events and
 * results, and its sheets, read through the source's hooks, and the fog
 * of war of the reports (fog.h) is applied here, once: so that a player
 * can rebuild the map the referee handed him from the bundle and find it
 * byte for byte the same, or not.
 */
#ifndef ORD_PICTURE_H
#define ORD_PICTURE_H

#include "core/ctx.h"
#include "core/record.h"
#include "store/store.h"

/* What one map is drawn from.  Nothing of it is freed by the drawer. */
struct ord_map_src {
	const struct ord_ruleset *rs;
	struct ord_rules *rules;
	const char *made;               /* the game's made= (ord_ctx_set_made) */
	const char *made_core;          /* its made_core= (NULL: none logged) */
	const char *title;              /* the game's */
	const char *const *sides;       /* the sides' names, in the game's order */
	const char *const *side_titles; /* their names as the scenario gives them */
	size_t nsides;
	int turn;
	enum ord_turn_state state;  /* the turn's, as the map is drawn */
	int phase;                  /* drawn after this phase (0: the turn's start) */
	const struct ord_record *r; /* the turn's results */
	/* every unit in unit order with its state after phase `phase` of the
	 * turn (0: as it opened), as ord_store_units_at gives it, to fn */
	int (*units_at)(void *ud, int phase, ord_store_unit_fn fn, void *fud);
	/* the turn's events that stand, in their order, to fn */
	int (*events)(void *ud, ord_store_event_fn fn, void *fud);
	/* attach the turn's sheets to ctx: every side's, or only's */
	int (*sheets)(void *ud, struct ord_ctx *ctx, const char *only);
	void *ud;
};

/* The checks of a map before any reading: side (NULL: the referee) is
 * one of sides, rs draws pictures, and *lang (NULL: the ruleset's first)
 * a language of rs, set to it.  ORD_ENOTFOUND or ORD_EUSAGE, said. */
int ord_map_check(const struct ord_ruleset *rs, const char *const *sides, size_t nsides,
		  const char *side, const char **lang);
/* The index of phase (a name of rs's phases; "start" or NULL: 0 and
 * resolved, when phase is NULL) in *k, among the `resolved` phases of
 * turn: ORD_ENOTFOUND for a name of no phase, ORD_ESTATE for one not
 * resolved yet (of nphases), said. */
int ord_map_phase(const struct ord_ruleset *rs, const char *phase, int turn, int resolved,
		  size_t nphases, int *k);
/* The map src describes, as side (NULL: the referee) may see it, with its
 * words in lang (checked by ord_map_check), appended to svg. */
int ord_map_draw(const struct ord_map_src *src, const char *side, const char *lang,
		 struct ord_buf *svg);

#endif
