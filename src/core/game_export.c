/*
 * game_export.c - `orderly export`: an exchanged turn as a signed bundle
 * (bundle.h, schema/bundle.rng).  Only an exchanged turn: before the
 * exchange its nonces and dice seed are secret.
 *
 * The bundle holds the turn's whole stretch of the log (from its "open"
 * entry to its "exchange" entry) with the hash it chains from, and every
 * row those entries vouch for, in the order their digests read them, so
 * that `verify` can recompute everything without the game file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bundle.h"
#include "core/game.h"

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? (const char *)s : "";
}

static void hexattr(struct ord_buf *a, const char *name, const void *p, size_t n)
{
	ord_buf_addf(a, " %s=\"", name);
	ord_buf_add_hex(a, p, n);
	ord_buf_addch(a, '"');
}

/* The text of column i as an element (its bytes, NUL-free or not). */
static void col_elem(struct ord_buf *out, int indent, const char *name, sqlite3_stmt *st, int i)
{
	const void *p = sqlite3_column_blob(st, i);
	size_t n = (size_t)sqlite3_column_bytes(st, i);

	ord_bundle_elem(out, indent, name, "", p ? p : "", n, 0);
}

/* An attribute from a text column; export fails rather than write one
 * that would not read back the same. */
static int col_attr(struct ord_buf *a, const char *name, sqlite3_stmt *st, int i)
{
	return ord_bundle_attr(a, name, col_text(st, i));
}

static int put_sides(struct ord_game *g, struct ord_buf *out)
{
	size_t i;
	int err;

	for (i = 0; i < g->nsides; i++) {
		struct ord_buf a = ORD_BUF_INIT;
		if ((err = ord_bundle_attr(&a, "id", g->sides[i].name)) != 0) {
			ord_buf_release(&a);
			return err;
		}
		if (g->sides[i].has_key)
			hexattr(&a, "key", g->sides[i].pubkey, 32);
		ord_buf_addf(out, "  <side%s/>\n", a.buf);
		ord_buf_release(&a);
	}
	return 0;
}

/* The log entries of the turn; *resolves receives the seqs of its
 * "resolve" entries (malloc'd). */
static int put_log(struct ord_game *g, int turn, struct ord_buf *out, int64_t **resolves,
		   size_t *nresolves)
{
	sqlite3_stmt *st = NULL;
	int err, rc, first = 1;

	*resolves = NULL;
	*nresolves = 0;
	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT seq, turn, kind, body, at, prev, hash FROM log WHERE turn = ? ORDER BY seq")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ord_buf a = ORD_BUF_INIT;
		if (sqlite3_column_bytes(st, 5) != 32 || sqlite3_column_bytes(st, 6) != 32) {
			err = ord_error_set(ORD_ETAMPERED,
					    "log entry %lld is damaged: run 'orderly audit'",
					    (long long)sqlite3_column_int64(st, 0));
			break;
		}
		if (first) {
			ord_buf_adds(out, "  <log");
			hexattr(out, "prev", sqlite3_column_blob(st, 5), 32);
			ord_buf_adds(out, ">\n");
			first = 0;
		}
		ord_buf_addf(&a, " seq=\"%lld\" turn=\"%d\"",
			     (long long)sqlite3_column_int64(st, 0), sqlite3_column_int(st, 1));
		if ((err = col_attr(&a, "kind", st, 2)) != 0) {
			ord_buf_release(&a);
			break;
		}
		ord_buf_addf(&a, " at=\"%lld\"", (long long)sqlite3_column_int64(st, 4));
		hexattr(&a, "hash", sqlite3_column_blob(st, 6), 32);
		ord_bundle_elem(out, 4, "entry", a.buf,
				sqlite3_column_blob(st, 3) ? sqlite3_column_blob(st, 3) : "",
				(size_t)sqlite3_column_bytes(st, 3), 0);
		if (!strcmp(col_text(st, 2), "resolve")) {
			*resolves = ord_xrealloc(*resolves, (*nresolves + 1) * sizeof(**resolves));
			(*resolves)[(*nresolves)++] = sqlite3_column_int64(st, 0);
		}
		ord_buf_release(&a);
	}
	if (!err && rc != SQLITE_DONE)
		err = ord_store_error(g->db, "reading the log");
	if (!err && first)
		err = ord_error_set(ORD_ETAMPERED,
				    "turn %d has no log entries: run 'orderly audit'", turn);
	if (!err)
		ord_buf_adds(out, "  </log>\n");
	sqlite3_finalize(st);
	return err;
}

static int put_commitments(struct ord_game *g, int turn, struct ord_buf *out)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT side.name, c.version, c.commitment, c.signature, c.log_seq FROM commitment c "
				     "JOIN side ON side.id = c.side_id WHERE c.turn = ? ORDER BY c.id")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ord_buf a = ORD_BUF_INIT;
		if ((err = col_attr(&a, "side", st, 0)) == 0) {
			ord_buf_addf(&a, " version=\"%d\"", sqlite3_column_int(st, 1));
			hexattr(&a, "commitment", sqlite3_column_blob(st, 2), 32);
			hexattr(&a, "signature", sqlite3_column_blob(st, 3), 64);
			ord_buf_addf(&a, " log=\"%lld\"", (long long)sqlite3_column_int64(st, 4));
			ord_buf_addf(out, "  <commitment%s/>\n", a.buf);
		}
		ord_buf_release(&a);
		if (err)
			break;
	}
	if (!err && rc != SQLITE_DONE)
		err = ord_store_error(g->db, "reading commitments");
	sqlite3_finalize(st);
	return err;
}

static int put_sheets(struct ord_game *g, int turn, struct ord_buf *out)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT side.name, s.version, s.source, s.bytes, s.nonce, s.commitment, s.signature, "
				     "s.log_seq FROM sheet s JOIN side ON side.id = s.side_id WHERE s.turn = ? ORDER BY s.id")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ord_buf a = ORD_BUF_INIT;
		if (sqlite3_column_bytes(st, 4) != 32 || sqlite3_column_bytes(st, 5) != 32 ||
		    (sqlite3_column_type(st, 6) != SQLITE_NULL && sqlite3_column_bytes(st, 6) != 64)) {
			err = ord_error_set(ORD_ETAMPERED,
					    "a sheet of turn %d is damaged: run 'orderly audit'",
					    turn);
		} else if ((err = col_attr(&a, "side", st, 0)) == 0 &&
			   (err = col_attr(&a, "source", st, 2)) == 0) {
			ord_buf_addf(&a, " version=\"%d\"", sqlite3_column_int(st, 1));
			hexattr(&a, "nonce", sqlite3_column_blob(st, 4), 32);
			hexattr(&a, "commitment", sqlite3_column_blob(st, 5), 32);
			if (sqlite3_column_type(st, 6) != SQLITE_NULL)
				hexattr(&a, "signature", sqlite3_column_blob(st, 6), 64);
			ord_buf_addf(&a, " log=\"%lld\"", (long long)sqlite3_column_int64(st, 7));
			ord_bundle_elem(out, 2, "sheet", a.buf,
					sqlite3_column_blob(st, 3) ? sqlite3_column_blob(st, 3) : "",
					(size_t)sqlite3_column_bytes(st, 3), 1);
		}
		ord_buf_release(&a);
		if (err)
			break;
	}
	if (!err && rc != SQLITE_DONE)
		err = ord_store_error(g->db, "reading sheets");
	sqlite3_finalize(st);
	return err;
}

static int put_events(struct ord_game *g, int turn, struct ord_buf *out)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT seq, phase, kind, args, override, checks, log_seq FROM event WHERE turn = ? ORDER BY id")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ord_buf a = ORD_BUF_INIT;
		ord_buf_addf(&a, " seq=\"%d\"", sqlite3_column_int(st, 0));
		if ((err = col_attr(&a, "phase", st, 1)) == 0 &&
		    (err = col_attr(&a, "kind", st, 2)) == 0) {
			ord_buf_addf(&a, " log=\"%lld\"", (long long)sqlite3_column_int64(st, 6));
			ord_buf_addf(out, "  <event%s>\n", a.buf);
			col_elem(out, 4, "args", st, 3);
			if (sqlite3_column_type(st, 4) != SQLITE_NULL)
				col_elem(out, 4, "override", st, 4);
			col_elem(out, 4, "checks", st, 5);
			ord_buf_adds(out, "  </event>\n");
		}
		ord_buf_release(&a);
		if (err)
			break;
	}
	if (!err && rc != SQLITE_DONE)
		err = ord_store_error(g->db, "reading events");
	sqlite3_finalize(st);
	return err;
}

/* Rolls, results and unit states under one "resolve" entry, in the order
 * ord_game_phase_digest reads them. */
static int put_phase_rows(struct ord_game *g, int64_t seq, struct ord_buf *out)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT turn, phase, event_seq, purpose, idx, sides, value, fixed FROM roll WHERE log_seq = ? ORDER BY id")) !=
	    0)
		return err;
	sqlite3_bind_int64(st, 1, seq);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ord_buf a = ORD_BUF_INIT;
		ord_buf_addf(&a, " log=\"%lld\" turn=\"%d\"", (long long)seq,
			     sqlite3_column_int(st, 0));
		if ((err = col_attr(&a, "phase", st, 1)) == 0) {
			ord_buf_addf(&a, " event=\"%d\"", sqlite3_column_int(st, 2));
			if ((err = col_attr(&a, "purpose", st, 3)) == 0) {
				ord_buf_addf(&a, " index=\"%d\" sides=\"%d\" value=\"%d\" fixed=\"%s\"",
					     sqlite3_column_int(st, 4), sqlite3_column_int(st, 5),
					     sqlite3_column_int(st, 6),
					     sqlite3_column_int(st, 7) ? "yes" : "no");
				ord_buf_addf(out, "  <roll%s/>\n", a.buf);
			}
		}
		ord_buf_release(&a);
		if (err)
			goto out;
	}
	if (rc != SQLITE_DONE) {
		err = ord_store_error(g->db, "reading rolls");
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT turn, phase, event_seq, unit, vals, explanation FROM result WHERE log_seq = ? ORDER BY id")) !=
	    0)
		return err;
	sqlite3_bind_int64(st, 1, seq);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ord_buf a = ORD_BUF_INIT;
		ord_buf_addf(&a, " log=\"%lld\" turn=\"%d\"", (long long)seq,
			     sqlite3_column_int(st, 0));
		if ((err = col_attr(&a, "phase", st, 1)) == 0) {
			ord_buf_addf(&a, " event=\"%d\"", sqlite3_column_int(st, 2));
			if ((err = col_attr(&a, "unit", st, 3)) == 0) {
				ord_buf_addf(out, "  <result%s>\n", a.buf);
				col_elem(out, 4, "values", st, 4);
				col_elem(out, 4, "explanation", st, 5);
				ord_buf_adds(out, "  </result>\n");
			}
		}
		ord_buf_release(&a);
		if (err)
			goto out;
	}
	if (rc != SQLITE_DONE) {
		err = ord_store_error(g->db, "reading results");
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT unit.uid, unit.attrs, us.turn, us.phase, us.state FROM unit_state us "
				     "JOIN unit ON unit.id = us.unit_id WHERE us.log_seq = ? ORDER BY us.unit_id")) !=
	    0)
		return err;
	sqlite3_bind_int64(st, 1, seq);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ord_buf a = ORD_BUF_INIT;
		ord_buf_addf(&a, " log=\"%lld\"", (long long)seq);
		if ((err = col_attr(&a, "unit", st, 0)) == 0) {
			ord_buf_addf(&a, " turn=\"%d\" phase=\"%d\"", sqlite3_column_int(st, 2),
				     sqlite3_column_int(st, 3));
			ord_buf_addf(out, "  <state%s>\n", a.buf);
			col_elem(out, 4, "attrs", st, 1);
			col_elem(out, 4, "value", st, 4);
			ord_buf_adds(out, "  </state>\n");
		}
		ord_buf_release(&a);
		if (err)
			goto out;
	}
	if (rc != SQLITE_DONE)
		err = ord_store_error(g->db, "reading unit states");
out:
	sqlite3_finalize(st);
	return err;
}

static int put_heads(struct ord_game *g, int turn, struct ord_buf *out)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT at, seq, hash, signature FROM head WHERE turn = ? ORDER BY seq")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite3_column_bytes(st, 2) != 32 || sqlite3_column_bytes(st, 3) != 64) {
			err = ord_error_set(ORD_ETAMPERED,
					    "a signed head of turn %d is damaged: run 'orderly audit'",
					    turn);
			break;
		}
		ord_buf_addf(out, "  <head at=\"%s\" seq=\"%lld\"",
			     !strcmp(col_text(st, 0), "seal") ? "seal" : "exchange",
			     (long long)sqlite3_column_int64(st, 1));
		hexattr(out, "hash", sqlite3_column_blob(st, 2), 32);
		hexattr(out, "signature", sqlite3_column_blob(st, 3), 64);
		ord_buf_adds(out, "/>\n");
	}
	if (!err && rc != SQLITE_DONE)
		err = ord_store_error(g->db, "reading signed heads");
	sqlite3_finalize(st);
	return err;
}

int ord_game_export(ord_game *g, int turn, struct ord_buf *out)
{
	struct ord_buf doc = ORD_BUF_INIT;
	struct ord_turn t;
	int64_t *resolves = NULL;
	size_t nresolves = 0, i;
	int err;

	if ((err = ord_game_turn(g, &t, turn)) != 0)
		return err;
	if (strcmp(t.state, "exchanged"))
		return ord_error_set(ORD_ESTATE,
				     "turn %d is %s: only an exchanged turn can be exported (its nonces and dice seed stay secret until 'orderly exchange')",
				     turn, t.state);
	if (!g->have_pk)
		return ord_error_set(ORD_ESTATE,
				     "'%s' has no key to sign with (a game made before keys gets one at its next seal)",
				     g->path);
	if (!g->have_sk)
		return ord_error_set(ORD_EUSAGE,
				     "the key of '%s' is kept outside the game file: give it with --key FILE to sign the bundle",
				     g->path);
	/* one read transaction: a consistent snapshot of the turn */
	if ((err = ord_store_exec(g->db, "BEGIN")) != 0)
		return err;
	ord_buf_adds(&doc, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			   "<!-- An orderly turn bundle, signed by the game's key.  Check it with\n"
			   "     'orderly verify FILE', giving the game's key and your receipt. -->\n"
			   "<bundle format=\"" ORD_BUNDLE_FORMAT "\" game=\"");
	ord_buf_add_hex(&doc, g->game_id, 16);
	ord_buf_addf(&doc, "\" turn=\"%d\"", turn);
	if ((err = ord_bundle_attr(&doc, "ruleset", g->rs->name)) != 0)
		goto out;
	ord_buf_addf(&doc, " referee=\"%s\">\n  <key>", g->refereeless ? "no" : "yes");
	ord_buf_add_hex(&doc, g->pk, 32);
	ord_buf_adds(&doc, "</key>\n");
	ord_bundle_elem(&doc, 2, "title", "", g->title, strlen(g->title), 0);
	if ((err = put_sides(g, &doc)) != 0)
		goto out;
	ord_buf_adds(&doc, "  <seed");
	hexattr(&doc, "commitment", t.seed_commitment, 32);
	ord_buf_adds(&doc, ">");
	ord_buf_add_hex(&doc, t.seed, 32);
	ord_buf_adds(&doc, "</seed>\n");
	if ((err = put_log(g, turn, &doc, &resolves, &nresolves)) != 0 ||
	    (err = put_commitments(g, turn, &doc)) != 0 || (err = put_sheets(g, turn, &doc)) != 0 ||
	    (err = put_events(g, turn, &doc)) != 0)
		goto out;
	for (i = 0; i < nresolves; i++)
		if ((err = put_phase_rows(g, resolves[i], &doc)) != 0)
			goto out;
	if ((err = put_heads(g, turn, &doc)) != 0)
		goto out;
	ord_buf_adds(&doc, "  ");
	ord_bundle_sign(&doc, g->sk);
	ord_buf_add(out, doc.buf, doc.len);
out:
	ord_store_exec(g->db, "COMMIT");
	free(resolves);
	ord_buf_release(&doc);
	return err;
}
