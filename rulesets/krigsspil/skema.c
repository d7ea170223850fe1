/*
 * skema.c - loading the krigsspil module's rules (the slots `load` and
 * `free`, calc.h): the Skema (skema.xml, or a club's copy), or a map
 * document that may carry its own <tables>, checked at once for every
 * table, parameter and column the module reads.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "rulesets/krigsspil/calc.h"
#include "xml/xmlsafe.h"

/* The module's struct ord_rules (opaque to the core). */
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
	{ "skema_xx_geledder", ORD_TABLE_CHART },
	{ "skema_xv_naerkamp_tab", ORD_TABLE_BANDS },
	{ "ordre_varighed", ORD_TABLE_CHART },
	{ "gangarter", ORD_TABLE_CHART },
	{ "march_terraen", ORD_TABLE_CHART },
	{ "hindring_tidsfradrag", ORD_TABLE_CHART },
	{ "march_faktorer", ORD_TABLE_MODIFIERS },
	{ "overskydning", ORD_TABLE_CHART },
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
	"blokering_pct",
	"samling_salve_andel",
	"samling_decimeret_valeur",
	"moral_fuld_andel",
	"halvt_traek_tab",
	"tal_trin_pct",
	"tal_trin_max_pct",
	"tal_gange_fra",
	"tal_gange_max",
	"lu_efter_halve_traek",
	"gennemmarch_faktor",
	"stormmarch_tillaeg_kvarte",
	"stormmarch_frontaendringer",
	"stormmarch_frontaendring_grader",
	"genforsyning_traek",
	"genforsyning_traek_kompagni",
	"reparation_traek",
	"reparation_ved_skydning",
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
	{ "skema_xx_geledder", "vaegt", 0 },
	{ "skema_xv_naerkamp_tab", "tab", 0 },
	{ "skema_xv_naerkamp_tab", "fanger", 0 },
	{ "ordre_varighed", "kvarte", 0 },
	{ "gangarter", "kun_fra", 1 },
	{ "gangarter", "formation", 1 },
	{ "gangarter", "som_art", 1 },
	{ "gangarter", "kolonne", 1 },
	{ "gangarter", "navn", 1 },
	{ "gangarter", "navn_en", 1 },
	{ "gangarter", "andel", 0 },
	{ "march_terraen", "faktor", 0 },
	{ "hindring_tidsfradrag", "andel", 0 },
	{ "overskydning", "min_hoejde", 0 },
	{ "overskydning", "min_afstand", 0 },
	{ "overskydning", "min_bag", 0 },
	{ "overskydning", "bakke_undtaget", 1 },
};

/* The values the code can work with, checked at load like the tables: a
 * die of two faces or more, a firing unit of a figure or more, shares and
 * percents within their whole, whole turns and figures. */
#define WHOLE ORD_TABLES_WHOLE
#define NUM ORD_TABLES_NUM
#define MANY INFINITY
static const struct ord_tables_range ranges[] = {
	WHOLE("terning", 2, 1000),
	WHOLE("britisk_fra", 1, 1000),
	WHOLE("mand_pr_figur", 1, MANY),
	NUM("plade_cm", 1, MANY),
	NUM("indbrudsafstand_cm", 0, MANY),
	WHOLE("figurer_pr_skydeenhed", 1, MANY),
	WHOLE("rest_figurer", 0, MANY),
	WHOLE("kanoner_pr_piece", 1, MANY),
	WHOLE("besaetning_figurer_pr_piece", 0, MANY),
	WHOLE("mindste_enhed", 1, MANY),
	WHOLE("geledder_max", 1, MANY),
	WHOLE("valeur_norm", 1, 12),
	WHOLE("valeur_min", 0, 12),
	WHOLE("hob_under", 0, MANY),
	NUM("stoette_andel", 0, 1),
	NUM("samling_salve_andel", 0, 1),
	NUM("moral_fuld_andel", 0, 1),
	NUM("halvt_traek_tab", 0, 1),
	NUM("gennemmarch_faktor", 0, 1),
	NUM("infanteri", 0, MANY),
	NUM("kavaleri_karabiner", 0, MANY),
	NUM("kanon_fuldkugle_granat", 0, MANY),
	NUM("kanon_kardaesk", 0, MANY),
	NUM("kanon_shrapnel", 0, MANY),
	NUM("forbrug_skydning", 0, MANY),
	/* the limbers' rules (9.2), optional: a Skema without them (a club's,
	 * or the one a game made before them keeps) has no such rule
	 * (ks_rule_limbers, ks_rule_ammo_change) */
	NUM("prods_fri_cm", 0, MANY),
	NUM("prods_baerer_cm", 0.01, MANY),
	WHOLE("prods_baerer_kanoner", 1, MANY),
	NUM("ammoskift_fri_cm", 0, MANY),
	NUM("ammoskift_pr_cm", 0.01, MANY),
	NUM("forbrug_naerkamp_infanteri", 0, MANY),
	NUM("forbrug_koordineret", 0, MANY),
	NUM("forbrug_forsvarsild", 0, MANY),
	WHOLE("genforsyning_traek", 1, MANY),
	WHOLE("genforsyning_traek_kompagni", 1, MANY),
	WHOLE("reparation_traek", 1, MANY),
	WHOLE("reparation_ved_skydning", 0, MANY),
	/* checks a Skema may leave out (ks_check) */
	WHOLE("ammunitionszoner_kontrol", 0, 1),
	WHOLE("brugbare_kanoner_kontrol", 0, 1),
	WHOLE("forfoelgelse_kontrol", 0, 1),
	WHOLE("stoettet_enhed_kontrol", 0, 1),
	WHOLE("stoette_nabo_kontrol", 0, 1),
	WHOLE("hindring_klasse_kontrol", 0, 1),
	WHOLE("fu_formation_kontrol", 0, 1),
	WHOLE("skov_sti_kontrol", 0, 1),
	WHOLE("stormmarch_samme_traek_kontrol", 0, 1),
	WHOLE("hindringskant_kontrol", 0, 1),
	WHOLE("samling_tab_kontrol", 0, 1),
	WHOLE("ordlyd_kontrol", 0, 1),
	WHOLE("skydetid_kontrol", 0, 1),
	WHOLE("hob_kontrol", 0, 1),
	WHOLE("decimering_mand_kontrol", 0, 1),
	WHOLE("loeb_halvt_kontrol", 0, 1),
	WHOLE("dommerflag_kontrol", 0, 1),
	WHOLE("naerkampflag_kontrol", 0, 1),
	WHOLE("umulig_kontrol", 0, 1),
	WHOLE("umulig_mod_over_kontrol", 0, 1),
	WHOLE("reaktion_kontrol", 0, 1),
	WHOLE("overskydning_afstand_kontrol", 0, 1),
	WHOLE("stoette_kontrol", 0, 1),
	WHOLE("overskydning_zone_kontrol", 0, 1),
	WHOLE("bedaekning_kontrol", 0, 1),
	WHOLE("bedaekning_naboer_kontrol", 0, 1),
	WHOLE("koordination_kontrol", 0, 1),
	WHOLE("forsvarsild_maal_kontrol", 0, 1),
	WHOLE("gennemmarch_kosak_kontrol", 0, 1),
	WHOLE("stormmarch_afbrudt_kontrol", 0, 1),
	WHOLE("hvil_decimering_kontrol", 0, 1),
	WHOLE("indskydning_foer_skydning_kontrol", 0, 1),
	WHOLE("fortryd_forsvar_kontrol", 0, 1),
	WHOLE("artilleri_fu_kontrol", 0, 1),
	WHOLE("forfoelgelse_moral_kontrol", 0, 1),
	WHOLE("gennemmarch_skydning_kontrol", 0, 1),
	WHOLE("lu_ordretid_kontrol", 0, 1),
	WHOLE("hvil_stoette_kontrol", 0, 1),
	WHOLE("ammunition_kanoner_kontrol", 0, 1),
	WHOLE("britisk_afbryd_kontrol", 0, 1),
	WHOLE("gensidigt_angreb_kontrol", 0, 1),
	WHOLE("fu_formation_skydning_kontrol", 0, 1),
	WHOLE("geledder_bag_kontrol", 0, 1),
	WHOLE("britisk_linie_kontrol", 0, 1),
	WHOLE("britisk_valeur_kontrol", 0, 1),
	WHOLE("koordination_flere_kontrol", 0, 1),
	WHOLE("forsvarsild_klar_kontrol", 0, 1),
	WHOLE("aendring_undtagelse_kontrol", 0, 1),
	WHOLE("ordre_reorganisering_kontrol", 0, 1),
	WHOLE("flyt_formation_kontrol", 0, 1),
	WHOLE("prods_tab_kontrol", 0, 1),
	WHOLE("flyt_flere_kontrol", 0, 1),
	WHOLE("flyt_retning_kontrol", 0, 1),
	WHOLE("moral_varig_kontrol", 0, 1),
	WHOLE("geledder_bag_moral_kontrol", 0, 1),
	WHOLE("flyt_retning_tt_kontrol", 0, 1),
	WHOLE("flyt_retning_tvungen_kontrol", 0, 1),
	WHOLE("retraete_samme_traek_kontrol", 0, 1),
	WHOLE("soutien_formation_kontrol", 0, 1),
	WHOLE("haandvaaben_batteri_kontrol", 0, 1),
	WHOLE("decimering_u_kontrol", 0, 1),
	WHOLE("formation_samme_kontrol", 0, 1),
	WHOLE("retraete_laengde_kontrol", 0, 1),
	WHOLE("indbrud_flyt_kontrol", 0, 1),
	WHOLE("flugt_position_kontrol", 0, 1),
	WHOLE("modangreb_kontrol", 0, 1),
	WHOLE("stoette_naerkamp_kontrol", 0, 1),
	WHOLE("forsvarsild_naerkamp_kontrol", 0, 1),
	WHOLE("loeb_angreb_kontrol", 0, 1),
	WHOLE("sted_kortets_navn", 0, 1),
	NUM("retraete_maal_cm", 0, MANY),
	NUM("flyt_retning_grader", 0, 180),
	NUM("flyt_retning_min_cm", 0, MANY),
	WHOLE("skydemaal_kontrol", 0, 1),
	NUM("spredt_foran_cm", 0, MANY),
	NUM("spredt_foran_artilleri_cm", 0, MANY),
	WHOLE("beregner_forfoelgelse_kontrol", 0, 1),
	NUM("skovkant_cm", 0, MANY),
	WHOLE("hindring_lu_klasse_infanteri", 1, 3),
	NUM("decimering_lu_pct", 0, 100),
	NUM("decimering_u_pct", 0, 100),
	NUM("efternoelere_pct", 0, 100),
	NUM("forfoelgelse_pct", 0, 100),
	NUM("blokering_pct", 0, 100),
	/* a step of 0% would silently take the numbers bonus away (16.5) */
	NUM("tal_trin_pct", 0.01, 100),
	NUM("tal_trin_max_pct", 0.01, 100),
	WHOLE("kvarte_pr_traek", 1, 100),
	WHOLE("reaktionstid_kvarte", 0, 100),
	WHOLE("stormmarch_i_traek", 0, MANY),
	WHOLE("loeb_hvert", 0, MANY),
	WHOLE("artilleri_march_i_traek", 0, MANY),
	WHOLE("prolongering_i_traek", 0, MANY),
	WHOLE("valeur_fri_traek", 0, MANY),
	WHOLE("hvil_foer_genvinding", 0, MANY),
	WHOLE("britisk_traek", 0, MANY),
	WHOLE("efternoelere_efter_traek", 0, MANY),
	WHOLE("overgivelse_forfoelgelser", 0, MANY),
	WHOLE("lu_efter_halve_traek", 0, MANY),
	WHOLE("aendring_kvarte", 0, MANY),
	NUM("zone_i_cm", 0, MANY),
	NUM("zone_ii_cm", 0, MANY),
};
#undef WHOLE
#undef NUM
#undef MANY

/* ---- loading -------------------------------------------------------------- */

/* Rules a Skema may leave out, each whole: its numbers all there or none
 * (ks_rule_limbers, ks_rule_ammo_change); NULL ends a rule. */
static const char *const optional_rules[][4] = {
	{ "prods_fri_cm", "prods_baerer_cm", "prods_baerer_kanoner", NULL },
	{ "ammoskift_fri_cm", "ammoskift_pr_cm", NULL, NULL },
};

/* A rule given in part is a mistake, not a rule left out: name what is
 * missing where the rest stands. */
static int check_optional_rules(const struct ord_tables *t)
{
	size_t i, k;

	for (i = 0; i < ORD_ARRAY_SIZE(optional_rules); i++) {
		const struct ord_row *given = NULL;
		const char *missing = NULL;
		for (k = 0; k < 4 && optional_rules[i][k]; k++) {
			const struct ord_row *row = ord_tables_param_row(t, optional_rules[i][k]);
			if (row && !given)
				given = row;
			else if (!row && !missing)
				missing = optional_rules[i][k];
		}
		if (given && missing)
			return ord_error_set(ORD_EBADDATA,
					     "%s:%u: parameter '%s' is missing: the rule of '%s' (9.2) needs all of its numbers, or none (then the Skema has no such rule)",
					     ord_tables_name(t), ord_row_line(given), missing,
					     optional_rules[i][0]);
	}
	return 0;
}

/* Tables read by die rolls cover every roll their dice can give, and a
 * morale label is a grade: checked at load with the file and line by the
 * tables engine, not when the roll comes up (a row deleted, "XX" for
 * "FU"). */
static const struct ord_tables_dice dice_tables[] = {
	{ "skema_x", 1 }, /* 3d6 and its modifiers */
	{ "skema_xv", 1 },
	{ "eksplosion", 0 }, /* one die alone */
};
static const struct ord_tables_words morale_labels[] = {
	{ "skema_x", "moral", "- OR LU U FU" },
	{ "skema_xv", "moral", "- OR LU U FU" },
	{ "skema_xx", "moral", "- OR LU U FU" },
};

/* An obstacle class is one the moves know (move.c's class_rank would take
 * a misspelt one for III): checked with hindringskant_kontrol, which
 * ranks them, so that a Skema made before it loads as it did. */
static const struct ord_tables_words obstacle_classes[] = {
	{ "terraen", "kant", "ingen I II III impassabel" },
	{ "hindringer", "klasse", "ingen I II III impassabel" },
	{ "vandloeb", "klasse", "ingen I II III impassabel" },
};

/* The numbers a switch needs: a Skema with the switch on and without
 * its numbers is refused at load, naming them, not when a fire reads a
 * 0.  A Skema without the switch (a game made before it) needs none. */
static const char *const switch_numbers[][3] = {
	{ "skydemaal_kontrol", "spredt_foran_cm", "spredt_foran_artilleri_cm" },
};

static int check_switch_numbers(const struct ord_tables *t)
{
	size_t i, k;

	for (i = 0; i < ORD_ARRAY_SIZE(switch_numbers); i++) {
		if (!ord_tables_switch(t, switch_numbers[i][0]))
			continue;
		for (k = 1; k < 3; k++)
			if (!ord_tables_param_row(t, switch_numbers[i][k]))
				return ord_error_set(ORD_EBADDATA,
						     "%s:%u: parameter '%s' is missing: '%s' needs it (or set the switch to 0)",
						     ord_tables_name(t),
						     ord_row_line(
							     ord_tables_param_row(t,
										  switch_numbers[i][0])),
						     switch_numbers[i][k], switch_numbers[i][0]);
	}
	return 0;
}

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

	int err = ord_tables_require(t, &needs);

	if (!err)
		err = check_optional_rules(t);
	if (!err)
		err = check_switch_numbers(t);
	if (!err)
		err = ord_tables_check_ranges(t, ranges, ORD_ARRAY_SIZE(ranges));
	if (!err)
		err = ord_tables_check_dice(t, dice_tables, ORD_ARRAY_SIZE(dice_tables));
	if (!err)
		err = ord_tables_check_words(t, morale_labels, ORD_ARRAY_SIZE(morale_labels));
	if (!err && ord_tables_switch(t, "hindringskant_kontrol"))
		err = ord_tables_check_words(t, obstacle_classes, ORD_ARRAY_SIZE(obstacle_classes));
	return err;
}

/* The <tables> a map carries, its own bytes at their own lines (the lines
 * before it left empty), so that the tables engine's messages name the
 * map's lines: a tag written over several lines stays so.  Only if its
 * bytes cannot be found, the tree's copy of it (whose tags stand on one
 * line each, so that later lines are named early). */
static int load_inner_tables(struct ord_tables **out, xmlNodePtr n, const struct ord_xml_lines *l,
			     const char *name)
{
	struct ord_buf b = ORD_BUF_INIT;
	const char *at;
	size_t n_at;
	long line, i;
	int err;

	if (ord_xml_element_bytes(l, n, &at, &n_at) == 0) {
		line = (long)ord_xml_start_line(l, n);
		for (i = 1; i < line; i++)
			ord_buf_addch(&b, '\n');
		ord_buf_add(&b, at, n_at);
	} else {
		xmlBufferPtr xb = xmlBufferCreate();

		for (i = 1, line = xmlGetLineNo(n); i < line; i++)
			ord_buf_addch(&b, '\n');
		xmlNodeDump(xb, n->doc, n, 0, 0);
		ord_buf_add(&b, xmlBufferContent(xb), (size_t)xmlBufferLength(xb));
		xmlBufferFree(xb);
	}
	err = ord_tables_load(out, b.buf, b.len, name);
	ord_buf_release(&b);
	return err;
}

int ks_load(struct ord_rules **out, const char *xml, size_t len, const char *name)
{
	struct ord_rules *rules = NULL;
	struct ord_tables *t = NULL;
	struct ks_map *map = NULL;
	struct ord_xml_lines lines;
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
	memset(&lines, 0, sizeof(lines));
	if ((err = ord_xml_parse(&doc, xml, len, name)) != 0)
		goto out;
	root = xmlDocGetRootElement(doc);
	if (root && !xmlStrcmp(root->name, BAD_CAST "map")) {
		xmlNodePtr inner;
		double plate;

		if ((err = ord_xml_validate(doc, "schema/krigsspil-map.rng", name)) != 0)
			goto out;
		/* messages about the map name the lines its tags begin on */
		ord_xml_lines_init(&lines, xml, len, doc);
		inner = ord_xml_child(root, "tables");
		if (inner) {
			err = load_inner_tables(&t, inner, &lines, name);
		} else {
			const struct ord_resource *res = ord_resource_find(SKEMA_RESOURCE);
			err = res ? ord_tables_load(&t, (const char *)res->data, res->len, SKEMA_RESOURCE)
				  : ord_error_set(ORD_ERROR, "tables '%s' are not built in",
						  SKEMA_RESOURCE);
		}
		if (err || (err = check_tables(t)) != 0)
			goto out;
		ord_tables_param(t, "plade_cm", &plate);
		if ((err = ks_map_from_xml(&map, root, &lines, name, plate)) != 0)
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
	ord_xml_lines_release(&lines);
	ord_tables_free(t);
	ks_map_free(map);
	return err;
}

/* Where the root's end tag starts: the last "</map" outside comments,
 * CDATA sections and processing instructions (the document is
 * well-formed: ord_xml_parse read it). */
static const char *map_end_tag(const char *xml, size_t len)
{
	const char *p = xml, *end = xml + len, *last = NULL;
	size_t skip;

	while (p < end) {
		if ((skip = ord_xml_special_len(p, end)) != 0) {
			p += skip;
			continue;
		}
		if ((size_t)(end - p) >= 5 && !memcmp(p, "</map", 5))
			last = p;
		p++;
	}
	return last;
}

/*
 * A map without a Skema of its own is kept with the built-in one written
 * in before its end tag, as a club's own would stand there: the game then
 * replays on the Skema it was made with, whatever a later orderly builds
 * in.  The map's own lines stay where they were (its messages name them).
 */
int ks_complete_tables(const char *xml, size_t len, const char *name, struct ord_buf *out)
{
	const struct ord_resource *res;
	xmlDocPtr doc = NULL;
	xmlNodePtr root;
	const char *end, *skema, *p;
	int err;

	if ((err = ord_xml_parse(&doc, xml, len, name)) != 0)
		return err;
	root = xmlDocGetRootElement(doc);
	if (!root || xmlStrcmp(root->name, BAD_CAST "map") || ord_xml_child(root, "tables"))
		goto out; /* a Skema, or a map with its own: whole */
	if (!(res = ord_resource_find(SKEMA_RESOURCE))) {
		err = ord_error_set(ORD_ERROR, "tables '%s' are not built in", SKEMA_RESOURCE);
		goto out;
	}
	skema = strstr((const char *)res->data, "<tables");
	end = map_end_tag(xml, len);
	if (!skema || !end) {
		err = ord_error_set(ORD_EBADDATA, "%s: no end tag </map> to keep the Skema before",
				    name);
		goto out;
	}
	for (p = (const char *)res->data + res->len; p > skema && (p[-1] == '\n' || p[-1] == ' ');)
		p--;
	ord_buf_add(out, xml, (size_t)(end - xml));
	ord_buf_adds(out,
		     "<!-- the Skema built into orderly when this game was made (the map had\n"
		     "     none of its own): kept with the map, the game is replayed on it -->\n");
	ord_buf_add(out, skema, (size_t)(p - skema));
	ord_buf_addch(out, '\n');
	ord_buf_add(out, end, len - (size_t)(end - xml));
out:
	xmlFreeDoc(doc);
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

/* check_optional_rules made sure a rule is whole: its first number says */
int ks_rule_limbers(const struct ks_rules *r)
{
	return ord_tables_param_row(r->tables, optional_rules[0][0]) != NULL;
}

int ks_rule_ammo_change(const struct ks_rules *r)
{
	return ord_tables_param_row(r->tables, optional_rules[1][0]) != NULL;
}

int ks_check(const struct ks_rules *r, const char *name)
{
	return ord_tables_switch(r->tables, name);
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
