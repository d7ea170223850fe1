/*
 * events.c - the krigsspil module's checks of the referee's events against
 * the sealed orders and the units' state (check_event), and after the
 * exchange what was ordered but not done (check_execution).  The checks of
 * a sheet are validate.c's; what a move crosses is checked by both.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/krigsspil/ks.h"

/* ---- events ---- */

static int same_unit(struct ord_ctx *ctx, const char *written, const struct ord_unit *u)
{
	return written && u && ord_ctx_find_unit(ctx, written) == u;
}

static struct ord_unit *ev_unit(struct ord_ctx *ctx, const struct ord_event *ev, const char *key)
{
	const char *v = ord_kv_get(&ev->kv, key);
	return v ? ord_ctx_find_unit(ctx, v) : NULL;
}

/* The groups of a unit's order this turn. */
static size_t unit_groups(struct ord_ctx *ctx, const struct ord_unit *u, struct ks_group *g,
			  const struct ord_order **o)
{
	*o = ord_ctx_order(ctx, u);
	return ks_groups(*o, g, KS_MAX_GROUPS);
}

/* Does u's order merge it with w (SA @w)? */
static int ordered_merge(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_unit *w)
{
	const struct ord_order *o = ord_ctx_order(ctx, u);
	struct ks_group g[KS_MAX_GROUPS];
	size_t n = ks_groups(o, g, KS_MAX_GROUPS), i, k;

	for (i = 0; i < n; i++) {
		if (strcmp(g[i].code, "samling"))
			continue;
		for (k = g[i].first; k < g[i].end; k++)
			if (o->tok[k].kind == ORD_TOK_TARGET && same_unit(ctx, o->tok[k].value, w))
				return 1;
	}
	return 0;
}

/* Does the referee's list "a,b=2,c=no" give flag (not as "=no")? */
static int flag_given(const char *list, const char *flag)
{
	size_t fl = strlen(flag);
	const char *p = list;

	while (p && *p) {
		size_t len = strcspn(p, ",");
		if (len == fl && !strncmp(p, flag, fl))
			return 1;
		if (len > fl && p[fl] == '=' && !strncmp(p, flag, fl))
			return strncmp(p + fl, "=no", 3) || len != fl + 3;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* Is name a flag of one of the tables' rows (when= or unless=)? */
static int flag_known(struct ord_ctx *ctx, const char *const *tables, const char *name)
{
	int t;

	for (t = 0; tables[t]; t++) {
		const struct ord_table *tbl = ks_table(ks_r(ctx), tables[t]);
		size_t i;
		for (i = 0; tbl && i < ord_table_nrows(tbl); i++) {
			const char *w = ord_row_attr(ord_table_row(tbl, i), "when");
			const char *un = ord_row_attr(ord_table_row(tbl, i), "unless");
			if ((w && ord_words_has(w, name)) || (un && ord_words_has(un, name)))
				return 1;
		}
	}
	return 0;
}

/* The message for flag name, which no row of the tables names: the flag
 * closest to it as a hint (ord_words_hint), and every flag the tables'
 * rows name (the rules are the tables' data). */
static void flag_unknown(struct ord_ctx *ctx, const char *const *tables, const char *key,
			 const char *name, struct ord_buf *out)
{
	struct ord_buf all = ORD_BUF_INIT;
	int t;

	for (t = 0; tables[t]; t++) {
		const struct ord_table *tbl = ks_table(ks_r(ctx), tables[t]);
		size_t i;
		for (i = 0; tbl && i < ord_table_nrows(tbl); i++) {
			const char *lists[2] = { ord_row_attr(ord_table_row(tbl, i), "when"),
						 ord_row_attr(ord_table_row(tbl, i), "unless") };
			int k;
			for (k = 0; k < 2; k++) {
				const char *q = lists[k], *wd;
				size_t wl;
				char word[128];
				while (q && (wd = ord_words_next(&q, &wl)) != NULL) {
					if (wl >= sizeof(word))
						continue;
					memcpy(word, wd, wl);
					word[wl] = '\0';
					if (!ord_words_has(all.buf, word))
						ord_words_add(&all, " ", word);
				}
			}
		}
	}
	ord_buf_addf(out, "%s: unknown modifier flag '%s'", key, name);
	ord_words_hint(out, all.buf ? all.buf : "", name);
	ord_buf_addf(out, " (expected one of %s)", all.buf ? all.buf : "");
	ord_buf_release(&all);
}

/* The first flag of list ("a,b,c" or "a=2,b") that no row of the tables
 * names, its message in out: 1, else 0. */
static int flags_unknown(struct ord_ctx *ctx, const char *list, const char *const *tables,
			 const char *key, struct ord_buf *out)
{
	const char *p = list;

	while (p && *p) {
		size_t len = strcspn(p, ",");
		char name[128];
		size_t nl = strcspn(p, ",=");

		if (nl > len)
			nl = len;
		if (nl && nl < sizeof(name)) {
			memcpy(name, p, nl);
			name[nl] = '\0';
			if (!flag_known(ctx, tables, name)) {
				flag_unknown(ctx, tables, key, name, out);
				/* an events file's refusal is put at the word */
				ord_ctx_refuse_arg(ctx, key, name);
				return 1;
			}
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* The referee's flags: "a,b,c" or "a=2,b"; each must be a flag of one of
 * the tables.  An event recorded now has had its flags refused as
 * arguments (ks_event_flags_unknown); this finds one stored before. */
static void check_flags(struct ord_ctx *ctx, const char *list, const char *const *tables,
			const char *key, const char *unit, struct ord_diag *d)
{
	struct ord_buf why = ORD_BUF_INIT;

	if (flags_unknown(ctx, list, tables, key, &why))
		ord_diag_add(d, 0, 0, unit, "Skema", "%s", why.buf);
	ord_buf_release(&why);
}

static const char *const fire_flag_tables[] = { "skema_x_tab_a", "skema_x_tab_b", "skema_x_moral",
						NULL };
static const char *const artillery_flag_tables[] = { "skema_xv_tab_a", "skema_xv_tab_b",
						     "skema_xv_moral", NULL };
static const char *const melee_flag_tables[] = { "skema_xv_naerkamp", NULL };

int ks_event_flags_unknown(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_buf *out)
{
	if (!strcmp(ev->kind, "skyd"))
		return flags_unknown(ctx, ord_kv_get(&ev->kv, "flag"), fire_flag_tables, "flag", out);
	if (!strcmp(ev->kind, "artilleri") || !strcmp(ev->kind, "forsvarsild"))
		return flags_unknown(ctx, ord_kv_get(&ev->kv, "flag"), artillery_flag_tables,
				     "flag", out);
	if (!strcmp(ev->kind, "naerkamp"))
		return flags_unknown(ctx, ord_kv_get(&ev->kv, "a_flag"), melee_flag_tables,
				     "a_flag", out) ||
		       flags_unknown(ctx, ord_kv_get(&ev->kv, "d_flag"), melee_flag_tables,
				     "d_flag", out);
	return 0;
}

/* Is flag counted (mode per) in one of tables' modifiers: pct_flere,
 * naboer, valeur_diff take a number, the rest yes or no. */
static int counted_flag(struct ord_ctx *ctx, const char *const *tables, const char *flag)
{
	size_t i, k;

	for (k = 0; tables[k]; k++) {
		const struct ord_table *t = ks_table(ks_r(ctx), tables[k]);
		for (i = 0; t && i < ord_table_nrows(t); i++) {
			const struct ord_row *row = ord_table_row(t, i);
			const char *mode = ord_row_attr(row, "mode"), *w = ord_row_attr(row, "when");
			if (mode && !strcmp(mode, "per") && w && ord_words_has(w, flag))
				return 1;
		}
	}
	return 0;
}

/* K10: the referee's flag k=v given with key (flag, a_flag, d_flag) on
 * unit against own, what the module works out itself: refused when it
 * says otherwise, a flag tables count by its number, the rest yes or no. */
static void own_flag_against(struct ord_ctx *ctx, const char *const *tables, const char *key,
			     const char *unit, const struct ord_kv *given, const char *k,
			     const char *v, const struct ord_kv *own, struct ord_diag *d)
{
	const char *m = ord_kv_get(own, k);
	int count = counted_flag(ctx, tables, k), differs;

	if (count)
		differs = fabs(strtod(v, NULL) - (m ? strtod(m, NULL) : 0)) > 1e-9;
	else
		differs = ord_kv_get_bool(given, k, 0) != (m && ord_kv_get_bool(own, k, 0));
	if (differs)
		ord_diag_add(d, 0, 0, unit, "K10",
			     "%s: %s=%s against what the module works out itself from the units' state and the event (%s=%s): leave it out (--override records it anyway)",
			     key, k, v, k,
			     m       ? m
			     : count ? "0"
				     : "no");
}

/* K10: the referee gives with flag= what the module cannot see (a flank,
 * cover, smoke he judges); a flag the module works out itself from the
 * units' state and the event (ks_fire_own_flags: the zone, the first
 * volley, the firer's and the target's morale, formation and valeur)
 * given against what it works out is refused (dommerflag_kontrol: a game
 * made before took it on top of the module's, zone I in zone II too). */
static void check_own_flags(struct ord_ctx *ctx, const struct ord_event *ev,
			    const struct ord_unit *u, const char *const *tables, struct ord_diag *d)
{
	struct ord_kv own, given;
	size_t i;

	if (!ord_kv_get(&ev->kv, "flag") || !ks_check(ks_r(ctx), "dommerflag_kontrol"))
		return;
	ord_kv_init(&own);
	ord_kv_init(&given);
	ks_fire_own_flags(ctx, ev, &own);
	ks_referee_flags(ord_kv_get(&ev->kv, "flag"), &given);
	for (i = 0; i < given.n; i++)
		if (ks_fire_own_flag(ev->kind, given.items[i].key))
			own_flag_against(ctx, tables, "flag", u->id, &given, given.items[i].key,
					 given.items[i].value, &own, d);
	ord_kv_release(&own);
	ord_kv_release(&given);
}

static int fired_this_turn(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u)
{
	size_t i;

	for (i = 0; i < ord_ctx_unit_nevents(ctx, u); i++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, u, i);
		if (e->seq == ev->seq)
			continue;
		if ((!strcmp(e->kind, "skyd") || !strcmp(e->kind, "artilleri") ||
		     !strcmp(e->kind, "forsvarsild")) &&
		    ev_unit(ctx, e, "unit") == u)
			return (int)e->seq;
	}
	return ks_st(ctx, u, "skoed") == ord_ctx_turn(ctx) ? -1 : 0;
}

/* "Koordination af flere batterier skal angives på ordreseddelen" and "For
 * at kunne koordinere skal hvert batteri have indskudt på målet" (15): an
 * artilleri event's koordineret=yes, which gives +1 and spends 1 1/2
 * rounds a gun, is the sheet's KO at that target, on a target the battery
 * has ranged on.  It was taken as the referee gave it
 * (koordination_kontrol; a game made before did so). */
static void check_coordinated(struct ord_ctx *ctx, const struct ord_event *ev,
			      const struct ord_unit *u, const struct ord_unit *t, struct ord_diag *d)
{
	struct ks_group g[KS_MAX_GROUPS];
	const struct ord_order *o;
	size_t n;

	if (!ks_check(ks_r(ctx), "koordination_kontrol") ||
	    !ord_kv_get_bool(&ev->kv, "koordineret", 0) || !t)
		return;
	if (!ks_ordered_at(ctx, u, "koordination", t, &o, g, &n)) {
		ord_diag_add(d, 0, 0, u->id, "15 koordinering",
			     "battery '%s' fires coordinated (koordineret=yes) but its sheet orders no "
			     "'KO ... @%s': coordination is given on the order sheet",
			     u->id, t->id);
		return;
	}
	if (!ks_ranged(ctx, u, t->id))
		ord_diag_add(d, 0, 0, u->id, "15 koordinering",
			     "to coordinate, battery '%s' must have ranged on '%s' (it has ranged on %s)",
			     u->id, t->id,
			     *ks_st_str(ctx, u, "indskudt_paa") ? ks_st_str(ctx, u, "indskudt_paa")
								: "nothing");
}

/* 15.1: a battery gives defensive fire at an attacker "hvis ... Det ikke
 * har skudt, eller ordre til at skyde, på andre mål i trækket": a fire
 * this turn or an order to fire at another unit bars it, one at the
 * attacker does not; a defensive fire already given this turn does
 * (forsvarsild_maal_kontrol). */
static void check_defensive_targets(struct ord_ctx *ctx, const struct ord_event *ev,
				    const struct ord_unit *u, const struct ord_unit *t,
				    struct ord_diag *d)
{
	struct ks_group g[KS_MAX_GROUPS];
	const struct ord_order *o;
	const char *other = NULL;
	size_t i, n;

	for (i = 0; i < ord_ctx_unit_nevents(ctx, u); i++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, u, i);
		if (e->seq == ev->seq || ev_unit(ctx, e, "unit") != u)
			continue;
		if (!strcmp(e->kind, "forsvarsild")) {
			ord_diag_add(d, 0, 0, u->id, "15.1 forsvarsskydning",
				     "battery '%s' gave its defensive fire already this turn", u->id);
			return;
		}
		if ((!strcmp(e->kind, "skyd") || !strcmp(e->kind, "artilleri")) &&
		    ev_unit(ctx, e, "maal") != t && ev_unit(ctx, e, "maal"))
			other = ev_unit(ctx, e, "maal")->id;
	}
	if (!other && ks_st(ctx, u, "skoed") == ord_ctx_turn(ctx) &&
	    ord_ctx_find_unit(ctx, ks_st_str(ctx, u, "skoed_paa")) != t)
		other = ks_st_str(ctx, u, "skoed_paa");
	if (other)
		ord_diag_add(d, 0, 0, u->id, "15.1 forsvarsskydning",
			     "a battery gives defensive fire only if it has not fired at other targets "
			     "this turn ('%s' fired at '%s')",
			     u->id, other);
	n = unit_groups(ctx, u, g, &o);
	for (i = 0; i < n; i++) {
		const struct ord_token *tt;
		if (strcmp(g[i].code, "artilleriskydning") || g[i].after_change)
			continue;
		tt = ks_grp_tok(o, &g[i], ORD_TOK_TARGET);
		if (!tt || ord_ctx_find_unit(ctx, tt->value) != t)
			ord_diag_add(d, 0, 0, u->id, "15.1 forsvarsskydning",
				     "a battery with an order to fire at other targets gives no defensive "
				     "fire (its sheet orders 'AS ... @%s')",
				     tt ? tt->value : "a plate");
	}
}

static void check_zone(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
		       struct ord_diag *d)
{
	struct ord_unit *t = ev_unit(ctx, ev, "maal");

	/* zoner= of a moving target is checked with the rule
	 * (check_fire_targets) */
	if (!ord_kv_get(&ev->kv, "zone") && !ord_kv_get(&ev->kv, "afstand") &&
	    !(ord_kv_get(&ev->kv, "zoner") && ks_check(ks_r(ctx), "skydemaal_kontrol")))
		ord_diag_add(d, 0, 0, u->id, "14",
			     "give the zone (zone=I|II|III) or the distance (afstand=CM)");
	/* 14: "Den skydende kan bestemme, at kun en del af den beskudte enhed
	 * beskydes": a part, not more than the unit */
	if (t && ord_kv_get_int(&ev->kv, "beskudt_del", 0) > ks_figures(ctx, t))
		ord_diag_add(d, 0, 0, u->id, "14",
			     "beskudt_del=%ld is more than the %d figures of '%s'",
			     ord_kv_get_int(&ev->kv, "beskudt_del", 0), ks_figures(ctx, t), t->id);
}

/* 14, 15: "Beskydes en spredt formation der står mindre end 5 cm [a
 * battery's: 1[0] cm] foran egne enheder i sluttet formation, kan den
 * skydende vælge at beskyde begge enheder" (ogsaa=, ogsaa_cm=: the
 * referee measures, the Skema's spredt_foran_cm and
 * spredt_foran_artilleri_cm are the limits, "mindre end": under); "Hvis
 * den opholder sig lige meget i [2] eller flere zoner, beregnes et
 * gennemsnitligt fradrag/tillæg, såfremt dette er muligt" (zoner=: every
 * zone one the fire can be read at, the weapon's of the whole unit or
 * the ammunition's).  Rules of skydemaal_kontrol: a game made before it
 * refuses both keys, and the referee records the fire as then. */
static void say_gone(struct ord_ctx *ctx, const struct ord_unit *u, const char *prefix,
		     struct ord_diag *d);

static void check_fire_targets(struct ord_ctx *ctx, const struct ord_event *ev,
			       const struct ord_unit *u, const struct ord_unit *t, const char *ammo,
			       struct ord_diag *d)
{
	struct ks_rules *r = ks_r(ctx);
	struct ord_unit *c = ev_unit(ctx, ev, "ogsaa");
	const char *zl = ord_kv_get(&ev->kv, "zoner");
	int art = ks_is(ctx, u, "artilleri");
	const char *rule = art ? "15" : "14",
		   *limit = art ? "spredt_foran_artilleri_cm" : "spredt_foran_cm";

	if (!ks_check(r, "skydemaal_kontrol")) {
		if (c || ord_kv_get(&ev->kv, "ogsaa_cm"))
			ord_diag_add(d, 0, 0, u->id, rule,
				     "ogsaa= (a fire at open order and its own close formation behind it) is a rule of revision 2026-12-02.12, and this game's Skema is older (no skydemaal_kontrol): record a fire at each unit");
		if (zl)
			ord_diag_add(d, 0, 0, u->id, rule,
				     "zoner= (a moving target as long in several zones) is a rule of revision 2026-12-02.12, and this game's Skema is older (no skydemaal_kontrol): give the zone it was in the most (zone=)");
		return;
	}
	if (!c && ord_kv_get(&ev->kv, "ogsaa_cm"))
		ord_diag_add(d, 0, 0, u->id, rule,
			     "ogsaa_cm= goes with ogsaa= (the close formation behind the target)");
	if (c && t) {
		double cm = ord_kv_get_num(&ev->kv, "ogsaa_cm", 0), max = ks_param(r, limit);
		const char *tf = ks_form(ctx, t), *cf = ks_form(ctx, c);
		if (ks_gone(ctx, c))
			say_gone(ctx, c, "ogsaa: unit ", d);
		else if (c == t)
			ord_diag_add(d, 0, 0, u->id, rule,
				     "ogsaa=%s is the target itself: name the own close formation behind it",
				     c->id);
		else if (strcmp(c->side, t->side))
			ord_diag_add(d, 0, 0, u->id, rule,
				     "ogsaa=%s is not of the side of '%s': both are fired at only when the open order stands in front of its own close formation",
				     c->id, t->id);
		else {
			if (ks_closed(ctx, t, NULL) || ks_is(ctx, t, "artilleri"))
				ord_diag_add(d, 0, 0, u->id, rule,
					     "target '%s' is not in open order (%s): only open order is fired at with its own close formation behind it (ogsaa=)",
					     t->id, ks_is(ctx, t, "artilleri") ? "a battery" : tf);
			if (ks_is(ctx, c, "artilleri") || !ks_closed(ctx, c, NULL))
				ord_diag_add(d, 0, 0, u->id, rule,
					     "ogsaa=%s is not infantry or cavalry in close formation (%s)",
					     c->id, ks_is(ctx, c, "artilleri") ? "a battery" : cf);
			if (!ord_kv_get(&ev->kv, "ogsaa_cm"))
				ord_diag_add(d, 0, 0, u->id, rule,
					     "give the cm '%s' stands in front of '%s' (ogsaa_cm=)",
					     t->id, c->id);
			else if (!(cm < max))
				ord_diag_add(d, 0, 0, u->id, rule,
					     "'%s' stands %g cm in front of '%s': both are fired at only when it stands less than %g cm in front (%s)",
					     t->id, cm, c->id, max, limit);
		}
		if (ord_kv_get(&ev->kv, "beskudt_del"))
			ord_diag_add(d, 0, 0, u->id, rule,
				     "beskudt_del= goes not with ogsaa=: the fire at both is at the two units whole (ours)");
	}
	if (zl) {
		const char *zones[KS_MAX_ZONES];
		int n, i;
		if (ord_kv_get(&ev->kv, "zone") || ord_kv_get(&ev->kv, "afstand"))
			ord_diag_add(d, 0, 0, u->id, rule,
				     "zoner= is instead of zone= and afstand= (the zones a moving target was as long in)");
		if (ord_kv_get(&ev->kv, "riffel_zone") || ord_kv_get(&ev->kv, "riffel_afstand"))
			ord_diag_add(d, 0, 0, u->id, rule,
				     "riffel_zone= and riffel_afstand= go not with zoner=: at a moving target the rifles fire at the whole unit's zones (ours)");
		if (ks_parse_zones(zl, art ? "I II III K" : "I II III", "zoner", zones, &n)) {
			ord_diag_add(d, 0, 0, u->id, rule, "%s", ord_error_last());
			ord_error_clear();
			return;
		}
		for (i = 0; i < n; i++) {
			if (art) {
				const struct ord_row *row;
				if (!ammo || ord_table_find1(&row, ks_table(r, "ammunitionstyper"),
							     "ammo", ammo)) {
					ord_error_clear();
					return;
				}
				if (!ord_words_has(ord_row_str(row, "zoner"), zones[i]))
					ord_diag_add(d, 0, 0, u->id, "15",
						     "zoner=%s: no average (\"såfremt dette er muligt\"): battery '%s' fires %s (%s) at zones %s (table ammunitionstyper), not zone %s",
						     zl, u->id, ammo, ord_row_str(row, "navn"),
						     ord_row_str(row, "zoner"), zones[i]);
			} else {
				/* a mixed unit's zones are its muskets' (the whole
				 * unit fires); beyond them only its rifles */
				const char *vaaben = ks_is(ctx, u, "kavaleri") ? "karabin"
						     : ord_kv_get_int(&u->attrs, "rifler", 0) >= 100
							     ? "riffel"
							     : "musket";
				struct ord_buf reach = ORD_BUF_INIT;
				ks_arms_reach(r, vaaben, &reach);
				if (!ord_words_has(reach.buf, zones[i]))
					ord_diag_add(d, 0, 0, u->id, "14",
						     "zoner=%s: no average (\"såfremt dette er muligt\"): unit '%s' fires %s at zones %s (table skudzoner), not zone %s",
						     zl, u->id, vaaben, reach.buf, zones[i]);
				ord_buf_release(&reach);
			}
		}
	}
}

/* 13: "Under gennemmarch kan en stationær enhed ikke skyde eller arbejde":
 * a unit marched through this turn fires half a turn at most, the time
 * outside the march-through (gennemmarch_skydning_kontrol: the state is
 * set only then).  Its work (genforsyning, reparation) is the referee's. */
static void check_marched_through(struct ord_ctx *ctx, const struct ord_event *ev,
				  const struct ord_unit *u, struct ord_diag *d)
{
	if (ks_st(ctx, u, "gennemmarcheret_traek") != ord_ctx_turn(ctx) ||
	    ord_kv_get_bool(&ev->kv, "halv", 0))
		return;
	ord_diag_add(d, 0, 0, u->id, "13 gennemmarch",
		     "'%s' was marched through by '%s' this turn, and \"under gennemmarch kan en stationær enhed ikke skyde\": it fires half a turn at most (halv=yes), outside the march-through",
		     u->id, ks_st_str(ctx, u, "gennemmarcheret_af"));
}

/* 9.2: "Der forbruges 1 kampsats ammunition ved skydning ... pr.
 * kanon/haubits": the pool is the battery's, so the pieces that fire
 * need a round each (1½ coordinated), not the pool one piece's
 * (ammunition_kanoner_kontrol; a game made before fired every piece on
 * a round left, and the pool stopped at 0). */
static void check_rounds(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
			 const char *ammo, const char *use_param, struct ord_diag *d)
{
	struct ks_rules *r = ks_r(ctx);
	double use = ks_param(r, use_param), pool = ks_pool_of(ctx, u, ammo);
	int guns = ks_fire_guns(ctx, ev, u);

	if (!ks_check(r, "ammunition_kanoner_kontrol") || use <= 0 || pool >= use * guns)
		return;
	ord_diag_add(d, 0, 0, u->id, "9.2",
		     "battery '%s' has %g kampsatser %s: %d piece%s firing use %g (%g a piece); fire with kanoner=%d at most",
		     u->id, pool, ammo, guns, guns == 1 ? "" : "s", use * guns, use,
		     (int)(pool / use));
}

/* 15: "Befinder en enhed sig mindre end 1[0] cm bag en enhed der beskydes
 * med fuldkugle, granat eller shrapnel, kan den skydende vælge at den
 * regnes med i optælling af geledder": not with canister
 * (geledder_bag_kontrol; a game made before took the flag with any). */
static void check_rank_behind(struct ord_ctx *ctx, const struct ord_event *ev,
			      const struct ord_unit *u, const char *ammo, struct ord_diag *d)
{
	if (strcmp(ammo, "SK") || !flag_given(ord_kv_get(&ev->kv, "flag"), "geledder_bag") ||
	    !ks_check(ks_r(ctx), "geledder_bag_kontrol"))
		return;
	ord_diag_add(d, 0, 0, u->id, "15",
		     "flag geledder_bag: a unit behind the target counts in its ranks under roundshot, shell or shrapnel (SF, SG, SS), not canister");
}

/* 15: the unit behind "regnes med i optælling af geledder og afgørelse af
 * moralsk påvirkning": named by bag=, it takes the fire's morale effect
 * (geledder_bag_moral_kontrol; a game made before knew no bag=). */
static void check_unit_behind(struct ord_ctx *ctx, const struct ord_event *ev,
			      const struct ord_unit *u, struct ord_diag *d)
{
	struct ord_unit *b = ev_unit(ctx, ev, "bag"), *t = ev_unit(ctx, ev, "maal");
	int flag = flag_given(ord_kv_get(&ev->kv, "flag"), "geledder_bag");

	if (!ks_check(ks_r(ctx), "geledder_bag_moral_kontrol")) {
		if (b)
			ord_diag_add(d, 0, 0, u->id, "15",
				     "bag= is not in this game's rules (its Skema has no geledder_bag_moral_kontrol): give flag=geledder_bag alone and record the morale of the unit behind yourself");
		return;
	}
	if (flag && !b)
		ord_diag_add(d, 0, 0, u->id, "15",
			     "flag geledder_bag: name the unit behind the target with bag=UNIT: it counts in the ranks and takes the fire's morale effect too (\"regnes med i optælling af geledder og afgørelse af moralsk påvirkning\")");
	if (!b)
		return;
	if (!flag)
		ord_diag_add(d, 0, 0, u->id, "15",
			     "bag=%s: give flag=geledder_bag too: the unit behind counts in the target's ranks",
			     b->id);
	if (b == t || b == u)
		ord_diag_add(d, 0, 0, u->id, "15", "bag '%s' is %s: the unit behind is another",
			     b->id, b == t ? "the target itself" : "the battery itself");
	else if (t && strcmp(b->side, t->side))
		ord_diag_add(d, 0, 0, u->id, "15",
			     "bag '%s' is not of the target's side ('%s' is of %s, '%s' of %s)",
			     b->id, b->id, b->side, t->id, t->side);
	else if (ks_gone(ctx, b))
		say_gone(ctx, b, "bag ", d);
}

/* 14 Skydetid, "Der kan enten skydes i et helt eller halvt træk": the
 * sheet gives the fire its time ("S @S1 ½"), and the resolve takes it
 * when the event gives no halv= (fire.c); a halv= against it is refused
 * (skydetid_kontrol: a game made before took the event's word).  The
 * event holds halv=no for a referee's nej (the core keeps the word it
 * always stored): the message quotes both words, not one he did not
 * write (ordlyd_kontrol: a game made before it quoted the stored one). */
static void check_fire_time(struct ord_ctx *ctx, const struct ord_event *ev,
			    const struct ord_unit *u, const char *code, struct ord_diag *d)
{
	const char *said = ord_kv_get(&ev->kv, "halv"), *da = "";
	int half;

	if (!said || !ks_check(ks_r(ctx), "skydetid_kontrol"))
		return;
	if (ks_check(ks_r(ctx), "ordlyd_kontrol"))
		da = !strcmp(said, "yes") ? " (ja)" : !strcmp(said, "no") ? " (nej)" : "";
	half = ks_ordered_half(ctx, u, code, ev_unit(ctx, ev, "maal"));
	/* marched through, it fires half its ordered whole turn (13) */
	if (half == 0 && ks_st(ctx, u, "gennemmarcheret_traek") == ord_ctx_turn(ctx))
		half = -1;
	if (half >= 0 && half != ord_kv_get_bool(&ev->kv, "halv", 0))
		ord_diag_add(d, 0, 0, u->id, "14 skydetid",
			     "the sheet of unit '%s' orders its fire for %s, not halv=%s%s (without halv= the sheet's time is taken)",
			     u->id, half ? "half a turn" : "a whole turn", said, da);
}

/* 14, 15 "Skudafstande": a fire beyond the weapon's longest range in the
 * tables (skudzoner, artillerizoner), or at a zone it does not reach, can
 * do nothing: the referee hears so while --void is cheap, and --override
 * records it anyway (resolved with no dice and no effect, fire.c).  So
 * does a battery's fire at a zone its ammunition is not used at (15
 * "Ammunitionstyper", ammunitionstyper's zoner: shell at zone I), whether
 * the zone is given or the range falls in it, when the Skema's check
 * ammunitionszoner_kontrol is on (a game made before it said only zone K,
 * and only as the artilleri check below, and so its audit replays).  The
 * reach itself is checked when skudafstand_kontrol is on, for the same
 * reason: a game made before it recorded such a shot without a word. */
static void check_reach(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
			const char *ammo, struct ord_diag *d)
{
	struct ks_rules *r = ks_r(ctx);
	const char *zone = ord_kv_get(&ev->kv, "zone");
	double range = ord_kv_get_num(&ev->kv, "afstand", 0), max;

	if (!zone && !ord_kv_get(&ev->kv, "afstand"))
		return; /* check_zone asks for one */
	if (ks_is(ctx, u, "artilleri")) {
		const struct ord_row *row;
		const char *kaliber = ks_attr(u, "kaliber"), *band;
		if (!ammo || ord_table_find1(&row, ks_table(r, "ammunitionstyper"), "ammo", ammo)) {
			ord_error_clear();
			return;
		}
		int zones_checked = ks_check(r, "ammunitionszoner_kontrol");
		int reach_checked = ks_check(r, "skudafstand_kontrol");
		if (zone) {
			if (zones_checked && !ord_words_has(ord_row_str(row, "zoner"), zone))
				ord_diag_add(d, 0, 0, u->id, "15 ammunitionstyper",
					     "battery '%s' fires %s (%s) at zones %s (table ammunitionstyper), not zone=%s",
					     u->id, ammo, ord_row_str(row, "navn"),
					     ord_row_str(row, "zoner"), zone);
			return;
		}
		max = ks_artillery_reach(r, kaliber, ammo);
		band = ks_artillery_band(r, kaliber, ammo, range);
		if (max >= 0 && range > max && reach_checked)
			ord_diag_add(d, 0, 0, u->id, "15 skudafstande",
				     "out of range: battery '%s' (%s pdr) fires %s (%s) at most %g cm (table artillerizoner), not afstand=%g",
				     u->id, kaliber, ammo, ord_row_str(row, "navn"), max, range);
		else if (band && !ord_words_has(ord_row_str(row, "zoner"), band) && zones_checked)
			ord_diag_add(d, 0, 0, u->id, "15 ammunitionstyper",
				     "battery '%s' fires %s (%s) at zones %s (table ammunitionstyper), not zone %s (afstand=%g for a %s pdr, table artillerizoner)",
				     u->id, ammo, ord_row_str(row, "navn"),
				     ord_row_str(row, "zoner"), band, range, kaliber);
		else if (band && !ord_words_has(ord_row_str(row, "zoner"), band))
			/* the words of a game made before the check */
			ord_diag_add(d, 0, 0, u->id, "15 ammunitionstyper",
				     "%s (%s) is fired at zones %s; afstand=%g is another zone for a %s pdr (table artillerizoner)",
				     ammo, ord_row_str(row, "navn"), ord_row_str(row, "zoner"),
				     range, kaliber);
	} else {
		const char *vaaben = ks_longest_arm(ctx, u);
		struct ord_buf zones = ORD_BUF_INIT;
		max = ks_arms_reach(r, vaaben, &zones);
		if (!ks_check(r, "skudafstand_kontrol"))
			; /* a game made before the check (skudafstand_kontrol) */
		else if (zone && !ord_words_has(zones.buf, zone))
			ord_diag_add(d, 0, 0, u->id, "14 skudafstande",
				     "out of range: unit '%s' fires %s at zones %s (table skudzoner), not zone=%s",
				     u->id, vaaben, zones.buf, zone);
		else if (!zone && max >= 0 && range > max)
			ord_diag_add(d, 0, 0, u->id, "14 skudafstande",
				     "out of range: unit '%s' fires %s at most %g cm (table skudzoner), not afstand=%g",
				     u->id, vaaben, max, range);
		ord_buf_release(&zones);
	}
}

static void check_flyt(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_unit *u,
		       struct ord_diag *d)
{
	struct ks_group g[KS_MAX_GROUPS];
	const struct ord_order *o;
	size_t n = unit_groups(ctx, u, g, &o), i;
	int retreat = ord_kv_get_bool(&ev->kv, "retraete", 0);
	int storm = ord_kv_get_bool(&ev->kv, "stormmarch", 0);
	int loeb = ord_kv_get_bool(&ev->kv, "loeb", 0);
	int grade = ks_moral_now(ctx, u), moves = 0;

	for (i = 0; i < n; i++)
		if (ks_is_move(g[i].code) || !strcmp(g[i].code, "angreb") ||
		    !strcmp(g[i].code, "modangreb"))
			moves = 1;
	if (retreat) {
		if (grade < KS_U && !ks_find(g, n, "tilbagetog"))
			ord_diag_add(d, 0, 0, u->id, "6.5",
				     "a retreat by the rules is for a unit in U or FU; '%s' is in %s and its order has no 'TT'",
				     u->id, ks_moral_name(grade));
	} else if (!moves) {
		ord_diag_add(d, 0, 0, u->id, "4.3",
			     "unit '%s' moved but its sheet orders no march (M SM L TT PR or A)",
			     u->id);
	}
	if (storm && !ks_find(g, n, "stormmarch") && !(retreat && ks_is(ctx, u, "kavaleri")))
		ord_diag_add(d, 0, 0, u->id, "4.3",
			     "unit '%s' stormmarched but its sheet orders no 'SM'", u->id);
	if (loeb && !ks_find(g, n, "loeb"))
		ord_diag_add(d, 0, 0, u->id, "4.3",
			     "unit '%s' ran (løb) but its sheet orders no 'L'", u->id);
	if (!retreat && !strcmp(ord_kv_get(&ev->kv, "maade"), "front_mod_fjenden"))
		ord_diag_add(d, 0, 0, u->id, "17 retræte",
			     "maade=front_mod_fjenden is a way to retreat: give retraete=yes");
	if (ev_unit(ctx, ev, "gennem")) {
		int half, lu;
		ks_through(ctx, u, ev_unit(ctx, ev, "gennem"), &half, &lu, d);
	} else if (ord_kv_get(&ev->kv, "gennem_cm")) {
		ord_diag_add(d, 0, 0, u->id, "13 gennemmarch",
			     "gennem_cm needs gennem=UNIT, the unit marched through");
	}
	if (ks_st_has(ctx, u, "x")) {
		struct ks_move_check m = { d, 0, 0, u->id, 0, 0, 0 };
		struct ks_move_out mo;
		struct ks_text t;
		double sx, sy;
		ks_move_start(ctx, ev, u, &sx, &sy);
		ks_check_path(ctx, u, sx, sy, ord_kv_get_num(&ev->kv, "x", 0),
			      ord_kv_get_num(&ev->kv, "y", 0), ks_move_formation(ctx, ev, u), grade,
			      storm, &m);
		/* the way its order gives (4.3, flyt_retning_kontrol) */
		ks_check_direction(ctx, ev, u, sx, sy, d);
		/* not in over an enemy's break-in distance (6.3,
		 * indbrud_flyt_kontrol) */
		ks_check_break_in_move(ctx, ev, u, sx, sy, ks_move_formation(ctx, ev, u), d);
		/* the march length over the ground crossed (13) */
		ks_text_init(&t);
		if (ks_move_event(ctx, ev, u, &mo, &t, d) == 0 && !mo.ok)
			ord_diag_add(d, 0, 0, u->id, "13 marchlængder",
				     "unit '%s' moved farther than its march length allows: %s",
				     u->id, t.en.buf);
		ks_text_release(&t);
	}
}

/* Does u owe the half turn's retreat or flight of 6.5 in this turn (K27):
 * driven into U or FU in it, and in it still? */
static int retreat_owed(struct ord_ctx *ctx, const struct ord_unit *u)
{
	return ks_check(ks_r(ctx), "retraete_samme_traek_kontrol") &&
	       ks_st(ctx, u, "tvungen_traek") == ord_ctx_turn(ctx) && ks_moral_now(ctx, u) >= KS_U;
}

static int retreat_point(struct ord_ctx *ctx, struct ord_unit *u, int owed, unsigned seq,
			 double deg, struct ord_buf *out, int *full, double *cm);

/* 6.5 "skal den retirere et halvt træk ... flygte et halvt træk": a
 * retraete of u from (sx, sy) short of the half turn its gait gives (mo,
 * t: ks_move_event's) is refused, unless it goes as far as the ground
 * allows straight along the way it is held to (retreat_point, what the
 * referee's list suggests) or the referee says what stopped it
 * (stoppet=); the message names the rule, the half turn owed and what to
 * give.  retraete_laengde_kontrol: a game made before took any length up
 * to the half turn. */
static void check_retreat_short(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_unit *u,
				double sx, double sy, const struct ks_move_out *mo,
				const struct ks_text *t, struct ord_diag *d)
{
	struct ks_rules *r = ks_r(ctx);
	struct ord_buf hint = ORD_BUF_INIT, ground = ORD_BUF_INIT;
	double x = ord_kv_get_num(&ev->kv, "x", 0), y = ord_kv_get_num(&ev->kv, "y", 0);
	double tol = ks_param(r, "retraete_maal_cm"), moved = hypot(x - sx, y - sy), cm = 0;
	int grade = ks_moral_now(ctx, u), full = 1;

	if (!mo->ok || mo->cost + tol >= mo->reach - 1e-9 || ord_kv_get(&ev->kv, "stoppet"))
		return;
	/* as far as the ground allows along its way: the list's own point */
	if (ks_st_has(ctx, u, "fjende_retning") || *ks_st_str(ctx, u, "tvungen_fra")) {
		double deg = ks_retreat_bearing(ctx, u, ks_st_num(ctx, u, "fjende_retning"));
		if (retreat_point(ctx, u, 1, ev->seq, deg, &hint, &full, &cm) && !full &&
		    moved + tol >= cm - 1e-9)
			goto out;
		if (hint.len && cm > 0)
			ord_buf_addf(&ground, ", e.g. `%s` (%s straight away from the enemy: %g cm)",
				     hint.buf,
				     full ? "half a turn" : "as far as the ground allows of half a turn",
				     cm);
	}
	ord_diag_add(d, 0, 0, u->id, "6.5",
		     "unit '%s' in %s %s %g cm, short of the half turn it must %s (6.5: 'skal den %s et halvt træk'): it owes %g cm of open ground and went %g (%s); give the whole half turn%s, or, when an obstacle or a unit stopped it short, what stopped it (stoppet=hindring|fjende|egen)",
		     u->id, ks_moral_name(grade), grade >= KS_FU ? "fled" : "retreated",
		     round(moved * 10) / 10, grade >= KS_FU ? "flee" : "retreat",
		     grade >= KS_FU ? "flygte" : "retirere", round(mo->reach * 10) / 10,
		     round(mo->cost * 10) / 10, t->en.buf, ground.buf);
out:
	ord_buf_release(&hint);
	ord_buf_release(&ground);
}

/* 6.5 "Hvis en enhed under spillet bliver U: skal den retirere et halvt
 * træk FU: skal den flygte et halvt træk i det træk den bliver påvirket"
 * (K27): the half turn owed, recorded after the fire and the melee
 * (retraete).  A unit driven there by then is held to its gait's half
 * turn and its way; one in a melee, a defensive fire or a flight recorded
 * before it in the phase is decided when the phase is resolved.  whole:
 * held to the whole half turn too (check_retreat_short); not when
 * retreat_point tries a point, which is where that check looks. */
static void check_retreat(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_unit *u,
			  int whole, struct ord_diag *d)
{
	int grade = ks_moral_now(ctx, u), owed = retreat_owed(ctx, u);
	int hx = ord_kv_get(&ev->kv, "x") != NULL, hy = ord_kv_get(&ev->kv, "y") != NULL;
	unsigned made = 0, later = 0; /* its last retraete, and melee or the like, before ev */
	size_t i;

	if (!ks_check(ks_r(ctx), "retraete_samme_traek_kontrol")) {
		ord_diag_add(d, 0, 0, u->id, "6.5",
			     "this game's Skema is of before the retreat owed in the turn of a U or FU was recorded (rules revision 2026-12-05.6, retraete_samme_traek_kontrol): it has no event 'retraete'; a retreat by the rules is a move (flyt retraete=yes) of the peaceful moves");
		return;
	}
	for (i = 0; i < ord_ctx_unit_nevents(ctx, u); i++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, u, i);
		if (e->seq >= ev->seq)
			continue;
		if (!strcmp(e->kind, "retraete") && ev_unit(ctx, e, "unit") == u)
			made = e->seq > made ? e->seq : made;
		else if ((!strcmp(e->kind, "naerkamp") &&
			  (ev_unit(ctx, e, "angriber") == u || ev_unit(ctx, e, "forsvarer") == u)) ||
			 (!strcmp(e->kind, "forsvarsild") && ev_unit(ctx, e, "maal") == u) ||
			 (!strcmp(e->kind, "flugt") &&
			  (ev_unit(ctx, e, "af") == u || ev_unit(ctx, e, "ind_i") == u)))
			later = e->seq > later ? e->seq : later;
	}
	/* one a turn, but for a flight after a melee that may have made a
	 * retreating unit's U an FU */
	if (made && later < made)
		ord_diag_add_citing(d, 0, 0, u->id, "6.5", made,
				    "unit '%s' has made the half turn's retreat or flight of this turn already",
				    u->id);
	if (!owed && !later) {
		if (grade >= KS_U && !strcmp(ks_st_str(ctx, u, "moral_grund"), "fortrydelse"))
			ord_diag_add(d, 0, 0, u->id, "6.5",
				     "unit '%s' is in U for the rest of the turn only (cancelled, 16.6), which owes no retreat by 6.5 ('med mindre ... påvirkningen kun gælder for resten af trækket')",
				     u->id);
		else if (grade >= KS_U)
			ord_diag_add(d, 0, 0, u->id, "6.5",
				     "unit '%s' is in %s, but was not driven into it this turn: the half turn's retreat or flight of 6.5 is in the turn the unit is affected; a later one is a move (flyt retraete=yes) of the peaceful moves",
				     u->id, ks_moral_name(grade));
		else
			ord_diag_add(d, 0, 0, u->id, "6.5",
				     "unit '%s' is in %s and was not driven into U or FU this turn: only such a unit owes the half turn's retreat or flight of 6.5 (or is in a melee, a defensive fire or a flight recorded before it in the phase)",
				     u->id, ks_moral_name(grade));
		return;
	}
	if (hx != hy)
		ord_diag_add(d, 0, 0, u->id, "6.5", "give both x= and y=, where unit '%s' went", u->id);
	else if (!hx && ks_st_has(ctx, u, "x"))
		ord_diag_add(d, 0, 0, u->id, "6.5",
			     "unit '%s' has a position: give where it %s to (x= y=)", u->id,
			     grade >= KS_FU ? "fled" : "retreated");
	/* after a melee or the like of the phase its state is the resolve's:
	 * it carries the retreat out or not */
	if (owed && !later && hx && hy && ks_st_has(ctx, u, "x")) {
		struct ks_move_check m = { d, 0, 0, u->id, 0, 0, 0 };
		struct ks_move_out mo;
		struct ks_text t;
		double sx = ks_st_num(ctx, u, "x"), sy = ks_st_num(ctx, u, "y");
		ks_check_path(ctx, u, sx, sy, ord_kv_get_num(&ev->kv, "x", 0),
			      ord_kv_get_num(&ev->kv, "y", 0), ks_form(ctx, u), grade, 0, &m);
		/* away from the enemy that drove it there (17,
		 * flyt_retning_tvungen_kontrol) */
		ks_check_direction(ctx, ev, u, sx, sy, d);
		/* half a turn of its gait (13, K12) */
		ks_text_init(&t);
		if (ks_move_event(ctx, ev, u, &mo, &t, d) == 0) {
			if (!mo.ok)
				ord_diag_add(d, 0, 0, u->id, "6.5",
					     "unit '%s' in %s %s farther than half a turn allows: %s",
					     u->id, ks_moral_name(grade),
					     grade >= KS_FU ? "fled" : "retreated", t.en.buf);
			else if (whole && ks_check(ks_r(ctx), "retraete_laengde_kontrol"))
				check_retreat_short(ctx, ev, u, sx, sy, &mo, &t, d);
		}
		ks_text_release(&t);
	}
}

/* 6.3: open order within the break-in distance of an enemy close
 * formation in OR or LU, or a unit in FU within that of any enemy in OR or
 * LU. */
static void check_break_in(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_unit *e,
			   const char *reach, struct ord_diag *d)
{
	int fu = ks_moral_now(ctx, u) == KS_FU, open = !ks_closed(ctx, u, NULL);

	if (!strcmp(e->side, u->side)) {
		ord_diag_add(d, 0, 0, u->id, "6.3", "'%s' is of its own side, not an enemy", e->id);
		return;
	}
	if (ks_moral_now(ctx, e) >= KS_U)
		ord_diag_add(d, 0, 0, u->id, "6.3 indbrudsafstand",
			     "only an enemy in OR or LU drives it off; '%s' is in %s", e->id,
			     ks_moral_name(ks_moral_now(ctx, e)));
	if (!fu && !open)
		ord_diag_add(d, 0, 0, u->id, "6.3 indbrudsafstand",
			     "only open order and units in FU must leave an enemy's break-in distance; '%s' is in %s, %s",
			     u->id, ks_form(ctx, u), ks_moral_name(ks_moral_now(ctx, u)));
	else if (!fu && ks_closed(ctx, e, NULL) == 0)
		ord_diag_add(d, 0, 0, u->id, "6.3 indbrudsafstand",
			     "open order retires from an enemy in close order; '%s' is in %s",
			     e->id, ks_form(ctx, e));
	else if (!fu && !reach)
		ord_diag_add(d, 0, 0, u->id, "6.3 indbrudsafstand",
			     "give whether it reaches support distance of an own close unit or soutien (naar_stoette=ja|nej)");
}

/* The height in contour steps F of a unit's plate, or -1000 when not known. */
static int plate_height(struct ord_ctx *ctx, const struct ord_unit *u)
{
	struct ks_rules *r = ks_r(ctx);
	const struct ks_plate *p;

	if (!r->map || !ks_st_has(ctx, u, "x"))
		return -1000;
	p = ks_map_at(r->map, ks_st_num(ctx, u, "x"), ks_st_num(ctx, u, "y"));
	return p ? p->height : -1000;
}

static void check_overfire_zone(struct ord_ctx *ctx, const struct ord_event *ev,
				const struct ord_unit *u, const char *ammo, struct ord_diag *d);

/* 15 overskydning: "Overskydning med fuldkugle er mulig hvis: Den skydende
 * enhed står mindst 1 F højere end den overskudte enhed ..., Afstanden ...
 * er [10] cm, og Afstanden ... til den beskudte enhed ... er [10] cm";
 * shell and shrapnel "ikke står lavere ..., bakker undtaget, [50] cm";
 * "Overskydning med kardæsk er ikke tilladt". */
static void check_overfire(struct ord_ctx *ctx, const struct ord_event *ev,
			   const struct ord_unit *u, const char *ammo, struct ord_diag *d)
{
	struct ord_unit *o = ev_unit(ctx, ev, "over");
	const char *thing = ord_kv_get(&ev->kv, "over_genstand");
	const struct ord_row *row;
	struct ord_kv m;
	double min_h, min_a, min_b;
	long h;
	int err;

	/* the battery, what it fires over and its target are three
	 * (umulig_mod_over_kontrol: a game made before fired over either) */
	if (o && ks_check(ks_r(ctx), "umulig_mod_over_kontrol") &&
	    (o == u || o == ev_unit(ctx, ev, "maal"))) {
		ord_diag_add(d, 0, 0, u->id, "15 overskydning",
			     o == u ? "over '%s' is the battery itself: it fires over another unit or a terrain object"
				    : "over '%s' is its target: it fires over another unit or a terrain object at the target",
			     o->id);
		return;
	}
	if (!o && !thing) {
		if (ord_kv_get(&ev->kv, "over_hoejde") || ord_kv_get(&ev->kv, "over_afstand") ||
		    ord_kv_get(&ev->kv, "over_bag"))
			ord_diag_add(d, 0, 0, u->id, "15 overskydning",
				     "give what the battery fires over (over=UNIT or over_genstand=bakke|anden)");
		return;
	}
	if (!ammo)
		return;
	ord_kv_init(&m);
	ord_kv_set(&m, "ammo", ammo);
	err = ord_table_find(&row, ks_table(ks_r(ctx), "overskydning"), &m);
	ord_kv_release(&m);
	if (err) {
		ord_error_clear();
		return;
	}
	if (ord_row_num(row, "min_hoejde", &min_h) || ord_row_num(row, "min_afstand", &min_a) ||
	    ord_row_num(row, "min_bag", &min_b)) {
		ord_error_clear();
		ord_diag_add(d, 0, 0, u->id, "15 overskydning", "%s is not fired over anything", ammo);
		return;
	}
	if (ord_kv_get(&ev->kv, "over_hoejde"))
		h = ord_kv_get_int(&ev->kv, "over_hoejde", 0);
	else if (o && plate_height(ctx, u) > -1000 && plate_height(ctx, o) > -1000)
		h = plate_height(ctx, u) - plate_height(ctx, o);
	else {
		ord_diag_add(d, 0, 0, u->id, "15 overskydning",
			     "give how many F the battery stands above what it fires over (over_hoejde=)");
		return;
	}
	if (h < min_h)
		ord_diag_add(d, 0, 0, u->id, "15 overskydning",
			     "%s is fired over only from at least %g F higher; the battery stands %ld F above it",
			     ammo, min_h, h);
	if (!ord_kv_get(&ev->kv, "over_afstand") || !ord_kv_get(&ev->kv, "over_bag")) {
		ord_diag_add(d, 0, 0, u->id, "15 overskydning",
			     "give the distances battery to what it fires over (over_afstand=) and on to the target (over_bag=)");
		return;
	}
	if (ord_kv_get_num(&ev->kv, "over_afstand", 0) < min_a &&
	    !(thing && !strcmp(thing, "bakke") && !strcmp(ord_row_str(row, "bakke_undtaget"), "ja")))
		ord_diag_add(d, 0, 0, u->id, "15 overskydning",
			     "%s is fired over what stands at least %g cm from the battery, not %s cm",
			     ammo, min_a, ord_kv_get(&ev->kv, "over_afstand"));
	if (ord_kv_get_num(&ev->kv, "over_bag", 0) < min_b)
		ord_diag_add(d, 0, 0, u->id, "15 overskydning",
			     "the target must stand at least %g cm beyond what is fired over, not %s cm",
			     min_b, ord_kv_get(&ev->kv, "over_bag"));
	/* what is fired over stands between the battery and its target: no
	 * farther from either than they are apart, where the fire gives
	 * their distance (overskydning_afstand_kontrol: a game made before
	 * took any) */
	if (ord_kv_get(&ev->kv, "afstand") && ks_check(ks_r(ctx), "overskydning_afstand_kontrol")) {
		double apart = ord_kv_get_num(&ev->kv, "afstand", 0);
		if (ord_kv_get_num(&ev->kv, "over_afstand", 0) >= apart)
			ord_diag_add(d, 0, 0, u->id, "15 overskydning",
				     "what is fired over stands %s cm from the battery, and the target %s cm: it stands between them, nearer",
				     ord_kv_get(&ev->kv, "over_afstand"),
				     ord_kv_get(&ev->kv, "afstand"));
		if (ord_kv_get_num(&ev->kv, "over_bag", 0) >= apart)
			ord_diag_add(d, 0, 0, u->id, "15 overskydning",
				     "the target stands %s cm beyond what is fired over, and %s cm from the battery: what is fired over stands between them, nearer",
				     ord_kv_get(&ev->kv, "over_bag"), ord_kv_get(&ev->kv, "afstand"));
	} else if (ks_check(ks_r(ctx), "overskydning_zone_kontrol")) {
		check_overfire_zone(ctx, ev, u, ammo, d);
	}
}

/* A fire by zone (zone=, zoner=) gives no distance, but its zone's band of
 * artillerizoner for the battery's calibre and ammunition ends where a
 * target in it stands at the farthest: what is fired over, standing
 * between the battery and its target, stands nearer than that to either
 * (overskydning_zone_kontrol, 2026-12-03.4: a game made before took any
 * distances with a zone).  Sound as the afstand= check is: the target's
 * distance is at most the band's end, whichever way the band counts its
 * end.  A zone the tables have no band of is left alone (check_reach and
 * check_fire_targets say so). */
static void check_overfire_zone(struct ord_ctx *ctx, const struct ord_event *ev,
				const struct ord_unit *u, const char *ammo, struct ord_diag *d)
{
	const char *zone = ord_kv_get(&ev->kv, "zone"), *zl = ord_kv_get(&ev->kv, "zoner");
	const char *kaliber = ks_attr(u, "kaliber"), *zones[KS_MAX_ZONES], *far_zone = NULL;
	double far = -1;
	int n = 0, i;

	if (zone) {
		zones[0] = zone;
		n = 1;
	} else if (!zl || ks_parse_zones(zl, "I II III K", "zoner", zones, &n)) {
		ord_error_clear();
		return;
	}
	for (i = 0; i < n; i++) {
		double end = ks_artillery_zone_end(ks_r(ctx), kaliber, ammo, zones[i]);
		if (end < 0)
			return; /* no band: no bound */
		if (end > far)
			far = end, far_zone = zones[i];
	}
	if (!far_zone)
		return;
	if (ord_kv_get_num(&ev->kv, "over_afstand", 0) >= far)
		ord_diag_add(d, 0, 0, u->id, "15 overskydning",
			     "what is fired over stands %s cm from the battery, and the target in zone %s, at most %g cm for a %s pdr firing %s (table artillerizoner): it stands between them, nearer",
			     ord_kv_get(&ev->kv, "over_afstand"), far_zone, far, kaliber, ammo);
	if (ord_kv_get_num(&ev->kv, "over_bag", 0) >= far)
		ord_diag_add(d, 0, 0, u->id, "15 overskydning",
			     "the target stands %s cm beyond what is fired over, and in zone %s, at most %g cm from the battery for a %s pdr firing %s (table artillerizoner): what is fired over stands between them, nearer",
			     ord_kv_get(&ev->kv, "over_bag"), far_zone, far, kaliber, ammo);
}

/* u is out of the game: "'D2' was merged into 'D1'" (6.2), "has
 * surrendered" (17).  An overridden event keeps what its check said, and
 * the audit says it again: a game made before ordlyd_kontrol in the words
 * of then ("is out of the game", 17). */
static void say_gone(struct ord_ctx *ctx, const struct ord_unit *u, const char *prefix,
		     struct ord_diag *d)
{
	struct ord_buf why = ORD_BUF_INIT;
	const char *rule = "17";

	if (ks_check(ks_r(ctx), "ordlyd_kontrol"))
		ks_gone_why(ctx, u, &why, &rule);
	else
		ord_buf_adds(&why, "is out of the game");
	ord_diag_add(d, 0, 0, u->id, rule, "%s'%s' %s", prefix, u->id, why.buf);
	ord_buf_release(&why);
}

/* 6.2: two units merged: the same kind and side, one ordered to merge
 * with the other (SA), and infantry undisturbed for the whole turn. */
static void check_merge_event(struct ord_ctx *ctx, const struct ord_unit *u,
			      const struct ord_unit *w, struct ord_diag *d)
{
	int turn = ord_ctx_turn(ctx);
	const struct ord_unit *both[2];
	size_t k;

	if (w == u || strcmp(w->side, u->side) || strcmp(ks_art(w), ks_art(u))) {
		ord_diag_add(d, 0, 0, u->id, "6.2",
			     "only units of the same kind and side merge ('%s' is %s of %s)", w->id,
			     ks_art(w), w->side);
		return;
	}
	if (ks_gone(ctx, w))
		ord_diag_add(d, 0, 0, u->id, "6.2", "'%s' is out of the game", w->id);
	if (ks_is(ctx, u, "artilleri"))
		ord_diag_add(d, 0, 0, u->id, "6.2", "only infantry and cavalry merge");
	if (!ordered_merge(ctx, u, w) && !ordered_merge(ctx, w, u))
		ord_diag_add(d, 0, 0, u->id, "4.3",
			     "neither '%s' nor '%s' has the order to merge with the other ('SA @%s')",
			     u->id, w->id, w->id);
	both[0] = u;
	both[1] = w;
	for (k = 0; k < 2 && ks_is(ctx, u, "infanteri"); k++) {
		/* "Sammenlægningen tager et helt uforstyrret træk" */
		if (ks_st(ctx, both[k], "naerkamp_traek") == turn ||
		    ks_st(ctx, both[k], "bevaeget") == turn || ks_st(ctx, both[k], "skoed") == turn ||
		    (ks_st(ctx, both[k], "moral_traek") == turn &&
		     ks_moral_parse(ks_st_str(ctx, both[k], "moral")) >= KS_U))
			ord_diag_add(d, 0, 0, u->id, "6.2",
				     "infantry merge in a whole undisturbed turn; '%s' moved, fired, fought or was shaken this turn",
				     both[k]->id);
	}
}

/* 17 flugt: what stops a flight, what it runs into. */
static void check_flight(struct ord_ctx *ctx, const struct ord_event *ev, const struct ord_unit *u,
			 struct ord_diag *d)
{
	const char *how = ord_kv_get(&ev->kv, "blokeret");
	struct ord_unit *b = ev_unit(ctx, ev, "af"), *w = ev_unit(ctx, ev, "ind_i");
	const char *viger = ord_kv_get(&ev->kv, "viger");

	if (how && !strcmp(how, "fjende")) {
		if (!b)
			ord_diag_add(d, 0, 0, u->id, "17 flugt",
				     "blokeret=fjende: give the enemy unit in its way (af=UNIT)");
		else if (!strcmp(b->side, u->side))
			ord_diag_add(d, 0, 0, u->id, "17 flugt",
				     "own units cannot block a fleeing unit ('%s' is of its side): it flees into them (ind_i=)",
				     b->id);
		else if (!ks_block_effective(ctx, u, b) && !viger)
			ord_diag_add(d, 0, 0, u->id, "17 flugt",
				     "'%s' is smaller than %g%% of the fleeing unit's strength: give whether it gave way (viger=ja|nej)",
				     b->id, ks_param(ks_r(ctx), "blokering_pct"));
	} else if (b || viger) {
		ord_diag_add(d, 0, 0, u->id, "17 flugt", "af= and viger= are for blokeret=fjende");
	}
	if (w && (strcmp(w->side, u->side) || w == u))
		ord_diag_add(d, 0, 0, u->id, "17 flugt",
			     "ind_i is an own unit the fleeing unit runs into, not '%s'", w->id);
	if (w && how && strcmp(how, "nej"))
		ord_diag_add(d, 0, 0, u->id, "17 flugt",
			     "a unit that cannot flee does not run into '%s'", w->id);
}

/* Does the flugt e say that u cannot flee (17): stopped by obstacles, or
 * by an enemy strong enough to block it?  Such a unit stands. */
static int flight_stopped(struct ord_ctx *ctx, const struct ord_event *e, const struct ord_unit *u)
{
	const char *how = ord_kv_get(&e->kv, "blokeret");
	const struct ord_unit *b = ev_unit(ctx, e, "af");

	return how && (!strcmp(how, "hindring") ||
		       (!strcmp(how, "fjende") && b && ks_block_effective(ctx, u, b)));
}

static void retreat_hint(struct ord_ctx *ctx, struct ord_unit *u, int owed,
			 const struct ord_unit *from, struct ord_buf *out);

/* 6.5 "FU: skal den flygte et halvt træk i det træk den bliver påvirket",
 * 6.3 "skal flygte ud af indbrudsafstand" (flugt_position_kontrol): a flugt
 * says what stops a flight or what the unit runs into, and has no
 * position, so alone it moved nothing while its result said the unit fled
 * half a turn.  A free flight of a unit with a position, owed in this
 * turn (or of a unit in a melee recorded before it: the resolve decides),
 * is recorded where it went first, as the half turn's retraete; a game
 * made before took the flugt alone, and the unit stood where it broke. */
static void check_flight_position(struct ord_ctx *ctx, const struct ord_event *ev,
				  struct ord_unit *u, const struct ord_unit *foe, struct ord_diag *d)
{
	struct ord_buf hint = ORD_BUF_INIT;
	int owed = retreat_owed(ctx, u);

	if (!ks_check(ks_r(ctx), "flugt_position_kontrol") || !ks_st_has(ctx, u, "x") ||
	    (!owed && !foe) || flight_stopped(ctx, ev, u))
		return;
	retreat_hint(ctx, u, owed, owed ? NULL : foe, &hint);
	ord_diag_add(d, 0, 0, u->id, "6.5",
		     "unit '%s' must flee half a turn in this turn (6.5: 'skal den flygte et halvt træk'), but a flugt has no position and moves nothing: record where it fled first, as its half turn (retraete unit=%s x= y=)%s, then the flugt, which says what it ran into",
		     u->id, u->id, hint.buf);
	ord_buf_release(&hint);
}

/* 9.2: limbers farther than prods_fri_cm from the pieces need figures
 * to carry the ammunition; the referee names how many he set aside. */
static void check_carriers(struct ord_ctx *ctx, const struct ord_event *ev,
			   const struct ord_unit *u, struct ord_diag *d)
{
	struct ks_rules *r = ks_r(ctx);
	int need = ks_fire_carriers(ctx, ev, u);
	long given = ord_kv_get_int(&ev->kv, "baerere", 0);

	if (!ks_rule_limbers(r))
		return; /* the game's Skema has no such rule */
	if (ord_kv_get(&ev->kv, "baerere") && !ord_kv_get(&ev->kv, "prods_cm"))
		ord_diag_add(d, 0, 0, u->id, "9.2 prods",
			     "baerere= are for limbers farther than %g cm from the pieces: give prods_cm=",
			     ks_param(r, "prods_fri_cm"));
	else if (given < need)
		ord_diag_add(d, 0, 0, u->id, "9.2 prods",
			     "the limbers stand %g cm from the pieces: beyond the first %g cm, %d figures must carry the ammunition (1 per %g guns per %g cm begun), baerere=%ld",
			     ord_kv_get_num(&ev->kv, "prods_cm", 0), ks_param(r, "prods_fri_cm"),
			     need, ks_param(r, "prods_baerer_kanoner"),
			     ks_param(r, "prods_baerer_cm"), given);
}

/* 9.2: "For hver påbegyndt 10 cm, udover de første 10 cm, et prods er væk
 * fra piecen, forlænges ammunitionsskift med 1 træk.  Et sådan
 * ammunitionsskift skal notes på ordresedlen": a battery firing another
 * ammunition than it last fired, its limbers farther than
 * ammoskift_fri_cm, fires it only as many turns after the AM that began
 * the change. */
static void check_ammo_change(struct ord_ctx *ctx, const struct ord_event *ev,
			      const struct ord_unit *u, const char *ammo, struct ord_diag *d)
{
	struct ks_rules *r = ks_r(ctx);
	const char *now = ks_st_str(ctx, u, "ammo_ved_kanonerne");
	const char *am = ks_ordered_arg(ctx, u, "ammunitionsskift", "ammo");
	double cm = ord_kv_get_num(&ev->kv, "prods_cm", 0);
	double beyond = cm - ks_param(r, "ammoskift_fri_cm");
	int turn = ord_ctx_turn(ctx), k, from = 0;

	if (!ks_rule_ammo_change(r) || !ord_kv_get(&ev->kv, "prods_cm") || beyond <= 0 || !*now ||
	    !strcmp(now, ammo))
		return;
	k = (int)ceil(beyond / ks_param(r, "ammoskift_pr_cm") - 1e-9);
	if (!strcmp(ks_st_str(ctx, u, "ammo_skift"), ammo))
		from = (int)ks_st(ctx, u, "ammo_skift_fra");
	else if (am && !strcmp(am, ammo))
		from = turn;
	if (!from)
		ord_diag_add(d, 0, 0, u->id, "9.2 ammunitionsskift",
			     "a change from %s to %s with the limbers %g cm from the pieces takes %d turn%s more: it is noted on the sheet ('AM %s') and %s is fired from turn %d",
			     now, ammo, cm, k, k == 1 ? "" : "s", ammo, ammo, turn + k);
	else if (turn < from + k)
		ord_diag_add(d, 0, 0, u->id, "9.2 ammunitionsskift",
			     "the change from %s to %s ('AM %s' since turn %d) with the limbers %g cm from the pieces takes %d turn%s more: %s is fired from turn %d",
			     now, ammo, ammo, from, cm, k, k == 1 ? "" : "s", ammo, from + k);
}

/* The number of an earlier event of the phase that names a or f (a
 * defensive fire at it, a melee, a flight, a merge), which the resolve
 * takes before melee ev: 0 when none. */
static unsigned melee_after(struct ord_ctx *ctx, const struct ord_event *ev,
			    const struct ord_unit *a, const struct ord_unit *f)
{
	const struct ord_unit *both[2] = { a, f };
	size_t i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < ord_ctx_unit_nevents(ctx, both[k]); i++) {
			const struct ord_event *e = ord_ctx_unit_event(ctx, both[k], i);
			if (e->seq < ev->seq && !strcmp(e->phase, ev->phase))
				return e->seq;
		}
	return 0;
}

/* One side's flags (key a_flag or d_flag, of unit x; own what the module
 * works out for it) against the module's: K10 as for a fire
 * (own_flag_against), for the flags ks_melee_own_flag names; those of the
 * state only when the units come to the melee as the phase began
 * (scenario_only: an earlier event of the phase named one of them, and
 * the resolve works them out at the melee), and not a battery's morale
 * when it defends (unescorted it goes U, 16: its escort is a neighbour,
 * which the check does not look for). */
static void check_melee_side(struct ord_ctx *ctx, const char *key, const struct ord_unit *x,
			     int defender, const struct ord_kv *given, const struct ord_kv *own,
			     int scenario_only, struct ord_diag *d)
{
	static const char *const tables[] = { "skema_xv_naerkamp", NULL };
	size_t i;

	for (i = 0; i < given->n; i++) {
		const char *k = given->items[i].key;
		int whose = ks_melee_own_flag(k);
		if (!whose || (whose == KS_OWN_STATE && scenario_only) ||
		    (defender && ks_is(ctx, x, "artilleri") && !strncmp(k, "moral_", 6)))
			continue;
		own_flag_against(ctx, tables, key, x->id, given, k, given->items[i].value, own, d);
	}
}

/* Skema XVII's flags the referee gives to some units only, by what the
 * module knows of them: tiraillor "gives kun hvis begge parter er
 * infanteri i sluttet formation og kun hvis den ene part har
 * tiraillørkæde", holdende of "Kavaleri angriber holdende kavaleri", and
 * krudtroeg "gælder for både forsvareren og angriberen" (the referee's
 * word for a side, else the module's, alike on both). */
static void check_melee_referee(struct ord_ctx *ctx, const char *const keys[2],
				const struct ord_unit *const side[2], const struct ord_kv given[2],
				const struct ord_kv own[2], struct ord_diag *d)
{
	int smoke[2], screen = 0, k;

	for (k = 0; k < 2; k++) {
		const struct ord_unit *x = side[k], *enemy = side[1 - k];
		if (ord_kv_get_bool(&given[k], "tiraillor", 0)) {
			int j;
			screen++;
			for (j = 0; j < 2; j++) {
				const struct ord_unit *y = side[j];
				if (!ks_is(ctx, y, "infanteri"))
					ord_diag_add(d, 0, 0, x->id, "Skema XVII",
						     "%s: tiraillor is for infantry in close order against infantry in close order (\"gives kun hvis begge parter er infanteri i sluttet formation\"); '%s' is no infantry",
						     keys[k], y->id);
				else if (!ks_closed(ctx, y, NULL))
					ord_diag_add(d, 0, 0, x->id, "Skema XVII",
						     "%s: tiraillor is for infantry in close order against infantry in close order (\"gives kun hvis begge parter er infanteri i sluttet formation\"); '%s' is in open order (%s)",
						     keys[k], y->id,
						     ks_formation_name(ctx, y, ks_form(ctx, y), "en"));
			}
		}
		if (ord_kv_get_bool(&given[k], "holdende", 0)) {
			if (!ks_is(ctx, x, "kavaleri"))
				ord_diag_add(d, 0, 0, x->id, "Skema XVII",
					     "%s: holdende is halted cavalry's attacked by cavalry (\"Kavaleri angriber holdende kavaleri\"); '%s' is no cavalry",
					     keys[k], x->id);
			else if (!ks_is(ctx, enemy, "kavaleri"))
				ord_diag_add(d, 0, 0, x->id, "Skema XVII",
					     "%s: holdende is halted cavalry's attacked by cavalry (\"Kavaleri angriber holdende kavaleri\"); its enemy '%s' is no cavalry",
					     keys[k], enemy->id);
		}
		smoke[k] = ord_kv_get(&given[k], "krudtroeg")
				   ? ord_kv_get_bool(&given[k], "krudtroeg", 0)
				   : ord_kv_get_bool(&own[k], "krudtroeg", 0);
	}
	if (screen == 2)
		ord_diag_add(d, 0, 0, side[1]->id, "Skema XVII",
			     "d_flag: tiraillor on both sides: only one side has a skirmish screen, and only it has the bonus (\"kun hvis den ene part har tiraillørkæde\")");
	if (smoke[0] != smoke[1]) {
		/* said of the side the referee gave it on, the defender's when both */
		k = ord_kv_get(&given[1], "krudtroeg") ? 1 : 0;
		ord_diag_add(d, 0, 0, side[k]->id, "Skema XVII",
			     "%s: krudtroeg=%s but the %s's is %s (%s): powder smoke counts for both sides alike (\"Tillæg/fradraget gælder for både forsvareren og angriberen\")",
			     keys[k], smoke[k] ? "yes" : "no", k ? "attacker" : "defender",
			     smoke[1 - k] ? "yes" : "no",
			     ord_kv_get(&given[1 - k], "krudtroeg") ? keys[1 - k] : "the module's");
	}
}

/* K10 for the melee (naerkampflag_kontrol; a game made before it took
 * any flag the tables name on top of the module's, moral_lu on a unit in
 * OR, tiraillor for cavalry, krudtroeg on one side too).  f is the unit
 * that fights: a battery's escort when one fights for it (16,
 * bedaekning_kontrol), whose d_flag it is. */
static void check_melee_flags(struct ord_ctx *ctx, const struct ord_event *ev,
			      const struct ord_unit *a, const struct ord_unit *f,
			      const struct ord_unit *battery, struct ord_diag *d)
{
	static const char *const keys[2] = { "a_flag", "d_flag" };
	const struct ord_unit *const side[2] = { a, f };
	struct ord_kv given[2], own[2];
	int scenario_only, k;

	if ((!ord_kv_get(&ev->kv, "a_flag") && !ord_kv_get(&ev->kv, "d_flag")) ||
	    !ks_check(ks_r(ctx), "naerkampflag_kontrol"))
		return;
	scenario_only = melee_after(ctx, ev, a, f) != 0 ||
			(battery && melee_after(ctx, ev, battery, battery) != 0);
	for (k = 0; k < 2; k++) {
		ord_kv_init(&given[k]);
		ord_kv_init(&own[k]);
		ks_referee_flags(ord_kv_get(&ev->kv, keys[k]), &given[k]);
	}
	ks_melee_own_flags(ctx, ev, &own[0], &own[1]);
	for (k = 0; k < 2; k++) {
		/* halted cavalry has no attack column bonus (16.5): the melee
		 * takes it away for the referee's holdende */
		if (ord_kv_get_bool(&given[k], "holdende", 0))
			ord_kv_set(&own[k], "angrebskolonne_kav", "no");
		check_melee_side(ctx, keys[k], side[k], k, &given[k], &own[k], scenario_only, d);
	}
	check_melee_referee(ctx, keys, side, given, own, d);
	for (k = 0; k < 2; k++) {
		ord_kv_release(&given[k]);
		ord_kv_release(&own[k]);
	}
}

/* The supports (traefning, naboer) and a battery's escort (ubedaekket)
 * are the module's: the melee counts the supports declared for the
 * attack that hold at the melee (6.6; Skema XV "gives hvis betingelserne
 * for støtteenhed [6.6] er opfyldt"), and a battery is unescorted when no
 * neighbour declared for it holds (16).  The referee's word on them
 * would give a bonus no support was declared for, or take a declared
 * one away (stoette_kontrol: a game made before took it on top of the
 * module's).  ubedaekket of another unit is his: "Artilleri, pionerer og
 * andre arbejdende enheder uden bedækning" (a unit at work). */
static void check_melee_supports(struct ord_ctx *ctx, const struct ord_event *ev,
				 const struct ord_unit *a, const struct ord_unit *f,
				 struct ord_diag *d)
{
	static const char *const keys[2] = { "a_flag", "d_flag" };
	static const char *const counted[] = { "traefning", "naboer", NULL };
	const struct ord_unit *const side[2] = { a, f };
	int k, i;

	if (!ks_check(ks_r(ctx), "stoette_kontrol"))
		return;
	for (k = 0; k < 2; k++) {
		struct ord_kv given;
		ord_kv_init(&given);
		ks_referee_flags(ord_kv_get(&ev->kv, keys[k]), &given);
		for (i = 0; counted[i]; i++)
			if (ord_kv_get(&given, counted[i]))
				ord_diag_add(d, 0, 0, side[k]->id, "K10",
					     "%s: %s is the module's: it counts the supports declared for the attack (event 'stoette') that hold at the melee (6.6): leave it out (--override records it anyway)",
					     keys[k], counted[i]);
		if (ord_kv_get(&given, "ubedaekket") && ks_is(ctx, side[k], "artilleri"))
			ord_diag_add(d, 0, 0, side[k]->id, "K10",
				     "%s: ubedaekket is the module's: battery '%s' is unescorted when no neighbour declared for it (event 'stoette' rolle=nabo) holds at the melee (16): leave it out (--override records it anyway)",
				     keys[k], side[k]->id);
		ord_kv_release(&given);
	}
}

static void check_naerkamp(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	static const char *const tables[] = { "skema_xv_naerkamp", NULL };
	struct ord_unit *a = ev_unit(ctx, ev, "angriber"), *f = ev_unit(ctx, ev, "forsvarer");
	struct ord_unit *escort;
	int turn = ord_ctx_turn(ctx);
	int pursuit = ord_kv_get_bool(&ev->kv, "forfoelgelse", 0);
	size_t i;
	int declared = 0;

	if (!strcmp(a->side, f->side)) {
		ord_diag_add(d, 0, 0, a->id, "16", "'%s' and '%s' are of the same side", a->id, f->id);
		return;
	}
	if (ks_gone(ctx, a) || ks_gone(ctx, f))
		say_gone(ctx, ks_gone(ctx, a) ? a : f, "", d);
	if (ks_st(ctx, a, "angreb_traek") == turn && !strcmp(ks_st_str(ctx, a, "angreb_maal"), f->id))
		declared = 1;
	if (ks_st(ctx, a, "reaktion_traek") == turn &&
	    !strcmp(ks_st_str(ctx, a, "reaktion"), "modangreb"))
		declared = 1;
	for (i = 0; i < ord_ctx_unit_nevents(ctx, a); i++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, a, i);
		if (!strcmp(e->kind, "fortryd") && ev_unit(ctx, e, "unit") == a && e->seq < ev->seq)
			ord_diag_add_citing(d, 0, 0, a->id, "16", e->seq,
					    "'%s' cancelled its attack", a->id);
	}
	if (!declared)
		ord_diag_add(d, 0, 0, a->id, "16.2 angrebserklæring",
			     "no attack of '%s' on '%s' was declared this turn (event 'angreb' in the declaration phase)",
			     a->id, f->id);
	if (pursuit) {
		double need = ks_param(ks_r(ctx), "forfoelgelse_pct");
		double cav = ks_param(ks_r(ctx), "forfoelgelse_kavaleri_gange");
		int own = (int)(ks_figures(ctx, a) * (ks_is(ctx, a, "kavaleri") ? cav : 1));
		int other = (int)(ks_figures(ctx, f) * (ks_is(ctx, f, "kavaleri") ? cav : 1));
		if (ks_moral_now(ctx, f) != KS_FU)
			ord_diag_add(d, 0, 0, f->id, "17 forfølgelsesangreb",
				     "a pursuit attack is on a unit in FU; '%s' is in %s", f->id,
				     ks_moral_name(ks_moral_now(ctx, f)));
		if (100.0 * own < need * other)
			ord_diag_add(d, 0, 0, a->id, "17 forfølgelsesangreb",
				     "a pursuit needs at least %g%% of the fleeing unit's strength (cavalry double): %d against %d",
				     need, own, other);
	}
	check_flags(ctx, ord_kv_get(&ev->kv, "a_flag"), tables, "a_flag", a->id, d);
	check_flags(ctx, ord_kv_get(&ev->kv, "d_flag"), tables, "d_flag", f->id, d);
	/* 16: an attack on an escorted battery is fought against its escort
	 * (bedaekning_kontrol): the defender's flags are the escort's */
	escort = ks_melee_escort(ctx, NULL, a, f);
	check_melee_flags(ctx, ev, a, escort ? escort : f, escort ? f : NULL, d);
	check_melee_supports(ctx, ev, a, f, d);
	if (escort)
		f = escort;
	/* Skema XVII: "Enhed ej stationær i ¼ træk. Dette tillæg/fradrag gives
	 * hvis en forsvarende infanteri enhed ikke har været stationær i ¼ træk" */
	if (flag_given(ord_kv_get(&ev->kv, "a_flag"), "ej_stationaer"))
		ord_diag_add(d, 0, 0, a->id, "Skema XVII",
			     "a_flag: ej_stationaer is a defending infantry unit's (\"gives hvis en forsvarende infanteri enhed ikke har været stationær i ¼ træk\"), not the attacker '%s''s",
			     a->id);
	if (flag_given(ord_kv_get(&ev->kv, "d_flag"), "ej_stationaer") && !ks_is(ctx, f, "infanteri"))
		ord_diag_add(d, 0, 0, f->id, "Skema XVII",
			     "d_flag: ej_stationaer is a defending infantry unit's (\"gives hvis en forsvarende infanteri enhed ikke har været stationær i ¼ træk\"); '%s' is no infantry",
			     f->id);
}

/* What bars an attack, and so a counterattack (8.5, 8.3; the sheet's
 * words, validate.c, attack_bars): verb what u may not do, because what
 * follows it in the words. */
static void attack_bars(struct ord_ctx *ctx, struct ks_rules *r, const struct ord_unit *u,
			const char *verb, const char *because, struct ord_diag *d)
{
	if (ks_cossack_closed(ctx, u, NULL))
		ord_diag_add(d, 0, 0, u->id, "8.5 kosakker", "cossacks cannot %s in close order (%s)%s",
			     verb, ks_form(ctx, u), because);
	if (ks_is(ctx, u, "kavaleri") && ks_st(ctx, u, "valeur") < (long)ks_param(r, "valeur_min"))
		ord_diag_add(d, 0, 0, u->id, "8.3 tab af valeur", "cavalry with valeur %ld cannot %s%s",
			     ks_st(ctx, u, "valeur"), verb, because);
}

/* 6.6, 16.2: a support declared (stoette).  What holds whatever the
 * Skema: of its own side and not itself (an override of either is not
 * carried out, umulig_kontrol), the size, formation and valeur a support
 * needs (ks_check_support_unit), infantry no second line of cavalry, no
 * attack order, one unit a turn.  Under stoette_kontrol (2026-12-03.4; a
 * game made before took the rest as recorded, and its melee dropped what
 * did not hold then):
 *  - the unit supported is in the game and in an attack declared before
 *    the support, as attacker or defender ("2. Angriberen erklærer ...
 *    støttende ... enheder", "4. Forsvareren ... støttende ... enheder",
 *    16.2): the declaration reads a support with its attack alone;
 *  - the support is infantry or cavalry (6.6: "for en infanterienhed ...
 *    for en kavalerienhed"; 'ST' is theirs, 6.1), ordered 'ST @' the unit
 *    (4.3), and not in U or FU (6.5: it retreats or flees; the melee
 *    counts no support "i uorden");
 *  - the unit supported is no hob (11.8) and not in open order outside
 *    cover (6.6), with stoettet_enhed_kontrol, whose melee drops such
 *    supports; cover at the declaration is the map's, as a neighbour's;
 *  - the distance is the referee's measure (afstand=, from the centre of
 *    the support's front, 6.6): a second line within its march length in
 *    its formation ("Støtteafstanden beregnes efter enhedens almindelige
 *    marchlængde i den aktuelle formation": marchlaengder's open ground,
 *    which other ground only shortens), a neighbour, and so a battery's
 *    escort ("inden for indbrudsafstand som naboenhed", 16), within the
 *    break-in distance (indbrudsafstand_cm). */
static void check_support_event(struct ord_ctx *ctx, const struct ord_event *ev,
				const struct ord_unit *u, struct ord_diag *d)
{
	struct ks_rules *r = ks_r(ctx);
	struct ord_unit *s = ev_unit(ctx, ev, "stoetter");
	const char *rolle = ord_kv_get(&ev->kv, "rolle"), *cm_s = ord_kv_get(&ev->kv, "afstand");
	int nabo = !strcmp(rolle, "nabo"), attack = 0;
	double cm = ord_kv_get_num(&ev->kv, "afstand", 0), len, share;
	struct ks_group g[KS_MAX_GROUPS];
	const struct ord_order *o;
	size_t k, n;

	if (s == u || strcmp(s->side, u->side)) {
		ord_diag_add(d, 0, 0, u->id, "6.6",
			     "'%s' supports a unit of its own side, not '%s'", u->id, s->id);
	} else {
		/* "dog kan en spredt formation i dækning være naboenhed"
		 * (6.6.5), "Kosakker kan i sværm ... selv være naboenhed"
		 * (8.5), infantry in cover a neighbour of cavalry:
		 * stoette_nabo_kontrol (a game made before it refused them,
		 * and is checked so) */
		int nabo_rule = ks_check(r, "stoette_nabo_kontrol") && nabo;
		int cover = nabo_rule && ks_in_cover(ctx, u, NULL);
		ks_check_support_unit(ctx, u, nabo_rule && (cover || ks_cossack_swarm(ctx, u, NULL)),
				      s, ks_form(ctx, u), d, 0, 0, u->id);
		if (ks_is(ctx, u, "infanteri") && ks_is(ctx, s, "kavaleri")) {
			if (!nabo)
				ord_diag_add(d, 0, 0, u->id, "6.6.5",
					     "infantry cannot be 2. træfning for cavalry");
			else if (strcmp(ks_form(ctx, u), "bataillonsmasse") &&
				 strcmp(ks_form(ctx, u), "karre") && !cover)
				ord_diag_add(d, 0, 0, u->id, "6.6.5",
					     "infantry is a neighbour of cavalry only in battalion mass, square or cover");
		}
	}
	if (ks_ordered(ctx, u, "angreb"))
		ord_diag_add(d, 0, 0, u->id, "6.6.5",
			     "a support may not have an attack order in the turn");
	for (k = 0; k < ord_ctx_unit_nevents(ctx, u); k++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, u, k);
		if (e->seq != ev->seq && !strcmp(e->kind, "stoette") && ev_unit(ctx, e, "unit") == u)
			ord_diag_add_citing(d, 0, 0, u->id, "6.6.5", e->seq,
					    "a support supports only one unit in a turn");
	}
	if (!ks_check(r, "stoette_kontrol") || s == u || strcmp(s->side, u->side))
		return;
	if (ks_gone(ctx, s)) {
		say_gone(ctx, s, "stoetter: unit ", d);
		return;
	}
	for (k = 0; k < ord_ctx_unit_nevents(ctx, s) && !attack; k++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, s, k);
		if (e->seq < ev->seq && !strcmp(e->kind, "angreb") && !ks_impossible(ctx, e, NULL) &&
		    (ev_unit(ctx, e, "unit") == s || ev_unit(ctx, e, "maal") == s))
			attack = 1;
	}
	if (!attack)
		ord_diag_add(d, 0, 0, u->id, "16.2",
			     "'%s' neither attacks nor is attacked this turn: a support is declared with an attack, by the attacker or the defender (event 'angreb' first)",
			     s->id);
	if (!ks_is(ctx, u, "infanteri") && !ks_is(ctx, u, "kavaleri"))
		ord_diag_add(d, 0, 0, u->id, "6.6 støtteenheder",
			     "only infantry and cavalry support ('ST'), not %s", ks_arm_name(ctx, u));
	else if (!ks_ordered_at(ctx, u, "stoette", s, &o, g, &n))
		ord_diag_add(d, 0, 0, u->id, "4.3",
			     "unit '%s' supports '%s' but its sheet orders no 'ST @%s'", u->id,
			     s->id, s->id);
	if (ks_moral_now(ctx, u) >= KS_U)
		ord_diag_add(d, 0, 0, u->id, "6.5",
			     "unit '%s' is in %s: a unit in U retreats and one in FU flees, it supports no one",
			     u->id, ks_moral_name(ks_moral_now(ctx, u)));
	if (ks_check(r, "stoettet_enhed_kontrol")) {
		if (!strcmp(ks_form(ctx, s), "hob"))
			ord_diag_add(d, 0, 0, u->id, "11.8 hob",
				     "'%s' is a hob: a hob has no bonus for supports (\"En hob kan ikke få tillæg/fradrag for støtteenheder\")",
				     s->id);
		else if (!ks_closed(ctx, s, NULL) && !ks_in_cover(ctx, s, NULL) &&
			 !ks_cossack_swarm(ctx, s, NULL))
			ord_diag_add(d, 0, 0, u->id, "6.6",
				     "'%s' stands in open order (%s) outside cover (the map's): the unit supported stands in close order or in open order in cover (\"Den støttede enhed skal være deployeret i sluttet formation eller spredt formation i dækning\")",
				     s->id, ks_formation_name(ctx, s, ks_form(ctx, s), "da"));
	}
	if (!cm_s)
		ord_diag_add(d, 0, 0, u->id, "6.6 støtteenheder",
			     "give the cm from the centre of its front to the nearest edge of '%s' (afstand=): %s",
			     s->id,
			     nabo ? "a neighbour stands within the break-in distance"
				  : "a second line stands within its march length");
	else if (nabo && cm > ks_param(r, "indbrudsafstand_cm") && ks_is(ctx, s, "artilleri"))
		ord_diag_add(d, 0, 0, u->id, "16",
			     "the escort (bedækning) of battery '%s' stands within the break-in distance as a neighbour (\"inden for indbrudsafstand som naboenhed\"): %g cm (indbrudsafstand_cm), not afstand=%s",
			     s->id, ks_param(r, "indbrudsafstand_cm"), cm_s);
	else if (nabo && cm > ks_param(r, "indbrudsafstand_cm"))
		ord_diag_add(d, 0, 0, u->id, "6.6 støtteenheder",
			     "a neighbour (naboenhed) stands within the break-in distance of '%s': %g cm (indbrudsafstand_cm), not afstand=%s",
			     s->id, ks_param(r, "indbrudsafstand_cm"), cm_s);
	else if (!nabo && ks_gait(r, ks_art(u), ks_form(ctx, u), "march", &len, &share, NULL))
		ord_error_clear(); /* no march length: nothing to hold it to */
	else if (!nabo && cm > len)
		ord_diag_add(d, 0, 0, u->id, "6.6 støtteenheder",
			     "a second line (2. træfning) stands within its march length of '%s': %g cm in %s (table marchlaengder), not afstand=%s",
			     s->id, len, ks_formation_name(ctx, u, ks_form(ctx, u), "da"), cm_s);
}

int ks_check_event(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *d)
{
	struct ks_rules *r = ks_r(ctx);
	struct ord_unit *u = ev_unit(ctx, ev, "unit");
	struct ks_group g[KS_MAX_GROUPS];
	const struct ord_order *o;
	size_t before = d->n, n;
	int turn = ord_ctx_turn(ctx);

	if (u && ks_gone(ctx, u)) {
		say_gone(ctx, u, "unit ", d);
		return ORD_ECHECK;
	}
	if (!strcmp(ev->kind, "forstyrret")) {
		/* nothing to check against the orders */
	} else if (!strcmp(ev->kind, "genforsyning")) {
		const char *ammo = ord_kv_get(&ev->kv, "ammo");
		if (!ks_ordered(ctx, u, "genforsyning"))
			ord_diag_add(d, 0, 0, u->id, "6.8 genforsyning",
				     "unit '%s' is resupplied only by an order ('GF')", u->id);
		if (ammo && strcmp(ammo, "alle") && !ks_is(ctx, u, "artilleri"))
			ord_diag_add(d, 0, 0, u->id, "6.8 genforsyning", "ammo=%s is for a battery",
				     ammo);
	} else if (!strcmp(ev->kind, "reparation")) {
		if (!ks_is(ctx, u, "artilleri") || ks_st(ctx, u, "beskadiget") < 1)
			ord_diag_add(d, 0, 0, u->id, "9.6", "unit '%s' has no damaged gun", u->id);
		else if (!ks_ordered(ctx, u, "reparation"))
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "unit '%s' repaired but its sheet orders no 'REP'", u->id);
		else if (ord_kv_get(&ev->kv, "kanoner")) {
			long k = ord_kv_get_int(&ev->kv, "kanoner", 0);
			if (k > ks_st(ctx, u, "beskadiget"))
				ord_diag_add(d, 0, 0, u->id, "9.6",
					     "kanoner=%ld: unit '%s' has %ld damaged guns", k,
					     u->id, ks_st(ctx, u, "beskadiget"));
			else if (ks_battery_fires(ctx, u) && k > ks_repair_cap(ctx, u))
				ord_diag_add(d, 0, 0, u->id, "9.6",
					     "kanoner=%ld: a battery that fires repairs at most %g gun a piece in a turn, %ld for its %d pieces (\"Hvis flere reparationer foretages kan piecen ikke skyde\")",
					     k, ks_param(r, "reparation_ved_skydning"),
					     ks_repair_cap(ctx, u), ks_pieces(ctx, u));
		}
	} else if (!strcmp(ev->kind, "angreb")) {
		struct ord_unit *t = ev_unit(ctx, ev, "maal");
		size_t k;
		if (!strcmp(t->side, u->side))
			ord_diag_add(d, 0, 0, u->id, "16.2",
				     "target '%s' is a unit of its own side", t->id);
		const char *bound_why = NULL;
		/* British cavalry out of control goes on fighting whatever
		 * its orders (8.4): a side that sent no sheet, whose stand-in
		 * has no line for it, does not hold it back
		 * (britisk_linie_kontrol) */
		int bound = ks_check(r, "britisk_linie_kontrol") && !ord_ctx_order(ctx, u) &&
			    ks_british_bound(ctx, u, &bound_why);
		if (!bound && !ks_ordered_at(ctx, u, "angreb", t, &o, g, &n))
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "unit '%s' attacks '%s' but its sheet orders no 'A @%s'",
				     u->id, t->id, t->id);
		attack_bars(ctx, r, u, "attack", "", d);
		if (ks_moral_now(ctx, u) >= KS_U)
			ord_diag_add(d, 0, 0, u->id, "6.3 indbrudsafstand",
				     "only units in OR or LU attack; '%s' is in %s", u->id,
				     ks_moral_name(ks_moral_now(ctx, u)));
		if (ord_kv_get_bool(&ev->kv, "stormmarch", 0) && !ks_ordered(ctx, u, "stormmarch"))
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "unit '%s' attacks in stormmarch but its sheet orders no 'SM'",
				     u->id);
		if (ord_kv_get_bool(&ev->kv, "loeb", 0) && !ks_ordered(ctx, u, "loeb"))
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "unit '%s' attacks with løb but its sheet orders no 'L'", u->id);
		for (k = 0; k < ord_ctx_unit_nevents(ctx, u); k++) {
			const struct ord_event *e = ord_ctx_unit_event(ctx, u, k);
			if (e->seq != ev->seq && !strcmp(e->kind, "angreb") &&
			    ev_unit(ctx, e, "unit") == u)
				ord_diag_add_citing(d, 0, 0, u->id, "16.2", e->seq,
						    "unit '%s' has declared an attack already", u->id);
		}
	} else if (!strcmp(ev->kind, "stoette")) {
		check_support_event(ctx, ev, u, d);
	} else if (!strcmp(ev->kind, "samling")) {
		check_merge_event(ctx, u, ev_unit(ctx, ev, "med"), d);
	} else if (!strcmp(ev->kind, "indbrud")) {
		check_break_in(ctx, u, ev_unit(ctx, ev, "fjende"),
			       ord_kv_get(&ev->kv, "naar_stoette"), d);
	} else if (!strcmp(ev->kind, "reaktion")) {
		struct ord_unit *a = ev_unit(ctx, ev, "mod");
		size_t k;
		int attacked = 0, by_mod = 0, again_all = 0, rk = ks_check(r, "reaktion_kontrol");
		unsigned again = 0;
		/* 16.2: the reaction is to the attack declared on it, mod= its
		 * attacker (umulig_mod_over_kontrol: a game made before let
		 * any unit through, and the resolve read none) */
		if (a && ks_check(r, "umulig_mod_over_kontrol")) {
			if (a == u)
				ord_diag_add(d, 0, 0, u->id, "16.2",
					     "attacker '%s' is the reacting unit itself", a->id);
			else if (!strcmp(a->side, u->side))
				ord_diag_add(d, 0, 0, u->id, "16.2",
					     "attacker '%s' is a unit of its own side", a->id);
		}
		for (k = 0; k < ord_ctx_unit_nevents(ctx, u); k++) {
			const struct ord_event *e = ord_ctx_unit_event(ctx, u, k);
			if (!strcmp(e->kind, "angreb") && ev_unit(ctx, e, "maal") == u) {
				attacked = 1;
				if (a && ev_unit(ctx, e, "unit") == a)
					by_mod = 1;
			}
			/* one without mod= answers every attack on it (resolve.c
			 * answers()): it clashes with any other */
			if (rk && !again && e->seq != ev->seq && !strcmp(e->kind, "reaktion") &&
			    ev_unit(ctx, e, "unit") == u &&
			    (!a || !ev_unit(ctx, e, "mod") || ev_unit(ctx, e, "mod") == a)) {
				again = e->seq;
				again_all = !ev_unit(ctx, e, "mod");
			}
		}
		if (!attacked)
			ord_diag_add(d, 0, 0, u->id, "16.2",
				     "unit '%s' states a reaction but no attack on it was declared (event 'angreb' first)",
				     u->id);
		/* 16.2: "3. Forsvareren erklærer forsvarsreaktion" to each
		 * attack declared on it, once (reaktion_kontrol: a game made
		 * before took any mod= and any number of reactions) */
		else if (rk && a && a != u && strcmp(a->side, u->side) && !by_mod)
			ord_diag_add(d, 0, 0, u->id, "16.2",
				     "'%s' declared no attack on '%s' (event 'angreb' first)",
				     a->id, u->id);
		if (again && a && again_all) {
			struct ord_diag_item *di = ord_diag_add(d, 0, 0, u->id, "16.2",
								"unit '%s' has stated its reaction to every attack on it already (",
								u->id);
			ord_diag_item_event(di, again);
			ord_diag_item_addf(di, ", without mod=)");
		} else if (again && a) {
			ord_diag_add_citing(d, 0, 0, u->id, "16.2", again,
					    "unit '%s' has stated its reaction to the attack of '%s' already",
					    u->id, a->id);
		} else if (again) {
			struct ord_diag_item *di = ord_diag_add_citing(d, 0, 0, u->id, "16.2", again,
								       "unit '%s' has stated its reaction already",
								       u->id);
			ord_diag_item_addf(di,
					   "; a reaction to another attack names its attacker (mod=)");
		}
		if (!strcmp(ord_kv_get(&ev->kv, "reaktion"), "modangreb") && ks_moral_now(ctx, u) >= KS_U)
			ord_diag_add(d, 0, 0, u->id, "6.3", "a unit in %s cannot counterattack",
				     ks_moral_name(ks_moral_now(ctx, u)));
		/* a counterattack is an attack (8.3, 8.5; modangreb_kontrol) */
		if (!strcmp(ord_kv_get(&ev->kv, "reaktion"), "modangreb") &&
		    ks_check(r, "modangreb_kontrol"))
			attack_bars(ctx, r, u, "counterattack", ": a counterattack is an attack", d);
		if (ord_kv_get(&ev->kv, "naar_stoette") &&
		    (strcmp(ord_kv_get(&ev->kv, "reaktion"), "tilbagetog") || ks_closed(ctx, u, NULL)))
			ord_diag_add(d, 0, 0, u->id, "6.3",
				     "naar_stoette is for open order that retreats (reaktion=tilbagetog)");
		else if (!strcmp(ord_kv_get(&ev->kv, "reaktion"), "tilbagetog") &&
			 !ks_closed(ctx, u, NULL) && !ord_kv_get(&ev->kv, "naar_stoette"))
			ord_diag_add(d, 0, 0, u->id, "6.3",
				     "open order that retreats from an attack: give whether it reaches support distance of an own close unit or soutien (naar_stoette=ja|nej)");
	} else if (!strcmp(ev->kind, "flyt")) {
		check_flyt(ctx, ev, u, d);
	} else if (!strcmp(ev->kind, "retraete")) {
		check_retreat(ctx, ev, u, 1, d);
	} else if (!strcmp(ev->kind, "formation")) {
		const char *want = ord_kv_get(&ev->kv, "formation");
		size_t i;
		int ok = 0;
		n = unit_groups(ctx, u, g, &o);
		for (i = 0; i < n; i++) {
			char f[40];
			if (strcmp(g[i].code, "formation"))
				continue;
			ks_grp_formation(o, &g[i], f, sizeof(f));
			if (!strcmp(f, want))
				ok = 1;
		}
		/* a unit under 10 figures in square or mass is a hob (11) */
		if (!ok &&
		    !(!strcmp(want, "hob") && ks_figures(ctx, u) < (int)ks_param(r, "hob_under"))) {
			/* as the rules write it (a game made before
			 * ordlyd_kontrol: the event's word) */
			const char *f = ks_check(r, "ordlyd_kontrol")
						? ks_formation_name(ctx, u, want, "da")
						: want;
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "unit '%s' formed %s but its sheet orders no 'FORM %s'", u->id,
				     f, f);
		}
		/* 12.1: a change to the formation the unit is in changes
		 * nothing but its LU (formation_samme_kontrol; a game made
		 * before recorded it and made the unit LU) */
		if (!strcmp(want, ks_form(ctx, u)) && ks_check(r, "formation_samme_kontrol"))
			ord_diag_add(d, 0, 0, u->id, "12.1",
				     "unit '%s' is already in %s: the change changes nothing (a change of formation puts the unit in LU)",
				     u->id, ks_formation_name(ctx, u, want, "da"));
	} else if (!strcmp(ev->kind, "front")) {
		if (!ks_ordered(ctx, u, "drej") && !ks_ordered(ctx, u, "vending"))
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "unit '%s' changed front but its sheet orders no 'D' or 'V'",
				     u->id);
	} else if (!strcmp(ev->kind, "prods")) {
		const char *p = ord_kv_get(&ev->kv, "prodset");
		if (!ks_is(ctx, u, "artilleri"))
			ord_diag_add(d, 0, 0, u->id, "9.4", "unit '%s' is not artillery", u->id);
		else if (!ks_ordered(ctx, u, !strcmp(p, "af") ? "afprodsning" : "paaprodsning"))
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "battery '%s' %s but its sheet orders no '%s'", u->id,
				     !strcmp(p, "af") ? "unlimbered" : "limbered",
				     !strcmp(p, "af") ? "AP" : "PP");
	} else if (!strcmp(ev->kind, "klargoering")) {
		if (!ks_is(ctx, u, "artilleri") || !ks_ordered(ctx, u, "klargoering"))
			ord_diag_add(d, 0, 0, u->id, "4.3", "unit '%s' has no 'KL' on its sheet",
				     u->id);
	} else if (!strcmp(ev->kind, "skyd")) {
		static const char *const tables[] = { "skema_x_tab_a", "skema_x_tab_b",
						      "skema_x_moral", NULL };
		struct ord_unit *t = ev_unit(ctx, ev, "maal");
		int other;
		if (!ks_is(ctx, u, "infanteri") && !ks_is(ctx, u, "kavaleri"))
			ord_diag_add(d, 0, 0, u->id, "15",
				     "unit '%s' is a battery: record its fire with 'artilleri'",
				     u->id);
		else if (ks_is(ctx, u, "kavaleri") && !ord_kv_get_bool(&u->attrs, "karabiner", 0))
			ord_diag_add(d, 0, 0, u->id, "8.2", "cavalry without carbines does not fire");
		if (!strcmp(t->side, u->side))
			ord_diag_add(d, 0, 0, u->id, "14", "target '%s' is a unit of its own side",
				     t->id);
		if (!ks_ordered_at(ctx, u, "skydning", t, &o, g, &n))
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "unit '%s' fired at '%s' but its sheet orders no 'S @%s'",
				     u->id, t->id, t->id);
		if (ks_st_num(ctx, u, "kampsatser") < ks_param(r, "forbrug_skydning"))
			ord_diag_add(d, 0, 0, u->id, "7.2.2", "unit '%s' has no ammunition left",
				     u->id);
		if ((other = fired_this_turn(ctx, ev, u)) != 0)
			ord_diag_add(d, 0, 0, u->id, "14",
				     "a unit fires only once in a turn ('%s' fired already%s)",
				     u->id, other > 0 ? ", see the events" : "");
		if (ks_moral_now(ctx, u) == KS_FU)
			ord_diag_add(d, 0, 0, u->id, "6.5", "a unit in FU flees, it cannot fire");
		check_zone(ctx, ev, u, d);
		check_fire_targets(ctx, ev, u, t, NULL, d);
		check_fire_time(ctx, ev, u, "skydning", d);
		check_marched_through(ctx, ev, u, d);
		if (ks_is(ctx, u, "infanteri") || ks_is(ctx, u, "kavaleri"))
			check_reach(ctx, ev, u, NULL, d);
		check_flags(ctx, ord_kv_get(&ev->kv, "flag"), tables, "flag", u->id, d);
		check_own_flags(ctx, ev, u, tables, d);
	} else if (!strcmp(ev->kind, "artilleri")) {
		static const char *const tables[] = { "skema_xv_tab_a", "skema_xv_tab_b",
						      "skema_xv_moral", NULL };
		struct ord_unit *t = ev_unit(ctx, ev, "maal");
		const struct ks_group *fg;
		const char *ammo = ord_kv_get(&ev->kv, "ammo"), *ordered = NULL;
		if (!ks_is(ctx, u, "artilleri")) {
			ord_diag_add(d, 0, 0, u->id, "14",
				     "unit '%s' is not artillery: record its fire with 'skyd'", u->id);
			return ORD_ECHECK;
		}
		if (!strcmp(t->side, u->side))
			ord_diag_add(d, 0, 0, u->id, "15", "target '%s' is a unit of its own side",
				     t->id);
		/* 6.5: "FU: skal den flygte"; a battery routs as any unit
		 * (a game made before fired it as in U) */
		if (ks_moral_now(ctx, u) == KS_FU && ks_check(r, "artilleri_fu_kontrol"))
			ord_diag_add(d, 0, 0, u->id, "6.5", "a battery in FU flees, it cannot fire");
		fg = ks_ordered_at(ctx, u, "artilleriskydning", t, &o, g, &n);
		if (!fg)
			fg = ks_ordered_at(ctx, u, "koordination", t, &o, g, &n);
		if (!fg)
			ord_diag_add(d, 0, 0, u->id, "4.3",
				     "battery '%s' fired at '%s' but its sheet orders no 'AS ... @%s'",
				     u->id, t->id, t->id);
		else
			ordered = ks_grp_arg(o, fg, "ammo");
		if (!ordered) {
			const struct ks_group *am = ks_find(g, n, "artilleriskydning");
			if (!am)
				am = ks_find(g, n, "ammunitionsskift");
			if (am)
				ordered = ks_grp_arg(o, am, "ammo");
		}
		if (ammo && ordered && strcmp(ammo, ordered))
			ord_diag_add(d, 0, 0, u->id, "15 ammunitionstyper",
				     "battery '%s' fired %s but its sheet orders %s", u->id, ammo,
				     ordered);
		if (!ammo)
			ammo = ordered;
		if (!ammo)
			ord_diag_add(d, 0, 0, u->id, "15", "give the ammunition (ammo=SF|SG|SK|SS)");
		else if (!ks_battery_can_fire(u, ammo)) {
			struct ord_buf has = ORD_BUF_INIT;
			ks_battery_ammo(u, &has);
			ord_diag_add(d, 0, 0, u->id, "15 ammunitionstyper",
				     "the battery has no pieces that fire %s (it fires %s)", ammo,
				     has.buf);
			ord_buf_release(&has);
		} else if (ks_pool_of(ctx, u, ammo) < ks_param(r, "forbrug_skydning"))
			ord_diag_add(d, 0, 0, u->id, "9.2",
				     "battery '%s' has no %s ammunition left", u->id, ammo);
		else
			check_rounds(ctx, ev, u, ammo,
				     ord_kv_get_bool(&ev->kv, "koordineret", 0) ? "forbrug_koordineret"
										: "forbrug_skydning",
				     d);
		if (ammo)
			check_rank_behind(ctx, ev, u, ammo, d);
		check_unit_behind(ctx, ev, u, d);
		if (strcmp(ks_st_str(ctx, u, "prodset"), "af") || !ks_st(ctx, u, "klargjort"))
			ord_diag_add(d, 0, 0, u->id, "15 deltagende enheder",
				     "battery '%s' is not unlimbered and ready", u->id);
		check_carriers(ctx, ev, u, d);
		if (ammo)
			check_ammo_change(ctx, ev, u, ammo, d);
		if (ks_st(ctx, u, "kanoner") < 1 && ks_check(r, "brugbare_kanoner_kontrol"))
			ord_diag_add(d, 0, 0, u->id, "9.6", "battery '%s' has no serviceable gun",
				     u->id);
		else if (ord_kv_get_int(&ev->kv, "kanoner", 0) > ks_st(ctx, u, "kanoner"))
			ord_diag_add(d, 0, 0, u->id, "9.6",
				     "battery '%s' has only %ld serviceable guns", u->id,
				     ks_st(ctx, u, "kanoner"));
		if (fired_this_turn(ctx, ev, u))
			ord_diag_add(d, 0, 0, u->id, "14",
				     "a unit fires only once in a turn ('%s' fired already)", u->id);
		/* a game made before ammunitionszoner_kontrol checked zone K
		 * alone, so (check_reach checks every zone) */
		if (!ks_check(r, "ammunitionszoner_kontrol") && ord_kv_get(&ev->kv, "zone") &&
		    ammo && !strcmp(ord_kv_get(&ev->kv, "zone"), "K") && strcmp(ammo, "SK"))
			ord_diag_add(d, 0, 0, u->id, "15",
				     "zone K is the canister zone: only SK is fired there");
		check_zone(ctx, ev, u, d);
		check_fire_targets(ctx, ev, u, t, ammo, d);
		check_fire_time(ctx, ev, u, "artilleriskydning", d);
		check_marched_through(ctx, ev, u, d);
		check_reach(ctx, ev, u, ammo, d);
		check_overfire(ctx, ev, u, ammo, d);
		check_coordinated(ctx, ev, u, t, d);
		check_flags(ctx, ord_kv_get(&ev->kv, "flag"), tables, "flag", u->id, d);
		check_own_flags(ctx, ev, u, tables, d);
	} else if (!strcmp(ev->kind, "forsvarsild")) {
		static const char *const tables[] = { "skema_xv_tab_a", "skema_xv_tab_b",
						      "skema_xv_moral", NULL };
		struct ord_unit *t = ev_unit(ctx, ev, "maal");
		size_t i;
		if (!ks_is(ctx, u, "artilleri")) {
			ord_diag_add(d, 0, 0, u->id, "15.1", "only a battery gives defensive fire");
			return ORD_ECHECK;
		}
		/* an own unit's attack is no cause (umulig_kontrol: a game made
		 * before it took one) */
		if (ks_check(r, "umulig_kontrol") && !strcmp(t->side, u->side))
			ord_diag_add(d, 0, 0, u->id, "15.1",
				     "target '%s' is a unit of its own side", t->id);
		else if (!(ks_st(ctx, t, "angreb_traek") == turn))
			ord_diag_add(d, 0, 0, u->id, "15.1 forsvarsskydning",
				     "defensive fire is at an attacking unit; '%s' declared no attack this turn",
				     t->id);
		if (ks_moral_now(ctx, u) == KS_FU && ks_check(r, "artilleri_fu_kontrol"))
			ord_diag_add(d, 0, 0, u->id, "6.5",
				     "a battery in FU flees, it gives no defensive fire");
		/* "Det ikke er engageret i nærkamp": the defensive fire comes
		 * before this turn's melees go in (ks_resolve_attacks), so the
		 * melee it may be engaged in is one of the last turn that was
		 * tied and goes on (K8), not broken off (a game made before
		 * did not look) */
		if (ks_check(r, "forsvarsild_naerkamp_kontrol") &&
		    ks_st(ctx, u, "naerkamp_uafgjort") > 0 &&
		    ks_st(ctx, u, "naerkamp_uafgjort") == turn - 1)
			ord_diag_add(d, 0, 0, u->id, "15.1 forsvarsskydning",
				     "battery '%s' is engaged in melee (its melee of turn %d was tied and goes on, K8): a battery gives defensive fire only if it is not engaged in melee",
				     u->id, turn - 1);
		if (ks_st_num(ctx, u, "ks_kardaesk") < ks_param(r, "forbrug_forsvarsild"))
			ord_diag_add(d, 0, 0, u->id, "15.1 forsvarsskydning",
				     "battery '%s' has no canister left", u->id);
		else
			check_rounds(ctx, ev, u, "SK", "forbrug_forsvarsild", d);
		check_rank_behind(ctx, ev, u, "SK", d);
		/* its guns may have been damaged or destroyed by this turn's fire */
		if (ks_st(ctx, u, "kanoner") < 1 && ks_check(r, "brugbare_kanoner_kontrol"))
			ord_diag_add(d, 0, 0, u->id, "9.6", "battery '%s' has no serviceable gun",
				     u->id);
		if (ks_check(r, "forsvarsild_maal_kontrol")) {
			/* "Det ikke har skudt, eller ordre til at skyde, på
			 * andre mål i trækket": its fire at the attacker
			 * itself is no bar (a game made before took any) */
			check_defensive_targets(ctx, ev, u, t, d);
		} else {
			if (fired_this_turn(ctx, ev, u))
				ord_diag_add(d, 0, 0, u->id, "15.1 forsvarsskydning",
					     "a battery gives defensive fire only if it has not fired at other targets this turn");
			n = unit_groups(ctx, u, g, &o);
			for (i = 0; i < n; i++)
				if (!strcmp(g[i].code, "artilleriskydning") && !g[i].after_change)
					ord_diag_add(d, 0, 0, u->id, "15.1 forsvarsskydning",
						     "a battery with an order to fire at other targets gives no defensive fire");
		}
		if (strcmp(ks_st_str(ctx, u, "prodset"), "af"))
			ord_diag_add(d, 0, 0, u->id, "15", "battery '%s' is limbered", u->id);
		/* "Afprodsede og klargjorte piecer kan skyde" (a game made
		 * before asked only that it was unlimbered) */
		else if (!ks_st(ctx, u, "klargjort") && ks_check(r, "forsvarsild_klar_kontrol"))
			ord_diag_add(d, 0, 0, u->id, "15",
				     "battery '%s' is unlimbered but not made ready (klargjort): 'Afprodsede og klargjorte piecer kan skyde'",
				     u->id);
		check_carriers(ctx, ev, u, d); /* its canister comes from the limbers too */
		check_flags(ctx, ord_kv_get(&ev->kv, "flag"), tables, "flag", u->id, d);
		check_own_flags(ctx, ev, u, tables, d);
	} else if (!strcmp(ev->kind, "fortryd")) {
		size_t i;

		/* 16.6 "Fortrydelse af angreb eller forsvar": an attacker
		 * cancels its attack, or a defender that declared its defence
		 * (forsvar, modangreb) retreats after all (ks_defence_cancel) */
		if (ks_st(ctx, u, "angreb_traek") != turn && !ks_defence_cancel(ctx, u))
			ord_diag_add(d, 0, 0, u->id, "16.6",
				     "unit '%s' declared no attack and no defence (reaktion=forsvar or modangreb) this turn",
				     u->id);
		/* once a turn (a game made before took it again) */
		for (i = 0;
		     ks_check(r, "fortryd_forsvar_kontrol") && i < ord_ctx_unit_nevents(ctx, u); i++) {
			const struct ord_event *e = ord_ctx_unit_event(ctx, u, i);
			if (!strcmp(e->kind, "fortryd") && e->seq < ev->seq &&
			    ev_unit(ctx, e, "unit") == u)
				ord_diag_add_citing(d, 0, 0, u->id, "16.6", e->seq,
						    "unit '%s' cancelled already this turn", u->id);
		}
	} else if (!strcmp(ev->kind, "naerkamp")) {
		check_naerkamp(ctx, ev, d);
	} else if (!strcmp(ev->kind, "afbryd")) {
		size_t i;
		int in_melee = 0;
		for (i = 0; i < ord_ctx_unit_nevents(ctx, u); i++) {
			const struct ord_event *e = ord_ctx_unit_event(ctx, u, i);
			if (!strcmp(e->kind, "naerkamp") && e->seq < ev->seq &&
			    (ev_unit(ctx, e, "angriber") == u || ev_unit(ctx, e, "forsvarer") == u))
				in_melee = 1;
		}
		if (!in_melee)
			ord_diag_add(d, 0, 0, u->id, "16.5",
				     "unit '%s' breaks off, but it fought no melee this turn", u->id);
		/* 8.4: "Kavalerienheden vil kun afbryde disse handlinger hvis
		 * det selv går i U eller FU" (out of control by a melee of this
		 * turn, the resolve says so: its die is not rolled yet) */
		if (ks_british_held(ctx, u))
			ord_diag_add(d, 0, 0, u->id, "8.4",
				     "British cavalry '%s' is out of control until turn %ld: it breaks off only in U or FU",
				     u->id, ks_st(ctx, u, "britisk_kontrol_til"));
	} else if (!strcmp(ev->kind, "flugt")) {
		size_t i;
		int may = ks_moral_now(ctx, u) == KS_FU, retreated = 0;
		struct ord_unit *foe = NULL; /* the other unit of a melee before it */
		for (i = 0; i < ord_ctx_unit_nevents(ctx, u); i++) {
			const struct ord_event *e = ord_ctx_unit_event(ctx, u, i);
			if (e->seq >= ev->seq)
				continue;
			if (!strcmp(e->kind, "naerkamp") &&
			    (ev_unit(ctx, e, "angriber") == u || ev_unit(ctx, e, "forsvarer") == u)) {
				may = 1;
				foe = ev_unit(ctx, e,
					      ev_unit(ctx, e, "angriber") == u ? "forsvarer"
									       : "angriber");
			}
			if (!strcmp(e->kind, "retraete") && ev_unit(ctx, e, "unit") == u)
				retreated = 1;
		}
		if (!may)
			ord_diag_add(d, 0, 0, u->id, "17 flugt",
				     "unit '%s' is in %s, not FU: it does not flee", u->id,
				     ks_moral_name(ks_moral_now(ctx, u)));
		check_flight(ctx, ev, u, d);
		if (may && !retreated)
			check_flight_position(ctx, ev, u, foe, d);
	}
	return d->n > before ? ORD_ECHECK : 0;
}

/* ---- events no table can make true ---- */

/* The events that name two units the rules make two, and the side the
 * second is of: a unit with itself, or with the wrong side, is nothing
 * that can have happened on the table, whatever the orders said
 * (ks_impossible).  Each is refused when recorded; these are what the
 * resolve does with one the referee overrides.  Each is switched by the
 * Skema's `sw`: umulig_kontrol (2026-12-02.11), and a reaction's mod= and
 * a battery's over= by umulig_mod_over_kontrol (2026-12-03.1), so that a
 * game made before either resolves such an event as it did. */
static const struct impossible_pair {
	const char *kind, *key, *other; /* the event, its unit's key, the other unit's */
	int own;                        /* the other is of its side (1), an enemy (0), any (-1) */
	const char *self_da, *self_en;  /* the other is the unit itself */
	const char *side_da, *side_en;  /* the other is of the wrong side, after its id */
	const char *rule;               /* the section */
	const char *sw;                 /* the Skema's switch */
} impossible_pairs[] = {
	{ "samling", "unit", "med", 1, "en enhed kan ikke samles med sig selv",
	  "a unit cannot merge with itself", " er en fjendtlig enhed: kun enheder af samme side samles",
	  " is an enemy unit: only units of one side merge", "6.2", "umulig_kontrol" },
	{ "naerkamp", "angriber", "forsvarer", 0, "en enhed kan ikke angribe sig selv",
	  "a unit cannot attack itself", " er af egen side: en nærkamp er mod fjenden",
	  " is of its own side: a melee is against the enemy", "16", "umulig_kontrol" },
	{ "angreb", "unit", "maal", 0, "en enhed kan ikke angribe sig selv",
	  "a unit cannot attack itself", " er af egen side: et angreb er på fjenden",
	  " is of its own side: an attack is on the enemy", "16.2", "umulig_kontrol" },
	{ "skyd", "unit", "maal", 0, "en enhed kan ikke skyde på sig selv",
	  "a unit cannot fire at itself", " er af egen side: en skydning er på fjenden",
	  " is of its own side: fire is at the enemy", "14", "umulig_kontrol" },
	{ "artilleri", "unit", "maal", 0, "et batteri kan ikke skyde på sig selv",
	  "a battery cannot fire at itself", " er af egen side: en skydning er på fjenden",
	  " is of its own side: fire is at the enemy", "15", "umulig_kontrol" },
	{ "forsvarsild", "unit", "maal", 0, "et batteri kan ikke skyde på sig selv",
	  "a battery cannot fire at itself",
	  " er af egen side: en forsvarsskydning er på en angribende fjende",
	  " is of its own side: defensive fire is at an attacking enemy", "15.1", "umulig_kontrol" },
	{ "stoette", "unit", "stoetter", 1, "en enhed kan ikke støtte sig selv",
	  "a unit cannot support itself", " er en fjendtlig enhed: en enhed støtter egne enheder",
	  " is an enemy unit: a unit supports units of its own side", "6.6", "umulig_kontrol" },
	{ "flugt", "unit", "ind_i", 1, "en enhed kan ikke flygte ind i sig selv",
	  "a unit cannot flee into itself",
	  " er en fjendtlig enhed: en flygtende enhed flygter ind i egne enheder, en fjende i vejen blokerer den",
	  " is an enemy unit: a fleeing unit flees into units of its own side, an enemy in its way blocks it",
	  "17", "umulig_kontrol" },
	{ "flugt", "af", "unit", 0, "en enhed kan ikke blokere sin egen flugt",
	  "a unit cannot block its own flight",
	  " er af egen side: kun en fjendtlig enhed blokerer en flugt, ind i egne enheder flygter den",
	  " is of its own side: only an enemy blocks a flight, into its own units it flees", "17",
	  "umulig_kontrol" },
	{ "indbrud", "unit", "fjende", 0, "en enhed er ikke inden for sin egen indbrudsafstand",
	  "a unit is not within its own break-in distance",
	  " er af egen side: indbrudsafstanden er en fjendes",
	  " is of its own side: the break-in distance is an enemy's", "6.3", "umulig_kontrol" },
	{ "flyt", "unit", "gennem", 1, "en enhed kan ikke marchere gennem sig selv",
	  "a unit cannot march through itself",
	  " er en fjendtlig enhed: en enhed marcherer gennem egne enheder",
	  " is an enemy unit: a unit marches through units of its own side", "13", "umulig_kontrol" },
	/* 16.2: "3. Forsvareren erklærer forsvarsreaktion" to the attack
	 * "1. Angriberen erklærer hvilken enhed der angribes": mod= is its
	 * attacker, an enemy */
	{ "reaktion", "unit", "mod", 0, "en enhed kan ikke reagere mod sig selv",
	  "a unit cannot react against itself",
	  " er af egen side: en reaktion er mod en angribende fjende",
	  " is of its own side: a reaction is against an attacking enemy", "16.2",
	  "umulig_mod_over_kontrol" },
	/* 15 overskydning: "Afstanden mellem den skydende enhed til den
	 * overskudte enhed ... og Afstanden mellem den overskudte enhed ...
	 * til den beskudte enhed": three, the battery, what it fires over,
	 * its target; an own unit or an enemy's may be fired over */
	{ "artilleri", "unit", "over", -1, "et batteri kan ikke skyde over sig selv",
	  "a battery cannot fire over itself", NULL, NULL, "15", "umulig_mod_over_kontrol" },
	{ "artilleri", "maal", "over", -1, "et batteri kan ikke skyde over det mål det skyder på",
	  "a battery cannot fire over the unit it fires at", NULL, NULL, "15",
	  "umulig_mod_over_kontrol" },
};

/* The arm's name in the language ("let kavaleri", "light cavalry"). */
static const char *arm_name(struct ord_ctx *ctx, const struct ord_unit *u, const char *lang)
{
	const struct ord_row *row;

	if (ks_arm(ks_r(ctx), ks_art(u), &row)) {
		ord_error_clear();
		return ks_art(u);
	}
	return ord_row_str(row, strcmp(lang, "da") ? "navn_en" : "navn");
}

/* 6.2: "Infanteri enheder ... kan samles", "Kavaleri enheder af samme
 * type ... kan samles": a battery merges with nothing, and two arms make
 * no unit the rules know (whose figures, valeur, first volley?). */
static int impossible_merge(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_unit *w,
			    struct ks_text *why)
{
	const struct ord_unit *b = ks_is(ctx, u, "artilleri")   ? u
				   : ks_is(ctx, w, "artilleri") ? w
								: NULL;

	if (b) {
		if (why)
			KS_TF(why, "%s er artilleri: kun infanteri og kavaleri samles (6.2)",
			      "%s is artillery: only infantry and cavalry merge (6.2)", b->id);
		return 1;
	}
	if (!strcmp(ks_art(u), ks_art(w)))
		return 0;
	if (why) {
		ord_buf_addf(&why->da, "%s er %s og %s %s: kun enheder af samme slags samles (6.2)",
			     u->id, arm_name(ctx, u, "da"), w->id, arm_name(ctx, w, "da"));
		ord_buf_addf(&why->en, "%s is %s and %s %s: only units of one kind merge (6.2)",
			     u->id, arm_name(ctx, u, "en"), w->id, arm_name(ctx, w, "en"));
	}
	return 1;
}

/* ks_impossible, by the Skema's switches (every 0) or whatever they say
 * (every 1: what a new event is refused for, ks_impossible_new). */
static int impossible(struct ord_ctx *ctx, const struct ord_event *e, struct ks_text *why, int every)
{
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(impossible_pairs); i++) {
		const struct impossible_pair *m = &impossible_pairs[i];
		const struct ord_unit *u, *w;
		if (strcmp(e->kind, m->kind) || (!every && !ks_check(ks_r(ctx), m->sw)) ||
		    !(u = ev_unit(ctx, e, m->key)) || !(w = ev_unit(ctx, e, m->other)))
			continue;
		/* af= is read only of a flight blocked by an enemy (attack.c) */
		if (!strcmp(m->key, "af") && (!ord_kv_get(&e->kv, "blokeret") ||
					      strcmp(ord_kv_get(&e->kv, "blokeret"), "fjende")))
			continue;
		if (w == u) {
			if (why) {
				ord_buf_addf(&why->da, "%s (%s)", m->self_da, m->rule);
				ord_buf_addf(&why->en, "%s (%s)", m->self_en, m->rule);
			}
			return 1;
		}
		if (m->own >= 0 && (strcmp(w->side, u->side) == 0) != m->own) {
			if (why) {
				/* the unit named against the rule: the other one */
				const struct ord_unit *x = !strcmp(m->key, "af") ? u : w;
				ord_buf_addf(&why->da, "%s%s (%s)", x->id, m->side_da, m->rule);
				ord_buf_addf(&why->en, "%s%s (%s)", x->id, m->side_en, m->rule);
			}
			return 1;
		}
	}
	if (!strcmp(e->kind, "samling") && (every || ks_check(ks_r(ctx), "umulig_kontrol")) &&
	    ev_unit(ctx, e, "unit") && ev_unit(ctx, e, "med"))
		return impossible_merge(ctx, ev_unit(ctx, e, "unit"), ev_unit(ctx, e, "med"), why);
	return 0;
}

int ks_impossible(struct ord_ctx *ctx, const struct ord_event *e, struct ks_text *why)
{
	return impossible(ctx, e, why, 0);
}

/* The events only a battery does, and what it does (the checks' words). */
static const struct {
	const char *kind, *does;
} battery_only[] = {
	{ "artilleri", "'artilleri' is a battery's fire (a unit's is 'skyd', 15)" },
	{ "forsvarsild", "only a battery gives defensive fire (15.1)" },
	{ "prods", "only a battery limbers and unlimbers (9.4)" },
	{ "klargoering", "only a battery makes its guns ready (9.4)" },
	{ "reparation", "only a battery repairs guns (9.6)" },
};

int ks_impossible_new(struct ord_ctx *ctx, const struct ord_event *e, struct ord_buf *why)
{
	const struct ord_unit *u = ev_unit(ctx, e, "unit");
	struct ks_text t;
	size_t i;

	if (u && !strcmp(e->kind, "skyd") && !ks_is(ctx, u, "infanteri") && !ks_is(ctx, u, "kavaleri")) {
		ord_buf_addf(why, "unit '%s' is a battery: its fire is the event 'artilleri' (15)",
			     u->id);
		return 1;
	}
	for (i = 0; u && i < ORD_ARRAY_SIZE(battery_only); i++)
		if (!strcmp(e->kind, battery_only[i].kind) && !ks_is(ctx, u, "artilleri")) {
			ord_buf_addf(why, "unit '%s' is not artillery: %s", u->id,
				     battery_only[i].does);
			return 1;
		}
	ks_text_init(&t);
	if (impossible(ctx, e, &t, 1)) {
		const struct ord_unit *first = u ? u : ev_unit(ctx, e, "angriber");
		if (first)
			ord_buf_addf(why, "unit '%s': ", first->id);
		ord_buf_add(why, t.en.buf, t.en.len);
	}
	ks_text_release(&t);
	return why->len > 0;
}

int ks_not_carried_out(struct ord_ctx *ctx, const struct ord_event *e)
{
	struct ks_text t;
	int no;

	ks_text_init(&t);
	ks_text_add(&t, "ikke udført: ", "not carried out: ");
	no = ks_impossible(ctx, e, &t);
	if (no)
		ks_result(ctx, e->seq,
			  ev_unit(ctx, e, strcmp(e->kind, "naerkamp") ? "unit" : "angriber"), NULL,
			  &t);
	ks_text_release(&t);
	return no;
}

/* ---- where an owed retreat may go (6.5, K27) ---- */

/* Does u's half turn's retreat from (sx, sy) to (x, y) pass?  When it is
 * owed, the event retraete's own checks (check_retreat); else, for a unit
 * whose melee is not resolved yet, the ground and half a turn both of a
 * retreat in U and of a flight in FU, as the result may make it.  *reach:
 * the cm of open ground allowed (the least); *over: the ground's cost over
 * it (the most; above 1 too far).  seq: the event's place, after every
 * event recorded (~0u), or in the stead of the retraete being checked
 * (check_retreat_short). */
static int retreat_fits(struct ord_ctx *ctx, struct ord_unit *u, int owed, unsigned seq, double sx,
			double sy, double x, double y, double *reach, double *over)
{
	static const char *const gait[] = { "retraete", "flugt" };
	static const int grade[] = { KS_U, KS_FU };
	struct ord_event ev;
	struct ord_diag sd;
	char bx[32], by[32];
	size_t k;
	int ok = 1;

	memset(&ev, 0, sizeof(ev));
	ev.seq = seq; /* after every event recorded, or in one's stead */
	ev.phase = "angrebshandlinger";
	ev.kind = "retraete";
	ord_kv_init(&ev.kv);
	ord_kv_set(&ev.kv, "unit", u->id);
	snprintf(bx, sizeof(bx), "%.10g", x);
	snprintf(by, sizeof(by), "%.10g", y);
	ord_kv_set(&ev.kv, "x", bx);
	ord_kv_set(&ev.kv, "y", by);
	ord_diag_init(&sd);
	*reach = HUGE_VAL;
	*over = 0;
	if (owed)
		check_retreat(ctx, &ev, u, 0, &sd);
	for (k = 0; k < (owed ? 1 : ORD_ARRAY_SIZE(gait)); k++) {
		struct ks_move_check m = { &sd, 0, 0, u->id, 0, 0, 0 };
		struct ks_move_out mo;
		struct ks_text t;
		if (!owed)
			ks_check_path(ctx, u, sx, sy, x, y, ks_form(ctx, u), grade[k], 0, &m);
		ks_text_init(&t);
		if ((owed ? ks_move_event(ctx, &ev, u, &mo, &t, &sd)
			  : ks_move_event_gait(ctx, &ev, u, gait[k], &mo, &t, &sd)) == 0) {
			ok = ok && mo.ok;
			*reach = fmin(*reach, mo.reach);
			if (mo.reach > 0)
				*over = fmax(*over, mo.cost / mo.reach);
		} else {
			ok = 0;
			*reach = 0;
		}
		ks_text_release(&t);
	}
	ok = ok && sd.n == 0;
	ord_diag_release(&sd);
	ord_kv_release(&ev.kv);
	return ok;
}

/* v in whole tenths, towards 0 (but for a rounding's error in the sine):
 * a point no farther than v. */
static double tenths_in(double v)
{
	return trunc(v * 10 + (v > 0 ? 1e-6 : -1e-6)) / 10;
}

/* A retraete of u that passes, straight along the bearing deg (degrees, x
 * east, y south): half a turn as the open ground allows; when that does
 * not pass, stepped back (to what the ground's cost allows, else by half a
 * cm) until one does, then forward again in halves to the farthest tenth
 * of a cm short of the first that did not.  The event to record goes to
 * out; *full is 0 when the ground shortened it, and the cm moved to *cm
 * (0: nothing farther passes, it stands).  0 when not even that passes. */
static int retreat_point(struct ord_ctx *ctx, struct ord_unit *u, int owed, unsigned seq,
			 double deg, struct ord_buf *out, int *full, double *cm)
{
	double sx = ks_st_num(ctx, u, "x"), sy = ks_st_num(ctx, u, "y");
	double c = cos(deg * M_PI / 180), s = sin(deg * M_PI / 180);
	double reach, over, len, bad = 0, x = sx, y = sy;
	int i, ok = 0;

	retreat_fits(ctx, u, owed, seq, sx, sy, sx + c, sy + s, &reach, &over);
	len = isfinite(reach) ? floor(reach * 10) / 10 : 0;
	for (i = 0; i < 1000 && len >= 0.1 && !ok; i++) {
		ok = retreat_fits(ctx, u, owed, seq, sx, sy, sx + tenths_in(len * c),
				  sy + tenths_in(len * s), &reach, &over);
		if (ok)
			break;
		bad = len;
		/* too far over the ground: straight to what it allows */
		len = over > 1 ? fmin(len - 0.1, floor(len / over * 10) / 10) : len - 0.5;
	}
	*full = ok && i == 0; /* the first, half a turn of open ground, passed */
	while (ok && !*full && bad - len > 0.1 + 1e-9) {
		double mid = floor((len + bad) / 2 * 10 + 1e-6) / 10;
		if (retreat_fits(ctx, u, owed, seq, sx, sy, sx + tenths_in(mid * c),
				 sy + tenths_in(mid * s), &reach, &over))
			len = mid;
		else
			bad = mid;
	}
	if (ok) {
		x = sx + tenths_in(len * c);
		y = sy + tenths_in(len * s);
	}
	*cm = round(hypot(x - sx, y - sy) * 10) / 10;
	/* standing where it is, when nothing farther passes (a gait the
	 * Skema has not: nothing passes) */
	if (!ok && !retreat_fits(ctx, u, owed, seq, sx, sy, sx, sy, &reach, &over))
		return 0;
	ord_buf_addf(out, "retraete unit=%s x=%.10g y=%.10g", u->id, x, y);
	return 1;
}

/* The item's ready event for u's half turn (owed: the way kept; else
 * away from `from`, the other unit of the melee not resolved yet), and how
 * far it goes, for the referee to record. */
static void retreat_hint(struct ord_ctx *ctx, struct ord_unit *u, int owed,
			 const struct ord_unit *from, struct ord_buf *out)
{
	struct ord_buf ev = ORD_BUF_INIT;
	double deg, cm;
	int full, known = 1;

	if (!ks_st_has(ctx, u, "x")) {
		ord_buf_addf(out, "; e.g. `retraete unit=%s` (it has no position)", u->id);
		return;
	}
	if (!owed && from && ks_st_has(ctx, from, "x") &&
	    hypot(ks_st_num(ctx, u, "x") - ks_st_num(ctx, from, "x"),
		  ks_st_num(ctx, u, "y") - ks_st_num(ctx, from, "y")) >=
		    ks_param(ks_r(ctx), "flyt_retning_min_cm"))
		/* as ks_keep_retreat_way will keep it: away from the winner */
		deg = atan2(ks_st_num(ctx, u, "y") - ks_st_num(ctx, from, "y"),
			    ks_st_num(ctx, u, "x") - ks_st_num(ctx, from, "x")) *
		      180 / M_PI;
	else if (owed && (ks_st_has(ctx, u, "fjende_retning") || *ks_st_str(ctx, u, "tvungen_fra")))
		/* the way check_retreat holds it to */
		deg = ks_retreat_bearing(ctx, u, ks_st_num(ctx, u, "fjende_retning"));
	else if (ks_st_has(ctx, u, "fjende_retning"))
		deg = ks_st_num(ctx, u, "fjende_retning") + 180; /* back */
	else
		known = 0;
	if (!known) {
		ord_buf_addf(out,
			     "; where it goes (retraete unit=%s x= y=) is the referee's: no way from the enemy is kept",
			     u->id);
		return;
	}
	if (!retreat_point(ctx, u, owed, ~0u, deg, &ev, &full, &cm))
		ord_buf_addf(out,
			     "; no retraete of it passes the event's checks, not even where it stands: where it goes is the referee's (event --override)");
	else if (cm <= 0)
		ord_buf_addf(out,
			     "; e.g. `%s` (nothing straight away from the enemy passes the ground: it stands)",
			     ev.buf);
	else
		ord_buf_addf(out, "; e.g. `%s` (%s straight away from the enemy%s: %g cm)", ev.buf,
			     full ? "half a turn" : "as far as the ground allows of half a turn",
			     owed ? "" : ", within a retreat's and a flight's", cm);
	ord_buf_release(&ev);
}

/* ---- after the exchange ---- */

/* What the events of the turn naming u as their unit did of its orders. */
struct ks_done {
	int attacked, formed, cancelled, moved, fired, resupplied, repaired;
	int broke; /* driven into U or FU this turn: it carries out no order (6.5) */
};

static void unit_done(struct ord_ctx *ctx, const struct ord_unit *u, struct ks_done *d)
{
	size_t j;

	memset(d, 0, sizeof(*d));
	/* the events naming u: one lookup, not a scan of the turn's */
	for (j = 0; j < ord_ctx_unit_nevents(ctx, u); j++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, u, j);
		const char *v = ord_kv_get(&e->kv, "unit");
		const struct ord_unit *eu = v ? ord_ctx_find_unit(ctx, v) : NULL;
		if (eu != u)
			continue;
		if (!strcmp(e->kind, "angreb"))
			d->attacked = 1;
		if (!strcmp(e->kind, "formation"))
			d->formed = 1;
		if (!strcmp(e->kind, "fortryd"))
			d->cancelled = 1;
		/* an attack moves its unit up (its stormmarch, its run) */
		if (!strcmp(e->kind, "flyt") || !strcmp(e->kind, "angreb"))
			d->moved = 1;
		if (!strcmp(e->kind, "skyd") || !strcmp(e->kind, "artilleri"))
			d->fired = 1;
		if (!strcmp(e->kind, "genforsyning"))
			d->resupplied = 1;
		if (!strcmp(e->kind, "reparation"))
			d->repaired = 1;
	}
	d->broke = ks_st(ctx, u, "moral_traek") == ord_ctx_turn(ctx) &&
		   ks_moral_parse(ks_st_str(ctx, u, "moral")) >= KS_U;
}

/* The kind of event that carries out group g of an order (the first
 * order, not one after an ordreaendring), when no event of the turn has
 * done it (d), nor made it void; NULL when it waits for none.  The
 * referee's list (ks_check_execution) and the empty phase's refusal
 * (ks_order_events) alike. */
static const char *group_waits(const struct ks_group *g, const struct ks_done *d)
{
	if (g->after_change)
		return NULL;
	if (!strcmp(g->code, "angreb"))
		return !d->attacked && !d->cancelled && !d->broke ? "angreb" : NULL;
	if (ks_is_move(g->code))
		return !d->moved && !d->cancelled && !d->broke ? "flyt" : NULL;
	if (!strcmp(g->code, "skydning") || !strcmp(g->code, "artilleriskydning"))
		return !d->fired && !d->cancelled && !d->broke
			       ? (strcmp(g->code, "skydning") ? "artilleri" : "skyd")
			       : NULL;
	if (!strcmp(g->code, "genforsyning"))
		return !d->resupplied ? "genforsyning" : NULL;
	if (!strcmp(g->code, "reparation"))
		return !d->repaired ? "reparation" : NULL;
	if (!strcmp(g->code, "formation"))
		return !d->formed && !d->broke ? "formation" : NULL;
	return NULL;
}

/* Does u owe the half turn's retreat or flight of 6.5 in this turn (K27)
 * and no event of the turn has made it: no retraete of u, nor, for a unit
 * in FU, a flugt that is its flight (a flugt alone moves nothing: for a
 * unit with a position it is the flight only when it says the unit cannot
 * flee, flugt_position_kontrol).  The referee's list (ks_check_execution)
 * and the empty phase's refusal (ks_order_events) alike; *grade and
 * *placed (may be NULL) get what the list's words need. */
static int retreat_unrecorded(struct ord_ctx *ctx, const struct ord_unit *u, int *grade, int *placed)
{
	int g, p;
	size_t j;

	if (ks_gone(ctx, u) || !retreat_owed(ctx, u))
		return 0;
	g = ks_moral_now(ctx, u);
	p = ks_check(ks_r(ctx), "flugt_position_kontrol") && ks_st_has(ctx, u, "x");
	if (grade)
		*grade = g;
	if (placed)
		*placed = p;
	for (j = 0; j < ord_ctx_unit_nevents(ctx, u); j++) {
		const struct ord_event *e = ord_ctx_unit_event(ctx, u, j);
		if (ev_unit(ctx, e, "unit") == u &&
		    (!strcmp(e->kind, "retraete") ||
		     (g >= KS_FU && !strcmp(e->kind, "flugt") && (!p || flight_stopped(ctx, e, u)))))
			return 0;
	}
	return 1;
}

/* The ruleset's order_events (ruleset.h, version 9): the kinds the groups
 * of u's order wait for, as ks_check_execution names them, each once;
 * and, whatever its order, the half turn's retreat the rules owe of u
 * (6.5, K27: retraete, which the list names), else a resolve typed twice
 * ended the turn with the unit standing where it broke, unseen. */
size_t ks_order_events(struct ord_ctx *ctx, const struct ord_unit *u, const char **kinds, size_t max)
{
	const struct ord_order *o = ord_ctx_order(ctx, u);
	struct ks_group g[KS_MAX_GROUPS];
	struct ks_done d;
	size_t n = ks_groups(o, g, KS_MAX_GROUPS), j, k, got = 0;

	if (ks_gone(ctx, u))
		return 0;
	if (o) {
		unit_done(ctx, u, &d);
		for (j = 0; j < n && got < max; j++) {
			const char *kind = group_waits(&g[j], &d);
			for (k = 0; kind && k < got && strcmp(kinds[k], kind); k++)
				;
			if (kind && k == got)
				kinds[got++] = kind;
		}
	}
	if (got < max && retreat_unrecorded(ctx, u, NULL, NULL))
		kinds[got++] = "retraete";
	return got;
}

/* The module's messages said in Danish from words.xml (chart messages;
 * ruleset.h version 12): the referee's list of the orders no event
 * carries out yet.  Each id is stable; its English is the format its
 * ord_diag_add_id writes (the words' row must give the same, or the
 * Danish is refused as stale). */
#define KS_MSG_ATTACK "ordered to attack ('A') but no attack (angreb) was declared"
#define KS_MSG_MOVE "ordered to move ('%s') but no move (flyt) was recorded"
#define KS_MSG_FIRE_AT "ordered to fire ('%s') at %s but no fire (%s) was recorded"
#define KS_MSG_FIRE "ordered to fire ('%s') but no fire (%s) was recorded"
#define KS_MSG_RESUPPLY                                                                           \
	"ordered to be resupplied ('GF') but no turn of resupply (genforsyning) was recorded (a " \
	"resupply under way starts anew)"
#define KS_MSG_REPAIR                                                                          \
	"ordered to repair ('REP') but no turn of repair (reparation) was recorded (a repair " \
	"under way is interrupted)"
#define KS_MSG_FORM "ordered to form %s ('FORM') but no formation change (formation) was recorded"
const struct ord_message ks_messages[] = {
	{ "ks.pending.attack", KS_MSG_ATTACK },     { "ks.pending.move", KS_MSG_MOVE },
	{ "ks.pending.fire-at", KS_MSG_FIRE_AT },   { "ks.pending.fire", KS_MSG_FIRE },
	{ "ks.pending.resupply", KS_MSG_RESUPPLY }, { "ks.pending.repair", KS_MSG_REPAIR },
	{ "ks.pending.form", KS_MSG_FORM },         { NULL, NULL },
};

int ks_check_execution(struct ord_ctx *ctx, struct ord_diag *d)
{
	size_t i, j;

	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		const struct ord_order *o = ord_ctx_order(ctx, u);
		struct ks_group g[KS_MAX_GROUPS];
		size_t n = ks_groups(o, g, KS_MAX_GROUPS);
		struct ks_done done;

		if (!o || ks_gone(ctx, u))
			continue;
		unit_done(ctx, u, &done);
		for (j = 0; j < n; j++) {
			const char *kind = group_waits(&g[j], &done);
			struct ord_diag_item *di = NULL;

			if (!kind)
				continue;
			if (!strcmp(kind, "angreb"))
				di = ord_diag_add_id(d, o->line, g[j].tok->col, u->id, "16.2",
						     "ks.pending.attack", KS_MSG_ATTACK);
			/* a move or a fire not carried out may have its reason
			 * on the table: said, for the players to ask; each
			 * names the event kind that carries it out, which the
			 * web page's Record button opens */
			else if (!strcmp(kind, "flyt"))
				di = ord_diag_add_id(d, o->line, g[j].tok->col, u->id, "13",
						     "ks.pending.move", KS_MSG_MOVE, g[j].code);
			else if (!strcmp(kind, "skyd") || !strcmp(kind, "artilleri")) {
				/* at whom, so the referee need not look the sheet up */
				const struct ord_token *t = ks_grp_tok(o, &g[j], ORD_TOK_TARGET);
				const char *h = ks_grp_arg(o, &g[j], "hex");
				if (t || h)
					di = ord_diag_add_id(d, o->line, g[j].tok->col, u->id, "15",
							     "ks.pending.fire-at", KS_MSG_FIRE_AT,
							     g[j].code, t ? t->value : h, kind);
				else
					di = ord_diag_add_id(d, o->line, g[j].tok->col, u->id, "15",
							     "ks.pending.fire", KS_MSG_FIRE,
							     g[j].code, kind);
			} else if (!strcmp(kind, "genforsyning"))
				di = ord_diag_add_id(d, o->line, g[j].tok->col, u->id,
						     "6.8 genforsyning", "ks.pending.resupply",
						     KS_MSG_RESUPPLY);
			else if (!strcmp(kind, "reparation"))
				di = ord_diag_add_id(d, o->line, g[j].tok->col, u->id, "9.6",
						     "ks.pending.repair", KS_MSG_REPAIR);
			else if (!strcmp(kind, "formation")) {
				char f[40];
				ks_grp_formation(o, &g[j], f, sizeof(f));
				di = ord_diag_add_id(d, o->line, g[j].tok->col, u->id, "12",
						     "ks.pending.form", KS_MSG_FORM, f);
			}
			/* the kind the message names, for the report's <pending> */
			ord_diag_item_kind(di, kind);
		}
	}
	/* 6.5: the half turn's retreat or flight owed in the turn of a U or
	 * FU, not yet recorded (K27; a unit in FU's flugt is its flight) */
	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		const struct ord_order *o = ord_ctx_order(ctx, u);
		struct ord_diag_item *di;
		struct ord_buf hint;
		const char *from;
		int grade = 0, placed = 0;

		if (!retreat_unrecorded(ctx, u, &grade, &placed))
			continue;
		from = ks_st_str(ctx, u, "tvungen_fra");
		ord_buf_init(&hint);
		retreat_hint(ctx, u, 1, NULL, &hint);
		di = ord_diag_add(d, o ? o->line : 0, 0, u->id, "6.5",
				  "driven into %s this turn (%s%s%s%s): it must %s half a turn in this turn (6.5), but no %s (%s) was recorded%s",
				  ks_moral_name(grade),
				  ks_reason(ks_st_str(ctx, u, "moral_grund"), "en"),
				  *from ? ", by '" : "", from, *from ? "'" : "",
				  grade >= KS_FU ? "flee" : "retreat",
				  grade >= KS_FU ? "flight" : "retreat",
				  grade >= KS_FU && !placed ? "retraete or flugt" : "retraete",
				  hint.buf);
		/* a flight too is recorded as retraete (ks_order_events) */
		ord_diag_item_kind(di, "retraete");
		ord_buf_release(&hint);
	}
	/* a melee recorded and not resolved yet: its loser's half turn is
	 * recorded after it, before the resolve (which carries it out only if
	 * the unit then owes it); once resolved the phase takes no event */
	for (i = 0; ks_check(ks_r(ctx), "retraete_samme_traek_kontrol") && i < ord_ctx_nevents(ctx);
	     i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *side[2];
		int k;

		if (strcmp(e->kind, "naerkamp") || ks_impossible(ctx, e, NULL))
			continue;
		side[0] = ev_unit(ctx, e, "angriber");
		side[1] = ev_unit(ctx, e, "forsvarer");
		for (k = 0; k < 2; k++) {
			struct ord_unit *u = side[k], *w = side[1 - k];
			const struct ord_order *o;
			struct ord_buf hint;
			int done = 0;
			if (!u || !w || ks_gone(ctx, u) ||
			    ks_st(ctx, u, "naerkamp_traek") == ord_ctx_turn(ctx) ||
			    retreat_owed(ctx, u))
				continue;
			for (j = 0; j < ord_ctx_unit_nevents(ctx, u) && !done; j++) {
				const struct ord_event *r = ord_ctx_unit_event(ctx, u, j);
				done = r->seq > e->seq && ev_unit(ctx, r, "unit") == u &&
				       !strcmp(r->kind, "retraete");
			}
			if (done)
				continue;
			o = ord_ctx_order(ctx, u);
			ord_buf_init(&hint);
			retreat_hint(ctx, u, 0, w, &hint);
			{
				struct ord_diag_item *di = ord_diag_add_citing(d, o ? o->line : 0, 0,
									       u->id, "6.5", e->seq,
									       "in the melee with '%s'",
									       w->id);
				ord_diag_item_addf(di, ", not resolved yet: should it be driven into U or FU, it must retreat or flee half a turn in this turn (6.5), recorded after the melee and before the phase is resolved (the resolve carries it out only if it then owes it)%s",
						   hint.buf);
				ord_diag_item_kind(di, "retraete");
			}
			ord_buf_release(&hint);
		}
	}
	return 0;
}
