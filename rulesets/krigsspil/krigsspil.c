/*
 * krigsspil.c - the krigsspil ruleset module: Taktisk Krigsspil fra
 * Napoleonskrigene (shared/rules/krigsspil-napoleonskrigene-da.txt,
 * EXTRACT.md A2), with orders in the ordre notation (orders/ordre/) and
 * the provisional Skema of skema.xml, on an optional hex map.
 *
 * This file declares the module (phases, unit attributes, events), reads
 * units, fills their first state and describes them for the reports;
 * validate.c checks sheets and events, resolve.c resolves the phases,
 * calc.c holds the computations on the tables, map.c the map.
 * rulesets/krigsspil/README.md explains the decisions (the map, the
 * languages, the readings of lost rules).
 *
 * Unit state keys (integers unless said; a turn of 0 means never):
 *   figurer, tab_mand, fanger, efternoelere   strength: figures now; men
 *                                            lost, men given up as
 *                                            prisoners, figures straggled
 *   valeur                                   valeur now (start: attribute)
 *   moral, moral_til, moral_grund            state OR LU U FU, the half turn
 *                                            it lasts through (0: until
 *                                            reorganised), why (a word)
 *   moral_traek                              turn the state was last set
 *   decimering                               0, 1 (>25% lost), 2 (>50%)
 *   formation                                current formation
 *   prodset, klargjort                       artillery: af|paa, 0|1
 *   kampsatser                               infantry and cavalry (decimal)
 *   ks_fuldkugle, ks_kardaesk, ks_shrapnel   artillery ammunition pools
 *   kanoner, beskadiget, oedelagt, prods_tab guns serviceable, damaged,
 *                                            destroyed; limbers lost
 *   foerste_salve, foerste_storm             1 while unused
 *   stormmarch_start, stormmarch_sidst       first and last turn of the
 *                                            last stormmarch
 *   loeb_sidst, prolong_sidst                turn of the last løb, prolonge
 *   march_i_traek, march_sidst               limbered artillery in line:
 *                                            turns marched in a row
 *   skoed, skoed_helt, skoed_paa             turn it fired, fired a whole
 *                                            turn; the unit it fired at
 *   bevaeget                                 turn it moved or changed formation
 *   kamp_traek, naerkamp_traek, nabo_traek,  cavalry: engaged turns since
 *   hvil_traek                               rest, last melee, last turn as a
 *                                            neighbour in one, rest in a row
 *   fu_ekstra                                cavalry that fled without
 *                                            stormmarch: FU through this turn
 *   flugt_traek, forfoelget_traek,           turns fleeing, pursued in a
 *   forfoelget_sidst, fanger_traek           row, last pursued, last gave
 *                                            prisoners
 *   vandt_fu_traek, hvilede_traek            decimation exceptions this turn
 *   sidst_rolle                              angriber | forsvarer
 *   angreb_maal, angreb_traek, angreb_storm  declared attack this turn
 *   stoetter, stoette_rolle, stoette_traek   declared support this turn
 *   reaktion, reaktion_traek                 declared defence this turn
 *   indskudt_paa                             the target a battery has ranged on
 *   britisk_kontrol_til, britisk_forfoelg_til, britisk_maal
 *                                            British cavalry out of control
 *   overgivet, fjernet                       1: out of the game
 *   x, y                                     position in cm (decimal)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/krigsspil/ks.h"

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
	  "ammunition at the start, if not the Skema's issue" },
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
static const struct ord_key_spec angreb_keys[] = {
	UNIT_KEY("the attacking unit"),
	{ "maal", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit attacked" },
	{ "stormmarch", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "attacks in stormmarch (at least ½ turn)" },
	{ "loeb", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "attacks with løb" },
	{ "initiativ", ORD_KEY_BOOL, 0, NULL, 0, 0, "no",
	  "its side has the initiative (declares first)" },
	END_KEYS,
};
static const struct ord_key_spec stoette_keys[] = {
	UNIT_KEY("the supporting unit"),
	{ "stoetter", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit it supports" },
	{ "rolle", ORD_KEY_ENUM, 1, "traefning|nabo", 0, 0, NULL, "2. træfning or naboenhed" },
	END_KEYS,
};
static const struct ord_key_spec reaktion_keys[] = {
	UNIT_KEY("the defending unit"),
	{ "reaktion", ORD_KEY_ENUM, 1, "forsvar|modangreb|tilbagetog", 0, 0, NULL,
	  "its defensive reaction" },
	{ "mod", ORD_KEY_UNIT, 0, NULL, 0, 0, NULL, "the attacker" },
	END_KEYS,
};
static const struct ord_key_spec flyt_keys[] = {
	UNIT_KEY("the unit that moved"),
	{ "x", ORD_KEY_NUM, 1, NULL, -100000, 100000, NULL, "its new position, cm east" },
	{ "y", ORD_KEY_NUM, 1, NULL, -100000, 100000, NULL, "its new position, cm south" },
	{ "stormmarch", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "moved in stormmarch" },
	{ "loeb", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "moved with løb" },
	{ "retraete", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "a retreat or flight the rules order (U, FU)" },
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
	{ "halv", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "fired for half a turn" },
	{ "figurer", ORD_KEY_INT, 0, NULL, 1, 10000, NULL,
	  "figures that can reach (default by formation)" },
	{ "maal_figurer", ORD_KEY_INT, 0, NULL, 1, 10000, NULL,
	  "figures of the target fired at (default all)" },
	FLAG_KEY("flag", "modifier flags the referee sees: flanke,krudtroeg_maal,..."),
	END_KEYS,
};
static const struct ord_key_spec artilleri_keys[] = {
	UNIT_KEY("the firing battery"),
	{ "maal", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the unit fired at" },
	{ "ammo", ORD_KEY_ENUM, 0, "SF|SG|SK|SS", 0, 0, NULL, "the ammunition (default: as ordered)" },
	{ "zone", ORD_KEY_ENUM, 0, "I|II|III|K", 0, 0, NULL, "the zone measured (or afstand)" },
	{ "afstand", ORD_KEY_NUM, 0, NULL, 0, 10000, NULL, "cm to the nearest figure of the target" },
	{ "halv", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "fired for half a turn" },
	{ "kanoner", ORD_KEY_INT, 0, NULL, 1, 100, NULL, "guns firing (default all that can)" },
	{ "maal_figurer", ORD_KEY_INT, 0, NULL, 1, 10000, NULL,
	  "figures of the target fired at (default all)" },
	{ "koordineret", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "coordinated fire (15)" },
	FLAG_KEY("flag", "modifier flags: flanke,ikkerikochet,geledder_bag,..."),
	END_KEYS,
};
static const struct ord_key_spec forsvarsild_keys[] = {
	UNIT_KEY("the battery"),
	{ "maal", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the attacking unit" },
	{ "halv", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "half a turn of fire or less" },
	FLAG_KEY("flag", "modifier flags"),
	END_KEYS,
};
static const struct ord_key_spec naerkamp_keys[] = {
	{ "angriber", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the attacker" },
	{ "forsvarer", ORD_KEY_UNIT, 1, NULL, 0, 0, NULL, "the defender" },
	{ "a_figurer", ORD_KEY_INT, 0, NULL, 0, 10000, NULL,
	  "attacker's figures within 18 cm (default all)" },
	{ "d_figurer", ORD_KEY_INT, 0, NULL, 0, 10000, NULL,
	  "defender's figures within 18 cm (default all)" },
	{ "a_geledder", ORD_KEY_INT, 0, NULL, 1, 6, NULL,
	  "attacker's ranks engaged (default by formation)" },
	{ "d_geledder", ORD_KEY_INT, 0, NULL, 1, 6, NULL,
	  "defender's ranks engaged (default by formation)" },
	FLAG_KEY("a_flag", "attacker's modifier flags: flanke,ryg,..."),
	FLAG_KEY("d_flag", "defender's modifier flags: hindring_ii,daekning_god,..."),
	{ "forfoelgelse", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "a pursuit attack on a unit in FU" },
	END_KEYS,
};
static const struct ord_key_spec flugt_keys[] = {
	UNIT_KEY("the fleeing unit"),
	{ "blokeret", ORD_KEY_BOOL, 0, NULL, 0, 0, "no", "it cannot flee (obstacles, enemy)" },
	END_KEYS,
};

const struct ord_event_kind ks_events[] = {
	{ "forstyrret", "reorganisering", forstyrret_keys,
	  "a unit is disturbed and does not reorganise" },
	{ "genforsyning", "reorganisering", genforsyning_keys, "a unit is resupplied with ammunition" },
	{ "reparation", "reorganisering", unit_keys, "a battery's crew repaired a damaged gun" },
	{ "angreb", "angrebserklaering", angreb_keys, "an attack is declared on a target" },
	{ "stoette", "angrebserklaering", stoette_keys,
	  "a support (2. træfning, naboenhed) is declared" },
	{ "reaktion", "angrebserklaering", reaktion_keys, "the defender states its reaction" },
	{ "flyt", "fredelige-flytninger", flyt_keys, "a unit moved to a new position (cm)" },
	{ "formation", "fredelige-flytninger", formation_keys, "a unit changed formation" },
	{ "front", "fredelige-flytninger", unit_keys, "a unit changed its front (drej, vending)" },
	{ "prods", "fredelige-flytninger", prods_keys, "a battery limbered or unlimbered" },
	{ "klargoering", "fredelige-flytninger", unit_keys, "a battery made its guns ready" },
	{ "skyd", "skydninger", skyd_keys, "small-arms fire at a target" },
	{ "artilleri", "skydninger", artilleri_keys, "artillery fire at a target" },
	{ "forsvarsild", "angrebshandlinger", forsvarsild_keys,
	  "a battery's defensive canister at an attacker" },
	{ "fortryd", "angrebshandlinger", unit_keys, "an attacker cancels its attack (U for the turn)" },
	{ "naerkamp", "angrebshandlinger", naerkamp_keys, "an attacker and a defender meet in melee" },
	{ "afbryd", "angrebshandlinger", unit_keys, "a unit breaks off the melee after the roll" },
	{ "flugt", "angrebshandlinger", flugt_keys, "a unit in FU flees (or cannot)" },
	{ NULL, NULL, NULL, NULL },
};

/* ---- units ---- */

struct ks_rules *ks_r(struct ord_ctx *ctx)
{
	return ks_rules(ord_ctx_rules(ctx));
}

long ks_st(const struct ord_unit *u, const char *key)
{
	return ord_kv_get_int(&u->state, key, 0);
}

double ks_st_num(const struct ord_unit *u, const char *key)
{
	return ord_kv_get_num(&u->state, key, 0);
}

void ks_st_set(struct ord_unit *u, const char *key, long v)
{
	ord_kv_set_int(&u->state, key, v);
}

void ks_st_set_num(struct ord_unit *u, const char *key, double v)
{
	struct ord_buf b = ORD_BUF_INIT;

	ord_tables_fmt(&b, v, 0);
	ord_kv_set(&u->state, key, b.buf);
	ord_buf_release(&b);
}

const char *ks_st_str(const struct ord_unit *u, const char *key)
{
	const char *s = ord_kv_get(&u->state, key);
	return s ? s : "";
}

const char *ks_art(const struct ord_unit *u)
{
	const char *a = ord_kv_get(&u->attrs, "art");
	return a ? a : "";
}

const char *ks_vaaben(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return ks_arm_vaaben(ks_r(ctx), ks_art(u));
}

const char *ks_klasse(struct ord_ctx *ctx, const struct ord_unit *u)
{
	const struct ord_row *row;

	if (ks_arm(ks_r(ctx), ks_art(u), &row)) {
		ord_error_clear();
		return "";
	}
	return ord_row_str(row, "klasse");
}

int ks_is(struct ord_ctx *ctx, const struct ord_unit *u, const char *vaaben)
{
	return !strcmp(ks_vaaben(ctx, u), vaaben);
}

const char *ks_form(const struct ord_unit *u)
{
	const char *f = ord_kv_get(&u->state, "formation");
	return f && *f ? f : "linie";
}

int ks_closed(struct ord_ctx *ctx, const struct ord_unit *u, const char *formation)
{
	return ks_formation_closed(ks_r(ctx), formation ? formation : ks_form(u), ks_vaaben(ctx, u));
}

int ks_british(const struct ord_unit *u)
{
	const char *n = ord_kv_get(&u->attrs, "nation");
	return n && (!strcmp(n, "britisk") || !strcmp(n, "engelsk"));
}

int ks_pieces(struct ord_ctx *ctx, const struct ord_unit *u)
{
	double per = ks_param(ks_r(ctx), "kanoner_pr_piece");
	long guns = ord_kv_get_int(&u->attrs, "kanoner", 0);

	return per > 0 ? (int)ceil(guns / per) : (int)guns;
}

int ks_figures(struct ord_ctx *ctx, const struct ord_unit *u)
{
	if (ks_is(ctx, u, "artilleri")) {
		long guns = ks_st(u, "kanoner");
		double per = ks_param(ks_r(ctx), "kanoner_pr_piece");
		int pieces = per > 0 ? (int)ceil(guns / per) : (int)guns;
		return pieces * (int)ks_param(ks_r(ctx), "besaetning_figurer_pr_piece");
	}
	return (int)ks_st(u, "figurer");
}

int ks_start_figures(struct ord_ctx *ctx, const struct ord_unit *u)
{
	if (ks_is(ctx, u, "artilleri"))
		return ks_pieces(ctx, u) * (int)ks_param(ks_r(ctx), "besaetning_figurer_pr_piece");
	return (int)ord_kv_get_int(&u->attrs, "figurer", 0);
}

int ks_gone(const struct ord_unit *u)
{
	return ks_st(u, "overgivet") || ks_st(u, "fjernet");
}

const char *ks_reason(const char *why, const char *lang)
{
	static const char *const words[][2] = {
		{ "formationsændring", "change of formation" },
		{ "frontændring", "change of front" },
		{ "hindring", "obstacle" },
		{ "løb", "løb" },
		{ "stormmarch", "stormmarch" },
		{ "ild", "fire" },
		{ "nærkamp", "melee" },
		{ "fortrydelse", "cancelled attack" },
		{ "ubedækket", "unescorted" },
		{ "eksplosion", "explosion" },
		{ "forsvarsild", "defensive fire" },
		{ "start", "at the start" },
	};
	size_t i;

	if (!why || !lang || strcmp(lang, "en"))
		return why ? why : "";
	for (i = 0; i < ORD_ARRAY_SIZE(words); i++)
		if (!strcmp(why, words[i][0]))
			return words[i][1];
	return why;
}

const char *ks_formation_name(struct ord_ctx *ctx, const struct ord_unit *u, const char *formation,
			      const char *lang)
{
	const struct ord_row *row;

	if (ks_formation(ks_r(ctx), formation, ks_vaaben(ctx, u), &row)) {
		ord_error_clear();
		return formation;
	}
	return ord_row_str(row, lang && !strcmp(lang, "en") ? "navn_en" : "navn");
}

int ks_half(struct ord_ctx *ctx, int second_half)
{
	return 2 * ord_ctx_turn(ctx) + (second_half ? 1 : 0);
}

int ks_moral_at(struct ord_ctx *ctx, const struct ord_unit *u, int h, struct ks_text *why)
{
	int grade = ks_moral_parse(ks_st_str(u, "moral"));
	long til = ks_st(u, "moral_til");
	long dec = ks_st(u, "decimering");
	int turn = ord_ctx_turn(ctx);

	if (grade < 0)
		grade = KS_OR;
	if (grade > KS_OR && til && til < h)
		grade = KS_OR;
	if (why && grade > KS_OR) {
		const char *g = ks_st_str(u, "moral_grund");
		ord_buf_addf(&why->da, "%s%s", g, *g ? ", " : "");
		ord_buf_addf(&why->en, "%s%s", ks_reason(g, "en"), *g ? ", " : "");
		if (til) {
			ord_buf_addf(&why->da, "til %s træk %ld",
				     til % 2 ? "slutningen af" : "midt i", til / 2);
			ord_buf_addf(&why->en, "until %s of turn %ld",
				     til % 2 ? "the end" : "the middle", til / 2);
		} else {
			ks_text_add(why, "til den reorganiseres", "until reorganised");
		}
	}
	/* decimation: LU (or U) for the rest of the battle, except in a turn
	 * the unit rested or won a melee that sent its enemy into FU (6.7) */
	if (dec && !ks_is(ctx, u, "artilleri")) {
		int floor_grade = dec >= 2 ? KS_U : KS_LU;
		int excused = dec == 1 && (ks_st(u, "vandt_fu_traek") == turn ||
					   ks_st(u, "hvilede_traek") == turn);
		if (!excused && floor_grade > grade) {
			grade = floor_grade;
			if (why)
				ks_text_add(why, "decimeret, resten af slaget",
					    "decimated, for the rest of the battle");
		}
	}
	/* cossacks in close order but march column are LU (8.5) */
	if (!strcmp(ks_art(u), "kosakker") && grade < KS_LU && ks_closed(ctx, u, NULL) &&
	    strcmp(ks_form(u), "marchkolonne")) {
		grade = KS_LU;
		if (why)
			ks_text_add(why, "kosakker i sluttet formation", "cossacks in close order");
	}
	return grade;
}

int ks_moral_now(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return ks_moral_at(ctx, u, ks_half(ctx, 0), NULL);
}

void ks_set_moral(struct ord_ctx *ctx, struct ord_unit *u, int grade, int until, const char *why)
{
	int cur = ks_moral_parse(ks_st_str(u, "moral"));
	long til = ks_st(u, "moral_til");
	int h = ks_half(ctx, 0);

	if (cur < 0 || (cur > KS_OR && til && til < h))
		cur = KS_OR;
	if (grade < cur)
		return;
	if (grade == cur && cur > KS_OR && (!til || (until && until <= til)))
		return; /* already as bad for as long */
	ord_kv_set(&u->state, "moral", ks_moral_name(grade));
	ks_st_set(u, "moral_til", grade == KS_OR ? 0 : until);
	ord_kv_set(&u->state, "moral_grund", why ? why : "");
	ks_st_set(u, "moral_traek", ord_ctx_turn(ctx));
}

void ks_take_men(struct ord_ctx *ctx, struct ord_unit *u, long men, long prisoners)
{
	struct ks_rules *r = ks_r(ctx);
	long lost, before;
	int start;

	if (men < 0)
		men = 0;
	if (prisoners < 0)
		prisoners = 0;
	if (!men && !prisoners)
		return;
	ks_st_set(u, "tab_mand", ks_st(u, "tab_mand") + men);
	ks_st_set(u, "fanger", ks_st(u, "fanger") + prisoners);
	if (prisoners)
		ks_st_set(u, "fanger_traek", ord_ctx_turn(ctx));
	if (ks_is(ctx, u, "artilleri"))
		return; /* a battery's crew does not count (1.3): materiel instead */
	start = (int)ord_kv_get_int(&u->attrs, "figurer", 0);
	lost = ks_st(u, "tab_mand") + ks_st(u, "fanger");
	before = ks_st(u, "figurer");
	{
		int now = ks_figures_after(r, start, lost) - (int)ks_st(u, "efternoelere");
		if (now < 0)
			now = 0;
		if (now > before)
			now = (int)before;
		ks_st_set(u, "figurer", now);
	}
}

/* ---- orders: the ordre notation's groups ---- */

size_t ks_groups(const struct ord_order *o, struct ks_group *g, size_t max)
{
	size_t i, n = 0;
	int after = 0;

	for (i = 0; o && i < o->ntok; i++) {
		const struct ord_token *t = &o->tok[i];
		if (t->kind == ORD_TOK_CODE) {
			if (n && n <= max)
				g[n - 1].end = i;
			if (!strcmp(t->value, "ordreaendring"))
				after = 1;
			if (n < max) {
				g[n].code = t->value;
				g[n].tok = t;
				g[n].first = i;
				g[n].end = o->ntok;
				g[n].after_change = after && strcmp(t->value, "ordreaendring");
			}
			n++;
		}
	}
	if (n && n <= max)
		g[n - 1].end = o->ntok;
	return n < max ? n : max;
}

const char *ks_grp_arg(const struct ord_order *o, const struct ks_group *g, const char *slot)
{
	size_t i;

	for (i = g->first; i < g->end; i++)
		if (o->tok[i].kind == ORD_TOK_ARG && o->tok[i].arg && !strcmp(o->tok[i].arg, slot))
			return o->tok[i].value;
	return NULL;
}

const struct ord_token *ks_grp_tok(const struct ord_order *o, const struct ks_group *g,
				   enum ord_tok_kind kind)
{
	size_t i;

	for (i = g->first; i < g->end; i++)
		if (o->tok[i].kind == kind)
			return &o->tok[i];
	return NULL;
}

int ks_grp_quarters(const struct ord_order *o, const struct ks_group *g)
{
	static const char *const whole[] = { "march",           "stormmarch", "tilbagetog",
					     "prolongering",    "skydning",   "artilleriskydning",
					     "forsvarsskydning" };
	const struct ord_token *f = ks_grp_tok(o, g, ORD_TOK_FRAC);
	size_t i;

	if (f)
		return f->num;
	if (!strcmp(g->code, "loeb") || !strcmp(g->code, "indskydning"))
		return 2;
	for (i = 0; i < ORD_ARRAY_SIZE(whole); i++)
		if (!strcmp(g->code, whole[i]))
			return 4;
	return 0;
}

int ks_grp_hex(const struct ord_order *o, const struct ks_group *g, int *q, int *r)
{
	const char *h = ks_grp_arg(o, g, "hex");

	return h && sscanf(h, "%d,%d", q, r) == 2;
}

const struct ks_group *ks_find(const struct ks_group *g, size_t n, const char *code)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(g[i].code, code))
			return &g[i];
	return NULL;
}

void ks_grp_formation(const struct ord_order *o, const struct ks_group *g, char *out, size_t n)
{
	const char *f = ks_grp_arg(o, g, "formation"), *d = ks_grp_arg(o, g, "density");

	if (!f)
		f = "";
	if (!strcmp(f, "skyttekaede") || !strcmp(f, "svaerm"))
		snprintf(out, n, "%s_%s", f, d ? d : "taet");
	else
		snprintf(out, n, "%s", f);
}

int ks_ordered(struct ord_ctx *ctx, const struct ord_unit *u, const char *code)
{
	const struct ord_order *o = ord_ctx_order(ctx, u);
	struct ks_group g[KS_MAX_GROUPS];
	size_t n = ks_groups(o, g, KS_MAX_GROUPS);

	return ks_find(g, n, code) != NULL;
}

void ks_result(struct ord_ctx *ctx, unsigned seq, const struct ord_unit *u,
	       const struct ord_kv *vals, struct ks_text *t)
{
	struct ord_buf b = ORD_BUF_INIT;

	ks_text_mark(t);
	ks_text_both(t, &b);
	ord_ctx_result(ctx, seq, u ? u->id : "", vals, "%s", b.buf);
	ord_buf_release(&b);
}

/* ---- load, units ---- */

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

	if (ks_arm(r, art, &arm)) {
		ord_diag_add(diag, 0, 0, u->id, "6.1", "%s", ord_error_last());
		ord_error_clear();
		return ORD_EBADDATA;
	}
	vaaben = ord_row_str(arm, "vaaben");
	if (!form)
		form = "linie";
	if (ks_formation(r, form, vaaben, &frow)) {
		ord_diag_add(diag, 0, 0, u->id, "11", "formation '%s' is not for %s (%s)", form,
			     ord_row_str(arm, "navn"), art);
		ord_error_clear();
	}
	if (!strcmp(vaaben, "artilleri")) {
		if (guns < 1)
			ord_diag_add(diag, 0, 0, u->id, "9.1",
				     "a battery needs kanoner (its guns and howitzers, at least 1)");
		if (how + gh > guns)
			ord_diag_add(diag, 0, 0, u->id, "9.1",
				     "haubitser (%ld) and kanonhaubitser (%ld) are more than kanoner (%ld)",
				     how, gh, guns);
	} else {
		if (fig < (long)ks_param(r, "mindste_enhed"))
			ord_diag_add(diag, 0, 0, u->id, "6.1",
				     "%s needs figurer, at least %g (a unit of 1 figure is lost, 11.1)",
				     ord_row_str(arm, "navn"), ks_param(r, "mindste_enhed"));
		if (guns)
			ord_diag_add(diag, 0, 0, u->id, "6.1", "only a battery has kanoner, not %s",
				     ord_row_str(arm, "navn"));
	}
	if (diag->n > before)
		return ORD_EBADDATA;

	ks_st_set(u, "figurer", strcmp(vaaben, "artilleri") ? fig : 0);
	ks_st_set(u, "tab_mand", 0);
	ks_st_set(u, "fanger", 0);
	ks_st_set(u, "efternoelere", 0);
	ord_kv_set(&u->state, "valeur",
		   ord_kv_get(&u->attrs, "valeur") ? ord_kv_get(&u->attrs, "valeur") : "6");
	v = ord_kv_get(&u->attrs, "moral");
	ord_kv_set(&u->state, "moral", v ? v : "OR");
	ks_st_set(u, "moral_til", 0);
	ord_kv_set(&u->state, "moral_grund", v && strcmp(v, "OR") ? "start" : "");
	ks_st_set(u, "decimering", 0);
	ord_kv_set(&u->state, "formation", form);
	ks_st_set(u, "foerste_salve",
		  ord_kv_get_bool(&u->attrs, "foerste_salve", 1) && !strcmp(vaaben, "infanteri"));
	ks_st_set(u, "foerste_storm",
		  ord_kv_get_bool(&u->attrs, "foerste_storm", 1) && !strcmp(vaaben, "kavaleri"));
	if (!strcmp(vaaben, "artilleri")) {
		ks_st_set(u, "kanoner", guns);
		ks_st_set(u, "beskadiget", 0);
		ks_st_set(u, "oedelagt", 0);
		ks_st_set(u, "prods_tab", 0);
		ks_st_set_num(u, "ks_fuldkugle", ks_param(r, "kanon_fuldkugle_granat") * guns);
		ks_st_set_num(u, "ks_kardaesk",
			      (ks_param(r, "kanon_kardaesk") - ks_param(r, "kanon_shrapnel")) * guns);
		ks_st_set_num(u, "ks_shrapnel", ks_param(r, "kanon_shrapnel") * guns);
		v = ord_kv_get(&u->attrs, "prodset");
		ord_kv_set(&u->state, "prodset", v ? v : "af");
		ks_st_set(u, "klargjort", ord_kv_get_bool(&u->attrs, "klargjort", 0));
	} else {
		double ks = 0;
		if (!strcmp(vaaben, "infanteri"))
			ks = ks_param(r, "infanteri");
		else if (ord_kv_get_bool(&u->attrs, "karabiner", 0))
			ks = ks_param(r, "kavaleri_karabiner");
		if (ord_kv_get(&u->attrs, "kampsatser"))
			ks = ord_kv_get_num(&u->attrs, "kampsatser", ks);
		ks_st_set_num(u, "kampsatser", ks);
	}
	if (ord_kv_get(&u->attrs, "x") && ord_kv_get(&u->attrs, "y")) {
		ord_kv_set(&u->state, "x", ord_kv_get(&u->attrs, "x"));
		ord_kv_set(&u->state, "y", ord_kv_get(&u->attrs, "y"));
	}
	ks_st_set(u, "overgivet", 0);
	ks_st_set(u, "fjernet", 0);
	return 0;
}

/* ---- reports ---- */

static void add_both(struct ks_text *t, const char *da, const char *en)
{
	ks_text_add(t, da, en);
}

static void describe_terrain(struct ord_ctx *ctx, const struct ord_unit *u, struct ks_text *t)
{
	struct ks_rules *r = ks_r(ctx);

	if (!ord_kv_get(&u->state, "x"))
		return;
	KS_TF(t, ", x=%s y=%s", ", x=%s y=%s", ks_st_str(u, "x"), ks_st_str(u, "y"));
	if (r->map) {
		ks_text_add(t, " (", " (");
		ks_map_describe(r, ks_st_num(u, "x"), ks_st_num(u, "y"), t);
		ks_text_add(t, ")", ")");
	}
}

static void formation_words(struct ord_ctx *ctx, const struct ord_unit *u, struct ks_text *t)
{
	add_both(t, ks_formation_name(ctx, u, ks_form(u), "da"),
		 ks_formation_name(ctx, u, ks_form(u), "en"));
}

static void arm_words(struct ord_ctx *ctx, const struct ord_unit *u, struct ks_text *t)
{
	const struct ord_row *row;

	if (ks_arm(ks_r(ctx), ks_art(u), &row)) {
		ord_error_clear();
		add_both(t, ks_art(u), ks_art(u));
		return;
	}
	add_both(t, ord_row_str(row, "navn"), ord_row_str(row, "navn_en"));
}

/* The whole map with the units' plates marked: the referee's report prints
 * it after the last unit (describe_unit is the module's only way into the
 * report; README "The map"). */
static void referee_map(struct ord_ctx *ctx, struct ord_buf *out)
{
	struct ks_rules *r = ks_r(ctx);
	struct ord_kv marks;
	struct ord_buf da = ORD_BUF_INIT, en = ORD_BUF_INIT;
	size_t i;

	if (!r->map)
		return;
	ord_kv_init(&marks);
	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		const struct ord_unit *v = ord_ctx_unit(ctx, i);
		int q, rr;
		char key[32];
		const char *had;
		if (ks_gone(v) || !ord_kv_get(&v->state, "x"))
			continue;
		ks_map_axial(r->map, ks_st_num(v, "x"), ks_st_num(v, "y"), &q, &rr);
		snprintf(key, sizeof(key), "%d,%d", q, rr);
		had = ord_kv_get(&marks, key);
		if (had) {
			struct ord_buf b = ORD_BUF_INIT;
			ord_buf_addf(&b, "%s %s", had, v->id);
			ord_kv_set(&marks, key, b.buf);
			ord_buf_release(&b);
		} else {
			ord_kv_set(&marks, key, v->id);
		}
	}
	ks_map_print(r, &marks, "da", &da);
	ks_map_print(r, &marks, "en", &en);
	ord_buf_adds(out, "\n⟦da⟧");
	ord_buf_add(out, da.buf, da.len);
	ord_buf_adds(out, "⟦en⟧");
	ord_buf_add(out, en.buf, en.len);
	ord_buf_adds(out, "⟦⟧");
	ord_kv_release(&marks);
	ord_buf_release(&da);
	ord_buf_release(&en);
}

static int ks_describe_unit(struct ord_ctx *ctx, const struct ord_unit *u, const char *viewer,
			    struct ord_buf *out)
{
	struct ks_text t;
	int own = !viewer || !strcmp(viewer, u->side);
	int art = ks_is(ctx, u, "artilleri"), grade;
	int h = ks_half(ctx, 0);

	ks_text_init(&t);
	KS_TF(&t, "%s %s (%s, ", "%s %s (%s, ", u->id, u->name, u->side);
	arm_words(ctx, u, &t);
	if (art)
		KS_TF(&t, " %s pund", " %s pdr",
		      ord_kv_get(&u->attrs, "kaliber") ? ord_kv_get(&u->attrs, "kaliber") : "6");
	KS_TF(&t, ", %s): ", ", %s): ",
	      ord_kv_get(&u->attrs, "nation") ? ord_kv_get(&u->attrs, "nation") : "ukendt");
	if (ks_st(u, "overgivet")) {
		ks_text_add(&t, "har overgivet sig", "has surrendered");
		goto done;
	}
	if (ks_st(u, "fjernet")) {
		ks_text_add(&t, "tabt og fjernet fra spillet", "lost and removed from the game");
		goto done;
	}
	grade = ks_moral_at(ctx, u, h, NULL);
	if (own) {
		if (art) {
			KS_TF(&t, "%ld kanoner", "%ld guns", ks_st(u, "kanoner"));
			if (ord_kv_get_int(&u->attrs, "haubitser", 0))
				KS_TF(&t, " (heraf %ld haubitser)", " (%ld of them howitzers)",
				      ord_kv_get_int(&u->attrs, "haubitser", 0));
			if (ks_st(u, "beskadiget") || ks_st(u, "oedelagt"))
				KS_TF(&t, ", %ld beskadiget, %ld ødelagt",
				      ", %ld damaged, %ld destroyed", ks_st(u, "beskadiget"),
				      ks_st(u, "oedelagt"));
			if (ks_st(u, "prods_tab"))
				KS_TF(&t, ", %ld prods tabt", ", %ld limbers lost",
				      ks_st(u, "prods_tab"));
			{
				int paa = !strcmp(ks_st_str(u, "prodset"), "paa");
				int klar = ks_st(u, "klargjort") != 0;
				ord_buf_addf(&t.da, ", %s, %s", paa ? "påprodset" : "afprodset",
					     klar ? "klargjort" : "ikke klargjort");
				ord_buf_addf(&t.en, ", %s, %s", paa ? "limbered" : "unlimbered",
					     klar ? "ready" : "not ready");
			}
			KS_TF(&t, "; kampsatser: fuldkugle/granat %s, kardæsk %s, shrapnel %s",
			      "; ammunition: roundshot/shell %s, canister %s, shrapnel %s",
			      ks_st_str(u, "ks_fuldkugle"), ks_st_str(u, "ks_kardaesk"),
			      ks_st_str(u, "ks_shrapnel"));
		} else {
			KS_TF(&t, "%ld af %ld figurer", "%ld of %ld figures", ks_st(u, "figurer"),
			      ord_kv_get_int(&u->attrs, "figurer", 0));
			if (ks_st(u, "tab_mand") || ks_st(u, "fanger") || ks_st(u, "efternoelere")) {
				const char *sep = "";
				ks_text_add(&t, " (", " (");
				if (ks_st(u, "tab_mand")) {
					KS_TF(&t, "%ld mand døde og sårede",
					      "%ld men killed and wounded", ks_st(u, "tab_mand"));
					sep = ", ";
				}
				if (ks_st(u, "fanger")) {
					KS_TF(&t, "%s%ld mand til fange",
					      "%s%ld men taken prisoner", sep, ks_st(u, "fanger"));
					sep = ", ";
				}
				if (ks_st(u, "efternoelere"))
					KS_TF(&t, "%s%ld figurer efternølere",
					      "%s%ld figures straggled", sep,
					      ks_st(u, "efternoelere"));
				ks_text_add(&t, ")", ")");
			}
			KS_TF(&t, ", valeur %s", ", valeur %s", ks_st_str(u, "valeur"));
			if (ks_st(u, "valeur") != ord_kv_get_int(&u->attrs, "valeur", 6))
				KS_TF(&t, " (start %ld)", " (start %ld)",
				      ord_kv_get_int(&u->attrs, "valeur", 6));
			ks_text_add(&t, ", ", ", ");
			formation_words(ctx, u, &t);
			if (ks_is(ctx, u, "infanteri") || ord_kv_get_bool(&u->attrs, "karabiner", 0))
				KS_TF(&t, ", %s kampsatser", ", %s rounds of ammunition",
				      ks_st_str(u, "kampsatser"));
			if (ks_st(u, "foerste_salve"))
				ks_text_add(&t, ", 1. skydning", ", first volley");
			if (ks_st(u, "foerste_storm"))
				ks_text_add(&t, ", 1. angreb i storm", ", first charge");
		}
		ks_text_add(&t, "; moral ", "; morale ");
		if (grade == KS_OR) {
			ks_text_add(&t, "OR (orden)", "OR (good order)");
		} else {
			struct ks_text why;
			ks_text_init(&why);
			ks_moral_at(ctx, u, h, &why);
			ord_buf_addf(&t.da, "%s (%s: %s)", ks_moral_name(grade),
				     ks_moral_words(grade, "da"), why.da.buf);
			ord_buf_addf(&t.en, "%s (%s: %s)", ks_moral_name(grade),
				     ks_moral_words(grade, "en"), why.en.buf);
			ks_text_release(&why);
		}
		if (ks_st(u, "decimering"))
			KS_TF(&t, "; decimeret (over %g%% tab)", "; decimated (over %g%% lost)",
			      ks_param(ks_r(ctx), ks_st(u, "decimering") >= 2 ? "decimering_u_pct"
									      : "decimering_lu_pct"));
		if (ks_st(u, "stormmarch_sidst"))
			KS_TF(&t, "; sidste stormmarch træk %ld", "; last stormmarch turn %ld",
			      ks_st(u, "stormmarch_sidst"));
		if (ks_st(u, "loeb_sidst"))
			KS_TF(&t, "; sidste løb træk %ld", "; last løb turn %ld",
			      ks_st(u, "loeb_sidst"));
		if (ks_st(u, "kamp_traek")) {
			ord_buf_addf(&t.da, "; %ld træk i kamp", ks_st(u, "kamp_traek"));
			ord_buf_addf(&t.en, "; %ld turn%s engaged", ks_st(u, "kamp_traek"),
				     ks_st(u, "kamp_traek") == 1 ? "" : "s");
		}
		if (ks_st(u, "flugt_traek")) {
			ord_buf_addf(&t.da, "; på flugt i %ld træk", ks_st(u, "flugt_traek"));
			ord_buf_addf(&t.en, "; fleeing for %ld turn%s", ks_st(u, "flugt_traek"),
				     ks_st(u, "flugt_traek") == 1 ? "" : "s");
		}
		if (ks_st(u, "britisk_kontrol_til") >= ord_ctx_turn(ctx))
			KS_TF(&t, "; ude af kontrol til træk %ld",
			      "; out of control until turn %ld", ks_st(u, "britisk_kontrol_til"));
		if (*ks_st_str(u, "indskudt_paa"))
			KS_TF(&t, "; indskudt på %s", "; ranged on %s", ks_st_str(u, "indskudt_paa"));
		describe_terrain(ctx, u, &t);
	} else {
		/* what the enemy sees on the table: figures, formation, state */
		if (art) {
			int paa = !strcmp(ks_st_str(u, "prodset"), "paa");
			ord_buf_addf(&t.da, "%ld kanoner, %s", ks_st(u, "kanoner"),
				     paa ? "påprodset" : "afprodset");
			ord_buf_addf(&t.en, "%ld guns, %s", ks_st(u, "kanoner"),
				     paa ? "limbered" : "unlimbered");
		} else {
			KS_TF(&t, "ca. %ld figurer", "about %ld figures", ks_st(u, "figurer"));
		}
		if (!art) {
			ks_text_add(&t, ", ", ", ");
			formation_words(ctx, u, &t);
		}
		KS_TF(&t, ", moral %s", ", morale %s", ks_moral_name(grade));
		describe_terrain(ctx, u, &t);
	}
done:
	ks_text_both(&t, out);
	ks_text_release(&t);
	/* the referee's report: the map after the last unit */
	if (!viewer && ord_ctx_unit_index(ctx, u) + 1 == ord_ctx_nunits(ctx))
		referee_map(ctx, out);
	return 0;
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
	/* version 2 */
	ks_draw, /* draw */
};
