/*
 * rows.c - the rows of a game file behind named functions (store.h): the
 * game, sides, units and their states, turns, sheets, commitments, events,
 * witness links, the rows of a resolved phase, signed heads, and the live
 * rows audit compares with the log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/stmt.h"
#include "store/store.h"

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? (const char *)s : "";
}

/* A copy of a BLOB column of exactly len bytes: 0, or -1 (NULL or another size). */
static int col_blob(sqlite3_stmt *st, int i, unsigned char *out, size_t len)
{
	if (sqlite3_column_type(st, i) != SQLITE_BLOB || (size_t)sqlite3_column_bytes(st, i) != len)
		return -1;
	memcpy(out, sqlite3_column_blob(st, i), len);
	return 0;
}

/* A malloc'd, NUL-terminated copy of a column's bytes. */
static char *col_dup(sqlite3_stmt *st, int i, size_t *len)
{
	size_t n = (size_t)sqlite3_column_bytes(st, i);
	const void *p = sqlite3_column_blob(st, i);
	char *s = ord_xmalloc(n + 1);

	if (n)
		memcpy(s, p, n);
	s[n] = '\0';
	if (len)
		*len = n;
	return s;
}

/* Step a write statement and finalize it. */
static int done(sqlite3 *db, sqlite3_stmt *st, const char *what)
{
	int err = sqlite3_step(st) == SQLITE_DONE ? 0 : ord_store_error(db, what);

	ord_store_stmt_done(st);
	return err;
}

static void bind_opt_blob(sqlite3_stmt *st, int i, const void *p, int n)
{
	if (p)
		sqlite3_bind_blob(st, i, p, n, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* ---- the game ---- */

int ord_store_game_read(sqlite3 *db, struct ord_store_game *g, int with_scenario)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	memset(g, 0, sizeof(*g));
	if ((err = ord_store_stmt(db, &st,
				  "SELECT game_id, ruleset, title, nmr, fixed_dice, NULL, tables, created, "
				  "referee_pubkey, referee_seckey, refereeless, witnessed, protocol FROM game")) !=
	    0)
		return err;
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW || col_blob(st, 0, g->game_id, 16)) {
		err = rc == SQLITE_ROW || rc == SQLITE_DONE
			      ? ord_error_set(ORD_ENOTGAME, "the game file has no game record")
			      : ord_store_error(db, "reading the game");
		goto out;
	}
	g->ruleset = ord_strdup(col_text(st, 1));
	g->title = ord_strdup(col_text(st, 2));
	g->nmr = ord_strdup(col_text(st, 3));
	g->fixed_dice = sqlite3_column_int(st, 4);
	if (with_scenario)
		err = ord_store_game_scenario(db, &g->scenario, &g->scenario_len);
	if (sqlite3_column_type(st, 6) != SQLITE_NULL)
		g->tables = col_dup(st, 6, &g->tables_len);
	g->created = sqlite3_column_int64(st, 7);
	g->have_pk = !col_blob(st, 8, g->pk, 32);
	g->have_sk = g->have_pk && !col_blob(st, 9, g->sk, 64);
	g->refereeless = sqlite3_column_int(st, 10);
	g->witnessed = sqlite3_column_int(st, 11);
	g->protocol = sqlite3_column_int(st, 12);
out:
	ord_store_stmt_done(st);
	if (err)
		ord_store_game_release(g);
	return err;
}

int ord_store_game_scenario(sqlite3 *db, char **scenario, size_t *len)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	*scenario = NULL;
	*len = 0;
	if ((err = ord_store_stmt(db, &st, "SELECT scenario FROM game_scenario WHERE id = 1")) != 0)
		return err;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*scenario = col_dup(st, 0, len);
	else
		err = rc == SQLITE_DONE ? ord_error_set(ORD_ENOTGAME, "the game file has no scenario")
					: ord_store_error(db, "reading the scenario");
	ord_store_stmt_done(st);
	return err;
}

int ord_store_game_scenario_each(sqlite3 *db, int (*fn)(void *ud, const void *p, size_t n), void *ud)
{
	unsigned char piece[64 * 1024];
	sqlite3_blob *b = NULL;
	sqlite3_stmt *st = NULL;
	sqlite3_int64 rowid = 0;
	int err = 0, len, at, n, rc;

	/* the row ord_store_game_scenario reads, whatever its rowid (a table
	 * rebuilt with id apart from the rowid would be read as two) */
	if ((err = ord_store_stmt(db, &st, "SELECT rowid FROM game_scenario WHERE id = 1")) != 0)
		return err;
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		rowid = sqlite3_column_int64(st, 0);
	else
		err = rc == SQLITE_DONE ? ord_error_set(ORD_ENOTGAME, "the game file has no scenario")
					: ord_store_error(db, "reading the scenario");
	ord_store_stmt_done(st);
	if (err)
		return err;
	rc = sqlite3_blob_open(db, "main", "game_scenario", "scenario", rowid, 0, &b);
	if (rc != SQLITE_OK) {
		/* no row 1: the same as ord_store_game_scenario says
		 * (sqlite3_blob_open gives a missing row only as SQLITE_ERROR
		 * with "no such rowid", no code of its own: SQLite's words) */
		err = rc == SQLITE_ERROR && !strncmp(sqlite3_errmsg(db), "no such rowid", 13)
			      ? ord_error_set(ORD_ENOTGAME, "the game file has no scenario")
			      : ord_store_error(db, "reading the scenario");
		goto out;
	}
	len = sqlite3_blob_bytes(b);
	for (at = 0; at < len && !err; at += n) {
		n = len - at < (int)sizeof(piece) ? len - at : (int)sizeof(piece);
		if (sqlite3_blob_read(b, piece, n, at) != SQLITE_OK)
			err = ord_store_error(db, "reading the scenario");
		else
			err = fn(ud, piece, (size_t)n);
	}
out:
	sqlite3_blob_close(b);
	return err;
}

void ord_store_game_release(struct ord_store_game *g)
{
	free(g->ruleset);
	free(g->title);
	free(g->nmr);
	free(g->scenario);
	free(g->tables);
	memset(g->sk, 0, sizeof(g->sk));
	g->ruleset = g->title = g->nmr = g->scenario = g->tables = NULL;
}

int ord_store_game_insert(sqlite3 *db, const struct ord_store_game *g)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "INSERT INTO game(id, game_id, ruleset, title, nmr, fixed_dice, scenario, tables, "
				  "created, referee_pubkey, referee_seckey, refereeless, witnessed, protocol) "
				  "VALUES (1,?,?,?,?,?,?,?,?,?,?,?,?,?)")) != 0)
		return err;
	sqlite3_bind_blob(st, 1, g->game_id, 16, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, g->ruleset, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, g->title, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, g->nmr, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, g->fixed_dice);
	sqlite3_bind_zeroblob(st, 6, 0); /* the scenario has a row of its own */
	bind_opt_blob(st, 7, g->tables, (int)g->tables_len);
	sqlite3_bind_int64(st, 8, g->created);
	sqlite3_bind_blob(st, 9, g->pk, 32, SQLITE_STATIC);
	bind_opt_blob(st, 10, g->have_sk ? g->sk : NULL, 64);
	sqlite3_bind_int(st, 11, g->refereeless);
	sqlite3_bind_int(st, 12, g->witnessed);
	sqlite3_bind_int(st, 13, g->protocol);
	if ((err = done(db, st, "creating the game")) != 0)
		return err;
	if ((err = ord_store_stmt(db, &st, "INSERT INTO game_scenario(id, scenario) VALUES (1, ?)")) != 0)
		return err;
	sqlite3_bind_blob(st, 1, g->scenario, (int)g->scenario_len, SQLITE_STATIC);
	return done(db, st, "storing the scenario");
}

/* ---- sides and units ---- */

int ord_store_sides_read(sqlite3 *db, struct ord_store_side **out, size_t *n)
{
	sqlite3_stmt *st = NULL;
	size_t alloc = 0;
	int err, rc;

	*out = NULL;
	*n = 0;
	if ((err = ord_store_stmt(db, &st, "SELECT id, name, title, pubkey FROM side ORDER BY id")) != 0)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ord_store_side *s;
		if (*n == alloc) {
			alloc = alloc ? 2 * alloc : 8;
			*out = ord_xrealloc(*out, alloc * sizeof(**out));
		}
		s = &(*out)[(*n)++];
		memset(s, 0, sizeof(*s));
		s->id = sqlite3_column_int64(st, 0);
		s->name = ord_strdup(col_text(st, 1));
		s->title = ord_strdup(col_text(st, 2));
		s->has_key = !col_blob(st, 3, s->pubkey, 32);
	}
	if (rc != SQLITE_DONE)
		err = ord_store_error(db, "reading sides");
	ord_store_stmt_done(st);
	return err;
}

void ord_store_sides_free(struct ord_store_side *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(s[i].name);
		free(s[i].title);
	}
	free(s);
}

int ord_store_side_insert(sqlite3 *db, int64_t *id, const char *name, const char *title,
			  const unsigned char *pubkey)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st, "INSERT INTO side(name, title, pubkey) VALUES (?,?,?)")) != 0)
		return err;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, title, -1, SQLITE_STATIC);
	bind_opt_blob(st, 3, pubkey, 32);
	if ((err = done(db, st, "storing sides")) == 0)
		*id = sqlite3_last_insert_rowid(db);
	return err;
}

int ord_store_unit_insert(sqlite3 *db, int64_t *id, const char *uid, const char *name,
			  int64_t side_id, const char *attrs)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "INSERT INTO unit(uid, name, side_id, attrs) VALUES (?,?,?,?)")) != 0)
		return err;
	sqlite3_bind_text(st, 1, uid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, side_id);
	sqlite3_bind_text(st, 4, attrs, -1, SQLITE_STATIC);
	if ((err = done(db, st, "storing units")) == 0)
		*id = sqlite3_last_insert_rowid(db);
	return err;
}

/* Every row of st (unit.id, uid, name, side, attrs, state) to fn; st is
 * done after. */
static void unit_of_row(sqlite3_stmt *st, struct ord_store_unit *u)
{
	if (sqlite3_column_count(st) == 2) { /* ids and states only (openings) */
		memset(u, 0, sizeof(*u));
		u->uid = col_text(st, 0);
		u->state = col_text(st, 1);
		return;
	}
	u->id = sqlite3_column_int64(st, 0);
	u->uid = col_text(st, 1);
	u->name = col_text(st, 2);
	u->side = col_text(st, 3);
	u->attrs = col_text(st, 4);
	u->state = col_text(st, 5);
}

static int unit_rows(sqlite3 *db, sqlite3_stmt *st, ord_store_unit_fn fn, void *ud)
{
	int err = 0, rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ord_store_unit u;

		unit_of_row(st, &u);
		if ((err = fn(ud, &u)) != 0)
			break;
	}
	if (!err && rc != SQLITE_DONE)
		err = ord_store_error(db, "reading units");
	ord_store_stmt_done(st);
	return err;
}

/* A side's units (side_id, whose name is side_name) with their current
 * state (unit_current), in the order of their ids, without a join to
 * side (a seek a unit): a row each of the four columns fn reads, the
 * side's name given to it as the caller knows it and the row's id not
 * read (id 0).  Each column a row costs: the bound name copied into
 * every row and the id were 1.1 M instructions of a submit's 30 M at
 * 10,000 units (docs/benchmarks.md, the thirty-seventh session). */
static int units_of_side(sqlite3 *db, int64_t side_id, const char *side_name, ord_store_unit_fn fn,
			 void *ud)
{
	sqlite3_stmt *st = NULL;
	int64_t first = 0, last = 0, units = 0, sides = 0;
	int err = 0, rc;

	/* the side's first and last unit (a seek each down unit_side), and
	 * the game's units and sides (counted from the B-trees' pages) */
	if ((err = ord_store_stmt(db, &st,
				  "SELECT (SELECT min(id) FROM unit WHERE side_id = ?1), "
				  "(SELECT max(id) FROM unit WHERE side_id = ?1), "
				  "(SELECT count(*) FROM unit), (SELECT count(*) FROM side)")) != 0)
		return err;
	sqlite3_bind_int64(st, 1, side_id);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		first = sqlite3_column_int64(st, 0);
		last = sqlite3_column_int64(st, 1);
		units = sqlite3_column_int64(st, 2);
		sides = sqlite3_column_int64(st, 3);
	}
	ord_store_stmt_done(st);
	if (rc != SQLITE_ROW)
		return ord_store_error(db, "reading units");
	/* A side's units stand together in the table when its scenario
	 * listed them together (the examples' and the bench's do): read
	 * along the rows of ids first..last (the side's, any other's among
	 * them skipped), not down unit_side, a step of the index and a seek
	 * into the table a unit: 1.2 M instructions of a submit's 28.6 M at
	 * 10,000 units (docs/benchmarks.md, the thirty-ninth session).  The
	 * sides' units mixed in the table: down unit_side, unless the ids
	 * span at most twice a side's share of the game's units (no more
	 * than that skipped). */
	if (last >= first && sides > 0 && (last - first + 1) * sides <= 2 * units)
		err = ord_store_stmt(db, &st,
				     "SELECT unit.uid, unit.name, unit.attrs, c.state FROM unit "
				     "LEFT JOIN unit_current c ON c.unit_id = unit.id "
				     "WHERE unit.id BETWEEN ?2 AND ?3 AND +unit.side_id = ?1 ORDER BY unit.id");
	else
		err = ord_store_stmt(db, &st,
				     "SELECT unit.uid, unit.name, unit.attrs, c.state FROM unit "
				     "LEFT JOIN unit_current c ON c.unit_id = unit.id "
				     "WHERE unit.side_id = ?1 ORDER BY unit.id");
	if (err)
		return err;
	sqlite3_bind_int64(st, 1, side_id);
	if (sqlite3_bind_parameter_count(st) == 3) {
		sqlite3_bind_int64(st, 2, first);
		sqlite3_bind_int64(st, 3, last);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ord_store_unit u;

		u.id = 0;
		u.uid = col_text(st, 0);
		u.name = col_text(st, 1);
		u.side = side_name;
		u.attrs = col_text(st, 2);
		u.state = col_text(st, 3);
		if ((err = fn(ud, &u)) != 0)
			break;
	}
	if (!err && rc != SQLITE_DONE)
		err = ord_store_error(db, "reading units");
	ord_store_stmt_done(st);
	return err;
}

/* Every unit with its current state (unit_current): one row each; of one
 * side (side_id, whose name is side_name), or of every side (side_id 0). */
static int units_now(sqlite3 *db, int64_t side_id, const char *side_name, ord_store_unit_fn fn, void *ud)
{
	sqlite3_stmt *st = NULL;
	int err;

	/* two statements: "?1 = 0 OR side_id = ?1" would read every unit of
	 * the game for one side's (SQLite cannot use unit_side for it) */
	if (side_id)
		return units_of_side(db, side_id, side_name, fn, ud);
	if ((err = ord_store_stmt(db, &st,
				  "SELECT unit.id, unit.uid, unit.name, side.name, unit.attrs, c.state "
				  "FROM unit JOIN side ON side.id = unit.side_id "
				  "LEFT JOIN unit_current c ON c.unit_id = unit.id "
				  "ORDER BY unit.id")) != 0)
		return err;
	return unit_rows(db, st, fn, ud);
}

int ord_store_units_now(sqlite3 *db, int64_t side_id, const char *side_name, ord_store_unit_fn fn,
			void *ud)
{
	return units_now(db, side_id, side_name, fn, ud);
}

int ord_store_unit_find(sqlite3 *db, const char *id_or_name, ord_store_unit_fn fn, void *ud)
{
	sqlite3_stmt *st = NULL;
	int err;

	/* by its id, else by its name (both indexed) */
	if ((err = ord_store_stmt(db, &st,
				  "SELECT unit.id, unit.uid, unit.name, side.name, unit.attrs, c.state "
				  "FROM unit JOIN side ON side.id = unit.side_id "
				  "LEFT JOIN unit_current c ON c.unit_id = unit.id "
				  "WHERE unit.id = coalesce((SELECT id FROM unit WHERE uid = ?1), "
				  "(SELECT id FROM unit WHERE name = ?1 COLLATE NOCASE ORDER BY id LIMIT 1))")) !=
	    0)
		return err;
	sqlite3_bind_text(st, 1, id_or_name, -1, SQLITE_STATIC);
	return unit_rows(db, st, fn, ud); /* one row at most */
}

/* names as a JSON array of strings, for json_each */
static void json_names(struct ord_buf *out, const char *const *names, size_t n)
{
	size_t i;

	ord_buf_addch(out, '[');
	for (i = 0; i < n; i++) {
		const unsigned char *p;
		if (i)
			ord_buf_addch(out, ',');
		ord_buf_addch(out, '"');
		for (p = (const unsigned char *)names[i]; *p; p++) {
			if (*p == '"' || *p == '\\')
				ord_buf_addf(out, "\\%c", *p);
			else if (*p < 0x20)
				ord_buf_addf(out, "\\u%04x", *p);
			else
				ord_buf_addch(out, (char)*p);
		}
		ord_buf_addch(out, '"');
	}
	ord_buf_addch(out, ']');
}

int ord_store_units_find(sqlite3 *db, const char *const *names, size_t n, ord_store_unit_fn fn, void *ud)
{
	struct ord_buf json = ORD_BUF_INIT;
	sqlite3_stmt *st = NULL;
	struct ord_store_side *sides = NULL;
	unsigned char *hit;
	size_t i, nsides = 0;
	int err = 0, rc;

	if (!n)
		return 0;
	/* one statement for all the ids (a statement opens and closes its
	 * B-tree cursors at every run, which was most of a look-up's cost),
	 * then the names that are no unit's id one by one, as
	 * ord_store_unit_find reads them; a unit named twice comes twice.
	 * The row's id is not read (id 0): no caller reads it, and a column
	 * more is a read more a row */
	if (ord_store_stmt(db, &st,
			   "SELECT unit.uid, unit.name, unit.side_id, unit.attrs, c.state, j.key "
			   "FROM json_each(?1) AS j JOIN unit ON unit.uid = j.value "
			   "LEFT JOIN unit_current c ON c.unit_id = unit.id") != 0) {
		/* an SQLite built without JSON: one by one */
		ord_error_clear();
		for (i = 0; i < n && !err; i++)
			err = ord_store_unit_find(db, names[i], fn, ud);
		return err;
	}
	/* the sides' names by their ids, read once (a join to side was a
	 * seek a unit) */
	if ((err = ord_store_sides_read(db, &sides, &nsides)) != 0) {
		ord_store_stmt_done(st);
		return err;
	}
	hit = ord_xcalloc(n, 1);
	json_names(&json, names, n);
	sqlite3_bind_text(st, 1, json.buf, (int)json.len, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ord_store_unit u;
		int64_t k = sqlite3_column_int64(st, 5), side_id = sqlite3_column_int64(st, 2);

		u.id = 0;
		u.uid = col_text(st, 0);
		u.name = col_text(st, 1);
		u.attrs = col_text(st, 3);
		u.state = col_text(st, 4);
		for (i = 0; i < nsides && sides[i].id != side_id; i++)
			;
		if (i == nsides)
			continue; /* as the join to side was: no side, no unit */
		u.side = sides[i].name;
		if (k >= 0 && (size_t)k < n)
			hit[k] = 1;
		if ((err = fn(ud, &u)) != 0)
			break;
	}
	if (!err && rc != SQLITE_DONE)
		err = ord_store_error(db, "reading units");
	ord_store_stmt_done(st);
	for (i = 0; i < n && !err; i++)
		if (!hit[i])
			err = ord_store_unit_find(db, names[i], fn, ud);
	free(hit);
	ord_buf_release(&json);
	ord_store_sides_free(sides, nsides);
	return err;
}

int ord_store_current_stale(sqlite3 *db, int *n)
{
	int64_t v;
	int err;

	err = ord_store_scalar(db,
			       "SELECT count(*) FROM unit LEFT JOIN unit_current c ON c.unit_id = unit.id "
			       "WHERE c.state IS NOT (SELECT state FROM unit_state WHERE unit_id = unit.id "
			       "ORDER BY turn DESC, phase DESC LIMIT 1)",
			       &v, "reading unit states");
	*n = (int)v;
	return err;
}

int ord_store_units_each(sqlite3 *db, int turn, int before, ord_store_unit_fn fn, void *ud)
{
	sqlite3_stmt *st = NULL;
	int err;

	if (turn <= 0)
		return units_now(db, 0, NULL, fn, ud);

	/* each unit's latest state row up to the bound: one seek down its
	 * rows of the primary key (unit_id, turn, phase) from the bound, not
	 * a pass over every state row grouped and then indexed again */
	if ((err = ord_store_stmt(db, &st,
				  "SELECT unit.id, unit.uid, unit.name, side.name, unit.attrs, "
				  "(SELECT state FROM unit_state WHERE unit_id = unit.id AND turn <= ?1 "
				  " AND (turn < ?1 OR NOT ?2) ORDER BY turn DESC, phase DESC LIMIT 1) "
				  "FROM unit JOIN side ON side.id = unit.side_id ORDER BY unit.id")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int(st, 2, before);
	return unit_rows(db, st, fn, ud);
}

int ord_store_roster_each(sqlite3 *db, ord_store_unit_fn fn, void *ud)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "SELECT unit.id, unit.uid, unit.name, side.name, unit.attrs, '' "
				  "FROM unit JOIN side ON side.id = unit.side_id ORDER BY unit.id")) != 0)
		return err;
	return unit_rows(db, st, fn, ud);
}

int ord_store_openings_each(sqlite3 *db, int turn, ord_store_unit_fn fn, void *ud)
{
	sqlite3_stmt *st = NULL;
	int err;

	if (turn <= 0)
		return ord_store_units_each(db, turn, 1, fn, ud);
	/* the rows of ord_store_units_each(turn, before), but only their
	 * ids and states: a unit's name and attributes, copied out of each
	 * row, were a quarter of the read (the join to side stays: a unit
	 * of no side is no unit there either).  One statement with a join
	 * or a window instead of the seek a unit reads every state row
	 * before the turn, more than the seeks from the second turn on. */
	if ((err = ord_store_stmt(db, &st,
				  "SELECT unit.uid, "
				  "(SELECT state FROM unit_state WHERE unit_id = unit.id AND turn < ?1 "
				  " ORDER BY turn DESC, phase DESC LIMIT 1) "
				  "FROM unit JOIN side ON side.id = unit.side_id ORDER BY unit.id")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	return unit_rows(db, st, fn, ud);
}

int ord_store_units_at(sqlite3 *db, int turn, int phase, ord_store_unit_fn fn, void *ud)
{
	sqlite3_stmt *st = NULL;
	int err;

	/* as ord_store_units_each, bounded by (turn, phase) */
	if ((err = ord_store_stmt(db, &st,
				  "SELECT unit.id, unit.uid, unit.name, side.name, unit.attrs, "
				  "(SELECT state FROM unit_state WHERE unit_id = unit.id AND turn <= ?1 "
				  " AND (turn < ?1 OR phase <= ?2) ORDER BY turn DESC, phase DESC LIMIT 1) "
				  "FROM unit JOIN side ON side.id = unit.side_id ORDER BY unit.id")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int(st, 2, phase);
	return unit_rows(db, st, fn, ud);
}

int ord_store_states_each(sqlite3 *db, ord_store_state_fn fn, void *ud)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	if ((err = ord_store_stmt(db, &st,
				  "SELECT unit.uid, s.turn, s.phase, s.state FROM unit_state s "
				  "JOIN unit ON unit.id = s.unit_id ORDER BY s.turn, s.phase, unit.id")) !=
	    0)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ord_store_state s;

		s.uid = col_text(st, 0);
		s.turn = sqlite3_column_int(st, 1);
		s.phase = sqlite3_column_int(st, 2);
		s.state = col_text(st, 3);
		if ((err = fn(ud, &s)) != 0)
			break;
	}
	if (!err && rc != SQLITE_DONE)
		err = ord_store_error(db, "reading unit states");
	ord_store_stmt_done(st);
	return err;
}

int ord_store_unit_count(sqlite3 *db, size_t *n)
{
	int64_t v;
	int err;

	err = ord_store_scalar(db, "SELECT count(*) FROM unit", &v, "reading units");
	*n = (size_t)v;
	return err;
}

int ord_store_state_put(sqlite3 *db, int64_t unit_id, int turn, int phase, const char *state,
			int64_t log_seq)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "INSERT OR REPLACE INTO unit_state(unit_id, turn, phase, state, log_seq) VALUES (?,?,?,?,?)")) !=
	    0)
		return err;
	sqlite3_bind_int64(st, 1, unit_id);
	sqlite3_bind_int(st, 2, turn);
	sqlite3_bind_int(st, 3, phase);
	sqlite3_bind_text(st, 4, state, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, log_seq);
	if ((err = done(db, st, "storing unit states")) != 0)
		return err;
	/* a state is stored as it is reached: the newest is the current one */
	if ((err = ord_store_stmt(db, &st,
				  "INSERT OR REPLACE INTO unit_current(unit_id, state) VALUES (?,?)")) !=
	    0)
		return err;
	sqlite3_bind_int64(st, 1, unit_id);
	sqlite3_bind_text(st, 2, state, -1, SQLITE_STATIC);
	return done(db, st, "storing unit states");
}

int ord_store_state_put_uid(sqlite3 *db, const char *uid, int turn, int phase, const char *state,
			    int64_t log_seq)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "INSERT OR REPLACE INTO unit_state(unit_id, turn, phase, state, log_seq) "
				  "SELECT id, ?, ?, ?, ? FROM unit WHERE uid = ?")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int(st, 2, phase);
	sqlite3_bind_text(st, 3, state, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, log_seq);
	sqlite3_bind_text(st, 5, uid, -1, SQLITE_STATIC);
	if ((err = done(db, st, "storing unit states")) != 0)
		return err;
	if ((err = ord_store_stmt(db, &st,
				  "INSERT OR REPLACE INTO unit_current(unit_id, state) "
				  "SELECT id, ? FROM unit WHERE uid = ?")) != 0)
		return err;
	sqlite3_bind_text(st, 1, state, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	return done(db, st, "storing unit states");
}

/* ---- turns ---- */

static int read_turn_row(sqlite3 *db, sqlite3_stmt *st, struct ord_store_turn *t)
{
	memset(t, 0, sizeof(*t));
	t->turn = sqlite3_column_int(st, 0);
	t->state = ord_turn_state_parse(col_text(st, 1));
	t->phase = sqlite3_column_int(st, 2);
	t->deadline = sqlite3_column_int64(st, 3);
	if (col_blob(st, 4, t->seed, 32) || col_blob(st, 5, t->seed_commitment, 32) || !t->state)
		return ord_error_set(ORD_ETAMPERED, "turn %d: its row is damaged", t->turn);
	t->have_dice_key = !col_blob(st, 6, t->dice_key, 32);
	t->have_referee_witness = !col_blob(st, 7, t->referee_witness, 32);
	t->log_seq = sqlite3_column_int64(st, 8);
	(void)db;
	return 0;
}

#define TURN_COLUMNS \
	"turn, state, phase, deadline, seed, seed_commitment, dice_key, referee_witness, log_seq"

int ord_store_turn_read(sqlite3 *db, int n, struct ord_store_turn *out)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	memset(out, 0, sizeof(*out));
	if ((err = ord_store_stmt(db, &st,
				  n > 0 ? "SELECT " TURN_COLUMNS " FROM turn WHERE turn = ?"
					: "SELECT " TURN_COLUMNS
					  " FROM turn ORDER BY turn DESC LIMIT 1")) != 0)
		return err;
	if (n > 0)
		sqlite3_bind_int(st, 1, n);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		err = read_turn_row(db, st, out);
	else if (rc == SQLITE_DONE)
		err = n > 0 ? ord_error_set(ORD_ENOTFOUND, "no turn %d in this game", n)
			    : ord_error_set(ORD_ETAMPERED,
					    "the game has no turn (its rows were deleted)");
	else
		err = ord_store_error(db, "reading the turn");
	ord_store_stmt_done(st);
	return err;
}

int ord_store_turns_each(sqlite3 *db, ord_store_turn_fn fn, void *ud)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	if ((err = ord_store_stmt(db, &st, "SELECT " TURN_COLUMNS " FROM turn ORDER BY turn")) != 0)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ord_store_turn t;
		if ((err = read_turn_row(db, st, &t)) != 0 || (err = fn(ud, &t)) != 0)
			break;
	}
	if (!err && rc != SQLITE_DONE)
		err = ord_store_error(db, "reading turns");
	ord_store_stmt_done(st);
	return err;
}

int ord_store_turn_insert(sqlite3 *db, const struct ord_store_turn *t)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "INSERT INTO turn(turn, state, phase, seed, seed_commitment, log_seq, deadline) "
				  "VALUES (?,?,?,?,?,?,?)")) != 0)
		return err;
	sqlite3_bind_int(st, 1, t->turn);
	sqlite3_bind_text(st, 2, ord_turn_state_name(t->state), -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, t->phase);
	sqlite3_bind_blob(st, 4, t->seed, 32, SQLITE_STATIC);
	sqlite3_bind_blob(st, 5, t->seed_commitment, 32, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, t->log_seq);
	if (t->deadline)
		sqlite3_bind_int64(st, 7, t->deadline);
	else
		sqlite3_bind_null(st, 7);
	return done(db, st, "opening the turn");
}

int ord_store_turn_set_state(sqlite3 *db, int turn, enum ord_turn_state state, int phase,
			     const unsigned char *dice_key)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "UPDATE turn SET state = ?, phase = ?, dice_key = ? WHERE turn = ?")) !=
	    0)
		return err;
	sqlite3_bind_text(st, 1, ord_turn_state_name(state), -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, phase);
	bind_opt_blob(st, 3, dice_key, 32);
	sqlite3_bind_int(st, 4, turn);
	return done(db, st, "changing the turn");
}

int ord_store_turn_set_deadline(sqlite3 *db, int turn, int64_t when)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st, "UPDATE turn SET deadline = ? WHERE turn = ?")) != 0)
		return err;
	if (when)
		sqlite3_bind_int64(st, 1, when);
	else
		sqlite3_bind_null(st, 1);
	sqlite3_bind_int(st, 2, turn);
	return done(db, st, "setting the deadline");
}

int ord_store_turn_set_referee_witness(sqlite3 *db, int turn, const unsigned char w[32])
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st, "UPDATE turn SET referee_witness = ? WHERE turn = ?")) != 0)
		return err;
	sqlite3_bind_blob(st, 1, w, 32, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, turn);
	return done(db, st, "storing the referee's witness chain");
}

/* ---- sheets and commitments ---- */

void ord_store_sheet_release(struct ord_store_sheet *s)
{
	free(s->source);
	free(s->bytes);
	s->source = s->bytes = NULL;
}

int ord_store_sheet_insert(sqlite3 *db, int turn, int64_t side_id, const struct ord_store_sheet *s)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "INSERT INTO sheet(turn, side_id, version, source, bytes, nonce, commitment, "
				  "log_seq, signature, witness) VALUES (?,?,?,?,?,?,?,?,?,?)")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int64(st, 2, side_id);
	sqlite3_bind_int(st, 3, s->version);
	sqlite3_bind_text(st, 4, s->source, -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 5, s->len ? s->bytes : "", (int)s->len, SQLITE_STATIC);
	sqlite3_bind_blob(st, 6, s->nonce, 32, SQLITE_STATIC);
	sqlite3_bind_blob(st, 7, s->commitment, 32, SQLITE_STATIC);
	sqlite3_bind_int64(st, 8, s->log_seq);
	bind_opt_blob(st, 9, s->has_sig ? s->signature : NULL, 64);
	bind_opt_blob(st, 10, s->has_witness ? s->witness : NULL, 32);
	return done(db, st, "storing the sheet");
}

int ord_store_sheet_read(sqlite3 *db, int turn, int64_t side_id, int version,
			 struct ord_store_sheet *out)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	memset(out, 0, sizeof(*out));
	if ((err = ord_store_stmt(db, &st,
				  "SELECT id, version, source, bytes, nonce, commitment, signature, witness, log_seq "
				  "FROM sheet WHERE turn = ?1 AND side_id = ?2 AND (?3 <= 0 OR version = ?3) "
				  "ORDER BY version DESC LIMIT 1")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int64(st, 2, side_id);
	sqlite3_bind_int(st, 3, version);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->id = sqlite3_column_int64(st, 0);
		out->version = sqlite3_column_int(st, 1);
		out->source = ord_strdup(col_text(st, 2));
		out->bytes = col_dup(st, 3, &out->len);
		if (col_blob(st, 4, out->nonce, 32) || col_blob(st, 5, out->commitment, 32))
			err = ord_error_set(ORD_ETAMPERED, "turn %d: a sheet is damaged", turn);
		out->has_sig = !col_blob(st, 6, out->signature, 64);
		out->has_witness = !col_blob(st, 7, out->witness, 32);
		out->log_seq = sqlite3_column_int64(st, 8);
	} else if (rc == SQLITE_DONE) {
		err = ord_error_set(ORD_ENOTFOUND, "no such sheet");
	} else {
		err = ord_store_error(db, "reading sheets");
	}
	ord_store_stmt_done(st);
	if (err)
		ord_store_sheet_release(out);
	return err;
}

int ord_store_latest(sqlite3 *db, int turn, int64_t side_id, int *version,
		     unsigned char commitment[32], int *opened)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	*version = 0;
	*opened = 0;
	/* a version is a sheet row, a commitment row, or both once opened */
	if ((err = ord_store_stmt(db, &st,
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
		err = ord_store_error(db, "reading commitments");
	ord_store_stmt_done(st);
	return err;
}

int ord_store_commit_insert(sqlite3 *db, int turn, int64_t side_id, int version,
			    const unsigned char commitment[32], const unsigned char signature[64],
			    int64_t log_seq)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "INSERT INTO commitment(turn, side_id, version, commitment, signature, log_seq) "
				  "VALUES (?,?,?,?,?,?)")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int64(st, 2, side_id);
	sqlite3_bind_int(st, 3, version);
	sqlite3_bind_blob(st, 4, commitment, 32, SQLITE_STATIC);
	sqlite3_bind_blob(st, 5, signature, 64, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, log_seq);
	return done(db, st, "storing the commitment");
}

int ord_store_commit_signature(sqlite3 *db, int turn, int64_t side_id, int version,
			       unsigned char signature[64])
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	if ((err = ord_store_stmt(db, &st,
				  "SELECT signature FROM commitment WHERE turn = ? AND side_id = ? AND version = ?")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int64(st, 2, side_id);
	sqlite3_bind_int(st, 3, version);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if (col_blob(st, 0, signature, 64))
			err = ord_error_set(ORD_ETAMPERED, "turn %d: a commitment is damaged", turn);
	} else if (rc == SQLITE_DONE) {
		err = ord_error_set(ORD_ENOTFOUND, "no such commitment");
	} else {
		err = ord_store_error(db, "reading commitments");
	}
	ord_store_stmt_done(st);
	return err;
}

int ord_store_sheet_summary(sqlite3 *db, int turn, int64_t side_id, int *version, char **source)
{
	sqlite3_stmt *st = NULL;
	int err;

	*version = 0;
	*source = NULL;
	if ((err = ord_store_stmt(db, &st,
				  "SELECT max(version), min(source) FROM sheet WHERE turn = ? AND side_id = ?")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int64(st, 2, side_id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		if (sqlite3_column_type(st, 0) != SQLITE_NULL) {
			*version = sqlite3_column_int(st, 0);
			*source = ord_strdup(col_text(st, 1));
		}
	} else {
		err = ord_store_error(db, "reading sheets");
	}
	ord_store_stmt_done(st);
	return err;
}

/* One sum of a query bound to (turn, side_id) into *out. */
static int sum_bytes(sqlite3 *db, const char *sql, int turn, int64_t side_id, int64_t *out)
{
	sqlite3_stmt *st = NULL;
	int err;

	*out = 0;
	if ((err = ord_store_stmt(db, &st, sql)) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int64(st, 2, side_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	else
		err = ord_store_error(db, "reading sheets");
	ord_store_stmt_done(st);
	return err;
}

int ord_store_sheet_bytes(sqlite3 *db, int turn, int64_t side_id, int64_t *bytes)
{
	return sum_bytes(db,
			 "SELECT coalesce(sum(length(bytes)), 0) FROM sheet WHERE turn = ?1 "
			 "AND (?2 = 0 OR side_id = ?2) AND source = 'submitted'",
			 turn, side_id, bytes);
}

int ord_store_record_sheet_bytes(sqlite3 *db, int turn, int64_t *bytes)
{
	/* as ord_store_record_load reads them: the turn's sheets, and for a
	 * stand-in the last sheet of the turn before */
	return sum_bytes(db,
			 "SELECT coalesce((SELECT sum(length(bytes)) FROM sheet WHERE turn = ?1), 0) + "
			 "coalesce((SELECT sum(length(p.bytes)) FROM sheet s JOIN sheet p ON p.side_id = s.side_id "
			 "AND p.turn = s.turn - 1 AND p.version = (SELECT max(version) FROM sheet q "
			 "WHERE q.turn = s.turn - 1 AND q.side_id = s.side_id) "
			 "WHERE s.turn = ?1 AND s.source <> 'submitted' AND ?2 = ?2), 0)",
			 turn, 0, bytes);
}

int ord_store_sheet_nonce_used(sqlite3 *db, int turn, int64_t side_id,
			       const unsigned char nonce[32], int *version)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	*version = 0;
	if ((err = ord_store_stmt(db, &st,
				  "SELECT min(version) FROM sheet WHERE turn = ? AND side_id = ? AND nonce = ?")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int64(st, 2, side_id);
	sqlite3_bind_blob(st, 3, nonce, 32, SQLITE_STATIC);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*version = sqlite3_column_int(st, 0); /* 0 for NULL: none */
	else
		err = ord_store_error(db, "reading sheets");
	ord_store_stmt_done(st);
	return err;
}

/* ---- events ---- */

int ord_store_event_next(sqlite3 *db, int turn, unsigned *seq)
{
	sqlite3_stmt *st = NULL;
	int err;

	*seq = 1;
	if ((err = ord_store_stmt(db, &st,
				  "SELECT coalesce(max(seq), 0) + 1 FROM event WHERE turn = ?")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	if (sqlite3_step(st) == SQLITE_ROW)
		*seq = (unsigned)sqlite3_column_int(st, 0);
	else
		err = ord_store_error(db, "reading events");
	ord_store_stmt_done(st);
	return err;
}

int ord_store_event_insert(sqlite3 *db, int turn, const struct ord_store_event *e)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "INSERT INTO event(turn, seq, phase, kind, args, override, checks, log_seq) "
				  "VALUES (?,?,?,?,?,?,?,?)")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int(st, 2, (int)e->seq);
	sqlite3_bind_text(st, 3, e->phase, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, e->kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, e->args, -1, SQLITE_STATIC);
	if (e->override)
		sqlite3_bind_text(st, 6, e->override, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 6);
	sqlite3_bind_text(st, 7, e->checks ? e->checks : "", -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 8, e->log_seq);
	return done(db, st, "storing the event");
}

/* Every row of st (seq, phase, kind, args, override, checks, log_seq,
 * void_log, void_reason) to fn; st is done after. */
static int event_rows(sqlite3 *db, sqlite3_stmt *st, ord_store_event_fn fn, void *ud)
{
	int err = 0, rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ord_store_event e;

		e.seq = (unsigned)sqlite3_column_int(st, 0);
		e.phase = col_text(st, 1);
		e.kind = col_text(st, 2);
		e.args = col_text(st, 3);
		e.override = sqlite3_column_type(st, 4) == SQLITE_NULL ? NULL : col_text(st, 4);
		e.checks = col_text(st, 5);
		e.log_seq = sqlite3_column_int64(st, 6);
		e.void_log = sqlite3_column_int64(st, 7);
		e.void_reason = sqlite3_column_type(st, 8) == SQLITE_NULL ? NULL : col_text(st, 8);
		if ((err = fn(ud, &e)) != 0)
			break;
	}
	if (!err && rc != SQLITE_DONE)
		err = ord_store_error(db, "reading events");
	ord_store_stmt_done(st);
	return err;
}

int ord_store_events_each(sqlite3 *db, int turn, const char *phase, int standing_only,
			  ord_store_event_fn fn, void *ud)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "SELECT seq, phase, kind, args, override, checks, log_seq, void_log, void_reason "
				  "FROM event WHERE turn = ?1 AND (?2 IS NULL OR phase = ?2) "
				  "AND (NOT ?3 OR void_log IS NULL) ORDER BY seq")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	if (phase)
		sqlite3_bind_text(st, 2, phase, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, standing_only);
	return event_rows(db, st, fn, ud);
}

int ord_store_unit_events_each(sqlite3 *db, int turn, const char *uid, const char *phase,
			       ord_store_event_fn fn, void *ud)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "SELECT e.seq, e.phase, e.kind, e.args, e.override, e.checks, e.log_seq, "
				  "e.void_log, e.void_reason "
				  /* the unit's few events first, then each by its
				   * number (CROSS JOIN keeps that order; by the
				   * phase's index it would read the whole phase) */
				  "FROM event_unit x CROSS JOIN event e ON e.turn = x.turn AND e.seq = x.seq "
				  "WHERE x.turn = ?1 AND x.uid = ?2 AND e.phase = ?3 "
				  "AND e.void_log IS NULL ORDER BY x.seq")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_text(st, 2, uid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, phase, -1, SQLITE_STATIC);
	return event_rows(db, st, fn, ud);
}

int ord_store_event_void(sqlite3 *db, int turn, unsigned seq, int64_t log_seq, const char *reason)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "UPDATE event SET void_log = ?, void_reason = ? WHERE turn = ? AND seq = ? "
				  "AND void_log IS NULL")) != 0)
		return err;
	sqlite3_bind_int64(st, 1, log_seq);
	sqlite3_bind_text(st, 2, reason, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, turn);
	sqlite3_bind_int(st, 4, (int)seq);
	if (sqlite3_step(st) != SQLITE_DONE)
		err = ord_store_error(db, "voiding the event");
	else if (sqlite3_changes(db) != 1)
		err = ord_error_set(ORD_ENOTFOUND, "turn %d has no standing event #%u", turn, seq);
	ord_store_stmt_done(st);
	return err;
}

/* ---- witness links ---- */

int ord_store_link_insert(sqlite3 *db, int turn, int index, int64_t side_id,
			  const unsigned char link[32], int64_t log_seq)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "INSERT INTO witness(turn, idx, side_id, link, log_seq) VALUES (?,?,?,?,?)")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int(st, 2, index);
	sqlite3_bind_int64(st, 3, side_id);
	sqlite3_bind_blob(st, 4, link, 32, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, log_seq);
	return done(db, st, "storing the witness link");
}

int ord_store_link_read(sqlite3 *db, int turn, int index, int64_t side_id, unsigned char link[32])
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	if ((err = ord_store_stmt(db, &st,
				  "SELECT link FROM witness WHERE turn = ? AND idx = ? AND side_id = ?")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int(st, 2, index);
	sqlite3_bind_int64(st, 3, side_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if (col_blob(st, 0, link, 32))
			err = ord_error_set(ORD_ETAMPERED, "turn %d: a witness link is damaged", turn);
	} else if (rc == SQLITE_DONE) {
		err = ORD_ENOTFOUND;
	} else {
		err = ord_store_error(db, "reading witness links");
	}
	ord_store_stmt_done(st);
	return err;
}

/* ---- the rows of a resolved phase ---- */

int ord_store_roll_insert(sqlite3 *db, int turn, const char *phase, unsigned event_seq,
			  const char *purpose, unsigned idx, unsigned sides, int value, int fixed,
			  int64_t log_seq)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "INSERT INTO roll(turn, phase, event_seq, purpose, idx, sides, value, fixed, log_seq) "
				  "VALUES (?,?,?,?,?,?,?,?,?)")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_text(st, 2, phase, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, (int)event_seq);
	sqlite3_bind_text(st, 4, purpose, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 5, (int)idx);
	sqlite3_bind_int(st, 6, (int)sides);
	sqlite3_bind_int(st, 7, value);
	sqlite3_bind_int(st, 8, fixed);
	sqlite3_bind_int64(st, 9, log_seq);
	return done(db, st, "storing rolls");
}

int ord_store_result_insert(sqlite3 *db, int turn, const char *phase, unsigned event_seq,
			    const char *unit, const char *vals, const char *explanation,
			    const struct ord_kv *texts, int64_t log_seq)
{
	sqlite3_stmt *st = NULL;
	int64_t id;
	size_t i;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "INSERT INTO result(turn, phase, event_seq, unit, vals, explanation, log_seq) "
				  "VALUES (?,?,?,?,?,?,?)")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_text(st, 2, phase, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, (int)event_seq);
	sqlite3_bind_text(st, 4, unit, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, vals, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, explanation, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 7, log_seq);
	if ((err = done(db, st, "storing results")) != 0 || !texts || texts->n < 2)
		return err;
	id = sqlite3_last_insert_rowid(db);
	for (i = 0; i < texts->n; i++) {
		if ((err = ord_store_stmt(db, &st,
					  "INSERT INTO result_text(result, pos, lang, text) VALUES (?,?,?,?)")) !=
		    0)
			return err;
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int(st, 2, (int)i);
		sqlite3_bind_text(st, 3, texts->items[i].key, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, texts->items[i].value, -1, SQLITE_STATIC);
		if ((err = done(db, st, "storing a result's languages")) != 0)
			return err;
	}
	return 0;
}

/* ---- signed heads ---- */

int ord_store_head_insert(sqlite3 *db, const struct ord_rec_head *h)
{
	sqlite3_stmt *st = NULL;
	int err;

	if ((err = ord_store_stmt(db, &st,
				  "INSERT INTO head(seq, turn, at, hash, seed_commitment, signature) VALUES (?,?,?,?,?,?)")) !=
	    0)
		return err;
	sqlite3_bind_int64(st, 1, h->seq);
	sqlite3_bind_int(st, 2, h->turn);
	sqlite3_bind_text(st, 3, h->at, -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 4, h->hash, 32, SQLITE_STATIC);
	bind_opt_blob(st, 5, h->has_seed_commitment ? h->seed_commitment : NULL, 32);
	sqlite3_bind_blob(st, 6, h->signature, 64, SQLITE_STATIC);
	return done(db, st, "storing the signed head");
}

int ord_store_head_read(sqlite3 *db, int turn, const char *at, struct ord_rec_head *out)
{
	return ord_store_head_read_before(db, turn, at, INT64_MAX, out);
}

int ord_store_head_read_before(sqlite3 *db, int turn, const char *at, int64_t before,
			       struct ord_rec_head *out)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	memset(out, 0, sizeof(*out));
	if ((err = ord_store_stmt(db, &st,
				  "SELECT seq, turn, hash, seed_commitment, signature FROM head "
				  "WHERE (?1 <= 0 OR turn = ?1) AND at = ?2 AND seq < ?3 "
				  "ORDER BY seq DESC LIMIT 1")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_text(st, 2, at, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, before);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->seq = sqlite3_column_int64(st, 0);
		out->turn = sqlite3_column_int(st, 1);
		snprintf(out->at, sizeof(out->at), "%s", at);
		out->has_seed_commitment = !col_blob(st, 3, out->seed_commitment, 32);
		if (col_blob(st, 2, out->hash, 32) || col_blob(st, 4, out->signature, 64))
			err = ord_error_set(ORD_ETAMPERED, "a signed head of the %s is damaged", at);
	} else if (rc == SQLITE_DONE) {
		err = turn > 0 ? ord_error_set(ORD_ENOTFOUND,
					       "turn %d has no signed head of its %s", turn, at)
			       : ord_error_set(ORD_ENOTFOUND,
					       "no turn has a signed head of its %s yet", at);
	} else {
		err = ord_store_error(db, "reading signed heads");
	}
	ord_store_stmt_done(st);
	return err;
}

/* ---- rows no entry vouches for ---- */

/* A row's entry looked up in a list of the entries of its kinds made once
 * (NOT IN), not sought in the log for each row (NOT EXISTS, which read
 * each entry's row, its body and all, for its kind): the same rows
 * counted at a third of the instructions.  The file's schema is checked
 * as it is opened (an INTEGER NOT NULL log_seq); a row of none would be
 * counted as NOT EXISTS counted it. */
#define NO_ENTRY(table, kinds)                                                          \
	"SELECT count(*) FROM " table " t WHERE t.log_seq IS NULL OR t.log_seq NOT IN " \
	"(SELECT seq FROM log WHERE kind IN (" kinds "))"

int ord_store_orphans(sqlite3 *db, ord_store_orphan_fn fn, void *ud)
{
	static const struct {
		const char *table, *sql;
	} q[] = {
		{ "roll", NO_ENTRY("roll", "'resolve'") },
		{ "result", NO_ENTRY("result", "'resolve'") },
		{ "unit_state", NO_ENTRY("unit_state", "'resolve', 'units'") },
		{ "sheet", NO_ENTRY("sheet", "'sheet', 'opening'") },
		{ "commitment", NO_ENTRY("commitment", "'commit'") },
		{ "event", NO_ENTRY("event", "'event'") },
		{ "witness", NO_ENTRY("witness", "'witness'") },
		{ "head", "SELECT count(*) FROM head t WHERE NOT EXISTS (SELECT 1 FROM log "
			  "WHERE log.seq = t.seq AND log.hash = t.hash)" },
	};
	size_t i;
	int err;

	for (i = 0; i < ORD_ARRAY_SIZE(q); i++) {
		sqlite3_stmt *st = NULL;
		if ((err = ord_store_stmt(db, &st, q[i].sql)) != 0)
			return err;
		if (sqlite3_step(st) == SQLITE_ROW) {
			if (sqlite3_column_int(st, 0) > 0)
				fn(ud, q[i].table, sqlite3_column_int(st, 0));
		} else {
			err = ord_store_error(db, "reading the game file");
		}
		ord_store_stmt_done(st);
		if (err)
			return err;
	}
	return 0;
}
