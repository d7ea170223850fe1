/*
 * picture.c - the pictures of a game (orderly.h: ord_game_map,
 * ord_game_chart): the core reads the game at the turn and phase asked,
 * applies the fog of war of the reports (fog.h) and hands the ruleset's
 * draw slot a context holding only what the viewer may see; the ruleset
 * draws on a canvas (canvas.h), which becomes the SVG.  A map is drawn by
 * ord_map_draw (picture.h) from hooks that read the game file here, or a
 * verified bundle's record (bundle.c: `verify --map`), so that the two
 * give the same bytes.
 *
 * What a side sees in a picture is what its report of the turn shows:
 *  - its own units, and the other sides' units its report lists (the
 *    fog's rule over the resolved events of the turn, fog.h);
 *  - the events that name one of its units, and the results of its own
 *    units (of the phases drawn);
 *  - its own sheet, and every side's once the turn is exchanged.
 * The referee sees everything.  A map of turn N at phase P draws the units
 * as they were after P was resolved, and the events and results of the
 * phases up to P: an enemy unit only once an event of those phases met it,
 * with no step before (so no path: where it stood before it was met is
 * not the side's to know).  A chart draws every phase resolved so far, an
 * enemy unit in a turn from the phase its side met it in.
 */
#include <stdlib.h>
#include <string.h>

#include "canvas.h"
#include "core/fog.h"
#include "core/game.h"
#include "core/phase.h"
#include "core/picture.h"
#include "core/report.h"

static int add_unit(void *ud, const struct ord_store_unit *u)
{
	ord_ctx_add_unit(ud, u->uid, u->name, u->side, u->attrs, u->state);
	return 0;
}

static int add_event(void *ud, const struct ord_store_event *e)
{
	ord_ctx_add_event(ud, e->seq, e->phase, e->kind, e->args, e->override, e->checks);
	return 0;
}

/* side (NULL: the referee) is one of sides */
static int side_check(const char *const *sides, size_t nsides, const char *side)
{
	struct ord_buf l = ORD_BUF_INIT;
	size_t i;
	int err;

	if (!side)
		return 0;
	for (i = 0; i < nsides; i++)
		if (!strcmp(sides[i], side))
			return 0;
	for (i = 0; i < nsides; i++)
		ord_buf_addf(&l, "%s%s", i ? ", " : "", sides[i]);
	err = ord_error_set(ORD_ENOTFOUND, "unknown side '%s' (expected one of %s)", side,
			    l.buf ? l.buf : "");
	ord_buf_release(&l);
	return err;
}

static int draws(const struct ord_ruleset *rs, const char *kind)
{
	if (!ORD_RULESET_HAS(rs, 2) || !rs->draw)
		return ord_error_set(ORD_ENOTFOUND, "ruleset '%s' draws no %s", rs->name, kind);
	return 0;
}

/* A picture's words: a language of the ruleset (ord_report_lang), its own
 * first by default; "all" has no meaning for a picture, so its first. */
static int picture_lang(const struct ord_ruleset *rs, const char **lang)
{
	int err;

	if ((err = ord_report_lang(rs, *lang, lang)) != 0)
		return err;
	if (!*lang)
		*lang = ord_ruleset_language(rs, NULL);
	return 0;
}

static int check_viewer(struct ord_game *g, const char *side, const char *kind)
{
	const char **names = ord_xcalloc(g->nsides + 1, sizeof(*names));
	size_t i;
	int err;

	for (i = 0; i < g->nsides; i++)
		names[i] = g->sides[i].name;
	if ((err = side_check(names, g->nsides, side)) == 0)
		err = draws(g->rs, kind);
	free(names);
	return err;
}

int ord_map_check(const struct ord_ruleset *rs, const char *const *sides, size_t nsides,
		  const char *side, const char **lang)
{
	int err;

	if ((err = side_check(sides, nsides, side)) != 0 || (err = draws(rs, "map")) != 0)
		return err;
	return picture_lang(rs, lang);
}

int ord_map_phase(const struct ord_ruleset *rs, const char *phase, int turn, int resolved,
		  size_t nphases, int *k)
{
	struct ord_buf l = ORD_BUF_INIT;
	int err;

	*k = resolved;
	if (!phase)
		return 0;
	if (!strcmp(phase, "start")) {
		*k = 0;
		return 0;
	}
	if (!(*k = ord_phase_named(rs, phase, &l))) {
		err = ord_error_set(ORD_ENOTFOUND,
				    "unknown phase '%s' (expected start or one of %s)", phase, l.buf);
		ord_buf_release(&l);
		return err;
	}
	ord_buf_release(&l);
	if (*k > resolved)
		return ord_error_set(ORD_ESTATE,
				     "phase '%s' of turn %d is not resolved yet (%d of %zu are)",
				     rs->phases[*k - 1], turn, resolved, nphases);
	return 0;
}

/* Copy a unit of the full context into the viewer's. */
static void copy_unit(struct ord_ctx *to, const struct ord_unit *u)
{
	struct ord_buf a = ORD_BUF_INIT, s = ORD_BUF_INIT;

	ord_kv_serialize(&u->attrs, &a);
	ord_kv_serialize(&u->state, &s);
	ord_ctx_add_unit(to, u->id, u->name, u->side, a.buf, s.buf);
	ord_buf_release(&a);
	ord_buf_release(&s);
}

/* Copy an event of the full context into the viewer's, as its number
 * seq there. */
static void copy_event(struct ord_ctx *to, const struct ord_event *e, unsigned seq)
{
	struct ord_buf a = ORD_BUF_INIT;

	ord_kv_serialize(&e->kv, &a);
	ord_ctx_add_event(to, seq, e->phase, e->kind, a.buf, e->override, e->check);
	ord_buf_release(&a);
}

/* A step of the map: every shown unit's state after phase `phase` of the
 * turn, an enemy unit's only from the phase the viewer met it in. */
struct step_fill {
	struct ord_ctx *ctx;
	size_t step;
	int phase;
	const char *side; /* the viewer; NULL: the referee */
	const int *met;   /* per unit of ctx: the phase the viewer met it in */
};

static int fill_step(void *ud, const struct ord_store_unit *u)
{
	struct step_fill *f = ud;
	const struct ord_unit *v = ord_ctx_find_unit(f->ctx, u->uid);
	size_t i;

	if (!v || strcmp(v->id, u->uid))
		return 0;
	i = ord_ctx_unit_index(f->ctx, v);
	if (!f->side || !strcmp(v->side, f->side) || (f->met[i] && f->met[i] <= f->phase))
		ord_ctx_story_set(f->ctx, f->step, i, ord_ctx_story_keep(f->ctx, u->state));
	return 0;
}

/* What draw hands the ruleset besides the viewer's context. */
struct draw_game {
	const struct ord_ruleset *rs;
	const char *const *sides, *const *titles;
	size_t nsides;
};

/* Draw ctx (what the viewer sees); full holds every unit, whose scenario
 * attributes the picture may also read (ord_picture.setup). */
static int draw(const struct draw_game *dg, const struct ord_ctx *full, struct ord_ctx *ctx,
		const char *side, struct ord_picture *what, struct ord_buf *svg)
{
	struct ord_canvas *cv = NULL;
	struct ord_unit *setup = ord_xcalloc(full->nunits + 1, sizeof(*setup));
	size_t i;
	int err;

	/* the units' own attributes, not copies: no state goes with them */
	for (i = 0; i < full->nunits; i++) {
		setup[i].id = full->units[i].id;
		setup[i].name = full->units[i].name;
		setup[i].side = full->units[i].side;
		setup[i].attrs = full->units[i].attrs;
		ord_kv_init(&setup[i].state);
	}
	what->setup = setup;
	what->nsetup = full->nunits;
	what->sides = dg->sides;
	what->side_titles = dg->titles;
	what->nsides = dg->nsides;
	ord_canvas_new(&cv, 800, 600);
	if ((err = dg->rs->draw(ctx, side, cv, what)) == 0)
		err = ord_canvas_svg(cv, svg);
	ord_canvas_free(cv);
	free(setup);
	return err;
}

/* The game's sides for draw: their names and titles (to be freed). */
static void game_sides(struct ord_game *g, struct draw_game *dg)
{
	const char **names = ord_xcalloc(g->nsides + 1, sizeof(*names));
	const char **titles = ord_xcalloc(g->nsides + 1, sizeof(*titles));
	size_t i;

	for (i = 0; i < g->nsides; i++) {
		names[i] = g->sides[i].name;
		titles[i] = g->sides[i].title && *g->sides[i].title ? g->sides[i].title
								    : g->sides[i].name;
	}
	dg->rs = g->rs;
	dg->sides = names;
	dg->titles = titles;
	dg->nsides = g->nsides;
}

static void game_sides_release(struct draw_game *dg)
{
	free((void *)dg->sides);
	free((void *)dg->titles);
}

int ord_map_draw(const struct ord_map_src *src, const char *side, const char *lang, struct ord_buf *svg)
{
	const struct ord_ruleset *rs = src->rs;
	const struct ord_record *r = src->r;
	const int k = src->phase;
	struct ord_ctx full, view;
	struct ord_picture what;
	struct draw_game dg = { rs, src->sides, src->side_titles, src->nsides };
	int *met = NULL, *vmet = NULL;
	unsigned *seen = NULL;
	size_t *from = NULL, nseen = 0;
	size_t i;
	int err, j;

	ord_ctx_init(&full, rs, src->rules, src->turn);
	ord_ctx_init(&view, rs, src->rules, src->turn);
	ord_ctx_set_made(&full, src->made, src->made_core);
	ord_ctx_set_made(&view, src->made, src->made_core);
	if ((err = src->units_at(src->ud, k, add_unit, &full)) != 0)
		goto out;
	ord_ctx_index(&full);
	if ((err = src->events(src->ud, add_event, &full)) != 0)
		goto out;

	/* the fog: the units and events the viewer sees, an enemy unit once a
	 * resolved event of the phases drawn met it (fog.h) */
	met = ord_xcalloc(full.nunits + 1, sizeof(*met));
	from = ord_xcalloc(full.nunits + 1, sizeof(*from));
	if (side)
		ord_fog_units_met(rs, &full, side, k, met);
	for (i = 0; i < full.nunits; i++)
		if (!side || !strcmp(full.units[i].side, side) || met[i]) {
			from[view.nunits] = i;
			copy_unit(&view, &full.units[i]);
		}
	ord_ctx_index(&view);
	/* a side's picture numbers the events it sees 1, 2, ... in the
	 * turn's order, as its report does (fog.h): seen[n], event n's number
	 * in the view, 0 for one the viewer does not see */
	seen = ord_fog_event_numbers(rs, &full, r, side, k, &nseen, NULL);
	for (i = 0; i < full.nevents; i++) {
		const struct ord_event *e = &full.events[i];
		if (ord_fog_phase_index(rs, e->phase) > k)
			continue;
		if (side && !ord_fog_event_seen(rs, &full, e, side))
			continue;
		copy_event(&view, e, seen[e->seq]);
	}
	if ((err = src->sheets(src->ud, &view, src->state == ORD_TURN_EXCHANGED ? NULL : side)) != 0)
		goto out;
	for (i = 0; i < r->results.n; i++) {
		const struct ord_rec_result *res = &r->results.v[i];
		if (ord_fog_phase_index(rs, res->phase) > k)
			continue;
		if (side && !ord_fog_result_seen(rs, &full, res->unit, (unsigned)res->event, side))
			continue;
		ord_ctx_add_stored_result(&view, res->phase,
					  res->event > 0 ? seen[res->event] : (unsigned)res->event,
					  res->unit, res->values, res->explanation, &res->texts);
	}

	/* the steps: the turn's start and each phase drawn, an enemy unit's
	 * from the phase the viewer met it in */
	vmet = ord_xcalloc(view.nunits + 1, sizeof(*vmet));
	for (i = 0; side && i < view.nunits; i++)
		vmet[i] = met[from[i]];
	for (j = 0; j <= k; j++) {
		struct step_fill f = { &view, 0, j, side, vmet };
		f.step = ord_ctx_story_step(&view, src->turn, j ? rs->phases[j - 1] : "");
		if ((err = src->units_at(src->ud, j, fill_step, &f)) != 0)
			goto out;
	}

	memset(&what, 0, sizeof(what));
	what.kind = "map";
	what.game = src->title;
	what.turn = src->turn;
	what.phase = k ? rs->phases[k - 1] : "";
	what.turn_state = ord_turn_state_name(src->state);
	what.lang = lang;
	view.lang = lang;
	view.phase = what.phase;
	err = draw(&dg, &full, &view, side, &what, svg);
out:
	ord_ctx_release(&full);
	ord_ctx_release(&view);
	free(met);
	free(vmet);
	free(seen);
	free(from);
	return err;
}

/* The game file's map: its hooks read the store, in one read. */
struct game_map {
	struct ord_game *g;
	int turn;
};

static int game_units_at(void *ud, int phase, ord_store_unit_fn fn, void *fud)
{
	struct game_map *m = ud;

	return ord_store_units_at(m->g->db, m->turn, phase, fn, fud);
}

static int game_events(void *ud, ord_store_event_fn fn, void *fud)
{
	struct game_map *m = ud;

	return ord_store_events_each(m->g->db, m->turn, NULL, 1, fn, fud);
}

static int game_sheets(void *ud, struct ord_ctx *ctx, const char *only)
{
	struct game_map *m = ud;

	return ord_game_attach_sheets(m->g, ctx, m->turn, only);
}

int ord_game_map(ord_game *g, struct ord_buf *svg, const char *side, int turn, const char *phase,
		 const char *lang)
{
	struct ord_store_turn t;
	struct ord_map_src src;
	struct game_map m;
	struct draw_game dg;
	struct ord_record r;
	int err, k;

	if ((err = check_viewer(g, side, "map")) != 0 || (err = picture_lang(g->rs, &lang)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, turn)) != 0)
		return err;
	if ((err = ord_map_phase(g->rs, phase, t.turn, t.phase, ord_game_nphases(g), &k)) != 0)
		return err;
	if ((err = ord_store_begin_read(g->db)) != 0)
		return err;
	ord_record_init(&r);
	game_sides(g, &dg);
	if ((err = ord_store_record_load_parts(g->db, t.turn, ORD_REC_RESULTS, &r)) != 0)
		goto out;
	m.g = g;
	m.turn = t.turn;
	memset(&src, 0, sizeof(src));
	src.rs = g->rs;
	src.rules = g->rules;
	src.made = g->made;
	src.made_core = ord_game_made_core(g);
	src.title = g->title;
	src.sides = dg.sides;
	src.side_titles = dg.titles;
	src.nsides = dg.nsides;
	src.turn = t.turn;
	src.state = t.state;
	src.phase = k;
	src.r = &r;
	src.units_at = game_units_at;
	src.events = game_events;
	src.sheets = game_sheets;
	src.ud = &m;
	err = ord_map_draw(&src, side, lang, svg);
out:
	ord_store_end_read(g->db);
	ord_record_release(&r);
	game_sides_release(&dg);
	return err;
}

/* ---- the chart: every phase of every turn ---- */

struct turns {
	int n;       /* turns */
	int *phases; /* phases resolved in each (index turn - 1) */
};

static int add_turn(void *ud, const struct ord_store_turn *t)
{
	struct turns *ts = ud;

	if (t->turn < 1)
		return 0;
	if (t->turn > ts->n) {
		ts->phases = ord_xrealloc(ts->phases, (size_t)t->turn * sizeof(*ts->phases));
		memset(ts->phases + ts->n, 0, (size_t)(t->turn - ts->n) * sizeof(*ts->phases));
		ts->n = t->turn;
	}
	ts->phases[t->turn - 1] = t->phase;
	return 0;
}

struct story_fill {
	struct ord_ctx *ctx;
	const struct ord_kv **cur; /* per unit of ctx: its latest state read */
};

/* States come in (turn, phase) order; steps take them as they pass. */
static int keep_state(void *ud, const struct ord_store_state *s)
{
	struct story_fill *f = ud;
	const struct ord_unit *u = ord_ctx_find_unit(f->ctx, s->uid);

	if (u && !strcmp(u->id, s->uid))
		f->cur[ord_ctx_unit_index(f->ctx, u)] = ord_ctx_story_keep(f->ctx, s->state);
	return 0;
}

struct state_row {
	char *uid, *state;
	int turn, phase;
};
struct state_rows {
	struct state_row *v;
	size_t n, alloc;
};

static int collect_state(void *ud, const struct ord_store_state *s)
{
	struct state_rows *rows = ud;

	if (rows->n == rows->alloc) {
		rows->alloc = rows->alloc ? 2 * rows->alloc : 256;
		rows->v = ord_xrealloc(rows->v, rows->alloc * sizeof(*rows->v));
	}
	rows->v[rows->n].uid = ord_strdup(s->uid);
	rows->v[rows->n].state = ord_strdup(s->state);
	rows->v[rows->n].turn = s->turn;
	rows->v[rows->n].phase = s->phase;
	rows->n++;
	return 0;
}

int ord_game_chart(ord_game *g, struct ord_buf *svg, const char *side, const char *lang)
{
	struct ord_ctx full, view;
	struct turns ts = { 0, NULL };
	struct state_rows rows = { NULL, 0, 0 };
	struct story_fill f = { NULL, NULL };
	struct ord_picture what;
	struct draw_game dg;
	int *met = NULL;
	size_t *from = NULL;
	size_t i, next = 0;
	int err, t, k, loaded = 0, reading = 0;

	if ((err = check_viewer(g, side, "chart")) != 0 || (err = picture_lang(g->rs, &lang)) != 0)
		return err;
	if ((err = ord_store_begin_read(g->db)) != 0)
		return err;
	reading = 1;
	ord_ctx_init(&full, g->rs, g->rules, 0);
	ord_ctx_init(&view, g->rs, g->rules, 0);
	ord_ctx_set_made(&full, g->made, ord_game_made_core(g));
	ord_ctx_set_made(&view, g->made, ord_game_made_core(g));
	loaded = 1;
	if ((err = ord_store_turns_each(g->db, add_turn, &ts)) != 0)
		goto out;
	if ((err = ord_store_units_each(g->db, 0, 0, add_unit, &full)) != 0)
		goto out;
	ord_ctx_index(&full);

	/* the fog, turn by turn: met[(turn - 1) * nunits + i] = the phase of
	 * the turn the side first met enemy unit i in, in a resolved event
	 * (fog.h); 0: not that turn */
	met = ord_xcalloc((size_t)(ts.n ? ts.n : 1) * full.nunits + 1, sizeof(*met));
	from = ord_xcalloc(full.nunits + 1, sizeof(*from));
	for (t = 1; side && t <= ts.n; t++) {
		ord_ctx_next_phase(&full);
		if ((err = ord_store_events_each(g->db, t, NULL, 1, add_event, &full)) != 0)
			goto out;
		ord_fog_units_met(g->rs, &full, side, ts.phases[t - 1],
				  met + (size_t)(t - 1) * full.nunits);
	}
	for (i = 0; i < full.nunits; i++) {
		int any = !side || !strcmp(full.units[i].side, side);
		for (t = 1; !any && t <= ts.n; t++)
			any = met[(size_t)(t - 1) * full.nunits + i] > 0;
		if (any) {
			from[view.nunits] = i;
			copy_unit(&view, &full.units[i]);
		}
	}
	ord_ctx_index(&view);
	view.turn = ts.n;

	/* the steps: the game's start, then each phase resolved */
	if ((err = ord_store_states_each(g->db, collect_state, &rows)) != 0)
		goto out;
	ord_store_end_read(g->db);
	reading = 0;
	f.ctx = &view;
	f.cur = ord_xcalloc(view.nunits + 1, sizeof(*f.cur));
	for (t = 1; t <= ts.n; t++) {
		const int *mt = met + (size_t)(t - 1) * full.nunits;
		for (k = t == 1 ? 0 : 1; k <= ts.phases[t - 1]; k++) {
			size_t s = ord_ctx_story_step(&view, t, k ? g->rs->phases[k - 1] : "");
			while (next < rows.n && (rows.v[next].turn < t ||
						 (rows.v[next].turn == t && rows.v[next].phase <= k))) {
				struct ord_store_state st = { rows.v[next].uid, rows.v[next].turn,
							      rows.v[next].phase, rows.v[next].state };
				keep_state(&f, &st);
				next++;
			}
			/* an enemy unit from the phase it was met in, in that turn */
			for (i = 0; i < view.nunits; i++)
				if (!side || !strcmp(view.units[i].side, side) ||
				    (mt[from[i]] && mt[from[i]] <= k))
					ord_ctx_story_set(&view, s, i, f.cur[i]);
		}
	}
	/* an enemy unit's state is the last one its side saw */
	for (i = 0; side && i < view.nunits; i++) {
		size_t s;
		const struct ord_kv *last = NULL;
		if (!strcmp(view.units[i].side, side))
			continue;
		for (s = 0; s < ord_ctx_nsteps(&view); s++)
			if (ord_ctx_step_state(&view, s, &view.units[i]))
				last = ord_ctx_step_state(&view, s, &view.units[i]);
		ord_kv_release(&view.units[i].state);
		ord_kv_init(&view.units[i].state);
		if (last)
			ord_kv_copy(&view.units[i].state, last);
	}

	memset(&what, 0, sizeof(what));
	what.kind = "chart";
	what.game = g->title;
	what.turn = ts.n;
	what.phase = "";
	what.turn_state = "";
	what.lang = lang;
	view.lang = lang;
	game_sides(g, &dg);
	err = draw(&dg, &full, &view, side, &what, svg);
	game_sides_release(&dg);
out:
	if (reading)
		ord_store_end_read(g->db);
	if (loaded) {
		ord_ctx_release(&full);
		ord_ctx_release(&view);
	}
	for (i = 0; i < rows.n; i++) {
		free(rows.v[i].uid);
		free(rows.v[i].state);
	}
	free(rows.v);
	free(f.cur);
	free(ts.phases);
	free(met);
	free(from);
	return err;
}
