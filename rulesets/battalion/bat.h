/*
 * bat.h - what the files of the battalion module share (internal to
 * rulesets/battalion/): reading a unit's attributes and state, its morale
 * now, reading a hieroglyph order, the parameters of the tables, and the
 * slots check.c, resolve.c and report.c fill.  battalion.c defines them
 * and holds the rules' decisions (D1..D26); calc.h the computations.
 */
#ifndef BAT_H
#define BAT_H

#include "rulesets/battalion/calc.h"
#include "ruleset.h"
#include "tables.h"

/* ---- the tables ---- */

struct bat_rules *bat_r(struct ord_ctx *ctx);
/* A parameter bat_module_load checked (a double; bat_ip rounded). */
double bat_p(struct ord_ctx *ctx, const char *name);
long bat_ip(struct ord_ctx *ctx, const char *name);
/* An optional yes/no parameter: 1 when the tables set it, 0 when they set
 * it to 0 or lack it (the tables a game made before it keeps: table
 * checks). */
int bat_flag(struct ord_ctx *ctx, const char *name);

/* The game's morale system: "d6", or "d20" when its tables' morale_chart
 * says so (D19). */
const char *bat_game_chart(struct ord_ctx *ctx);

/* Rules cited as the text states them, with their numbers from the tables. */
#define CHARGE_RULE "a unit may charge only once every %g turns"
#define LIMBER_RULE "L - limber (%g turn all art.)"
#define UNLIMBER_RULE "UL - unlimber (%g turn except for horse art.)"
#define SILENCE_RULE "%g hits knock out artillery"
/* The rule fmt with the parameter's value, in b (reset first). */
const char *bat_rule_text(struct ord_ctx *ctx, struct ord_buf *b, const char *fmt, const char *name);

/* ---- units: attributes and state (the state through ord_state_*) ---- */

long bat_st(struct ord_ctx *ctx, const struct ord_unit *u, const char *key);
void bat_st_set(struct ord_ctx *ctx, struct ord_unit *u, const char *key, long v);
const char *bat_kind(const struct ord_unit *u);
/* The arm of the unit's kind: infantry, cavalry, artillery (table kinds). */
const char *bat_arm(struct ord_ctx *ctx, const struct ord_unit *u);
int bat_is_arm(struct ord_ctx *ctx, const struct ord_unit *u, const char *arm);
const char *bat_formation(struct ord_ctx *ctx, const struct ord_unit *u);
/* The formation as the fire and movement charts know it (D11). */
const char *bat_chart_formation(struct ord_ctx *ctx, const struct ord_unit *u);
/* The label formation of a kind's row of the table kinds ("" for no such
 * kind), and the chart's formation of a unit whose kind has that label
 * and whose formation is formation: bat_chart_formation in two steps, the
 * first of which a sheet's check asks once for each kind. */
const char *bat_kind_formation(struct ord_ctx *ctx, const char *kind);
const char *bat_chart_formation_as(const char *label, const char *formation);
int bat_enfiladed(struct ord_ctx *ctx, const struct ord_unit *u);
/* The order its fire counts as (table formations, fires_as): skirmish for
 * skirmish and miscellaneous order. */
const char *bat_fires_as(struct ord_ctx *ctx, const struct ord_unit *u);
int bat_is_elite(const struct ord_unit *u);
int bat_is_militia(const struct ord_unit *u);
int bat_is_horse_artillery(const struct ord_unit *u);
/* Its morale this turn (D6). */
int bat_routed(struct ord_ctx *ctx, const struct ord_unit *u);
int bat_retreating(struct ord_ctx *ctx, const struct ord_unit *u);
int bat_dressing(struct ord_ctx *ctx, const struct ord_unit *u);
/* The enemy it is locked in melee with, or NULL; since an earlier turn. */
const char *bat_melee_with(struct ord_ctx *ctx, const struct ord_unit *u);
int bat_still_in_melee(struct ord_ctx *ctx, const struct ord_unit *u);
/* u and w came into melee contact this turn (either moving); or that, or
 * they are in a melee together from an earlier turn (D25). */
int bat_in_contact(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_unit *w);
int bat_engaged(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_unit *w);
/* Losses: trays removed per figures_per_tray, the rest carried; and the
 * figures lost this turn (for morale). */
void bat_take_losses(struct ord_ctx *ctx, struct ord_unit *u, int n);
long bat_turn_losses(struct ord_ctx *ctx, const struct ord_unit *u);

/* ---- orders and events ---- */

/* The formation a form code orders (FLn: line), the shot of a fire code
 * (Fb: ball), or NULL. */
const char *bat_form_code_formation(const char *code);
const char *bat_fire_code_shot(const char *code);
/* The order's form code, fire code, or any code; NULL/0 if none. */
const struct ord_token *bat_order_form(const struct ord_order *o);
const struct ord_token *bat_order_fire(const struct ord_order *o);
int bat_order_has(const struct ord_order *o, const char *code);
/* Quarters of the move ordered (its fraction, or the whole move). */
int bat_ordered_quarters(struct ord_ctx *ctx, const struct ord_order *o);
/* The arrow points forward (D6). */
int bat_order_forward(struct ord_ctx *ctx, const struct ord_order *o);
/* The same of an arrow (a direction token, or NULL: no arrow) and the
 * tables' forward_within, for a check that read it once. */
int bat_arrow_forward(const struct ord_token *dir, double within);
int bat_arrow_back(const struct ord_token *dir, double within);
/* The arrow points back: within forward_within degrees of straight away
 * from the enemy (a routed unit's way, D6). */
int bat_order_back(struct ord_ctx *ctx, const struct ord_order *o);
/* The unit an event's key names, or NULL. */
struct ord_unit *bat_ev_unit(struct ord_ctx *ctx, const struct ord_event *ev, const char *key);
/* Is ev a melee that sets u and w on opposite sides of it (each named
 * first or beside the first, a=/a2= against b=/b2=, D20)? */
int bat_melee_between(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
		      const struct ord_unit *w);
/* A move event is a charge: its charge=, or when it does not say, its
 * unit's sheet ordering C (table checks, charge_moves_checked; a game made
 * before reads charge= alone, which it always has). */
int bat_move_charges(struct ord_ctx *ctx, const struct ord_event *ev);

/* ---- the slots (check.c, resolve.c, report.c) ---- */

int bat_validate_sheet(struct ord_ctx *ctx, const struct ord_sheet *sheet, struct ord_diag *diag);
int bat_check_event(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d);
/* A gun's formation as words say it (red team #13a): the charts move and
 * hit a gun as a line (D11), but it stands limbered or unlimbered, and a
 * check said "horse_artillery in line" of a limbered battery.  Its state's
 * word, "limbered" or "unlimbered", with the table checks'
 * gun_formation_said (2026-12-06.11; a check's words, which the audit
 * compares: a game made before keeps "in line"); NULL for any other unit
 * or without the switch. */
const char *bat_formation_shown(struct ord_ctx *ctx, const struct ord_unit *u);
/* "in line", "in skirmish", or a gun's "limbered" (bat_formation_shown),
 * added to out. */
void bat_in_formation(struct ord_ctx *ctx, const struct ord_unit *u, struct ord_buf *out);
/* An event no override records (a kind the unit's cannot do, a fire or a
 * melee against itself or its own side): 1 and why, else 0 (check.c). */
int bat_event_impossible(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_buf *why);
int bat_check_execution(struct ord_ctx *ctx, struct ord_diag *d);
/* The result of a melee of an earlier turn that the melee phase ended,
 * no melee recorded (D14): the resolve's words, which bat_order_events
 * reads back (the phase's state no longer says whom it was with). */
#define BAT_MELEE_ENDED "the melee with %s from turn %ld has ended (no melee recorded this turn)"
#define BAT_MELEE_ENDED_TAIL "has ended (no melee recorded this turn)"
size_t bat_order_events(struct ord_ctx *ctx, const struct ord_unit *u, const char **kinds, size_t max);
int bat_resolve_phase(struct ord_ctx *ctx, const char *phase);
int bat_describe_unit(struct ord_ctx *ctx, const struct ord_unit *u, const char *viewer,
		      struct ord_buf *out);
void bat_show_result(struct ord_ctx *ctx, const struct ord_result_view *r, const char *viewer,
		     struct ord_buf *out);

#endif
