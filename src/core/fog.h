/*
 * fog.h - the fog of war: what a side may see of the other sides' units
 * and of the referee's events.  One rule, used by every picture and
 * report of a side (game_report.c, picture.c): a side sees the units of
 * other sides that are named in a resolved event naming one of its own
 * units (a unit key of the event's kind), the events that name one of its
 * units, and the results of its units and of those events.  What it sees
 * of such a unit is the ruleset's describe_unit (or, in a picture, the
 * ruleset's draw) for that viewer, from the phase in which the side first
 * met it in the turn on (what it sees of the unit then, and of what comes
 * of the meeting, such as a morale test after its fire), never before:
 * not where the unit stood, nor the way it came, before it was met.
 *
 * Only a resolved event meets a unit.  An event recorded for the phase
 * being recorded (the next to resolve) is the referee's note of what the
 * orders will make happen: until its phase is resolved nothing of it has
 * happened at the table, it has no result, and the referee may still void
 * or correct it; a side learning of the enemy unit from it would read the
 * enemy's orders before the phase is played.
 */
#ifndef ORD_FOG_H
#define ORD_FOG_H

#include "core/ctx.h"
#include "core/record.h"

/* 1 when event e names a unit of side under one of its kind's unit keys. */
int ord_fog_event_seen(const struct ord_ruleset *rs, struct ord_ctx *ctx, const struct ord_event *e,
		       const char *side);
/* 1 when side sees the result for unit of event event_seq (0: none): a
 * result of one of its own units, or of an event one of them did (the
 * event's first unit key: its fire, its attack), which its player sees at
 * the table.  ctx holds the turn's standing events. */
int ord_fog_result_seen(const struct ord_ruleset *rs, struct ord_ctx *ctx, const char *unit,
			unsigned event_seq, const char *side);
/* Replace text, the words of a result side sees (ord_fog_result_seen:
 * the result of unit for event event_seq, of phase, with values as
 * stored, "k=v" lines), with what side's report shows of it: the
 * ruleset's show_result (version 7), which tells an enemy unit as
 * describe_unit does (battalion: trays, not figures), or text as it is.
 * Only the words shown: the stored result is the phase's. */
void ord_fog_result_shown(const struct ord_ruleset *rs, struct ord_ctx *ctx, const char *phase,
			  unsigned event_seq, const char *unit, const char *values,
			  const char *side, struct ord_buf *text);
/* For each unit i of another side than side named in an event of ctx
 * that side sees, of phase p <= upto (p, upto: 1-based indices of the
 * ruleset's phases; the events of a later phase are not resolved, or not
 * drawn, and count for nothing): met[i] = the first such p.  met has
 * ctx->nunits ints, cleared first (0: not met up to upto). */
void ord_fog_units_met(const struct ord_ruleset *rs, struct ord_ctx *ctx, const char *side,
		       int upto, int *met);
/* The numbers a side's report and pictures give the turn's events: the
 * events the side sees, numbered 1, 2, ... in the turn's order, where the
 * turn's own numbers would count, by their gaps, the enemy's events it
 * did not see (a red-team finding).  The events it sees are those of ctx
 * of phases <= upto (as ord_fog_units_met) it sees (ord_fog_event_seen)
 * and those of the results of r of those phases it sees
 * (ord_fog_result_seen): what its report and its maps show.  side NULL,
 * the referee: the turn's numbers, which his commands take.  Returns an
 * array (to be freed) of *n numbers, by the turn's: 0 for an event not
 * seen.  results_seen (NULL: not wanted) has a slot for each result of r:
 * what ord_fog_result_seen said of it, 1 or 0, or -1 for a result it did
 * not ask of (of no event, or of a phase after upto), so that a report
 * asks once of a result (at 100,000 units each question is a few misses
 * of the processor's caches: docs/benchmarks.md, the forty-first
 * session). */
unsigned *ord_fog_event_numbers(const struct ord_ruleset *rs, struct ord_ctx *ctx,
				const struct ord_record *r, const char *side, int upto, size_t *n,
				signed char *results_seen);
/* The 1-based index of phase among rs's phases, 0 when it is none. */
int ord_fog_phase_index(const struct ord_ruleset *rs, const char *phase);

#endif
