/*
 * positions.c - where battalion units stand, when the referee says so.
 * The battalion rules measure moves and ranges on the table and keep no
 * positions; a referee who wants the map (`orderly map`) gives x= and y=
 * in inches on the scenario's units and on move events, and the unit's
 * state keeps them.  Nothing in the rules reads them; the move check
 * holds a new one to the distance measured (check.c, check_position).
 */
#include "rulesets/battalion/draw.h"

void bat_position_init(const struct ord_unit *u, struct ord_kv *init)
{
	if (!ord_kv_get(&u->attrs, "x") || !ord_kv_get(&u->attrs, "y"))
		return;
	ord_kv_set(init, "x", ord_kv_get(&u->attrs, "x"));
	ord_kv_set(init, "y", ord_kv_get(&u->attrs, "y"));
}

void bat_position_move(struct ord_ctx *ctx, struct ord_unit *u, const struct ord_event *e)
{
	if (!ord_kv_get(&e->kv, "x") || !ord_kv_get(&e->kv, "y"))
		return;
	ord_state_set_str(ctx, u, "x", ord_kv_get(&e->kv, "x"));
	ord_state_set_str(ctx, u, "y", ord_kv_get(&e->kv, "y"));
}
