/*
 * positions.c - where battalion units stand, when the referee says so.
 * The battalion rules measure moves and ranges on the table and keep no
 * positions; a referee who wants the map (`orderly map`) gives x= and y=
 * in inches on the scenario's units and on move events, and the unit's
 * state keeps them.  Nothing in the rules reads them.
 */
#include "rulesets/battalion/draw.h"

static void copy_pos(struct ord_unit *u, const struct ord_kv *from)
{
	if (!ord_kv_get(from, "x") || !ord_kv_get(from, "y"))
		return;
	ord_kv_set(&u->state, "x", ord_kv_get(from, "x"));
	ord_kv_set(&u->state, "y", ord_kv_get(from, "y"));
}

void bat_position_init(struct ord_unit *u)
{
	copy_pos(u, &u->attrs);
}

void bat_position_move(struct ord_unit *u, const struct ord_event *e)
{
	copy_pos(u, &e->kv);
}
