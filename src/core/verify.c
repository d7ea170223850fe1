/*
 * verify.c - the one verifier (verify.h): a turn's record checked, whether
 * it came from the game file (audit) or from a bundle (verify).  The
 * replay of its phases is replay.c's.
 *
 * Each check says what it proves; a failure names the entry, sheet, event,
 * roll or head concerned, and the checks after it still run, so that the
 * player gets the whole list.  What the checks rebuild (commitments, log
 * hashes, entry bodies, digests, the dice, every phase) comes from the same
 * functions the game used to write them (crypto.c, canon.c, phase.c), so
 * they cannot drift apart.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/argcheck.h"
#include "core/crypto.h"
#include "core/ctx.h"
#include "core/phase.h"
#include "core/scenario.h"
#include "core/verify.h"
#include "core/verify_int.h"
#include "tables.h"

/* ---- one row held to the log ---- */

/* The verifier's holds of a single row, which the game makes of the live
 * rows a change acts on before it acts (game_live.c): written once. */

int ord_verify_seed_commits(const unsigned char game_id[16], int turn, const unsigned char seed[32],
			    const unsigned char commitment[32])
{
	unsigned char c[32];

	ord_commit_seed(c, game_id, turn, seed);
	return !memcmp(c, commitment, 32);
}

int ord_verify_sheet_commits(const struct ord_rec_sheet *s, const unsigned char game_id[16],
			     int turn, const unsigned char seed_commitment[32])
{
	struct ord_sheet_binding b;
	unsigned char c[32];

	memset(&b, 0, sizeof(b));
	memcpy(b.game_id, game_id, 16);
	b.turn = turn;
	b.side = s->side;
	memcpy(b.seed_commitment, seed_commitment, 32);
	if (s->has_witness)
		memcpy(b.witness, s->witness, 32);
	ord_commit_sheet(c, &b, s->nonce, s->bytes, s->len);
	return !memcmp(c, s->commitment, 32);
}

int ord_verify_sheet_logged(const struct ord_rec_sheet *s, const char *kind, const char *body,
			    struct ord_buf *scratch)
{
	ord_buf_reset(scratch);
	if (!strcmp(kind, "opening"))
		ord_canon_opening(scratch, s->side, s->version, s->commitment);
	else
		ord_canon_sheet(scratch, s->side, s->version, s->source, s->commitment,
				s->has_sig ? s->signature : NULL, s->has_witness ? s->witness : NULL);
	return !strcmp(body, scratch->buf);
}

int ord_verify_sheet_signed(const struct ord_rec_sheet *s, const unsigned char *key,
			    const unsigned char game_id[16], int turn, struct ord_buf *why)
{
	if (key && !strcmp(s->source, "submitted")) {
		if (!s->has_sig)
			ord_buf_addf(why, "not signed, but side %s signs its sheets", s->side);
		else if (ord_sheet_sig_check(key, s->signature, game_id, turn, s->side, s->commitment))
			ord_buf_addf(why, "its signature is not side %s's over its commitment",
				     s->side);
		else
			return 1;
		return -1;
	}
	if (s->has_sig) {
		ord_buf_adds(why, "carries a signature no key of the game can check");
		return -1;
	}
	return 0;
}

int ord_verify_event_logged(const struct ord_rec_event *ev, const char *body, struct ord_buf *scratch)
{
	ord_buf_reset(scratch);
	ord_canon_event(scratch, ev->seq, ev->phase, ev->kind, ev->args ? ev->args : "",
			ev->override, ev->checks);
	return !strcmp(body, scratch->buf);
}

int ord_verify_void_logged(int turn, const struct ord_rec_event *ev, const char *body,
			   struct ord_buf *scratch)
{
	ord_buf_reset(scratch);
	ord_canon_void(scratch, turn, ev->seq, ev->void_reason ? ev->void_reason : "");
	return !strcmp(body, scratch->buf);
}

/* ---- findings ---- */

/* One finding, one line: what the file holds (a reason, an event's words,
 * a name) is shown escaped, so that nothing in a forged file can start a
 * line that reads like a check of its own, or reach the terminal as a
 * control (ord_buf_add_shown). */
static void line(struct ord_vout *v, const char *what, const char *fmt, va_list ap,
		 struct ord_vout_failed *kept)
{
	struct ord_buf b = ORD_BUF_INIT;
	size_t at;

	ord_buf_adds(v->out, v->indent ? v->indent : "  ");
	at = v->out->len;
	ord_buf_addf(v->out, "%s: ", what);
	ord_buf_vaddf(&b, fmt, ap);
	ord_buf_add_shown(v->out, b.len ? b.buf : "");
	if (kept) {
		size_t n = v->out->len - at;
		char *l = ord_xmalloc(n + 1);

		memcpy(l, v->out->buf + at, n);
		l[n] = '\0';
		*ORD_REC_ADD(*kept) = l;
	}
	ord_buf_addch(v->out, '\n');
	ord_buf_release(&b);
}

void ord_vout_fail(struct ord_vout *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(v, v->fail ? v->fail : "FAILED", fmt, ap, v->kept);
	va_end(ap);
	v->failures++;
}

void ord_vout_failed_release(struct ord_vout_failed *f)
{
	while (f->n)
		free(f->v[--f->n]);
	free(f->v);
	memset(f, 0, sizeof(*f));
}

void ord_vout_rewind(struct ord_vout *v, size_t out_len, int failures)
{
	int drop = v->failures - failures;

	v->out->len = out_len;
	if (v->out->alloc)
		v->out->buf[out_len] = '\0';
	for (; v->kept && drop > 0 && v->kept->n; drop--)
		free(v->kept->v[--v->kept->n]);
	v->failures = failures;
}

void ord_vout_ok(struct ord_vout *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(v, "ok", fmt, ap, NULL);
	va_end(ap);
}

void ord_vout_note(struct ord_vout *v, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line(v, "note", fmt, ap, NULL);
	va_end(ap);
}

void ord_verify_facts_release(struct ord_verify_facts *f)
{
	if (f->have_config)
		ord_canon_config_release(&f->config);
	memset(f, 0, sizeof(*f));
}

/* ---- shared with replay.c (verify_int.h) ---- */

size_t ord_vr_entry_index(const struct vr *x, const struct ord_rec_entry *e)
{
	return (size_t)(e - x->r->entries.v);
}

const char *ord_vr_body(struct vr *x, const struct ord_rec_entry *e)
{
	return ord_record_body(x->r, e, &x->body);
}

/* The entry at seq, of kind; NULL (with a failure naming what) if not. */
const struct ord_rec_entry *ord_vr_entry_of(struct vr *x, int64_t seq, const char *kind,
					    const char *what)
{
	const struct ord_rec_entry *e = ord_record_entry(x->r, seq);

	if (!e) {
		ord_vout_fail(x->v, "%s points at log entry %lld, which is not in turn %d's log",
			      what, (long long)seq, x->r->turn);
		return NULL;
	}
	if (strcmp(e->kind, kind)) {
		ord_vout_fail(x->v, "%s points at log entry %lld, a '%s' entry, not '%s'", what,
			      (long long)seq, e->kind, kind);
		return NULL;
	}
	x->used[ord_vr_entry_index(x, e)]++;
	return e;
}

const struct ord_scenario_side *ord_vr_scenario_side(struct vr *x, const char *id)
{
	size_t i;

	for (i = 0; x->have_sc && i < x->sc.nsides; i++)
		if (!strcmp(x->sc.sides[i].id, id))
			return &x->sc.sides[i];
	return NULL;
}

int ord_vr_side_key(struct vr *x, const char *id, unsigned char key[32])
{
	const struct ord_scenario_side *s = ord_vr_scenario_side(x, id);

	return s && s->pubkey && ord_unhex(key, 32, s->pubkey) == 32;
}

long ord_vr_body_long(const char *body, const char *key, long def)
{
	char *v = ord_canon_get(body, key);
	long l = def;

	if (v && ord_parse_long(v, &l))
		l = def;
	free(v);
	return l;
}

int ord_vr_body_hex(const char *body, const char *key, unsigned char *out, size_t n)
{
	char *v = ord_canon_get(body, key);
	int ok = v && strlen(v) == 2 * n && ord_unhex(out, n, v) == (int)n;

	free(v);
	return ok;
}

/* ---- the game: the opening entry, the ruleset, scenario and tables ---- */

static int cache_rules(struct vr *x, const unsigned char h[32]);
static int cache_scenario(struct vr *x, const unsigned char h[32]);
static void note_names(struct ord_vout *v, const struct ord_scenario *sc);

struct ord_verify_cache {
	int have_rules, have_sc;
	const struct ord_ruleset *rs;
	struct ord_rules *rules;
	unsigned char tables_hash[32];
	struct ord_scenario sc;
	unsigned char sc_hash[32];
	const struct ord_ruleset *sc_rs; /* whose unit attributes sc was checked for */
	int chain_whole;                 /* ord_verify_cache_chain_whole */
	/* sc's roster digests (roster_root), once made; dropped with sc */
	int have_sides_root, have_units_root;
	unsigned char sides_root[32], units_root[32];
	int names_noted; /* sc's names looked at (note_names), once a game */
	int made_said;   /* the orderly the game was made with said, once a game */
};

/* The digest of the scenario's sides (sides) or units (!sides), as an
 * opening's sides_root and units_root name them: made once for the
 * scenario x reads, and kept with it in the cache when the cache lends
 * it (every turn of an audit reads one scenario). */
static const unsigned char *roster_root(struct vr *x, int sides)
{
	struct ord_verify_cache *c = x->cache;
	int *have = sides ? &x->have_sides_root : &x->have_units_root;
	unsigned char *root = sides ? x->sides_root : x->units_root;
	struct ord_buf attrs = ORD_BUF_INIT;
	struct ord_digest d;
	size_t i;

	if (*have)
		return root;
	if (c && c->have_sc && c->sc.units == x->sc.units && c->sc.sides == x->sc.sides &&
	    (sides ? c->have_sides_root : c->have_units_root)) {
		memcpy(root, sides ? c->sides_root : c->units_root, 32);
		*have = 1;
		return root;
	}
	if (sides) {
		ord_digest_init(&d, ORD_SIDES_TAG);
		for (i = 0; i < x->sc.nsides; i++) {
			const struct ord_scenario_side *sd = &x->sc.sides[i];
			unsigned char pk[32];
			int keyed = sd->pubkey && ord_unhex(pk, 32, sd->pubkey) == 32;
			ord_digest_side(&d, sd->id, sd->name, keyed ? pk : NULL);
		}
	} else {
		ord_digest_init(&d, ORD_ROSTER_TAG);
		for (i = 0; i < x->sc.nunits; i++) {
			const struct ord_scenario_unit *su = &x->sc.units[i];
			ord_buf_reset(&attrs);
			ord_kv_serialize(&su->attrs, &attrs);
			ord_digest_roster_unit(&d, su->id, su->side, su->name,
					       attrs.buf ? attrs.buf : "");
		}
	}
	ord_digest_final(&d, root);
	ord_buf_release(&attrs);
	*have = 1;
	if (c && c->have_sc && c->sc.units == x->sc.units && c->sc.sides == x->sc.sides) {
		memcpy(sides ? c->sides_root : c->units_root, root, 32);
		if (sides)
			c->have_sides_root = 1;
		else
			c->have_units_root = 1;
	}
	return root;
}

/* The roster the opening digests (sides_root, units_root), as the
 * scenario gives it: the side and unit rows every change of the turn is
 * held to (game_live.c), and the next opening carries.  An opening of an
 * orderly before the roots logs none. */
static void check_roster(struct vr *x, const struct ord_rec_entry *e)
{
	unsigned char want[32];
	char *hex;
	int n = 0;

	/* a game made since the roots (made=, ORD_GAME_MADE) logs them in
	 * every opening: one without them was written so, to escape the
	 * seal's check of the sheets (attack 34), which the game itself
	 * refuses since (game_live.c, rooted_opening) */
	if (x->have_cfg && ord_canon_made_since(&x->cfg, ORD_GAME_MADE)) {
		n += (hex = ord_canon_get(e->body, "sides_root")) != NULL;
		free(hex);
		n += (hex = ord_canon_get(e->body, "units_root")) != NULL;
		free(hex);
		if (n < 2)
			ord_vout_fail(x->v,
				      "turn %d's opening (entry %lld) logs %s of the roster's roots (sides_root, units_root), but the game was made by an orderly of %s or later (made=%s), which logs both in every opening: it was written without them, and its seal held no sheet to the rules by them (threat model, attack 34)",
				      e->turn, (long long)e->seq, n ? "one" : "neither",
				      ORD_GAME_MADE, x->cfg.made);
	}
	if ((hex = ord_canon_get(e->body, "sides_root")) != NULL) {
		if (ord_unhex(want, 32, hex) != 32 || memcmp(roster_root(x, 1), want, 32))
			ord_vout_fail(x->v,
				      "the sides (their names, titles and keys) turn %d's opening (entry %lld) digests, sides_root=%s, are not the scenario's",
				      e->turn, (long long)e->seq, hex);
		free(hex);
	}
	if ((hex = ord_canon_get(e->body, "units_root")) != NULL) {
		if (ord_unhex(want, 32, hex) != 32 || memcmp(roster_root(x, 0), want, 32))
			ord_vout_fail(x->v,
				      "the units (their ids, sides, names and attributes) turn %d's opening (entry %lld) digests, units_root=%s, are not the scenario's",
				      e->turn, (long long)e->seq, hex);
		free(hex);
	}
}

static void check_opening(struct vr *x)
{
	const struct ord_record *r = x->r;
	const struct ord_rec_entry *e = r->entries.n ? &r->entries.v[0] : NULL;
	unsigned char h[32], sch[32];
	char hex[65], want[65];
	long turn;
	int err;

	if (!e || strcmp(e->kind, "open") || e->turn != r->turn) {
		ord_vout_fail(x->v, "the log does not start with the opening of turn %d", r->turn);
		return;
	}
	x->open = e;
	x->used[0]++;
	turn = ord_vr_body_long(e->body, "turn", -1);
	if (turn != r->turn)
		ord_vout_fail(x->v, "the opening entry %lld names turn %ld, not %d",
			      (long long)e->seq, turn, r->turn);
	if (!ord_vr_body_hex(e->body, "seed_commitment", x->seed_commitment, 32))
		ord_vout_fail(x->v, "the opening entry %lld commits to no dice seed",
			      (long long)e->seq);
	if ((err = ord_canon_config_read(&x->cfg, e->body)) != 0) {
		ord_vout_fail(x->v, "the opening entry %lld: %s", (long long)e->seq, ord_error_last());
		ord_error_clear();
		return;
	}
	x->have_cfg = 1;
	if (x->cfg.fixed_dice)
		ord_vout_note(x->v,
			      "a fixed-dice game (entry %lld): the referee gives every die, so the dice of this turn prove nothing; the replay only shows that the results follow from them",
			      (long long)e->seq);
	/* the settings of an orderly before them, which a referee's own
	 * build can still write into a game made today: each gives him back
	 * what the setting took (the red team of the thirty-eighth session:
	 * a game made without dice=events audited clean without a word) */
	if (!x->cfg.fixed_dice && !x->cfg.witnessed && !x->cfg.dice_by_events)
		ord_vout_note(x->v,
			      "the game's dice are keyed by the events' numbers (turn %d's opening, entry %lld, logs no dice=events), as an orderly before 2026-12-06 made a game: the order in which the referee records a phase's events, or an event he puts before another, moves every later die of the phase, so he could choose the dice by it and no check shows it; a game made since keys each die by what its event names",
			      r->turn, (long long)e->seq);
	/* made= is the referee's word: a game made since that logs none
	 * passes for an old one, whose checks of attacks 34 and 43 are
	 * notes.  Turn 1 opens with the game's creation, in its
	 * transaction: dated on or after the day orderly first logged made=,
	 * and logging none, it was made by another build (a referee's own,
	 * or one of that day before the line) */
	if (r->turn == 1 && !x->cfg.made) {
		char day[16] = "";
		time_t tt = (time_t)e->at;
		struct tm tm;

		if (gmtime_r(&tt, &tm))
			strftime(day, sizeof(day), "%Y-%m-%d", &tm);
		if (*day && ord_canon_made_since_day(day, ORD_GAME_MADE))
			ord_vout_note(x->v,
				      "the game's first opening (entry %lld), made with the game, is dated %s, on or after %s, since when orderly logs made= at a game's creation and in every opening, but it logs no made=: the game was made by another build (a referee's own, or an orderly of %s before the line), and is checked as an old game, the sheets' unseen characters and an opening without the roster's roots only noted (threat model, attacks 34 and 43)",
				      (long long)e->seq, day, ORD_GAME_MADE, ORD_GAME_MADE);
	}
	{
		char where[80];
		snprintf(where, sizeof(where), "in the opening of turn %d (entry %lld)", r->turn,
			 (long long)e->seq);
		ord_verify_cache_say_made(x->cache, x->v, &x->cfg, where);
	}
	if (!strcmp(x->cfg.nmr, "repeat") && !x->cfg.repeat_orders)
		ord_vout_note(x->v,
			      "the NMR policy repeats a side's last sheet whole or not at all (turn %d's opening, entry %lld, logs no nmr_repeat=orders), as an orderly before 2026-12-06 made a game: a side that sends nothing holds every unit when one order of its last sheet is no longer valid; a game made since repeats the orders still valid",
			      r->turn, (long long)e->seq);
	/* the game's key as this turn's opening states it */
	if (memcmp(x->cfg.key, r->key, 32)) {
		ord_hex(hex, r->key, 32);
		ord_hex(want, x->cfg.key, 32);
		ord_vout_fail(x->v, "the turn was opened under key %s, but the game's key here is %s",
			      want, hex);
	}
	if (x->o && x->o->pubkey && memcmp(x->o->pubkey, x->cfg.key, 32)) {
		ord_hex(hex, x->o->pubkey, 32);
		ord_hex(want, x->cfg.key, 32);
		ord_vout_fail(x->v,
			      "the turn was opened under key %s, not under the game's key %s that you gave",
			      want, hex);
	}
	ord_record_scenario_hash(r, sch); /* 12 MB at 100,000 units: once */
	if (memcmp(sch, x->cfg.scenario, 32))
		ord_vout_fail(x->v, "the scenario here is not the one the turn's opening names");
	crypto_generichash(h, 32, (const unsigned char *)(r->tables ? r->tables : ""),
			   r->tables_len, NULL, 0);
	if (memcmp(h, x->cfg.tables, 32))
		ord_vout_fail(x->v, "the rules tables here are not the ones the turn's opening names");
	if (ord_ruleset_find(&x->rs, x->cfg.ruleset) != 0) {
		ord_vout_fail(x->v, "the turn cannot be replayed: %s", ord_error_last());
		ord_error_clear();
		x->rs = NULL;
		return;
	}
	if (ord_notation_find(&x->nt, x->rs->notation) != 0) {
		ord_vout_fail(x->v, "the turn cannot be replayed: %s", ord_error_last());
		ord_error_clear();
		x->rs = NULL;
		return;
	}
	while (x->rs->phases && x->rs->phases[x->nphases])
		x->nphases++;
	if (cache_rules(x, h))
		return;
	if (cache_scenario(x, sch))
		return;
	x->have_sc = 1;
	/* its names, once for the game (an audit's were noted with its
	 * units, before the turns) */
	if (!x->cache || !x->cache->names_noted) {
		note_names(x->v, &x->sc);
		if (x->cache)
			x->cache->names_noted = 1;
	}
	check_roster(x, e);
	/* the game's title is its scenario's (the create entry logs it, and
	 * the opening names the scenario by its hash) */
	if (r->title && x->sc.title && strcmp(r->title, x->sc.title))
		ord_vout_fail(x->v,
			      "the title '%s' is not the one of the scenario the turn's opening names ('%s')",
			      r->title, x->sc.title);
	if (x->f) {
		x->f->have_config = 1;
		ord_canon_config_read(&x->f->config, e->body);
		memcpy(x->f->seed_commitment, x->seed_commitment, 32);
	}
}

/* ---- the game's documents beside the ones the player holds ---- */

/* What the tables a and o differ in, after the tables b names: a
 * parameter is where a club's number or a check switched on or off shows
 * (a game made with its checks switched off, 0 or left out, lets through
 * what this orderly refuses), a row's value where a chart's number was
 * changed; each is named with both values, every one of them (the red
 * team of the thirty-eighth session: ten parameters written 1.0 where the
 * built-in has 1 pushed impossible_replayed=0 out of a list of ten, as
 * "and 1 more"). */
static void values_differ(const struct ord_tables *a, const struct ord_tables *o, const char *other,
			  struct ord_buf *b)
{
	struct ord_buf params = ORD_BUF_INIT, rows = ORD_BUF_INIT;

	ord_tables_values_differ(a, o, other, &params, &rows);
	if (params.len)
		ord_buf_addf(b, "; of its parameters, %s", params.buf);
	if (rows.len)
		ord_buf_addf(b, "; of its other tables, %s", rows.buf);
	ord_buf_release(&params);
	ord_buf_release(&rows);
	ord_error_clear();
}

/* The tables where the game's rules and the document other differ, named
 * in b (" (the tables fire, morale)"); their number, and *known 0 when
 * the two cannot be compared table by table.  The module's own reading
 * is compared where it hands its tables to the core (a Krigsspil map
 * holds a Skema among its terrain), else the documents as tables. */
static size_t tables_differ(struct vr *x, const char *other, size_t len, const char *label,
			    struct ord_buf *b, int *known)
{
	struct ord_tables *a = NULL, *o = NULL;
	struct ord_rules *rules = NULL;
	struct ord_buf names = ORD_BUF_INIT;
	size_t n = 0;

	*known = 0;
	if (ORD_RULESET_HAS(x->rs, 5) && x->rs->tables && x->rules) {
		if (!x->rs->load(&rules, other, len, "the other tables")) {
			const struct ord_tables *ta = x->rs->tables(x->rules),
						*to = x->rs->tables(rules);
			if (ta && to) {
				n = ord_tables_differ(ta, to, &names);
				if (n)
					values_differ(ta, to, label, &names);
				*known = 1;
			}
			x->rs->free(rules);
		}
	} else if (!ord_tables_load(&a, x->r->tables ? x->r->tables : "", x->r->tables_len,
				    "the game's tables") &&
		   !ord_tables_load(&o, other, len, "the other tables")) {
		n = ord_tables_differ(a, o, &names);
		if (n)
			values_differ(a, o, label, &names);
		*known = 1;
	}
	if (n)
		ord_buf_addf(b, " (the table%s %s)", n == 1 ? "" : "s", names.buf);
	ord_error_clear();
	ord_tables_free(a);
	ord_tables_free(o);
	ord_buf_release(&names);
	return n;
}

/* 1 when the tables document given is the game's (as `new` keeps a
 * document it is given: completed by the module). */
static int given_tables_are(struct vr *x, const char *given, size_t len, const char *name)
{
	struct ord_buf out = ORD_BUF_INIT;
	unsigned char h[32];
	int same;

	crypto_generichash(h, 32, (const unsigned char *)given, len, NULL, 0);
	same = !memcmp(h, x->cfg.tables, 32);
	if (!same && ORD_RULESET_HAS(x->rs, 3) && x->rs->complete_tables &&
	    !x->rs->complete_tables(given, len, name, &out) && out.len) {
		crypto_generichash(h, 32, (const unsigned char *)out.buf, out.len, NULL, 0);
		same = !memcmp(h, x->cfg.tables, 32);
	}
	ord_error_clear();
	ord_buf_release(&out);
	return same;
}

/*
 * The replay proves that the results follow from the game's own scenario
 * and tables, which the referee chose when he made the game: a unit made
 * stronger, or a table's number changed, replays clean.  So the verifier
 * holds them against what the player has: the files he was given (the
 * options' scenario and tables), or else the tables built into this
 * orderly, and says where they differ.
 */
static void check_documents(struct vr *x)
{
	const struct ord_verify_opts *o = x->o;
	struct ord_buf b = ORD_BUF_INIT;
	const char *own;
	size_t len = 0;
	int known;

	if (o && o->tables) {
		if (given_tables_are(x, o->tables, o->tables_len, o->tables_name)) {
			ord_vout_ok(x->v, "tables: the game's rules tables are %s, as you gave them",
				    o->tables_name);
		} else if (!tables_differ(x, o->tables, o->tables_len, o->tables_name, &b, &known) &&
			   known) {
			/* the hash the openings state is of the bytes */
			ord_vout_fail(x->v,
				      "the game's rules tables are not %s, which you gave, byte for byte: every table agrees with it, so the documents differ beside them (spacing, notes or, for a map, its terrain)",
				      o->tables_name);
		} else {
			ord_vout_fail(x->v,
				      "the game's rules tables are not %s, which you gave%s: its results follow from tables other than those",
				      o->tables_name, b.buf ? b.buf : "");
		}
	} else if ((own = ord_ruleset_builtin_tables(x->rs, &len)) != NULL) {
		unsigned char h[32];
		crypto_generichash(h, 32, (const unsigned char *)own, len, NULL, 0);
		if (!memcmp(h, x->cfg.tables, 32)) {
			ord_vout_ok(x->v,
				    "tables: the game's rules tables are this orderly's built-in %s tables",
				    x->rs->name);
		} else if (!tables_differ(x, own, len, "the built-in", &b, &known) && known) {
			/* a document that holds more than the tables (a map) */
			ord_vout_ok(x->v,
				    "tables: every table of the game's rules is the one built into this orderly's %s rules (the documents differ beside them: spacing, notes, or a map's terrain)",
				    x->rs->name);
		} else {
			ord_vout_note(x->v,
				      "the game's rules tables are not this orderly's built-in %s tables%s: its results are checked against the game's own (a club's, a referee's, or another version's); give the tables agreed for the game with --tables to check them",
				      x->rs->name, b.buf ? b.buf : "");
		}
	}
	if (o && o->scenario) {
		struct ord_scenario sc;
		char *bytes = ord_xmalloc(o->scenario_len + 1);
		size_t n = o->scenario_len;
		unsigned char h[32];

		memcpy(bytes, o->scenario, n);
		bytes[n] = '\0';
		ord_scenario_init(&sc);
		if (ord_scenario_load(&sc, bytes, n, o->scenario_name) ||
		    ord_scenario_public(&bytes, &n, o->scenario_name)) {
			ord_vout_fail(x->v, "the scenario you gave cannot be read: %s",
				      ord_error_last());
			ord_error_clear();
		} else {
			crypto_generichash(h, 32, (const unsigned char *)bytes, n, NULL, 0);
			if (!memcmp(h, x->cfg.scenario, 32))
				ord_vout_ok(x->v, "scenario: the game's is %s, as you gave it",
					    o->scenario_name);
			else
				ord_vout_fail(x->v,
					      "the game's scenario is not %s, which you gave: its sides, units or settings differ",
					      o->scenario_name);
		}
		ord_scenario_release(&sc);
		free(bytes);
	}
	ord_buf_release(&b);
}

/* ---- names a player cannot tell apart (threat model, attack 41) ---- */

/*
 * `orderly new` refuses a scenario whose names hide a character or look
 * like another's (ord_scenario_names_apart); a game made before it did,
 * and a bundle of a referee's own build that skips it, are read and
 * replayed as they are, and every check holds.  So the verifier notes
 * each such name, in `new`'s words (ord_scenario_names_alike: whose name,
 * what it looks like, the unseen character shown escaped), once for the
 * game or the bundle: a unit passed off as another side's is the
 * scenario's, which no replay shows.
 */
static void note_names(struct ord_vout *v, const struct ord_scenario *sc)
{
	char *msg, *line, *next;

	if (!ord_scenario_names_alike(sc, "the game's scenario"))
		return;
	msg = ord_strdup(ord_error_last());
	ord_error_clear();
	ord_vout_note(v, "the game's scenario names sides or units in ways a player cannot tell apart, which an orderly before 2026-12-07 made a game of (and a referee's own build still can): a unit may pass for another side's, a line of a report read otherwise (threat model, attack 41):");
	for (line = msg; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ord_vout_note(v, "%s", line);
	}
	free(msg);
}

void ord_verify_cache_say_made(struct ord_verify_cache *c, struct ord_vout *v,
			       const struct ord_canon_config *cfg, const char *where)
{
	int cmp;

	if (c && c->made_said)
		return;
	if (c)
		c->made_said = 1;
	if (!cfg->made) {
		ord_vout_ok(v, "made: by an orderly before %s (no made= logged %s)", ORD_GAME_MADE,
			    where);
		return;
	}
	if (!cfg->made_core) {
		/* the day rule (canon.h): what ae6f373 and every orderly
		 * since read, and an orderly of the day before it did not */
		ord_vout_note(v, "made: %s, its core revision not logged (made=%s and no made_core= logged %s): an orderly of %s before it was logged (core revision %s or earlier) made it, a build of the referee's own, or the line was taken out; read as of core revision %s (a unit's name found as the notation reads its words, which an orderly of that day before core revision %s did not do) and as made before every later core revision (threat model, attack 43)",
			      cfg->made, cfg->made, where, ORD_GAME_MADE, ORD_GAME_MADE_CORE,
			      ORD_GAME_MADE_CORE, ORD_CORE_NAMES_KEYED);
		return;
	}
	if (cfg->made_rules)
		ord_vout_ok(v, "made: %s, core revision %s, %s rules of %s, as logged %s",
			    cfg->made, cfg->made_core, cfg->ruleset, cfg->made_rules, where);
	else
		ord_vout_ok(v, "made: %s, core revision %s, %s rules of no revision, as logged %s",
			    cfg->made, cfg->made_core, cfg->ruleset, where);
	if (!ord_canon_revision_cmp(cfg->made_core, ORD_CORE_REVISION, &cmp) && cmp > 0)
		ord_vout_note(v, "the game was made by an orderly of core revision %s, later than this one's (%s): a change that orderly makes in the games made with it is not this one's; check the game with an orderly of core revision %s or later",
			      cfg->made_core, ORD_CORE_REVISION, cfg->made_core);
}

void ord_verify_cache_note_names(struct ord_verify_cache *c, struct ord_vout *v)
{
	if (!c->have_sc || c->names_noted)
		return;
	note_names(v, &c->sc);
	c->names_noted = 1;
}

/* ---- what the records of a game share ---- */

void ord_verify_cache_chain_whole(struct ord_verify_cache *c)
{
	c->chain_whole = 1;
}

struct ord_verify_cache *ord_verify_cache_new(void)
{
	struct ord_verify_cache *c = ord_xcalloc(1, sizeof(*c));

	ord_scenario_init(&c->sc);
	return c;
}

void ord_verify_cache_free(struct ord_verify_cache *c)
{
	if (!c)
		return;
	if (c->have_rules)
		c->rs->free(c->rules);
	ord_scenario_release(&c->sc);
	free(c);
}

void ord_verify_cache_keep_scenario(struct ord_verify_cache *c, const struct ord_ruleset *rs,
				    struct ord_scenario *sc, const unsigned char hash[32])
{
	ord_scenario_release(&c->sc);
	c->sc = *sc;
	ord_scenario_init(sc);
	c->have_sc = 1;
	c->have_sides_root = c->have_units_root = c->names_noted = 0;
	c->sc_rs = rs;
	memcpy(c->sc_hash, hash, 32);
}

int ord_verify_cache_game(struct ord_verify_cache *c, const struct ord_ruleset **rs,
			  struct ord_rules **rules, const struct ord_scenario **sc)
{
	if (!c->have_rules || !c->have_sc || c->sc_rs != c->rs)
		return ord_error_set(ORD_ENOTFOUND, "the game's tables or scenario were not read");
	*rs = c->rs;
	*rules = c->rules;
	*sc = &c->sc;
	return 0;
}

/* Load the record's tables (hash h) into x->rules, or take them from the
 * cache; 1 when they cannot be loaded (said, and x->rs cleared). */
static int cache_rules(struct vr *x, const unsigned char h[32])
{
	const struct ord_record *r = x->r;
	struct ord_verify_cache *c = x->cache;

	if (c && c->have_rules && c->rs == x->rs && !memcmp(c->tables_hash, h, 32)) {
		x->rules = c->rules;
		return 0;
	}
	if (x->rs->load(&x->rules, r->tables_len ? r->tables : NULL, r->tables_len,
			"the game's tables")) {
		ord_vout_fail(x->v, "the game's tables cannot be loaded: %s", ord_error_last());
		ord_error_clear();
		x->rules = NULL;
		x->rs = NULL;
		return 1;
	}
	if (c) {
		if (c->have_rules)
			c->rs->free(c->rules);
		c->have_rules = 1;
		c->rs = x->rs;
		c->rules = x->rules;
		memcpy(c->tables_hash, h, 32);
	}
	return 0;
}

/* Read and check the record's scenario (hash h) into x->sc, or take it
 * from the cache; 1 when it cannot be read (said). */
static int cache_scenario(struct vr *x, const unsigned char h[32])
{
	const struct ord_record *r = x->r;
	struct ord_verify_cache *c = x->cache;
	struct ord_words_how words;
	const char *bytes;
	size_t len;
	char *copy;

	if (c && c->have_sc && c->sc_rs == x->rs && !memcmp(c->sc_hash, h, 32)) {
		x->sc = c->sc; /* borrowed: c releases it */
		return 0;
	}

	ord_scenario_init(&x->sc);
	if ((x->read_err = ord_record_scenario(r, &bytes, &len, &copy)) != 0)
		return 1;
	ord_words_how_of(&words, x->rs);
	if (ord_scenario_load_checked(&x->sc, bytes, len, "the game's scenario", x->rs->unit_attrs,
				      &words)) {
		ord_vout_fail(x->v, "the game's scenario cannot be read: %s", ord_error_last());
		ord_error_clear();
		ord_scenario_release(&x->sc);
		free(copy);
		return 1;
	}
	free(copy);
	ord_scenario_drop_positions(&x->sc); /* kept for the whole audit */
	if (c) {
		ord_scenario_release(&c->sc);
		c->sc = x->sc;
		c->have_sc = 1;
		c->have_sides_root = c->have_units_root = c->names_noted = 0;
		c->sc_rs = x->rs;
		memcpy(c->sc_hash, h, 32);
	}
	return 0;
}

/* ---- the chain, and the order of the entries ---- */

/* How far an entry's time may lie behind the one before it, or ahead of
 * the checker's clock: a clock set right by a few seconds, or a player's
 * clock a little behind the referee's, is not a changed entry. */
#define CLOCK_SLACK 600

/* An entry's time changed by hand (a forced seal dated after the deadline
 * to hide it, the entries after it dated later still): its time runs back
 * from the entry before it, or lies ahead of this check's clock.  Each
 * entry's time is in its hash, so only a log chained again is dated so;
 * the times it may give stay the host's word ("When", threat model). */
static void check_times(struct vr *x, const struct ord_rec_entry *e,
			const struct ord_rec_entry *before, int64_t now)
{
	struct ord_buf at = ORD_BUF_INIT, other = ORD_BUF_INIT;

	if ((!before || e->at >= before->at - CLOCK_SLACK) && e->at <= now + CLOCK_SLACK)
		return;
	ord_when_format(&at, e->at, NULL);
	if (before && e->at < before->at - CLOCK_SLACK) {
		ord_when_format(&other, before->at, NULL);
		ord_vout_fail(x->v,
			      "log entry %lld (%s) is dated %s, before entry %lld (%s) of %s before it: the log's times run back (an entry's time was changed)",
			      (long long)e->seq, e->kind, at.buf, (long long)before->seq,
			      before->kind, other.buf);
	}
	if (e->at > now + CLOCK_SLACK) {
		ord_buf_reset(&other);
		ord_when_format(&other, now, NULL);
		ord_vout_fail(x->v,
			      "log entry %lld (%s) is dated %s, after this check's clock (%s): an entry dated in the future (its time was changed)",
			      (long long)e->seq, e->kind, at.buf, other.buf);
	}
	ord_buf_release(&at);
	ord_buf_release(&other);
}

static void check_chain(struct vr *x)
{
	const struct ord_record *r = x->r;
	const unsigned char *prev = r->prev;
	unsigned char h[32];
	size_t i;
	int bad = x->v->failures;
	int64_t broken = 0, now = (int64_t)time(NULL);

	for (i = 0; i < r->entries.n; i++) {
		const struct ord_rec_entry *e = &r->entries.v[i];
		int last = i + 1 == r->entries.n, gap = 0;

		if (i && e->seq > r->entries.v[i - 1].seq + 1) {
			/* its hash is of the entry missing before it: not
			 * said to be changed too */
			int64_t from = r->entries.v[i - 1].seq + 1;
			if (from == e->seq - 1)
				ord_vout_fail(x->v,
					      "log entry %lld is missing (deleted): the log jumps from entry %lld to %lld",
					      (long long)from, (long long)from - 1, (long long)e->seq);
			else
				ord_vout_fail(x->v,
					      "log entries %lld to %lld are missing (deleted): the log jumps from entry %lld to %lld",
					      (long long)from, (long long)e->seq - 1,
					      (long long)from - 1, (long long)e->seq);
			gap = 1;
			if (!broken)
				broken = from;
		} else if (i && e->seq != r->entries.v[i - 1].seq + 1) {
			ord_vout_fail(x->v,
				      "log entry %lld follows entry %lld: entries were added or reordered",
				      (long long)e->seq, (long long)r->entries.v[i - 1].seq);
			if (!broken)
				broken = e->seq;
		}
		if (e->turn != r->turn && !(last && e->turn == r->turn + 1 && !strcmp(e->kind, "open")))
			ord_vout_fail(x->v, "log entry %lld (%s) belongs to turn %d, not to turn %d",
				      (long long)e->seq, e->kind, e->turn, r->turn);
		/* the audit found every entry's hash whole already, in the
		 * same read of the file (ord_verify_cache_chain_whole) */
		if (x->cache && x->cache->chain_whole)
			memcpy(h, e->hash, 32);
		else
			ord_log_hash(h, prev, e->seq, e->turn, e->kind, ord_vr_body(x, e), e->at);
		if (!gap && memcmp(h, e->hash, 32)) {
			ord_vout_fail(x->v,
				      "log entry %lld (%s, turn %d): its content and the entry before it do not give its hash (changed)",
				      (long long)e->seq, e->kind, e->turn);
			if (!broken)
				broken = e->seq;
		}
		check_times(x, e, i ? &r->entries.v[i - 1] : NULL, now);
		prev = e->hash;
	}
	if (broken) {
		ord_vout_note(x->v,
			      "the log was changed at entry %lld: what is read from it after this is not what was logged, and the failures below may only follow from this one",
			      (long long)broken);
		x->broken_at = broken;
		x->fail_was = x->v->fail;
		snprintf(x->fail_label, sizeof(x->fail_label), "%s (may follow from entry %lld)",
			 x->v->fail ? x->v->fail : "FAILED", (long long)broken);
		x->v->fail = x->fail_label;
		x->fails_at_break = x->v->failures;
	}
	if (x->v->failures == bad && r->entries.n)
		ord_vout_ok(x->v, "log: %zu entr%s (%lld to %lld) chain%s from the hash before them",
			    r->entries.n, r->entries.n == 1 ? "y" : "ies",
			    (long long)r->entries.v[0].seq,
			    (long long)r->entries.v[r->entries.n - 1].seq,
			    r->entries.n == 1 ? "s" : "");
}

/* Kinds that change nothing the verifier replays (logged for the audit's
 * sake: refused sheets, deadlines, the mail judge's registrations). */
static int neutral(const char *kind)
{
	static const char *const kinds[] = { "open",    "sheet",   "commit",   "opening",
					     "seal",    "event",   "void",     "close",
					     "witness", "resolve", "exchange", NULL };
	size_t i;

	for (i = 0; kinds[i]; i++)
		if (!strcmp(kinds[i], kind))
			return 0;
	return 1;
}

/* The next turn opens with this turn's settings: a game keeps the ones it
 * was made with, so a referee cannot change the NMR policy, the dice, the
 * tables or the scenario for a turn and put them back after it.  The
 * bundles of a game chain through the exchanges' heads, each the next
 * turn's opening, so a player holding them all has every turn's settings
 * equal to the first's. */
static void check_next_config(struct vr *x, const struct ord_rec_entry *e)
{
	struct ord_canon_config next;
	const char *diff;

	if (!x->have_cfg)
		return;
	if (ord_canon_config_read(&next, e->body)) {
		ord_vout_fail(x->v, "the opening of turn %d (entry %lld): %s", e->turn,
			      (long long)e->seq, ord_error_last());
		ord_error_clear();
		return;
	}
	if ((diff = ord_canon_config_diff(&x->cfg, &next)) != NULL)
		ord_vout_fail(x->v,
			      "the opening of turn %d (entry %lld) changes the game's %s: a game keeps the settings it was made with",
			      e->turn, (long long)e->seq, diff);
	ord_canon_config_release(&next);
}

/*
 * The turn's cycle, from the log alone: opened, sheets (or commitments)
 * only before the seal, sealed once, openings after it (referee-less),
 * then for each phase of the ruleset in order its events (witnessed: its
 * close and the sides' links) and its resolve, and the exchange only after
 * the last phase; after the exchange only the next turn's opening.
 */
static void check_cycle(struct vr *x)
{
	const struct ord_record *r = x->r;
	size_t i, p = 0; /* phases resolved so far */
	int bad = x->v->failures, closed = 0;

	x->phases = ord_xcalloc(x->nphases + 1, sizeof(*x->phases));
	for (i = 1; i < r->entries.n; i++) {
		const struct ord_rec_entry *e = &r->entries.v[i];
		const char *k = e->kind;

		if (x->next_open) {
			ord_vout_fail(x->v, "log entry %lld (%s) comes after the next turn's opening",
				      (long long)e->seq, k);
			continue;
		}
		if (x->exchange) {
			if (!strcmp(k, "open") && e->turn == r->turn + 1) {
				x->next_open = e;
				check_next_config(x, e);
				if (x->have_sc) /* the roster the next turn is played with */
					check_roster(x, e);
			} else if (!neutral(k))
				ord_vout_fail(x->v, "log entry %lld: a '%s' after the exchange",
					      (long long)e->seq, k);
			continue;
		}
		if (!strcmp(k, "open")) {
			ord_vout_fail(x->v, "log entry %lld: turn %d opened again",
				      (long long)e->seq, e->turn);
		} else if (!strcmp(k, "sheet") || !strcmp(k, "commit")) {
			if (x->seal)
				ord_vout_fail(x->v, "log entry %lld: a %s handed in after the seal",
					      (long long)e->seq, k);
		} else if (!strcmp(k, "seal")) {
			if (x->seal)
				ord_vout_fail(x->v,
					      "log entry %lld: the turn sealed a second time (first in entry %lld)",
					      (long long)e->seq, (long long)x->seal->seq);
			else
				x->seal = e;
		} else if (!strcmp(k, "opening")) {
			if (!x->seal)
				ord_vout_fail(x->v, "log entry %lld: a sheet opened before the seal",
					      (long long)e->seq);
		} else if (!strcmp(k, "event") || !strcmp(k, "void") || !strcmp(k, "close") ||
			   !strcmp(k, "witness") || !strcmp(k, "resolve")) {
			const char *body = ord_vr_body(x, e);
			char *phase = ord_canon_get(body, "phase");
			long index = ord_vr_body_long(body, "index", 0);

			if (!x->seal) {
				ord_vout_fail(x->v, "log entry %lld: %s %s before the seal",
					      (long long)e->seq, !strcmp(k, "event") ? "an" : "a", k);
			} else if (p >= x->nphases) {
				ord_vout_fail(x->v,
					      "log entry %lld: a '%s' after every phase of the turn was resolved",
					      (long long)e->seq, k);
			} else if (!strcmp(k, "void")) {
				if (closed)
					ord_vout_fail(x->v,
						      "log entry %lld: an event voided after its phase's events were closed",
						      (long long)e->seq);
			} else if (!strcmp(k, "event")) {
				if (!phase || strcmp(phase, x->rs->phases[p]))
					ord_vout_fail(x->v,
						      "log entry %lld: an event of phase '%s' while phase '%s' was being played",
						      (long long)e->seq, phase ? phase : "?",
						      x->rs->phases[p]);
				else if (closed)
					ord_vout_fail(x->v,
						      "log entry %lld: an event of phase '%s' after its events were closed",
						      (long long)e->seq, phase);
			} else if (!strcmp(k, "close")) {
				if (index != (long)p + 1 || !phase ||
				    strcmp(phase, x->rs->phases[p]) || closed)
					ord_vout_fail(x->v,
						      "log entry %lld: closes phase %ld (%s) while phase %zu (%s) was being played",
						      (long long)e->seq, index, phase ? phase : "?",
						      p + 1, x->rs->phases[p]);
				else
					x->phases[p].close = e;
				closed = 1;
			} else if (!strcmp(k, "witness")) {
				if (index != (long)p + 1 || !closed)
					ord_vout_fail(x->v,
						      "log entry %lld: a witness link for phase %ld while phase %zu was being played%s",
						      (long long)e->seq, index, p + 1,
						      closed ? "" : ", before its events were closed");
			} else {
				/* resolve */
				if (index != (long)p + 1 || !phase || strcmp(phase, x->rs->phases[p])) {
					ord_vout_fail(x->v,
						      "log entry %lld resolves phase %ld (%s), but phase %zu of the turn is '%s': a phase was skipped or resolved out of order",
						      (long long)e->seq, index, phase ? phase : "?",
						      p + 1, x->rs->phases[p]);
				} else if (x->have_cfg && x->cfg.witnessed && !closed) {
					ord_vout_fail(x->v,
						      "log entry %lld resolves phase %zu (%s) whose events were never closed",
						      (long long)e->seq, p + 1, x->rs->phases[p]);
				}
				x->phases[p].resolve = e;
				p++;
				closed = 0;
			}
			free(phase);
		} else if (!strcmp(k, "exchange")) {
			if (!x->seal)
				ord_vout_fail(x->v,
					      "log entry %lld: the exchange of a turn never sealed",
					      (long long)e->seq);
			else if (p < x->nphases)
				ord_vout_fail(x->v,
					      "log entry %lld: the exchange after %zu of the %zu phases: phase '%s' was never resolved",
					      (long long)e->seq, p, x->nphases, x->rs->phases[p]);
			x->exchange = e;
		}
	}
	x->nresolved = p;
	if (x->f) {
		x->f->sealed = x->seal != NULL;
		x->f->phases = (int)p;
		x->f->exchanged = x->exchange != NULL;
	}
	if (x->v->failures == bad)
		ord_vout_ok(x->v, "cycle: %s%s%zu of %zu phases resolved in the ruleset's order%s",
			    "opened", x->seal ? ", sealed once, " : " (not sealed yet), ", p,
			    x->nphases, x->exchange ? ", then exchanged" : "");
}

/* ---- the seed ---- */

static void check_seed(struct vr *x)
{
	const struct ord_record *r = x->r;
	unsigned char seed[32];
	int bad = x->v->failures;

	if (!x->open)
		return;
	if (x->exchange) {
		x->used[ord_vr_entry_index(x, x->exchange)]++;
		if (!ord_vr_body_hex(x->exchange->body, "seed", seed, 32) ||
		    (r->have_seed && memcmp(seed, r->seed, 32)))
			ord_vout_fail(x->v,
				      "the dice seed is not the one revealed at the exchange (entry %lld)",
				      (long long)x->exchange->seq);
	}
	if (!r->have_seed) {
		ord_vout_note(x->v, "seed: committed in entry %lld, not revealed yet",
			      (long long)x->open->seq);
		return;
	}
	if (!ord_verify_seed_commits(r->game_id, r->turn, r->seed, x->seed_commitment))
		ord_vout_fail(x->v,
			      "the dice seed does not match the commitment logged when turn %d opened (entry %lld)",
			      r->turn, (long long)x->open->seq);
	if (x->v->failures == bad)
		ord_vout_ok(x->v,
			    "seed: committed when the turn opened (entry %lld), before any sheet; %s",
			    (long long)x->open->seq,
			    x->exchange ? "revealed at the exchange" : "held in the game file");
}

/* ---- sheets, commitments and the seal ---- */

/*
 * Each side's sheets and commitments of the turn are its versions 1, 2,
 * 3 ... in the order of the log, each once (an opening reads again the
 * version of the commitment it opens), and a stand-in is a side's only
 * one.  A red team's find: a row put beside a side's sheets under a
 * version it had used (its earlier signed sheet stored as 2.5, which
 * SQLite keeps beside 2 and every reader takes for 2), or a stand-in put
 * before the one sheet a side handed in, and the game sealed it as the
 * side's latest while the player's receipt of his last said "the one
 * sealed": the seal's check looks for the highest version, not for two.
 */
struct handed {
	const char *side;
	int64_t log;
	int version;
	const char *standin; /* its source, when a stand-in */
	const unsigned char *commitment;
};

static int handed_cmp(const void *a, const void *b)
{
	const struct handed *p = a, *q = b;
	int c = strcmp(p->side, q->side);

	if (c)
		return c;
	return p->log < q->log ? -1 : p->log > q->log;
}

/* One side's [from, to) of h, in the order of the log. */
static void check_side_versions(struct vr *x, const struct handed *h, size_t from, size_t to)
{
	size_t i, k;
	int want = 1;

	for (i = from; i < to; i++) {
		if (h[i].version != want)
			ord_vout_fail(x->v,
				      "the sheets of %s: entry %lld logs version %d where version %d comes next (a version used twice, or one left out)",
				      h[i].side, (long long)h[i].log, h[i].version, want);
		want = h[i].version + 1;
		/* a nonce the player gives is used once (the game refuses it
		 * again): his signed sheet logged again as a later version
		 * would be sealed as his last */
		for (k = from; k < i; k++)
			if (!memcmp(h[k].commitment, h[i].commitment, 32))
				ord_vout_fail(x->v,
					      "the sheets of %s: entry %lld logs again the commitment of entry %lld (version %d as version %d; a sheet is handed in once)",
					      h[i].side, (long long)h[i].log, (long long)h[k].log,
					      h[k].version, h[i].version);
		if (h[i].standin && to - from > 1)
			ord_vout_fail(x->v,
				      "the sheets of %s: a stand-in (%s, entry %lld) beside a sheet or commitment the side handed in (the NMR policy stands in only for a side that sent none)",
				      h[i].side, h[i].standin, (long long)h[i].log);
	}
}

static void check_versions(struct vr *x)
{
	const struct ord_record *r = x->r;
	struct handed *h = ord_xcalloc(r->sheets.n + r->commits.n + 1, sizeof(*h));
	size_t i, n = 0, from;

	for (i = 0; i < r->sheets.n; i++) {
		const struct ord_rec_sheet *s = &r->sheets.v[i];
		const struct ord_rec_entry *e = ord_record_entry(r, s->log);
		if (e && !strcmp(e->kind, "opening"))
			continue;
		h[n].side = s->side;
		h[n].log = s->log;
		h[n].version = s->version;
		h[n].commitment = s->commitment;
		h[n++].standin = strcmp(s->source, "submitted") ? s->source : NULL;
	}
	for (i = 0; i < r->commits.n; i++) {
		h[n].side = r->commits.v[i].side;
		h[n].log = r->commits.v[i].log;
		h[n].version = r->commits.v[i].version;
		h[n++].commitment = r->commits.v[i].commitment;
	}
	qsort(h, n, sizeof(*h), handed_cmp);
	for (from = 0; from < n; from = i) {
		for (i = from; i < n && !strcmp(h[i].side, h[from].side); i++)
			;
		check_side_versions(x, h, from, i);
	}
	free(h);
}

/* Every sheet and commitment a side handed in was taken before the
 * deadline the log states before its entry (the time its entry states:
 * submit logs the time it checked, turn_open_check in game_sheets.c).  A
 * row's deadline moved later outside orderly, or an orderly changed to
 * take late sheets, would otherwise let a side's late sheet stand while
 * the others were told the turn was closed.  Returns the number of sheets
 * held to a deadline. */
static size_t check_sheet_times(struct vr *x)
{
	const struct ord_record *r = x->r;
	int64_t d = 0, dseq = 0, closed = 0, cseq = 0, rseq = 0;
	size_t i, held = 0;

	for (i = 0; i < r->entries.n; i++) {
		const struct ord_rec_entry *e = &r->entries.v[i];
		char *v, *side = NULL, *version = NULL, *source = NULL;
		long w;

		if (!e->body)
			continue;
		if (!strcmp(e->kind, "deadline")) {
			v = ord_canon_get(e->body, "deadline");
			if (!v || ord_parse_long(v, &w) || w < 0) {
				ord_vout_fail(x->v, "the deadline (entry %lld) is damaged",
					      (long long)e->seq);
			} else {
				/* set again after it had passed: the sheets
				 * were closed, and are taken again */
				if (d && e->at > d && (w == 0 || w > d) && !closed)
					closed = d, cseq = dseq, rseq = e->seq;
				d = w, dseq = e->seq;
			}
			free(v);
			continue;
		}
		if (strcmp(e->kind, "sheet") && strcmp(e->kind, "commit"))
			continue;
		source = ord_canon_get(e->body, "source");
		if (!d || (source && strcmp(source, "submitted"))) { /* a stand-in */
			free(source);
			continue;
		}
		held++;
		/* a sheet the turn took once it was closed, by a deadline moved
		 * after it had passed: the referee's right (an extension for
		 * all), said, since a side that kept its time sees a late sheet
		 * stand */
		if (closed && e->at > closed) {
			struct ord_buf was = ORD_BUF_INIT;

			side = ord_canon_get(e->body, "side");
			ord_when_format(&was, closed, NULL);
			ord_vout_note(x->v,
				      "the %s of %s (entry %lld) was taken after the deadline of %s (entry %lld) had passed: the deadline was set again after it (entry %lld), and the turn took sheets again",
				      e->kind[0] == 's' ? "sheet" : "commitment", side ? side : "?",
				      (long long)e->seq, was.buf, (long long)cseq, (long long)rseq);
			ord_buf_release(&was);
			free(side);
			side = NULL;
		}
		/* an orderly before 2026-12-05 checked the deadline and logged
		 * the entry by two readings of the clock: a sheet taken in the
		 * deadline's last second could be logged one second after it */
		if (e->at == d + 1) {
			side = ord_canon_get(e->body, "side");
			ord_vout_note(x->v,
				      "the %s of %s (entry %lld) is logged one second after the deadline (entry %lld): taken in its last second, as an orderly before 2026-12-05 logged it",
				      e->kind[0] == 's' ? "sheet" : "commitment", side ? side : "?",
				      (long long)e->seq, (long long)dseq);
		} else if (e->at > d) {
			side = ord_canon_get(e->body, "side");
			version = ord_canon_get(e->body, "version");
			ord_vout_fail(x->v,
				      "the %s of %s, version %s (entry %lld, at %lld) was taken after the deadline (%lld, entry %lld): no side's orders are taken after their time",
				      e->kind[0] == 's' ? "sheet" : "commitment", side ? side : "?",
				      version ? version : "?", (long long)e->seq, (long long)e->at,
				      (long long)d, (long long)dseq);
		}
		free(side);
		free(version);
		free(source);
	}
	return held;
}

static void check_sheets(struct vr *x)
{
	const struct ord_record *r = x->r;
	struct ord_buf b = ORD_BUF_INIT, what = ORD_BUF_INIT;
	unsigned char key[32];
	size_t i, timed;
	int bad = x->v->failures, nsigned = 0, signed_rc;

	for (i = 0; i < r->sheets.n; i++) {
		struct ord_rec_sheet *s = &r->sheets.v[i];
		const struct ord_rec_entry *e = ord_record_entry(r, s->log);
		int keyed = ord_vr_side_key(x, s->side, key);

		ord_buf_reset(&what);
		ord_buf_addf(&what, "the sheet of %s, version %d", s->side, s->version);
		if (x->have_sc && !ord_vr_scenario_side(x, s->side))
			ord_vout_fail(x->v, "%s: no such side in this game", what.buf);
		s->commit_ok = ord_verify_sheet_commits(s, r->game_id, r->turn, x->seed_commitment);
		if (!s->commit_ok)
			ord_vout_fail(x->v,
				      "%s: its bytes, nonce and the turn's seed commitment do not give its commitment (changed since it was committed)",
				      what.buf);
		if (x->have_cfg && x->cfg.witnessed && !s->has_witness &&
		    !strcmp(s->source, "submitted"))
			ord_vout_fail(x->v, "%s: no witness chain, but the game's dice are witnessed",
				      what.buf);
		ord_buf_reset(&b);
		signed_rc = ord_verify_sheet_signed(s, keyed ? key : NULL, r->game_id, r->turn, &b);
		if (signed_rc < 0)
			ord_vout_fail(x->v, "%s: %s", what.buf, b.buf);
		nsigned += signed_rc > 0;
		if (strcmp(s->source, "submitted")) {
			/* a stand-in: nothing in it may be anybody's choice */
			unsigned char n[32];
			ord_stand_in_nonce(n, r->game_id, r->turn, s->side);
			if (memcmp(n, s->nonce, 32))
				ord_vout_fail(x->v,
					      "%s: a stand-in (%s) whose nonce is not the one derived from the game, turn and side (a re-drawn stand-in)",
					      what.buf, s->source);
		}
		e = ord_vr_entry_of(x, s->log,
				    e && !strcmp(e->kind, "opening") ? "opening" : "sheet", what.buf);
		if (e && !ord_verify_sheet_logged(s, e->kind, e->body, &b))
			ord_vout_fail(x->v, "%s: differs from what was logged in entry %lld",
				      what.buf, (long long)e->seq);
	}
	check_versions(x);
	timed = check_sheet_times(x);
	if (x->v->failures == bad && !r->sheets.n)
		ord_vout_ok(x->v, "sheets: none handed in yet");
	else if (x->v->failures == bad)
		ord_vout_ok(x->v,
			    "sheets: %zu commitment%s recomputed from the sheets' bytes and nonces and the turn's seed commitment; %d side signature%s checked%s",
			    r->sheets.n, r->sheets.n == 1 ? "" : "s", nsigned, nsigned == 1 ? "" : "s",
			    timed ? "; each taken before the deadline logged before it" : "");
	bad = x->v->failures;
	for (i = 0; i < r->commits.n; i++) {
		const struct ord_rec_commit *cm = &r->commits.v[i];
		const struct ord_rec_entry *e;

		ord_buf_reset(&what);
		ord_buf_addf(&what, "the commitment of %s, version %d", cm->side, cm->version);
		if (!ord_vr_side_key(x, cm->side, key) ||
		    ord_sheet_sig_check(key, cm->signature, r->game_id, r->turn, cm->side,
					cm->commitment))
			ord_vout_fail(x->v, "%s: its signature is not side %s's", what.buf, cm->side);
		e = ord_vr_entry_of(x, cm->log, "commit", what.buf);
		ord_buf_reset(&b);
		ord_canon_commit(&b, cm->side, cm->version, cm->commitment, cm->signature);
		if (e && strcmp(e->body, b.buf))
			ord_vout_fail(x->v, "%s: differs from what was logged in entry %lld",
				      what.buf, (long long)e->seq);
	}
	if (x->v->failures == bad && (r->commits.n || (x->have_cfg && x->cfg.refereeless)))
		ord_vout_ok(x->v, "commitments: %zu signed commitment%s checked", r->commits.n,
			    r->commits.n == 1 ? "" : "s");
	ord_buf_release(&b);
	ord_buf_release(&what);
}

/* A seal that was not forced stood in for a side only once the turn's
 * deadline had passed (the last the log states before the seal): before
 * it, the turn seals only forced, which the players see.  A row's deadline
 * moved outside orderly would otherwise have refused a side's sheet and
 * sealed without it as if it had missed its time. */
/* The time a deadline entry names, or -1 when it is damaged. */
static int64_t deadline_of(const struct ord_rec_entry *e)
{
	char *v = ord_canon_get(e->body, "deadline");
	long d = -1;

	if (!v || ord_parse_long(v, &d) || d < 0)
		d = -1;
	free(v);
	return d;
}

/* The deadline a seal kept (dl, naming d), set so that a side still to
 * commit had no time left: logged when it had passed already, while the
 * deadline before it (prev) gave time still; or brought forward from that
 * one.  Noted, as a forced seal is: a referee who closes the sheets now
 * may do so (`orderly deadline` with a time past warns him), and it must
 * not read as a side that missed its time. */
static void note_deadline_moved(struct vr *x, const struct ord_rec_entry *dl, int64_t d,
				const struct ord_rec_entry *prev, const char *held)
{
	struct ord_buf set = ORD_BUF_INIT, to = ORD_BUF_INIT, was = ORD_BUF_INIT;
	int64_t pd = prev ? deadline_of(prev) : 0;

	ord_when_format(&set, dl->at, NULL);
	ord_when_format(&to, d, NULL);
	if (pd > 0)
		ord_when_format(&was, pd, NULL);
	if (dl->at >= d && (pd <= 0 || pd >= dl->at))
		ord_vout_note(x->v,
			      "seal: the deadline it kept (entry %lld) was set at %s to %s, a time already past%s%s%s: %s, still to commit, had no time left and took the NMR policy's orders, shut out of this turn as by a forced seal, if it had not said it would send none",
			      (long long)dl->seq, set.buf, to.buf,
			      pd > 0 ? ", where the one before it gave until " : "", was.buf,
			      pd > 0 ? "" : " (no deadline was set before it)", held);
	else if (pd > d)
		ord_vout_note(x->v,
			      "seal: the deadline it kept (entry %lld) was brought forward at %s from %s to %s: %s, which had no sheet in by then, took the NMR policy's orders with less time than it had been given",
			      (long long)dl->seq, set.buf, was.buf, to.buf, held);
	ord_buf_release(&set);
	ord_buf_release(&to);
	ord_buf_release(&was);
}

/* A seal that held no side, made before the deadline it kept or at one
 * brought forward to it (attack 44): every side had handed in, but the
 * referee (or the host) closed the sheets before the time each had been
 * given to send another version, and chose the moment; with it, in a
 * refereed game without witnessed dice, the versions the dice key is made
 * of (he holds the seed: "When the referee seals").  `seal` needs no
 * --force when every side is in, so the seal's entry said nothing of it,
 * and verify's line read as a seal at the deadline.  Noted, not failed:
 * closing early once everybody is in is the referee's right, and common;
 * the players see that it was done, and when. */
static void note_sealed_early(struct vr *x, const struct ord_rec_entry *dl, int64_t d,
			      const struct ord_rec_entry *prev, int refless)
{
	struct ord_buf at = ORD_BUF_INIT, set = ORD_BUF_INIT, to = ORD_BUF_INIT, was = ORD_BUF_INIT;
	int64_t pd = prev ? deadline_of(prev) : 0;
	const char *who = refless ? "host" : "referee";
	const char *dice = refless || (x->have_cfg && x->cfg.witnessed)
				   ? ""
				   : ", and with it which versions the turn's dice key is made of (the "
				     "seed, which he holds, and the sealed sheets' commitments)";

	ord_when_format(&at, x->seal->at, NULL);
	ord_when_format(&set, dl->at, NULL);
	ord_when_format(&to, d, NULL);
	if (pd > 0)
		ord_when_format(&was, pd, NULL);
	if (x->seal->at < d)
		ord_vout_note(x->v,
			      "seal: the sheets were closed at %s (entry %lld), before the deadline of %s (entry %lld), every side having handed in: each could still have sent another version until then; the %s chose when to seal%s",
			      at.buf, (long long)x->seal->seq, to.buf, (long long)dl->seq, who, dice);
	else if (dl->at >= d && pd >= dl->at)
		ord_vout_note(x->v,
			      "seal: the deadline it kept (entry %lld) was set at %s to %s, a time already past, where the one before it gave until %s: every side had handed in, but none had the time it had been given to send another version; the %s chose when to seal%s",
			      (long long)dl->seq, set.buf, to.buf, was.buf, who, dice);
	else if (pd > d)
		ord_vout_note(x->v,
			      "seal: the deadline it kept (entry %lld) was brought forward from %s to %s: every side had handed in, but none had the time it had been given to send another version; the %s chose when to seal%s",
			      (long long)dl->seq, was.buf, to.buf, who, dice);
	ord_buf_release(&at);
	ord_buf_release(&set);
	ord_buf_release(&to);
	ord_buf_release(&was);
}

/* The last deadline logged before the seal, and in *prev the one before
 * it (NULL: none). */
static const struct ord_rec_entry *seal_deadline(const struct vr *x, const struct ord_rec_entry **prev)
{
	const struct ord_record *r = x->r;
	const struct ord_rec_entry *dl = NULL;
	size_t i;

	*prev = NULL;
	for (i = 0; i < r->entries.n; i++)
		if (r->entries.v[i].seq < x->seal->seq &&
		    !strcmp(r->entries.v[i].kind, "deadline") && r->entries.v[i].body) {
			*prev = dl;
			dl = &r->entries.v[i];
		}
	return dl;
}

/* How far back an honest host's clock may step between two entries (NTP
 * setting it right by a second): an entry after a seal dated so little
 * before it is not a changed time, in a game made before ORD_GAME_MADE.
 * A game made since (made=) seals unforced only from the deadline's second
 * second on (ord_game_seal_from), so that a second stepped back still
 * leaves every entry after the seal after the deadline: none is let pass. */
#define CLOCK_STEP 1

/* An unforced seal that stood in for a side after the deadline d (entry
 * dl) was made after it, and so was every entry after it: one dated at or
 * before d, more than CLOCK_STEP before the seal, shows the seal made
 * before its time and dated after it (a forced seal logged unforced and
 * moved past the deadline, its chain made again).  The entries after it
 * lay within CLOCK_SLACK of it, so that check_times let them pass: a seal
 * forced up to ten minutes before the deadline passed as one after it. */
static void check_seal_after(struct vr *x, int64_t d, const struct ord_rec_entry *dl, const char *held)
{
	const struct ord_record *r = x->r;
	int since = x->have_cfg && ord_canon_made_since(&x->cfg, ORD_GAME_MADE);
	int64_t step = since ? 0 : CLOCK_STEP;
	size_t i;

	for (i = 0; i < r->entries.n; i++) {
		const struct ord_rec_entry *e = &r->entries.v[i];
		struct ord_buf at = ORD_BUF_INIT, seal = ORD_BUF_INIT, dead = ORD_BUF_INIT;

		if (e->seq <= x->seal->seq || e->at > d || e->at >= x->seal->at - step)
			continue;
		ord_when_format(&at, e->at, NULL);
		ord_when_format(&seal, x->seal->at, NULL);
		ord_when_format(&dead, d, NULL);
		ord_vout_fail(x->v,
			      "the seal (entry %lld) is dated %s, after the deadline (%s, entry %lld), but entry %lld (%s) after it is dated %s, not after the deadline: the seal was made before its time and its time was changed (a seal before the deadline is forced; this one stood in for '%s')%s",
			      (long long)x->seal->seq, seal.buf, dead.buf, (long long)dl->seq,
			      (long long)e->seq, e->kind, at.buf, held,
			      since ? "; the game was made by an orderly of " ORD_GAME_MADE
				      " or later (made=), which seals so only from the deadline's second second on and lets no clock step back past it"
				    : "");
		ord_buf_release(&at);
		ord_buf_release(&seal);
		ord_buf_release(&dead);
		return;
	}
}

static void check_seal_time(struct vr *x, int forced, const char *held)
{
	const struct ord_rec_entry *dl, *prev;
	char *v = NULL;
	long d = 0;

	if (forced || !held || !*held)
		return;
	if ((dl = seal_deadline(x, &prev)) != NULL)
		v = ord_canon_get(dl->body, "deadline");
	if (!dl)
		ord_vout_fail(x->v,
			      "the seal (entry %lld) was not forced, yet the NMR policy stood in for '%s' with no deadline logged: only a forced seal holds a side before its time",
			      (long long)x->seal->seq, held);
	else if (!v || ord_parse_long(v, &d) || d <= 0)
		ord_vout_fail(x->v, "the deadline (entry %lld) is damaged", (long long)dl->seq);
	else if (x->seal->at <= d)
		ord_vout_fail(x->v,
			      "the seal (entry %lld, at %lld) was not forced, yet the NMR policy stood in for '%s' before the deadline (%lld, entry %lld): only a forced seal holds a side before its time",
			      (long long)x->seal->seq, (long long)x->seal->at, held, (long long)d,
			      (long long)dl->seq);
	else
		check_seal_after(x, d, dl, held);
	free(v);
}

/* When a new passphrase ended the suspension of side logged at entry e
 * (mail-unsuspended, the first after it up to the seal): *ended its
 * time, and its entry; NULL when none did. */
static const struct ord_rec_entry *suspension_ended(struct vr *x, const struct ord_rec_entry *e,
						    const char *side, long *ended)
{
	const struct ord_record *r = x->r;
	size_t i;

	for (i = 0; i < r->entries.n; i++) {
		const struct ord_rec_entry *f = &r->entries.v[i];
		char *s, *t;
		int found;

		if (f->seq <= e->seq || f->seq > x->seal->seq ||
		    strcmp(f->kind, "mail-unsuspended") || !f->body)
			continue;
		s = ord_canon_get(f->body, "side");
		t = ord_canon_get(f->body, "ended");
		found = s && !strcmp(s, side) && t && ord_parse_long(t, ended) == 0;
		free(s);
		free(t);
		if (found)
			return f;
	}
	return NULL;
}

/* A side the NMR policy stood in for whose passphrase proofs by mail
 * were suspended (mail-suspended, logged by the judge) until less than
 * an hour before the deadline the seal kept, or past it: wrong
 * passphrases that anyone who knows its address can send kept it from
 * handing in a sheet by mail with its passphrase (a red team's find,
 * attack 37), and the stand-in must not read as a side that missed its
 * time.  Noted, with the times: the judge could not tell the player's
 * mail from a forger's.  A suspension a new passphrase ended
 * (mail-unsuspended) ran until then; one begun in the turn before is in
 * this turn's log too, logged again when the turn opened (carried=1). */
static void note_suspended(struct vr *x)
{
	const struct ord_record *r = x->r;
	const struct ord_rec_entry *dl, *prev;
	int64_t d;
	size_t i, j;

	if (!(dl = seal_deadline(x, &prev)) || (d = deadline_of(dl)) <= 0)
		return;
	for (j = 0; j < x->sc.nsides; j++) {
		const char *side = x->sc.sides[j].id;

		if (!x->sealed[j].sheet || !strcmp(x->sealed[j].sheet->source, "submitted"))
			continue;
		for (i = 0; i < r->entries.n; i++) {
			const struct ord_rec_entry *e = &r->entries.v[i];
			const struct ord_rec_entry *lift = NULL;
			char *s, *u, lifted[96] = "";
			long until = 0, ended = 0, end;
			struct ord_buf from = ORD_BUF_INIT, to = ORD_BUF_INIT, dd = ORD_BUF_INIT;

			if (e->seq > x->seal->seq || strcmp(e->kind, "mail-suspended") || !e->body)
				continue;
			s = ord_canon_get(e->body, "side");
			u = ord_canon_get(e->body, "until");
			if (!s || strcmp(s, side) || !u || ord_parse_long(u, &until) != 0)
				goto next;
			/* a new passphrase ended it before its time */
			end = until;
			if ((lift = suspension_ended(x, e, side, &ended)) != NULL && ended < until) {
				end = ended;
				snprintf(lifted, sizeof(lifted),
					 " (a new passphrase ended it, entry %lld)",
					 (long long)lift->seq);
			}
			if (end > d - ORD_MAIL_PASS_WINDOW) {
				/* from the last wrong one, on the judge's clock */
				ord_when_format(&from, (int64_t)until - ORD_MAIL_PASS_WINDOW, NULL);
				ord_when_format(&to, end, NULL);
				ord_when_format(&dd, d, NULL);
				ord_vout_note(x->v,
					      "seal: %s, whose units took the NMR policy's orders, had its passphrase proofs by mail suspended (entry %lld) from %s until %s%s, %s the deadline of %s, after wrong passphrases that anyone who knows its address can send: it may have been shut out of this turn, not missed its time",
					      side, (long long)e->seq, from.buf, to.buf, lifted,
					      end >= d ? "past" : "less than an hour before", dd.buf);
			}
		next:
			free(s);
			free(u);
			ord_buf_release(&from);
			ord_buf_release(&to);
			ord_buf_release(&dd);
		}
	}
}

static void check_seal(struct vr *x)
{
	const struct ord_record *r = x->r;
	struct ord_buf b = ORD_BUF_INIT, held = ORD_BUF_INIT;
	struct ord_canon_sealed *cs;
	unsigned char top[32];
	const struct ord_rec_entry *dl, *prev;
	char *forced, *held_logged, *checked, *roots = NULL;
	const char *when = "";
	size_t i, j;
	int64_t d;
	int bad = x->v->failures, have_top, refless, is_forced;

	if (!x->seal || !x->have_sc)
		return;
	x->used[ord_vr_entry_index(x, x->seal)]++;
	x->sealed = ord_xcalloc(x->sc.nsides, sizeof(*x->sealed));
	cs = ord_xcalloc(x->sc.nsides, sizeof(*cs));
	/* the latest version each side handed in before the seal */
	for (j = 0; j < x->sc.nsides; j++) {
		const char *side = x->sc.sides[j].id;
		for (i = 0; i < r->sheets.n; i++) {
			const struct ord_rec_sheet *s = &r->sheets.v[i];
			const struct ord_rec_entry *e = ord_record_entry(r, s->log);
			if (strcmp(s->side, side) || !e || strcmp(e->kind, "sheet") ||
			    s->log > x->seal->seq)
				continue;
			if (s->version > x->sealed[j].version) {
				x->sealed[j].version = s->version;
				memcpy(x->sealed[j].commitment, s->commitment, 32);
			}
		}
		for (i = 0; i < r->commits.n; i++) {
			const struct ord_rec_commit *c = &r->commits.v[i];
			if (strcmp(c->side, side) || c->log > x->seal->seq)
				continue;
			if (c->version > x->sealed[j].version) {
				x->sealed[j].version = c->version;
				memcpy(x->sealed[j].commitment, c->commitment, 32);
			}
		}
		for (i = 0; i < r->sheets.n; i++)
			if (!strcmp(r->sheets.v[i].side, side) &&
			    r->sheets.v[i].version == x->sealed[j].version &&
			    !memcmp(r->sheets.v[i].commitment, x->sealed[j].commitment, 32))
				x->sealed[j].sheet = &r->sheets.v[i];
		cs[j].side = side;
		cs[j].version = x->sealed[j].version;
		memcpy(cs[j].commitment, x->sealed[j].commitment, 32);
		if (x->sealed[j].sheet && strcmp(x->sealed[j].sheet->source, "submitted"))
			ord_buf_addf(&held, "%s%s", held.len ? ", " : "", side);
	}
	forced = ord_canon_get(x->seal->body, "forced");
	held_logged = ord_canon_get(x->seal->body, "held");
	have_top = ord_vr_body_hex(x->seal->body, "referee_witness_top", top, 32);
	checked = ord_canon_get(x->seal->body, "sheets_checked");
	x->sheets_checked = checked && !strcmp(checked, "1");
	/* what an orderly that logs the roster's roots checks at the seal, the
	 * replay checks whatever the seal says: a seal that leaves out
	 * sheets_checked=1 escapes nothing (a forger's chain rebuilt without
	 * it).  A referee-less seal holds commitments, not sheets: each
	 * sheet is checked when its side opens it after the seal, against
	 * the unit rows as they are then, and by nothing after it but the
	 * first phase of an orderly since attack 33, so the replay checks
	 * every opened sheet too (a red team's find: the host, a player,
	 * opened a sheet of his the rules refuse, a unit row changed while he
	 * opened it, and the audit and verify said clean).  And so in a turn
	 * opened without the roots, as an orderly before them opened it: the
	 * roots are a line of the opening the referee writes, and one who
	 * left them out escaped the check (attack 34); the replay says why
	 * such a turn's sheet may have been taken (x->rosterless). */
	roots = ord_canon_get(x->open->body, "units_root");
	x->rosterless = !roots;
	free(roots);
	ord_canon_seal(&b, r->turn, forced && !strcmp(forced, "1"), cs, x->sc.nsides,
		       held_logged ? held_logged : "", have_top ? top : NULL, x->sheets_checked);
	if (strcmp(b.buf, x->seal->body))
		ord_vout_fail(x->v,
			      "the seal (entry %lld) does not name, for each side, the latest sheet it handed in before it",
			      (long long)x->seal->seq);
	if (strcmp(held.buf, held_logged ? held_logged : ""))
		ord_vout_fail(x->v,
			      "the seal (entry %lld) says the NMR policy stood in for '%s', but the stand-in sheets are those of '%s'",
			      (long long)x->seal->seq, held_logged ? held_logged : "", held.buf);
	/* 'wait' stands in for nobody: no orderly seals a turn that lacks a
	 * side's sheet under it, forced or not (the red team of the
	 * thirty-eighth session: a referee's own build held red, and the
	 * audit and verify said "the NMR policy stood in for red") */
	if (x->have_cfg && !strcmp(x->cfg.nmr, "wait") && (held.len || (held_logged && *held_logged)))
		ord_vout_fail(x->v,
			      "the seal (entry %lld) stood in for '%s' with the NMR policy's hold, but the game's NMR policy is 'wait', which stands in for no side: the turn waits for every side's sheet, and no orderly seals it without one",
			      (long long)x->seal->seq, held.len ? held.buf : held_logged);
	if (x->have_cfg && x->cfg.witnessed && !have_top)
		ord_vout_fail(x->v,
			      "the seal (entry %lld) of a witnessed game commits to no witness chain of the referee's",
			      (long long)x->seal->seq);
	check_seal_time(x, forced && !strcmp(forced, "1"), held_logged);
	for (j = 0; j < x->sc.nsides; j++)
		if (!x->sealed[j].sheet && (x->nresolved || x->exchange))
			ord_vout_fail(x->v, "the sealed sheet of %s (version %d) is not here%s",
				      x->sc.sides[j].id, x->sealed[j].version,
				      x->have_cfg && x->cfg.refereeless ? " (never opened)" : "");
	x->have_sealed = 1;
	refless = x->have_cfg && x->cfg.refereeless;
	is_forced = forced && !strcmp(forced, "1");
	/* when a forced seal came: "before the deadline" only when one was
	 * set (red-team finding 8: a game with none read as sealed early) */
	if (is_forced) {
		dl = seal_deadline(x, &prev);
		d = dl ? deadline_of(dl) : 0;
		when = d > 0 && x->seal->at <= d ? "before the deadline"
		       : d > 0                   ? "after the deadline had passed"
		       : d < 0                   ? "with the deadline logged before it damaged"
						 : "with no deadline set";
	}
	if (x->v->failures == bad && is_forced)
		ord_vout_ok(x->v,
			    "seal: entry %lld seals the latest sheet of each of the %zu sides%s%s, the seal forced by the %s %s%s",
			    (long long)x->seal->seq, x->sc.nsides,
			    held.len ? "; the NMR policy stood in for " : "", held.buf,
			    refless ? "host" : "referee", when,
			    held.len ? "" : " (no side was missing)");
	else if (x->v->failures == bad)
		ord_vout_ok(x->v,
			    "seal: entry %lld seals the latest sheet of each of the %zu sides%s%s",
			    (long long)x->seal->seq, x->sc.nsides,
			    held.len ? "; the NMR policy stood in for " : "", held.buf);
	/* referee-less: the host may be the other player, and a seal he
	 * forces shuts a side that had not committed yet out of the turn.
	 * Not prevented (a side that never commits would stall the game),
	 * shown to everyone who checks the turn; a side past the deadline
	 * had its time */
	if (refless && held.len && is_forced && strcmp(when, "after the deadline had passed"))
		ord_vout_note(x->v,
			      "seal: the host sealed %s, without the commitment of %s, whose units took the NMR policy's orders: a side still to commit was shut out of this turn, if it had not said it would send none",
			      when, held.buf);
	/* ... and so is one sealed at a deadline set to leave it no time */
	if (held.len && !(forced && !strcmp(forced, "1")) && (dl = seal_deadline(x, &prev)) &&
	    (d = deadline_of(dl)) > 0 && x->seal->at > d)
		note_deadline_moved(x, dl, d, prev, held.buf);
	/* ... and a seal with every side in, before the time they were given
	 * (attack 44) */
	if (x->v->failures == bad && !held.len && (dl = seal_deadline(x, &prev)) &&
	    (d = deadline_of(dl)) > 0)
		note_sealed_early(x, dl, d, prev, refless);
	/* ... and so is a side whose passphrase proofs by mail were
	 * suspended near the deadline (attack 37) */
	if (held.len)
		note_suspended(x);
	free(forced);
	free(held_logged);
	free(checked);
	free(cs);
	ord_buf_release(&b);
	ord_buf_release(&held);
}

/* The next turn's opening names, for each side, the sheet it sealed in
 * this turn (last.SIDE): the NMR policy "repeat" repeats that sheet for a
 * side that sends none, and the next turn's verify holds the sheet it is
 * handed as the previous one to that name alone.  So it is held here to
 * the sheets this turn sealed; else the referee could name none, and have
 * a silent side hold where it repeats, or another sheet, and have it
 * repeat orders the side never wrote, each bundle clean on its own. */
static void check_next_last(struct vr *x)
{
	size_t j;

	for (j = 0; x->next_open && x->have_sealed && j < x->sc.nsides; j++) {
		const struct ord_rec_sheet *s = x->sealed[j].sheet;
		struct ord_buf key = ORD_BUF_INIT;
		unsigned char want[32], got[32];
		int have;

		if (!s) /* the seal's check says it is not here */
			continue;
		ord_buf_addf(&key, "last.%s", x->sc.sides[j].id);
		have = ord_vr_body_hex(x->next_open->body, key.buf, got, 32);
		ord_hash_bytes(want, s->bytes, s->len);
		if (!have)
			ord_vout_fail(x->v,
				      "the opening of turn %d (entry %lld) says %s sealed no sheet in turn %d, but it sealed version %d",
				      x->r->turn + 1, (long long)x->next_open->seq,
				      x->sc.sides[j].id, x->r->turn, x->sealed[j].version);
		else if (memcmp(got, want, 32))
			ord_vout_fail(x->v,
				      "the opening of turn %d (entry %lld) names another sheet than the one %s sealed in turn %d (version %d)",
				      x->r->turn + 1, (long long)x->next_open->seq,
				      x->sc.sides[j].id, x->r->turn, x->sealed[j].version);
		ord_buf_release(&key);
	}
}

/* ---- receipts and heads ---- */

/* 1 when a receipt head (at "receipt") stating commitment c was given. */
static int receipt_head_of(const struct vr *x, const unsigned char c[32])
{
	size_t i;

	for (i = 0; x->o && i < x->o->nreceipt_heads; i++)
		if (!strcmp(x->o->receipt_heads[i].at, "receipt") &&
		    !memcmp(x->o->receipt_heads[i].commitment, c, 32))
			return 1;
	return 0;
}

/* Is a receipt given beside the others (a bare commitment, or the
 * commitment a receipt head states) of side's sheet of this version? */
static int receipt_given_of(struct vr *x, const char *side, int version)
{
	const struct ord_record *r = x->r;
	size_t i, k;

	for (k = 0; k < r->sheets.n; k++) {
		const struct ord_rec_sheet *s = &r->sheets.v[k];
		if (s->version != version || strcmp(s->side, side))
			continue;
		for (i = 0; x->o && i < x->o->nreceipts; i++)
			if (!memcmp(x->o->receipts[i], s->commitment, 32))
				return 1;
		/* a receipt the game signed; a sealed head is none: it states
		 * whatever the seal took, not what the side handed in (a
		 * review's find: with it given beside the receipt of version
		 * 1, a version 2 stored in the side's name was a note) */
		if (receipt_head_of(x, s->commitment))
			return 1;
	}
	return 0;
}

/* The sheet a receipt names by its commitment c (label: how the
 * messages name the receipt): here, unchanged, and the one sealed. */
static void check_commitment(struct vr *x, const unsigned char c[32], const char *label)
{
	const struct ord_record *r = x->r;
	const struct ord_rec_sheet *s = NULL;
	size_t k, j;

	for (k = 0; k < r->sheets.n; k++)
		if (!memcmp(r->sheets.v[k].commitment, c, 32))
			s = &r->sheets.v[k];
	if (!s) {
		for (k = 0; k < r->commits.n; k++)
			if (!memcmp(r->commits.v[k].commitment, c, 32))
				break;
		if (k < r->commits.n)
			ord_vout_fail(x->v,
				      "receipt %s: the commitment of %s (version %d) is here, but its sheet was never opened",
				      label, r->commits.v[k].side, r->commits.v[k].version);
		else
			ord_vout_fail(x->v,
				      "receipt %s: no sheet of turn %d has this commitment (a receipt of another turn, or your sheet was dropped or replaced, or the turn's seed was re-drawn)",
				      label, r->turn);
		return;
	}
	if (!s->commit_ok) {
		ord_vout_fail(x->v,
			      "receipt %s: the sheet of %s with this commitment was changed (its bytes no longer give it)",
			      label, s->side);
		return;
	}
	for (j = 0; x->have_sealed && j < x->sc.nsides; j++) {
		if (strcmp(x->sc.sides[j].id, s->side))
			continue;
		if (x->sealed[j].version != s->version &&
		    receipt_given_of(x, s->side, x->sealed[j].version))
			/* a version handed in before the one sealed, whose
			 * receipt is given too: no sheet put in its place */
			ord_vout_note(x->v,
				      "receipt %s: the sheet of %s, version %d, is here unchanged; version %d, whose receipt you gave too, was sealed",
				      label, s->side, s->version, x->sealed[j].version);
		else if (x->sealed[j].version != s->version)
			ord_vout_fail(x->v,
				      "receipt %s: the sheet of %s, version %d, is here unchanged, but version %d was sealed instead",
				      label, s->side, s->version, x->sealed[j].version);
		else if (memcmp(x->sealed[j].commitment, s->commitment, 32)) {
			/* the version alone would pass another sheet logged
			 * under it (the versions' check says how) */
			char hex[65];
			ord_hex(hex, x->sealed[j].commitment, 32);
			ord_vout_fail(x->v,
				      "receipt %s: the sheet of %s, version %d, is here unchanged, but another sheet under version %d was sealed instead (commitment %.16s...)",
				      label, s->side, s->version, s->version, hex);
		} else
			ord_vout_ok(x->v,
				    "receipt %s: the sheet of %s, version %d, is here unchanged and was the one sealed",
				    label, s->side, s->version);
	}
	if (!x->have_sealed)
		ord_vout_ok(x->v, "receipt %s: the sheet of %s, version %d, is here unchanged",
			    label, s->side, s->version);
}

static int head_matches(struct vr *x, const char *at, int turn, int64_t seq,
			const unsigned char hash[32], int has_sc, const unsigned char sc[32],
			const char *what);

/* A receipt's words (its comment "# turn T, side S, version V, commitment
 * C", which a player reads and nothing signs) held to what the game
 * signed: the sheet of side, version, commitment c of this turn (attack
 * 47).  A receipt of red's sheet in blue's words, or of a side's first
 * version in the words of the second it dropped, verified as "ok" where
 * only the side or the version in verify's line told. */
static void check_words(struct vr *x, const struct ord_head *h, const char *name, int file,
			const char *side, int version, const unsigned char c[32])
{
	struct ord_buf at = ORD_BUF_INIT;
	char hex[65], said[65];
	unsigned line = h->words ? h->words_line : h->odd_line;
	/* the game's signature of the words (since 2026-12-07): 1 holds, 0
	 * none (an orderly before), -1 one that does not read or hold */
	int sig = h->words_signed == 0 ? 0 : h->words == 1 && !ord_head_words_check(h) ? 1 : -1;
	const char *why = sig > 0 ? "the game signed these words: a false statement under its key"
			  : sig == 0
				  ? "its words are not signed"
				  : "the signature of its words does not hold: they were changed after the game signed them";

	/* a file's line as FILE:N; a head given with --head is named by what
	 * it signs, not by its file */
	if (file)
		ord_buf_addf(&at, "%s:%u", name, line);
	else
		ord_buf_addf(&at, "%s (its line %u)", name, line);
	ord_hex(hex, c, 32);
	if (h->words == 0)
		ord_vout_fail(x->v,
			      "receipt %s: it does not say whose sheet it is (no line '# turn T, side S, version V, commitment C', which every receipt orderly writes has): what the game signed is the sheet of %s, version %d (commitment %.16s...)",
			      name, side, version, hex);
	else if (h->words < 0)
		ord_vout_fail(x->v,
			      "receipt %s: its words do not read as orderly writes them (expected one line '# turn %d, side %s, version %d, commitment %s'): what the game signed is the sheet of %s, version %d",
			      at.buf, x->r->turn, side, version, hex, side, version);
	else if (h->said.turn != x->r->turn || strcmp(h->said.side, side) ||
		 h->said.version != version || memcmp(h->said.commitment, c, 32)) {
		ord_hex(said, h->said.commitment, 32);
		ord_vout_fail(x->v,
			      "receipt %s: it says turn %d, side %s, version %d, commitment %.16s..., but what the game signed is the sheet of %s, version %d of turn %d (commitment %.16s...): a receipt of one sheet in the words of another (%s)",
			      at.buf, h->said.turn, h->said.side, h->said.version, said, side,
			      version, x->r->turn, hex, why);
	} else if (sig < 0) {
		ord_buf_reset(&at);
		ord_buf_addf(&at, file ? "%s:%u" : "%s (its line %u)", name, h->words_sig_line);
		ord_vout_fail(x->v,
			      "receipt %s: the signature of its words (the line '# words-signature: ...') %s under the game's key: the file was changed after the game signed it",
			      at.buf,
			      h->words_signed < 0
				      ? "does not read as orderly writes it (128 hex digits, once)"
				      : "does not hold");
	} else if (sig == 0) {
		/* an honest receipt of an orderly before core revision 2026-12-07.1: its words
		 * are held here to the entry, but could not be at the submit */
		ord_vout_note(x->v,
			      "receipt %s: its words are not signed (no line '# words-signature: ...': a receipt written by an orderly before core revision 2026-12-07.1 (orderly version says its own), or the line taken out): they are what the game signed here, but 'orderly verify --receipt FILE --pubkey KEY' could not say so when it came",
			      name);
	}
	if (h->odd_line) {
		ord_buf_reset(&at);
		if (file)
			ord_buf_addf(&at, "%s:%u", name, h->odd_line);
		else
			ord_buf_addf(&at, "%s (its line %u)", name, h->odd_line);
		ord_vout_note(x->v,
			      "receipt %s: '%s' is no line this orderly writes in a receipt, and nothing signs it: the receipt proves the sheet of %s, version %d, whatever it says",
			      at.buf, h->odd, side, version);
	}
	ord_buf_release(&at);
}

/* A "sealed" head (the head of the seal the game signs for one side,
 * stating the commitment the seal took for it), its entry found to be
 * this turn's seal: that the seal took a sheet of that commitment.  The
 * player held his links back on it (witness --link-for --receipt): a seal
 * of another sheet under a head that says his is the game's signature on
 * a false statement (threat model 26). */
static void check_sealed_head(struct vr *x, const struct ord_head *h, const char *name, int file,
			      const char *what)
{
	size_t j = 0;

	if (x->have_sealed)
		for (j = 0; j < x->sc.nsides; j++)
			if (!memcmp(x->sealed[j].commitment, h->commitment, 32))
				break;
	if (!x->have_sealed)
		ord_vout_fail(x->v, "receipt %s: the seal it signs could not be read here", what);
	else if (j == x->sc.nsides)
		ord_vout_fail(x->v,
			      "receipt %s: the game signed that its seal (entry %lld) took the sheet of this commitment, but the seal took another sheet for every side: a false statement under the game's key",
			      what, (long long)h->seq);
	else {
		check_commitment(x, h->commitment, what);
		check_words(x, h, name, file, x->sc.sides[j].id, x->sealed[j].version, h->commitment);
		if (!receipt_head_of(x, h->commitment))
			ord_vout_note(x->v,
				      "receipt %s: a sealed head shows the sheet the seal took, not that it is the one you handed in: compare its commitment with your receipt's, or give the receipt too",
				      what);
	}
}

/* A receipt the game signed (a head of the entry that logs the sheet):
 * its signature by the game's key, the entry in this turn's chain with
 * the hash signed, and the sheet of the commitment the entry logs; or a
 * "sealed" head (check_sealed_head). */
static void check_receipt_head(struct vr *x, const struct ord_head *h, const char *name)
{
	const struct ord_record *r = x->r;
	const struct ord_rec_entry *e;
	struct ord_buf what = ORD_BUF_INIT, lab = ORD_BUF_INIT;
	unsigned char c[32];
	char hex[65], mine[33];

	ord_hex(hex, h->commitment, 32);
	ord_buf_addf(&what, "%s (signed by the game's key, entry %lld, commitment %.16s...)", name,
		     (long long)h->seq, hex);
	ord_buf_addf(&lab, "receipt %s", what.buf);
	ord_hex(mine, r->game_id, 16);
	if (memcmp(h->game_id, r->game_id, 16)) {
		ord_hex(hex, h->game_id, 16);
		ord_vout_fail(x->v,
			      "receipt %s: a receipt of another game (game %s), not of this bundle's (game %s)",
			      name, hex, mine);
	} else if (memcmp(h->key, r->key, 32)) {
		ord_hex(hex, h->key, 32);
		ord_vout_fail(x->v,
			      "receipt %s: signed by key %s, not by the game's key here: no receipt the game gave",
			      name, hex);
	} else if (ord_head_check(h)) {
		ord_vout_fail(x->v,
			      "receipt %s: its signature does not hold: the file was changed after the game signed it",
			      name);
	} else if (h->turn != r->turn) {
		/* the player's own mix-up, as a head of another turn is: the
		 * game signed the turn in the receipt, so it hides nothing */
		ord_vout_note(x->v,
			      "receipt %s: a receipt of turn %d, not of this bundle's turn %d: nothing of it is checked here; give it to the verify of turn %d's bundle",
			      name, h->turn, r->turn, h->turn);
	} else if (!strcmp(h->at, "sealed")) {
		if (!head_matches(x, h->at, h->turn, h->seq, h->hash, 0, NULL, lab.buf))
			check_sealed_head(x, h, name, 1, what.buf);
	} else if (!head_matches(x, h->at, h->turn, h->seq, h->hash, 0, NULL, lab.buf)) {
		char *source = NULL;

		e = ord_record_entry(r, h->seq);
		if (e && !strcmp(e->kind, "sheet"))
			source = ord_canon_get(ord_vr_body(x, e), "source");
		if (!e || !ord_vr_body_hex(ord_vr_body(x, e), "commitment", c, 32))
			ord_vout_fail(x->v, "receipt %s: entry %lld logs no commitment", what.buf,
				      (long long)h->seq);
		else if (!h->has_commitment || memcmp(c, h->commitment, 32))
			/* the game signed one sheet's entry and another's
			 * commitment: a receipt made to pass another sheet */
			ord_vout_fail(x->v,
				      "receipt %s: entry %lld logs another sheet than the commitment the receipt states",
				      what.buf, (long long)h->seq);
		else if (source && strcmp(source, "submitted"))
			ord_vout_fail(x->v,
				      "receipt %s: entry %lld is the NMR policy's stand-in (%s), no sheet the side handed in: no receipt the game gives",
				      what.buf, (long long)h->seq, source);
		else {
			char *side = ord_canon_get(ord_vr_body(x, e), "side");
			long version = 0;
			char *v = ord_canon_get(ord_vr_body(x, e), "version");

			check_commitment(x, c, what.buf);
			if (side && v && !ord_parse_long(v, &version))
				check_words(x, h, name, 1, side, (int)version, c);
			free(side);
			free(v);
		}
		free(source);
	}
	ord_buf_release(&what);
	ord_buf_release(&lab);
}

static void check_receipts(struct vr *x)
{
	size_t i;
	char hex[65];

	for (i = 0; x->o && i < x->o->nreceipts; i++) {
		ord_hex(hex, x->o->receipts[i], 32);
		check_commitment(x, x->o->receipts[i], hex);
		/* a commitment is 32 bytes anybody can compute for a sheet of
		 * his own (found by a red-team review, threat model 21) */
		ord_vout_note(x->v,
			      "receipt %s: a bare commitment: your word, not evidence the game gave it; the receipt head the game signed is evidence (--receipt FILE)",
			      hex);
	}
	for (i = 0; x->o && i < x->o->nreceipt_heads; i++)
		check_receipt_head(x, &x->o->receipt_heads[i],
				   x->o->receipt_names ? x->o->receipt_names[i] : "(a receipt head)");
}

/* One signed head against the record (what names it); 0 when it matches. */
static int head_matches(struct vr *x, const char *at, int turn, int64_t seq,
			const unsigned char hash[32], int has_sc, const unsigned char sc[32],
			const char *what)
{
	const struct ord_record *r = x->r;
	const struct ord_rec_entry *e;
	const unsigned char *have;
	int opens; /* the turn whose opening the head signs, 0 for none */

	if (!r->entries.n)
		return -1;
	/* a head of the game's opening or of an exchange signs a turn's
	 * opening: when it is the opening of this turn, it is the first entry
	 * here, never one before it (a turn opened again after the head was
	 * handed out, from other states, would start after it) */
	opens = !strcmp(at, "open") ? 1 : !strcmp(at, "exchange") ? turn + 1 : 0;
	if (opens == r->turn && seq != r->entries.v[0].seq) {
		ord_vout_fail(x->v,
			      "%s: it signs the opening of turn %d as entry %lld, but this turn's log starts at entry %lld: the turn was opened again after the head was handed out",
			      what, r->turn, (long long)seq, (long long)r->entries.v[0].seq);
		return -1;
	}
	/* a head of a seal or a close signs an entry of the turn it names: one
	 * dated into a later turn over an earlier entry (a close head saying
	 * turn 2 over turn 1's close of the same phase) would give a witness
	 * link of a phase not yet played (found by a red-team review) */
	if (!opens && turn >= r->turn && seq < r->entries.v[0].seq) {
		ord_vout_fail(x->v,
			      "%s: it says turn %d, but signs entry %lld, from before this turn's log (entries %lld to %lld): a head dated into a later turn%s",
			      what, turn, (long long)seq, (long long)r->entries.v[0].seq,
			      (long long)r->entries.v[r->entries.n - 1].seq,
			      !strcmp(at, "close")
				      ? ": a link revealed against it was revealed before its phase was played"
				      : "");
		return -1;
	}
	if (seq == r->entries.v[0].seq - 1) {
		have = r->prev;
	} else if ((e = ord_record_entry(r, seq)) != NULL) {
		have = e->hash;
		if (!memcmp(have, hash, 32)) {
			/* the entry it signs is the one its kind says, of the
			 * turn it names */
			if (!ord_head_signs_kind(at, e->kind)) {
				ord_vout_fail(x->v,
					      "%s: entry %lld is a '%s' entry, not what a head of the %s signs",
					      what, (long long)seq, e->kind, at);
				return -1;
			}
			if (e->turn != (opens ? opens : turn)) {
				ord_vout_fail(x->v,
					      "%s: it says turn %d, but entry %lld is of turn %d%s",
					      what, turn, (long long)seq, e->turn,
					      !strcmp(at, "close")
						      ? ": a link revealed against it was revealed for another turn's phase"
						      : "");
				return -1;
			}
			if (has_sc && !strcmp(e->kind, "open")) {
				unsigned char c[32];
				if (!ord_vr_body_hex(e->body, "seed_commitment", c, 32) ||
				    memcmp(c, sc, 32)) {
					ord_vout_fail(x->v,
						      "%s: the seed commitment it carries is not the one entry %lld logs",
						      what, (long long)seq);
					return -1;
				}
			}
		}
	} else if (seq < r->entries.v[0].seq - 1) {
		ord_vout_note(x->v,
			      "%s: entry %lld is older than this turn's log (entries %lld to %lld): it is checked by the bundles of the turns between",
			      what, (long long)seq, (long long)r->entries.v[0].seq,
			      (long long)r->entries.v[r->entries.n - 1].seq);
		return 1;
	} else if (turn > r->turn) {
		/* signed after this turn's log ends: it proves nothing against
		 * this turn, and a player who gives all his heads is no tamperer */
		ord_vout_note(x->v,
			      "%s: a head of a later turn, not used (this turn's log is entries %lld to %lld): give it to the verify of turn %d's bundle",
			      what, (long long)r->entries.v[0].seq,
			      (long long)r->entries.v[r->entries.n - 1].seq, turn);
		return 1;
	} else {
		ord_vout_fail(x->v,
			      "%s: entry %lld is not in this turn's log (entries %lld to %lld): the log was cut back",
			      what, (long long)seq, (long long)r->entries.v[0].seq,
			      (long long)r->entries.v[r->entries.n - 1].seq);
		return -1;
	}
	if (memcmp(have, hash, 32)) {
		ord_vout_fail(x->v,
			      "%s: entry %lld does not have the hash that was signed: the history up to it was rewritten%s",
			      what, (long long)seq,
			      !strcmp(at, "link")
				      ? " (the link the game signed as recorded is not in the history its phase was resolved on)"
			      : !strcmp(at, "receipt")
				      ? " (the sheet the game signed as stored is not in it: dropped or replaced)"
				      : "");
		return -1;
	}
	return 0;
}

/* The phase (1-based) whose close is entry seq, as the entry logs it; 0
 * when it is no close. */
static int close_phase_at(const struct vr *x, int64_t seq)
{
	const struct ord_rec_entry *e = ord_record_entry(x->r, seq);
	char *index;
	long v = 0;

	if (!e || strcmp(e->kind, "close") || !(index = ord_canon_get(e->body, "index")))
		return 0;
	if (ord_parse_long(index, &v) || v < 1 || v > ORD_WITNESS_LINKS)
		v = 0;
	free(index);
	return (int)v;
}

/* Does a head of the record hold?  A close head is signed with the phase
 * its entry closes, or, by an earlier orderly, without it. */
static int record_head_holds(const struct vr *x, const struct ord_rec_head *h)
{
	static const unsigned char none[32];
	const struct ord_record *r = x->r;
	unsigned char msg[32];
	int phase = strcmp(h->at, "close") ? 0 : close_phase_at(x, h->seq);

	if (phase) {
		/* without its number (since hsecr11), or with it */
		ord_sig_unnumbered_msg(msg, r->game_id, h->turn, "close", phase, h->hash);
		if (!ord_sig_check(h->signature, msg, r->key))
			return 1;
		ord_sig_close_msg(msg, r->game_id, h->turn, phase, h->seq, h->hash);
		if (!ord_sig_check(h->signature, msg, r->key))
			return 1;
	}
	ord_sig_head_msg(msg, r->game_id, h->turn, h->at, h->seq, h->hash,
			 h->has_seed_commitment ? h->seed_commitment : none);
	return !ord_sig_check(h->signature, msg, r->key);
}

/*
 * The entry a head of format v3 signs, which it names by its hash alone
 * (attack 49's leftover): the entry of this bundle's log with that hash,
 * or the one before its first (the previous turn's last).  0 when none
 * has it.
 */
static int64_t unnumbered_seq(const struct vr *x, const unsigned char hash[32])
{
	const struct ord_record *r = x->r;
	size_t i;

	if (!r->entries.n)
		return 0;
	if (!memcmp(r->prev, hash, 32))
		return r->entries.v[0].seq - 1;
	for (i = 0; i < r->entries.n; i++)
		if (!memcmp(r->entries.v[i].hash, hash, 32))
			return r->entries.v[i].seq;
	return 0;
}

static void check_heads(struct vr *x)
{
	const struct ord_record *r = x->r;
	struct ord_buf what = ORD_BUF_INIT;
	char hex[65];
	size_t i;
	int bad = x->v->failures, nseal = 0, nexch = 0, nopen = 0, p;

	/* each close of this turn wants the player's own head of it: a later
	 * head signs whatever was recorded again in its place */
	for (i = 0; x->f && i < r->entries.n; i++)
		if (r->entries.v[i].turn == r->turn && (p = close_phase_at(x, r->entries.v[i].seq)) > 0)
			x->f->closes_unkept |= (uint64_t)1 << (p - 1);
	for (i = 0; i < r->heads.n; i++) {
		const struct ord_rec_head *h = &r->heads.v[i];

		ord_buf_reset(&what);
		ord_buf_addf(&what, "the signed head of turn %d's %s (entry %lld)", h->turn, h->at,
			     (long long)h->seq);
		if (!record_head_holds(x, h))
			ord_vout_fail(x->v, "%s: its signature does not hold", what.buf);
		else if (!head_matches(x, h->at, h->turn, h->seq, h->hash, h->has_seed_commitment,
				       h->seed_commitment, what.buf)) {
			if (!strcmp(h->at, "seal"))
				nseal++;
			else if (!strcmp(h->at, "exchange") && h->turn == r->turn)
				nexch++;
			else if (!strcmp(h->at, "open") || !strcmp(h->at, "exchange"))
				nopen++;
		}
	}
	/* the heads every side was handed must all be here */
	if (x->seal && !nseal)
		ord_vout_fail(x->v, "the signed head of the seal (entry %lld) is missing",
			      (long long)x->seal->seq);
	if (x->next_open && !nexch)
		ord_vout_fail(x->v, "the signed head of the exchange (entry %lld) is missing",
			      (long long)x->next_open->seq);
	if (r->turn == 1 && !nopen)
		ord_vout_fail(x->v, "the signed head of the game's opening (entry %lld) is missing",
			      x->open ? (long long)x->open->seq : 0LL);
	if (x->v->failures == bad)
		ord_vout_ok(x->v, "heads: %zu signed head%s of this turn hold%s and match%s the log%s",
			    r->heads.n, r->heads.n == 1 ? "" : "s", r->heads.n == 1 ? "s" : "",
			    r->heads.n == 1 ? "es" : "",
			    x->next_open ? " (the exchange's covers the next turn's seed commitment)"
					 : "");
	for (i = 0; x->o && i < x->o->nheads + x->o->nrecord_heads; i++) {
		int kept = i < x->o->nheads;
		const struct ord_head *given = kept ? &x->o->heads[i]
						    : &x->o->record_heads[i - x->o->nheads];
		struct ord_head found;
		const struct ord_head *h = given;
		int before = x->v->failures, rc;

		if (!kept && (memcmp(h->game_id, r->game_id, 16) || h->turn != r->turn))
			continue;
		if (given->unnumbered) {
			/* its number is the entry's its hash names here */
			found = *given;
			found.seq = unnumbered_seq(x, given->hash);
			h = &found;
		}
		ord_buf_reset(&what);
		ord_hex(hex, h->hash, 32);
		if (h->unnumbered && !h->seq)
			ord_buf_addf(&what, "the head %s of turn %d's %s (hash %.16s...)",
				     kept ? "you kept" : "your witness record keeps", h->turn,
				     h->at, hex);
		else
			ord_buf_addf(&what, "the head %s of turn %d's %s (entry %lld)",
				     kept ? "you kept" : "your witness record keeps", h->turn,
				     h->at, (long long)h->seq);
		if (memcmp(h->game_id, r->game_id, 16)) {
			char mine[33], theirs[33];

			ord_hex(mine, r->game_id, 16);
			ord_hex(theirs, h->game_id, 16);
			ord_vout_fail(x->v,
				      "%s: the bundle and this head belong to different games (the bundle to game %s, the head to game %s)",
				      what.buf, mine, theirs);
			continue;
		}
		if (memcmp(h->key, r->key, 32)) {
			ord_hex(hex, h->key, 32);
			ord_vout_fail(x->v, "%s: it was signed by key %s, not by the game's key here",
				      what.buf, hex);
			continue;
		}
		if (ord_head_check(h)) {
			ord_vout_fail(x->v, "%s: its signature does not hold", what.buf);
			continue;
		}
		if (h->unnumbered && !h->seq) {
			/* no entry of this log has the hash it signs */
			if (h->turn < r->turn)
				ord_vout_note(x->v,
					      "%s: a head of an earlier turn, whose entry it names by its hash alone: it is checked by the verify of turn %d's bundle",
					      what.buf, h->turn);
			else if (h->turn > r->turn)
				ord_vout_note(x->v,
					      "%s: a head of a later turn, not used (this turn's log is entries %lld to %lld): give it to the verify of turn %d's bundle",
					      what.buf, (long long)r->entries.v[0].seq,
					      (long long)r->entries.v[r->entries.n - 1].seq, h->turn);
			else
				ord_vout_fail(x->v,
					      "%s: no entry of this turn's log (entries %lld to %lld) has the hash it signs: the history up to it was rewritten%s",
					      what.buf, (long long)r->entries.v[0].seq,
					      (long long)r->entries.v[r->entries.n - 1].seq,
					      !strcmp(h->at, "close")
						      ? " (its phase's events recorded again after the links were revealed: attack 14)"
					      : !strcmp(h->at, "link")
						      ? " (the link the game signed as recorded is not in the history its phase was resolved on)"
						      : "");
			continue;
		}
		rc = head_matches(x, h->at, h->turn, h->seq, h->hash, h->has_seed_commitment,
				  h->seed_commitment, what.buf);
		/* a sealed head given with --head says what it says too */
		if (!rc && !strcmp(h->at, "sealed"))
			check_sealed_head(x, h, what.buf, 0, what.buf);
		/* a link is revealed against the close head of its phase: one
		 * that says another phase than its entry closes let the referee
		 * have a link before the events it keys were closed */
		if (!rc && h->phase > 0 && close_phase_at(x, h->seq) != h->phase) {
			ord_vout_fail(x->v,
				      "%s: it says it closes phase %d, but entry %lld %s: a link revealed against it was revealed before its phase's events were closed",
				      what.buf, h->phase, (long long)h->seq,
				      close_phase_at(x, h->seq) ? "closes another phase"
								: "closes no phase");
			rc = -1;
		}
		if (!rc && x->v->failures == before && x->f) {
			x->f->heads_matched++;
			if ((p = close_phase_at(x, h->seq)) > 0)
				x->f->closes_unkept &= ~((uint64_t)1 << (p - 1));
			if (h->seq + 1 == r->entries.v[0].seq || h->seq == r->entries.v[0].seq)
				x->f->opening_matched = 1;
		}
		if (!rc && x->v->failures == before)
			ord_vout_ok(x->v, "%s: matches; nothing up to it was rewritten%s", what.buf,
				    h->seq + 1 == r->entries.v[0].seq || h->seq == r->entries.v[0].seq
					    ? ", and this turn continues from it"
					    : "");
	}
	ord_buf_release(&what);
}

/*
 * The links the player's witness record says he gave (witness --link-for)
 * for this bundle's game and turn: each is of the chain his side's sealed
 * sheet commits to (hashed up to its top), and where the turn recorded
 * his side's link of that phase, it is that one.  A referee who stored
 * the player's sheet with a chain of his own (the player's nonce and top
 * swapped for his, in a game whose sides sign nothing) knew every phase's
 * dice before he recorded its events, and every head he handed out says
 * nothing of it: the player's own links do (the red team of 2026-12-05).
 */
static void check_given_links(struct vr *x)
{
	const struct ord_record *r = x->r;
	const struct ord_witness_given *given = x->o ? x->o->given_links : NULL;
	size_t ngiven = x->o ? x->o->ngiven_links : 0;
	size_t i, j, k, n = 0, used = 0;
	int bad = x->v->failures;
	const char *rec = x->o && x->o->record_name ? x->o->record_name : "your witness record";
	struct ord_buf sides = ORD_BUF_INIT, words = ORD_BUF_INIT;
	char *ok = ord_xcalloc(ngiven + 1, 1); /* of the sealed chain */

	/* which links hash up to the top their side's sealed sheet commits to */
	for (i = 0; i < ngiven; i++) {
		const struct ord_witness_given *gv = &given[i];
		unsigned char up[32];

		if (memcmp(gv->game_id, r->game_id, 16) || gv->turn != r->turn)
			continue;
		for (j = 0; j < x->sc.nsides; j++) {
			const struct ord_rec_sheet *s = x->have_sealed ? x->sealed[j].sheet : NULL;

			if (strcmp(x->sc.sides[j].id, gv->side) || !s)
				continue;
			memcpy(up, gv->link, 32);
			ord_witness_up(up, (unsigned)gv->phase);
			ok[i] = s->has_witness && !memcmp(up, s->witness, 32);
		}
	}
	for (i = 0; i < ngiven; i++) {
		const struct ord_witness_given *gv = &given[i];
		const struct ord_rec_sheet *s = NULL;
		const struct ord_rec_link *l = NULL;
		int have_side = 0, other_ok = 0;

		if (memcmp(gv->game_id, r->game_id, 16) || gv->turn != r->turn)
			continue;
		for (j = 0; j < x->sc.nsides; j++)
			if (!strcmp(x->sc.sides[j].id, gv->side)) {
				have_side = 1;
				s = x->have_sealed ? x->sealed[j].sheet : NULL;
			}
		if (!have_side) {
			ord_vout_fail(x->v,
				      "%s, line %d: you gave a link of side '%s', which this game has not",
				      rec, gv->line, gv->side);
			continue;
		}
		if (!s) /* the seal's check says why */
			continue;
		for (k = 0; k < ngiven; k++)
			if (k != i && ok[k] && !memcmp(given[k].game_id, r->game_id, 16) &&
			    given[k].turn == r->turn && given[k].phase == gv->phase &&
			    !strcmp(given[k].side, gv->side))
				other_ok = 1;
		if (!ok[i] && other_ok) {
			/* an answer with another nonce or key beside the right one */
			ord_vout_note(x->v,
				      "%s, line %d: you also gave a link for %s in phase %d that is not of the chain its sealed sheet commits to (another nonce or key than the sheet's): the one of that chain is in the record too",
				      rec, gv->line, gv->side, gv->phase);
			continue;
		}
		if (!ok[i]) {
			ord_vout_fail(x->v,
				      "%s, line %d: the link you gave for %s in phase %d is not of the witness chain %s's sealed sheet (version %d) commits to: your sheet was stored with another chain than yours, whose links the referee could know before he recorded the events",
				      rec, gv->line, gv->side, gv->phase, gv->side, s->version);
			continue;
		}
		n++;
		if (!ord_words_has(words.buf ? words.buf : "", gv->side)) {
			ord_buf_addf(&sides, "%s%s", sides.len ? ", " : "", gv->side);
			ord_buf_addf(&words, "%s%s", words.len ? " " : "", gv->side);
		}
		for (k = 0; k < r->links.n; k++)
			if (r->links.v[k].index == gv->phase && !strcmp(r->links.v[k].side, gv->side))
				l = &r->links.v[k];
		if (l && memcmp(l->link, gv->link, 32))
			ord_vout_fail(x->v,
				      "%s, line %d: the link of %s the turn recorded for phase %d (entry %lld) is not the one you gave",
				      rec, gv->line, gv->side, gv->phase, (long long)l->log);
		else if (l)
			used++;
		else if (gv->phase <= (int)x->nphases)
			ord_vout_note(x->v,
				      "%s, line %d: you gave a link for %s in phase %d, but the turn recorded none of %s for it (the referee's stood in): it came after the phase was resolved, or was not passed on",
				      rec, gv->line, gv->side, gv->phase, gv->side);
	}
	if (n && x->v->failures == bad)
		ord_vout_ok(x->v,
			    "witness links: the %zu link%s you gave for %s (%s) %s of the chain the sealed sheet commits to%s",
			    n, n == 1 ? "" : "s", sides.buf, rec, n == 1 ? "is" : "are",
			    used == n ? ", and the ones its dice used"
			    : used    ? ", and those the turn recorded are the ones its dice used"
				      : "");
	ord_buf_release(&sides);
	ord_buf_release(&words);
	free(ok);
}

/* ---- the dice key ---- */

static void dice_key(struct vr *x)
{
	const struct ord_record *r = x->r;
	struct ord_digest d;
	size_t j;

	if (!x->have_sealed || !r->have_seed || (x->have_cfg && x->cfg.fixed_dice))
		return;
	ord_dice_key_begin(&d, x->cfg.refereeless, r->game_id, r->turn, r->seed);
	for (j = 0; j < x->sc.nsides; j++) {
		if (x->cfg.refereeless && !x->sealed[j].sheet)
			return; /* not every sealed sheet is opened yet: no key */
		ord_dice_key_side(&d, x->sc.sides[j].id, x->sealed[j].commitment,
				  x->cfg.refereeless ? x->sealed[j].sheet->nonce : NULL);
	}
	ord_digest_final(&d, x->dice_key);
	x->have_key = 1;
	if (x->f) {
		x->f->have_dice_key = 1;
		memcpy(x->f->dice_key, x->dice_key, 32);
	}
}

/* ---- rows and entries that do not find each other ---- */

/* The kinds of entry that record a row of the game file (or the bundle):
 * each must be claimed by exactly one row. */
static const char *const row_kinds[] = { "sheet", "opening", "commit", "event",
					 "void",  "witness", NULL };

static int records_a_row(const char *kind)
{
	size_t k;

	for (k = 0; row_kinds[k]; k++)
		if (!strcmp(kind, row_kinds[k]))
			return 1;
	return 0;
}

static void claim(struct vr *x, char *claimed, int64_t seq)
{
	const struct ord_rec_entry *e = ord_record_entry(x->r, seq);

	if (e)
		claimed[ord_vr_entry_index(x, e)] = 1;
}

/* What entry e records, in words ("event #2 (move) of turn 1, phase
 * movement"), from its body. */
static void entry_row_named(struct vr *x, const struct ord_rec_entry *e, struct ord_buf *out)
{
	const char *body = ord_vr_body(x, e);
	char *side = ord_canon_get(body, "side"), *version = ord_canon_get(body, "version");
	char *seq = ord_canon_get(body, "seq"), *kind = ord_canon_get(body, "kind");
	char *phase = ord_canon_get(body, "phase"), *index = ord_canon_get(body, "index");

	if (!strcmp(e->kind, "event"))
		ord_buf_addf(out, "event #%s (%s) of turn %d, phase %s,", seq ? seq : "?",
			     kind ? kind : "?", e->turn, phase ? phase : "?");
	else if (!strcmp(e->kind, "void"))
		ord_buf_addf(out, "the void of event #%s of turn %d", seq ? seq : "?", e->turn);
	else if (!strcmp(e->kind, "witness"))
		ord_buf_addf(out, "the witness link of %s for phase %s of turn %d",
			     side ? side : "?", index ? index : "?", e->turn);
	else
		ord_buf_addf(out, "the %s of %s, version %s, of turn %d,",
			     !strcmp(e->kind, "commit") ? "commitment" : e->kind, side ? side : "?",
			     version ? version : "?", e->turn);
	free(side);
	free(version);
	free(seq);
	free(kind);
	free(phase);
	free(index);
}

/*
 * The entries that record a row no row claims: said before anything is
 * checked with the rows, so that the cause comes first (a deleted event
 * was named last, after the replay's differences that follow from it), and
 * what is said after it is labelled as what may follow from it.
 * check_vouched does not say them again.
 */
static void check_rows_present(struct vr *x)
{
	const struct ord_record *r = x->r;
	char *claimed = ord_xcalloc(r->entries.n + 1, 1);
	struct ord_buf what = ORD_BUF_INIT;
	int64_t first = 0;
	size_t i;

	x->missing = ord_xcalloc(r->entries.n + 1, 1);
	for (i = 0; i < r->sheets.n; i++)
		claim(x, claimed, r->sheets.v[i].log);
	for (i = 0; i < r->commits.n; i++)
		claim(x, claimed, r->commits.v[i].log);
	for (i = 0; i < r->events.n; i++) {
		claim(x, claimed, r->events.v[i].log);
		if (r->events.v[i].void_log)
			claim(x, claimed, r->events.v[i].void_log);
	}
	for (i = 0; i < r->links.n; i++)
		claim(x, claimed, r->links.v[i].log);
	for (i = 0; i < r->entries.n; i++) {
		const struct ord_rec_entry *e = &r->entries.v[i];
		if (claimed[i] || !records_a_row(e->kind))
			continue;
		x->missing[i] = 1;
		ord_buf_reset(&what);
		entry_row_named(x, e, &what);
		ord_vout_fail(x->v, "%s is missing (log entry %lld records it: deleted or left out)",
			      what.buf, (long long)e->seq);
		if (!first)
			first = e->seq;
	}
	if (first && !x->broken_at) {
		/* what the rows do not show is not what was logged: the
		 * failures after this may follow from it */
		x->missing_at = first;
		x->fail_was = x->v->fail;
		snprintf(x->fail_label, sizeof(x->fail_label),
			 "%s (may follow from the missing row of entry %lld)",
			 x->v->fail ? x->v->fail : "FAILED", (long long)first);
		x->v->fail = x->fail_label;
		x->fails_at_break = x->v->failures;
	}
	ord_buf_release(&what);
	free(claimed);
}

static void check_vouched(struct vr *x)
{
	const struct ord_record *r = x->r;
	size_t i, k;

	static const char *const tables[] = { "roll", "result", "unit state" };

	/* a record read a phase at a time counts its rows by entry: the
	 * first that belongs to no phase, table by table as below */
	for (k = 0, i = r->groups.n; k < 3 && i == r->groups.n; k++)
		for (i = 0; i < r->groups.n; i++) {
			const struct ord_rec_group *g = &r->groups.v[i];
			const struct ord_rec_entry *e;
			if (g->table != (int)k)
				continue;
			e = ord_record_entry(r, g->log);
			if (!e || strcmp(e->kind, "resolve")) {
				ord_vout_fail(x->v,
					      "a %s of turn %d belongs to no resolved phase (entry %lld)",
					      tables[k], r->turn, (long long)g->log);
				break;
			}
		}
	for (i = 0; i < r->rolls.n + r->results.n + r->states.n; i++) {
		int64_t log = i < r->rolls.n ? r->rolls.v[i].log
			      : i < r->rolls.n + r->results.n
				      ? r->results.v[i - r->rolls.n].log
				      : r->states.v[i - r->rolls.n - r->results.n].log;
		const struct ord_rec_entry *e = ord_record_entry(r, log);
		if (!e || strcmp(e->kind, "resolve")) {
			ord_vout_fail(x->v, "a %s of turn %d belongs to no resolved phase (entry %lld)",
				      i < r->rolls.n                  ? "roll"
				      : i < r->rolls.n + r->results.n ? "result"
								      : "unit state",
				      r->turn, (long long)log);
			break;
		}
	}
	for (i = 0; i < r->entries.n; i++) {
		const struct ord_rec_entry *e = &r->entries.v[i];
		/* a row missing was said first (check_rows_present) */
		if (records_a_row(e->kind) && x->used[i] != 1 && !(x->missing && x->missing[i]) &&
		    !(x->rs == NULL && !strcmp(e->kind, "event")))
			ord_vout_fail(x->v, "log entry %lld (%s): %s", (long long)e->seq, e->kind,
				      x->used[i] ? "more than one row claims it"
						 : "what it records is missing (deleted or left out)");
	}
}

int ord_verify_record(const struct ord_record *r, const struct ord_verify_opts *opts,
		      struct ord_vout *v, struct ord_verify_facts *facts)
{
	return ord_verify_record_cached(r, opts, v, facts, NULL);
}

int ord_verify_record_cached(const struct ord_record *r, const struct ord_verify_opts *opts,
			     struct ord_vout *v, struct ord_verify_facts *facts,
			     struct ord_verify_cache *c)
{
	struct vr x;

	memset(&x, 0, sizeof(x));
	x.cache = c;
	x.r = r;
	x.o = opts;
	x.v = v;
	x.f = facts;
	if (facts)
		memset(facts, 0, sizeof(*facts));
	x.used = ord_xcalloc(r->entries.n + 1, sizeof(*x.used));
	ord_buf_init(&x.body);
	check_opening(&x);
	check_chain(&x);
	if (x.open && x.rs)
		check_rows_present(&x);
	if (x.open && x.rs && x.have_cfg)
		check_documents(&x);
	if (x.open && x.rs) {
		check_cycle(&x);
		check_seed(&x);
		check_sheets(&x);
		check_seal(&x);
		check_next_last(&x);
		check_receipts(&x);
		check_heads(&x);
		check_given_links(&x);
		dice_key(&x);
		ord_vr_replay(&x);
		if (!x.read_err)
			check_vouched(&x);
	} else if (x.open) {
		check_seed(&x);
		check_sheets(&x);
		check_receipts(&x);
		check_heads(&x);
	}
	if (x.broken_at || x.missing_at) {
		v->fail = x.fail_was;
		if (facts) {
			facts->broken_at = x.broken_at;
			facts->missing_at = x.missing_at;
			facts->consequences = v->failures - x.fails_at_break;
		}
	}
	free(x.used);
	free(x.missing);
	ord_buf_release(&x.body);
	free(x.phases);
	free(x.sealed);
	if (x.have_cfg)
		ord_canon_config_release(&x.cfg);
	if (x.rules && !c)
		x.rs->free(x.rules);
	if (x.have_sc && !c)
		ord_scenario_release(&x.sc);
	return x.read_err;
}
