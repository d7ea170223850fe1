/*
 * game_phases.c - the sealed turn of the cycle: the seal (with the NMR
 * stand-ins), the referee's events, witnessed dice (close and links), each
 * phase resolved, and the exchange that opens the next turn.  What a phase
 * does (the event checks, the run, the digest) is phase.c's, which the
 * verifier's replay calls too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/game.h"
#include "core/phase.h"

/* The command line's way past a seal waiting for sides (ORD_WAY_SEAL_FORCE). */
#define SEAL_FORCE_WAY "seal --force seals now"

/* The load of a change that acts on the turn's events (an event, a void,
 * a close): each event held to its log entry as it is loaded
 * (game_live.c), before a check or a digest reads it. */
static const struct ord_game_load held_load = { .hold_events = 1, .roster = NULL };

/* ---- seal ---- */

/*
 * A phase is resolved, and the next turn opened, from each unit's current
 * state (unit_current), an index of its last recorded state: one changed
 * outside orderly would be played on unseen until an audit (a red-team
 * review made a unit of 24 figures 48 and resolved), so these refuse it,
 * and the seal before the turn's sheets are closed on it.  A damaged game
 * file (exit 65), as one whose tables changed.  One query over every
 * unit: a resolve reads them all anyway, and a seal indexes every order.
 */
static int current_fresh(struct ord_game *g)
{
	int stale, err;

	if ((err = ord_store_current_stale(g->db, &stale)) != 0)
		return err;
	if (stale)
		return ord_error_set(ORD_EBADDATA,
				     "'%s': %d unit%s current state (unit_current) %s not the last state recorded for %s: it was changed outside orderly ('orderly audit' says where); nothing was done",
				     g->path, stale, stale == 1 ? "'s" : "s'",
				     stale == 1 ? "is" : "are", stale == 1 ? "it" : "them");
	return 0;
}

/* The seal's check of a sheet a stand-in repeats (ord_phase_repeat). */
struct repeat_check {
	struct ord_game *g;
	int turn;
	const char *side;
};

static int repeat_check(void *ud, const char *bytes, size_t len, struct ord_diag *d)
{
	struct repeat_check *c = ud;

	return ord_game_check_bytes(c->g, c->turn, c->side, bytes, len, d, NULL, NULL);
}

/*
 * The stand-in of a side that sent nothing: when the policy repeats, its
 * sheet of the turn before as far as it is still valid (ord_phase_repeat:
 * but for its orders no longer valid, whose units hold; in a game made
 * before nmr_repeat=orders, only when all of it is), else a hold.
 * Everything in it follows from public values (its text, the policy, the
 * sheet revealed last turn, the units' states, a nonce derived from the
 * game, turn and side), so re-sealing a copy of the game cannot give
 * another one, nor another dice key.  The verifier's replay decides the
 * same (replay.c).  Why a side holds, or which of its units do, is said in
 * lines of why, for the referee.
 */
static int stand_in(struct ord_game *g, const struct ord_store_turn *t,
		    const struct ord_store_side *side, struct ord_buf *why)
{
	struct ord_store_sheet prev;
	struct ord_buf hold = ORD_BUF_INIT, first = ORD_BUF_INIT, text = ORD_BUF_INIT;
	int err = 0, repeat = 0, policy = !strcmp(g->nmr, "repeat");

	memset(&prev, 0, sizeof(prev));
	if (policy && t->turn > 1) {
		err = ord_store_sheet_read(g->db, t->turn - 1, side->id, 0, &prev);
		if (err == ORD_ENOTFOUND) {
			ord_error_clear();
			err = 0;
			ord_buf_addf(&first, "it has no sheet of turn %d", t->turn - 1);
		} else if (err) {
			return err;
		} else if (ord_game_blank(prev.bytes, prev.len)) {
			ord_buf_addf(&first, "its sheet of turn %d gives no orders", t->turn - 1);
		} else {
			struct repeat_check c = { g, t->turn, side->name };
			repeat = ord_phase_repeat(&text, why, g->notation, side->name, t->turn,
						  prev.bytes, prev.len, g->repeat_orders,
						  repeat_check, &c);
		}
	} else if (policy) {
		ord_buf_addf(&first, "turn %d has no turn before it to repeat", t->turn);
	}
	if (!repeat && first.len)
		ord_buf_addf(why, "%s%s holds: %s", why->len ? "\n" : "", side->name, first.buf);
	ord_buf_release(&first);
	if (repeat) {
		err = ord_game_store_sheet(g, NULL, t, side, "repeat", text.buf, text.len, NULL,
					   NULL, NULL, 0);
	} else {
		ord_phase_hold_text(&hold, side->name, t->turn, g->nmr);
		err = ord_game_store_sheet(g, NULL, t, side, "hold", hold.buf, hold.len, NULL, NULL,
					   NULL, 0);
	}
	ord_store_sheet_release(&prev);
	ord_buf_release(&text);
	ord_buf_release(&hold);
	return err;
}

int64_t ord_game_seal_from(const ord_game *g, int64_t deadline)
{
	/* an honest seal in the deadline's next second, the clock stepped back
	 * a second after it, and one forced in the deadline's own second and
	 * dated a second later log the same times: a game made since seals
	 * unforced only from the second second on, and its verifier lets no
	 * entry after such a seal run back to the deadline (verify.c,
	 * check_seal_after) */
	int since = ord_canon_made_since_day(g->made, ORD_GAME_MADE);

	return deadline + (since ? 2 : 1);
}

int ord_game_seal(ord_game *g, int force)
{
	struct ord_buf missing = ORD_BUF_INIT, body = ORD_BUF_INIT, held = ORD_BUF_INIT;
	struct ord_buf why = ORD_BUF_INIT;
	struct ord_canon_sealed *cs = NULL;
	struct ord_ctx units;
	unsigned char key[32], wstart[32], wtop[32];
	struct ord_store_turn t;
	struct ord_head head;
	size_t i, nmissing = 0;
	int64_t seq;
	int err, late, have_key = 1, checked = 0;

	if ((err = ord_game_may_change(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	ord_ctx_init(&units, g->rs, g->rules, 0);
	ord_ctx_set_made(&units, g->made, ord_game_made_core(g));
	if ((err = ord_game_turn(g, &t, 0)) != 0)
		goto out;
	units.turn = t.turn;
	if (t.state != ORD_TURN_OPEN) {
		err = ord_error_set(ORD_ESTATE, "turn %d is already sealed", t.turn);
		goto out;
	}
	if (!g->have_sk) {
		err = ord_error_set(ORD_EUSAGE,
				    "the key of '%s' is kept outside the game file: give it with --key FILE to sign the seal",
				    g->path);
		goto out;
	}
	/* the turn is played from the units' current states: none changed;
	 * the sides and units are the ones the opening digests (or, opened
	 * before the roster's roots, the scenario's), the seed and the
	 * sheets it seals the ones logged (game_live.c); every unit read
	 * once, with its state, for the checks of the sheets and the index
	 * of the orders below */
	if ((err = current_fresh(g)) != 0 || (err = ord_game_live_units(g, t.turn, &units)) != 0 ||
	    (err = ord_game_live_sheets(g, &t, 0)) != 0)
		goto out;
	/* and each side's last sheet is one the rules take against them: a
	 * submit holds no unit row to the log (game_live.c) */
	if ((err = ord_game_live_sheets_valid(g, t.turn, &units, &checked)) != 0)
		goto out;
	/* a side has handed in when it has a sheet or, referee-less, a commitment */
	if ((err = ord_game_sides_lacking(g, t.turn, 0, &missing, &nmissing)) != 0)
		goto out;
	late = t.deadline && (int64_t)time(NULL) >= ord_game_seal_from(g, t.deadline);
	if (nmissing && !force && !late) {
		struct ord_buf m = ORD_BUF_INIT;
		size_t at;

		ord_buf_addf(&m,
			     g->refereeless ? "cannot seal turn %d: waiting for the commitment of %s ("
					    : "cannot seal turn %d: waiting for %s (",
			     t.turn, missing.buf);
		at = m.len;
		ord_buf_adds(&m, SEAL_FORCE_WAY);
		ord_buf_addf(&m, "; missing sides follow the NMR policy '%s')", g->nmr);
		err = ord_error_set(ORD_ESTATE, "%s", m.buf);
		/* a front-end with a control of its own says it there */
		ord_error_set_way(ORD_WAY_SEAL_FORCE, at, strlen(SEAL_FORCE_WAY));
		ord_buf_release(&m);
		goto out;
	}
	if (nmissing && !strcmp(g->nmr, "wait")) {
		err = ord_error_set(ORD_ESTATE,
				    "cannot seal turn %d: the NMR policy is 'wait' and %s %s not submitted",
				    t.turn, missing.buf, nmissing == 1 ? "has" : "have");
		goto out;
	}
	/* witnessed: the referee's own chain, which stands in for a side that
	 * does not reveal its link in time; its start is revealed at the exchange */
	if (g->witnessed) {
		randombytes_buf(wstart, sizeof(wstart));
		memcpy(wtop, wstart, 32);
		ord_witness_up(wtop, ORD_WITNESS_LINKS);
		if ((err = ord_store_turn_set_referee_witness(g->db, t.turn, wstart)) != 0)
			goto out;
	}
	for (i = 0; i < g->nsides; i++) {
		unsigned char c[32];
		int version, opened;

		if ((err = ord_store_latest(g->db, t.turn, g->sides[i].id, &version, c, &opened)) != 0)
			goto out;
		if (version)
			continue;
		ord_buf_addf(&held, "%s%s", held.len ? ", " : "", g->sides[i].name);
		if ((err = stand_in(g, &t, &g->sides[i], &why)) != 0)
			goto out;
	}
	/* referee-less: the key waits for the last opening (ord_game_dice_key) */
	err = ord_game_dice_key(g, t.turn, t.seed, key);
	if (err == ORD_ESTATE && g->refereeless) {
		ord_error_clear();
		have_key = 0;
		err = 0;
	}
	if (err)
		goto out;
	cs = ord_xcalloc(g->nsides + 1, sizeof(*cs));
	for (i = 0; i < g->nsides; i++) {
		int opened;
		cs[i].side = g->sides[i].name;
		if ((err = ord_store_latest(g->db, t.turn, g->sides[i].id, &cs[i].version,
					    cs[i].commitment, &opened)) != 0)
			goto out;
	}
	/* every unit's order parsed once: an event reads only its units' */
	if ((err = ord_game_index_orders(g, t.turn, &units)) != 0)
		goto out;
	ord_canon_seal(&body, t.turn, force, cs, g->nsides, held.buf, g->witnessed ? wtop : NULL,
		       checked);
	if ((err = ord_game_log(g, &seq, t.turn, "seal", body.buf)) != 0 ||
	    (err = ord_game_sign_head(g, t.turn, "seal", &head)) != 0 ||
	    (err = ord_store_turn_set_state(g->db, t.turn, ORD_TURN_SEALED, 0,
					    have_key ? key : NULL)) != 0)
		goto out;
	{
		struct ord_change c = { .kind = ORD_CHANGE_SEAL,
					.turn = t.turn,
					.held = held.buf,
					.head = &head,
					.held_why = why.buf };
		if ((err = ord_game_notify(g, &c)) != 0)
			goto out;
	}
	err = ord_store_commit(g->db);
out:
	if (err)
		ord_store_rollback(g->db);
	sodium_memzero(wstart, sizeof(wstart));
	ord_ctx_release(&units);
	free(cs);
	ord_buf_release(&missing);
	ord_buf_release(&held);
	ord_buf_release(&why);
	ord_buf_release(&body);
	return err;
}

/*
 * A phase starts from the states the log digests: the turn's first from
 * its opening's (state_root), a later one from the digest the phase before
 * logged of every unit's state as it left them (its resolve entry's
 * state_root).  A unit changed in the file before it, in its last state
 * row and its current state alike, so that current_fresh sees them agree,
 * would be resolved from unseen: a second red-team review made a unit 48
 * figures both ways before the first phase; before a later one, a unit no
 * phase of the turn had changed yet was not held at all until 2026-12-07
 * (a gun given 40 figures between the movement and the fire).
 */
static int phase_states(struct ord_game *g, struct ord_ctx *ctx, int turn, int first)
{
	unsigned char root[32];

	ord_phase_state_root(ctx, root);
	return ord_game_states_held(g, root, turn, first);
}

/*
 * The later phases start from the rows the earlier ones wrote: a unit
 * state of phase 1 changed after it (with the current state, so that
 * current_fresh sees them agree) would be played on in phase 2, and only
 * the audit said so.  Before the next phase, and before the exchange
 * after the last, the rows the turn's last resolve entry vouches for (its
 * rolls, results and unit states) must still give the digest and the
 * numbers it logs, as the verifier holds every entry to
 * (ord_phase_rows_agree).  Its rows only, read down each table's log_seq
 * index: the cost is that phase's rows, not the game's.  The rows of the
 * phases before it, a state row added under another entry, and the states
 * of units no phase of the turn changed, are left to the audit.
 */
static int resolved_rows(struct ord_game *g, int turn)
{
	struct ord_phase_rows found, logged;
	struct ord_record r;
	struct ord_buf what = ORD_BUF_INIT;
	char *body = NULL, *phase = NULL, *index = NULL;
	int64_t seq = 0;
	int err;

	if ((err = ord_store_log_last(g->db, turn, "resolve", &body, &seq)) != 0)
		return err;
	if ((err = ord_store_record_load_entry(g->db, seq, &r)) != 0) {
		free(body);
		return err;
	}
	if (!ord_phase_rows_agree(&r, seq, body, &found, &logged)) {
		phase = ord_canon_get(body, "phase");
		index = ord_canon_get(body, "index");
		if (found.rolls != logged.rolls || found.results != logged.results ||
		    found.states != logged.states)
			ord_buf_addf(&what,
				     "it digests %ld roll%s, %ld result%s and %ld unit state%s, the file holds %ld, %ld and %ld",
				     logged.rolls, logged.rolls == 1 ? "" : "s", logged.results,
				     logged.results == 1 ? "" : "s", logged.states,
				     logged.states == 1 ? "" : "s", found.rolls, found.results,
				     found.states);
		else
			ord_buf_addf(&what,
				     "its %ld roll%s, %ld result%s and %ld unit state%s give another digest",
				     found.rolls, found.rolls == 1 ? "" : "s", found.results,
				     found.results == 1 ? "" : "s", found.states,
				     found.states == 1 ? "" : "s");
		err = ord_error_set(ORD_EBADDATA,
				    "'%s': the rows phase %s (%s) of turn %d wrote are not the ones its resolve entry (entry %lld) digests: %s; they were changed outside orderly ('orderly audit' says where); nothing was done",
				    g->path, index ? index : "?", phase ? phase : "?", turn,
				    (long long)seq, what.buf);
	}
	ord_record_release(&r);
	ord_buf_release(&what);
	free(index);
	free(phase);
	free(body);
	return err;
}

/* ---- events ---- */

/* The current phase (0-based index into the ruleset's phases) and name. */
static int current_phase(struct ord_game *g, const struct ord_store_turn *t, const char **phase)
{
	size_t n = ord_game_nphases(g);
	int logged, err;

	if (t->state == ORD_TURN_OPEN)
		return ord_error_set(ORD_ESTATE,
				     "turn %d is not sealed yet: seal it before its phases", t->turn);
	if (t->state != ORD_TURN_SEALED || (size_t)t->phase >= n)
		return ord_error_set(ORD_ESTATE,
				     "every phase of turn %d is resolved: exchange the sheets to open the next turn",
				     t->turn);
	/* the log, not the turn row, says how far the turn is */
	if ((err = ord_store_log_count(g->db, t->turn, "resolve", &logged)) != 0)
		return err;
	if (logged != t->phase)
		return ord_error_set(ORD_EBADDATA,
				     "turn %d: the game file says %d phase%s resolved, but its log shows %d: it was changed outside orderly ('orderly audit' says where)",
				     t->turn, t->phase, t->phase == 1 ? " is" : "s are", logged);
	if (!t->have_dice_key && g->refereeless) {
		struct ord_buf w = ORD_BUF_INIT;
		size_t nw;
		err = ord_game_sides_lacking(g, t->turn, 1, &w, &nw);
		if (!err)
			err = ord_error_set(ORD_ESTATE,
					    "turn %d is sealed but waiting for %s to open %s sheet ('orderly open'): the phases need every sheet",
					    t->turn, w.buf, nw == 1 ? "its" : "their");
		ord_buf_release(&w);
		return err;
	}
	*phase = g->rs->phases[t->phase];
	return 0;
}

/* Witnessed games: whether the current phase's events are closed. */
static int phase_closed(struct ord_game *g, const struct ord_store_turn *t, int *closed)
{
	int n, err;

	*closed = 0;
	if (!g->witnessed)
		return 0;
	if ((err = ord_store_log_count(g->db, t->turn, "close", &n)) != 0)
		return err;
	*closed = n > t->phase;
	return 0;
}

/* The current phase, open for events: sealed, not closed. */
static int events_open(struct ord_game *g, struct ord_store_turn *t, const char **phase)
{
	int err, closed;

	if ((err = ord_game_turn(g, t, 0)) != 0 || (err = current_phase(g, t, phase)) != 0 ||
	    (err = phase_closed(g, t, &closed)) != 0)
		return err;
	if (closed)
		return ord_error_set(ORD_ESTATE,
				     "the events of phase '%s' are closed (the sides reveal their witness links now): resolve it",
				     *phase);
	return 0;
}

/* Copy diagnostics at line (when an item has none) and col (when it has
 * neither: an argument's problem keeps its word's), and count those only
 * counted. */
static void diag_at(struct ord_diag *to, const struct ord_diag *from, size_t start, unsigned line,
		    unsigned col)
{
	size_t i, k;

	for (i = start; i < from->n; i++) {
		const struct ord_diag_item *f = &from->items[i];
		struct ord_diag_item *it = ord_diag_add(to, f->line ? f->line : line,
							f->line || f->col ? f->col : col, f->unit,
							f->rule, "%s", f->msg);
		/* the events it names, where it names them */
		if (it && f->nrefs) {
			it->refs = ord_xcalloc(f->nrefs, sizeof(*it->refs));
			for (k = 0; k < f->nrefs; k++)
				it->refs[k] = f->refs[k];
			it->nrefs = f->nrefs;
		}
	}
	to->more += from->more;
}

struct checked {
	char *args;   /* its arguments, as stored */
	char *checks; /* what the checks said, "" when nothing */
	int broke;    /* the checks found something */
	size_t index; /* its place among the ctx's events */
};

struct events_tally {
	int bad_args, broke, wrong_phase, unknown_unit, repeats;
};

/* Do two values of key ks (NULL: a key the specs do not declare) say the
 * same?  As stored, a value is as written: range=5.0 and range=5 are one
 * range, yes and true one answer. */
static int value_same(const struct ord_key_spec *ks, const char *a, const char *b)
{
	double x, y;
	int p, q;

	if (!strcmp(a, b))
		return 1;
	if (ks && (ks->type == ORD_KEY_INT || ks->type == ORD_KEY_NUM))
		return !ord_parse_num(a, &x) && !ord_parse_num(b, &y) && x == y;
	if (ks && ks->type == ORD_KEY_BOOL)
		return (p = ord_parse_bool(a)) >= 0 && (q = ord_parse_bool(b)) >= 0 && p == q;
	return 0;
}

/* Do a and b, the keys of an event of kind ek, hold the same values? */
static int kv_same(const struct ord_event_kind *ek, const struct ord_kv *a, const struct ord_kv *b)
{
	const struct ord_key_spec *ks;
	size_t i;
	const char *v;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++) {
		if (!(v = ord_kv_get(b, a->items[i].key)))
			return 0;
		for (ks = ek->keys; ks && ks->name && strcmp(ks->name, a->items[i].key); ks++)
			;
		if (!value_same(ks && ks->name ? ks : NULL, v, a->items[i].value))
			return 0;
	}
	return 1;
}

/*
 * The standing event ev repeats exactly (its kind and every value, its
 * defaults filled in, a number or a yes/no compared by what it says:
 * kv_same), of those of its first unit: NULL when none.  The
 * checks refuse most such repeats ("already fired"), and an override would
 * record them: a file run twice, or an --override command called back by
 * the shell, would do every event of it twice over one reason.
 */
static const struct ord_event *repeated_event(struct ord_ctx *ctx, const struct ord_event_kind *ek,
					      const struct ord_event *ev)
{
	const struct ord_key_spec *ks;
	const struct ord_event *e;
	const struct ord_unit *u = NULL;
	const char *v;
	size_t k;

	for (ks = ek->keys; ks && ks->name && !u; ks++)
		if (ks->type == ORD_KEY_UNIT && (v = ord_kv_get(&ev->kv, ks->name)) != NULL)
			u = ord_ctx_find_unit(ctx, v);
	for (k = 0; u && (e = ord_ctx_unit_event(ctx, u, k)) != NULL; k++)
		if (e != ev && e->seq < ev->seq && !strcmp(e->kind, ev->kind) &&
		    kv_same(ek, &e->kv, &ev->kv))
			return e;
	return NULL;
}

/*
 * Check ev against the orders into d, its problems at line; returns how
 * many it found, listed or only counted.  Without an override a problem
 * refuses the whole batch, and what the checks say is recorded only for an
 * event none refuses, so the caller checks straight into its own list:
 * past the list's cap a problem is only counted, its message never built.
 * A file of thousands of refused lines (a module may find a problem with
 * every earlier event of a unit: "already moved (event #N)") then costs
 * what checking it costs, not what formatting and copying each problem
 * would (it took minutes and gigabytes).  With an override the checks of
 * each event are recorded whole, so it has a list of its own.
 *
 * Past the cap the caller also takes a refused event out of what the
 * lines after it are checked with: every problem listed is as the file
 * reads, but a unit moved in four thousand lines would otherwise be
 * checked against each of its earlier moves four thousand times over (the
 * count of the problems not listed is of those found so).
 */
static size_t check_one(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_buf *checks,
			struct ord_diag *d, unsigned line, unsigned col)
{
	size_t had = ord_diag_count(d), from = d->n, k;

	ord_phase_check_event(ctx, ev, checks, d);
	for (k = from; k < d->n; k++)
		if (!d->items[k].line) {
			d->items[k].line = line;
			if (!d->items[k].col)
				d->items[k].col = col;
		}
	return ord_diag_count(d) - had;
}

/* Check every event of evs in ctx, each with the ones before it. */
static int check_events(ord_game *g, struct ord_ctx *ctx, struct ord_event_in *evs, size_t n,
			const char *phase, unsigned seq, const char *override_reason,
			struct checked *ck, struct ord_diag *diag, struct events_tally *tl)
{
	struct ord_buf names = ORD_BUF_INIT;
	size_t i;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		const struct ord_event_kind *ek = evs[i].kind
							  ? ord_ruleset_event_kind(g->rs, evs[i].kind)
							  : NULL;
		struct ord_buf args = ORD_BUF_INIT, checks = ORD_BUF_INIT;
		struct ord_diag d;
		struct ord_event *ev;
		struct ord_unit *full;
		struct ord_kv kv;
		size_t unknown = ctx->unknown_units;

		ord_diag_init(&d);
		ord_kv_init(&kv);
		if (!evs[i].kind) {
			/* refused by the caller, its problems in diag already */
			tl->bad_args++;
		} else if (!ek) {
			const struct ord_event_kind *k;
			struct ord_buf hint = ORD_BUF_INIT;
			ord_buf_reset(&names);
			for (k = g->rs->events; k && k->name; k++)
				ord_buf_addf(&names, "%s%s", names.len ? " " : "", k->name);
			/* a kind mistyped ("fier"): the one meant */
			ord_words_hint(&hint, names.buf, evs[i].kind);
			ord_diag_add(diag, evs[i].line, evs[i].col, NULL, NULL,
				     "unknown event '%s' for ruleset %s (expected one of %s)%s",
				     evs[i].kind, g->rs->name, names.buf, hint.len ? hint.buf : "");
			ord_buf_release(&hint);
			tl->bad_args++;
		} else if (strcmp(ek->phase, phase)) {
			ord_diag_add(diag, evs[i].line, evs[i].col, NULL, NULL,
				     "event '%s' belongs to phase '%s'; the current phase is '%s'",
				     evs[i].kind, ek->phase, phase);
			tl->bad_args++;
			tl->wrong_phase++;
		} else if (ord_phase_event_args_at(ctx, ek, evs[i].argc, evs[i].argv, evs[i].cols,
						   &kv, &d) ||
			   ord_phase_event_defaults_at(ctx, ek, evs[i].argc, evs[i].argv,
						       evs[i].cols, &kv, &d)) {
			tl->unknown_unit += (int)(ctx->unknown_units - unknown);
			diag_at(diag, &d, 0, evs[i].line, evs[i].col);
			tl->bad_args++;
		} else if ((full = ord_ctx_unit_events_full(ctx, ek, &kv)) != NULL) {
			/* not even by an override (ctx.h) */
			ord_diag_add(diag, evs[i].line, evs[i].col, full->id, NULL,
				     "unit '%s' is named by %d events of phase '%s' already, the most a phase takes (void one first)",
				     full->id, ORD_EVENTS_PER_UNIT, phase);
			tl->bad_args++;
		} else {
			ord_kv_serialize(&kv, &args);
			evs[i].seq = seq + (unsigned)i;
			ev = ord_ctx_add_event(ctx, evs[i].seq, phase, evs[i].kind, args.buf,
					       override_reason, NULL);
			ck[i].index = ord_ctx_nevents(ctx) - 1;
			if (check_one(ctx, ev, &checks, override_reason ? &d : diag, evs[i].line,
				      evs[i].col)) {
				const struct ord_event *rep = repeated_event(ctx, ek, ev);

				ck[i].broke = 1;
				tl->broke++;
				if (override_reason)
					diag_at(diag, &d, 0, evs[i].line, evs[i].col);
				if (rep && rep->seq >= seq)
					ord_diag_add(diag, evs[i].line, evs[i].col, NULL, NULL,
						     "it repeats line %u exactly: an event is recorded once, and an override records no repeat",
						     evs[rep->seq - seq].line);
				else if (rep)
					ord_diag_add(diag, evs[i].line, evs[i].col, NULL, NULL,
						     "it repeats event #%u exactly, recorded already: an event is recorded once, and an override records no repeat (void #%u first to record it anew)",
						     rep->seq, rep->seq);
				tl->repeats += rep != NULL;
				if (!override_reason && ord_diag_full(diag))
					/* nothing will be recorded, and no more problems
					 * are listed: the lines after it are checked
					 * without it (see check_one) */
					ord_ctx_unlist_event(ctx, ck[i].index);
			}
			ord_error_clear();
			err = ord_state_check(ctx);
			ck[i].args = ord_buf_detach(&args, NULL);
			ck[i].checks = ord_buf_detach(&checks, NULL);
		}
		ord_diag_release(&d);
		ord_kv_release(&kv);
		ord_buf_release(&args);
		ord_buf_release(&checks);
	}
	ord_buf_release(&names);
	return err;
}

/*
 * The checks name an earlier event by its number ("already moved (event
 * #4)"), and the events of a batch are checked under the numbers they
 * would be recorded as (seq on).  When the batch is refused none of them
 * is recorded: a problem of the diag items from index from on that names
 * one read from a line (its refs, ord_diag_item_event) names it by that
 * line instead ("the event of line 3"), so that a referee looks for no
 * event #4 that was never recorded.  The numbers of the events recorded
 * before the batch are kept.
 */
static void name_unrecorded(struct ord_diag *diag, size_t from, const struct ord_event_in *evs,
			    size_t n, unsigned seq)
{
	struct ord_buf out = ORD_BUF_INIT;
	size_t i, k;

	for (i = from; i < diag->n; i++) {
		struct ord_diag_item *it = &diag->items[i];
		size_t done = 0; /* msg copied to out up to here */
		int changed = 0;

		ord_buf_reset(&out);
		for (k = 0; k < it->nrefs; k++) {
			struct ord_diag_ref *r = &it->refs[k];
			size_t at = r->at, len = r->len;

			ord_buf_add(&out, it->msg + done, at - done);
			r->at = out.len;
			if (r->seq >= seq && r->seq - seq < n && evs[r->seq - seq].line) {
				/* "... (event #4)": "... (the event of line 3)" */
				ord_buf_addf(&out, "the event of line %u", evs[r->seq - seq].line);
				changed = 1;
			} else {
				ord_buf_add(&out, it->msg + at, len);
			}
			r->len = out.len - r->at;
			done = at + len;
		}
		if (!changed)
			continue;
		ord_buf_adds(&out, it->msg + done);
		free(it->msg);
		it->msg = ord_buf_detach(&out, NULL);
	}
	ord_buf_release(&out);
}

/* ord_game_events; *args_refused set when the events are refused for
 * their arguments alone (none disagrees with the sealed orders). */
static int record_events(ord_game *g, struct ord_event_in *evs, size_t n,
			 const char *override_reason, struct ord_diag *diag, int *args_refused)
{
	struct checked *ck = ord_xcalloc(n + 1, sizeof(*ck));
	struct ord_buf body = ORD_BUF_INIT;
	struct ord_event_lazy *lazy = NULL;
	struct events_tally tl = { 0, 0, 0, 0, 0 };
	struct ord_store_turn t;
	struct ord_ctx ctx;
	const char *phase = NULL;
	unsigned seq = 1;
	size_t i, before = diag->n, more_before = diag->more;
	int err, loaded = 0, bad_args = 0, broke = 0, wrong_phase = 0;

	if (override_reason && ord_game_blank(override_reason, strlen(override_reason))) {
		/* a reason of blanks states nothing: the audit would show none */
		err = ord_error_set(ORD_EUSAGE, "an override needs a stated reason");
		goto out;
	}
	if (override_reason && (err = ord_text_plain("the override's reason", override_reason)) != 0)
		goto out;
	if (!n) {
		err = ord_error_set(ORD_EUSAGE, "no events to record");
		goto out;
	}
	if ((err = ord_game_may_change_small(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		goto out;
	/* the events it checks with are held to their entries as they are
	 * loaded (held_load) */
	if ((err = events_open(g, &t, &phase)) != 0 ||
	    (err = ord_store_event_next(g->db, t.turn, &seq)) != 0 ||
	    (err = ord_game_event_ctx(g, &ctx, t.turn, phase, seq, n, 1, &held_load, &lazy)) != 0)
		goto out;
	loaded = 1;
	ctx.phase = phase;
	/* every event checked first, each with the ones before it in the ctx */
	err = check_events(g, &ctx, evs, n, phase, seq, override_reason, ck, diag, &tl);
	if (!err && lazy && (tl.unknown_unit || ord_game_event_ctx_failed(lazy))) {
		/* a unit no lookup finds: check again with every unit, so the
		 * message can say which one was meant; a unit whose order the
		 * index cannot give (the file was changed): the index is only
		 * derived, so check again from the sheets themselves */
		ord_error_clear();
		ord_diag_truncate(diag, before);
		diag->more = more_before; /* those only counted are counted again */
		for (i = 0; i < n; i++) {
			free(ck[i].args);
			free(ck[i].checks);
		}
		memset(ck, 0, (n + 1) * sizeof(*ck));
		memset(&tl, 0, sizeof(tl));
		ord_ctx_release(&ctx);
		ord_game_event_ctx_done(lazy);
		lazy = NULL;
		loaded = 0;
		if ((err = ord_game_event_ctx(g, &ctx, t.turn, phase, seq, n, 0, &held_load, &lazy)) != 0)
			goto out;
		loaded = 1;
		ctx.phase = phase;
		err = check_events(g, &ctx, evs, n, phase, seq, override_reason, ck, diag, &tl);
	}
	if (err)
		goto out;
	bad_args = tl.bad_args;
	broke = tl.broke;
	wrong_phase = tl.wrong_phase;
	if (n == 1 && !evs[0].line && evs[0].kind && bad_args && diag->n == before + 1 &&
	    (wrong_phase || !ord_ruleset_event_kind(g->rs, evs[0].kind))) {
		/* one event of another phase, or of no kind: the state, or the
		 * usage (an event read from a line keeps its message at the line) */
		err = ord_error_set(wrong_phase ? ORD_ESTATE : ORD_EUSAGE, "%s",
				    diag->items[before].msg);
		ord_diag_truncate(diag, before);
		goto out;
	}
	if (bad_args && !broke) {
		*args_refused = 1;
		err = ord_error_set(ORD_EUSAGE,
				    "%zu of %zu event%s refused for %s arguments: nothing recorded",
				    (size_t)bad_args, n, n == 1 ? "" : "s",
				    bad_args == 1 ? "its" : "their");
		goto out;
	}
	if (bad_args) {
		/* every refused event counted, whatever its problem */
		err = ord_error_set(ORD_EUSAGE,
				    "%zu of %zu events refused (%d for %s arguments, %d %s with the "
				    "sealed orders): nothing recorded",
				    (size_t)(bad_args + broke), n, bad_args,
				    bad_args == 1 ? "its" : "their", broke,
				    broke == 1 ? "disagrees" : "disagree");
		goto out;
	}
	if (tl.repeats) {
		/* not for an override: it would do what was done twice */
		err = n == 1 ? ord_error_set(ORD_EUSAGE,
					     "event '%s' repeats one recorded already: not recorded again",
					     evs[0].kind)
			     : ord_error_set(ORD_EUSAGE,
					     "%d of %zu events repeat exactly one recorded already or a line before them (was the file recorded before?): nothing recorded",
					     tl.repeats, n);
		goto out;
	}
	if (broke && !override_reason) {
		err = n == 1 ? ord_error_set(ORD_ECHECK, "event '%s' disagrees with the sealed orders",
					     evs[0].kind)
			     : ord_error_set(ORD_ECHECK,
					     "%d of %zu events disagree with the sealed orders: nothing recorded",
					     broke, n);
		goto out;
	}
	/* then every one recorded, in one transaction */
	for (i = 0; i < n; i++) {
		struct ord_store_event se;
		int64_t lseq;

		ord_buf_reset(&body);
		ord_canon_event(&body, evs[i].seq, phase, evs[i].kind, ck[i].args,
				ck[i].broke ? override_reason : NULL, ck[i].checks);
		if ((err = ord_game_log(g, &lseq, t.turn, "event", body.buf)) != 0)
			goto out;
		memset(&se, 0, sizeof(se));
		se.seq = evs[i].seq;
		se.phase = phase;
		se.kind = evs[i].kind;
		se.args = ck[i].args;
		se.override = ck[i].broke ? override_reason : NULL;
		se.checks = ck[i].checks;
		se.log_seq = lseq;
		if ((err = ord_store_event_insert(g->db, t.turn, &se)) != 0 ||
		    (err = ord_game_index_event(g, &ctx, t.turn, &ctx.events[ck[i].index])) != 0)
			goto out;
	}
	{
		struct ord_change c = { .kind = ORD_CHANGE_EVENT, .turn = t.turn, .phase = phase };
		if ((err = ord_game_notify(g, &c)) != 0)
			goto out;
	}
	err = ord_store_commit(g->db);
out:
	if (err) {
		ord_store_rollback(g->db);
		if (loaded)
			name_unrecorded(diag, before, evs, n, seq);
		ord_diag_sort(diag, before);
	}
	if (loaded)
		ord_ctx_release(&ctx);
	ord_game_event_ctx_done(lazy);
	for (i = 0; i < n; i++) {
		free(ck[i].args);
		free(ck[i].checks);
	}
	free(ck);
	ord_buf_release(&body);
	return err;
}

int ord_game_events(ord_game *g, struct ord_event_in *evs, size_t n, const char *override_reason,
		    struct ord_diag *diag)
{
	int args_refused = 0;

	return record_events(g, evs, n, override_reason, diag, &args_refused);
}

int ord_game_event_seq(ord_game *g, const char *kind, int argc, char *const *argv,
		       const char *override_reason, struct ord_diag *diag, unsigned *seq)
{
	struct ord_event_in ev = { .kind = kind, .argc = argc, .argv = argv };
	int args_refused = 0;
	int err = record_events(g, &ev, 1, override_reason, diag, &args_refused);

	/* one event: its argument problem is the command's usage */
	if (err == ORD_EUSAGE && diag->n && args_refused)
		ord_error_set(ORD_EUSAGE, "event '%s': %zu bad argument%s", kind, diag->n,
			      diag->n == 1 ? "" : "s");
	if (seq)
		*seq = err == 0 ? ev.seq : 0;
	return err;
}

int ord_game_event(ord_game *g, const char *kind, int argc, char *const *argv,
		   const char *override_reason, struct ord_diag *diag)
{
	return ord_game_event_seq(g, kind, argc, argv, override_reason, diag, NULL);
}

struct find_event {
	unsigned seq;
	int found, voided;
	char *phase, *kind;
};

static int find_event(void *ud, const struct ord_store_event *e)
{
	struct find_event *f = ud;

	if (e->seq == f->seq) {
		f->found = 1;
		f->voided = e->void_log != 0;
		f->phase = ord_strdup(e->phase);
		f->kind = ord_strdup(e->kind);
	}
	return 0;
}

int ord_game_void_event(ord_game *g, unsigned seq, const char *reason)
{
	struct ord_store_turn t;
	struct ord_buf body = ORD_BUF_INIT;
	struct find_event f = { seq, 0, 0, NULL, NULL };
	const char *phase = NULL;
	int64_t lseq;
	int err;

	if (!reason || ord_game_blank(reason, strlen(reason)))
		return ord_error_set(ORD_EUSAGE, "voiding an event needs a stated reason (--reason)");
	if ((err = ord_text_plain("the reason", reason)) != 0)
		return err;
	if ((err = ord_game_may_change_small(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = events_open(g, &t, &phase)) != 0 ||
	    (err = ord_store_events_each(g->db, t.turn, NULL, 0, find_event, &f)) != 0)
		goto out;
	if (!f.found) {
		err = ord_error_set(ORD_ENOTFOUND,
				    "turn %d has no event #%u ('orderly report GAME --referee' lists them)",
				    t.turn, seq);
		goto out;
	}
	if (f.voided) {
		err = ord_error_set(ORD_ESTATE, "event #%u is voided already", seq);
		goto out;
	}
	if (strcmp(f.phase, phase)) {
		err = ord_error_set(ORD_ESTATE,
				    "event #%u (%s) belongs to phase '%s', which is resolved: only the current phase's events can be voided",
				    seq, f.kind, f.phase);
		goto out;
	}
	ord_canon_void(&body, t.turn, seq, reason);
	if ((err = ord_game_log(g, &lseq, t.turn, "void", body.buf)) != 0 ||
	    (err = ord_store_event_void(g->db, t.turn, seq, lseq, reason)) != 0)
		goto out;
	/* the events after it were checked with it: each must still keep to
	 * the orders without it, or carry an override (the replay holds them
	 * so); a void costs a load of the phase, as a close does */
	if (ord_phase_void_recheck(g->rs, g->rules)) {
		struct ord_ctx ctx;
		struct ord_buf why = ORD_BUF_INIT;
		unsigned bad;
		err = ord_game_load_ctx(g, &ctx, t.turn, 1, phase, &held_load);
		if (err) {
			ord_ctx_release(&ctx);
			goto out;
		}
		ctx.phase = phase;
		bad = ord_phase_recheck_events(&ctx, &why);
		ord_ctx_release(&ctx);
		if (bad)
			err = ord_error_set(ORD_ESTATE,
					    "voiding event #%u (%s) would leave event #%u standing against the orders (%s): void event #%u first, or record it again with --override",
					    seq, f.kind, bad, why.buf, bad);
		ord_buf_release(&why);
		if (err)
			goto out;
	}
	{
		struct ord_change c = { .kind = ORD_CHANGE_EVENT, .turn = t.turn, .phase = phase };
		if ((err = ord_game_notify(g, &c)) != 0)
			goto out;
	}
	err = ord_store_commit(g->db);
out:
	if (err)
		ord_store_rollback(g->db);
	free(f.phase);
	free(f.kind);
	ord_buf_release(&body);
	return err;
}

/* ---- witnessed dice: close a phase's events, reveal links ---- */

int ord_game_close_phase(ord_game *g, struct ord_head *head_out)
{
	struct ord_store_turn t;
	struct ord_buf body = ORD_BUF_INIT;
	struct ord_ctx ctx;
	struct ord_head head;
	unsigned char events[32], blind[32];
	const char *phase = NULL;
	int64_t seq;
	int err, loaded = 0, closed;

	if (!g->witnessed)
		return ord_error_set(ORD_ESTATE,
				     "the dice of '%s' are not witnessed: its phases are resolved without closing their events",
				     g->path);
	if ((err = ord_game_may_change_small(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = current_phase(g, &t, &phase)) != 0 ||
	    (err = phase_closed(g, &t, &closed)) != 0)
		goto out;
	if (closed) {
		err = ord_error_set(ORD_ESTATE, "the events of phase '%s' are closed already", phase);
		goto out;
	}
	/* the digest its head signs is of the events as logged */
	err = ord_game_load_ctx(g, &ctx, t.turn, 0, phase, &held_load);
	loaded = 1;
	if (err)
		goto out;
	ord_phase_events_digest(&ctx, events);
	/* the close's hash, signed in the head every side gets before its
	 * link, chains over the phase's events, whose entries hold nothing
	 * secret: without the seed's blind a player tried his guesses of
	 * the enemy's events against it (threat model, attack 49) */
	ord_close_blind(blind, g->game_id, t.turn, t.phase + 1, t.seed);
	ord_canon_close(&body, t.turn, t.phase + 1, phase, events, blind);
	if ((err = ord_game_log(g, &seq, t.turn, "close", body.buf)) != 0 ||
	    (err = ord_game_sign_head(g, t.turn, "close", &head)) != 0)
		goto out;
	{
		struct ord_change c = {
			.kind = ORD_CHANGE_CLOSE, .turn = t.turn, .phase = phase, .head = &head
		};
		if ((err = ord_game_notify(g, &c)) != 0)
			goto out;
	}
	if ((err = ord_store_commit(g->db)) != 0)
		goto out;
	if (head_out)
		*head_out = head;
out:
	if (err)
		ord_store_rollback(g->db);
	if (loaded)
		ord_ctx_release(&ctx);
	ord_buf_release(&body);
	return err;
}

/* Record side's link for the current phase: link as given, or (kp given)
 * derived from the player's key and the nonce of the sheet the game holds,
 * or as an orderly before the nonce made it when that is the chain the
 * sheet committed to. */
static int witness(ord_game *g, const char *side, const unsigned char *given,
		   const struct ord_keypair *kp)
{
	const struct ord_store_side *s;
	struct ord_store_sheet sheet;
	struct ord_store_turn t;
	struct ord_buf body = ORD_BUF_INIT;
	unsigned char up[32], have[32], link[32], blind[32];
	const char *phase = NULL;
	int64_t seq;
	int err, closed, version, opened;

	memset(&sheet, 0, sizeof(sheet));
	if (!g->witnessed)
		return ord_error_set(ORD_ESTATE, "the dice of '%s' are not witnessed", g->path);
	if ((err = ord_game_may_change_small(g)) != 0 ||
	    (err = ord_game_find_side(g, side, &s)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = current_phase(g, &t, &phase)) != 0 ||
	    (err = phase_closed(g, &t, &closed)) != 0)
		goto out;
	if (!closed) {
		err = ord_error_set(ORD_ESTATE,
				    "the events of phase '%s' are not closed yet: a link is revealed only after them ('orderly witness GAME --close')",
				    phase);
		goto out;
	}
	err = ord_store_link_read(g->db, t.turn, t.phase + 1, s->id, have);
	if (!err) {
		err = ord_error_set(ORD_ESTATE, "side %s has revealed its link for phase '%s' already",
				    side, phase);
		goto out;
	}
	if (err != ORD_ENOTFOUND)
		goto out;
	ord_error_clear();
	if ((err = ord_store_latest(g->db, t.turn, s->id, &version, have, &opened)) != 0 ||
	    (err = ord_store_sheet_read(g->db, t.turn, s->id, version, &sheet)) != 0)
		goto out;
	if (!sheet.has_witness) {
		err = ord_error_set(ORD_ESTATE,
				    "side %s's sheet of turn %d is a stand-in with no witness chain: the referee's chain stands in for it",
				    side, t.turn);
		goto out;
	}
	if (kp) {
		ord_witness_link(link, kp, g->game_id, t.turn, side, sheet.nonce, t.phase + 1);
		memcpy(up, link, 32);
		ord_witness_up(up, (unsigned)t.phase + 1);
		if (memcmp(up, sheet.witness, 32)) /* a sheet signed by an earlier orderly */
			ord_witness_link(link, kp, g->game_id, t.turn, side, NULL, t.phase + 1);
	} else {
		memcpy(link, given, 32);
	}
	memcpy(up, link, 32);
	ord_witness_up(up, (unsigned)t.phase + 1);
	if (memcmp(up, sheet.witness, 32)) {
		err = ord_error_set(ORD_EBADDATA,
				    "this is not side %s's link for phase %d ('%s') of turn %d: it does not lead to the witness chain its sheet committed to",
				    side, t.phase + 1, phase, t.turn);
		goto out;
	}
	/* its head is handed to the side, and states no number: the blind
	 * keeps the side from finding the number by trying each (attack 49's
	 * leftover) */
	ord_link_blind(blind, g->game_id, t.turn, t.phase + 1, s->name, t.seed);
	ord_canon_witness(&body, t.turn, t.phase + 1, s->name, link, blind);
	if ((err = ord_game_log(g, &seq, t.turn, "witness", body.buf)) != 0 ||
	    (err = ord_store_link_insert(g->db, t.turn, t.phase + 1, s->id, link, seq)) != 0)
		goto out;
	{
		struct ord_change c = {
			.kind = ORD_CHANGE_WITNESS, .turn = t.turn, .side = s->name, .phase = phase
		};
		if ((err = ord_game_notify(g, &c)) != 0)
			goto out;
	}
	err = ord_store_commit(g->db);
out:
	if (err)
		ord_store_rollback(g->db);
	ord_store_sheet_release(&sheet);
	ord_buf_release(&body);
	return err;
}

int ord_game_witness(ord_game *g, const char *side, const unsigned char link[32])
{
	return witness(g, side, link, NULL);
}

int ord_game_witness_key(ord_game *g, const char *side, const struct ord_keypair *kp)
{
	return witness(g, side, NULL, kp);
}

int ord_game_link_state(ord_game *g, const char *side, int *phase, int *closed,
			enum ord_link_state *state)
{
	const struct ord_store_side *s = NULL;
	struct ord_store_sheet sheet;
	struct ord_store_turn t;
	unsigned char have[32];
	const char *name = NULL;
	int err, version = 0, opened;

	memset(&sheet, 0, sizeof(sheet));
	*phase = 0;
	*closed = 0;
	if (state)
		*state = ORD_LINK_NONE;
	if (!g->witnessed)
		return ord_error_set(ORD_ESTATE,
				     "the dice of this game are not witnessed: no link is revealed");
	if ((side && (err = ord_game_find_side(g, side, &s)) != 0) ||
	    (err = ord_game_turn(g, &t, 0)) != 0 || (err = current_phase(g, &t, &name)) != 0 ||
	    (err = phase_closed(g, &t, closed)) != 0)
		return err;
	*phase = t.phase + 1;
	if (!s || !state)
		return 0;
	err = ord_store_link_read(g->db, t.turn, t.phase + 1, s->id, have);
	if (!err) {
		*state = ORD_LINK_REVEALED;
		return 0;
	}
	if (err != ORD_ENOTFOUND)
		return err;
	ord_error_clear();
	/* a side with no sheet, or a stand-in's without a chain, owes none:
	 * the referee's chain stands in for it (ord_game_witness refuses it) */
	err = ord_store_latest(g->db, t.turn, s->id, &version, have, &opened);
	if (!err && version > 0)
		err = ord_store_sheet_read(g->db, t.turn, s->id, version, &sheet);
	if (err == ORD_ENOTFOUND) {
		ord_error_clear();
		err = 0;
	}
	if (!err && version > 0 && sheet.has_witness)
		*state = ORD_LINK_AWAITED;
	ord_store_sheet_release(&sheet);
	return err;
}

/* A list of sides as the log keeps it ("blue,red") written for a person
 * ("blue, red"). */
static void sides_for_people(struct ord_buf *out, const char *csv)
{
	const char *p;

	for (p = csv; *p; p++)
		if (*p == ',')
			ord_buf_addf(out, ", ");
		else
			ord_buf_addch(out, *p);
}

/* The dice key of the current phase of a witnessed turn: the turn's key,
 * the events closed and every side's link (the referee's for a side that
 * revealed none, named in stood_in).  *unrevealed: how many sides' links
 * the referee's chain would stand in for, when it is refused for them
 * without stand_in; else 0. */
static int witness_key(struct ord_game *g, const struct ord_store_turn *t, struct ord_ctx *ctx,
		       const char *phase, int stand_in, unsigned char out[32],
		       struct ord_buf *stood_in, size_t *unrevealed)
{
	struct ord_digest d;
	unsigned char events[32];
	size_t i, stood = 0;
	int err, closed;

	*unrevealed = 0;
	if ((err = phase_closed(g, t, &closed)) != 0)
		return err;
	if (!closed)
		return ord_error_set(ORD_ESTATE,
				     "the dice of this game are witnessed: close the events of phase '%s' first ('orderly witness GAME --close'), then the sides reveal their links",
				     phase);
	ord_phase_events_digest(ctx, events);
	ord_phase_key_begin(&d, t->dice_key, t->phase + 1, phase, events);
	for (i = 0; i < g->nsides; i++) {
		unsigned char link[32];
		err = ord_store_link_read(g->db, t->turn, t->phase + 1, g->sides[i].id, link);
		if (err == ORD_ENOTFOUND && g->refereeless) {
			/* the host's chain is in the file, and the host may be a
			 * player: standing in, it would give him every link of
			 * the phase before its dice (a code review's find) */
			enum ord_link_state state;
			int ph, cl;
			ord_error_clear();
			if ((err = ord_game_link_state(g, g->sides[i].name, &ph, &cl, &state)) < 0)
				return err;
			if (state == ORD_LINK_AWAITED)
				return ord_error_set(ORD_ESTATE,
						     "%s has not revealed its witness link for phase '%s': in a game with no referee the host's chain does not stand in for a side's (he knows it, and may be a player): the phase waits for it",
						     g->sides[i].name, phase);
			err = ORD_ENOTFOUND;
		}
		if (err == ORD_ENOTFOUND) {
			ord_error_clear();
			ord_buf_addf(stood_in, "%s%s", stood_in->len ? "," : "", g->sides[i].name);
			stood++;
			memcpy(link, t->referee_witness, 32);
			ord_witness_up(link, ORD_WITNESS_LINKS - (unsigned)(t->phase + 1));
			ord_phase_key_side(&d, g->sides[i].name, link, 1);
			continue;
		}
		if (err)
			return err;
		ord_phase_key_side(&d, g->sides[i].name, link, 0);
	}
	if (stood_in->len && !stand_in) {
		struct ord_buf who = ORD_BUF_INIT;
		*unrevealed = stood;
		sides_for_people(&who, stood_in->buf);
		err = ord_error_set(ORD_ESTATE,
				    "%s %s not revealed %s witness link for phase '%s': wait for it, or resolve with --stand-in and the referee's chain stands in (the audit says so)",
				    who.buf, stood > 1 ? "have" : "has",
				    stood > 1 ? "their" : "its", phase);
		ord_buf_release(&who);
		return err;
	}
	ord_digest_final(&d, out);
	return 0;
}

/* ---- resolve ---- */

static int store_phase(struct ord_game *g, struct ord_ctx *ctx, const struct ord_store_turn *t,
		       const char *phase, const char *stood_in)
{
	struct ord_buf b = ORD_BUF_INIT, body = ORD_BUF_INIT;
	unsigned char digest[32], hprev[32], root[32];
	int64_t seq, lseq;
	int nr, nres, nst, err = 0;
	size_t i;

	/* rows point at the log entry that will digest them: inside this
	 * IMMEDIATE transaction nobody else can take its number */
	if ((err = ord_store_log_head(g->db, &seq, hprev)) != 0)
		return err;
	seq++;
	/* the digest is taken from what is about to be written, not re-read */
	ord_phase_digest(ctx, t->turn, t->phase + 1, digest, &nr, &nres, &nst);
	for (i = 0; i < ctx->nrolls; i++) {
		const struct ord_ctx_roll *r = &ctx->rolls[i];
		if ((err = ord_store_roll_insert(g->db, t->turn, r->phase, r->event_seq, r->purpose,
						 r->idx, r->sides, r->value, r->fixed, seq)) != 0)
			goto out;
	}
	for (i = 0; i < ctx->nresults; i++) {
		const struct ord_ctx_result *r = &ctx->results[i];
		if ((err = ord_store_result_insert(g->db, t->turn, r->phase, r->event_seq, r->unit,
						   r->values, r->explanation,
						   ord_ctx_result_texts_of(r), seq)) != 0)
			goto out;
	}
	for (i = 0; i < ctx->nunits; i++) {
		if (!ord_ctx_unit_changed(ctx, i, &b))
			continue;
		if ((err = ord_store_state_put_uid(g->db, ctx->units[i].id, t->turn, t->phase + 1,
						   b.buf, seq)) != 0)
			goto out;
	}
	/* every unit's state as the phase leaves them, which the next phase
	 * and the exchange hold the units to (phase_states) */
	ord_phase_state_root(ctx, root);
	ord_canon_resolve(&body, t->turn, phase, t->phase + 1, nr, nres, nst, digest, root,
			  stood_in, ORD_CORE_REVISION, ord_ruleset_revision(g->rs));
	if ((err = ord_game_log(g, &lseq, t->turn, "resolve", body.buf)) != 0)
		goto out;
	if (lseq != seq) {
		err = ord_error_set(ORD_ERROR, "the log moved while resolving (%lld, expected %lld)",
				    (long long)lseq, (long long)seq);
		goto out;
	}
	err = ord_store_turn_set_state(g->db, t->turn,
				       (size_t)t->phase + 1 >= ord_game_nphases(g) ? ORD_TURN_RESOLVED
										   : ORD_TURN_SEALED,
				       t->phase + 1, t->have_dice_key ? t->dice_key : NULL);
out:
	ord_buf_release(&b);
	ord_buf_release(&body);
	return err;
}

/* The units a refusal of an empty phase names, at most; the rest counted. */
#define EMPTY_NAMED 3

/* The units owed an event of phase (game.h). */
size_t ord_game_owed(struct ord_game *g, struct ord_ctx *ctx, const char *phase, struct ord_buf *named)
{
	const struct ord_event_kind *ek;
	size_t i, k, n, count = 0;

	if (!ORD_RULESET_HAS(g->rs, 9) || !g->rs->order_events)
		return 0;
	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		const char *kinds[16];
		size_t shown = 0;

		/* every unit: the rules may owe an event of one with no
		 * order (a battalion's move back, a melee going on, a
		 * Krigsspil unit's half turn's retreat) */
		n = g->rs->order_events(ctx, u, kinds, ORD_ARRAY_SIZE(kinds));
		for (k = 0; k < n && k < ORD_ARRAY_SIZE(kinds); k++) {
			if (!(ek = ord_ruleset_event_kind(g->rs, kinds[k])) || strcmp(ek->phase, phase))
				continue;
			if (!shown++ && count++ < EMPTY_NAMED)
				ord_buf_addf(named, "%sunit %s: %s", named->len ? ", " : "", u->id,
					     ek->name);
			else if (count <= EMPTY_NAMED)
				ord_buf_addf(named, " and %s", ek->name);
		}
	}
	if (count > EMPTY_NAMED)
		ord_buf_addf(named, ", and %zu more", count - EMPTY_NAMED);
	return count;
}

/*
 * A phase with no event while sealed orders wait for an event of it, or
 * the rules owe one of a unit (the ruleset's order_events, version 9, asked
 * of every unit), is refused, unless the referee says he means it to go
 * empty (resolve --empty; until red-team finding 9, naming the phase with
 * --phase said so, and a script's guard of which phase is current resolved
 * it empty unasked).  A resolve typed
 * twice by mistake resolved the next phase with nothing in it, and a
 * phase resolved is final: the fire of two units ordered to fire was
 * gone, said only by a note.  A phase with at least one event is never
 * refused here (an order may rightly go undone: out of range, blocked),
 * nor one the ruleset gives no event kind.  ctx holds the turn's events
 * and the units' state as the phase left it; asked at resolve only, so
 * the log and the replay know nothing of it.  *waiting gets the count.
 */
static int empty_phase(struct ord_game *g, struct ord_ctx *ctx, const char *phase, size_t *waiting)
{
	struct ord_buf named = ORD_BUF_INIT;
	size_t count;
	int err;

	*waiting = count = ord_game_owed(g, ctx, phase, &named);
	if (!count) {
		ord_buf_release(&named);
		return 0;
	}
	{
		struct ord_buf m = ORD_BUF_INIT;
		size_t at;

		ord_buf_addf(&m, "phase %s has no events, but %zu unit%s wait%s for one in it, by %s sealed order%s or the rules (%s)",
			     phase, count, count == 1 ? "" : "s", count == 1 ? "s" : "",
			     count == 1 ? "its" : "their", count == 1 ? "" : "s", named.buf);
		at = m.len;
		ord_buf_addf(&m, "; record them with `orderly event`, or add --empty to resolve it empty: `orderly resolve %s --phase %s --empty`",
			     g->path, phase);
		err = ord_error_set(ORD_ESTATE, "%s", m.buf);
		/* the command line's ways, to the end: a front-end says its own */
		ord_error_set_way(ORD_WAY_RESOLVE_EMPTY, at, m.len - at);
		ord_buf_release(&m);
	}
	ord_buf_release(&named);
	return err;
}

/* Whether the ruleset gives phase an event kind: a phase of none (the
 * battalion's automatic tests of fire-morale have some) goes empty. */
static int phase_has_kinds(const struct ord_ruleset *rs, const char *phase)
{
	const struct ord_event_kind *ek;

	for (ek = rs->events; ek && ek->name; ek++)
		if (!strcmp(ek->phase, phase))
			return 1;
	return 0;
}

int ord_game_resolve_opts(ord_game *g, const struct ord_resolve_opts *o, struct ord_buf *out)
{
	const char *phase = o->phase, *lang;
	const int *dice = o->dice;
	size_t ndice = o->ndice;
	int stand_in = o->stand_in;
	struct ord_buf stood = ORD_BUF_INIT;
	struct ord_phase_dice pd;
	struct ord_store_turn t;
	struct ord_ctx ctx;
	struct ord_digest roster;
	struct ord_game_load load = { .hold_events = 1, .roster = &roster };
	unsigned char pkey[32], units[32];
	const char *cur = NULL;
	size_t i, nevents, waiting = 0, unrevealed = 0;
	int err, loaded = 0, empty_check;

	if (o->waiting)
		*o->waiting = 0;
	if (o->unrevealed)
		*o->unrevealed = 0;
	if (dice && !g->fixed_dice)
		return ord_error_set(ORD_EUSAGE,
				     "dice can only be given in a game created with --fixed-dice; this game's dice come from its sealed seed");
	if ((err = ord_game_lang(g, o->lang, &lang)) != 0)
		return err;
	if ((err = ord_game_may_change(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = current_phase(g, &t, &cur)) != 0)
		goto out;
	if (phase) {
		struct ord_buf list = ORD_BUF_INIT;
		int k = ord_phase_named(g->rs, phase, &list);
		if (!k)
			err = ord_error_set(ORD_ENOTFOUND, "unknown phase '%s' (expected one of %s)",
					    phase, list.buf);
		else if (strcmp(g->rs->phases[k - 1], cur))
			err = ord_error_set(ORD_ESTATE,
					    "the current phase of turn %d is '%s', not '%s'",
					    t.turn, cur, g->rs->phases[k - 1]);
		ord_buf_release(&list);
		if (err)
			goto out;
	}
	/* the first phase holds the current states to the opening's digest,
	 * which finds a changed current state too; the later ones to the
	 * last state rows, and the rows the phase before wrote to its
	 * resolve entry, and (phase_states, once loaded) every unit's state
	 * to the digest that entry logs */
	if ((t.phase > 0 && ((err = current_fresh(g)) != 0 || (err = resolved_rows(g, t.turn)) != 0)))
		goto out;
	/* the seed, dice key and sealed sheets it plays, and the phase's
	 * events as it loads them, are the ones logged (game_live.c) */
	if ((err = ord_game_live_sheets(g, &t, 1)) != 0)
		goto out;
	/* and the units it loads to the roster the opening digests (their
	 * names, sides and attributes: a unit's kind changed after the seal
	 * would be played) */
	ord_digest_init(&roster, ORD_ROSTER_TAG);
	err = ord_game_load_ctx(g, &ctx, t.turn, 1, cur, &load);
	loaded = 1;
	if (err)
		goto out;
	ord_digest_final(&roster, units);
	if ((err = ord_game_live_roster(g, t.turn, NULL, units, NULL)) != 0)
		goto out;
	if ((err = phase_states(g, &ctx, t.turn, t.phase == 0)) != 0)
		goto out;
	/* with no referee, the sheets were opened after the seal, which
	 * could not check them: the first phase does, against the units and
	 * states it has just held (game_live.c) */
	if (t.phase == 0 && (err = ord_game_live_opened_valid(g, t.turn)) != 0)
		goto out;
	memset(&pd, 0, sizeof(pd));
	if (g->fixed_dice) {
		pd.fixed_game = 1;
		pd.fixed = dice;
		pd.nfixed = dice ? ndice : 0;
	} else if (g->witnessed) {
		if ((err = witness_key(g, &t, &ctx, cur, stand_in, pkey, &stood,
				       o->unrevealed ? o->unrevealed : &unrevealed)) != 0)
			goto out;
		pd.key = pkey;
	} else if (t.have_dice_key) {
		pd.key = t.dice_key;
	}
	pd.by_events = g->dice_by_events;
	if ((err = ord_phase_run(&ctx, cur, &pd)) != 0 ||
	    (err = store_phase(g, &ctx, &t, cur, stood.buf)) != 0)
		goto out;
	/* the orders no event of the turn carries out so far, from this
	 * context (its units, sheets and phase) and the turn's other events,
	 * as the referee's report finds them (put_pending); reading the
	 * game again for them made the movement phase at 100,000 units
	 * 1.37 s instead of 1.16, and this 1.22.  The same context says
	 * whether an empty phase is refused (empty_phase): after the
	 * phase's rows are written, which the rollback undoes, as the other
	 * events must not be in the context the phase runs with */
	nevents = ord_ctx_nevents(&ctx);
	empty_check = !o->empty && !nevents && ORD_RULESET_HAS(g->rs, 9) && g->rs->order_events &&
		      phase_has_kinds(g->rs, cur);
	if ((empty_check || (o->pending && g->rs->check_execution)) &&
	    (err = ord_game_add_other_events(g, &ctx, t.turn, cur)) != 0)
		goto out;
	if (empty_check && (err = empty_phase(g, &ctx, cur, o->waiting ? o->waiting : &waiting)) != 0)
		goto out;
	if (o->pending && g->rs->check_execution) {
		struct ord_diag d;
		ord_diag_init(&d);
		g->rs->check_execution(&ctx, &d);
		ord_error_clear();
		*o->pending = d.n;
		ord_diag_release(&d);
	}
	{
		struct ord_change c = { .kind = ORD_CHANGE_RESOLVE,
					.turn = t.turn,
					.phase = cur,
					.last_phase = (size_t)t.phase + 1 >= ord_game_nphases(g) };
		if ((err = ord_game_notify(g, &c)) != 0)
			goto out;
	}
	if ((err = ord_store_commit(g->db)) != 0)
		goto out;
	ord_buf_addf(out, "turn %d, phase %s: %zu event%s, %zu roll%s\n", t.turn, cur, nevents,
		     nevents == 1 ? "" : "s", ctx.nrolls, ctx.nrolls == 1 ? "" : "s");
	if (stood.len) {
		ord_buf_addf(out, "  (the referee's witness chain stood in for ");
		sides_for_people(out, stood.buf);
		ord_buf_addf(out, ")\n");
	}
	for (i = 0; i < ctx.nresults; i++) {
		ord_buf_addf(out, "  %s%s", ctx.results[i].unit, *ctx.results[i].unit ? ": " : "");
		ord_texts_render(ctx.results[i].explanation,
				 ord_ctx_result_texts_of(&ctx.results[i]), lang, out);
		ord_buf_addch(out, '\n');
	}
	if ((size_t)t.phase + 1 < ord_game_nphases(g))
		ord_buf_addf(out, "next phase: %s\n", g->rs->phases[t.phase + 1]);
	else
		ord_buf_addf(out, "every phase of turn %d is resolved: exchange the sheets next\n",
			     t.turn);
out:
	if (err)
		ord_store_rollback(g->db);
	if (loaded)
		ord_ctx_release(&ctx);
	ord_buf_release(&stood);
	return err;
}

int ord_game_resolve(ord_game *g, const char *phase, const int *dice, size_t ndice, struct ord_buf *out)
{
	struct ord_resolve_opts o = { .phase = phase, .dice = dice, .ndice = ndice };

	return ord_game_resolve_opts(g, &o, out);
}

/* ---- exchange ---- */

int ord_game_exchange(ord_game *g)
{
	struct ord_buf body = ORD_BUF_INIT;
	struct ord_store_turn t;
	struct ord_head head;
	int64_t seq;
	int err, logged;

	if ((err = ord_game_may_change(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0)
		goto out;
	if (g->refereeless && t.state != ORD_TURN_OPEN) {
		struct ord_buf w = ORD_BUF_INIT;
		size_t n;
		if ((err = ord_game_sides_lacking(g, t.turn, 1, &w, &n)) == 0 && n)
			err = ord_error_set(ORD_ESTATE,
					    "cannot exchange turn %d: waiting for %s to open %s sheet",
					    t.turn, w.buf, n == 1 ? "its" : "their");
		ord_buf_release(&w);
		if (err)
			goto out;
	}
	if (t.state != ORD_TURN_RESOLVED) {
		if (t.state == ORD_TURN_OPEN)
			err = ord_error_set(ORD_ESTATE,
					    "turn %d is still open: seal it and resolve its phases first",
					    t.turn);
		else
			err = ord_error_set(ORD_ESTATE, "turn %d has phases left to resolve (next: %s)",
					    t.turn, g->rs->phases[t.phase]);
		goto out;
	}
	/* every phase must be in the log, whatever the turn row says */
	if ((err = ord_store_log_count(g->db, t.turn, "resolve", &logged)) != 0)
		goto out;
	if ((size_t)logged != ord_game_nphases(g)) {
		err = ord_error_set(ORD_EBADDATA,
				    "turn %d: its log shows %d of the %zu phases resolved, though the game file says every one is: it was changed outside orderly ('orderly audit' says where)",
				    t.turn, logged, ord_game_nphases(g));
		goto out;
	}
	/* the seed it reveals and the sheets the next opening names are the
	 * ones logged */
	if ((err = current_fresh(g)) != 0 || (err = resolved_rows(g, t.turn)) != 0 ||
	    (err = ord_game_live_sheets(g, &t, 1)) != 0)
		goto out;
	/* revealing the seed lets everyone recompute the dice */
	ord_canon_exchange(&body, t.turn, t.seed, t.have_referee_witness ? t.referee_witness : NULL);
	if ((err = ord_game_log(g, &seq, t.turn, "exchange", body.buf)) != 0 ||
	    (err = ord_store_turn_set_state(g->db, t.turn, ORD_TURN_EXCHANGED, t.phase,
					    t.have_dice_key ? t.dice_key : NULL)) != 0 ||
	    (err = ord_game_open_turn(g, t.turn + 1)) != 0)
		goto out;
	/* the head signs the next turn's opening too: its seed is fixed and
	 * handed to the players before any sheet of it is written */
	if ((err = ord_game_sign_head(g, t.turn, "exchange", &head)) != 0)
		goto out;
	{
		struct ord_change c = { .kind = ORD_CHANGE_EXCHANGE, .turn = t.turn, .head = &head };
		if ((err = ord_game_notify(g, &c)) != 0)
			goto out;
	}
	err = ord_store_commit(g->db);
out:
	if (err)
		ord_store_rollback(g->db);
	ord_buf_release(&body);
	return err;
}
