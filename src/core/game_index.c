/*
 * game_index.c - what checking one event reads, without loading the game
 * (issue 15).  At the seal every unit's order is parsed once and kept as
 * a row (sealed_order); every event recorded names its units in a row
 * (event_unit).  Recording a few events then loads only the units they
 * name, each with its order and its standing events of the phase, when a
 * check looks it up (a partial context, ord_ctx_set_lazy): the cost of an
 * event no longer grows with the game.
 *
 * The rows are derived.  The audit's replay checks every event again in a
 * context of the whole game built from the sheets themselves and compares
 * what the checks said with the log (verify.c), so an index that lies is
 * seen as an event whose checks the orders do not give.
 */
#include <stdlib.h>
#include <string.h>

#include "core/game.h"

/* ---- at the seal ---- */

static int add_bare_unit(void *ud, const struct ord_store_unit *u)
{
	/* the index needs who is who, not the state */
	ord_ctx_add_unit(ud, u->uid, u->name, u->side, NULL, NULL);
	return 0;
}

int ord_game_index_orders(struct ord_game *g, int turn, struct ord_ctx *units)
{
	struct ord_buf body = ORD_BUF_INIT;
	struct ord_ctx own, *ctx = &own;
	size_t i;
	int err;

	if (g->refereeless)
		return 0;
	ord_ctx_init(&own, g->rs, g->rules, turn);
	ord_ctx_set_made(&own, g->made, ord_game_made_core(g));
	if (units && units->checks_only && units->nunits && !units->nsheets) {
		/* the seal's context of every unit (ord_game_live_units),
		 * found in the same unit order as a read of them */
		ctx = units;
	} else {
		if ((err = ord_store_units_now(g->db, 0, NULL, add_bare_unit, &own)) != 0)
			goto out;
		ord_ctx_index(&own);
	}
	if ((err = ord_game_attach_sheets(g, ctx, turn, NULL)) != 0)
		goto out;
	for (i = 0; i < ctx->nunits; i++) {
		const struct ord_order *o = ord_ctx_order(ctx, &ctx->units[i]);
		if (!o)
			continue;
		ord_buf_reset(&body);
		ord_order_serialize(o, &body);
		if ((err = ord_store_sealed_order_put(g->db, turn, ctx->units[i].id, body.buf)) != 0)
			goto out;
	}
	err = ord_store_order_index_mark(g->db, turn);
out:
	ord_ctx_release(&own);
	ord_buf_release(&body);
	return err;
}

/* ---- recording events ---- */

struct ord_event_lazy {
	struct ord_game *g;
	struct ord_ctx *ctx;
	int turn;
	const char *phase;
	int hold_events;     /* the load's: each event held to its log entry */
	unsigned char *have; /* per event number below nhave: in ctx already */
	size_t nhave;
	int err; /* the first load that failed */
};

static int add_event_once(void *ud, const struct ord_store_event *e)
{
	struct ord_event_lazy *lz = ud;
	int err;

	if (e->seq < lz->nhave) {
		if (lz->have[e->seq])
			return 0;
		lz->have[e->seq] = 1;
	}
	/* held to its entry before a check reads it (game_live.c) */
	if (lz->hold_events && (err = ord_game_live_event(lz->g, lz->turn, e)) != 0)
		return err;
	ord_ctx_add_event(lz->ctx, e->seq, e->phase, e->kind, e->args, e->override, e->checks);
	return 0;
}

/* Every unit of the game, for a name no unit has as written (the hint,
 * a game's names read as its notation reads words: ord_ctx_set_made). */
static int lazy_event_all(void *ud,
			  int (*each)(void *arg, const char *id, const char *name, const char *side),
			  void *arg)
{
	struct ord_event_lazy *lz = ud;

	return ord_game_units(lz->g, each, arg);
}

/* A unit a check looks up: the unit, its sealed order, its events. */
static int lazy_event_unit(void *ud, struct ord_ctx *ctx, const char *id_or_name)
{
	struct ord_event_lazy *lz = ud;
	size_t n = ctx->nunits;
	char *body = NULL;
	int err;

	if ((err = ord_store_unit_find(lz->g->db, id_or_name, ord_game_add_unit, ctx)) != 0 ||
	    ctx->nunits == n)
		goto out;
	if ((err = ord_store_sealed_order_get(lz->g->db, lz->turn, ctx->units[n].id, &body)) != 0)
		goto out;
	if (body) {
		struct ord_sheet one;
		ord_sheet_init(&one);
		if ((err = ord_order_deserialize(&one, body)) == 0)
			ord_ctx_attach_order(ctx, n, &one);

		ord_sheet_release(&one);
		if (err)
			goto out;
	}
	err = ord_store_unit_events_each(lz->g->db, lz->turn, ctx->units[n].id, lz->phase,
					 add_event_once, lz);
out:
	free(body);
	if (err && !lz->err)
		lz->err = err;
	return err;
}

int ord_game_event_ctx(struct ord_game *g, struct ord_ctx *ctx, int turn, const char *phase,
		       unsigned next, size_t n, int partial, const struct ord_game_load *load,
		       struct ord_event_lazy **lazy)
{
	struct ord_event_lazy *lz;
	size_t total;
	int err, indexed;

	*lazy = NULL;
	if ((err = ord_store_order_indexed(g->db, turn, &indexed)) != 0 ||
	    (err = ord_store_unit_bound(g->db, &total)) != 0)
		return err;
	/* a unit loaded alone costs a few lookups, some ten times one of a
	 * whole load: a file of more events than a sixteenth of the units
	 * (and more than 64) loads the game once instead */
	if (!partial || !indexed || (n > 64 && n > total / 16)) {
		/* a load refused (a row held to its entry) leaves nothing */
		if ((err = ord_game_load_ctx(g, ctx, turn, 1, phase, load)) != 0)
			ord_ctx_release(ctx);
		return err;
	}
	lz = ord_xcalloc(1, sizeof(*lz));
	lz->g = g;
	lz->ctx = ctx;
	lz->turn = turn;
	lz->phase = phase;
	lz->hold_events = load && load->hold_events;
	lz->nhave = next;
	lz->have = ord_xcalloc(next + 1, 1);
	*lazy = lz;
	ord_ctx_init(ctx, g->rs, g->rules, turn);
	ord_ctx_set_made(ctx, g->made, ord_game_made_core(g));
	ord_ctx_set_lazy(ctx, total, lazy_event_unit, lz);
	ord_ctx_set_lazy_all(ctx, lazy_event_all);
	/* every event of the turn and the new ones fit: none moves while a
	 * check holds it and a lookup loads more */
	ord_ctx_reserve_events(ctx, (size_t)next + n + 1);
	ord_ctx_index(ctx);
	return 0;
}

int ord_game_event_ctx_failed(const struct ord_event_lazy *lazy)
{
	return lazy ? lazy->err : 0;
}

void ord_game_event_ctx_done(struct ord_event_lazy *lazy)
{
	if (!lazy)
		return;
	free(lazy->have);
	free(lazy);
}

int ord_game_index_event(struct ord_game *g, struct ord_ctx *ctx, int turn, const struct ord_event *ev)
{
	const struct ord_event_kind *ek = ord_ruleset_event_kind(g->rs, ev->kind);
	const struct ord_key_spec *ks;
	int err = 0;

	for (ks = ek ? ek->keys : NULL; !err && ks && ks->name; ks++) {
		const char *v;
		const struct ord_unit *u;
		if (ks->type != ORD_KEY_UNIT || !(v = ord_kv_get(&ev->kv, ks->name)) ||
		    !(u = ord_ctx_find_unit(ctx, v)))
			continue;
		err = ord_store_event_unit_put(g->db, turn, u->id, ev->seq);
	}
	return err;
}
