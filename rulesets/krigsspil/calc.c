/*
 * calc.c - the Krigsspil rules computed from the Skema (calc.h): morale
 * grades, fire units, formations and ranks, decimation, small-arms fire,
 * artillery, the exploding limber and melee.  The Skema is loaded by
 * skema.c, explanations are written with text.c, the map is printed by
 * mapprint.c and the calculator is calculator.c.
 *
 * Every rule number comes from skema.xml; what stays in C is the order of
 * the steps the rule text describes (14: "1. tabs tillæg/fradrag ... 2.
 * moral ... 3. der kastes 3d6 ...") and the checking of inputs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/krigsspil/calc.h"

/* ---- morale ---------------------------------------------------------------- */

static const char *const moral_names[] = { "OR", "LU", "U", "FU" };

const char *ks_moral_name(int grade)
{
	return grade >= KS_OR && grade <= KS_FU ? moral_names[grade] : "?";
}

int ks_moral_parse(const char *s)
{
	int i;

	if (!s)
		return -1;
	if (!strcmp(s, "-"))
		return KS_OR;
	for (i = 0; i < 4; i++)
		if (!strcmp(s, moral_names[i]))
			return i;
	return -1;
}

const char *ks_moral_words(int grade, const char *lang)
{
	static const char *const da[] = { "orden", "let uorden", "uorden", "fuldstændig uorden" };
	static const char *const en[] = { "good order", "light disorder", "disorder", "rout" };

	if (grade < KS_OR || grade > KS_FU)
		return "?";
	return lang && !strcmp(lang, "en") ? en[grade] : da[grade];
}

void ks_morale_split(const struct ks_rules *r, int grade, int whole, int fired, int cap,
		     struct ks_morale_parts *p)
{
	double half = ks_param(r, "moral_fuld_andel") * whole - 1e-9;

	memset(p, 0, sizeof(*p));
	if (whole < 0)
		whole = 0;
	if (fired <= 0 || fired > whole)
		fired = whole;
	if (cap < 0)
		cap = 0;
	p->whole = whole;
	p->fired = fired;
	p->grade = grade > KS_OR ? grade : KS_OR;
	p->full = fired < cap ? fired : cap;
	p->rest = whole - p->full;
	p->rest_grade = KS_OR;
	/* 14: a part fired at by firers who could affect the whole unit */
	if (fired < whole && cap >= whole && p->grade > KS_OR)
		p->rest_grade = p->grade - 1;
	if (p->grade == KS_OR || whole == 0)
		p->unit_grade = KS_OR;
	else if (p->full >= half)
		p->unit_grade = p->grade;
	else if (p->rest_grade > KS_OR && p->full + p->rest >= half)
		p->unit_grade = p->rest_grade;
	else
		p->unit_grade = KS_OR;
}

/* ---- helpers ---------------------------------------------------------------- */

/* Is value one of the values of attr in the table?  ORD_EUSAGE naming key. */
static int check_word(const struct ks_rules *r, const char *key, const char *value,
		      const char *tname, const char *attr)
{
	return ord_table_check_word(ks_table(r, tname), key, value, attr);
}

/* The faces of the rules' die (the parameter terning). */
int ks_die(const struct ks_rules *r)
{
	return (int)ks_param(r, "terning");
}

static int check_dice(const struct ks_rules *r, const char *key, const int *d, int n)
{
	int i, sides = ks_die(r);

	for (i = 0; i < n; i++)
		if (d[i] < 1 || d[i] > sides)
			return ord_error_set(ORD_EUSAGE,
					     "%s: %d is not a face of a d%d (expected 1..%d)", key,
					     d[i], sides, sides);
	return 0;
}

/*
 * A modifiers table applied to base by the tables engine (sums, fractions
 * of base, per counts, then multipliers), each row applied written as
 * ", +3 zone I" in both languages (the rows' label and label_en); returns
 * the number of rows applied and the total in *out.
 */
static int apply_mods(const struct ks_rules *r, const char *name, double base,
		      const struct ord_kv *flags, double *out, struct ks_text *why)
{
	static const struct ord_apply_text da = { "label", 1 }, en = { "label_en", 1 };
	const struct ord_table *tbl = ks_table(r, name);
	size_t n = 0;

	ks_text_used(why, tbl);
	if (ord_table_apply_text(out, &n, tbl, base, flags, NULL, &da, &why->da) ||
	    ord_table_apply_text(out, NULL, tbl, base, flags, NULL, &en, &why->en)) {
		/* ks_load checked the table is a modifiers table */
		ord_error_clear();
		*out = base;
		return 0;
	}
	return (int)n;
}

static int sum3(const int *d)
{
	int i, sum = 0;

	for (i = 0; i < KS_DICE; i++)
		sum += d[i];
	return sum;
}

/* "3d6 = 11 (4+3+4)" */
static void text_roll(const struct ks_rules *r, struct ks_text *why, const int *d)
{
	int i;

	KS_TF(why, "%dd%d = %d (", "%dd%d = %d (", KS_DICE, ks_die(r), sum3(d));
	for (i = 0; i < KS_DICE; i++)
		KS_TF(why, "%s%d", "%s%d", i ? "+" : "", d[i]);
	ks_text_add(why, ")", ")");
}

/* Roman zone names as flag suffixes: I -> i. */
static void zone_flag(char *out, size_t n, const char *prefix, const char *zone)
{
	size_t i, len;

	snprintf(out, n, "%s%s", prefix, zone);
	len = strlen(out);
	for (i = strlen(prefix); i < len; i++)
		if (out[i] >= 'A' && out[i] <= 'Z')
			out[i] = (char)(out[i] - 'A' + 'a');
}

/* ---- units ---------------------------------------------------------------- */

int ks_arm(const struct ks_rules *r, const char *art, const struct ord_row **out)
{
	int err;

	if ((err = check_word(r, "art", art, "arme", "art")) != 0)
		return err;
	return ord_table_find1(out, ks_table(r, "arme"), "art", art);
}

const char *ks_arm_vaaben(const struct ks_rules *r, const char *art)
{
	const struct ord_row *row;

	if (ks_arm(r, art, &row)) {
		ord_error_clear();
		return "";
	}
	return ord_row_str(row, "vaaben");
}

int ks_formation(const struct ks_rules *r, const char *formation, const char *vaaben,
		 const struct ord_row **out)
{
	struct ord_kv m;
	int err;

	if ((err = check_word(r, "formation", formation, "formationer", "formation")) != 0)
		return err;
	ord_kv_init(&m);
	ord_kv_set(&m, "formation", formation);
	ord_kv_set(&m, "vaaben", vaaben);
	if (ord_table_find(out, ks_table(r, "formationer"), &m))
		err = ord_error_set(ORD_EUSAGE, "formation: %s cannot form %s", vaaben, formation);
	ord_kv_release(&m);
	return err;
}

int ks_formation_closed(const struct ks_rules *r, const char *formation, const char *vaaben)
{
	const struct ord_row *row;

	if (ks_formation(r, formation, vaaben, &row)) {
		ord_error_clear();
		return 1;
	}
	return !strcmp(ord_row_str(row, "sluttet"), "ja");
}

int ks_formation_nation_ok(const struct ord_row *row, const char *nation)
{
	const char *list = ord_row_attr(row, "nationer"), *p;
	size_t n = nation ? strlen(nation) : 0;

	if (!list || !strcmp(list, "-"))
		return 1;
	for (p = list; n && (p = strstr(p, nation)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return 1;
	return 0;
}

int ks_ranks(const struct ks_rules *r, const char *formation, const char *vaaben, int figures)
{
	const struct ord_row *row;
	double g, ming = 1, front, max = ks_param(r, "geledder_max");
	int ranks;

	if (ks_formation(r, formation, vaaben, &row)) {
		ord_error_clear();
		return 1;
	}
	ord_row_num(row, "min_geledder", &ming);
	if (!ord_row_num(row, "geledder", &g)) {
		ranks = (int)g;
	} else if (!ord_row_num(row, "front", &front) && front > 0) {
		ranks = (int)ceil(figures / front);
		if (ranks < (int)ming)
			ranks = (int)ming;
	} else {
		ranks = (int)ming;
	}
	ord_error_clear();
	if (max > 0 && ranks > (int)max)
		ranks = (int)max;
	return ranks < 1 ? 1 : ranks;
}

int ks_rank_figures(const struct ks_rules *r, const char *formation, const char *vaaben, int figures)
{
	const struct ord_row *row;
	double g, front, max = ks_param(r, "geledder_max");
	int n = figures;

	if (max <= 0 || ks_formation(r, formation, vaaben, &row)) {
		ord_error_clear();
		return figures;
	}
	if (!ord_row_num(row, "geledder", &g)) {
		/* a fixed number of ranks: all in them when they are few enough */
		if (g > max)
			n = (int)ceil(figures * max / g);
	} else if (!ord_row_num(row, "front", &front) && front > 0 && figures > front * max) {
		n = (int)(front * max);
	}
	ord_error_clear();
	return n < figures ? n : figures;
}

int ks_firing_figures(const struct ks_rules *r, const char *formation, const char *vaaben, int figures)
{
	const struct ord_row *row;
	double share = 1, fr = 1, front;
	int n = figures, ranks, width;

	if (ks_formation(r, formation, vaaben, &row)) {
		ord_error_clear();
		return figures;
	}
	ord_row_num(row, "skydeandel", &share);
	ord_row_num(row, "skydende_geledder", &fr);
	ranks = ks_ranks(r, formation, vaaben, figures);
	width = (int)ceil((double)figures / ranks);
	if (!ord_row_num(row, "front", &front) && front > 0 && width > (int)front)
		width = (int)front;
	ord_error_clear();
	if (ranks > (int)fr)
		n = width * (int)fr;
	if (n > (int)floor(figures * share + 1e-9))
		n = (int)floor(figures * share + 1e-9);
	if (n > figures)
		n = figures;
	return n < 0 ? 0 : n;
}

/* ---- movement (13) ------------------------------------------------------------ */

int ks_gait(const struct ks_rules *r, const char *art, const char *formation, const char *gang,
	    double *length, double *share, const struct ord_row **rowp)
{
	const struct ord_row *row, *mrow;
	const char *form, *som, *col, *only;
	struct ord_kv m;
	int err;

	*length = *share = 0;
	if ((err = check_word(r, "gang", gang, "gangarter", "gang")) != 0)
		return err;
	ord_kv_init(&m);
	ord_kv_set(&m, "gang", gang);
	ord_kv_set(&m, "art", art);
	if (ord_table_find(&row, ks_table(r, "gangarter"), &m)) {
		ord_kv_release(&m);
		return ord_error_set(ORD_EUSAGE, "gang: %s has no gait '%s' (table gangarter)", art,
				     gang);
	}
	ord_kv_release(&m);
	only = ord_row_str(row, "kun_fra");
	if (strcmp(only, "*") && strcmp(only, formation))
		return ord_error_set(ORD_EUSAGE, "gang: %s is used only from %s (13), not from %s",
				     ord_row_str(row, "navn"), only, formation);
	form = strcmp(ord_row_str(row, "formation"), "*") ? ord_row_str(row, "formation") : formation;
	som = strcmp(ord_row_str(row, "som_art"), "*") ? ord_row_str(row, "som_art") : art;
	col = ord_row_str(row, "kolonne");
	ord_kv_init(&m);
	ord_kv_set(&m, "art", som);
	ord_kv_set(&m, "formation", form);
	err = ord_table_find(&mrow, ks_table(r, "marchlaengder"), &m);
	ord_kv_release(&m);
	if (err || ord_row_num(mrow, col, length) || *length <= 0) {
		ord_error_clear();
		return ord_error_set(ORD_EUSAGE, "gang: %s in %s has no %s (Skema V: marchlaengder)",
				     art, formation, ord_row_str(row, "navn"));
	}
	ord_row_num(row, "andel", share);
	if (rowp)
		*rowp = row;
	return 0;
}

/* ", −¼ træk hindring II" and the like: a share of a turn in both languages. */
static void text_part(struct ks_text *t, const char *before_da, const char *before_en, double v,
		      const char *after_da, const char *after_en)
{
	ks_text_add(t, before_da, before_en);
	ks_fmt_part(&t->da, v);
	ks_fmt_part(&t->en, v);
	ks_text_add(t, after_da, after_en);
}

/* A ground's name in a language: the terrain's (table terraen), a road's
 * (table hindringer), else the word itself. */
static const char *ground_name(const struct ks_rules *r, const char *ground, const char *lang)
{
	static const char *const tables[][2] = { { "terraen", "terraen" }, { "hindringer", "element" } };
	const char *col = !strcmp(lang, "en") ? "navn_en" : "navn";
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(tables); i++) {
		const struct ord_row *row;
		struct ord_kv m;
		int err;
		ord_kv_init(&m);
		ord_kv_set(&m, tables[i][1], ground);
		err = ord_table_find(&row, ks_table(r, tables[i][0]), &m);
		ord_kv_release(&m);
		if (!err)
			return ord_row_str(row, col);
		ord_error_clear();
	}
	return ground;
}

unsigned ks_obstacle_bars(const char *vaaben, int closed, int grade, int stormmarch, const char *cls)
{
	int cav_or_guns = !strcmp(vaaben, "kavaleri") || !strcmp(vaaben, "artilleri");
	unsigned bars = 0;

	if (!*cls)
		return 0;
	if (stormmarch)
		bars |= KS_BAR_STORM;
	if (grade == KS_U && closed)
		bars |= KS_BAR_U_CLOSED;
	if (strcmp(cls, "I")) {
		if (cav_or_guns)
			bars |= KS_BAR_ARM;
		else if (grade == KS_U && !closed)
			bars |= KS_BAR_U_OPEN;
		else if (grade == KS_FU)
			bars |= KS_BAR_FU_FOOT;
	} else if (grade == KS_FU && !strcmp(vaaben, "artilleri")) {
		bars |= KS_BAR_FU_GUNS;
	}
	return bars;
}

enum ks_ground_bar ks_ground_bar(int grade, int closed, int column, int gun, int foot, int wood,
				 int road, int path, int edge)
{
	if (grade == KS_FU)
		return foot ? KS_GROUND_OK : KS_GROUND_FLIGHT;
	if (!closed)
		return foot ? KS_GROUND_OK : KS_GROUND_OPEN;
	if (column && (road || (!gun && path)))
		return KS_GROUND_OK; /* on the road, or a path */
	if (foot && wood && edge)
		return KS_GROUND_OK; /* in and out of the wood's edge */
	if (column)
		return gun ? KS_GROUND_GUN_ROAD : KS_GROUND_NO_PATH;
	return KS_GROUND_CLOSE;
}

void ks_obstacle_bar_words(struct ks_text *t, unsigned bar, const char *arm_da, const char *arm_en,
			   const char *cls)
{
	switch (bar) {
	case KS_BAR_STORM:
		ks_text_add(t, "hindringer kan ikke passeres i stormmarch",
			    "obstacles cannot be passed in stormmarch");
		break;
	case KS_BAR_U_CLOSED:
		ks_text_add(t, "en sluttet formation i U kan ikke passere hindringer",
			    "a close formation in U cannot pass obstacles");
		break;
	case KS_BAR_ARM:
		ord_buf_addf(&t->da, "%s kan ikke passere hindring %s", arm_da, cls);
		ord_buf_addf(&t->en, "%s cannot pass obstacle %s", arm_en, cls);
		break;
	case KS_BAR_U_OPEN:
		KS_TF(t, "en spredt formation i U kan ikke passere hindring %s",
		      "an open formation in U cannot pass obstacle %s", cls);
		break;
	case KS_BAR_FU_FOOT:
		KS_TF(t, "infanteri i FU kan ikke passere hindring %s",
		      "infantry in FU cannot pass obstacle %s", cls);
		break;
	case KS_BAR_FU_GUNS:
		ks_text_add(t, "artilleri i FU kan ikke passere hindringer",
			    "artillery in FU cannot pass obstacles");
		break;
	}
}

void ks_ground_bar_words(struct ks_text *t, const struct ks_rules *r, enum ks_ground_bar bar,
			 int foot_in_wood)
{
	switch (bar) {
	case KS_GROUND_FLIGHT:
		ks_text_add(t, "kan under flugt kun passeres af infanteri og kosakker",
			    "passed in flight only by infantry and cossacks");
		break;
	case KS_GROUND_OPEN:
		ks_text_add(t, "kan i spredt formation kun passeres af infanteri og kosakker",
			    "passed in open order only by infantry and cossacks");
		break;
	case KS_GROUND_GUN_ROAD:
		ks_text_add(t, "kan af artilleri kun passeres på vej",
			    "passed by artillery only on a road");
		break;
	case KS_GROUND_NO_PATH:
		ks_text_add(t, "kan i marchkolonne udenfor vej kun passeres på sti",
			    "passed in march column off the road only on a path");
		break;
	case KS_GROUND_CLOSE:
		ks_text_add(t, "kan i sluttet formation kun passeres i marchkolonne på sti",
			    "passed in close order only in march column on a path");
		if (foot_in_wood) {
			ks_text_add(t, "; infanteri og kosakker rykker kun ind i skovkanten, ",
				    "; infantry and cossacks enter only its edge, ");
			ks_text_num(t, ks_param(r, "skovkant_cm"));
			ks_text_add(t, " cm", " cm");
		}
		break;
	case KS_GROUND_OK: break;
	}
}

/* Why an obstacle of class cls bars the move (bars from ks_obstacle_bars),
 * in both languages, after ", hindring II". */
static void obstacle_bar_text(struct ks_text *t, unsigned bars, const struct ord_row *arm,
			      const char *cls)
{
	const char *sep = ": ";
	unsigned bit;

	for (bit = KS_BAR_STORM; bit <= KS_BAR_FU_GUNS; bit <<= 1)
		if (bars & bit) {
			ks_text_add(t, sep, sep);
			ks_obstacle_bar_words(t, bit, ord_row_str(arm, "navn"),
					      ord_row_str(arm, "navn_en"), cls);
			sep = "; ";
		}
	ks_text_add(t, " (13)", " (13)");
}

/* Why a stretch of wood or marsh bars the move (ks_ground_bar), in both
 * languages, after its name and cm. */
static void ground_bar_text(struct ks_text *t, const struct ks_rules *r, enum ks_ground_bar bar,
			    int foot_in_wood)
{
	ks_text_add(t, " (", " (");
	ks_ground_bar_words(t, r, bar, foot_in_wood);
	/* the calculator's own key for a path */
	if (bar == KS_GROUND_NO_PATH)
		ks_text_add(t, ": sti=yes", ": sti=yes");
	ks_text_add(t, ", 13)", ", 13)");
}

int ks_move(const struct ks_rules *r, const struct ks_move_in *in, struct ks_move_out *out,
	    struct ks_text *why)
{
	static const struct ord_apply_text da = { "label", 1 }, en = { "label_en", 1 };
	const struct ord_table *terr = ks_table(r, "march_terraen");
	const struct ord_table *tid = ks_table(r, "hindring_tidsfradrag");
	const struct ord_table *mods = ks_table(r, "march_faktorer");
	const struct ord_row *gait, *arm, *frow;
	struct ord_kv flags, m;
	struct ks_text t;
	double v, base, g = ks_param(r, "gennemmarch_faktor");
	const char *vaaben;
	size_t i;
	int err, free_passage, closed, grade;

	memset(out, 0, sizeof(*out));
	out->passable = 1;
	ks_text_init(&t);
	ord_kv_init(&flags);
	ord_kv_init(&m);
	if ((err = ks_arm(r, in->art, &arm)) != 0 ||
	    (err = ks_formation(r, in->formation, ord_row_str(arm, "vaaben"), &frow)) != 0 ||
	    (err = ks_gait(r, in->art, in->formation, in->gang, &out->length, &out->share, &gait)) != 0)
		goto out;
	out->time = in->time < 0 ? out->share : in->time;
	if (out->time > out->share + 1e-9) {
		struct ord_buf a = ORD_BUF_INIT;
		ks_fmt_part(&a, out->share);
		err = ord_error_set(ORD_EUSAGE, "tid: %s lasts at most %s turn (13, 6.5)",
				    ord_row_str(gait, "navn"), a.buf);
		ord_buf_release(&a);
		goto out;
	}
	if (in->through_cm < 0 || in->wheel_cm < 0) {
		err = ord_error_set(ORD_EUSAGE, "%s: below 0 cm",
				    in->through_cm < 0 ? "gennem_cm" : "drej_cm");
		goto out;
	}
	ks_text_used(&t, ks_table(r, "marchlaengder"));
	ord_buf_addf(&t.da, "%s, %s i %s: ", ord_row_str(gait, "navn"), ord_row_str(arm, "navn"),
		     ord_row_str(frow, "navn"));
	ord_buf_addf(&t.en, "%s, %s in %s: ", ord_row_str(gait, "navn_en"),
		     ord_row_str(arm, "navn_en"), ord_row_str(frow, "navn_en"));
	ks_text_num(&t, out->length);
	text_part(&t, " cm pr. træk × ", " cm a turn × ", out->time, " træk", " turn");
	/* obstacles: a deduction of time each, none for cavalry in line or
	 * swarm (13) */
	free_passage = !strcmp(ord_row_str(arm, "vaaben"), "kavaleri") &&
		       (!strcmp(in->formation, "linie") || !strncmp(in->formation, "svaerm", 6));
	vaaben = ord_row_str(arm, "vaaben");
	closed = !strcmp(ord_row_str(frow, "sluttet"), "ja");
	grade = !in->gang                       ? KS_OR
		: !strcmp(in->gang, "flugt")    ? KS_FU
		: !strcmp(in->gang, "retraete") ? KS_U
						: KS_OR;
	for (i = 0; i < in->nobstacles; i++) {
		const struct ord_row *row;
		unsigned bars = in->passage
					? ks_obstacle_bars(vaaben, closed, grade,
							   in->gang && !strcmp(in->gang, "stormmarch"),
							   in->obstacles[i])
					: 0;
		if (bars) {
			out->passable = 0;
			KS_TF(&t, ", hindring %s", ", obstacle %s", in->obstacles[i]);
			obstacle_bar_text(&t, bars, arm, in->obstacles[i]);
			continue;
		}
		ord_kv_set(&m, "klasse", in->obstacles[i]);
		if (ord_table_find(&row, tid, &m) || ord_row_num(row, "andel", &v)) {
			ord_error_clear();
			continue;
		}
		ks_text_used(&t, tid);
		if (free_passage) {
			KS_TF(&t, ", hindring %s uden tidsfradrag (kavaleri i linie og sværm)",
			      ", obstacle %s without deduction (cavalry in line and swarm)",
			      in->obstacles[i]);
			continue;
		}
		out->deduction += v;
		text_part(&t, ", −", ", −", v, " træk", " turn");
		KS_TF(&t, " hindring %s", " obstacle %s", in->obstacles[i]);
	}
	base = out->length * (out->time - out->deduction);
	if (base < 0)
		base = 0;
	ks_text_add(&t, " = ", " = ");
	ks_text_num(&t, base);
	ks_text_add(&t, " cm", " cm");
	/* half speeds: a retreat facing the enemy (17), cossacks in close
	 * order but march column (8.5); a flight is in FU, which has no
	 * formation (11), and cossacks flee at light cavalry's stormmarch (17) */
	if (in->facing_enemy)
		ord_kv_set(&flags, "front_mod_fjenden", "yes");
	if (!strcmp(in->art, "kosakker") && !strcmp(ord_row_str(frow, "sluttet"), "ja") &&
	    strcmp(in->formation, "marchkolonne") && (!in->gang || strcmp(in->gang, "flugt")))
		ord_kv_set(&flags, "kosak_sluttet", "yes");
	ks_text_used(&t, mods);
	if (ord_table_apply_text(&out->reach, NULL, mods, base, &flags, NULL, &da, &t.da) ||
	    ord_table_apply_text(&out->reach, NULL, mods, base, &flags, NULL, &en, &t.en)) {
		ord_error_clear();
		out->reach = base;
	}
	if (in->wheel_cm > 0) {
		out->reach -= in->wheel_cm;
		ks_text_add(&t, ", −", ", −");
		ks_text_num(&t, in->wheel_cm);
		ks_text_add(&t, " cm drej", " cm wheeling");
		if (out->reach < 0)
			out->reach = 0;
	}
	if (ord_kv_get(&flags, "front_mod_fjenden") || ord_kv_get(&flags, "kosak_sluttet") ||
	    in->wheel_cm > 0) {
		ks_text_add(&t, " = ", " = ");
		ks_text_num(&t, out->reach);
		ks_text_add(&t, " cm", " cm");
	}
	if (!in->nseg && in->through_cm <= 0)
		goto done;
	/* the ground: each stretch's cm over its faktor */
	ks_text_used(&t, terr);
	ks_text_add(&t, "; strækning:", "; ground:");
	ord_kv_release(&m);
	ord_kv_init(&m);
	for (i = 0; i < in->nseg; i++) {
		const struct ord_row *row;
		out->moved += in->seg[i].cm;
		ord_kv_set(&m, "terraen", in->seg[i].terrain);
		if (ord_table_find(&row, terr, &m)) {
			ord_error_clear();
			err = check_word(r, "terraen", in->seg[i].terrain, "march_terraen", "terraen");
			goto out;
		}
		ord_buf_addf(&t.da, "%s %s ", i ? "," : "", ground_name(r, in->seg[i].terrain, "da"));
		ord_buf_addf(&t.en, "%s %s ", i ? "," : "", ground_name(r, in->seg[i].terrain, "en"));
		ks_text_num(&t, in->seg[i].cm);
		ks_text_add(&t, " cm", " cm");
		if (in->passage &&
		    (!strcmp(in->seg[i].terrain, "skov") || !strcmp(in->seg[i].terrain, "sump"))) {
			int wood = !strcmp(in->seg[i].terrain, "skov");
			int foot = !strcmp(vaaben, "infanteri") || !strcmp(in->art, "kosakker");
			/* our reading: a stretch of wood no deeper than the
			 * edge is the edge */
			int edge = wood && in->seg[i].cm <= ks_param(r, "skovkant_cm") + 1e-9;
			enum ks_ground_bar bar = ks_ground_bar(grade, closed,
							       !strcmp(in->formation, "marchkolonne"),
							       !strcmp(vaaben, "artilleri"), foot,
							       wood, 0, in->path, edge);
			if (bar != KS_GROUND_OK) {
				out->passable = 0;
				ground_bar_text(&t, r, bar, foot && wood);
			}
		}
		if (ord_row_num(row, "faktor", &v) || v <= 0) {
			ord_error_clear();
			out->passable = 0;
			ks_text_add(&t, " (kan ikke passeres)", " (cannot be passed)");
			continue;
		}
		out->cost += in->seg[i].cm / v;
		if (v != 1) {
			text_part(&t, " ÷ ", " ÷ ", v, " = ", " = ");
			ks_text_num(&t, in->seg[i].cm / v);
			ks_text_add(&t, " cm", " cm");
		}
	}
	if (in->through_cm > 0 && g > 0) {
		double extra = in->through_cm / g - in->through_cm;
		out->cost += extra;
		ks_text_add(&t, ", gennemmarch ", ", marching through ");
		ks_text_num(&t, in->through_cm);
		text_part(&t, " cm i ", " cm at ", g, " hastighed: +", " speed: +");
		ks_text_num(&t, extra);
		ks_text_add(&t, " cm", " cm");
	}
	ks_text_add(&t, " = ", " = ");
	ks_text_num(&t, out->cost);
	ks_text_add(&t, " cm af ", " cm of ");
	ks_text_num(&t, out->reach);
	ks_text_add(&t, " cm", " cm");
	out->ok = out->passable && out->cost <= out->reach + 1e-6;
	if (in->passage && !out->passable)
		ks_text_add(&t, ": kan ikke passeres", ": cannot be passed");
	else if (out->ok)
		ks_text_add(&t, ": inden for marchlængden", ": within the march length");
	else
		ks_text_add(&t, ": længere end marchlængden", ": beyond the march length");
done:
	if (!in->nseg && in->through_cm <= 0)
		out->ok = out->passable;
	if (why)
		ks_text_cat(why, &t);
	err = 0;
out:
	ks_text_release(&t);
	ord_kv_release(&flags);
	ord_kv_release(&m);
	return err;
}

int ks_fire_units(const struct ks_rules *r, int figures, struct ks_text *why)
{
	int per = (int)ks_param(r, "figurer_pr_skydeenhed");
	int rest = (int)ks_param(r, "rest_figurer");
	int units;

	if (per < 1)
		per = 1;
	if (figures < 0)
		figures = 0;
	units = figures / per + (figures % per >= rest && rest > 0 ? 1 : 0);
	if (why) {
		ord_buf_addf(&why->da, "%d figurer = %d skydeenhed%s", figures, units,
			     units == 1 ? "" : "er");
		ord_buf_addf(&why->en, "%d figures = %d fire unit%s", figures, units,
			     units == 1 ? "" : "s");
	}
	return units;
}

int ks_pursuit_strength(const struct ks_rules *r, int figures, int cavalry)
{
	return (int)(figures * (cavalry ? ks_param(r, "forfoelgelse_kavaleri_gange") : 1));
}

int ks_pursuit_enough(const struct ks_rules *r, int attacker, int fleeing)
{
	return 100.0 * attacker >= ks_param(r, "forfoelgelse_pct") * fleeing;
}

int ks_decimation(const struct ks_rules *r, int start_figures, int figures)
{
	double lost;

	if (start_figures <= 0)
		return 0;
	lost = 100.0 * (start_figures - figures) / start_figures;
	if (lost > ks_param(r, "decimering_u_pct"))
		return 2;
	if (lost > ks_param(r, "decimering_lu_pct"))
		return 1;
	return 0;
}

int ks_decimation_men(const struct ks_rules *r, int start_figures, long lost_men, int *start, int *now)
{
	*start = start_figures * (int)ks_param(r, "mand_pr_figur");
	*now = lost_men > *start ? 0 : *start - (int)lost_men;
	return ks_decimation(r, *start, *now);
}

int ks_stragglers(const struct ks_rules *r, int figures)
{
	int n = (int)floor(figures * ks_param(r, "efternoelere_pct") / 100 + 1e-9);
	int min = (int)ks_param(r, "efternoelere_min");

	if (n < min)
		n = min;
	return n > figures ? figures : n;
}

int ks_figures_after(const struct ks_rules *r, int start_figures, long men_lost)
{
	double per = ks_param(r, "mand_pr_figur");
	long lost = per > 0 ? (long)floor(men_lost / per + 1e-9) : 0;

	return lost >= start_figures ? 0 : start_figures - (int)lost;
}

/* The morale part of a fire result (small arms: Skema X, artillery: XV):
 * the roll b with the morale modifiers mods, read in tbl's "moral" column,
 * then by parts (ks_morale_split): cap figures at most, fired of the
 * target's whole figures fired at. */
static int morale_effect(const struct ks_rules *r, struct ks_text *t, const struct ord_table *tbl,
			 const char *mods, double b, const struct ord_kv *flags, int cap, int whole,
			 int fired, double *total, int *grade, int *affected, int *grade_applied,
			 struct ks_morale_parts *parts)
{
	const struct ord_row *row;
	int err;

	ks_text_add(t, "; moral ", "; morale ");
	ks_text_num(t, b);
	if (apply_mods(r, mods, b, flags, total, t)) {
		ks_text_add(t, " = ", " = ");
		ks_text_num(t, *total);
	}
	if ((err = ord_table_dice(&row, tbl, NULL, *total)) != 0)
		return err;
	*grade = ks_moral_parse(ord_row_str(row, "moral"));
	if (*grade < 0)
		*grade = KS_OR;
	ks_morale_split(r, *grade, whole, fired, cap, parts);
	*affected = parts->full;
	*grade_applied = parts->unit_grade;
	if (!*grade) {
		ks_text_add(t, ": ingen påvirkning", ": no effect");
		return 0;
	}
	KS_TF(t, ": %s", ": %s", ks_moral_name(*grade));
	if (parts->full == whole)
		return 0;
	/* by parts (14, 15): the part affected, the rest, the unit */
	KS_TF(t, " for %d af %d figurer", " for %d of %d figures", parts->full, whole);
	if (parts->full < parts->fired)
		KS_TF(t, " (højst %d påvirkes)", " (at most %d are affected)", cap);
	else if (parts->fired < whole)
		ks_text_add(t, " (den beskudte del)", " (the part fired at)");
	if (parts->rest_grade > KS_OR)
		KS_TF(t, ", %s for de øvrige %d (en grad mindre mod resten, 14)",
		      ", %s for the other %d (one grade less against the rest, 14)",
		      ks_moral_name(parts->rest_grade), parts->rest);
	else
		KS_TF(t, ", de øvrige %d påvirkes ikke", ", the other %d are not affected",
		      parts->rest);
	ks_text_used_param(t, r, "moral_fuld_andel");
	KS_TF(t, "; enheden %s (den værste grad mindst ", "; the unit %s (the worst grade at least ",
	      parts->unit_grade ? ks_moral_name(parts->unit_grade) : "OR");
	ks_fmt_part(&t->da, ks_param(r, "moral_fuld_andel"));
	ks_fmt_part(&t->en, ks_param(r, "moral_fuld_andel"));
	ks_text_add(t, " af figurerne har, vores regel: modulet har én moral pr. enhed)",
		    " of its figures took, our rule: the module keeps one morale a unit)");
	return 0;
}

/* " × ½ (halvt træk)": what half a turn of fire leaves of the losses. */
static void text_half(struct ks_text *t, const struct ks_rules *r)
{
	ks_text_add(t, " × ", " × ");
	ks_fmt_part(&t->da, ks_param(r, "halvt_traek_tab"));
	ks_fmt_part(&t->en, ks_param(r, "halvt_traek_tab"));
	ks_text_add(t, " (halvt træk)", " (half a turn)");
}

/* ---- how far a weapon reaches (14, 15) ------------------------------------------ */

/* Does row's attribute key list value, or "*" (the lookups' rule)? */
static int row_lists(const struct ord_row *row, const char *key, const char *value)
{
	const char *v = ord_row_str(row, key);

	return v && (ord_words_has(v, value) || ord_words_has(v, "*"));
}

/* The bands of tbl whose k1 lists v1 (and k2 v2, when k2 is given; and of
 * zone `zone`, when given): the end of the last, -1 when none; their
 * zones in order into zones (may be NULL). */
static double reach_zone(const struct ord_table *tbl, const char *k1, const char *v1,
			 const char *k2, const char *v2, const char *zone, struct ord_buf *zones)
{
	double end = -1, to;
	size_t i;

	for (i = 0; tbl && v1 && i < ord_table_nrows(tbl); i++) {
		const struct ord_row *row = ord_table_row(tbl, i);
		if (!row_lists(row, k1, v1) || (k2 && (!v2 || !row_lists(row, k2, v2))) ||
		    (zone && (!ord_row_str(row, "zone") || strcmp(ord_row_str(row, "zone"), zone))))
			continue;
		if (ord_row_has_num(row, "to") && !ord_row_num(row, "to", &to) && to > end)
			end = to;
		if (zones && ord_row_str(row, "zone") &&
		    !ord_words_has(zones->buf, ord_row_str(row, "zone")))
			ord_words_add(zones, " ", ord_row_str(row, "zone"));
	}
	return end;
}

static double reach(const struct ord_table *tbl, const char *k1, const char *v1, const char *k2,
		    const char *v2, struct ord_buf *zones)
{
	return reach_zone(tbl, k1, v1, k2, v2, NULL, zones);
}

double ks_arms_reach(const struct ks_rules *r, const char *vaaben, struct ord_buf *zones)
{
	return reach(ks_table(r, "skudzoner"), "vaaben", vaaben, NULL, NULL, zones);
}

double ks_artillery_reach(const struct ks_rules *r, const char *kaliber, const char *ammo)
{
	const struct ord_row *row = NULL;

	if (!ammo || ord_table_find1(&row, ks_table(r, "ammunitionstyper"), "ammo", ammo)) {
		ord_error_clear();
		return -1;
	}
	return reach(ks_table(r, "artillerizoner"), "kaliber", kaliber, "gruppe",
		     ord_row_str(row, "gruppe"), NULL);
}

double ks_artillery_zone_end(const struct ks_rules *r, const char *kaliber, const char *ammo,
			     const char *zone)
{
	const struct ord_row *row = NULL;

	if (!ammo || ord_table_find1(&row, ks_table(r, "ammunitionstyper"), "ammo", ammo)) {
		ord_error_clear();
		return -1;
	}
	return reach_zone(ks_table(r, "artillerizoner"), "kaliber", kaliber, "gruppe",
			  ord_row_str(row, "gruppe"), zone, NULL);
}

/* The zone a small-arms fire is read at: the zone given when the weapon
 * has it, else the band of skudzoner holding the range; NULL out of
 * range.  ORD_EUSAGE for a range below 0. */
static int fire_zone(const struct ks_rules *r, const struct ks_fire_in *in, const char **zone)
{
	const struct ord_row *row;
	struct ord_kv m;
	size_t i;

	*zone = NULL;
	if (in->zone) {
		const struct ord_table *zones = ks_table(r, "skudzoner");
		for (i = 0; i < ord_table_nrows(zones); i++) {
			const struct ord_row *zr = ord_table_row(zones, i);
			if (!strcmp(ord_row_str(zr, "vaaben"), in->vaaben) &&
			    !strcmp(ord_row_str(zr, "zone"), in->zone))
				*zone = in->zone;
		}
		return 0;
	}
	if (!(in->range >= 0) || !isfinite(in->range))
		return ord_error_set(ORD_EUSAGE, "afstand: must be 0 cm or more");
	ord_kv_init(&m);
	ord_kv_set(&m, "vaaben", in->vaaben);
	if (ord_table_band(&row, ks_table(r, "skudzoner"), &m, in->range))
		ord_error_clear();
	else
		*zone = ord_row_str(row, "zone");
	ord_kv_release(&m);
	return 0;
}

/* The zones of a moving target (14) small arms can be read at, in the
 * order given, into ok: one the weapon does not reach is left out
 * ("såfremt dette er muligt"; the check refuses such a list, so it is an
 * overridden event's).  Their number. */
static int fire_zones(const struct ks_rules *r, const struct ks_fire_in *in, const char **ok)
{
	int i, n = 0;

	for (i = 0; i < in->nzones; i++) {
		struct ks_fire_in one = *in;
		const char *z = NULL;
		one.nzones = 0;
		one.zone = in->zones[i];
		if (!fire_zone(r, &one, &z) && z)
			ok[n++] = z;
	}
	return n;
}

/* The flags of the zone small-arms fire is read at (zone_ii). */
static void fire_zone_flags(const char *zone, struct ord_kv *flags)
{
	char zf[48];

	zone_flag(zf, sizeof(zf), "zone_", zone);
	ord_kv_set(flags, zf, "yes");
}

int ks_parse_zones(const char *list, const char *allowed, const char *key, const char **zones,
		   int *nzones)
{
	static const char *const names[] = { "I", "II", "III", "K" };
	const char *p = list;
	size_t i;

	*nzones = 0;
	while (p && *p) {
		size_t len = strcspn(p, ",");
		const char *z = NULL;
		int k;
		for (i = 0; i < ORD_ARRAY_SIZE(names); i++)
			if (len == strlen(names[i]) && !strncmp(p, names[i], len) &&
			    ord_words_has(allowed, names[i]))
				z = names[i];
		if (!z)
			return ord_error_set(ORD_EUSAGE, "%s: '%.*s' is no zone (expected %s)", key,
					     (int)len, p, allowed);
		for (k = 0; k < *nzones; k++)
			if (zones[k] == z)
				return ord_error_set(ORD_EUSAGE, "%s: zone %s given twice", key, z);
		zones[(*nzones)++] = z; /* at most one of each: KS_MAX_ZONES */
		p += len;
		if (*p == ',')
			p++;
	}
	if (*nzones < 2)
		return ord_error_set(ORD_EUSAGE,
				     "%s: give the two or more zones the moving target was as long in (zoner=I,II); one zone is zone=",
				     key);
	return 0;
}

double ks_zone_average_round(double avg)
{
	double whole = floor(fabs(avg) + 0.5 - 1e-9);

	return avg < 0 ? -whole : whole;
}

/* "+3", "+0", "−1.5" in both languages. */
static void text_signed(struct ks_text *t, double v)
{
	if (v >= 0)
		ks_text_add(t, "+", "+");
	ks_text_num(t, v);
}

/* "I/II" */
static void zones_join(struct ord_buf *b, const char *const *zones, int n)
{
	int i;

	for (i = 0; i < n; i++)
		ord_buf_addf(b, "%s%s", i ? "/" : "", zones[i]);
}

/* The loss columns ta and tb of a fire at a moving target as long in
 * each of zones (14, 15): the modifiers that are not the zone's written
 * as for one zone, then each zone's own (its flag, prefix and the zone:
 * zone_i, sf_ii) against them, and their average rounded
 * (ks_zone_average_round) added: "beregnes et gennemsnitligt
 * fradrag/tillæg".  The morale column takes no zone (Skema X and XV
 * have none there).  The total into *out. */
static void zone_average(const struct ks_rules *r, const char *ta, const char *tb, double roll,
			 const struct ord_kv *flags, const char *prefix, const char *const *zones,
			 int n, double *out, struct ks_text *t)
{
	double a, b0, sum = 0, avg, rounded;
	int i;

	apply_mods(r, ta, roll, flags, &a, t);
	apply_mods(r, tb, a, flags, &b0, t);
	ks_text_add(t, "; målet var lige længe i zonerne (14, 15):",
		    "; the target was as long in the zones (14, 15):");
	for (i = 0; i < n; i++) {
		struct ord_kv zf;
		char name[48];
		double za = a, zb = b0;
		ord_kv_init(&zf);
		ord_kv_copy(&zf, flags);
		zone_flag(name, sizeof(name), prefix, zones[i]);
		ord_kv_set(&zf, name, "yes");
		/* ks_load checked both are modifiers tables */
		if (ord_table_apply(&za, ks_table(r, ta), roll, &zf, NULL, NULL) ||
		    ord_table_apply(&zb, ks_table(r, tb), za, &zf, NULL, NULL))
			ord_error_clear();
		ord_kv_release(&zf);
		KS_TF(t, "%s zone %s ", "%s zone %s ", i ? "," : "", zones[i]);
		text_signed(t, zb - b0);
		sum += zb - b0;
	}
	avg = sum / n;
	rounded = ks_zone_average_round(avg);
	ks_text_add(t, ": gennemsnit ", ": average ");
	text_signed(t, avg);
	if (rounded != avg) {
		ks_text_add(t, ", afrundet ", ", rounded ");
		text_signed(t, rounded);
		ks_text_add(t, " (en halv mod nul, vores læsning)",
			    " (a half towards zero, our reading)");
	}
	*out = b0 + rounded;
	ks_text_add(t, " = ", " = ");
	ks_text_num(t, *out);
}

/* ", zone II; " of a fire, or of one at a moving target ", zone I/II
 * (lige længe i hver); ", with the zones given it cannot be read at left
 * out. */
static void text_zones(struct ks_text *t, const char *const *given, int ngiven,
		       const char *const *zones, int n, const char *zone)
{
	if (n > 1) {
		ks_text_add(t, ", zone ", ", zone ");
		zones_join(&t->da, zones, n);
		zones_join(&t->en, zones, n);
		ks_text_add(t, " (lige længe i hver)", " (as long in each)");
	} else {
		KS_TF(t, ", zone %s", ", zone %s", zone);
	}
	if (ngiven > 1 && n < ngiven) {
		ks_text_add(t, " (af zonerne ", " (of the zones ");
		zones_join(&t->da, given, ngiven);
		zones_join(&t->en, given, ngiven);
		ks_text_add(t, " kun dem der kan skydes på)", " only those it can fire at)");
	}
	ks_text_add(t, "; ", "; ");
}

void ks_fire_calc_flags(const struct ks_rules *r, const struct ks_fire_in *in, struct ord_kv *flags)
{
	const char *zone;

	/* a moving target in several zones has the average of theirs, no
	 * one zone's flag */
	if (in->nzones > 1 || !in->vaaben || fire_zone(r, in, &zone)) {
		ord_error_clear();
		return;
	}
	if (zone)
		fire_zone_flags(zone, flags);
}

/* The zone an artillery fire is read at: the zone given, else the band of
 * artillerizoner holding the range, when the ammunition is used at that
 * zone (ammunitionstyper's zoner); NULL out of range, or at a zone the
 * ammunition is not used at (shell at zone I: a shot that does nothing,
 * as one beyond the last band, never an error that stops the phase).
 * *band: the band the range falls in, NULL beyond the last or when the
 * zone is given. */
static int artillery_zone(const struct ks_rules *r, const struct ks_artillery_in *in,
			  const char **zone, const struct ord_row **band)
{
	const struct ord_row *ammo;
	struct ord_kv m;

	*zone = NULL;
	*band = NULL;
	if (ord_table_find1(&ammo, ks_table(r, "ammunitionstyper"), "ammo", in->ammo))
		return ORD_EUSAGE;
	if (in->zone) {
		if (ord_words_has(ord_row_str(ammo, "zoner"), in->zone))
			*zone = in->zone;
		return 0;
	}
	if (!(in->range >= 0) || !isfinite(in->range))
		return ord_error_set(ORD_EUSAGE, "afstand: must be 0 cm or more");
	ord_kv_init(&m);
	ord_kv_set(&m, "kaliber", in->kaliber);
	ord_kv_set(&m, "gruppe", ord_row_str(ammo, "gruppe"));
	if (ord_table_band(band, ks_table(r, "artillerizoner"), &m, in->range))
		ord_error_clear();
	else if (ord_words_has(ord_row_str(ammo, "zoner"), ord_row_str(*band, "zone")))
		*zone = ord_row_str(*band, "zone");
	ord_kv_release(&m);
	return 0;
}

/* The zones of a moving target (15) an artillery fire can be read at,
 * its ammunition used at (fire_zones). */
static int artillery_zones(const struct ks_rules *r, const struct ks_artillery_in *in, const char **ok)
{
	int i, n = 0;

	for (i = 0; i < in->nzones; i++) {
		struct ks_artillery_in one = *in;
		const struct ord_row *band;
		const char *z = NULL;
		one.nzones = 0;
		one.zone = in->zones[i];
		if (!artillery_zone(r, &one, &z, &band) && z)
			ok[n++] = z;
	}
	ord_error_clear();
	return n;
}

/* The flags of an artillery fire the calculation adds: the target's
 * column, the ammunition, at its zone (none for zone NULL: a moving
 * target's are averaged), the calibre (sf, sf_ii, kaliber_6). */
static void artillery_flags(const struct ks_artillery_in *in, const char *zone, struct ord_kv *flags)
{
	char f[32], pre[40], zf[48];

	/* Skema XV's target column: the game's flags say so, and the
	 * calculator's maal_artilleri=yes says it here (one path for both) */
	if (in->target_artillery)
		ord_kv_set(flags, "maal_artilleri", "yes");
	zone_flag(f, sizeof(f), "", in->ammo);
	ord_kv_set(flags, f, "yes");
	snprintf(pre, sizeof(pre), "%s_", f);
	if (zone) {
		zone_flag(zf, sizeof(zf), pre, zone);
		ord_kv_set(flags, zf, "yes");
	}
	snprintf(f, sizeof(f), "kaliber_%s", in->kaliber);
	ord_kv_set(flags, f, "yes");
}

void ks_artillery_calc_flags(const struct ks_rules *r, const struct ks_artillery_in *in,
			     struct ord_kv *flags)
{
	const struct ord_row *band;
	const char *zone, *zones[KS_MAX_ZONES];

	if (!in->ammo || !in->kaliber) /* ks_artillery says what is wrong */
		return;
	if (in->nzones > 1) { /* a moving target: no one zone's flag */
		if (artillery_zones(r, in, zones))
			artillery_flags(in, NULL, flags);
		return;
	}
	if (artillery_zone(r, in, &zone, &band)) {
		ord_error_clear();
		return;
	}
	if (zone)
		artillery_flags(in, zone, flags);
}

const char *ks_artillery_band(const struct ks_rules *r, const char *kaliber, const char *ammo,
			      double range)
{
	struct ks_artillery_in in;
	const struct ord_row *band;
	const char *zone;

	memset(&in, 0, sizeof(in));
	in.kaliber = kaliber;
	in.ammo = ammo;
	in.range = range;
	if (!ammo || !kaliber || artillery_zone(r, &in, &zone, &band)) {
		ord_error_clear();
		return NULL;
	}
	return band ? ord_row_str(band, "zone") : NULL;
}

int ks_artillery_reaches(const struct ks_rules *r, const struct ks_artillery_in *in)
{
	const struct ord_row *band;
	const char *zone, *zones[KS_MAX_ZONES];

	if (in->nzones > 1 && in->ammo && in->kaliber)
		return artillery_zones(r, in, zones) > 0;
	if (!in->ammo || !in->kaliber || artillery_zone(r, in, &zone, &band)) {
		ord_error_clear();
		return 1; /* ks_artillery says what is wrong */
	}
	return zone != NULL;
}

int ks_fire_reaches(const struct ks_rules *r, const struct ks_fire_in *in)
{
	const char *zone, *zones[KS_MAX_ZONES];

	if (in->nzones > 1 && in->vaaben)
		return fire_zones(r, in, zones) > 0;
	if (!in->vaaben || fire_zone(r, in, &zone)) {
		ord_error_clear();
		return 1; /* ks_fire says what is wrong */
	}
	return zone != NULL;
}

/* ---- small-arms fire ------------------------------------------------------------ */

int ks_fire(const struct ks_rules *r, const struct ks_fire_in *in, struct ks_fire_out *out,
	    struct ks_text *why)
{
	const struct ord_table *ztbl = ks_table(r, "skudzoner"), *x = ks_table(r, "skema_x");
	const struct ord_row *row;
	struct ord_kv flags;
	struct ks_text t;
	const char *zones[KS_MAX_ZONES];
	double tab, a, b;
	int err;

	memset(out, 0, sizeof(*out));
	ks_text_init(&t);
	ord_kv_init(&flags);
	if ((err = check_word(r, "vaaben", in->vaaben, "skudzoner", "vaaben")) != 0)
		goto out;
	if (in->figures < 0 || in->target_figures < 0) {
		err = ord_error_set(ORD_EUSAGE, "figurer: below 0");
		goto out;
	}
	if (in->fired_figures > in->target_figures) {
		err = ord_error_set(ORD_EUSAGE,
				    "beskudt_del: %d is more than the target's %d figures (14)",
				    in->fired_figures, in->target_figures);
		goto out;
	}
	ks_text_used(&t, ztbl);
	if (in->nzones > 1) {
		out->nzones = fire_zones(r, in, zones);
		out->zone = out->nzones ? zones[0] : NULL;
	} else if ((err = fire_zone(r, in, &out->zone)) != 0) {
		goto out;
	}
	if (!out->zone) {
		/* no dice: the game rolls none for a shot out of range */
		if (in->nzones > 1) {
			KS_TF(&t, "uden for skudvidde: %s når ingen af zonerne ",
			      "out of range: %s reaches none of the zones ", in->vaaben);
			zones_join(&t.da, in->zones, in->nzones);
			zones_join(&t.en, in->zones, in->nzones);
		} else if (in->zone)
			KS_TF(&t, "uden for skudvidde: %s når ikke zone %s",
			      "out of range: %s does not reach zone %s", in->vaaben, in->zone);
		else
			KS_TF(&t, "uden for skudvidde: %s på %g cm", "out of range: %s at %g cm",
			      in->vaaben, in->range);
		goto done;
	}
	if ((err = check_dice(r, "dice", in->dice, KS_DICE)) != 0)
		goto out;
	out->in_range = 1;
	if (in->flags)
		ord_kv_copy(&flags, in->flags);
	if (out->nzones < 2)
		fire_zone_flags(out->zone, &flags);

	out->fire_units = ks_fire_units(r, in->figures, &t);
	text_zones(&t, in->zones, in->nzones, zones, out->nzones, out->zone);
	out->roll = sum3(in->dice);
	text_roll(r, &t, in->dice);
	if (out->nzones > 1) {
		zone_average(r, "skema_x_tab_a", "skema_x_tab_b", out->roll, &flags, "zone_", zones,
			     out->nzones, &b, &t);
	} else if (apply_mods(r, "skema_x_tab_a", out->roll, &flags, &a, &t) +
		   apply_mods(r, "skema_x_tab_b", a, &flags, &b, &t)) {
		ks_text_add(&t, " = ", " = ");
		ks_text_num(&t, b);
	}
	out->loss_total = b;
	ks_text_used(&t, x);
	if ((err = ord_table_dice(&row, x, NULL, b)) != 0)
		goto out;
	ord_row_num(row, "tab", &tab);
	out->men_per_unit = tab;
	out->men = (int)floor(
		tab * out->fire_units * (in->half ? ks_param(r, "halvt_traek_tab") : 1) + 1e-9);
	ord_buf_addf(&t.da, ": Skema X %g mand pr. skydeenhed × %d", tab, out->fire_units);
	ord_buf_addf(&t.en, ": Skema X %g %s per fire unit × %d", tab, tab == 1 ? "man" : "men",
		     out->fire_units);
	if (in->half)
		text_half(&t, r);
	ord_buf_addf(&t.da, " = %d mand", out->men);
	ord_buf_addf(&t.en, " = %d %s", out->men, ks_nword(r, out->men, "man", "men"));
	/* "Ved beskydning af artilleri omregnes tab i mand til materiel tab
	 * jvf. Skema XV" is a step of the artillery's fire alone (15), read
	 * in men per firing gun; small arms' procedure has none (14), and a
	 * battery's crew is not counted ("antallet er uden betydning i
	 * spillet", 1.3): our reading, the battery loses nothing, its morale
	 * is read as any target's */
	if (in->at_battery) {
		out->men = 0;
		ks_text_add(&t,
			    ": et batteri mister intet ved håndvåbenild (vores læsning: besætningens "
			    "antal er uden betydning, 1.3, og kun artilleriets tab i mand omregnes "
			    "til materiel, 15)",
			    ": a battery loses nothing to small arms (our reading: its crew's number "
			    "does not count, 1.3, and only artillery's losses in men become "
			    "materiel, 15)");
	}

	if ((err = morale_effect(r, &t, x, "skema_x_moral", b, &flags,
				 (int)(ks_param(r, "moral_pr_skydende_figur") * in->figures),
				 in->target_figures, in->fired_figures, &out->morale_total,
				 &out->grade, &out->affected, &out->grade_applied, &out->parts)) != 0)
		goto out;
done:
	if (why)
		ks_text_cat(why, &t);
out:
	ks_text_release(&t);
	ord_kv_release(&flags);
	return err;
}

/* ---- artillery -------------------------------------------------------------- */

int ks_artillery(const struct ks_rules *r, const struct ks_artillery_in *in,
		 struct ks_artillery_out *out, struct ks_text *why)
{
	const struct ord_table *xv = ks_table(r, "skema_xv");
	const struct ord_table *zones = ks_table(r, "artillerizoner");
	const struct ord_row *ammo, *row;
	struct ord_kv m, flags;
	struct ks_text t;
	const char *zs[KS_MAX_ZONES];
	double tab, a, b, share = in->half ? ks_param(r, "halvt_traek_tab") : 1;
	int err, pieces;

	memset(out, 0, sizeof(*out));
	ks_text_init(&t);
	ord_kv_init(&m);
	ord_kv_init(&flags);
	if ((err = check_word(r, "ammo", in->ammo, "ammunitionstyper", "ammo")) != 0 ||
	    (err = check_word(r, "kaliber", in->kaliber, "artillerizoner", "kaliber")) != 0)
		goto out;
	if (in->guns < 1) {
		err = ord_error_set(ORD_EUSAGE, "kanoner: at least 1 gun must fire");
		goto out;
	}
	if (in->fired_figures > in->target_figures) {
		err = ord_error_set(ORD_EUSAGE,
				    "beskudt_del: %d is more than the target's %d figures (15)",
				    in->fired_figures, in->target_figures);
		goto out;
	}
	ks_text_used(&t, zones);
	row = NULL;
	if (in->nzones > 1) {
		out->nzones = artillery_zones(r, in, zs);
		out->zone = out->nzones ? zs[0] : NULL;
	} else if ((err = artillery_zone(r, in, &out->zone, &row)) != 0) {
		goto out;
	}
	ord_table_find1(&ammo, ks_table(r, "ammunitionstyper"), "ammo", in->ammo);
	if (!out->zone) {
		/* no dice: the game rolls none for a shot out of range, nor for
		 * one at a zone its ammunition is not used at */
		if (in->nzones > 1) {
			KS_TF(&t, "uden for skudvidde: %s (%s) bruges på zone %s, ikke zone ",
			      "out of range: %s (%s) is fired at zones %s, not zone ", in->ammo,
			      ord_row_str(ammo, "navn"), ord_row_str(ammo, "zoner"));
			zones_join(&t.da, in->zones, in->nzones);
			zones_join(&t.en, in->zones, in->nzones);
		} else if (in->zone)
			KS_TF(&t, "uden for skudvidde: %s (%s) bruges på zone %s, ikke zone %s",
			      "out of range: %s (%s) is fired at zones %s, not zone %s", in->ammo,
			      ord_row_str(ammo, "navn"), ord_row_str(ammo, "zoner"), in->zone);
		else if (!row)
			KS_TF(&t, "uden for skudvidde: %s pund %s på %g cm",
			      "out of range: %s pdr %s at %g cm", in->kaliber, in->ammo, in->range);
		else /* the words of 2026-12-02.4, kept so its games replay */
			KS_TF(&t, "%s kan ikke bruges på zone %s (%g cm)",
			      "%s cannot be used at zone %s (%g cm)", ord_row_str(ammo, "navn"),
			      ord_row_str(row, "zone"), in->range);
		goto done;
	}
	if ((err = check_dice(r, "dice", in->dice, KS_DICE)) != 0)
		goto out;
	out->in_range = 1;
	if (in->flags)
		ord_kv_copy(&flags, in->flags);
	artillery_flags(in, out->nzones > 1 ? NULL : out->zone, &flags);

	ord_buf_addf(&t.da, "%d kanon%s, %s pund, %s (%s)", in->guns, in->guns == 1 ? "" : "er",
		     in->kaliber, in->ammo, ord_row_str(ammo, "navn"));
	ord_buf_addf(&t.en, "%d gun%s, %s pdr, %s (%s)", in->guns, in->guns == 1 ? "" : "s",
		     in->kaliber, in->ammo, ord_row_str(ammo, "navn_en"));
	text_zones(&t, in->zones, in->nzones, zs, out->nzones, out->zone);
	out->roll = sum3(in->dice);
	text_roll(r, &t, in->dice);
	if (out->nzones > 1) {
		char pre[40];
		zone_flag(pre, sizeof(pre) - 1, "", in->ammo);
		strcat(pre, "_");
		zone_average(r, "skema_xv_tab_a", "skema_xv_tab_b", out->roll, &flags, pre, zs,
			     out->nzones, &b, &t);
	} else if (apply_mods(r, "skema_xv_tab_a", out->roll, &flags, &a, &t) +
		   apply_mods(r, "skema_xv_tab_b", a, &flags, &b, &t)) {
		ks_text_add(&t, " = ", " = ");
		ks_text_num(&t, b);
	}
	out->loss_total = b;
	ks_text_used(&t, xv);
	if ((err = ord_table_dice(&row, xv, NULL, b)) != 0)
		goto out;
	ord_row_num(row, "tab", &tab);
	out->men_per_gun = tab;
	if (in->target_artillery) {
		const struct ord_table *mt = ks_table(r, "skema_xv_materiel");
		double per = tab * share, v;
		ord_kv_release(&m);
		ord_kv_init(&m);
		ord_kv_set(&m, "maal", "artilleri");
		pieces = (int)ceil(in->guns / fmax(1, ks_param(r, "kanoner_pr_piece")));
		ks_text_used(&t, mt);
		if ((err = ord_table_band(&row, mt, &m, per)) != 0)
			goto out;
		ord_row_num(row, "beskadiget", &v);
		out->damaged = (int)v * pieces;
		ord_row_num(row, "oedelagt", &v);
		out->destroyed = (int)v * pieces;
		ord_row_num(row, "prods", &v);
		out->limbers = (int)v * pieces;
		ord_buf_addf(&t.da, ": Skema XV %g mand pr. kanon", tab);
		ord_buf_addf(&t.en, ": Skema XV %g %s per gun", tab, tab == 1 ? "man" : "men");
		if (in->half) {
			ks_text_add(&t, " × ", " × ");
			ks_fmt_part(&t.da, share);
			ks_fmt_part(&t.en, share);
		}
		ord_buf_addf(&t.da,
			     " → materiel for %d piece%s: %d beskadiget, %d ødelagt, %d prods ødelagt",
			     pieces, pieces == 1 ? "" : "r", out->damaged, out->destroyed,
			     out->limbers);
		ord_buf_addf(&t.en,
			     " → materiel for %d piece%s: %d damaged, %d destroyed, %d limbers destroyed",
			     pieces, pieces == 1 ? "" : "s", out->damaged, out->destroyed,
			     out->limbers);
	} else {
		out->men = (int)floor(tab * in->guns * share + 1e-9);
		ord_buf_addf(&t.da, ": Skema XV %g mand pr. kanon × %d", tab, in->guns);
		ord_buf_addf(&t.en, ": Skema XV %g %s per gun × %d", tab, tab == 1 ? "man" : "men",
			     in->guns);
		if (in->half)
			text_half(&t, r);
		ord_buf_addf(&t.da, " = %d mand", out->men);
		ord_buf_addf(&t.en, " = %d %s", out->men, ks_nword(r, out->men, "man", "men"));
	}
	if ((err = morale_effect(r, &t, xv, "skema_xv_moral", b, &flags,
				 (int)(ks_param(r, "moral_pr_kanon") * in->guns), in->target_figures,
				 in->fired_figures, &out->morale_total, &out->grade, &out->affected,
				 &out->grade_applied, &out->parts)) != 0)
		goto out;
done:
	if (why)
		ks_text_cat(why, &t);
out:
	ks_text_release(&t);
	ord_kv_release(&m);
	ord_kv_release(&flags);
	return err;
}

int ks_explosion(const struct ks_rules *r, int die, double ammo, double *share, int *fire_units,
		 struct ks_text *why)
{
	const struct ord_table *tbl = ks_table(r, "eksplosion");
	const struct ord_row *row;
	double per = ks_param(r, "eksplosion_kampsatser_pr_skydeenhed"), exploded;
	int err;

	*share = 0;
	*fire_units = 0;
	if ((err = check_dice(r, "dice", &die, 1)) != 0)
		return err;
	if (ammo < 0)
		return ord_error_set(ORD_EUSAGE, "kampsatser: below 0");
	if ((err = ord_table_dice(&row, tbl, NULL, die)) != 0)
		return err;
	ord_row_num(row, "andel", share);
	exploded = *share * ammo;
	*fire_units = per > 0 ? (int)floor(exploded / per + 1e-9) : 0;
	if (why) {
		ks_text_used(why, tbl);
		if (*share > 0) /* its fire units are counted by a provisional number */
			ks_text_used_param(why, r, "eksplosion_kampsatser_pr_skydeenhed");
		KS_TF(why, "1d%d = %d: ", "1d%d = %d: ", ks_die(r), die);
		if (*share <= 0) {
			ks_text_add(why, "ammunitionen eksploderer ikke",
				    "the ammunition does not explode");
		} else {
			ks_text_add(why, *share >= 1 ? "alt" : "halvdelen",
				    *share >= 1 ? "all" : "half");
			ks_text_add(why, " (", " (");
			ks_text_num(why, exploded);
			ks_text_add(why, " af ", " of ");
			ks_text_num(why, ammo);
			ord_buf_addf(&why->da, " kampsatser) eksploderer = %d %s fuldkugle",
				     *fire_units,
				     ks_nword(r, *fire_units, "skydeenhed", "skydeenheder"));
			ord_buf_addf(&why->en, " kampsatser) explodes = %d %s of roundshot",
				     *fire_units, ks_nword(r, *fire_units, "fire unit", "fire units"));
		}
	}
	return 0;
}

/* ---- melee ----------------------------------------------------------------------- */

/* "angriber 6 figurer (2 nærkampsenheder): " in both languages. */
static void melee_side(const struct ks_rules *r, struct ks_text *t, const char *da, const char *en,
		       int figures, int units)
{
	ord_buf_addf(&t->da, "%s %d %s (%d %s): ", da, figures,
		     ks_nword(r, figures, "figur", "figurer"), units,
		     ks_nword(r, units, "nærkampsenhed", "nærkampsenheder"));
	ord_buf_addf(&t->en, "%s %d %s (%d %s): ", en, figures,
		     ks_nword(r, figures, "figure", "figures"), units,
		     ks_nword(r, units, "melee unit", "melee units"));
}

void ks_melee_numbers(const struct ks_rules *r, int own, int other, struct ord_kv *flags)
{
	int from = (int)ks_param(r, "tal_gange_fra"), max = (int)ks_param(r, "tal_gange_max");
	double step = ks_param(r, "tal_trin_pct"), top = ks_param(r, "tal_trin_max_pct");

	if (own <= other || other <= 0)
		return;
	if (from > 1 && own >= from * other) {
		int k, times = own / other;
		if (times > max)
			times = max;
		for (k = from; k <= times; k++) {
			char f[32]; /* room for any int: gcc -O0 -Werror=format-truncation */
			snprintf(f, sizeof(f), "gange_%d", k);
			ord_kv_set(flags, f, "yes");
		}
	} else if (step > 0) {
		int steps = (int)floor(100.0 * (own - other) / other / step + 1e-9);
		if (steps > (int)floor(top / step + 1e-9))
			steps = (int)floor(top / step + 1e-9);
		if (steps > 0)
			ord_kv_set_int(flags, "pct_flere", steps);
	}
}

const char *ks_rifle_flag(const struct ks_rules *r, const char *use, double share,
			  const char *musket_zone, const char *rifle_zone)
{
	const struct ord_table *t = ord_tables_get(r->tables, "riffel_andele");
	size_t i;

	for (i = 0; t && i < ord_table_nrows(t); i++) {
		const struct ord_row *row = ord_table_row(t, i);
		const char *b = ord_row_str(row, "brug");
		const char *mz = ord_row_str(row, "musket_zone"),
			   *rz = ord_row_str(row, "riffel_zone");
		double from;

		if (!b || strcmp(b, use) || ord_row_num(row, "fra", &from) || share < from)
			continue;
		if ((mz && (!musket_zone || strcmp(mz, musket_zone))) ||
		    (rz && (!rifle_zone || strcmp(rz, rifle_zone))))
			continue;
		return ord_row_str(row, "flag");
	}
	ord_error_clear();
	return NULL;
}

/* The arm's klasse (tung, middel, kosak ...), "" when unknown. */
static const char *arm_klasse(const struct ks_rules *r, const char *art)
{
	const struct ord_row *row;

	if (ks_arm(r, art, &row)) {
		ord_error_clear();
		return "";
	}
	return ord_row_str(row, "klasse");
}

void ks_melee_arm_flags(const struct ks_rules *r, const struct ks_melee_arm *x,
			const struct ks_melee_arm *enemy, int attacker, struct ord_kv *flags)
{
	const char *v = ks_arm_vaaben(r, x->art), *ev = ks_arm_vaaben(r, enemy->art);
	const char *f = x->formation, *ef = enemy->formation, *k = arm_klasse(r, x->art);
	int closed = ks_formation_closed(r, f, v);
	/* cossacks in close order but march column count as open when
	 * attacked (8.5) */
	int enemy_open = !ks_formation_closed(r, ef, ev) ||
			 (!strcmp(enemy->art, "kosakker") && strcmp(ef, "marchkolonne"));

	if (!strcmp(v, "kavaleri")) {
		if (!strcmp(k, "tung"))
			ord_kv_set(flags, "tung", "yes");
		else if (!strcmp(k, "middel"))
			ord_kv_set(flags, "middel", "yes");
		else if (!strcmp(k, "kosak"))
			ord_kv_set(flags, "kosak", "yes");
		if (attacker && !strcmp(f, "angrebskolonne"))
			ord_kv_set(flags, "angrebskolonne_kav", "yes");
		if (!strcmp(ev, "infanteri") && strcmp(ef, "karre") &&
		    strcmp(ef, "bataillonsmasse") && strcmp(ef, "hob"))
			ord_kv_set(flags, "kavaleri_mod_infanteri", "yes");
	}
	if (!strcmp(v, "infanteri")) {
		const char *rf = ks_rifle_flag(r, "naerkamp", x->rifler, NULL, NULL);
		if (attacker && !strcmp(f, "angrebskolonne") &&
		    (!strcmp(ev, "infanteri") || !strcmp(ev, "artilleri")))
			ord_kv_set(flags, "angrebskolonne_inf", "yes");
		if (x->british && !strcmp(f, "linie"))
			ord_kv_set(flags, "engelsk_linie", "yes");
		if (rf)
			ord_kv_set(flags, rf, "yes");
		if (!strcmp(ev, "kavaleri") && !strcmp(f, "karre"))
			ord_kv_set(flags, "karre_mod_kavaleri", "yes");
		if (!strcmp(ev, "kavaleri") && !strcmp(f, "bataillonsmasse"))
			ord_kv_set(flags, "masse_mod_kavaleri", "yes");
	}
	if (attacker && closed && enemy_open)
		ord_kv_set(flags, "sluttet_mod_spredt", "yes");
}

static int melee_losses(const struct ks_rules *r, const char *part, int difference, double *tab,
			double *fanger)
{
	struct ord_kv m;
	const struct ord_row *row;
	int err;

	ord_kv_init(&m);
	ord_kv_set(&m, "part", part);
	err = ord_table_band(&row, ks_table(r, "skema_xv_naerkamp_tab"), &m, difference);
	ord_kv_release(&m);
	if (err)
		return err;
	ord_row_num(row, "tab", tab);
	ord_row_num(row, "fanger", fanger);
	return 0;
}

int ks_melee(const struct ks_rules *r, const struct ks_melee_in *in, struct ks_melee_out *out,
	     struct ks_text *why)
{
	const struct ord_table *xx = ks_table(r, "skema_xx");
	const struct ord_row *row;
	struct ord_kv m;
	struct ks_text t;
	double tab, fanger, max = ks_param(r, "geledder_max");
	int err, wranks, lranks;

	memset(out, 0, sizeof(*out));
	ks_text_init(&t);
	ord_kv_init(&m);
	if ((err = check_dice(r, "dice", in->a.dice, KS_DICE)) != 0 ||
	    (err = check_dice(r, "dice", in->d.dice, KS_DICE)) != 0)
		goto out;
	if (in->a.figures < 0 || in->d.figures < 0) {
		err = ord_error_set(ORD_EUSAGE, "figurer: below 0");
		goto out;
	}
	out->units_a = ks_fire_units(r, in->a.figures, NULL);
	out->units_d = ks_fire_units(r, in->d.figures, NULL);
	out->roll_a = sum3(in->a.dice);
	out->roll_d = sum3(in->d.dice);
	melee_side(r, &t, "angriber", "attacker", in->a.figures, out->units_a);
	text_roll(r, &t, in->a.dice);
	if (apply_mods(r, "skema_xv_naerkamp", out->roll_a, &in->a.flags, &out->total_a, &t)) {
		ks_text_add(&t, " = ", " = ");
		ks_text_num(&t, out->total_a);
	}
	melee_side(r, &t, "; forsvarer", "; defender", in->d.figures, out->units_d);
	text_roll(r, &t, in->d.dice);
	if (apply_mods(r, "skema_xv_naerkamp", out->roll_d, &in->d.flags, &out->total_d, &t)) {
		ks_text_add(&t, " = ", " = ");
		ks_text_num(&t, out->total_d);
	}
	out->difference = (int)floor(fabs(out->total_a - out->total_d) + 1e-9);
	if (in->pursuit) {
		out->winner = 1;
		ks_text_add(&t, "; forfølgelsesangreb: angriberen vinder altid",
			    "; pursuit attack: the attacker always wins");
		if (out->total_a < out->total_d || out->difference < 1)
			out->difference = 1;
	} else if (out->difference == 0) {
		out->winner = 0;
	} else {
		out->winner = out->total_a > out->total_d ? 1 : 2;
	}
	ks_text_used(&t, xx);
	ks_text_used(&t, ks_table(r, "skema_xv_naerkamp_tab"));
	if (out->winner == 0) {
		ord_kv_set(&m, "part", "uafgjort");
		if ((err = ord_table_band(&row, xx, &m, 0)) != 0)
			goto out;
		out->grade = ks_moral_parse(ord_row_str(row, "moral"));
		if ((err = melee_losses(r, "uafgjort", 0, &tab, &fanger)) != 0)
			goto out;
		out->men_a = (int)(tab * out->units_d);
		out->men_d = (int)(tab * out->units_a);
		KS_TF(&t, "; uafgjort (vores regel: teksten har ingen uafgjort nærkamp): begge %s, nærkampen fortsætter; tab %g mand pr. nærkampsenhed: angriber %d, forsvarer %d mand",
		      "; a tie (our rule: the text has no tied melee): both %s, the melee goes on; losses %g men per melee unit: attacker %d, defender %d men",
		      ks_moral_name(out->grade), tab, out->men_a, out->men_d);
		goto done;
	}
	/* Skema XX: the difference and both sides' engaged ranks (16.5) */
	wranks = out->winner == 1 ? in->a.ranks : in->d.ranks;
	lranks = out->winner == 1 ? in->d.ranks : in->a.ranks;
	if (wranks < 1)
		wranks = 1;
	if (max > 0 && wranks > (int)max)
		wranks = (int)max;
	if (lranks < 1)
		lranks = 1;
	if (max > 0 && lranks > (int)max)
		lranks = (int)max;
	out->ranks_winner = wranks;
	out->ranks_loser = lranks;
	{
		char w[16], l[16];
		snprintf(w, sizeof(w), "%d", wranks);
		snprintf(l, sizeof(l), "%d", lranks);
		ord_kv_set(&m, "vinder", w);
		ord_kv_set(&m, "taber", l);
		ks_text_used(&t, ks_table(r, "skema_xx_geledder"));
		if ((err = ord_table_find(&row, ks_table(r, "skema_xx_geledder"), &m)) != 0 ||
		    (err = ord_row_num(row, "vaegt", &out->weight)) != 0)
			goto out;
		ord_kv_release(&m);
		ord_kv_init(&m);
	}
	out->product = out->difference * out->weight;
	ord_kv_set(&m, "part", "taber");
	if ((err = ord_table_band(&row, xx, &m, out->product)) != 0)
		goto out;
	out->grade = ks_moral_parse(ord_row_str(row, "moral"));
	if (in->pursuit)
		out->grade = KS_FU;
	ord_buf_addf(&t.da, "; %s vinder med %d × vægt ",
		     out->winner == 1 ? "angriberen" : "forsvareren", out->difference);
	ord_buf_addf(&t.en, "; the %s wins by %d × weight ",
		     out->winner == 1 ? "attacker" : "defender", out->difference);
	ks_fmt_part(&t.da, out->weight);
	ks_fmt_part(&t.en, out->weight);
	KS_TF(&t, " (%d mod %d geledder) = ", " (%d against %d ranks) = ", wranks, lranks);
	ks_text_num(&t, out->product);
	KS_TF(&t, ": Skema XX taberen %s", ": Skema XX the loser %s", ks_moral_name(out->grade));
	/* 17.1: a loser in U that cannot retreat always goes FU */
	{
		const struct ks_melee_side *ls = out->winner == 1 ? &in->d : &in->a;
		if (ls->in_u && ls->blocked && *ls->blocked && out->grade < KS_FU) {
			out->grade = KS_FU;
			out->cornered = 1;
			int obst = !strcmp(ls->blocked, "hindring");
			ord_buf_addf(&t.da, "; taberen var i U og kan ikke retirere (%s): FU (17.1)",
				     obst ? "hindringer" : "fjendtlige enheder");
			ord_buf_addf(&t.en, "; the loser was in U and cannot retreat (%s): FU (17.1)",
				     obst ? "obstacles" : "enemy units");
		}
	}
	{
		int wunits = out->winner == 1 ? out->units_a : out->units_d;
		int lunits = out->winner == 1 ? out->units_d : out->units_a;
		int lmen, wmen, pris;
		if ((err = melee_losses(r, "taber", out->difference, &tab, &fanger)) != 0)
			goto out;
		lmen = (int)(tab * wunits);
		pris = out->grade == KS_FU ? (int)(fanger * wunits) : 0;
		if (in->test_only) {
			ks_text_add(&t, "; en moraltest: ingen tab", "; a morale test: no losses");
			goto done;
		}
		ord_buf_addf(&t.da, "; taberen mister %g × %d = %d mand", tab, wunits, lmen);
		ord_buf_addf(&t.en, "; the loser loses %g × %d = %d %s", tab, wunits, lmen,
			     ks_nword(r, lmen, "man", "men"));
		if (pris) {
			ord_buf_addf(&t.da, " og afgiver %g × %d = %d mand som fanger", fanger,
				     wunits, pris);
			ord_buf_addf(&t.en, " and gives up %g × %d = %d %s as prisoners", fanger,
				     wunits, pris, ks_nword(r, pris, "man", "men"));
		}
		if ((err = melee_losses(r, "vinder", out->difference, &tab, &fanger)) != 0)
			goto out;
		wmen = in->pursuit ? 0 : (int)(tab * lunits);
		if (in->pursuit)
			ks_text_add(&t, "; forfølgeren har ingen tab", "; the pursuer has no losses");
		else {
			ord_buf_addf(&t.da, "; vinderen mister %g × %d = %d mand", tab, lunits, wmen);
			ord_buf_addf(&t.en, "; the winner loses %g × %d = %d %s", tab, lunits, wmen,
				     ks_nword(r, wmen, "man", "men"));
		}
		if (out->winner == 1) {
			out->men_d = lmen;
			out->prisoners_d = pris;
			out->men_a = wmen;
		} else {
			out->men_a = lmen;
			out->prisoners_a = pris;
			out->men_d = wmen;
		}
	}
done:
	if (why)
		ks_text_cat(why, &t);
out:
	ks_text_release(&t);
	ord_kv_release(&m);
	return err;
}
