/*
 * template.c - a ruleset module written to be copied (like SQLite's
 * ext/misc/templatevtab.c).  It is compiled into orderly and tested, so it
 * stays true to the interface.  To write a module for your rules:
 *
 *   1. Copy this directory to rulesets/<name>/ and rename every `tpl_` and
 *      `template` to your name.
 *   2. List the phases of your turn in `phases`, the attributes a scenario
 *      gives each unit in `unit_attrs`, and the events your referee records
 *      in `events` (each with its keys: the core checks types and ranges).
 *   3. Put every number of your rules in a tables XML (see
 *      rulesets/battalion/tables.xml and schema/tables.rng) and load it in
 *      `load` with ord_tables_load(); never write a rule's number in C.
 *   4. Check sheets in `validate_sheet`, events in `check_event`, and
 *      resolve phases in `resolve_phase` with ord_ctx_roll() and
 *      ord_ctx_result(); change units only through their state.
 *   5. Either add your module to the table in rulesets/builtin.c, or build
 *      it as a shared object ord_ruleset_<name>.so exporting
 *      ord_ruleset_<name>_init() (below) and put its directory in
 *      ORDERLY_RULESET_PATH.
 *
 * This template knows one unit attribute (strength), one phase ("action")
 * with one event ("hit unit=X"), and orders in the hieroglyph notation.  A
 * hit rolls a d6 and takes that many points of strength.
 */
#include <stdlib.h>
#include <string.h>

#include "ruleset.h"

/* The module's loaded data; a real module keeps its tables here. */
struct ord_rules {
	int loaded; /* 1 once load ran */
};

static const char *const tpl_phases[] = { "action", NULL };

static const struct ord_key_spec tpl_attrs[] = {
	{ "strength", ORD_KEY_INT, 1, NULL, 1, 1000, NULL, "points of strength" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static const struct ord_key_spec tpl_hit_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit hit" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static const struct ord_event_kind tpl_events[] = {
	{ "hit", "action", tpl_hit_keys, "a unit is hit: it loses a d6 of strength" },
	{ NULL, NULL, NULL, NULL },
};

static int tpl_load(struct ord_rules **out, const char *xml, size_t len, const char *name)
{
	(void)xml;
	(void)len;
	(void)name;
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return ord_error_set(ORD_ERROR, "out of memory");
	(*out)->loaded = 1;
	return 0;
}

static void tpl_free(struct ord_rules *rules)
{
	free(rules);
}

static int tpl_init_unit(struct ord_rules *rules, struct ord_unit *u, struct ord_diag *diag)
{
	(void)rules;
	(void)diag;
	ord_kv_set(&u->state, "strength", ord_kv_get(&u->attrs, "strength"));
	return 0;
}

/* Every order must name a unit of the submitting side, once. */
static int tpl_validate_sheet(struct ord_ctx *ctx, const struct ord_sheet *sheet, struct ord_diag *diag)
{
	size_t i, j;

	for (i = 0; i < sheet->n; i++) {
		const struct ord_order *o = &sheet->orders[i];
		struct ord_unit *u = ord_ctx_find_unit(ctx, o->unit);

		if (!u)
			ord_diag_add(diag, o->line, o->col, o->unit, NULL, "unknown unit '%s'",
				     o->unit);
		else if (strcmp(u->side, ord_ctx_side(ctx)))
			ord_diag_add(diag, o->line, o->col, o->unit, NULL,
				     "unit '%s' belongs to side %s", u->id, u->side);
		for (j = 0; j < i; j++)
			if (u && ord_ctx_find_unit(ctx, sheet->orders[j].unit) == u)
				ord_diag_add(diag, o->line, o->col, o->unit, NULL,
					     "second order for unit '%s'", u->id);
	}
	return diag->n ? ORD_EBADSHEET : 0;
}

/* A unit may be hit only if it has strength left. */
static int tpl_check_event(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *diag)
{
	struct ord_unit *u = ord_ctx_find_unit(ctx, ord_kv_get(&ev->kv, "unit"));

	if (u && ord_kv_get_int(&u->state, "strength", 0) <= 0) {
		ord_diag_add(diag, 0, 0, u->id, "template", "unit '%s' has no strength left", u->id);
		return ORD_ECHECK;
	}
	return 0;
}

static int tpl_resolve_phase(struct ord_ctx *ctx, const char *phase)
{
	size_t i;

	(void)phase;
	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *u = ord_ctx_find_unit(ctx, ord_kv_get(&e->kv, "unit"));
		long s;
		int die, err;

		if ((err = ord_ctx_roll(ctx, &die, 6, "hit", e->seq, 0)) != 0)
			return err;
		s = ord_kv_get_int(&u->state, "strength", 0) - die;
		ord_kv_set_int(&u->state, "strength", s < 0 ? 0 : s);
		ord_ctx_result(ctx, e->seq, u->id, NULL, "hit: d6 = %d, strength %ld left", die,
			       s < 0 ? 0 : s);
	}
	return 0;
}

static int tpl_describe_unit(struct ord_ctx *ctx, const struct ord_unit *u, const char *viewer,
			     struct ord_buf *out)
{
	(void)ctx;
	ord_buf_addf(out, "%s %s (%s)", u->id, u->name, u->side);
	/* fog of war: only the owner and the referee see the strength */
	if (!viewer || !strcmp(viewer, u->side))
		ord_buf_addf(out, ": strength %s", ord_kv_get(&u->state, "strength"));
	return 0;
}

const struct ord_ruleset ord_ruleset_template = {
	ORD_RULESET_VERSION, /* version */
	"template",          /* name */
	"hieroglyph",        /* notation */
	tpl_phases,          /* phases */
	tpl_attrs,           /* unit_attrs */
	tpl_events,          /* events */
	NULL,                /* tables_resource: this template has no tables */
	tpl_load,            /* load */
	tpl_free,            /* free */
	tpl_init_unit,       /* init_unit */
	tpl_validate_sheet,  /* validate_sheet */
	tpl_check_event,     /* check_event */
	tpl_resolve_phase,   /* resolve_phase */
	NULL,                /* check_execution */
	tpl_describe_unit,   /* describe_unit */
	NULL,                /* calc */
	NULL,                /* print_tables */
	/* version 2 */
	NULL, /* draw: pictures on the core's canvas (canvas.h); optional */
};

/* The entry point of the same module built as a shared object
 * (tests/unit/ builds one to test dlopen loading). */
const struct ord_ruleset *ord_ruleset_template_init(unsigned int version);
const struct ord_ruleset *ord_ruleset_template_init(unsigned int version)
{
	(void)version;
	return &ord_ruleset_template;
}
