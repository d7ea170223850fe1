/*
 * template.c - a ruleset module written to be copied, like SQLite's
 * ext/misc/templatevtab.c: a whole, small game read from top to bottom.
 * It is built as an external module (ord_ruleset_template.so, CMakeLists.txt)
 * that links nothing of orderly: every ord_* function it calls is found in
 * the orderly binary when ORDERLY_RULESET_PATH names the module's directory.
 * tests/e2e/test_template.sh plays a whole turn with it, asks its calculator
 * and prints its tables, so it stays true to the interface (src/ruleset.h).
 *
 * The game: units of foot or horse with a strength.  Each turn a unit may
 * move (an arrow on its sheet) and attack one enemy (@TARGET on its sheet).
 * In the movement phase the referee records how far each unit moved; in
 * the combat phase which unit hit which, and the module rolls a die for
 * each hit, adjusts it, and reads the losses from a table.  Every number
 * is in tables.xml.
 *
 * To write a module for your rules, copy this directory to rulesets/NAME/
 * and follow the steps below (each is marked STEP n in this file):
 *
 *   1. Rename: `template` to NAME, the prefix `tpl_` to yours, and the
 *      entry point ord_ruleset_template_init to ord_ruleset_NAME_init.
 *   2. Declare the game: the phases of a turn, the attributes a scenario
 *      gives each unit, the events the referee records in each phase (the
 *      core checks their keys, types and ranges before you see them).
 *   3. Declare the unit state: every key you keep for a unit, with its
 *      type and default.  You read and write it only with ord_state_*;
 *      a key you did not declare fails the turn with its name.
 *   4. Put every number of your rules in tables.xml, and say in `needs`
 *      what your C reads, so that a club's edited tables fail when they
 *      are loaded, naming what is missing, not in the middle of a turn.
 *   5. Check a sheet (validate_sheet) and each event against the sealed
 *      orders (check_event): problems go to the diag with their line.
 *   6. Resolve each phase: roll only with ord_ctx_roll (the same identity
 *      gives the same face: audits recompute it), read the tables, change
 *      the state, and explain every result with ord_ctx_result.
 *   7. After the exchange, list what was ordered but not done
 *      (check_execution), as the kinds of event an order still waits for
 *      (order_events: its phase is then not resolved empty unless the
 *      referee names it), and describe a unit as a side may see it
 *      (describe_unit: fog of war).
 *   8. Offer the tables as a calculator through the core's driver
 *      (ord_calc_run), print them (print_tables), and hand them to the
 *      core (tables), which checks a club's copy against yours.
 *   9. Fill the struct, slot by slot, and export the entry point.
 *
 * In rulesets/template/ beside this file: tables.xml (the numbers) and
 * scenario.xml (a small battle to play it with).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleset.h"
#include "tables.h"

/* The module's struct, defined at the end (STEP 9); ord_state_init needs it. */
static const struct ord_ruleset tpl_ruleset;

/* ---- STEP 2: the game ---------------------------------------------------- */

static const char *const tpl_phases[] = { "movement", "combat", NULL };

static const struct ord_key_spec tpl_attrs[] = {
	{ "kind", ORD_KEY_ENUM, 1, "foot|horse", 0, 0, NULL, "foot or horse (table kinds)" },
	{ "strength", ORD_KEY_INT, 1, NULL, 1, 1000, NULL, "points of strength at the start" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static const struct ord_key_spec tpl_move_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit that moved" },
	{ "distance", ORD_KEY_NUM, 1, NULL, 0, 1000, NULL, "inches measured on the table" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static const struct ord_key_spec tpl_hit_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the attacking unit" },
	{ "target", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit it hit" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static const struct ord_event_kind tpl_events[] = {
	{ "move", "movement", tpl_move_keys, "a unit moved (distance measured on the table)" },
	{ "hit", "combat", tpl_hit_keys, "a unit attacked its target" },
	{ NULL, NULL, NULL, NULL },
};

/* ---- STEP 3: the unit state ---------------------------------------------- */

/* Step: the languages your texts are written in, your rules' own first.
 * A result in several goes through ord_ctx_result_texts, a report's text
 * through ord_texts_add; one language needs neither. */
static const char *const tpl_languages[] = { "en", NULL };

static const struct ord_state_key tpl_state_keys[] = {
	{ "strength", ORD_KEY_INT, "0", "points of strength left" },
	{ "moved", ORD_KEY_INT, "0", "the turn it last moved (0: never)" },
	{ NULL, 0, NULL, NULL },
};

/* ---- STEP 4: the tables -------------------------------------------------- */

/* The module's loaded data (opaque to the core): the tables. */
struct ord_rules {
	struct ord_tables *tables; /* tables.xml, or a club's copy */
};

/* tables.xml, compiled into the module (CMakeLists.txt embeds it): a module
 * never reads a file itself. */
extern const unsigned char tpl_tables_xml[];
extern const size_t tpl_tables_xml_len;

/* What this file reads of the tables, checked when they are loaded. */
static const struct ord_tables_need_table tpl_need_tables[] = {
	{ "kinds", ORD_TABLE_CHART },
	{ "hit_modifiers", ORD_TABLE_MODIFIERS },
	{ "hits", ORD_TABLE_DICE },
};
static const char *const tpl_need_params[] = { "hit_die" };
static const struct ord_tables_need_field tpl_need_fields[] = {
	{ "kinds", "move", 0 },
	{ "hits", "losses", 0 },
};
static const struct ord_tables_needs tpl_needs = {
	"template",
	tpl_need_tables,
	ORD_ARRAY_SIZE(tpl_need_tables),
	tpl_need_params,
	ORD_ARRAY_SIZE(tpl_need_params),
	tpl_need_fields,
	ORD_ARRAY_SIZE(tpl_need_fields),
};

/* load: the tables the game was made with (xml), or the module's own
 * (xml NULL).  Errors name the document and line (the engine's). */
static int tpl_load(struct ord_rules **out, const char *xml, size_t len, const char *name)
{
	struct ord_tables *t = NULL;
	int err;

	*out = NULL;
	if (!xml) {
		xml = (const char *)tpl_tables_xml;
		len = tpl_tables_xml_len;
		name = "rulesets/template/tables.xml";
	}
	if ((err = ord_tables_load(&t, xml, len, name ? name : "tables")) != 0 ||
	    (err = ord_tables_require(t, &tpl_needs)) != 0) {
		ord_tables_free(t);
		return err;
	}
	*out = ord_xcalloc(1, sizeof(**out));
	(*out)->tables = t;
	return 0;
}

static void tpl_free(struct ord_rules *rules)
{
	if (!rules)
		return;
	ord_tables_free(rules->tables);
	free(rules);
}

/* A number ord_tables_require checked is there. */
static double tpl_param(const struct ord_rules *rules, const char *name)
{
	double v = 0;

	ord_tables_param(rules->tables, name, &v);
	return v;
}

/* The row of a kind in the chart kinds (NULL if none). */
static const struct ord_row *tpl_kind(const struct ord_rules *rules, const char *kind)
{
	const struct ord_row *row = NULL;
	struct ord_kv match;

	ord_kv_init(&match);
	ord_kv_set(&match, "kind", kind);
	if (ord_table_find(&row, ord_tables_get(rules->tables, "kinds"), &match))
		ord_error_clear();
	ord_kv_release(&match);
	return row;
}

/* The first state of a unit, from its scenario attributes.  A unit your
 * rules cannot play is refused here: ord_diag_add_attr(diag, u->id,
 * "strength", "units", "...") for each problem, and ORD_EBADDATA (`new`
 * then names the attribute's place in the scenario). */
static int tpl_init_unit(struct ord_rules *rules, struct ord_unit *u, struct ord_diag *diag)
{
	struct ord_kv init;
	int err;

	(void)rules;
	(void)diag;
	ord_kv_init(&init);
	ord_kv_set(&init, "strength", ord_kv_get(&u->attrs, "strength"));
	err = ord_state_init(&tpl_ruleset, u, &init);
	ord_kv_release(&init);
	return err;
}

/* ---- STEP 5: checking sheets and events ----------------------------------- */

static struct ord_unit *tpl_ev_unit(struct ord_ctx *ctx, const struct ord_event *ev, const char *key)
{
	return ord_ctx_find_unit(ctx, ord_kv_get(&ev->kv, key));
}

/* Every order names a unit of the submitting side, once; its target, if
 * it names one, is an enemy unit. */
static int tpl_validate_sheet(struct ord_ctx *ctx, const struct ord_sheet *sheet, struct ord_diag *diag)
{
	const char *side = ord_ctx_side(ctx);
	unsigned *seen = ord_xcalloc(ord_ctx_nunits(ctx) + 1, sizeof(*seen));
	size_t i, before = ord_diag_count(diag); /* not n: past the cap items are only counted */

	for (i = 0; i < sheet->n; i++) {
		const struct ord_order *o = &sheet->orders[i];
		struct ord_unit *u = ord_ctx_find_unit(ctx, o->unit);
		const struct ord_token *t = ord_order_find(o, ORD_TOK_TARGET);
		struct ord_unit *tu = t ? ord_ctx_find_unit(ctx, t->value) : NULL;

		if (!u) {
			ord_diag_add(diag, o->line, o->col, o->unit, "orders", "unknown unit '%s'",
				     o->unit);
			continue;
		}
		if (strcmp(u->side, side)) {
			ord_diag_add(diag, o->line, o->col, o->unit, "orders",
				     "unit '%s' belongs to side %s, not %s", u->id, u->side, side);
			continue;
		}
		if (seen[ord_ctx_unit_index(ctx, u)]) {
			ord_diag_add(diag, o->line, o->col, o->unit, "orders",
				     "second order for unit '%s' (its first is on line %u)", u->id,
				     seen[ord_ctx_unit_index(ctx, u)]);
			continue;
		}
		seen[ord_ctx_unit_index(ctx, u)] = o->line;
		if (t && !tu)
			ord_diag_add(diag, o->line, t->col, o->unit, "combat",
				     "unknown target unit '%s'", t->value);
		else if (tu && !strcmp(tu->side, side))
			ord_diag_add(diag, o->line, t->col, o->unit, "combat",
				     "target '%s' is a unit of your own side", tu->id);
	}
	free(seen);
	return ord_diag_count(diag) > before ? ORD_EBADSHEET : 0;
}

/* What the referee recorded must be what the sheet ordered, within the
 * rules: a move needs an arrow and stays within the kind's allowance; a
 * hit needs the target named on the sheet and strength left. */
static int tpl_check_event(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *diag)
{
	struct ord_unit *u = tpl_ev_unit(ctx, ev, "unit");
	const struct ord_order *o = ord_ctx_order(ctx, u);
	size_t before = ord_diag_count(diag);

	if (ord_state_int(ctx, u, "strength") <= 0)
		ord_diag_add(diag, 0, 0, u->id, "units", "unit '%s' has no strength left", u->id);
	if (!strcmp(ev->kind, "move")) {
		const struct ord_row *k = tpl_kind(ord_ctx_rules(ctx), ord_kv_get(&u->attrs, "kind"));
		double move = 0, dist = ord_kv_get_num(&ev->kv, "distance", 0);

		if (!o || !ord_order_find(o, ORD_TOK_DIR))
			ord_diag_add(diag, 0, 0, u->id, "orders",
				     "unit '%s' moved but its sheet orders no move (an arrow)", u->id);
		if (k && !ord_row_num(k, "move", &move) && dist > move)
			ord_diag_add(diag, 0, 0, u->id, "kinds",
				     "unit '%s' moved %g\" but a %s moves at most %g\"", u->id,
				     dist, ord_row_str(k, "name"), move);
	} else {
		struct ord_unit *t = tpl_ev_unit(ctx, ev, "target");
		const struct ord_token *named = o ? ord_order_find(o, ORD_TOK_TARGET) : NULL;

		if (!named || ord_ctx_find_unit(ctx, named->value) != t)
			ord_diag_add(diag, 0, 0, u->id, "orders",
				     "unit '%s' hit '%s' but its sheet names %s%s", u->id, t->id,
				     named ? "@" : "no target", named ? named->value : "");
	}
	return ord_diag_count(diag) > before ? ORD_ECHECK : 0;
}

/* ---- STEP 6: resolving the phases ------------------------------------------ */

static int tpl_resolve_movement(struct ord_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *u = tpl_ev_unit(ctx, e, "unit");
		struct ord_kv vals;

		ord_state_set_int(ctx, u, "moved", ord_ctx_turn(ctx));
		ord_kv_init(&vals);
		ord_kv_set(&vals, "distance", ord_kv_get(&e->kv, "distance"));
		ord_ctx_result(ctx, e->seq, u->id, &vals, "moved %s\"", ord_kv_get(&e->kv, "distance"));
		ord_kv_release(&vals);
	}
	return 0;
}

/* One hit: the die, adjusted by the modifiers, read in the table of losses.
 * The calculator (STEP 8) calls it too, so both always agree. */
static int tpl_hit(const struct ord_rules *rules, const char *kind, int target_moved, int die,
		   int *losses, struct ord_buf *why)
{
	const struct ord_row *row;
	struct ord_kv flags;
	double total, l;
	int err;

	ord_kv_init(&flags);
	ord_kv_set(&flags, "horse", !strcmp(kind, "horse") ? "yes" : "no");
	ord_kv_set(&flags, "target_moved", target_moved ? "yes" : "no");
	ord_buf_addf(why, "d%g ", tpl_param(rules, "hit_die"));
	if ((err = ord_table_apply(&total, ord_tables_get(rules->tables, "hit_modifiers"), die,
				   &flags, NULL, why)) != 0 ||
	    (err = ord_table_dice(&row, ord_tables_get(rules->tables, "hits"), NULL, total)) != 0 ||
	    (err = ord_row_num(row, "losses", &l)) != 0)
		goto out;
	*losses = (int)l;
	ord_buf_addf(why, ": %d loss%s", *losses, *losses == 1 ? "" : "es");
out:
	ord_kv_release(&flags);
	return err;
}

static int tpl_resolve_combat(struct ord_ctx *ctx)
{
	const struct ord_rules *rules = ord_ctx_rules(ctx);
	size_t i;
	int err = 0;

	for (i = 0; i < ord_ctx_nevents(ctx) && !err; i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *u = tpl_ev_unit(ctx, e, "unit"), *t = tpl_ev_unit(ctx, e, "target");
		struct ord_buf why = ORD_BUF_INIT;
		struct ord_kv vals;
		int die, losses = 0;
		long left;

		/* the die of this hit: its identity (purpose, event) fixes its face */
		if ((err = ord_ctx_roll(ctx, &die, (unsigned)tpl_param(rules, "hit_die"), "hit",
					e->seq, 0)) != 0 ||
		    (err = tpl_hit(rules, ord_kv_get(&u->attrs, "kind"),
				   ord_state_int(ctx, t, "moved") == ord_ctx_turn(ctx), die,
				   &losses, &why)) != 0) {
			ord_buf_release(&why);
			break;
		}
		left = ord_state_int(ctx, t, "strength") - losses;
		ord_state_set_int(ctx, t, "strength", left > 0 ? left : 0);
		ord_kv_init(&vals);
		ord_kv_set_int(&vals, "losses", losses);
		ord_kv_set(&vals, "by", u->id);
		ord_ctx_result(ctx, e->seq, t->id, &vals, "hit by %s: %s, strength %ld left", u->id,
			       why.buf, ord_state_int(ctx, t, "strength"));
		ord_kv_release(&vals);
		ord_buf_release(&why);
	}
	return err;
}

static int tpl_resolve_phase(struct ord_ctx *ctx, const char *phase)
{
	if (!strcmp(phase, "movement"))
		return tpl_resolve_movement(ctx);
	if (!strcmp(phase, "combat"))
		return tpl_resolve_combat(ctx);
	return ord_error_set(ORD_EUSAGE, "unknown phase '%s'", phase);
}

/* ---- STEP 7: after the exchange, and the reports ----------------------------- */

/* What u's sealed order asks that no event of the turn has done: a move
 * (an arrow) and a hit (a @TARGET), each 1 while it waits.  One place for
 * both the list after the exchange and the kinds an order waits for. */
static void tpl_waits(struct ord_ctx *ctx, const struct ord_unit *u, int *move, int *hit)
{
	const struct ord_order *o = ord_ctx_order(ctx, u);
	size_t j;

	*move = o && ord_order_find(o, ORD_TOK_DIR);
	*hit = o && ord_order_find(o, ORD_TOK_TARGET);
	/* the events naming u (the core lists an event under each unit its
	 * keys name): those whose unit it is */
	for (j = 0; j < ord_ctx_unit_nevents(ctx, u); j++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, u, j);
		if (tpl_ev_unit(ctx, e, "unit") != u)
			continue;
		if (!strcmp(e->kind, "move"))
			*move = 0;
		if (!strcmp(e->kind, "hit"))
			*hit = 0;
	}
}

/* Every order not carried out: an arrow with no move, a target not hit. */
static int tpl_check_execution(struct ord_ctx *ctx, struct ord_diag *diag)
{
	size_t i;

	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		const struct ord_order *o = ord_ctx_order(ctx, u);
		int move, hit;

		tpl_waits(ctx, u, &move, &hit);
		/* each names the kind that carries it out (tpl_order_events),
		 * for the report's <pending> and the web page's Record link */
		if (move)
			ord_diag_item_kind(ord_diag_add(diag, o->line, 0, u->id, "orders",
							"ordered to move but no move was recorded"),
					   "move");
		if (hit)
			ord_diag_item_kind(ord_diag_add(diag, o->line, 0, u->id, "orders",
							"ordered to attack @%s but no hit was recorded",
							ord_order_find(o, ORD_TOK_TARGET)->value),
					   "hit");
	}
	return 0;
}

/* The kinds of event u's order still waits for (version 9): the core then
 * refuses to resolve their phase with no event, unless the referee says
 * it goes empty (resolve --empty), so that a resolve typed twice skips nothing.  The
 * same as tpl_check_execution lists, as the kinds of tpl_events. */
static size_t tpl_order_events(struct ord_ctx *ctx, const struct ord_unit *u, const char **kinds,
			       size_t max)
{
	size_t n = 0;
	int move, hit;

	tpl_waits(ctx, u, &move, &hit);
	if (move && n < max)
		kinds[n++] = "move";
	if (hit && n < max)
		kinds[n++] = "hit";
	return n;
}

/* A unit as viewer may see it: the owner and the referee (viewer NULL) see
 * its strength, the enemy only what stands on the table. */
static int tpl_describe_unit(struct ord_ctx *ctx, const struct ord_unit *u, const char *viewer,
			     struct ord_buf *out)
{
	ord_buf_addf(out, "%s %s (%s, %s)", u->id, u->name, u->side, ord_kv_get(&u->attrs, "kind"));
	if (!viewer || !strcmp(viewer, u->side))
		ord_buf_addf(out, ": strength %ld", ord_state_int(ctx, u, "strength"));
	if (ord_state_int(ctx, u, "moved") == ord_ctx_turn(ctx))
		ord_buf_adds(out, ", moved this turn");
	return 0;
}

/* ---- STEP 8: the calculator and the tables ------------------------------------ */

static const struct ord_key_spec tpl_calc_hit_args[] = {
	{ "kind", ORD_KEY_WORD, 1, "kinds.kind", 0, 0, NULL, NULL },
	{ "target_moved", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", NULL },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

/* `orderly calc template hit kind=horse target_moved=yes [--dice 4]` */
static int tpl_calc_hit(struct ord_calc *c, struct ord_rules *rules)
{
	const struct ord_kv *args = ord_calc_args(c);
	struct ord_buf why = ORD_BUF_INIT;
	int die, losses, err;

	/* the die: from --dice, or rolled by the core, never by the module */
	if ((err = ord_calc_die(c, &die, (unsigned)tpl_param(rules, "hit_die"), "hit")) == 0 &&
	    (err = tpl_hit(rules, ord_kv_get(args, "kind"),
			   ord_kv_get_bool(args, "target_moved", 0), die, &losses, &why)) == 0) {
		ord_calc_value_int(c, "losses", losses);
		ord_calc_explain(c, "en", why.buf);
	}
	ord_buf_release(&why);
	return err;
}

static const struct ord_calculation tpl_calculations[] = {
	{ "hit", tpl_calc_hit_args, 1, NULL, NULL, tpl_calc_hit },
	{ NULL, NULL, 0, NULL, NULL, NULL },
};

static const struct ord_calculator tpl_calculator = {
	"template",       /* ruleset */
	tpl_calculations, /* calcs */
	NULL,             /* lang_key: one language */
	NULL,             /* dice_rolled: "dice rolled" */
};

static int tpl_calc(struct ord_rules *rules, const char *what, const struct ord_kv *args,
		    const int *dice, size_t ndice, int xml, struct ord_buf *out)
{
	return ord_calc_run(&tpl_calculator, rules, rules->tables, what, args, dice, ndice, xml, out);
}

static int tpl_print_tables(struct ord_rules *rules, const char *table, struct ord_buf *out)
{
	return ord_tables_print(rules->tables, table, out);
}

/* The tables, so that the core checks a club's copy against yours: a
 * table or parameter your own tables.xml lacks is refused, with its line
 * and the name it may have meant. */
static const struct ord_tables *tpl_tables(struct ord_rules *rules)
{
	return rules->tables;
}

/* ---- STEP 9: the module ------------------------------------------------------ */

static const struct ord_ruleset tpl_ruleset = {
	ORD_RULESET_VERSION, /* version: the interface this file is built against */
	"template",          /* name */
	"hieroglyph",        /* notation */
	tpl_phases,          /* phases */
	tpl_attrs,           /* unit_attrs */
	tpl_events,          /* events */
	NULL,                /* tables_resource: its own, compiled in (tpl_load) */
	tpl_load,            /* load */
	tpl_free,            /* free */
	tpl_init_unit,       /* init_unit */
	tpl_validate_sheet,  /* validate_sheet */
	tpl_check_event,     /* check_event */
	tpl_resolve_phase,   /* resolve_phase */
	tpl_check_execution, /* check_execution */
	tpl_describe_unit,   /* describe_unit */
	tpl_calc,            /* calc */
	tpl_print_tables,    /* print_tables */
	tpl_state_keys,      /* state_keys (version 2) */
	tpl_languages,       /* languages (version 2): your own first */
	NULL,                /* draw: pictures on the core's canvas (canvas.h); optional */
	tpl_tables_xml,      /* tables_data: your tables, compiled in, copied into each game */
	&tpl_tables_xml_len, /* tables_len */
	NULL,                /* complete_tables (version 3): only for a document that may leave
			      * numbers to tables built in (krigsspil's map); yours is whole */
	"1",                 /* rules_revision (version 4): change it with every correction
			      * that changes what a phase resolves to; each phase's log entry
			      * names it, and an audit by a later build says so */
	tpl_tables,          /* tables (version 5): what load read, for the core's checks */
	NULL,                /* event_defaults (version 6): a key an event leaves out whose
			      * default the game gives (the sheets, the tables), not its
			      * spec's def; yours are all the specs' */
	NULL,                /* show_result (version 7): a result's words as a side reads
			      * them, when they say more of an enemy than tpl_describe_unit
			      * tells it; yours say nothing of the enemy's strength */
	NULL,                /* create_notes (version 8): what the referee should hear as a
			      * game is made, of what your rules will not do with its
			      * tables; yours do all they can with any */
	tpl_order_events,    /* order_events (version 9): the kinds of event an order waits
			      * for, so that its phase is not resolved empty by mistake */
	NULL,                /* event_help (version 10): the help of your events in your
			      * languages but English; yours are English only */
	NULL,                /* words_resource (version 11): the words a report is framed
			      * in, in your languages but English (a built-in module's
			      * embedded resource); yours are English only */
	NULL,                /* messages (version 12): your diagnostics that words_resource
			      * says in your other languages (ord_diag_add_id); none */
};

/* The one exported symbol: orderly finds ord_ruleset_template.so in a
 * directory of ORDERLY_RULESET_PATH and calls this with its own interface
 * version.  This module uses the state_keys slot of version 2: a host
 * older than that could not check its state, so it refuses one. */
const struct ord_ruleset *ord_ruleset_template_init(unsigned int host_version);
const struct ord_ruleset *ord_ruleset_template_init(unsigned int host_version)
{
	if (host_version < 2)
		return NULL;
	return &tpl_ruleset;
}
