/*
 * fuzz_event.h - the referee's key=value events through a ruleset, the
 * checks every event target makes (fuzz_event.c: battalion,
 * fuzz_ks_event.c: krigsspil).  Each event is checked as `orderly event`
 * does it, without a game file: its arguments against the ruleset's key
 * specs (src/core/registry.c ord_keys_check), its units looked up and
 * written by id, then the module's check against the sealed orders of the
 * game's demo sheets; then the phases are resolved in the ruleset's order
 * as `orderly resolve` does (src/core/phase.c ord_phase_run), on a context
 * holding the example scenario's units as they start and those sheets.  An
 * event the check refuses stays in the phase, as the referee's --override
 * keeps it: resolving must cope with it.  A "calc WHAT" block runs the
 * calculator's own key=value checks instead (`orderly calc`).
 *
 * Input: blocks separated by an empty line, one per event, as an event
 * file with one word per line:
 *     fire            <- the kind (or "calc fire")
 *     unit=A1         <- key=value arguments, one per line
 *     target=F2
 *     range=2
 * Every turn begins with the ruleset's first phase; an event of a phase
 * after the current one first resolves the current phase and every one
 * between (as a referee who resolves them empty); an event of a phase
 * already resolved is left out.  A block "turn" resolves
 * the rest of the turn and starts the next from the states it left, with
 * the same sheets (at most MAX_TURNS turns).  At the end the phase reached
 * is resolved.
 *
 * Checks, besides ASan/UBSan: ord_keys_check fails exactly when it adds a
 * problem; on success every required key is there and every value passes
 * the spec again; the module's check returns 0 or ORD_ECHECK (with a
 * reason); resolving a phase never fails with an internal error (ORD_ERROR:
 * a state key the module did not declare is one) and leaves every unit's
 * state a list the next phase reads; the input played a second time gives
 * the same checks and every phase the same rows (its digest), as the
 * audit's replay relies on.
 *
 * FUZZ_EVENT_VERBOSE=1 in the environment prints what each event's check
 * said and what each phase gave (for writing seeds that reach the rules).
 */
#ifndef ORD_FUZZ_EVENT_H
#define ORD_FUZZ_EVENT_H

#include <string.h>

#include "fuzz.h"
#include "core/ctx.h"
#include "core/phase.h"
#include "core/scenario.h"
#include "notation.h"
#include "ruleset.h"

#ifndef ORD_SOURCE_DIR
#error "ORD_SOURCE_DIR must name the source tree (the example scenario and sheets)"
#endif

#define MAX_EVENTS 48
#define MAX_WORDS 64
#define MAX_TURNS 4
#define MAX_PHASES 16 /* of a turn, at most */

/* What a play gave: each phase's digest (ord_phase_digest, as the resolve
 * entry logs it) and each event check's problems, in order. */
struct trace {
	unsigned char digest[MAX_TURNS * MAX_PHASES][32];
	size_t ndigests;
	size_t checks[MAX_EVENTS];
	size_t nchecks;
};

/* What a target plays on: paths under the source tree. */
struct fuzz_event_game {
	const char *ruleset;
	const char *scenario;
	const char *tables; /* NULL: the ruleset's built-in tables */
	int turn;
	const char *sides[2];  /* whose sheets... */
	const char *sheets[2]; /* ...these are */
};

struct fuzz_unit {
	char *id, *name, *side, *attrs, *state;
};

static const struct fuzz_event_game *game;
static const struct ord_ruleset *rs;
static struct ord_rules *rules;
static struct fuzz_unit *units;
static size_t nunits;
static char *sheet_text[2];
static size_t sheet_len[2];

static char *slurp(const char *rel, size_t *len)
{
	char path[4096], *bytes = NULL;

	snprintf(path, sizeof(path), "%s/%s", ORD_SOURCE_DIR, rel);
	if (ord_read_file(&bytes, len, path, 1u << 20))
		fuzz_fail("cannot read %s: %s", path, ord_error_last());
	return bytes;
}

/* The tables as a new game keeps them (complete_tables), loaded. */
static void load_rules(void)
{
	struct ord_buf whole = ORD_BUF_INIT;
	char *xml;
	size_t len;
	int rc;

	if (!game->tables) {
		if (ord_ruleset_load_tables(&rules, rs, NULL))
			fuzz_fail("cannot load the %s tables: %s", game->ruleset, ord_error_last());
		return;
	}
	xml = slurp(game->tables, &len);
	if (rs->complete_tables && rs->complete_tables(xml, len, game->tables, &whole))
		fuzz_fail("%s: cannot be completed: %s", game->tables, ord_error_last());
	rc = whole.len ? rs->load(&rules, whole.buf, whole.len, game->tables)
		       : rs->load(&rules, xml, len, game->tables);
	if (rc)
		fuzz_fail("%s does not load: %s", game->tables, ord_error_last());
	free(xml);
	ord_buf_release(&whole);
}

static void fuzz_event_setup(const struct fuzz_event_game *g)
{
	struct ord_scenario sc;
	char *xml;
	size_t len, i;

	if (game)
		return;
	game = g;
	fuzz_modules();
	if (ord_ruleset_find(&rs, g->ruleset))
		fuzz_fail("no ruleset %s: %s", g->ruleset, ord_error_last());
	load_rules();
	xml = slurp(g->scenario, &len);
	if (ord_scenario_load(&sc, xml, len, g->scenario) ||
	    ord_scenario_check_attrs(&sc, rs->unit_attrs, NULL, g->scenario))
		fuzz_fail("the example scenario does not load: %s", ord_error_last());
	free(xml);
	units = ord_xcalloc(sc.nunits, sizeof(*units));
	for (i = 0; i < sc.nunits; i++) {
		struct ord_buf b = ORD_BUF_INIT;
		struct ord_diag diag;
		struct ord_unit u;

		fuzz_unit_of(&u, &sc.units[i]);
		ord_diag_init(&diag);
		if (rs->init_unit && rs->init_unit(rules, &u, &diag))
			fuzz_fail("unit %s does not start: %s", u.id, ord_error_last());
		ord_diag_release(&diag);
		units[i].id = ord_strdup(u.id);
		units[i].name = ord_strdup(u.name);
		units[i].side = ord_strdup(u.side);
		ord_kv_serialize(&u.attrs, &b);
		units[i].attrs = ord_buf_detach(&b, NULL);
		ord_kv_serialize(&u.state, &b);
		units[i].state = ord_buf_detach(&b, NULL);
		ord_kv_release(&u.state);
	}
	nunits = sc.nunits;
	ord_scenario_release(&sc);
	for (i = 0; i < 2; i++)
		sheet_text[i] = slurp(g->sheets[i], &sheet_len[i]);
}

/* A context as ord_game_load_ctx builds one for a turn: the units as they
 * start, or with the states a turn before left (states, NULL: as they
 * start). */
static void build_ctx(struct ord_ctx *ctx, int turn, char *const *states)
{
	const struct ord_notation *nt = NULL;
	size_t i;

	ord_notation_find(&nt, rs->notation);

	ord_ctx_init(ctx, rs, rules, turn);
	for (i = 0; i < nunits; i++)
		ord_ctx_add_unit(ctx, units[i].id, units[i].name, units[i].side, units[i].attrs,
				 states ? states[i] : units[i].state);
	ord_ctx_index(ctx);
	for (i = 0; i < 2; i++) {
		struct ord_sheet sheet;
		struct ord_diag diag;

		ord_sheet_init(&sheet);
		ord_diag_init(&diag);
		if (nt->parse(&sheet, sheet_text[i], sheet_len[i], &diag))
			fuzz_fail("the demo sheet of %s does not parse", game->sides[i]);
		ord_ctx_attach_sheet(ctx, &sheet, game->sides[i]);
		ord_diag_release(&diag);
	}
}

static void check_keys_result(const struct ord_key_spec *specs, const struct ord_kv *kv, int rc,
			      size_t problems)
{
	const struct ord_key_spec *s;
	struct ord_buf why = ORD_BUF_INIT;

	fuzz_assert(rc == 0 || rc == ORD_EUSAGE, "ord_keys_check returned %d", rc);
	fuzz_assert((rc == 0) == (problems == 0), "ord_keys_check returned %d with %zu problems",
		    rc, problems);
	if (rc)
		return;
	for (s = specs; s->name; s++) {
		const char *v = ord_kv_get(kv, s->name);
		if (s->required)
			fuzz_assert(v, "required key '%s' missing after a clean check", s->name);
		if (v) {
			ord_buf_reset(&why);
			fuzz_assert(!ord_key_check_value(s, v, &why),
				    "'%s=%s' accepted, then refused", s->name, v);
		}
	}
	ord_buf_release(&why);
}

static void run_calc(const char *what, int argc, char **argv)
{
	struct ord_buf out = ORD_BUF_INIT;
	struct ord_kv kv;
	int dice[8], i, rc;
	size_t ndice = 0;

	if (!rs->calc)
		return;
	ord_kv_init(&kv);
	for (i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		if (!strncmp(argv[i], "dice=", 5)) {
			char *p = argv[i] + 5, *e;

			while (*p && ndice < ORD_ARRAY_SIZE(dice)) {
				long v = strtol(p, &e, 10);
				if (e == p)
					break;
				dice[ndice++] = v < -1000 ? -1000 : v > 1000 ? 1000 : (int)v;
				p = e + strspn(e, ",");
			}
			continue;
		}
		if (eq && eq != argv[i]) {
			char key[256];
			size_t kl = (size_t)(eq - argv[i]);
			if (kl >= sizeof(key))
				continue;
			memcpy(key, argv[i], kl);
			key[kl] = '\0';
			ord_kv_set(&kv, key, eq + 1);
		}
	}
	rc = rs->calc(rules, what, &kv, ndice ? dice : NULL, ndice, (int)(argc & 1), &out);
	fuzz_assert(rc == 0 || rc == ORD_EUSAGE || rc == ORD_ENOTFOUND, "calc %s returned %d: %s",
		    what, rc, ord_error_last());
	fuzz_assert(rc != 0 || out.len > 0, "calc %s answered nothing", what);
	ord_kv_release(&kv);
	ord_buf_release(&out);
}

/* Split text into blocks of lines (words); returns the number of blocks. */
static size_t split(char *text, char *blocks[MAX_EVENTS][MAX_WORDS], int nwords[MAX_EVENTS])
{
	size_t nb = 0;
	char *p = text;

	nwords[0] = 0;
	while (p) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = '\0';
		if (!*p) {
			if (nwords[nb]) {
				if (++nb == MAX_EVENTS)
					return nb;
				nwords[nb] = 0;
			}
		} else if (nwords[nb] < MAX_WORDS) {
			blocks[nb][nwords[nb]++] = p;
		}
		p = nl ? nl + 1 : NULL;
	}
	return nwords[nb] ? nb + 1 : nb;
}

/* The phase's index in the ruleset's turn, or -1. */
static int phase_index(const char *phase)
{
	int i;

	for (i = 0; rs->phases && rs->phases[i]; i++)
		if (!strcmp(rs->phases[i], phase))
			return i;
	return -1;
}

/* Resolve the current phase as `orderly resolve` does; the next one starts
 * from what it left. */
static void resolve(struct ord_ctx *ctx, int index, struct trace *tr)
{
	static const unsigned char key[32] = { 0x5a, 0x17, 0xc3 };
	struct ord_phase_dice dice = { 0, NULL, 0, key, 1 };
	struct ord_buf st = ORD_BUF_INIT;
	struct ord_kv again;
	size_t i;
	int rc;

	rc = ord_phase_run(ctx, rs->phases[index], &dice);
	fuzz_assert(rc != ORD_ERROR, "resolving %s: internal error: %s", rs->phases[index],
		    ord_error_last());
	if (tr->ndigests < ORD_ARRAY_SIZE(tr->digest)) {
		int nrolls, nresults, nstates;

		ord_phase_digest(ctx, ctx->turn, index + 1, tr->digest[tr->ndigests++], &nrolls,
				 &nresults, &nstates);
	}
	if (getenv("FUZZ_EVENT_VERBOSE")) {
		fprintf(stderr, "phase %s: %d, %zu events, %zu rolls, %zu results\n",
			rs->phases[index], rc, ctx->nevents, ctx->nrolls, ctx->nresults);
		for (i = 0; i < ctx->nresults; i++)
			fprintf(stderr, "  %s: %s\n", ctx->results[i].unit,
				ctx->results[i].explanation);
	}
	for (i = 0; i < ctx->nunits; i++) {
		ord_buf_reset(&st);
		(void)ord_ctx_unit_changed(ctx, i, &st);
		ord_kv_init(&again);
		fuzz_assert(ord_kv_parse(&again, st.buf) == 0,
			    "unit %s: its state after %s does not read again: %s", ctx->units[i].id,
			    rs->phases[index], st.buf);
		ord_kv_release(&again);
	}
	ord_buf_release(&st);
	ord_ctx_next_phase(ctx);
}

/* The rest of ctx's turn resolved from phase current on, then the next
 * turn begun from the states it left. */
static void next_turn(struct ord_ctx *ctx, int current, struct trace *tr)
{
	struct ord_buf st = ORD_BUF_INIT;
	char **states = ord_xcalloc(nunits, sizeof(*states));
	int turn = ctx->turn, i;
	size_t u;

	for (i = current; rs->phases[i]; i++)
		resolve(ctx, i, tr);
	fuzz_assert(ctx->nunits == nunits, "%zu units after the turn, %zu before", ctx->nunits, nunits);
	for (u = 0; u < nunits; u++) {
		ord_buf_reset(&st);
		(void)ord_ctx_unit_changed(ctx, u, &st);
		states[u] = ord_strdup(st.buf);
	}
	ord_ctx_release(ctx);
	build_ctx(ctx, turn + 1, states);
	for (u = 0; u < nunits; u++)
		free(states[u]);
	free(states);
	ord_buf_release(&st);
}

/* One play of the input's events. */
static void play(const uint8_t *data, size_t size, struct trace *tr)
{
	char *blocks[MAX_EVENTS][MAX_WORDS];
	int nwords[MAX_EVENTS];
	int current = 0; /* the phase events go to: every turn begins with its first */
	struct ord_ctx ctx;
	char *text;
	size_t nb, b;
	unsigned seq = 0;
	int turns = 1;

	memset(tr, 0, sizeof(*tr));
	/* words are C strings: a NUL ends the input as it ends an argument */
	text = ord_xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	nb = split(text, blocks, nwords);
	build_ctx(&ctx, game->turn, NULL);
	for (b = 0; b < nb; b++) {
		const struct ord_event_kind *ek;
		const struct ord_key_spec *ks;
		struct ord_event *ev;
		struct ord_diag diag, cd;
		struct ord_buf args = ORD_BUF_INIT;
		struct ord_kv kv;
		int rc, at;

		if (!strncmp(blocks[b][0], "calc ", 5)) {
			run_calc(blocks[b][0] + 5, nwords[b] - 1, blocks[b] + 1);
			continue;
		}
		if (!strcmp(blocks[b][0], "turn")) {
			if (turns < MAX_TURNS) {
				next_turn(&ctx, current, tr);
				turns++;
				current = 0;
				seq = 0;
			}
			continue;
		}
		ek = ord_ruleset_event_kind(rs, blocks[b][0]);
		if (!ek)
			continue;
		ord_kv_init(&kv);
		ord_diag_init(&diag);
		ord_diag_init(&cd);
		rc = ord_keys_check(&kv, ek->keys, nwords[b] - 1, blocks[b] + 1, &diag);
		check_keys_result(ek->keys, &kv, rc, diag.n);
		if (rc)
			goto next;
		/* as ord_game_event: units must exist, and are stored by id */
		for (ks = ek->keys; ks->name; ks++)
			if (ks->type == ORD_KEY_UNIT && ord_kv_get(&kv, ks->name) &&
			    !ord_ctx_find_unit(&ctx, ord_kv_get(&kv, ks->name)))
				goto next;
		for (ks = ek->keys; ks->name; ks++)
			if (ks->type == ORD_KEY_UNIT && ord_kv_get(&kv, ks->name))
				ord_kv_set(&kv, ks->name,
					   ord_ctx_find_unit(&ctx, ord_kv_get(&kv, ks->name))->id);
		/* the phases in the ruleset's order: a later one resolves those
		 * before it, an earlier one is over */
		at = phase_index(ek->phase);
		fuzz_assert(at >= 0, "event kind %s of no phase of the ruleset (%s)", ek->name,
			    ek->phase);
		if (at < current)
			goto next;
		while (current < at)
			resolve(&ctx, current++, tr);
		ctx.phase = rs->phases[current];
		ord_kv_serialize(&kv, &args);
		ev = ord_ctx_add_event(&ctx, ++seq, ctx.phase, ek->name, args.buf, NULL, NULL);
		if (rs->check_event) {
			rc = rs->check_event(&ctx, ev, &cd);
			fuzz_assert(rc == 0 || rc == ORD_ECHECK, "check_event returned %d", rc);
			fuzz_assert((rc == 0) == (cd.n == 0),
				    "check_event returned %d with %zu reasons", rc, cd.n);
		}
		tr->checks[tr->nchecks++] = cd.n;
		if (getenv("FUZZ_EVENT_VERBOSE")) {
			size_t k;

			fprintf(stderr, "%s %s: %zu problem(s)\n", ek->name, args.buf, cd.n);
			for (k = 0; k < cd.n; k++)
				fprintf(stderr, "  %s\n", cd.items[k].msg);
		}
	next:
		ord_kv_release(&kv);
		ord_diag_release(&diag);
		ord_diag_release(&cd);
		ord_buf_release(&args);
	}
	resolve(&ctx, current, tr);
	ord_ctx_release(&ctx);
	free(text);
}

/* The input played twice: the same events, sheets, states and dice must
 * give the same checks and the same rows, as the audit's replay of a
 * resolved phase relies on (a module that read memory it did not set, or
 * depended on where its allocations landed, would differ). */
static int fuzz_events(const uint8_t *data, size_t size)
{
	static struct trace first, second;
	size_t i;

	if (size > 65536)
		return 0;
	play(data, size, &first);
	play(data, size, &second);
	fuzz_assert(first.nchecks == second.nchecks, "%zu event checks, then %zu", first.nchecks,
		    second.nchecks);
	for (i = 0; i < first.nchecks; i++)
		fuzz_assert(first.checks[i] == second.checks[i], "event %zu: %zu problems, then %zu",
			    i + 1, first.checks[i], second.checks[i]);
	fuzz_assert(first.ndigests == second.ndigests, "%zu phases resolved, then %zu",
		    first.ndigests, second.ndigests);
	for (i = 0; i < first.ndigests; i++)
		fuzz_assert(!memcmp(first.digest[i], second.digest[i], 32),
			    "phase %zu resolved twice from the same events gave other rows", i + 1);
	return 0;
}

/* A target's two entry points, playing on game g (a struct fuzz_event_game). */
#define FUZZ_EVENT_TARGET(g)                                         \
	int LLVMFuzzerInitialize(int *argc, char ***argv)            \
	{                                                            \
		(void)argc;                                          \
		(void)argv;                                          \
		fuzz_event_setup(&(g));                              \
		return 0;                                            \
	}                                                            \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) \
	{                                                            \
		fuzz_event_setup(&(g));                              \
		return fuzz_events(data, size);                      \
	}

#endif
