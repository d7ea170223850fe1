/*
 * calc.h - the battalion rules as pure computation on the loaded tables.
 *
 * Every function here takes all of its inputs as arguments, dice included,
 * reads its numbers from the ruleset's tables (rulesets/battalion/tables.xml,
 * never C constants) and returns the numbers plus an explanation, so that the
 * calculator (`orderly calc battalion ...`) and the turn resolution give the
 * same answer for the same inputs.  Nothing here rolls, stores or prints.
 *
 * Conventions:
 *  - Each function returns 0 or a negative ORD_E* code with the message set
 *    (ord_error_last()).  Bad inputs are ORD_EUSAGE and the message starts
 *    with the input's name, which is also the calculator's key:
 *        "kind: unknown 'hussars' (expected one of line_infantry ...)".
 *    A rule that forbids the action (charging in forest, charging in line)
 *    is ORD_EUSAGE too, naming the input that breaks it.
 *  - `why` may be NULL; otherwise the explanation is appended to it, one
 *    line without a trailing newline, e.g.
 *        "24 firers × 50% = 12, +6 target in column, −3 target moved = 15".
 *  - Strings in results point into the loaded tables (or, for an unchanged
 *    new_class, at the caller's input) and live as long as the rules.
 *  - Flags are 0 (no) or 1 (yes).
 */
#ifndef BAT_CALC_H
#define BAT_CALC_H

#include <stddef.h>

#include "orderly.h"
#include "tables.h"
#include "ruleset.h"

/* The battalion module's loaded rules.  The module's (opaque) struct
 * ord_rules holds one; bat_rules() converts the pointer. */
struct bat_rules {
	struct ord_tables *tables; /* the validated tables document */
	/* the cases (kind, formation, class) whose rows init_unit found whole,
	 * "kind\tformation\tclass\n" each: the tables do not change, and the
	 * replay of a first turn makes every unit's first state again (a
	 * rules handle is one thread's, as its game is) */
	struct ord_buf rows_whole;
	/* the cases (kind, formation) whose formation init_unit found one of
	 * the kind's, "kind\tformation\n" each, for the same reason */
	struct ord_buf formations_whole;
	/* the rows of table kinds of the kinds asked of it (battalion.c
	 * kind_row), allocated with the rules: every sheet order asks its
	 * unit's arm, and the tables do not change */
	struct bat_kinds_seen *kinds_seen;
};

struct bat_kinds_seen {
	char *kind[16];                /* the first 16 kinds asked */
	const struct ord_row *row[16]; /* each one's row, NULL for none */
	const char *arm[16];           /* its arm, as kind_label says it */
	size_t n;
};

/* The ruleset slots `load` and `free`: parse and validate a tables document
 * (schema/tables.rng, then the tables and parameters the battalion rules
 * need); errors name the document and line. */
int bat_load(struct ord_rules **out, const char *xml, size_t len, const char *name);
void bat_free(struct ord_rules *rules);
/* The battalion rules behind a struct ord_rules made by bat_load. */
struct bat_rules *bat_rules(struct ord_rules *rules);

/* A named parameter of the tables (figures_per_tray, charge_interval,
 * rout_turns, ...); ORD_ENOTFOUND naming it when absent. */
int bat_param(const struct bat_rules *r, const char *name, double *out);

/* Trays and carried figures for losses figures lost in all: a tray is
 * removed for each figures_per_tray (bat_load checked it is 1 or more),
 * the rest carried.  The one rule for the calculator and the game alike. */
void bat_trays(const struct bat_rules *r, long losses, long *trays, long *carried);

/* Which side of a melee. */
enum bat_side {
	BAT_NONE = 0, /* a tie, or no pursuit */
	BAT_A = 1,
	BAT_B = 2,
};

/* ---- movement ---------------------------------------------------------- */

struct bat_move_in {
	const char *kind;      /* line_infantry, light_infantry, skirmishers, light_cavalry,
				  heavy_cavalry, foot_artillery, horse_artillery */
	const char *formation; /* line, column, square, skirmish, misc */
	int quarters;          /* ordered fraction of the move in quarters, 1..4 */
	int charge;            /* the order says C */
	int elite;             /* elite troops */
	const char *terrain;   /* open, road, forest (NULL: open) */
	const char *shown;     /* the formation as the words say it ("limbered": a
				  gun the chart moves as a line, D11); NULL: "in "
				  and the formation */
};

struct bat_move_out {
	double distance; /* inches */
};

int bat_move(const struct bat_rules *r, const struct bat_move_in *in, struct bat_move_out *out,
	     struct ord_buf *why);
/* 1 when the terrain chart gives a charge over terrain (NULL: open) a
 * factor, 0 when it forbids one ("forest ... may not charge") or names no
 * such terrain (bat_move says which). */
int bat_terrain_charges(const struct bat_rules *r, const char *terrain);

/* ---- musket and rifle fire --------------------------------------------- */

struct bat_fire_in {
	int firers;                   /* figures firing (line 24, column 8, ...) */
	const char *weapon;           /* musket, rifle */
	double range;                 /* inches, >= 0 */
	const char *target_formation; /* line, column, square, skirmish, misc */
	int target_moved;
	int firer_moved;             /* read off the firer's order sheet */
	int firer_changed_formation; /* read off the firer's order sheet */
	int firer_light;             /* firer is light infantry */
	int firer_skirmish;          /* firer in skirmish or misc order */
	int enfilade;                /* column hit as a line, line as a column */
	int target_in_woods;         /* may be fired on only from close range */
	int firer_in_woods;          /* units in woods do not fire */
	int firer_on_hill;           /* defending a hilltop: +1/4 casualties */
};

struct bat_fire_out {
	int in_range;   /* 0: beyond the weapon's table, or hidden in woods */
	double raw;     /* the summed total before rounding */
	int casualties; /* figures, rounded once */
	int trays;      /* whole trays to remove */
	int remainder;  /* figures carried on the sheet */
};

int bat_fire(const struct bat_rules *r, const struct bat_fire_in *in, struct bat_fire_out *out,
	     struct ord_buf *why);

/* ---- artillery --------------------------------------------------------- */

struct bat_artillery_in {
	const char *shot;             /* ball, shell, grape */
	double range;                 /* inches, >= 0 */
	const char *target_formation; /* line, column, square, skirmish, misc */
	int horse_moved_unlimbered;   /* horse artillery moved, unlimbered and fired */
	int target_in_woods;          /* may be fired on only from close range (D12) */
	int firer_in_woods;           /* units in woods do not fire (D12) */
	int firer_on_hill;            /* defending a hilltop: 1/4 more dead */
	int die;                      /* d6 to hit */
};

struct bat_artillery_out {
	int in_range;   /* 0: no such shot at this range, or hidden in woods */
	int to_hit;     /* highest die that hits */
	int hit;        /* die <= to_hit */
	int casualties; /* figures, 0 on a miss */
};

int bat_artillery(const struct bat_rules *r, const struct bat_artillery_in *in,
		  struct bat_artillery_out *out, struct ord_buf *why);

/* The reach of a weapon or a shot: tname "fire" with key "weapon" (musket,
 * rifle) or "artillery" with key "shot" (ball, shell, grape).  1 when range
 * is in a band of its that fires (every column a number, not "-"), as
 * bat_fire and bat_artillery read it, else 0; *reach is the farthest `to`
 * of such a band (0: none).  For the referee's events, checked before the
 * dice. */
int bat_reach(const struct bat_rules *r, const char *tname, const char *key, const char *value,
	      double range, double *reach);

/* ---- morale ------------------------------------------------------------ */

struct bat_morale_in {
	int die;    /* d6 */
	int losses; /* figures lost this turn */
	int elite;
	int militia;
	int failed_before;   /* has failed a morale check (else: good morale bonus) */
	int lost_melee;      /* just lost a melee */
	int routed_recently; /* routed within the last rout_penalty_turns turns */
};

struct bat_morale_out {
	int score;
	const char *outcome; /* good, retreat, rout */
};

int bat_morale(const struct bat_rules *r, const struct bat_morale_in *in,
	       struct bat_morale_out *out, struct ord_buf *why);

/* The optional d20 morale chart. */
struct bat_morale20_in {
	const char *cls; /* A..E */
	int die;         /* d20 */
};

struct bat_morale20_out {
	const char *outcome;   /* good, retreat, rout */
	const char *new_class; /* the class after this test (one lower after a rout) */
};

int bat_morale20(const struct bat_rules *r, const struct bat_morale20_in *in,
		 struct bat_morale20_out *out, struct ord_buf *why);

/* ---- melee ------------------------------------------------------------- */

struct bat_melee_side {
	const char *kind; /* as for movement */
	/* the formation as the charts know it (bat_chart_formation), or
	 * NULL: with melee_points_by_formation, a formation whose row of the
	 * table formations gives melee_points_as counts that kind's points a
	 * figure (infantry in skirmish order as skirmishers) */
	const char *formation;
	int figures; /* figures engaged */
	int column;  /* +1 on the die each */
	int motion;
	int fresh; /* new people in the melee */
	int charging;
	int elite;
	int square_vs_cavalry;
	int hill; /* defending a hilltop: +1 on the die, +1/4 casualties */
	int die;  /* d6 */
	/* routed, or broken and pursued: "routed units ... have no melee
	 * value", 0 points (it still takes casualties by its kind's points) */
	int no_value;
	/* the unit in the explanation ("F2 wins; F2 inflicts ... on A1"), or
	 * NULL: the side's letter as the calculator's keys (A, B, A2, B2), the
	 * words of the games made before (resolve.c, melee_names_units) */
	const char *name;
};

struct bat_melee_in {
	struct bat_melee_side a, b;
	struct bat_melee_side a2, b2; /* a second unit fighting on that side (kind NULL:
					 none): points and scores summed, the
					 casualties it takes shared by points */
	enum bat_side pursuit;        /* BAT_A/BAT_B: that side is cavalry re-fighting
				  infantry it broke this turn (casualties it
				  inflicts x1.5); BAT_NONE: an ordinary melee */
};

struct bat_melee_out {
	enum bat_side winner;   /* BAT_NONE on a tie */
	int points_a, points_b; /* figures x points per figure (a side's units summed) */
	int score_a, score_b;   /* points x adjusted die (summed) */
	int casualties_a;       /* figures lost by side a */
	int casualties_b;       /* figures lost by side b */
	int casualties_a2;      /* figures lost by a's second unit */
	int casualties_b2;      /* figures lost by b's second unit */
};

int bat_melee(const struct bat_rules *r, const struct bat_melee_in *in, struct bat_melee_out *out,
	      struct ord_buf *why);

/* ---- the ruleset slots `calc` and `print_tables` ------------------------- */

/* what = move, fire, artillery, morale, morale20, melee; args are key=value
 * (flags default to no); dice are taken in order (artillery, morale: one
 * d6; morale20: one d20; melee: a's d6 then b's), missing ones are rolled
 * and the output says so.  xml=1 writes a <calc> document.  A melee tie
 * has winner "none". */
int bat_calc(struct ord_rules *rules, const char *what, const struct ord_kv *args, const int *dice,
	     size_t ndice, int xml, struct ord_buf *out);
/* All tables (table == NULL) or the one named, as aligned text with their
 * [R] (reconstructed) and provisional marks; ORD_ENOTFOUND lists the names. */
int bat_print_tables(struct ord_rules *rules, const char *table, struct ord_buf *out);

#endif
