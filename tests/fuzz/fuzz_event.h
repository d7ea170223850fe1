/*
 * fuzz_event.c - the referee's key=value events: the generic check of
 * arguments against a ruleset's key specs (src/core/registry.c
 * ord_keys_check, with the battalion module's event kinds), then, for the
 * events that pass, the module's check against the sealed orders and the
 * resolution of the phase, on a context holding the example scenario's
 * units and the demo's turn-2 sheets (as `orderly event` and `orderly
 * resolve` do, without a game file).  A "calc WHAT" block runs the
 * calculator's own key=value checks instead (`orderly calc`).
 *
 * Input: blocks separated by an empty line, one per event, as an event
 * file with one word per line:
 *     fire            <- the kind (or "calc fire")
 *     unit=A1         <- key=value arguments, one per line
 *     target=F2
 *     range=2
 *
 * Checks, besides ASan/UBSan: ord_keys_check fails exactly when it adds a
 * problem; on success every required key is there and every value passes
 * the spec again; the module's check returns 0 or ORD_ECHECK (with a
 * reason); resolving never fails with an internal error.
 */
#include <string.h>

#include "fuzz.h"
#include "core/ctx.h"
#include "core/scenario.h"
#include "notation.h"
#include "ruleset.h"

#ifndef ORD_SOURCE_DIR
#error "ORD_SOURCE_DIR must name the source tree (the example scenario and sheets)"
#endif

#define MAX_EVENTS 16
#define MAX_WORDS 64

struct fuzz_unit {
	char *id, *name, *side, *attrs, *state;
};

static const struct ord_ruleset *rs;
static struct ord_rules *rules;
static struct fuzz_unit *units;
static size_t nunits;
static char *sheet_text[2];
static size_t sheet_len[2];
static const char *const sheet_side[2] = { "french", "allied" };

static char *slurp(const char *rel, size_t *len)
{
	char path[4096], *bytes = NULL;

	snprintf(path, sizeof(path), "%s/%s", ORD_SOURCE_DIR, rel);
	if (ord_read_file(&bytes, len, path, 1u << 20))
		fuzz_fail("cannot read %s: %s", path, ord_error_last());
	return bytes;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct ord_scenario sc;
	char *xml;
	size_t len, i;

	(void)argc;
	(void)argv;
	fuzz_modules();
	if (ord_ruleset_find(&rs, "battalion") || ord_ruleset_load_tables(&rules, rs, NULL))
		fuzz_fail("cannot load the battalion ruleset: %s", ord_error_last());
	xml = slurp("rulesets/battalion/examples/scenario.xml", &len);
	if (ord_scenario_load(&sc, xml, len, "scenario.xml") ||
	    ord_scenario_check_attrs(&sc, rs->unit_attrs, "scenario.xml"))
		fuzz_fail("the example scenario does not load: %s", ord_error_last());
	free(xml);
	units = ord_xcalloc(sc.nunits, sizeof(*units));
	for (i = 0; i < sc.nunits; i++) {
		struct ord_buf b = ORD_BUF_INIT;
		struct ord_diag diag;
		struct ord_unit u;

		memset(&u, 0, sizeof(u));
		u.id = sc.units[i].id;
		u.name = sc.units[i].name;
		u.side = sc.units[i].side;
		u.attrs = sc.units[i].attrs;
		ord_kv_init(&u.state);
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
	sheet_text[0] = slurp("rulesets/battalion/examples/demo/turn2-french.txt", &sheet_len[0]);
	sheet_text[1] = slurp("rulesets/battalion/examples/demo/turn2-allied.txt", &sheet_len[1]);
	return 0;
}

/* A context as ord_game_load_ctx builds one for turn 2 of the demo. */
static void build_ctx(struct ord_ctx *ctx)
{
	const struct ord_notation *nt = NULL;
	size_t i;

	ord_notation_find(&nt, rs->notation);

	ord_ctx_init(ctx, rs, rules, 2);
	for (i = 0; i < nunits; i++)
		ord_ctx_add_unit(ctx, units[i].id, units[i].name, units[i].side, units[i].attrs,
				 units[i].state);
	ord_ctx_index(ctx);
	for (i = 0; i < 2; i++) {
		struct ord_sheet sheet;
		struct ord_diag diag;

		ord_sheet_init(&sheet);
		ord_diag_init(&diag);
		if (nt->parse(&sheet, sheet_text[i], sheet_len[i], &diag))
			fuzz_fail("the demo sheet of %s does not parse", sheet_side[i]);
		ord_ctx_attach_sheet(ctx, &sheet, sheet_side[i]);
		ord_diag_release(&diag);
	}
	ctx->have_key = 1;
	memset(ctx->dice_key, 0x5a, sizeof(ctx->dice_key));
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *blocks[MAX_EVENTS][MAX_WORDS];
	int nwords[MAX_EVENTS];
	const char *phase = NULL;
	struct ord_ctx ctx;
	char *text;
	size_t nb, b, i;
	unsigned seq = 0;

	if (!rs)
		LLVMFuzzerInitialize(NULL, NULL);
	if (size > 65536)
		return 0;
	/* words are C strings: a NUL ends the input as it ends an argument */
	text = ord_xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	nb = split(text, blocks, nwords);
	build_ctx(&ctx);
	for (b = 0; b < nb; b++) {
		const struct ord_event_kind *ek;
		const struct ord_key_spec *ks;
		struct ord_event *ev;
		struct ord_diag diag, cd;
		struct ord_buf args = ORD_BUF_INIT;
		struct ord_kv kv;
		int rc;

		if (!strncmp(blocks[b][0], "calc ", 5)) {
			run_calc(blocks[b][0] + 5, nwords[b] - 1, blocks[b] + 1);
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
		/* a phase's events: the first valid one chooses the phase */
		if (!phase)
			phase = ek->phase;
		if (strcmp(phase, ek->phase))
			goto next;
		ctx.phase = phase;
		ord_kv_serialize(&kv, &args);
		ev = ord_ctx_add_event(&ctx, ++seq, phase, ek->name, args.buf, NULL, NULL);
		if (rs->check_event) {
			rc = rs->check_event(&ctx, ev, &cd);
			fuzz_assert(rc == 0 || rc == ORD_ECHECK, "check_event returned %d", rc);
			fuzz_assert((rc == 0) == (cd.n == 0),
				    "check_event returned %d with %zu reasons", rc, cd.n);
		}
	next:
		ord_kv_release(&kv);
		ord_diag_release(&diag);
		ord_diag_release(&cd);
		ord_buf_release(&args);
	}
	if (phase && rs->resolve_phase) {
		struct ord_buf st = ORD_BUF_INIT;
		int rc;

		ctx.phase = phase;
		rc = rs->resolve_phase(&ctx, phase);
		fuzz_assert(rc != ORD_ERROR, "resolving %s: internal error: %s", phase,
			    ord_error_last());
		for (i = 0; i < ctx.nunits; i++) {
			ord_buf_reset(&st);
			(void)ord_ctx_unit_changed(&ctx, i, &st);
		}
		ord_buf_release(&st);
	}
	ord_ctx_release(&ctx);
	free(text);
	return 0;
}
