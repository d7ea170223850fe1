/*
 * calc.c - the Krigsspil rules computed from the Skema (calc.h): loading
 * the Skema or a map document, bilingual explanations, fire units,
 * small-arms fire, artillery, melee, the exploding limber, decimation and
 * the map printout.
 *
 * Every rule number comes from skema.xml; what stays in C is the order of
 * the steps the rule text describes (14: "1. tabs tillæg/fradrag ... 2.
 * moral ... 3. der kastes 3d6 ...") and the checking of inputs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "rulesets/krigsspil/calc.h"
#include "xml/xmlsafe.h"

struct ord_rules {
	struct ks_rules ks;
};

#define SKEMA_RESOURCE "rulesets/krigsspil/skema.xml"

/* ---- what ks_load insists on -------------------------------------------- */

static const struct ord_tables_need_table needed_tables[] = {
	{ "arme", ORD_TABLE_CHART },
	{ "formationer", ORD_TABLE_CHART },
	{ "marchlaengder", ORD_TABLE_CHART },
	{ "terraen", ORD_TABLE_CHART },
	{ "hindringer", ORD_TABLE_CHART },
	{ "vandloeb", ORD_TABLE_BANDS },
	{ "skudzoner", ORD_TABLE_BANDS },
	{ "skema_x_tab_a", ORD_TABLE_MODIFIERS },
	{ "skema_x_tab_b", ORD_TABLE_MODIFIERS },
	{ "skema_x_moral", ORD_TABLE_MODIFIERS },
	{ "skema_x", ORD_TABLE_DICE },
	{ "ammunitionstyper", ORD_TABLE_CHART },
	{ "artillerizoner", ORD_TABLE_BANDS },
	{ "skema_xv_tab_a", ORD_TABLE_MODIFIERS },
	{ "skema_xv_tab_b", ORD_TABLE_MODIFIERS },
	{ "skema_xv_moral", ORD_TABLE_MODIFIERS },
	{ "skema_xv", ORD_TABLE_DICE },
	{ "skema_xv_materiel", ORD_TABLE_BANDS },
	{ "eksplosion", ORD_TABLE_DICE },
	{ "skema_xv_naerkamp", ORD_TABLE_MODIFIERS },
	{ "skema_xx", ORD_TABLE_BANDS },
	{ "skema_xv_naerkamp_tab", ORD_TABLE_BANDS },
	{ "ordre_varighed", ORD_TABLE_CHART },
};

static const char *const needed_params[] = {
	"meter_pr_cm",
	"mand_pr_figur",
	"plade_cm",
	"indbrudsafstand_cm",
	"figurer_pr_skydeenhed",
	"rest_figurer",
	"kanoner_pr_piece",
	"besaetning_figurer_pr_piece",
	"mindste_enhed",
	"geledder_max",
	"valeur_norm",
	"hob_under",
	"stoette_andel",
	"stoette_min_infanteri",
	"stoette_min_kavaleri",
	"infanteri",
	"kavaleri_karabiner",
	"kanon_fuldkugle_granat",
	"kanon_kardaesk",
	"kanon_shrapnel",
	"forbrug_skydning",
	"forbrug_naerkamp_infanteri",
	"forbrug_koordineret",
	"forbrug_forsvarsild",
	"eksplosion_kampsatser_pr_skydeenhed",
	"stormmarch_i_traek",
	"loeb_hvert",
	"artilleri_march_i_traek",
	"prolongering_i_traek",
	"decimering_lu_pct",
	"decimering_u_pct",
	"reorganisering_grader",
	"valeur_fri_traek",
	"valeur_min",
	"hvil_foer_genvinding",
	"britisk_fra",
	"britisk_traek",
	"efternoelere_pct",
	"efternoelere_min",
	"overgivelse_forfoelgelser",
	"forfoelgelse_pct",
	"moral_pr_skydende_figur",
	"moral_pr_kanon",
	"zone_i_cm",
	"zone_ii_cm",
	"terning",
	"kvarte_pr_traek",
	"reaktionstid_kvarte",
	"valeur_tab",
	"valeur_genvinding",
	"efternoelere_efter_traek",
	"forfoelgelse_kavaleri_gange",
	"moral_fuld_andel",
	"halvt_traek_tab",
	"tal_trin_pct",
	"tal_trin_max_pct",
	"tal_gange_fra",
	"tal_gange_max",
	"lu_efter_halve_traek",
};

static const struct ord_tables_need_field needed_fields[] = {
	{ "arme", "vaaben", 1 },
	{ "arme", "klasse", 1 },
	{ "arme", "navn", 1 },
	{ "arme", "navn_en", 1 },
	{ "arme", "stormmarch_hvert", 0 },
	{ "formationer", "navn", 1 },
	{ "formationer", "navn_en", 1 },
	{ "formationer", "sluttet", 1 },
	{ "formationer", "geledder", 0 },
	{ "formationer", "min_geledder", 0 },
	{ "formationer", "front", 0 },
	{ "formationer", "skydende_geledder", 0 },
	{ "formationer", "skydeandel", 0 },
	{ "marchlaengder", "cm", 0 },
	{ "marchlaengder", "storm", 0 },
	{ "terraen", "navn", 1 },
	{ "terraen", "navn_en", 1 },
	{ "terraen", "tegn", 1 },
	{ "terraen", "kant", 1 },
	{ "terraen", "daekning", 1 },
	{ "terraen", "ikkerikochet", 1 },
	{ "hindringer", "navn", 1 },
	{ "hindringer", "navn_en", 1 },
	{ "hindringer", "klasse", 1 },
	{ "hindringer", "tegn", 1 },
	{ "vandloeb", "klasse", 1 },
	{ "vandloeb", "marchkolonne", 1 },
	{ "skudzoner", "zone", 1 },
	{ "skema_x", "tab", 0 },
	{ "skema_x", "moral", 1 },
	{ "ammunitionstyper", "navn", 1 },
	{ "ammunitionstyper", "navn_en", 1 },
	{ "ammunitionstyper", "skyts", 1 },
	{ "ammunitionstyper", "zoner", 1 },
	{ "ammunitionstyper", "pulje", 1 },
	{ "ammunitionstyper", "gruppe", 1 },
	{ "artillerizoner", "zone", 1 },
	{ "skema_xv", "tab", 0 },
	{ "skema_xv", "moral", 1 },
	{ "skema_xv_materiel", "beskadiget", 0 },
	{ "skema_xv_materiel", "oedelagt", 0 },
	{ "skema_xv_materiel", "prods", 0 },
	{ "eksplosion", "andel", 0 },
	{ "skema_xx", "moral", 1 },
	{ "skema_xv_naerkamp_tab", "tab", 0 },
	{ "skema_xv_naerkamp_tab", "fanger", 0 },
	{ "ordre_varighed", "kvarte", 0 },
};

/* ---- loading -------------------------------------------------------------- */

static int check_tables(const struct ord_tables *t)
{
	static const struct ord_tables_needs needs = {
		"krigsspil",
		needed_tables,
		ORD_ARRAY_SIZE(needed_tables),
		needed_params,
		ORD_ARRAY_SIZE(needed_params),
		needed_fields,
		ORD_ARRAY_SIZE(needed_fields),
	};

	return ord_tables_require(t, &needs);
}

/* The <tables> a map carries, written out with its lines where they were,
 * so that the tables engine's messages name the map's own lines. */
static int load_inner_tables(struct ord_tables **out, xmlNodePtr n, const char *name)
{
	xmlBufferPtr xb = xmlBufferCreate();
	struct ord_buf b = ORD_BUF_INIT, nm = ORD_BUF_INIT;
	long line = xmlGetLineNo(n), i;
	int err;

	for (i = 1; i < line; i++)
		ord_buf_addch(&b, '\n');
	xmlNodeDump(xb, n->doc, n, 0, 0);
	ord_buf_add(&b, xmlBufferContent(xb), (size_t)xmlBufferLength(xb));
	xmlBufferFree(xb);
	ord_buf_adds(&nm, name);
	err = ord_tables_load(out, b.buf, b.len, nm.buf);
	ord_buf_release(&b);
	ord_buf_release(&nm);
	return err;
}

int ks_load(struct ord_rules **out, const char *xml, size_t len, const char *name)
{
	struct ord_rules *rules = NULL;
	struct ord_tables *t = NULL;
	struct ks_map *map = NULL;
	xmlDocPtr doc = NULL;
	xmlNodePtr root;
	int err;

	*out = NULL;
	if (!xml) {
		const struct ord_resource *res = ord_resource_find(SKEMA_RESOURCE);
		if (!res)
			return ord_error_set(ORD_ERROR, "tables '%s' are not built in", SKEMA_RESOURCE);
		xml = (const char *)res->data;
		len = res->len;
		name = SKEMA_RESOURCE;
	}
	if (!name)
		name = "tables";
	if ((err = ord_xml_parse(&doc, xml, len, name)) != 0)
		goto out;
	root = xmlDocGetRootElement(doc);
	if (root && !xmlStrcmp(root->name, BAD_CAST "map")) {
		xmlNodePtr inner;
		double plate;

		if ((err = ord_xml_validate(doc, "schema/krigsspil-map.rng", name)) != 0)
			goto out;
		inner = ord_xml_child(root, "tables");
		if (inner) {
			err = load_inner_tables(&t, inner, name);
		} else {
			const struct ord_resource *res = ord_resource_find(SKEMA_RESOURCE);
			err = res ? ord_tables_load(&t, (const char *)res->data, res->len, SKEMA_RESOURCE)
				  : ord_error_set(ORD_ERROR, "tables '%s' are not built in",
						  SKEMA_RESOURCE);
		}
		if (err || (err = check_tables(t)) != 0)
			goto out;
		ord_tables_param(t, "plade_cm", &plate);
		if ((err = ks_map_from_xml(&map, root, name, plate)) != 0)
			goto out;
	} else {
		if ((err = ord_tables_load(&t, xml, len, name)) != 0 || (err = check_tables(t)) != 0)
			goto out;
	}
	rules = ord_xcalloc(1, sizeof(*rules));
	rules->ks.tables = t;
	rules->ks.map = map;
	t = NULL;
	map = NULL;
	*out = rules;
out:
	if (doc)
		xmlFreeDoc(doc);
	ord_tables_free(t);
	ks_map_free(map);
	return err;
}

void ks_free(struct ord_rules *rules)
{
	if (!rules)
		return;
	ord_tables_free(rules->ks.tables);
	ks_map_free(rules->ks.map);
	free(rules);
}

struct ks_rules *ks_rules(struct ord_rules *rules)
{
	return rules ? &rules->ks : NULL;
}

double ks_param(const struct ks_rules *r, const char *name)
{
	double v = 0;

	ord_tables_param(r->tables, name, &v);
	return v;
}

const struct ord_table *ks_table(const struct ks_rules *r, const char *name)
{
	return ord_tables_get(r->tables, name);
}

/* ---- bilingual text ------------------------------------------------------- */

void ks_text_init(struct ks_text *t)
{
	ord_buf_init(&t->da);
	ord_buf_init(&t->en);
	ord_buf_init(&t->prov);
}

void ks_text_release(struct ks_text *t)
{
	ord_buf_release(&t->da);
	ord_buf_release(&t->en);
	ord_buf_release(&t->prov);
}

void ks_text_reset(struct ks_text *t)
{
	ord_buf_reset(&t->da);
	ord_buf_reset(&t->en);
	ord_buf_reset(&t->prov);
}

void ks_text_add(struct ks_text *t, const char *da, const char *en)
{
	ord_buf_adds(&t->da, da);
	ord_buf_adds(&t->en, en);
}

static void prov_add(struct ord_buf *prov, const char *name)
{
	if (!ord_words_has(prov->buf, name))
		ord_words_add(prov, " ", name);
}

void ks_text_cat(struct ks_text *t, const struct ks_text *src)
{
	const char *p = src->prov.buf, *w;
	size_t len;

	ord_buf_add(&t->da, src->da.buf, src->da.len);
	ord_buf_add(&t->en, src->en.buf, src->en.len);
	while ((w = ord_words_next(&p, &len)) != NULL) {
		char name[128];
		if (len < sizeof(name)) {
			memcpy(name, w, len);
			name[len] = '\0';
			prov_add(&t->prov, name);
		}
	}
}

void ks_text_used(struct ks_text *t, const struct ord_table *tbl)
{
	if (t && tbl && ord_table_provisional(tbl))
		prov_add(&t->prov, ord_table_name(tbl));
}

void ks_text_mark(struct ks_text *t)
{
	struct ord_buf list = ORD_BUF_INIT;

	if (!t->prov.len)
		return;
	ord_words_join(&list, t->prov.buf, ", ", ", ");
	KS_TF(t, " [foreløbig tabel: %s]", " [provisional table: %s]", list.buf);
	ord_buf_release(&list);
}

void ks_text_langs(const struct ks_text *t, struct ord_kv *texts)
{
	ord_kv_set(texts, "da", t->da.buf);
	ord_kv_set(texts, "en", t->en.buf);
}

void ks_text_write(const struct ks_text *t, struct ord_buf *out)
{
	struct ord_kv texts;

	ord_kv_init(&texts);
	ks_text_langs(t, &texts);
	ord_texts_add(out, &texts);
	ord_kv_release(&texts);
}

static void add_num(struct ord_buf *b, double v)
{
	ord_tables_fmt(b, v, 1);
}

static void text_num(struct ks_text *t, double v)
{
	add_num(&t->da, v);
	add_num(&t->en, v);
}

void ks_fmt_part(struct ord_buf *b, double v)
{
	static const struct {
		double v;
		const char *s;
	} parts[] = { { 0.25, "¼" }, { 0.5, "½" }, { 0.75, "¾" } };
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(parts); i++)
		if (fabs(v - parts[i].v) < 1e-9) {
			ord_buf_adds(b, parts[i].s);
			return;
		}
	add_num(b, v);
}

/* " × ½ (halvt træk)": what half a turn of fire leaves of the losses. */
static void text_half(struct ks_text *t, const struct ks_rules *r)
{
	ks_text_add(t, " × ", " × ");
	ks_fmt_part(&t->da, ks_param(r, "halvt_traek_tab"));
	ks_fmt_part(&t->en, ks_param(r, "halvt_traek_tab"));
	ks_text_add(t, " (halvt træk)", " (half a turn)");
}

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

int ks_morale_capped(const struct ks_rules *r, int grade, int figures, int affected)
{
	if (grade <= KS_OR || affected <= 0)
		return affected <= 0 ? KS_OR : grade;
	if (affected >= ks_param(r, "moral_fuld_andel") * figures - 1e-9)
		return grade;
	return grade - 1;
}

/* ---- helpers ---------------------------------------------------------------- */

/* Is value one of the values of attr in the table?  ORD_EUSAGE naming key. */
static int check_word(const struct ks_rules *r, const char *key, const char *value,
		      const char *tname, const char *attr)
{
	const struct ord_table *tbl = ks_table(r, tname);
	struct ord_buf values = ORD_BUF_INIT;
	int err = 0;

	ord_table_key_values(tbl, attr, &values);
	if (!value || !*value)
		err = ord_error_set(ORD_EUSAGE, "%s: missing (expected one of %s)", key, values.buf);
	else if (!ord_words_has(values.buf, value))
		err = ord_error_set(ORD_EUSAGE, "%s: unknown '%s' (expected one of %s)", key, value,
				    values.buf);
	ord_buf_release(&values);
	return err;
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
	struct ord_kv m;
	int err;

	if ((err = check_word(r, "art", art, "arme", "art")) != 0)
		return err;
	ord_kv_init(&m);
	ord_kv_set(&m, "art", art);
	err = ord_table_find(out, ks_table(r, "arme"), &m);
	ord_kv_release(&m);
	return err;
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

double ks_march_length(const struct ks_rules *r, const char *art, const char *formation, int storm)
{
	const struct ord_row *row;
	struct ord_kv m;
	double cm = 0;

	ord_kv_init(&m);
	ord_kv_set(&m, "art", art);
	ord_kv_set(&m, "formation", formation);
	if (ord_table_find(&row, ks_table(r, "marchlaengder"), &m) ||
	    ord_row_num(row, storm ? "storm" : "cm", &cm))
		cm = 0;
	ord_error_clear();
	ord_kv_release(&m);
	return cm;
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
 * then capped to the figures the fire can affect (cap, at most the
 * target's figures). */
static int morale_effect(const struct ks_rules *r, struct ks_text *t, const struct ord_table *tbl,
			 const char *mods, double b, const struct ord_kv *flags, int cap,
			 int target_figures, double *total, int *grade, int *affected,
			 int *grade_applied)
{
	const struct ord_row *row;
	int err;

	ks_text_add(t, "; moral ", "; morale ");
	text_num(t, b);
	if (apply_mods(r, mods, b, flags, total, t)) {
		ks_text_add(t, " = ", " = ");
		text_num(t, *total);
	}
	if ((err = ord_table_dice(&row, tbl, NULL, *total)) != 0)
		return err;
	*grade = ks_moral_parse(ord_row_str(row, "moral"));
	if (*grade < 0)
		*grade = KS_OR;
	*affected = cap < target_figures ? cap : target_figures;
	*grade_applied = ks_morale_capped(r, *grade, target_figures, *affected);
	if (*grade)
		KS_TF(t, ": %s", ": %s", ks_moral_name(*grade));
	else
		ks_text_add(t, ": ingen påvirkning", ": no effect");
	return 0;
}

/* ---- small-arms fire ------------------------------------------------------------ */

int ks_fire(const struct ks_rules *r, const struct ks_fire_in *in, struct ks_fire_out *out,
	    struct ks_text *why)
{
	const struct ord_table *zones = ks_table(r, "skudzoner"), *x = ks_table(r, "skema_x");
	const struct ord_row *row;
	struct ord_kv m, flags;
	struct ks_text t;
	char zf[32];
	double tab, a, b;
	int err;

	memset(out, 0, sizeof(*out));
	ks_text_init(&t);
	ord_kv_init(&m);
	ord_kv_init(&flags);
	if ((err = check_word(r, "vaaben", in->vaaben, "skudzoner", "vaaben")) != 0 ||
	    (err = check_dice(r, "dice", in->dice, KS_DICE)) != 0)
		goto out;
	if (in->figures < 0 || in->target_figures < 0) {
		err = ord_error_set(ORD_EUSAGE, "figurer: below 0");
		goto out;
	}
	ord_kv_set(&m, "vaaben", in->vaaben);
	ks_text_used(&t, zones);
	if (in->zone) {
		size_t i;
		int found = 0;
		for (i = 0; i < ord_table_nrows(zones); i++) {
			const struct ord_row *zr = ord_table_row(zones, i);
			if (!strcmp(ord_row_str(zr, "vaaben"), in->vaaben) &&
			    !strcmp(ord_row_str(zr, "zone"), in->zone))
				found = 1;
		}
		if (!found) {
			KS_TF(&t, "uden for skudvidde: %s når ikke zone %s",
			      "out of range: %s does not reach zone %s", in->vaaben, in->zone);
			goto done;
		}
		out->zone = in->zone;
	} else {
		if (!(in->range >= 0) || !isfinite(in->range)) {
			err = ord_error_set(ORD_EUSAGE, "afstand: must be 0 cm or more");
			goto out;
		}
		if (ord_table_band(&row, zones, &m, in->range)) {
			ord_error_clear();
			KS_TF(&t, "uden for skudvidde: %s på %g cm", "out of range: %s at %g cm",
			      in->vaaben, in->range);
			goto done;
		}
		out->zone = ord_row_str(row, "zone");
	}
	out->in_range = 1;
	if (in->flags)
		ord_kv_copy(&flags, in->flags);
	zone_flag(zf, sizeof(zf), "zone_", out->zone);
	ord_kv_set(&flags, zf, "yes");

	out->fire_units = ks_fire_units(r, in->figures, &t);
	KS_TF(&t, ", zone %s; ", ", zone %s; ", out->zone);
	out->roll = sum3(in->dice);
	text_roll(r, &t, in->dice);
	if (apply_mods(r, "skema_x_tab_a", out->roll, &flags, &a, &t) +
	    apply_mods(r, "skema_x_tab_b", a, &flags, &b, &t)) {
		ks_text_add(&t, " = ", " = ");
		text_num(&t, b);
	}
	out->loss_total = b;
	ks_text_used(&t, x);
	if ((err = ord_table_dice(&row, x, NULL, b)) != 0)
		goto out;
	ord_row_num(row, "tab", &tab);
	out->men_per_unit = tab;
	out->men = (int)floor(
		tab * out->fire_units * (in->half ? ks_param(r, "halvt_traek_tab") : 1) + 1e-9);
	KS_TF(&t, ": Skema X %g mand pr. skydeenhed × %d", ": Skema X %g men per fire unit × %d",
	      tab, out->fire_units);
	if (in->half)
		text_half(&t, r);
	KS_TF(&t, " = %d mand", " = %d men", out->men);

	if ((err = morale_effect(r, &t, x, "skema_x_moral", b, &flags,
				 (int)(ks_param(r, "moral_pr_skydende_figur") * in->figures),
				 in->target_figures, &out->morale_total, &out->grade,
				 &out->affected, &out->grade_applied)) != 0)
		goto out;
	if (out->grade_applied != out->grade)
		KS_TF(&t, " for %d af %d figurer (højst %g × %d skydende), %s for enheden",
		      " for %d of %d figures (at most %g × %d firing), %s for the unit",
		      out->affected, in->target_figures, ks_param(r, "moral_pr_skydende_figur"),
		      in->figures, out->grade_applied ? ks_moral_name(out->grade_applied) : "-");
done:
	if (why)
		ks_text_cat(why, &t);
out:
	ks_text_release(&t);
	ord_kv_release(&m);
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
	char f[32];
	double tab, a, b, share = in->half ? ks_param(r, "halvt_traek_tab") : 1;
	int err, pieces;

	memset(out, 0, sizeof(*out));
	ks_text_init(&t);
	ord_kv_init(&m);
	ord_kv_init(&flags);
	if ((err = check_word(r, "ammo", in->ammo, "ammunitionstyper", "ammo")) != 0 ||
	    (err = check_word(r, "kaliber", in->kaliber, "artillerizoner", "kaliber")) != 0 ||
	    (err = check_dice(r, "dice", in->dice, KS_DICE)) != 0)
		goto out;
	if (in->guns < 1) {
		err = ord_error_set(ORD_EUSAGE, "kanoner: at least 1 gun must fire");
		goto out;
	}
	ord_kv_set(&m, "ammo", in->ammo);
	ord_table_find(&ammo, ks_table(r, "ammunitionstyper"), &m);
	ord_kv_release(&m);
	ord_kv_init(&m);
	ord_kv_set(&m, "kaliber", in->kaliber);
	ord_kv_set(&m, "gruppe", ord_row_str(ammo, "gruppe"));
	ks_text_used(&t, zones);
	if (in->zone) {
		if (!ord_words_has(ord_row_str(ammo, "zoner"), in->zone)) {
			err = ord_error_set(ORD_EUSAGE, "zone: %s (%s) is fired at zones %s, not %s",
					    in->ammo, ord_row_str(ammo, "navn"),
					    ord_row_str(ammo, "zoner"), in->zone);
			goto out;
		}
		out->zone = in->zone;
	} else {
		if (!(in->range >= 0) || !isfinite(in->range)) {
			err = ord_error_set(ORD_EUSAGE, "afstand: must be 0 cm or more");
			goto out;
		}
		if (ord_table_band(&row, zones, &m, in->range)) {
			ord_error_clear();
			KS_TF(&t, "uden for skudvidde: %s pund %s på %g cm",
			      "out of range: %s pdr %s at %g cm", in->kaliber, in->ammo, in->range);
			goto done;
		}
		out->zone = ord_row_str(row, "zone");
		if (!ord_words_has(ord_row_str(ammo, "zoner"), out->zone)) {
			KS_TF(&t, "%s kan ikke bruges på zone %s (%g cm)",
			      "%s cannot be used at zone %s (%g cm)", ord_row_str(ammo, "navn"),
			      out->zone, in->range);
			out->zone = NULL;
			goto done;
		}
	}
	out->in_range = 1;
	if (in->flags)
		ord_kv_copy(&flags, in->flags);
	zone_flag(f, sizeof(f), "", in->ammo);
	ord_kv_set(&flags, f, "yes");
	{
		char pre[40], zf[48];
		snprintf(pre, sizeof(pre), "%s_", f);
		zone_flag(zf, sizeof(zf), pre, out->zone);
		ord_kv_set(&flags, zf, "yes");
	}
	snprintf(f, sizeof(f), "kaliber_%s", in->kaliber);
	ord_kv_set(&flags, f, "yes");

	ord_buf_addf(&t.da, "%d kanon%s, %s pund, %s (%s), zone %s; ", in->guns,
		     in->guns == 1 ? "" : "er", in->kaliber, in->ammo, ord_row_str(ammo, "navn"),
		     out->zone);
	ord_buf_addf(&t.en, "%d gun%s, %s pdr, %s (%s), zone %s; ", in->guns, in->guns == 1 ? "" : "s",
		     in->kaliber, in->ammo, ord_row_str(ammo, "navn_en"), out->zone);
	out->roll = sum3(in->dice);
	text_roll(r, &t, in->dice);
	if (apply_mods(r, "skema_xv_tab_a", out->roll, &flags, &a, &t) +
	    apply_mods(r, "skema_xv_tab_b", a, &flags, &b, &t)) {
		ks_text_add(&t, " = ", " = ");
		text_num(&t, b);
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
		KS_TF(&t, ": Skema XV %g mand pr. kanon", ": Skema XV %g men per gun", tab);
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
		KS_TF(&t, ": Skema XV %g mand pr. kanon × %d", ": Skema XV %g men per gun × %d",
		      tab, in->guns);
		if (in->half)
			text_half(&t, r);
		KS_TF(&t, " = %d mand", " = %d men", out->men);
	}
	if ((err = morale_effect(r, &t, xv, "skema_xv_moral", b, &flags,
				 (int)(ks_param(r, "moral_pr_kanon") * in->guns),
				 in->target_figures, &out->morale_total, &out->grade,
				 &out->affected, &out->grade_applied)) != 0)
		goto out;
	if (out->grade_applied != out->grade)
		KS_TF(&t, " for %d af %d figurer (højst %g pr. kanon), %s for enheden",
		      " for %d of %d figures (at most %g per gun), %s for the unit", out->affected,
		      in->target_figures, ks_param(r, "moral_pr_kanon"),
		      out->grade_applied ? ks_moral_name(out->grade_applied) : "-");
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
		KS_TF(why, "1d%d = %d: ", "1d%d = %d: ", ks_die(r), die);
		if (*share <= 0) {
			ks_text_add(why, "ammunitionen eksploderer ikke",
				    "the ammunition does not explode");
		} else {
			ks_text_add(why, *share >= 1 ? "alt" : "halvdelen",
				    *share >= 1 ? "all" : "half");
			ks_text_add(why, " (", " (");
			text_num(why, exploded);
			ks_text_add(why, " af ", " of ");
			text_num(why, ammo);
			KS_TF(why, " kampsatser) eksploderer = %d skydeenheder fuldkugle",
			      " kampsatser) explodes = %d fire units of roundshot", *fire_units);
		}
	}
	return 0;
}

/* ---- melee ----------------------------------------------------------------------- */

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
	int err, wranks;

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
	KS_TF(&t, "angriber %d figurer (%d nærkampsenheder): ",
	      "attacker %d figures (%d melee units): ", in->a.figures, out->units_a);
	text_roll(r, &t, in->a.dice);
	if (apply_mods(r, "skema_xv_naerkamp", out->roll_a, &in->a.flags, &out->total_a, &t)) {
		ks_text_add(&t, " = ", " = ");
		text_num(&t, out->total_a);
	}
	KS_TF(&t, "; forsvarer %d figurer (%d nærkampsenheder): ",
	      "; defender %d figures (%d melee units): ", in->d.figures, out->units_d);
	text_roll(r, &t, in->d.dice);
	if (apply_mods(r, "skema_xv_naerkamp", out->roll_d, &in->d.flags, &out->total_d, &t)) {
		ks_text_add(&t, " = ", " = ");
		text_num(&t, out->total_d);
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
		KS_TF(&t, "; uafgjort: begge %s, nærkampen fortsætter; tab %g mand pr. nærkampsenhed: angriber %d, forsvarer %d mand",
		      "; a tie: both %s, the melee goes on; losses %g men per melee unit: attacker %d, defender %d men",
		      ks_moral_name(out->grade), tab, out->men_a, out->men_d);
		goto done;
	}
	wranks = out->winner == 1 ? in->a.ranks : in->d.ranks;
	if (wranks < 1)
		wranks = 1;
	if (max > 0 && wranks > (int)max)
		wranks = (int)max;
	out->product = out->difference * wranks;
	ord_kv_set(&m, "part", "taber");
	if ((err = ord_table_band(&row, xx, &m, out->product)) != 0)
		goto out;
	out->grade = ks_moral_parse(ord_row_str(row, "moral"));
	if (in->pursuit)
		out->grade = KS_FU;
	ord_buf_addf(&t.da, "; %s vinder med %d × %d geledder = %d: Skema XX taberen %s",
		     out->winner == 1 ? "angriberen" : "forsvareren", out->difference, wranks,
		     out->product, ks_moral_name(out->grade));
	ord_buf_addf(&t.en, "; the %s wins by %d × %d ranks = %d: Skema XX the loser %s",
		     out->winner == 1 ? "attacker" : "defender", out->difference, wranks,
		     out->product, ks_moral_name(out->grade));
	{
		int wunits = out->winner == 1 ? out->units_a : out->units_d;
		int lunits = out->winner == 1 ? out->units_d : out->units_a;
		int lmen, wmen, pris;
		if ((err = melee_losses(r, "taber", out->difference, &tab, &fanger)) != 0)
			goto out;
		lmen = (int)(tab * wunits);
		pris = out->grade == KS_FU ? (int)(fanger * wunits) : 0;
		KS_TF(&t, "; taberen mister %g × %d = %d mand",
		      "; the loser loses %g × %d = %d men", tab, wunits, lmen);
		if (pris)
			KS_TF(&t, " og afgiver %g × %d = %d mand som fanger",
			      " and gives up %g × %d = %d men as prisoners", fanger, wunits, pris);
		if ((err = melee_losses(r, "vinder", out->difference, &tab, &fanger)) != 0)
			goto out;
		wmen = in->pursuit ? 0 : (int)(tab * lunits);
		if (in->pursuit)
			ks_text_add(&t, "; forfølgeren har ingen tab", "; the pursuer has no losses");
		else
			KS_TF(&t, "; vinderen mister %g × %d = %d mand",
			      "; the winner loses %g × %d = %d men", tab, lunits, wmen);
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

/* ---- the map as text ------------------------------------------------------------ */

static const struct ord_row *terrain_row(const struct ks_rules *r, const char *terrain)
{
	const struct ord_row *row = NULL;
	struct ord_kv m;

	ord_kv_init(&m);
	ord_kv_set(&m, "terraen", terrain);
	if (ord_table_find(&row, ks_table(r, "terraen"), &m))
		ord_error_clear();
	ord_kv_release(&m);
	return row;
}

static const struct ord_row *feature_row(const struct ks_rules *r, const char *type)
{
	const struct ord_row *row = NULL;
	struct ord_kv m;

	ord_kv_init(&m);
	ord_kv_set(&m, "element", type);
	if (ord_table_find(&row, ks_table(r, "hindringer"), &m))
		ord_error_clear();
	ord_kv_release(&m);
	return row;
}

static const char *row_name(const struct ord_row *row, const char *lang, const char *def)
{
	const char *s;

	if (!row)
		return def;
	s = ord_row_str(row, lang && !strcmp(lang, "en") ? "navn_en" : "navn");
	return s ? s : def;
}

void ks_map_describe(const struct ks_rules *r, double x, double y, struct ks_text *out)
{
	const struct ks_plate *p = ks_map_at(r->map, x, y);
	const struct ord_row *tr;
	size_t i;

	if (!r->map)
		return;
	if (!p) {
		int q, rr;
		ks_map_axial(r->map, x, y, &q, &rr);
		KS_TF(out, "uden for kortet (plade %d,%d)", "off the map (plate %d,%d)", q, rr);
		return;
	}
	tr = terrain_row(r, p->terrain);
	ord_buf_addf(&out->da, "%s", row_name(tr, "da", p->terrain));
	ord_buf_addf(&out->en, "%s", row_name(tr, "en", p->terrain));
	KS_TF(out, ", højde %d F, plade %d,%d", ", height %d F, plate %d,%d", p->height, p->q, p->r);
	if (p->name)
		KS_TF(out, " (%s)", " (%s)", p->name);
	for (i = 0; i < p->nf; i++) {
		const struct ord_row *fr = feature_row(r, p->f[i].type);
		KS_TF(out, "%s%s", "%s%s", i ? ", " : "; ", "");
		ord_buf_adds(&out->da, row_name(fr, "da", p->f[i].type));
		ord_buf_adds(&out->en, row_name(fr, "en", p->f[i].type));
	}
}

void ks_map_print(const struct ks_rules *r, const struct ord_kv *marks, const char *lang,
		  struct ord_buf *out)
{
	const struct ks_map *m = r->map;
	int en = lang && !strcmp(lang, "en");
	int cmin = 0, cmax = 0, rmin = 0, rmax = 0, row;
	size_t i, j;

	if (!m) {
		ord_buf_adds(out, en ? "no map: the game was created without one\n"
				     : "intet kort: spillet er oprettet uden kort\n");
		return;
	}
	for (i = 0; i < m->n; i++) {
		int c = 2 * m->p[i].q + m->p[i].r;
		if (!i || c < cmin)
			cmin = c;
		if (!i || c > cmax)
			cmax = c;
		if (!i || m->p[i].r < rmin)
			rmin = m->p[i].r;
		if (!i || m->p[i].r > rmax)
			rmax = m->p[i].r;
	}
	ord_buf_addf(out, en ? "map: %s (%zu plates, " : "kort: %s (%zu plader à ",
		     m->title ? m->title : "", m->n);
	ord_tables_fmt(out, m->plate_cm, 0);
	ord_buf_adds(out, en ? " cm across; x east, y south)\n" : " cm; x mod øst, y mod syd)\n");
	for (row = rmin; row <= rmax; row++) {
		struct ord_buf line = ORD_BUF_INIT;
		ord_buf_addf(&line, "r%+4d  ", row);
		for (i = 0; i < m->n; i++) {
			const struct ks_plate *p = &m->p[i];
			const struct ord_row *tr;
			size_t col, at;
			char key[32];
			const char *tegn;
			if (p->r != row)
				continue;
			col = (size_t)(2 * p->q + p->r - cmin) * 2 + 7;
			while (line.len < col)
				ord_buf_addch(&line, ' ');
			/* a plate's cell may only be written where the line ends
			 * (cells never overlap: columns step by 4) */
			at = line.len;
			(void)at;
			tr = terrain_row(r, p->terrain);
			tegn = tr ? ord_row_str(tr, "tegn") : "?";
			snprintf(key, sizeof(key), "%d,%d", p->q, p->r);
			ord_buf_addch(&line, marks && ord_kv_get(marks, key) ? '*' : ' ');
			ord_buf_adds(&line, tegn);
			if (p->height >= 0 && p->height <= 9)
				ord_buf_addch(&line, '0' + p->height);
			else
				ord_buf_addch(&line, p->height < 0 ? '-' : '+');
			if (p->nf) {
				const struct ord_row *fr = feature_row(r, p->f[0].type);
				ord_buf_adds(&line, fr ? ord_row_str(fr, "tegn") : "?");
			}
		}
		while (line.len && line.buf[line.len - 1] == ' ')
			line.buf[--line.len] = '\0';
		ord_buf_add(out, line.buf, line.len);
		ord_buf_addch(out, '\n');
		ord_buf_release(&line);
	}
	/* the legend, from the Skema */
	ord_buf_adds(out, en ? "legend:" : "tegnforklaring:");
	{
		const struct ord_table *tt = ks_table(r, "terraen"), *ht = ks_table(r, "hindringer");
		for (i = 0; i < ord_table_nrows(tt); i++)
			ord_buf_addf(out, " %s %s,", ord_row_str(ord_table_row(tt, i), "tegn"),
				     row_name(ord_table_row(tt, i), lang, ""));
		ord_buf_adds(out, en ? " digit: height in F;" : " ciffer: højde i F;");
		for (i = 0; i < ord_table_nrows(ht); i++)
			ord_buf_addf(out, " %s %s,", ord_row_str(ord_table_row(ht, i), "tegn"),
				     row_name(ord_table_row(ht, i), lang, ""));
		ord_buf_adds(out, en ? " * units\n" : " * enheder\n");
	}
	for (i = 0; i < m->n; i++) {
		const struct ks_plate *p = &m->p[i];
		if (!p->nf && !p->name)
			continue;
		ord_buf_addf(out, "  %d,%d", p->q, p->r);
		if (p->name)
			ord_buf_addf(out, " %s", p->name);
		ord_buf_adds(out, ":");
		for (j = 0; j < p->nf; j++) {
			const struct ks_feature *f = &p->f[j];
			ord_buf_addf(out, "%s %s %s-%s", j ? "," : "",
				     row_name(feature_row(r, f->type), lang, f->type),
				     ks_side_name(f->from), ks_side_name(f->to));
			if (f->width > 0) {
				ord_buf_addch(out, ' ');
				ord_tables_fmt(out, f->width, 0);
				ord_buf_adds(out, " cm");
			}
			if (*f->obstacle)
				ord_buf_addf(out, en ? " (obstacle %s)" : " (hindring %s)",
					     f->obstacle);
			if (f->high)
				ord_buf_adds(out, en ? " (high)" : " (høj)");
		}
		ord_buf_addch(out, '\n');
	}
	for (i = 0; marks && i < marks->n; i++)
		ord_buf_addf(out, "  * %s: %s\n", marks->items[i].key, marks->items[i].value);
}

/* ---- the calculator (the core's driver, ruleset.h) ------------------------------ */

#define NUMBER(k)                                              \
	{                                                      \
		k, ORD_KEY_INT, 1, NULL, 0, 100000, NULL, NULL \
	}
#define NUMBER_DEF(k, d)                                    \
	{                                                   \
		k, ORD_KEY_INT, 0, NULL, 0, 100000, d, NULL \
	}
#define FLAG(k)                                            \
	{                                                  \
		k, ORD_KEY_BOOL, 0, NULL, 0, 0, "no", NULL \
	}
#define ZONE                                                            \
	{                                                               \
		"zone", ORD_KEY_ENUM, 0, "I|II|III|K", 0, 0, NULL, NULL \
	}
#define AFSTAND                                                         \
	{                                                               \
		"afstand", ORD_KEY_NUM, 0, NULL, 0, 1000000, NULL, NULL \
	}
#define LANG                                                       \
	{                                                          \
		"lang", ORD_KEY_ENUM, 0, "da|en", 0, 0, "da", NULL \
	}
#define END                                        \
	{                                          \
		NULL, 0, 0, NULL, 0, 0, NULL, NULL \
	}

static const struct ord_key_spec fireunits_args[] = {
	NUMBER("figurer"),
	LANG,
	END,
};

static const struct ord_key_spec fire_args[] = {
	NUMBER("figurer"),
	NUMBER_DEF("maal_figurer", "100"),
	{ "vaaben", ORD_KEY_WORD, 0, "skudzoner.vaaben", 0, 0, "musket", NULL },
	ZONE,
	AFSTAND,
	FLAG("halv"),
	LANG,
	END,
};

static const struct ord_key_spec artillery_args[] = {
	NUMBER("kanoner"),
	{ "kaliber", ORD_KEY_WORD, 0, "artillerizoner.kaliber", 0, 0, "6", NULL },
	{ "ammo", ORD_KEY_WORD, 0, "ammunitionstyper.ammo", 0, 0, "SF", NULL },
	ZONE,
	AFSTAND,
	FLAG("halv"),
	NUMBER_DEF("maal_figurer", "100"),
	FLAG("maal_artilleri"),
	LANG,
	END,
};

static const struct ord_key_spec melee_args[] = {
	NUMBER("a_figurer"),
	NUMBER("d_figurer"),
	NUMBER_DEF("a_geledder", "2"),
	NUMBER_DEF("d_geledder", "2"),
	FLAG("forfoelgelse"),
	LANG,
	END,
};

static const struct ord_key_spec explosion_args[] = {
	{ "kampsatser", ORD_KEY_NUM, 1, NULL, 0, 1000000, NULL, NULL },
	LANG,
	END,
};

static const struct ord_key_spec decimation_args[] = {
	NUMBER("start"),
	NUMBER("figurer"),
	LANG,
	END,
};

static const char *const fire_tables[] = { "skema_x_tab_a", "skema_x_tab_b", "skema_x_moral", NULL };
static const char *const art_tables[] = { "skema_xv_tab_a", "skema_xv_tab_b", "skema_xv_moral", NULL };
static const char *const melee_tables[] = { "skema_xv_naerkamp", NULL };
static const char *const melee_prefixes[] = { "a_", "d_", NULL };

/* 3d6 named PREFIX1..PREFIX3 (--dice, or rolled by the driver). */
static int take3(struct ord_calc *c, const struct ks_rules *r, int *out, const char *prefix)
{
	int i, err;

	for (i = 0; i < KS_DICE; i++) {
		char name[16];
		snprintf(name, sizeof(name), "%s%d", prefix, i + 1);
		if ((err = ord_calc_die(c, &out[i], (unsigned)ks_die(r), name)) != 0)
			return err;
	}
	return 0;
}

static const char *zone_arg(const struct ord_kv *kv)
{
	const char *z = ord_kv_get(kv, "zone");
	return z && *z ? z : NULL;
}

static int calc_range(const struct ord_kv *kv, const char *zone, double *range)
{
	const char *a = ord_kv_get(kv, "afstand");

	*range = 0;
	if (zone)
		return 0;
	if (!a || !*a)
		return ord_error_set(ORD_EUSAGE, "zone: missing (give zone=I|II|III|K or afstand=CM)");
	return ord_parse_num(a, range) ? ord_error_set(ORD_EUSAGE, "afstand: not a number") : 0;
}

/* The end of every calculation: whether a provisional table was used, and
 * the explanation in both languages. */
static void answer(struct ord_calc *c, struct ks_text *why)
{
	ord_calc_value(c, "provisional", why->prov.len ? "yes" : "no");
	ks_text_mark(why);
	ord_calc_explain(c, "da", why->da.buf);
	ord_calc_explain(c, "en", why->en.buf);
}

static int calc_fireunits(struct ord_calc *c, struct ord_rules *rules)
{
	struct ks_text why;

	ks_text_init(&why);
	ord_calc_value_int(c, "fire_units",
			   ks_fire_units(ks_rules(rules),
					 (int)ord_kv_get_int(ord_calc_args(c), "figurer", 0), &why));
	answer(c, &why);
	ks_text_release(&why);
	return 0;
}

static int calc_decimation(struct ord_calc *c, struct ord_rules *rules)
{
	const struct ks_rules *r = ks_rules(rules);
	int s = (int)ord_kv_get_int(ord_calc_args(c), "start", 0);
	int f = (int)ord_kv_get_int(ord_calc_args(c), "figurer", 0);
	int lvl = ks_decimation(r, s, f);
	struct ks_text why;

	ks_text_init(&why);
	ord_calc_value_int(c, "level", lvl);
	ord_calc_value(c, "morale_floor", lvl == 2 ? "U" : lvl == 1 ? "LU" : "OR");
	KS_TF(&why, "%d af %d figurer tabt", "%d of %d figures lost", s - f, s);
	if (lvl)
		KS_TF(&why, ": over %g%%: %s resten af slaget",
		      ": over %g%%: %s for the rest of the battle",
		      ks_param(r, lvl == 2 ? "decimering_u_pct" : "decimering_lu_pct"),
		      lvl == 2 ? "U" : "LU");
	answer(c, &why);
	ks_text_release(&why);
	return 0;
}

static int calc_fire(struct ord_calc *c, struct ord_rules *rules)
{
	const struct ord_kv *kv = ord_calc_args(c);
	struct ks_fire_in in;
	struct ks_fire_out res;
	struct ord_kv flags;
	struct ks_text why;
	int err;

	memset(&in, 0, sizeof(in));
	ord_kv_init(&flags);
	ks_text_init(&why);
	ord_calc_flags(c, "", &flags);
	in.figures = (int)ord_kv_get_int(kv, "figurer", 0);
	in.target_figures = (int)ord_kv_get_int(kv, "maal_figurer", 0);
	in.vaaben = ord_kv_get(kv, "vaaben");
	in.zone = zone_arg(kv);
	in.half = ord_kv_get_bool(kv, "halv", 0);
	in.flags = &flags;
	if ((err = calc_range(kv, in.zone, &in.range)) != 0 ||
	    (err = take3(c, ks_rules(rules), in.dice, "d")) != 0 ||
	    (err = ks_fire(ks_rules(rules), &in, &res, &why)) != 0)
		goto out;
	ord_calc_value(c, "in_range", res.in_range ? "yes" : "no");
	ord_calc_value(c, "zone", res.zone ? res.zone : "");
	ord_calc_value_int(c, "fire_units", res.fire_units);
	ord_calc_value_num(c, "loss_total", res.loss_total);
	ord_calc_value_num(c, "men_per_unit", res.men_per_unit);
	ord_calc_value_int(c, "men", res.men);
	ord_calc_value_num(c, "morale_total", res.morale_total);
	ord_calc_value(c, "morale", ks_moral_name(res.grade_applied));
	answer(c, &why);
out:
	ord_kv_release(&flags);
	ks_text_release(&why);
	return err;
}

static int calc_artillery(struct ord_calc *c, struct ord_rules *rules)
{
	const struct ord_kv *kv = ord_calc_args(c);
	struct ks_artillery_in in;
	struct ks_artillery_out res;
	struct ord_kv flags;
	struct ks_text why;
	int err;

	memset(&in, 0, sizeof(in));
	ord_kv_init(&flags);
	ks_text_init(&why);
	ord_calc_flags(c, "", &flags);
	in.guns = (int)ord_kv_get_int(kv, "kanoner", 0);
	in.kaliber = ord_kv_get(kv, "kaliber");
	in.ammo = ord_kv_get(kv, "ammo");
	in.zone = zone_arg(kv);
	in.half = ord_kv_get_bool(kv, "halv", 0);
	in.target_figures = (int)ord_kv_get_int(kv, "maal_figurer", 0);
	in.target_artillery = ord_kv_get_bool(kv, "maal_artilleri", 0);
	in.flags = &flags;
	if ((err = calc_range(kv, in.zone, &in.range)) != 0 ||
	    (err = take3(c, ks_rules(rules), in.dice, "d")) != 0 ||
	    (err = ks_artillery(ks_rules(rules), &in, &res, &why)) != 0)
		goto out;
	ord_calc_value(c, "in_range", res.in_range ? "yes" : "no");
	ord_calc_value(c, "zone", res.zone ? res.zone : "");
	ord_calc_value_num(c, "loss_total", res.loss_total);
	ord_calc_value_num(c, "men_per_gun", res.men_per_gun);
	ord_calc_value_int(c, "men", res.men);
	ord_calc_value_int(c, "damaged", res.damaged);
	ord_calc_value_int(c, "destroyed", res.destroyed);
	ord_calc_value_int(c, "limbers", res.limbers);
	ord_calc_value_num(c, "morale_total", res.morale_total);
	ord_calc_value(c, "morale", ks_moral_name(res.grade_applied));
	answer(c, &why);
out:
	ord_kv_release(&flags);
	ks_text_release(&why);
	return err;
}

static int calc_melee(struct ord_calc *c, struct ord_rules *rules)
{
	const struct ks_rules *r = ks_rules(rules);
	const struct ord_kv *kv = ord_calc_args(c);
	struct ks_melee_in in;
	struct ks_melee_out res;
	struct ks_text why;
	int err;

	memset(&in, 0, sizeof(in));
	ord_kv_init(&in.a.flags);
	ord_kv_init(&in.d.flags);
	ks_text_init(&why);
	ord_calc_flags(c, "a_", &in.a.flags);
	ord_calc_flags(c, "d_", &in.d.flags);
	in.a.figures = (int)ord_kv_get_int(kv, "a_figurer", 0);
	in.d.figures = (int)ord_kv_get_int(kv, "d_figurer", 0);
	in.a.ranks = (int)ord_kv_get_int(kv, "a_geledder", 1);
	in.d.ranks = (int)ord_kv_get_int(kv, "d_geledder", 1);
	in.pursuit = ord_kv_get_bool(kv, "forfoelgelse", 0);
	/* the numbers flags unless given */
	if (!ord_kv_get(&in.a.flags, "pct_flere") && !ord_kv_get(&in.a.flags, "gange_2"))
		ks_melee_numbers(r, in.a.figures, in.d.figures, &in.a.flags);
	if (!ord_kv_get(&in.d.flags, "pct_flere") && !ord_kv_get(&in.d.flags, "gange_2"))
		ks_melee_numbers(r, in.d.figures, in.a.figures, &in.d.flags);
	if ((err = take3(c, r, in.a.dice, "a")) != 0 || (err = take3(c, r, in.d.dice, "d")) != 0 ||
	    (err = ks_melee(r, &in, &res, &why)) != 0)
		goto out;
	ord_calc_value(c, "winner", res.winner == 1 ? "a" : res.winner == 2 ? "d" : "none");
	ord_calc_value_num(c, "total_a", res.total_a);
	ord_calc_value_num(c, "total_d", res.total_d);
	ord_calc_value_int(c, "difference", res.difference);
	ord_calc_value_int(c, "product", res.product);
	ord_calc_value(c, "morale", ks_moral_name(res.grade));
	ord_calc_value_int(c, "men_a", res.men_a);
	ord_calc_value_int(c, "men_d", res.men_d);
	ord_calc_value_int(c, "prisoners_a", res.prisoners_a);
	ord_calc_value_int(c, "prisoners_d", res.prisoners_d);
	answer(c, &why);
out:
	ord_kv_release(&in.a.flags);
	ord_kv_release(&in.d.flags);
	ks_text_release(&why);
	return err;
}

static int calc_explosion(struct ord_calc *c, struct ord_rules *rules)
{
	struct ks_text why;
	double share;
	int units, die, err;

	ks_text_init(&why);
	if ((err = ord_calc_die(c, &die, (unsigned)ks_die(ks_rules(rules)), "d1")) != 0 ||
	    (err = ks_explosion(ks_rules(rules), die, ord_kv_get_num(ord_calc_args(c), "kampsatser", 0),
				&share, &units, &why)) != 0)
		goto out;
	ord_calc_value_num(c, "share", share);
	ord_calc_value_int(c, "fire_units", units);
	answer(c, &why);
out:
	ks_text_release(&why);
	return err;
}

static const struct ord_calculation calculations[] = {
	{ "fireunits", fireunits_args, 0, NULL, NULL, calc_fireunits },
	{ "fire", fire_args, KS_DICE, fire_tables, NULL, calc_fire },
	{ "artillery", artillery_args, KS_DICE, art_tables, NULL, calc_artillery },
	{ "melee", melee_args, 2 * KS_DICE, melee_tables, melee_prefixes, calc_melee },
	{ "explosion", explosion_args, 1, NULL, NULL, calc_explosion },
	{ "decimation", decimation_args, 0, NULL, NULL, calc_decimation },
	{ NULL, NULL, 0, NULL, NULL, NULL },
};

static const char *const dice_rolled[] = { "da", "terninger kastet", "en", "dice rolled", NULL };

static const struct ord_calculator calculator = {
	"krigsspil",  /* ruleset */
	calculations, /* calcs */
	"lang",       /* lang_key */
	dice_rolled,  /* dice_rolled */
};

int ks_calc(struct ord_rules *rules, const char *what, const struct ord_kv *args, const int *dice,
	    size_t ndice, int xml, struct ord_buf *out)
{
	return ord_calc_run(&calculator, rules, ks_rules(rules)->tables, what, args, dice, ndice,
			    xml, out);
}

int ks_print_tables(struct ord_rules *rules, const char *table, struct ord_buf *out)
{
	const struct ks_rules *r = ks_rules(rules);
	int err;

	if (table && (!strcmp(table, "kort") || !strcmp(table, "map"))) {
		ks_map_print(r, NULL, !strcmp(table, "map") ? "en" : "da", out);
		return 0;
	}
	err = ord_tables_print(r->tables, table, out);
	if (err == ORD_ENOTFOUND && table)
		return ord_error_set(ORD_ENOTFOUND, "%s (or kort for the map)", ord_error_last());
	return err;
}
