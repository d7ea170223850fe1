/*
 * record.c - one turn's record read from the game file (store.h,
 * core/record.h): the stretch of the log from the turn's "open" entry to
 * the next turn's, and every row those entries vouch for, in the order of
 * their ids (the order their digests read them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>

#include "store/stmt.h"
#include "store/store.h"

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? (const char *)s : "";
}

struct load {
	sqlite3 *db;
	struct ord_record *r;
	int64_t first, last;
	int64_t last_result;                 /* put_result: the id of the result last added */
	const struct ord_rec_by_log *by_log; /* put_entry: the events read, or NULL */
	struct ord_buf scratch;              /* put_entry's */
};

/* Column i's text kept in the record (NULL for NULL when null is set,
 * else ""). */
static char *col_keep(struct load *l, sqlite3_stmt *st, int i, int null)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	if (!s)
		return null ? NULL : ord_record_strn(l->r, "", 0);
	return ord_record_strn(l->r, (const char *)s, (size_t)sqlite3_column_bytes(st, i));
}

/* Column i's text as ord_record_intern keeps it ("" for NULL). */
static char *col_intern(struct load *l, sqlite3_stmt *st, int i)
{
	return ord_record_intern(l->r, col_text(st, i));
}

static char *col_bytes(sqlite3_stmt *st, int i, size_t *len)
{
	size_t n = (size_t)sqlite3_column_bytes(st, i);
	char *s = ord_xmalloc(n + 1);

	if (n)
		memcpy(s, sqlite3_column_blob(st, i), n);
	s[n] = '\0';
	*len = n;
	return s;
}

/* Copy a BLOB column of exactly len bytes; 1 when it was one, else zeros. */
static int col_hex(sqlite3_stmt *st, int i, unsigned char *out, size_t len)
{
	if (sqlite3_column_type(st, i) != SQLITE_BLOB || (size_t)sqlite3_column_bytes(st, i) != len) {
		memset(out, 0, len);
		return 0;
	}
	memcpy(out, sqlite3_column_blob(st, i), len);
	return 1;
}

static int put_entry(void *ud, const struct ord_rec_entry *e, const unsigned char prev[32])
{
	struct load *l = ud;
	struct ord_rec_entry *x = ORD_REC_ADD(l->r->entries);

	*x = *e;
	x->kind = ord_record_intern(l->r, e->kind);
	ord_record_set_body(l->r, x, e->body, l->by_log, &l->scratch);
	if (l->r->entries.n == 1)
		memcpy(l->r->prev, prev, 32);
	return 0;
}

static int put_unit(void *ud, const struct ord_store_unit *u)
{
	struct load *l = ud;
	struct ord_rec_unit *x = ORD_REC_ADD(l->r->units);

	x->id = ord_record_str(l->r, u->uid);
	x->state = ord_record_str(l->r, u->state);
	return 0;
}

/* Run a query bound to (turn, first, last) and hand each row to fn. */
static int rows(struct load *l, const char *sql, void (*fn)(struct load *, sqlite3_stmt *),
		const char *what)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	if ((err = ord_store_stmt(l->db, &st, sql)) != 0)
		return err;
	sqlite3_bind_int(st, 1, l->r->turn);
	sqlite3_bind_int64(st, 2, l->first);
	sqlite3_bind_int64(st, 3, l->last);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(l, st);
	err = rc == SQLITE_DONE ? 0 : ord_store_error(l->db, what);
	ord_store_stmt_done(st);
	return err;
}

static void put_commit(struct load *l, sqlite3_stmt *st)
{
	struct ord_rec_commit *c = ORD_REC_ADD(l->r->commits);

	c->side = col_keep(l, st, 0, 0);
	c->version = sqlite3_column_int(st, 1);
	col_hex(st, 2, c->commitment, 32);
	col_hex(st, 3, c->signature, 64);
	c->log = sqlite3_column_int64(st, 4);
}

static void put_sheet(struct load *l, sqlite3_stmt *st)
{
	struct ord_rec_sheet *s = ORD_REC_ADD(l->r->sheets);

	s->side = col_keep(l, st, 0, 0);
	s->version = sqlite3_column_int(st, 1);
	s->source = col_keep(l, st, 2, 0);
	s->bytes = (unsigned char *)col_bytes(st, 3, &s->len);
	col_hex(st, 4, s->nonce, 32);
	col_hex(st, 5, s->commitment, 32);
	s->has_sig = sqlite3_column_type(st, 6) != SQLITE_NULL;
	col_hex(st, 6, s->signature, 64);
	s->has_witness = sqlite3_column_type(st, 7) != SQLITE_NULL;
	col_hex(st, 7, s->witness, 32);
	s->log = sqlite3_column_int64(st, 8);
}

static void put_event(struct load *l, sqlite3_stmt *st)
{
	struct ord_rec_event *e = ORD_REC_ADD(l->r->events);

	e->seq = (unsigned)sqlite3_column_int(st, 0);
	e->phase = col_intern(l, st, 1);
	e->kind = col_intern(l, st, 2);
	e->args = col_keep(l, st, 3, 0);
	e->override = col_keep(l, st, 4, 1);
	e->checks = col_keep(l, st, 5, 0);
	e->log = sqlite3_column_int64(st, 6);
	e->void_log = sqlite3_column_int64(st, 7);
	e->void_reason = col_keep(l, st, 8, 1);
}

static void put_roll(struct load *l, sqlite3_stmt *st)
{
	struct ord_rec_roll *r = ORD_REC_ADD(l->r->rolls);

	r->turn = sqlite3_column_int(st, 0);
	r->phase = col_intern(l, st, 1);
	r->event = sqlite3_column_int(st, 2);
	r->purpose = col_keep(l, st, 3, 0);
	r->idx = sqlite3_column_int(st, 4);
	r->sides = sqlite3_column_int(st, 5);
	r->value = sqlite3_column_int(st, 6);
	r->fixed = sqlite3_column_int(st, 7);
	r->log = sqlite3_column_int64(st, 8);
}

/* One row per result, or per language of a result in several (the
 * result_text rows, in their order): the same result id adds a language. */
static void put_result(struct load *l, sqlite3_stmt *st)
{
	struct ord_rec_result *r;
	int64_t id = sqlite3_column_int64(st, 7);

	if (l->r->results.n && id == l->last_result) {
		r = &l->r->results.v[l->r->results.n - 1];
		ord_kv_set(&r->texts, col_text(st, 8), col_text(st, 9));
		return;
	}
	l->last_result = id;
	r = ORD_REC_ADD(l->r->results);
	ord_kv_init(&r->texts);
	if (sqlite3_column_type(st, 8) != SQLITE_NULL)
		ord_kv_set(&r->texts, col_text(st, 8), col_text(st, 9));

	r->turn = sqlite3_column_int(st, 0);
	r->phase = col_intern(l, st, 1);
	r->event = sqlite3_column_int(st, 2);
	r->unit = col_keep(l, st, 3, 0);
	r->values = col_keep(l, st, 4, 0);
	r->explanation = col_keep(l, st, 5, 0);
	r->log = sqlite3_column_int64(st, 6);
}

static void put_state(struct load *l, sqlite3_stmt *st)
{
	struct ord_rec_state *s = ORD_REC_ADD(l->r->states);

	s->unit = col_keep(l, st, 0, 0);
	s->attrs = col_keep(l, st, 1, 0);
	s->turn = sqlite3_column_int(st, 2);
	s->phase = sqlite3_column_int(st, 3);
	s->value = col_keep(l, st, 4, 0);
	s->log = sqlite3_column_int64(st, 5);
}

static void put_group(struct load *l, sqlite3_stmt *st)
{
	struct ord_rec_group *g = ORD_REC_ADD(l->r->groups);

	g->table = sqlite3_column_int(st, 0);
	g->log = sqlite3_column_int64(st, 1);
	g->n = (size_t)sqlite3_column_int64(st, 2);
}

/* One row of a table counted: a run of rows of one entry (the rows of a
 * phase are written together) one group, which groups_merge makes one
 * group an entry. */
static void count_row(struct load *l, sqlite3_stmt *st)
{
	int table = sqlite3_column_int(st, 0);
	int64_t log = sqlite3_column_int64(st, 1);
	struct ord_rec_group *g;

	if (l->r->groups.n) {
		g = &l->r->groups.v[l->r->groups.n - 1];
		if (g->table == table && g->log == log) {
			g->n++;
			return;
		}
	}
	g = ORD_REC_ADD(l->r->groups);
	g->table = table;
	g->log = log;
	g->n = 1;
}

static int by_group_log(const void *a, const void *b)
{
	const struct ord_rec_group *x = a, *y = b;

	return x->log < y->log ? -1 : x->log > y->log;
}

/* The groups from index from on, of one table, in entry order, one a
 * log entry (as GROUP BY log_seq ORDER BY log_seq gave them). */
static void groups_merge(struct ord_record *r, size_t from)
{
	struct ord_rec_group *v = r->groups.v + from;
	size_t n = r->groups.n - from, i, k = 0;

	if (n < 2)
		return;
	qsort(v, n, sizeof(*v), by_group_log);
	for (i = 1; i < n; i++) {
		if (v[i].log == v[k].log)
			v[k].n += v[i].n;
		else
			v[++k] = v[i];
	}
	r->groups.n = from + k + 1;
}

static void put_head(struct load *l, sqlite3_stmt *st)
{
	struct ord_rec_head *h = ORD_REC_ADD(l->r->heads);

	h->seq = sqlite3_column_int64(st, 0);
	h->turn = sqlite3_column_int(st, 1);
	snprintf(h->at, sizeof(h->at), "%s", col_text(st, 2));
	col_hex(st, 3, h->hash, 32);
	h->has_seed_commitment = col_hex(st, 4, h->seed_commitment, 32);
	col_hex(st, 5, h->signature, 64);
}

static void put_link(struct load *l, sqlite3_stmt *st)
{
	struct ord_rec_link *k = ORD_REC_ADD(l->r->links);

	k->index = sqlite3_column_int(st, 0);
	k->side = col_keep(l, st, 1, 0);
	col_hex(st, 2, k->link, 32);
	k->log = sqlite3_column_int64(st, 3);
}

static void put_prev(struct load *l, sqlite3_stmt *st)
{
	struct ord_rec_prev *p = ORD_REC_ADD(l->r->previous);

	p->side = col_keep(l, st, 0, 0);
	p->bytes = (unsigned char *)col_bytes(st, 1, &p->len);
}

int ord_store_record_load(sqlite3 *db, int turn, struct ord_record *r)
{
	return ord_store_record_load_parts(db, turn, ORD_REC_ALL, r);
}

/* The columns of the rows each put_* reads, and their table (the rows of
 * a whole turn and of one log entry are read alike). */
#define ROLL_ROWS \
	"SELECT turn, phase, event_seq, purpose, idx, sides, value, fixed, log_seq FROM roll "
#define RESULT_ROWS                                                                       \
	"SELECT r.turn, r.phase, r.event_seq, r.unit, r.vals, r.explanation, r.log_seq, " \
	"r.id, t.lang, t.text FROM result r LEFT JOIN result_text t ON t.result = r.id "
#define STATE_ROWS                                                                                 \
	"SELECT unit.uid, unit.attrs, us.turn, us.phase, us.state, us.log_seq FROM unit_state us " \
	"JOIN unit ON unit.id = us.unit_id "

/* The rows of a record each part is read from, in the record's order: a
 * query bound to (turn, first, last) as rows() binds it, the ?N = ?N
 * binding a number a query does not use. */
/* part_rows' events, read before the log, and its witness links */
enum { EVENT_ROWS = 2, LINK_ROWS = 7 };
static const struct part_rows {
	unsigned part;                              /* ORD_REC_* */
	const char *sql;                            /* the query */
	void (*put)(struct load *, sqlite3_stmt *); /* one row into the record */
	const char *what;                           /* for the error */
} part_rows[] = {
	{ ORD_REC_COMMITS,
	  "SELECT side.name, c.version, c.commitment, c.signature, c.log_seq FROM commitment c "
	  "LEFT JOIN side ON side.id = c.side_id WHERE c.turn = ?1 AND ?2 = ?2 AND ?3 = ?3 ORDER BY c.id",
	  put_commit, "reading commitments" },
	{ ORD_REC_SHEETS,
	  "SELECT side.name, s.version, s.source, s.bytes, s.nonce, s.commitment, s.signature, s.witness, "
	  "s.log_seq FROM sheet s LEFT JOIN side ON side.id = s.side_id WHERE s.turn = ?1 "
	  "AND ?2 = ?2 AND ?3 = ?3 ORDER BY s.id",
	  put_sheet, "reading sheets" },
	/* along the table's rows from the turn's first event to its last,
	 * in id order as they lie: down the index of (turn, seq) they came
	 * in seq order, and SQLite sorted them by id, a sort that spilled to
	 * a temporary file at 100,000 units (the turn's events are together
	 * in the table: they are recorded during the turn) */
	{ ORD_REC_EVENTS,
	  "SELECT seq, phase, kind, args, override, checks, log_seq, void_log, void_reason FROM event "
	  "WHERE id BETWEEN (SELECT min(id) FROM event WHERE turn = ?1) "
	  "AND (SELECT max(id) FROM event WHERE turn = ?1) AND +turn = ?1 "
	  "AND ?2 = ?2 AND ?3 = ?3 ORDER BY id",
	  put_event, "reading events" },
	{ ORD_REC_ROLLS, ROLL_ROWS "WHERE turn = ?1 AND ?2 = ?2 AND ?3 = ?3 ORDER BY id", put_roll,
	  "reading rolls" },
	{ ORD_REC_RESULTS, RESULT_ROWS "WHERE r.turn = ?1 AND ?2 = ?2 AND ?3 = ?3 ORDER BY r.id, t.pos",
	  put_result, "reading results" },
	{ ORD_REC_STATES,
	  STATE_ROWS "WHERE ?1 = ?1 AND us.log_seq BETWEEN ?2 AND ?3 ORDER BY us.log_seq, us.unit_id",
	  put_state, "reading unit states" },
	{ ORD_REC_HEADS,
	  "SELECT seq, turn, at, hash, seed_commitment, signature FROM head "
	  "WHERE ?1 = ?1 AND seq BETWEEN ?2 AND ?3 ORDER BY seq",
	  put_head, "reading signed heads" },
	{ ORD_REC_HEADS,
	  "SELECT w.idx, side.name, w.link, w.log_seq FROM witness w LEFT JOIN side "
	  "ON side.id = w.side_id WHERE w.turn = ?1 AND ?2 = ?2 AND ?3 = ?3 ORDER BY w.id",
	  put_link, "reading witness links" },
	{ ORD_REC_VOIDS,
	  "SELECT seq, phase, kind, args, override, checks, log_seq, void_log, void_reason FROM event WHERE turn = ?1 "
	  "AND void_log IS NOT NULL AND ?2 = ?2 AND ?3 = ?3 ORDER BY id",
	  put_event, "reading voided events" },
};

/* The sheets of the turn before that a turn's stand-ins repeat (put_prev). */
#define PREVIOUS_ROWS                                                                             \
	"SELECT side.name, p.bytes FROM sheet s JOIN side ON side.id = s.side_id "                \
	"JOIN sheet p ON p.side_id = s.side_id AND p.turn = s.turn - 1 AND p.version = "          \
	"(SELECT max(version) FROM sheet q WHERE q.turn = s.turn - 1 AND q.side_id = s.side_id) " \
	"WHERE s.turn = ?1 AND s.source <> 'submitted' AND ?2 = ?2 AND ?3 = ?3 ORDER BY s.id"

/* What a record read a phase at a time (ORD_REC_BY_PHASE) knows of its
 * rolls, results and states: how many each log entry has, chosen as the
 * rows of a whole record are, so that a row pointing at no resolve entry
 * is seen as one. */
static const struct part_rows group_rows[] = {
	/* the rolls and results a row each, counted by count_row down the
	 * index of their turn: a GROUP BY sorted every row of the turn, a
	 * sort that spilled to a temporary file at 100,000 units */
	{ ORD_REC_BY_PHASE, "SELECT 0, log_seq FROM roll WHERE turn = ?1 AND ?2 = ?2 AND ?3 = ?3",
	  count_row, "counting rolls" },
	{ ORD_REC_BY_PHASE, "SELECT 1, log_seq FROM result WHERE turn = ?1 AND ?2 = ?2 AND ?3 = ?3",
	  count_row, "counting results" },
	{ ORD_REC_BY_PHASE,
	  "SELECT 2, log_seq, count(*) FROM unit_state WHERE ?1 = ?1 AND log_seq BETWEEN ?2 AND ?3 "
	  "GROUP BY log_seq ORDER BY log_seq",
	  put_group, "counting unit states" },
};

static int hash_piece(void *ud, const void *p, size_t n)
{
	crypto_generichash_update(ud, p, n);
	return 0;
}

static int load_scenario(void *ud, char **bytes, size_t *len)
{
	return ord_store_game_scenario(ud, bytes, len);
}

static int entry_rows_each(void *ud, int64_t seq, const struct ord_rows_sink *sink);

struct opening {
	int (*fn)(void *ud, const char *id, const char *state);
	void *ud;
};

static int opening_unit(void *ud, const struct ord_store_unit *u)
{
	struct opening *o = ud;

	return o->fn(o->ud, u->uid, u->state);
}

/* The units as turn opened, as put_unit reads them for a whole record. */
static int load_units(void *ud, int turn, int (*fn)(void *fud, const char *id, const char *state),
		      void *fud)
{
	struct opening o = { fn, fud };

	return ord_store_openings_each(ud, turn, opening_unit, &o);
}

/* The log's stretch a turn's record holds (ord_store_record_load_parts):
 * from its opening to the next turn's, or to the head while there is none. */
static int span(sqlite3 *db, const struct ord_store_turn *t, int turn, int64_t *first, int64_t *last)
{
	struct ord_store_turn next;
	unsigned char head_hash[32];
	int err;

	*first = t->log_seq;
	if ((err = ord_store_log_head(db, last, head_hash)) != 0)
		return err;
	err = ord_store_turn_read(db, turn + 1, &next);
	if (!err)
		*last = next.log_seq;
	else if (err != ORD_ENOTFOUND)
		return err;
	ord_error_clear();
	return 0;
}

/* What a record holds of the game and of its turn beside the log and
 * the rows, taken from their rows (the strings moved, not copied); the
 * game's tables only for a record that holds the log. */
static void take_heading(struct ord_record *r, struct ord_store_game *g,
			 const struct ord_store_turn *t, int tables)
{
	memcpy(r->game_id, g->game_id, 16);
	if (g->have_pk)
		memcpy(r->key, g->pk, 32);
	r->title = g->title;
	g->title = NULL;
	r->scenario = g->scenario;
	r->scenario_len = g->scenario_len;
	g->scenario = NULL;
	if (tables) {
		r->tables = g->tables ? g->tables : ord_strdup("");
		r->tables_len = g->tables ? g->tables_len : 0;
		g->tables = NULL;
	}
	r->exchanged = t->state == ORD_TURN_EXCHANGED;
	r->have_seed = 1;
	memcpy(r->seed, t->seed, 32);
	r->have_referee_witness = t->have_referee_witness;
	memcpy(r->referee_witness, t->referee_witness, 32);
}

/* A record of turn begun empty, and the load that fills it. */
static void load_begin(struct load *l, sqlite3 *db, int turn, struct ord_record *r)
{
	ord_record_init(r);
	memset(l, 0, sizeof(*l));
	l->scratch = (struct ord_buf)ORD_BUF_INIT;
	l->db = db;
	l->r = r;
	r->turn = turn;
}

/* ord_store_record_load_parts, the scenario's hash given (an audit's) or
 * read (scenario_hash NULL) */
static int load_parts(sqlite3 *db, int turn, unsigned parts, const unsigned char *scenario_hash,
		      struct ord_record *r)
{
	struct ord_store_game g;
	struct ord_store_turn t;
	struct load l;
	struct ord_rec_by_log by_log = { NULL, 0 };
	size_t i;
	int err, events_err = 0;

	memset(&g, 0, sizeof(g));
	load_begin(&l, db, turn, r);
	/* an audit's record hashes the scenario as it reads it, and keeps
	 * the hash: the audit holds the scenario once for every turn */
	if ((err = ord_store_turn_read(db, turn, &t)) != 0 ||
	    (err = ord_store_game_read(db, &g, (parts & ORD_REC_LOG) && !(parts & ORD_REC_BY_PHASE))) !=
		    0)
		goto out;
	if ((parts & ORD_REC_LOG) && (parts & ORD_REC_BY_PHASE)) {
		crypto_generichash_state h;
		if (scenario_hash) {
			/* the caller's, of these bytes (ord_store_record_load_hashed) */
			memcpy(r->scenario_hash, scenario_hash, 32);
		} else {
			crypto_generichash_init(&h, NULL, 0, 32);
			if ((err = ord_store_game_scenario_each(db, hash_piece, &h)) != 0)
				goto out;
			crypto_generichash_final(&h, r->scenario_hash, 32);
		}
		r->scenario_hashed = 1;
		r->scenario_load = load_scenario;
		r->rows_ud = db;
	}
	take_heading(r, &g, &t, !!(parts & ORD_REC_LOG));
	/* the log from this turn's opening to the next one's (or the head) */
	if ((err = span(db, &t, turn, &l.first, &l.last)) != 0)
		goto out;
	/* the events before the log, so that an event's entry need not keep
	 * the text the event makes again (ord_record_set_body); an error of
	 * theirs is told where it was before, after the log's, the units',
	 * the commitments' and the sheets' */
	if ((parts & ORD_REC_EVENTS) &&
	    (events_err = rows(&l, part_rows[EVENT_ROWS].sql, part_rows[EVENT_ROWS].put,
			       part_rows[EVENT_ROWS].what)) == 0 &&
	    (parts & ORD_REC_LOG)) {
		ord_record_by_log(&by_log, r);
		l.by_log = &by_log;
	}
	if (((parts & ORD_REC_LOG) &&
	     (err = ord_store_log_each(db, l.first, l.last, put_entry, &l)) != 0) ||
	    ((parts & ORD_REC_UNITS) && (err = ord_store_openings_each(db, turn, put_unit, &l)) != 0))
		goto out;
	ord_record_by_log_release(&by_log);
	l.by_log = NULL;
	for (i = 0; i < ORD_ARRAY_SIZE(part_rows); i++) {
		if (i == EVENT_ROWS) {
			if ((err = events_err) != 0)
				goto out;
			continue;
		}
		if ((parts & part_rows[i].part) &&
		    (err = rows(&l, part_rows[i].sql, part_rows[i].put, part_rows[i].what)) != 0)
			goto out;
	}
	if (parts & ORD_REC_BY_PHASE) {
		struct ord_record none;
		for (i = 0; i < ORD_ARRAY_SIZE(group_rows); i++) {
			size_t from = r->groups.n;
			if ((err = rows(&l, group_rows[i].sql, group_rows[i].put,
					group_rows[i].what)) != 0)
				goto out;
			groups_merge(r, from);
		}
		/* the rows' own queries, run now for no entry: a table without
		 * a column they read is a damaged file whether or not a phase
		 * was resolved, as it was when a record was read whole */
		if ((err = ord_store_record_load_entry(db, 0, &none)) != 0)
			goto out;
		ord_record_release(&none);
		r->rows_each = entry_rows_each;
		r->units_load = load_units;
		r->rows_ud = db;
	}
	if (turn > 1 && (parts & ORD_REC_SHEETS) &&
	    (err = rows(&l, PREVIOUS_ROWS, put_prev, "reading the sheets of the turn before")) != 0)
		goto out;
out:
	ord_record_by_log_release(&by_log);
	ord_buf_release(&l.scratch);
	ord_store_game_release(&g);
	if (err)
		ord_record_release(r);
	else
		ord_record_fit(r); /* an audit holds a turn's every row */
	return err;
}

int ord_store_record_load_parts(sqlite3 *db, int turn, unsigned parts, struct ord_record *r)
{
	return load_parts(db, turn, parts, NULL, r);
}

int ord_store_record_load_hashed(sqlite3 *db, int turn, const unsigned char scenario_hash[32],
				 struct ord_record *r)
{
	return load_parts(db, turn, ORD_REC_AUDIT, scenario_hash, r);
}

/* The rows of one log entry (?2, which is ?3): its index in each table
 * gives them in the order the queries above do. */
static const struct part_rows entry_rows[] = {
	{ ORD_REC_ROLLS, ROLL_ROWS "WHERE log_seq = ?2 AND ?1 = ?1 AND ?3 = ?3 ORDER BY id",
	  put_roll, "reading rolls" },
	{ ORD_REC_RESULTS,
	  RESULT_ROWS "WHERE r.log_seq = ?2 AND ?1 = ?1 AND ?3 = ?3 ORDER BY r.id, t.pos",
	  put_result, "reading results" },
	{ ORD_REC_STATES, STATE_ROWS "WHERE us.log_seq = ?2 AND ?1 = ?1 AND ?3 = ?3 ORDER BY us.unit_id",
	  put_state, "reading unit states" },
};

int ord_store_record_load_entry(sqlite3 *db, int64_t seq, struct ord_record *r)
{
	struct load l;
	size_t i;
	int err = 0;

	ord_record_init(r);
	memset(&l, 0, sizeof(l));
	l.db = db;
	l.r = r;
	l.first = l.last = seq;
	for (i = 0; !err && i < ORD_ARRAY_SIZE(entry_rows); i++)
		err = rows(&l, entry_rows[i].sql, entry_rows[i].put, entry_rows[i].what);
	if (err)
		ord_record_release(r);
	return err;
}

/* A log entry's rows as the replay takes them: read as for
 * ord_store_record_load_entry, and given to the sink a chunk at a time,
 * so that at most ord_record_chunk() rows of a phase are held. */
struct chunks {
	struct load l;
	struct ord_record tmp;
	const struct ord_rows_sink *sink;
	int64_t seq;
	size_t chunk;
};

static int flush(struct chunks *c)
{
	int err = ord_record_rows_held(&c->tmp, c->seq, c->sink);

	ord_record_release(&c->tmp);
	ord_record_init(&c->tmp);
	return err;
}

/* The rows of a query of entry_rows, in chunks; idcol, when not -1, the
 * column of a result's id (its languages come as rows of their own, and
 * a chunk ends between results). */
static int chunk_rows(struct chunks *c, const struct part_rows *q, int idcol)
{
	sqlite3_stmt *st = NULL;
	int err = 0, rc;

	if ((err = ord_store_stmt(c->l.db, &st, q->sql)) != 0)
		return err;
	sqlite3_bind_int(st, 1, 0);
	sqlite3_bind_int64(st, 2, c->seq);
	sqlite3_bind_int64(st, 3, c->seq);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (c->tmp.rolls.n + c->tmp.results.n + c->tmp.states.n >= c->chunk &&
		    (idcol < 0 || sqlite3_column_int64(st, idcol) != c->l.last_result) &&
		    (err = flush(c)) != 0)
			break;
		q->put(&c->l, st);
	}
	if (!err && rc != SQLITE_DONE)
		err = ord_store_error(c->l.db, q->what);
	ord_store_stmt_done(st);
	if (!err)
		err = flush(c);
	return err;
}

static int entry_rows_each(void *ud, int64_t seq, const struct ord_rows_sink *sink)
{
	struct chunks c;
	int err = 0;

	memset(&c, 0, sizeof(c));
	ord_record_init(&c.tmp);
	c.l.db = ud;
	c.l.r = &c.tmp;
	c.sink = sink;
	c.seq = seq;
	c.chunk = ord_record_chunk();
	if (sink->roll)
		err = chunk_rows(&c, &entry_rows[0], -1);
	if (!err && sink->result)
		err = chunk_rows(&c, &entry_rows[1], 7);
	if (!err && sink->state)
		err = chunk_rows(&c, &entry_rows[2], -1);
	ord_record_release(&c.tmp);
	return err;
}

/* ---- a turn's record as a stream (export) ---- */

/* Stops ord_store_log_each after the first entry. */
enum { FIRST_ONLY = 1 };

static int first_entry(void *ud, const struct ord_rec_entry *e, const unsigned char prev[32])
{
	put_entry(ud, e, prev);
	return FIRST_ONLY;
}

int ord_store_record_head(sqlite3 *db, int turn, struct ord_record *r)
{
	struct ord_store_game g;
	struct ord_store_turn t;
	struct load l;
	int err;

	memset(&g, 0, sizeof(g));
	load_begin(&l, db, turn, r);
	if ((err = ord_store_turn_read(db, turn, &t)) != 0 ||
	    (err = ord_store_game_read(db, &g, 1)) != 0)
		goto out;
	take_heading(r, &g, &t, 1);
	if ((err = span(db, &t, turn, &l.first, &l.last)) != 0)
		goto out;
	err = ord_store_log_each(db, l.first, l.last, first_entry, &l);
	if (err == FIRST_ONLY)
		err = 0;
out:
	ord_buf_release(&l.scratch);
	ord_store_game_release(&g);
	if (err)
		ord_record_release(r);
	return err;
}

/* The rows of a stream, a chunk at a time: each chunk holds rows of one
 * part only, and is handed on when it holds ord_record_chunk() rows, or
 * its part's rows end. */
struct stream {
	struct load l;
	struct ord_record tmp;
	size_t chunk;
	int turn;
	int (*rows)(void *ud, const struct ord_record *chunk);
	void *ud;
};

static size_t held(const struct ord_record *r)
{
	return r->units.n + r->entries.n + r->commits.n + r->sheets.n + r->previous.n +
	       r->events.n + r->links.n + r->rolls.n + r->results.n + r->states.n + r->heads.n;
}

static int hand_on(struct stream *s)
{
	int err = held(&s->tmp) ? s->rows(s->ud, &s->tmp) : 0;

	ord_record_release(&s->tmp);
	ord_record_init(&s->tmp);
	s->tmp.turn = s->turn;
	return err;
}

static int stream_unit(void *ud, const struct ord_store_unit *u)
{
	struct stream *s = ud;

	if (held(&s->tmp) >= s->chunk) {
		int err = hand_on(s);
		if (err)
			return err;
	}
	return put_unit(&s->l, u);
}

static int stream_entry(void *ud, const struct ord_rec_entry *e, const unsigned char prev[32])
{
	struct stream *s = ud;

	if (held(&s->tmp) >= s->chunk) {
		int err = hand_on(s);
		if (err)
			return err;
	}
	return put_entry(&s->l, e, prev);
}

/* A query of part_rows (or the sheets of the turn before) bound as rows()
 * binds it, in chunks; idcol as chunk_rows's. */
static int stream_rows(struct stream *s, const char *sql,
		       void (*put)(struct load *, sqlite3_stmt *), const char *what, int idcol)
{
	sqlite3_stmt *st = NULL;
	int err = 0, rc;

	if ((err = ord_store_stmt(s->l.db, &st, sql)) != 0)
		return err;
	sqlite3_bind_int(st, 1, s->turn);
	sqlite3_bind_int64(st, 2, s->l.first);
	sqlite3_bind_int64(st, 3, s->l.last);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (held(&s->tmp) >= s->chunk &&
		    (idcol < 0 || sqlite3_column_int64(st, idcol) != s->l.last_result) &&
		    (err = hand_on(s)) != 0)
			break;
		put(&s->l, st);
	}
	if (!err && rc != SQLITE_DONE)
		err = ord_store_error(s->l.db, what);
	ord_store_stmt_done(st);
	if (!err)
		err = hand_on(s);
	return err;
}

/* part_rows' entry of a part */
static const struct part_rows *part_of(unsigned part)
{
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(part_rows); i++)
		if (part_rows[i].part == part)
			return &part_rows[i];
	return NULL;
}

int ord_store_record_stream(sqlite3 *db, int turn,
			    int (*fn)(void *ud, const struct ord_record *chunk), void *ud)
{
	struct ord_store_turn t;
	struct stream s;
	int err;

	memset(&s, 0, sizeof(s));
	s.l.db = db;
	s.l.r = &s.tmp;
	s.chunk = ord_record_chunk();
	s.turn = turn;
	s.rows = fn;
	s.ud = ud;
	ord_record_init(&s.tmp);
	s.tmp.turn = turn;
	if ((err = ord_store_turn_read(db, turn, &t)) != 0 ||
	    (err = span(db, &t, turn, &s.l.first, &s.l.last)) != 0)
		goto out;
	/* in the bundle's order (ord_bundle_write): the units, the log, the
	 * commitments, the sheets, those of the turn before, the events, the
	 * witness links, the rolls, the results, the states, the heads */
	if ((err = ord_store_openings_each(db, turn, stream_unit, &s)) != 0 ||
	    (err = hand_on(&s)) != 0 ||
	    (err = ord_store_log_each(db, s.l.first, s.l.last, stream_entry, &s)) != 0 ||
	    (err = hand_on(&s)) != 0)
		goto out;
	err = stream_rows(&s, part_of(ORD_REC_COMMITS)->sql, put_commit,
			  part_of(ORD_REC_COMMITS)->what, -1);
	if (!err)
		err = stream_rows(&s, part_of(ORD_REC_SHEETS)->sql, put_sheet,
				  part_of(ORD_REC_SHEETS)->what, -1);
	if (!err && turn > 1)
		err = stream_rows(&s, PREVIOUS_ROWS, put_prev,
				  "reading the sheets of the turn before", -1);
	if (!err)
		err = stream_rows(&s, part_of(ORD_REC_EVENTS)->sql, put_event,
				  part_of(ORD_REC_EVENTS)->what, -1);
	if (!err)
		err = stream_rows(&s, part_rows[LINK_ROWS].sql, put_link, part_rows[LINK_ROWS].what,
				  -1);
	if (!err)
		err = stream_rows(&s, part_of(ORD_REC_ROLLS)->sql, put_roll,
				  part_of(ORD_REC_ROLLS)->what, -1);
	if (!err)
		err = stream_rows(&s, part_of(ORD_REC_RESULTS)->sql, put_result,
				  part_of(ORD_REC_RESULTS)->what, 7);
	if (!err)
		err = stream_rows(&s, part_of(ORD_REC_STATES)->sql, put_state,
				  part_of(ORD_REC_STATES)->what, -1);
	if (!err)
		err = stream_rows(&s, part_of(ORD_REC_HEADS)->sql, put_head,
				  part_of(ORD_REC_HEADS)->what, -1);
out:
	ord_record_release(&s.tmp);
	return err;
}
