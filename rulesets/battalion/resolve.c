/*
 * resolve.c - the battalion module's five phases (movement, fire,
 * fire-morale, melee, melee-morale), read from the referee's events, rolled
 * through ord_ctx_roll, computed by calc.c from the tables and written
 * into the units' state and the results; battalion.c has the decisions
 * (D1..D26) they carry out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/battalion/bat.h"
#include "rulesets/battalion/draw.h"

/* ---- resolution ---- */

/* A unit's melee ends (it broke, or the units were separated). */
static void end_melee(struct ord_ctx *ctx, struct ord_unit *u)
{
	struct ord_unit *w = bat_melee_with(ctx, u) ? ord_ctx_find_unit(ctx, bat_melee_with(ctx, u))
						    : NULL;

	ord_state_set_str(ctx, u, "melee_with", "");
	if (w && bat_melee_with(ctx, w) && !strcmp(bat_melee_with(ctx, w), u->id))
		ord_state_set_str(ctx, w, "melee_with", "");
}

static void apply_outcome(struct ord_ctx *ctx, struct ord_unit *u, const char *outcome,
			  const char *new_class)
{
	int turn = ord_ctx_turn(ctx);
	long dress = bat_ip(ctx, "dress_ranks_turns");

	if (!strcmp(outcome, "good"))
		return;
	bat_st_set(ctx, u, "failed", 1);
	if (!strcmp(outcome, "retreat")) {
		bat_st_set(ctx, u, "retreat_turn", turn + 1);
		/* a routed unit that retreats as well still dresses its ranks
		 * after its rout (D5: routed units now fight and test) */
		if (!bat_flag(ctx, "routed_no_melee_value") ||
		    bat_st(ctx, u, "dress_until") < turn + 1 + dress)
			bat_st_set(ctx, u, "dress_until", turn + 1 + dress);
	} else {
		bat_st_set(ctx, u, "routed", turn);
		bat_st_set(ctx, u, "rout_until", turn + bat_ip(ctx, "rout_turns"));
		bat_st_set(ctx, u, "penalty_until", turn + bat_ip(ctx, "rout_penalty_turns"));
		bat_st_set(ctx, u, "dress_until", bat_st(ctx, u, "rout_until") + dress);
		if (new_class)
			ord_state_set_str(ctx, u, "class", new_class);
	}
}

/* One morale test (d6 rules or the d20 chart); returns the outcome. */
static int morale_test(struct ord_ctx *ctx, struct ord_unit *u, const char *chart, int lost_melee,
		       const char *purpose, const char **outcome)
{
	struct ord_buf why = ORD_BUF_INIT, id = ORD_BUF_INIT;
	int turn = ord_ctx_turn(ctx);
	struct ord_kv vals;
	int die, err;

	ord_kv_init(&vals);
	/* a unit with no figures left is destroyed: nobody is left to test */
	if (bat_st(ctx, u, "figures") <= 0) {
		*outcome = "good";
		ord_ctx_result(ctx, 0, u->id, NULL, "no %s test: destroyed (no figures left)", purpose);
		err = 0;
		goto out;
	}
	ord_buf_addf(&id, "%s %s", purpose, u->id);
	if (!strcmp(chart, "d20")) {
		const struct ord_table *t = ord_tables_get(bat_r(ctx)->tables, "morale20");
		struct bat_morale20_in in;
		struct bat_morale20_out out;
		char cls[16];
		if ((err = ord_ctx_roll(ctx, &die, (unsigned)ord_table_die(t), id.buf, 0, 0)) != 0)
			goto out;
		/* a copy: writing the state (apply_outcome) may move its strings */
		snprintf(cls, sizeof(cls), "%s", ord_state_str(ctx, u, "class"));
		in.cls = cls;
		in.die = die;
		if ((err = bat_morale20(bat_r(ctx), &in, &out, &why)) != 0)
			goto out;
		apply_outcome(ctx, u, out.outcome, out.new_class);
		*outcome = out.outcome;
		ord_kv_set(&vals, "outcome", out.outcome);
		ord_kv_set_int(&vals, "die", die);
		ord_kv_set(&vals, "class", out.new_class);
		ord_ctx_result(ctx, 0, u->id, &vals, "%s (d20 chart): %s", purpose, why.buf);
	} else {
		struct bat_morale_in in;
		struct bat_morale_out out;
		if ((err = ord_ctx_roll(ctx, &die, (unsigned)bat_ip(ctx, "morale_die"), id.buf, 0,
					0)) != 0)
			goto out;
		in.die = die;
		in.losses = (int)bat_turn_losses(ctx, u);
		in.elite = bat_is_elite(u);
		in.militia = bat_is_militia(u);
		in.failed_before = bat_st(ctx, u, "failed") != 0;
		in.lost_melee = lost_melee;
		in.routed_recently = bat_st(ctx, u, "routed") && bat_st(ctx, u, "routed") < turn &&
				     bat_st(ctx, u, "penalty_until") >= turn;
		if ((err = bat_morale(bat_r(ctx), &in, &out, &why)) != 0)
			goto out;
		apply_outcome(ctx, u, out.outcome, NULL);
		*outcome = out.outcome;
		ord_kv_set(&vals, "outcome", out.outcome);
		ord_kv_set_int(&vals, "score", out.score);
		ord_kv_set_int(&vals, "die", die);
		ord_ctx_result(ctx, 0, u->id, &vals, "%s: %s", purpose, why.buf);
	}
out:
	ord_kv_release(&vals);
	ord_buf_release(&why);
	ord_buf_release(&id);
	return err;
}

/* w came into melee contact with u this turn (D25). */
static void add_contact(struct ord_ctx *ctx, struct ord_unit *u, const struct ord_unit *w)
{
	struct ord_buf list = ORD_BUF_INIT;
	int turn = ord_ctx_turn(ctx);

	/* a copy: writing the state may move its strings */
	if (bat_st(ctx, u, "in_contact") == turn)
		ord_buf_adds(&list, ord_state_str(ctx, u, "contact_with"));
	if (!ord_words_has(list.buf, w->id)) {
		ord_buf_addf(&list, "%s%s", list.len ? " " : "", w->id);
		ord_state_set_str(ctx, u, "contact_with", list.buf);
		bat_st_set(ctx, u, "in_contact", turn);
	}
	ord_buf_release(&list);
}

static int resolve_movement(struct ord_ctx *ctx)
{
	int turn = ord_ctx_turn(ctx);
	size_t i;

	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *u = bat_ev_unit(ctx, e, "unit");
		struct ord_kv vals;

		ord_kv_init(&vals);
		if (!strcmp(e->kind, "move")) {
			struct ord_unit *c = bat_ev_unit(ctx, e, "contact");
			double dist = ord_kv_get_num(&e->kv, "distance", 0);
			int charge = bat_move_charges(ctx, e);
			if (dist > 0)
				bat_st_set(ctx, u, "moved", turn);
			bat_position_move(ctx, u, e);
			if (charge) {
				bat_st_set(ctx, u, "charged", turn);
				bat_st_set(ctx, u, "last_charge", turn);
			}
			if (c) {
				/* D3: the unit that made the contact, not the one it
				 * struck */
				bat_st_set(ctx, u, "contact", turn);
				ord_state_set_str(ctx, u, "contact_unit", c->id);
				add_contact(ctx, u, c);
				add_contact(ctx, c, u);
			}
			ord_kv_set(&vals, "distance", ord_kv_get(&e->kv, "distance"));
			ord_ctx_result(ctx, e->seq, u->id, &vals, "%s %s\" over %s ground%s%s",
				       charge ? "charged" : "moved", ord_kv_get(&e->kv, "distance"),
				       ord_kv_get(&e->kv, "terrain"),
				       c ? ", into contact with " : "", c ? c->id : "");
		} else if (!strcmp(e->kind, "form")) {
			const char *f = ord_kv_get(&e->kv, "formation");
			ord_state_set_str(ctx, u, "formation", f);
			bat_st_set(ctx, u, "changed", turn);
			ord_kv_set(&vals, "formation", f);
			ord_ctx_result(ctx, e->seq, u->id, &vals,
				       "formed %s (the change takes the turn)", f);
		} else if (!strcmp(e->kind, "limber") || !strcmp(e->kind, "unlimber")) {
			int un = !strcmp(e->kind, "unlimber");
			ord_state_set_str(ctx, u, "formation", un ? "unlimbered" : "limbered");
			if (un)
				bat_st_set(ctx, u, "unlimbered", turn);
			ord_ctx_result(ctx, e->seq, u->id, NULL, "%s", un ? "unlimbered" : "limbered");
		}
		ord_kv_release(&vals);
	}
	return 0;
}

/* The unit a fire hits: the target, or the skirmishers screening it (D21). */
static struct ord_unit *hit_unit(struct ord_ctx *ctx, const struct ord_event *e)
{
	struct ord_unit *s = bat_ev_unit(ctx, e, "screen");

	return s ? s : bat_ev_unit(ctx, e, "target");
}

/* "; skirmishers S absorb the fire aimed at T" */
static void screened(struct ord_ctx *ctx, const struct ord_event *e, struct ord_buf *why)
{
	if (bat_ev_unit(ctx, e, "screen"))
		ord_buf_addf(why, " (the skirmishers %s block and absorb the fire aimed at %s)",
			     bat_ev_unit(ctx, e, "screen")->id, ord_kv_get(&e->kv, "target"));
}

/* The figures a unit fires with unless the referee counted them: a column
 * its first two ranks, any other formation all of its figures. */
static int default_firers(struct ord_ctx *ctx, const struct ord_unit *u)
{
	long fig = bat_st(ctx, u, "figures");
	long col = bat_ip(ctx, "column_firers");

	if (!strcmp(bat_chart_formation(ctx, u), "column") && fig > col)
		return (int)col;
	return (int)fig;
}

static int fire_event(struct ord_ctx *ctx, const struct ord_event *e, struct ord_unit *u,
		      struct ord_unit *t, int *cas)
{
	int turn = ord_ctx_turn(ctx);
	const struct ord_order *o = ord_ctx_order(ctx, u);
	struct ord_buf why = ORD_BUF_INIT;
	struct bat_fire_in in;
	struct bat_fire_out out;
	struct ord_kv vals;
	int err;

	ord_kv_init(&vals);
	memset(&in, 0, sizeof(in));
	in.firers = (int)ord_kv_get_int(&e->kv, "firers", default_firers(ctx, u));
	/* D17: never more than it has, whatever an override said */
	if (in.firers > bat_st(ctx, u, "figures"))
		in.firers = (int)bat_st(ctx, u, "figures");
	in.weapon = ord_kv_get(&u->attrs, "weapon");
	if (!in.weapon || !strcmp(in.weapon, "none"))
		in.weapon = "musket"; /* only with an override (D11) */
	in.range = ord_kv_get_num(&e->kv, "range", 0);
	in.target_formation = bat_chart_formation(ctx, t);
	in.target_moved = bat_st(ctx, t, "moved") == turn;
	in.firer_moved = bat_ordered_quarters(ctx, o) > 0 || bat_st(ctx, u, "moved") == turn;
	in.firer_changed_formation = bat_order_form(o) != NULL || bat_st(ctx, u, "changed") == turn;
	in.firer_light = !strcmp(bat_kind(u), "light_infantry");
	/* "their fire is treated like skirmish fire": the formations' fires_as */
	in.firer_skirmish = !strcmp(bat_fires_as(ctx, u), "skirmish");
	in.enfilade = ord_kv_get_bool(&e->kv, "enfilade", 0);
	if (in.enfilade && !bat_enfiladed(ctx, t)) {
		ord_buf_addf(&why, "enfilade: %s (%s) is not taken in flank (kinds: enfiladed=no); ",
			     t->id, bat_kind(t));
		in.enfilade = 0;
	}
	in.target_in_woods = ord_kv_get_bool(&e->kv, "target_in_woods", 0);
	in.firer_in_woods = ord_kv_get_bool(&e->kv, "firer_in_woods", 0);
	in.firer_on_hill = ord_kv_get_bool(&e->kv, "hill", 0);
	if ((err = bat_fire(bat_r(ctx), &in, &out, &why)) != 0)
		goto out;
	*cas = out.casualties;
	ord_kv_set_int(&vals, "casualties", out.casualties);
	ord_kv_set(&vals, "by", u->id);
	screened(ctx, e, &why);
	ord_ctx_result(ctx, e->seq, t->id, &vals, "fired on by %s (%s, %s\"): %s", u->id, in.weapon,
		       ord_kv_get(&e->kv, "range"), why.buf);
out:
	ord_kv_release(&vals);
	ord_buf_release(&why);
	return err;
}

static int artillery_event(struct ord_ctx *ctx, const struct ord_event *e, struct ord_unit *u,
			   struct ord_unit *t, int *cas, int *hit)
{
	int turn = ord_ctx_turn(ctx);
	const struct ord_order *o = ord_ctx_order(ctx, u);
	const struct ord_token *f = bat_order_fire(o);
	struct ord_buf why = ORD_BUF_INIT;
	struct bat_artillery_in in;
	struct bat_artillery_out out;
	struct ord_kv vals;
	int err;

	ord_kv_init(&vals);
	memset(&in, 0, sizeof(in));
	in.shot = ord_kv_get(&e->kv, "shot");
	if (!in.shot)
		in.shot = f ? bat_fire_code_shot(f->value) : "ball";
	in.range = ord_kv_get_num(&e->kv, "range", 0);
	in.target_formation = bat_chart_formation(ctx, t);
	/* "Should a horse art. gun move, unlimber, and fire, it causes 1/2
	 * casualties": moved read off its sheet (an arrow) or from what it
	 * did, as a battalion's fire reads it (D16, horse_moved_by_sheet;
	 * before, a move of 0" or none recorded fired it whole) */
	in.horse_moved_unlimbered = bat_is_horse_artillery(u) && bat_st(ctx, u, "unlimbered") == turn &&
				    (bat_st(ctx, u, "moved") == turn ||
				     (bat_flag(ctx, "horse_moved_by_sheet") &&
				      bat_ordered_quarters(ctx, o) > 0));
	/* D12, with --override only: a shot from or into woods does nothing */
	in.target_in_woods = ord_kv_get_bool(&e->kv, "target_in_woods", 0);
	in.firer_in_woods = ord_kv_get_bool(&e->kv, "firer_in_woods", 0);
	in.firer_on_hill = ord_kv_get_bool(&e->kv, "hill", 0);
	/* D10: no die for a shot out of range; a probe with the lowest face says */
	in.die = 1;
	if ((err = bat_artillery(bat_r(ctx), &in, &out, NULL)) != 0)
		goto out;
	if (out.in_range && (err = ord_ctx_roll(ctx, &in.die, (unsigned)bat_ip(ctx, "artillery_die"),
						"artillery to hit", e->seq, 0)) != 0)
		goto out;
	if ((err = bat_artillery(bat_r(ctx), &in, &out, &why)) != 0)
		goto out;
	*cas = out.casualties;
	*hit = out.hit && bat_is_arm(ctx, t, "artillery");
	ord_kv_set(&vals, "hit", out.hit ? "yes" : "no");
	ord_kv_set_int(&vals, "casualties", out.casualties);
	ord_kv_set(&vals, "by", u->id);
	screened(ctx, e, &why);
	if (bat_ev_unit(ctx, e, "over"))
		ord_buf_addf(&why, " (over %s, %s\" clear)", bat_ev_unit(ctx, e, "over")->id,
			     ord_kv_get(&e->kv, "clearance"));
	ord_ctx_result(ctx, e->seq, t->id, &vals, "fired on by gun %s (%s, %s\"): %s", u->id,
		       in.shot, ord_kv_get(&e->kv, "range"), why.buf);
out:
	ord_kv_release(&vals);
	ord_buf_release(&why);
	return err;
}

/* What a unit lost in a phase (to "fire", "melee", "the pursuit") and
 * what it has left, as an automatic result its own side sees: the enemy
 * sees its trays, not its figures (bat_describe_unit). */
static void loss_result(struct ord_ctx *ctx, struct ord_unit *t, long lost, const char *to)
{
	struct ord_kv vals;

	ord_kv_init(&vals);
	ord_kv_set_int(&vals, "lost", lost);
	ord_kv_set_int(&vals, "figures", bat_st(ctx, t, "figures"));
	ord_kv_set_int(&vals, "trays", bat_st(ctx, t, "trays"));
	ord_kv_set_int(&vals, "carried", bat_st(ctx, t, "carried"));
	if (bat_is_arm(ctx, t, "infantry"))
		ord_ctx_result(ctx, 0, t->id, &vals,
			       "loses %ld figure%s to %s: %ld left; in all %ld lost, %ld tray%s removed, %ld carried",
			       lost, lost == 1 ? "" : "s", to, bat_st(ctx, t, "figures"),
			       bat_st(ctx, t, "losses"), bat_st(ctx, t, "trays"),
			       bat_st(ctx, t, "trays") == 1 ? "" : "s", bat_st(ctx, t, "carried"));
	else /* trays are the battalions' ("BASICS OF INFANTRY") */
		ord_ctx_result(ctx, 0, t->id, &vals,
			       "loses %ld figure%s to %s: %ld left; in all %ld lost", lost,
			       lost == 1 ? "" : "s", to, bat_st(ctx, t, "figures"),
			       bat_st(ctx, t, "losses"));
	ord_kv_release(&vals);
}

static int resolve_fire(struct ord_ctx *ctx)
{
	int turn = ord_ctx_turn(ctx);
	size_t i, n = ord_ctx_nevents(ctx), nu = ord_ctx_nunits(ctx);
	int *cas = ord_xcalloc(n + 1, sizeof(*cas));
	int *hit = ord_xcalloc(n + 1, sizeof(*hit));
	long *lost = ord_xcalloc(nu + 1, sizeof(*lost));
	int err = 0;

	/* every unit fires with its strength before the fire: trays are
	 * removed only after both sides have fired */
	for (i = 0; i < n; i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *u = bat_ev_unit(ctx, e, "unit"), *t = hit_unit(ctx, e);

		if (!strcmp(e->kind, "fire"))
			err = fire_event(ctx, e, u, t, &cas[i]);
		else if (!strcmp(e->kind, "artillery"))
			err = artillery_event(ctx, e, u, t, &cas[i], &hit[i]);
		if (err)
			goto out;
	}
	for (i = 0; i < n; i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *t = hit_unit(ctx, e);
		if (!t)
			continue;
		if (cas[i]) {
			long before = bat_st(ctx, t, "figures");
			bat_take_losses(ctx, t, cas[i]);
			lost[ord_ctx_unit_index(ctx, t)] += before - bat_st(ctx, t, "figures");
		}
		if (hit[i]) {
			bat_st_set(ctx, t, "hits", bat_st(ctx, t, "hits") + 1);
			if (bat_st(ctx, t, "hits") >= bat_ip(ctx, "gun_hits_silence") &&
			    !bat_st(ctx, t, "silenced")) {
				bat_st_set(ctx, t, "silenced", 1);
				ord_ctx_result(ctx, e->seq, t->id, NULL,
					       "gun silenced: %ld artillery hits",
					       bat_st(ctx, t, "hits"));
			}
		}
		if (cas[i] || hit[i])
			bat_st_set(ctx, t, "fired_on", turn);
	}
	for (i = 0; i < nu; i++)
		if (lost[i])
			loss_result(ctx, ord_ctx_unit(ctx, i), lost[i], "fire");
out:
	free(cas);
	free(hit);
	free(lost);
	return err;
}

static int resolve_fire_morale(struct ord_ctx *ctx)
{
	int turn = ord_ctx_turn(ctx);
	size_t i, j, n = ord_ctx_nunits(ctx), ne = ord_ctx_nevents(ctx);
	/* each unit's events of the phase as a list (index + 1, 0 ends it),
	 * in the order recorded: one pass, not units x events */
	size_t *head = ord_xcalloc(n + 1, sizeof(*head)), *tail = ord_xcalloc(n + 1, sizeof(*tail));
	size_t *next = ord_xcalloc(ne + 1, sizeof(*next));
	int err = 0;

	for (j = 0; j < ne; j++) {
		struct ord_unit *u = bat_ev_unit(ctx, ord_ctx_event(ctx, j), "unit");
		size_t k;

		if (!u)
			continue;
		k = ord_ctx_unit_index(ctx, u);
		if (tail[k])
			next[tail[k] - 1] = j + 1;
		else
			head[k] = j + 1;
		tail[k] = j + 1;
	}
	for (i = 0; i < n; i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		const char *chart = bat_game_chart(ctx), *outcome = "good";
		int tested = 0, exempt = 0;

		for (j = head[i]; j; j = next[j - 1]) {
			const struct ord_event *e = ord_ctx_event(ctx, j - 1);
			if (!strcmp(e->kind, "exempt")) {
				exempt = 1;
				ord_ctx_result(ctx, e->seq, u->id, NULL, "no fire morale test now: %s",
					       ord_kv_get(&e->kv, "reason"));
			} else if (!strcmp(e->kind, "test")) {
				if (ord_kv_get(&e->kv, "chart"))
					chart = ord_kv_get(&e->kv, "chart");
				tested = 1;
			}
		}
		if (exempt)
			continue;
		if (!tested && !(bat_st(ctx, u, "fired_on") == turn && bat_turn_losses(ctx, u) > 0))
			continue;
		/* D3: a unit that made melee contact this turn tests after the
		 * melee; one fire destroyed has nobody left to test, said so
		 * (morale_test) unless its game was made before the words */
		if (!tested && bat_st(ctx, u, "contact") == turn &&
		    !(bat_st(ctx, u, "figures") <= 0 && bat_flag(ctx, "destroyed_untested"))) {
			bat_st_set(ctx, u, "deferred", turn);
			ord_ctx_result(ctx, 0, u->id, NULL,
				       "no fire morale test now: it made melee contact this turn and tests after the melee");
			continue;
		}
		if ((err = morale_test(ctx, u, chart, 0, "fire morale", &outcome)) != 0)
			goto out;
		if (strcmp(outcome, "good") && bat_melee_with(ctx, u)) {
			ord_ctx_result(ctx, 0, u->id, NULL, "leaves the melee with %s",
				       bat_melee_with(ctx, u));
			end_melee(ctx, u);
		}
	}
out:
	free(head);
	free(tail);
	free(next);
	return err;
}

/* Is w one of the units u fights: the enemy, or the unit beside it (D20,
 * melee_both_enemies; a game made before counted the first alone)? */
static int melee_enemy(struct ord_ctx *ctx, const struct ord_unit *w, const struct ord_unit *enemy,
		       const struct ord_unit *enemy2)
{
	return w == enemy || (w && w == enemy2 && bat_flag(ctx, "melee_both_enemies"));
}

/* Is enemy, or the unit beside it, cavalry (for a square's +1)? */
static int melee_against_cavalry(struct ord_ctx *ctx, const struct ord_unit *enemy,
				 const struct ord_unit *enemy2)
{
	return bat_is_arm(ctx, enemy, "cavalry") ||
	       (enemy2 && bat_flag(ctx, "melee_both_enemies") && bat_is_arm(ctx, enemy2, "cavalry"));
}

static void melee_side(struct ord_ctx *ctx, const struct ord_event *e, struct ord_unit *u,
		       struct ord_unit *enemy, struct ord_unit *enemy2, const char *p,
		       struct bat_melee_side *s)
{
	char key[32];
	int turn = ord_ctx_turn(ctx);
	struct ord_unit *charged = ord_ctx_find_unit(ctx, ord_state_str(ctx, u, "contact_unit"));

	snprintf(key, sizeof(key), "%s_figures", p);
	s->kind = bat_kind(u);
	s->formation = bat_chart_formation(ctx, u); /* its points (melee_points_by_formation) */
	s->figures = (int)ord_kv_get_int(&e->kv, key, bat_st(ctx, u, "figures"));
	if (s->figures > bat_st(ctx, u, "figures"))
		s->figures = (int)bat_st(ctx, u, "figures");
	s->column = !strcmp(bat_chart_formation(ctx, u), "column");
	s->motion = bat_st(ctx, u, "moved") == turn;
	snprintf(key, sizeof(key), "%s_fresh", p);
	s->fresh = ord_kv_get_bool(&e->kv, key, 0); /* D1: only when the referee says */
	/* D25: the charge's bonus against the unit it charged into, whether
	 * the referee named that unit first or beside the first */
	s->charging = bat_st(ctx, u, "charged") == turn && bat_st(ctx, u, "contact") == turn &&
		      melee_enemy(ctx, charged, enemy, enemy2);
	s->elite = bat_is_elite(u);
	s->square_vs_cavalry = !strcmp(bat_chart_formation(ctx, u), "square") &&
			       melee_against_cavalry(ctx, enemy, enemy2);
	snprintf(key, sizeof(key), "%s_hill", p);
	s->hill = ord_kv_get_bool(&e->kv, key, 0);
	/* D5: "routed units ... have no melee value" */
	s->no_value = bat_flag(ctx, "routed_no_melee_value") && bat_routed(ctx, u);
}

/* A unit's part in a melee it fought (the state the melee leaves). */
static void melee_fought(struct ord_ctx *ctx, struct ord_unit *u, struct ord_unit *enemy, int lost,
			 int tied)
{
	int turn = ord_ctx_turn(ctx);

	bat_st_set(ctx, u, "fought", turn);
	if (!bat_melee_with(ctx, u) || strcmp(bat_melee_with(ctx, u), enemy->id))
		bat_st_set(ctx, u, "melee_since", turn);
	ord_state_set_str(ctx, u, "melee_with", enemy->id);
	if (lost)
		bat_st_set(ctx, u, "lost_melee", turn);
	if (tied)
		bat_st_set(ctx, u, "tied_melee", turn);
}

/* A unit the melee destroyed is out of it, and so free is every unit
 * locked in melee with it (D15). */
static void melee_destroyed(struct ord_ctx *ctx, unsigned seq, struct ord_unit *u)
{
	size_t i;

	if (!u || bat_st(ctx, u, "figures") > 0 || !bat_melee_with(ctx, u))
		return;
	ord_ctx_result(ctx, seq, u->id, NULL, "destroyed: its melee with %s ends",
		       bat_melee_with(ctx, u));
	ord_state_set_str(ctx, u, "melee_with", "");
	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *w = ord_ctx_unit(ctx, i);
		if (bat_melee_with(ctx, w) && !strcmp(bat_melee_with(ctx, w), u->id)) {
			ord_state_set_str(ctx, w, "melee_with", "");
			ord_ctx_result(ctx, seq, w->id, NULL,
				       "its enemy %s is destroyed: out of the melee", u->id);
		}
	}
}

/*
 * A melee's result names its units ("F2 wins; F2 inflicts ... on A1"), is
 * given once, on its b= unit (seen by both sides: b's own, and a's as
 * the event's actor, as a fire's result is the target's), and each unit's
 * loss follows as the fire phase gives it.  The tables of a game made
 * before (no melee_names_units) keep its words: the sides as A and B, the
 * result once for each unit; its replay gives what was recorded.
 */
static int melee_names_units(struct ord_ctx *ctx)
{
	return bat_flag(ctx, "melee_names_units");
}

/* Take a melee's casualties from u; the figures it lost, or 0 without u. */
static long melee_losses(struct ord_ctx *ctx, struct ord_unit *u, int casualties)
{
	long before;

	if (!u)
		return 0;
	before = bat_st(ctx, u, "figures");
	bat_take_losses(ctx, u, casualties);
	return before - bat_st(ctx, u, "figures");
}

/* Is there a melee event of this phase between u and w? */
static int melee_recorded(struct ord_ctx *ctx, const struct ord_unit *u, const struct ord_unit *w)
{
	size_t i;

	for (i = 0; i < ord_ctx_nevents(ctx); i++)
		if (bat_melee_between(ctx, ord_ctx_event(ctx, i), u, w))
			return 1;
	return 0;
}

/* The die of a melee's side (u, and u2 beside it): where the dice are
 * keyed by what the event names, by the side's first unit by id, so
 * that writing the melee as a=A1 b=F2 or a=F2 b=A1 (or a unit as a or
 * a2) gives each unit the same die; else by its place, as in the games
 * made before (threat model, "The dice"). */
static int melee_roll(struct ord_ctx *ctx, const struct ord_event *e, const struct ord_unit *u,
		      const struct ord_unit *u2, const char *place, int sides, int *die)
{
	struct ord_buf purpose = ORD_BUF_INIT;
	int err;

	if (!ord_ctx_dice_by_events(ctx))
		return ord_ctx_roll(ctx, die, (unsigned)sides, place, e->seq, 0);
	ord_buf_addf(&purpose, "melee %s", u2 && strcmp(u2->id, u->id) < 0 ? u2->id : u->id);
	err = ord_ctx_roll(ctx, die, (unsigned)sides, purpose.buf, e->seq, 0);
	ord_buf_release(&purpose);
	return err;
}

static int resolve_melee(struct ord_ctx *ctx)
{
	size_t i;
	int err = 0, named = melee_names_units(ctx);

	/* D14: a melee of an earlier turn not fought again has ended */
	for (i = 0; i < ord_ctx_nunits(ctx); i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		struct ord_unit *w = bat_melee_with(ctx, u)
					     ? ord_ctx_find_unit(ctx, bat_melee_with(ctx, u))
					     : NULL;
		if (!bat_still_in_melee(ctx, u) || (w && melee_recorded(ctx, u, w)))
			continue;
		ord_ctx_result(ctx, 0, u->id, NULL, BAT_MELEE_ENDED, bat_melee_with(ctx, u),
			       bat_st(ctx, u, "melee_since"));
		end_melee(ctx, u);
	}
	for (i = 0; i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);
		struct ord_unit *a = bat_ev_unit(ctx, e, "a"), *b = bat_ev_unit(ctx, e, "b");
		struct ord_unit *a2 = bat_ev_unit(ctx, e, "a2"), *b2 = bat_ev_unit(ctx, e, "b2");
		struct bat_melee_in in;
		struct bat_melee_out out;
		struct ord_buf why = ORD_BUF_INIT;
		struct ord_kv vals;
		int da, db, sides = (int)bat_ip(ctx, "melee_die");
		long lost[4];
		struct ord_unit *who[4];
		size_t k;

		if (strcmp(e->kind, "melee"))
			continue;
		if (bat_st(ctx, a, "figures") <= 0 || bat_st(ctx, b, "figures") <= 0) {
			struct ord_unit *gone = bat_st(ctx, a, "figures") <= 0 ? a : b;
			ord_ctx_result(ctx, e->seq, gone->id, NULL,
				       "no melee: '%s' has no figures left", gone->id);
			continue;
		}
		memset(&in, 0, sizeof(in));
		melee_side(ctx, e, a, b, b2, "a", &in.a);
		melee_side(ctx, e, b, a, a2, "b", &in.b);
		/* D20: a second unit on a side fights beside the first */
		if (a2)
			melee_side(ctx, e, a2, b, b2, "a2", &in.a2);
		if (b2)
			melee_side(ctx, e, b2, a, a2, "b2", &in.b2);
		if (named) {
			in.a.name = a->id;
			in.b.name = b->id;
			in.a2.name = a2 ? a2->id : NULL;
			in.b2.name = b2 ? b2->id : NULL;
		}
		if ((err = melee_roll(ctx, e, a, a2, "melee a", sides, &da)) != 0 ||
		    (err = melee_roll(ctx, e, b, b2, "melee b", sides, &db)) != 0)
			return err;
		in.a.die = in.a2.die = da;
		in.b.die = in.b2.die = db;
		if ((err = bat_melee(bat_r(ctx), &in, &out, &why)) != 0) {
			ord_buf_release(&why);
			return err;
		}
		who[0] = a, who[1] = a2, who[2] = b, who[3] = b2;
		lost[0] = melee_losses(ctx, a, out.casualties_a);
		lost[2] = melee_losses(ctx, b, out.casualties_b);
		lost[1] = melee_losses(ctx, a2, out.casualties_a2);
		lost[3] = melee_losses(ctx, b2, out.casualties_b2);
		melee_fought(ctx, a, b, out.winner == BAT_B, out.winner == BAT_NONE);
		melee_fought(ctx, b, a, out.winner == BAT_A, out.winner == BAT_NONE);
		if (a2)
			melee_fought(ctx, a2, b, out.winner == BAT_B, out.winner == BAT_NONE);
		if (b2)
			melee_fought(ctx, b2, a, out.winner == BAT_A, out.winner == BAT_NONE);
		ord_kv_init(&vals);
		ord_kv_set(&vals, "winner",
			   out.winner == BAT_A   ? a->id
			   : out.winner == BAT_B ? b->id
						 : "");
		ord_kv_set_int(&vals, "score_a", out.score_a);
		ord_kv_set_int(&vals, "score_b", out.score_b);
		ord_kv_set_int(&vals, "casualties_a", out.casualties_a);
		ord_kv_set_int(&vals, "casualties_b", out.casualties_b);
		if (a2)
			ord_kv_set_int(&vals, "casualties_a2", out.casualties_a2);
		if (b2)
			ord_kv_set_int(&vals, "casualties_b2", out.casualties_b2);
		if (named) {
			ord_ctx_result(ctx, e->seq, b->id, &vals, "melee with %s%s%s%s%s%s: %s",
				       a->id, a2 ? " and " : "", a2 ? a2->id : "", b2 ? " (" : "",
				       b2 ? b2->id : "", b2 ? " beside it)" : "", why.buf);
			for (k = 0; k < 4; k++)
				if (who[k] && lost[k])
					loss_result(ctx, who[k], lost[k], "melee");
		} else {
			ord_ctx_result(ctx, e->seq, a->id, &vals, "melee with %s: %s", b->id, why.buf);
			if (a2)
				ord_ctx_result(ctx, e->seq, a2->id, &vals,
					       "melee with %s beside %s: %s", b->id, a->id, why.buf);
			ord_ctx_result(ctx, e->seq, b->id, &vals, "melee with %s: %s", a->id, why.buf);
			if (b2)
				ord_ctx_result(ctx, e->seq, b2->id, &vals,
					       "melee with %s beside %s: %s", a->id, b->id, why.buf);
		}
		ord_kv_release(&vals);
		ord_buf_release(&why);
		melee_destroyed(ctx, e->seq, a);
		melee_destroyed(ctx, e->seq, a2);
		melee_destroyed(ctx, e->seq, b);
		melee_destroyed(ctx, e->seq, b2);
	}
	return 0;
}

/* D4: cavalry w re-fights infantry u that it broke. */
static int pursue(struct ord_ctx *ctx, struct ord_unit *w, struct ord_unit *u)
{
	struct ord_buf why = ORD_BUF_INIT, id = ORD_BUF_INIT;
	struct bat_melee_in in;
	struct bat_melee_out out;
	struct ord_kv vals;
	unsigned sides = (unsigned)bat_ip(ctx, "melee_die");
	long lost_u, lost_w;
	int da, db, err;

	ord_kv_init(&vals);
	memset(&in, 0, sizeof(in));
	in.a.kind = bat_kind(w);
	in.a.formation = bat_chart_formation(ctx, w);
	in.a.figures = (int)bat_st(ctx, w, "figures");
	in.a.column = !strcmp(bat_chart_formation(ctx, w), "column");
	in.a.motion = 1;
	in.a.elite = bat_is_elite(w);
	in.b.kind = bat_kind(u);
	in.b.formation = bat_chart_formation(ctx, u);
	in.b.figures = (int)bat_st(ctx, u, "figures");
	in.b.column = !strcmp(bat_chart_formation(ctx, u), "column");
	in.b.elite = bat_is_elite(u);
	in.b.square_vs_cavalry = !strcmp(bat_chart_formation(ctx, u), "square");
	/* D5: a routed unit has no melee value ("Routed units can't fire and
	 * have no melee value"); one that retreated, not routed, fights the
	 * pursuit with its value (pursued_retreat_has_value; a game made
	 * before gave any unit pursued none) */
	in.b.no_value = bat_flag(ctx, "routed_no_melee_value") &&
			(bat_routed(ctx, u) || !bat_flag(ctx, "pursued_retreat_has_value"));
	in.pursuit = BAT_A;
	if (melee_names_units(ctx)) {
		in.a.name = w->id;
		in.b.name = u->id;
	}
	ord_buf_addf(&id, "pursuit %s", w->id);
	if ((err = ord_ctx_roll(ctx, &da, sides, id.buf, 0, 0)) != 0)
		goto out;
	ord_buf_reset(&id);
	ord_buf_addf(&id, "pursued %s", u->id);
	if ((err = ord_ctx_roll(ctx, &db, sides, id.buf, 0, 0)) != 0)
		goto out;
	in.a.die = da;
	in.b.die = db;
	if ((err = bat_melee(bat_r(ctx), &in, &out, &why)) != 0)
		goto out;
	lost_w = melee_losses(ctx, w, out.casualties_a);
	lost_u = melee_losses(ctx, u, out.casualties_b);
	ord_kv_set_int(&vals, "casualties_a", out.casualties_a);
	ord_kv_set_int(&vals, "casualties_b", out.casualties_b);
	/* an automatic result is its unit's side's alone: each side is told */
	ord_ctx_result(ctx, 0, u->id, &vals, "pursued by %s: %s", w->id, why.buf);
	ord_ctx_result(ctx, 0, w->id, &vals, "pursues %s: %s", u->id, why.buf);
	if (in.a.name) {
		if (lost_u)
			loss_result(ctx, u, lost_u, "the pursuit");
		if (lost_w)
			loss_result(ctx, w, lost_w, "the pursuit");
	}
out:
	ord_kv_release(&vals);
	ord_buf_release(&why);
	ord_buf_release(&id);
	return err;
}

static int resolve_melee_morale(struct ord_ctx *ctx)
{
	int turn = ord_ctx_turn(ctx);
	size_t i, j, n = ord_ctx_nunits(ctx);
	const char **outcome = ord_xcalloc(n + 1, sizeof(*outcome));
	int err = 0, untested_ties = bat_flag(ctx, "melee_tie_untested");
	int both = bat_flag(ctx, "melee_both_enemies");
	char *pointed = NULL, *broke = NULL;
	struct ord_unit **horse = NULL;

	/* D20 (melee_both_enemies): the units that fought u each point at it
	 * (melee_with), the first named and the one beside it; the cavalry
	 * among them may pursue it, and all are free when it breaks off.  A
	 * game made before knew the first alone. */
	if (both) {
		pointed = ord_xcalloc(n + 1, sizeof(*pointed));
		horse = ord_xcalloc(n + 1, sizeof(*horse));
		for (i = 0; i < n; i++) {
			struct ord_unit *x = ord_ctx_unit(ctx, i), *y;
			if (!bat_melee_with(ctx, x) ||
			    !(y = ord_ctx_find_unit(ctx, bat_melee_with(ctx, x))))
				continue;
			j = ord_ctx_unit_index(ctx, y);
			pointed[j] = 1;
			if (!horse[j] && bat_is_arm(ctx, x, "cavalry"))
				horse[j] = x;
		}
	}
	/* the tests first: a pursuer must itself have held */
	for (i = 0; i < n; i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i);
		int lost = bat_st(ctx, u, "lost_melee") == turn,
		    tied = bat_st(ctx, u, "tied_melee") == turn;
		int deferred = bat_st(ctx, u, "deferred") == turn && bat_st(ctx, u, "fought") != turn;

		/* D2: "only the loser checks morale", and a tie has none; a unit
		 * whose fire test waited for the melee (D3) and did not win it
		 * still takes that test */
		if (tied && untested_ties) {
			tied = 0;
			deferred = bat_st(ctx, u, "deferred") == turn;
			if (!deferred && bat_melee_with(ctx, u))
				ord_ctx_result(ctx, 0, u->id, NULL,
					       "a tie with %s: no loser, no melee morale test; the melee continues next turn",
					       bat_melee_with(ctx, u));
		}
		if (!lost && !tied && !deferred)
			continue;
		if ((err = morale_test(ctx, u, bat_game_chart(ctx), lost, "melee morale",
				       &outcome[i])) != 0)
			goto out;
	}
	for (i = 0; i < n; i++) {
		struct ord_unit *u = ord_ctx_unit(ctx, i), *w;
		int halted = 0;

		if (!outcome[i] || !bat_melee_with(ctx, u))
			continue;
		w = ord_ctx_find_unit(ctx, bat_melee_with(ctx, u));
		if (!strcmp(outcome[i], "good")) {
			ord_ctx_result(ctx, 0, u->id, NULL,
				       "holds: the melee with %s continues next turn",
				       bat_melee_with(ctx, u));
			continue;
		}
		/* broken: the melee ends */
		ord_ctx_result(ctx, 0, u->id, NULL, "breaks off the melee with %s",
			       bat_melee_with(ctx, u));
		end_melee(ctx, u);
		if (both && pointed[i]) {
			if (!broke)
				broke = ord_xcalloc(n + 1, 1);
			broke[i] = 1;
		}
		if (both && (!w || !bat_is_arm(ctx, w, "cavalry")) && horse[i])
			w = horse[i];
		if (!w || !bat_is_arm(ctx, w, "cavalry") || !bat_is_arm(ctx, u, "infantry"))
			continue;
		if (outcome[ord_ctx_unit_index(ctx, w)] &&
		    strcmp(outcome[ord_ctx_unit_index(ctx, w)], "good"))
			continue;
		for (j = 0; j < ord_ctx_unit_nevents(ctx, w); j++)
			if (!strcmp(ord_ctx_unit_event(ctx, w, j)->kind, "halt") &&
			    bat_ev_unit(ctx, ord_ctx_unit_event(ctx, w, j), "unit") == w)
				halted = 1;
		if (halted) {
			ord_ctx_result(ctx, 0, w->id, NULL, "does not pursue %s", u->id);
			continue;
		}
		if (bat_st(ctx, u, "figures") <= 0 || bat_st(ctx, w, "figures") <= 0)
			continue;
		if ((err = pursue(ctx, w, u)) != 0)
			goto out;
	}
	/* the unit beside the first is out of the melee its enemy broke off */
	for (i = 0; broke && i < n; i++) {
		struct ord_unit *x = ord_ctx_unit(ctx, i), *y;
		if (!bat_melee_with(ctx, x) || !(y = ord_ctx_find_unit(ctx, bat_melee_with(ctx, x))) ||
		    !broke[ord_ctx_unit_index(ctx, y)])
			continue;
		ord_state_set_str(ctx, x, "melee_with", "");
	}
out:
	free(outcome);
	free(pointed);
	free(horse);
	free(broke);
	return err;
}

int bat_resolve_phase(struct ord_ctx *ctx, const char *phase)
{
	if (!strcmp(phase, "movement"))
		return resolve_movement(ctx);
	if (!strcmp(phase, "fire"))
		return resolve_fire(ctx);
	if (!strcmp(phase, "fire-morale"))
		return resolve_fire_morale(ctx);
	if (!strcmp(phase, "melee"))
		return resolve_melee(ctx);
	if (!strcmp(phase, "melee-morale"))
		return resolve_melee_morale(ctx);
	return ord_error_set(ORD_EUSAGE, "unknown phase '%s'", phase);
}
