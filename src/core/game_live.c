/*
 * game_live.c - the live rows a change acts on, held to the log before it
 * acts.  A referee with the game file and the sqlite3 shell could edit a
 * row between two commands (a sealed sheet's text, an event's arguments,
 * the turn's seed or dice key) and the next seal, event, resolve or
 * exchange acted on the edited row and chained its entry over it: only
 * the audit said so afterwards (a red team's find).  Each change now
 * holds the rows it reads to what their log entries record, by the
 * verifier's own holds (ord_verify_sheet_logged and the others,
 * verify.c), and refuses a row that differs as a damaged game file
 * (ORD_EBADDATA, exit 65), naming the row and what the log holds, before
 * it writes anything.
 *
 * The cost is what the change reads: the turn's opening, the seal and one
 * sheet a side (a seal, a resolve, an exchange), and the log entry of
 * each event the change loads (an event, a void, a close, a resolve),
 * found by its number.  The rows a change does not read are the audit's.
 * The side and unit rows, which nothing changes in a game, are held to
 * the roster the turn's opening digests (sides_root, units_root): the
 * sides wherever the opening is read (a submit, a seal, a resolve, an
 * exchange), the units by the seal (their rows read for it), a resolve
 * (as its context loads them) and the exchange (as the next opening
 * digests them); the verifier holds the roots to the scenario.  A turn
 * opened before the roots has its seal hold every side and unit row to
 * the scenario its log states (ord_game_rows_scenario, the audit's
 * comparison: the scenario's parse, 0.75 G instructions at 10,000 units),
 * as a refusal does to say what differs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/argcheck.h"
#include "core/crypto.h"
#include "core/game.h"
#include "core/scenario.h"
#include "core/verify.h"

/* One log entry, read by its number. */
struct entry {
	int found;
	int self_ok; /* its hash is what its content and prev give */
	int turn;
	char *kind;
	char *body;
};

static int take_entry(void *ud, const struct ord_rec_entry *e, const unsigned char prev[32])
{
	struct entry *x = ud;
	unsigned char h[32];

	if (x->found)
		return 0;
	x->found = 1;
	x->turn = e->turn;
	x->kind = ord_strdup(e->kind);
	x->body = ord_strdup(e->body ? e->body : "");
	ord_log_hash(h, prev, e->seq, e->turn, e->kind, x->body, e->at);
	x->self_ok = !memcmp(h, e->hash, 32);
	return 0;
}

static void entry_release(struct entry *x)
{
	free(x->kind);
	free(x->body);
	memset(x, 0, sizeof(*x));
}

/* The refusal: what differs, said of FILE. */
static int refuse(struct ord_game *g, const char *what)
{
	return ord_error_set(ORD_EBADDATA,
			     "'%s': %s: it was changed outside orderly ('orderly audit' says where); nothing was done",
			     g->path, what);
}

/* Entry seq of kind (either of two) and turn, into x; a refusal naming
 * row when it is not there, not of that kind, or not its own hash. */
static int entry_of(struct ord_game *g, int64_t seq, const char *kind, const char *kind2, int turn,
		    const char *row, struct entry *x)
{
	struct ord_buf m = ORD_BUF_INIT;
	int err;

	memset(x, 0, sizeof(*x));
	if ((err = ord_store_log_each(g->db, seq, seq, take_entry, x)) != 0)
		return err;
	if (!x->found)
		ord_buf_addf(&m, "%s points at log entry %lld, which the log does not hold", row,
			     (long long)seq);
	else if ((strcmp(x->kind, kind) && (!kind2 || strcmp(x->kind, kind2))) || x->turn != turn)
		ord_buf_addf(&m, "%s points at log entry %lld, which is a %s entry of turn %d", row,
			     (long long)seq, x->kind, x->turn);
	else if (!x->self_ok)
		ord_buf_addf(&m, "log entry %lld, which records %s, does not match its hash (edited)",
			     (long long)seq, row);
	if (!m.len)
		return 0;
	err = refuse(g, m.buf);
	ord_buf_release(&m);
	entry_release(x);
	return err;
}

/* "what the log holds": an entry's body on one line, shown safely */
static void add_logged(struct ord_buf *m, const char *body)
{
	struct ord_buf line = ORD_BUF_INIT;
	const char *p;

	for (p = body; *p; p++)
		if (*p == '\n')
			ord_buf_adds(&line, p[1] ? "; " : "");
		else
			ord_buf_addch(&line, *p);
	ord_buf_add_shown_cut(m, line.len ? line.buf : "", 400);
	ord_buf_release(&line);
}

static int hold_root(struct ord_game *g, int turn, int64_t seq, const char *body, const char *key,
		     const unsigned char root[32], int *logged);

/* ---- the seed and the dice key ---- */

/*
 * An opening without the roster's roots (sides_root, units_root) escapes
 * the seal's check of the sheets, which holds a turn opened so to the
 * scenario alone (attack 34): an orderly before the roots wrote every
 * opening so, but one since writes them in each.  So in a game made
 * since (its creation logs made=, ORD_GAME_MADE), or whose turn before
 * opened with them, a turn's opening without them was written by other
 * means: the submit, the seal, a resolve and the exchange, which read it
 * (live_seed), refuse it, naming the entry.  An old game (every opening
 * without them) plays as before.
 */
static int rooted_opening(struct ord_game *g, int turn, int64_t seq, const char *body)
{
	struct ord_canon_config made;
	struct ord_buf m = ORD_BUF_INIT;
	char *sides = ord_canon_get(body, "sides_root"), *units = ord_canon_get(body, "units_root");
	char *create = NULL, *before = NULL, *b_sides = NULL, *b_units = NULL;
	const char *missing = !sides && !units ? "sides_root and units_root"
			      : !sides         ? "sides_root"
			      : !units         ? "units_root"
					       : NULL;
	int64_t before_seq = 0;
	int err = 0;

	if (!missing)
		goto out;
	if ((err = ord_store_log_last(g->db, 0, "create", &create, NULL)) == ORD_ENOTFOUND) {
		ord_error_clear(); /* the audit's to say */
		err = 0;
	}
	if (err)
		goto out;
	if (create && ord_canon_config_read(&made, create) == 0) {
		if (ord_canon_made_since(&made, ORD_GAME_MADE))
			ord_buf_addf(&m, "turn %d's opening (log entry %lld) logs no %s, but the game was made by an orderly of %s or later (its creation, log entry 1, logs made=%s), which logs the roster's roots in every opening",
				     turn, (long long)seq, missing, ORD_GAME_MADE, made.made);
		ord_canon_config_release(&made);
	}
	ord_error_clear(); /* a damaged creation is the audit's to say */
	if (!m.len && turn > 1) {
		if ((err = ord_store_log_last(g->db, turn - 1, "open", &before, &before_seq)) ==
		    ORD_ENOTFOUND) {
			ord_error_clear();
			err = 0;
		}
		if (err)
			goto out;
		b_sides = before ? ord_canon_get(before, "sides_root") : NULL;
		b_units = before ? ord_canon_get(before, "units_root") : NULL;
		if (b_sides && b_units)
			ord_buf_addf(&m, "turn %d's opening (log entry %lld) logs no %s, but turn %d's (log entry %lld) logs both: an orderly that logs the roster's roots logs them in every opening after",
				     turn, (long long)seq, missing, turn - 1, (long long)before_seq);
	}
	if (m.len) {
		ord_buf_adds(&m,
			     "; this one was written without them, and a seal would hold no sheet to the rules by them (threat model, attack 34)");
		err = refuse(g, m.buf);
	}
out:
	ord_buf_release(&m);
	free(sides);
	free(units);
	free(create);
	free(before);
	free(b_sides);
	free(b_units);
	return err;
}

/* ord_game_live_seed; *refereeless (or NULL) as the opening logs it */
static int live_seed(struct ord_game *g, const struct ord_store_turn *t,
		     unsigned char commitment[32], int *refereeless)
{
	struct ord_buf m = ORD_BUF_INIT;
	char *body = NULL, *hex = NULL;
	int64_t seq = 0;
	int err;

	if ((err = ord_store_log_last(g->db, t->turn, "open", &body, &seq)) != 0)
		return err;
	if ((err = rooted_opening(g, t->turn, seq, body)) != 0) {
		free(body);
		return err;
	}
	if (refereeless) {
		struct ord_canon_config cfg;
		*refereeless = g->refereeless;
		if (ord_canon_config_read(&cfg, body) == 0) {
			*refereeless = cfg.refereeless;
			ord_canon_config_release(&cfg);
		}
		ord_error_clear();
	}
	hex = ord_canon_get(body, "seed_commitment");
	if (!hex || ord_unhex(commitment, 32, hex) != 32)
		ord_buf_addf(&m, "turn %d's opening (log entry %lld) logs no seed commitment",
			     t->turn, (long long)seq);
	else if (!ord_verify_seed_commits(g->game_id, t->turn, t->seed, commitment))
		ord_buf_addf(&m, "the dice seed in turn %d's row (table turn) does not match the commitment its opening (log entry %lld) logs, seed_commitment=%s",
			     t->turn, (long long)seq, hex);
	else if (memcmp(t->seed_commitment, commitment, 32))
		ord_buf_addf(&m, "the seed commitment in turn %d's row (table turn) is not the one its opening (log entry %lld) logs, seed_commitment=%s",
			     t->turn, (long long)seq, hex);
	if (m.len)
		err = refuse(g, m.buf);
	/* the sides (names, titles, keys) to the roster the opening
	 * digests: a submit checks a sheet's signature by its side's key */
	if (!err) {
		unsigned char sides[32];
		ord_game_sides_root(g, sides);
		err = hold_root(g, t->turn, seq, body, "sides_root", sides, NULL);
	}
	ord_buf_release(&m);
	free(hex);
	free(body);
	return err;
}

int ord_game_live_seed(struct ord_game *g, const struct ord_store_turn *t, unsigned char commitment[32])
{
	return live_seed(g, t, commitment, NULL);
}

/* The dice key in the turn's row is the one its seed and the sealed
 * sheets give (the sheets held first: ord_game_live_sheets), with or
 * without their nonces as the turn's opening says the game is made. */
static int live_dice_key(struct ord_game *g, const struct ord_store_turn *t, int64_t seal,
			 int refereeless)
{
	unsigned char key[32];
	int err, was = g->refereeless;

	if (!t->have_dice_key)
		return 0;
	g->refereeless = refereeless;
	err = ord_game_dice_key(g, t->turn, t->seed, key);
	g->refereeless = was;
	if (err == ORD_ESTATE) { /* referee-less, not every sheet opened */
		ord_error_clear();
		return 0;
	}
	if (err)
		return err;
	if (memcmp(key, t->dice_key, 32)) {
		struct ord_buf m = ORD_BUF_INIT;
		ord_buf_addf(&m, "the dice key in turn %d's row (table turn) is not the one its seed and the sheets the seal (log entry %lld) names give, ",
			     t->turn, (long long)seal);
		ord_buf_add_hex(&m, key, 32);
		err = refuse(g, m.buf);
		ord_buf_release(&m);
	}
	return err;
}

/* ---- sheets ---- */

static void rec_sheet(struct ord_rec_sheet *r, const char *side, const struct ord_store_sheet *s)
{
	memset(r, 0, sizeof(*r));
	r->side = (char *)side;
	r->source = s->source;
	r->version = s->version;
	r->bytes = (unsigned char *)s->bytes;
	r->len = s->len;
	memcpy(r->nonce, s->nonce, 32);
	memcpy(r->commitment, s->commitment, 32);
	r->has_sig = s->has_sig;
	memcpy(r->signature, s->signature, 64);
	r->has_witness = s->has_witness;
	memcpy(r->witness, s->witness, 32);
	r->log = s->log_seq;
}

/* One side's sheet row of turn against its entry, the turn's logged seed
 * commitment and (sealed: the seal's body) what the seal sealed. */
static int live_sheet(struct ord_game *g, int turn, const struct ord_store_side *sd,
		      const struct ord_store_sheet *s, const unsigned char seed_commitment[32],
		      const char *sealed, int64_t seal)
{
	struct ord_buf m = ORD_BUF_INIT, row = ORD_BUF_INIT, scratch = ORD_BUF_INIT;
	struct ord_rec_sheet r;
	struct entry e;
	const char *side = sd->name;
	int err;

	rec_sheet(&r, side, s);
	ord_buf_addf(&row, "the sheet of %s, version %d, of turn %d (table sheet)", side,
		     s->version, turn);
	if ((err = entry_of(g, s->log_seq, "sheet", "opening", turn, row.buf, &e)) != 0)
		goto out;
	if (!ord_verify_sheet_logged(&r, e.kind, e.body, &scratch)) {
		ord_buf_addf(&m, "%s differs from what log entry %lld records of it: ", row.buf,
			     (long long)s->log_seq);
		add_logged(&m, e.body);
	} else if (!ord_verify_sheet_commits(&r, g->game_id, turn, seed_commitment)) {
		char *c = ord_canon_get(e.body, "commitment");
		ord_buf_addf(&m, "%s: its bytes, nonce and the turn's seed commitment do not give the commitment log entry %lld records, commitment=%s",
			     row.buf, (long long)s->log_seq, c ? c : "?");
		free(c);
	} else if (ord_buf_reset(&scratch), ord_verify_sheet_signed(&r, sd->has_key ? sd->pubkey : NULL,
								    g->game_id, turn, &scratch) < 0) {
		ord_buf_addf(&m, "%s: %s (side %s's key as table side holds it)", row.buf,
			     scratch.buf, side);
	} else if (sealed) {
		struct ord_buf key = ORD_BUF_INIT, have = ORD_BUF_INIT;
		char *v;
		ord_buf_addf(&key, "sealed.%s", side);
		ord_buf_addf(&have, "%d:", s->version);
		ord_buf_add_hex(&have, s->commitment, 32);
		v = ord_canon_get(sealed, key.buf);
		if (!v || strcmp(v, have.buf))
			ord_buf_addf(&m, "the latest sheet of %s of turn %d (table sheet) is version %d, not the one the seal (log entry %lld) sealed, %s=%s",
				     side, turn, s->version, (long long)seal, key.buf, v ? v : "none");
		free(v);
		ord_buf_release(&key);
		ord_buf_release(&have);
	}
	if (m.len)
		err = refuse(g, m.buf);
out:
	entry_release(&e);
	ord_buf_release(&m);
	ord_buf_release(&row);
	ord_buf_release(&scratch);
	return err;
}

int ord_game_live_sheets(struct ord_game *g, const struct ord_store_turn *t, int sealed)
{
	unsigned char commitment[32];
	char *seal = NULL;
	int64_t seal_seq = 0;
	size_t i;
	int err, refereeless;

	if ((err = live_seed(g, t, commitment, &refereeless)) != 0)
		return err;
	if (sealed && (err = ord_store_log_last(g->db, t->turn, "seal", &seal, &seal_seq)) != 0)
		return err;
	for (i = 0; i < g->nsides && !err; i++) {
		struct ord_store_sheet s;

		err = ord_store_sheet_read(g->db, t->turn, g->sides[i].id, 0, &s);
		if (err == ORD_ENOTFOUND) { /* none yet, or referee-less not opened */
			ord_error_clear();
			err = 0;
			continue;
		}
		if (err)
			break;
		/* referee-less: a side's sealed version may be a commitment
		 * not opened yet, its sheet an earlier one */
		err = live_sheet(g, t->turn, &g->sides[i], &s, commitment,
				 refereeless ? NULL : seal, seal_seq);
		ord_store_sheet_release(&s);
	}
	if (!err && sealed)
		err = live_dice_key(g, t, seal_seq, refereeless);
	free(seal);
	return err;
}

/* ---- events ---- */

int ord_game_live_event(struct ord_game *g, int turn, const struct ord_store_event *ev)
{
	struct ord_buf m = ORD_BUF_INIT, row = ORD_BUF_INIT, scratch = ORD_BUF_INIT;
	struct ord_rec_event r;
	struct entry e;
	int err;

	memset(&r, 0, sizeof(r));
	r.seq = ev->seq;
	r.phase = (char *)ev->phase;
	r.kind = (char *)ev->kind;
	r.args = (char *)ev->args;
	r.override = (char *)ev->override;
	r.checks = (char *)ev->checks;
	r.void_reason = (char *)ev->void_reason;
	ord_buf_addf(&row, "event #%u of turn %d (table event)", ev->seq, turn);
	if ((err = entry_of(g, ev->log_seq, "event", NULL, turn, row.buf, &e)) != 0)
		goto out;
	if (!ord_verify_event_logged(&r, e.body, &scratch)) {
		ord_buf_addf(&m, "%s differs from what log entry %lld records of it: ", row.buf,
			     (long long)ev->log_seq);
		add_logged(&m, e.body);
	}
	entry_release(&e);
	if (!m.len && ev->void_log) {
		ord_buf_reset(&row);
		ord_buf_addf(&row, "the void of event #%u of turn %d (table event)", ev->seq, turn);
		if ((err = entry_of(g, ev->void_log, "void", NULL, turn, row.buf, &e)) != 0)
			goto out;
		if (!ord_verify_void_logged(turn, &r, e.body, &scratch)) {
			ord_buf_addf(&m, "%s differs from what log entry %lld records of it: ", row.buf,
				     (long long)ev->void_log);
			add_logged(&m, e.body);
		}
	}
	if (m.len)
		err = refuse(g, m.buf);
out:
	entry_release(&e);
	ord_buf_release(&m);
	ord_buf_release(&row);
	ord_buf_release(&scratch);
	return err;
}

/* ---- sides and units: the scenario's ---- */

struct scenario_rows {
	const struct ord_scenario *sc;
	size_t i;
	int bad;
	void (*differs)(void *ud, const char *what);
	int (*row)(void *ud, const struct ord_store_unit *u);
	void *ud;
	struct ord_buf m, attrs;
};

static void differs(struct scenario_rows *c)
{
	c->differs(c->ud, c->m.buf);
	ord_buf_reset(&c->m);
}

static int scenario_unit(void *ud, const struct ord_store_unit *u)
{
	struct scenario_rows *c = ud;
	const struct ord_scenario_unit *su = c->i < c->sc->nunits ? &c->sc->units[c->i] : NULL;

	if (!su) {
		if (!c->bad++) {
			ord_buf_addf(&c->m, "unit '%s' is not in the scenario (added to the game file)",
				     u->uid);
			differs(c);
		}
		c->i++;
		return c->row ? c->row(c->ud, u) : 0;
	}
	ord_buf_reset(&c->attrs);
	ord_kv_serialize(&su->attrs, &c->attrs);
	if (strcmp(u->uid, su->id) || strcmp(u->name, su->name) || strcmp(u->attrs, c->attrs.buf)) {
		ord_buf_addf(&c->m, "unit '%s' is not the scenario's unit %zu ('%s') as the game began",
			     u->uid, c->i + 1, su->id);
		/* what differs, and what the scenario holds */
		if (strcmp(u->uid, su->id))
			;
		else if (strcmp(u->name, su->name)) {
			ord_buf_adds(&c->m, ": its name is ");
			ord_buf_add_quoted(&c->m, u->name, 80);
			ord_buf_adds(&c->m, ", the scenario's ");
			ord_buf_add_quoted(&c->m, su->name, 80);
		} else {
			ord_buf_adds(&c->m, ": its attributes differ, the scenario's are ");
			ord_buf_add_quoted(&c->m, c->attrs.buf, 200);
		}
		differs(c);
		c->bad++;
	} else if (strcmp(u->side, su->side)) {
		ord_buf_addf(&c->m,
			     "unit '%s' belongs to side '%s' in the game file, but to '%s' in the scenario",
			     u->uid, u->side, su->side);
		differs(c);
		c->bad++;
	}
	c->i++;
	return c->row ? c->row(c->ud, u) : 0;
}

int ord_game_rows_scenario(struct ord_game *g, const struct ord_scenario *sc, int turn,
			   void (*differs_fn)(void *ud, const char *what),
			   int (*row)(void *ud, const struct ord_store_unit *u), void *ud)
{
	struct scenario_rows c;
	size_t i;
	int err;

	memset(&c, 0, sizeof(c));
	c.sc = sc;
	c.differs = differs_fn;
	c.row = row;
	c.ud = ud;
	if (sc->nsides != g->nsides) {
		ord_buf_addf(&c.m, "the game file has %zu sides, the scenario %zu", g->nsides,
			     sc->nsides);
		differs(&c);
	}
	for (i = 0; i < sc->nsides && i < g->nsides; i++) {
		const struct ord_store_side *s = &g->sides[i];
		unsigned char pk[32];
		int keyed = sc->sides[i].pubkey && ord_unhex(pk, 32, sc->sides[i].pubkey) == 32;
		if (strcmp(s->name, sc->sides[i].id) || strcmp(s->title, sc->sides[i].name))
			ord_buf_addf(&c.m, "side '%s' is not the scenario's side '%s'", s->name,
				     sc->sides[i].id);
		else if (keyed && !s->has_key)
			ord_buf_addf(&c.m,
				     "side '%s' has no key in the game file, but the scenario gives it %s",
				     s->name, sc->sides[i].pubkey);
		else if (!keyed && s->has_key)
			ord_buf_addf(&c.m,
				     "side '%s' has a key in the game file, but none in the scenario",
				     s->name);
		else if (keyed && memcmp(pk, s->pubkey, 32))
			ord_buf_addf(&c.m,
				     "side '%s' has another key in the game file than in the scenario, %s",
				     s->name, sc->sides[i].pubkey);
		if (c.m.len)
			differs(&c);
	}
	err = ord_store_units_each(g->db, turn, 1, scenario_unit, &c);
	if (!err && c.i < sc->nunits) {
		ord_buf_addf(&c.m, "%zu unit%s of the scenario %s missing from the game file",
			     sc->nunits - c.i, sc->nunits - c.i == 1 ? "" : "s",
			     sc->nunits - c.i == 1 ? "is" : "are");
		differs(&c);
	}
	ord_buf_release(&c.m);
	ord_buf_release(&c.attrs);
	return err;
}

static void first_difference(void *ud, const char *what)
{
	struct ord_buf *m = ud;

	if (!m->len)
		ord_buf_adds(m, what);
}

/* The first difference of the side and unit rows from the scenario the
 * log states, into m (nothing when none). */
static int scenario_difference(struct ord_game *g, struct ord_buf *m)
{
	struct ord_store_game sg;
	struct ord_scenario sc;
	struct ord_words_how words;
	unsigned char hash[32];
	int err;

	ord_scenario_init(&sc);
	ord_words_how_of(&words, g->rs);
	if ((err = ord_store_game_read(g->db, &sg, 1)) != 0)
		return err;
	/* the scenario is the one its log states (ord_game_may_change); the
	 * bytes read here are held to it again, and then read without the
	 * schema, which held them when the game was made (at 10,000 units the
	 * seal took 1.0 G instructions with the schema, 0.75 G without) */
	crypto_generichash(hash, 32, (const unsigned char *)sg.scenario, sg.scenario_len, NULL, 0);
	if (g->have_logged_scenario && !memcmp(hash, g->logged_scenario, 32)) {
		/* and the attributes' defaults filled in, as the units were
		 * made with them */
		if ((err = ord_scenario_load_logged(&sc, sg.scenario, sg.scenario_len,
						    "the game's scenario")) == 0)
			ord_scenario_fill_defaults(&sc, g->rs->unit_attrs, &words);
	} else
		err = ord_scenario_load_checked(&sc, sg.scenario, sg.scenario_len,
						"the game's scenario", g->rs->unit_attrs, &words);
	if (!err) {
		ord_scenario_drop_positions(&sc);
		err = ord_game_rows_scenario(g, &sc, 0, first_difference, NULL, m);
	}
	ord_scenario_release(&sc);
	ord_store_game_release(&sg);
	return err;
}

/* ---- sides and units: the roster the turn's opening digests ---- */

void ord_game_sides_root(struct ord_game *g, unsigned char out[32])
{
	struct ord_digest d;
	size_t i;

	ord_digest_init(&d, ORD_SIDES_TAG);
	for (i = 0; i < g->nsides; i++)
		ord_digest_side(&d, g->sides[i].name, g->sides[i].title,
				g->sides[i].has_key ? g->sides[i].pubkey : NULL);
	ord_digest_final(&d, out);
}

void ord_game_roster_unit(struct ord_digest *d, const struct ord_store_unit *u)
{
	ord_digest_roster_unit(d, u->uid, u->side, u->name, u->attrs ? u->attrs : "");
}

/* The refusal of rows that do not give the root (key, "sides_root" or
 * "units_root") turn's opening, entry seq, logs as hex: what differs,
 * found as the audit finds it, against the scenario (its parse: a
 * refusal's cost only), else the root. */
static int roster_refuse(struct ord_game *g, int turn, int64_t seq, const char *key, const char *hex)
{
	struct ord_buf m = ORD_BUF_INIT, w = ORD_BUF_INIT;
	int err;

	if ((err = scenario_difference(g, &m)) != 0) {
		ord_buf_release(&m);
		return err;
	}
	if (m.len)
		ord_buf_addf(&w, "%s (tables side and unit, against the roster turn %d's opening, log entry %lld, digests)",
			     m.buf, turn, (long long)seq);
	else
		ord_buf_addf(&w, "the rows of table %s do not give the %s turn %d's opening (log entry %lld) logs, %s=%s",
			     !strcmp(key, "sides_root") ? "side" : "unit", key, turn,
			     (long long)seq, key, hex);
	err = refuse(g, w.buf);
	ord_buf_release(&m);
	ord_buf_release(&w);
	return err;
}

/* root against the one key of body (turn's opening, entry seq) logs:
 * 0 when it agrees, or logs none (an opening of an orderly before the
 * roster's roots: *logged 0), else the refusal. */
static int hold_root(struct ord_game *g, int turn, int64_t seq, const char *body, const char *key,
		     const unsigned char root[32], int *logged)
{
	unsigned char want[32];
	char *hex = ord_canon_get(body, key);
	int err = 0;

	if (logged)
		*logged = hex != NULL;
	if (!hex)
		return 0;
	if (ord_unhex(want, 32, hex) != 32 || memcmp(want, root, 32))
		err = roster_refuse(g, turn, seq, key, hex);
	free(hex);
	return err;
}

int ord_game_live_roster(struct ord_game *g, int turn, const unsigned char *sides,
			 const unsigned char *units, int *logged)
{
	char *body = NULL;
	int64_t seq = 0;
	int err;

	if (logged)
		*logged = 0;
	if ((err = ord_store_log_last(g->db, turn, "open", &body, &seq)) != 0)
		return err;
	if (sides)
		err = hold_root(g, turn, seq, body, "sides_root", sides, NULL);
	if (!err && units)
		err = hold_root(g, turn, seq, body, "units_root", units, logged);
	free(body);
	return err;
}

static int roster_row(void *ud, const struct ord_store_unit *u)
{
	ord_game_roster_unit(ud, u);
	return 0;
}

/* A unit row digested as the roster and added to the seal's context of
 * every unit (ord_game_live_units). */
struct roster_units {
	struct ord_digest *d;
	struct ord_ctx *units;
};

static int roster_unit_row(void *ud, const struct ord_store_unit *u)
{
	struct roster_units *r = ud;

	ord_game_roster_unit(r->d, u);
	return ord_game_add_unit(r->units, u);
}

/* The unit rows against the units_root turn's opening logs; an opening
 * that logs none held to the scenario (scenario), or not at all.  units
 * (NULL: none) as ord_game_live_units fills it. */
static int live_units(struct ord_game *g, int turn, int scenario, struct ord_ctx *units)
{
	struct ord_buf m = ORD_BUF_INIT;
	struct ord_digest d;
	unsigned char root[32];
	char *body = NULL, *logged;
	int64_t seq = 0;
	int err;

	if ((err = ord_store_log_last(g->db, turn, "open", &body, &seq)) != 0)
		return err;
	logged = ord_canon_get(body, "units_root");
	if (logged) {
		/* the unit rows against the units_root the turn's opening
		 * logs: their read and a hash, not the scenario's parse (at
		 * 10,000 units the seal took 0.75 G instructions with it); the
		 * side rows are held by ord_game_live_seed */
		ord_digest_init(&d, ORD_ROSTER_TAG);
		if (units) {
			/* and every unit with its state, in the same read, for
			 * the check of the sheets (ord_game_live_sheets_valid):
			 * the rows of the roster, a state each (units_now) */
			struct roster_units r = { &d, units };
			size_t bound = 0;
			if ((err = ord_store_unit_bound(g->db, &bound)) == 0) {
				ord_ctx_set_checks_only(units, bound + 1);
				err = ord_store_units_now(g->db, 0, NULL, roster_unit_row, &r);
			}
			if (!err)
				ord_ctx_index(units);
		} else {
			err = ord_store_roster_each(g->db, roster_row, &d);
		}
		if (!err) {
			ord_digest_final(&d, root);
			err = hold_root(g, turn, seq, body, "units_root", root, NULL);
		}
	} else if (scenario && (err = scenario_difference(g, &m)) == 0 && m.len) {
		/* an opening of an orderly before the roots: the scenario */
		struct ord_buf w = ORD_BUF_INIT;
		ord_buf_addf(&w, "%s (tables side and unit, against the scenario the log states)",
			     m.buf);
		err = refuse(g, w.buf);
		ord_buf_release(&w);
	}
	ord_buf_release(&m);
	free(logged);
	free(body);
	return err;
}

int ord_game_live_units(struct ord_game *g, int turn, struct ord_ctx *units)
{
	return live_units(g, turn, 1, units);
}

/* An opening of a commitment (a game with no referee) checks the sheet
 * against the unit rows as a submit does, after the seal, which held
 * commitments: a unit row changed while the host opened his own sheet
 * let a sheet the rules refuse be opened, played, and audited clean (a
 * red team's find).  So the rows are held to the roster first, as a seal
 * holds them (their states the first phase holds, and checks every
 * opened sheet again: ord_game_live_opened_valid); a turn opened before
 * the roots, as it was. */
int ord_game_live_units_rooted(struct ord_game *g, int turn)
{
	return live_units(g, turn, 0, NULL);
}

/*
 * A submit reads its own side's units and the units its sheet names, and
 * holds none of them to the log (the whole roster's hash would cost a
 * submit the game): a unit given to another side, or another kind, while
 * a sheet was submitted, and put back after, let a side order what the
 * rules refuse, sealed and played with the audit clean (a red team's find:
 * red ordered blue's hussars, B3 made red's for the submit).  The seal
 * holds every unit to the roster first, then checks each side's last sheet
 * again as its submit did: a sheet the rules refuse now was taken against
 * other rows.  With no referee the sheets come in after the seal, opened,
 * and the first phase checks them so.
 *
 * Each side's last sheet of turn (a stand-in the seal made aside) against
 * the rules and the unit rows as they are, which the caller held: taken
 * says how it came in ("submit", "opening").  In the context of every unit
 * the seal read with the roster (units, from ord_game_live_units), each
 * sheet in turn: a side's own context loaded again for each
 * (ord_game_check_bytes) cost the seal a quarter more at 10,000 units, the
 * side's units read once more and the units its sheet names looked up
 * (docs/benchmarks.md).  A unit is found there as in the submit's partial
 * context when each word names one unit at most
 * (ord_ctx_words_unambiguous): a game whose words do not, made before the
 * scenario refused them, or no units (NULL), is checked a side's context
 * at a time as before.
 */
static int sheets_valid(struct ord_game *g, int turn, const char *taken, struct ord_ctx *units)
{
	size_t i;
	int err, whole;

	whole = units && units->checks_only && ord_ctx_words_unambiguous(units);
	for (i = 0; i < g->nsides; i++) {
		struct ord_store_sheet s;
		struct ord_diag d;
		size_t k;

		if ((err = ord_store_sheet_read(g->db, turn, g->sides[i].id, 0, &s)) == ORD_ENOTFOUND) {
			ord_error_clear();
			continue;
		}
		if (err)
			return err;
		if (strcmp(s.source, "submitted")) { /* a stand-in the seal made */
			ord_store_sheet_release(&s);
			continue;
		}
		ord_diag_init(&d);
		if (whole)
			err = ord_game_check_bytes_in(g, units, g->sides[i].name, s.bytes, s.len, &d);
		else
			err = ord_game_check_bytes(g, turn, g->sides[i].name, s.bytes, s.len, &d,
						   NULL, NULL);
		/* a check only reads the units: one that changed a state (a
		 * module's slip) leaves the next sides to contexts of their
		 * own, as their submits had */
		for (k = 0; whole && k < units->nunits; k++)
			if (!ord_kv_held(&units->units[k].state))
				whole = 0;
		if (err == ORD_EBADSHEET) {
			struct ord_buf m = ORD_BUF_INIT;
			ord_error_clear();
			ord_buf_addf(&m, "the sheet of %s, version %d, of turn %d (table sheet), which its %s took, is refused by the rules against the units as the turn's opening digests them (",
				     g->sides[i].name, s.version, turn, taken);
			if (d.n) {
				ord_buf_adds(&m, "line ");
				ord_diag_item_place(&m, &d.items[0], NULL);
			}
			ord_buf_addf(&m, "): a unit's row was another while it was %s",
				     strcmp(taken, "submit") ? "opened" : "submitted");
			err = refuse(g, m.buf);
			ord_buf_release(&m);
		}
		ord_diag_release(&d);
		ord_store_sheet_release(&s);
		if (err)
			return err;
	}
	return 0;
}

static int roster_logged(struct ord_game *g, int turn, int *logged)
{
	char *body = NULL, *roots;
	int err;

	*logged = 0;
	if ((err = ord_store_log_last(g->db, turn, "open", &body, NULL)) != 0)
		return err;
	roots = ord_canon_get(body, "units_root");
	*logged = roots != NULL;
	free(roots);
	free(body);
	return 0;
}

int ord_game_live_sheets_valid(struct ord_game *g, int turn, struct ord_ctx *units, int *checked)
{
	int err, logged;

	*checked = 0;
	if (g->refereeless)
		return 0;
	if ((err = roster_logged(g, turn, &logged)) != 0 || !logged)
		return err; /* opened by an orderly before the roots */
	if ((err = sheets_valid(g, turn, "submit", units)) != 0)
		return err;
	*checked = 1;
	return 0;
}

int ord_game_live_opened_valid(struct ord_game *g, int turn)
{
	int err, logged;

	if (!g->refereeless)
		return 0;
	if ((err = roster_logged(g, turn, &logged)) != 0 || !logged)
		return err;
	return sheets_valid(g, turn, "opening", NULL);
}
