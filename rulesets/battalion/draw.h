/*
 * draw.h - the battalion module's pictures (draw.c): the story chart, and
 * the map when the referee records positions.
 */
#ifndef BAT_DRAW_H
#define BAT_DRAW_H

#include "ruleset.h"

/* The ruleset's draw slot (version 2). */
int bat_draw(struct ord_ctx *ctx, const char *viewer, struct ord_canvas *cv,
	     const struct ord_picture *what);

#endif
