/*
 * report.c - a krigsspil unit as a side sees it in its turn report, in both
 * languages: its own units in full (strength, ammunition, morale and why,
 * the terrain under it), the enemy's as they stand on the table; the
 * referee's report ends with the map and the units' plates marked.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/krigsspil/ks.h"

/* ---- reports ---- */

static void add_both(struct ks_text *t, const char *da, const char *en)
{
	ks_text_add(t, da, en);
}

static void describe_terrain(struct ord_ctx *ctx, const struct ord_unit *u, struct ks_text *t)
{
	struct ks_rules *r = ks_r(ctx);

	if (!ks_st_has(ctx, u, "x"))
		return;
	KS_TF(t, ", x=%s y=%s", ", x=%s y=%s", ks_st_str(ctx, u, "x"), ks_st_str(ctx, u, "y"));
	if (r->map) {
		ks_text_add(t, " (", " (");
		ks_map_describe(r, ks_st_num(ctx, u, "x"), ks_st_num(ctx, u, "y"), t);
		ks_text_add(t, ")", ")");
	}
}

static void formation_words(struct ord_ctx *ctx, const struct ord_unit *u, struct ks_text *t)
{
	add_both(t, ks_formation_name(ctx, u, ks_form(ctx, u), "da"),
		 ks_formation_name(ctx, u, ks_form(ctx, u), "en"));
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
	struct ord_kv marks, texts;
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
		if (ks_gone(ctx, v) || !ks_st_has(ctx, v, "x"))
			continue;
		ks_map_axial(r->map, ks_st_num(ctx, v, "x"), ks_st_num(ctx, v, "y"), &q, &rr);
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
	ord_kv_init(&texts);
	ord_kv_set(&texts, "da", da.buf);
	ord_kv_set(&texts, "en", en.buf);
	ord_buf_addch(out, '\n');
	ord_texts_add(ctx, out, &texts);
	ord_kv_release(&texts);
	ord_kv_release(&marks);
	ord_buf_release(&da);
	ord_buf_release(&en);
}

int ks_describe_unit(struct ord_ctx *ctx, const struct ord_unit *u, const char *viewer,
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
		KS_TF(&t, " %s pund", " %s pdr", ks_attr(u, "kaliber"));
	KS_TF(&t, ", %s): ", ", %s): ",
	      ord_kv_get(&u->attrs, "nation") ? ord_kv_get(&u->attrs, "nation") : "ukendt");
	if (ks_st(ctx, u, "overgivet")) {
		ks_text_add(&t, "har overgivet sig", "has surrendered");
		goto done;
	}
	if (ks_st(ctx, u, "fjernet") && *ks_st_str(ctx, u, "samlet_i")) {
		KS_TF(&t, "sammenlagt med %s (6.2)", "merged into %s (6.2)",
		      ks_st_str(ctx, u, "samlet_i"));
		goto done;
	} else if (ks_st(ctx, u, "fjernet")) {
		ks_text_add(&t, "tabt og fjernet fra spillet", "lost and removed from the game");
		goto done;
	}
	grade = ks_moral_at(ctx, u, h, NULL);
	if (own) {
		if (art) {
			KS_TF(&t, "%ld kanoner", "%ld guns", ks_st(ctx, u, "kanoner"));
			if (ord_kv_get_int(&u->attrs, "haubitser", 0))
				KS_TF(&t, " (heraf %ld haubitser)", " (%ld of them howitzers)",
				      ord_kv_get_int(&u->attrs, "haubitser", 0));
			if (ks_st(ctx, u, "beskadiget") || ks_st(ctx, u, "oedelagt"))
				KS_TF(&t, ", %ld beskadiget, %ld ødelagt",
				      ", %ld damaged, %ld destroyed", ks_st(ctx, u, "beskadiget"),
				      ks_st(ctx, u, "oedelagt"));
			if (ks_st(ctx, u, "prods_tab"))
				KS_TF(&t, ", %ld prods tabt", ", %ld limbers lost",
				      ks_st(ctx, u, "prods_tab"));
			{
				int paa = !strcmp(ks_st_str(ctx, u, "prodset"), "paa");
				int klar = ks_st(ctx, u, "klargjort") != 0;
				ord_buf_addf(&t.da, ", %s, %s", paa ? "påprodset" : "afprodset",
					     klar ? "klargjort" : "ikke klargjort");
				ord_buf_addf(&t.en, ", %s, %s", paa ? "limbered" : "unlimbered",
					     klar ? "ready" : "not ready");
			}
			KS_TF(&t, "; kampsatser: fuldkugle/granat %s, kardæsk %s, shrapnel %s",
			      "; ammunition: roundshot/shell %s, canister %s, shrapnel %s",
			      ks_st_str(ctx, u, "ks_fuldkugle"), ks_st_str(ctx, u, "ks_kardaesk"),
			      ks_st_str(ctx, u, "ks_shrapnel"));
		} else {
			KS_TF(&t, "%ld af %ld figurer", "%ld of %ld figures",
			      ks_st(ctx, u, "figurer"), (long)ks_start_figures(ctx, u));
			if (ks_st(ctx, u, "tab_mand") || ks_st(ctx, u, "fanger") ||
			    ks_st(ctx, u, "efternoelere")) {
				const char *sep = "";
				ks_text_add(&t, " (", " (");
				if (ks_st(ctx, u, "tab_mand")) {
					KS_TF(&t, "%ld mand døde og sårede",
					      "%ld men killed and wounded", ks_st(ctx, u, "tab_mand"));
					sep = ", ";
				}
				if (ks_st(ctx, u, "fanger")) {
					KS_TF(&t, "%s%ld mand til fange", "%s%ld men taken prisoner",
					      sep, ks_st(ctx, u, "fanger"));
					sep = ", ";
				}
				if (ks_st(ctx, u, "efternoelere")) {
					long n = ks_st(ctx, u, "efternoelere");
					ord_buf_addf(&t.da, "%s%ld %s efternølere", sep, n,
						     n == 1 ? "figur" : "figurer");
					ord_buf_addf(&t.en, "%s%ld %s", sep, n,
						     n == 1 ? "figure straggled" : "figures straggled");
				}
				ks_text_add(&t, ")", ")");
			}
			KS_TF(&t, ", valeur %s", ", valeur %s", ks_st_str(ctx, u, "valeur"));
			long start = ord_kv_get_int(&u->attrs, "valeur",
						    (long)ks_param(ks_r(ctx), "valeur_norm"));
			if (ks_st(ctx, u, "valeur") != start)
				KS_TF(&t, " (start %ld)", " (start %ld)", start);
			ks_text_add(&t, ", ", ", ");
			formation_words(ctx, u, &t);
			if (ks_is(ctx, u, "infanteri") || ord_kv_get_bool(&u->attrs, "karabiner", 0))
				KS_TF(&t, ", %s kampsatser", ", %s rounds of ammunition",
				      ks_st_str(ctx, u, "kampsatser"));
			if (ks_st(ctx, u, "foerste_salve"))
				ks_text_add(&t, ", 1. skydning", ", first volley");
			if (ks_st(ctx, u, "foerste_storm"))
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
		if (ks_st(ctx, u, "decimering"))
			KS_TF(&t, "; decimeret (over %g%% tab)", "; decimated (over %g%% lost)",
			      ks_param(ks_r(ctx), ks_st(ctx, u, "decimering") >= 2
							  ? "decimering_u_pct"
							  : "decimering_lu_pct"));
		if (ks_st(ctx, u, "stormmarch_sidst"))
			KS_TF(&t, "; sidste stormmarch træk %ld", "; last stormmarch turn %ld",
			      ks_st(ctx, u, "stormmarch_sidst"));
		if (ks_st(ctx, u, "loeb_sidst"))
			KS_TF(&t, "; sidste løb træk %ld", "; last løb turn %ld",
			      ks_st(ctx, u, "loeb_sidst"));
		if (ks_st(ctx, u, "kamp_traek")) {
			ord_buf_addf(&t.da, "; %ld træk i kamp", ks_st(ctx, u, "kamp_traek"));
			ord_buf_addf(&t.en, "; %ld turn%s engaged", ks_st(ctx, u, "kamp_traek"),
				     ks_st(ctx, u, "kamp_traek") == 1 ? "" : "s");
		}
		if (ks_st(ctx, u, "flugt_traek")) {
			ord_buf_addf(&t.da, "; på flugt i %ld træk", ks_st(ctx, u, "flugt_traek"));
			ord_buf_addf(&t.en, "; fleeing for %ld turn%s", ks_st(ctx, u, "flugt_traek"),
				     ks_st(ctx, u, "flugt_traek") == 1 ? "" : "s");
		}
		if (ks_st(ctx, u, "britisk_kontrol_til") >= ord_ctx_turn(ctx))
			KS_TF(&t, "; ude af kontrol til træk %ld", "; out of control until turn %ld",
			      ks_st(ctx, u, "britisk_kontrol_til"));
		if (*ks_st_str(ctx, u, "indskudt_paa") &&
		    ks_st(ctx, u, "indskudt_fra") > ord_ctx_turn(ctx) + 1)
			KS_TF(&t, "; indskudt på %s fra træk %ld", "; ranged on %s from turn %ld",
			      ks_st_str(ctx, u, "indskudt_paa"), ks_st(ctx, u, "indskudt_fra"));
		else if (*ks_st_str(ctx, u, "indskudt_paa"))
			KS_TF(&t, "; indskudt på %s", "; ranged on %s",
			      ks_st_str(ctx, u, "indskudt_paa"));
		if (ks_st(ctx, u, "reparation_traek") > 0)
			KS_TF(&t, "; repareres: %ld kanoner, %ld af %g træk (træk %ld)",
			      "; under repair: %ld guns, %ld of %g turns (turn %ld)",
			      ks_st(ctx, u, "reparation_kanoner"), ks_st(ctx, u, "reparation_traek"),
			      ks_param(ks_r(ctx), "reparation_traek"),
			      ks_st(ctx, u, "reparation_sidst"));
		if (ks_st(ctx, u, "genforsyning_traek") > 0)
			KS_TF(&t, "; genforsynes: %ld af %d træk (træk %ld)",
			      "; being resupplied: %ld of %d turns (turn %ld)",
			      ks_st(ctx, u, "genforsyning_traek"), ks_resupply_turns(ctx, u),
			      ks_st(ctx, u, "genforsyning_sidst"));
		describe_terrain(ctx, u, &t);
	} else {
		/* what the enemy sees on the table: figures, formation, state */
		if (art) {
			int paa = !strcmp(ks_st_str(ctx, u, "prodset"), "paa");
			ord_buf_addf(&t.da, "%ld kanoner, %s", ks_st(ctx, u, "kanoner"),
				     paa ? "påprodset" : "afprodset");
			ord_buf_addf(&t.en, "%ld guns, %s", ks_st(ctx, u, "kanoner"),
				     paa ? "limbered" : "unlimbered");
		} else {
			KS_TF(&t, "ca. %ld figurer", "about %ld figures", ks_st(ctx, u, "figurer"));
		}
		if (!art) {
			ks_text_add(&t, ", ", ", ");
			formation_words(ctx, u, &t);
		}
		KS_TF(&t, ", moral %s", ", morale %s", ks_moral_name(grade));
		describe_terrain(ctx, u, &t);
	}
done:
	ks_text_write(ctx, &t, out);
	ks_text_release(&t);
	/* the referee's report: the map after the last unit */
	if (!viewer && ord_ctx_unit_index(ctx, u) + 1 == ord_ctx_nunits(ctx))
		referee_map(ctx, out);
	return 0;
}
