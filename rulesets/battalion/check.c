/*
 * check.c - the battalion module's checks (battalion.c has the rules'
 * decisions D1..D26 they follow): a sheet against the rules and the units'
 * state (validate_sheet), each referee event against the sealed orders
 * (check_event), and after the exchange what was ordered but not done
 * (check_execution).  Every problem cites the rule it breaks, with the
 * rule's numbers from the tables.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/battalion/bat.h"

/* ---- sheet validation ---- */

/* What a sheet's check reads of the tables for every order, read once for
 * the sheet (the tables do not change while it is checked): 2,500 orders
 * looked up each switch and number again. */
struct sheet_rules {
	int retreat_orders_checked; /* the table checks' switches */
	int same_formation_checked;
	int unlimber_move_checked;
	int routed_moves_checked;
	int sheet_state_checked;
	int gun_shot_checked;
	int routed_gun_checked;
	int charge_form_checked;
	long charge_interval;
	long formation_change_moves;
	long move_fraction_parts;
	long unlimber_turns, unlimber_turns_horse;
	double forward_within;
	/* what the sheet's orders ask of a unit's kind, the first 16 kinds
	 * (kind_seen): the same few kinds come back on every order, and each
	 * answer is the tables' alone */
	struct kind_seen {
		char *kind;             /* the unit's kind attribute (bat_kind) */
		size_t len;             /* strlen(kind) */
		const char *arm;        /* bat_arm's */
		int artillery, cavalry; /* the arm is "artillery", "cavalry" */
		const char *formation;  /* bat_kind_formation's */
		int horse_artillery;    /* bat_is_horse_artillery's */
		unsigned codes_ok;      /* bit i: order_codes lets it take code_names[i] */
	} kinds[16];
	size_t nkinds;
	/* what the movement chart says of a charge of a kind in a formation,
	 * the first 32 asked (charge_refusal) */
	struct charge_seen {
		char *kind, *formation;
		char *refusal; /* bat_move's message, or NULL: it may charge */
	} charges[32];
	size_t ncharges;
};

static void sheet_rules_init(struct ord_ctx *ctx, struct sheet_rules *sr)
{
	memset(sr, 0, sizeof(*sr));
	sr->retreat_orders_checked = bat_flag(ctx, "retreat_orders_checked");
	sr->same_formation_checked = bat_flag(ctx, "same_formation_checked");
	sr->unlimber_move_checked = bat_flag(ctx, "unlimber_move_checked");
	sr->routed_moves_checked = bat_flag(ctx, "routed_moves_checked");
	sr->sheet_state_checked = bat_flag(ctx, "sheet_state_checked");
	sr->gun_shot_checked = bat_flag(ctx, "gun_shot_checked");
	sr->routed_gun_checked = bat_flag(ctx, "routed_gun_checked");
	sr->charge_form_checked = bat_flag(ctx, "charge_form_checked");
	sr->charge_interval = bat_ip(ctx, "charge_interval");
	sr->formation_change_moves = bat_ip(ctx, "formation_change_moves");
	sr->move_fraction_parts = bat_ip(ctx, "move_fraction_parts");
	sr->unlimber_turns = bat_ip(ctx, "unlimber_turns");
	sr->unlimber_turns_horse = bat_ip(ctx, "unlimber_turns_horse");
	sr->forward_within = bat_p(ctx, "forward_within");
}

static void sheet_rules_release(struct sheet_rules *sr)
{
	size_t i;

	for (i = 0; i < sr->nkinds; i++)
		free(sr->kinds[i].kind);
	for (i = 0; i < sr->ncharges; i++) {
		free(sr->charges[i].kind);
		free(sr->charges[i].formation);
		free(sr->charges[i].refusal);
	}
}

/* Why the movement chart refuses a charge of a unit of kind in formation
 * (bat_move, the whole move over open ground), or NULL when it allows
 * it: the same for every unit alike, so asked once for each. */
static const char *charge_refusal(struct ord_ctx *ctx, struct sheet_rules *sr, const char *kind,
				  const char *formation)
{
	struct bat_move_in mi = { kind, formation, (int)sr->move_fraction_parts, 1, 0, "open", NULL };
	struct bat_move_out mo;
	struct charge_seen *c;
	size_t i;

	for (i = 0; i < sr->ncharges; i++)
		if (!strcmp(sr->charges[i].kind, kind) && !strcmp(sr->charges[i].formation, formation))
			return sr->charges[i].refusal;
	if (sr->ncharges == ORD_ARRAY_SIZE(sr->charges)) {
		/* past the first 32: the last slot asked again each time */
		c = &sr->charges[--sr->ncharges];
		free(c->kind);
		free(c->formation);
		free(c->refusal);
	}
	c = &sr->charges[sr->ncharges++];
	c->kind = ord_strdup(kind);
	c->formation = ord_strdup(formation);
	c->refusal = bat_move(bat_r(ctx), &mi, &mo, NULL) ? ord_strdup(ord_error_last()) : NULL;
	ord_error_clear();
	return c->refusal;
}

/* May a unit of this kind take this code?  The table order_codes says;
 * when not, `who` gets the kinds that may ("line_infantry light_infantry"). */
static int code_allowed(struct ord_ctx *ctx, const char *code, const char *k, struct ord_buf *who)
{
	const struct ord_table *t = ord_tables_get(bat_r(ctx)->tables, "order_codes");
	const struct ord_row *row;
	struct ord_kv_item items[2] = { { "code", (char *)code }, { "kind", (char *)k } };
	const struct ord_kv m = { items, 2, 2 }; /* a match read, never changed: no copies */
	size_t i;
	int ok;

	ok = !ord_table_find(&row, t, &m);
	ord_error_clear();
	if (ok)
		return 1;
	/* every row that lists the code adds its kinds */
	for (i = 0; i < ord_table_nrows(t); i++) {
		const struct ord_row *r = ord_table_row(t, i);
		const char *codes = ord_row_str(r, "code"), *p = codes;
		size_t n = strlen(code);

		while (p && (p = strstr(p, code)) != NULL) {
			if ((p == codes || p[-1] == ' ') && (p[n] == ' ' || !p[n])) {
				if (who->len)
					ord_buf_addch(who, ' ');
				ord_buf_adds(who, ord_row_str(r, "kind"));
				break;
			}
			p += n;
		}
	}
	if (!who->len)
		ord_buf_adds(who, "no kind");
	return 0;
}

/* The codes of the hieroglyphs (orders/hieroglyph) in the order of a
 * kind_seen's mask; CODE_C and the rest are their indexes. */
static const char *const code_names[] = {
	"FLn", "FCol", "FSk", "FSq", "C", "Fb", "Fs", "Fg", "UL", "L",
};
enum {
	CODE_FLN,
	CODE_FCOL,
	CODE_FSK,
	CODE_FSQ,
	CODE_C,
	CODE_FB,
	CODE_FS,
	CODE_FG,
	CODE_UL,
	CODE_L
};
#define CODE_IS_FORM(c) ((c) >= CODE_FLN && (c) <= CODE_FSQ)
#define CODE_IS_FIRE(c) ((c) >= CODE_FB && (c) <= CODE_FG)

/* The index in code_names of a code as the notation spells it, or -1:
 * strcmp's answer (the codes are compared as written, as
 * bat_form_code_formation and bat_fire_code_shot compare them), by its
 * first letters rather than ten calls. */
static int code_index(const char *v)
{
	int c = -1;

	switch (v[0]) {
	case 'C': c = CODE_C; break;
	case 'L': c = CODE_L; break;
	case 'U': c = v[1] == 'L' ? CODE_UL : -1; break;
	case 'F':
		switch (v[1]) {
		case 'L': c = CODE_FLN; break;
		case 'C': c = CODE_FCOL; break;
		case 'S': c = v[2] == 'k' ? CODE_FSK : v[2] == 'q' ? CODE_FSQ : -1; break;
		case 'b': c = CODE_FB; break;
		case 's': c = CODE_FS; break;
		case 'g': c = CODE_FG; break;
		default: break;
		}
		break;
	default: break;
	}
	return c >= 0 && !strcmp(v, code_names[c]) ? c : -1;
}

/* What the sheet's check reads of one order, in one pass over its tokens:
 * the first token of each kind and of each code it asks of, as
 * ord_order_find, ord_order_code, bat_order_form and bat_order_fire give
 * them (2,500 orders walked their tokens a dozen times). */
struct order_seen {
	const struct ord_token *dir, *frac, *target; /* the first of the kind, or NULL */
	const struct ord_token *charge, *ul, *l;     /* the first C, UL, L */
	const struct ord_token *form, *fire;         /* the first formation change, kind of shot */
	int nfire;                                   /* the kinds of shot ordered */
};

static void order_seen(struct order_seen *os, const struct ord_order *o)
{
	size_t i;

	memset(os, 0, sizeof(*os));
	for (i = 0; i < o->ntok; i++) {
		const struct ord_token *t = &o->tok[i];
		int c;

		switch (t->kind) {
		case ORD_TOK_DIR:
			if (!os->dir)
				os->dir = t;
			break;
		case ORD_TOK_FRAC:
			if (!os->frac)
				os->frac = t;
			break;
		case ORD_TOK_TARGET:
			if (!os->target)
				os->target = t;
			break;
		case ORD_TOK_CODE:
			c = code_index(t->value);
			if (c == CODE_C && !os->charge)
				os->charge = t;
			else if (c == CODE_UL && !os->ul)
				os->ul = t;
			else if (c == CODE_L && !os->l)
				os->l = t;
			else if (CODE_IS_FORM(c) && !os->form)
				os->form = t;
			if (CODE_IS_FIRE(c)) {
				if (!os->fire)
					os->fire = t;
				os->nfire++;
			}
			break;
		default: break;
		}
	}
}

/* The sheet's answers for a unit's kind (kind_seen), found the first time
 * a unit of it is ordered; NULL past the first 16 kinds, whose orders ask
 * the rules each time. */
static struct kind_seen *kind_seen(struct ord_ctx *ctx, struct sheet_rules *sr,
				   const struct ord_unit *u, const char *k)
{
	struct kind_seen *ks;
	size_t i, len = strlen(k);

	/* by length and first letter before the bytes: a few kinds, each of
	 * its own length nearly */
	for (i = 0; i < sr->nkinds; i++)
		if (sr->kinds[i].len == len && sr->kinds[i].kind[0] == k[0] &&
		    !memcmp(sr->kinds[i].kind, k, len))
			return &sr->kinds[i];
	if (sr->nkinds == ORD_ARRAY_SIZE(sr->kinds))
		return NULL;
	ks = &sr->kinds[sr->nkinds++];
	ks->kind = ord_strdup(k);
	ks->len = len;
	ks->arm = bat_arm(ctx, u);
	ks->artillery = !strcmp(ks->arm, "artillery");
	ks->cavalry = !strcmp(ks->arm, "cavalry");
	ks->formation = bat_kind_formation(ctx, k);
	ks->horse_artillery = bat_is_horse_artillery(u);
	ks->codes_ok = 0;
	return ks;
}

/* bat_chart_formation, the kind's part of it asked once for the sheet
 * (ks, NULL: not). */
static const char *chart_formation_seen(struct ord_ctx *ctx, const struct kind_seen *ks,
					const struct ord_unit *u)
{
	if (!ks)
		return bat_chart_formation(ctx, u);
	return bat_chart_formation_as(ks->formation, bat_formation(ctx, u));
}

/* code_allowed, a code a kind may take answered once for the sheet: the
 * same few pairs come back on every order (who as code_allowed leaves it
 * when it answers 1: untouched).  code: the code's index in code_names,
 * or -1. */
static int code_allowed_seen(struct ord_ctx *ctx, struct kind_seen *ks, int code, const char *value,
			     const char *k, struct ord_buf *who)
{
	if (ks && code >= 0 && (ks->codes_ok & (1u << code)))
		return 1;
	if (!code_allowed(ctx, value, k, who))
		return 0;
	if (ks && code >= 0)
		ks->codes_ok |= 1u << code;
	return 1;
}

/* D6: "Retreat - unit must retreat next turn", and "any unit that retreats
 * must spend one turn dressing its ranks before it moves forward": a unit
 * retreating this turn, or dressing its ranks, is ordered no arrow towards
 * the enemy and no charge (a charge moves it at the enemy).  Said at the
 * order's first such token, so that the player fixes his sheet before the
 * referee finds out recording the move.  routed: bat_routed, which the
 * sheet's check asked already (bat_dressing asks it again). */
static void retreat_or_dress(struct ord_ctx *ctx, const struct sheet_rules *sr,
			     const struct ord_unit *u, int routed, const struct ord_order *o,
			     const struct order_seen *os, struct ord_diag *diag)
{
	const struct ord_token *dir = os->dir, *charge = os->charge;
	const struct ord_token *at;

	if (!sr->retreat_orders_checked)
		return; /* a game made before the check (table checks) */
	if (!bat_arrow_forward(dir, sr->forward_within))
		dir = NULL;
	if (!dir && !charge)
		return;
	at = dir && (!charge || dir->col < charge->col) ? dir : charge;
	if (bat_retreating(ctx, u))
		ord_diag_add(diag, o->line, at->col, o->unit, "retreat - unit must retreat next turn",
			     "unit '%s' retreats this turn (it failed its morale in turn %ld): it may only be ordered back (an arrow away from the enemy), no move forward nor charge",
			     u->id, bat_st(ctx, u, "retreat_turn") - 1);
	else if (!routed && bat_st(ctx, u, "dress_until") >= ord_ctx_turn(ctx))
		ord_diag_add(diag, o->line, at->col, o->unit,
			     "a unit that retreats must spend one turn dressing its ranks",
			     "unit '%s' dresses its ranks until turn %ld: it may not move forward nor charge (an arrow away from the enemy, or none)",
			     u->id, bat_st(ctx, u, "dress_until"));
}

/* "FCol - means a unit wishes to form a column (one turn)": a change to
 * the formation the unit has changes nothing, but its fire would still
 * count it (the fire modifier firer_changed_formation, read off the sheet,
 * D16), so a slip of the pen is refused.  The cost is the tables'. */
static void same_formation(struct ord_ctx *ctx, const struct sheet_rules *sr,
			   const struct kind_seen *ks, const struct ord_unit *u,
			   const struct ord_order *o, const struct ord_token *t, struct ord_diag *diag)
{
	const struct ord_table *mods;
	const char *want = bat_form_code_formation(t->value), *cost = NULL;
	const struct ord_row *row;

	if (!sr->same_formation_checked || strcmp(want, chart_formation_seen(ctx, ks, u)))
		return; /* no check in a game made before it (table checks) */
	mods = ord_tables_get(bat_r(ctx)->tables, "fire_modifiers");
	if (mods && !ord_table_find1(&row, mods, "when", "firer_changed_formation"))
		cost = ord_row_attr(row, "value");
	ord_error_clear();
	if (cost)
		ord_diag_add(diag, o->line, t->col, o->unit, "order codes",
			     "unit '%s' is already in %s: %s changes nothing (a formation change costs the unit %s%s of its fire this turn)",
			     u->id, want, t->value, *cost == '-' ? "−" : "+",
			     *cost == '-' || *cost == '+' ? cost + 1 : cost);
	else
		ord_diag_add(diag, o->line, t->col, o->unit, "order codes",
			     "unit '%s' is already in %s: %s changes nothing (a formation change takes the turn)",
			     u->id, want, t->value);
}

/* The turns a gun of u's kind takes to unlimber (unlimber_turns,
 * unlimber_turns_horse: "1 turn except for horse art."); sr: as a sheet's
 * check read them, NULL: from the tables. */
static long unlimber_turns(struct ord_ctx *ctx, const struct sheet_rules *sr, const struct ord_unit *u)
{
	if (sr) /* a sheet's check read them once */
		return bat_is_horse_artillery(u) ? sr->unlimber_turns_horse : sr->unlimber_turns;
	return bat_ip(ctx, bat_is_horse_artillery(u) ? "unlimber_turns_horse" : "unlimber_turns");
}

/* "UL - unlimber (1 turn except for horse art.)": a gun whose kind takes
 * a turn to unlimber spends the turn on it and does not move in it (D8).
 * 0 when the game's tables do not switch the check on (a game made
 * before it, table checks). */
static long unlimber_takes_turn(struct ord_ctx *ctx, const struct sheet_rules *sr,
				const struct ord_unit *u)
{
	if (!(sr ? sr->unlimber_move_checked : bat_flag(ctx, "unlimber_move_checked")) ||
	    !bat_is_arm(ctx, u, "artillery"))
		return 0;
	return unlimber_turns(ctx, sr, u);
}

/* D6: a routed unit "moves 3 turns backwards, backs to the enemy": its
 * arrow points back (bat_order_back); a game made before the check (table
 * checks, routed_moves_checked) refused only an arrow forward. */
static int routed_arrow_refused(const struct sheet_rules *sr, const struct order_seen *os)
{
	const struct ord_token *dir = os->dir;

	if (!sr->routed_moves_checked)
		return bat_arrow_forward(dir, sr->forward_within);
	return dir && !bat_arrow_back(dir, sr->forward_within);
}

/* A routed unit's order names no code, but for an unlimbered gun's L:
 * "Rout, unit moves 3 turns backwards", and a gun moves limbered ("L -
 * limber (1 turn all art.)"), so its rout begins with its limbering
 * (routed_gun_checked); a game made before refused the L too, and the
 * referee moved the gun unlimbered. */
static int routed_code_refused(struct ord_ctx *ctx, const struct sheet_rules *sr,
			       const struct ord_unit *u, const struct ord_order *o)
{
	size_t i;

	for (i = 0; i < o->ntok; i++)
		if (o->tok[i].kind == ORD_TOK_CODE &&
		    !(sr->routed_gun_checked && !strcmp(o->tok[i].value, "L") &&
		      bat_is_arm(ctx, u, "artillery") && !strcmp(bat_formation(ctx, u), "unlimbered")))
			return 1;
	return 0;
}

/* D8: "L - limber (1 turn all art.)", "UL - unlimber (1 turn except for
 * horse art.)", and guns move limbered and fire unlimbered: a gun's order
 * that its state makes impossible, refused on the sheet rather than when
 * the referee records it (table checks, sheet_state_checked).  A gun
 * unlimbered moves no arrow, with or without L (the limbering takes the
 * turn); UL or L to the state it has changes nothing; it fires neither
 * limbered nor silenced, nor in the turn it limbers or (a foot gun)
 * unlimbers. */
static void gun_by_state(struct ord_ctx *ctx, const struct sheet_rules *sr,
			 const struct ord_unit *u, const struct ord_order *o,
			 const struct order_seen *os, struct ord_diag *diag, struct ord_buf *rule)
{
	const struct ord_token *dir = os->dir;
	const struct ord_token *ul = os->ul, *l = os->l;
	const struct ord_token *fire = os->fire;
	int turn = ord_ctx_turn(ctx), unl = !strcmp(bat_formation(ctx, u), "unlimbered");
	long ut = unlimber_turns(ctx, sr, u);
	long since = bat_st(ctx, u, "unlimbered");

	if (!fire)
		fire = os->target;
	if (ul && l)
		return; /* refused already: one or the other */
	if (ul && unl)
		ord_diag_add(diag, o->line, ul->col, o->unit,
			     bat_rule_text(ctx, rule, UNLIMBER_RULE, "unlimber_turns"),
			     "gun '%s' is already unlimbered: UL changes nothing", u->id);
	if (l && !unl)
		ord_diag_add(diag, o->line, l->col, o->unit,
			     bat_rule_text(ctx, rule, LIMBER_RULE, "limber_turns"),
			     "gun '%s' is already limbered: L changes nothing", u->id);
	if (dir && unl)
		ord_diag_add(diag, o->line, dir->col, o->unit,
			     bat_rule_text(ctx, rule, LIMBER_RULE, "limber_turns"),
			     l ? "gun '%s' limbers this turn, which takes the turn: no move arrow beside L (it moves from turn %d)"
			       : "gun '%s' is unlimbered: it must limber (L, a turn) before it moves, so no move arrow this turn",
			     u->id, turn + 1);
	if (!fire)
		return;
	if (bat_st(ctx, u, "silenced"))
		ord_diag_add(diag, o->line, fire->col, o->unit,
			     bat_rule_text(ctx, rule, SILENCE_RULE, "gun_hits_silence"),
			     "gun '%s' is silenced: it fires no more", u->id);
	else if (!unl && !ul)
		ord_diag_add(diag, o->line, fire->col, o->unit,
			     bat_rule_text(ctx, rule, UNLIMBER_RULE, "unlimber_turns"),
			     "gun '%s' is limbered: it fires only unlimbered (UL)", u->id);
	else if (!unl && ut > 0)
		ord_diag_add(diag, o->line, fire->col, o->unit,
			     bat_rule_text(ctx, rule, UNLIMBER_RULE, "unlimber_turns"),
			     "%s '%s' takes the turn to unlimber: it fires from turn %ld",
			     bat_kind(u), u->id, turn + ut);
	else if (l)
		ord_diag_add(diag, o->line, fire->col, o->unit,
			     bat_rule_text(ctx, rule, LIMBER_RULE, "limber_turns"),
			     "gun '%s' limbers this turn: it does not fire (a gun fires unlimbered)",
			     u->id);
	else if (unl && since && turn - since < ut)
		ord_diag_add(diag, o->line, fire->col, o->unit,
			     bat_rule_text(ctx, rule, UNLIMBER_RULE, "unlimber_turns"),
			     "gun '%s' unlimbered in turn %ld and cannot fire before turn %ld",
			     u->id, since, since + ut);
}

/* "Troops engaged in previous turn melee (still in it) can't fire", and a
 * destroyed unit is no target: a fire order the state makes impossible
 * (table checks, sheet_state_checked); a gun's own by gun_by_state.  os:
 * the order's tokens (order_seen), tu: its target's unit, NULL for none;
 * artillery: the unit's arm is. */
static void fire_by_state(struct ord_ctx *ctx, const struct sheet_rules *sr, const struct ord_unit *u,
			  int artillery, const struct ord_order *o, const struct order_seen *os,
			  struct ord_unit *tu, struct ord_diag *diag, struct ord_buf *rule)
{
	const struct ord_token *target = os->target;
	const struct ord_token *fire = os->fire ? os->fire : target;

	/* "Artillery ... needs to indicate the type of shot it will be
	 * using": a target alone was taken, and then every fire of the gun
	 * refused for want of a shot (table checks, gun_shot_checked) */
	if (sr->gun_shot_checked && artillery && target && !os->fire)
		ord_diag_add(diag, o->line, target->col, o->unit,
			     "needs to indicate the type of shot it will be using",
			     "gun '%s' names a target but no shot: write Fb, Fs or Fg before it "
			     "(without one the gun fires nothing)",
			     u->id);
	if (!sr->sheet_state_checked)
		return; /* a game made before the check (table checks) */
	if (artillery)
		gun_by_state(ctx, sr, u, o, os, diag, rule);
	if (fire && bat_still_in_melee(ctx, u))
		ord_diag_add(diag, o->line, fire->col, o->unit, "troops still in melee can't fire",
			     "unit '%s' is still in the melee with '%s' from turn %ld: it cannot fire",
			     u->id, bat_melee_with(ctx, u), bat_st(ctx, u, "melee_since"));
	if (tu && strcmp(tu->side, u->side) && bat_st(ctx, tu, "figures") <= 0)
		ord_diag_add(diag, o->line, target->col, o->unit, "units",
			     "target '%s' is destroyed (no figures left)", tu->id);
}

/* The unit an unknown @target may mean, as ord_ctx_unit_hint says it (":
 * did you mean 'R1' (Red Line)?"): an enemy whose id is the one written
 * in another case first ("@r1"; a side's context holds only the units its
 * sheet names, so the core's nearest would as soon name the player's own
 * B1), else the nearest unit of the game, or every side's units. */
static void target_hint(struct ord_ctx *ctx, const char *written, const char *side, struct ord_buf *out)
{
	char v[64];
	const struct ord_unit *e;
	size_t i, k;

	for (k = 0; k < 2 && strlen(written) < sizeof(v); k++) {
		for (i = 0; written[i]; i++)
			v[i] = (char)(k ? tolower((unsigned char)written[i])
					: toupper((unsigned char)written[i]));
		v[i] = '\0';
		if (strcmp(v, written) && (e = ord_ctx_find_unit(ctx, v)) != NULL &&
		    strcmp(e->side, side)) {
			ord_buf_addf(out, ": did you mean '%s'%s%s%s?", e->id,
				     strcmp(e->id, e->name) ? " (" : "",
				     strcmp(e->id, e->name) ? e->name : "",
				     strcmp(e->id, e->name) ? ")" : "");
			return;
		}
	}
	ord_ctx_unit_hint_any(ctx, written, out);
}

int bat_validate_sheet(struct ord_ctx *ctx, const struct ord_sheet *sheet, struct ord_diag *diag)
{
	const char *side = ord_ctx_side(ctx);
	int turn = ord_ctx_turn(ctx);
	struct sheet_rules sr;
	long interval;
	unsigned *seen = ord_xcalloc(ord_ctx_nunits(ctx) + 1, sizeof(*seen));
	struct ord_buf who = ORD_BUF_INIT;
	struct ord_buf rule = ORD_BUF_INIT;
	size_t i, j;

	sheet_rules_init(ctx, &sr);
	interval = sr.charge_interval;
	for (i = 0; i < sheet->n; i++) {
		const struct ord_order *o = &sheet->orders[i];
		struct ord_unit *u = ord_ctx_find_unit(ctx, o->unit), *tu;
		const struct ord_token *dir, *frac, *fire, *target, *charge, *form;
		struct order_seen os;
		struct kind_seen *ks;
		const char *kind;
		int routed, horse_artillery, artillery, cavalry;
		size_t ui;

		if (!u) {
			struct ord_buf hint = ORD_BUF_INIT;
			ord_ctx_unit_hint(ctx, o->unit, side, &hint);
			ord_diag_add(diag, o->line, o->col, o->unit, "orders",
				     "unknown unit '%s'%s", o->unit, hint.buf);
			ord_buf_release(&hint);
			continue;
		}
		if (!side || strcmp(u->side, side)) {
			ord_diag_add(diag, o->line, o->col, o->unit, "orders",
				     "unit '%s' belongs to side %s, not %s", u->id, u->side,
				     side ? side : "(none)");
			continue;
		}
		/* units the rules do not let act take no orders */
		if (bat_st(ctx, u, "figures") <= 0) {
			ord_diag_add(diag, o->line, o->col, o->unit, "units",
				     "unit '%s' is destroyed (no figures left): it takes no orders",
				     u->id);
			continue;
		}
		order_seen(&os, o);
		dir = os.dir;
		frac = os.frac;
		target = os.target;
		charge = os.charge;
		form = os.form;
		fire = os.fire;
		routed = bat_routed(ctx, u);
		if (routed && (routed_arrow_refused(&sr, &os) ||
			       routed_code_refused(ctx, &sr, u, o) || target)) {
			/* only its retreat may be written: the rules move it */
			ord_diag_add(diag, o->line, o->col, o->unit,
				     "rout = unit retreats, backs to enemy; routed units can't fire",
				     "unit '%s' is routed until turn %ld: it retreats with its back to the enemy and may only be ordered back (an arrow away from the enemy), no fire, charge or formation",
				     u->id, bat_st(ctx, u, "rout_until"));
			continue;
		}
		/* the turn the sheet is for is the context's (the open turn), the
		 * state the one after the last resolved turn: the same reading as
		 * the event check's when the referee records the move (check_move) */
		retreat_or_dress(ctx, &sr, u, routed, o, &os, diag);
		ui = ord_ctx_unit_index(ctx, u);
		if (seen[ui]) {
			ord_diag_add(diag, o->line, o->col, o->unit,
				     "one battalion cannot be divided nor receive 2 orders",
				     "second order for unit '%s' (its first is on line %u)", u->id,
				     seen[ui]);
			continue;
		}
		seen[ui] = o->line;
		kind = bat_kind(u);
		ks = kind_seen(ctx, &sr, u, kind);
		if (ks) {
			artillery = ks->artillery;
			cavalry = ks->cavalry;
			horse_artillery = ks->horse_artillery;
		} else {
			const char *arm = bat_arm(ctx, u);

			artillery = !strcmp(arm, "artillery");
			cavalry = !strcmp(arm, "cavalry");
			horse_artillery = bat_is_horse_artillery(u);
		}
		for (j = 0; j < o->ntok; j++) {
			const struct ord_token *t = &o->tok[j];
			int c;

			if (t->kind != ORD_TOK_CODE)
				continue;
			c = code_index(t->value);
			ord_buf_reset(&who);
			if (!code_allowed_seen(ctx, ks, c, t->value, kind, &who))
				ord_diag_add(diag, o->line, t->col, o->unit, "order codes",
					     "code '%s' is not for %s (only for %s)", t->value,
					     kind, who.buf);
			else if (CODE_IS_FORM(c) && form == t)
				same_formation(ctx, &sr, ks, u, o, t, diag);
			/* "FLn - means the unit desires to form a line (this
			 * takes one turn)": one change a turn, the first */
			if (CODE_IS_FORM(c) && form != t)
				ord_diag_add(diag, o->line, t->col, o->unit,
					     "one battalion cannot be divided nor receive 2 orders",
					     "a second formation change '%s' (the first is '%s'): a change takes the turn",
					     t->value, form->value);
		}
		if (os.nfire > 1)
			ord_diag_add(diag, o->line, fire->col, o->unit, "artillery",
				     "one shot per turn: the sheet orders %d kinds of shot", os.nfire);
		if (os.ul && os.l)
			ord_diag_add(diag, o->line, os.l->col, o->unit, "artillery",
				     "a gun cannot both unlimber (UL) and limber (L) in one turn");
		if (dir && os.ul && unlimber_takes_turn(ctx, &sr, u) > 0)
			ord_diag_add(diag, o->line, os.ul->col, o->unit,
				     bat_rule_text(ctx, &rule, UNLIMBER_RULE, "unlimber_turns"),
				     "%s '%s' takes the turn to unlimber: no move arrow beside UL (only horse artillery moves and unlimbers)",
				     kind, u->id);
		if (frac && !dir)
			ord_diag_add(diag, o->line, frac->col, o->unit, "orders",
				     "a fraction of the move needs a direction arrow");
		if (dir && form && !sr.formation_change_moves)
			ord_diag_add(diag, o->line, dir->col, o->unit, "formation_change_moves",
				     "a unit changing formation (%s) does not move in the turn: no arrow beside it",
				     form->value);
		if (charge) {
			long last = bat_st(ctx, u, "last_charge");
			const char *refusal;

			if (!dir)
				ord_diag_add(diag, o->line, charge->col, o->unit, "C",
					     "a charge needs a direction arrow (the unit charges along it)");
			if (last > 0 && turn - last < interval)
				ord_diag_add(diag, o->line, charge->col, o->unit,
					     bat_rule_text(ctx, &rule, CHARGE_RULE, "charge_interval"),
					     "unit '%s' charged in turn %ld; its next charge may be in turn %ld",
					     u->id, last, last + interval);
			/* a gun's charge is checked by order_codes (horse artillery only) */
			if (!artillery &&
			    (refusal = charge_refusal(ctx, &sr, kind,
						      chart_formation_seen(ctx, ks, u))) != NULL)
				ord_diag_add(diag, o->line, charge->col, o->unit, "movement chart",
					     "unit '%s' cannot charge: %s", u->id, refusal);
			ord_error_clear();
			/* "FSk - ... form skirmish order (one turn)": the change
			 * takes the turn, and the charge is made in the formation
			 * the unit has (D7, the movement chart), while its fire and
			 * melee would count the new one (D29): a column charging
			 * 10" in as skirmish order, fired at with -1/2 (table
			 * checks, charge_form_checked; a game made before took it) */
			if (sr.charge_form_checked && form)
				ord_diag_add(diag, o->line, form->col, o->unit,
					     "FLn, FCol, FSk, FSq (one turn); C - charge",
					     "unit '%s' charges (C): it cannot change formation (%s) in the turn it charges (a change takes the turn, and the charge is made in the formation it has)",
					     u->id, form->value);
			/* horse artillery may charge, unlimber and fire (C-UL-Fs) */
			if (fire && !(horse_artillery && os.ul))
				ord_diag_add(diag, o->line, fire->col, o->unit,
					     "a charging unit can't fire",
					     "a charging unit cannot fire (only horse artillery may C-UL-F)");
		}
		/* the target's unit, found once for both checks */
		tu = target ? ord_ctx_find_unit(ctx, target->value) : NULL;
		fire_by_state(ctx, &sr, u, artillery, o, &os, tu, diag, &rule);
		if (target) {
			if (!tu) {
				struct ord_buf hint = ORD_BUF_INIT;
				target_hint(ctx, target->value, side, &hint);
				ord_diag_add(diag, o->line, target->col, o->unit, "fire",
					     "unknown target unit '%s'%s", target->value, hint.buf);
				ord_buf_release(&hint);
			} else if (!strcmp(tu->side, side))
				ord_diag_add(diag, o->line, target->col, o->unit, "fire",
					     "target '%s' is a unit of your own side", target->value);
			if (cavalry)
				ord_diag_add(diag, o->line, target->col, o->unit,
					     "weapon fire: musket and rifle (D26)",
					     "%s does not fire: the rules give small-arms fire to infantry only",
					     kind);
			if (charge && !fire)
				ord_diag_add(diag, o->line, target->col, o->unit,
					     "a charging unit can't fire",
					     "a charging unit cannot name a fire target");
		}
	}
	ord_buf_release(&who);
	ord_buf_release(&rule);
	sheet_rules_release(&sr);
	free(seen);
	return diag->n ? ORD_EBADSHEET : 0;
}

/* ---- event checks ---- */

/* An earlier event of this turn of one of kinds (words) for u, or NULL:
 * one formation change, one limbering or unlimbering a turn. */
static const struct ord_event *earlier(struct ord_ctx *ctx, const struct ord_event *ev,
				       const struct ord_unit *u, const char *kinds)
{
	size_t i;

	for (i = 0; i < ord_ctx_unit_nevents(ctx, u); i++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, u, i);
		if (e != ev && ord_words_has(kinds, e->kind) && bat_ev_unit(ctx, e, "unit") == u)
			return e;
	}
	return NULL;
}

/* The map's positions (positions.c) agree with the distance the referee
 * measured: from where the unit last stood to where the move puts it is
 * no further than distance= and the tables' position_tolerance, when both
 * are known (table checks, position_distance_checked).  The moves it made
 * since its position was last given, recorded without one, count too
 * (state unplaced): else the next position was measured from where it
 * stood before them. */
static void check_position(struct ord_ctx *ctx, const struct ord_event *ev,
			   const struct ord_unit *u, struct ord_diag *d)
{
	double dist = ord_kv_get_num(&ev->kv, "distance", 0), tol, x0, y0, x1, y1, far;
	double since = ord_state_num(ctx, u, "unplaced");
	struct ord_buf before = ORD_BUF_INIT;

	if (!bat_flag(ctx, "position_distance_checked") || !ord_kv_get(&ev->kv, "x") ||
	    !ord_kv_get(&ev->kv, "y") || !ord_state_has(ctx, u, "x") || !ord_state_has(ctx, u, "y"))
		return;
	tol = bat_p(ctx, "position_tolerance");
	x0 = ord_state_num(ctx, u, "x");
	y0 = ord_state_num(ctx, u, "y");
	x1 = ord_kv_get_num(&ev->kv, "x", 0);
	y1 = ord_kv_get_num(&ev->kv, "y", 0);
	far = hypot(x1 - x0, y1 - y0);
	if (since > 0)
		ord_buf_addf(&before, " and %g\" before it without a position,", since);
	else
		since = 0;
	if (far > dist + since + tol + 1e-9)
		ord_diag_add(d, 0, 0, u->id, "positions (for the map) as the distance measured",
			     "unit '%s' moved %g\"%s but from where it %s (%g, %g) to (%g, %g) is %.1f\" (at most %g\" with the tables' position_tolerance of %g\")",
			     u->id, dist, before.buf, before.len ? "last stood" : "stood", x0, y0,
			     x1, y1, far, dist + since + tol, tol);
	ord_buf_release(&before);
}

/* The inches the movement chart gives u's move of quarters (of
 * move_fraction_parts), a charge or not, over the event's terrain, in
 * *allow and its working in why: 1, or 0 with the chart's problem in d. */
static int move_allows(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
		       int quarters, int charge, double *allow, struct ord_buf *why,
		       struct ord_diag *d)
{
	struct bat_move_in mi = {
		.kind = bat_kind(u),
		.formation = bat_chart_formation(ctx, u),
		.shown = bat_formation_shown(ctx, u),
		.quarters = quarters,
		.charge = charge,
		.elite = bat_is_elite(u),
		.terrain = ord_kv_get(&ev->kv, "terrain"),
	};
	struct bat_move_out mo;

	if (bat_move(bat_r(ctx), &mi, &mo, why)) {
		ord_diag_add(d, 0, 0, u->id, "movement chart", "%s", ord_error_last());
		ord_error_clear();
		return 0;
	}
	*allow = mo.distance;
	return 1;
}

/* An order as a message names it: its tokens, a target with its '@'
 * ("FSq", "@R1"), in out. */
static void order_words(const struct ord_order *o, struct ord_buf *out)
{
	size_t i;

	for (i = 0; o && i < o->ntok; i++)
		ord_buf_addf(out, "%s%s%s", i ? " " : "",
			     o->tok[i].kind == ORD_TOK_TARGET ? "@" : "", o->tok[i].value);
}

/* D25: "those units brought into melee in the movement": a unit makes
 * melee contact by moving into it, the charger (or any mover) and not the
 * unit it reaches, which is "brought into melee".  A move's contact= is
 * the mover's, so a unit that did not move by its orders nor by the rules
 * (its sheet orders no arrow, it has no sheet order, or it is routed or
 * retreating and went 0") makes none: it may be contacted, on the move of
 * the enemy that came on.  A 0" move was taken with contact= whatever its
 * sheet said, so a unit ordered to stand, or to fire, made the contact:
 * its fire morale test waited for the melee (D3) and a melee of two units
 * that stood was taken (table checks, contact_move_checked; a game made
 * before took it).  A destroyed enemy is contacted by nobody (D15).  A
 * move over 0" its sheet does not order is check_move's. */
static void check_contact(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_order *o,
			  const struct ord_unit *c, double dist, struct ord_diag *d)
{
	struct ord_buf words = ORD_BUF_INIT;
	int by_rules = bat_routed(ctx, u) || bat_retreating(ctx, u);

	if (strcmp(c->side, u->side) && bat_st(ctx, c, "figures") <= 0)
		ord_diag_add(d, 0, 0, u->id, "units",
			     "unit '%s' is given contact with '%s', which is destroyed (no figures left): it fights no melee",
			     u->id, c->id);
	if (dist > 0 || (!by_rules && bat_ordered_quarters(ctx, o)))
		return;
	if (by_rules) {
		ord_diag_add(d, 0, 0, u->id, "those units brought into melee in the movement",
			     "unit '%s' is given contact with '%s' on a move of 0\", but it is %s and "
			     "did not move: a unit makes melee contact by moving into it (record "
			     "contact=%s on the move of the enemy that came on)",
			     u->id, c->id, bat_routed(ctx, u) ? "routed" : "retreating", u->id);
		goto out;
	}
	order_words(o, &words);
	ord_diag_add(d, 0, 0, u->id, "orders may never be changed",
		     "unit '%s' is given contact with '%s' on a move of 0\", but its sheet %s%s%s: "
		     "a unit that stands may be contacted, not make contact (expected a move "
		     "arrow on its sheet, or contact=%s on the move of the enemy that came on)",
		     u->id, c->id, words.len ? "orders it no move ('" : "gives it no order (it stands)",
		     words.buf, words.len ? "')" : "", u->id);
out:
	ord_buf_release(&words);
}

static void check_move(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	struct ord_unit *u = bat_ev_unit(ctx, ev, "unit");
	const struct ord_order *o = ord_ctx_order(ctx, u);
	double dist = ord_kv_get_num(&ev->kv, "distance", 0);
	int charge = bat_move_charges(ctx, ev);
	int turn = ord_ctx_turn(ctx);
	long interval = bat_ip(ctx, "charge_interval"), last = bat_st(ctx, u, "last_charge");
	struct ord_unit *c = bat_ev_unit(ctx, ev, "contact");
	const struct ord_event *ul;
	double allow;
	struct ord_buf why = ORD_BUF_INIT;
	struct ord_buf rule = ORD_BUF_INIT;
	size_t i;

	for (i = 0; i < ord_ctx_unit_nevents(ctx, u); i++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, u, i);
		if (e != ev && !strcmp(e->kind, "move") && bat_ev_unit(ctx, e, "unit") == u)
			ord_diag_add_citing(d, 0, 0, u->id, "orders", e->seq,
					    "unit '%s' already moved this turn", u->id);
	}
	if (c && !strcmp(c->side, u->side))
		ord_diag_add(d, 0, 0, u->id, "melee", "contact with '%s', a unit of its own side",
			     c->id);
	check_position(ctx, ev, u, d);
	if (c && strcmp(c->side, u->side) && bat_flag(ctx, "contact_move_checked"))
		check_contact(ctx, u, o, c, dist, d);
	if (bat_st(ctx, u, "figures") <= 0 && dist > 0)
		ord_diag_add(d, 0, 0, u->id, "units", "unit '%s' has no figures left", u->id);
	/* a retreating or routing unit moves by the rules, not by its orders:
	 * its whole move by the movement chart (table checks,
	 * routed_moves_checked; a game made before let any distance through) */
	if (bat_routed(ctx, u) || bat_retreating(ctx, u)) {
		if (charge)
			ord_diag_add(d, 0, 0, u->id, "morale", "unit '%s' is %s and cannot charge",
				     u->id, bat_routed(ctx, u) ? "routed" : "retreating");
		if (dist > 0 && bat_flag(ctx, "routed_gun_checked") &&
		    bat_is_arm(ctx, u, "artillery") && !strcmp(bat_formation(ctx, u), "unlimbered"))
			ord_diag_add(d, 0, 0, u->id,
				     bat_rule_text(ctx, &rule, LIMBER_RULE, "limber_turns"),
				     "gun '%s' is %s but unlimbered: it must limber (L, a turn) before it moves",
				     u->id, bat_routed(ctx, u) ? "routed" : "retreating");
		if (!bat_flag(ctx, "routed_moves_checked") || dist <= 0)
			goto out;
		if (move_allows(ctx, ev, u, (int)bat_ip(ctx, "move_fraction_parts"), 0, &allow, &why, d) &&
		    dist > allow + 1e-9)
			ord_diag_add(d, 0, 0, u->id, "movement chart",
				     "unit '%s' %s and moved %g\", but its move is %g\" (%s)",
				     u->id, bat_routed(ctx, u) ? "is routed" : "retreats", dist,
				     allow, why.buf);
		goto out;
	}
	if (charge && !bat_order_has(o, "C"))
		ord_diag_add(d, 0, 0, u->id, "orders may never be changed",
			     "unit '%s' charged but its sheet orders no charge (C)", u->id);
	/* its fire check reads the sheet's C, its melee and next charge the
	 * move's: one reading, the sheet's (table checks) */
	/* over ground the terrain chart forbids a charge on ("In forest a
	 * unit moves half and may not charge"), the rules call the C off, not
	 * the referee (charge_forest_declined; a game made before refused it
	 * but with an override) */
	if (!charge && bat_order_has(o, "C") && bat_flag(ctx, "charge_moves_checked") &&
	    !(bat_flag(ctx, "charge_forest_declined") &&
	      !bat_terrain_charges(bat_r(ctx), ord_kv_get(&ev->kv, "terrain")))) {
		struct ord_diag_item *di = ord_diag_add(d, 0, 0, u->id, "orders may never be changed",
							"ordered to charge (C): the move of unit '%s' is its charge, and charge=no departs from its sheet",
							u->id);
		/* what the override gives (charge_no_settles, a check's words) */
		if (bat_flag(ctx, "charge_no_settles"))
			ord_diag_item_addf(di,
					   ": recorded with --override, the unit does not charge this turn, and no later event charges for it (a unit moves once a turn)");
	}
	if (charge && last > 0 && turn - last < interval)
		ord_diag_add(d, 0, 0, u->id, bat_rule_text(ctx, &rule, CHARGE_RULE, "charge_interval"),
			     "unit '%s' charged in turn %ld; its next charge may be in turn %ld",
			     u->id, last, last + interval);
	if (dist <= 0)
		goto out;
	if (!bat_ordered_quarters(ctx, o)) {
		ord_diag_add(d, 0, 0, u->id, "orders may never be changed",
			     "unit '%s' moved %g\" but its sheet orders no move", u->id, dist);
		goto out;
	}
	if (bat_dressing(ctx, u) && bat_order_forward(ctx, o))
		ord_diag_add(d, 0, 0, u->id,
			     "a unit that retreats must spend one turn dressing its ranks",
			     "unit '%s' dresses its ranks this turn and may not move forward", u->id);
	if (bat_is_arm(ctx, u, "artillery") && !strcmp(bat_formation(ctx, u), "unlimbered"))
		ord_diag_add(d, 0, 0, u->id, bat_rule_text(ctx, &rule, LIMBER_RULE, "limber_turns"),
			     "gun '%s' is unlimbered: it must limber (a turn) before it moves", u->id);
	if (unlimber_takes_turn(ctx, NULL, u) > 0 && (ul = earlier(ctx, ev, u, "unlimber")) != NULL) {
		struct ord_diag_item *di = ord_diag_add_citing(d, 0, 0, u->id,
							       bat_rule_text(ctx, &rule, UNLIMBER_RULE,
									     "unlimber_turns"),
							       ul->seq,
							       "gun '%s' unlimbers this turn", u->id);
		ord_diag_item_addf(di, ": a %s takes the turn to unlimber and does not move",
				   bat_kind(u));
	}
	if (move_allows(ctx, ev, u, bat_ordered_quarters(ctx, o), charge, &allow, &why, d) &&
	    dist > allow + 1e-9)
		ord_diag_add(d, 0, 0, u->id, "movement chart",
			     "unit '%s' moved %g\" but its order allows %g\" (%s)", u->id, dist,
			     allow, why.buf);
out:
	ord_buf_release(&why);
	ord_buf_release(&rule);
}

static void check_form(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	struct ord_unit *u = bat_ev_unit(ctx, ev, "unit");
	const struct ord_token *f = bat_order_form(ord_ctx_order(ctx, u));
	const char *want = ord_kv_get(&ev->kv, "formation");

	const struct ord_event *e = earlier(ctx, ev, u, "form");

	if (e)
		ord_diag_add_citing(d, 0, 0, u->id,
				    "one battalion cannot be divided nor receive 2 orders", e->seq,
				    "unit '%s' already changed formation this turn", u->id);
	if (!bat_is_arm(ctx, u, "infantry"))
		ord_diag_add(d, 0, 0, u->id, "order codes",
			     "unit '%s' is %s: only infantry changes formation", u->id, bat_kind(u));
	if (!f || strcmp(bat_form_code_formation(f->value), want))
		ord_diag_add(d, 0, 0, u->id, "orders may never be changed",
			     "unit '%s' formed %s but its sheet orders %s", u->id, want,
			     f ? f->value : "no formation change");
}

static void check_gun(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	struct ord_unit *u = bat_ev_unit(ctx, ev, "unit");
	int un = !strcmp(ev->kind, "unlimber");
	const char *code = un ? "UL" : "L";
	const char *state = un ? "unlimbered" : "limbered";
	const struct ord_event *e;
	struct ord_buf rule = ORD_BUF_INIT;

	if (!bat_is_arm(ctx, u, "artillery")) {
		ord_diag_add(d, 0, 0, u->id, "artillery", "unit '%s' is not artillery", u->id);
		return;
	}
	if ((e = earlier(ctx, ev, u, "limber unlimber")) != NULL)
		ord_diag_add_citing(d, 0, 0, u->id,
				    un ? bat_rule_text(ctx, &rule, UNLIMBER_RULE, "unlimber_turns")
				       : bat_rule_text(ctx, &rule, LIMBER_RULE, "limber_turns"),
				    e->seq, "gun '%s' already %sed this turn", u->id, e->kind);
	if (!bat_order_has(ord_ctx_order(ctx, u), code))
		ord_diag_add(d, 0, 0, u->id, "orders may never be changed",
			     "gun '%s' %sed but its sheet has no %s", u->id, ev->kind, code);
	if (!strcmp(bat_formation(ctx, u), state))
		ord_diag_add(d, 0, 0, u->id, "artillery", "gun '%s' is already %s", u->id, state);
	if (un && unlimber_takes_turn(ctx, NULL, u) > 0) {
		size_t i;
		for (i = 0; i < ord_ctx_unit_nevents(ctx, u); i++) {
			e = ord_ctx_unit_event(ctx, u, i);
			if (e != ev && !strcmp(e->kind, "move") && bat_ev_unit(ctx, e, "unit") == u &&
			    ord_kv_get_num(&e->kv, "distance", 0) > 0) {
				struct ord_diag_item *di =
					ord_diag_add_citing(d, 0, 0, u->id,
							    bat_rule_text(ctx, &rule, UNLIMBER_RULE,
									  "unlimber_turns"),
							    e->seq, "gun '%s' moved this turn", u->id);
				ord_diag_item_addf(di, ": a %s takes the turn to unlimber and does not move",
						   bat_kind(u));
			}
		}
	}
	ord_buf_release(&rule);
}

/* What a refusal says when the rules give the event no effect even
 * recorded with --override (overridden_effect_said): the referee who
 * overrides it should not believe it counts. */
#define NO_FIRE ": recorded with --override, the fire still does nothing (no fire, no die)"

/* D21: "One unit of skirmishers may never cover more than one foot of
 * ground. 12\" They block the fire of units." */
static void check_screen(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
			 struct ord_diag *d)
{
	struct ord_unit *s = bat_ev_unit(ctx, ev, "screen");
	double max = bat_p(ctx, "skirmish_screen_max");

	if (!s) {
		if (ord_kv_get(&ev->kv, "screen_front"))
			ord_diag_add(d, 0, 0, u->id, "skirmishers block the fire of units",
				     "screen_front needs screen=UNIT, the skirmishers in the way");
		return;
	}
	if (!strcmp(s->side, u->side))
		ord_diag_add(d, 0, 0, u->id, "skirmishers block the fire of units",
			     "'%s' is of the firer's own side: a screen is the enemy's skirmishers (a gun fires over its own men with over=)",
			     s->id);
	if (strcmp(bat_chart_formation(ctx, s), "skirmish")) {
		struct ord_buf in = ORD_BUF_INIT;
		bat_in_formation(ctx, s, &in);
		ord_diag_add(d, 0, 0, u->id, "skirmishers block the fire of units",
			     "'%s' is %s %s, not skirmishers", s->id, bat_kind(s), in.buf);
		ord_buf_release(&in);
	}
	/* D15: a destroyed unit blocks nothing (screen_figures_checked; a
	 * game made before gave it the fire, which then did nothing) */
	if (bat_st(ctx, s, "figures") <= 0 && bat_flag(ctx, "screen_figures_checked"))
		ord_diag_add(d, 0, 0, u->id, "skirmishers block the fire of units",
			     "the skirmishers '%s' have no figures left: they block nothing%s", s->id,
			     bat_flag(ctx, "overridden_effect_said")
				     ? "; recorded with --override, the fire still goes to them and does nothing (record it without screen=)"
				     : "");
	if (!ord_kv_get(&ev->kv, "screen_front"))
		ord_diag_add(d, 0, 0, u->id, "skirmishers block the fire of units",
			     "give the ground the screen covers (screen_front=INCHES)");
	else if (ord_kv_get_num(&ev->kv, "screen_front", 0) > max)
		ord_diag_add(d, 0, 0, u->id,
			     "one unit of skirmishers may never cover more than one foot of ground",
			     "'%s' covers %s\" of ground: one unit of skirmishers covers at most %g\"",
			     s->id, ord_kv_get(&ev->kv, "screen_front"), max);
}

/* D22: "Artillery may fire over its own men if they are 6\" clear of them
 * (grape is exception)." */
static void check_over(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
		       const struct ord_token *f, struct ord_diag *d)
{
	struct ord_unit *o = bat_ev_unit(ctx, ev, "over");
	const char *shot = ord_kv_get(&ev->kv, "shot");
	double min = bat_p(ctx, "fire_over_clearance");

	if (!shot && f)
		shot = bat_fire_code_shot(f->value);
	if (!o) {
		if (ord_kv_get(&ev->kv, "clearance"))
			ord_diag_add(d, 0, 0, u->id, "artillery may fire over its own men",
				     "clearance needs over=UNIT, the own men fired over");
		return;
	}
	if (strcmp(o->side, u->side) || o == u)
		ord_diag_add(d, 0, 0, u->id, "artillery may fire over its own men",
			     "over names its own men, not '%s'", o->id);
	if (shot && !strcmp(shot, "grape"))
		ord_diag_add(d, 0, 0, u->id, "artillery may fire over its own men (grape is exception)",
			     "gun '%s' cannot fire grape over '%s'", u->id, o->id);
	if (!ord_kv_get(&ev->kv, "clearance"))
		ord_diag_add(d, 0, 0, u->id, "artillery may fire over its own men",
			     "give how far clear of them the shot passes (clearance=INCHES)");
	else if (ord_kv_get_num(&ev->kv, "clearance", 0) < min)
		ord_diag_add(d, 0, 0, u->id,
			     "artillery may fire over its own men if they are 6\" clear of them",
			     "the shot passes %s\" clear of '%s': at least %g\" is needed",
			     ord_kv_get(&ev->kv, "clearance"), o->id, min);
}

/* D17: "Only the first two ranks may fire": a firers= beyond the unit's
 * figures, or beyond what its formation lets fire (a column's
 * column_firers), is refused. */
static void check_firers(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
			 struct ord_diag *d)
{
	long firers = ord_kv_get_int(&ev->kv, "firers", 0);
	long fig = bat_st(ctx, u, "figures"), col = bat_ip(ctx, "column_firers");

	if (!ord_kv_get(&ev->kv, "firers"))
		return;
	if (firers > fig)
		ord_diag_add(d, 0, 0, u->id, "units",
			     "unit '%s' fires with %ld figures but has %ld (it fires with %ld at most)",
			     u->id, firers, fig, fig);
	else if (!strcmp(bat_chart_formation(ctx, u), "column") && firers > col)
		ord_diag_add(d, 0, 0, u->id, "only the first two ranks may fire",
			     "unit '%s' is in column: its first two ranks, %ld figures, fire, not %ld",
			     u->id, col, firers);
}

/* D10: "a shot out of range rolls nothing and does nothing": a range
 * beyond what the tables give the weapon (fire: musket, rifle) or the shot
 * (artillery: ball, shell, grape) is refused while the referee may still
 * correct it; the reach is the tables' (bat_reach, as resolve reads it). */
static void check_range(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
			const char *tname, const char *key, const char *value, struct ord_diag *d)
{
	double reach;

	if (!bat_flag(ctx, "range_checked"))
		return; /* a game made before the check (table checks) */
	if (bat_reach(bat_r(ctx), tname, key, value, ord_kv_get_num(&ev->kv, "range", 0), &reach))
		return;
	ord_diag_add(d, 0, 0, u->id, "a shot out of range does nothing (D10)",
		     "%s '%s' fired %s%s at %s\": out of range (%s fires to %g\" at most, table %s)",
		     strcmp(tname, "artillery") ? "unit" : "gun", u->id,
		     strcmp(tname, "artillery") ? "its " : "", value, ord_kv_get(&ev->kv, "range"),
		     value, reach, tname);
}

/* Where u stands on the map now, in *x and *y: 1 when its position is
 * known (positions.c), 0 when it has none or moved since it was last
 * given without one (state unplaced, kept when position_distance_checked
 * is on; without it such a move leaves no trace, and nothing is known). */
static int position_known(struct ord_ctx *ctx, const struct ord_unit *u, double *x, double *y)
{
	if (!u || !bat_flag(ctx, "position_distance_checked") || !ord_state_has(ctx, u, "x") ||
	    !ord_state_has(ctx, u, "y") || ord_state_num(ctx, u, "unplaced") != 0)
		return 0;
	*x = ord_state_num(ctx, u, "x");
	*y = ord_state_num(ctx, u, "y");
	return 1;
}

/* The map's positions agree with the range the referee measured ("from
 * the middle stand ... to the nearest enemy"): a fire's or a shot's
 * range= no further from the distance between the firer's and the
 * target's positions than the tables' range_position_tolerance, when both
 * are known (table checks, range_position_checked; a game made before
 * took any range).  A screen's skirmishers (D21) may be what was measured
 * to: the range may agree with either.  Else the shot's band, its reach
 * (D10) and the woods' 4" (D12) were read off a range the map gainsays. */
static void check_range_position(struct ord_ctx *ctx, const struct ord_event *ev,
				 const struct ord_unit *u, const struct ord_unit *t,
				 struct ord_diag *d)
{
	const struct ord_unit *s = bat_ev_unit(ctx, ev, "screen");
	double range = ord_kv_get_num(&ev->kv, "range", 0), tol, ux, uy, tx, ty, sx, sy, far;
	int tk, sk;

	if (!bat_flag(ctx, "range_position_checked") || !position_known(ctx, u, &ux, &uy))
		return;
	tk = position_known(ctx, t, &tx, &ty);
	sk = s && position_known(ctx, s, &sx, &sy);
	tol = bat_p(ctx, "range_position_tolerance");
	if ((!tk && !sk) || (tk && fabs(hypot(tx - ux, ty - uy) - range) <= tol + 1e-9) ||
	    (sk && fabs(hypot(sx - ux, sy - uy) - range) <= tol + 1e-9))
		return;
	if (!tk) {
		t = s;
		tx = sx;
		ty = sy;
	}
	far = hypot(tx - ux, ty - uy);
	ord_diag_add(d, 0, 0, u->id, "positions (for the map) as the range measured",
		     "unit '%s' fired at '%s' at range=%s\" but '%s' stands at (%g, %g) and '%s' at (%g, %g), %.1f\" apart (the range may differ by %g\", the tables' range_position_tolerance)",
		     u->id, t->id, ord_kv_get(&ev->kv, "range"), u->id, ux, uy, t->id, tx, ty, far,
		     tol);
}

/* "Those units brought into melee in the movement get to fire as the
 * enemy came at them": at the enemy t whose charge this turn made melee
 * contact with u, whatever target u's sheet names (table checks,
 * fire_at_charger_checked: a game made before held u to its @target).  A
 * move that was no charge (bat_move_charges: charge=, or its sheet's C)
 * frees no target: else one contact= the referee wrote on any move would
 * pick the target, and no one could tell. */
static int came_at(struct ord_ctx *ctx, const struct ord_unit *t, const struct ord_unit *u)
{
	int turn = ord_ctx_turn(ctx);

	return bat_flag(ctx, "fire_at_charger_checked") && bat_st(ctx, t, "contact") == turn &&
	       bat_st(ctx, t, "charged") == turn &&
	       !strcmp(ord_state_str(ctx, t, "contact_unit"), u->id);
}

/* hill=yes on a gun's shot counts only through an artillery_modifiers row
 * firer_on_hill (2026-12-04.1); tables made before have none, and the key
 * would be taken and change nothing, so it is refused, not ignored. */
static void check_gun_hill(struct ord_ctx *ctx, const struct ord_event *ev,
			   const struct ord_unit *u, struct ord_diag *d)
{
	const struct ord_table *mods;
	const struct ord_row *row;
	int found;

	if (!ord_kv_get_bool(&ev->kv, "hill", 0))
		return;
	mods = ord_tables_get(bat_r(ctx)->tables, "artillery_modifiers");
	found = mods && !ord_table_find1(&row, mods, "when", "firer_on_hill");
	ord_error_clear();
	if (!found)
		ord_diag_add(d, 0, 0, u->id, "defending a hilltop",
			     "gun '%s' is given hill=yes, but this game's tables have no artillery_modifiers row 'firer_on_hill' (tables made before rules revision 2026-12-04.1): its hilltop would change nothing; leave hill= out",
			     u->id);
}

static void check_fire(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d, int artillery)
{
	struct ord_unit *u = bat_ev_unit(ctx, ev, "unit"), *t = bat_ev_unit(ctx, ev, "target");
	const struct ord_order *o = ord_ctx_order(ctx, u);
	const struct ord_token *target = o ? ord_order_find(o, ORD_TOK_TARGET) : NULL;
	const char *weapon = ord_kv_get(&u->attrs, "weapon");
	int turn = ord_ctx_turn(ctx);
	int is_art = bat_is_arm(ctx, u, "artillery");
	int horse_cul = bat_is_horse_artillery(u) && bat_order_has(o, "UL");
	double woods = bat_p(ctx, "woods_fired_on_within");
	size_t i;

	if (artillery && !is_art)
		ord_diag_add(d, 0, 0, u->id, "artillery",
			     "unit '%s' is %s, not artillery (use the event 'fire')", u->id,
			     bat_kind(u));
	if (!artillery && is_art)
		ord_diag_add(d, 0, 0, u->id, "artillery",
			     "unit '%s' is a gun: record its fire with the event 'artillery'", u->id);
	if (!artillery && bat_is_arm(ctx, u, "cavalry"))
		ord_diag_add(d, 0, 0, u->id, "weapon fire: musket and rifle (D26)",
			     "unit '%s' is %s: the rules give small-arms fire to infantry only",
			     u->id, bat_kind(u));
	else if (!artillery && !is_art && weapon && !strcmp(weapon, "none"))
		ord_diag_add(d, 0, 0, u->id, "weapon fire", "unit '%s' has no small arms", u->id);
	if (!strcmp(t->side, u->side))
		ord_diag_add(d, 0, 0, u->id, "fire", "target '%s' is a unit of its own side", t->id);
	/* D23: "Skirmishers may fire as independent stands instead of a
	 * battalion": a fire event a stand (or group of stands), their firers
	 * together at most the unit's figures */
	if (!artillery && !is_art && !strcmp(bat_chart_formation(ctx, u), "skirmish")) {
		/* a stand's fire without firers= fires with every figure, as
		 * resolve fires it (stand_firers_checked; a game made before
		 * counted it 0 here, so two such fires took the whole unit's
		 * strength each) */
		long firers = ord_kv_get(&ev->kv, "firers") || !bat_flag(ctx, "stand_firers_checked")
				      ? ord_kv_get_int(&ev->kv, "firers", 0)
				      : bat_st(ctx, u, "figures");
		for (i = 0; i < ord_ctx_unit_nevents(ctx, u); i++) {
			const struct ord_event *e = ord_ctx_unit_event(ctx, u, i);
			if (e != ev && !strcmp(e->kind, "fire") && bat_ev_unit(ctx, e, "unit") == u)
				firers += ord_kv_get_int(&e->kv, "firers", 0) > 0
						  ? ord_kv_get_int(&e->kv, "firers", 0)
						  : bat_st(ctx, u, "figures");
		}
		if (firers > bat_st(ctx, u, "figures"))
			ord_diag_add(d, 0, 0, u->id, "skirmishers may fire as independent stands",
				     "the stands of '%s' fire with %ld figures in all this turn, but it has %ld (give each stand's firers=)",
				     u->id, firers, bat_st(ctx, u, "figures"));
	} else {
		for (i = 0; i < ord_ctx_unit_nevents(ctx, u); i++) {
			const struct ord_event *e = ord_ctx_unit_event(ctx, u, i);
			if (e != ev && (!strcmp(e->kind, "fire") || !strcmp(e->kind, "artillery")) &&
			    bat_ev_unit(ctx, e, "unit") == u)
				ord_diag_add_citing(d, 0, 0, u->id,
						    "one battalion will fire at one target", e->seq,
						    "unit '%s' already fired this turn", u->id);
		}
	}
	if (bat_st(ctx, u, "figures") <= 0)
		ord_diag_add(d, 0, 0, u->id, "units", "unit '%s' has no figures left", u->id);
	else if (!artillery && !is_art)
		check_firers(ctx, ev, u, d);
	if ((bat_order_has(o, "C") || bat_st(ctx, u, "charged") == turn) && !horse_cul)
		ord_diag_add(d, 0, 0, u->id, "a charging unit can't fire",
			     "unit '%s' is charging this turn and cannot fire", u->id);
	if (bat_still_in_melee(ctx, u))
		ord_diag_add(d, 0, 0, u->id, "troops still in melee can't fire",
			     "unit '%s' is still in the melee with '%s' from turn %ld", u->id,
			     bat_melee_with(ctx, u), bat_st(ctx, u, "melee_since"));
	/* D12: with --override the fire still does nothing (resolve, bat_fire):
	 * said when recorded (overridden_effect_said; a game made before
	 * keeps its words, which its replay compares) */
	if (ord_kv_get_bool(&ev->kv, "firer_in_woods", 0) && !bat_p(ctx, "woods_may_fire"))
		ord_diag_add(d, 0, 0, u->id, "cover", "units in woods may not fire%s",
			     bat_flag(ctx, "overridden_effect_said") ? NO_FIRE : "");
	if (ord_kv_get_bool(&ev->kv, "target_in_woods", 0) && ord_kv_get_num(&ev->kv, "range", 0) > woods)
		ord_diag_add(d, 0, 0, u->id, "cover",
			     "target '%s' is in woods and may be fired on only within %g\" (range %s\")%s",
			     t->id, woods, ord_kv_get(&ev->kv, "range"),
			     bat_flag(ctx, "overridden_effect_said") ? NO_FIRE : "");
	if (bat_routed(ctx, u))
		ord_diag_add(d, 0, 0, u->id, "routed units can't fire", "unit '%s' is routed", u->id);
	if (target && ord_ctx_find_unit(ctx, target->value) != t && !came_at(ctx, t, u))
		ord_diag_add(d, 0, 0, u->id, "orders may never be changed",
			     "unit '%s' fired at '%s' but its sheet names '@%s'", u->id, t->id,
			     target->value);
	check_screen(ctx, ev, u, d);
	check_range_position(ctx, ev, u, t, d);
	/* a unit with no small arms, or cavalry, was refused above */
	if (!artillery && !is_art && !bat_is_arm(ctx, u, "cavalry") &&
	    !(weapon && !strcmp(weapon, "none")))
		check_range(ctx, ev, u, "fire", "weapon", weapon ? weapon : "musket", d);
	if (!artillery || !is_art)
		return;
	{
		const struct ord_token *f = bat_order_fire(o);
		const char *shot = ord_kv_get(&ev->kv, "shot");
		struct ord_buf rule = ORD_BUF_INIT;
		long ut = unlimber_turns(ctx, NULL, u);

		check_over(ctx, ev, u, f, d);
		/* the shot resolve fires: the event's, else the sheet's */
		if (shot || f)
			check_range(ctx, ev, u, "artillery", "shot",
				    shot ? shot : bat_fire_code_shot(f->value), d);
		if (!f)
			ord_diag_add(d, 0, 0, u->id, "must fire the shot indicated in its orders",
				     "gun '%s' has no fire order (Fb, Fs or Fg) on its sheet", u->id);
		else if (shot && strcmp(shot, bat_fire_code_shot(f->value)))
			ord_diag_add(d, 0, 0, u->id, "must fire the shot indicated in its orders",
				     "gun '%s' fired %s but its sheet orders %s (%s)", u->id, shot,
				     bat_fire_code_shot(f->value), f->value);
		check_gun_hill(ctx, ev, u, d);
		if (bat_st(ctx, u, "silenced"))
			ord_diag_add(d, 0, 0, u->id,
				     bat_rule_text(ctx, &rule, SILENCE_RULE, "gun_hits_silence"),
				     "gun '%s' is silenced", u->id);
		if (strcmp(bat_formation(ctx, u), "unlimbered"))
			ord_diag_add(d, 0, 0, u->id,
				     bat_rule_text(ctx, &rule, UNLIMBER_RULE, "unlimber_turns"),
				     "gun '%s' has not unlimbered", u->id);
		else if (bat_st(ctx, u, "unlimbered") && turn - bat_st(ctx, u, "unlimbered") < ut)
			ord_diag_add(d, 0, 0, u->id,
				     bat_rule_text(ctx, &rule, UNLIMBER_RULE, "unlimber_turns"),
				     "gun '%s' unlimbered in turn %ld and cannot fire before turn %ld",
				     u->id, bat_st(ctx, u, "unlimbered"),
				     bat_st(ctx, u, "unlimbered") + ut);
		ord_buf_release(&rule);
	}
}

#define MORALE_RULE "all people who take casualties or lose in melees must check morale"
#define HILL_RULE "units on hilltops defending against an attack from a slope"

/* D24: "All people who take casualties or lose in melees must check
 * morale", and the one unit the text lets off, "since it made melee
 * contact in the same turn as it was fired on, it doesn't have to", tests
 * after the melee by itself (D3).  No rule lets the referee excuse a unit:
 * an exempt departs from the rules and is recorded only with --override. */
static void check_exempt(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	struct ord_unit *u = bat_ev_unit(ctx, ev, "unit");
	int turn = ord_ctx_turn(ctx);

	if (bat_st(ctx, u, "contact") == turn)
		ord_diag_add(d, 0, 0, u->id,
			     "since it made melee contact in the same turn as it was fired on, it doesn't have to",
			     "unit '%s' made melee contact this turn: it tests after the melee without an exempt (D3), which would cancel that test",
			     u->id);
	else if (bat_st(ctx, u, "fired_on") == turn && bat_turn_losses(ctx, u) > 0)
		ord_diag_add(d, 0, 0, u->id, MORALE_RULE,
			     "unit '%s' took %ld casualt%s this turn and must test: no rule exempts it",
			     u->id, bat_turn_losses(ctx, u),
			     bat_turn_losses(ctx, u) == 1 ? "y" : "ies");
	else
		ord_diag_add(d, 0, 0, u->id, MORALE_RULE,
			     "unit '%s' took no casualties this turn: it has no test to be exempt from",
			     u->id);
}

/* A test the rules call for, on the game's chart (D19, D24): the referee
 * knows the dice once the turn is sealed, so a chart picked unit by unit,
 * or a test the rules do not ask for, is his choice, not the rules'. */
static void check_test(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	struct ord_unit *u = bat_ev_unit(ctx, ev, "unit");
	const char *chart = ord_kv_get(&ev->kv, "chart");
	const struct ord_event *e = earlier(ctx, ev, u, "test");
	int turn = ord_ctx_turn(ctx);

	if (e)
		ord_diag_add_citing(d, 0, 0, u->id, "morale", e->seq,
				    "unit '%s' already tests this turn", u->id);
	if (chart && strcmp(chart, bat_game_chart(ctx)))
		ord_diag_add(d, 0, 0, u->id, "a game uses one of the two morale systems (D19)",
			     "unit '%s' tests on the %s chart, but this game tests every unit on the %s (its tables' morale_chart)",
			     u->id, chart, bat_game_chart(ctx));
	if (bat_st(ctx, u, "contact") == turn)
		ord_diag_add(d, 0, 0, u->id,
			     "since it made melee contact in the same turn as it was fired on, it doesn't have to",
			     "unit '%s' made melee contact this turn: it tests after the melee, not now (D3)",
			     u->id);
	else if (bat_st(ctx, u, "fired_on") != turn || bat_turn_losses(ctx, u) <= 0)
		ord_diag_add(d, 0, 0, u->id, MORALE_RULE,
			     "unit '%s' took no casualties this turn: the rules call for no test",
			     u->id);
}

/* D20: a second unit beside u in a melee against enemy. */
static void check_second(struct ord_ctx *ctx, const struct ord_event *ev, const char *key,
			 const struct ord_unit *u, const struct ord_unit *other,
			 const struct ord_unit *enemy, struct ord_diag *d)
{
	struct ord_unit *s = bat_ev_unit(ctx, ev, key);
	char fig[32];

	snprintf(fig, sizeof(fig), "%s_figures", key);
	if (!s) {
		if (ord_kv_get(&ev->kv, fig))
			ord_diag_add(d, 0, 0, u->id, "melee",
				     "%s needs %s=UNIT, the unit it counts", fig, key);
		return;
	}
	if (s == u || s == other || s == enemy || strcmp(s->side, u->side))
		ord_diag_add(d, 0, 0, u->id, "melee",
			     "%s is a second unit of %s's side fighting beside it, not '%s'", key,
			     u->id, s->id);
	else if (bat_melee_with(ctx, s) && strcmp(bat_melee_with(ctx, s), enemy->id))
		ord_diag_add(d, 0, 0, s->id, "melee", "unit '%s' is still in melee with '%s'",
			     s->id, bat_melee_with(ctx, s));
	if (bat_routed(ctx, s))
		ord_diag_add(d, 0, 0, s->id, "routed units have no melee value",
			     "unit '%s' is routed", s->id);
	if (bat_st(ctx, s, "figures") <= 0)
		ord_diag_add(d, 0, 0, s->id, "units", "unit '%s' has no figures left", s->id);
}

/* A side's figures in the melee are at most the unit's. */
static void check_melee_figures(struct ord_ctx *ctx, const struct ord_event *ev, const char *key,
				struct ord_diag *d)
{
	struct ord_unit *u = bat_ev_unit(ctx, ev, key);
	char fig[32];
	long n;

	snprintf(fig, sizeof(fig), "%s_figures", key);
	n = ord_kv_get_int(&ev->kv, fig, 0);
	/* D17: with --override, cut to its figures (overridden_effect_said
	 * says so) */
	if (u && ord_kv_get(&ev->kv, fig) && n > bat_st(ctx, u, "figures") &&
	    bat_flag(ctx, "overridden_effect_said"))
		ord_diag_add(d, 0, 0, u->id, "melee",
			     "%s=%ld, but unit '%s' has %ld figures: recorded with --override, it fights with its %ld",
			     fig, n, u->id, bat_st(ctx, u, "figures"), bat_st(ctx, u, "figures"));
	else if (u && ord_kv_get(&ev->kv, fig) && n > bat_st(ctx, u, "figures"))
		ord_diag_add(d, 0, 0, u->id, "melee", "%s=%ld, but unit '%s' has %ld figures", fig,
			     n, u->id, bat_st(ctx, u, "figures"));
	/* "When one tray of a battalion is meleed, the whole thing is,
	 * except for skirmishers who vaporize by stands" (D23): fewer
	 * figures are skirmishers' alone (melee_whole_checked) */
	else if (u && ord_kv_get(&ev->kv, fig) && n < bat_st(ctx, u, "figures") &&
		 strcmp(bat_chart_formation(ctx, u), "skirmish") &&
		 bat_flag(ctx, "melee_whole_checked")) {
		struct ord_buf in = ORD_BUF_INIT;
		bat_in_formation(ctx, u, &in);
		ord_diag_add(d, 0, 0, u->id,
			     "when one tray of a battalion is meleed, the whole thing is, except for skirmishers who vaporize by stands",
			     "%s=%ld of the %ld figures of '%s', which is %s: it fights whole; only skirmishers fight with the stands in contact",
			     fig, n, bat_st(ctx, u, "figures"), u->id, in.buf);
		ord_buf_release(&in);
	}
}

/* "When one tray of a battalion is meleed, the whole thing is ... The
 * figures involved have their values totaled, a die is rolled": a unit
 * fights one melee a turn, its figures once against one die; a unit
 * beside it is a2= or b2= of that melee (D20), not a melee of its own
 * (one_melee_checked; the same pair twice is refused anyway). */
static void check_one_melee(struct ord_ctx *ctx, const struct ord_event *ev,
			    struct ord_unit *sides[2][2], struct ord_diag *d)
{
	static const char *const keys[] = { "a", "a2", "b", "b2" };
	size_t k, i, j;

	for (k = 0; k < 4; k++) {
		struct ord_unit *u = sides[k / 2][k % 2];
		if (!u || (k % 2 && u == sides[k / 2][0]))
			continue;
		for (i = 0; i < ord_ctx_unit_nevents(ctx, u); i++) {
			const struct ord_event *e = ord_ctx_unit_event(ctx, u, i);
			struct ord_unit *ea = bat_ev_unit(ctx, e, "a"), *eb = bat_ev_unit(ctx, e, "b");
			if (e == ev || strcmp(e->kind, "melee") ||
			    (ea == sides[0][0] && eb == sides[1][0]) ||
			    (ea == sides[1][0] && eb == sides[0][0]))
				continue; /* the same pair: "already fought" */
			for (j = 0; j < 4; j++)
				if (bat_ev_unit(ctx, e, keys[j]) == u)
					break;
			if (j == 4)
				continue;
			{
				struct ord_diag_item *di =
					ord_diag_add(d, 0, 0, u->id,
						     "when one tray of a battalion is meleed, the whole thing is",
						     "'%s' fights in the melee of ", u->id);
				ord_diag_item_event(di, e->seq);
				ord_diag_item_addf(di, " already this turn (%s against %s): a unit fights one melee a turn, its figures totalled against one die; a unit beside it is a2= or b2= of that melee",
						   ea->id, eb->id);
			}
			break;
		}
	}
}

/* TERRAIN: "Units on hilltops defending against an attack from a slope
 * cause 1/4 more casualties, and if meleed, are +1 on the die": the
 * hilltop is the defender's, so one side of a melee at most has it, and
 * not a unit whose move made the contact this turn (D25: the mover came on
 * into the melee, it attacks).  Both sides' a_hill= and b_hill=, or the
 * charger's, were taken: the attacker's die +1 and its blow 1/4 more
 * (table checks, melee_hill_checked; a game made before took them). */
static void check_melee_hill(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_unit *a,
			     struct ord_unit *b, struct ord_diag *d)
{
	static const char *const keys[] = { "a_hill", "b_hill" };
	struct ord_unit *u[2] = { a, b };
	int turn = ord_ctx_turn(ctx);
	size_t k;

	if (ord_kv_get_bool(&ev->kv, keys[0], 0) && ord_kv_get_bool(&ev->kv, keys[1], 0)) {
		ord_diag_add(d, 0, 0, a->id, HILL_RULE,
			     "a_hill=yes and b_hill=yes: one side defends a hilltop against an attack from a slope, not both ('%s' and '%s')",
			     a->id, b->id);
		return;
	}
	for (k = 0; k < 2; k++) {
		const char *c = ord_state_str(ctx, u[k], "contact_unit");
		if (!ord_kv_get_bool(&ev->kv, keys[k], 0) || bat_st(ctx, u[k], "contact") != turn)
			continue;
		ord_diag_add(d, 0, 0, u[k]->id, HILL_RULE,
			     "%s=yes, but '%s' moved into contact with '%s' this turn: it attacks, and the hilltop's +1 and 1/4 more are the defender's (expected %s=yes, if '%s' stands on the hilltop, or no hill)",
			     keys[k], u[k]->id, c && *c ? c : u[1 - k]->id, keys[1 - k], u[1 - k]->id);
	}
	/* the unit beside the first is on its side's hilltop, and has its +1
	 * (melee_hill_whole_side): it too defends, and did not move into the
	 * contact */
	for (k = 0; k < 2 && bat_flag(ctx, "melee_hill_whole_side"); k++) {
		struct ord_unit *s = bat_ev_unit(ctx, ev, k ? "b2" : "a2");
		const char *c = s ? ord_state_str(ctx, s, "contact_unit") : NULL;
		if (!s || !ord_kv_get_bool(&ev->kv, keys[k], 0) || bat_st(ctx, s, "contact") != turn)
			continue;
		ord_diag_add(d, 0, 0, s->id, HILL_RULE,
			     "%s=yes, but '%s' beside '%s' moved into contact with '%s' this turn: it attacks, and the hilltop's +1 and 1/4 more are its side's defenders' (expected no hill for that side, or '%s' out of this melee)",
			     keys[k], s->id, u[k]->id, c && *c ? c : u[1 - k]->id, s->id);
	}
}

static void check_melee(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	struct ord_unit *a = bat_ev_unit(ctx, ev, "a"), *b = bat_ev_unit(ctx, ev, "b");
	struct ord_unit *both[2];
	struct ord_unit *sides[2][2] = { { a, bat_ev_unit(ctx, ev, "a2") },
					 { b, bat_ev_unit(ctx, ev, "b2") } };
	size_t i, k, ka = 0, failed;

	/* D1: "If he survives, the melee will continue. Should new men
	 * arrive on his side, his die roll would be +1": the new men are a
	 * or b's own, or a2 or b2 joining them (a2_fresh, b2_fresh), in a
	 * melee of a and b that goes on */
	for (k = 0; k < 4; k++) {
		static const char *const keys[] = { "a_fresh", "b_fresh", "a2_fresh", "b2_fresh" };
		struct ord_unit *u = k % 2 ? b : a, *e = k % 2 ? a : b;
		const char *w = bat_melee_with(ctx, u);
		if (ord_kv_get_bool(&ev->kv, keys[k], 0) &&
		    !(w && !strcmp(w, e->id) && bat_st(ctx, u, "melee_since") < ord_ctx_turn(ctx)))
			ord_diag_add(d, 0, 0, u->id,
				     "should new men arrive on his side, his die roll would be +1",
				     "%s=yes: new men arrive in a melee that goes on, and '%s' and '%s' begin theirs this turn",
				     keys[k], a->id, b->id);
		else if (k >= 2 && ord_kv_get_bool(&ev->kv, keys[k], 0) && !sides[k % 2][1])
			ord_diag_add(d, 0, 0, u->id,
				     "should new men arrive on his side, his die roll would be +1",
				     "%s=yes names no unit: give the unit that arrives as %s=",
				     keys[k], k % 2 ? "b2" : "a2");
	}
	check_melee_figures(ctx, ev, "a", d);
	check_melee_figures(ctx, ev, "b", d);
	check_melee_figures(ctx, ev, "a2", d);
	check_melee_figures(ctx, ev, "b2", d);
	if (bat_flag(ctx, "melee_hill_checked"))
		check_melee_hill(ctx, ev, a, b, d);
	check_second(ctx, ev, "a2", a, bat_ev_unit(ctx, ev, "b2"), b, d);
	check_second(ctx, ev, "b2", b, bat_ev_unit(ctx, ev, "a2"), a, d);
	both[0] = a;
	both[1] = b;
	if (!strcmp(a->side, b->side))
		ord_diag_add(d, 0, 0, a->id, "melee", "'%s' and '%s' are of the same side", a->id,
			     b->id);
	for (k = 0; k < 2; k++) {
		struct ord_unit *u = both[k], *e = both[1 - k];
		if (bat_melee_with(ctx, u) && strcmp(bat_melee_with(ctx, u), e->id))
			ord_diag_add(d, 0, 0, u->id, "melee", "unit '%s' is still in melee with '%s'",
				     u->id, bat_melee_with(ctx, u));
		/* D5: a routed unit fights with no value (routed_no_melee_value);
		 * two routed units have none to fight with, and a game made
		 * before refused any */
		if (bat_routed(ctx, u) &&
		    (!bat_flag(ctx, "routed_no_melee_value") || bat_routed(ctx, e)))
			ord_diag_add(d, 0, 0, u->id, "routed units have no melee value",
				     "unit '%s' is routed", u->id);
		if (bat_st(ctx, u, "figures") <= 0)
			ord_diag_add(d, 0, 0, u->id, "units", "unit '%s' has no figures left", u->id);
	}
	/* D25: each unit touched an enemy of the event, this turn or in a
	 * melee that goes on; when no unit of a's side did, nobody of b's
	 * side did either, and a's messages said so */
	for (k = 0, failed = 0; k < 4 && strcmp(a->side, b->side); k++) {
		struct ord_unit *u = sides[k / 2][k % 2], *e1 = sides[1 - k / 2][0],
				*e2 = sides[1 - k / 2][1];
		if (!u || (k % 2 && u == sides[k / 2][0]) || (k >= 2 && failed == ka))
			continue;
		if (k < 2)
			ka++;
		if (bat_engaged(ctx, u, e1) || (e2 && bat_engaged(ctx, u, e2)))
			continue;
		failed += k < 2;
		ord_diag_add(d, 0, 0, u->id, "those units in melee",
			     "'%s' and '%s%s%s' made no melee contact this turn (no move with contact= between them) and are in no melee from an earlier turn",
			     u->id, e1->id, e2 ? "' or '" : "", e2 ? e2->id : "");
	}
	for (i = 0; i < ord_ctx_unit_nevents(ctx, a); i++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, a, i);
		if (e != ev && !strcmp(e->kind, "melee") &&
		    ((bat_ev_unit(ctx, e, "a") == a && bat_ev_unit(ctx, e, "b") == b) ||
		     (bat_ev_unit(ctx, e, "a") == b && bat_ev_unit(ctx, e, "b") == a)))
			ord_diag_add_citing(d, 0, 0, a->id, "melee", e->seq,
					    "'%s' and '%s' already fought this turn", a->id, b->id);
	}
	if (bat_flag(ctx, "one_melee_checked"))
		check_one_melee(ctx, ev, sides, d);
}

/* What an impossible event's refusal says of --override (red team #7). */
#define NO_OVERRIDE \
	"; --override does not apply: it overrules a check of a measure or of the situation on the table, not an event that cannot happen"

/*
 * An event no referee's word can make true: a unit's kind that cannot do
 * the event's kind (a gun's fire is 'artillery', anyone else's 'fire',
 * and cavalry's none, D26; only guns limber, only infantry changes
 * formation, only cavalry halts from a pursuit), and a fire or a melee
 * against the unit itself or its own side.  The checks refuse these too,
 * and an override recorded them: a light infantry's roundshot was
 * resolved as a musket's, a unit fired at itself.  Refused when the event
 * is recorded (bat_event_defaults), whatever the override, with why in
 * why, and by the replay of a game whose tables switch impossible_replayed
 * on; an event recorded so before, in a game made before the switch,
 * keeps replaying as it was.  0 when the event can happen.
 */
int bat_event_impossible(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_buf *why)
{
	struct ord_unit *u = bat_ev_unit(ctx, ev, "unit"), *t;
	int artillery = !strcmp(ev->kind, "artillery");

	if (artillery || !strcmp(ev->kind, "fire")) {
		t = bat_ev_unit(ctx, ev, "target");
		if (!u || !t)
			return 0;
		if (artillery && !bat_is_arm(ctx, u, "artillery"))
			ord_buf_addf(why,
				     "unit '%s' is %s, not artillery: 'artillery' is a gun's fire (a unit's is 'fire')",
				     u->id, bat_kind(u));
		else if (!artillery && bat_is_arm(ctx, u, "artillery"))
			ord_buf_addf(why, "unit '%s' is %s: a gun's fire is the event 'artillery'",
				     u->id, bat_kind(u));
		else if (!artillery && bat_is_arm(ctx, u, "cavalry"))
			ord_buf_addf(why,
				     "unit '%s' is %s: the rules give small-arms fire to infantry only (D26)",
				     u->id, bat_kind(u));
		else if (t == u)
			ord_buf_addf(why, "unit '%s' cannot fire at itself", u->id);
		else if (!strcmp(t->side, u->side))
			ord_buf_addf(why,
				     "target '%s' is a unit of the firer's own side (%s): fire is at the enemy",
				     t->id, u->side);
	} else if (!strcmp(ev->kind, "limber") || !strcmp(ev->kind, "unlimber")) {
		if (u && !bat_is_arm(ctx, u, "artillery"))
			ord_buf_addf(why, "unit '%s' is %s, not artillery: only a gun %ss", u->id,
				     bat_kind(u), ev->kind);
	} else if (!strcmp(ev->kind, "form")) {
		if (u && !bat_is_arm(ctx, u, "infantry"))
			ord_buf_addf(why, "unit '%s' is %s: only infantry changes formation", u->id,
				     bat_kind(u));
	} else if (!strcmp(ev->kind, "halt")) {
		if (u && !bat_is_arm(ctx, u, "cavalry"))
			ord_buf_addf(why, "unit '%s' is %s: only cavalry pursues, or halts from it",
				     u->id, bat_kind(u));
	} else if (!strcmp(ev->kind, "melee")) {
		struct ord_unit *a = bat_ev_unit(ctx, ev, "a"), *b = bat_ev_unit(ctx, ev, "b");
		static const char *const seconds[] = { "a2", "b2" };
		size_t k;

		if (!a || !b)
			return 0;
		if (a == b) {
			ord_buf_addf(why, "'%s' cannot fight a melee with itself", a->id);
		} else if (!strcmp(a->side, b->side)) {
			ord_buf_addf(why,
				     "'%s' and '%s' are of the same side (%s): a melee is against the enemy",
				     a->id, b->id, a->side);
		} else {
			for (k = 0; k < 2 && !why->len; k++) {
				struct ord_unit *s = bat_ev_unit(ctx, ev, seconds[k]), *w = k ? b : a;
				if (s && strcmp(s->side, w->side))
					ord_buf_addf(why,
						     "%s '%s' is of side %s, not %s's (%s): the second unit fights beside %s, against the enemy",
						     seconds[k], s->id, s->side, k ? "b" : "a",
						     w->side, k ? "b" : "a");
			}
		}
	}
	if (!why->len)
		return 0;
	ord_buf_adds(why, NO_OVERRIDE);
	return 1;
}

int bat_check_event(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	size_t before = d->n;

	if (!strcmp(ev->kind, "move")) {
		check_move(ctx, ev, d);
	} else if (!strcmp(ev->kind, "form")) {
		check_form(ctx, ev, d);
	} else if (!strcmp(ev->kind, "limber") || !strcmp(ev->kind, "unlimber")) {
		check_gun(ctx, ev, d);
	} else if (!strcmp(ev->kind, "fire") || !strcmp(ev->kind, "artillery")) {
		check_fire(ctx, ev, d, !strcmp(ev->kind, "artillery"));
	} else if (!strcmp(ev->kind, "test")) {
		check_test(ctx, ev, d);
	} else if (!strcmp(ev->kind, "exempt")) {
		check_exempt(ctx, ev, d);
	} else if (!strcmp(ev->kind, "melee")) {
		check_melee(ctx, ev, d);
	} else if (!strcmp(ev->kind, "halt")) {
		struct ord_unit *u = bat_ev_unit(ctx, ev, "unit");
		if (!bat_is_arm(ctx, u, "cavalry"))
			ord_diag_add(d, 0, 0, u->id, "pursuit", "only cavalry pursues; '%s' is %s",
				     u->id, bat_kind(u));
	}
	return d->n > before ? ORD_ECHECK : 0;
}

/* ---- after the exchange ---- */

/* What the events of the turn did, per unit: one pass over the events, so
 * that checking a turn stays linear in units + events. */
enum {
	DID_CHARGE = 1,
	DID_FORM = 2,
	DID_LIMBER = 4,
	DID_UNLIMBER = 8,
	DID_MOVE = 16,
	DID_FIRE = 32,
};

/* Is a melee event of the turn between u and w (either named first or
 * beside the first, D20)?  u's own events: the ctx lists an event under
 * every unit its keys name. */
static int melee_recorded(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_unit *w)
{
	size_t i;

	for (i = 0; i < ord_ctx_unit_nevents(ctx, u); i++)
		if (bat_melee_between(ctx, ord_ctx_unit_event(ctx, u, i), u, w))
			return 1;
	return 0;
}

/* D2, D14: "If he survives, the melee will continue", but a melee of an
 * earlier turn that no melee event of this turn fights again ends, said
 * only when the melee phase is resolved.  Before it, the referee's list of
 * what is still to record names it (the pair once), so that he records
 * the melee or knows that leaving it out separates the units.  Units with
 * no figures left fight no melee: the resolve closes theirs.  At the
 * turn's end (the audit) every such melee is fought or closed. */
static void melee_goes_on(struct ord_ctx *ctx, size_t i, struct ord_unit *u, struct ord_diag *d)
{
	struct ord_unit *w;
	const char *back;

	if (!bat_still_in_melee(ctx, u) || !(w = ord_ctx_find_unit(ctx, bat_melee_with(ctx, u))) ||
	    bat_st(ctx, u, "figures") <= 0 || bat_st(ctx, w, "figures") <= 0 ||
	    melee_recorded(ctx, u, w))
		return;
	back = bat_melee_with(ctx, w);
	if (back && !strcmp(back, u->id) && bat_still_in_melee(ctx, w) && ord_ctx_unit_index(ctx, w) < i)
		return; /* said of w */
	ord_diag_item_kind(ord_diag_add(d, 0, 0, u->id, "melee",
					"in the melee with '%s' since turn %ld, which continues, but no melee between them is recorded this turn: resolving the melee phase without one ends it (D14)",
					w->id, bat_st(ctx, u, "melee_since")),
			   "melee");
}

/* D6: "Down to -5 = retreat next turn", "rout, unit moves 3 turns
 * backwards, backs to the enemy" ("Retreat - unit must retreat next
 * turn", "Rout = unit retreats for 3 turns" on the optional sheet): a
 * unit the rules move back owes a move each turn of its retreat or rout,
 * whatever its sheet says, and one left standing where it broke went
 * unseen (the demo's F1 was then fired on as a unit that did not move).
 * Named, for the referee to record it: its move back, a move of 0" if it
 * could not go, or a gun's limbering (it limbers before it moves).  The
 * state is the turn's end, as below: routed in an earlier turn, or its
 * retreat turn (table checks, retreat_moves_listed; a list, not a rule). */
static void moves_back(struct ord_ctx *ctx, const struct ord_unit *u, unsigned did, struct ord_diag *d)
{
	int turn = ord_ctx_turn(ctx);
	int routed = bat_st(ctx, u, "routed") && bat_st(ctx, u, "routed") < turn &&
		     bat_st(ctx, u, "rout_until") >= turn;

	if ((!routed && bat_st(ctx, u, "retreat_turn") != turn) || bat_st(ctx, u, "figures") <= 0 ||
	    (did & (DID_MOVE | DID_LIMBER)))
		return;
	ord_diag_item_kind(ord_diag_add(d, 0, 0, u->id,
					routed ? "rout, unit moves 3 turns backwards"
					       : "retreat - unit must retreat next turn",
					"%s this turn: the rules move it back, but no move was recorded (a unit that could not move is recorded as move distance=0%s)",
					routed ? "routed" : "retreats",
					bat_is_arm(ctx, u, "artillery") ? "; an unlimbered gun limbers first"
									: ""),
			   "move");
}

/* What event e did for the unit it names as its unit (DID_*).  D13: a
 * unit moves once a turn, and its move is its charge or, said charge=no
 * (refused, recorded with --override), is not: either way no later event
 * carries out its C, which a move of charge=no left on the referee's list
 * with a Record link to a second move that is refused (table checks,
 * charge_no_settles; a list: a game made before lists it). */
static unsigned event_did(struct ord_ctx *ctx, const struct ord_event *e)
{
	if (!strcmp(e->kind, "move"))
		return DID_MOVE |
		       (bat_flag(ctx, "charge_no_settles") || bat_move_charges(ctx, e) ? DID_CHARGE
										       : 0);
	if (!strcmp(e->kind, "fire") || !strcmp(e->kind, "artillery"))
		return DID_FIRE;
	if (!strcmp(e->kind, "form"))
		return DID_FORM;
	if (!strcmp(e->kind, "limber"))
		return DID_LIMBER;
	if (!strcmp(e->kind, "unlimber"))
		return DID_UNLIMBER;
	return 0;
}

/* What u's sealed order o asks of the turn's events (DID_*), which the
 * referee's list names while no event does it (bat_check_execution) and
 * which keeps its phase from being resolved empty (bat_order_events).
 * The state is the turn's end, or the phase's being resolved: a unit
 * routed or retreating from an earlier turn is moved by the rules, not
 * by its orders, and is asked nothing. */
static unsigned order_wants(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_order *o)
{
	int turn = ord_ctx_turn(ctx);
	unsigned want = 0;

	if (!o ||
	    (bat_st(ctx, u, "routed") && bat_st(ctx, u, "routed") < turn &&
	     bat_st(ctx, u, "rout_until") >= turn) ||
	    bat_st(ctx, u, "retreat_turn") == turn)
		return 0;
	if (bat_ordered_quarters(ctx, o))
		want |= DID_MOVE;
	if (bat_order_has(o, "C"))
		want |= DID_CHARGE;
	if (bat_order_form(o))
		want |= DID_FORM;
	if (bat_order_has(o, "UL"))
		want |= DID_UNLIMBER;
	if (bat_order_has(o, "L"))
		want |= DID_LIMBER;
	if (ord_order_find(o, ORD_TOK_TARGET) || bat_order_fire(o))
		want |= DID_FIRE;
	return want;
}

int bat_check_execution(struct ord_ctx *ctx, struct ord_diag *d)
{
	unsigned char *did = ord_xcalloc(ord_ctx_nunits(ctx) + 1, 1);
	size_t i;

	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *u = bat_ev_unit(ctx, e, "unit");

		if (u)
			did[ord_ctx_unit_index(ctx, u)] |= (unsigned char)event_did(ctx, e);
	}
	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		const struct ord_order *o = ord_ctx_order(ctx, u);
		const struct ord_token *f = bat_order_form(o);
		const struct ord_token *dir = o ? ord_order_find(o, ORD_TOK_DIR) : NULL;
		const struct ord_token *frac = o ? ord_order_find(o, ORD_TOK_FRAC) : NULL;
		const struct ord_token *target = o ? ord_order_find(o, ORD_TOK_TARGET) : NULL;
		const struct ord_token *fire = bat_order_fire(o);
		unsigned miss;

		melee_goes_on(ctx, i, u, d);
		if (bat_flag(ctx, "retreat_moves_listed"))
			moves_back(ctx, u, did[i], d);
		miss = order_wants(ctx, u, o) & ~(unsigned)did[i];
		/* a move or a fire not carried out may have its reason on the
		 * table (blocked, out of range): said, for the players to ask;
		 * a blocked unit's move is recorded as 0" */
		if (miss & DID_MOVE)
			ord_diag_item_kind(ord_diag_add(d, o->line, 0, u->id,
							dir ? dir->value : frac->value,
							"ordered to move (%s%s%s) but no move was recorded",
							dir ? dir->value : "", dir && frac ? " " : "",
							frac ? frac->value : ""),
					   "move");
		if (miss & DID_CHARGE)
			ord_diag_item_kind(ord_diag_add(d, o->line, 0, u->id, "C",
							"ordered to charge (C) but no charge was recorded"),
					   "move");
		if (miss & DID_FORM)
			ord_diag_item_kind(ord_diag_add(d, o->line, 0, u->id, f->value,
							"ordered to form %s (%s) but no formation change was recorded",
							bat_form_code_formation(f->value), f->value),
					   "form");
		if (miss & DID_UNLIMBER)
			ord_diag_item_kind(ord_diag_add(d, o->line, 0, u->id, "UL",
							"ordered to unlimber (UL) but no unlimbering was recorded"),
					   "unlimber");
		if (miss & DID_LIMBER)
			ord_diag_item_kind(ord_diag_add(d, o->line, 0, u->id, "L",
							"ordered to limber (L) but no limbering was recorded"),
					   "limber");
		/* a gun's fire is the event artillery, which the message
		 * names and the item's kind is (the web page's Record link
		 * opens its form) */
		if (miss & DID_FIRE)
			ord_diag_item_kind(ord_diag_add(d, o->line, 0, u->id, fire ? fire->value : "@",
							"ordered to fire%s%s%s%s%s but no %s was recorded",
							fire ? " (" : "", fire ? fire->value : "",
							fire ? ")" : "", target ? " at " : "",
							target ? target->value : "",
							bat_is_arm(ctx, u, "artillery") ? "artillery fire"
											: "fire"),
					   bat_is_arm(ctx, u, "artillery") ? "artillery" : "fire");
	}
	free(did);
	return 0;
}

/* Whether the melee phase just resolved ended u's melee of an earlier
 * turn for want of a melee event (D14): its result says so, once a pair
 * (the phase's state has forgotten whom it was with).  The result is
 * known by its words (BAT_MELEE_ENDED, the module's own, written and read
 * here alone): it has no values, and a value added to it would be
 * stored, digested and replayed, so that a game made before would audit
 * otherwise (it needs a rules revision: NEEDSWORK). */
static int melee_ended_unrecorded(struct ord_ctx *ctx, const struct ord_unit *u)
{
	struct ord_result_view r;
	size_t i, tail = strlen(BAT_MELEE_ENDED_TAIL), len;

	/* u's results alone: every result of the turn for every unit made a
	 * phase of 100,000 units take 34 s */
	for (i = 0; i < ord_ctx_unit_nresults(ctx, u); i++) {
		if (ord_ctx_unit_result_get(ctx, u, i, &r) != 0) {
			ord_error_clear();
			return 0;
		}
		if (r.event_seq || strcmp(r.unit, u->id) || !r.explanation ||
		    strncmp(r.explanation, "the melee with ", 15) ||
		    (len = strlen(r.explanation)) < tail ||
		    strcmp(r.explanation + len - tail, BAT_MELEE_ENDED_TAIL))
			continue;
		return 1;
	}
	return 0;
}

/* Whether u came into melee contact this turn (a move's contact=, D25)
 * with a unit w that no melee event of the turn has fought it with, both
 * with figures and not both routed (a routed unit is fought with no value,
 * D5): the charge's melee, which the melee phase resolved empty would
 * drop unseen (a referee who typed resolve once too often lost it, and
 * the contact was said only in the movement's result).  The pair is
 * named once, by the unit that comes first. */
static int contact_unfought(struct ord_ctx *ctx, const struct ord_unit *u)
{
	struct ord_buf ids = ORD_BUF_INIT;
	const char *p;
	int owed = 0;

	if (bat_st(ctx, u, "in_contact") != ord_ctx_turn(ctx) || bat_st(ctx, u, "figures") <= 0)
		return 0;
	/* a copy: finding units does not move the state's strings, but be safe */
	ord_buf_adds(&ids, ord_state_str(ctx, u, "contact_with"));
	for (p = ids.buf; *p && !owed;) {
		size_t n = strcspn(p, " ");
		char id[64];
		struct ord_unit *w;

		if (n && n < sizeof(id)) {
			memcpy(id, p, n);
			id[n] = '\0';
			w = ord_ctx_find_unit(ctx, id);
			if (w && bat_st(ctx, w, "figures") > 0 &&
			    !(bat_routed(ctx, u) && bat_routed(ctx, w)) && !melee_recorded(ctx, u, w) &&
			    !(bat_in_contact(ctx, w, u) &&
			      ord_ctx_unit_index(ctx, w) < ord_ctx_unit_index(ctx, u)))
				owed = 1;
		}
		p += n;
		while (*p == ' ')
			p++;
	}
	ord_buf_release(&ids);
	return owed;
}

/* The ruleset's order_events (ruleset.h, version 9): the kinds of event
 * that carry out what u's order asks and no event of the turn has done,
 * as bat_check_execution names them (a gun's fire is artillery; a charge
 * is a move); and, whatever its order, what the rules owe of u that the
 * referee's list names: a move back of a unit routed or retreating
 * (moves_back, retreat_moves_listed) and a melee of an earlier turn that
 * goes on (melee_goes_on, D14; the melee phase resolved empty ended it,
 * as its result says) or a contact made this turn that no melee event
 * fights (contact_unfought).  Else a resolve typed twice skipped them
 * unseen. */
size_t bat_order_events(struct ord_ctx *ctx, const struct ord_unit *u, const char **kinds, size_t max)
{
	int turn = ord_ctx_turn(ctx);
	unsigned did = 0, miss;
	size_t i, n = 0;
	int back;

	for (i = 0; i < ord_ctx_unit_nevents(ctx, u); i++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, u, i);
		if (bat_ev_unit(ctx, e, "unit") == u)
			did |= event_did(ctx, e);
	}
	miss = order_wants(ctx, u, ord_ctx_order(ctx, u)) & ~did;
	back = bat_flag(ctx, "retreat_moves_listed") && bat_st(ctx, u, "figures") > 0 &&
	       !(did & (DID_MOVE | DID_LIMBER)) &&
	       ((bat_st(ctx, u, "routed") && bat_st(ctx, u, "routed") < turn &&
		 bat_st(ctx, u, "rout_until") >= turn) ||
		bat_st(ctx, u, "retreat_turn") == turn);
	if (((miss & (DID_MOVE | DID_CHARGE)) || back) && n < max)
		kinds[n++] = "move";
	if ((miss & DID_FORM) && n < max)
		kinds[n++] = "form";
	if ((miss & DID_UNLIMBER) && n < max)
		kinds[n++] = "unlimber";
	if ((miss & DID_LIMBER) && n < max)
		kinds[n++] = "limber";
	if ((miss & DID_FIRE) && n < max)
		kinds[n++] = bat_is_arm(ctx, u, "artillery") ? "artillery" : "fire";
	if ((melee_ended_unrecorded(ctx, u) || contact_unfought(ctx, u)) && n < max)
		kinds[n++] = "melee";
	return n;
}
