/*
 * game.c - creating and opening a game file, the hash-chained log, turn
 * opening, loading a module context, signed heads, and `info`.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/argcheck.h"
#include "core/game.h"
#include "core/game_mail.h"
#include "core/lookalike.h"
#include "core/report.h"
#include "core/phase.h"
#include "core/scenario.h"

size_t ord_game_nphases(const struct ord_game *g)
{
	size_t n = 0;

	while (g->rs->phases && g->rs->phases[n])
		n++;
	return n;
}

const struct ord_store_side *ord_game_side_by_name(const struct ord_game *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->nsides; i++)
		if (!strcmp(g->sides[i].name, name))
			return &g->sides[i];
	return NULL;
}

void ord_game_side_list(const struct ord_game *g, struct ord_buf *out)
{
	size_t i;

	for (i = 0; i < g->nsides; i++)
		ord_buf_addf(out, "%s%s", i ? ", " : "", g->sides[i].name);
}

/* The config of the live rows, but for the scenario's hash. */
static void config_settings(const struct ord_game *g, struct ord_canon_config *c)
{
	memset(c, 0, sizeof(*c));
	c->ruleset = g->rs->name;
	c->nmr = g->nmr;
	c->repeat_orders = g->repeat_orders;
	c->fixed_dice = g->fixed_dice;
	c->refereeless = g->refereeless;
	c->witnessed = g->witnessed;
	c->dice_by_events = g->dice_by_events;
	c->made = g->made;
	c->made_core = ord_game_made_core(g);
	c->made_rules = ord_game_made_rules(g);
	memcpy(c->scenario, g->scenario_hash, 32);
	memcpy(c->tables, g->tables_hash, 32);
	memcpy(c->key, g->pk, 32);
}

int ord_game_config(struct ord_game *g, struct ord_canon_config *c)
{
	if (!g->have_scenario_hash) {
		char *sc;
		size_t len;
		int err;
		if ((err = ord_store_game_scenario(g->db, &sc, &len)) != 0)
			return err;
		crypto_generichash(g->scenario_hash, 32, (const unsigned char *)sc, len, NULL, 0);
		g->have_scenario_hash = 1;
		free(sc);
	}
	config_settings(g, c);
	return 0;
}

int ord_game_made_since_core(const struct ord_game *g, const char *rev)
{
	return ord_canon_made_since_core_of(g->made, ord_game_made_core(g), rev);
}

const char *ord_game_made_core(const struct ord_game *g)
{
	return g->made_core[0] ? g->made_core : NULL;
}

const char *ord_game_made_rules(const struct ord_game *g)
{
	return g->made_rules[0] ? g->made_rules : NULL;
}

/* ---- hooks and transactions ---- */

void ord_game_set_hook(ord_game *g, ord_change_fn fn, void *ud)
{
	g->hook = fn;
	g->hook_ud = ud;
}

int ord_game_notify(struct ord_game *g, const struct ord_change *c)
{
	int err;

	if (!g->hook)
		return 0;
	if ((err = g->hook(g->hook_ud, g, c)) != 0 && err != ord_error_code())
		/* a hook that failed without saying why */
		return ord_error_set(err < 0 ? err : ORD_ERROR, "the change's hook failed (%d)", err);
	return err;
}

/*
 * The stored scenario against the hash the log states, before the first
 * change of an opened game: a change would otherwise append to the log of
 * a game whose scenario is not the one logged (a byte flipped in the
 * file), and the next turn's opening would state the changed one.  Only
 * for a change: the scenario lists every unit (about 1.2 MB for 10,000),
 * and reading a game does not need it.
 */
static int hash_piece(void *ud, const void *p, size_t n)
{
	crypto_generichash_update(ud, p, n);
	return 0;
}

static int check_scenario(struct ord_game *g)
{
	crypto_generichash_state st;
	int err;

	if (g->scenario_checked || !g->have_logged_scenario)
		return 0;
	if (!g->have_scenario_hash) {
		/* read a piece at a time (ord_game_config reads it whole) */
		crypto_generichash_init(&st, NULL, 0, 32);
		if ((err = ord_store_game_scenario_each(g->db, hash_piece, &st)) != 0)
			return err;
		crypto_generichash_final(&st, g->scenario_hash, 32);
		g->have_scenario_hash = 1;
	}
	if (memcmp(g->scenario_hash, g->logged_scenario, 32))
		return ord_error_set(ORD_EBADDATA,
				     "'%s' is a damaged game file: its scenario is not the one its log states (changed outside orderly: 'orderly audit' says what; restore it from a copy)",
				     g->path);
	g->scenario_checked = 1;
	return 0;
}

int ord_game_may_change(struct ord_game *g)
{
	int err;

	if ((err = ord_game_may_change_small(g)) != 0 || (err = check_scenario(g)) != 0)
		return err;
	return 0;
}

int ord_game_may_change_small(struct ord_game *g)
{
	/* a damaged file, as a changed scenario is (check_scenario): the
	 * tables decide every number a change would compute */
	if (g->tables_changed)
		return ord_error_set(ORD_EBADDATA,
				     "'%s' is a damaged game file: its tables are not the ones its log states (changed outside orderly: 'orderly audit' says what; restore it from a copy)",
				     g->path);
	if (g->tampered)
		return ord_error_set(ORD_EBADDATA,
				     "'%s': %s: it was changed outside orderly, so nothing more is done with it ('orderly audit' says what)",
				     g->path, g->tampered);
	if (g->in_transact)
		return ord_error_set(ORD_ESTATE,
				     "a change of the game cannot be made inside ord_game_transact");
	return 0;
}

int ord_game_transact(ord_game *g, int (*fn)(void *ud, ord_game *g), void *ud)
{
	int err;

	if ((err = ord_game_may_change_small(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	g->in_transact = 1;
	err = fn(ud, g);
	g->in_transact = 0;
	if (!err)
		err = ord_store_commit(g->db);
	if (err)
		ord_store_rollback(g->db);
	return err;
}

int ord_game_read(ord_game *g, int (*fn)(void *ud, ord_game *g), void *ud)
{
	int err, outer = g->in_transact;

	/* a savepoint: nested in a change's transaction, it reads what the
	 * change wrote */
	if ((err = ord_store_begin_read(g->db)) != 0)
		return err;
	g->in_transact = 1;
	err = fn(ud, g);
	g->in_transact = outer;
	ord_store_end_read(g->db);
	return err;
}

/* ---- the log ---- */

int ord_game_log(struct ord_game *g, int64_t *seq, int turn, const char *kind, const char *body)
{
	unsigned char prev[32], hash[32];
	int64_t n, at = g->log_at ? g->log_at : (int64_t)time(NULL);
	int err;

	if ((err = ord_store_log_head(g->db, &n, prev)) != 0)
		return err;
	n++;
	ord_log_hash(hash, prev, n, turn, kind, body, at);
	if ((err = ord_store_log_append(g->db, n, turn, kind, body, at, prev, hash)) != 0)
		return err;
	*seq = n;
	return 0;
}

/* ---- turns ---- */

int ord_game_turn(struct ord_game *g, struct ord_store_turn *t, int turn)
{
	return ord_store_turn_read(g->db, turn, t);
}

struct root_ctx {
	struct ord_ctx *ctx;
};

int ord_game_add_unit(void *ud, const struct ord_store_unit *u)
{
	struct ord_ctx *ctx = ud;

	ord_ctx_add_unit(ctx, u->uid, u->name, u->side, u->attrs, u->state);
	return 0;
}

/* A unit row added to the context and digested as the roster (a load's roster). */
struct roster_load {
	struct ord_ctx *ctx;
	struct ord_digest *d;
};

static int add_unit_roster(void *ud, const struct ord_store_unit *u)
{
	struct roster_load *r = ud;

	ord_game_roster_unit(r->d, u);
	return ord_game_add_unit(r->ctx, u);
}

/* Log turn's deadline and keep it in its row (inside a transaction). */
int ord_game_log_deadline(struct ord_game *g, int turn, int64_t when)
{
	struct ord_buf body = ORD_BUF_INIT;
	int64_t seq;
	int err;

	ord_canon_deadline(&body, turn, when);
	if ((err = ord_game_log(g, &seq, turn, "deadline", body.buf)) == 0)
		err = ord_store_turn_set_deadline(g->db, turn, when);
	ord_buf_release(&body);
	return err;
}

int ord_game_logged_deadline(struct ord_game *g, int turn, int64_t *when)
{
	char *body = NULL, *v = NULL;
	long d;
	int err;

	*when = 0;
	err = ord_store_log_last(g->db, turn, "deadline", &body, NULL);
	if (err == ORD_ENOTFOUND) {
		ord_error_clear();
		return 0;
	}
	if (err)
		return err;
	v = ord_canon_get(body, "deadline");
	if (!v || ord_parse_long(v, &d) || d < 0)
		err = ord_error_set(ORD_ETAMPERED, "the deadline entry of turn %d is damaged", turn);
	else
		*when = (int64_t)d;
	free(v);
	free(body);
	return err;
}

int ord_game_states_held(struct ord_game *g, const unsigned char root[32], int turn, int opening)
{
	unsigned char want[32];
	char *body = NULL, *hex = NULL, *index = NULL, *phase = NULL;
	int64_t seq = 0;
	int err;

	if ((err = ord_store_log_last(g->db, turn, opening ? "open" : "resolve", &body, &seq)) != 0)
		return err;
	hex = ord_canon_get(body, "state_root");
	if (!hex && !opening) /* a phase resolved by an orderly before 2026-12-07 */
		goto out;
	if (hex && ord_unhex(want, 32, hex) == 32 && !memcmp(root, want, 32))
		goto out;
	if (opening) {
		err = ord_error_set(ORD_EBADDATA,
				    "'%s': the units' states are not the ones turn %d's opening (entry %lld) digests: they were changed outside orderly ('orderly audit' says where); nothing was done",
				    g->path, turn, (long long)seq);
	} else {
		index = ord_canon_get(body, "index");
		phase = ord_canon_get(body, "phase");
		err = ord_error_set(ORD_EBADDATA,
				    "'%s': the units' states are not the ones phase %s (%s) of turn %d left them in, as its resolve entry (entry %lld) digests them: they were changed outside orderly ('orderly audit' says where); nothing was done",
				    g->path, index ? index : "?", phase ? phase : "?", turn,
				    (long long)seq);
	}
out:
	free(phase);
	free(index);
	free(hex);
	free(body);
	return err;
}

int ord_game_open_turn(struct ord_game *g, int n)
{
	struct ord_canon_config cfg;
	struct ord_canon_last *last = NULL;
	struct ord_store_turn t;
	struct ord_buf body = ORD_BUF_INIT;
	struct ord_ctx ctx;
	struct ord_digest roster;
	struct roster_load rl = { &ctx, &roster };
	unsigned char root[32], sides[32], units[32];
	size_t i, nunits;
	int64_t seq, deadline = 0;
	int err;

	/* every unit's state as the turn opens, and the roster (the same
	 * rows: nothing of it changes in a game) */
	ord_ctx_init(&ctx, g->rs, g->rules, n);
	ord_digest_init(&roster, ORD_ROSTER_TAG);
	if ((err = ord_store_units_each(g->db, 0, 0, add_unit_roster, &rl)) != 0)
		goto out;
	ord_digest_final(&roster, units);
	ord_game_sides_root(g, sides);
	ord_phase_state_root(&ctx, root);
	nunits = ctx.nunits;
	/* they are the ones the turn before's last phase left (its resolve
	 * entry's digest): a unit no phase of that turn changed, edited
	 * since, would open the turn as edited */
	if (n > 1 && (err = ord_game_states_held(g, root, n - 1, 0)) != 0)
		goto out;
	/* at an exchange, the rows the turn before opened with: a unit or a
	 * side changed outside orderly is not carried into this opening */
	if (n > 1 && (err = ord_game_live_roster(g, n - 1, sides, units, NULL)) != 0)
		goto out;
	/* what each side sealed the turn before: a "repeat" stand-in repeats it */
	last = ord_xcalloc(g->nsides + 1, sizeof(*last));
	for (i = 0; i < g->nsides; i++) {
		struct ord_store_sheet s;
		last[i].side = g->sides[i].name;
		if (n > 1 && (err = ord_store_sheet_read(g->db, n - 1, g->sides[i].id, 0, &s)) == 0) {
			last[i].have = 1;
			ord_hash_bytes(last[i].bytes, s.bytes, s.len);
			ord_store_sheet_release(&s);
		} else if (err && err != ORD_ENOTFOUND) {
			goto out;
		}
		ord_error_clear();
		err = 0;
	}
	memset(&t, 0, sizeof(t));
	t.turn = n;
	t.state = ORD_TURN_OPEN;
	randombytes_buf(t.seed, sizeof(t.seed));
	ord_commit_seed(t.seed_commitment, g->game_id, n, t.seed);
	if ((err = ord_game_config(g, &cfg)) != 0)
		goto out;
	ord_canon_open(&body, n, t.seed_commitment, &cfg, nunits, root, sides, units, last, g->nsides);
	if ((err = ord_game_log(g, &seq, n, "open", body.buf)) != 0)
		goto out;
	t.log_seq = seq;
	if ((err = ord_store_turn_insert(g->db, &t)) != 0)
		goto out;
	/* mail: the deadline from the game's schedule (game_mail.c), logged as
	 * `orderly deadline` logs one */
	if ((err = ord_game_mail_next_deadline(g, n, &deadline)) != 0 ||
	    (deadline && (err = ord_game_log_deadline(g, n, deadline)) != 0))
		goto out;
	/* and a passphrase suspension the turn before began that runs on
	 * into this one (attack 37) */
	err = ord_game_mail_carry_suspensions(g, n);
out:
	sodium_memzero(t.seed, sizeof(t.seed));
	ord_ctx_release(&ctx);
	free(last);
	ord_buf_release(&body);
	return err;
}

int ord_game_dice_key(struct ord_game *g, int turn, const unsigned char seed[32], unsigned char out[32])
{
	struct ord_digest d;
	size_t i;
	int err;

	/* every side's sealed version (and, referee-less, the nonce it was
	 * opened with), in side order */
	ord_dice_key_begin(&d, g->refereeless, g->game_id, turn, seed);
	for (i = 0; i < g->nsides; i++) {
		struct ord_store_sheet s;
		unsigned char c[32];
		int version, opened;

		if ((err = ord_store_latest(g->db, turn, g->sides[i].id, &version, c, &opened)) != 0)
			return err;
		if (g->refereeless && (!version || !opened))
			return ord_error_set(ORD_ESTATE, "turn %d: %s has %s", turn, g->sides[i].name,
					     version ? "not opened its sheet yet" : "not committed");
		if (!version)
			continue;
		if (!g->refereeless) {
			ord_dice_key_side(&d, g->sides[i].name, c, NULL);
			continue;
		}
		if ((err = ord_store_sheet_read(g->db, turn, g->sides[i].id, version, &s)) != 0)
			return err;
		ord_dice_key_side(&d, g->sides[i].name, c, s.nonce);
		ord_store_sheet_release(&s);
	}
	ord_digest_final(&d, out);
	return 0;
}

/* ---- loading ---- */

/* The open turn's deadline is the one its log last states: the row is what
 * a submit, the mail judge and the seal obey, so a row moved outside
 * orderly would refuse a side's sheet, or take a late one, unlogged. */
static int check_deadline(struct ord_game *g)
{
	struct ord_store_turn t;
	struct ord_buf m = ORD_BUF_INIT;
	int64_t logged;
	int err;

	if ((err = ord_store_turn_read(g->db, 0, &t)) == ORD_ENOTFOUND) {
		ord_error_clear();
		return 0;
	}
	if (err)
		return err;
	if (t.state != ORD_TURN_OPEN)
		return 0;
	if ((err = ord_game_logged_deadline(g, t.turn, &logged)) == ORD_ETAMPERED) {
		g->tampered = ord_strdup(ord_error_last());
		ord_error_clear();
		return 0;
	}
	if (err || logged == t.deadline)
		return err;
	ord_buf_addf(&m, "its deadline of turn %d is not the one its log states", t.turn);
	g->tampered = ord_buf_detach(&m, NULL);
	return 0;
}

/* The game behaves as its log says it is (the last turn's opening): a live
 * row changed outside orderly (fixed dice, the NMR policy, the ruleset...)
 * must not change what it does.  Reading and auditing still work. */
static int check_config(struct ord_game *g)
{
	struct ord_canon_config logged, live;
	const char *diff;
	char *body = NULL;
	int err;

	err = ord_store_log_last(g->db, -1, "open", &body, NULL);
	if (err == ORD_ENOTFOUND) {
		ord_error_clear();
		g->tampered = ord_strdup("its log has no turn opening");
		return 0;
	}
	if (err)
		return err;
	if (ord_canon_config_read(&logged, body)) {
		ord_error_clear();
		g->tampered = ord_strdup("its last turn opening is damaged");
	} else {
		/* every setting that changes what the game does; the scenario
		 * (a file of every unit, read by nothing the game does after
		 * its creation) is compared before a change, not at every open */
		/* the log alone says these: no live row keeps them (the games
		 * made before say nothing of either) */
		g->repeat_orders = logged.repeat_orders;
		g->dice_by_events = logged.dice_by_events;
		free(g->made);
		g->made = logged.made ? ord_strdup(logged.made) : NULL;
		snprintf(g->made_core, sizeof(g->made_core), "%s",
			 logged.made_core ? logged.made_core : "");
		snprintf(g->made_rules, sizeof(g->made_rules), "%s",
			 logged.made_rules ? logged.made_rules : "");
		config_settings(g, &live);
		memcpy(live.scenario, logged.scenario, 32);
		/* compared before the first change (check_scenario) */
		memcpy(g->logged_scenario, logged.scenario, 32);
		g->have_logged_scenario = 1;
		if ((diff = ord_canon_config_diff(&logged, &live)) != NULL) {
			struct ord_buf m = ORD_BUF_INIT;
			ord_buf_addf(&m, "its %s is not the one its log states", diff);
			g->tampered = ord_buf_detach(&m, NULL);
		}
		g->tables_changed = memcmp(logged.tables, live.tables, 32) != 0;
		ord_canon_config_release(&logged);
	}
	free(body);
	return g->tampered ? 0 : check_deadline(g);
}

static int load_game(struct ord_game *g)
{
	struct ord_store_game sg;
	int err;

	if ((err = ord_store_game_read(g->db, &sg, 0)) != 0) {
		if (err == ORD_ENOTGAME)
			err = ord_error_set(ORD_ENOTGAME, "'%s' has no game record", g->path);
		return err;
	}
	memcpy(g->game_id, sg.game_id, 16);
	if ((err = ord_ruleset_find(&g->rs, sg.ruleset)) != 0)
		goto out;
	g->title = ord_strdup(sg.title);
	g->nmr = ord_strdup(sg.nmr);
	g->fixed_dice = sg.fixed_dice;
	g->refereeless = sg.refereeless;
	g->witnessed = sg.witnessed;
	g->have_pk = sg.have_pk;
	g->have_sk = sg.have_sk;
	memcpy(g->pk, sg.pk, 32);
	memcpy(g->sk, sg.sk, 64);
	if (g->have_sk && memcmp(g->sk + 32, g->pk, 32)) {
		err = ord_error_set(ORD_ETAMPERED,
				    "'%s': the game's secret key does not match its public key",
				    g->path);
		goto out;
	}
	crypto_generichash(g->tables_hash, 32, (const unsigned char *)(sg.tables ? sg.tables : ""),
			   sg.tables_len, NULL, 0);
	if ((err = ord_notation_find(&g->notation, g->rs->notation)) != 0) {
		err = ord_error_set(ORD_ERROR, "ruleset '%s' needs notation '%s': %s", g->rs->name,
				    g->rs->notation, ord_error_last());
		goto out;
	}
	/* the game keeps the tables it was created with; a ruleset that has
	 * come to need more of them than a game made before keeps cannot
	 * replay that game by the rules it was played by */
	if ((err = g->rs->load(&g->rules, sg.tables, sg.tables ? sg.tables_len : 0,
			       sg.tables ? "the game's tables" : NULL)) != 0) {
		if (err == ORD_EBADDATA && sg.tables)
			err = ord_error_set(err,
					    "'%s': %s; this orderly's ruleset '%s' cannot play the game by the tables it keeps "
					    "(a game made by an orderly of other rules, to be finished with that one, or tables changed since)",
					    g->path, ord_error_last(), g->rs->name);
		goto out;
	}
	if ((err = ord_store_sides_read(g->db, &g->sides, &g->nsides)) != 0)
		goto out;
	err = check_config(g);
out:
	ord_store_game_release(&sg);
	return err;
}

int ord_game_open(ord_game **out, const char *path)
{
	return ord_game_open_ext(out, path, 0);
}

int ord_game_open_ext(ord_game **out, const char *path, unsigned int flags)
{
	struct ord_game *g;
	int err;

	*out = NULL;
	if ((err = ord_crypto_init()) != 0)
		return err;
	g = ord_xcalloc(1, sizeof(*g));
	g->path = ord_strdup(path);
	if ((err = ord_store_open_ext(&g->db, path, flags)) != 0 || (err = load_game(g)) != 0) {
		ord_game_free(g);
		return err;
	}
	*out = g;
	return 0;
}

void ord_game_free(ord_game *g)
{
	if (!g)
		return;
	if (g->rules && g->rs)
		g->rs->free(g->rules);
	ord_store_close(g->db);
	ord_store_sides_free(g->sides, g->nsides);
	free(g->title);
	free(g->nmr);
	free(g->made);
	free(g->path);
	free(g->tampered);
	sodium_memzero(g->sk, sizeof(g->sk));
	free(g);
}

/* ---- creating ---- */

static int insert_sides_units(struct ord_game *g, const struct ord_scenario *sc, struct ord_diag *diag)
{
	struct ord_buf attrs = ORD_BUF_INIT, body = ORD_BUF_INIT;
	char **states = ord_xcalloc(sc->nunits + 1, sizeof(*states));
	int64_t *ids = ord_xcalloc(sc->nunits + 1, sizeof(*ids));
	struct ord_digest d;
	unsigned char digest[32];
	int64_t seq;
	size_t i;
	int err = 0;

	for (i = 0; i < sc->nsides; i++) {
		unsigned char pk[32];
		int keyed = sc->sides[i].pubkey && ord_unhex(pk, 32, sc->sides[i].pubkey) == 32;
		int64_t id;

		if ((err = ord_store_side_insert(g->db, &id, sc->sides[i].id, sc->sides[i].name,
						 keyed ? pk : NULL)) != 0)
			goto out;
	}
	if ((err = ord_store_sides_read(g->db, &g->sides, &g->nsides)) != 0)
		goto out;
	/* the initial state of every unit is digested into one log entry, as
	 * the states of a resolved phase are */
	ord_digest_init(&d, ORD_PHASE_TAG);
	for (i = 0; i < sc->nunits; i++) {
		const struct ord_scenario_unit *su = &sc->units[i];
		struct ord_buf sbuf = ORD_BUF_INIT;
		struct ord_unit u;

		memset(&u, 0, sizeof(u));
		u.id = su->id;
		u.name = su->name;
		u.side = su->side;
		u.attrs = su->attrs;
		ord_kv_init(&u.state);
		if (g->rs->init_unit && (err = g->rs->init_unit(g->rules, &u, diag)) != 0) {
			ord_kv_release(&u.state);
			goto out;
		}
		ord_kv_serialize(&u.state, &sbuf);
		ord_kv_release(&u.state);
		states[i] = ord_buf_detach(&sbuf, NULL);
		ord_buf_reset(&attrs);
		ord_kv_serialize(&su->attrs, &attrs);
		if ((err = ord_store_unit_insert(g->db, &ids[i], su->id, su->name,
						 ord_game_side_by_name(g, su->side)->id, attrs.buf)) != 0)
			goto out;
		ord_digest_state(&d, su->id, attrs.buf, 0, 0, states[i]);
	}
	ord_digest_final(&d, digest);
	ord_canon_putf(&body, "units", "%zu", sc->nunits);
	ord_canon_put(&body, "rolls", "0");
	ord_canon_put(&body, "results", "0");
	ord_canon_putf(&body, "states", "%zu", sc->nunits);
	ord_canon_put_hex(&body, "digest", digest, 32);
	if ((err = ord_game_log(g, &seq, 0, "units", body.buf)) != 0)
		goto out;
	for (i = 0; i < sc->nunits; i++)
		if ((err = ord_store_state_put(g->db, ids[i], 0, 0, states[i], seq)) != 0)
			goto out;
out:
	for (i = 0; i < sc->nunits; i++)
		free(states[i]);
	free(states);
	free(ids);
	ord_buf_release(&attrs);
	ord_buf_release(&body);
	return err;
}

/* Each unit's first state as the rules give it, before the game file is
 * made: a unit the tables cannot play (a kind they do not have) is
 * refused with its line in the scenario, and nothing is created.  The
 * states are made again, and kept, by insert_sides_units. */
static int check_units(struct ord_game *g, const struct ord_scenario *sc, const char *scenario_path)
{
	struct ord_buf m = ORD_BUF_INIT;
	size_t i, j;
	int err = 0;

	for (i = 0; g->rs->init_unit && i < sc->nunits; i++) {
		const struct ord_scenario_unit *su = &sc->units[i];
		struct ord_diag diag;
		struct ord_unit u;
		int e;

		memset(&u, 0, sizeof(u));
		u.id = su->id;
		u.name = su->name;
		u.side = su->side;
		u.attrs = su->attrs;
		ord_kv_init(&u.state);
		ord_diag_init(&diag);
		e = g->rs->init_unit(g->rules, &u, &diag);
		if (e && !err)
			err = e;
		if (e && !diag.n) {
			ord_buf_addf(&m, "%s%s:%u:", m.len ? "\n" : "", scenario_path, su->line);
			if (su->col)
				ord_buf_addf(&m, "%u:", su->col);
			ord_buf_addf(&m, " unit '%s': %s", su->id, ord_error_last());
		}
		for (j = 0; e && j < diag.n; j++) {
			const struct ord_diag_item *it = &diag.items[j];
			unsigned line = su->line, col = 0;

			/* at the value of the attribute at fault, when the unit gives it;
			 * else at the unit's element (an attribute it lacks) */
			if (*it->attr)
				col = ord_scenario_unit_col(su, it->attr, 1, &line);
			if (!col)
				col = su->col;
			ord_buf_addf(&m, "%s%s:%u:", m.len ? "\n" : "", scenario_path, line);
			if (col)
				ord_buf_addf(&m, "%u:", col);
			ord_buf_addf(&m, " unit '%s': ", su->id);
			ord_diag_item_format(&m, it);
		}
		ord_kv_release(&u.state);
		ord_diag_release(&diag);
	}
	if (err)
		ord_error_set(err, "%s", m.buf);
	ord_buf_release(&m);
	return err;
}

/* What the module says the referee should hear of the game being made
 * (its create_notes, ruleset.h version 8): the scenario's units with their
 * attributes, the state empty, as init_unit is handed them. */
static void create_notes(struct ord_game *g, const struct ord_scenario *sc,
			 const char *scenario_path, struct ord_buf *out)
{
	struct ord_unit *units;
	size_t i;

	if (!ORD_RULESET_HAS(g->rs, 8) || !g->rs->create_notes)
		return;
	units = ord_xcalloc(sc->nunits ? sc->nunits : 1, sizeof(*units));
	for (i = 0; i < sc->nunits; i++) {
		units[i].id = sc->units[i].id;
		units[i].name = sc->units[i].name;
		units[i].side = sc->units[i].side;
		units[i].attrs = sc->units[i].attrs;
		ord_kv_init(&units[i].state);
	}
	g->rs->create_notes(g->rules, units, sc->nunits, scenario_path, out);
	for (i = 0; i < sc->nunits; i++)
		ord_kv_release(&units[i].state);
	free(units);
}

static void remove_game_files(const char *path)
{
	struct ord_buf b = ORD_BUF_INIT;

	unlink(path);
	ord_buf_addf(&b, "%s-wal", path);
	unlink(b.buf);
	ord_buf_reset(&b);
	ord_buf_addf(&b, "%s-shm", path);
	unlink(b.buf);
	ord_buf_release(&b);
}

/*
 * The document a new game keeps holds every number its replay reads: a
 * module whose document may leave some to its built-in tables (a
 * Krigsspil map without a Skema of its own) writes them in, and the game
 * runs on what it keeps, read again, not on what it was given.
 */
static int complete_tables(struct ord_game *g, char **tables, size_t *len, const char *name)
{
	struct ord_buf out = ORD_BUF_INIT;
	struct ord_rules *rules = NULL;
	int err;

	if (!*tables || !ORD_RULESET_HAS(g->rs, 3) || !g->rs->complete_tables)
		return 0;
	if ((err = g->rs->complete_tables(*tables, *len, name, &out)) != 0 || !out.len)
		goto out;
	if ((err = g->rs->load(&rules, out.buf, out.len, "the completed tables")) != 0)
		goto out;
	g->rs->free(g->rules);
	g->rules = rules;
	free(*tables);
	*tables = ord_buf_detach(&out, len);
out:
	ord_buf_release(&out);
	return err;
}

int ord_game_create(ord_game **out, const char *path, const char *scenario_path,
		    const struct ord_create_opts *opts)
{
	struct ord_scenario sc;
	struct ord_game *g = NULL;
	struct ord_store_game sg;
	struct ord_words_how words;
	struct ord_canon_config cfg;
	struct ord_diag diag;
	struct ord_buf body = ORD_BUF_INIT, notes = ORD_BUF_INIT;
	struct ord_head head;
	char *tables = NULL, *scenario = NULL;
	const char *tables_name;
	size_t tables_len = 0, scenario_len = 0;
	const char *rsname, *own;
	int64_t seq;
	int err, created = 0;

	*out = NULL;
	ord_scenario_init(&sc);
	ord_diag_init(&diag);
	memset(&sg, 0, sizeof(sg));
	if ((err = ord_crypto_init()) != 0)
		return err;
	g = ord_xcalloc(1, sizeof(*g));
	g->path = ord_strdup(path);
	if ((err = ord_store_new_path(path)) != 0)
		goto out;
	if ((err = ord_read_file(&scenario, &scenario_len, scenario_path, 16u << 20)) != 0 ||
	    (err = ord_scenario_load(&sc, scenario, scenario_len, scenario_path)) != 0)
		goto out;
	if (sc.deadline_problem) {
		/* a time its zone's clocks skip or show twice (when.c, W2) */
		err = ord_error_set(ORD_EBADDATA, "%s", sc.deadline_problem);
		goto out;
	}
	/* names a player tells apart (threat model, attack 41): refused here,
	 * where the game is made, not at every load of its scenario, so that
	 * a game made before, and its bundles, are read as they are */
	if ((err = ord_scenario_names_apart(&sc, scenario_path)) != 0)
		goto out;
	rsname = opts && opts->ruleset ? opts->ruleset : sc.ruleset;
	if (strcmp(rsname, sc.ruleset)) {
		err = ord_error_set(ORD_EBADDATA, "%s: the scenario is for ruleset '%s', not '%s'",
				    scenario_path, sc.ruleset, rsname);
		goto out;
	}
	if ((err = ord_ruleset_find(&g->rs, rsname)) != 0)
		goto out;
	if ((err = ord_notation_find(&g->notation, g->rs->notation)) != 0) {
		err = ord_error_set(ORD_ERROR, "ruleset '%s' needs notation '%s': %s", g->rs->name,
				    g->rs->notation, ord_error_last());
		goto out;
	}
	/* a unit's words are read as the game's sheets read theirs
	 * (formation="KARRÉ", "kar": karre), kept as the list writes them */
	ord_words_how_of(&words, g->rs);
	if ((err = ord_scenario_check_attrs(&sc, g->rs->unit_attrs, &words, scenario_path)) != 0)
		goto out;
	/* referee-less and witnessed: each side's signed commitment binds its
	 * chain's top, which its opening gives (ord_game_open_sheet_witnessed);
	 * without them the host, who may be a player, knows every phase's dice
	 * once the sheets are opened, before he records its events */
	if (opts && opts->refereeless) {
		size_t i;
		if (opts->fixed_dice) {
			err = ord_error_set(ORD_EUSAGE,
					    "a referee-less game cannot have fixed dice: nobody may choose them");
			goto out;
		}
		for (i = 0; i < sc.nsides; i++)
			if (!sc.sides[i].pubkey) {
				err = ord_error_set(ORD_EBADDATA,
						    "%s:%u: side '%s' has no pubkey; a referee-less game needs every side's public key (pubkey=\"...\" from 'orderly keygen')",
						    scenario_path, sc.sides[i].line, sc.sides[i].id);
				goto out;
			}
	}
	if (opts && opts->witnessed && opts->fixed_dice) {
		err = ord_error_set(ORD_EUSAGE,
				    "a game with witnessed dice cannot have fixed dice: the referee would choose them");
		goto out;
	}
	/* the tables in force are copied into the game */
	if (opts && opts->tables_path) {
		if ((err = ord_read_file(&tables, &tables_len, opts->tables_path, 16u << 20)) != 0)
			goto out;
	} else if ((own = ord_ruleset_builtin_tables(g->rs, &tables_len)) != NULL) {
		/* a built-in module's, or an external module's own: copied in */
		tables = ord_xmalloc(tables_len + 1);
		memcpy(tables, own, tables_len);
		tables[tables_len] = '\0';
	} else if (g->rs->tables_resource) {
		err = ord_error_set(ORD_ERROR, "tables '%s' are not built in", g->rs->tables_resource);
		goto out;
	}
	tables_name = opts && opts->tables_path ? opts->tables_path : ord_ruleset_tables_name(g->rs);
	/* a club's document is checked against the module's own (a name
	 * nothing reads); a game's kept one never is, however the module's
	 * own changes later */
	if ((err = g->rs->load(&g->rules, tables, tables_len, tables_name)) != 0 ||
	    (opts && opts->tables_path && (err = ord_ruleset_check_given(g->rs, g->rules)) != 0) ||
	    (err = complete_tables(g, &tables, &tables_len, tables_name)) != 0)
		goto out;
	if ((err = check_units(g, &sc, scenario_path)) != 0)
		goto out;
	if (opts && opts->notes)
		create_notes(g, &sc, scenario_path, &notes);

	if ((err = ord_store_create(&g->db, path)) != 0)
		goto out;
	created = 1;
	randombytes_buf(g->game_id, sizeof(g->game_id));
	if (opts && opts->key) {
		memcpy(g->pk, opts->key->pk, 32);
		memcpy(g->sk, opts->key->sk, 64);
	} else {
		crypto_sign_keypair(g->pk, g->sk);
	}
	g->have_pk = g->have_sk = 1;
	g->refereeless = opts && opts->refereeless;
	g->witnessed = opts && opts->witnessed;
	/* every game made now: its dice cannot be moved by the order of the
	 * events, or by voiding one and recording it again */
	g->dice_by_events = 1;
	/* and says what its front door refused since (canon.h) */
	g->made = ord_strdup(ORD_GAME_MADE);
	/* and the revisions it was made with, which made= (a day) does not
	 * tell apart (canon.h, ORD_GAME_MADE_CORE) */
	snprintf(g->made_core, sizeof(g->made_core), "%s", ORD_CORE_REVISION);
	/* a module's revision that is no such word is not logged (canon.h) */
	snprintf(g->made_rules, sizeof(g->made_rules), "%s",
		 ord_ruleset_revision(g->rs) && ord_canon_rules_word(ord_ruleset_revision(g->rs))
			 ? ord_ruleset_revision(g->rs)
			 : "");
	g->title = ord_strdup(sc.title);
	g->nmr = ord_strdup(sc.nmr);
	g->repeat_orders = 1;
	g->fixed_dice = opts && opts->fixed_dice;
	/* the players' and the referee's mail addresses go to the mail
	 * judge's table (ord_game_mail_create), not into the scenario the
	 * game keeps: every turn's bundle hands that to every side */
	if ((err = ord_scenario_public(&scenario, &scenario_len, scenario_path)) != 0)
		goto out;
	crypto_generichash(g->scenario_hash, 32, (const unsigned char *)scenario, scenario_len,
			   NULL, 0);
	g->have_scenario_hash = 1;
	crypto_generichash(g->tables_hash, 32, (const unsigned char *)(tables ? tables : ""),
			   tables_len, NULL, 0);
	if (opts && opts->hook)
		ord_game_set_hook(g, opts->hook, opts->hook_ud);
	if ((err = ord_store_begin(g->db)) != 0)
		goto out;
	memcpy(sg.game_id, g->game_id, 16);
	sg.ruleset = (char *)g->rs->name;
	sg.title = sc.title;
	sg.nmr = sc.nmr;
	sg.fixed_dice = g->fixed_dice;
	sg.refereeless = g->refereeless;
	sg.witnessed = g->witnessed;
	sg.protocol = ORD_LOG_PROTOCOL;
	sg.scenario = scenario;
	sg.scenario_len = scenario_len;
	sg.tables = tables;
	sg.tables_len = tables_len;
	sg.have_pk = 1;
	sg.have_sk = !(opts && opts->key); /* else the referee keeps it in his file */
	memcpy(sg.pk, g->pk, 32);
	memcpy(sg.sk, g->sk, 64);
	sg.created = (int64_t)time(NULL);
	config_settings(g, &cfg);
	ord_canon_create(&body, g->game_id, sc.title, &cfg);
	if ((err = ord_store_game_insert(g->db, &sg)) != 0 ||
	    (err = ord_game_log(g, &seq, 0, "create", body.buf)) != 0 ||
	    (err = insert_sides_units(g, &sc, &diag)) != 0 ||
	    /* mail: addresses and the schedule, logged before turn 1 opens */
	    (err = ord_game_mail_create(g, &sc)) != 0 || (err = ord_game_open_turn(g, 1)) != 0)
		goto out;
	/* the scenario's deadline is announced; the schedule's grace follows it */
	if (sc.deadline && (err = ord_game_log_deadline(g, 1, sc.deadline + sc.schedule.grace)) != 0)
		goto out;
	/* the head every side is handed before it writes a sheet of turn 1 */
	if ((err = ord_game_sign_head(g, 1, "open", &head)) != 0)
		goto out;
	{
		struct ord_change c = { .kind = ORD_CHANGE_CREATE, .turn = 1, .head = &head };
		if ((err = ord_game_notify(g, &c)) != 0)
			goto out;
	}
	err = ord_store_commit(g->db);
out:
	if (err && diag.n) {
		struct ord_buf m = ORD_BUF_INIT;
		ord_diag_format(&diag, scenario_path, &m);
		ord_error_set(err, "%s", m.buf);
		ord_buf_release(&m);
	}
	sodium_memzero(sg.sk, sizeof(sg.sk));
	ord_buf_release(&body);
	ord_diag_release(&diag);
	ord_scenario_release(&sc);
	free(tables);
	free(scenario);
	if (err) {
		if (g && g->db)
			ord_store_rollback(g->db);
		ord_game_free(g);
		if (created)
			remove_game_files(path);
		ord_buf_release(&notes);
		return err;
	}
	/* told only of a game made */
	if (notes.len)
		ord_buf_add(opts->notes, notes.buf, notes.len);
	ord_buf_release(&notes);
	*out = g;
	return 0;
}

/* ---- loading a module context ---- */

int ord_game_parse_sheet(struct ord_game *g, struct ord_sheet *out, const char *bytes, size_t len,
			 struct ord_diag *diag)
{
	return g->notation->parse(out, bytes, len, diag);
}

static int add_event(void *ud, const struct ord_store_event *e)
{
	struct ord_ctx *ctx = ud;

	ord_ctx_add_event(ctx, e->seq, e->phase, e->kind, e->args, e->override, e->checks);
	return 0;
}

/* An event a change loads, held to its log entry first (hold_events). */
struct held_events {
	struct ord_game *g;
	struct ord_ctx *ctx;
	int hold; /* the load's hold_events */
};

static int add_event_held(void *ud, const struct ord_store_event *e)
{
	struct held_events *h = ud;
	int err;

	if (h->hold && (err = ord_game_live_event(h->g, h->ctx->turn, e)) != 0)
		return err;
	if (e->void_log) /* voided, as its entry logs (held: read to hold it) */
		return 0;
	return add_event(h->ctx, e);
}

struct other_phases {
	struct ord_ctx *ctx;
	const char *phase;
};

static int add_other_event(void *ud, const struct ord_store_event *e)
{
	struct other_phases *o = ud;

	return strcmp(e->phase, o->phase) ? add_event(o->ctx, e) : 0;
}

int ord_game_add_other_events(struct ord_game *g, struct ord_ctx *ctx, int turn, const char *phase)
{
	struct other_phases o = { ctx, phase };

	return ord_store_events_each(g->db, turn, NULL, 1, add_other_event, &o);
}

int ord_game_attach_sheets(struct ord_game *g, struct ord_ctx *ctx, int turn, const char *only)
{
	size_t i;
	int err;

	for (i = 0; i < g->nsides; i++) {
		struct ord_store_sheet s;
		struct ord_sheet sheet;
		struct ord_diag diag;

		if (only && strcmp(only, g->sides[i].name))
			continue;
		if ((err = ord_store_sheet_read(g->db, turn, g->sides[i].id, 0, &s)) == ORD_ENOTFOUND) {
			ord_error_clear();
			continue;
		}
		if (err)
			return err;
		ord_sheet_init(&sheet);
		ord_diag_init(&diag);
		/* a stored sheet was valid when it was accepted */
		ord_game_parse_sheet(g, &sheet, s.bytes, s.len, &diag);
		ord_ctx_attach_sheet(ctx, &sheet, g->sides[i].name);
		ord_diag_release(&diag);
		ord_store_sheet_release(&s);
	}
	return 0;
}

int ord_game_load_ctx(struct ord_game *g, struct ord_ctx *ctx, int turn, int with_orders,
		      const char *phase, const struct ord_game_load *load)
{
	static const struct ord_game_load plain = ORD_GAME_LOAD_INIT;
	const struct ord_game_load *lo = load ? load : &plain;
	struct roster_load rl = { ctx, lo->roster };
	struct ord_store_turn cur;
	struct held_events held = { g, ctx, lo->hold_events };
	size_t bound;
	int err;

	ord_ctx_init(ctx, g->rs, g->rules, turn);
	ord_ctx_set_made(ctx, g->made, ord_game_made_core(g));
	/* room for every unit at once: doubling, 100,000 units took room
	 * for 131,072 */
	if (ord_store_unit_bound(g->db, &bound) == 0)
		ord_ctx_reserve_units(ctx, bound);
	/* every unit with its latest state up to the end of turn: for the
	 * current turn, its current state (one row each) */
	if ((err = ord_game_turn(g, &cur, 0)) != 0 ||
	    (err = ord_store_units_each(g->db, turn >= cur.turn ? 0 : turn, 0,
					lo->roster ? add_unit_roster : ord_game_add_unit,
					lo->roster ? (void *)&rl : (void *)ctx)) != 0)
		return err;
	ord_ctx_index(ctx);
	if (with_orders && (err = ord_game_attach_sheets(g, ctx, turn, NULL)) != 0)
		return err;
	/* the events that stand: a voided one is as if it was never recorded.
	 * Held (hold_events), the voided ones are read too, and each void
	 * held to its entry: an event row given a void_log with the sqlite3
	 * shell, no void logged, was skipped by the resolve */
	if (phase && (err = ord_store_events_each(g->db, turn, strcmp(phase, "*") ? phase : NULL,
						  !lo->hold_events, add_event_held, &held)) != 0)
		return err;
	return 0;
}

static int lazy_unit(void *ud, struct ord_ctx *ctx, const char *id_or_name)
{
	struct ord_game *g = ud;

	return ord_store_unit_find(g->db, id_or_name, ord_game_add_unit, ctx);
}

/* a unit of a load of many, indexed at once, unless the context holds it
 * already (a unit named twice, or by its id and by its name) or has no
 * room left */
static int add_unit_once(void *ud, const struct ord_store_unit *u)
{
	struct ord_ctx *ctx = ud;

	if (ctx->nunits + 1 >= ctx->ualloc || ord_ctx_held_unit(ctx, u->uid))
		return 0;
	ord_ctx_add_unit(ctx, u->uid, u->name, u->side, u->attrs, u->state);
	ord_ctx_index_loaded(ctx, ctx->nunits - 1);
	return 0;
}

static int lazy_units(void *ud, struct ord_ctx *ctx, const char *const *names, size_t n)
{
	struct ord_game *g = ud;

	return ord_store_units_find(g->db, names, n, add_unit_once, ctx);
}

/* every unit of the game, for the hint of a name of no unit */
static int lazy_all(void *ud,
		    int (*each)(void *arg, const char *id, const char *name, const char *side),
		    void *arg)
{
	return ord_game_units(ud, each, arg);
}

int ord_game_load_side_ctx(struct ord_game *g, struct ord_ctx *ctx, int turn, const char *side,
			   const struct ord_sheet *sheet)
{
	const struct ord_store_side *s = ord_game_side_by_name(g, side);
	const char **names = NULL;
	size_t total, i, k, n = 0, alloc = 0;
	int err;

	ord_ctx_init(ctx, g->rs, g->rules, turn);
	ord_ctx_set_made(ctx, g->made, ord_game_made_core(g));
	if (!s)
		return ord_error_set(ORD_ENOTFOUND, "unknown side '%s'", side);
	if ((err = ord_store_unit_bound(g->db, &total)) != 0)
		return err;
	ord_ctx_set_lazy(ctx, total, lazy_unit, g);
	ord_ctx_set_lazy_many(ctx, lazy_units);
	ord_ctx_set_lazy_all(ctx, lazy_all);
	if ((err = ord_store_units_now(g->db, s->id, s->name, ord_game_add_unit, ctx)) != 0)
		return err;
	ord_ctx_index(ctx);
	/* the other units the sheet names, all looked up now in one statement */
	for (i = 0; sheet && i < sheet->n; i++) {
		const struct ord_order *o = &sheet->orders[i];
		for (k = 0; k <= o->ntok; k++) {
			const char *v = k == o->ntok                       ? o->unit
					: o->tok[k].kind == ORD_TOK_TARGET ? o->tok[k].value
									   : NULL;
			if (!v)
				continue;
			if (n == alloc) {
				alloc = alloc ? 2 * alloc : 64;
				names = ord_xrealloc(names, alloc * sizeof(*names));
			}
			names[n++] = v;
		}
	}
	ord_ctx_find_units(ctx, names, n);
	free(names);
	return 0;
}

struct unit_names {
	ord_game_unit_fn fn;
	void *ud;
};

static int unit_names(void *ud, const struct ord_store_unit *u)
{
	struct unit_names *x = ud;

	return x->fn(x->ud, u->uid, u->name, u->side);
}

int ord_game_units(ord_game *g, ord_game_unit_fn fn, void *ud)
{
	struct unit_names x = { fn, ud };

	return ord_store_units_now(g->db, 0, NULL, unit_names, &x);
}

/* ---- info ---- */

int ord_game_status(ord_game *g, struct ord_game_status *out)
{
	struct ord_store_turn t;
	size_t nph = ord_game_nphases(g);
	int err;

	memset(out, 0, sizeof(*out));
	if ((err = ord_game_turn(g, &t, 0)) != 0 ||
	    (err = ord_store_unit_count(g->db, &out->nunits)) != 0)
		return err;
	out->title = g->title;
	out->ruleset = g->rs->name;
	out->nmr = g->nmr;
	out->fixed_dice = g->fixed_dice;
	out->refereeless = g->refereeless;
	out->witnessed = g->witnessed;
	out->nsides = g->nsides;
	out->turn = t.turn;
	out->state = ord_turn_state_name(t.state);
	out->phase = t.state == ORD_TURN_SEALED && (size_t)t.phase < nph ? g->rs->phases[t.phase] : "";
	out->phases_resolved = t.phase;
	out->nphases = (int)nph;
	out->deadline = t.deadline;
	memcpy(out->seed_commitment, t.seed_commitment, 32);
	return 0;
}

static void fmt_time(char *out, size_t n, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t) {
		snprintf(out, n, "none");
		return;
	}
	gmtime_r(&tt, &tm);
	strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* A witnessed phase whose events are closed: where each side's link
 * stands, a line of its own (a side that withholds its link stalls the
 * phase, and is named), or nothing when its events are still open. */
static void info_link_states(ord_game *g, struct ord_buf *out)
{
	enum ord_link_state st;
	int phase = 0, closed = 0;
	size_t i;

	if (!g->witnessed || ord_game_link_state(g, NULL, &phase, &closed, NULL) != 0 || !closed) {
		ord_error_clear();
		return;
	}
	ord_buf_addf(out, "links:     phase %d (%s), its events closed:", phase,
		     g->rs->phases[phase - 1]);
	for (i = 0; i < g->nsides; i++) {
		if (ord_game_link_state(g, g->sides[i].name, &phase, &closed, &st) != 0)
			continue;
		ord_buf_addf(out, "%s %s %s", i ? "," : "", g->sides[i].name,
			     st == ORD_LINK_REVEALED  ? "revealed"
			     : st == ORD_LINK_AWAITED ? "awaited"
						      : "none owed (its sheet has no chain)");
	}
	ord_error_clear();
	ord_buf_addch(out, '\n');
}

/* A witnessed phase whose events are closed: the links it waits for,
 * said in out (1), or 0 when its events are still open. */
static int info_links(ord_game *g, struct ord_buf *out)
{
	struct ord_buf owed = ORD_BUF_INIT;
	enum ord_link_state st;
	int phase = 0, closed = 0;
	size_t i, n = 0;

	if (ord_game_link_state(g, NULL, &phase, &closed, NULL) != 0 || !closed) {
		ord_error_clear();
		return 0;
	}
	for (i = 0; i < g->nsides; i++)
		if (!ord_game_link_state(g, g->sides[i].name, &phase, &closed, &st) &&
		    st == ORD_LINK_AWAITED)
			ord_buf_addf(&owed, "%s%s", n++ ? ", " : "", g->sides[i].name);
	ord_error_clear();
	/* with no referee the host's chain stands in for no side that has a
	 * chain of its own (ord_game_resolve refuses it): the phase waits,
	 * and a side that withholds its link stalls the game; said so, with
	 * its name, rather than offering a --stand-in that is refused */
	if (n && g->refereeless)
		ord_buf_addf(out,
			     "the events of phase %s are closed: waiting for the link of %s (witness), then resolve; with no referee nothing stands in for a side's link: the game waits on %s\n",
			     g->rs->phases[phase - 1], owed.buf, owed.buf);
	else if (n)
		ord_buf_addf(out,
			     "the events of phase %s are closed: the link of %s (witness), then resolve; or resolve --stand-in now, the referee's chain standing in for them\n",
			     g->rs->phases[phase - 1], owed.buf);
	else
		ord_buf_addf(out, "resolve: the events of phase %s are closed and every link is in\n",
			     g->rs->phases[phase - 1]);
	ord_buf_release(&owed);
	return 1;
}

/* A sealed turn's orders that no event recorded so far carries out, as
 * the referee's report lists them (its pending hook): said before the
 * next step, so that the referee sees what is left before he resolves
 * (a battalion melee that goes on with no event of the turn, say).  And
 * from the same context the units the orders or the rules owe an event
 * of phase (ord_game_owed: a charge's contact that no melee fights), in
 * owed, their number in *nowed, which the next line names, with
 * INFO_PHASE_HAS_EVENTS set in it when an event of phase is recorded
 * (then resolve does not refuse the phase). */
#define INFO_PHASE_HAS_EVENTS ((size_t)1 << (sizeof(size_t) * 8 - 1))
static int info_pending(ord_game *g, int turn, const char *phase, struct ord_buf *out,
			struct ord_buf *owed, size_t *nowed, const struct ord_report_words *w)
{
	struct ord_ctx ctx;
	struct ord_diag d;
	size_t i;
	int err;

	*nowed = 0;
	if (!g->rs->check_execution && !(ORD_RULESET_HAS(g->rs, 9) && g->rs->order_events))
		return 0;
	ord_diag_init(&d);
	if ((err = ord_game_load_ctx(g, &ctx, turn, 1, "*", NULL)) != 0)
		goto out;
	if (g->rs->check_execution)
		g->rs->check_execution(&ctx, &d);
	ord_error_clear();
	if (d.n) {
		ord_buf_adds(out, "pending:   ");
		ord_buf_adds(out, ord_report_words_say(w, "orders no event of the turn carries out "
							  "so far:\n"));
	}
	/* what an order says (a target's name) in them shown escaped, as
	 * the report shows it: an old sheet's, or one a referee's own build
	 * took, may hold a bidirectional override or a C1 control (attack
	 * 43), which reached the referee's terminal as it was */
	for (i = 0; i < d.n; i++)
		ord_report_pending_line(out, &d.items[i], w);
	*nowed = ord_game_owed(g, &ctx, phase, owed);
	for (i = 0; *nowed && i < ord_ctx_nevents(&ctx); i++)
		if (!strcmp(ord_ctx_event(&ctx, i)->phase, phase)) {
			*nowed |= INFO_PHASE_HAS_EVENTS;
			break;
		}
out:
	ord_ctx_release(&ctx);
	ord_diag_release(&d);
	return err;
}

/* The referee's next step, by the turn's state: info's last line.  It
 * waits for the sides seal and the phases wait for (their sheets, or in a
 * game without referee their commitments, then their openings). */
static int info_next(ord_game *g, const struct ord_store_turn *t, int passed, struct ord_buf *out,
		     const struct ord_report_words *w)
{
	size_t nph = ord_game_nphases(g), nlacking = 0;
	const char *what = ord_report_words_say(w, g->refereeless ? "signed commitments" : "sheets");
	const char *how = g->refereeless ? "submit --commitment" : "submit";
	struct ord_buf lacking = ORD_BUF_INIT, owed = ORD_BUF_INIT;
	const char *missing;
	size_t nowed = 0;
	int err = 0;

	if (t->state == ORD_TURN_OPEN || (t->state == ORD_TURN_SEALED && g->refereeless))
		err = ord_game_sides_lacking(g, t->turn, t->state == ORD_TURN_SEALED, &lacking,
					     &nlacking);
	if (err) {
		ord_buf_release(&lacking);
		return err;
	}
	missing = nlacking ? lacking.buf : NULL;
	if (t->state == ORD_TURN_SEALED && !missing && (size_t)t->phase < nph &&
	    (err = info_pending(g, t->turn, g->rs->phases[t->phase], out, &owed, &nowed, w)) != 0) {
		ord_buf_release(&lacking);
		ord_buf_release(&owed);
		return err;
	}
	if (t->state == ORD_TURN_SEALED && !missing && (size_t)t->phase < nph)
		info_link_states(g, out);
	ord_buf_adds(out, "next:      ");
	switch (t->state) {
	case ORD_TURN_OPEN:
		if (!missing)
			ord_buf_addf(out, ord_report_words_say(w, "seal: every side has %s\n"),
				     ord_report_words_say(w, g->refereeless ? "committed"
									    : "submitted"));
		else if (!strcmp(g->nmr, "wait"))
			ord_buf_addf(out,
				     ord_report_words_say(w, "the %s of %s (%s), then seal: the NMR policy "
							     "'wait' seals no turn without them\n"),
				     what, missing, how);
		else if (passed && ord_game_now(g) < ord_game_seal_from(g, t->deadline))
			/* a game made since: the deadline's next second */
			ord_buf_addf(out,
				     ord_report_words_say(w, "seal: the deadline has passed; from the next "
							     "second the NMR policy '%s' stands in for %s "
							     "(seal --force now)\n"),
				     g->nmr, missing);
		else if (passed)
			ord_buf_addf(out,
				     ord_report_words_say(w, "seal: the deadline has passed; the NMR policy "
							     "'%s' stands in for %s\n"),
				     g->nmr, missing);
		else {
			/* named again, "red and green", for the sentence */
			struct ord_buf named = ORD_BUF_INIT;
			size_t nnamed = 0;

			err = ord_game_sides_lacking_sep(g, t->turn, 0,
							 ord_report_words_say(w, " and "), &named,
							 &nnamed);
			if (!err)
				ord_buf_addf(out,
					     ord_report_words_say(w, "the %s of %s (%s), then seal; or seal "
								     "--force now, the NMR policy '%s' "
								     "standing in for %s\n"),
					     what, missing, how, g->nmr, named.buf);
			ord_buf_release(&named);
		}
		break;
	case ORD_TURN_SEALED:
		if (missing) {
			ord_buf_addf(out, ord_report_words_say(w, "%s to open their sheets (open)\n"),
				     missing);
			break;
		}
		if ((size_t)t->phase >= nph) {
			ord_buf_adds(out, ord_report_words_say(w, "exchange\n"));
			break;
		}
		if (g->witnessed && info_links(g, out))
			break;
		{
			const char *ph = g->rs->phases[t->phase];
			const struct ord_event_kind *ek;
			int n = 0;

			for (ek = g->rs->events; ek && ek->name; ek++)
				if (strcmp(ek->phase, ph))
					continue;
				else if (!n++)
					ord_buf_addf(out,
						     ord_report_words_say(w, "the events of phase %s (%s"),
						     ph, ek->name);
				else
					ord_buf_addf(out, ", %s", ek->name);
			if (n)
				ord_buf_adds(out, ord_report_words_say(w, ": event, or event --file), "
									  "then "));
			else
				ord_buf_addf(out,
					     ord_report_words_say(w, "phase %s records no events: "),
					     ph);
		}
		if (g->witnessed)
			ord_buf_adds(out, "witness --close and every side's link (witness), then ");
		if (nowed) {
			/* what a resolve of the phase with no event refuses
			 * (empty_phase), said before it is typed */
			size_t n = nowed & ~INFO_PHASE_HAS_EVENTS;
			ord_buf_addf(out,
				     ord_report_words_say(w, n == 1 ? "resolve; %zu unit still waits for an event of "
								      "phase %s, by its sealed order or the rules "
								      "(%s)%s\n"
								    : "resolve; %zu units still wait for an event of "
								      "phase %s, by their sealed orders or the rules "
								      "(%s)%s\n"),
				     n, g->rs->phases[t->phase], owed.buf,
				     ord_report_words_say(w,
							  nowed & INFO_PHASE_HAS_EVENTS
								  ? ": resolved without, it goes undone"
								  : ": with no event of the phase recorded, "
								    "resolve refuses it unless --empty"));
		} else {
			ord_buf_adds(out, ord_report_words_say(w, "resolve\n"));
		}
		break;
	case ORD_TURN_RESOLVED:
		ord_buf_adds(out,
			     ord_report_words_say(w, "exchange: every phase of the turn is resolved\n"));
		break;
	default: ord_buf_adds(out, ord_report_words_say(w, "the next turn\n")); break;
	}
	/* the turn just exchanged, before any sheet of this one: its bundle
	 * goes to the players now, with the exchange's head (the step the
	 * README's turn ends with, which the hint left out) */
	if (t->state == ORD_TURN_OPEN && t->turn > 1 && nlacking == g->nsides)
		ord_buf_addf(out,
			     ord_report_words_say(w, "           and turn %d's bundle for the players, "
						     "if not yet sent: export --turn %d -o FILE\n"),
			     t->turn - 1, t->turn - 1);
	if (!g->have_sk)
		ord_buf_adds(out, "           seal, witness --close and exchange sign with the game's key, "
				  "kept outside its file: give it with --key FILE\n");
	ord_buf_release(&lacking);
	ord_buf_release(&owed);
	return err;
}

int ord_game_pending_note(ord_game *g, const char *lang, size_t n, struct ord_buf *out)
{
	struct ord_report_words *w = NULL;
	struct ord_store_turn t;
	const char *said;
	int err;

	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = ord_report_lang(g->rs, lang, &said)) != 0 ||
	    (err = ord_report_words_load(&w, g->rs, said)) != 0)
		return err;
	ord_buf_addf(out,
		     ord_report_words_say(w, n == 1 ? "%zu order no event of the turn carries out so "
						      "far (%s)"
						    : "%zu orders no event of the turn carries out so "
						      "far (%s)"),
		     n,
		     ord_report_words_say(w, t.state == ORD_TURN_SEALED
						     ? "orderly report --referee lists them"
						     : "orderly audit lists them once the turn is exchanged"));
	ord_report_words_free(w);
	return 0;
}

/* The orderly g was made with, as its log says (made=, made_core=,
 * made_rules=: canon.h). */
static void info_made(const struct ord_game *g, struct ord_buf *out)
{
	if (!g->made)
		ord_buf_addf(out, "made:      before %s (its log says no made=)\n", ORD_GAME_MADE);
	else if (!g->made_core[0])
		ord_buf_addf(out,
			     "made:      %s, core revision not logged (an orderly of that day before it logged one, core revision %s or earlier)\n",
			     g->made, ORD_GAME_MADE_CORE);
	else if (g->made_rules[0])
		ord_buf_addf(out, "made:      %s, core revision %s, %s rules of %s\n", g->made,
			     g->made_core, g->rs->name, g->made_rules);
	else
		ord_buf_addf(out, "made:      %s, core revision %s, %s rules of no revision\n",
			     g->made, g->made_core, g->rs->name);
}

int ord_game_info(ord_game *g, struct ord_buf *out, int xml)
{
	return ord_game_info_lang(g, out, xml, "en");
}

/* info's text in the words w gives (info_text) */
static int info_text(ord_game *g, struct ord_buf *out, int xml, const struct ord_report_words *w);

int ord_game_info_lang(ord_game *g, struct ord_buf *out, int xml, const char *lang)
{
	struct ord_report_words *w = NULL;
	const char *said;
	int err;

	if (lang && (!strcmp(lang, "all") || !ord_ruleset_language(g->rs, lang))) {
		/* one language, not report's "all" */
		struct ord_buf l = ORD_BUF_INIT;
		ord_ruleset_languages(g->rs, &l);
		err = ord_error_set(ORD_EUSAGE,
				    "language '%s' (info writes one language: the %s ruleset writes %s)",
				    lang, g->rs->name, l.buf);
		ord_buf_release(&l);
		return err;
	}
	if ((err = ord_report_lang(g->rs, lang, &said)) != 0 ||
	    (err = ord_report_words_load(&w, g->rs, xml ? NULL : said)) != 0)
		return err;
	err = info_text(g, out, xml, w);
	ord_report_words_free(w);
	return err;
}

static int info_text(ord_game *g, struct ord_buf *out, int xml, const struct ord_report_words *w)
{
	struct ord_store_turn t;
	char gid[33], when[32], key[65], sc[65];
	size_t nph = ord_game_nphases(g), i;
	const char *phase;
	struct ord_schedule sched;
	int err, passed, links_closed = 0;

	if ((err = ord_game_turn(g, &t, 0)) != 0)
		return err;
	ord_hex(gid, g->game_id, 16);
	ord_hex(key, g->pk, 32);
	ord_hex(sc, t.seed_commitment, 32);
	fmt_time(when, sizeof(when), t.deadline);
	passed = t.deadline && t.state == ORD_TURN_OPEN && ord_game_now(g) > t.deadline;
	if ((err = ord_game_schedule(g, &sched)) != 0)
		return err;
	phase = t.state == ORD_TURN_SEALED && (size_t)t.phase < nph ? g->rs->phases[t.phase] : "";
	if (xml && g->witnessed && *phase) {
		int lphase, lclosed;
		links_closed = !ord_game_link_state(g, NULL, &lphase, &lclosed, NULL) && lclosed;
		ord_error_clear();
	}
	if (xml) {
		ord_buf_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<game id=\"");
		ord_buf_adds(out, gid);
		ord_buf_adds(out, "\" ruleset=\"");
		ord_buf_add_xml(out, g->rs->name);
		ord_buf_addf(out, "\" turn=\"%d\" state=\"%s\" phase=\"", t.turn,
			     ord_turn_state_name(t.state));
		ord_buf_add_xml(out, phase);
		ord_buf_addf(out,
			     "\" deadline=\"%s\" nmr=\"%s\" fixed-dice=\"%s\" key=\"%s\" referee=\"%s\" witnessed=\"%s\" seed-commitment=\"%s\"",
			     when, g->nmr, g->fixed_dice ? "yes" : "no", key,
			     g->refereeless ? "no" : "yes", g->witnessed ? "yes" : "no", sc);
		/* the orderly it was made with, as its log says (canon.h):
		 * "" where it logs none */
		ord_buf_adds(out, " made=\"");
		ord_buf_add_xml(out, g->made ? g->made : "");
		ord_buf_adds(out, "\" made-core=\"");
		ord_buf_add_xml(out, g->made_core);
		ord_buf_adds(out, "\" made-rules=\"");
		ord_buf_add_xml(out, g->made_rules);
		ord_buf_addch(out, '"');
		/* mail: deadline passed, schedule */
		ord_buf_addf(out, " deadline-passed=\"%s\" schedule=\"", passed ? "yes" : "no");
		ord_schedule_format(&sched, out);
		ord_buf_adds(out, "\">\n  <title>");
		ord_buf_add_xml(out, g->title);
		ord_buf_adds(out, "</title>\n");
	} else {
		/* the title as a report shows it: a game made before new
		 * refused an unseen character in it shows it escaped (attack
		 * 41), on the referee's terminal too */
		ord_buf_adds(out, "game:      ");
		ord_buf_add_name_line(out, g->title);
		ord_buf_addf(out, "\nruleset:   %s\ngame id:   %s\n", g->rs->name, gid);
		ord_buf_addf(out, "key:       %s\n", key);
		if (g->refereeless)
			ord_buf_adds(out,
				     "referee:   none: each side sends a signed commitment, and opens it after the seal\n");
		if (g->witnessed)
			ord_buf_adds(out,
				     "dice:      witnessed: each side reveals a link of its witness chain per phase\n");
		ord_buf_addf(out, "turn:      %d (%s)\n", t.turn,
			     ord_report_words_say(w, ord_turn_state_name(t.state)));
		if (t.state == ORD_TURN_OPEN)
			ord_buf_addf(out, "seed commitment: %s (sheets of turn %d commit to it)\n",
				     sc, t.turn);
		if (*phase) {
			ord_buf_adds(out, "phase:     ");
			ord_buf_addf(out, ord_report_words_say(w, "%s (%d of %zu resolved)\n"),
				     phase, t.phase, nph);
		}
		if (t.deadline && sched.grace) {
			/* the deadline as the players were told it, then the end of
			 * the schedule's grace, which the game keeps (docs/pbem.md) */
			char before[32];
			fmt_time(before, sizeof(before), t.deadline - sched.grace);
			ord_buf_addf(out, "deadline:  %s\n", before);
			ord_buf_addf(out, "           sheets are still taken in the grace, until %s\n",
				     when);
		} else {
			ord_buf_addf(out, "deadline:  %s\n", when);
		}
		/* mail: whether it has passed, and the rule of the next ones */
		if (passed)
			ord_buf_addf(out,
				     "           the deadline%s has passed: no more sheets are taken; the turn can be sealed\n",
				     sched.grace ? " and its grace" : "");
		if (sched.every) {
			ord_buf_adds(out, "schedule:  ");
			ord_schedule_format(&sched, out);
			ord_buf_addch(out, '\n');
		}
		ord_buf_addf(out, "nmr:       %s\n", g->nmr);
		info_made(g, out);
		if (g->fixed_dice)
			ord_buf_adds(out, "dice:      fixed by the referee (a test game)\n");
		ord_buf_adds(out, "sides:\n");
	}
	for (i = 0; i < g->nsides; i++) {
		int v = 0, lv = 0, opened = 0;
		char *source = NULL;
		unsigned char c[32];
		char skey[65] = "";

		if (g->sides[i].has_key)
			ord_hex(skey, g->sides[i].pubkey, 32);
		if (g->refereeless &&
		    (err = ord_store_latest(g->db, t.turn, g->sides[i].id, &lv, c, &opened)) != 0)
			return err;
		if ((err = ord_store_sheet_summary(g->db, t.turn, g->sides[i].id, &v, &source)) != 0)
			return err;
		if (xml) {
			ord_buf_adds(out, "  <side id=\"");
			ord_buf_add_xml(out, g->sides[i].name);
			ord_buf_adds(out, "\" name=\"");
			ord_buf_add_xml(out, g->sides[i].title);
			ord_buf_addf(out,
				     "\" submitted=\"%s\" versions=\"%d\" source=\"%s\" key=\"%s\"",
				     v ? "yes" : "no", v, v ? source : "", skey);
			if (g->refereeless)
				ord_buf_addf(out, " committed=\"%s\" opened=\"%s\"",
					     lv ? "yes" : "no", lv && opened ? "yes" : "no");
			if (links_closed) {
				/* the link of the phase, its events closed: a
				 * side that withholds it stalls the phase */
				enum ord_link_state st;
				int ph, cl;
				if (!ord_game_link_state(g, g->sides[i].name, &ph, &cl, &st))
					ord_buf_addf(out, " link=\"%s\"",
						     st == ORD_LINK_REVEALED  ? "revealed"
						     : st == ORD_LINK_AWAITED ? "awaited"
									      : "none");
				ord_error_clear();
			}
			ord_buf_adds(out, "/>\n");
		} else if (g->refereeless && lv) {
			ord_buf_addf(out, "  %-12s ", g->sides[i].name);
			ord_buf_addf(out,
				     ord_report_words_say(w, opened ? "opened (version %d)"
								    : "committed, not opened (version %d)"),
				     lv);
			if (opened && source && strcmp(source, "submitted"))
				ord_buf_adds(out, ord_report_words_say(w, ": NMR policy applied"));
			ord_buf_addch(out, '\n');
		} else if (!v) {
			ord_buf_addf(out, "  %-12s %s\n", g->sides[i].name,
				     ord_report_words_say(w, "not submitted"));
		} else if (strcmp(source, "submitted")) {
			ord_buf_addf(out, "  %-12s ", g->sides[i].name);
			ord_buf_addf(out,
				     ord_report_words_say(w, "no sheet: NMR policy '%s' applied\n"),
				     source);
		} else {
			ord_buf_addf(out, "  %-12s ", g->sides[i].name);
			ord_buf_addf(out, ord_report_words_say(w, "submitted (version %d)\n"), v);
		}
		free(source);
	}
	for (i = 0; !xml && i < g->nsides; i++) {
		size_t j, first = 1;
		for (j = 0; j < i; j++)
			if (g->sides[j].has_key)
				first = 0;
		if (!g->sides[i].has_key)
			continue;
		if (first)
			ord_buf_adds(out, "side keys (their sheets must be signed):\n");
		ord_buf_addf(out, "  %-12s ", g->sides[i].name);
		ord_buf_add_hex(out, g->sides[i].pubkey, 32);
		ord_buf_addch(out, '\n');
	}
	if (xml)
		ord_buf_adds(out, "</game>\n");
	else if ((err = info_next(g, &t, passed, out, w)) != 0)
		return err;
	return 0;
}

/* Set the open turn's deadline to when (0: none); told: when is the one
 * the players are told, the schedule's grace is added (S3).  The hook is
 * told the deadline before and after, both as the turn keeps them. */
static int set_deadline(ord_game *g, int64_t when, int told)
{
	struct ord_store_turn t;
	struct ord_schedule s;
	int err;

	if ((err = ord_game_may_change(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0)
		goto out;
	if (t.state != ORD_TURN_OPEN) {
		err = ord_error_set(ORD_ESEALED, "turn %d is %s: its deadline can no longer change",
				    t.turn, ord_turn_state_name(t.state));
		goto out;
	}
	if (told && when) {
		if ((err = ord_game_schedule(g, &s)) != 0)
			goto out;
		when += s.grace;
	}
	if ((err = ord_game_log_deadline(g, t.turn, when)) != 0)
		goto out;
	{
		struct ord_change c = { .kind = ORD_CHANGE_DEADLINE,
					.turn = t.turn,
					.deadline = when,
					.deadline_from = t.deadline };
		if ((err = ord_game_notify(g, &c)) != 0)
			goto out;
	}
	err = ord_store_commit(g->db);
out:
	if (err)
		ord_store_rollback(g->db);
	return err;
}

int ord_game_set_deadline(ord_game *g, int64_t when)
{
	return set_deadline(g, when, 0);
}

int ord_game_set_told_deadline(ord_game *g, int64_t when)
{
	return set_deadline(g, when, 1);
}

/* ---- the game's key and its signed heads ---- */

void ord_game_id(ord_game *g, unsigned char out[16])
{
	memcpy(out, g->game_id, 16);
}

int ord_game_pubkey(ord_game *g, unsigned char out[32])
{
	memcpy(out, g->pk, 32);
	return 0;
}

int ord_game_can_sign(ord_game *g)
{
	return g->have_sk;
}

int ord_game_use_key(ord_game *g, const struct ord_keypair *kp)
{
	char hex[65];

	if (memcmp(kp->pk, g->pk, 32)) {
		ord_hex(hex, g->pk, 32);
		return ord_error_set(ORD_EBADDATA,
				     "this key is not the game's (the game's public key is %s)", hex);
	}
	memcpy(g->sk, kp->sk, 64);
	g->have_sk = 1;
	return 0;
}

/* The phase (1-based) whose events the close entry seq closes, 0 when the
 * entry is no close. */
static int close_entry_phase(void *ud, const struct ord_rec_entry *e, const unsigned char prev[32])
{
	char *index;
	long v;

	(void)prev;
	if (strcmp(e->kind, "close") || !(index = ord_canon_get(e->body, "index")))
		return 0;
	if (!ord_parse_long(index, &v) && v > 0 && v <= ORD_WITNESS_LINKS)
		*(int *)ud = (int)v;
	free(index);
	return 0;
}

static int close_phase(struct ord_game *g, int64_t seq, int *phase)
{
	*phase = 0;
	return ord_store_log_each(g->db, seq, seq, close_entry_phase, phase);
}

int ord_game_sign_head(struct ord_game *g, int turn, const char *at, struct ord_head *out)
{
	struct ord_rec_head h;
	unsigned char msg[32];
	int err, phase = 0;

	if (!g->have_sk)
		return ord_error_set(ORD_EUSAGE,
				     "the key of '%s' is kept outside the game file: give it with --key FILE to sign the %s",
				     g->path, at);
	memset(&h, 0, sizeof(h));
	if ((err = ord_store_log_head(g->db, &h.seq, h.hash)) != 0)
		return err;
	h.turn = turn;
	snprintf(h.at, sizeof(h.at), "%s", at);
	/* a head at an opening or exchange signs the opening just logged (not
	 * a deadline its schedule logged after it), and carries its seed
	 * commitment for the players */
	if (!strcmp(at, "open") || !strcmp(at, "exchange")) {
		struct ord_store_turn t;
		if ((err = ord_game_turn(g, &t, !strcmp(at, "open") ? turn : turn + 1)) != 0 ||
		    (err = ord_store_log_hash(g->db, t.log_seq, h.hash)) != 0)
			return err;
		h.seq = t.log_seq;
		h.has_seed_commitment = 1;
		memcpy(h.seed_commitment, t.seed_commitment, 32);
	}
	/* a close head states its phase, signed, so that a player reveals the
	 * link of phase N only against the close of phase N; the phase is the
	 * one its entry logs, and read from there again (ord_game_head) */
	if (!strcmp(at, "close")) {
		if ((err = close_phase(g, h.seq, &phase)) != 0)
			return err;
		if (!phase)
			return ord_error_set(ORD_ESTATE,
					     "entry %lld is no close of a phase's events: its head is not signed",
					     (long long)h.seq);
		/* and no entry number: the number less the seal's told every
		 * side how many events the phase logged, the enemy's hidden
		 * ones included (attack 49's leftover); the hash fixes the
		 * entry */
		ord_sig_unnumbered_msg(msg, g->game_id, h.turn, "close", phase, h.hash);
	} else {
		ord_sig_head_msg(msg, g->game_id, h.turn, h.at, h.seq, h.hash, h.seed_commitment);
	}
	ord_sig_sign(h.signature, msg, g->sk);
	if ((err = ord_store_head_insert(g->db, &h)) != 0)
		return err;
	if (out) {
		memset(out, 0, sizeof(*out));
		memcpy(out->game_id, g->game_id, 16);
		out->turn = h.turn;
		snprintf(out->at, sizeof(out->at), "%s", h.at);
		out->seq = h.seq;
		memcpy(out->hash, h.hash, 32);
		out->has_seed_commitment = h.has_seed_commitment;
		memcpy(out->seed_commitment, h.seed_commitment, 32);
		memcpy(out->key, g->pk, 32);
		memcpy(out->signature, h.signature, 64);
		out->phase = phase;
		out->unnumbered = phase > 0;
		out->fixed_dice = g->fixed_dice;
	}
	return 0;
}

/* ---- receipts and link heads: signed when asked, not stored ---- */

struct entry_find {
	const char *at; /* "receipt", "sealed" or "link" */
	int turn;
	const char *side;
	int version; /* receipt: the version; link: the phase; sealed: found here */
	const unsigned char *commitment;
	int found;
	int64_t seq;
	unsigned char hash[32];
	unsigned char logged[32]; /* receipt, sealed: the commitment the entry found logs */
};

/* The seal's entry of f's turn: the version and commitment it took for
 * f's side ("sealed.SIDE" = "V:HEX"). */
static int sealed_found(struct entry_find *f, const struct ord_rec_entry *e)
{
	if (ord_canon_sealed_get(e->body, f->side, &f->version, f->logged)) {
		f->found = 1;
		f->seq = e->seq;
		memcpy(f->hash, e->hash, 32);
	}
	return 0;
}

static int body_int_is(const char *body, const char *key, int want)
{
	char *v = ord_canon_get(body, key);
	long n = 0;
	int ok = v && !ord_parse_long(v, &n) && n == want;

	free(v);
	return ok;
}

static int entry_found(void *ud, const struct ord_rec_entry *e, const unsigned char prev[32])
{
	struct entry_find *f = ud;
	char *side, *hex;
	int ok;

	(void)prev;
	if (e->turn != f->turn || !ord_head_signs_kind(f->at, e->kind))
		return 0;
	if (!strcmp(f->at, "sealed"))
		return sealed_found(f, e);
	side = ord_canon_get(e->body, "side");
	ok = side && !strcmp(side, f->side) &&
	     body_int_is(e->body, !strcmp(f->at, "link") ? "index" : "version", f->version);
	free(side);
	if (ok && !strcmp(e->kind, "sheet")) {
		/* a stand-in (hold, repeat) is no sheet the side handed in */
		char *source = ord_canon_get(e->body, "source");
		ok = source && !strcmp(source, "submitted");
		free(source);
	}
	if (ok && f->commitment) {
		char want[65];
		ord_hex(want, f->commitment, 32);
		hex = ord_canon_get(e->body, "commitment");
		ok = hex && !strcmp(hex, want);
		free(hex);
	}
	if (ok && !strcmp(f->at, "receipt")) {
		hex = ord_canon_get(e->body, "commitment");
		ok = hex && ord_unhex(f->logged, 32, hex) == 32;
		free(hex);
	}
	if (ok) {
		f->found = 1;
		f->seq = e->seq;
		memcpy(f->hash, e->hash, 32);
	}
	return 0;
}

/* Sign the entry f names, found walking back from the log's head: the
 * entry just written is the head when it is signed at once. */
static int sign_entry(ord_game *g, struct ord_head *out, struct entry_find *f)
{
	unsigned char hash[32], msg[32];
	static const unsigned char none[32];
	struct ord_store_turn t;
	int64_t seq, first = 1;
	int err;

	memset(out, 0, sizeof(*out));
	if ((err = ord_store_log_head(g->db, &seq, hash)) != 0)
		return err;
	if (ord_game_turn(g, &t, f->turn) == 0)
		first = t.log_seq;
	ord_error_clear();
	if (!strcmp(f->at, "sealed")) {
		/* the seal comes before the turn's events: read forward from
		 * the turn's opening, not back over every event */
		int64_t last = seq;
		for (seq = first; seq <= last && !f->found; seq++)
			if ((err = ord_store_log_each(g->db, seq, seq, entry_found, f)) != 0)
				return err;
	} else {
		for (; seq >= first && !f->found; seq--)
			if ((err = ord_store_log_each(g->db, seq, seq, entry_found, f)) != 0)
				return err;
	}
	if (!f->found && !strcmp(f->at, "sealed"))
		return ord_error_set(ORD_ENOTFOUND, "turn %d was not sealed with a sheet of %s",
				     f->turn, f->side);
	if (!f->found)
		return !strcmp(f->at, "link")
			       ? ord_error_set(ORD_ENOTFOUND,
					       "the log of turn %d records no link of %s for phase %d",
					       f->turn, f->side, f->version)
			       : ord_error_set(ORD_ENOTFOUND,
					       "the log of turn %d holds no version %d of %s with that commitment",
					       f->turn, f->version, f->side);
	if (!g->have_sk)
		return ord_error_set(ORD_EUSAGE,
				     "the key of '%s' is kept outside the game file: give it with --key FILE to sign the %s",
				     g->path, f->at);
	memcpy(out->game_id, g->game_id, 16);
	out->turn = f->turn;
	snprintf(out->at, sizeof(out->at), "%s", f->at);
	out->seq = f->seq;
	memcpy(out->hash, f->hash, 32);
	memcpy(out->key, g->pk, 32);
	out->fixed_dice = g->fixed_dice;
	if (!strcmp(f->at, "receipt") || !strcmp(f->at, "sealed")) {
		out->has_commitment = 1;
		memcpy(out->commitment, f->logged, 32);
	}
	/* a link head is handed out before the exchange, after the close:
	 * its number would tell the close's (attack 49's leftover) */
	out->unnumbered = !strcmp(f->at, "link");
	if (out->unnumbered)
		ord_sig_unnumbered_msg(msg, g->game_id, out->turn, out->at, 0, out->hash);
	else
		ord_sig_head_msg(msg, g->game_id, out->turn, out->at, out->seq, out->hash,
				 out->has_commitment ? out->commitment : none);
	ord_sig_sign(out->signature, msg, g->sk);
	if (out->has_commitment) {
		/* the words the player reads, signed under a message of their
		 * own: he checks at the submit whose sheet and which version
		 * the game stored, with no bundle (attack 47) */
		out->said.turn = f->turn;
		out->said.version = f->version;
		snprintf(out->said.side, sizeof(out->said.side), "%s", f->side);
		memcpy(out->said.commitment, f->logged, 32);
		out->words = 1;
		ord_sig_words_msg(msg, g->game_id, out->turn, out->at, out->seq, out->hash, &out->said);
		ord_sig_sign(out->words_signature, msg, g->sk);
		out->words_signed = 1;
	}
	return 0;
}

int ord_game_receipt_head(ord_game *g, struct ord_head *out, const struct ord_receipt *r)
{
	struct entry_find f = { "receipt", r->turn, r->side, r->version, r->commitment,
				0,         0,       { 0 },   { 0 } };

	return sign_entry(g, out, &f);
}

int ord_game_receipt_head_again(ord_game *g, struct ord_head *out, struct ord_receipt *r)
{
	struct entry_find f = { "receipt", r->turn, r->side, r->version, NULL, 0, 0, { 0 }, { 0 } };
	int err = sign_entry(g, out, &f);

	if (!err)
		memcpy(r->commitment, f.logged, 32);
	return err;
}

int ord_game_sealed_head(ord_game *g, struct ord_head *out, struct ord_receipt *r)
{
	struct entry_find f = { "sealed", r->turn, r->side, 0, NULL, 0, 0, { 0 }, { 0 } };
	int err = sign_entry(g, out, &f);

	if (!err) {
		r->version = f.version;
		memcpy(r->commitment, f.logged, 32);
	}
	return err;
}

int ord_game_link_head(ord_game *g, struct ord_head *out, int turn, const char *side, int phase)
{
	struct entry_find f = { "link", turn, side, phase, NULL, 0, 0, { 0 }, { 0 } };

	return sign_entry(g, out, &f);
}

/* The head h as stored, of kind at, as a player is handed it. */
static int head_of(ord_game *g, struct ord_head *out, const struct ord_rec_head *h, const char *at)
{
	int err;

	memset(out, 0, sizeof(*out));
	memcpy(out->game_id, g->game_id, 16);
	out->turn = h->turn;
	snprintf(out->at, sizeof(out->at), "%s", at);
	out->seq = h->seq;
	memcpy(out->hash, h->hash, 32);
	out->has_seed_commitment = h->has_seed_commitment;
	memcpy(out->seed_commitment, h->seed_commitment, 32);
	memcpy(out->key, g->pk, 32);
	memcpy(out->signature, h->signature, 64);
	out->fixed_dice = g->fixed_dice;
	/* the head table keeps no phase: a close head states the one its entry
	 * logs when it was signed with it; one signed by an earlier orderly,
	 * without, states none (and stays good for audits) */
	if (!strcmp(at, "close")) {
		if ((err = close_phase(g, h->seq, &out->phase)) != 0)
			return err;
		/* signed without its number since hsecr11, with it before */
		out->unnumbered = out->phase > 0;
		if (out->phase && ord_head_check(out))
			out->unnumbered = 0;
		if (out->phase && !out->unnumbered && ord_head_check(out))
			out->phase = 0;
	}
	return 0;
}

int ord_game_head(ord_game *g, struct ord_head *out, int turn, const char *at)
{
	struct ord_rec_head h;
	int err;

	memset(out, 0, sizeof(*out));
	if ((err = ord_store_head_read(g->db, turn, at, &h)) != 0)
		return err;
	return head_of(g, out, &h, at);
}

int ord_game_head_close(ord_game *g, struct ord_head *out, int turn, int phase)
{
	struct ord_rec_head h;
	int64_t before = INT64_MAX;
	int err, p;

	memset(out, 0, sizeof(*out));
	/* a turn has a close head per phase, the latest first */
	for (;;) {
		if ((err = ord_store_head_read_before(g->db, turn, "close", before, &h)) != 0) {
			if (err == ORD_ENOTFOUND && turn > 0)
				err = ord_error_set(ORD_ENOTFOUND,
						    "turn %d has no signed head of the close of phase %d",
						    turn, phase);
			else if (err == ORD_ENOTFOUND)
				err = ord_error_set(ORD_ENOTFOUND,
						    "no turn has a signed head of the close of phase %d",
						    phase);
			return err;
		}
		if ((err = close_phase(g, h.seq, &p)) != 0)
			return err;
		if (p == phase)
			return head_of(g, out, &h, "close");
		before = h.seq;
		if (turn <= 0)
			turn = h.turn; /* the latest turn with a close head */
	}
}

int ord_game_temp_fd(ord_game *g)
{
	struct ord_buf name = ORD_BUF_INIT;
	const char *env = getenv("TMPDIR"), *slash = strrchr(g->path, '/');
	int fd, tries;

	/* beside the game file first: its disk has room for what is made
	 * of it, and TMPDIR may be a small memory-backed one */
	for (tries = 0, fd = -1; fd < 0 && tries < 3; tries++) {
		ord_buf_reset(&name);
		if (tries == 0 && slash)
			ord_buf_add(&name, g->path, (size_t)(slash - g->path) + 1);
		else if (tries == 1 && env && *env)
			ord_buf_addf(&name, "%s/", env);
		else if (tries == 2)
			ord_buf_adds(&name, "/tmp/");
		else if (tries == 1)
			continue;
		ord_buf_adds(&name, ".orderly-tmp-XXXXXX");
		if ((fd = mkstemp(name.buf)) >= 0)
			fcntl(fd, F_SETFD, FD_CLOEXEC);
	}
	if (fd < 0) {
		fd = ord_error_set(ORD_ECANTWRITE,
				   "no temporary file beside '%s', in $TMPDIR (%s) or in /tmp: %s",
				   g->path, env && *env ? env : "unset", strerror(errno));
	} else {
		/* gone with its last descriptor, whatever becomes of the process */
		unlink(name.buf);
	}
	ord_buf_release(&name);
	return fd;
}
