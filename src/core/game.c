/*
 * game.c - creating and opening a game file, the hash-chained log, turn
 * opening, loading a module context, and `info`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/canon.h"
#include "core/game.h"
#include "core/game_mail.h"
#include "core/scenario.h"

/* ---- small SQL helpers ---- */

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? (const char *)s : "";
}

static int col_blob(sqlite3_stmt *st, int i, unsigned char *out, size_t len)
{
	if (sqlite3_column_type(st, i) != SQLITE_BLOB || (size_t)sqlite3_column_bytes(st, i) != len)
		return -1;
	memcpy(out, sqlite3_column_blob(st, i), len);
	return 0;
}

size_t ord_game_nphases(const struct ord_game *g)
{
	size_t n = 0;

	while (g->rs->phases && g->rs->phases[n])
		n++;
	return n;
}

const struct ord_game_side *ord_game_side_by_name(const struct ord_game *g, const char *name)
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

int ord_game_may_change(struct ord_game *g)
{
	if (g->in_transact)
		return ord_error_set(ORD_ESTATE,
				     "a change of the game cannot be made inside ord_game_transact");
	return 0;
}

int ord_game_transact(ord_game *g, int (*fn)(void *ud, ord_game *g), void *ud)
{
	int err;

	if ((err = ord_game_may_change(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
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

/* ---- the log ---- */

int ord_game_log(struct ord_game *g, int64_t *seq, int turn, const char *kind, const char *body)
{
	sqlite3_stmt *st = NULL;
	unsigned char prev[32] = { 0 }, hash[32];
	int64_t n = 0, at = (int64_t)time(NULL);
	int err = 0;

	if ((err = ord_store_prepare(g->db, &st, "SELECT seq, hash FROM log_head")) != 0)
		return err;
	/* no head yet: the first entry of a new game */
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	if (n > 0 && col_blob(st, 1, prev, 32)) {
		err = ord_error_set(ORD_ETAMPERED, "the log head is damaged");
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	n++;
	ord_log_hash(hash, prev, n, turn, kind, body, at);
	if ((err = ord_store_prepare(g->db, &st,
				     "INSERT INTO log(seq, turn, kind, body, at, prev, hash) VALUES (?,?,?,?,?,?,?)")) !=
	    0)
		goto out;
	sqlite3_bind_int64(st, 1, n);
	sqlite3_bind_int(st, 2, turn);
	sqlite3_bind_text(st, 3, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, body, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, at);
	sqlite3_bind_blob(st, 6, prev, 32, SQLITE_STATIC);
	sqlite3_bind_blob(st, 7, hash, 32, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		err = ord_store_error(g->db, "writing the log");
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	if ((err = ord_store_prepare(g->db, &st,
				     "INSERT INTO log_head(id, seq, hash) VALUES (1, ?, ?) "
				     "ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash")) !=
	    0)
		goto out;
	sqlite3_bind_int64(st, 1, n);
	sqlite3_bind_blob(st, 2, hash, 32, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		err = ord_store_error(g->db, "writing the log head");
		goto out;
	}
	*seq = n;
out:
	sqlite3_finalize(st);
	return err;
}

/* ---- turns ---- */

int ord_game_turn(struct ord_game *g, struct ord_turn *t, int turn)
{
	sqlite3_stmt *st = NULL;
	int err = 0, rc;

	memset(t, 0, sizeof(*t));
	if ((err = ord_store_prepare(g->db, &st,
				     turn > 0 ? "SELECT turn, state, phase, deadline, seed, seed_commitment, dice_key FROM turn WHERE turn = ?"
					      : "SELECT turn, state, phase, deadline, seed, seed_commitment, dice_key FROM turn ORDER BY turn DESC LIMIT 1")) !=
	    0)
		return err;
	if (turn > 0)
		sqlite3_bind_int(st, 1, turn);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		err = rc == SQLITE_DONE
			      ? ord_error_set(ORD_ENOTFOUND, "no turn %d in this game", turn)
			      : ord_store_error(g->db, "reading the turn");
		goto out;
	}
	t->turn = sqlite3_column_int(st, 0);
	snprintf(t->state, sizeof(t->state), "%s", col_text(st, 1));
	t->phase = sqlite3_column_int(st, 2);
	t->deadline = sqlite3_column_int64(st, 3);
	if (col_blob(st, 4, t->seed, 32) || col_blob(st, 5, t->seed_commitment, 32)) {
		err = ord_error_set(ORD_ETAMPERED, "turn %d: seed damaged", t->turn);
		goto out;
	}
	t->have_dice_key = !col_blob(st, 6, t->dice_key, 32);
out:
	sqlite3_finalize(st);
	return err;
}

int ord_game_open_turn(struct ord_game *g, int n)
{
	unsigned char seed[32], commitment[32];
	struct ord_buf body = ORD_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int64_t seq, deadline = 0;
	int err;

	randombytes_buf(seed, sizeof(seed));
	ord_commit_seed(commitment, g->game_id, n, seed);
	ord_canon_open(&body, n, commitment);
	if ((err = ord_game_log(g, &seq, n, "open", body.buf)) != 0)
		goto out;
	if ((err = ord_store_prepare(g->db, &st,
				     "INSERT INTO turn(turn, state, phase, seed, seed_commitment, log_seq) VALUES (?, 'open', 0, ?, ?, ?)")) !=
	    0)
		goto out;
	sqlite3_bind_int(st, 1, n);
	sqlite3_bind_blob(st, 2, seed, 32, SQLITE_STATIC);
	sqlite3_bind_blob(st, 3, commitment, 32, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, seq);
	if (sqlite3_step(st) != SQLITE_DONE) {
		err = ord_store_error(g->db, "opening the turn");
		goto out;
	}
	/* mail: the deadline from the game's schedule (game_mail.c), logged as
	 * `orderly deadline` logs one */
	if ((err = ord_game_mail_next_deadline(g, n, &deadline)) != 0 || !deadline)
		goto out;
	ord_buf_reset(&body);
	ord_buf_addf(&body, "turn=%d\ndeadline=%lld\n", n, (long long)deadline);
	sqlite3_finalize(st);
	st = NULL;
	if ((err = ord_game_log(g, &seq, n, "deadline", body.buf)) != 0 ||
	    (err = ord_store_prepare(g->db, &st, "UPDATE turn SET deadline = ? WHERE turn = ?")) != 0)
		goto out;
	sqlite3_bind_int64(st, 1, deadline);
	sqlite3_bind_int(st, 2, n);
	if (sqlite3_step(st) != SQLITE_DONE)
		err = ord_store_error(g->db, "setting the deadline");
out:
	sodium_memzero(seed, sizeof(seed));
	sqlite3_finalize(st);
	ord_buf_release(&body);
	return err;
}

int ord_game_latest(struct ord_game *g, int turn, int64_t side_id, int *version,
		    unsigned char commitment[32], int *opened)
{
	sqlite3_stmt *st = NULL;
	int err = 0, rc;

	*version = 0;
	*opened = 0;
	/* a version is a sheet row, a commitment row, or both once opened */
	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT version, commitment, 1 FROM sheet WHERE turn = ?1 AND side_id = ?2 "
				     "UNION ALL SELECT version, commitment, 0 FROM commitment WHERE turn = ?1 AND side_id = ?2 "
				     "ORDER BY 1 DESC, 3 DESC")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int64(st, 2, side_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int v = sqlite3_column_int(st, 0);
		if (*version && v != *version)
			break;
		if (!*version) {
			*version = v;
			if (col_blob(st, 1, commitment, 32)) {
				err = ord_error_set(ORD_ETAMPERED,
						    "turn %d: a commitment is damaged", turn);
				break;
			}
		}
		if (sqlite3_column_int(st, 2))
			*opened = 1;
	}
	if (!err && rc != SQLITE_ROW && rc != SQLITE_DONE)
		err = ord_store_error(g->db, "reading commitments");
	sqlite3_finalize(st);
	return err;
}

int ord_game_dice_key(struct ord_game *g, int turn, const unsigned char seed[32], unsigned char out[32])
{
	sqlite3_stmt *st = NULL;
	struct ord_digest d;
	size_t i;
	int err = 0, rc;

	if (g->refereeless) {
		/* the sealed version of every side, with the nonce it was opened with */
		if ((err = ord_store_prepare(g->db, &st,
					     "SELECT nonce, commitment FROM sheet WHERE turn = ? AND side_id = ? AND version = ?")) !=
		    0)
			return err;
		ord_dice_key_begin(&d, 1, g->game_id, turn, seed);
		for (i = 0; i < g->nsides; i++) {
			unsigned char c[32];
			int version, opened;

			if ((err = ord_game_latest(g, turn, g->sides[i].id, &version, c, &opened)) != 0)
				goto out;
			if (!version || !opened) {
				err = ord_error_set(ORD_ESTATE, "turn %d: %s has %s", turn,
						    g->sides[i].name,
						    version ? "not opened its sheet yet"
							    : "not committed");
				goto out;
			}
			sqlite3_reset(st);
			sqlite3_bind_int(st, 1, turn);
			sqlite3_bind_int64(st, 2, g->sides[i].id);
			sqlite3_bind_int(st, 3, version);
			if (sqlite3_step(st) != SQLITE_ROW || sqlite3_column_bytes(st, 0) != 32) {
				err = ord_error_set(ORD_ETAMPERED,
						    "turn %d: the sheet of %s is damaged", turn,
						    g->sides[i].name);
				goto out;
			}
			ord_dice_key_side(&d, g->sides[i].name, c, sqlite3_column_blob(st, 0));
		}
		ord_digest_final(&d, out);
		goto out;
	}
	/* the latest version of every side's sheet, in side order */
	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT side.name, sheet.commitment FROM sheet JOIN side ON side.id = sheet.side_id "
				     "WHERE sheet.turn = ?1 AND sheet.version = (SELECT max(version) FROM sheet s2 "
				     "WHERE s2.turn = ?1 AND s2.side_id = sheet.side_id) ORDER BY side.id")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	ord_dice_key_begin(&d, 0, g->game_id, turn, seed);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		unsigned char c[32] = { 0 };
		if (sqlite3_column_bytes(st, 1) == 32)
			memcpy(c, sqlite3_column_blob(st, 1), 32);
		ord_dice_key_side(&d, col_text(st, 0), c, NULL);
	}
	if (rc != SQLITE_DONE)
		err = ord_store_error(g->db, "reading commitments");
	ord_digest_final(&d, out);
out:
	sqlite3_finalize(st);
	return err;
}

int ord_game_phase_digest(struct ord_game *g, int64_t log_seq, unsigned char out[32], int *nrolls,
			  int *nresults, int *nstates)
{
	sqlite3_stmt *st = NULL;
	struct ord_digest d;
	int err = 0, rc;

	*nrolls = *nresults = *nstates = 0;
	ord_digest_init(&d, ORD_PHASE_TAG);
	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT turn, phase, event_seq, purpose, idx, sides, value, fixed FROM roll WHERE log_seq = ? ORDER BY id")) !=
	    0)
		return err;
	sqlite3_bind_int64(st, 1, log_seq);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ord_digest_roll(&d, sqlite3_column_int(st, 0), col_text(st, 1),
				sqlite3_column_int(st, 2), col_text(st, 3),
				sqlite3_column_int(st, 4), sqlite3_column_int(st, 5),
				sqlite3_column_int(st, 6), sqlite3_column_int(st, 7));
		(*nrolls)++;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE)
		return ord_store_error(g->db, "reading rolls");
	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT turn, phase, event_seq, unit, vals, explanation FROM result WHERE log_seq = ? ORDER BY id")) !=
	    0)
		return err;
	sqlite3_bind_int64(st, 1, log_seq);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ord_digest_result(&d, sqlite3_column_int(st, 0), col_text(st, 1),
				  sqlite3_column_int(st, 2), col_text(st, 3), col_text(st, 4),
				  col_text(st, 5));
		(*nresults)++;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE)
		return ord_store_error(g->db, "reading results");
	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT unit.uid, unit.attrs, us.turn, us.phase, us.state FROM unit_state us "
				     "JOIN unit ON unit.id = us.unit_id WHERE us.log_seq = ? ORDER BY us.unit_id")) !=
	    0)
		return err;
	sqlite3_bind_int64(st, 1, log_seq);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ord_digest_state(&d, col_text(st, 0), col_text(st, 1), sqlite3_column_int(st, 2),
				 sqlite3_column_int(st, 3), col_text(st, 4));
		(*nstates)++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return ord_store_error(g->db, "reading unit states");
	ord_digest_final(&d, out);
	return err;
}

/* ---- loading ---- */

static int load_game(struct ord_game *g)
{
	sqlite3_stmt *st = NULL;
	const void *tables;
	int tables_len;
	int err = 0, rc;

	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT game_id, ruleset, title, nmr, fixed_dice, tables, referee_pubkey, "
				     "referee_seckey, refereeless FROM game")) != 0)
		return err;
	if (sqlite3_step(st) != SQLITE_ROW || col_blob(st, 0, g->game_id, 16)) {
		err = ord_error_set(ORD_ENOTGAME, "'%s' has no game record", g->path);
		goto out;
	}
	if ((err = ord_ruleset_find(&g->rs, col_text(st, 1))) != 0)
		goto out;
	g->title = ord_strdup(col_text(st, 2));
	g->nmr = ord_strdup(col_text(st, 3));
	g->fixed_dice = sqlite3_column_int(st, 4);
	g->have_pk = !col_blob(st, 6, g->pk, 32);
	g->have_sk = g->have_pk && !col_blob(st, 7, g->sk, 64);
	if (g->have_sk && memcmp(g->sk + 32, g->pk, 32)) {
		err = ord_error_set(ORD_ETAMPERED,
				    "'%s': the game's secret key does not match its public key",
				    g->path);
		goto out;
	}
	g->refereeless = sqlite3_column_int(st, 8);
	if ((err = ord_notation_find(&g->notation, g->rs->notation)) != 0) {
		err = ord_error_set(ORD_ERROR, "ruleset '%s' needs notation '%s': %s", g->rs->name,
				    g->rs->notation, ord_error_last());
		goto out;
	}
	/* the game keeps the tables it was created with */
	tables = sqlite3_column_blob(st, 5);
	tables_len = sqlite3_column_bytes(st, 5);
	if ((err = g->rs->load(&g->rules, tables, tables ? (size_t)tables_len : 0,
			       tables ? "the game's tables" : NULL)) != 0)
		goto out;
	sqlite3_finalize(st);
	st = NULL;
	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT id, name, title, pubkey FROM side ORDER BY id")) != 0)
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ord_game_side *sd;
		g->sides = ord_xrealloc(g->sides, (g->nsides + 1) * sizeof(*g->sides));
		sd = &g->sides[g->nsides++];
		memset(sd, 0, sizeof(*sd));
		sd->id = sqlite3_column_int64(st, 0);
		sd->name = ord_strdup(col_text(st, 1));
		sd->title = ord_strdup(col_text(st, 2));
		sd->has_key = !col_blob(st, 3, sd->pubkey, 32);
	}
	if (rc != SQLITE_DONE)
		err = ord_store_error(g->db, "reading sides");
out:
	sqlite3_finalize(st);
	return err;
}

int ord_game_open(ord_game **out, const char *path)
{
	struct ord_game *g;
	int err;

	*out = NULL;
	if ((err = ord_crypto_init()) != 0)
		return err;
	g = ord_xcalloc(1, sizeof(*g));
	g->path = ord_strdup(path);
	if ((err = ord_store_open(&g->db, path)) != 0 || (err = load_game(g)) != 0) {
		ord_game_free(g);
		return err;
	}
	*out = g;
	return 0;
}

void ord_game_free(ord_game *g)
{
	size_t i;

	if (!g)
		return;
	if (g->rules && g->rs)
		g->rs->free(g->rules);
	ord_store_close(g->db);
	for (i = 0; i < g->nsides; i++) {
		free(g->sides[i].name);
		free(g->sides[i].title);
	}
	free(g->sides);
	free(g->title);
	free(g->nmr);
	free(g->path);
	sodium_memzero(g->sk, sizeof(g->sk));
	free(g);
}

/* ---- creating ---- */

static int insert_sides_units(struct ord_game *g, const struct ord_scenario *sc, struct ord_diag *diag)
{
	sqlite3_stmt *side = NULL, *unit = NULL, *state = NULL;
	struct ord_buf attrs = ORD_BUF_INIT, body = ORD_BUF_INIT;
	char **states = ord_xcalloc(sc->nunits + 1, sizeof(*states));
	struct ord_digest d;
	unsigned char digest[32];
	int64_t seq;
	size_t i;
	int err = 0;

	if ((err = ord_store_prepare(g->db, &side,
				     "INSERT INTO side(name, title, pubkey) VALUES (?,?,?)")) != 0 ||
	    (err = ord_store_prepare(g->db, &unit,
				     "INSERT INTO unit(uid, name, side_id, attrs) VALUES (?,?,?,?)")) !=
		    0)
		goto out;
	for (i = 0; i < sc->nsides; i++) {
		unsigned char pk[32];
		sqlite3_reset(side);
		sqlite3_bind_text(side, 1, sc->sides[i].id, -1, SQLITE_STATIC);
		sqlite3_bind_text(side, 2, sc->sides[i].name, -1, SQLITE_STATIC);
		if (sc->sides[i].pubkey && ord_unhex(pk, 32, sc->sides[i].pubkey) == 32)
			sqlite3_bind_blob(side, 3, pk, 32, SQLITE_TRANSIENT);
		else
			sqlite3_bind_null(side, 3);
		if (sqlite3_step(side) != SQLITE_DONE) {
			err = ord_store_error(g->db, "storing sides");
			goto out;
		}
		g->sides = ord_xrealloc(g->sides, (g->nsides + 1) * sizeof(*g->sides));
		memset(&g->sides[g->nsides], 0, sizeof(g->sides[g->nsides]));
		g->sides[g->nsides].id = sqlite3_last_insert_rowid(g->db);
		g->sides[g->nsides].name = ord_strdup(sc->sides[i].id);
		g->sides[g->nsides].title = ord_strdup(sc->sides[i].name);
		if (sc->sides[i].pubkey && ord_unhex(pk, 32, sc->sides[i].pubkey) == 32) {
			g->sides[g->nsides].has_key = 1;
			memcpy(g->sides[g->nsides].pubkey, pk, 32);
		}
		g->nsides++;
	}
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
		sqlite3_reset(unit);
		sqlite3_bind_text(unit, 1, su->id, -1, SQLITE_STATIC);
		sqlite3_bind_text(unit, 2, su->name, -1, SQLITE_STATIC);
		sqlite3_bind_int64(unit, 3, ord_game_side_by_name(g, su->side)->id);
		sqlite3_bind_text(unit, 4, attrs.buf, -1, SQLITE_STATIC);
		if (sqlite3_step(unit) != SQLITE_DONE) {
			err = ord_store_error(g->db, "storing units");
			goto out;
		}
		ord_digest_state(&d, su->id, attrs.buf, 0, 0, states[i]);
	}
	ord_digest_final(&d, digest);
	ord_buf_addf(&body, "units=%zu\nrolls=0\nresults=0\nstates=%zu\ndigest=", sc->nunits,
		     sc->nunits);
	ord_buf_add_hex(&body, digest, 32);
	ord_buf_addch(&body, '\n');
	if ((err = ord_game_log(g, &seq, 0, "units", body.buf)) != 0)
		goto out;
	/* units were inserted in order, so their row ids are 1..n */
	if ((err = ord_store_prepare(g->db, &state,
				     "INSERT INTO unit_state(unit_id, turn, phase, state, log_seq) VALUES (?, 0, 0, ?, ?)")) !=
	    0)
		goto out;
	for (i = 0; i < sc->nunits; i++) {
		sqlite3_reset(state);
		sqlite3_bind_int64(state, 1, (int64_t)i + 1);
		sqlite3_bind_text(state, 2, states[i], -1, SQLITE_STATIC);
		sqlite3_bind_int64(state, 3, seq);
		if (sqlite3_step(state) != SQLITE_DONE) {
			err = ord_store_error(g->db, "storing unit states");
			goto out;
		}
	}
out:
	for (i = 0; i < sc->nunits; i++)
		free(states[i]);
	free(states);
	sqlite3_finalize(side);
	sqlite3_finalize(unit);
	sqlite3_finalize(state);
	ord_buf_release(&attrs);
	ord_buf_release(&body);
	return err;
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

int ord_game_create(ord_game **out, const char *path, const char *scenario_path,
		    const struct ord_create_opts *opts)
{
	struct ord_scenario sc;
	struct ord_game *g = NULL;
	struct ord_diag diag;
	struct ord_buf body = ORD_BUF_INIT;
	sqlite3_stmt *st = NULL;
	char *tables = NULL, *scenario = NULL;
	size_t tables_len = 0, scenario_len = 0;
	unsigned char h[32];
	const char *rsname;
	int64_t seq;
	int err, created = 0;

	*out = NULL;
	ord_scenario_init(&sc);
	ord_diag_init(&diag);
	if ((err = ord_crypto_init()) != 0)
		return err;
	g = ord_xcalloc(1, sizeof(*g));
	g->path = ord_strdup(path);
	if (access(path, F_OK) == 0) {
		err = ord_error_set(ORD_EEXISTS, "'%s' already exists; a new game needs a new file",
				    path);
		goto out;
	}
	if ((err = ord_read_file(&scenario, &scenario_len, scenario_path, 16u << 20)) != 0 ||
	    (err = ord_scenario_load(&sc, scenario, scenario_len, scenario_path)) != 0)
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
	if ((err = ord_scenario_check_attrs(&sc, g->rs->unit_attrs, scenario_path)) != 0)
		goto out;
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
	/* the tables in force are copied into the game */
	if (opts && opts->tables_path) {
		if ((err = ord_read_file(&tables, &tables_len, opts->tables_path, 16u << 20)) != 0)
			goto out;
	} else if (g->rs->tables_resource) {
		const struct ord_resource *r = ord_resource_find(g->rs->tables_resource);
		if (!r) {
			err = ord_error_set(ORD_ERROR, "tables '%s' are not built in",
					    g->rs->tables_resource);
			goto out;
		}
		tables = ord_xmalloc(r->len + 1);
		memcpy(tables, r->data, r->len + 1);
		tables_len = r->len;
	}
	if ((err = g->rs->load(&g->rules, tables, tables_len,
			       opts && opts->tables_path ? opts->tables_path
							 : g->rs->tables_resource)) != 0)
		goto out;

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
	g->title = ord_strdup(sc.title);
	g->nmr = ord_strdup(sc.nmr);
	g->fixed_dice = opts && opts->fixed_dice;
	if ((err = ord_store_begin(g->db)) != 0)
		goto out;
	if ((err = ord_store_prepare(g->db, &st,
				     "INSERT INTO game(id, game_id, ruleset, title, nmr, fixed_dice, scenario, tables, created, "
				     "referee_pubkey, referee_seckey, refereeless) VALUES (1,?,?,?,?,?,?,?,?,?,?,?)")) !=
	    0)
		goto out;
	sqlite3_bind_blob(st, 1, g->game_id, 16, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, g->rs->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, sc.title, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, sc.nmr, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, g->fixed_dice);
	sqlite3_bind_blob(st, 6, scenario, (int)scenario_len, SQLITE_STATIC);
	if (tables)
		sqlite3_bind_blob(st, 7, tables, (int)tables_len, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 7);
	sqlite3_bind_int64(st, 8, (int64_t)time(NULL));
	sqlite3_bind_blob(st, 9, g->pk, 32, SQLITE_STATIC);
	if (opts && opts->key)
		sqlite3_bind_null(st, 10); /* the referee keeps it in his file */
	else
		sqlite3_bind_blob(st, 10, g->sk, 64, SQLITE_STATIC);
	sqlite3_bind_int(st, 11, g->refereeless);
	if (sqlite3_step(st) != SQLITE_DONE) {
		err = ord_store_error(g->db, "creating the game");
		goto out;
	}
	ord_buf_adds(&body, "game_id=");
	ord_buf_add_hex(&body, g->game_id, 16);
	ord_buf_addf(&body, "\nruleset=%s\nnmr=%s\nfixed_dice=%d\nscenario=", g->rs->name, sc.nmr,
		     g->fixed_dice);
	crypto_generichash(h, 32, (const unsigned char *)scenario, scenario_len, NULL, 0);
	ord_buf_add_hex(&body, h, 32);
	ord_buf_adds(&body, "\ntables=");
	crypto_generichash(h, 32, (const unsigned char *)(tables ? tables : ""), tables_len, NULL, 0);
	ord_buf_add_hex(&body, h, 32);
	ord_buf_adds(&body, "\nkey=");
	ord_buf_add_hex(&body, g->pk, 32);
	ord_buf_addch(&body, '\n');
	if (g->refereeless)
		ord_buf_adds(&body, "referee=no\n");
	if ((err = ord_game_log(g, &seq, 0, "create", body.buf)) != 0 ||
	    (err = insert_sides_units(g, &sc, &diag)) != 0)
		goto out;
	/* mail: addresses and the schedule, logged before turn 1 opens */
	if ((err = ord_game_mail_create(g, &sc)) != 0)
		goto out;
	if ((err = ord_game_open_turn(g, 1)) != 0)
		goto out;
	if (sc.deadline) {
		/* the scenario's deadline is announced; the schedule's grace follows it */
		ord_buf_reset(&body);
		ord_buf_addf(&body, "turn=1\ndeadline=%lld\n",
			     (long long)(sc.deadline + sc.schedule.grace));
		sqlite3_finalize(st);
		st = NULL;
		if ((err = ord_game_log(g, &seq, 1, "deadline", body.buf)) != 0 ||
		    (err = ord_store_prepare(g->db, &st,
					     "UPDATE turn SET deadline = ? WHERE turn = 1")) != 0)
			goto out;
		sqlite3_bind_int64(st, 1, sc.deadline + sc.schedule.grace);
		if (sqlite3_step(st) != SQLITE_DONE) {
			err = ord_store_error(g->db, "setting the deadline");
			goto out;
		}
	}
	err = ord_store_commit(g->db);
out:
	if (err && diag.n) {
		struct ord_buf m = ORD_BUF_INIT;
		ord_diag_format(&diag, scenario_path, &m);
		ord_error_set(err, "%s", m.buf);
		ord_buf_release(&m);
	}
	sqlite3_finalize(st);
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
		return err;
	}
	*out = g;
	return 0;
}

/* ---- loading a module context ---- */

int ord_game_parse_sheet(struct ord_game *g, struct ord_sheet *out, const char *bytes, size_t len,
			 struct ord_diag *diag)
{
	return g->notation->parse(out, bytes, len, diag);
}

int ord_game_load_ctx(struct ord_game *g, struct ord_ctx *ctx, int turn, int with_orders,
		      const char *phase)
{
	sqlite3_stmt *st = NULL;
	int err = 0, rc;

	ord_ctx_init(ctx, g->rs, g->rules, turn);
	/* every unit with its latest state */
	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT unit.uid, unit.name, side.name, unit.attrs, "
				     "(SELECT state FROM unit_state us WHERE us.unit_id = unit.id AND us.turn <= ? "
				     "ORDER BY turn DESC, phase DESC LIMIT 1) "
				     "FROM unit JOIN side ON side.id = unit.side_id ORDER BY unit.id")) !=
	    0)
		return err;
	/* the state as of the end of turn (now, for the current turn) */
	sqlite3_bind_int(st, 1, turn);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		ord_ctx_add_unit(ctx, col_text(st, 0), col_text(st, 1), col_text(st, 2),
				 col_text(st, 3), col_text(st, 4));
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE)
		return ord_store_error(g->db, "reading units");
	ord_ctx_index(ctx);
	if (with_orders) {
		if ((err = ord_store_prepare(g->db, &st,
					     "SELECT side.name, sheet.bytes FROM sheet JOIN side ON side.id = sheet.side_id "
					     "WHERE sheet.turn = ?1 AND sheet.version = (SELECT max(version) FROM sheet s2 "
					     "WHERE s2.turn = ?1 AND s2.side_id = sheet.side_id) ORDER BY side.id")) !=
		    0)
			return err;
		sqlite3_bind_int(st, 1, turn);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			struct ord_sheet sheet;
			struct ord_diag diag;

			ord_sheet_init(&sheet);
			ord_diag_init(&diag);
			/* a stored sheet was valid when it was accepted */
			ord_game_parse_sheet(g, &sheet, sqlite3_column_blob(st, 1),
					     (size_t)sqlite3_column_bytes(st, 1), &diag);
			ord_ctx_attach_sheet(ctx, &sheet, col_text(st, 0));
			ord_diag_release(&diag);
		}
		sqlite3_finalize(st);
		st = NULL;
		if (rc != SQLITE_DONE)
			return ord_store_error(g->db, "reading sheets");
	}
	if (phase) {
		if ((err = ord_store_prepare(g->db, &st,
					     "SELECT seq, phase, kind, args, override, checks FROM event WHERE turn = ? "
					     "AND (phase = ? OR ? = '*') ORDER BY seq")) != 0)
			return err;
		sqlite3_bind_int(st, 1, turn);
		sqlite3_bind_text(st, 2, phase, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, phase, -1, SQLITE_STATIC);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			ord_ctx_add_event(ctx, (unsigned)sqlite3_column_int(st, 0), col_text(st, 1),
					  col_text(st, 2), col_text(st, 3),
					  sqlite3_column_type(st, 4) == SQLITE_NULL ? NULL
										    : col_text(st, 4),
					  col_text(st, 5));
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return ord_store_error(g->db, "reading events");
	}
	return 0;
}

/* ---- info ---- */

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

int ord_game_info(ord_game *g, struct ord_buf *out, int xml)
{
	struct ord_turn t;
	sqlite3_stmt *st = NULL;
	char gid[33], when[32], key[65];
	size_t nph = ord_game_nphases(g), i;
	const char *phase;
	struct ord_schedule sched;
	int err, passed;

	if ((err = ord_game_turn(g, &t, 0)) != 0)
		return err;
	ord_hex(gid, g->game_id, 16);
	if (g->have_pk)
		ord_hex(key, g->pk, 32);
	else
		snprintf(key, sizeof(key), "%s", "");
	fmt_time(when, sizeof(when), t.deadline);
	passed = t.deadline && !strcmp(t.state, "open") && ord_game_now(g) > t.deadline;
	if ((err = ord_game_schedule(g, &sched)) != 0)
		return err;
	phase = !strcmp(t.state, "sealed") && (size_t)t.phase < nph ? g->rs->phases[t.phase] : "";
	if (xml) {
		ord_buf_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<game id=\"");
		ord_buf_adds(out, gid);
		ord_buf_adds(out, "\" ruleset=\"");
		ord_buf_add_xml(out, g->rs->name);
		ord_buf_addf(out, "\" turn=\"%d\" state=\"%s\" phase=\"", t.turn, t.state);
		ord_buf_add_xml(out, phase);
		ord_buf_addf(out,
			     "\" deadline=\"%s\" nmr=\"%s\" fixed-dice=\"%s\" key=\"%s\" referee=\"%s\"",
			     when, g->nmr, g->fixed_dice ? "yes" : "no", key,
			     g->refereeless ? "no" : "yes");
		/* mail: deadline passed, schedule */
		ord_buf_addf(out, " deadline-passed=\"%s\" schedule=\"", passed ? "yes" : "no");
		ord_schedule_format(&sched, out);
		ord_buf_adds(out, "\">\n  <title>");
		ord_buf_add_xml(out, g->title);
		ord_buf_adds(out, "</title>\n");
	} else {
		ord_buf_addf(out, "game:      %s\nruleset:   %s\ngame id:   %s\n", g->title,
			     g->rs->name, gid);
		ord_buf_addf(out, "key:       %s\n", *key ? key : "none yet (made at the next seal)");
		if (g->refereeless)
			ord_buf_adds(out,
				     "referee:   none: each side sends a signed commitment, and opens it after the seal\n");
		ord_buf_addf(out, "turn:      %d (%s)\n", t.turn, t.state);
		if (*phase)
			ord_buf_addf(out, "phase:     %s (%d of %zu resolved)\n", phase, t.phase, nph);
		ord_buf_addf(out, "deadline:  %s\n", when);
		/* mail: whether it has passed, and the rule of the next ones */
		if (passed)
			ord_buf_adds(out,
				     "           the deadline has passed: no more sheets are taken; the turn can be sealed\n");
		if (sched.every) {
			ord_buf_adds(out, "schedule:  ");
			ord_schedule_format(&sched, out);
			ord_buf_addch(out, '\n');
		}
		ord_buf_addf(out, "nmr:       %s\n", g->nmr);
		if (g->fixed_dice)
			ord_buf_adds(out, "dice:      fixed by the referee (a test game)\n");
		ord_buf_adds(out, "sides:\n");
	}
	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT max(version), min(source) FROM sheet WHERE turn = ? AND side_id = ?")) !=
	    0)
		return err;
	for (i = 0; i < g->nsides; i++) {
		int v = 0, lv = 0, opened = 0;
		const char *source = "";
		unsigned char c[32];
		char skey[65] = "";

		if (g->sides[i].has_key)
			ord_hex(skey, g->sides[i].pubkey, 32);
		if (g->refereeless &&
		    (err = ord_game_latest(g, t.turn, g->sides[i].id, &lv, c, &opened)) != 0) {
			sqlite3_finalize(st);
			return err;
		}
		sqlite3_reset(st);
		sqlite3_bind_int(st, 1, t.turn);
		sqlite3_bind_int64(st, 2, g->sides[i].id);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
			v = sqlite3_column_int(st, 0);
			source = col_text(st, 1);
		}
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
			ord_buf_adds(out, "/>\n");
		} else if (g->refereeless && lv) {
			ord_buf_addf(out, "  %-12s %s (version %d)%s\n", g->sides[i].name,
				     opened ? "opened" : "committed, not opened", lv,
				     opened && strcmp(source, "submitted") ? ": NMR policy applied"
									   : "");
		} else if (!v) {
			ord_buf_addf(out, "  %-12s not submitted\n", g->sides[i].name);
		} else if (strcmp(source, "submitted")) {
			ord_buf_addf(out, "  %-12s no sheet: NMR policy '%s' applied\n",
				     g->sides[i].name, source);
		} else {
			ord_buf_addf(out, "  %-12s submitted (version %d)\n", g->sides[i].name, v);
		}
	}
	sqlite3_finalize(st);
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
	return 0;
}

int ord_game_set_deadline(ord_game *g, int64_t when)
{
	struct ord_turn t;
	struct ord_buf body = ORD_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int64_t seq;
	int err;

	if ((err = ord_game_may_change(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0)
		goto out;
	if (strcmp(t.state, "open")) {
		err = ord_error_set(ORD_ESEALED, "turn %d is %s: its deadline can no longer change",
				    t.turn, t.state);
		goto out;
	}
	ord_buf_addf(&body, "turn=%d\ndeadline=%lld\n", t.turn, (long long)when);
	if ((err = ord_game_log(g, &seq, t.turn, "deadline", body.buf)) != 0 ||
	    (err = ord_store_prepare(g->db, &st, "UPDATE turn SET deadline = ? WHERE turn = ?")) != 0)
		goto out;
	if (when)
		sqlite3_bind_int64(st, 1, when);
	else
		sqlite3_bind_null(st, 1);
	sqlite3_bind_int(st, 2, t.turn);
	if (sqlite3_step(st) != SQLITE_DONE) {
		err = ord_store_error(g->db, "setting the deadline");
		goto out;
	}
	{
		struct ord_change c = { .kind = ORD_CHANGE_DEADLINE, .turn = t.turn, .deadline = when };
		if ((err = ord_game_notify(g, &c)) != 0)
			goto out;
	}
	err = ord_store_commit(g->db);
out:
	if (err)
		ord_store_rollback(g->db);
	sqlite3_finalize(st);
	ord_buf_release(&body);
	return err;
}

/* ---- the game's key ---- */

void ord_game_id(ord_game *g, unsigned char out[16])
{
	memcpy(out, g->game_id, 16);
}

int ord_game_pubkey(ord_game *g, unsigned char out[32])
{
	if (!g->have_pk)
		return ord_error_set(ORD_ENOTFOUND,
				     "'%s' has no key yet (a game made before keys gets one at its next seal)",
				     g->path);
	memcpy(out, g->pk, 32);
	return 0;
}

int ord_game_use_key(ord_game *g, const struct ord_keypair *kp)
{
	char hex[65];

	if (!g->have_pk)
		return ord_error_set(ORD_ESTATE, "'%s' has no key yet: it needs none given", g->path);
	if (memcmp(kp->pk, g->pk, 32)) {
		ord_hex(hex, g->pk, 32);
		return ord_error_set(ORD_EBADDATA,
				     "this key is not the game's (the game's public key is %s)", hex);
	}
	memcpy(g->sk, kp->sk, 64);
	g->have_sk = 1;
	return 0;
}

int ord_game_ensure_key(struct ord_game *g, int turn)
{
	struct ord_buf body = ORD_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int64_t seq;
	int err;

	if (g->have_pk)
		return 0;
	crypto_sign_keypair(g->pk, g->sk);
	ord_buf_adds(&body, "key=");
	ord_buf_add_hex(&body, g->pk, 32);
	ord_buf_addch(&body, '\n');
	if ((err = ord_game_log(g, &seq, turn, "key", body.buf)) != 0 ||
	    (err = ord_store_prepare(g->db, &st,
				     "UPDATE game SET referee_pubkey = ?, referee_seckey = ?")) != 0)
		goto out;
	sqlite3_bind_blob(st, 1, g->pk, 32, SQLITE_STATIC);
	sqlite3_bind_blob(st, 2, g->sk, 64, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		err = ord_store_error(g->db, "storing the game's key");
		goto out;
	}
	g->have_pk = g->have_sk = 1;
out:
	if (err)
		sodium_memzero(g->sk, sizeof(g->sk));
	sqlite3_finalize(st);
	ord_buf_release(&body);
	return err;
}

int ord_game_sign_head(struct ord_game *g, int turn, const char *at)
{
	sqlite3_stmt *st = NULL;
	unsigned char hash[32], msg[32], sig[64];
	int64_t seq = 0;
	int err;

	if (!g->have_sk)
		return ord_error_set(ORD_EUSAGE,
				     "the key of '%s' is kept outside the game file: give it with --key FILE to sign the %s",
				     g->path, at);
	if ((err = ord_store_prepare(g->db, &st, "SELECT seq, hash FROM log_head")) != 0)
		return err;
	if (sqlite3_step(st) != SQLITE_ROW || col_blob(st, 1, hash, 32)) {
		sqlite3_finalize(st);
		return ord_error_set(ORD_ETAMPERED, "the log head is damaged");
	}
	seq = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	ord_sig_head_msg(msg, g->game_id, turn, at, seq, hash);
	ord_sig_sign(sig, msg, g->sk);
	if ((err = ord_store_prepare(g->db, &st,
				     "INSERT INTO head(seq, turn, at, hash, signature) VALUES (?,?,?,?,?)")) !=
	    0)
		return err;
	sqlite3_bind_int64(st, 1, seq);
	sqlite3_bind_int(st, 2, turn);
	sqlite3_bind_text(st, 3, at, -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 4, hash, 32, SQLITE_STATIC);
	sqlite3_bind_blob(st, 5, sig, 64, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE)
		err = ord_store_error(g->db, "storing the signed head");
	sqlite3_finalize(st);
	return err;
}

int ord_game_head(ord_game *g, struct ord_head *out, int turn, const char *at)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	memset(out, 0, sizeof(*out));
	/* turn <= 0: the latest head of that kind */
	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT seq, hash, signature, turn FROM head WHERE (?1 <= 0 OR turn = ?1) AND at = ?2 "
				     "ORDER BY seq DESC LIMIT 1")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_text(st, 2, at, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		if (rc != SQLITE_DONE)
			err = ord_store_error(g->db, "reading signed heads");
		else if (turn > 0)
			err = ord_error_set(ORD_ENOTFOUND, "turn %d has no signed head of its %s",
					    turn, at);
		else
			err = ord_error_set(ORD_ENOTFOUND,
					    "no turn has a signed head of its %s yet", at);
		goto out;
	}
	if (!g->have_pk || col_blob(st, 1, out->hash, 32) || col_blob(st, 2, out->signature, 64)) {
		err = ord_error_set(ORD_ETAMPERED, "a signed head of the %s is damaged", at);
		goto out;
	}
	memcpy(out->game_id, g->game_id, 16);
	out->turn = sqlite3_column_int(st, 3);
	snprintf(out->at, sizeof(out->at), "%s", at);
	out->seq = sqlite3_column_int64(st, 0);
	memcpy(out->key, g->pk, 32);
out:
	sqlite3_finalize(st);
	return err;
}
