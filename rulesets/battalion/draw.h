/*
 * draw.h - the battalion module's pictures (draw.c): the story chart, and
 * the map when the referee records positions.
 */
#ifndef BAT_DRAW_H
#define BAT_DRAW_H

#include "ruleset.h"

/* Optional positions (inches on the table: x east, y south), for the map:
 * the key specs the scenario's units and the move event take, ... */
#define BAT_POSITION_KEYS                                                                             \
	{ "x",    ORD_KEY_NUM, 0,    NULL,                                                            \
	  -10000, 10000,       NULL, "position in inches from the table's west edge (for the map)" }, \
	{                                                                                             \
		"y", ORD_KEY_NUM, 0, NULL, -10000, 10000, NULL,                                       \
			"position in inches from the table's north edge (for the map)"                \
	}
/* ... a unit's first position from its attributes, and its position after
 * a move event that gives one (positions.c). */
void bat_position_init(const struct ord_unit *u, struct ord_kv *init);
void bat_position_move(struct ord_ctx *ctx, struct ord_unit *u, const struct ord_event *e);

/* The ruleset's draw slot (version 2). */
int bat_draw(struct ord_ctx *ctx, const char *viewer, struct ord_canvas *cv,
	     const struct ord_picture *what);

#endif
