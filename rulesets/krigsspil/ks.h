/*
 * ks.h - what the parts of the krigsspil module share: reading a unit's
 * attributes and state, its morale now, reading the ordre notation's
 * groups (orders/ordre/README.md "For the ruleset"), and the entry points
 * of validate.c and resolve.c.  Internal to rulesets/krigsspil/.
 *
 * Time is counted in half turns where the rules count it so: the half
 * turn h = 2 x turn + (0 first half, 1 second half).  A state that lasts
 * "½ træk efter" a change in turn T lasts through h = 2 (T + 1); "resten af
 * trækket" through h = 2 T + 1.
 */
#ifndef KS_H
#define KS_H

#include "rulesets/krigsspil/calc.h"
#include "ruleset.h"

extern const struct ord_ruleset ord_ruleset_krigsspil;
extern const struct ord_event_kind ks_events[];

/* ---- units ---- */

struct ks_rules *ks_r(struct ord_ctx *ctx);
/* A unit's state, through the core's ord_state_* (the keys are declared
 * in krigsspil.c's state_keys): a key not declared fails the turn. */
long ks_st(struct ord_ctx *ctx, const struct ord_unit *u, const char *key);
double ks_st_num(struct ord_ctx *ctx, const struct ord_unit *u, const char *key);
const char *ks_st_str(struct ord_ctx *ctx, const struct ord_unit *u, const char *key);
int ks_st_has(struct ord_ctx *ctx, const struct ord_unit *u, const char *key);
void ks_st_set(struct ord_ctx *ctx, struct ord_unit *u, const char *key, long v);
void ks_st_set_num(struct ord_ctx *ctx, struct ord_unit *u, const char *key, double v);
void ks_st_set_str(struct ord_ctx *ctx, struct ord_unit *u, const char *key, const char *v);

/* A scenario attribute, or its default (unit_attrs). */
const char *ks_attr(const struct ord_unit *u, const char *name);
const char *ks_art(const struct ord_unit *u);                         /* infanteri ... */
const char *ks_vaaben(struct ord_ctx *ctx, const struct ord_unit *u); /* infanteri kavaleri artilleri */
const char *ks_klasse(struct ord_ctx *ctx, const struct ord_unit *u); /* let middel tung kosak fod ... */
const char *ks_arm_name(struct ord_ctx *ctx, const struct ord_unit *u); /* "let kavaleri" */
int ks_is(struct ord_ctx *ctx, const struct ord_unit *u, const char *vaaben);
const char *ks_form(struct ord_ctx *ctx, const struct ord_unit *u);
int ks_closed(struct ord_ctx *ctx, const struct ord_unit *u, const char *formation);
/* Cossacks in close order, march column excepted (8.5): LU, half their
 * march, no attack, and open order to whoever attacks them.  formation
 * NULL: the unit's own. */
int ks_cossack_closed(struct ord_ctx *ctx, const struct ord_unit *u, const char *formation);
/* Cover (Skema I-III, 6.6): the plate at x, y gives daekning let or god in
 * the terraen table (no map: none); unit u stands there or the referee's
 * flags for its side (a_flag, d_flag, may be NULL) give daekning_let or
 * daekning_god. */
int ks_cover_at(const struct ks_rules *r, double x, double y);
int ks_in_cover(struct ord_ctx *ctx, const struct ord_unit *u, const char *flags);
/* Cossacks in swarm (8.5: "Kosakker kan i sværm have støtteenheder og kan
 * selv være naboenhed"); formation NULL: the unit's own. */
int ks_cossack_swarm(struct ord_ctx *ctx, const struct ord_unit *u, const char *formation);
int ks_british(const struct ord_unit *u);
/* British cavalry out of control that must go on fighting (8.4, unless a
 * valeur under 4 ends it, 8.3): the turn it is bound to, and why; or 0. */
long ks_british_bound(struct ord_ctx *ctx, const struct ord_unit *u, const char **why);
/* The unit's nation (scenario attribute nation), "ukendt" without one. */
const char *ks_nation(const struct ord_unit *u);
/* Figures now (artillery: its crew, besaetning_figurer_pr_piece a piece). */
int ks_figures(struct ord_ctx *ctx, const struct ord_unit *u);
int ks_start_figures(struct ord_ctx *ctx, const struct ord_unit *u);
int ks_pieces(struct ord_ctx *ctx, const struct ord_unit *u);
/* Infantry's and cavalry's ammunition issue, the Skema's (kampsatser,
 * whatever the scenario gave it at the start; 0: it carries none), and
 * the turns in a row a resupply of the unit takes (6.8). */
double ks_ammo_issue(struct ord_ctx *ctx, const struct ord_unit *u);
int ks_resupply_turns(struct ord_ctx *ctx, const struct ord_unit *u);
/* The parameter that gives it (an independent company's, or the rest's). */
const char *ks_resupply_param(struct ord_ctx *ctx, const struct ord_unit *u);
/* Does the battery fire this turn (AS, FS, IS on its sheet)?  Then it
 * repairs at most ks_repair_cap guns a turn (9.6). */
int ks_battery_fires(struct ord_ctx *ctx, const struct ord_unit *u);
long ks_repair_cap(struct ord_ctx *ctx, const struct ord_unit *u);
/* The end of a turn of repair (9.6): broken off or done (resolve.c). */
void ks_repair_end_of_turn(struct ord_ctx *ctx, struct ord_unit *u);
/* Surrendered or removed: no longer in the game. */
int ks_gone(struct ord_ctx *ctx, const struct ord_unit *u);
/* Why u is out of the game, for a refusal: "was merged into 'D1'" (*rule
 * "6.2"), "has surrendered" or "is out of the game" ("17"). */
void ks_gone_why(struct ord_ctx *ctx, const struct ord_unit *u, struct ord_buf *why, const char **rule);

/* The unit's morale grade in half turn h (its state, the decimation floor,
 * cossacks in close order); why gets the reasons when not NULL. */
/* 18: does the unit rest this turn?  Its order rests (H), and it has not
 * fought, supported, fired or moved in the turn (so far). */
int ks_resting(struct ord_ctx *ctx, const struct ord_unit *u);
/* 13: did the unit's order break off its stormmarch of the turn before
 * (state stormmarch_afbrudt, kept under stormmarch_afbrudt_kontrol)? */
int ks_storm_broken_last(struct ord_ctx *ctx, const struct ord_unit *u);
int ks_moral_at(struct ord_ctx *ctx, const struct ord_unit *u, int h, struct ks_text *why);
int ks_moral_now(struct ord_ctx *ctx, const struct ord_unit *u);
/* Make the unit at least `grade` until half turn `until` (0: until it is
 * reorganised); a better grade never replaces a worse one.  from: the unit
 * that drove it there (the enemy that fired or won the melee, a battery
 * whose limber exploded), or NULL when none is known; a state of U or FU
 * it writes keeps the way away from it (ks_keep_retreat_way). */
void ks_set_moral(struct ord_ctx *ctx, struct ord_unit *u, int grade, int until, const char *why,
		  const struct ord_unit *from);
/* 16.6, "den U en enhed kommer i som følge af ovennævnte fortrydelser,
 * kun gælder i selve trækket, ikke i næste": a passing state set over a
 * lasting one (until reorganised) keeps that beneath it (moral_under,
 * moral_varig_kontrol), and when the passing state ends by half turn h
 * (the end of the turn) the lasting one stands again, with its reason and
 * turn, said in a result. */
void ks_moral_under_back(struct ord_ctx *ctx, struct ord_unit *u, int h);
/* Men lost (killed and wounded) and given up as prisoners. */
void ks_take_men(struct ord_ctx *ctx, struct ord_unit *u, long men, long prisoners);
/* 11.8, "Er der under [10] figurer regnes enheden for at være en hob": a
 * square or battalion mass under hob_under figures becomes a hob, said in
 * a result of its own (hob_kontrol: a game made before it stayed one
 * until a formation event).  ks_take_men calls it. */
void ks_hob_when_small(struct ord_ctx *ctx, struct ord_unit *u);

/* A morale reason word (moral_grund) in a language: "formationsændring"
 * is "change of formation" in English. */
const char *ks_reason(const char *why, const char *lang);
/* A formation's name in a language ("angrebskolonne", "attack column";
 * "karré" for "karre"), from the table formationer: the unit's arm's row,
 * else any row of it (a formation the arm cannot form), else the word. */
const char *ks_formation_name(struct ord_ctx *ctx, const struct ord_unit *u, const char *formation,
			      const char *lang);

/* The turn's half-turn index. */
int ks_half(struct ord_ctx *ctx, int second_half);

/* ---- orders ---- */

struct ks_group {
	const char *code;            /* march, stormmarch, ... (ORD_TOK_CODE value) */
	const struct ord_token *tok; /* the code token */
	size_t first, end;           /* tokens [first, end) */
	int after_change;            /* 1: after ordreaendring (the new order) */
};

#define KS_MAX_GROUPS 32
/* The groups of an order line, in order; returns how many (at most max). */
size_t ks_groups(const struct ord_order *o, struct ks_group *g, size_t max);
const char *ks_grp_arg(const struct ord_order *o, const struct ks_group *g, const char *slot);
const struct ord_token *ks_grp_tok(const struct ord_order *o, const struct ks_group *g,
				   enum ord_tok_kind kind);
/* Quarters of the turn the group takes (its fraction, or ordre_varighed). */
int ks_grp_quarters(struct ord_ctx *ctx, const struct ord_order *o, const struct ks_group *g);
/* The destination or aimed plate; 0 if the group has none. */
int ks_grp_hex(const struct ord_order *o, const struct ks_group *g, int *q, int *r);
/* The first group with this code, or NULL. */
const struct ks_group *ks_find(const struct ks_group *g, size_t n, const char *code);
/* The formation a FORM group orders, in the Skema's names (skyttekaede_taet
 * ...), as the ordre notation's word_value reads it: a chain or swarm of
 * no density dense, from the notation's table of densities (11). */
void ks_grp_formation(const struct ord_order *o, const struct ks_group *g, char *out, size_t n);
/* Does the unit's order this turn have the code (anywhere on the line)? */
int ks_ordered(struct ord_ctx *ctx, const struct ord_unit *u, const char *code);
/* The argument slot of the group code of u's order, or NULL. */
const char *ks_ordered_arg(struct ord_ctx *ctx, const struct ord_unit *u, const char *code,
			   const char *slot);

/* The group of u's order with code aimed at unit t (its target, or the
 * plate t stands on); t NULL: the first with code.  NULL when none; op,
 * g (KS_MAX_GROUPS) and np get the order's groups either way. */
const struct ks_group *ks_ordered_at(struct ord_ctx *ctx, const struct ord_unit *u,
				     const char *code, const struct ord_unit *t,
				     const struct ord_order **op, struct ks_group *g, size_t *np);
/* 14 Skydetid, "Der kan enten skydes i et helt eller halvt træk": the
 * time u's sheet gives its fire with code (skydning, artilleriskydning)
 * at t, by its fraction or ordre_varighed: 1 half a turn, 0 a whole one,
 * -1 when the order has no such fire. */
int ks_ordered_half(struct ord_ctx *ctx, const struct ord_unit *u, const char *code,
		    const struct ord_unit *t);

/* ---- the slots ---- */

int ks_validate_sheet(struct ord_ctx *ctx, const struct ord_sheet *sheet, struct ord_diag *diag);
int ks_check_event(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *diag);
/* The first modifier flag of ev (flag=, a_flag=, d_flag=) that no row of
 * its kind's tables names: 1 with "key: unknown modifier flag 'w': did you
 * mean ...? (expected one of ...)" in out, else 0. */
int ks_event_flags_unknown(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_buf *out);
int ks_check_execution(struct ord_ctx *ctx, struct ord_diag *diag);
/* The messages words.xml says in Danish (ruleset.h, messages). */
extern const struct ord_message ks_messages[];
size_t ks_order_events(struct ord_ctx *ctx, const struct ord_unit *u, const char **kinds, size_t max);
int ks_resolve_phase(struct ord_ctx *ctx, const char *phase);
int ks_describe_unit(struct ord_ctx *ctx, const struct ord_unit *u, const char *viewer,
		     struct ord_buf *out);

/* ---- what the phases share (resolve.c, fire.c, attack.c) ---- */

/* A fire's outcome, applied after every unit has fired (K7). */
struct ks_hit {
	struct ord_unit *target;
	const struct ord_event *e;
	int men, grade; /* of a fire at both (also): the target's share of the men */
	int damaged, destroyed, limbers;
	struct ord_unit *firer;
	int out_of_range;      /* the shot did not reach: no dice, no effect */
	struct ord_unit *also; /* ogsaa=: the close formation behind the target, hit too */
	int also_men;          /* its share of the men (14, 15: "forholdsvis") */
};

/* The own close formation behind the open order a fire e (skyd,
 * artilleri) is at too (14, 15: "kan den skydende vælge at beskyde begge
 * enheder"; ogsaa=), or NULL: the fire is at its target alone.  NULL too
 * without the rule (skydemaal_kontrol: a game made before refuses the
 * key), and for a unit no table can make the one behind (the target or
 * the firer itself, of another side than the target, a battery, out of
 * the game); the rest (the target in open order, the other in close,
 * ogsaa_cm) is checked when recorded and the referee's word overridden. */
struct ord_unit *ks_fire_also(struct ord_ctx *ctx, const struct ord_event *e);

/* The unit an event's key names, or NULL. */
struct ord_unit *ks_ev_unit(struct ord_ctx *ctx, const struct ord_event *ev, const char *key);
/* 3d6 (1d6) identified by (purpose and unit, event, index). */
int ks_roll3(struct ord_ctx *ctx, int *d, const char *purpose, const struct ord_unit *u,
	     unsigned seq, unsigned base);
int ks_roll1(struct ord_ctx *ctx, int *d, const char *purpose, const struct ord_unit *u,
	     unsigned seq, unsigned index);
/* A use of stormmarch that is not an attack: the first charge at the
 * gallop is gone (Skema XV "1. angreb i storm"), said in t. */
void ks_storm_spent(struct ord_ctx *ctx, struct ord_unit *u, struct ks_text *t);
/* A morale result applied to u and said in t; from as for ks_set_moral. */
void ks_apply_grade(struct ord_ctx *ctx, struct ord_unit *u, int grade, const char *why,
		    const struct ord_unit *from, struct ks_text *t);
/* The modifier flag a share of rifles gives for a use (table riffel_andele). */
/* The referee's flags "a,b=2" into flags; the target's own flags. */
void ks_referee_flags(const char *list, struct ord_kv *flags);
void ks_target_flags(struct ord_ctx *ctx, const struct ord_unit *t, struct ord_kv *flags);
/* The flags the module works out itself for fire e (skyd, artilleri,
 * forsvarsild) from the units' state and the event, the zone's and the
 * ammunition's too (K10: the referee's come on top), into flags; and
 * whether flag is one of them for its kind of event (the ones the
 * referee judges on the table, flank, cover, smoke, are not). */
void ks_fire_own_flags(struct ord_ctx *ctx, const struct ord_event *e, struct ord_kv *flags);
int ks_fire_own_flag(const char *kind, const char *flag);
/* Is flag in list (NULL-terminated; a name ending in '_' is a prefix)? */
int ks_flag_listed(const char *const *list, const char *flag);
/* The flags the module works out itself for melee e (naerkamp) from the
 * units' state and the event, the attacker's into af and the defender's
 * into df (K10: the referee's come on top), changing nothing; and which
 * of them the state decides: KS_OWN_SCENARIO for the ones of a unit's
 * arm and rifles (the scenario's, whatever the phase did before),
 * KS_OWN_STATE for those of its formation, morale, valeur, stormmarch,
 * first volley, earlier role and numbers (the state before the phase), 0
 * for the referee's and for those ks_melee_own_flags cannot see (the
 * supports, whether a battery is escorted). */
enum { KS_OWN_SCENARIO = 1, KS_OWN_STATE = 2 };
void ks_melee_own_flags(struct ord_ctx *ctx, const struct ord_event *e, struct ord_kv *af,
			struct ord_kv *df);
int ks_melee_own_flag(const char *flag);
/* The escort that fights for battery f attacked by a (16, under
 * bedaekning_kontrol; NULL when none holds, f is no battery or the Skema
 * has no switch): the first neighbour declared for f, in the order of the
 * units, that supports at the melee.  index: the attack phase's supports
 * (attack.c), or NULL to read them from f's events (the check).  With
 * one, ks_melee_own_flags works out the escort's flags, the battery's
 * figures counted in its number. */
struct ord_unit *ks_melee_escort(struct ord_ctx *ctx, const void *index, const struct ord_unit *a,
				 const struct ord_unit *f);
/* A battery's fire (defensive: its canister at an attacker). */
int ks_fire_artillery(struct ord_ctx *ctx, const struct ord_event *e, struct ks_hit *h, int defensive);
/* 9.2: the figures that must carry the ammunition of battery u's fire e
 * from its limbers (prods_cm= beyond prods_fri_cm); 0 when near or not
 * measured. */
int ks_fire_carriers(struct ord_ctx *ctx, const struct ord_event *e, const struct ord_unit *u);
/* The pieces a battery's artilleri or forsvarsild event fires: its
 * kanoner=, else those of the battery that fire its ammunition. */
int ks_fire_guns(struct ord_ctx *ctx, const struct ord_event *e, const struct ord_unit *u);
/* The target's result of hit h with text t, its values what the fire did
 * (firer, men, the guns destroyed and damaged of a battery, morale). */
/* The small arm of u that reaches furthest (skudzoner): carbines for
 * cavalry, rifles for infantry with any (they fire beyond the muskets,
 * 14), else muskets. */
const char *ks_longest_arm(struct ord_ctx *ctx, const struct ord_unit *u);
/* Is battery u ranged on target (a unit id or a plate) this turn (15)? */
int ks_ranged(struct ord_ctx *ctx, const struct ord_unit *u, const char *target);
void ks_hit_result(struct ord_ctx *ctx, const struct ks_hit *h, long destroyed, long damaged,
		   struct ks_text *t);
int ks_resolve_fire(struct ord_ctx *ctx);
/* Does enemy b block the flight of u (17): at least blokering_pct of its
 * strength, cavalry counted double? */
int ks_block_effective(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_unit *b);
/* 17.3: attacker a is strong enough to pursue f (forfoelgelse_pct, cavalry
 * counted forfoelgelse_kavaleri_gange times) */
int ks_pursuit_strong(struct ord_ctx *ctx, const struct ord_unit *a, const struct ord_unit *f);
int ks_resolve_attacks(struct ord_ctx *ctx);
/* 13: the half turn (2 turn + 0 or 1) to whose end u is LU after the løb
 * its order gives (lu_efter_halve_traek halves after its L groups end). */
int ks_loeb_lu_until(struct ord_ctx *ctx, const struct ord_unit *u);
int ks_defence_cancel(struct ord_ctx *ctx, const struct ord_unit *u);
/* 8.4: British cavalry out of control, not in U or FU, does not break off
 * its melee (britisk_afbryd_kontrol). */
int ks_british_held(struct ord_ctx *ctx, const struct ord_unit *u);

/* ---- what validate.c and events.c share ---- */

/* Where the problems of a march go. */
struct ks_move_check {
	struct ord_diag *d;
	unsigned line, col;
	const char *unit;
	int to_plate; /* a sheet's march to plate q,r: it stops at a wood's edge there */
	int q, r;     /* that plate */
};

/* A move order (march, stormmarch, løb, retreat, prolonge). */
int ks_is_move(const char *code);
/* Check a straight move of u from (x0, y0) to (x1, y1) in formation with
 * morale grade: what it crosses (13); problems go to m. */
/* The highest class of obstacle a straight move crosses (13): 0 none, 1 I,
 * 2 II, 3 III or impassable; 0 without a map. */
int ks_path_obstacle(struct ord_ctx *ctx, double x0, double y0, double x1, double y1);
void ks_check_path(struct ord_ctx *ctx, const struct ord_unit *u, double x0, double y0, double x1,
		   double y1, const char *formation, int grade, int stormmarch,
		   struct ks_move_check *m);
/* The obstacle class of a terrain edge a move crosses (3.2, 13; "" for
 * none, else I II III impassabel), its name and the plate that has it
 * (name, q, r may be NULL): the worse of the two sides' edges
 * (hindringskant_kontrol). */
const char *ks_edge_class(struct ord_ctx *ctx, const struct ks_crossing *c, const char **name,
			  int *q, int *r);
/* A battery's ammunition of a type left; which of its pieces fire it
 * (NULL: none). */
double ks_pool_of(struct ord_ctx *ctx, const struct ord_unit *u, const char *ammo);
const char *ks_battery_can_fire(const struct ord_unit *u, const char *ammo);
/* "SF, SK, SS": the ammunition the battery's pieces fire. */
void ks_battery_ammo(const struct ord_unit *u, struct ord_buf *out);
/* The game's map's own name of the place name is, as a sheet's order may
 * aim at it (any case, æ ø å typed ae oe aa); NULL: no map, or no such
 * place (validate.c). */
const char *ks_map_place(struct ord_ctx *ctx, const char *name);
/* The support conditions that do not depend on the attack (6.6, 8.3, 11.8). */
void ks_check_support_unit(struct ord_ctx *ctx, const struct ord_unit *u, int open_ok,
			   const struct ord_unit *sup, const char *formation, struct ord_diag *d,
			   unsigned line, unsigned col, const char *name);
/* The pictures (draw.c): the map of the table, the story chart. */
int ks_draw(struct ord_ctx *ctx, const char *viewer, struct ord_canvas *cv,
	    const struct ord_picture *what);

/* The gait of a recorded move (flyt): flugt for a unit in FU and retraete
 * for one in U that retreats by the rules, else løb, stormmarch or march. */
const char *ks_move_gait(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u);
/* The formation u moves in by the flyt event ev (13): that of the last
 * formation event of u recorded in ev's phase before ev, else its state's
 * (flyt_formation_kontrol; a game made before: its state's, the formation
 * at the start of the phase).  Read for the march length, løb and the
 * cossacks' half speed (ks_move_event), and for the ground a move's check
 * crosses (ks_check_path: streams in march column, woods). */
const char *ks_move_formation(struct ord_ctx *ctx, const struct ord_event *ev,
			      const struct ord_unit *u);
/* Where u's move ev starts: the end of its last move recorded before ev in
 * the phase (flyt_flere_kontrol), else where it stood at the phase's
 * start. */
void ks_move_start(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
		   double *x, double *y);
/* A recorded move (flyt) against what its gait, order and ground allow
 * (13): the inputs of ks_move from the event, the state, the order and the
 * map.  0 with out and why filled, or ORD_ECHECK with the reason in d
 * (may be NULL). */
int ks_move_event(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
		  struct ks_move_out *out, struct ks_text *why, struct ord_diag *d);
/* ks_move_event in the gait `gang` ("retraete", "flugt", ...; ks_gait)
 * rather than the one ev and u's state give: what a unit not yet in U or
 * FU would be allowed if it came to be. */
int ks_move_event_gait(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
		       const char *gang, struct ks_move_out *out, struct ks_text *why,
		       struct ord_diag *d);
/* u marches through its own unit w (13 gennemmarch): whether at half speed
 * and whether both units are LU for it; the conditions broken go to d
 * (may be NULL), ORD_ECHECK then. */
int ks_through(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_unit *w,
	       int *half_speed, int *lu_both, struct ord_diag *d);

/* Towards the enemy, for a side's "↑" (orders/ordre/README.md): from the
 * middle of the side's units as the scenario sets them up to the middle of
 * the other sides' (the middle of the map's plates when they have none), so
 * that it is the same for every viewer and in every turn.  Add each unit of
 * the scenario (its side and attributes; one without x, y counts for
 * nothing), then read the bearing in radians (x east, y south: clockwise). */
struct ks_bearing {
	double own[2], other[2]; /* the sums of the positions of the side's units, the others' */
	size_t n, no;            /* how many of each */
};
void ks_bearing_add(struct ks_bearing *b, const char *side, const char *unit_side,
		    const struct ord_kv *attrs);
double ks_bearing_enemy(const struct ks_bearing *b, const struct ks_map *m);
/* 4.3, "Spillerne er som hovedregel bundet for hele trækket af de på
 * ordresedlen noterede ordrer": a move (flyt ev of u from sx, sy) that goes
 * more than flyt_retning_grader from every direction its order's marches
 * give (an arrow, a plate; or all its legs together) is added to d
 * (flyt_retning_kontrol; a game made before took any direction).  A
 * retreat (retraete=yes) in OR or LU is held to the order's TT alone
 * (flyt_retning_tt_kontrol); one in U or FU, a retreat by the rules, to
 * the way kept for it (ks_keep_retreat_way; the side's "↓" when none is
 * known) under flyt_retning_tvungen_kontrol, and not at all without it.
 * A move shorter than flyt_retning_min_cm is not checked. */
void ks_check_direction(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
			double sx, double sy, struct ord_diag *d);
/* 6.5 and 17: a retreat by the rules (retraete=yes of a unit in U or FU)
 * goes away from the enemy that drove it there: the way is kept in the
 * unit's state (tvungen_retning, tvungen_fra) when its U or FU is set
 * (flyt_retning_tvungen_kontrol; a game made before keeps none).
 * ks_keep_retreat_way: u's way is away from `from` (both placed, farther
 * apart than flyt_retning_min_cm), else none is known (cleared).
 * ks_keep_retreat_along: u goes the way `with` goes (carried along by its
 * flight, merged into it): with's kept way, else the way back of with's
 * side; none when neither is known. */
void ks_keep_retreat_way(struct ord_ctx *ctx, struct ord_unit *u, const struct ord_unit *from);
/* The bearing in degrees (x east, y south) a retreat by the rules of u
 * goes (the way ks_check_direction holds it to): the way kept for its U
 * or FU, else back from `enemy`, the side's "↑" (fjende_retning). */
double ks_retreat_bearing(struct ord_ctx *ctx, const struct ord_unit *u, double enemy);
void ks_keep_retreat_along(struct ord_ctx *ctx, struct ord_unit *u, const struct ord_unit *with);
/* Keep each unit's side's "↑" (ks_bearing_enemy of the scenario's setup,
 * in degrees) in its state fjende_retning, where it has none, for
 * ks_check_direction (flyt_retning_kontrol): the reorganisation, whose
 * context holds every unit, does it. */
void ks_keep_enemy_bearing(struct ord_ctx *ctx);
/* Keep in each unit's state indbrud_naer the enemies it could reach in a
 * turn (the longest march length of Skema V and the break-in distance
 * from it), for ks_check_break_in_move (indbrud_flyt_kontrol): the
 * reorganisation, whose context holds every unit, does it. */
void ks_keep_enemies_near(struct ord_ctx *ctx);
/* 6.3 "Det er kun muligt at rykke ind over en fjendtlig enheds
 * indbrudsafstand med enheder i OR eller LU, endvidere skal den
 * fjendtlige enhed: være FU, eller være i spredt formation uden hindring
 * eller dækning foran sig og egen enhed skal være i sluttet formation": a
 * move ev of u from (sx, sy) in `formation` that comes within the
 * break-in distance of an enemy it kept (indbrud_naer), nearer than it
 * stood, where it may not, is added to d. */
void ks_check_break_in_move(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
			    double sx, double sy, const char *formation, struct ord_diag *d);
/* An order code's symbol as the player writes it ("march": "M"). */
const char *ks_code_symbol(const char *code);

/* Stormmarch allowed this turn?  0, or a reason in why (English, for a
 * diagnostic) and the rule. */
int ks_stormmarch_refused(struct ord_ctx *ctx, const struct ord_unit *u, struct ord_buf *why);

/* An event that names two units, of which no table can make the one the
 * other or of that side: a merge, melee, attack, fire, support, flight
 * (into, blocked by), break-in or march through of a unit with itself or
 * the wrong side; a merge of or with a battery, or of two arms (6.2); a
 * reaction against itself or its own side, a battery's fire over itself
 * or its target (15, 16.2).  The checks refuse it; recorded with
 * --override, the resolve does not carry it out (umulig_kontrol,
 * umulig_mod_over_kontrol: a game made before resolves it as written).
 * 1 with the reason added to why (may be NULL) in both languages, else
 * 0. */
int ks_impossible(struct ord_ctx *ctx, const struct ord_event *e, struct ks_text *why);
/* An event no override records (red team #7): such an event, whatever the
 * Skema's switches, or one of a kind its unit's arm cannot do (a battery's
 * 'skyd'; 'artilleri', 'forsvarsild', 'prods', 'klargoering' or
 * 'reparation' of a unit that is no battery).  1 with why in English
 * (the refusal's words), else 0.  Refused as it is recorded
 * (ks_event_defaults): one recorded before replays as it was. */
int ks_impossible_new(struct ord_ctx *ctx, const struct ord_event *e, struct ord_buf *why);
/* When e is such an event: its unit's result says "ikke udført: ..." /
 * "not carried out: ..." (nothing else changes), and 1; else 0. */
int ks_not_carried_out(struct ord_ctx *ctx, const struct ord_event *e);

/* Record a result with a bilingual explanation (marked provisional as
 * needed). */
void ks_result(struct ord_ctx *ctx, unsigned seq, const struct ord_unit *u,
	       const struct ord_kv *vals, struct ks_text *t);

#endif
