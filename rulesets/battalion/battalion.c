/*
 * battalion.c - the battalion ruleset module: the English battalion/tray
 * rules with simultaneous movement (shared/rules/battalion-simultaneous.txt).
 *
 * The numbers live in tables.xml and are computed by calc.c (the
 * calculator in calculator.c); this file declares the module (its phases,
 * the unit attributes a scenario gives, the referee's events, the unit
 * state), holds the rules' decisions below and the helpers the module's
 * files share (bat.h), loads the tables and fills a unit's first state.
 * check.c checks sheets, events and the execution, resolve.c resolves the
 * five phases, report.c describes units.  Every number comes from the
 * tables (bat_p, calc.h); bat_module_load refuses tables that lack one
 * the module reads.
 *
 * The unit state keys are declared in state_keys below (their types and
 * what each holds); every read and write goes through the core's
 * ord_state_* (bat_st, bat_st_set), which refuse an undeclared key.  A
 * string read from a unit's state is never kept across a write to that
 * state: the list may move its strings when it changes (core/kv.c).
 *
 * Rules decisions (where the text is silent or ambiguous; the numbers are
 * in tables.xml, these are about what applies when):
 *  D1  New people in melee (+1) is the text's "If he survives, the melee
 *      will continue. Should new men arrive on his side, his die roll would
 *      be +1": men who join a melee that goes on, on the referee's word
 *      (a_fresh/b_fresh=yes, refused in a melee that begins this turn);
 *      a unit that arrives beside a or b is the new men (a2_fresh,
 *      b2_fresh=yes: its +1, as in `orderly calc`).
 *      Nobody is "new" in a melee that begins: the worked example (32 x 3
 *      = 96 x die 3 = 288 against 72 x 5 = 360) has no adjustment, and a
 *      game plays it so.
 *  D2  Equal melee scores: no winner; each side inflicts as a loser (the
 *      tables' tie_divisor).  "Only the loser checks morale. If he
 *      survives, the melee will continue": a tie has no loser, so nobody
 *      tests and the melee continues (melee_tie_untested); a unit whose
 *      fire test waited for the melee (D3) did not win it, and takes that
 *      test.  Tables without the switch (a game made before) test both
 *      sides without the "just lost a melee" -2, as orderly did then.
 *  D3  A unit that made melee contact in the turn it was fired on skips the
 *      fire-morale test and "wouldn't check morale until after the melee".
 *      The unit that made the contact is the one whose move recorded it
 *      (move contact=): in the text's example the column that charged ("it
 *      made melee contact in the same turn as it was fired on, it doesn't
 *      have to"), while the line it struck is "brought into melee" and, if
 *      it took casualties, tests in the fire-morale phase as any unit:
 *      if it loses, its loser's test counts all the turn's losses; if it
 *      wins it does not test; if no melee is recorded for it, it takes the
 *      deferred test in the melee-morale phase.
 *  D4  Pursuit: cavalry whose infantry enemy fails its melee-morale test
 *      (retreat or rout) and that did not fail one itself re-fights the
 *      melee at once unless the referee records `halt`.  The cavalry is in
 *      motion (+1); nobody is fresh or charging; column, elite and square
 *      adjustments apply as in any melee; the casualties the cavalry
 *      inflicts get the tables' pursuit factor.  The re-fight only takes
 *      casualties: nobody tests morale again.
 *  D5  Routed units cannot fire and have no melee value: a melee with a
 *      routed unit is fought, the routed side 0 points (it still takes
 *      casualties by its kind's points), so its enemy wins, inflicts its
 *      points over the winner's divisor and takes nothing; the routed unit
 *      lost, and tests (a retreat then keeps its rout's dressing of ranks).
 *      Two routed units have nothing to fight with: refused.  A routed a2
 *      or b2 (D20) is refused: it adds nothing beside another unit.  In a
 *      pursuit the infantry its test routed has no melee value either: it
 *      takes the pursuer's casualties and inflicts none; one that only
 *      retreated fights with its value (pursued_retreat_has_value, since
 *      2026-12-04.1; tables without it gave it none).  Switched by the tables'
 *      routed_no_melee_value: a game made before refuses a melee with a
 *      routed unit (overridden, it fights with its figures) and gives the
 *      pursued infantry its figures, as orderly did then.
 *  D6  Morale outcomes: a retreat is the next turn, then dress_ranks_turns
 *      of dressing ranks; a rout lasts rout_turns turns from the next one,
 *      then the unit dresses its ranks like any retreating unit.  A unit
 *      dressing its ranks may not move forward (an arrow within
 *      forward_within degrees of the enemy); one retreating moves by the
 *      rules.  A sheet for the turn a unit retreats or dresses its ranks
 *      is refused an arrow forward or a charge for it, as one for a routed
 *      unit anything but its way back: an arrow within forward_within
 *      degrees of straight back ("moves 3 turns backwards, backs to the
 *      enemy"), and a routed or retreating unit's move no longer than the
 *      movement chart gives its whole move (table checks,
 *      routed_moves_checked; before it a routed unit's sideways arrow and
 *      any distance were let through).  The routed -3 (morale
 *      modifier routed_recently)
 *      applies to tests in the rout_penalty_turns turns after the rout, not
 *      in the turn itself.
 *      A failed test ends any melee the unit is in.  A routed or
 *      retreating unit for which no move (nor a gun's limbering) is
 *      recorded in a turn the rules move it back is named on the
 *      referee's list and in the audit's notes (retreat_moves_listed,
 *      2026-12-05.8; a list, not a rule: before, it was left out).
 *  D7  A unit moves at the allowance of the formation it has at the start
 *      of the turn: a formation change takes the turn.  A change may come
 *      with a move arrow (the notation's own example "^ 1/2 FCol"); when
 *      the unit fires, both -1/4s apply.  A unit whose order has no arrow
 *      may not move.
 *  D8  Guns move limbered: an unlimbered gun that moves is refused (L
 *      takes the turn).  A gun fires only unlimbered, and in the turn it
 *      unlimbered only when its kind's unlimber time is 0 turns (horse
 *      artillery).  Limbering or unlimbering a gun already so is refused.
 *      "UL - unlimber (1 turn except for horse art.)": a gun whose kind's
 *      unlimber time is a turn or more spends the turn unlimbering, so
 *      its sheet has no arrow beside UL and a move and an unlimbering in
 *      one turn are refused (table checks, unlimber_move_checked: a game
 *      made before it records both, as it did).  "L - limber (1 turn all
 *      art.)" takes the turn too: "L ↑ 1" cannot be carried out.  What a
 *      gun's state makes impossible is refused on its sheet, at the
 *      token: an arrow for a gun unlimbered (with L or not), UL or L to
 *      the state it has, a fire order (a shot or @target) for a gun
 *      limbered without UL, silenced, limbering, or in the turn its UL
 *      takes; so are a fire order of a unit still in a melee of an
 *      earlier turn and an @target destroyed (table checks,
 *      sheet_state_checked: a game made before refused them only when
 *      the referee recorded them).
 *  D9  "Artillery may choose any target": the choice is written on the
 *      sheet; firing at another unit than its @target differs from the
 *      orders, for guns as for battalions.  Without @target any enemy may
 *      be fired at.  "Those units brought into melee in the movement get
 *      to fire as the enemy came at them": a unit fires at the enemy
 *      whose charge made melee contact with it this turn whatever its
 *      @target; a move that was no charge (charge=no, no C on its sheet)
 *      frees no target (table checks, fire_at_charger_checked: a game
 *      made before held it to its @target).
 *  D10 The artillery to-hit die is rolled for every shot in range, grape
 *      too (it always hits: the roll is shown but cannot miss); a shot out
 *      of range rolls nothing and does nothing.  A fire or artillery event
 *      beyond the reach the tables give its weapon or shot (the last band
 *      with numbers, not "---") is refused when recorded, and recorded
 *      only with --override.
 *  D11 A gun's crew fired at counts as a line (no formation modifier), and
 *      an enfilade changes nothing of it (the table kinds' enfiladed="no":
 *      "it needs no formation"; since 2026-12-04.1, where it was hit as
 *      a column).  The words say a gun as it stands, limbered or
 *      unlimbered, not the line the charts read it as
 *      (gun_formation_said, 2026-12-06.11; before, "in line").
 *      Units with no small arms (weapon none) cannot use the fire event.
 *  D12 Cover: a unit in woods does not fire (unless the tables'
 *      woods_may_fire says it does), and a target in woods beyond
 *      woods_fired_on_within cannot be fired at; both are refused, for a
 *      gun's artillery event as for a fire event (the same keys,
 *      target_in_woods and firer_in_woods), and with --override the shot
 *      does nothing and rolls no die: "nor may they fire" gives it no
 *      value, and the refusal says so (overridden_effect_said,
 *      2026-12-06.10; before, it said only that they may not fire).  Not switched by the table checks:
 *      the keys are new to artillery, so no game made before has them.
 *  D13 A unit charges again at the earliest charge_interval turns after its
 *      last charge (charged in 1: again in 4).  The move of a unit whose
 *      sheet orders C is its charge when the event does not say, for the
 *      fire (a charging unit can't fire), the melee's +1 and the next
 *      charge alike; charge=no for it departs from the orders and is
 *      refused (table checks, charge_moves_checked: a game made before
 *      read the event's charge= alone).  A unit moves once a turn, so its
 *      move, charge=no recorded with --override too, settles its C: the
 *      referee's list names the charge until a move is recorded, not after
 *      (charge_no_settles, 2026-12-06.12; a list and a check's words:
 *      before, a charge=no left it listed for a second move, refused).
 *      Over ground the terrain chart forbids a charge on (forest), the
 *      rules call the C off: a move there of charge=no departs from
 *      nothing (charge_forest_declined, 2026-12-06.13; before, it took an
 *      override).
 *  D14 A melee from an earlier turn that the referee does not record again
 *      has ended (the units were separated): it is closed, with a result
 *      line, when the melee phase is resolved.  Until then the referee's
 *      list of what is still to record (report --referee, info, the web
 *      page) names it (since 2026-12-05.2; a list, not a rule: nothing
 *      replayed changes, and at a turn's end every such melee is closed).
 *  D15 A unit with no figures left is destroyed: it cannot move, fire or
 *      fight; a melee event naming one is refused.  A unit a melee destroys is
 *      out of it at once, and its enemy is free: neither is in a melee
 *      next turn.
 *  D16 Whether the firer moved or changed formation is read off its sheet
 *      (an arrow, a form code) or from what it did (a move, a form event);
 *      whether the target moved, from what it did.  So for a horse gun's
 *      "move, unlimber, and fire ... 1/2 casualties" (horse_moved_by_sheet,
 *      2026-12-05.6; before, the move recorded alone, so a gun ordered to
 *      move whose move was recorded as 0", or left out, fired whole).
 *  D17 Unless the referee counts them (firers=N), a column fires with
 *      column_firers figures (its first two ranks) and every other
 *      formation with all its figures: for a square or skirmishers the
 *      referee says how many could fire.  A firers= above the unit's
 *      figures is refused, and if overridden the unit fires with its
 *      figures; one above column_firers for a column is refused ("only the
 *      first two ranks may fire"), the referee's count if overridden.  A
 *      melee's a_figures= (b_, a2_, b2_) above the unit's figures is
 *      refused, and cut to them if overridden.
 *  D18 An artillery hit on a gun both kills crew (the table's dead) and
 *      counts towards the gun_hits_silence hits that silence it.
 *  D19 A game uses the d6 rules or the optional d20 morale sheet for
 *      every test, fire and melee morale alike, as its tables say
 *      (morale_chart: a game created with tables that set it to 1 uses the
 *      sheet); the sheet has no modifiers, so a melee loser's test on it
 *      has no "just lost a melee" -2.  A `test chart=` naming the other
 *      system is refused: the referee knows the dice once the turn is
 *      sealed and could pick the better chart unit by unit; so is a `test`
 *      of a unit that took no casualties (D24).  Both are recorded only
 *      with --override.
 *  D20 Two units may fight one enemy at once ("the figures involved have
 *      their values totaled"): a melee event's a2/b2.  A side's score is
 *      the sum of each unit's points x (the side's die + that unit's own
 *      adjustments); it inflicts its total points over the divisor, and
 *      what a side takes is shared between its units by their points
 *      (ours: the text has one unit a side).  Every unit of the losing side
 *      lost the melee and tests.  A unit fights one melee a turn ("when
 *      one tray of a battalion is meleed, the whole thing is"): one that
 *      touched two enemies fights both in one event (b2=), and a second
 *      melee event naming it is refused (one_melee_checked, 2026-12-04.2;
 *      before, it fought each with its whole value and a die of its own).
 *      What a unit has against "the enemy" (its charge's +1 against the
 *      unit it charged into, a square's against cavalry) and the cavalry
 *      that may pursue the infantry it broke are every unit of the other
 *      side, the first named or the one beside it; all are out of the
 *      melee their enemy broke off (melee_both_enemies, 2026-12-05.1;
 *      before, the first named alone, so the result hung on the order).
 *  D21 Skirmishers block the fire of units and absorb it (the text's
 *      example): a fire or artillery event's screen= names the enemy
 *      skirmishers in the way; the fire hits them, as a fire at skirmish
 *      order.  One unit of skirmishers covers at most skirmish_screen_max
 *      of ground: a wider screen (screen_front) is refused.
 *  D22 Guns fire over their own men (over=) only fire_over_clearance clear
 *      of them (clearance=), and never grape; small arms never.
 *  D23 Skirmishers (the kind, or infantry in skirmish order) may fire as
 *      independent stands: several fire events a turn, each with its
 *      stands' firers=, at most the unit's figures in all.  In melee they
 *      "vaporize by stands": the referee gives the figures in contact
 *      (a_figures=); any other unit "is meleed whole", and fewer figures
 *      are refused (melee_whole_checked, 2026-12-04.2).
 *  D24 "All people who take casualties or lose in melees must check
 *      morale": the only unit the text lets off is the one that "made
 *      melee contact in the same turn as it was fired on", and its test
 *      waits for the melee by itself (D3).  No rule lets the referee excuse
 *      a unit, so an `exempt` is always a departure from the rules: it is
 *      recorded only with --override (and audit lists it).
 *  D25 Two units fight a melee only when they "made melee contact": a move
 *      this turn with contact= between them (either one moving), or a melee
 *      between them from an earlier turn that goes on ("the melee will
 *      continue").  A melee event between units that never touched is
 *      refused, for each unit of a side (a2, b2: D20) with no enemy unit of
 *      the event it touched.  The charge bonus ("+1 unit is charging") is
 *      the charger's only against the unit its charge contacted.  A
 *      move's contact= is the mover's ("those units brought into melee in
 *      the movement" are reached by it): a unit whose sheet orders no move
 *      (an arrow), or that has no order, stands and may be contacted but
 *      makes no contact, nor does a routed or retreating unit that went
 *      0"; two units that stand touching fight when one orders a move into
 *      the other, whose 0" move records the contact (contact_move_checked,
 *      2026-12-05.4; before, any 0" move took contact=, so a unit ordered
 *      to stand made the contact, its fire morale test waited for the
 *      melee, D3, and two units that stood fought one).  The mover
 *      attacks: "units on hilltops defending against an attack from a
 *      slope" are the other side, so a melee's hilltop (a_hill, b_hill)
 *      is one side's, never the mover's of this turn (melee_hill_checked,
 *      2026-12-05.7; before, both and the charger's were taken).  The
 *      unit beside the first (a2, b2) stands on its side's hilltop: the
 *      side's blow counts its points 1/4 more, and its die has the +1 as
 *      well, unless its move made the contact (melee_hill_whole_side,
 *      2026-12-05.9; before, its points had the 1/4 and its die no +1).
 *  D26 Small-arms fire is infantry's: the text's fire table has "Musket"
 *      and "Rifle", its fire rules and example are battalions', and "BASICS
 *      OF CAVALRY" give the squadron no firearm.  A cavalry unit's fire
 *      event, or a fire target (@) on its sheet, is refused whatever its
 *      weapon attribute says.
 *  D27 A unit of skirmishers is in skirmish order: the table kinds gives
 *      the kind its own formation (skirmish), read wherever the rules look
 *      at a formation (bat_chart_formation).  Fire at it takes the "-1/2 if
 *      enemy is in skirmish order", as a screen too (D21); it fires with
 *      the "-1/4 if you're in skirmish order".  Its state says skirmish
 *      whatever the scenario wrote, and it forms no line, column or square
 *      (order_codes): the movement chart gives "Skirmishers" one row
 *      whatever their order, and they fire and melee by stands.
 *  D28 Cavalry has no infantry formation: "BASICS OF CAVALRY ... Its only
 *      restriction to formation is that the men must be within an inch of
 *      each other", while line, column, square and skirmish order are
 *      infantry's ("At all times, infantry shall be in ...").  The table
 *      kinds puts cavalry in its own order, squadron (formations): fire at
 *      it takes no column, square or skirmish modifier and an enfilade
 *      changes nothing; in melee it has no "+1 column", and never counts as
 *      the square of "infantry in square vs. cavalry".  Its state says
 *      squadron whatever the scenario wrote: a scenario may write squadron
 *      (since 2026-12-05.2; refused for any other kind), and older ones,
 *      which gave cavalry a column, still load.
 *  D29 A formation change counts for fire and melee from the turn it is
 *      ordered (our reading; the text is silent but for the charged unit).
 *      "FSq ... (one turn)" and the NOTE that "a unit charged by the enemy
 *      but with orders to change formation is considered to have changed
 *      formation before the enemy struck" could mean that an uncharged
 *      unit is still in its old formation that turn; the text gives no
 *      formation "between" two, and its fire modifier "-1/4 if you changed
 *      formation" is for the unit's own fire in that turn, so the new
 *      formation stands for the turn (movement excepted: D7).  So a
 *      charge, made in the formation the unit has (D7), is ordered with
 *      no formation change beside it (charge_form_checked, 2026-12-05.3;
 *      before, a column's "C FSk" charged 10" and was fired at as
 *      skirmish order).
 *  D30 Melee points by formation (our reading): "Skirmishers, artillery 1
 *      pt. each; Light infantry 2 pts. each; Infantry 3 pts. each" counts
 *      infantry in skirmish order as skirmishers, as D23 reads "except for
 *      skirmishers who vaporize by stands" in the same section and the
 *      movement chart its "Skirmishers" row: a battalion in skirmish order
 *      (light infantry too) fights with 1 pt a figure, and the points it
 *      loses become figures at 1 a figure.  The fire section's "-1/4 if
 *      you're in skirmish order" is a modifier beside the troop type, but
 *      the melee's die adjustments name no skirmish order: the points are
 *      where the text counts it.  Miscellaneous order fires "like skirmish
 *      fire" and keeps its kind's points.  The table formations'
 *      melee_points_as names the kind whose points a figure in each
 *      formation counts (melee_points_by_formation, 2026-12-05.5; before,
 *      each kind its own whatever its formation).
 *  NEEDSWORK: the notation writes fractions in quarters; the tables'
 *  move_fraction_parts is taken to be 4.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/battalion/bat.h"
#include "rulesets/battalion/draw.h"

extern const struct ord_ruleset ord_ruleset_battalion;

/* ---- declarations: phases, attributes, events ---- */

static const char *const phases[] = {
	"movement", "fire", "fire-morale", "melee", "melee-morale", NULL,
};

#define KINDS \
	"line_infantry|light_infantry|skirmishers|light_cavalry|heavy_cavalry|foot_artillery|horse_artillery"

static const struct ord_key_spec unit_attrs[] = {
	{ "kind", ORD_KEY_ENUM, 1, KINDS, 0, 0, NULL, "the arm and type of the unit" },
	{ "formation", ORD_KEY_ENUM, 0, "line|column|square|skirmish|misc|squadron|limbered|unlimbered",
	  0, 0, "line", "formation at the start (squadron: cavalry's, D28)" },
	{ "figures", ORD_KEY_INT, 1, NULL, 1, 10000, NULL, "figures (gunners for artillery)" },
	{ "quality", ORD_KEY_ENUM, 0, "line|elite|militia", 0, 0, "line", "troop quality" },
	{ "class", ORD_KEY_ENUM, 0, "A|B|C|D|E", 0, 0, "C", "morale class (optional d20 chart)" },
	{ "weapon", ORD_KEY_ENUM, 0, "musket|rifle|none", 0, 0, "musket",
	  "small arms (infantry's: cavalry does not fire, D26)" },
	BAT_POSITION_KEYS,
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static const struct ord_key_spec move_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit that moved" },
	{ "distance", ORD_KEY_NUM, 1, NULL, 0, 200, NULL, "inches measured on the table" },
	{ "terrain", ORD_KEY_ENUM, 0, "open|road|forest", 0, 0, "open", "ground moved over" },
	/* no def: unsaid, the sheet's C says (bat_move_charges), filled
	 * when recorded (bat_event_defaults) */
	{ "charge", ORD_KEY_BOOL, 0, NULL, 0, 0, NULL,
	  "the move was a charge (unsaid: yes when the sheet orders C)" },
	{ "contact", ORD_KEY_UNIT, 0, NULL, 0, 0, NULL, "the enemy it made melee contact with" },
	BAT_POSITION_KEYS,
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};
static const struct ord_key_spec form_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit" },
	{ "formation", ORD_KEY_ENUM, 1, "line|column|square|skirmish", 0, 0, NULL, "the new formation" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};
static const struct ord_key_spec gun_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the gun" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};
static const struct ord_key_spec fire_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the firing unit" },
	{ "target", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit fired at" },
	{ "range", ORD_KEY_NUM, 1, NULL, 0, 500, NULL, "inches, middle stand to nearest enemy" },
	{ "firers", ORD_KEY_INT, 0, NULL, 1, 10000, NULL,
	  "figures that can fire (default by formation)" },
	{ "enfilade", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "the target is enfiladed" },
	{ "target_in_woods", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "the target is in woods" },
	{ "firer_in_woods", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "the firer is in woods" },
	{ "hill", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "the firer defends a hilltop" },
	{ "screen", ORD_KEY_UNIT, 0, NULL, 0, 0, NULL,
	  "enemy skirmishers between firer and target: they take the fire (D21)" },
	{ "screen_front", ORD_KEY_NUM, 0, NULL, 0, 500, NULL,
	  "inches of ground the screen covers (at most skirmish_screen_max)" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};
static const struct ord_key_spec artillery_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the gun" },
	{ "target", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit fired at" },
	{ "range", ORD_KEY_NUM, 1, NULL, 0, 500, NULL, "inches" },
	{ "shot", ORD_KEY_ENUM, 0, "ball|shell|grape", 0, 0, NULL,
	  "the shot fired (must be the one ordered)" },
	{ "screen", ORD_KEY_UNIT, 0, NULL, 0, 0, NULL,
	  "enemy skirmishers between gun and target: they take the shot (D21)" },
	{ "screen_front", ORD_KEY_NUM, 0, NULL, 0, 500, NULL,
	  "inches of ground the screen covers (at most skirmish_screen_max)" },
	{ "over", ORD_KEY_UNIT, 0, NULL, 0, 0, NULL, "own men the gun fires over (D22)" },
	{ "clearance", ORD_KEY_NUM, 0, NULL, 0, 500, NULL,
	  "inches the shot passes clear of them (at least fire_over_clearance)" },
	{ "target_in_woods", ORD_KEY_BOOL, 0, NULL, 0, 0, "no",
	  "the target is in woods (fired on only within woods_fired_on_within, D12)" },
	{ "firer_in_woods", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "the gun is in woods (D12)" },
	{ "hill", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "the gun defends a hilltop" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};
static const struct ord_key_spec test_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit that tests its morale" },
	{ "chart", ORD_KEY_ENUM, 0, "d6|d20", 0, 0, NULL,
	  "the game's system, tables morale_chart (the other needs --override, D19)" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};
static const struct ord_key_spec exempt_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit that does not test" },
	{ "reason", ORD_KEY_STR, 1, NULL, 0, 0, NULL, "why (e.g. enfiladed, tests after the melee)" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};
static const struct ord_key_spec melee_keys[] = {
	{ "a", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "one unit in contact" },
	{ "b", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the enemy unit in contact" },
	{ "a_figures", ORD_KEY_INT, 0, NULL, 1, 10000, NULL, "figures of a engaged (default: all)" },
	{ "b_figures", ORD_KEY_INT, 0, NULL, 1, 10000, NULL, "figures of b engaged (default: all)" },
	{ "a_fresh", ORD_KEY_BOOL, 0, NULL, 0, 0, NULL,
	  "new men join a in a melee that goes on (+1, D1)" },
	{ "b_fresh", ORD_KEY_BOOL, 0, NULL, 0, 0, NULL, "new men join b" },
	{ "a_hill", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "a defends a hilltop" },
	{ "b_hill", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "b defends a hilltop" },
	{ "a2", ORD_KEY_UNIT, 0, NULL, 0, 0, NULL, "a second unit fighting beside a (D20)" },
	{ "b2", ORD_KEY_UNIT, 0, NULL, 0, 0, NULL, "a second unit fighting beside b (D20)" },
	{ "a2_figures", ORD_KEY_INT, 0, NULL, 1, 10000, NULL, "figures of a2 engaged (default: all)" },
	{ "b2_figures", ORD_KEY_INT, 0, NULL, 1, 10000, NULL, "figures of b2 engaged (default: all)" },
	{ "a2_fresh", ORD_KEY_BOOL, 0, NULL, 0, 0, NULL,
	  "a2 is new men joining a's melee that goes on (+1, D1)" },
	{ "b2_fresh", ORD_KEY_BOOL, 0, NULL, 0, 0, NULL, "b2 is new men joining b's" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};
static const struct ord_key_spec halt_keys[] = {
	{ "unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "cavalry that will not pursue" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

static const struct ord_event_kind events[] = {
	{ "move", "movement", move_keys, "a unit moved (distance measured on the table)" },
	{ "form", "movement", form_keys, "a unit changed formation (line, column, square, skirmish)" },
	{ "limber", "movement", gun_keys, "a gun limbered" },
	{ "unlimber", "movement", gun_keys, "a gun unlimbered" },
	{ "fire", "fire", fire_keys, "musket or rifle fire at a target" },
	{ "artillery", "fire", artillery_keys, "a gun fired at a target" },
	{ "test", "fire-morale", test_keys,
	  "a morale test (automatic for every unit that took fire: another needs --override)" },
	{ "exempt", "fire-morale", exempt_keys,
	  "the referee excuses a unit from its test: always needs --override (D24)" },
	{ "melee", "melee", melee_keys, "two units in contact fight" },
	{ "halt", "melee-morale", halt_keys, "cavalry that breaks infantry but does not pursue" },
	{ NULL, NULL, NULL, NULL },
};

/* A unit's state (ruleset.h, "a unit's state"); a turn of 0 means never. */
#define TURN(k, help)                     \
	{                                 \
		k, ORD_KEY_INT, "0", help \
	}
static const char *const languages[] = { "en", NULL };

static const struct ord_state_key state_keys[] = {
	{ "figures", ORD_KEY_INT, "0", "figures left (gunners for artillery)" },
	{ "losses", ORD_KEY_INT, "0", "figures lost in all" },
	{ "trays", ORD_KEY_INT, "0", "trays removed (losses / figures_per_tray)" },
	{ "carried", ORD_KEY_INT, "0", "losses carried on the sheet, short of a tray" },
	{ "formation", ORD_KEY_STR, "line",
	  "line column square skirmish misc squadron limbered unlimbered" },
	{ "class", ORD_KEY_STR, "", "the d20 chart class (drops after a d20 rout)" },
	{ "failed", ORD_KEY_INT, "0", "1 once the unit has failed a morale test" },
	TURN("retreat_turn", "the turn it must retreat"),
	TURN("routed", "the turn it routed"),
	TURN("rout_until", "the last turn of the rout"),
	TURN("penalty_until", "the last turn of the routed -3 on tests (routed_recently)"),
	TURN("dress_until", "the last turn it dresses its ranks (no move forward)"),
	TURN("last_charge", "the turn of its last charge"),
	TURN("moved", "the turn it moved"),
	TURN("changed", "the turn it changed formation"),
	TURN("charged", "the turn it charged"),
	TURN("contact", "the turn its move made melee contact (the mover's, D3)"),
	{ "contact_unit", ORD_KEY_STR, "", "the enemy its move of turn contact contacted (id)" },
	TURN("in_contact", "the turn of contact_with"),
	{ "contact_with", ORD_KEY_STR, "",
	  "the enemies that came into melee contact with it in turn in_contact, either moving (ids)" },
	TURN("unlimbered", "the turn it unlimbered (artillery)"),
	{ "hits", ORD_KEY_INT, "0", "artillery hits taken" },
	{ "silenced", ORD_KEY_INT, "0", "1 when the gun is out" },
	TURN("fired_on", "the turn it was hit by fire"),
	TURN("loss_turn", "the turn of turn_losses"),
	{ "turn_losses", ORD_KEY_INT, "0", "figures lost in turn loss_turn (for morale)" },
	TURN("deferred", "the turn its fire-morale test waits for the melee"),
	TURN("fought", "the turn it fought a melee"),
	TURN("lost_melee", "the turn it lost a melee"),
	TURN("tied_melee", "the turn it drew a melee"),
	{ "melee_with", ORD_KEY_STR, "", "the enemy it is locked in melee with (id)" },
	TURN("melee_since", "the turn that melee began"),
	/* where the referee says it stands (positions.c): for the map only */
	{ "x", ORD_KEY_NUM, NULL, "inches from the table's west edge, when given" },
	{ "y", ORD_KEY_NUM, NULL, "inches from the table's north edge, when given" },
	{ "unplaced", ORD_KEY_NUM, "0",
	  "inches moved without a position since x, y were given (position_distance_checked)" },
	{ NULL, 0, NULL, NULL },
};

/* What this file reads from the tables beyond what bat_load insists on. */
static const char *const module_params[] = {
	"figures_per_tray",      "column_firers",        "gun_hits_silence", "charge_interval",
	"unlimber_turns",        "unlimber_turns_horse", "rout_turns",       "rout_penalty_turns",
	"dress_ranks_turns",     "artillery_die",        "morale_die",       "melee_die",
	"woods_fired_on_within", "limber_turns",         "forward_within",   "morale_chart",
	"skirmish_screen_max",   "fire_over_clearance",  "gun_crew_max",     "woods_may_fire",
};

/* The values this file can work with, checked at load (bat_load checks
 * its own): whole turns and figures, a count of hits, degrees. */
static const struct ord_tables_range module_ranges[] = {
	ORD_TABLES_WHOLE("column_firers", 0, 10000),
	ORD_TABLES_WHOLE("gun_crew_max", 1, 10000),
	ORD_TABLES_WHOLE("gun_hits_silence", 1, 1000),
	ORD_TABLES_WHOLE("charge_interval", 0, 1000),
	ORD_TABLES_WHOLE("unlimber_turns", 0, 1000),
	ORD_TABLES_WHOLE("unlimber_turns_horse", 0, 1000),
	ORD_TABLES_WHOLE("rout_turns", 0, 1000),
	ORD_TABLES_WHOLE("rout_penalty_turns", 0, 1000),
	ORD_TABLES_WHOLE("dress_ranks_turns", 0, 1000),
	ORD_TABLES_NUM("forward_within", 0, 180),
	ORD_TABLES_WHOLE("morale_chart", 0, 1),
	ORD_TABLES_NUM("skirmish_screen_max", 0, INFINITY),
	ORD_TABLES_NUM("fire_over_clearance", 0, INFINITY),
};

/* ---- helpers the module's files share (bat.h) ---- */

struct bat_rules *bat_r(struct ord_ctx *ctx)
{
	return bat_rules(ord_ctx_rules(ctx));
}

/* A parameter bat_module_load has checked: the lookup cannot fail. */
double bat_p(struct ord_ctx *ctx, const char *name)
{
	double v = 0;

	bat_param(bat_r(ctx), name, &v);
	return v;
}

long bat_ip(struct ord_ctx *ctx, const char *name)
{
	return lround(bat_p(ctx, name));
}

int bat_flag(struct ord_ctx *ctx, const char *name)
{
	return ord_tables_switch(bat_r(ctx)->tables, name);
}

/* The rule fmt with the parameter's value, in b (reset). */
const char *bat_rule_text(struct ord_ctx *ctx, struct ord_buf *b, const char *fmt, const char *name)
{
	ord_buf_reset(b);
	ord_buf_addf(b, fmt, bat_p(ctx, name));
	return b->buf;
}

long bat_st(struct ord_ctx *ctx, const struct ord_unit *u, const char *key)
{
	return ord_state_int(ctx, u, key);
}

void bat_st_set(struct ord_ctx *ctx, struct ord_unit *u, const char *key, long v)
{
	ord_state_set_int(ctx, u, key, v);
}

const char *bat_kind(const struct ord_unit *u)
{
	const char *k = ord_kv_get(&u->attrs, "kind");
	return k ? k : "";
}

/* The row of the table kinds of a kind, or NULL (no such kind): found
 * once for each kind the rules are asked of, the first 16 (every sheet
 * order asks its unit's arm; the tables do not change); *seen_at its
 * place in r->kinds_seen, or -1 past them. */
static const struct ord_row *kind_row(const struct bat_rules *r, const char *kind, int *seen_at)
{
	struct bat_kinds_seen *seen = r->kinds_seen;
	const struct ord_table *t;
	const struct ord_row *row = NULL;
	size_t i;

	*seen_at = -1;
	for (i = 0; seen && i < seen->n; i++)
		if (!strcmp(seen->kind[i], kind)) {
			*seen_at = (int)i;
			return seen->row[i];
		}
	t = ord_tables_get(r->tables, "kinds");
	if (t && ord_table_find1(&row, t, "kind", kind))
		row = NULL;
	if (seen && seen->n < ORD_ARRAY_SIZE(seen->kind)) {
		*seen_at = (int)seen->n;
		seen->kind[seen->n] = ord_strdup(kind);
		seen->arm[seen->n] = NULL;
		seen->row[seen->n++] = row;
	}
	return row;
}

/* A label of a row of the table kinds, or "" (no such kind). */
static const char *row_label(const struct ord_row *row, const char *label)
{
	const char *a = row ? ord_row_str(row, label) : "";

	ord_error_clear();
	return a ? a : "";
}

/* A label of a kind's row of the table kinds, or "" (no such kind). */
static const char *kind_label(const struct bat_rules *r, const char *kind, const char *label)
{
	int at;

	return row_label(kind_row(r, kind ? kind : "", &at), label);
}

/* The arm of a unit's kind (infantry, cavalry, artillery) from the tables,
 * kept with the kind's row (every sheet order asks it). */
const char *bat_arm(struct ord_ctx *ctx, const struct ord_unit *u)
{
	const struct bat_rules *r = bat_r(ctx);
	int at;
	const struct ord_row *row = kind_row(r, bat_kind(u), &at);

	if (at < 0)
		return row_label(row, "arm");
	if (!r->kinds_seen->arm[at])
		r->kinds_seen->arm[at] = row_label(row, "arm");
	ord_error_clear();
	return r->kinds_seen->arm[at];
}

int bat_is_arm(struct ord_ctx *ctx, const struct ord_unit *u, const char *a)
{
	return !strcmp(bat_arm(ctx, u), a);
}

const char *bat_formation(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return ord_state_str(ctx, u, "formation");
}

/* The formation as the fire, melee and movement charts know it: the
 * kind's own order when the table kinds gives one (skirmishers in skirmish
 * order, D27; a gun, limbered or not, as a line, D11), else the unit's. */
static const char *chart_formation(const struct bat_rules *r, const char *kind, const char *formation)
{
	return bat_chart_formation_as(kind_label(r, kind, "formation"), formation);
}

const char *bat_kind_formation(struct ord_ctx *ctx, const char *kind)
{
	return kind_label(bat_r(ctx), kind, "formation");
}

const char *bat_chart_formation_as(const char *label, const char *formation)
{
	if (*label && strcmp(label, "*"))
		return label;
	return strstr(formation, "limbered") ? "line" : formation;
}

const char *bat_chart_formation(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return chart_formation(bat_r(ctx), bat_kind(u), bat_formation(ctx, u));
}

const char *bat_formation_shown(struct ord_ctx *ctx, const struct ord_unit *u)
{
	const char *f = bat_formation(ctx, u);

	if (!bat_flag(ctx, "gun_formation_said") || !bat_is_arm(ctx, u, "artillery") ||
	    (strcmp(f, "limbered") && strcmp(f, "unlimbered")))
		return NULL;
	return f;
}

void bat_in_formation(struct ord_ctx *ctx, const struct ord_unit *u, struct ord_buf *out)
{
	const char *shown = bat_formation_shown(ctx, u);

	if (shown)
		ord_buf_adds(out, shown);
	else
		ord_buf_addf(out, "in %s", bat_chart_formation(ctx, u));
}

/* Does an enfilade change how the unit is hit?  Not a kind whose row of
 * the table kinds says enfiladed="no" (a gun's crew has no formation to
 * take in flank, D11); a game made before the label keeps its tables
 * without it, and the enfilade it gave. */
int bat_enfiladed(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return strcmp(kind_label(bat_r(ctx), bat_kind(u), "enfiladed"), "no") != 0;
}

const char *bat_fires_as(struct ord_ctx *ctx, const struct ord_unit *u)
{
	const struct ord_table *t = ord_tables_get(bat_r(ctx)->tables, "formations");
	const char *f = bat_chart_formation(ctx, u), *a = NULL;
	const struct ord_row *row;

	if (t && !ord_table_find1(&row, t, "formation", f))
		a = ord_row_str(row, "fires_as");
	ord_error_clear();
	return a ? a : f;
}

int bat_is_elite(const struct ord_unit *u)
{
	const char *q = ord_kv_get(&u->attrs, "quality");
	return q && !strcmp(q, "elite");
}

int bat_is_militia(const struct ord_unit *u)
{
	const char *q = ord_kv_get(&u->attrs, "quality");
	return q && !strcmp(q, "militia");
}

int bat_routed(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return bat_st(ctx, u, "routed") && bat_st(ctx, u, "rout_until") >= ord_ctx_turn(ctx);
}

int bat_retreating(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return bat_st(ctx, u, "retreat_turn") == ord_ctx_turn(ctx);
}

int bat_dressing(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return !bat_routed(ctx, u) && !bat_retreating(ctx, u) &&
	       bat_st(ctx, u, "dress_until") >= ord_ctx_turn(ctx);
}

const char *bat_melee_with(struct ord_ctx *ctx, const struct ord_unit *u)
{
	const char *w = ord_state_str(ctx, u, "melee_with");
	return w && *w ? w : NULL;
}

/* u and w came into melee contact this turn (a move's contact=, either
 * way). */
int bat_in_contact(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_unit *w)
{
	return bat_st(ctx, u, "in_contact") == ord_ctx_turn(ctx) &&
	       ord_words_has(ord_state_str(ctx, u, "contact_with"), w->id);
}

/* u and w may fight: they came into contact this turn, or are in a melee
 * together from an earlier turn (D25). */
int bat_engaged(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_unit *w)
{
	const char *uw = bat_melee_with(ctx, u), *wu = bat_melee_with(ctx, w);

	return bat_in_contact(ctx, u, w) || bat_in_contact(ctx, w, u) ||
	       (uw && !strcmp(uw, w->id)) || (wu && !strcmp(wu, u->id));
}

/* Locked in a melee that began in an earlier turn. */
int bat_still_in_melee(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return bat_melee_with(ctx, u) && bat_st(ctx, u, "melee_since") < ord_ctx_turn(ctx);
}

/* The game's morale system (D19): the d20 sheet when its tables say so. */
const char *bat_game_chart(struct ord_ctx *ctx)
{
	return bat_p(ctx, "morale_chart") != 0 ? "d20" : "d6";
}

int bat_is_horse_artillery(const struct ord_unit *u)
{
	return !strcmp(bat_kind(u), "horse_artillery");
}

/* The formation a form code orders, or NULL. */
const char *bat_form_code_formation(const char *code)
{
	static const char *const map[][2] = {
		{ "FLn", "line" },
		{ "FCol", "column" },
		{ "FSk", "skirmish" },
		{ "FSq", "square" },
	};
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(map); i++)
		if (!strcmp(code, map[i][0]))
			return map[i][1];
	return NULL;
}

const char *bat_fire_code_shot(const char *code)
{
	if (!strcmp(code, "Fb"))
		return "ball";
	if (!strcmp(code, "Fs"))
		return "shell";
	if (!strcmp(code, "Fg"))
		return "grape";
	return NULL;
}

const struct ord_token *bat_order_form(const struct ord_order *o)
{
	size_t i;

	for (i = 0; o && i < o->ntok; i++)
		if (o->tok[i].kind == ORD_TOK_CODE && bat_form_code_formation(o->tok[i].value))
			return &o->tok[i];
	return NULL;
}

const struct ord_token *bat_order_fire(const struct ord_order *o)
{
	size_t i;

	for (i = 0; o && i < o->ntok; i++)
		if (o->tok[i].kind == ORD_TOK_CODE && bat_fire_code_shot(o->tok[i].value))
			return &o->tok[i];
	return NULL;
}

int bat_order_has(const struct ord_order *o, const char *code)
{
	return o && ord_order_code(o, code) != NULL;
}

/* Quarters of the move ordered: the fraction, or the whole move after an arrow. */
int bat_ordered_quarters(struct ord_ctx *ctx, const struct ord_order *o)
{
	const struct ord_token *f = o ? ord_order_find(o, ORD_TOK_FRAC) : NULL;

	if (f)
		return f->num;
	return o && ord_order_find(o, ORD_TOK_DIR) ? (int)bat_ip(ctx, "move_fraction_parts") : 0;
}

/* The order's arrow points forward: within forward_within degrees of the
 * enemy (D6). */
int bat_order_forward(struct ord_ctx *ctx, const struct ord_order *o)
{
	return bat_arrow_forward(o ? ord_order_find(o, ORD_TOK_DIR) : NULL,
				 bat_p(ctx, "forward_within"));
}

int bat_arrow_forward(const struct ord_token *d, double within)
{
	return d && (d->num < within || d->num > 360 - within);
}

/* "moves 3 turns backwards, backs to the enemy": the arrow within
 * forward_within degrees of straight back (180), as a forward one is of
 * the enemy's direction; a sideways arrow is neither (D6). */
int bat_order_back(struct ord_ctx *ctx, const struct ord_order *o)
{
	return bat_arrow_back(o ? ord_order_find(o, ORD_TOK_DIR) : NULL, bat_p(ctx, "forward_within"));
}

int bat_arrow_back(const struct ord_token *d, double within)
{
	return d && abs(d->num - 180) < within;
}

struct ord_unit *bat_ev_unit(struct ord_ctx *ctx, const struct ord_event *ev, const char *key)
{
	const char *v = ord_kv_get(&ev->kv, key);
	return v ? ord_ctx_find_unit(ctx, v) : NULL;
}

int bat_melee_between(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
		      const struct ord_unit *w)
{
	struct ord_unit *a, *b, *a2, *b2;
	int ua, ub, wa, wb;

	if (strcmp(ev->kind, "melee"))
		return 0;
	a = bat_ev_unit(ctx, ev, "a");
	b = bat_ev_unit(ctx, ev, "b");
	a2 = bat_ev_unit(ctx, ev, "a2");
	b2 = bat_ev_unit(ctx, ev, "b2");
	ua = u == a || (a2 && u == a2);
	ub = u == b || (b2 && u == b2);
	wa = w == a || (a2 && w == a2);
	wb = w == b || (b2 && w == b2);
	return (ua && wb) || (wa && ub);
}

/* "C - means the unit wishes to charge": the move of a unit whose sheet
 * orders C is its charge unless the referee says otherwise (charge=no,
 * refused without --override); a unit routed or retreating from an
 * earlier turn moves by the rules, never by its orders (D6).  Read in the
 * turn's movement and after it alike: a rout of this turn does not count. */
int bat_move_charges(struct ord_ctx *ctx, const struct ord_event *ev)
{
	struct ord_unit *u;

	if (ord_kv_get(&ev->kv, "charge"))
		return ord_kv_get_bool(&ev->kv, "charge", 0);
	if (!bat_flag(ctx, "charge_moves_checked") || !(u = bat_ev_unit(ctx, ev, "unit")))
		return 0;
	if ((bat_routed(ctx, u) && bat_st(ctx, u, "routed") < ord_ctx_turn(ctx)) ||
	    bat_retreating(ctx, u))
		return 0;
	return bat_order_has(ord_ctx_order(ctx, u), "C");
}

/* A unit's losses: trays are removed per figures_per_tray, the rest carried. */
void bat_take_losses(struct ord_ctx *ctx, struct ord_unit *u, int n)
{
	long figures = bat_st(ctx, u, "figures"), losses, trays, carried;

	if (n > figures)
		n = (int)figures;
	if (n < 0)
		n = 0;
	losses = bat_st(ctx, u, "losses") + n;
	bat_st_set(ctx, u, "figures", figures - n);
	bat_st_set(ctx, u, "losses", losses);
	bat_trays(bat_r(ctx), losses, &trays, &carried);
	bat_st_set(ctx, u, "trays", trays);
	bat_st_set(ctx, u, "carried", carried);
	if (bat_st(ctx, u, "loss_turn") != ord_ctx_turn(ctx)) {
		bat_st_set(ctx, u, "loss_turn", ord_ctx_turn(ctx));
		bat_st_set(ctx, u, "turn_losses", 0);
	}
	bat_st_set(ctx, u, "turn_losses", bat_st(ctx, u, "turn_losses") + n);
}

long bat_turn_losses(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return bat_st(ctx, u, "loss_turn") == ord_ctx_turn(ctx) ? bat_st(ctx, u, "turn_losses") : 0;
}

/* ---- load, units ---- */

/* Each kind's formation (table kinds) is "*" or a row of formations. */
static int check_kind_formations(const struct bat_rules *r)
{
	const struct ord_table *k = ord_tables_get(r->tables, "kinds");
	const struct ord_table *f = ord_tables_get(r->tables, "formations");
	size_t i;

	for (i = 0; i < ord_table_nrows(k); i++) {
		const struct ord_row *row = ord_table_row(k, i);
		const char *v = ord_row_str(row, "formation");

		if (v && strcmp(v, "*") && ord_table_check_word(f, "formation", v, "formation"))
			return ord_error_set(ORD_EBADDATA,
					     "%s:%u: table 'kinds': formation '%s' of %s is not a row of table 'formations'",
					     ord_tables_name(r->tables), ord_row_line(row), v,
					     ord_row_str(row, "kind"));
	}
	return 0;
}

/* With melee_points_by_formation on, the table formations says for each
 * formation whose melee points a figure in it counts (melee_points_as):
 * "*" or a kind of the table melee_points. */
static int check_melee_points_as(const struct bat_rules *r)
{
	const struct ord_table *f = ord_tables_get(r->tables, "formations");
	const struct ord_table *p = ord_tables_get(r->tables, "melee_points");
	size_t i, k;

	if (!ord_tables_switch(r->tables, "melee_points_by_formation"))
		return 0;
	for (k = 0; k < ord_table_nlabels(f); k++)
		if (!strcmp(ord_table_label(f, k), "melee_points_as"))
			break;
	if (k == ord_table_nlabels(f))
		return ord_error_set(ORD_EBADDATA,
				     "%s:%u: melee_points_by_formation is on but table 'formations' has no label 'melee_points_as' (the kind whose melee points a figure in each formation counts, or *)",
				     ord_tables_name(r->tables), ord_table_line(f));
	for (i = 0; i < ord_table_nrows(f); i++) {
		const struct ord_row *row = ord_table_row(f, i);
		const char *v = ord_row_str(row, "melee_points_as");

		if (strcmp(v, "*") && ord_table_check_word(p, "melee_points_as", v, "kind"))
			return ord_error_set(ORD_EBADDATA,
					     "%s:%u: table 'formations': melee_points_as '%s' of %s is not a kind of table 'melee_points' (expected * or one of its kinds)",
					     ord_tables_name(r->tables), ord_row_line(row), v,
					     ord_row_str(row, "formation"));
	}
	return 0;
}

/* bat_load, then what this file reads: a club's edited tables fail when
 * they are loaded rather than in the middle of a turn. */
static int bat_module_load(struct ord_rules **out, const char *xml, size_t len, const char *name)
{
	struct ord_rules *rules = NULL;
	const struct bat_rules *r;
	const struct ord_table *t;
	double v;
	size_t i;
	int err;

	*out = NULL;
	if ((err = bat_load(&rules, xml, len, name)) != 0)
		return err;
	r = bat_rules(rules);
	for (i = 0; i < ORD_ARRAY_SIZE(module_params); i++)
		if (bat_param(r, module_params[i], &v)) {
			err = ord_error_set(ORD_EBADDATA, "%s: no parameter '%s'",
					    ord_tables_name(r->tables), module_params[i]);
			goto out;
		}
	if ((err = ord_tables_check_ranges(r->tables, module_ranges, ORD_ARRAY_SIZE(module_ranges))) != 0)
		goto out;
	if ((err = ord_tables_find(&t, r->tables, "order_codes", ORD_TABLE_CHART)) != 0) {
		if (err == ORD_ENOTFOUND)
			err = ORD_EBADDATA;
		goto out;
	}
	/* limbering takes the turn it is ordered in (D8), whatever the number */
	if (bat_param(r, "limber_turns", &v) == 0 && v != 1) {
		err = ord_error_set(ORD_EBADDATA,
				    "%s: limber_turns is %g, but this module carries out limbering as the one turn it is ordered in (D8)",
				    ord_tables_name(r->tables), v);
		goto out;
	}
	/* a check its tables switch on reads its number */
	if (ord_tables_switch(r->tables, "position_distance_checked") &&
	    bat_param(r, "position_tolerance", &v)) {
		err = ord_error_set(ORD_EBADDATA,
				    "%s: position_distance_checked is on but there is no parameter 'position_tolerance' (the inches a move's position may lie beyond its distance)",
				    ord_tables_name(r->tables));
		goto out;
	}
	if (ord_tables_switch(r->tables, "range_position_checked") &&
	    bat_param(r, "range_position_tolerance", &v)) {
		err = ord_error_set(ORD_EBADDATA,
				    "%s: range_position_checked is on but there is no parameter 'range_position_tolerance' (the inches a fire's range may differ from the distance between the units' positions)",
				    ord_tables_name(r->tables));
		goto out;
	}
	if (ord_table_die(ord_tables_get(r->tables, "morale20")) < 2) {
		err = ord_error_set(ORD_EBADDATA, "%s: table 'morale20' must say its die (die=\"20\")",
				    ord_tables_name(r->tables));
		goto out;
	}
	if ((err = check_kind_formations(r)) != 0 || (err = check_melee_points_as(r)) != 0)
		goto out;
	if (ord_table_nkeys(t) != 2 || strcmp(ord_table_key(t, 0), "code") ||
	    strcmp(ord_table_key(t, 1), "kind")) {
		err = ord_error_set(ORD_EBADDATA,
				    "%s:%u: table 'order_codes' must have the keys 'code kind'",
				    ord_tables_name(r->tables), ord_table_line(t));
		goto out;
	}
	*out = rules;
	rules = NULL;
out:
	bat_free(rules);
	return err;
}

/* A scenario attribute the rules look up in a table must be one the
 * tables have: a unit of a kind the club's tables left out could never
 * move, fire or fight.  A problem for each in diag; the rule names the
 * table and the document. */
static void check_in_tables(const struct bat_rules *r, const struct ord_unit *u, struct ord_diag *diag)
{
	static const struct {
		const char *attr, *table, *column, *skip; /* skip: values the code handles itself */
	} words[] = {
		{ "kind", "kinds", "kind", NULL },
		{ "formation", "formations", "formation", "limbered unlimbered" },
		{ "weapon", "fire", "weapon", "none" },
		{ "class", "morale20_classes", "class", NULL },
	};
	struct ord_buf rule = ORD_BUF_INIT;
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(words); i++) {
		const char *v = ord_kv_get(&u->attrs, words[i].attr);
		const struct ord_table *t = ord_tables_get(r->tables, words[i].table);

		if (!v || !t || (words[i].skip && ord_words_has(words[i].skip, v)))
			continue;
		if (ord_table_check_word(t, words[i].attr, v, words[i].column)) {
			ord_buf_reset(&rule);
			ord_buf_addf(&rule, "table '%s' of %s", words[i].table,
				     ord_tables_name(r->tables));
			ord_diag_add_attr(diag, u->id, words[i].attr, rule.buf, "%s", ord_error_last());
			ord_error_clear();
		}
	}
	ord_buf_release(&rule);
}

/* "The basic artillery unit is one gun with up to 12 artillerists": a
 * scenario's gun with more is refused (gun_crew_max). */
static void check_gun_crew(const struct bat_rules *r, const struct ord_unit *u, struct ord_diag *diag)
{
	double max = 0;
	long fig = ord_kv_get_int(&u->attrs, "figures", 0);

	if (strcmp(kind_label(r, ord_kv_get(&u->attrs, "kind"), "arm"), "artillery") ||
	    bat_param(r, "gun_crew_max", &max) || fig <= max)
		return;
	ord_diag_add_attr(diag, u->id, "figures",
			  "the basic artillery unit is one gun with up to 12 artillerists",
			  "%s is one gun with %ld artillerists: at most %g (gun_crew_max)",
			  ord_kv_get(&u->attrs, "kind"), fig, max);
}

/* The formations of the table formations that kind has a move in (the
 * movement chart's rows), each once, added to may. */
static void kind_formations(const struct bat_rules *r, const char *kind, struct ord_buf *may)
{
	const struct ord_table *t = ord_tables_get(r->tables, "formations");
	size_t i;

	for (i = 0; i < ord_table_nrows(t); i++) {
		const char *p = ord_row_str(ord_table_row(t, i), "formation"), *w;
		const struct ord_row *row;
		size_t len;

		while (p && (w = ord_words_next(&p, &len)) != NULL) {
			struct ord_buf word = ORD_BUF_INIT;
			struct ord_kv m;

			ord_buf_addf(&word, "%.*s", (int)len, w);
			ord_kv_init(&m);
			ord_kv_set(&m, "kind", kind);
			ord_kv_set(&m, "formation", word.buf);
			if (!ord_words_has(may->buf, word.buf) &&
			    !ord_table_find(&row, ord_tables_get(r->tables, "movement"), &m))
				ord_words_add(may, " ", word.buf);
			ord_error_clear();
			ord_kv_release(&m);
			ord_buf_release(&word);
		}
	}
}

/* A scenario's formation must be one the unit's kind may have: a gun's
 * limbered or unlimbered (bat_init_unit makes anything else limbered), a
 * battalion's a row of table formations it has a move in (a gun's order
 * would leave it to move and fire as a line, cavalry's squadron to move
 * in no row of the movement chart), and a kind with its own order (D27,
 * D28) that order (squadron for cavalry, since rules revision
 * 2026-12-05.2), or a battalion's formation read as it (older scenarios
 * gave cavalry a column), never a gun's nor another kind's own order.
 * After the state is made, as the other checks: only `new` refuses, and
 * the audit replays an older game's first states as they were. */
static void check_formation_of(const struct bat_rules *r, const struct ord_unit *u,
			       struct ord_diag *diag)
{
	const char *f = ord_kv_get(&u->attrs, "formation");
	const char *kind = bat_kind(u), *own = kind_label(r, kind, "formation");
	const char *guns = "limbered unlimbered";
	const struct ord_table *kinds = ord_tables_get(r->tables, "kinds");
	struct ord_buf may = ORD_BUF_INIT, rule = ORD_BUF_INIT, any = ORD_BUF_INIT;
	size_t i;

	if (!f)
		return;
	if (strstr(kind, "artillery")) {
		if (ord_words_has(guns, f))
			return;
		ord_buf_adds(&may, guns);
	} else if (*own && strcmp(own, "*")) {
		/* its own order, or what a battalion may be in (the
		 * formations of the kinds with none of their own) read as it */
		if (!strcmp(f, own))
			return;
		for (i = 0; i < ord_table_nrows(kinds); i++) {
			const struct ord_row *row = ord_table_row(kinds, i);
			if (!strcmp(row_label(row, "formation"), "*"))
				kind_formations(r, row_label(row, "kind"), &any);
		}
		if (!ord_words_has(guns, f) && ord_words_has(any.buf, f))
			goto out;
		ord_buf_addf(&may, "%s, or %s%s, each read as %s", own,
			     strchr(any.buf, ' ') ? "one of " : "", any.buf, own);
		ord_buf_addf(&rule, "table 'kinds' of %s", ord_tables_name(r->tables));
	} else {
		/* a gun's order, or another kind's own (cavalry's squadron);
		 * a battalion formation a club's movement chart lacks is
		 * check_rows_needed's to name */
		int others = 0;

		for (i = 0; i < ord_table_nrows(kinds); i++)
			if (!strcmp(row_label(ord_table_row(kinds, i), "formation"), f))
				others = 1;
		kind_formations(r, kind, &may);
		if (!ord_words_has(guns, f) && (!others || ord_words_has(may.buf, f)))
			goto out;
		ord_buf_addf(&rule, "tables 'formations' and 'movement' of %s",
			     ord_tables_name(r->tables));
	}
	ord_diag_add_attr(diag, u->id, "formation", rule.len ? rule.buf : "",
			  "formation '%s' is not for %s (expected %s%s)", f, kind,
			  strchr(may.buf, ' ') && !strchr(may.buf, ',') ? "one of " : "", may.buf);
out:
	ord_buf_release(&may);
	ord_buf_release(&rule);
	ord_buf_release(&any);
}

/* check_formation_of, once for each case (kind, formation) found one of
 * the kind's: the tables do not change, and the kind's formations were
 * found again for every unit (25,000 instructions a unit, a tenth of the
 * audit of a first turn).  A case that is refused is checked every time,
 * so that every unit of it is named. */
static void check_formation(struct bat_rules *r, const struct ord_unit *u, struct ord_diag *diag)
{
	const char *f = ord_kv_get(&u->attrs, "formation"), *kind = bat_kind(u), *line;
	struct ord_buf key = ORD_BUF_INIT;
	size_t before = diag->n;

	if (!f || strpbrk(f, "\t\n") || strpbrk(kind, "\t\n")) {
		check_formation_of(r, u, diag);
		return;
	}
	ord_buf_addf(&key, "%s\t%s\n", kind, f);
	for (line = r->formations_whole.len ? r->formations_whole.buf : ""; *line;
	     line = strchr(line, '\n') + 1)
		if (!strncmp(line, key.buf, key.len)) {
			ord_buf_release(&key);
			return;
		}
	check_formation_of(r, u, diag);
	if (diag->n == before)
		ord_buf_adds(&r->formations_whole, key.buf);
	ord_buf_release(&key);
}

/* The tables, for the core's checks of a club's document (ruleset.h). */
static const struct ord_tables *bat_tables(struct ord_rules *rules)
{
	return bat_rules(rules)->tables;
}

/* A formation a unit may be in (its first, or one a form code of its
 * orders gives it, code): the charts must count it, and the movement
 * chart move it.  Each chart formation once (seen). */
static void need_formation(const struct bat_rules *r, const struct ord_unit *u, const char *kind,
			   const char *formation, const char *code, struct ord_buf *seen,
			   struct ord_diag *diag)
{
	const char *chart = chart_formation(r, kind, formation);
	const char *attr = code ? "kind" : "formation";
	const struct ord_row *row;
	struct ord_buf why = ORD_BUF_INIT, rule = ORD_BUF_INIT;
	struct ord_kv m;

	if (ord_words_has(seen->buf, chart))
		return;
	ord_words_add(seen, " ", chart);
	if (code)
		ord_buf_addf(&why, ", a formation its orders may give it (%s)", code);
	if (code && ord_table_check_word(ord_tables_get(r->tables, "formations"), "formation",
					 chart, "formation")) {
		ord_error_clear();
		ord_buf_addf(&rule, "table 'formations' of %s", ord_tables_name(r->tables));
		ord_diag_add_attr(diag, u->id, attr, rule.buf, "no formation %s%s", chart, why.buf);
	}
	ord_kv_init(&m);
	ord_kv_set(&m, "kind", kind);
	ord_kv_set(&m, "formation", chart);
	if (ord_table_find(&row, ord_tables_get(r->tables, "movement"), &m)) {
		ord_error_clear();
		ord_buf_reset(&rule);
		ord_buf_addf(&rule, "table 'movement' of %s", ord_tables_name(r->tables));
		ord_diag_add_attr(diag, u->id, attr, rule.buf, "no movement for %s in %s%s", kind,
				  chart, why.buf);
	}
	ord_kv_release(&m);
	ord_buf_release(&why);
	ord_buf_release(&rule);
}

/* The rows the phases read for a unit, for all its kind may do: a move in
 * its formation and in each its form codes give it (table order_codes), a
 * shot of each of its fire codes, its melee points, and the d20 chart for
 * its class and every class a rout drops it to when the game tests on it
 * (morale_chart, D19).  A club's tables that leave one out are refused
 * when the game is made, naming the unit, rather than failing the turn
 * that first reads it.  A problem for each in diag. */
static void check_rows_needed(struct bat_rules *r, const struct ord_unit *u, struct ord_diag *diag)
{
	const char *kind = ord_kv_get(&u->attrs, "kind");
	const struct ord_table *codes = ord_tables_get(r->tables, "order_codes");
	const char *doc = ord_tables_name(r->tables);
	struct ord_buf seen = ORD_BUF_INIT, rule = ORD_BUF_INIT, key = ORD_BUF_INIT;
	const struct ord_row *row;
	const char *line;
	double d20 = 0;
	size_t i, before = diag->n;

	if (!kind)
		return;
	/* a case found whole before is whole: 28,000 instructions a unit
	 * were a tenth of the audit of a 10,000-unit game */
	ord_buf_addf(&key, "%s\t%s\t%s\n", kind,
		     ord_kv_get(&u->state, "formation") ? ord_kv_get(&u->state, "formation") : "",
		     ord_kv_get(&u->state, "class") ? ord_kv_get(&u->state, "class") : "");
	for (line = r->rows_whole.len ? r->rows_whole.buf : ""; *line; line = strchr(line, '\n') + 1)
		if (!strncmp(line, key.buf, key.len)) {
			ord_buf_release(&key);
			return;
		}
	need_formation(r, u, kind, ord_kv_get(&u->state, "formation"), NULL, &seen, diag);
	for (i = 0; i < ord_table_nrows(codes); i++) {
		const char *kinds = ord_row_str(ord_table_row(codes, i), "kind");
		const char *p = ord_row_str(ord_table_row(codes, i), "code"), *w;
		size_t len;

		if (!ord_words_has(kinds, kind) && !ord_words_has(kinds, "*"))
			continue;
		while ((w = ord_words_next(&p, &len)) != NULL) {
			char code[16];
			const char *shot;

			snprintf(code, sizeof(code), "%.*s", (int)len, w);
			if (bat_form_code_formation(code))
				need_formation(r, u, kind, bat_form_code_formation(code), code,
					       &seen, diag);
			shot = bat_fire_code_shot(code);
			if (shot && ord_table_check_word(ord_tables_get(r->tables, "artillery"),
							 "shot", shot, "shot")) {
				ord_error_clear();
				ord_buf_reset(&rule);
				ord_buf_addf(&rule, "table 'artillery' of %s", doc);
				ord_diag_add_attr(diag, u->id, "kind", rule.buf,
						  "no bands for %s, a shot its orders may fire (%s)",
						  shot, code);
			}
		}
	}
	if (ord_table_find1(&row, ord_tables_get(r->tables, "melee_points"), "kind", kind)) {
		ord_error_clear();
		ord_buf_reset(&rule);
		ord_buf_addf(&rule, "table 'melee_points' of %s", doc);
		ord_diag_add_attr(diag, u->id, "kind", rule.buf, "no melee points for %s", kind);
	}
	if (!bat_param(r, "morale_chart", &d20) && d20 != 0) {
		const struct ord_table *chart = ord_tables_get(r->tables, "morale20");
		const struct ord_table *after = ord_tables_get(r->tables, "morale20_classes");
		const char *cls = ord_kv_get(&u->state, "class");

		/* each class at most once: E drops to E */
		for (i = 0; cls && *cls && i <= ord_table_nrows(after); i++) {
			const char *then = i ? ", the class a rout drops it to" : "";
			ord_buf_reset(&rule);
			if (ord_table_check_word(chart, "class", cls, "class")) {
				ord_buf_addf(&rule, "table 'morale20' of %s", doc);
				ord_diag_add_attr(diag, u->id, "class", rule.buf,
						  "the d20 chart has no rolls for class %s%s", cls,
						  then);
				break;
			}
			if (ord_table_find1(&row, after, "class", cls)) {
				/* the first is check_in_tables' */
				if (i) {
					ord_buf_addf(&rule, "table 'morale20_classes' of %s", doc);
					ord_diag_add_attr(diag, u->id, "class", rule.buf,
							  "no class after a rout for class %s%s",
							  cls, then);
				}
				break;
			}
			if (!strcmp(ord_row_str(row, "after_rout"), cls))
				break;
			cls = ord_row_str(row, "after_rout");
		}
		ord_error_clear();
	}
	if (diag->n == before)
		ord_buf_adds(&r->rows_whole, key.buf);
	ord_buf_release(&key);
	ord_buf_release(&seen);
	ord_buf_release(&rule);
}

static int bat_init_unit(struct ord_rules *rules, struct ord_unit *u, struct ord_diag *diag)
{
	const char *f = ord_kv_get(&u->attrs, "formation");
	const char *k = ord_kv_get(&u->attrs, "kind");
	struct ord_kv init;
	int err;
	const char *own = kind_label(bat_rules(rules), k, "formation");

	if (k && strstr(k, "artillery")) {
		if (!f || (strcmp(f, "limbered") && strcmp(f, "unlimbered")))
			f = "limbered";
	} else if (*own && strcmp(own, "*")) {
		f = own; /* D27: the kind's own order, whatever the scenario wrote */
	}
	ord_kv_init(&init);
	ord_kv_set(&init, "figures", ord_kv_get(&u->attrs, "figures"));
	bat_position_init(u, &init);
	ord_kv_set(&init, "losses", "0");
	ord_kv_set(&init, "trays", "0");
	ord_kv_set(&init, "carried", "0");
	ord_kv_set(&init, "formation", f ? f : "line");
	ord_kv_set(&init, "class",
		   ord_kv_get(&u->attrs, "class") ? ord_kv_get(&u->attrs, "class") : "C");
	ord_kv_set(&init, "failed", "0");
	ord_kv_set(&init, "last_charge", "0");
	err = ord_state_init(&ord_ruleset_battalion, u, &init);
	ord_kv_release(&init);
	/* after the state is made: the audit replays a game's first states */
	if (!err && diag) {
		size_t before = diag->n;
		check_in_tables(bat_rules(rules), u, diag);
		/* a formation of its kind, then what its kind may do, once
		 * the kind is one of the tables' */
		if (diag->n == before)
			check_formation(bat_rules(rules), u, diag);
		if (diag->n == before)
			check_rows_needed(bat_rules(rules), u, diag);
		check_gun_crew(bat_rules(rules), u, diag);
		if (diag->n > before)
			err = ORD_EBADDATA;
	}
	return err;
}

/* An event that cannot happen is refused as it is recorded, whatever the
 * override (bat_event_impossible), and by the replay of a game whose
 * tables switch impossible_replayed on (the core asks this slot of each
 * event as stored, ord_phase_event_refused): a game made before may hold
 * one an orderly of then recorded with an override, and replays it so.  D13: a move's charge= the referee left out, as the
 * module reads it (bat_move_charges): the sheet's C when
 * charge_moves_checked is on, else no, the default the key had.  Stored,
 * so that every move says whether it was a charge as moves always did: a
 * game made before the check replays its events by an orderly of then. */
static int bat_event_defaults(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_kv *out)
{
	struct ord_buf why = ORD_BUF_INIT;

	if (bat_event_impossible(ctx, ev, &why)) {
		int err = ord_error_set(ORD_EUSAGE, "%s", why.buf);
		ord_buf_release(&why);
		return err;
	}
	ord_buf_release(&why);
	if (!strcmp(ev->kind, "move") && !ord_kv_get(&ev->kv, "charge"))
		ord_kv_set(out, "charge", bat_move_charges(ctx, ev) ? "yes" : "no");
	return 0;
}

const struct ord_ruleset ord_ruleset_battalion = {
	ORD_RULESET_VERSION,             /* version */
	"battalion",                     /* name */
	"hieroglyph",                    /* notation */
	phases,                          /* phases */
	unit_attrs,                      /* unit_attrs */
	events,                          /* events */
	"rulesets/battalion/tables.xml", /* tables_resource */
	bat_module_load,                 /* load */
	bat_free,                        /* free */
	bat_init_unit,                   /* init_unit */
	bat_validate_sheet,              /* validate_sheet */
	bat_check_event,                 /* check_event */
	bat_resolve_phase,               /* resolve_phase */
	bat_check_execution,             /* check_execution */
	bat_describe_unit,               /* describe_unit */
	bat_calc,                        /* calc */
	bat_print_tables,                /* print_tables */
	state_keys,                      /* state_keys */
	languages,                       /* languages */
	bat_draw,                        /* draw */
	NULL, /* tables_data: the tables are built in (tables_resource) */
	NULL, /* tables_len */
	NULL, /* complete_tables: a document of tables is whole */
	/* rules_revision: 2026-12-02 corrected D1, D3, D15, D17, D19, D24 to
	 * D26 (docs/threat-model.md, "Rules corrected"); 2026-12-02.2: a unit
	 * of skirmishers is fired at in skirmish order, as a screen too (D27);
	 * cavalry takes no infantry formation's fire or melee modifier (D28);
	 * the firer's skirmish -1/4 from formations.fires_as, units in woods
	 * fire when woods_may_fire says so, a gun over gun_crew_max refused;
	 * 2026-12-02.3: woods cover from guns (D12); a foot gun does not move
	 * in the turn it unlimbers (D8); a routed unit moves back, within its
	 * allowance (D6); nobody tests after a melee tie (D2); a routed or
	 * pursued unit fights with no melee value (D5); 2026-12-02.4: the
	 * move of a unit ordered to charge is its charge unless the event
	 * says charge=no (refused, D13); a unit an enemy's move brought into
	 * melee fires at it whatever its @target (D9); a sheet's order its
	 * units' state makes impossible is refused on the sheet (D8); a
	 * move's position no further than its distance (position_tolerance);
	 * a unit destroyed by fire has no fire morale test, not one deferred
	 * to the melee (words, destroyed_untested); 2026-12-02.5: only a
	 * charge's contact frees the unit charged from its @target, not a
	 * plain move's (D9, fire_at_charger_checked); a move's position may
	 * lie as much further as the unit moved since it was last given
	 * (position_distance_checked); 2026-12-04.1: a gun's order that names
	 * a target names its shot (gun_shot_checked); an enfiladed gun is hit
	 * as a line, its crew having no formation (D11, kinds' enfiladed);
	 * infantry pursued after a retreat, not a rout, fights the pursuit
	 * with its melee value (D5, pursued_retreat_has_value); a gun
	 * defending a hilltop causes 1/4 more dead (artillery hill=,
	 * artillery_modifiers' firer_on_hill); 2026-12-04.2: a unit fights
	 * one melee a turn, a second melee event naming it refused
	 * (one_melee_checked, D20); fewer figures than a unit has only for
	 * skirmishers (melee_whole_checked, D23); 2026-12-05.1: a melee's
	 * charge and square bonuses and its pursuit count the unit beside the
	 * first (melee_both_enemies, D20); a routed or retreating gun
	 * unlimbered limbers before it moves (routed_gun_checked, D6, D8); a
	 * skirmish stand's fire without firers= counts all its figures
	 * (stand_firers_checked, D23); a destroyed screen blocks nothing
	 * (screen_figures_checked, D15); 2026-12-05.2: a fire's range agrees
	 * with the units' positions when both are known
	 * (range_position_checked, range_position_tolerance); a scenario
	 * writes squadron for cavalry, and for no other kind (D28); a melee
	 * that goes on with no event is on the referee's list (D14);
	 * 2026-12-05.3: a sheet orders no formation change beside a charge
	 * (charge_form_checked, D7, D29); 2026-12-05.4: a move's contact= is
	 * a unit's that moved into it, not one that stands
	 * (contact_move_checked, D25); 2026-12-05.5: infantry in skirmish
	 * order has a skirmisher's melee points (melee_points_by_formation,
	 * formations' melee_points_as, D30); 2026-12-05.6: a horse gun
	 * ordered to move that unlimbers and fires does half, moved or not
	 * (horse_moved_by_sheet, D16); 2026-12-05.7: a melee's hilltop is
	 * the defender's, one side's and not the unit whose move made the
	 * contact (melee_hill_checked, D25); 2026-12-05.8: a routed or
	 * retreating unit with no move recorded is on the referee's list and
	 * in the audit's notes (retreat_moves_listed, D6; a list);
	 * 2026-12-05.9: the unit beside the first on a side's hilltop has
	 * its +1 on the die as well as the 1/4 more (melee_hill_whole_side,
	 * D20, D25); 2026-12-06.10: a fire from or into woods refused says
	 * that recorded with --override it still does nothing, as a fire
	 * through a destroyed screen and a melee's figures above a unit's say
	 * what the override gives (overridden_effect_said, D12, D15, D17; a
	 * check's words); 2026-12-06.11: a check says a gun's formation as
	 * it stands, limbered or unlimbered, not "in line" (gun_formation_said,
	 * D11; a check's words); 2026-12-06.12: a unit's move settles its
	 * sheet's C, a charge=no recorded with --override leaving no charge
	 * on the referee's list (charge_no_settles, D13; a list and a
	 * check's words); 2026-12-06.13: a charge ordered over ground the
	 * terrain chart forbids one on is called off by the rules, its move
	 * of charge=no taken without an override (charge_forest_declined,
	 * D13); 2026-12-06.14: an event that cannot happen, refused as it is
	 * recorded whatever the override, is refused by the replay too, where
	 * one written into the log by hand was taken for an override
	 * (impossible_replayed; the core's check, nothing resolved changes) */
	"2026-12-06.14",    /* rules_revision (above) */
	bat_tables,         /* tables */
	bat_event_defaults, /* event_defaults: a move's charge= by its sheet */
	bat_show_result,    /* show_result: an enemy battalion's figures as trays */
	NULL,               /* create_notes: its tables do all they can with any scenario */
	bat_order_events,   /* order_events: what an order waits for, as check_execution */
	NULL,               /* event_help: the events' help in English only */
	NULL,               /* words_resource: its reports are English */
	NULL,               /* messages: its diagnostics are English */
};
