/*
 * calc.h - the Krigsspil rules as pure computation on the loaded Skema
 * (rulesets/krigsspil/skema.xml) and the map.
 *
 * Like the battalion module's calc.h: every function takes all its inputs,
 * dice included, reads its numbers from the tables (never C constants),
 * and returns numbers plus an explanation, so that the calculator
 * (`orderly calc krigsspil ...`) and the turn resolution always agree.
 * Nothing here rolls, stores or prints.
 *
 * Explanations are bilingual: a struct ks_text holds the Danish and the
 * English text side by side, and the names of the provisional tables used
 * (every result says so).  Conventions otherwise as calc.h of battalion:
 * 0 or a negative ORD_E* code with the message set; bad inputs are
 * ORD_EUSAGE and the message starts with the input's (calculator key's)
 * name.
 */
#ifndef KS_CALC_H
#define KS_CALC_H

#include <stddef.h>

#include "orderly.h"
#include "tables.h"
#include "rulesets/krigsspil/map.h"
#include "ruleset.h"

/* The Skema tables are read with the sum of three dice ("3d6"): it is the
 * shape of the tables (their rows run from the least three dice give),
 * not a number a club changes; the die's faces are the tables' terning. */
#define KS_DICE 3

/* The module's loaded rules: the Skema and, when the game has one, the map. */
struct ks_rules {
	struct ord_tables *tables; /* the validated Skema */
	struct ks_map *map;        /* NULL: no map (positions are not looked up) */
};

/* The ruleset slots `load` and `free`.  The document is either a Skema
 * (<tables ruleset="krigsspil">, schema/tables.rng) or a map
 * (<map>, schema/krigsspil-map.rng) that may end with its own <tables>;
 * a map without one uses the built-in skema.xml. */
int ks_load(struct ord_rules **out, const char *xml, size_t len, const char *name);
/* The ruleset's complete_tables: a map without a Skema gets the built-in one. */
int ks_complete_tables(const char *xml, size_t len, const char *name, struct ord_buf *out);
void ks_free(struct ord_rules *rules);
struct ks_rules *ks_rules(struct ord_rules *rules);

/* A parameter ks_load checked exists (0 if a club removed it anyway). */
double ks_param(const struct ks_rules *r, const char *name);
/* Rules a Skema may leave out (added after games were made with Skemas
 * that lack them): 1 when the tables give their numbers.  The limbers'
 * carriers (prods_fri_cm, prods_baerer_cm, prods_baerer_kanoner) and the
 * lengthened ammunition change (ammoskift_fri_cm, ammoskift_pr_cm), 9.2. */
int ks_rule_limbers(const struct ks_rules *r);
int ks_rule_ammo_change(const struct ks_rules *r);
/* Is the check `name` of the Skema's kontroller on?  0 when the Skema has
 * no such parameter: a game made before the check keeps a Skema without
 * it, and its audit replays its events through the checks as they were
 * (ammunitionszoner_kontrol, brugbare_kanoner_kontrol). */
int ks_check(const struct ks_rules *r, const char *name);
/* A table ks_load checked exists. */
const struct ord_table *ks_table(const struct ks_rules *r, const char *name);

/* ---- bilingual explanations --------------------------------------------- */

struct ks_text {
	struct ord_buf da;   /* Danish, the rules' own terms */
	struct ord_buf en;   /* English */
	struct ord_buf prov; /* provisional tables used, space-separated */
};

void ks_text_init(struct ks_text *t);
void ks_text_release(struct ks_text *t);
void ks_text_reset(struct ks_text *t);
/* Append the same thing in both languages; both formats take the same
 * arguments (the compiler checks each against them). */
#define KS_TF(t, fda, fen, ...)                           \
	do {                                              \
		ord_buf_addf(&(t)->da, fda, __VA_ARGS__); \
		ord_buf_addf(&(t)->en, fen, __VA_ARGS__); \
	} while (0)
void ks_text_add(struct ks_text *t, const char *da, const char *en);
void ks_text_cat(struct ks_text *t, const struct ks_text *src);
/* Note that a table was used: its name is kept when it is provisional. */
void ks_text_used(struct ks_text *t, const struct ord_table *tbl);
/* The same for a parameter marked provisional. */
void ks_text_used_param(struct ks_text *t, const struct ks_rules *r, const char *name);
/* Append " [foreløbig tabel: a, b]" / " [provisional table: a, b]" when any
 * provisional table was used. */
void ks_text_mark(struct ks_text *t);
/* Both languages as the core takes them (ord_ctx_result_texts): "da"
  * then "en"; ks_text_write writes the report's language (ord_texts_add). */
void ks_text_langs(const struct ks_text *t, struct ord_kv *texts);
void ks_text_write(struct ord_ctx *ctx, const struct ks_text *t, struct ord_buf *out);

/* A share as the rules write it: ¼ ½ ¾, else the number. */
void ks_fmt_part(struct ord_buf *b, double v);
/* A number in an explanation ("−3", "1.5"), in one language or both. */
void ks_num(struct ord_buf *b, double v);
void ks_text_num(struct ks_text *t, double v);

/* The word for n things: one when n is 1, else many; and the English
 * ordinal's ending of n ("st" "nd" "rd" "th").  A game made before
 * ordlyd_kontrol keeps the words it was played with: many, "th". */
const char *ks_nword(const struct ks_rules *r, double n, const char *one, const char *many);
const char *ks_ordinal_en(const struct ks_rules *r, long n);

/* The faces of the die (the parameter terning). */
int ks_die(const struct ks_rules *r);

/* ---- morale grades -------------------------------------------------------- */

enum ks_moral { KS_OR = 0, KS_LU = 1, KS_U = 2, KS_FU = 3 };

const char *ks_moral_name(int grade);                    /* "OR" .. "FU" */
int ks_moral_parse(const char *s);                       /* -1 if none; "-" is KS_OR */
const char *ks_moral_words(int grade, const char *lang); /* "let uorden" / "light disorder" */

/* ---- units ------------------------------------------------------------- */

/* The arm row of an art (infanteri, let_kavaleri ...): vaaben (infanteri,
 * kavaleri, artilleri), klasse, names.  ORD_EUSAGE listing the arts. */
int ks_arm(const struct ks_rules *r, const char *art, const struct ord_row **out);
const char *ks_arm_vaaben(const struct ks_rules *r, const char *art);
/* The formation row for an art's vaaben; ORD_EUSAGE when the arm cannot
 * take it. */
int ks_formation(const struct ks_rules *r, const char *formation, const char *vaaben,
		 const struct ord_row **out);
int ks_formation_closed(const struct ks_rules *r, const char *formation, const char *vaaben);
/* May a unit of nation (its scenario attribute, NULL: none) form the
 * formation of row (table formationer)?  The row's optional nationer lists
 * the only nations that may; without it every nation may. */
int ks_formation_nation_ok(const struct ord_row *row, const char *nation);
/* Ranks of a unit of `figures` in a formation (at most geledder_max). */
int ks_ranks(const struct ks_rules *r, const char *formation, const char *vaaben, int figures);
/* Figures that can fire by default. */
int ks_firing_figures(const struct ks_rules *r, const char *formation, const char *vaaben, int figures);

/* ---- movement (13, Skema V) ------------------------------------------------ */

/* A gait (march, stormmarch, loeb, retraete, flugt) of an art in a
 * formation: the march length of a whole turn it reads (table gangarter:
 * løb at the attack column's length, cossacks fleeing at light cavalry's
 * stormmarch) and the most of a turn it lasts.  ORD_EUSAGE naming `gang`
 * when the arm has no such gait (no stormmarch for infantry, løb only for
 * infantry in line). */
int ks_gait(const struct ks_rules *r, const char *art, const char *formation, const char *gang,
	    double *length, double *share, const struct ord_row **row);

/* A stretch of ground a move crosses: its terrain (a terraen of the table
 * march_terraen: aabent ... vej) and its length. */
struct ks_move_seg {
	const char *terrain;
	double cm;
};

struct ks_move_in {
	const char *art;               /* infanteri, let_kavaleri ... */
	const char *formation;         /* the unit's formation */
	const char *gang;              /* march stormmarch loeb retraete flugt */
	double time;                   /* share of the turn moving; < 0: the gait's most */
	const struct ks_move_seg *seg; /* the ground crossed, in order */
	size_t nseg;                   /* 0: nothing to check, only the reach */
	const char *const *obstacles;  /* obstacle classes passed: I II III */
	size_t nobstacles;
	int facing_enemy;  /* a retreat with its front to the enemy (17) */
	double through_cm; /* cm of it through an own unit (13 gennemmarch) */
	double wheel_cm;   /* cm the outer flank wheeled (12 drej) */
	int passage;       /* hold the obstacles and the woods to ks_obstacle_bars and
			    * ks_ground_bar too (the calculator; the game holds the
			    * map's in ks_check_path) */
	int path;          /* the stretches of wood and marsh are along a path (sti) */
};

struct ks_move_out {
	double length;    /* the gait's march length for a whole turn, cm */
	double share;     /* the most of a turn the gait lasts */
	double time;      /* the share of the turn moved */
	double deduction; /* share of the turn lost at obstacles */
	double reach;     /* cm of open ground the unit may cover */
	double moved;     /* cm moved (the stretches' sum) */
	double cost;      /* cm of open ground the move is worth */
	int passable;     /* 0: a stretch cannot be passed at all (water) */
	int ok;           /* passable and cost <= reach */
};

/* 13 passage af hindringer: what bars a unit of arm vaaben (infanteri,
 * kavaleri, artilleri), in close order or not, in morale grade, at
 * stormmarch or not, from passing an obstacle of class cls (I, II, III):
 * 0 when nothing does, else the KS_BAR_ bits of each rule it breaks.  The
 * game's move (ks_check_path) and the calculator's (ks_move) alike. */
enum ks_obstacle_bar {
	KS_BAR_STORM = 1,    /* "Hindringer kan ikke passeres i stormmarch" */
	KS_BAR_U_CLOSED = 2, /* "En sluttet formation i U kan ikke passere hindringer" */
	KS_BAR_ARM = 4,      /* "Kavaleri og artilleri kan ikke passere hindring [II] og [III]" */
	KS_BAR_U_OPEN = 8,   /* "En spredt formation i U kan ikke passere hindring [II] og [III]" */
	KS_BAR_FU_FOOT = 16, /* "[I]nfanteri i FU kan ikke passere hindring [II] og [III]" */
	KS_BAR_FU_GUNS = 32, /* "Artilleri i FU kan ikke passere hindringer" */
};
unsigned ks_obstacle_bars(const char *vaaben, int closed, int grade, int stormmarch, const char *cls);
/* The words of one bar (a KS_BAR_ bit) added to t in both languages,
 * "hindringer kan ikke passeres i stormmarch" / "obstacles cannot be
 * passed in stormmarch"; arm_da, arm_en: the arm's name (KS_BAR_ARM), cls
 * the obstacle's class.  The calculator's result and the game's check of
 * a move say the same. */
void ks_obstacle_bar_words(struct ks_text *t, unsigned bar, const char *arm_da, const char *arm_en,
			   const char *cls);

/* 13 passage af skov, sump eller mose: "Skov, sump og mose kan, udenfor
 * vej, kun passeres af: Sluttet formation: Visse enheder i marchkolonne på
 * stier ... Spredt formation: [I]nfanteri og kosakker.  Flugt: [I]nfanteri
 * og kosakker", and "[I]nfanteri og kosakker kan rykke ind i og ud af
 * skovkanter".  What bars a unit from ground of wood (wood) or marsh: in
 * grade, close order or not, in march column or not, artillery (gun),
 * infantry or cossacks (foot), with a road or a path there, at the wood's
 * edge.  The game's move (check_woods) and the calculator's alike. */
enum ks_ground_bar {
	KS_GROUND_OK = 0,
	KS_GROUND_FLIGHT,   /* in flight: infantry and cossacks only */
	KS_GROUND_OPEN,     /* open order: infantry and cossacks only */
	KS_GROUND_GUN_ROAD, /* artillery in march column: on a road only */
	KS_GROUND_NO_PATH,  /* march column: on a path or a road only */
	KS_GROUND_CLOSE,    /* close order: only in march column on a path */
};
enum ks_ground_bar ks_ground_bar(int grade, int closed, int column, int gun, int foot, int wood,
				 int road, int path, int edge);
/* The words of a bar of ks_ground_bar added to t in both languages, "kan
 * under flugt kun passeres af infanteri og kosakker" / "passed in flight
 * only by infantry and cossacks"; foot_in_wood: infantry or cossacks in a
 * wood, which enter its edge (skovkant_cm).  The calculator's result and
 * the game's check of a move say the same. */
void ks_ground_bar_words(struct ks_text *t, const struct ks_rules *r, enum ks_ground_bar bar,
			 int foot_in_wood);

/* What a move may cover and what the ground it crossed cost (13): the
 * gait's length x (time - obstacles' deductions) x the half speeds, less
 * a wheel; each stretch costs its cm / the ground's faktor, the stretch
 * through an own unit / gennemmarch_faktor.  With in->passage, an obstacle
 * or a stretch of wood or marsh the unit cannot pass makes the move
 * impassable (out->passable 0), saying the rule: the unit is in the morale
 * its gait implies (retraete U, flugt FU, else OR), and a stretch of wood
 * no longer than skovkant_cm is its edge (our reading). */
int ks_move(const struct ks_rules *r, const struct ks_move_in *in, struct ks_move_out *out,
	    struct ks_text *why);

/* Fire and melee units: figures_pr_skydeenhed figures make one, and a
 * remainder of rest_figurer or more one more (6.4): floor((n + 3) / 5). */
int ks_fire_units(const struct ks_rules *r, int figures, struct ks_text *why);

/* 17.3 forfølgelsesangreb: a unit's strength against a fleeing one, its
 * figures, cavalry's forfoelgelse_kavaleri_gange times; and whether the
 * attacker's is at least forfoelgelse_pct of the fleeing unit's (the game
 * and the calculator alike). */
int ks_pursuit_strength(const struct ks_rules *r, int figures, int cavalry);
int ks_pursuit_enough(const struct ks_rules *r, int attacker, int fleeing);

/* Decimation (6.7): 0 none, 1 over decimering_lu_pct lost (LU for the rest
 * of the battle), 2 over decimering_u_pct (U, no reorganisation). */
int ks_decimation(const struct ks_rules *r, int start_figures, int figures);
/* The same in men (decimering_mand_kontrol): a unit of start_figures that
 * has lost lost_men, losses short of a figure too; *start and *now get its
 * men at the start and now (the game and the calculator alike). */
int ks_decimation_men(const struct ks_rules *r, int start_figures, long lost_men, int *start, int *now);

/* Stragglers of a fleeing unit for one turn of flight after the first. */
int ks_stragglers(const struct ks_rules *r, int figures);

/* Figures after losing `men` in all (whole figures lost; the rest carried). */
int ks_figures_after(const struct ks_rules *r, int start_figures, long men_lost);

/* The morale of a fire by parts (14): the firers affect at most `cap`
 * figures ("højst moralpåvirke 3 gange det antal figurer der skyder", 4
 * a gun for artillery); when only `fired` of the unit's `whole` figures
 * are fired at and the firers could affect the whole unit, the part fired
 * at takes the full grade and the rest one grade less ("fuld moralsk
 * påvirkning af den beskudte del, og en grad mindre mod resten"),
 * otherwise the figures beyond the cap are not affected.  The module keeps
 * one state a unit: it takes the worst grade at least moral_fuld_andel of
 * its figures took (ours, K6). */
struct ks_morale_parts {
	int whole;      /* the unit's figures */
	int fired;      /* of them fired at */
	int full;       /* of them affected with the full grade */
	int rest;       /* the others */
	int grade;      /* the table's grade, for the full part */
	int rest_grade; /* the rest's: one grade less, or none */
	int unit_grade; /* the unit's one state */
};
void ks_morale_split(const struct ks_rules *r, int grade, int whole, int fired, int cap,
		     struct ks_morale_parts *p);

/* ---- small-arms fire (14, Skema X) ------------------------------------- */

/* The most zones a moving target is as long in (I II III K). */
#define KS_MAX_ZONES 4

/* A moving target as long in two or more zones (14, 15: "Hvis den
 * opholder sig lige meget i [2] eller flere zoner, beregnes et
 * gennemsnitligt fradrag/tillæg, såfremt dette er muligt"): the zones of
 * list ("I,II") into zones, each once, as the tables name them; 0, or
 * ORD_EUSAGE naming key when one is no zone of allowed ("I II III") or
 * fewer than two are given. */
int ks_parse_zones(const char *list, const char *allowed, const char *key, const char **zones,
		   int *nzones);
/* The average of the zones' modifiers rounded to a whole number, a half
 * towards zero (ours: the text does not say how; +1½ is +1, −1½ is −1). */
double ks_zone_average_round(double avg);

struct ks_fire_in {
	int figures;                     /* firing figures */
	int target_figures;              /* figures of the target (for the morale cap) */
	int fired_figures;               /* of them fired at (0: all of them, 14) */
	const char *vaaben;              /* musket, riffel, karabin */
	const char *zone;                /* I, II, III; NULL: from range */
	double range;                    /* cm, when zone is NULL */
	const char *zones[KS_MAX_ZONES]; /* nzones > 1: a moving target as long in each (14) */
	int nzones;                      /* the zone modifiers averaged; zone and range unread */
	int half;                        /* half a turn: losses halved */
	int dice[KS_DICE];               /* 3d6 */
	const struct ord_kv *flags;      /* modifier flags (yes/no, per counts) */
	int at_battery;                  /* the target is a battery: it loses no men (ours) */
};

struct ks_fire_out {
	int in_range;     /* 0: beyond the weapon's zones */
	const char *zone; /* the zone read at; of a moving target the first of its zones */
	int nzones;       /* zones averaged (0 or 1: one zone) */
	int fire_units;
	int roll;            /* 3d6 */
	double loss_total;   /* 3d6 + the loss columns */
	double morale_total; /* + the morale column */
	double men_per_unit; /* Skema X tab */
	int men;             /* men lost by the target, rounded down (0 at a battery) */
	int grade;           /* the table's morale result */
	int affected;        /* figures the fire can affect */
	int grade_applied;   /* the unit's, by parts (14) */
	struct ks_morale_parts parts;
};

int ks_fire(const struct ks_rules *r, const struct ks_fire_in *in, struct ks_fire_out *out,
	    struct ks_text *why);
/* Does the fire reach its target: the zone given is one of the weapon's,
 * the range within its bands (skudzoner)?  Asked before the dice: a shot
 * out of range rolls none, and ks_fire reads no dice for it.  1 when the
 * input is bad (ks_fire says why). */
int ks_fire_reaches(const struct ks_rules *r, const struct ks_fire_in *in);
/* The flags ks_fire adds for in, its zone's (zone_ii); none out of range. */
void ks_fire_calc_flags(const struct ks_rules *r, const struct ks_fire_in *in, struct ord_kv *flags);
/* A small arm's longest range in cm, the end of its last band in
 * skudzoner (-1 when the table has none), and its zones ("I II") into
 * zones (may be NULL). */
double ks_arms_reach(const struct ks_rules *r, const char *vaaben, struct ord_buf *zones);

/* ---- artillery (15, Skema XV) ------------------------------------------ */

struct ks_artillery_in {
	int guns;                        /* guns firing */
	int howitzers;                   /* of which howitzers (shell is theirs alone) */
	const char *kaliber;             /* 3 4 6 8 9 12 18 */
	const char *ammo;                /* SF SG SK SS */
	const char *zone;                /* I II III K; NULL: from range */
	double range;                    /* cm, when zone is NULL */
	const char *zones[KS_MAX_ZONES]; /* nzones > 1: a moving target as long in each (15) */
	int nzones;                      /* the zone modifiers averaged; zone and range unread */
	int half;
	int target_figures;
	int fired_figures;    /* of them fired at (0: all of them, 15) */
	int target_artillery; /* materiel losses instead of men */
	int dice[KS_DICE];
	const struct ord_kv *flags;
};

struct ks_artillery_out {
	int in_range;
	const char *zone; /* the zone read at; of a moving target the first of its zones */
	int nzones;       /* zones averaged (0 or 1: one zone) */
	int roll;
	double loss_total, morale_total;
	double men_per_gun;
	int men;                         /* men lost (0 for a battery: materiel instead) */
	int damaged, destroyed, limbers; /* materiel (battery targets) */
	int grade, affected, grade_applied;
	struct ks_morale_parts parts;
};

int ks_artillery(const struct ks_rules *r, const struct ks_artillery_in *in,
		 struct ks_artillery_out *out, struct ks_text *why);
/* Does the fire reach its target: the zone given, or a range within the
 * calibre's bands for its ammunition (artillerizoner), a zone the
 * ammunition is used at (ammunitionstyper's zoner)?  As ks_fire_reaches. */
int ks_artillery_reaches(const struct ks_rules *r, const struct ks_artillery_in *in);
/* The flags ks_artillery adds for in: the target's column, the
 * ammunition at its zone, the calibre (sf, sf_ii, kaliber_6); none out of
 * range. */
void ks_artillery_calc_flags(const struct ks_rules *r, const struct ks_artillery_in *in,
			     struct ord_kv *flags);
/* The zone of the band of artillerizoner a range falls in for a calibre
 * and an ammunition's gruppe, whether the ammunition is used there or
 * not; NULL beyond the last band or when the tables have none. */
const char *ks_artillery_band(const struct ks_rules *r, const char *kaliber, const char *ammo,
			      double range);
/* A calibre's longest range in cm with an ammunition: the end of the last
 * band of artillerizoner for the ammunition's gruppe (-1 when none). */
double ks_artillery_reach(const struct ks_rules *r, const char *kaliber, const char *ammo);
/* The end in cm of zone's band of artillerizoner for a calibre and an
 * ammunition's gruppe: the farthest a target in that zone stands (-1 when
 * the tables have none). */
double ks_artillery_zone_end(const struct ks_rules *r, const char *kaliber, const char *ammo,
			     const char *zone);

/* The exploding limber (10.2): the 1d6, the share that explodes, and the
 * fire units that gives from the limber's ammunition. */
int ks_explosion(const struct ks_rules *r, int die, double ammo, double *share, int *fire_units,
		 struct ks_text *why);

/* ---- melee (16.5, Skema XV and XX) -------------------------------------- */

struct ks_melee_side {
	int figures; /* figures engaged (within 18 cm; 30 for rifles; the first 6 ranks) */
	int ranks;   /* ranks engaged (chain = 1), at most geledder_max */
	int dice[KS_DICE];
	struct ord_kv flags; /* this side's modifier flags (initialised by the caller) */
	int in_u;            /* in U as the melee begins (17.1) */
	const char *blocked; /* NULL: it can retreat; else why not: hindring, fjende (17.1) */
};

struct ks_melee_in {
	struct ks_melee_side a, d; /* attacker, defender */
	int pursuit;               /* a pursuit attack: the attacker always wins */
	int test_only;             /* a morale test (17, flight into an own unit): no losses */
};

struct ks_melee_out {
	double total_a, total_d; /* 3d6 + modifiers */
	int roll_a, roll_d;
	int winner;                    /* 1 attacker, 2 defender, 0 a tie */
	int difference;                /* |total_a - total_d|, rounded down */
	int ranks_winner, ranks_loser; /* both sides' engaged ranks (Skema XX) */
	double weight;                 /* their weight (skema_xx_geledder) */
	double product;                /* difference x weight, read in skema_xx */
	int grade;                     /* the loser's morale result (both LU on a tie) */
	int cornered;                  /* the loser was in U and could not retreat: FU (17.1) */
	int units_a, units_d;          /* melee units */
	int men_a, men_d;              /* dead */
	int prisoners_a, prisoners_d;  /* given up if that side goes FU */
};

int ks_melee(const struct ks_rules *r, const struct ks_melee_in *in, struct ks_melee_out *out,
	     struct ks_text *why);

/* The figures of a unit that count in a melee: "Kun tiraillørkæde og de 6
 * første geledder kan tælles med" (16.5): a formation deeper than
 * geledder_max ranks counts its front x geledder_max figures. */
int ks_rank_figures(const struct ks_rules *r, const char *formation, const char *vaaben, int figures);

/* The numbers flags for a side: pct_flere and gange_N from both figures. */
void ks_melee_numbers(const struct ks_rules *r, int own, int other, struct ord_kv *flags);

/* What a side of a melee is, as far as its modifiers go that follow from
 * its arm and formation (not its state). */
struct ks_melee_arm {
	const char *art;       /* arme.art: infanteri, tungt_kavaleri ... */
	const char *formation; /* formationer.formation */
	int british;           /* British or English (engelsk linie) */
	double rifler;         /* percent of its figures with rifles */
};

/* The Skema XV melee flags side x brings from its arm and formation against
 * enemy (16.5): the cavalry's class, attack column, English line, rifles,
 * square or mass against cavalry, cavalry against infantry, close order
 * against open.  One path for the game (attack.c) and the calculator. */
void ks_melee_arm_flags(const struct ks_rules *r, const struct ks_melee_arm *x,
			const struct ks_melee_arm *enemy, int attacker, struct ord_kv *flags);

/* The modifier flag a unit's share of rifles gives for a use ("skydning",
 * "naerkamp"), from the table riffel_andele; NULL when it gives none.  A
 * row may name the zones the muskets and the rifles must fire at
 * (musket_zone, riffel_zone); it gives nothing to a fire at other zones. */
const char *ks_rifle_flag(const struct ks_rules *r, const char *use, double share,
			  const char *musket_zone, const char *rifle_zone);

/* ---- the map printed --------------------------------------------------- */

/* The map as text: a grid of plates (terrain character, height, first
 * feature, a mark where units stand) and a legend.  marks: "q,r=X" items
 * (may be NULL). */
void ks_map_print(const struct ks_rules *r, const struct ord_kv *marks, const char *lang,
		  struct ord_buf *out);
/* The terrain under a position, in words: "skov, højde 1 F, plade (2,-1)". */
void ks_map_describe(const struct ks_rules *r, double x, double y, struct ks_text *out);
/* The row of table terraen for a plate's terrain; NULL when the Skema has
 * none (cover, edge, ricochet and the map's legend all read it). */
const struct ord_row *ks_terrain_row(const struct ks_rules *r, const char *terrain);

/* ---- the ruleset slots `calc` and `print_tables` --------------------------- */

/* what = fireunits, fire, artillery, melee, explosion, decimation; key=value
 * arguments; dice in order (fire, artillery: 3d6; melee: the attacker's
 * 3d6 then the defender's; explosion: 1d6), missing ones rolled and said
 * so; lang=da|en picks the explanation's language.  xml=1 writes the same
 * <calc><value name=...> document as the battalion calculator. */
int ks_calc(struct ord_rules *rules, const char *what, const struct ord_kv *args, const int *dice,
	    size_t ndice, int xml, struct ord_buf *out);
/* All tables (NULL), one table by name, or "kort" for the map. */
int ks_print_tables(struct ord_rules *rules, const char *table, struct ord_buf *out);

#endif
