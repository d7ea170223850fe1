/*
 * positions.c - where battalion units stand, when the referee says so.
 * The battalion rules measure moves and ranges on the table and keep no
 * positions; a referee who wants the map (`orderly map`) gives x= and y=
 * in inches on the scenario's units and on move events, and the unit's
 * state keeps them.  Nothing in the rules reads them; the move check
 * holds a new one to the distance measured (check.c, check_position), and
 * the fire check a range to the distance between the two units
 * (check_range_position).
 */
#include "rulesets/battalion/bat.h"
#include "rulesets/battalion/draw.h"

void bat_position_init(const struct ord_unit *u, struct ord_kv *init)
{
	if (!ord_kv_get(&u->attrs, "x") || !ord_kv_get(&u->attrs, "y"))
		return;
	ord_kv_set(init, "x", ord_kv_get(&u->attrs, "x"));
	ord_kv_set(init, "y", ord_kv_get(&u->attrs, "y"));
}

/* A move without x= and y= leaves the unit where the state last put it:
 * its distance is kept (unplaced) for the check of the next position
 * given, which may lie that much further (check.c, check_position).  Only
 * when that check is on (table checks, position_distance_checked), and
 * the unit has a position: a game made before keeps the state it had. */
void bat_position_move(struct ord_ctx *ctx, struct ord_unit *u, const struct ord_event *e)
{
	double dist = ord_kv_get_num(&e->kv, "distance", 0);

	if (!ord_kv_get(&e->kv, "x") || !ord_kv_get(&e->kv, "y")) {
		if (dist > 0 && bat_flag(ctx, "position_distance_checked") &&
		    ord_state_has(ctx, u, "x") && ord_state_has(ctx, u, "y"))
			ord_state_set_num(ctx, u, "unplaced", ord_state_num(ctx, u, "unplaced") + dist);
		return;
	}
	ord_state_set_str(ctx, u, "x", ord_kv_get(&e->kv, "x"));
	ord_state_set_str(ctx, u, "y", ord_kv_get(&e->kv, "y"));
	if (ord_state_num(ctx, u, "unplaced") != 0)
		ord_state_set_num(ctx, u, "unplaced", 0);
}
