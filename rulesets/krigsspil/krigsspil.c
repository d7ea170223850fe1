/*
 * krigsspil.c - the krigsspil ruleset module: Taktisk Krigsspil fra
 * Napoleonskrigene (shared/rules/krigsspil-napoleonskrigene-da.txt,
 * EXTRACT.md A2), with orders in the ordre notation (orders/ordre/) and
 * the provisional Skema of skema.xml, on an optional hex map.
 *
 * This file holds the rules' decisions (below), declares the module (its
 * phases, the unit attributes a scenario gives, the referee's events, the
 * unit state) and fills a unit's first state.  units.c reads units and
 * orders for the module's files (ks.h), validate.c checks sheets and
 * events, resolve.c resolves the phases, report.c describes units; the
 * Skema is loaded by skema.c and computed by calc.c (calc.h), the map is
 * map.c.  rulesets/krigsspil/README.md explains the decisions at length.
 *
 * The unit state keys are declared in state_keys below (their types and
 * what each holds); ks_st and friends read and write them through the
 * core's ord_state_*, which refuse a key not declared.
 *
 * Rules decisions (where the text is silent, ambiguous or lost; every
 * number is the Skema's, these are about what applies when):
 *  K1  The map is the game's rules document: `load` takes a Skema or a map
 *      that may carry its own <tables> (README "The map").
 *  K2  Morale lasts in half turns: LU during and lu_efter_halve_traek half
 *      turns after a change of formation or front or an obstacle, only
 *      after løb (from where the order's L ends, 12.1, 13), and after a
 *      løb into an attack only once the attack is over, "ikke LU under
 *      angrebshandlingen" (13, loeb_angreb_kontrol); U for the rest
 *      of the turn after a cancelled attack
 *      (16.6); fire and melee results last until reorganised.
 *  K3  Reorganisation (its rules are lost): a unit in U or FU that is not
 *      disturbed rallies reorganisering_grader grades a turn; one over
 *      decimering_u_pct lost "bliver resten af slaget U ... kan ikke
 *      reorganiseres" (6.7): U at least and never reorganised above it,
 *      so one in FU rallies to U as any rout and no further
 *      (decimering_u_kontrol; a game made before kept it FU).
 *  K4  Decimation is for the rest of the battle; the text's exceptions
 *      follow its LU rule alone (6.7): artillery is never LU for its losses
 *      but U when over decimering_u_pct of its guns are destroyed, and the
 *      LU is lifted in a turn the unit rested or won a melee that sent its
 *      enemy into FU.
 *  K5  Losses are men (mand_pr_figur a figure): whole figures removed, the
 *      rest carried; a battery's crew does not count (1.3): artillery's
 *      fire on a battery is materiel, and a limber destroyed may explode
 *      (10.2); small arms take nothing from a battery, only its morale is
 *      read (ours: 15's conversion is a step of the artillery's fire, and
 *      the result says so, haandvaaben_batteri_kontrol).
 *  K6  Fire's morale by parts (14, 15): the firers affect at most 3 figures
 *      a firing figure (4 a gun); a part fired at (beskudt_del) takes the
 *      full grade and the rest one grade less when the firers could affect
 *      the whole unit, else the figures beyond the cap are not affected.
 *      The module keeps one morale state a unit: it takes the worst grade
 *      at least moral_fuld_andel of its figures took (ours).
 *  K7  Fire is simultaneous: every unit fires with its strength before the
 *      fire; a battery that fires at a target has ranged on it (15).
 *  K8  A melee tie: both sides take the tie row of Skema XX and the melee
 *      goes on (ours: the text has no tie; the rows' notes say so), into
 *      the next turn unless broken off (16.5): its units, and a battery
 *      whose escort fought it, are engaged in it, and such a battery gives
 *      no defensive fire then (15.1 "Det ikke er engageret i nærkamp",
 *      forsvarsild_naerkamp_kontrol, state naerkamp_uafgjort).
 *  K9  An order change (ÆNDR) is judged from the sheet: with no standing
 *      order written the cause is taken to lie in the last turn (4.3.4).
 *  K10 What the module cannot see on the table (flank, rear, cover, smoke)
 *      the referee gives as flags named by the modifier tables; a flag it
 *      works out itself from the units' state, given against it, is
 *      refused (a fire's flag=, a melee's a_flag/d_flag).
 *  K11 Dice are asked for in the order of the events (resolve.c, README
 *      "Dice"), so a fixed-dice game takes them in that order.
 *  K12 A move is checked against its gait's march length over the plates
 *      it crosses (13, README "Movement"): løb at the attack column's
 *      length for half a turn, retreat in U and flight in FU half a turn,
 *      half speed facing the enemy, through an own unit and for cossacks
 *      in close order; Skema V's terrain rates and obstacle times are
 *      lost (provisional tables), its formation-change times the
 *      referee's (tid=).
 *  K13 Skema XX is read by the difference weighed by both sides' engaged
 *      ranks (16.5; the weights are ours, provisional); only the first
 *      geledder_max ranks' figures count in a melee (16.5).
 *  K14 A loser in U that the referee says cannot retreat (obstacles or
 *      enemy units) goes FU, with prisoners (17.1).
 *  K15 A unit in FU surrenders when it is attacked in FU in a turn it
 *      cannot flee (17.2; 17.3's looser sentence read as the same rule);
 *      a flight is blocked by an enemy of blokering_pct of its strength
 *      (cavalry double); flight into an own unit is a morale test as an
 *      attack (17).
 *  K16 Open order within the break-in distance of an enemy close formation
 *      in OR or LU retires, and goes U when the referee says it cannot
 *      reach support (6.3; indbrud, or its reaction to an attack).
 *  K17 Merging is carried out (6.2, 6.7: figures summed, average valeur,
 *      first volley over ¾, first storm if all); the merged unit's first
 *      strength for decimation is its strength at the merge (ours).
 *  K18 Overfire is checked against the table overskydning (15): its
 *      distances lost their zeros and comparison (reconstructed); what is
 *      fired over stands nearer than the target's distance (afstand=) or
 *      than the end of its zone's band (zone=, zoner=).
 *  K19 Cavalry that stormmarched in a turn (a charge) and flees in the
 *      same turn flees at that stormmarch: not FU an extra turn (17); the
 *      limits on stormmarch count turns (move.c).
 *  K20 Skema XV's stormmarch bonuses need stormmarch_tillaeg_kvarte of
 *      stormmarch before the attack (13), taken from the order; one going
 *      on from the last turn counts a quarter more (resolve.c).
 *  K21 Resupply (GF) takes genforsyning_traek turns in a row, an
 *      independent company (kompagni) genforsyning_traek_kompagni, cavalry
 *      with carbines as infantry (ours); the referee records each turn of
 *      it (genforsyning) and the ammunition comes with the last; a turn
 *      without it breaks the resupply off and it starts anew (6.8).
 *  K22 A repair (REP) takes reparation_traek uninterrupted turns, each
 *      ordered and recorded (reparation); the guns are serviceable at the
 *      end of the last turn unless the battery moved (a move, a change of
 *      formation or front) or was attacked (an attack declared on it, a
 *      melee) in a turn of it; a battery that fires repairs at most
 *      reparation_ved_skydning guns a piece in a turn (9.6).
 *  K23 A fire beyond the weapon's longest range in skudzoner or
 *      artillerizoner (or at a zone it does not reach) is refused when
 *      recorded; overridden, it rolls no dice and does nothing, but spends
 *      its ammunition as any fire does (ours: 9.2 spends a round "ved
 *      skydning", 15 spares only ranging; README "Fire out of range").
 *      So is a battery's fire at a zone its ammunition is not used at
 *      (ammunitionstyper's zoner: shell at zone I), the zone given or the
 *      range falling in it, and a fire of a battery with no serviceable
 *      gun, when the Skema's kontroller say so (a game made before them
 *      checks as it did, and its audit replays clean).  An event the
 *      check refuses never makes the resolve fail once overridden: no gun
 *      that can fire is a fire of no gun (no dice, no rounds), a part
 *      fired at larger than the target is the whole target.
 *  K24 An event the referee overrides is his word on what happened, against
 *      the orders; one no table can make true (a merge, melee, attack,
 *      fire, support, flight, break-in or march through of a unit with
 *      itself or with the wrong side, a merge of a battery or of two arms)
 *      is not carried out: no dice, no state, a result that says why
 *      (umulig_kontrol; a game made before resolves it as written); so
 *      are a reaction against (mod=) itself or its own side and a
 *      battery's fire over (over=) itself or its target
 *      (umulig_mod_over_kontrol, 2026-12-03.1); a reaction against an
 *      enemy that declared no attack on its unit answers no attack
 *      (reaktion_kontrol, 2026-12-03.2).  Since red team #7 each such
 *      event, and one of a kind its unit's arm cannot do, is refused as
 *      it is recorded, override or not (ks_impossible_new): what the
 *      resolve does with one is for the games that recorded it before.
 *      The replay refuses one too (impossible_replayed, 2026-12-06.3):
 *      in a game made since, one in the log was written there by hand.
 *  K26 A support is held to 6.6 when it is declared, where the text gives
 *      the rule; what it leaves to the table is the referee's measure
 *      (afstand=, the distance from the centre of its front) or his word
 *      (cover is the map's, else --override).  A second line stands
 *      within its open-ground march length in its formation (other
 *      ground only shortens it), a neighbour and a battery's escort
 *      within indbrudsafstand_cm; a support is declared with an attack
 *      recorded before it, on or by the unit it supports (16.2); one in U
 *      or FU supports no one (6.5, ours).  The melee counts the supports
 *      and the escort itself (the referee's traefning, naboer,
 *      ubedaekket refused), an escort only while it supports (16, ours:
 *      "som naboenhed").  stoette_kontrol (2026-12-03.4).  An attack on
 *      an escorted battery is fought against the escort, the battery's
 *      crew in its figures (16); the battery loses nothing in it, and
 *      goes U (16's unescorted artillery) when its escort is beaten into
 *      U or FU by an attacker of as many figures (ours).
 *      bedaekning_kontrol (2026-12-03.5).  The check of such a melee
 *      (K10) is against the escort the melee is fought against, which the
 *      battery keeps in its state when its supports are declared
 *      (bedaekning_naboer_kontrol, 2026-12-04.1).
 *  K25 A fire at open order standing under spredt_foran_cm (a battery's
 *      spredt_foran_artilleri_cm, reconstructed) in front of its own close
 *      formation may be at both (ogsaa=, the referee's ogsaa_cm= checked
 *      against the limit): one roll, reckoned as on the close formation,
 *      the two one target for the morale cap, each taking the grade, the
 *      men shared by their figures, the open order's share rounded to the
 *      nearest man (ours: "forholdsvis" says not by what).  A moving
 *      target as long in two or more zones (zoner=) has the zones' loss
 *      modifiers averaged, a half rounded towards zero (ours); a zone the
 *      fire cannot be read at makes no average (refused; overridden, it
 *      is left out).  skydemaal_kontrol (14, 15).
 *  K27 6.5's "skal den retirere et halvt træk FU: skal den flygte et
 *      halvt træk i det træk den bliver påvirket, med mindre andet er
 *      angivet eller påvirkningen kun gælder for resten af trækket": a
 *      unit driven into U or FU in a turn (fire, defensive fire, melee,
 *      break-in, carried along by a flight; state tvungen_traek) owes a
 *      half turn's retreat (U) or flight (FU) in that turn; 16.6's U for
 *      the rest of the turn owes none ("andet er angivet": the attacker
 *      advances, the defender retreats after reaction time), nor do the
 *      decimation's floor and a merge (no new effect, ours).  The
 *      peaceful moves (flyt) come before the fire and the attacks, so the
 *      half turn is an event of its own, retraete, of angrebshandlinger,
 *      recorded after the fire and the melee that put the unit there: it
 *      is held to its gait's half turn (K12) and the way kept for it
 *      (flyt_retning_tvungen_kontrol) when the state is known as it is
 *      recorded; after a melee of the same phase the resolve decides, and
 *      one the unit does not owe then is not carried out.  A unit in FU's
 *      flugt is its flight.  One owed and not recorded is not refused
 *      (the table may have stopped it: the referee's word), but the
 *      referee's list of what is still to record names it (check_execution:
 *      report --referee, info, resolve's note, the audit's notes).  What
 *      it might do after instead is held already: its attack does not go
 *      in (6.3), and its fire was at once with the fire that drove it
 *      (K7).  retraete_samme_traek_kontrol (2026-12-05.6; a game made
 *      before refuses retraete and lists nothing).
 *  K28 6.5's half turn is the whole half turn, not at most it: a
 *      retraete owed and short of it is refused, unless it goes as far as
 *      the ground allows straight along its way (what the referee's list
 *      suggests, retreat_point) or the referee says what stopped it
 *      (stoppet=hindring|fjende|egen: 17.1's "hindringer eller fjendtlige
 *      enheder", and an own unit it may not pass, ours); short by
 *      retraete_maal_cm or less is whole (ours: the list's tenths).  Its
 *      way is checked at any length, under flyt_retning_min_cm too.
 *      retraete_laengde_kontrol (2026-12-05.10; a game made before took
 *      any length up to the half turn).
 *  K29 6.3's break-in distance held to a move: a flyt that comes nearer
 *      than indbrudsafstand_cm to an enemy's centre than it stood (at its
 *      end or on its way) is refused for a unit in U or FU, and against
 *      an enemy not in FU unless it stands in open order with no cover
 *      on its plate and no obstacle between, and the unit moves in close
 *      order.  Ours: the enemy stands where it stood when the phase
 *      began, centre to centre; the target of the unit's own attack is
 *      the attack's (16); the enemies it could reach are kept by the
 *      reorganisation (state indbrud_naer), since an event's check holds
 *      only the units it names.  indbrud_flyt_kontrol (2026-12-05.11; a
 *      game made before took any move).
 *  K30 6.5's flight has a place: a flugt says what stops a flight or
 *      what the unit runs into and carries no position, so alone it
 *      moved nothing while its result said the unit fled half a turn
 *      out of break-in distance (6.3).  A free flugt (not blokeret=
 *      hindring, nor by an enemy strong enough to block) of a unit with
 *      a position that owes its half turn in the turn, or is in a melee
 *      recorded before it, is refused until its retraete, where it went,
 *      is recorded; the referee's list counts a flugt as the flight of
 *      such a unit only when it says the unit cannot flee.
 *      flugt_position_kontrol (2026-12-05.13; a game made before took
 *      the flugt alone).
 *  NEEDSWORK: splitting and the town and wood rules (lost sections)
 *  are the referee's (README "Not done").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/krigsspil/ks.h"

extern const struct ord_ruleset ord_ruleset_krigsspil;

/* ---- declarations: phases, attributes, events ---- */

static const char *const phases[] = {
	"reorganisering", "angrebserklaering", "fredelige-flytninger",
	"skydninger",     "angrebshandlinger", NULL,
};

#define ARTS \
	"infanteri|let_kavaleri|middelsvaert_kavaleri|tungt_kavaleri|kosakker|fodartilleri|koerende_artilleri|ridende_artilleri"
#define FORMATIONS \
	"linie|angrebskolonne|marchkolonne|karre|bataillonsmasse|hob|soutien|skyttekaede_taet|skyttekaede_tynd|svaerm_taet|svaerm_tynd"

static const struct ord_key_spec unit_attrs[] = {
	{ "art", ORD_KEY_ENUM, 1, ARTS, 0, 0, NULL, "the arm (våbenart)" },
	{ "nation", ORD_KEY_STR, 0, NULL, 0, 0, "ukendt", "nationality (britisk: the British rules)" },
	{ "figurer", ORD_KEY_INT, 0, NULL, 1, 10000, "0", "figures at the start (infantry, cavalry)" },
	{ "kanoner", ORD_KEY_INT, 0, NULL, 0, 100, "0", "guns and howitzers of a battery" },
	{ "haubitser", ORD_KEY_INT, 0, NULL, 0, 100, "0", "of which howitzers" },
	{ "kanonhaubitser", ORD_KEY_INT, 0, NULL, 0, 100, "0", "of which gun-howitzers" },
	{ "kaliber", ORD_KEY_ENUM, 0, "3|4|6|8|9|12|18", 0, 0, "6", "calibre in pund" },
	{ "valeur", ORD_KEY_INT, 0, NULL, 1, 12, "6", "valeur at the start" },
	{ "formation", ORD_KEY_ENUM, 0, FORMATIONS, 0, 0, "linie", "formation at the start" },
	{ "moral", ORD_KEY_ENUM, 0, "OR|LU|U|FU", 0, 0, "OR", "morale state at the start" },
	{ "foerste_salve", ORD_KEY_BOOL, 0, NULL, 0, 0, "yes", "has its first volley (infantry)" },
	{ "foerste_storm", ORD_KEY_BOOL, 0, NULL, 0, 0, "yes",
	  "has its first charge at the gallop (cavalry)" },
	{ "karabiner", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "cavalry with carbines" },
	{ "rifler", ORD_KEY_INT, 0, NULL, 0, 100, "0", "percent of the figures with rifles" },
	{ "spredt", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "may form open order (elite, light troops)" },
	{ "milits", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "landeværn or militia" },
	{ "kampsatser", ORD_KEY_NUM, 0, NULL, 0, 1000, NULL,
	  "ammunition at the start, if not the Skema's issue (a resupply brings the issue)" },
	{ "kompagni", ORD_KEY_BOOL, 0, NULL, 0, 0, "no",
	  "infantry: an independent company (resupplied in genforsyning_traek_kompagni turns, 6.8)" },
	{ "prodset", ORD_KEY_ENUM, 0, "af|paa", 0, 0, "af",
	  "artillery: unlimbered (af) or limbered (paa)" },
	{ "klargjort", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "artillery: the guns are made ready" },
	{ "x", ORD_KEY_NUM, 0, NULL, -100000, 100000, NULL, "position east in cm on the map" },
	{ "y", ORD_KEY_NUM, 0, NULL, -100000, 100000, NULL, "position south in cm on the map" },
	{ "brigade", ORD_KEY_STR, 0, NULL, 0, 0, NULL, "its operative unit" },
	{ NULL, 0, 0, NULL, 0, 0, NULL, NULL },
};

#define UNIT_KEY(help)                                          \
	{                                                       \
		"unit", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, help \
	}
#define END_KEYS                                   \
	{                                          \
		NULL, 0, 0, NULL, 0, 0, NULL, NULL \
	}
#define FLAG_KEY(name, help)                                 \
	{                                                    \
		name, ORD_KEY_STR, 0, NULL, 0, 0, NULL, help \
	}

/* 14, 15: "Beskydes en spredt formation der står mindre end 5 cm [a
 * battery: 1[0] cm] foran egne enheder i sluttet formation, kan den
 * skydende vælge at beskyde begge enheder", and "Hvis den opholder sig
 * lige meget i [2] eller flere zoner, beregnes et gennemsnitligt
 * fradrag/tillæg" (skydemaal_kontrol, rules revision 2026-12-02.12). */
#define ALSO_KEYS(limit, rule)                                                              \
	{ "ogsaa",                                                                          \
	  ORD_KEY_UNIT,                                                                     \
	  0,                                                                                \
	  NULL,                                                                             \
	  0,                                                                                \
	  0,                                                                                \
	  NULL,                                                                             \
	  "the target in open order: its own close formation behind it, fired at too, the " \
	  "losses shared (" rule ")" },                                                     \
	{                                                                                   \
		"ogsaa_cm", ORD_KEY_NUM, 0, NULL, 0, 10000, NULL,                           \
			"with ogsaa: cm the open order stands in front of it (under " limit \
			", " rule ")"                                                       \
	}
#define ZONES_KEY(example, rule)                                                                 \
	{                                                                                        \
		"zoner", ORD_KEY_STR, 0, NULL, 0, 0, NULL,                                       \
			"a moving target as long in each of two or more zones, instead of zone " \
			"(zoner=" example "): their modifiers averaged (" rule ")"               \
	}

static const struct ord_key_spec forstyrret_keys[] = {
	UNIT_KEY("the unit that cannot reorganise this turn"),
	{ "grund", ORD_KEY_STR, 0, NULL, 0, 0, NULL, "why (enemy within break-in distance, ...)" },
	END_KEYS,
};
static const struct ord_key_spec genforsyning_keys[] = {
	UNIT_KEY("the unit resupplied"),
	{ "ammo", ORD_KEY_ENUM, 0, "alle|SF|SG|SK|SS", 0, 0, "alle", "artillery: which ammunition" },
	END_KEYS,
};
static const struct ord_key_spec unit_keys[] = {
	UNIT_KEY("the unit"),
	END_KEYS,
};
static const struct ord_key_spec reparation_keys[] = {
	UNIT_KEY("the battery"),
	{ "kanoner", ORD_KEY_INT, 0, NULL, 1, 100, NULL,
	  "damaged guns its crews repair (default all; a battery that fires: reparation_ved_skydning a piece)" },
	END_KEYS,
};
static const struct ord_key_spec angreb_keys[] = {
	UNIT_KEY("the attacking unit"),
	{ "maal", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit attacked" },
	{ "stormmarch", ORD_KEY_BOOL, 0, NULL, 0, 0, "no",
	  "attacks in stormmarch (Skema XV's bonuses after at least ½ turn of it)" },
	{ "loeb", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "attacks with løb" },
	{ "initiativ", ORD_KEY_BOOL, 0, NULL, 0, 0, "no",
	  "its side has the initiative (declares first)" },
	END_KEYS,
};
static const struct ord_key_spec stoette_keys[] = {
	UNIT_KEY("the supporting unit"),
	{ "stoetter", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit it supports" },
	{ "rolle", ORD_KEY_ENUM, 1, "traefning|nabo", 0, 0, NULL, "2. træfning or naboenhed" },
	{ "afstand", ORD_KEY_NUM, 0, NULL, 0, 100000, NULL,
	  "cm from the centre of its front to the nearest edge of the unit it supports (6.6; cossacks: a second line's to the soutien, a neighbour's to the swarm, 8.5)" },
	END_KEYS,
};
static const struct ord_key_spec reaktion_keys[] = {
	UNIT_KEY("the defending unit"),
	{ "reaktion", ORD_KEY_ENUM, 1, "forsvar|modangreb|tilbagetog", 0, 0, NULL,
	  "its defensive reaction" },
	{ "mod", ORD_KEY_UNIT, 0, NULL, 0, 0, NULL, "the attacker" },
	{ "naar_stoette", ORD_KEY_ENUM, 0, "ja|nej", 0, 0, NULL,
	  "open order retreating: does it reach support distance of an own close unit or soutien (6.3)" },
	END_KEYS,
};
static const struct ord_key_spec indbrud_keys[] = {
	UNIT_KEY("the unit within an enemy's break-in distance"),
	{ "fjende", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the enemy unit in OR or LU" },
	{ "naar_stoette", ORD_KEY_ENUM, 0, "ja|nej", 0, 0, NULL,
	  "open order: does it reach support distance of an own close unit or soutien (6.3)" },
	END_KEYS,
};
static const struct ord_key_spec flyt_keys[] = {
	UNIT_KEY("the unit that moved"),
	{ "x", ORD_KEY_NUM, 1, NULL, -100000, 100000, NULL, "its new position, cm east" },
	{ "y", ORD_KEY_NUM, 1, NULL, -100000, 100000, NULL, "its new position, cm south" },
	{ "stormmarch", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "moved in stormmarch" },
	{ "loeb", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "moved with løb" },
	{ "retraete", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "a retreat or flight the rules order (U, FU)" },
	{ "maade", ORD_KEY_ENUM, 0, "vending|front_mod_fjenden", 0, 0, "vending",
	  "a retreat: turned about at march speed, or facing the enemy at half speed (17)" },
	{ "tid", ORD_KEY_ENUM, 0, "1/4|1/2|3/4|1", 0, 0, NULL,
	  "the share of the turn it moved (default: what its order and gait give)" },
	{ "vej", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "the move was along a road" },
	{ "gennem", ORD_KEY_UNIT, 0, NULL, 0, 0, NULL, "an own unit it marched through (13)" },
	{ "gennem_cm", ORD_KEY_NUM, 0, NULL, 0, 100000, NULL,
	  "cm of the move through that unit (default all of it)" },
	{ "drej_cm", ORD_KEY_NUM, 0, NULL, 0, 100000, "0", "cm its outer flank wheeled (12)" },
	END_KEYS,
};
static const struct ord_key_spec formation_keys[] = {
	UNIT_KEY("the unit"),
	{ "formation", ORD_KEY_ENUM, 1, FORMATIONS, 0, 0, NULL, "the new formation" },
	END_KEYS,
};
static const struct ord_key_spec prods_keys[] = {
	UNIT_KEY("the battery"),
	{ "prodset", ORD_KEY_ENUM, 1, "af|paa", 0, 0, NULL, "unlimbered (af) or limbered (paa)" },
	END_KEYS,
};
static const struct ord_key_spec skyd_keys[] = {
	UNIT_KEY("the firing unit"),
	{ "maal", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit fired at" },
	{ "zone", ORD_KEY_ENUM, 0, "I|II|III", 0, 0, NULL, "the zone measured (or afstand)" },
	{ "afstand", ORD_KEY_NUM, 0, NULL, 0, 10000, NULL, "cm from the firers' front" },
	{ "riffel_zone", ORD_KEY_ENUM, 0, "I|II|III", 0, 0, NULL,
	  "a unit with muskets and rifles: the zone its rifles fire at, when not the muskets' (14)" },
	{ "riffel_afstand", ORD_KEY_NUM, 0, NULL, 0, 10000, NULL,
	  "or the cm from its rifle figures to the part they fire at (14)" },
	/* no def: filled when recorded (ks_event_defaults) */
	{ "halv", ORD_KEY_BOOL, 0, NULL, 0, 0, NULL,
	  "fired for half a turn (default: as its sheet orders, 14 skydetid)" },
	{ "figurer", ORD_KEY_INT, 0, NULL, 1, 10000, NULL,
	  "figures that can reach (default by formation)" },
	{ "beskudt_del", ORD_KEY_INT, 0, NULL, 1, 10000, NULL,
	  "figures of the target fired at, when only a part is (14; default all)" },
	ALSO_KEYS("spredt_foran_cm", "14"),
	ZONES_KEY("I,II", "14"),
	FLAG_KEY("flag", "modifier flags the referee sees: flanke,krudtroeg_maal,..."),
	END_KEYS,
};
static const struct ord_key_spec artilleri_keys[] = {
	UNIT_KEY("the firing battery"),
	{ "maal", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit fired at" },
	{ "ammo", ORD_KEY_ENUM, 0, "SF|SG|SK|SS", 0, 0, NULL, "the ammunition (default: as ordered)" },
	{ "zone", ORD_KEY_ENUM, 0, "I|II|III|K", 0, 0, NULL, "the zone measured (or afstand)" },
	{ "afstand", ORD_KEY_NUM, 0, NULL, 0, 10000, NULL, "cm to the nearest figure of the target" },
	/* no def: filled when recorded (ks_event_defaults) */
	{ "halv", ORD_KEY_BOOL, 0, NULL, 0, 0, NULL,
	  "fired for half a turn (default: as its sheet orders, 14 skydetid)" },
	{ "kanoner", ORD_KEY_INT, 0, NULL, 1, 100, NULL, "guns firing (default all that can)" },
	{ "beskudt_del", ORD_KEY_INT, 0, NULL, 1, 10000, NULL,
	  "figures of the target fired at, when only a part is (15; default all)" },
	ALSO_KEYS("spredt_foran_artilleri_cm", "15"),
	ZONES_KEY("II,III", "15"),
	{ "koordineret", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "coordinated fire (15)" },
	{ "prods_cm", ORD_KEY_NUM, 0, NULL, 0, 10000, NULL,
	  "cm from the pieces' rear to their limbers, when farther than prods_fri_cm (9.2)" },
	{ "baerere", ORD_KEY_INT, 0, NULL, 0, 10000, NULL,
	  "figures set aside to carry the ammunition from limbers beyond prods_fri_cm (9.2)" },
	{ "over", ORD_KEY_UNIT, 0, NULL, 0, 0, NULL, "a unit the battery fires over (15)" },
	{ "over_genstand", ORD_KEY_ENUM, 0, "bakke|anden", 0, 0, NULL,
	  "a terrain object it fires over: a hill or another (15)" },
	{ "over_hoejde", ORD_KEY_INT, 0, NULL, -100, 100, NULL,
	  "contour steps F the battery stands above what it fires over (default: the map's)" },
	{ "over_afstand", ORD_KEY_NUM, 0, NULL, 0, 10000, NULL,
	  "cm from the battery to what it fires over" },
	{ "over_bag", ORD_KEY_NUM, 0, NULL, 0, 10000, NULL, "cm from what it fires over to the target" },
	{ "bag", ORD_KEY_UNIT, 0, NULL, 0, 0, NULL,
	  "with flag geledder_bag: the unit behind the target, counted in its ranks, that takes the fire's morale effect too (15)" },
	FLAG_KEY("flag", "modifier flags: flanke,ikkerikochet,geledder_bag,..."),
	END_KEYS,
};
static const struct ord_key_spec forsvarsild_keys[] = {
	UNIT_KEY("the battery"),
	{ "maal", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the attacking unit" },
	{ "halv", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "half a turn of fire or less" },
	{ "prods_cm", ORD_KEY_NUM, 0, NULL, 0, 10000, NULL,
	  "cm from the pieces' rear to their limbers, when farther than prods_fri_cm (9.2)" },
	{ "baerere", ORD_KEY_INT, 0, NULL, 0, 10000, NULL,
	  "figures set aside to carry the ammunition from limbers beyond prods_fri_cm (9.2)" },
	FLAG_KEY("flag", "modifier flags"),
	END_KEYS,
};
static const struct ord_key_spec naerkamp_keys[] = {
	{ "angriber", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the attacker" },
	{ "forsvarer", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the defender" },
	{ "a_figurer", ORD_KEY_INT, 0, NULL, 0, 10000, NULL,
	  "attacker's figures within naerkamp_afstand_cm (default all; the first 6 ranks count)" },
	{ "d_figurer", ORD_KEY_INT, 0, NULL, 0, 10000, NULL,
	  "defender's figures within naerkamp_afstand_cm (default all; the first 6 ranks count)" },
	{ "a_geledder", ORD_KEY_INT, 0, NULL, 1, 100, NULL,
	  "attacker's ranks engaged (default by formation; at most geledder_max count)" },
	{ "d_geledder", ORD_KEY_INT, 0, NULL, 1, 100, NULL,
	  "defender's ranks engaged (default by formation; at most geledder_max count)" },
	{ "a_retraete", ORD_KEY_ENUM, 0, "fri|hindring|fjende", 0, 0, "fri",
	  "can the attacker retreat if it loses, or is it kept by obstacles or enemy units (17.1)" },
	{ "d_retraete", ORD_KEY_ENUM, 0, "fri|hindring|fjende", 0, 0, "fri",
	  "can the defender retreat if it loses, or is it kept by obstacles or enemy units (17.1)" },
	FLAG_KEY("a_flag", "attacker's modifier flags the referee sees: flanke,ryg,holdende,... (one "
			   "the module works out itself, moral_lu,..., is refused when it says "
			   "otherwise: README \"Rules corrected in 2026-12-02.10\")"),
	FLAG_KEY("d_flag", "defender's modifier flags the referee sees: hindring_ii,daekning_god,"
			   "ej_stationaer,... (as a_flag)"),
	{ "forfoelgelse", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "a pursuit attack on a unit in FU" },
	END_KEYS,
};
/* 6.5: the half turn's retreat or flight of a unit driven into U or FU in
 * the turn, recorded after the fire and the melee that put it there (K27,
 * retraete_samme_traek_kontrol). */
static const struct ord_key_spec retraete_keys[] = {
	UNIT_KEY("the unit driven into U or FU this turn"),
	{ "x", ORD_KEY_NUM, 0, NULL, -100000, 100000, NULL,
	  "where it retreated or fled to, cm east (a unit with a position: required)" },
	{ "y", ORD_KEY_NUM, 0, NULL, -100000, 100000, NULL, "where it retreated or fled to, cm south" },
	{ "maade", ORD_KEY_ENUM, 0, "vending|front_mod_fjenden", 0, 0, "vending",
	  "turned about at march speed, or facing the enemy at half speed (17)" },
	{ "vej", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "along a road" },
	{ "stoppet", ORD_KEY_ENUM, 0, "hindring|fjende|egen", 0, 0, NULL,
	  "what stopped it short of its half turn: an obstacle, an enemy unit, an own unit "
	  "(6.5, 17.1; retraete_laengde_kontrol)" },
	END_KEYS,
};
static const struct ord_key_spec samling_keys[] = {
	UNIT_KEY("the unit the others merge into"),
	{ "med", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit merged into it (6.2)" },
	END_KEYS,
};
static const struct ord_key_spec flugt_keys[] = {
	UNIT_KEY("the fleeing unit"),
	{ "blokeret", ORD_KEY_ENUM, 0, "nej|hindring|fjende", 0, 0, "nej",
	  "what stops its flight: nothing, obstacles, an enemy unit (17)" },
	{ "af", ORD_KEY_UNIT, 0, NULL, 0, 0, NULL, "the enemy unit in its way (blokeret=fjende)" },
	{ "viger", ORD_KEY_ENUM, 0, "ja|nej", 0, 0, NULL,
	  "a smaller enemy in its way gives way (ja) or not (nej) (17)" },
	{ "ind_i", ORD_KEY_UNIT, 0, NULL, 0, 0, NULL, "an own unit it flees into (17)" },
	END_KEYS,
};

const struct ord_event_kind ks_events[] = {
	{ "forstyrret", "reorganisering", forstyrret_keys,
	  "a unit is disturbed and does not reorganise" },
	{ "genforsyning", "reorganisering", genforsyning_keys,
	  "a unit is resupplied with ammunition this turn (one turn of genforsyning_traek)" },
	{ "reparation", "reorganisering", reparation_keys,
	  "a battery's crews repair damaged guns this turn (one turn of reparation_traek)" },
	{ "angreb", "angrebserklaering", angreb_keys, "an attack is declared on a target" },
	{ "stoette", "angrebserklaering", stoette_keys,
	  "a support (2. træfning, naboenhed) is declared" },
	{ "reaktion", "angrebserklaering", reaktion_keys, "the defender states its reaction" },
	{ "flyt", "fredelige-flytninger", flyt_keys, "a unit moved to a new position (cm)" },
	{ "formation", "fredelige-flytninger", formation_keys, "a unit changed formation" },
	{ "indbrud", "fredelige-flytninger", indbrud_keys,
	  "open order or a unit in FU stands within an enemy's break-in distance (6.3)" },
	{ "front", "fredelige-flytninger", unit_keys, "a unit changed its front (drej, vending)" },
	{ "prods", "fredelige-flytninger", prods_keys, "a battery limbered or unlimbered" },
	{ "klargoering", "fredelige-flytninger", unit_keys, "a battery made its guns ready" },
	{ "skyd", "skydninger", skyd_keys, "small-arms fire at a target" },
	{ "artilleri", "skydninger", artilleri_keys, "artillery fire at a target" },
	{ "forsvarsild", "angrebshandlinger", forsvarsild_keys,
	  "a battery's defensive canister at an attacker" },
	{ "fortryd", "angrebshandlinger", unit_keys,
	  "an attacker cancels its attack, or a defender its defence (U for the turn)" },
	{ "naerkamp", "angrebshandlinger", naerkamp_keys, "an attacker and a defender meet in melee" },
	{ "afbryd", "angrebshandlinger", unit_keys, "a unit breaks off the melee after the roll" },
	/* before flugt: the referee's list names both for a unit in FU, and
	 * the web page's Record button opens the first kind it names */
	{ "retraete", "angrebshandlinger", retraete_keys,
	  "a unit driven into U or FU this turn retreats (U) or flees (FU) its half turn in it (6.5)" },
	{ "flugt", "angrebshandlinger", flugt_keys, "a unit in FU flees (or cannot)" },
	{ "samling", "angrebshandlinger", samling_keys,
	  "two units of the same kind merged into one at the end of the turn (6.2)" },
	{ NULL, NULL, NULL, NULL },
};

/* The help of the events and their keys in Danish (ruleset.h,
 * event_help), as ks_events' help fields say it in English; key NULL: the
 * kind's own.  Every kind and key has one (check_krigsspil,
 * test_event_help_da). */
static const struct {
	const char *kind, *key, *da;
} help_da[] = {
	{ "forstyrret", NULL, "en enhed forstyrres og reorganiserer ikke" },
	{ "forstyrret", "unit", "enheden der ikke kan reorganisere i dette træk" },
	{ "forstyrret", "grund", "hvorfor (fjende inden for indbrudsafstand, ...)" },
	{ "genforsyning", NULL,
	  "en enhed genforsynes med ammunition i dette træk (et træk af genforsyning_traek)" },
	{ "genforsyning", "unit", "enheden der genforsynes" },
	{ "genforsyning", "ammo", "artilleri: hvilken ammunition" },
	{ "reparation", NULL,
	  "et batteris betjening reparerer beskadigede kanoner i dette træk (et træk af reparation_traek)" },
	{ "reparation", "unit", "batteriet" },
	{ "reparation", "kanoner",
	  "beskadigede kanoner betjeningen reparerer (standard alle; et batteri der skyder: reparation_ved_skydning pr. stykke)" },
	{ "angreb", NULL, "et angreb erklæres på et mål" },
	{ "angreb", "unit", "den angribende enhed" },
	{ "angreb", "maal", "den angrebne enhed" },
	{ "angreb", "stormmarch",
	  "angriber i stormmarch (Skema XV's tillæg efter mindst ½ træk af den)" },
	{ "angreb", "loeb", "angriber med løb" },
	{ "angreb", "initiativ", "dens side har initiativet (erklærer først)" },
	{ "stoette", NULL, "en støtte (2. træfning, naboenhed) erklæres" },
	{ "stoette", "unit", "den støttende enhed" },
	{ "stoette", "stoetter", "enheden den støtter" },
	{ "stoette", "rolle", "2. træfning eller naboenhed" },
	{ "stoette", "afstand",
	  "cm fra midten af dens front til nærmeste kant af enheden den støtter (6.6; kosakker: en anden linies til soutien, en naboenheds til sværmen, 8.5)" },
	{ "reaktion", NULL, "forsvareren angiver sin reaktion" },
	{ "reaktion", "unit", "den forsvarende enhed" },
	{ "reaktion", "reaktion", "dens forsvarsreaktion" },
	{ "reaktion", "mod", "angriberen" },
	{ "reaktion", "naar_stoette",
	  "spredt orden der trækker sig tilbage: når den støtteafstand til en egen sluttet enhed eller soutien (6.3)" },
	{ "flyt", NULL, "en enhed flyttede til en ny position (cm)" },
	{ "flyt", "unit", "enheden der flyttede" },
	{ "flyt", "x", "dens nye position, cm mod øst" },
	{ "flyt", "y", "dens nye position, cm mod syd" },
	{ "flyt", "stormmarch", "flyttede i stormmarch" },
	{ "flyt", "loeb", "flyttede med løb" },
	{ "flyt", "retraete", "en retræte eller flugt som reglerne påbyder (U, FU)" },
	{ "flyt", "maade",
	  "en retræte: med vending i marchfart, eller med front mod fjenden i halv fart (17)" },
	{ "flyt", "tid", "den del af trækket den flyttede (standard: hvad dens ordre og gangart giver)" },
	{ "flyt", "vej", "flytningen gik ad vej" },
	{ "flyt", "gennem", "en egen enhed den marcherede igennem (13)" },
	{ "flyt", "gennem_cm", "cm af flytningen gennem den enhed (standard det hele)" },
	{ "flyt", "drej_cm", "cm dens yderste fløj drejede (12)" },
	{ "formation", NULL, "en enhed skiftede formation" },
	{ "formation", "unit", "enheden" },
	{ "formation", "formation", "den nye formation" },
	{ "indbrud", NULL,
	  "spredt orden eller en enhed i FU står inden for en fjendes indbrudsafstand (6.3)" },
	{ "indbrud", "unit", "enheden inden for en fjendes indbrudsafstand" },
	{ "indbrud", "fjende", "den fjendtlige enhed i OR eller LU" },
	{ "indbrud", "naar_stoette",
	  "spredt orden: når den støtteafstand til en egen sluttet enhed eller soutien (6.3)" },
	{ "front", NULL, "en enhed skiftede front (drej, vending)" },
	{ "front", "unit", "enheden" },
	{ "prods", NULL, "et batteri prodsede på eller af" },
	{ "prods", "unit", "batteriet" },
	{ "prods", "prodset", "afprodset (af) eller påprodset (paa)" },
	{ "klargoering", NULL, "et batteri klargjorde sine kanoner" },
	{ "klargoering", "unit", "enheden" },
	{ "skyd", NULL, "geværild mod et mål" },
	{ "skyd", "unit", "den skydende enhed" },
	{ "skyd", "maal", "enheden der beskydes" },
	{ "skyd", "zone", "den målte zone (eller afstand)" },
	{ "skyd", "afstand", "cm fra de skydendes front" },
	{ "skyd", "riffel_zone",
	  "en enhed med musketter og rifler: zonen dens rifler skyder i, når det ikke er musketternes (14)" },
	{ "skyd", "riffel_afstand", "eller cm fra dens riffelfigurer til den del de skyder på (14)" },
	{ "skyd", "halv", "skød i et halvt træk (standard: som ordresedlen siger, 14 skydetid)" },
	{ "skyd", "figurer", "figurer der kan nå (standard efter formation)" },
	{ "skyd", "beskudt_del", "målets figurer der beskydes, når kun en del gør (14; standard alle)" },
	{ "skyd", "ogsaa",
	  "målet i spredt orden: dets egen sluttede formation bag det, der også beskydes, tabene delt (14)" },
	{ "skyd", "ogsaa_cm",
	  "med ogsaa: cm den spredte orden står foran den (under spredt_foran_cm, 14)" },
	{ "skyd", "zoner",
	  "et mål i bevægelse lige længe i hver af to eller flere zoner, i stedet for zone (zoner=I,II): deres tillæg og fradrag i gennemsnit (14)" },
	{ "skyd", "flag", "tillægsflag dommeren ser: flanke,krudtroeg_maal,..." },
	{ "artilleri", NULL, "artilleriild mod et mål" },
	{ "artilleri", "unit", "det skydende batteri" },
	{ "artilleri", "maal", "enheden der beskydes" },
	{ "artilleri", "ammo", "ammunitionen (standard: som beordret)" },
	{ "artilleri", "zone", "den målte zone (eller afstand)" },
	{ "artilleri", "afstand", "cm til målets nærmeste figur" },
	{ "artilleri", "halv", "skød i et halvt træk (standard: som ordresedlen siger, 14 skydetid)" },
	{ "artilleri", "kanoner", "kanoner der skyder (standard alle der kan)" },
	{ "artilleri", "beskudt_del",
	  "målets figurer der beskydes, når kun en del gør (15; standard alle)" },
	{ "artilleri", "ogsaa",
	  "målet i spredt orden: dets egen sluttede formation bag det, der også beskydes, tabene delt (15)" },
	{ "artilleri", "ogsaa_cm",
	  "med ogsaa: cm den spredte orden står foran den (under spredt_foran_artilleri_cm, 15)" },
	{ "artilleri", "zoner",
	  "et mål i bevægelse lige længe i hver af to eller flere zoner, i stedet for zone (zoner=II,III): deres tillæg og fradrag i gennemsnit (15)" },
	{ "artilleri", "koordineret", "koordineret ild (15)" },
	{ "artilleri", "prods_cm",
	  "cm fra stykkernes bagende til deres prodser, når længere end prods_fri_cm (9.2)" },
	{ "artilleri", "baerere",
	  "figurer sat af til at bære ammunitionen fra prodser ud over prods_fri_cm (9.2)" },
	{ "artilleri", "over", "en enhed batteriet skyder over (15)" },
	{ "artilleri", "over_genstand",
	  "en terrængenstand det skyder over: en bakke eller en anden (15)" },
	{ "artilleri", "over_hoejde",
	  "højdetrin F batteriet står over det, det skyder over (standard: kortets)" },
	{ "artilleri", "over_afstand", "cm fra batteriet til det, det skyder over" },
	{ "artilleri", "over_bag", "cm fra det, det skyder over, til målet" },
	{ "artilleri", "bag",
	  "med flag geledder_bag: enheden bag målet, talt med i dets geledder, som også får ildens moralvirkning (15)" },
	{ "artilleri", "flag", "tillægsflag: flanke,ikkerikochet,geledder_bag,..." },
	{ "forsvarsild", NULL, "et batteris forsvarsild med kardæsk mod en angriber" },
	{ "forsvarsild", "unit", "batteriet" },
	{ "forsvarsild", "maal", "den angribende enhed" },
	{ "forsvarsild", "halv", "et halvt træks ild eller mindre" },
	{ "forsvarsild", "prods_cm",
	  "cm fra stykkernes bagende til deres prodser, når længere end prods_fri_cm (9.2)" },
	{ "forsvarsild", "baerere",
	  "figurer sat af til at bære ammunitionen fra prodser ud over prods_fri_cm (9.2)" },
	{ "forsvarsild", "flag", "tillægsflag" },
	{ "fortryd", NULL,
	  "en angriber opgiver sit angreb, eller en forsvarer sit forsvar (U for trækket)" },
	{ "fortryd", "unit", "enheden" },
	{ "naerkamp", NULL, "en angriber og en forsvarer mødes i nærkamp" },
	{ "naerkamp", "angriber", "angriberen" },
	{ "naerkamp", "forsvarer", "forsvareren" },
	{ "naerkamp", "a_figurer",
	  "angriberens figurer inden for naerkamp_afstand_cm (standard alle; de første 6 geledder tæller)" },
	{ "naerkamp", "d_figurer",
	  "forsvarerens figurer inden for naerkamp_afstand_cm (standard alle; de første 6 geledder tæller)" },
	{ "naerkamp", "a_geledder",
	  "angriberens geledder i kamp (standard efter formation; højst geledder_max tæller)" },
	{ "naerkamp", "d_geledder",
	  "forsvarerens geledder i kamp (standard efter formation; højst geledder_max tæller)" },
	{ "naerkamp", "a_retraete",
	  "kan angriberen trække sig tilbage hvis den taber, eller holdes den af hindringer eller fjendtlige enheder (17.1)" },
	{ "naerkamp", "d_retraete",
	  "kan forsvareren trække sig tilbage hvis den taber, eller holdes den af hindringer eller fjendtlige enheder (17.1)" },
	{ "naerkamp", "a_flag",
	  "angriberens tillægsflag dommeren ser: flanke,ryg,holdende,... (et som modulet selv finder, moral_lu,..., afvises når det siger andet: README \"Rules corrected in 2026-12-02.10\")" },
	{ "naerkamp", "d_flag",
	  "forsvarerens tillægsflag dommeren ser: hindring_ii,daekning_god,ej_stationaer,... (som a_flag)" },
	{ "naerkamp", "forfoelgelse", "et forfølgelsesangreb på en enhed i FU" },
	{ "afbryd", NULL, "en enhed afbryder nærkampen efter slaget med terningerne" },
	{ "afbryd", "unit", "enheden" },
	{ "retraete", NULL,
	  "en enhed bragt i U eller FU i dette træk trækker sig tilbage (U) eller flygter (FU) sit halve træk i det (6.5)" },
	{ "retraete", "unit", "enheden bragt i U eller FU i dette træk" },
	{ "retraete", "x",
	  "hvortil den trak sig tilbage eller flygtede, cm mod øst (en enhed med en position: påkrævet)" },
	{ "retraete", "y", "hvortil den trak sig tilbage eller flygtede, cm mod syd" },
	{ "retraete", "maade", "med vending i marchfart, eller med front mod fjenden i halv fart (17)" },
	{ "retraete", "vej", "ad vej" },
	{ "retraete", "stoppet",
	  "hvad der standsede den før dens halve træk: en hindring, en fjendtlig enhed, en egen enhed (6.5, 17.1; retraete_laengde_kontrol)" },
	{ "flugt", NULL, "en enhed i FU flygter (eller kan ikke)" },
	{ "flugt", "unit", "den flygtende enhed" },
	{ "flugt", "blokeret",
	  "hvad der standser dens flugt: intet, hindringer, en fjendtlig enhed (17)" },
	{ "flugt", "af", "den fjendtlige enhed i dens vej (blokeret=fjende)" },
	{ "flugt", "viger", "en mindre fjende i dens vej viger (ja) eller ikke (nej) (17)" },
	{ "flugt", "ind_i", "en egen enhed den flygter ind i (17)" },
	{ "samling", NULL, "to enheder af samme art samlet til én ved trækkets slutning (6.2)" },
	{ "samling", "unit", "enheden de andre samles i" },
	{ "samling", "med", "enheden der samles i den (6.2)" },
};

static const char *ks_event_help(const char *lang, const char *kind, const char *key)
{
	size_t i;

	if (!lang || strcmp(lang, "da"))
		return NULL;
	for (i = 0; i < ORD_ARRAY_SIZE(help_da); i++)
		if (!strcmp(help_da[i].kind, kind) &&
		    (key ? help_da[i].key && !strcmp(help_da[i].key, key) : !help_da[i].key))
			return help_da[i].da;
	return NULL;
}

/* A unit's state (ruleset.h, "a unit's state"): integers unless said; a
 * turn of 0 means never; h is a half turn (ks.h). */
#define INT(k, help)                      \
	{                                 \
		k, ORD_KEY_INT, "0", help \
	}
#define NUM(k, help)                      \
	{                                 \
		k, ORD_KEY_NUM, "0", help \
	}
#define STR(k, help)                     \
	{                                \
		k, ORD_KEY_STR, "", help \
	}
/* The rules are Danish; every text is written in English as well. */
static const char *const languages[] = { "da", "en", NULL };

static const struct ord_state_key state_keys[] = {
	INT("figurer", "figures now"),
	INT("tab_mand", "men lost (killed and wounded)"),
	INT("fanger", "men given up as prisoners"),
	INT("efternoelere", "figures straggled"),
	INT("valeur", "valeur now (start: the attribute)"),
	STR("moral", "morale state OR LU U FU"),
	INT("moral_til", "the half turn the state lasts through (0: until reorganised)"),
	STR("moral_grund", "why (a word: formationsændring, ild, ...)"),
	INT("moral_traek", "the turn the state was last set"),
	STR("moral_under",
	    "the state until reorganised beneath a passing worse one, which stands when that ends (16.6; \"\": none)"),
	STR("moral_under_grund", "why that state beneath"),
	INT("moral_under_traek", "the turn that state beneath was set"),
	INT("decimering", "0, 1 (over decimering_lu_pct lost), 2 (over decimering_u_pct)"),
	STR("formation", "the formation now"),
	STR("prodset", "artillery: af (unlimbered) or paa (limbered)"),
	INT("klargjort", "artillery: 1 when the guns are made ready"),
	NUM("kampsatser", "infantry and cavalry: ammunition left"),
	NUM("ks_fuldkugle", "artillery: roundshot and shell left"),
	NUM("ks_kardaesk", "artillery: canister left"),
	NUM("ks_shrapnel", "artillery: shrapnel left"),
	INT("genforsyning_traek", "turns of the resupply under way, in a row (0: none)"),
	INT("genforsyning_sidst", "the last turn it was resupplied"),
	STR("genforsyning_ammo", "artillery: the ammunition of the resupply under way"),
	INT("kanoner", "artillery: serviceable guns"),
	INT("beskadiget", "artillery: damaged guns"),
	INT("oedelagt", "artillery: destroyed guns"),
	INT("reparation_traek", "artillery: turns of the repair under way, uninterrupted (0: none)"),
	INT("reparation_sidst", "artillery: the last turn of repair"),
	INT("reparation_kanoner", "artillery: the damaged guns under repair"),
	INT("prods_tab", "artillery: limbers lost"),
	INT("foerste_salve", "1 while its first volley is unused"),
	INT("foerste_storm", "1 while its first charge at the gallop is unused"),
	INT("stormmarch_start", "the first turn of its last stormmarch"),
	INT("stormmarch_sidst", "the last turn of its last stormmarch"),
	INT("stormmarch_afbrudt", "the last turn its order broke its stormmarch off"),
	INT("stormmarch_flyt", "the last turn it moved at stormmarch in the peaceful moves"),
	INT("loeb_sidst", "the turn of its last løb"),
	INT("prolong_sidst", "the turn of its last prolonge"),
	INT("march_i_traek", "limbered artillery in line: turns marched in a row"),
	INT("march_sidst", "limbered artillery in line: the last turn it marched"),
	INT("skoed", "the turn it fired"),
	INT("skoed_helt", "the turn it fired a whole turn"),
	STR("skoed_paa", "the unit it fired at"),
	INT("bevaeget", "the turn it moved or changed formation"),
	INT("kamp_traek", "cavalry: turns engaged since it rested"),
	INT("naerkamp_traek", "the turn of its last melee"),
	INT("naerkamp_uafgjort",
	    "the turn of its last melee that was tied and not broken off: it goes on (K8, 15.1)"),
	INT("bedaekning_traek",
	    "the turn it fought a melee as the escort of the battery it supports (16)"),
	INT("nabo_traek", "cavalry: the last turn it was a neighbour in a melee"),
	INT("hvil_traek", "turns rested in a row"),
	INT("fu_ekstra", "cavalry that fled without stormmarch: FU through this turn"),
	INT("flugt_traek", "turns fleeing"),
	INT("forfoelget_traek", "turns pursued in a row"),
	INT("forfoelget_sidst", "the last turn it was pursued"),
	INT("flugt_blokeret", "the turn it could not flee (obstacles, enemy)"),
	INT("start_figurer", "a merged unit's strength at the merge (0: the scenario's figurer)"),
	STR("samlet_i", "the unit it was merged into"),
	INT("angrebet_fu_traek", "the turn it was attacked while in FU"),
	INT("fanger_traek", "the last turn it gave prisoners"),
	INT("vandt_fu_traek", "the turn it won a melee that sent the loser into FU"),
	INT("hvilede_traek", "the turn it rested"),
	STR("sidst_rolle", "its role in its last melee: angriber or forsvarer"),
	STR("angreb_maal", "the target of the attack declared this turn"),
	INT("angreb_traek", "the turn it declared an attack"),
	INT("angreb_loeb", "the turn it declared an attack with løb (13)"),
	INT("angreb_storm",
	    "1 when that attack is at stormmarch of at least ½ turn (Skema XV's bonuses)"),
	STR("stoetter", "the unit it supports this turn"),
	STR("stoette_rolle", "its support's role: traefning or nabo"),
	INT("stoette_traek", "the turn it declared a support"),
	STR("bedaekning_naboer",
	    "a battery: the neighbours declared for it this turn, in the order of the units (16)"),
	STR("reaktion", "its declared defence: forsvar modangreb tilbagetog"),
	INT("reaktion_traek", "the turn it declared a defence"),
	INT("gennemmarcheret_traek",
	    "the turn a unit marched through it: it fires no whole turn (13 gennemmarch)"),
	STR("gennemmarcheret_af", "the unit that marched through it"),
	STR("indskudt_paa", "the target a battery has ranged on"),
	NUM("fjende_retning",
	    "the bearing of its side's \"↑\" (towards the enemy) in degrees, x east and y south (flyt_retning_kontrol)"),
	STR("indbrud_naer",
	    "the enemies it could reach in a turn, kept by the reorganisation: ids, blank-separated, for the check of a move into their break-in distance (6.3, indbrud_flyt_kontrol)"),
	NUM("tvungen_retning",
	    "the bearing its retreat by the rules goes in degrees, x east and y south: away from tvungen_fra, kept when its U or FU was set (flyt_retning_tvungen_kontrol)"),
	STR("tvungen_fra",
	    "the unit that drove it into U or FU (or whose flight carried it along, which it merged with); \"\": none known, the retreat goes back (the side's \"↓\")"),
	INT("tvungen_traek",
	    "the turn it was driven into U or FU, owing its half turn's retreat or flight in it (6.5, retraete_samme_traek_kontrol)"),
	INT("angrebskolonne_beholdt",
	    "1: it attacked in attack column and keeps the bonus defending (16.5)"),
	INT("indskudt_fra", "the turn from which it is ranged on it (15; 0: at once)"),
	STR("ammo_ved_kanonerne", "artillery: the ammunition it last fired (another is a change, 9.2)"),
	STR("ammo_skift", "artillery: a change of ammunition ordered (AM) and not yet fired"),
	INT("ammo_skift_fra", "artillery: the turn that change was first ordered"),
	INT("britisk_kontrol_til", "British cavalry out of control through this turn"),
	INT("britisk_forfoelg_til", "British cavalry pursuing through this turn"),
	STR("britisk_maal", "the unit British cavalry pursues"),
	INT("overgivet", "1: surrendered, out of the game"),
	INT("fjernet", "1: lost and removed from the game"),
	NUM("x", "position east in cm (absent: no position)"),
	NUM("y", "position south in cm"),
	{ NULL, 0, NULL, NULL },
};

/* ---- load, units ---- */

/* A number of the first state, written as the state writes numbers. */
static void init_num(struct ord_kv *init, const char *key, double v)
{
	struct ord_buf b = ORD_BUF_INIT;

	ord_state_fmt_num(&b, v);
	ord_kv_set(init, key, b.buf);
	ord_buf_release(&b);
}

/* The Skema (a map's own, or the built-in one it falls back on), for the
 * core's checks of a club's document (ruleset.h). */
static const struct ord_tables *ks_tables(struct ord_rules *rules)
{
	return ks_rules(rules)->tables;
}

/* The rows the phases read for a unit of its arm: the zones of the weapon
 * it fires with (skudzoner: a battalion's muskets, or its rifles when it
 * has any, cavalry's carbines; artillerizoner: a battery's calibre), and
 * the march length of its first formation (marchlaengder), which every
 * move it makes is checked against.  A club's Skema that leaves one out is
 * refused when the game is made, naming the unit, not the turn that first
 * reads it.  A problem for each in diag. */
static void check_rows_needed(const struct ks_rules *r, const struct ord_unit *u,
			      const char *vaaben, const char *form, struct ord_diag *diag)
{
	const char *doc = ord_tables_name(r->tables), *weapon = NULL, *attr = "art";
	struct ord_buf rule = ORD_BUF_INIT;
	const struct ord_row *row;
	struct ord_kv m;

	if (!strcmp(vaaben, "infanteri")) {
		int rifles = ord_kv_get_int(&u->attrs, "rifler", 0) > 0;
		weapon = rifles ? "riffel" : "musket";
		attr = rifles ? "rifler" : "art";
	} else if (!strcmp(vaaben, "kavaleri") && ord_kv_get_bool(&u->attrs, "karabiner", 0)) {
		weapon = "karabin";
		attr = "karabiner";
	}
	if (weapon && ord_table_check_word(ks_table(r, "skudzoner"), "vaaben", weapon, "vaaben")) {
		ord_error_clear();
		ord_buf_addf(&rule, "table 'skudzoner' of %s", doc);
		ord_diag_add_attr(diag, u->id, attr, rule.buf,
				  "no zones for %s, the weapon it fires with", weapon);
	}
	if (!strcmp(vaaben, "artilleri") && ord_table_check_word(ks_table(r, "artillerizoner"), "kaliber",
								 ks_attr(u, "kaliber"), "kaliber")) {
		ord_error_clear();
		ord_buf_reset(&rule);
		ord_buf_addf(&rule, "table 'artillerizoner' of %s", doc);
		ord_diag_add_attr(diag, u->id, "kaliber", rule.buf, "no zones for guns of %s pund",
				  ks_attr(u, "kaliber"));
	}
	ord_kv_init(&m);
	ord_kv_set(&m, "art", ks_art(u));
	ord_kv_set(&m, "formation", form);
	if (ord_table_find(&row, ks_table(r, "marchlaengder"), &m)) {
		ord_error_clear();
		ord_buf_reset(&rule);
		ord_buf_addf(&rule, "table 'marchlaengder' of %s", doc);
		ord_diag_add_attr(diag, u->id, ord_kv_get(&u->attrs, "formation") ? "formation" : "art",
				  rule.buf, "no march length for %s in %s", ks_art(u), form);
	}
	ord_kv_release(&m);
	ord_buf_release(&rule);
}

static int ks_init_unit(struct ord_rules *rules, struct ord_unit *u, struct ord_diag *diag)
{
	struct ks_rules *r = ks_rules(rules);
	const struct ord_row *arm, *frow;
	const char *art = ks_art(u), *vaaben, *form = ord_kv_get(&u->attrs, "formation");
	const char *v;
	long fig = ord_kv_get_int(&u->attrs, "figurer", 0);
	long guns = ord_kv_get_int(&u->attrs, "kanoner", 0);
	long how = ord_kv_get_int(&u->attrs, "haubitser", 0);
	long gh = ord_kv_get_int(&u->attrs, "kanonhaubitser", 0);
	size_t before = diag->n;
	struct ord_kv init;
	int err;

	if (ks_arm(r, art, &arm)) {
		ord_diag_add_attr(diag, u->id, "art", "6.1", "%s", ord_error_last());
		ord_error_clear();
		return ORD_EBADDATA;
	}
	vaaben = ord_row_str(arm, "vaaben");
	if (!form)
		form = "linie";
	if (ks_formation(r, form, vaaben, &frow)) {
		ord_diag_add_attr(diag, u->id, "formation", "11", "formation '%s' is not for %s (%s)",
				  form, ord_row_str(arm, "navn"), art);
		ord_error_clear();
	} else if (!ks_formation_nation_ok(frow, ord_kv_get(&u->attrs, "nation"))) {
		ord_diag_add_attr(diag, u->id, "formation", "11",
				  "formation '%s' is not for %s of nation '%s': only %s units may (table formationer)",
				  form, ord_row_str(arm, "navn"), ks_nation(u),
				  ord_row_attr(frow, "nationer"));
	}
	if (!strcmp(vaaben, "artilleri")) {
		if (guns < 1)
			ord_diag_add_attr(diag, u->id, "kanoner", "9.1",
					  "a battery needs kanoner (its guns and howitzers, at least 1)");
		if (how + gh > guns)
			ord_diag_add_attr(diag, u->id, "haubitser", "9.1",
					  "haubitser (%ld) and kanonhaubitser (%ld) are more than kanoner (%ld)",
					  how, gh, guns);
	} else {
		if (fig < (long)ks_param(r, "mindste_enhed"))
			ord_diag_add_attr(diag, u->id, "figurer", "6.1",
					  "%s needs figurer, at least %g (a unit of 1 figure is lost, 11.1)",
					  ord_row_str(arm, "navn"), ks_param(r, "mindste_enhed"));
		if (guns)
			ord_diag_add_attr(diag, u->id, "kanoner", "6.1",
					  "only a battery has kanoner, not %s",
					  ord_row_str(arm, "navn"));
	}
	if (ord_kv_get_bool(&u->attrs, "kompagni", 0) && strcmp(vaaben, "infanteri"))
		ord_diag_add_attr(diag, u->id, "kompagni", "6.8",
				  "only infantry is an independent company (kompagni), not %s",
				  ord_row_str(arm, "navn"));
	if (diag->n > before)
		return ORD_EBADDATA;

	ord_kv_init(&init);
	ord_kv_set_int(&init, "figurer", strcmp(vaaben, "artilleri") ? fig : 0);
	ord_kv_set_int(&init, "tab_mand", 0);
	ord_kv_set_int(&init, "fanger", 0);
	ord_kv_set_int(&init, "efternoelere", 0);
	ord_kv_set(&init, "valeur", ks_attr(u, "valeur"));
	v = ord_kv_get(&u->attrs, "moral");
	ord_kv_set(&init, "moral", v ? v : "OR");
	ord_kv_set_int(&init, "moral_til", 0);
	ord_kv_set(&init, "moral_grund", v && strcmp(v, "OR") ? "start" : "");
	ord_kv_set_int(&init, "decimering", 0);
	/* "Er der under [10] figurer regnes enheden for at være en hob" (11.8;
	 * hob_kontrol: a game made before began it as a square) */
	if (ks_check(r, "hob_kontrol") && (!strcmp(form, "karre") || !strcmp(form, "bataillonsmasse")) &&
	    fig < (long)ks_param(r, "hob_under"))
		form = "hob";
	ord_kv_set(&init, "formation", form);
	ord_kv_set_int(&init, "foerste_salve",
		       ord_kv_get_bool(&u->attrs, "foerste_salve", 1) && !strcmp(vaaben, "infanteri"));
	ord_kv_set_int(&init, "foerste_storm",
		       ord_kv_get_bool(&u->attrs, "foerste_storm", 1) && !strcmp(vaaben, "kavaleri"));
	if (!strcmp(vaaben, "artilleri")) {
		ord_kv_set_int(&init, "kanoner", guns);
		ord_kv_set_int(&init, "beskadiget", 0);
		ord_kv_set_int(&init, "oedelagt", 0);
		ord_kv_set_int(&init, "prods_tab", 0);
		init_num(&init, "ks_fuldkugle", ks_param(r, "kanon_fuldkugle_granat") * guns);
		init_num(&init, "ks_kardaesk",
			 (ks_param(r, "kanon_kardaesk") - ks_param(r, "kanon_shrapnel")) * guns);
		init_num(&init, "ks_shrapnel", ks_param(r, "kanon_shrapnel") * guns);
		v = ord_kv_get(&u->attrs, "prodset");
		ord_kv_set(&init, "prodset", v ? v : "af");
		ord_kv_set_int(&init, "klargjort", ord_kv_get_bool(&u->attrs, "klargjort", 0));
	} else {
		double ks = 0;
		if (!strcmp(vaaben, "infanteri"))
			ks = ks_param(r, "infanteri");
		else if (ord_kv_get_bool(&u->attrs, "karabiner", 0))
			ks = ks_param(r, "kavaleri_karabiner");
		if (ord_kv_get(&u->attrs, "kampsatser"))
			ks = ord_kv_get_num(&u->attrs, "kampsatser", ks);
		init_num(&init, "kampsatser", ks);
	}
	if (ord_kv_get(&u->attrs, "x") && ord_kv_get(&u->attrs, "y")) {
		ord_kv_set(&init, "x", ord_kv_get(&u->attrs, "x"));
		ord_kv_set(&init, "y", ord_kv_get(&u->attrs, "y"));
	}
	ord_kv_set_int(&init, "overgivet", 0);
	ord_kv_set_int(&init, "fjernet", 0);
	err = ord_state_init(&ord_ruleset_krigsspil, u, &init);
	ord_kv_release(&init);
	/* after the state is made: the audit replays a game's first states,
	 * by the Skema it keeps, whatever it lacks */
	if (!err) {
		check_rows_needed(r, u, vaaben, form, diag);
		if (diag->n > before)
			err = ORD_EBADDATA;
	}
	return err;
}

/* A modifier flag no table names refuses the event's arguments; then a
 * fire's halv= the referee left out, as the resolve reads it (fire.c):
 * the time the sheet gives the fire (14 Skydetid, "Der kan enten skydes
 * i et helt eller halvt træk") when skydetid_kontrol is on, else no, the
 * default the key had.  Stored, so that every fire says its time as
 * fires always did: a game made before the Skema read the sheet replays
 * its events by an orderly of then. */
static int ks_event_defaults(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_kv *out)
{
	const char *code = !strcmp(ev->kind, "skyd")        ? "skydning"
			   : !strcmp(ev->kind, "artilleri") ? "artilleriskydning"
							    : NULL;
	struct ord_unit *u = ks_ev_unit(ctx, ev, "unit");
	struct ord_buf why = ORD_BUF_INIT;
	int half = 0, err;

	/* a flag no table names is a bad argument, as a bad value of any
	 * key: refused as the event is recorded, never by an override (its
	 * word would be stored and counted as nothing) */
	if (ks_event_flags_unknown(ctx, ev, &why)) {
		err = ord_error_set(ORD_EUSAGE, "%s", why.buf);
		ord_buf_release(&why);
		return err;
	}
	/* an event that cannot happen (a unit's arm cannot do it, a unit
	 * against itself or the wrong side): refused whatever the override,
	 * which is the referee's word on the table, not on what cannot be
	 * (red team #7; K24 is what a game made before does with one) */
	ord_buf_reset(&why);
	if (ks_impossible_new(ctx, ev, &why)) {
		err = ord_error_set(ORD_EUSAGE,
				    "%s; --override does not apply: it overrules a check of a measure or of the situation on the table, not an event that cannot happen",
				    why.buf);
		ord_buf_release(&why);
		return err;
	}
	ord_buf_release(&why);
	if (!code || !u || ord_kv_get(&ev->kv, "halv"))
		return 0;
	if (ks_check(ks_r(ctx), "skydetid_kontrol"))
		half = ks_ordered_half(ctx, u, code, ks_ev_unit(ctx, ev, "maal")) > 0;
	ord_kv_set(out, "halv", half ? "yes" : "no");
	return 0;
}

/* A scenario that places its units (x=, y=) in a game with no map (its
 * document a Skema, or the built-in one): the README allows it, so it is
 * not refused, but nothing is then looked up on the ground, which the
 * referee would not know from `new` alone (ruleset.h, create_notes). */
static void ks_create_notes(struct ord_rules *rules, const struct ord_unit *units, size_t nunits,
			    const char *scenario_name, struct ord_buf *out)
{
	size_t i, placed = 0;

	if (ks_rules(rules)->map)
		return;
	for (i = 0; i < nunits; i++)
		if (ord_kv_get(&units[i].attrs, "x") && ord_kv_get(&units[i].attrs, "y"))
			placed++;
	/* the slot is not told the other options of `new` (--no-referee,
	 * --witnessed, --key, a Skema of the referee's own): a command spelt
	 * out without them would make another game than his, so the way is
	 * said, not a command line */
	if (placed)
		ord_buf_addf(out,
			     "'%s' places %zu unit%s (x=, y=) but the game has no map: nothing is checked against the ground (terrain, heights, obstacles and cover on a move or a fire, the plates an order names, the way to a plate), and reports give no terrain; to have it checked, make the game again with the same 'orderly new' command and options, the map given as --tables MAP.xml (a Skema of your own goes at the map's end, in its <tables>)\n",
			     scenario_name, placed, placed == 1 ? "" : "s");
}

const struct ord_ruleset ord_ruleset_krigsspil = {
	ORD_RULESET_VERSION,            /* version */
	"krigsspil",                    /* name */
	"ordre",                        /* notation */
	phases,                         /* phases */
	unit_attrs,                     /* unit_attrs */
	ks_events,                      /* events */
	"rulesets/krigsspil/skema.xml", /* tables_resource */
	ks_load,                        /* load */
	ks_free,                        /* free */
	ks_init_unit,                   /* init_unit */
	ks_validate_sheet,              /* validate_sheet */
	ks_check_event,                 /* check_event */
	ks_resolve_phase,               /* resolve_phase */
	ks_check_execution,             /* check_execution */
	ks_describe_unit,               /* describe_unit */
	ks_calc,                        /* calc */
	ks_print_tables,                /* print_tables */
	state_keys,                     /* state_keys */
	languages,                      /* languages: Danish first */
	ks_draw,                        /* draw */
	NULL,                           /* tables_data: the tables are built in (tables_resource) */
	NULL,                           /* tables_len */
	ks_complete_tables, /* complete_tables: a map without a Skema keeps the built-in one */
	/* rules_revision: 2026-12-02 corrected 6.7's reorganisation, the
	 * resupply's issue, løb's disorder, cossacks in flight;
	 * 2026-12-02.2 the rifle bonus only for muskets at zone II and rifles
	 * at zone III, given as zone or distance alike (14); rifles alone
	 * beyond the muskets' skudzoner, not the explosion radius (14);
	 * powder smoke one modifier (14); cavalry in attack column fires with
	 * its first rank (14); ranging after indskudt_efter_traek (15); a
	 * battery whose crew is all lost in melee is overrun, its guns
	 * captured (16.3, ours); the attack column's bonus kept after an
	 * attack (16.5); 2026-12-02.3 a battery is overrun by the men and
	 * prisoners of this melee reaching its crew, not by the game's (16.3,
	 * ours), and powder smoke in melee set for both sides when the
	 * defender in close order fired the whole of the previous turn
	 * (Skema XVII); 2026-12-02.4 a fire out of range rolls no dice (K23);
	 * 2026-12-02.5 a battery's fire at a zone its ammunition is not used
	 * at resolves as out of range (no dice, its rounds spent), where the
	 * resolve failed, and so do an overridden fire of no gun and one at a
	 * part larger than its target (K23); 2026-12-02.6, each switched on
	 * by the Skema's kontroller (README "Rules corrected in
	 * 2026-12-02.6"): a unit in FU attacked by at least
	 * forfoelgelse_pct of its strength is pursued (17.3); only a unit in
	 * close order or in open order in cover, and no hob, has the bonus
	 * of its supports (6.6, 11.8); open order in cover and cossacks in
	 * swarm are neighbours, infantry in cover of cavalry too (6.6.5,
	 * 8.5); close-order infantry is LU only after obstacles II and III
	 * (13); a unit in FU has no formation's modifiers (11), and a
	 * flight's morale test names no losses (17); 2026-12-02.7, switched
	 * the same way: woods and marsh passed in close order only in march
	 * column on a path or road, close-order infantry and cossacks into
	 * and out of a wood's edge (13); the −2 after stormmarch in the
	 * melee of the turn of a stormmarch in the peaceful moves (Skema XV);
	 * 2026-12-02.8, switched the same way: a fire lasts the half or whole
	 * turn its sheet gives it (14 Skydetid); a square or battalion mass
	 * under hob_under figures is a hob, from the start or by its losses
	 * (11.8); decimation counts the men lost, not whole figures (6.7);
	 * a line's løb groups together last at most half a turn (13);
	 * a fire's flag the module works out itself, given against it, is
	 * refused (K10);
	 * 2026-12-02.9, switched the same way: a terrain edge is the worse of
	 * its two sides', crossed both ways (3.2, 13); a merged unit keeps
	 * the men its parts had lost short of a figure (6.2); the words of
	 * results and of an overridden event's check (ordlyd_kontrol);
	 * 2026-12-02.10, switched the same way: a melee's a_flag/d_flag the
	 * module works out itself, given against it, is refused, and the
	 * referee's tiraillor, holdende and krudtroeg where the text does not
	 * give them (K10, naerkampflag_kontrol);
	 * 2026-12-02.11, switched the same way: an overridden event no table
	 * can make true (a unit with itself or the wrong side, a merge of a
	 * battery or of two arms) is not carried out, its result says why,
	 * and a defensive fire at an own unit is refused (K24, umulig_kontrol);
	 * 2026-12-02.12, switched the same way: a fire at open order standing
	 * under spredt_foran_cm (a battery's spredt_foran_artilleri_cm) in
	 * front of its own close formation may be at both (ogsaa=), reckoned
	 * as on the close formation and the losses shared by figures; a
	 * moving target as long in several zones (zoner=) has their modifiers
	 * averaged (K25, skydemaal_kontrol);
	 * 2026-12-03.1, switched the same way: a reaction against (mod=)
	 * itself or its own side and a battery's fire over (over=) itself or
	 * its target are refused, and, overridden, not carried out (K24,
	 * umulig_mod_over_kontrol);
	 * 2026-12-03.2, switched the same way: a defender states one
	 * reaction to each attack on it; a reaction against (mod=) an enemy
	 * that declared no attack on it, or a second to the same attack, is
	 * refused; a reaction that names its attacker answers that attack
	 * alone, and one against no attacker is not carried out (16.2,
	 * reaktion_kontrol);
	 * 2026-12-03.3, switched the same way: a battery's fire over
	 * something (over=) standing as far from it or from the target as
	 * the target from the battery (afstand=) is refused, what is fired
	 * over standing between them (15, overskydning_afstand_kontrol);
	 * 2026-12-03.4, switched the same way: a support (stoette) is held
	 * to the rules when declared: with an attack on or by the unit it
	 * supports, ordered ST, infantry or cavalry, not in U or FU, the
	 * unit supported in the game, no hob and not in open order outside
	 * cover, within the referee's measured distance (afstand=: a second
	 * line its march length, a neighbour and an escort the break-in
	 * distance); a melee's traefning, naboer and a battery's ubedaekket
	 * given by the referee are refused; a battery's escort is a
	 * neighbour that supports at the melee (6.5, 6.6, 11.8, 16, 16.2,
	 * stoette_kontrol); and a fire over something by zone (zone=,
	 * zoner=) is held to the end of the zone's band of artillerizoner
	 * as one with afstand= to the distance (15,
	 * overskydning_zone_kontrol);
	 * 2026-12-03.5, switched the same way: an attack on an escorted
	 * battery is fought as an attack on its escort (the first neighbour
	 * declared for it that supports at the melee), the battery's crew
	 * counted in the defender's figures; the escort takes the losses and
	 * the morale, and one beaten into U or FU leaves the battery
	 * unescorted, in U if the attacker has as many figures (16,
	 * bedaekning_kontrol);
	 * 2026-12-04.1, switched the same way: the check of a melee on an
	 * escorted battery (the referee's d_flag=, K10) is against the escort
	 * it is fought against, the battery keeping the neighbours declared
	 * for it when its supports are (state bedaekning_naboer), where before
	 * the check, seeing only its own phase's events, found no escort and
	 * held d_flag= to the battery (16, bedaekning_naboer_kontrol);
	 * 2026-12-04.2, switched the same way: an artilleri event's
	 * koordineret=yes is the sheet's KO at the target, ranged on, where it
	 * was taken as given (15, koordination_kontrol); a battery's defensive
	 * fire is barred only by a fire or an order at another unit than the
	 * attacker, or a defensive fire given already, where any fire or AS
	 * order barred it (15.1, forsvarsild_maal_kontrol); landeværn,
	 * militia and cossacks pass no close order and are passed by none
	 * whatever their own formation, where only two close formations were
	 * held to it (13, gennemmarch_kosak_kontrol); a stormmarch an order
	 * broke off is not resumed the next turn (state stormmarch_afbrudt),
	 * where any stormmarch of the turn before went on (13,
	 * stormmarch_afbrudt_kontrol); a decimated unit that rests is not LU
	 * in the turn it rests, where the rest was known only once the turn
	 * was over (6.7, hvil_decimering_kontrol); a battery whose order
	 * ranges on its target before it fires at it fires ranged (15,
	 * indskydning_foer_skydning_kontrol); 2026-12-04.3: a defender
	 * that declared its defence withdraws after all (fortryd, U for the
	 * rest of the turn, 16.6; fortryd_forsvar_kontrol); a battery in
	 * FU fires nothing (6.5, artilleri_fu_kontrol); a pursuit needs an
	 * attacker in OR or LU (6.3, forfoelgelse_moral_kontrol); a unit
	 * marched through fires half a turn at most (13,
	 * gennemmarch_skydning_kontrol); the LU after a change of formation
	 * or front ends half a turn after the change where the order makes it
	 * (12.1, lu_ordretid_kontrol, aendring_kvarte); a unit that
	 * supports does not rest (6.7, 8.3, 18, hvil_stoette_kontrol); a
	 * battery's fire needs a round for every piece firing (9.2,
	 * ammunition_kanoner_kontrol); British cavalry out of control does not
	 * break off (8.4, britisk_afbryd_kontrol); both sides attacking,
	 * forsvarer= has the attacker's bonuses too (16.4,
	 * gensidigt_angreb_kontrol); fire at a unit in FU reads no formation
	 * (11, fu_formation_skydning_kontrol); a unit behind the target
	 * counts under no canister (15, geledder_bag_kontrol); 2026-12-05.1:
	 * British cavalry out of control has its line on the sheet (8.4,
	 * britisk_linie_kontrol), and a valeur under 4 ends its must-attack
	 * (8.3, britisk_valeur_kontrol); a KO needs another battery of the
	 * sheet coordinating on the target (15, koordination_flere_kontrol);
	 * 2026-12-05.2: the sheet is held to the morale after an undisturbed
	 * reorganisation (5.2.2, ordre_reorganisering_kontrol); after ÆNDR
	 * only a fire or its ceasing alone goes without reaction time
	 * (4.3.4, aendring_undtagelse_kontrol); a defensive fire needs guns
	 * made ready (15, forsvarsild_klar_kontrol); a move is measured in the
	 * formation the unit moves in (13, flyt_formation_kontrol); a battery
	 * loses no more limbers than it has (9.2, 10.2, prods_tab_kontrol); a
	 * second move starts where the first ended, on one march length (13,
	 * flyt_flere_kontrol); 2026-12-05.3: a move goes the way its order
	 * gives, within flyt_retning_grader (4.3, flyt_retning_kontrol); the
	 * U of a cancellation holds for the turn only, a lasting state
	 * beneath it stands again (16.6, moral_varig_kontrol); the unit
	 * behind a target (bag=) takes its morale (15,
	 * geledder_bag_moral_kontrol); 2026-12-05.4: a voluntary retreat
	 * goes the way its TT's arrow gives, away from the enemy for "↓" (17,
	 * 4.3, flyt_retning_tt_kontrol); 2026-12-05.5: a retreat by the
	 * rules (U, FU) goes away from the enemy that drove the unit there,
	 * else back (6.5, 17, flyt_retning_tvungen_kontrol); 2026-12-05.6:
	 * a unit driven into U or FU owes its half turn's retreat or flight
	 * in that turn, recorded as retraete after the fire and the melee and
	 * named on the referee's list while it is owed (6.5, K27,
	 * retraete_samme_traek_kontrol); 2026-12-05.7: a target in soutien
	 * has no "+2 dyb formation" (11, soutien_formation_kontrol);
	 * 2026-12-05.8: small arms at a battery say it loses nothing, our
	 * reading (14, 15, 1.3, haandvaaben_batteri_kontrol); 2026-12-05.9:
	 * over 50% lost, a unit in FU rallies to U and no further, where it
	 * stayed FU (6.7, decimering_u_kontrol); 2026-12-05.10: a retreat
	 * owed is held to the whole half turn, its way at any length (6.5,
	 * K28, retraete_laengde_kontrol); 2026-12-05.11: a move into an
	 * enemy's break-in distance is held to 6.3 (K29,
	 * indbrud_flyt_kontrol); 2026-12-05.12: a formation change to the
	 * formation the unit is in is refused, on the sheet and as an event
	 * (12.1, formation_samme_kontrol); 2026-12-05.13: a free flugt of a
	 * unit with a position that owes its half turn's flight is recorded
	 * after where it fled (retraete), where alone it moved nothing (6.5,
	 * 6.3, flugt_position_kontrol); 2026-12-06.1: a counterattack (MA,
	 * reaktion=modangreb) is held to what bars an attack (8.1, 8.3, 8.5,
	 * 6.3, modangreb_kontrol); 2026-12-06.2: a support is held at the
	 * melee to the least figures and to infantry beside cavalry only in
	 * mass, square or cover, as at its declaration (6.6,
	 * stoette_naerkamp_kontrol); 2026-12-06.3: an event refused as it is
	 * recorded whatever the override (ks_impossible_new, a flag no table
	 * names) is refused by the replay too, where one written into the
	 * log by hand was taken for an override (impossible_replayed; the
	 * core's check, nothing resolved changes); 2026-12-07.1: a battery
	 * engaged in a tied melee that goes on gives no defensive fire (15.1,
	 * K8, forsvarsild_naerkamp_kontrol), and a unit that attacked with
	 * løb is LU after the attack, not during it (13, K2,
	 * loeb_angreb_kontrol); 2026-12-07.2: a battery
	 * ranged on a place of the map holds the map's name of it, where it
	 * held the sheet's spelling (IS @Hoejderyggen: Højderyggen;
	 * sted_kortets_navn, orderly's core, not a rule of the text)
	 * (docs/threat-model.md, "Rules corrected") */
	"2026-12-07.2",    /* rules_revision (above) */
	ks_tables,         /* tables */
	ks_event_defaults, /* event_defaults: a fire's halv= by its sheet */
	NULL,              /* show_result: every result as stored */
	ks_create_notes,   /* create_notes: units placed with no map */
	ks_order_events,   /* order_events: what an order waits for, as check_execution */
	ks_event_help,     /* event_help: the events' help in Danish */
	"rulesets/krigsspil/words.xml", /* words_resource: the report's own words in Danish */
	ks_messages, /* messages: the referee's list of orders not carried out, in Danish */
};
