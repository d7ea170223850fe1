/*
 * fog.h - the fog of war: what a side may see of the other sides' units
 * and of the referee's events.  One rule, used by every picture and
 * report of a side (game_report.c, picture.c): a side sees the units of
 * other sides that are named in an event naming one of its own units
 * (a unit key of the event's kind), the events that name one of its
 * units, and the results of its units and of those events.  What it sees
 * of such a unit is the ruleset's describe_unit (or,
 * in a picture, the ruleset's draw) for that viewer.
 */
#ifndef ORD_FOG_H
#define ORD_FOG_H

#include "core/ctx.h"

/* 1 when event e names a unit of side under one of its kind's unit keys. */
int ord_fog_event_seen(const struct ord_ruleset *rs, struct ord_ctx *ctx, const struct ord_event *e,
		       const char *side);
/* 1 when side sees the result for unit of event event_seq (0: none): a
 * result of one of its own units, or of an event one of them did (the
 * event's first unit key: its fire, its attack), which its player sees at
 * the table.  ctx holds the turn's standing events. */
int ord_fog_result_seen(const struct ord_ruleset *rs, struct ord_ctx *ctx, const char *unit,
			unsigned event_seq, const char *side);
/* seen[i] = 1 for each unit i of another side than side that an event of
 * ctx seen by side names (seen has ctx->nunits bytes, not cleared first). */
void ord_fog_units_seen(const struct ord_ruleset *rs, struct ord_ctx *ctx, const char *side,
			char *seen);

#endif
