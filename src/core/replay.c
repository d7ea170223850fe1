/*
 * replay.c - the verifier's replay of a turn's phases through the ruleset
 * (verify.h): the units as they stood at the turn's opening, the sealed
 * orders and the NMR stand-ins as the seal decided them, each phase's
 * events checked again, its dice derived (the turn's key, the witnessed
 * phase key, or the dice a test game was given), the phase run with
 * phase.c as the game ran it, and every roll, result and unit state
 * compared with what was recorded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/crypto.h"
#include "core/ctx.h"
#include "core/lookalike.h"
#include "core/phase.h"
#include "core/verify_int.h"

/* ---- the replay ---- */

/* The units as the turn opened, one by one in unit order (build_ctx). */
struct opening {
	struct vr *x;
	struct ord_ctx *ctx;
	size_t n;    /* units given */
	int stopped; /* a unit not the scenario's: no more added */
};

static int opening_unit(void *ud, const char *id, const char *state)
{
	struct opening *o = ud;
	const struct ord_scenario_unit *su;

	if (o->n++ >= o->x->sc.nunits || o->stopped)
		return 0;
	su = &o->x->sc.units[o->n - 1];
	if (strcmp(id, su->id)) {
		ord_vout_fail(o->x->v,
			      "unit %zu of the turn's opening is '%s', but the scenario's is '%s'",
			      o->n, id, su->id);
		o->stopped = 1;
		return 0;
	}
	/* the scenario the verifier keeps outlives the replay */
	ord_ctx_add_unit_shared(o->ctx, su->id, su->name, su->side, &su->attrs, state);
	return 0;
}

/* Unit states of the record's start in the ctx; 0 when they fit. */
static int build_ctx(struct vr *x, struct ord_ctx *ctx)
{
	const struct ord_record *r = x->r;
	struct opening o = { x, ctx, 0, 0 };
	unsigned char root[32], want[32];
	size_t i, j;
	long nunits;
	int bad = x->v->failures;

	ord_ctx_init(ctx, x->rs, x->rules, r->turn);
	ord_ctx_set_made(ctx, x->have_cfg ? x->cfg.made : NULL, x->have_cfg ? x->cfg.made_core : NULL);
	ord_ctx_reserve_units(ctx, x->sc.nunits);
	if ((x->read_err = ord_record_units(r, opening_unit, &o)) != 0)
		return 1;
	if (o.n != x->sc.nunits)
		ord_vout_fail(x->v, "turn %d opened with %zu units, but the scenario has %zu",
			      r->turn, o.n, x->sc.nunits);
	/* a scenario's unit the opening left out starts from nothing */
	for (i = o.n; !o.stopped && i < x->sc.nunits; i++) {
		const struct ord_scenario_unit *su = &x->sc.units[i];
		ord_ctx_add_unit_shared(ctx, su->id, su->name, su->side, &su->attrs, "");
	}
	ord_ctx_index(ctx);
	/* the first turn starts from the states the rules give the scenario;
	 * each unit's state as the opening holds it is digested as it is
	 * compared (ord_phase_state_root's digest, each state written once) */
	if (r->turn == 1 && x->rs->init_unit) {
		struct ord_buf s1 = ORD_BUF_INIT, s2 = ORD_BUF_INIT;
		struct ord_digest dg;
		size_t wrong = 0;

		ord_digest_init(&dg, ORD_UNITS_TAG);
		for (i = 0; i < ctx->nunits; i++) {
			struct ord_unit u = ctx->units[i];
			struct ord_diag d;

			ord_diag_init(&d);
			ord_kv_init(&u.state);
			x->rs->init_unit(x->rules, &u, &d);
			ord_buf_reset(&s1);
			ord_kv_serialize(&u.state, &s1);
			/* the text of the unit before when its state is that
			 * list (ord_phase_state_root) */
			if (!i || !ctx->units[i].state.items ||
			    ctx->units[i].state.items != ctx->units[i - 1].state.items ||
			    ctx->units[i].state.n != ctx->units[i - 1].state.n) {
				ord_buf_reset(&s2);
				ord_kv_serialize(&ctx->units[i].state, &s2);
			}
			ord_digest_unit(&dg, ctx->units[i].id, s2.buf);
			if (strcmp(s1.buf, s2.buf) && wrong++ < MAX_LISTED)
				ord_vout_fail(x->v,
					      "unit %s began the game as '%s', but the rules give it '%s'",
					      u.id, s2.buf, s1.buf);
			ord_kv_release(&u.state);
			ord_diag_release(&d);
		}
		ord_digest_final(&dg, root);
		ord_buf_release(&s1);
		ord_buf_release(&s2);
	} else {
		ord_phase_state_root(ctx, root);
	}
	nunits = ord_vr_body_long(x->open->body, "units", -1);
	if (nunits != (long)ctx->nunits ||
	    !ord_vr_body_hex(x->open->body, "state_root", want, 32) || memcmp(root, want, 32))
		ord_vout_fail(x->v,
			      "the units' states at the start of turn %d are not the ones its opening (entry %lld) digests",
			      r->turn, (long long)x->open->seq);
	/* the sealed orders */
	for (j = 0; x->have_sealed && j < x->sc.nsides; j++) {
		struct ord_sheet sheet;
		struct ord_diag d;
		if (!x->sealed[j].sheet)
			continue;
		ord_sheet_init(&sheet);
		ord_diag_init(&d);
		x->nt->parse(&sheet, (const char *)x->sealed[j].sheet->bytes,
			     x->sealed[j].sheet->len, &d);
		ord_ctx_attach_sheet(ctx, &sheet, x->sc.sides[j].id);
		ord_diag_release(&d);
	}
	return x->v->failures != bad;
}

/* The replay's check of a sheet a stand-in repeats (ord_phase_repeat):
 * parsed, and its orders that parsed validated, as a sheet is submitted. */
struct replay_check {
	struct vr *x;
	struct ord_ctx *ctx;
	const char *side;
};

static int replay_check(void *ud, const char *bytes, size_t len, struct ord_diag *d)
{
	struct replay_check *c = ud;
	struct ord_sheet sheet;
	int err;

	ord_sheet_init(&sheet);
	err = c->x->nt->parse(&sheet, bytes, len, d);
	if (c->x->rs->validate_sheet) {
		c->ctx->side = c->side;
		err |= c->x->rs->validate_sheet(c->ctx, &sheet, d);
		c->ctx->side = NULL;
	}
	ord_sheet_release(&sheet);
	return err || d->n;
}

/* 1 when the bytes are only blanks (spaces, tabs, line ends). */
static int blank_bytes(const unsigned char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!strchr(" \t\r\n", p[i]))
			return 0;
	return 1;
}

/* A sheet a side submitted (or, with no referee, opened after the seal):
 * the rules must take it against the units as the turn opened, or it was
 * taken against rows changed while it was submitted or opened.  The seal
 * of a refereed game checks them again (game_live.c,
 * ord_game_live_sheets_valid), the first phase of a game with no referee
 * its opened sheets, in a turn whose opening digests the roster; the
 * replay in every turn, since the roots are the referee's word (attack
 * 34), and says so of a turn opened without them. */
static void check_submitted(struct vr *x, struct ord_ctx *ctx, const struct ord_rec_sheet *s,
			    const char *side)
{
	struct replay_check c = { x, ctx, side };
	struct ord_diag d;

	ord_diag_init(&d);
	if (replay_check(&c, (const char *)s->bytes, s->len, &d)) {
		struct ord_buf m = ORD_BUF_INIT, why = ORD_BUF_INIT;
		if (d.n) {
			ord_buf_adds(&m, "line ");
			ord_diag_item_place(&m, &d.items[0], NULL);
		} else {
			ord_buf_adds(&m, "it does not read");
		}
		if (x->rosterless)
			ord_buf_addf(&why,
				     "; turn %d's opening digests no roster (sides_root, units_root), as an orderly before 2026-12-06 opened its turns: one that read the rules otherwise may have taken it (check such a turn with the orderly it was played with), or the opening was written without them to escape this check",
				     x->r->turn);
		ord_vout_fail(x->v,
			      x->have_cfg && x->cfg.refereeless
				      ? "the sheet of %s, version %d, opened after the seal, is refused by the rules against the units as the turn opened (%s): it was taken against other unit rows%s"
				      : "the sheet of %s, version %d, that the seal sealed is refused by the rules against the units as the turn opened (%s): it was taken against other unit rows%s",
			      side, s->version, m.buf, why.len ? why.buf : "");
		ord_buf_release(&why);
		ord_buf_release(&m);
	}
	ord_diag_release(&d);
}

/* Do the bytes hold a character ord_name_char_hidden names (but the line
 * ends and the tab), or a byte that is no UTF-8?  Nearly every sheet
 * holds none, and is not parsed again for its words. */
static int bytes_hide(const unsigned char *p, size_t len)
{
	const unsigned char *end = p + len;

	while (p < end) {
		uint32_t c;
		size_t k;

		if (*p >= 0x20 && *p < 0x7F) {
			p++;
			continue;
		}
		if (*p == '\n' || *p == '\r' || *p == '\t') {
			p++;
			continue;
		}
		if (!(k = ord_utf8_decode(p, end, &c)) || ord_name_char_hidden(c))
			return 1;
		p += k;
	}
	return 0;
}

/* A sealed sheet whose orders' words hold a character a reader does not
 * see or that turns what he reads (threat model, attack 43): the front
 * door refuses such an order since 2026-12-07 (ord_sheet_words_hidden),
 * so a game that says it was made since (made=, ORD_GAME_MADE) holds one
 * only by other means, a failure; an older game may hold one an orderly
 * of then took, a note (every report shows it escaped).  A comment may
 * hold one: no report shows it. */
static void check_words(struct vr *x, const struct ord_rec_sheet *s, const char *side)
{
	struct ord_sheet sheet;
	struct ord_diag d, words;
	struct ord_buf m = ORD_BUF_INIT;
	int made = x->have_cfg && ord_canon_made_since(&x->cfg, ORD_GAME_MADE);

	if (!bytes_hide(s->bytes, s->len))
		return;
	ord_sheet_init(&sheet);
	ord_diag_init(&d);
	ord_diag_init(&words);
	x->nt->parse(&sheet, (const char *)s->bytes, s->len, &d);
	ord_sheet_words_hidden(&sheet, &words);
	if (!words.n)
		goto out;
	ord_buf_adds(&m, "line ");
	ord_diag_item_place(&m, &words.items[0], NULL);
	if (words.n > 1)
		ord_buf_addf(&m, "; and %zu order%s more", words.n - 1, words.n > 2 ? "s" : "");
	if (made)
		ord_vout_fail(x->v,
			      "the sheet of %s, version %d, that the seal sealed holds an order whose words a reader does not see as they are (%s): the game was made by an orderly of %s or later (turn %d's opening, entry %lld, logs made=%s), which refuses such an order as it is handed in: it was stored by other means",
			      side, s->version, m.buf, ORD_GAME_MADE, x->r->turn,
			      (long long)x->open->seq, x->cfg.made);
	else
		ord_vout_note(x->v,
			      "the sheet of %s, version %d, that the seal sealed holds an order whose words a reader does not see as they are (%s): an orderly before %s took such an order (turn %d's opening, entry %lld, logs no made=), as a referee's own build still can; every report shows such a character escaped, never acted on (threat model, attack 43)",
			      side, s->version, m.buf, ORD_GAME_MADE, x->r->turn,
			      (long long)x->open->seq);
out:
	ord_buf_release(&m);
	ord_diag_release(&words);
	ord_diag_release(&d);
	ord_sheet_release(&sheet);
}

/* The stand-in each side the NMR policy stood in for must have got; a
 * sheet a side submitted, one the rules take (check_submitted). */
static void check_stand_ins(struct vr *x, struct ord_ctx *ctx)
{
	const struct ord_record *r = x->r;
	size_t j, k;

	for (j = 0; x->have_sealed && j < x->sc.nsides; j++) {
		const struct ord_rec_sheet *s = x->sealed[j].sheet;
		const char *side = x->sc.sides[j].id;
		const struct ord_rec_prev *prev = NULL;
		struct ord_buf key = ORD_BUF_INIT, text = ORD_BUF_INIT, want = ORD_BUF_INIT;
		unsigned char h[32], last[32];
		int have_last, want_repeat = 0;

		if (s)
			check_words(x, s, side);
		if (s && !strcmp(s->source, "submitted"))
			check_submitted(x, ctx, s, side);
		if (!s || !strcmp(s->source, "submitted"))
			continue;
		ord_buf_addf(&key, "last.%s", side);
		have_last = ord_vr_body_hex(x->open->body, key.buf, last, 32);
		for (k = 0; k < r->previous.n; k++)
			if (!strcmp(r->previous.v[k].side, side))
				prev = &r->previous.v[k];
		if (!strcmp(x->cfg.nmr, "repeat") && r->turn > 1 && have_last) {
			if (!prev) {
				ord_vout_fail(x->v,
					      "the sheet of %s of turn %d, which the NMR policy 'repeat' repeats, is not here",
					      side, r->turn - 1);
			} else {
				ord_hash_bytes(h, prev->bytes, prev->len);
				if (memcmp(h, last, 32)) {
					ord_vout_fail(x->v,
						      "the sheet of %s of turn %d here is not the one turn %d's opening names",
						      side, r->turn - 1, r->turn);
				} else if (!blank_bytes(prev->bytes, prev->len)) {
					/* repeated as far as it is still valid, as the
					 * seal decided */
					struct replay_check c = { x, ctx, side };
					want_repeat = ord_phase_repeat(&want, NULL, x->nt, side,
								       r->turn,
								       (const char *)prev->bytes,
								       prev->len, x->cfg.repeat_orders,
								       replay_check, &c);
				}
			}
		}
		if (want_repeat) {
			if (strcmp(s->source, "repeat") || s->len != want.len ||
			    memcmp(s->bytes, want.buf, s->len))
				ord_vout_fail(x->v,
					      want.len == prev->len
						      ? "the stand-in of %s is '%s', but the NMR policy repeats its still valid sheet of turn %d"
						      : "the stand-in of %s is '%s', but the NMR policy repeats the orders of its sheet of turn %d still valid, the others held",
					      side, s->source, r->turn - 1);
		} else {
			ord_phase_hold_text(&text, side, r->turn, x->cfg.nmr);
			if (strcmp(s->source, "hold") || s->len != text.len ||
			    memcmp(s->bytes, text.buf, text.len))
				ord_vout_fail(x->v,
					      "the stand-in of %s is not the hold the NMR policy '%s' gives (%s)",
					      side, x->cfg.nmr,
					      !strcmp(s->source, "hold")
						      ? "its text differs"
						      : "there was nothing valid to repeat");
		}
		ord_buf_release(&want);
		ord_buf_release(&key);
		ord_buf_release(&text);
	}
}

/* The events of phase p re-checked against the orders, in order, as they
 * were when the referee recorded them; they stay in ctx for the phase. */
/* Apply the voids of phase p logged before seq (all when seq < 0): those
 * events leave the ctx, as they left the game when they were voided. */
/* The voided events of phase p (indexes into the record's events). */
/* The voided events of a phase, in the order of their voids' log entries,
 * and how many of them are applied: each event's replay applies the ones
 * logged before it from there on, so that a phase of many events and many
 * voids is linear (it looked at every void for every event). */
struct voids {
	struct void_at {
		int64_t log; /* the void's entry */
		size_t i;    /* the event's index in the record */
	} * v;
	size_t n, next;
};

static int void_order(const void *a, const void *b)
{
	const struct void_at *x = a, *y = b;

	if (x->log != y->log)
		return x->log < y->log ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static void voids_of(struct vr *x, size_t p, struct voids *vs)
{
	const struct ord_record *r = x->r;
	size_t i;

	vs->n = vs->next = 0;
	vs->v = ord_xcalloc(r->events.n + 1, sizeof(*vs->v));
	for (i = 0; i < r->events.n; i++)
		if (r->events.v[i].void_log && !strcmp(r->events.v[i].phase, x->rs->phases[p])) {
			vs->v[vs->n].log = r->events.v[i].void_log;
			vs->v[vs->n++].i = i;
		}
	qsort(vs->v, vs->n, sizeof(*vs->v), void_order);
}

/* Remove from ctx the events of the phase voided before log entry before
 * (-1: all), once each: a look at the voids only, not at every event. */
static void apply_voids(struct vr *x, struct ord_ctx *ctx, size_t p, int64_t before, char *done,
			struct voids *vs)
{
	const struct ord_record *r = x->r;
	struct ord_buf b = ORD_BUF_INIT;

	for (; vs->next < vs->n && (before < 0 || vs->v[vs->next].log <= before); vs->next++) {
		size_t i = vs->v[vs->next].i;
		const struct ord_rec_event *ev = &r->events.v[i];
		const struct ord_rec_entry *e;
		char what[80];

		if (done[i])
			continue;
		done[i] = 1;
		snprintf(what, sizeof(what), "the void of event #%u (%s)", ev->seq, ev->kind);
		e = ord_vr_entry_of(x, ev->void_log, "void", what);
		if (e && !ord_verify_void_logged(r->turn, ev, ord_vr_body(x, e), &b))
			ord_vout_fail(x->v, "%s: differs from what was logged in entry %lld", what,
				      (long long)e->seq);
		if (e && (e->seq < ev->log ||
			  (x->phases[p].resolve && e->seq > x->phases[p].resolve->seq) ||
			  (x->phases[p].close && e->seq > x->phases[p].close->seq)))
			ord_vout_fail(x->v, "%s: logged outside the time its phase took events", what);
		ord_ctx_remove_event(ctx, ev->seq);
		ord_vout_note(x->v,
			      "turn %d event #%u (%s) was voided before its phase was resolved: \"%s\"",
			      r->turn, ev->seq, ev->kind, ev->void_reason ? ev->void_reason : "");
	}
	ord_buf_release(&b);
}

/* The unit an event is of, for the words: its kind's first key that names
 * a unit (unit=, a melee's a=, angriber=), as stored; "" when none. */
static const char *event_unit(const struct ord_event_kind *ek, const struct ord_kv *kv)
{
	const struct ord_key_spec *ks;
	const char *v;

	for (ks = ek->keys; ks && ks->name; ks++)
		if (ks->type == ORD_KEY_UNIT && (v = ord_kv_get(kv, ks->name)) != NULL)
			return v;
	return "";
}

/* An event the rules refuse whatever the override (ord_phase_event_refused:
 * one that cannot happen, a fire at the firer's own side) is refused as it
 * is recorded, override or not: one in the log was written there by other
 * means (its row and entry edited, the chain made again), and a replay
 * that took it for an override said the turn was clean.  Only in a game
 * whose tables say so (ord_phase_impossible_replayed): 1 when it fails. */
static int refused_whatever(struct vr *x, struct ord_ctx *ctx, const struct ord_rec_event *ev,
			    const struct ord_rec_entry *e, const struct ord_event_kind *ek,
			    const struct ord_kv *kv)
{
	struct ord_buf why = ORD_BUF_INIT;
	const char *unit = event_unit(ek, kv);
	int refused = ord_phase_event_refused(ctx, ek, kv, &why);

	if (refused)
		ord_vout_fail(x->v,
			      "turn %d event #%u (%s%s%s, phase %s, entry %lld): the rules refuse it whatever the override (%s): no orderly records it, yet the log holds it%s%s%s, written there by other means (its row and entry changed)",
			      x->r->turn, ev->seq, ev->kind, *unit ? " of " : "", unit, ev->phase,
			      e ? (long long)e->seq : (long long)ev->log, why.buf,
			      ev->override ? " with the override \"" : "",
			      ev->override ? ev->override : "", ev->override ? "\"" : "");
	ord_buf_release(&why);
	return refused;
}

static void replay_events(struct vr *x, struct ord_ctx *ctx, size_t p, size_t *overrides)
{
	const struct ord_record *r = x->r;
	struct ord_buf checks = ORD_BUF_INIT, b = ORD_BUF_INIT;
	char *voided = ord_xcalloc(r->events.n + 1, 1);
	size_t i, listed = 0, nphase = 0;
	struct voids vs;
	int impossible = ord_phase_impossible_replayed(x->rs, x->rules);

	voids_of(x, p, &vs);
	/* room for the phase's events at once: doubling, 67,500 events of a
	 * phase took room for 131,072 */
	for (i = 0; i < r->events.n; i++)
		nphase += !strcmp(r->events.v[i].phase, x->rs->phases[p]);
	ord_ctx_reserve_events(ctx, nphase);

	for (i = 0; i < r->events.n; i++) {
		const struct ord_rec_event *ev = &r->events.v[i];
		const struct ord_rec_entry *e;
		const struct ord_event_kind *ek;
		struct ord_event *ce;
		struct ord_unit *full;
		struct ord_diag d;
		char what[64];
		int refused = 0;

		if (strcmp(ev->phase, x->rs->phases[p]))
			continue;
		/* the ctx as it was when this event was recorded */
		apply_voids(x, ctx, p, ev->log, voided, &vs);
		snprintf(what, sizeof(what), "event #%u (%s)", ev->seq, ev->kind);
		e = ord_vr_entry_of(x, ev->log, "event", what);
		/* an entry whose body is this event's text made again (the
		 * record found them alike when it was read: ord_record_set_body)
		 * is that text: it was made twice more here, for every event */
		if (e && (e->body || e->event != i + 1) &&
		    !ord_verify_event_logged(ev, ord_vr_body(x, e), &b))
			ord_vout_fail(x->v, "%s: differs from what was logged in entry %lld", what,
				      (long long)e->seq);
		if (e && x->phases[p].resolve && e->seq > x->phases[p].resolve->seq)
			ord_vout_fail(x->v, "%s: recorded after its phase was resolved", what);
		if (!(ek = ord_ruleset_event_kind(x->rs, ev->kind))) {
			ord_vout_fail(x->v, "%s: ruleset %s has no such event", what, x->rs->name);
			continue;
		}
		/* its arguments as the core checked them when it was recorded */
		{
			struct ord_kv kv;
			struct ord_buf norm = ORD_BUF_INIT;
			char **argv = NULL;
			int argc = 0, bad;
			const char *a = ev->args ? ev->args : "";
			while (*a) {
				const char *nl = strchr(a, '\n'), *end = nl ? nl : a + strlen(a);
				argv = ord_xrealloc(argv, (size_t)(argc + 1) * sizeof(*argv));
				argv[argc] = ord_xmalloc((size_t)(end - a) + 1);
				memcpy(argv[argc], a, (size_t)(end - a));
				argv[argc++][end - a] = '\0';
				a = nl ? nl + 1 : end;
			}
			ord_kv_init(&kv);
			ord_diag_init(&d);
			bad = ord_phase_event_args(ctx, ek, argc, argv, &kv, &d);
			ord_kv_serialize(&kv, &norm);
			if (bad || strcmp(norm.buf, ev->args ? ev->args : "")) {
				ord_vout_fail(x->v,
					      "%s: its arguments are not what the game accepts (%s)",
					      what,
					      d.n ? d.items[0].msg : "not in the form it writes them");
			} else if ((full = ord_ctx_unit_events_full(ctx, ek, &kv)) != NULL) {
				/* the game refuses it, and a replay of thousands
				 * would be quadratic in them (ctx.h) */
				ord_vout_fail(x->v,
					      "%s: names unit '%s', which %d events of its phase name already: the game refuses one more",
					      what, full->id, ORD_EVENTS_PER_UNIT);
				bad = 1;
			} else if (impossible) {
				/* said, and replayed as logged: the phase's
				 * results are held to the log as it stands */
				refused = refused_whatever(x, ctx, ev, e, ek, &kv);
			}
			while (argc--)
				free(argv[argc]);
			free(argv);
			ord_kv_release(&kv);
			ord_diag_release(&d);
			ord_buf_release(&norm);
			ord_error_clear();
			if (bad)
				continue;
		}
		ce = ord_ctx_add_event(ctx, ev->seq, ev->phase, ev->kind, ev->args, ev->override,
				       ev->checks);
		ord_diag_init(&d);
		ord_buf_reset(&checks);
		ord_phase_check_event(ctx, ce, &checks, &d);
		ord_error_clear();
		if (ord_state_check(ctx)) {
			ord_vout_fail(x->v, "%s: %s", what, ord_error_last());
			ord_error_clear();
		}
		if (strcmp(checks.buf, ev->checks ? ev->checks : "") && listed++ < MAX_LISTED)
			ord_vout_fail(x->v,
				      "%s: what the event breaks differs; by the orders: %s; by the log: %s",
				      what, checks.len ? checks.buf : "nothing",
				      ev->checks && *ev->checks ? ev->checks : "nothing");
		else if (d.n && !ev->override && !refused && listed++ < MAX_LISTED)
			ord_vout_fail(x->v,
				      "%s: breaks the orders (%s) but was recorded without the referee's override",
				      what, checks.buf);
		/* refused whatever the override: none answers it (said above) */
		if (ev->override && !refused) {
			/* one voided since counts for nothing: it is said so */
			*overrides += !ev->void_log;
			ord_vout_note(x->v,
				      "turn %d event #%u (%s): recorded against the orders: override \"%s\"; the checks said: %s%s",
				      r->turn, ev->seq, ev->kind, ev->override, ev->checks,
				      ev->void_log ? " (voided since: it does not count)" : "");
		}
		ord_diag_release(&d);
	}
	apply_voids(x, ctx, p, -1, voided, &vs);
	/* a void takes an event out of what the ones after it were checked
	 * with: each that stands is held to the orders again without the
	 * voided (a flight recorded after a melee, the melee voided, is the
	 * flight of a unit in no melee) */
	if (vs.n && ord_phase_void_recheck(x->rs, x->rules)) {
		struct ord_buf why = ORD_BUF_INIT;
		unsigned bad;
		if ((bad = ord_phase_recheck_events(ctx, &why)) != 0)
			ord_vout_fail(x->v,
				      "turn %d event #%u (%s): breaks the orders once the events voided in its phase are taken out, and no override of the referee's answers it",
				      r->turn, bad, why.buf);
		ord_error_clear();
		ord_buf_release(&why);
	}
	free(voided);
	free(vs.v);
	ord_buf_release(&checks);
	ord_buf_release(&b);
}

/*
 * The blind a close logs (attack 49) is the turn seed's, once the seed is
 * known (revealed in a bundle, or the game file's own): no value the
 * referee chose.  A close of an orderly before it logs none, and is let
 * be: leaving it out tells the players what the referee could tell them
 * anyway.  0 when it fails.
 */
static int close_blind_ok(struct vr *x, const struct ord_rec_entry *close, size_t p)
{
	const struct ord_record *r = x->r;
	unsigned char want[32], logged[32];
	char *hex = ord_canon_get(close->body, "blind");

	if (!hex)
		return 1;
	free(hex);
	if (!r->have_seed)
		return 1;
	ord_close_blind(want, r->game_id, r->turn, (int)p + 1, r->seed);
	if (ord_vr_body_hex(close->body, "blind", logged, 32) && !memcmp(want, logged, 32))
		return 1;
	ord_vout_fail(x->v,
		      "phase %zu (%s): its close (entry %lld) logs a blind that is not the one the turn's seed gives: the close's blind is drawn from the seed, so that its head, handed to every side before the links, lets no player try his guesses of the phase's events (threat model, attack 49); this one was written by other means",
		      p + 1, x->rs->phases[p], (long long)close->seq);
	return 0;
}

/* The witnessed dice key of phase p, from the close and the links. */
static int witness_key(struct vr *x, struct ord_ctx *ctx, size_t p, unsigned char out[32])
{
	const struct ord_record *r = x->r;
	const struct ord_rec_entry *close = x->phases[p].close, *res = x->phases[p].resolve;
	unsigned char events[32], logged[32], top[32];
	char *stood = ord_canon_get(res->body, "stood_in");
	struct ord_buf want_stood = ORD_BUF_INIT, late = ORD_BUF_INIT, unchained = ORD_BUF_INIT;
	const char *host = x->have_cfg && x->cfg.refereeless ? "host" : "referee";
	struct ord_digest d;
	size_t j, k, revealed = 0;
	int ok = 1;

	ord_phase_events_digest(ctx, events);
	if (!close || !ord_vr_body_hex(close->body, "events", logged, 32) ||
	    memcmp(events, logged, 32)) {
		ord_vout_fail(x->v,
			      "phase %zu (%s): the events replayed are not the ones its close %s digests",
			      p + 1, x->rs->phases[p], close ? "entry" : "(missing)");
		ok = 0;
	}
	if (close)
		x->used[ord_vr_entry_index(x, close)]++;
	if (close && !close_blind_ok(x, close, p))
		ok = 0;
	ord_phase_key_begin(&d, x->dice_key, (int)p + 1, x->rs->phases[p], events);
	for (j = 0; j < x->sc.nsides; j++) {
		const char *side = x->sc.sides[j].id;
		const struct ord_rec_sheet *s = x->have_sealed ? x->sealed[j].sheet : NULL;
		const struct ord_rec_link *link = NULL;
		unsigned char l[32];

		for (k = 0; k < r->links.n; k++)
			if (r->links.v[k].index == (int)p + 1 && !strcmp(r->links.v[k].side, side))
				link = &r->links.v[k];
		if (link) {
			const struct ord_rec_entry *e = ord_record_entry(r, link->log);
			struct ord_buf b = ORD_BUF_INIT;
			char what[96];

			snprintf(what, sizeof(what), "the witness link of %s for phase %zu", side,
				 p + 1);
			e = ord_vr_entry_of(x, link->log, "witness", what);
			/* the seed's blind, in an entry that logs one (an
			 * orderly before hsecr11 logged none); the seed is
			 * the bundle's or the game file's */
			if (e && strstr(e->body, "\nblind=") && r->have_seed) {
				unsigned char blind[32];
				ord_link_blind(blind, r->game_id, r->turn, (int)p + 1, side, r->seed);
				ord_canon_witness(&b, r->turn, (int)p + 1, side, link->link, blind);
			} else if (e && strstr(e->body, "\nblind=")) {
				unsigned char blind[32];
				if (!ord_vr_body_hex(e->body, "blind", blind, 32))
					memset(blind, 0, 32);
				ord_canon_witness(&b, r->turn, (int)p + 1, side, link->link, blind);
			} else {
				ord_canon_witness(&b, r->turn, (int)p + 1, side, link->link, NULL);
			}
			if (e && strcmp(e->body, b.buf))
				ord_vout_fail(x->v, "%s: differs from what was logged in entry %lld%s",
					      what, (long long)e->seq,
					      strstr(e->body, "\nblind=")
						      ? " (its blind is not the one the turn's seed gives, or another field differs)"
						      : "");
			if (e && (e->seq < close->seq || e->seq > res->seq))
				ord_vout_fail(x->v,
					      "%s: revealed outside its phase's close and resolve",
					      what);
			memcpy(l, link->link, 32);
			ord_witness_up(l, (unsigned)p + 1);
			if (!s || !s->has_witness || memcmp(l, s->witness, 32)) {
				ord_vout_fail(x->v,
					      "%s: it is not a link of the chain side %s committed to with its sheet",
					      what, side);
				ok = 0;
			}
			ord_phase_key_side(&d, side, link->link, 0);
			ord_buf_release(&b);
			revealed++;
			continue;
		}
		/* no link: the referee's stood in, as the resolve entry must say */
		ord_buf_addf(&want_stood, "%s%s", want_stood.len ? "," : "", side);
		if (s && s->has_witness)
			ord_buf_addf(&late, "%s%s", late.len ? ", " : "", side);
		else
			ord_buf_addf(&unchained, "%s%s", unchained.len ? ", " : "", side);
		/* in a game with no referee the host's chain is in his file:
		 * standing in for a side that had a chain of its own, it gave
		 * him every link of the phase (ord_game_resolve refuses it).
		 * The key it gave is known all the same (his chain is revealed
		 * at the exchange): the phase is replayed with it, so that the
		 * phases after it are checked, and their links not called
		 * missing */
		if (x->have_cfg && x->cfg.refereeless && s && s->has_witness)
			ord_vout_fail(x->v,
				      "phase %zu (%s): the host's witness chain stood in for %s, whose sheet committed to a chain of its own: in a game with no referee the host knows his chain, so he knew the phase's dice before its events",
				      p + 1, x->rs->phases[p], side);
		if (!r->have_referee_witness) {
			ok = 0;
			continue;
		}
		memcpy(top, r->referee_witness, 32);
		ord_witness_up(top, ORD_WITNESS_LINKS);
		{
			unsigned char logged_top[32];
			if (!ord_vr_body_hex(x->seal->body, "referee_witness_top", logged_top, 32) ||
			    memcmp(top, logged_top, 32)) {
				ord_vout_fail(x->v,
					      "the referee's witness chain revealed is not the one the seal committed to");
				ok = 0;
			}
		}
		memcpy(l, r->referee_witness, 32);
		ord_witness_up(l, ORD_WITNESS_LINKS - (unsigned)(p + 1));
		ord_phase_key_side(&d, side, l, 1);
	}
	if (strcmp(want_stood.buf, stood ? stood : "")) {
		ord_vout_fail(x->v,
			      "phase %zu (%s): the resolve entry says the referee stood in for '%s', but the links missing are those of '%s'",
			      p + 1, x->rs->phases[p], stood ? stood : "", want_stood.buf);
		ok = 0;
	}
	/* a side whose sealed sheet committed to no chain (a stand-in's, or
	 * a sheet of before) could reveal none: not said as its fault */
	if (late.len)
		ord_vout_note(x->v,
			      "phase %zu (%s): %s revealed no witness link in time: the %s's stood in (his own chain, committed at the seal)",
			      p + 1, x->rs->phases[p], late.buf, host);
	if (unchained.len)
		ord_vout_note(x->v,
			      "phase %zu (%s): %s had no witness chain to reveal a link of (its sealed sheet committed to none: the NMR policy's stand-in, or a sheet without one): the %s's stood in (his own chain, committed at the seal)%s",
			      p + 1, x->rs->phases[p], unchained.buf, host,
			      *host == 'h' ? "; the host knows his chain: the phase's dice were known to him before its events, but for another side's link"
					   : "");
	/* some sides revealed, some were stood in for (attack 48): to a
	 * side stood in for, the phase's dice are the word of the sides
	 * that revealed and the referee together (a player who handed the
	 * referee his key file, or a referee who plays that side, knew
	 * every die before the close: the red team of 2026-12-07 chose an
	 * artillery range so on copies, and every check held); to a side
	 * that revealed, a link left out that its side could have revealed
	 * was a choice the referee had, if that side's player gave it to
	 * him: the key with it or with his stand-in, once the others' links
	 * were in */
	if (revealed && (late.len || unchained.len)) {
		struct ord_buf who = ORD_BUF_INIT, stood_all = ORD_BUF_INIT;
		size_t nlate = 0;

		for (j = 0; j < x->sc.nsides; j++) {
			const char *side = x->sc.sides[j].id;
			const struct ord_rec_sheet *s = x->have_sealed ? x->sealed[j].sheet : NULL;
			int has = 0;

			for (k = 0; k < r->links.n; k++)
				if (r->links.v[k].index == (int)p + 1 &&
				    !strcmp(r->links.v[k].side, side))
					has = 1;
			if (has) {
				ord_buf_addf(&who, "%s%s", who.len ? ", " : "", side);
				continue;
			}
			ord_buf_addf(&stood_all, "%s%s", stood_all.len ? ", " : "", side);
			nlate += s && s->has_witness;
		}
		ord_vout_note(x->v,
			      "phase %zu (%s): only %s revealed a witness link, so its dice are keyed by %s link%s and the %s's chain alone (the %s stood in for %s at entry %lld, %lld s after the close by the log's own times): to %s they are no more than the word of %s and the %s together, who could know every die before the events were closed (a player who handed the %s his key file, or a %s who plays that side)",
			      p + 1, x->rs->phases[p], who.buf, revealed > 1 ? "their" : "its",
			      revealed > 1 ? "s" : "", host, host, stood_all.buf,
			      (long long)res->seq, close ? (long long)(res->at - close->at) : 0LL,
			      stood_all.buf, who.buf, host, host, host);
		if (nlate)
			ord_vout_note(x->v,
				      "phase %zu (%s): to %s, the link%s of %s left out %s a choice the %s had, if %s player%s gave %s to him or held %s back at his word: the dice of %s link%s or of his stand-in, chosen once the link%s of %s %s in (%llu keys to pick from)",
				      p + 1, x->rs->phases[p], who.buf, nlate > 1 ? "s" : "",
				      late.buf, nlate > 1 ? "are" : "is", host,
				      nlate > 1 ? "their" : "its", nlate > 1 ? "s" : "",
				      nlate > 1 ? "them" : "it", nlate > 1 ? "them" : "it",
				      nlate > 1 ? "their" : "its", nlate > 1 ? "s" : "",
				      revealed > 1 ? "s" : "", who.buf, revealed > 1 ? "were" : "was",
				      1ULL << (nlate < 63 ? nlate : 63));
		ord_buf_release(&who);
		ord_buf_release(&stood_all);
	}
	/* with no side's link, the phase's key is the stand-in's chain
	 * alone, which he holds: he knew every die before he closed the
	 * events (the red team of the thirty-eighth session) */
	if (x->sc.nsides && !revealed)
		ord_vout_note(x->v,
			      "phase %zu (%s): no side revealed a witness link: its dice are keyed by the %s's own chain alone, which he held before he closed the phase's events, so he could know every die of it first: the witnessed dice prove no more of this phase than the dice of a game without them",
			      p + 1, x->rs->phases[p], host);
	ord_digest_final(&d, out);
	free(stood);
	ord_buf_release(&want_stood);
	ord_buf_release(&late);
	ord_buf_release(&unchained);
	return ok;
}

/* Compare the rows the replay gave with the rows recorded under the
 * phase's resolve entry. */
/* The first language in which recorded and replayed texts differ, as
 * "en" with both texts, or 0 when they agree. */
static int texts_differ(const struct ord_kv *rec, const struct ord_kv *cal, const char **lang,
			const char **was, const char **is)
{
	size_t i;

	for (i = 0; i < rec->n || i < cal->n; i++) {
		*lang = i < cal->n ? cal->items[i].key : rec->items[i].key;
		*was = i < rec->n ? rec->items[i].value : "(none)";
		*is = i < cal->n ? cal->items[i].value : "(none)";
		if (i >= rec->n || i >= cal->n || strcmp(rec->items[i].key, cal->items[i].key) ||
		    strcmp(*was, *is))
			return 1;
	}
	return 0;
}

/*
 * The keys where two "k=v" texts differ, as "k=v, k=v" for each side ("no
 * k" where one lacks it), so that a message names what differs rather than
 * two whole states that agree but for a key.  0 when they cannot both be
 * read as key=value lines (the caller then shows them whole).
 */
static int kv_diff(const char *rules, const char *recorded, struct ord_buf *want, struct ord_buf *got)
{
	struct ord_kv a, b;
	size_t i;
	int ok;

	ord_kv_init(&a);
	ord_kv_init(&b);
	ok = !ord_kv_parse(&a, rules) && !ord_kv_parse(&b, recorded);
	for (i = 0; ok && i < a.n; i++) {
		const char *v = ord_kv_get(&b, a.items[i].key);
		if (v && !strcmp(v, a.items[i].value))
			continue;
		ord_buf_addf(want, "%s%s=%s", want->len ? ", " : "", a.items[i].key, a.items[i].value);
		if (v)
			ord_buf_addf(got, "%s%s=%s", got->len ? ", " : "", a.items[i].key, v);
		else
			ord_buf_addf(got, "%sno %s", got->len ? ", " : "", a.items[i].key);
	}
	for (i = 0; ok && i < b.n; i++)
		if (!ord_kv_get(&a, b.items[i].key)) {
			ord_buf_addf(want, "%sno %s", want->len ? ", " : "", b.items[i].key);
			ord_buf_addf(got, "%s%s=%s", got->len ? ", " : "", b.items[i].key,
				     b.items[i].value);
		}
	ord_kv_release(&a);
	ord_kv_release(&b);
	ord_error_clear();
	return ok && want->len;
}

/* Append s on one line ("k=v\nk=v\n" as "k=v, k=v"; "" as "none"). */
static void flat_add(struct ord_buf *out, const char *s)
{
	if (!*s)
		ord_buf_adds(out, "none");
	for (; *s; s++) {
		if (*s != '\n')
			ord_buf_addch(out, *s);
		else if (s[1])
			ord_buf_adds(out, ", ");
	}
}

/* s on one line, in out; returns out's text. */
static const char *flat(struct ord_buf *out, const char *s)
{
	ord_buf_reset(out);
	flat_add(out, s);
	return out->buf;
}

/* The fields (phase, event, unit, values) in which a recorded result rr
 * differs from the one the rules give (cr): "phase 'aire'" in got,
 * "phase 'fire'" in want. */
static void result_diff(struct ord_buf *got, struct ord_buf *want, const struct ord_rec_result *rr,
			const struct ord_ctx_result *cr)
{
	ord_buf_reset(got);
	ord_buf_reset(want);
	if (strcmp(rr->phase, cr->phase)) {
		ord_buf_addf(got, "phase '%s'", rr->phase);
		ord_buf_addf(want, "phase '%s'", cr->phase);
	}
	if (rr->event != (int)cr->event_seq) {
		ord_buf_addf(got, "%sevent #%d", got->len ? ", " : "", rr->event);
		ord_buf_addf(want, "%sevent #%u", want->len ? ", " : "", cr->event_seq);
	}
	if (strcmp(rr->unit, cr->unit)) {
		ord_buf_addf(got, "%sunit '%s'", got->len ? ", " : "", rr->unit);
		ord_buf_addf(want, "%sunit '%s'", want->len ? ", " : "", cr->unit);
	}
	if (strcmp(rr->values, cr->values)) {
		ord_buf_addf(got, "%svalues ", got->len ? ", " : "");
		flat_add(got, rr->values);
		ord_buf_addf(want, "%svalues ", want->len ? ", " : "");
		flat_add(want, cr->values);
	}
}

/*
 * A phase's rows, compared as they come (ord_record_rows_each: rolls, then
 * results, then states) with what the replay gave: the rolls and results
 * in order, the changed units' states in unit order; and digested as they
 * come, to be held to the phase's resolve entry.  A record read a phase
 * at a time gives them a chunk at a time: none is held past its call.
 */
struct cmp {
	struct vr *x;
	struct ord_ctx *ctx;
	size_t p;
	const char *phase;
	int stage; /* the table being met: 0 rolls, 1 results, 2 states, 3 done */
	size_t listed;
	size_t kroll; /* the replay's next roll, result, and unit (states) */
	size_t kres;
	size_t unit;
	size_t b_of;       /* 1 + the changed unit whose state c->b holds (next_changed), 0: none */
	unsigned char *ok; /* per unit: its recorded state is the one the rules give */
	struct ord_buf a, b, want, got, attrs;
	struct ord_digest d;
	struct ord_phase_rows n; /* rows met, by table */
};

/* The tables before stage are all met: what the rules gave beyond them. */
static void cmp_stage(struct cmp *c, int stage)
{
	struct ord_ctx *ctx = c->ctx;
	size_t i, k;

	if (c->stage < 1 && stage >= 1 && (k = c->kroll) < ctx->nrolls && c->listed++ < MAX_LISTED) {
		/* name the rolls left out (the first few) */
		ord_buf_reset(&c->want);
		for (i = k; i < ctx->nrolls && i < k + 3; i++)
			ord_buf_addf(&c->want, "%s[%s #%u %s #%u d%u]", i > k ? ", " : "",
				     ctx->rolls[i].phase, ctx->rolls[i].event_seq,
				     ctx->rolls[i].purpose, ctx->rolls[i].idx, ctx->rolls[i].sides);
		ord_vout_fail(c->x->v,
			      "phase %s: the rules roll %zu %s, but %zu %s recorded: missing %s%s",
			      c->phase, ctx->nrolls, ctx->nrolls == 1 ? "die" : "dice", k,
			      k == 1 ? "is" : "are", c->want.buf,
			      ctx->nrolls > k + 3 ? " and more" : "");
	}
	if (c->stage < 2 && stage >= 2 && c->kres < ctx->nresults && c->listed++ < MAX_LISTED)
		ord_vout_fail(c->x->v, "phase %s: the rules give %zu results, but %zu are recorded",
			      c->phase, ctx->nresults, c->kres);
	if (stage > c->stage)
		c->stage = stage;
}

static int cmp_roll(void *ud, const struct ord_rec_roll *rr)
{
	struct cmp *c = ud;
	struct ord_ctx *ctx = c->ctx;
	const struct ord_ctx_roll *cr;
	const char *phase = c->phase;

	ord_digest_roll(&c->d, rr->turn, rr->phase, rr->event, rr->purpose, rr->idx, rr->sides,
			rr->value, rr->fixed);
	c->n.rolls++;
	if (c->kroll >= ctx->nrolls) {
		if (c->listed++ < MAX_LISTED)
			ord_vout_fail(c->x->v,
				      "phase %s: roll [%s #%d %s #%d] = %d is recorded, but the rules roll no such die",
				      phase, rr->phase, rr->event, rr->purpose, rr->idx, rr->value);
		c->kroll++;
		return 0;
	}
	cr = &ctx->rolls[c->kroll++];
	if (strcmp(rr->phase, cr->phase) || rr->event != (int)cr->event_seq ||
	    strcmp(rr->purpose, cr->purpose) || rr->idx != (int)cr->idx ||
	    rr->sides != (int)cr->sides) {
		if (c->listed++ < MAX_LISTED)
			ord_vout_fail(c->x->v,
				      "phase %s: roll [%s #%d %s #%d d%d] is recorded where the rules roll [%s #%u %s #%u d%u]",
				      phase, rr->phase, rr->event, rr->purpose, rr->idx, rr->sides,
				      cr->phase, cr->event_seq, cr->purpose, cr->idx, cr->sides);
	} else if (rr->value != cr->value || !rr->fixed != !cr->fixed) {
		if (c->listed++ < MAX_LISTED)
			ord_vout_fail(c->x->v,
				      "phase %s: roll [%s #%d %s #%d] is %d on a d%d, but the seed and the sealed sheets give %d (the dice were chosen)",
				      phase, rr->phase, rr->event, rr->purpose, rr->idx, rr->value,
				      rr->sides, cr->value);
	}
	return 0;
}

static int cmp_result(void *ud, const struct ord_rec_result *rr)
{
	struct cmp *c = ud;
	struct ord_ctx *ctx = c->ctx;
	const struct ord_ctx_result *cr;
	const char *phase = c->phase, *lang, *was, *is;

	cmp_stage(c, 1);
	ord_digest_result(&c->d, rr->turn, rr->phase, rr->event, rr->unit, rr->values,
			  rr->explanation, &rr->texts);
	c->n.results++;
	if (c->kres >= ctx->nresults) {
		if (c->listed++ < MAX_LISTED)
			ord_vout_fail(c->x->v,
				      "phase %s: a result for %s is recorded that the rules do not give: %s",
				      phase, *rr->unit ? rr->unit : "(no unit)", rr->explanation);
		c->kres++;
		return 0;
	}
	if (ctx->lean_results) {
		/* held to its hash; one that differs is worded once the
		 * replay has made the results again whole (replay_full) */
		unsigned char h[16];
		ord_result_hash(h, rr->phase, rr->event, rr->unit, rr->values, rr->explanation,
				&rr->texts);
		if (sodium_memcmp(h, ctx->result_hash[c->kres++], 16))
			c->x->results_differ = 1;
		return 0;
	}
	cr = &ctx->results[c->kres++];
	if (strcmp(rr->unit, cr->unit) || rr->event != (int)cr->event_seq ||
	    strcmp(rr->values, cr->values) || strcmp(rr->explanation, cr->explanation) ||
	    strcmp(rr->phase, cr->phase)) {
		ord_buf_reset(&c->want);
		ord_buf_reset(&c->got);
		if (c->listed++ >= MAX_LISTED)
			return 0;
		if (!strcmp(rr->explanation, cr->explanation) && !strcmp(rr->unit, cr->unit) &&
		    kv_diff(cr->values, rr->values, &c->want, &c->got))
			/* the same words, other values: name the values */
			ord_vout_fail(c->x->v,
				      "phase %s: the result for %s is recorded with %s, but the rules give %s ('%s')",
				      phase, *rr->unit ? rr->unit : "(no unit)", c->got.buf,
				      c->want.buf, cr->explanation);
		else if (!strcmp(rr->explanation, cr->explanation)) {
			/* the same words: name what differs */
			result_diff(&c->got, &c->want, rr, cr);
			ord_vout_fail(c->x->v,
				      "phase %s: the result for %s (\"%s\") is recorded with %s, but the rules give %s",
				      phase, *rr->unit ? rr->unit : "(no unit)", cr->explanation,
				      c->got.buf, c->want.buf);
		} else
			ord_vout_fail(c->x->v,
				      "phase %s: the result for %s is recorded as \"%s\", but the rules give \"%s\"",
				      phase, *rr->unit ? rr->unit : "(no unit)", rr->explanation,
				      cr->explanation);
	} else if (texts_differ(&rr->texts, ord_ctx_result_texts_of(cr), &lang, &was, &is)) {
		if (c->listed++ < MAX_LISTED)
			ord_vout_fail(c->x->v,
				      "phase %s: the result for %s is recorded in %s as '%s', but the rules give '%s'",
				      phase, *rr->unit ? rr->unit : "(no unit)", lang, was, is);
	}
	return 0;
}

/* The changed unit i, whose state the rules give in c->b, against the
 * recorded state rs (NULL: none is left): 1 when rs is another unit's,
 * to be met again by the next changed unit. */
static int cmp_unit(struct cmp *c, size_t i, const struct ord_rec_state *rs)
{
	struct ord_ctx *ctx = c->ctx;
	const int turn = c->x->r->turn;
	const char *phase = c->phase;
	size_t p = c->p;

	if (rs && !strcmp(rs->unit, ctx->units[i].id) && !strcmp(rs->value, c->b.buf) &&
	    rs->turn == turn && rs->phase == (int)p + 1) {
		/* and with the attributes it is digested with (a fourth red
		 * team: a bundle's were read by nothing) */
		ord_buf_reset(&c->attrs);
		ord_kv_serialize(&ctx->units[i].attrs, &c->attrs);
		if (!strcmp(rs->attrs, c->attrs.buf))
			c->ok[i] = 1;
		else if (c->listed++ < MAX_LISTED)
			ord_vout_fail(c->x->v,
				      "phase %s: unit %s's state is recorded with the attributes (%s), but the scenario gives (%s)",
				      phase, ctx->units[i].id, flat(&c->got, rs->attrs),
				      flat(&c->want, c->attrs.buf));
		return 0;
	}
	ord_buf_reset(&c->want);
	ord_buf_reset(&c->got);
	if (c->listed++ < MAX_LISTED && rs && !strcmp(rs->unit, ctx->units[i].id) &&
	    kv_diff(c->b.buf, rs->value, &c->want, &c->got))
		/* the keys that differ, not two states alike but for them */
		ord_vout_fail(c->x->v,
			      "phase %s: unit %s ends the phase with %s by the rules, but its recorded state has %s",
			      phase, ctx->units[i].id, c->want.buf, c->got.buf);
	else if (c->listed <= MAX_LISTED && rs && !strcmp(rs->unit, ctx->units[i].id) &&
		 !strcmp(rs->value, c->b.buf))
		/* the same state: what differs is when it is recorded */
		ord_vout_fail(c->x->v,
			      "phase %s: unit %s's state is recorded as of turn %d, phase %d, but the rules give it at turn %d, phase %zu",
			      phase, ctx->units[i].id, rs->turn, rs->phase, turn, p + 1);
	else if (c->listed <= MAX_LISTED && rs && strcmp(rs->unit, ctx->units[i].id))
		/* the row is a later unit's (cmp_state): this one's is not
		 * there, not the other's state (it was shown as this one's) */
		ord_vout_fail(c->x->v,
			      "phase %s: unit %s ends the phase as (%s) by the rules, but no state of it is recorded before unit %s's (the states are recorded in unit order)",
			      phase, ctx->units[i].id, flat(&c->a, c->b.buf), rs->unit);
	else if (c->listed <= MAX_LISTED)
		ord_vout_fail(c->x->v,
			      "phase %s: unit %s ends the phase as (%s) by the rules, but its recorded state is %s%s%s",
			      phase, ctx->units[i].id, flat(&c->a, c->b.buf), rs ? "(" : "missing",
			      rs ? flat(&c->got, rs->value) : "", rs ? ")" : "");
	/* a unit recorded out of order: the next unit meets the row again */
	return rs && strcmp(rs->unit, ctx->units[i].id);
}

/* The next changed unit from c->unit on (its state in c->b), or nunits.
 * Asked twice of a unit (cmp_state asks, then walks to it): the state
 * found the first time is still in c->b, not serialised and hashed again. */
static size_t next_changed(struct cmp *c)
{
	if (c->b_of == c->unit + 1)
		return c->unit;
	while (c->unit < c->ctx->nunits && !ord_ctx_unit_changed(c->ctx, c->unit, &c->b))
		c->unit++;
	if (c->unit < c->ctx->nunits)
		c->b_of = c->unit + 1;
	return c->unit;
}

static int cmp_state(void *ud, const struct ord_rec_state *rs)
{
	struct cmp *c = ud;
	struct ord_ctx *ctx = c->ctx;
	const struct ord_unit *u;
	int known = 0;

	cmp_stage(c, 2);
	ord_digest_state(&c->d, rs->unit, rs->attrs, rs->turn, rs->phase, rs->value);
	c->n.states++;
	u = ord_ctx_find_unit(ctx, rs->unit);
	if (u && strcmp(u->id, rs->unit))
		u = NULL;
	/* a row of no unit, or of a unit before the next one the rules
	 * changed, is not that one's: said below as a row the rules do not
	 * give (it was compared with every changed unit after it, each said
	 * to be recorded with its state: a deleted move event's unit made
	 * four such lines) */
	if (u && (size_t)(u - ctx->units) >= next_changed(c))
		while (next_changed(c) < ctx->nunits)
			if (!cmp_unit(c, c->unit++, rs))
				return 0;
	/* past the last changed unit: a row the rules do not give, looked
	 * up, not sought among every unit (a bundle of many such rows made
	 * that the square of its size) */
	if (u && !strcmp(u->id, rs->unit) && c->ok[u - ctx->units]) {
		/* a second state of a unit whose first is the rules' (a
		 * fourth red team: taken as the unit's, unseen) */
		if (c->listed++ < MAX_LISTED)
			ord_vout_fail(c->x->v,
				      "phase %s: a second state of unit %s is recorded (%s): the rules give it one, recorded before it",
				      c->phase, rs->unit, flat(&c->a, rs->value));
		return 0;
	}
	/* a unit the phase changed was named already, out of order */
	if (u && !strcmp(u->id, rs->unit)) {
		c->b_of = 0; /* c->b is u's now */
		known = ord_ctx_unit_changed(ctx, (size_t)(u - ctx->units), &c->b);
	}
	if (!known && c->listed++ < MAX_LISTED)
		ord_vout_fail(c->x->v,
			      "phase %s: a state of unit %s is recorded (%s) that the rules do not give",
			      c->phase, rs->unit, flat(&c->a, rs->value));
	return 0;
}

/* Every row met: what the rules gave beyond them, and the rows read
 * against what the file holds for the entry and against its digest. */
static void cmp_done(struct cmp *c)
{
	struct vr *x = c->x;

	cmp_stage(c, 3);
	while (next_changed(c) < c->ctx->nunits)
		cmp_unit(c, c->unit++, NULL);
	if (c->listed > MAX_LISTED)
		ord_vout_fail(x->v, "phase %s: and %zu more differences", c->phase,
			      c->listed - MAX_LISTED);
}

/*
 * The rows a phase read by its entry against the rows the file holds for
 * it (a record read a phase at a time: groups): a row stored so that the
 * entry's lookup passes it by (its log_seq as text, in a table rebuilt
 * without the column's type) would otherwise be in the game, and in a
 * player's report, unreplayed and undigested.
 */
static void rows_all_read(struct vr *x, const struct ord_phase_rows *n, size_t p,
			  const struct ord_rec_entry *e)
{
	static const char *const what[] = { "roll", "result", "unit state" };
	size_t read[3], t;

	read[ORD_REC_GROUP_ROLLS] = n->rolls;
	read[ORD_REC_GROUP_RESULTS] = n->results;
	read[ORD_REC_GROUP_STATES] = n->states;
	for (t = 0; t < 3; t++) {
		size_t held = ord_record_counted(x->r, (int)t, e->seq);
		if (held != read[t])
			ord_vout_fail(x->v,
				      "phase %zu (%s): the game file holds %zu %s%s of log entry %lld, but %zu of them %s found by it: rows stored so that they are passed by (a table changed outside orderly)",
				      p + 1, x->rs->phases[p], held, what[t], held == 1 ? "" : "s",
				      (long long)e->seq, read[t], read[t] == 1 ? "is" : "are");
	}
}

/* The phase's rows as met (their digest h, their numbers n) against its
 * resolve entry. */
static void check_digest(struct vr *x, const unsigned char h[32], const struct ord_phase_rows *n,
			 const struct ord_rec_entry *e)
{
	if (!ord_phase_rows_match(h, n, e->body, NULL)) {
		char *phase = ord_canon_get(e->body, "phase");
		ord_vout_fail(x->v,
			      "the rolls, results or unit states of log entry %lld (phase %s) were changed after they were written",
			      (long long)e->seq, phase ? phase : "?");
		free(phase);
	}
}

/* Compare and digest the phase's rows (struct cmp): 0, or the error of
 * reading them. */
static int compare_rows(struct vr *x, struct ord_ctx *ctx, size_t p, const struct ord_rec_entry *e)
{
	const struct ord_rows_sink sink = { cmp_roll, cmp_result, cmp_state, NULL };
	struct ord_rows_sink s = sink;
	unsigned char h[32];
	struct cmp c;
	int err;

	memset(&c, 0, sizeof(c));
	c.x = x;
	c.ctx = ctx;
	c.p = p;
	c.phase = x->rs->phases[p];
	c.ok = ord_xcalloc(ctx->nunits ? ctx->nunits : 1, 1);
	ord_buf_init(&c.a);
	ord_buf_init(&c.b);
	ord_buf_init(&c.want);
	ord_buf_init(&c.got);
	ord_buf_init(&c.attrs);
	ord_digest_init(&c.d, ORD_PHASE_TAG);
	s.ud = &c;
	if ((err = ord_record_rows_each(x->r, e->seq, &s)) == 0) {
		cmp_done(&c);
		if (x->r->rows_each)
			rows_all_read(x, &c.n, p, e);
		ord_digest_final(&c.d, h);
		check_digest(x, h, &c.n, e);
	}
	ord_buf_release(&c.a);
	ord_buf_release(&c.b);
	ord_buf_release(&c.want);
	ord_buf_release(&c.got);
	ord_buf_release(&c.attrs);
	free(c.ok);
	return err;
}

/* A phase whose replay stops: its rows counted against what the file
 * holds for its entry all the same (rows_all_read), as before they were
 * compared as they come (a fourth red team). */
static int count_roll(void *ud, const struct ord_rec_roll *row)
{
	(void)row;
	((struct ord_phase_rows *)ud)->rolls++;
	return 0;
}

static int count_result(void *ud, const struct ord_rec_result *row)
{
	(void)row;
	((struct ord_phase_rows *)ud)->results++;
	return 0;
}

static int count_state(void *ud, const struct ord_rec_state *row)
{
	(void)row;
	((struct ord_phase_rows *)ud)->states++;
	return 0;
}

static void rows_counted(struct vr *x, size_t p, const struct ord_rec_entry *e)
{
	struct ord_phase_rows n = { 0, 0, 0 };
	const struct ord_rows_sink sink = { count_roll, count_result, count_state, &n };

	if (!x->r->rows_each)
		return;
	if ((x->read_err = ord_record_rows_each(x->r, e->seq, &sink)) == 0)
		rows_all_read(x, &n, p, e);
}

/* The fixed dice of a fixed-dice game's phase, in the order they were
 * rolled: the rolls recorded. */
struct fixed_dice {
	ORD_REC_ARRAY(int) dice;
};

static int fixed_roll(void *ud, const struct ord_rec_roll *rr)
{
	*ORD_REC_ADD(((struct fixed_dice *)ud)->dice) = rr->value;
	return 0;
}

/*
 * The rules a phase was resolved by, against this build's: a rule corrected
 * between an earlier revision and this build's shows in the replay as a
 * difference that is no cheat, so where the phase differed the audit says
 * which rules resolved it.  Where it agreed, the first phase of the turn
 * resolved by other rules is named once.  A revision this build does not
 * know (later than its own, or not a revision at all) gets no such excuse:
 * the entry is the referee's to write until its head goes out, and a
 * forged result once caught read "no cheat by itself" beside a revision
 * made up for it (the red team of 2026-12-05).  Rules that change between
 * the phases of one turn are named.
 */
/* The rules a resolve entry names, as "battalion rules of R (core C)". */
static void rules_named(struct vr *x, const struct ord_rec_entry *e, struct ord_buf *out)
{
	char *core = ord_canon_get(e->body, "core_revision");
	char *rules = ord_canon_get(e->body, "rules_revision");

	if (!core && !rules)
		ord_buf_adds(out, "an orderly that names no rules revision (before 2026-12-02)");
	else
		ord_buf_addf(out, "%s rules of %s (core %s)", x->rs->name,
			     rules ? rules : "no revision", core ? core : "not named");
	free(core);
	free(rules);
}

/* Do the turn's resolved phases name other rules than each other?  Said
 * once; the difference of a phase is then excused for none of them. */
static int rules_mixed(struct vr *x)
{
	struct ord_buf first = ORD_BUF_INIT, was = ORD_BUF_INIT;
	size_t p;
	int mixed = 0;

	for (p = 0; p < x->nresolved && !mixed; p++) {
		ord_buf_reset(&was);
		rules_named(x, x->phases[p].resolve, &was);
		if (!p) {
			ord_buf_adds(&first, was.buf);
		} else if (strcmp(first.buf, was.buf)) {
			ord_vout_note(x->v,
				      "phase %zu (%s) was resolved by %s, but phase 1 of the same turn by %s: the orderly was changed during the turn, or an entry rewritten before its head went out; a difference of the turn's replay is excused by neither",
				      p + 1, x->rs->phases[p], was.buf, first.buf);
			mixed = 1;
		}
	}
	ord_buf_release(&first);
	ord_buf_release(&was);
	return mixed;
}

/* Is the revision named one this build knows to come before its own (or
 * its own)?  "YYYY-MM-DD.N" only. */
static int revision_known(const char *named, const char *mine)
{
	int cmp;

	return named && mine &&
	       (!strcmp(named, mine) || (!ord_canon_revision_cmp(named, mine, &cmp) && cmp < 0));
}

static void revision_note(struct vr *x, const struct ord_rec_entry *e, size_t p, int differed,
			  int *named, int mixed)
{
	char *core = ord_canon_get(e->body, "core_revision");
	char *rules = ord_canon_get(e->body, "rules_revision");
	const char *mine = ord_ruleset_revision(x->rs);
	struct ord_buf was = ORD_BUF_INIT;
	int other, unknown, cmp;

	other = !core || strcmp(core, ORD_CORE_REVISION) || !rules != !mine ||
		(rules && strcmp(rules, mine));
	/* named, yet not what this build knows to come before its own: a
	 * later core or rules, a string that is no revision, or a core named
	 * without the rules (every orderly that names one names both) */
	unknown = (core || rules) && (!revision_known(core, ORD_CORE_REVISION) ||
				      (mine && !revision_known(rules, mine)));
	rules_named(x, e, &was);
	if (other && differed && (unknown || mixed))
		ord_vout_note(x->v,
			      "phase %zu (%s) was resolved, its entry says, by %s, which this orderly (%s rules of %s, core %s) %s. If a later orderly played it, check this turn with that one; else the entry names rules that never were, and the difference stands",
			      p + 1, x->rs->phases[p], was.buf, x->rs->name,
			      mine ? mine : "no revision", ORD_CORE_REVISION,
			      mixed ? "cannot excuse: the turn's phases name other rules than each other"
			      : (rules && ord_canon_revision_cmp(rules, mine ? mine : rules, &cmp)) ||
					      (core &&
					       ord_canon_revision_cmp(core, ORD_CORE_REVISION, &cmp))
				      ? "does not know: it is not a revision (YYYY-MM-DD.N)"
				      : "does not know: it is later than its own, or names a core without its rules");
	else if (other && differed)
		ord_vout_note(x->v,
			      "phase %zu (%s) was resolved by %s; this orderly replays it with %s rules of %s (core %s): a rule corrected between the two shows as a difference, which is no cheat by itself (the ruleset's README lists what each revision corrected); check this turn with the orderly it was played with",
			      p + 1, x->rs->phases[p], was.buf, x->rs->name,
			      mine ? mine : "no revision", ORD_CORE_REVISION);
	else if (other && !*named)
		ord_vout_note(x->v,
			      "phase %zu (%s) and the turn's later phases were resolved by %s; this orderly, with %s rules of %s (core %s), gives the same",
			      p + 1, x->rs->phases[p], was.buf, x->rs->name,
			      mine ? mine : "no revision", ORD_CORE_REVISION);
	if (other && !differed)
		*named = 1;
	ord_buf_release(&was);
	free(core);
	free(rules);
}

int ord_vr_lean_results = 1;

/* run_phase's outcomes: the phase replayed; it cannot be (its dice key is
 * unknown) or its replay stops at an error, said; the game file could not
 * be read (x->read_err). */
enum { RUN_DONE, RUN_CANNOT, RUN_STOPPED, RUN_READ_ERR };

/*
 * Phase p replayed in ctx, as far as its rows: room for the results its
 * entry recorded (the rules should give as many), its events as recorded,
 * its dice, the rules run.  What goes wrong is said (x->v).
 */
static int run_phase(struct vr *x, struct ord_ctx *ctx, size_t p, struct fixed_dice *fixed,
		     size_t *overrides)
{
	const struct ord_record *r = x->r;
	const struct ord_rec_entry *e = x->phases[p].resolve;
	struct ord_phase_dice dice;
	unsigned char pkey[32];
	static const int none = 0;
	size_t k, nres;

	if (r->rows_each)
		nres = ord_record_counted(r, ORD_REC_GROUP_RESULTS, e->seq);
	else
		for (k = 0, nres = 0; k < r->results.n; k++)
			nres += r->results.v[k].log == e->seq;
	ord_ctx_reserve_results(ctx, nres);
	replay_events(x, ctx, p, overrides);
	memset(&dice, 0, sizeof(dice));
	if (x->cfg.fixed_dice) {
		/* the referee gave these dice: the rules must follow from them */
		const struct ord_rows_sink rolls = { fixed_roll, NULL, NULL, fixed };
		fixed->dice.n = 0;
		if ((x->read_err = ord_record_rows_each(r, e->seq, &rolls)) != 0)
			return RUN_READ_ERR;
		dice.fixed_game = 1;
		dice.fixed = fixed->dice.v ? fixed->dice.v : &none;
		dice.nfixed = fixed->dice.n;
	} else if (x->cfg.witnessed) {
		if (x->have_key && witness_key(x, ctx, p, pkey))
			dice.key = pkey;
	} else if (x->have_key) {
		dice.key = x->dice_key;
	}
	dice.by_events = x->cfg.dice_by_events;
	if (!dice.fixed_game && !dice.key) {
		rows_counted(x, p, e);
		ord_vout_fail(x->v, "phase %zu (%s) cannot be replayed: its dice key is unknown%s",
			      p + 1, x->rs->phases[p],
			      r->have_seed ? "" : " (the seed is not revealed)");
		return RUN_CANNOT;
	}
	if (ord_phase_run(ctx, x->rs->phases[p], &dice)) {
		char *why = ord_strdup(ord_error_last());
		rows_counted(x, p, e);
		ord_vout_fail(x->v, "phase %zu (%s): the replay stops: %s", p + 1, x->rs->phases[p],
			      why);
		free(why);
		ord_error_clear();
		return RUN_STOPPED;
	}
	return RUN_DONE;
}

/*
 * Phase upto's results are not the ones recorded: the lean replay kept
 * their hashes only.  The replay is made again from the turn's opening,
 * saying nothing, with upto's results kept whole this time, and upto's
 * rows compared again aloud: what it says is what a replay that kept every
 * result said (and costs a replay more, for a turn found changed only).
 * 0, or 1 when the replay stops (x->read_err, or a phase that replayed
 * before and now does not).
 */
static int replay_full(struct vr *x, struct ord_ctx *ctx, size_t upto, struct fixed_dice *fixed)
{
	struct ord_vout quiet = *x->v, *loud = x->v;
	struct ord_buf said = ORD_BUF_INIT;
	size_t q, overrides = 0, n = x->r->entries.n;
	int *used = ord_xmalloc((n ? n : 1) * sizeof(*used)), run = RUN_DONE;

	/* the entries vouched for are counted once, by the first replay */
	memcpy(used, x->used, n * sizeof(*used));
	quiet.out = &said;
	quiet.kept = NULL; /* nothing it says is counted */
	x->v = &quiet;
	ord_ctx_release(ctx);
	if (build_ctx(x, ctx) && x->read_err)
		run = RUN_READ_ERR;
	if (run == RUN_DONE && x->have_sealed)
		check_stand_ins(x, ctx);
	for (q = 0; run == RUN_DONE && q <= upto; q++) {
		ord_ctx_set_lean_results(ctx, q < upto);
		if ((run = run_phase(x, ctx, q, fixed, &overrides)) == RUN_DONE && q < upto)
			ord_ctx_next_phase(ctx);
	}
	x->v = loud;
	memcpy(x->used, used, n * sizeof(*used));
	free(used);
	ord_buf_release(&said);
	if (run != RUN_DONE) {
		if (!x->read_err)
			ord_vout_fail(x->v,
				      "phase %zu (%s): replayed again to name its results, the turn does not replay as it did",
				      upto + 1, x->rs->phases[upto]);
		return 1;
	}
	x->results_differ = 0;
	if ((x->read_err = compare_rows(x, ctx, upto, x->phases[upto].resolve)) != 0)
		return 1;
	ord_ctx_set_lean_results(ctx, 1);
	return 0;
}

/*
 * Phase p's resolve entry e, since 2026-12-07, digests every unit's state
 * as the phase left them (state_root), which the next phase and the
 * exchange hold the game file's units to: the states the replay gives must
 * be those.  An entry of an orderly before names none.
 */
static int states_left(struct vr *x, struct ord_ctx *ctx, size_t p, const struct ord_rec_entry *e,
		       unsigned char root[32])
{
	unsigned char want[32];
	char *named = ord_canon_get(e->body, "state_root");

	if (!named)
		return 0;
	free(named);
	ord_phase_state_root(ctx, root);
	if (!ord_vr_body_hex(e->body, "state_root", want, 32) || memcmp(root, want, 32))
		ord_vout_fail(x->v,
			      "phase %zu (%s): the units' states the replay gives are not the ones its resolve entry (entry %lld) digests",
			      p + 1, x->rs->phases[p], (long long)e->seq);
	return 1;
}

/*
 * The phases of the turn where every side revealed its link (attack 48's
 * leftover): the side whose link came last could, in league with the
 * referee, who saw the others' links first, reveal or hold back once it
 * knew both keys the phase could have (with its link, or with the
 * referee's stand-in); had it held back, the phase would read "revealed
 * no witness link in time", and no record shows the choice it made
 * otherwise.  Said once a turn, not once a phase: every phase with two
 * sides has a last revealer, and the lever takes seconds on a copy of the
 * game, so no delay shows it or rules it out (and the log's times are the
 * referee's clock); what a player can weigh is which side was last, in
 * which phases, how long after the link before it.  The phases resolved
 * only.
 */
static void last_revealers(struct vr *x)
{
	const struct ord_record *r = x->r;
	const char *host = x->have_cfg && x->cfg.refereeless ? "host" : "referee";
	struct ord_buf said = ORD_BUF_INIT, phases = ORD_BUF_INIT;
	size_t p, j, k, nfull = 0;

	if (x->sc.nsides < 2)
		return;
	/* side by side, in the scenario's order, the phases it was last in */
	for (j = 0; j < x->sc.nsides; j++) {
		const char *side = x->sc.sides[j].id;
		size_t n = 0;

		for (p = 0; p < x->nresolved; p++) {
			const struct ord_rec_link *last = NULL, *before = NULL;
			const struct ord_rec_entry *el, *eb;
			size_t nlinks = 0;

			for (k = 0; k < r->links.n; k++) {
				const struct ord_rec_link *l = &r->links.v[k];
				if (l->index != (int)p + 1)
					continue;
				nlinks++;
				if (!last || l->log > last->log) {
					before = last;
					last = l;
				} else if (!before || l->log > before->log) {
					before = l;
				}
			}
			if (nlinks != x->sc.nsides || !last || !before)
				continue;
			if (!j)
				nfull++;
			if (strcmp(last->side, side))
				continue;
			el = ord_record_entry(r, last->log);
			eb = ord_record_entry(r, before->log);
			if (!n++)
				ord_buf_addf(&said, "%s%s in phase ", said.len ? "; " : "", side);
			else
				ord_buf_adds(&said, ", ");
			ord_buf_addf(&said, "%zu (%lld s after %s's link)", p + 1,
				     el && eb ? (long long)(el->at - eb->at) : 0LL, before->side);
		}
	}
	/* "1, 4 and 5" */
	for (p = 0, k = 0; nfull && p < x->nresolved; p++) {
		size_t nlinks = 0, q;
		for (q = 0; q < r->links.n; q++)
			nlinks += r->links.v[q].index == (int)p + 1;
		if (nlinks != x->sc.nsides)
			continue;
		k++;
		ord_buf_addf(&phases, "%s%zu", k == 1 ? "" : k == nfull ? " and " : ", ", p + 1);
	}
	if (nfull)
		ord_vout_note(x->v,
			      "turn %d: every side revealed its witness link in phase%s %s; the last to reveal, by the log's order and times (which the %s keeps): %s.  The last to reveal, in league with the %s, who sees the others' links first, could reveal or hold back once it knew both keys the phase could have (with its link, or with the %s's stand-in): had it held back, the phase would read \"revealed no witness link in time\"; no record shows the choice otherwise.  A side last phase after phase is the one to weigh",
			      r->turn, nfull == 1 ? "" : "s", phases.buf, host, said.buf, host, host);
	ord_buf_release(&said);
	ord_buf_release(&phases);
}

void ord_vr_replay(struct vr *x)
{
	const struct ord_record *r = x->r;
	struct ord_ctx ctx;
	size_t p, overrides = 0;
	int bad = x->v->failures, named = 0, mixed;
	struct fixed_dice fixed;
	/* the states' digest the last phase replayed left (states_left): the
	 * turn ends with them when no event follows it (the next phase
	 * changes no state, ord_ctx_next_phase), not digested again */
	unsigned char left[32];
	int have_left = 0;

	memset(&fixed, 0, sizeof(fixed));
	if (!x->rs || !x->have_sc || !x->open)
		return;
	if (build_ctx(x, &ctx) && x->read_err) {
		ord_ctx_release(&ctx);
		return;
	}
	if (x->have_sealed)
		check_stand_ins(x, &ctx);
	/* the results kept as hashes: a phase of 63,000 held 10 MB of them
	 * until its rows were read (replay_full when one differs) */
	ord_ctx_set_lean_results(&ctx, ord_vr_lean_results);
	mixed = rules_mixed(x);
	for (p = 0; p < x->nresolved; p++) {
		const struct ord_rec_entry *e = x->phases[p].resolve;
		size_t mark;
		int before = x->v->failures, compared, run;

		x->used[ord_vr_entry_index(x, e)]++;
		have_left = 0;
		run = run_phase(x, &ctx, p, &fixed, &overrides);
		if (run == RUN_STOPPED)
			revision_note(x, e, p, 1, &named, mixed);
		if (run != RUN_DONE)
			break;
		/* the phase's rows, compared as they are read */
		x->results_differ = 0;
		mark = x->v->out->len;
		compared = x->v->failures;
		if ((x->read_err = compare_rows(x, &ctx, p, e)) != 0)
			break;
		if (x->results_differ) {
			/* what the comparison said is said again, with the
			 * results the rules give at hand to name what differs */
			ord_vout_rewind(x->v, mark, compared);
			if (replay_full(x, &ctx, p, &fixed))
				break;
		}
		have_left = states_left(x, &ctx, p, e, left);
		revision_note(x, e, p, x->v->failures > before, &named, mixed);
		ord_ctx_next_phase(&ctx);
	}
	if (x->read_err) { /* the game file is at fault: the audit stops */
		free(fixed.dice.v);
		ord_ctx_release(&ctx);
		return;
	}
	/* the events of the phase being played: checked as they were recorded */
	if (p == x->nresolved && p < x->nphases) {
		replay_events(x, &ctx, p, &overrides);
		have_left = 0;
	}
	if (p == x->nresolved && x->next_open) {
		unsigned char root[32], want[32];
		if (have_left && x->nresolved)
			memcpy(root, left, 32);
		else
			ord_phase_state_root(&ctx, root);
		if (!ord_vr_body_hex(x->next_open->body, "state_root", want, 32) ||
		    memcmp(root, want, 32))
			ord_vout_fail(x->v,
				      "the units' states the replay ends with are not the ones turn %d opens with (entry %lld)",
				      r->turn + 1, (long long)x->next_open->seq);
		if (x->f) {
			x->f->have_end_root = 1;
			memcpy(x->f->end_root, root, 32);
		}
	} else if (p == x->nresolved && x->f) {
		x->f->have_end_root = 1;
		if (have_left && x->nresolved)
			memcpy(x->f->end_root, left, 32);
		else
			ord_phase_state_root(&ctx, x->f->end_root);
	}
	if (x->f)
		x->f->nunits = ctx.nunits;
	if (x->v->failures == bad && !x->cfg.fixed_dice && x->nresolved)
		ord_vout_ok(x->v, "dice: %zu roll%s recomputed from the seed and the sealed %s%s",
			    ord_record_nrolls(r), ord_record_nrolls(r) == 1 ? "" : "s",
			    x->cfg.refereeless ? "commitments and nonces" : "commitments",
			    x->cfg.witnessed ? ", the phases' events and the sides' witness links"
					     : "");
	if (x->v->failures == bad && !x->nresolved)
		ord_vout_ok(x->v, "replay: no phase resolved yet%s",
			    r->events.n ? "; the events recorded agree with the orders as they were recorded"
					: "");
	else if (x->v->failures == bad)
		ord_vout_ok(x->v,
			    "replay: %zu phase%s replayed through ruleset %s: every event check, roll, result and unit state is what the rules give%s",
			    x->nresolved, x->nresolved == 1 ? "" : "s", x->rs->name,
			    x->cfg.fixed_dice ? " from the dice the referee gave (a fixed-dice test game)"
					      : "");
	if (x->f)
		x->f->overrides = overrides;
	if (x->have_cfg && x->cfg.witnessed)
		last_revealers(x);
	/* where the execution differs from the orders, once the turn is over */
	if (x->exchange && x->rs->check_execution && p == x->nresolved) {
		struct ord_diag d;
		size_t i;
		ord_ctx_next_phase(&ctx);
		ord_ctx_reserve_events(&ctx, r->events.n);
		for (i = 0; i < r->events.n; i++)
			ord_ctx_add_event(&ctx, r->events.v[i].seq, r->events.v[i].phase,
					  r->events.v[i].kind, r->events.v[i].args,
					  r->events.v[i].override, r->events.v[i].checks);
		ord_diag_init(&d);
		x->rs->check_execution(&ctx, &d);
		ord_error_clear();
		for (i = 0; i < d.n; i++)
			ord_vout_note(x->v, "execution: turn %d: %s%s%s%s", r->turn,
				      *d.items[i].unit ? "unit '" : "", d.items[i].unit,
				      *d.items[i].unit ? "': " : "", d.items[i].msg);
		ord_diag_release(&d);
	}
	free(fixed.dice.v);
	ord_ctx_release(&ctx);
}
