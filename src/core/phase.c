/* phase.c - a turn's phases, for the game and for the replay (phase.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/argcheck.h"
#include "core/canon.h"
#include "core/phase.h"
#include "notation.h"
#include "tables.h"

int ord_phase_run(struct ord_ctx *ctx, const char *phase, const struct ord_phase_dice *dice)
{
	static const int none[1];
	int err;

	ctx->phase = phase;
	if (dice->fixed_game) {
		ctx->fixed = dice->fixed ? dice->fixed : none;
		ctx->nfixed = dice->fixed ? dice->nfixed : 0;
		ctx->fixed_pos = 0;
	} else if (dice->key) {
		memcpy(ctx->dice_key, dice->key, 32);
		ctx->have_key = 1;
	}
	ctx->dice_by_events = dice->by_events;
	if (ctx->rs->resolve_phase && (err = ctx->rs->resolve_phase(ctx, phase)) != 0)
		return err;
	if ((err = ord_state_check(ctx)) != 0) /* a key the module did not declare */
		return err;
	if (dice->fixed_game && ctx->fixed_pos < ctx->nfixed)
		return ord_error_set(ORD_EUSAGE,
				     "%zu %s given but phase '%s' rolls %zu: --dice gives one face per roll",
				     ctx->nfixed, ctx->nfixed == 1 ? "die" : "dice", phase,
				     ctx->fixed_pos);
	return 0;
}

void ord_phase_digest(struct ord_ctx *ctx, int turn, int index, unsigned char out[32], int *nrolls,
		      int *nresults, int *nstates)
{
	struct ord_buf a = ORD_BUF_INIT, b = ORD_BUF_INIT;
	struct ord_digest d;
	size_t i;

	*nrolls = *nresults = *nstates = 0;
	ord_digest_init(&d, ORD_PHASE_TAG);
	for (i = 0; i < ctx->nrolls; i++) {
		const struct ord_ctx_roll *r = &ctx->rolls[i];
		ord_digest_roll(&d, turn, r->phase, (int)r->event_seq, r->purpose, (int)r->idx,
				(int)r->sides, r->value, r->fixed);
		(*nrolls)++;
	}
	for (i = 0; i < ctx->nresults; i++) {
		const struct ord_ctx_result *r = &ctx->results[i];
		ord_digest_result(&d, turn, r->phase, (int)r->event_seq, r->unit, r->values,
				  r->explanation, ord_ctx_result_texts_of(r));
		(*nresults)++;
	}
	for (i = 0; i < ctx->nunits; i++) {
		if (!ord_ctx_unit_changed(ctx, i, &b))
			continue;
		ord_buf_reset(&a);
		ord_kv_serialize(&ctx->units[i].attrs, &a);
		ord_digest_state(&d, ctx->units[i].id, a.buf, turn, index, b.buf);
		(*nstates)++;
	}
	ord_digest_final(&d, out);
	ord_buf_release(&a);
	ord_buf_release(&b);
}

void ord_phase_rows_digest(const struct ord_record *r, int64_t seq, unsigned char out[32],
			   struct ord_phase_rows *n)
{
	struct ord_digest d;
	size_t k;

	memset(n, 0, sizeof(*n));
	ord_digest_init(&d, ORD_PHASE_TAG);
	for (k = 0; k < r->rolls.n; k++)
		if (r->rolls.v[k].log == seq) {
			const struct ord_rec_roll *rr = &r->rolls.v[k];
			ord_digest_roll(&d, rr->turn, rr->phase, rr->event, rr->purpose, rr->idx,
					rr->sides, rr->value, rr->fixed);
			n->rolls++;
		}
	for (k = 0; k < r->results.n; k++)
		if (r->results.v[k].log == seq) {
			const struct ord_rec_result *rr = &r->results.v[k];
			ord_digest_result(&d, rr->turn, rr->phase, rr->event, rr->unit, rr->values,
					  rr->explanation, &rr->texts);
			n->results++;
		}
	for (k = 0; k < r->states.n; k++)
		if (r->states.v[k].log == seq) {
			const struct ord_rec_state *s = &r->states.v[k];
			ord_digest_state(&d, s->unit, s->attrs, s->turn, s->phase, s->value);
			n->states++;
		}
	ord_digest_final(&d, out);
}

/* The number under key in body, or -1. */
static long body_long(const char *body, const char *key)
{
	char *v = ord_canon_get(body, key);
	long l = -1;

	if (!v || ord_parse_long(v, &l))
		l = -1;
	free(v);
	return l;
}

int ord_phase_rows_match(const unsigned char h[32], const struct ord_phase_rows *n,
			 const char *body, struct ord_phase_rows *logged)
{
	struct ord_phase_rows l;
	unsigned char want[32];
	char *hex = ord_canon_get(body, "digest");
	int ok;

	l.rolls = body_long(body, "rolls");
	l.results = body_long(body, "results");
	l.states = body_long(body, "states");
	ok = hex && strlen(hex) == 64 && ord_unhex(want, 32, hex) == 32 && !memcmp(h, want, 32) &&
	     n->rolls == l.rolls && n->results == l.results && n->states == l.states;
	free(hex);
	if (logged)
		*logged = l;
	return ok;
}

int ord_phase_rows_agree(const struct ord_record *r, int64_t seq, const char *body,
			 struct ord_phase_rows *found, struct ord_phase_rows *logged)
{
	struct ord_phase_rows f;
	unsigned char h[32];

	ord_phase_rows_digest(r, seq, h, &f);
	if (found)
		*found = f;
	return ord_phase_rows_match(h, &f, body, logged);
}

int ord_phase_event_args(struct ord_ctx *ctx, const struct ord_event_kind *ek, int argc,
			 char *const *argv, struct ord_kv *out, struct ord_diag *diag)
{
	return ord_phase_event_args_at(ctx, ek, argc, argv, NULL, out, diag);
}

/* The column of argument key=... of argv (the last given: its value is
 * the one kept), 0 when unknown. */
static unsigned key_col(int argc, char *const *argv, const unsigned *cols, const char *key)
{
	size_t n = strlen(key);
	int i;

	for (i = argc - 1; cols && i >= 0; i--)
		if (!strncmp(argv[i], key, n) && argv[i][n] == '=')
			return cols[i];
	return 0;
}

int ord_phase_event_args_at(struct ord_ctx *ctx, const struct ord_event_kind *ek, int argc,
			    char *const *argv, const unsigned *cols, struct ord_kv *out,
			    struct ord_diag *diag)
{
	const struct ord_key_spec *ks;
	struct ord_words_how words;
	size_t before = diag->n;

	/* an event's words are read as its game's sheets read theirs
	 * ("KARRÉ", "kar": karre) */
	ord_words_how_of(&words, ctx->rs);
	if (ord_keys_check_words(out, ek->keys, argc, argv, cols, &words, diag))
		return ORD_EUSAGE;
	for (ks = ek->keys; ks->name; ks++) {
		const char *v = ord_kv_get(out, ks->name);
		const struct ord_unit *u;
		if (ks->type != ORD_KEY_UNIT || !v)
			continue;
		if (!(u = ord_ctx_find_unit(ctx, v))) {
			struct ord_buf hint = ORD_BUF_INIT;
			ctx->unknown_units++;
			ord_ctx_unit_hint_any(ctx, v, &hint);
			ord_diag_add(diag, 0, key_col(argc, argv, cols, ks->name), NULL, NULL,
				     "%s: unknown unit '%s'%s", ks->name, v, hint.buf);
			ord_buf_release(&hint);
		} else
			ord_kv_set(out, ks->name, u->id);
	}
	return diag->n > before ? ORD_EUSAGE : 0;
}

/* The column in argv of what the module's refusal names (ruleset.h,
 * event_defaults; ord_ctx_refuse_arg), 0 when none: argument key=... (the
 * last given: its value is the one kept), and word, when one of the
 * argument's comma-separated words ("w" or "w=v"), that word. */
static unsigned failure_col(int argc, char *const *argv, const unsigned *cols,
			    const struct ord_ctx_refusal *r)
{
	const char *v, *p;
	size_t kl, wl;
	unsigned col;
	int i;

	if (!cols || !r->key || !(kl = strlen(r->key)))
		return 0;
	for (i = argc - 1; i >= 0; i--)
		if (!strncmp(argv[i], r->key, kl) && argv[i][kl] == '=')
			break;
	if (i < 0 || !cols[i])
		return 0;
	col = cols[i];
	v = argv[i] + kl + 1;
	if (!r->word || !(wl = strlen(r->word)))
		return col;
	for (p = v; *p; p += strcspn(p, ","), p += *p == ',') {
		size_t nl = strcspn(p, ",=");
		if (nl == wl && !strncmp(p, r->word, wl)) {
			const char *c;
			for (c = argv[i]; c < p; c++)
				if (((unsigned char)*c & 0xC0) != 0x80)
					col++;
			return col;
		}
	}
	return col;
}

int ord_phase_event_defaults(struct ord_ctx *ctx, const struct ord_event_kind *ek, int argc,
			     char *const *argv, struct ord_kv *out, struct ord_diag *diag)
{
	return ord_phase_event_defaults_at(ctx, ek, argc, argv, NULL, out, diag);
}

/* The module's event_defaults of an event of kind ek whose arguments are
 * args: what it fills in fill, a refusal's argument in refusal (both the
 * caller's to release); its error code.  A recording and a replay ask it
 * so alike. */
static int ask_defaults(struct ord_ctx *ctx, const struct ord_event_kind *ek,
			const struct ord_kv *args, struct ord_kv *fill, struct ord_ctx_refusal *refusal)
{
	struct ord_event ev;
	int err;

	memset(&ev, 0, sizeof(ev));
	ev.phase = ek->phase;
	ev.kind = ek->name;
	ev.kv = *args; /* read only: the module's ev is const */
	ev.check = "";
	ctx->refusal = refusal;
	err = ctx->rs->event_defaults(ctx, &ev, fill);
	ctx->refusal = NULL;
	return err;
}

int ord_phase_event_defaults_at(struct ord_ctx *ctx, const struct ord_event_kind *ek, int argc,
				char *const *argv, const unsigned *cols, struct ord_kv *out,
				struct ord_diag *diag)
{
	struct ord_event_kind with = *ek;
	struct ord_key_spec *specs = NULL;
	struct ord_buf why = ORD_BUF_INIT;
	struct ord_ctx_refusal refusal = { NULL, NULL };
	struct ord_kv fill;
	size_t n, i, before = diag->n;
	int err = 0;

	if (!ORD_RULESET_HAS(ctx->rs, 6) || !ctx->rs->event_defaults)
		return 0;
	ord_kv_init(&fill);
	err = ask_defaults(ctx, ek, out, &fill, &refusal);
	if (err || !fill.n)
		goto out;
	for (n = 0; ek->keys[n].name; n++)
		;
	specs = ord_xcalloc(n + 1, sizeof(*specs));
	memcpy(specs, ek->keys, n * sizeof(*specs));
	for (i = 0; i < fill.n; i++) {
		const char *key = fill.items[i].key;
		size_t k;

		for (k = 0; k < n && strcmp(specs[k].name, key); k++)
			;
		if (k == n || specs[k].def || specs[k].required || ord_kv_get(out, key)) {
			err = ord_error_set(ORD_ERROR,
					    "ruleset '%s' fills key '%s' of event '%s', which is no key it leaves to the game (event_defaults)",
					    ctx->rs->name, key, ek->name);
			goto out;
		}
		if (ord_key_check_value(&specs[k], fill.items[i].value, &why)) {
			err = ord_error_set(ORD_ERROR,
					    "ruleset '%s' fills event '%s' wrongly: %s (event_defaults)",
					    ctx->rs->name, ek->name, why.buf);
			goto out;
		}
		specs[k].def = fill.items[i].value;
	}
	/* again, so that each filled key stands where the specs put a default */
	with.keys = specs;
	ord_kv_release(out);
	ord_kv_init(out);
	err = ord_phase_event_args(ctx, &with, argc, argv, out, diag);
out:
	if (err && diag->n == before) {
		/* the module's own failure: said where the event's problems
		 * are, or at the argument (and word) it names */
		ord_diag_add(diag, 0, failure_col(argc, argv, cols, &refusal), NULL, NULL, "%s",
			     ord_error_last());
		ord_error_clear();
		err = ORD_EUSAGE;
	}
	free(refusal.key);
	free(refusal.word);
	free(specs);
	ord_kv_release(&fill);
	ord_buf_release(&why);
	return err;
}

int ord_phase_event_refused(struct ord_ctx *ctx, const struct ord_event_kind *ek,
			    const struct ord_kv *args, struct ord_buf *why)
{
	struct ord_ctx_refusal refusal = { NULL, NULL };
	struct ord_kv fill;
	int err;

	if (!ORD_RULESET_HAS(ctx->rs, 6) || !ctx->rs->event_defaults)
		return 0;
	/* as ord_phase_event_defaults_at asks it */
	ord_kv_init(&fill);
	err = ask_defaults(ctx, ek, args, &fill, &refusal);
	if (err)
		ord_buf_adds(why, ord_error_last());
	ord_error_clear();
	free(refusal.key);
	free(refusal.word);
	ord_kv_release(&fill);
	return err != 0;
}

/* One problem as the checks write it: "unit 'X': message (rule)", on a line. */
static void add_problem(struct ord_buf *out, const struct ord_diag_item *it)
{
	size_t i, end;

	if (*it->unit)
		ord_buf_addf(out, "unit '%s': ", it->unit);
	i = out->len;
	end = i + strlen(it->msg);
	ord_diag_item_format(out, it);
	/* on one line: the message's own line breaks become spaces */
	for (; i < end; i++)
		if (out->buf[i] == '\n')
			out->buf[i] = ' ';
}

size_t ord_phase_check_event(struct ord_ctx *ctx, const struct ord_event *ev,
			     struct ord_buf *checks, struct ord_diag *diag)
{
	size_t i, before = diag->n;

	if (ctx->rs->check_event)
		ctx->rs->check_event(ctx, ev, diag);
	for (i = before; i < diag->n; i++) {
		if (i > before)
			ord_buf_adds(checks, "; ");
		add_problem(checks, &diag->items[i]);
	}
	return diag->n - before;
}

int ord_phase_void_recheck(const struct ord_ruleset *rs, struct ord_rules *rules)
{
	const struct ord_tables *t;

	if (!ORD_RULESET_HAS(rs, 5) || !rs->tables || !rules || !(t = rs->tables(rules)))
		return 0;
	return ord_tables_switch(t, "void_recheck");
}

int ord_phase_impossible_replayed(const struct ord_ruleset *rs, struct ord_rules *rules)
{
	const struct ord_tables *t;

	if (!ORD_RULESET_HAS(rs, 5) || !rs->tables || !rules || !(t = rs->tables(rules)))
		return 0;
	return ord_tables_switch(t, "impossible_replayed");
}

/* A problem as the checks write it, its event numbers left out: a void may
 * take an event another's problem named ("already moved (event #4)"), and
 * the next earlier one is named instead. */
static void problem_key(struct ord_buf *out, const char *text)
{
	const char *p;

	ord_buf_reset(out);
	for (p = text; *p; p++) {
		ord_buf_addch(out, *p == '\n' ? ' ' : *p);
		if (*p == '#')
			while (p[1] >= '0' && p[1] <= '9')
				p++;
	}
}

/* Does ev, recorded with an override whose checks said recorded, break the
 * orders now in a way they did not say (a void took away what made one of
 * its problems the only one)? */
static int breaks_more(struct ord_ctx *ctx, const struct ord_event *ev, const char *recorded,
		       struct ord_buf *why)
{
	struct ord_buf have = ORD_BUF_INIT, one = ORD_BUF_INIT, key = ORD_BUF_INIT;
	struct ord_diag d;
	size_t k;
	int more = 0;

	ord_diag_init(&d);
	problem_key(&have, recorded);
	ord_phase_check_event(ctx, ev, &one, &d);
	for (k = 0; k < d.n && !more; k++) {
		ord_buf_reset(&one);
		add_problem(&one, &d.items[k]);
		problem_key(&key, one.buf);
		if (!strstr(have.buf, key.buf)) {
			more = 1;
			ord_buf_addf(why, "%s: %s, which its override did not answer", ev->kind,
				     one.buf);
		}
	}
	ord_diag_release(&d);
	ord_error_clear();
	ord_buf_release(&have);
	ord_buf_release(&one);
	ord_buf_release(&key);
	return more;
}

unsigned ord_phase_recheck_events(struct ord_ctx *ctx, struct ord_buf *why)
{
	struct held {
		unsigned seq;
		char *phase, *kind, *args, *override, *check;
	} * h;
	struct ord_buf b = ORD_BUF_INIT, checks = ORD_BUF_INIT;
	unsigned bad = 0;
	size_t i, n;

	ord_ctx_events_compact(ctx);
	n = ctx->nevents;
	h = ord_xcalloc(n + 1, sizeof(*h));
	for (i = 0; i < n; i++) {
		const struct ord_event *e = &ctx->events[i];
		ord_buf_reset(&b);
		ord_kv_serialize(&e->kv, &b);
		h[i].seq = e->seq;
		h[i].phase = ord_strdup(e->phase);
		h[i].kind = ord_strdup(e->kind);
		h[i].args = ord_strdup(b.buf);
		h[i].override = e->override ? ord_strdup(e->override) : NULL;
		h[i].check = ord_strdup(e->check ? e->check : "");
	}
	/* taken out, then added again one by one: each is checked with those
	 * before it alone, as the game checked it */
	for (i = 0; i < n; i++)
		ord_ctx_remove_event(ctx, h[i].seq);
	ord_ctx_events_compact(ctx);
	for (i = 0; i < n; i++) {
		const struct ord_event *e = ord_ctx_add_event(ctx, h[i].seq, h[i].phase, h[i].kind,
							      h[i].args, h[i].override, h[i].check);
		struct ord_diag d;

		if (bad)
			continue;
		if (h[i].override) {
			/* overridden for what its checks said then: not for more */
			if (breaks_more(ctx, e, h[i].check, why))
				bad = h[i].seq;
			continue;
		}
		ord_diag_init(&d);
		ord_buf_reset(&checks);
		if (ord_phase_check_event(ctx, e, &checks, &d)) {
			bad = h[i].seq;
			ord_buf_addf(why, "%s: %s", h[i].kind, checks.buf);
		}
		ord_diag_release(&d);
		ord_error_clear();
	}
	for (i = 0; i < n; i++) {
		free(h[i].phase);
		free(h[i].kind);
		free(h[i].args);
		free(h[i].override);
		free(h[i].check);
	}
	free(h);
	ord_buf_release(&b);
	ord_buf_release(&checks);
	return bad;
}

void ord_phase_events_digest(struct ord_ctx *ctx, unsigned char out[32])
{
	struct ord_buf a = ORD_BUF_INIT;
	struct ord_digest d;
	size_t i;

	ord_digest_init(&d, ORD_EVENTS_TAG);
	ord_ctx_events_compact(ctx);
	for (i = 0; i < ctx->nevents; i++) {
		const struct ord_event *e = &ctx->events[i];
		ord_buf_reset(&a);
		ord_kv_serialize(&e->kv, &a);
		ord_digest_event(&d, e->seq, e->kind, a.buf, e->override, e->check);
	}
	ord_digest_final(&d, out);
	ord_buf_release(&a);
}

void ord_phase_state_root(struct ord_ctx *ctx, unsigned char out[32])
{
	struct ord_buf b = ORD_BUF_INIT;
	struct ord_digest d;
	size_t i;

	ord_digest_init(&d, ORD_UNITS_TAG);
	for (i = 0; i < ctx->nunits; i++) {
		const struct ord_kv *st = &ctx->units[i].state;
		/* a unit whose state is the list of the unit before it (the
		 * pool shares a state among the units that hold it, and units
		 * of a kind stand together): its text is the one just written */
		if (!i || !st->items || st->items != ctx->units[i - 1].state.items ||
		    st->n != ctx->units[i - 1].state.n) {
			ord_buf_reset(&b);
			ord_kv_serialize(st, &b);
		}
		ord_digest_unit(&d, ctx->units[i].id, b.buf);
	}
	ord_digest_final(&d, out);
	ord_buf_release(&b);
}

void ord_phase_hold_text(struct ord_buf *out, const char *side, int turn, const char *policy)
{
	ord_buf_addf(out, "# no orders received from %s for turn %d: NMR policy %s, every unit holds\n",
		     side, turn, policy);
}

/* Why a sheet of turn cannot be repeated: the first problem of d, at its
 * line and column of the sheet (or the error, when d lists none). */
static void first_problem(struct ord_buf *out, int turn, const struct ord_diag *d)
{
	const struct ord_diag_item *it = d->n ? &d->items[0] : NULL;

	ord_buf_addf(out, "its sheet of turn %d is not valid now: ", turn);
	if (!it) {
		ord_buf_adds(out, ord_error_last());
		return;
	}
	if (it->line && it->col)
		ord_buf_addf(out, "sheet line %u, col %u: ", it->line, it->col);
	else if (it->line)
		ord_buf_addf(out, "sheet line %u: ", it->line);
	if (*it->unit && !ord_diag_names_unit(it))
		ord_buf_addf(out, "unit '%s': ", it->unit);
	ord_diag_item_format(out, it);
}

/* prev with the lines of held (1-based, nonzero: held) made comments, and
 * a comment line at the end counting them, into out. */
static void repeat_held(struct ord_buf *out, const char *side, int turn, const char *prev,
			size_t len, const unsigned char *held, size_t nheld)
{
	size_t i = 0, line = 1;

	while (i < len) {
		const char *nl = memchr(prev + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - prev) + 1 : len;
		if (held[line]) {
			/* a byte order mark stays first in the sheet */
			if (line == 1 && end - i >= 3 && !memcmp(prev, "\xef\xbb\xbf", 3)) {
				ord_buf_add(out, prev, 3);
				i += 3;
			}
			ord_buf_adds(out, "# held (not valid now): ");
		}
		ord_buf_add(out, prev + i, end - i);
		i = end;
		line++;
	}
	if (len && prev[len - 1] != '\n')
		ord_buf_addch(out, '\n');
	ord_buf_addf(out,
		     "# no orders received from %s for turn %d: NMR policy repeat, its sheet of turn %d repeated but %zu order%s not valid now, whose unit%s hold%s\n",
		     side, turn, turn - 1, nheld, nheld == 1 ? "" : "s", nheld == 1 ? "" : "s",
		     nheld == 1 ? "s" : "");
}

int ord_phase_repeat(struct ord_buf *out, struct ord_buf *why, const struct ord_notation *nt,
		     const char *side, int turn, const char *prev, size_t len, int per_order,
		     ord_phase_sheet_check check, void *ud)
{
	struct ord_buf cur = ORD_BUF_INIT, first = ORD_BUF_INIT, each = ORD_BUF_INIT;
	unsigned char *held;
	size_t nlines = 1, nheld = 0, i;
	int valid = 0, orders = 1;

	for (i = 0; i < len; i++)
		nlines += prev[i] == '\n';
	held = ord_xcalloc(nlines + 1, 1);
	ord_buf_add(&cur, prev, len);
	for (;;) {
		struct ord_diag d;
		size_t added = 0;

		ord_diag_init(&d);
		valid = !check(ud, cur.buf, cur.len, &d) && !d.n && !d.more;
		if (!valid && !first.len)
			first_problem(&first, turn - 1, &d);
		ord_error_clear();
		/* each line with a problem made a comment, while every problem
		 * has a line of its own not made one yet */
		for (i = 0; !valid && per_order && i < d.n; i++) {
			const struct ord_diag_item *it = &d.items[i];
			if (!it->line || it->line > nlines || held[it->line] == 1) {
				added = 0;
				break;
			}
			if (held[it->line]) /* a second problem of the line */
				continue;
			held[it->line] = 2; /* this round's */
			added++;
			ord_buf_addf(&each, "\n%s repeats its sheet of turn %d but ", side, turn - 1);
			if (*it->unit)
				ord_buf_addf(&each, "%s holds: ", it->unit);
			else
				ord_buf_adds(&each, "the order of a line holds: ");
			ord_buf_addf(&each, "sheet line %u", it->line);
			if (it->col)
				ord_buf_addf(&each, ", col %u", it->col);
			ord_buf_adds(&each, ": ");
			ord_diag_item_format(&each, it);
		}
		ord_diag_release(&d);
		if (valid || !added)
			break;
		for (i = 1; i <= nlines; i++)
			if (held[i] == 2) {
				held[i] = 1;
				nheld++;
			}
		ord_buf_reset(&cur);
		repeat_held(&cur, side, turn, prev, len, held, nheld);
	}
	if (valid && nheld && nt) {
		/* an order left to repeat, else the side holds */
		struct ord_sheet sheet;
		struct ord_diag d;
		ord_sheet_init(&sheet);
		ord_diag_init(&d);
		nt->parse(&sheet, cur.buf, cur.len, &d);
		ord_error_clear();
		orders = sheet.n > 0;
		ord_sheet_release(&sheet);
		ord_diag_release(&d);
	}
	if (valid && orders) {
		ord_buf_add(out, cur.buf, cur.len);
		if (why && each.len)
			ord_buf_addf(why, "%s", why->len ? each.buf : each.buf + 1);
	} else if (why) {
		ord_buf_addf(why, "%s%s holds: %s", why->len ? "\n" : "", side, first.buf);
	}
	free(held);
	ord_buf_release(&cur);
	ord_buf_release(&first);
	ord_buf_release(&each);
	return valid && orders;
}

/* given folded as a phase id is written: lower case, a space or an
 * underscore a hyphen, æ ø å as ae oe aa; 0 when it does not fit. */
static int fold_phase(const char *given, char *out, size_t size)
{
	static const struct {
		const char *utf8, *ascii;
	} letters[] = { { "\xc3\xa6", "ae" }, { "\xc3\x86", "ae" }, { "\xc3\xb8", "oe" },
			{ "\xc3\x98", "oe" }, { "\xc3\xa5", "aa" }, { "\xc3\x85", "aa" } };
	size_t n = 0, i;
	const char *p = given;

	while (*p) {
		const char *add = NULL;
		char one[2] = { 0, 0 };
		for (i = 0; i < ORD_ARRAY_SIZE(letters); i++)
			if (!strncmp(p, letters[i].utf8, 2)) {
				add = letters[i].ascii;
				p += 2;
				break;
			}
		if (!add) {
			unsigned char c = (unsigned char)*p++;
			one[0] = c == ' ' || c == '_' ? '-' : (char)tolower(c);
			add = one;
		}
		if (n + strlen(add) >= size)
			return 0;
		memcpy(out + n, add, strlen(add));
		n += strlen(add);
	}
	out[n] = '\0';
	return 1;
}

int ord_phase_named(const struct ord_ruleset *rs, const char *given, struct ord_buf *list)
{
	char folded[128];
	int k = 0;
	size_t i;

	for (i = 0; given && rs->phases[i]; i++)
		if (!strcmp(rs->phases[i], given))
			k = (int)i + 1;
	if (!k && given && fold_phase(given, folded, sizeof(folded)))
		for (i = 0; rs->phases[i]; i++)
			if (!strcmp(rs->phases[i], folded))
				k = (int)i + 1;
	for (i = 0; list && rs->phases[i]; i++)
		ord_buf_addf(list, "%s%s", i ? ", " : "", rs->phases[i]);
	return k;
}
