/*
 * fog.h - the fog of war: what a side may see of the other sides' units
 * and of the referee's events.  One rule, used by every picture and
 * report of a side (game_report.c, picture.c): a side sees the units of
 * other sides that are named in an event naming one of its own units
 * (a unit key of the event's kind), and the events that name one of its
 * units.  What it sees of such a unit is the ruleset's describe_unit (or,
 * in a picture, the ruleset's draw) for that viewer.
 */
#ifndef ORD_FOG_H
#define ORD_FOG_H

#include "core/ctx.h"

/* 1 when event e names a unit of side under one of its kind's unit keys. */
int ord_fog_event_seen(const struct ord_ruleset *rs, struct ord_ctx *ctx, const struct ord_event *e,
		       const char *side);
/* seen[i] = 1 for each unit i of another side than side that an event of
 * ctx seen by side names (seen has ctx->nunits bytes, not cleared first). */
void ord_fog_units_seen(const struct ord_ruleset *rs, struct ord_ctx *ctx, const char *side,
			char *seen);

#endif
