/*
 * game_audit.c - `orderly audit`: recompute the hash chain of the log, every
 * sheet commitment, every event, every phase digest (rolls, results, unit
 * states), the turn seeds against their commitments and every roll from the
 * seeds; then list where the execution differed from the orders.
 *
 * Each problem is reported once, naming the log entry, sheet, event or turn.
 * A host who rewrites the whole file and recomputes the whole chain leaves
 * it consistent; only a signed head kept by a player shows the rewrite
 * (ord_game_audit_heads, `audit --head FILE`).  Signatures are checked too:
 * the sides' over their commitments, the game's over its stored heads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/canon.h"
#include "core/game.h"

struct entry {
	int turn;
	char *kind;
	char *body;
	int used; /* rows found that this entry vouches for */
};

struct audit {
	struct ord_game *g;
	struct ord_buf *out;
	int only_turn;     /* 0: all */
	struct entry *log; /* indexed by seq (1-based) */
	int64_t nlog;
	int problems;
};

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? (const char *)s : "";
}

static void problem(struct audit *a, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
static void problem(struct audit *a, const char *fmt, ...)
{
	va_list ap;

	ord_buf_adds(a->out, "  BROKEN: ");
	va_start(ap, fmt);
	ord_buf_vaddf(a->out, fmt, ap);
	va_end(ap);
	ord_buf_addch(a->out, '\n');
	a->problems++;
}

static struct entry *entry_at(struct audit *a, int64_t seq, const char *kind, const char *what)
{
	if (seq < 1 || seq > a->nlog || !a->log[seq].kind) {
		problem(a, "%s points at log entry %lld, which does not exist", what, (long long)seq);
		return NULL;
	}
	if (strcmp(a->log[seq].kind, kind)) {
		problem(a, "%s points at log entry %lld, a '%s' entry, not '%s'", what,
			(long long)seq, a->log[seq].kind, kind);
		return NULL;
	}
	a->log[seq].used++;
	return &a->log[seq];
}

#define body_get ord_canon_get

static int check_chain(struct audit *a)
{
	sqlite3_stmt *st = NULL;
	unsigned char prev[32] = { 0 }, h[32];
	int64_t expect = 1, head_seq = 0;
	int err, rc;

	if ((err = ord_store_prepare(a->g->db, &st, "SELECT count(*), max(seq) FROM log")) != 0)
		return err;
	if (sqlite3_step(st) == SQLITE_ROW)
		a->nlog = sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
	a->log = ord_xcalloc((size_t)a->nlog + 2, sizeof(*a->log));
	if ((err = ord_store_prepare(a->g->db, &st,
				     "SELECT seq, turn, kind, body, at, prev, hash FROM log ORDER BY seq")) !=
	    0)
		return err;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t seq = sqlite3_column_int64(st, 0);
		const void *sp = sqlite3_column_blob(st, 5), *sh = sqlite3_column_blob(st, 6);
		int ok_sizes = sqlite3_column_bytes(st, 5) == 32 && sqlite3_column_bytes(st, 6) == 32;

		if (seq != expect) {
			problem(a, "log entries %lld to %lld are missing (deleted)",
				(long long)expect, (long long)seq - 1);
		}
		expect = seq + 1;
		a->log[seq].turn = sqlite3_column_int(st, 1);
		a->log[seq].kind = ord_strdup(col_text(st, 2));
		a->log[seq].body = ord_strdup(col_text(st, 3));
		if (!ok_sizes) {
			problem(a, "log entry %lld (%s): its hashes are damaged", (long long)seq,
				a->log[seq].kind);
			continue;
		}
		if (memcmp(sp, prev, 32))
			problem(a, "log entry %lld (%s, turn %d): does not chain from the entry before it",
				(long long)seq, a->log[seq].kind, a->log[seq].turn);
		ord_log_hash(h, sp, seq, a->log[seq].turn, a->log[seq].kind, a->log[seq].body,
			     sqlite3_column_int64(st, 4));
		if (memcmp(h, sh, 32))
			problem(a, "log entry %lld (%s, turn %d): its content does not match its hash (edited)",
				(long long)seq, a->log[seq].kind, a->log[seq].turn);
		memcpy(prev, sh, 32);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return ord_store_error(a->g->db, "reading the log");
	if ((err = ord_store_prepare(a->g->db, &st, "SELECT seq, hash FROM log_head")) != 0)
		return err;
	if (sqlite3_step(st) == SQLITE_ROW) {
		head_seq = sqlite3_column_int64(st, 0);
		if (head_seq != a->nlog)
			problem(a, "the log ends at entry %lld but the game's head is entry %lld (entries removed from the end)",
				(long long)a->nlog, (long long)head_seq);
		else if (sqlite3_column_bytes(st, 1) != 32 ||
			 memcmp(sqlite3_column_blob(st, 1), prev, 32))
			problem(a, "the game's head hash does not match the last log entry");
	} else {
		problem(a, "the log's head is missing (deleted)");
	}
	sqlite3_finalize(st);
	ord_buf_addf(a->out, "  log: %lld entries checked\n", (long long)a->nlog);
	return 0;
}

static int check_create(struct audit *a)
{
	sqlite3_stmt *st = NULL;
	struct entry *e;
	unsigned char h[32];
	char hex[65], gid[33], *v;
	int err;

	if ((err = ord_store_prepare(a->g->db, &st, "SELECT game_id, scenario, tables FROM game")) != 0)
		return err;
	if (sqlite3_step(st) != SQLITE_ROW) {
		sqlite3_finalize(st);
		problem(a, "the game record is missing");
		return 0;
	}
	if (a->nlog < 1 || !a->log[1].kind || strcmp(a->log[1].kind, "create")) {
		problem(a, "log entry 1 is not the game's creation");
		sqlite3_finalize(st);
		return 0;
	}
	e = &a->log[1];
	e->used++;
	ord_hex(gid, sqlite3_column_blob(st, 0), (size_t)sqlite3_column_bytes(st, 0) == 16 ? 16 : 0);
	v = body_get(e->body, "game_id");
	if (!v || strcmp(v, gid))
		problem(a, "the game id does not match the one logged at creation");
	free(v);
	crypto_generichash(h, 32, sqlite3_column_blob(st, 1), (size_t)sqlite3_column_bytes(st, 1),
			   NULL, 0);
	ord_hex(hex, h, 32);
	v = body_get(e->body, "scenario");
	if (!v || strcmp(v, hex))
		problem(a, "the stored scenario differs from the one logged at creation");
	free(v);
	crypto_generichash(h, 32,
			   sqlite3_column_blob(st, 2) ? sqlite3_column_blob(st, 2) : (const void *)"",
			   (size_t)sqlite3_column_bytes(st, 2), NULL, 0);
	ord_hex(hex, h, 32);
	v = body_get(e->body, "tables");
	if (!v || strcmp(v, hex))
		problem(a, "the stored rules tables differ from the ones logged at creation");
	free(v);
	sqlite3_finalize(st);
	return 0;
}

static const struct ord_game_side *side_named(struct audit *a, const char *name)
{
	return ord_game_side_by_name(a->g, name);
}

static int check_sheets(struct audit *a)
{
	sqlite3_stmt *st = NULL;
	struct ord_buf body = ORD_BUF_INIT, what = ORD_BUF_INIT;
	int err, rc, n = 0, nsigned = 0;

	if ((err = ord_store_prepare(a->g->db, &st,
				     "SELECT sheet.turn, side.name, sheet.version, sheet.source, sheet.bytes, sheet.nonce, "
				     "sheet.commitment, sheet.log_seq, sheet.signature FROM sheet LEFT JOIN side ON side.id = sheet.side_id "
				     "WHERE ?1 = 0 OR sheet.turn = ?1 ORDER BY sheet.id")) != 0)
		return err;
	sqlite3_bind_int(st, 1, a->only_turn);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int turn = sqlite3_column_int(st, 0);
		const char *side = col_text(st, 1);
		int version = sqlite3_column_int(st, 2);
		const char *source = col_text(st, 3);
		const struct ord_game_side *sd = side_named(a, side);
		const unsigned char *sig = NULL;
		int64_t lseq = sqlite3_column_int64(st, 7);
		unsigned char c[32];
		struct entry *e;

		n++;
		ord_buf_reset(&what);
		ord_buf_addf(&what, "sheet of %s, turn %d, version %d", side, turn, version);
		if (sqlite3_column_bytes(st, 5) != 32 || sqlite3_column_bytes(st, 6) != 32) {
			problem(a, "%s: nonce or commitment damaged", what.buf);
			continue;
		}
		if (sqlite3_column_type(st, 8) != SQLITE_NULL) {
			if (sqlite3_column_bytes(st, 8) != 64) {
				problem(a, "%s: its signature is damaged", what.buf);
				continue;
			}
			sig = sqlite3_column_blob(st, 8);
		}
		ord_commit_sheet(c, a->g->game_id, turn, side, sqlite3_column_blob(st, 5),
				 sqlite3_column_blob(st, 4) ? sqlite3_column_blob(st, 4)
							    : (const void *)"",
				 (size_t)sqlite3_column_bytes(st, 4));
		if (memcmp(c, sqlite3_column_blob(st, 6), 32))
			problem(a, "%s: its text no longer matches its commitment (changed after it was received)",
				what.buf);
		if (sd && sd->has_key && !strcmp(source, "submitted")) {
			if (!sig)
				problem(a, "%s: unsigned, but side %s signs its sheets", what.buf,
					side);
			else if (ord_sheet_sig_check(sd->pubkey, sig, a->g->game_id, turn, side,
						     sqlite3_column_blob(st, 6)))
				problem(a, "%s: its signature is not side %s's over its commitment",
					what.buf, side);
			else
				nsigned++;
		} else if (sig) {
			problem(a, "%s: carries a signature no key of the game can check", what.buf);
		}
		/* an opened commitment is logged as an "opening" (its signature is
		 * in the "commit" entry); any other sheet as a "sheet" */
		if (lseq >= 1 && lseq <= a->nlog && a->log[lseq].kind &&
		    !strcmp(a->log[lseq].kind, "opening")) {
			e = entry_at(a, lseq, "opening", what.buf);
			if (!e)
				continue;
			ord_buf_reset(&body);
			ord_canon_opening(&body, side, version, sqlite3_column_blob(st, 6));
		} else {
			e = entry_at(a, lseq, "sheet", what.buf);
			if (!e)
				continue;
			ord_buf_reset(&body);
			ord_canon_sheet(&body, side, version, source, sqlite3_column_blob(st, 6), sig);
		}
		if (strcmp(body.buf, e->body) || e->turn != turn)
			problem(a, "%s: differs from the receipt logged in entry %lld", what.buf,
				(long long)lseq);
	}
	sqlite3_finalize(st);
	ord_buf_release(&body);
	ord_buf_release(&what);
	if (rc != SQLITE_DONE)
		return ord_store_error(a->g->db, "reading sheets");
	ord_buf_addf(a->out, "  sheets: %d commitments recomputed, %d signatures checked\n", n,
		     nsigned);
	return 0;
}

/* Referee-less games: every signed commitment against its entry and its
 * side's key, and its opening (if any) against it. */
static int check_commitments(struct audit *a)
{
	sqlite3_stmt *st = NULL;
	struct ord_buf body = ORD_BUF_INIT, what = ORD_BUF_INIT;
	int err, rc, n = 0;

	if ((err = ord_store_prepare(a->g->db, &st,
				     "SELECT c.turn, side.name, c.version, c.commitment, c.signature, c.log_seq, "
				     "(SELECT count(*) FROM sheet s WHERE s.turn = c.turn AND s.side_id = c.side_id "
				     "AND s.version = c.version), (SELECT count(*) FROM sheet s WHERE s.turn = c.turn "
				     "AND s.side_id = c.side_id AND s.version = c.version AND s.commitment = c.commitment) "
				     "FROM commitment c LEFT JOIN side ON side.id = c.side_id "
				     "WHERE ?1 = 0 OR c.turn = ?1 ORDER BY c.id")) != 0)
		return err;
	sqlite3_bind_int(st, 1, a->only_turn);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int turn = sqlite3_column_int(st, 0), version = sqlite3_column_int(st, 2);
		const char *side = col_text(st, 1);
		const struct ord_game_side *sd = side_named(a, side);
		struct entry *e;

		n++;
		ord_buf_reset(&what);
		ord_buf_addf(&what, "commitment of %s, turn %d, version %d", side, turn, version);
		if (sqlite3_column_bytes(st, 3) != 32 || sqlite3_column_bytes(st, 4) != 64) {
			problem(a, "%s: damaged", what.buf);
			continue;
		}
		if (!sd || !sd->has_key ||
		    ord_sheet_sig_check(sd->pubkey, sqlite3_column_blob(st, 4), a->g->game_id, turn,
					side, sqlite3_column_blob(st, 3)))
			problem(a, "%s: its signature is not side %s's", what.buf, side);
		if (sqlite3_column_int(st, 6) && !sqlite3_column_int(st, 7))
			problem(a, "%s: the sheet opened for it does not have its commitment",
				what.buf);
		e = entry_at(a, sqlite3_column_int64(st, 5), "commit", what.buf);
		if (!e)
			continue;
		ord_buf_reset(&body);
		ord_canon_commit(&body, side, version, sqlite3_column_blob(st, 3),
				 sqlite3_column_blob(st, 4));
		if (strcmp(body.buf, e->body) || e->turn != turn)
			problem(a, "%s: differs from what was logged in entry %lld", what.buf,
				(long long)sqlite3_column_int64(st, 5));
	}
	sqlite3_finalize(st);
	ord_buf_release(&body);
	ord_buf_release(&what);
	if (rc != SQLITE_DONE)
		return ord_store_error(a->g->db, "reading commitments");
	if (n || a->g->refereeless)
		ord_buf_addf(a->out, "  commitments: %d signed commitments checked\n", n);
	return 0;
}

/* Every "seal" entry names, per side, the version and commitment sealed:
 * they must still be the latest the side handed in. */
static int check_seals(struct audit *a)
{
	struct ord_buf body = ORD_BUF_INIT;
	int64_t seq;
	size_t i;
	int err;

	for (seq = 1; seq <= a->nlog; seq++) {
		struct entry *e = &a->log[seq];
		char *forced;

		if (!e->kind || strcmp(e->kind, "seal") || (a->only_turn && e->turn != a->only_turn))
			continue;
		e->used++;
		forced = body_get(e->body, "forced");
		ord_buf_reset(&body);
		ord_buf_addf(&body, "turn=%d\nforced=%s\n", e->turn, forced ? forced : "");
		free(forced);
		for (i = 0; i < a->g->nsides; i++) {
			unsigned char c[32];
			int version, opened;
			if ((err = ord_game_latest(a->g, e->turn, a->g->sides[i].id, &version, c,
						   &opened)) != 0) {
				ord_buf_release(&body);
				return err;
			}
			ord_buf_addf(&body, "sealed.%s=%d:", a->g->sides[i].name, version);
			ord_buf_add_hex(&body, c, 32);
			ord_buf_addch(&body, '\n');
		}
		if (strcmp(body.buf, e->body))
			problem(a, "turn %d: the sheets sealed in entry %lld are not the latest the sides handed in",
				e->turn, (long long)seq);
	}
	ord_buf_release(&body);
	return 0;
}

/* The game's key is the one logged when it was made (or given later). */
static void check_key(struct audit *a)
{
	char hex[65], *v = NULL, *ref;
	int64_t seq;

	for (seq = 1; seq <= a->nlog; seq++) {
		struct entry *e = &a->log[seq];
		if (!e->kind || (strcmp(e->kind, "create") && strcmp(e->kind, "key")))
			continue;
		if (!strcmp(e->kind, "key"))
			e->used++;
		free(v);
		v = body_get(e->body, "key");
	}
	if (a->g->have_pk) {
		ord_hex(hex, a->g->pk, 32);
		if (!v || strcmp(v, hex))
			problem(a, "the game's key is not the one logged when it was made");
	} else if (v) {
		problem(a, "the game's key logged when it was made is missing from the game file");
	}
	free(v);
	ref = a->nlog >= 1 && a->log[1].kind ? body_get(a->log[1].body, "referee") : NULL;
	if (!!a->g->refereeless != !!(ref && !strcmp(ref, "no")))
		problem(a, "the game says it %s a referee, but it was made %s one",
			a->g->refereeless ? "has no" : "has",
			ref && !strcmp(ref, "no") ? "without" : "with");
	free(ref);
}

/* A signed head against the log: the entry it names must be there with the
 * hash that was signed. */
static void check_one_head(struct audit *a, const struct ord_head *h, const char *what)
{
	sqlite3_stmt *st = NULL;
	char hex[65];

	if (memcmp(h->game_id, a->g->game_id, 16)) {
		problem(a, "%s: it is a head of another game", what);
		return;
	}
	if (!a->g->have_pk || memcmp(h->key, a->g->pk, 32)) {
		ord_hex(hex, h->key, 32);
		problem(a, "%s: signed by key %s, which is not the game's (the game's key was replaced)",
			what, hex);
		return;
	}
	if (ord_head_check(h)) {
		problem(a, "%s: its signature does not hold", what);
		return;
	}
	if (h->seq < 1 || h->seq > a->nlog || !a->log[h->seq].kind) {
		problem(a, "%s: log entry %lld it signed is gone (the log was cut back)", what,
			(long long)h->seq);
		return;
	}
	if (ord_store_prepare(a->g->db, &st, "SELECT hash, turn, kind FROM log WHERE seq = ?"))
		return;
	sqlite3_bind_int64(st, 1, h->seq);
	if (sqlite3_step(st) != SQLITE_ROW || sqlite3_column_bytes(st, 0) != 32 ||
	    memcmp(sqlite3_column_blob(st, 0), h->hash, 32))
		problem(a, "%s: log entry %lld no longer has the hash that was signed: the history up to it was rewritten",
			what, (long long)h->seq);
	else if (sqlite3_column_int(st, 1) != h->turn || strcmp(col_text(st, 2), h->at))
		problem(a, "%s: log entry %lld is not the %s of turn %d", what, (long long)h->seq,
			h->at, h->turn);
	sqlite3_finalize(st);
}

static int check_heads(struct audit *a, const struct ord_head *given, size_t ngiven)
{
	sqlite3_stmt *st = NULL;
	struct ord_buf what = ORD_BUF_INIT;
	int err, rc, n = 0;
	size_t i;

	if ((err = ord_store_prepare(a->g->db, &st,
				     "SELECT seq, turn, at, hash, signature FROM head WHERE ?1 = 0 OR turn = ?1 ORDER BY seq")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, a->only_turn);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ord_head h;

		n++;
		ord_buf_reset(&what);
		ord_buf_addf(&what, "the signed head of turn %d's %s", sqlite3_column_int(st, 1),
			     col_text(st, 2));
		if (sqlite3_column_bytes(st, 3) != 32 || sqlite3_column_bytes(st, 4) != 64) {
			problem(a, "%s: damaged", what.buf);
			continue;
		}
		memset(&h, 0, sizeof(h));
		memcpy(h.game_id, a->g->game_id, 16);
		h.turn = sqlite3_column_int(st, 1);
		snprintf(h.at, sizeof(h.at), "%s", col_text(st, 2));
		h.seq = sqlite3_column_int64(st, 0);
		memcpy(h.hash, sqlite3_column_blob(st, 3), 32);
		memcpy(h.signature, sqlite3_column_blob(st, 4), 64);
		if (a->g->have_pk)
			memcpy(h.key, a->g->pk, 32);
		check_one_head(a, &h, what.buf);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		ord_buf_release(&what);
		return ord_store_error(a->g->db, "reading signed heads");
	}
	ord_buf_addf(a->out, "  heads: %d signed heads in the game checked\n", n);
	for (i = 0; i < ngiven; i++) {
		int before = a->problems;
		ord_buf_reset(&what);
		ord_buf_addf(&what, "the head you kept of turn %d's %s (entry %lld)", given[i].turn,
			     given[i].at, (long long)given[i].seq);
		check_one_head(a, &given[i], what.buf);
		if (a->problems == before)
			ord_buf_addf(a->out, "  %s: matches; nothing up to it was rewritten\n",
				     what.buf);
	}
	ord_buf_release(&what);
	return 0;
}

static int check_events(struct audit *a)
{
	sqlite3_stmt *st = NULL;
	struct ord_buf body = ORD_BUF_INIT, what = ORD_BUF_INIT;
	int err, rc, n = 0, overrides = 0;

	if ((err = ord_store_prepare(a->g->db, &st,
				     "SELECT turn, seq, phase, kind, args, override, checks, log_seq FROM event "
				     "WHERE ?1 = 0 OR turn = ?1 ORDER BY id")) != 0)
		return err;
	sqlite3_bind_int(st, 1, a->only_turn);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *override = sqlite3_column_type(st, 5) == SQLITE_NULL ? NULL
										 : col_text(st, 5);
		struct entry *e;

		n++;
		ord_buf_reset(&what);
		ord_buf_addf(&what, "turn %d event #%d (%s)", sqlite3_column_int(st, 0),
			     sqlite3_column_int(st, 1), col_text(st, 3));
		e = entry_at(a, sqlite3_column_int64(st, 7), "event", what.buf);
		if (!e)
			continue;
		ord_buf_reset(&body);
		ord_canon_event(&body, (unsigned)sqlite3_column_int(st, 1), col_text(st, 2),
				col_text(st, 3), col_text(st, 4), override, col_text(st, 6));
		if (strcmp(body.buf, e->body) || e->turn != sqlite3_column_int(st, 0))
			problem(a, "%s: differs from what was logged in entry %lld (edited)",
				what.buf, (long long)sqlite3_column_int64(st, 7));
		if (override) {
			if (!overrides++)
				ord_buf_adds(a->out,
					     "  execution: events the referee recorded against the orders:\n");
			ord_buf_addf(a->out, "    %s: override \"%s\"; the checks said: %s\n",
				     what.buf, override, col_text(st, 6));
		}
	}
	sqlite3_finalize(st);
	ord_buf_release(&body);
	ord_buf_release(&what);
	if (rc != SQLITE_DONE)
		return ord_store_error(a->g->db, "reading events");
	ord_buf_addf(a->out, "  events: %d checked against the log, %d override%s\n", n, overrides,
		     overrides == 1 ? "" : "s");
	return 0;
}

/* Phase digests: every "units" and "resolve" entry vouches for the rolls,
 * results and unit states that point at it. */
static int check_phases(struct audit *a)
{
	int64_t seq;
	int n = 0, err;

	for (seq = 1; seq <= a->nlog; seq++) {
		struct entry *e = &a->log[seq];
		unsigned char d[32];
		char hex[65], *v;
		int nr, nres, nst;

		if (!e->kind || (strcmp(e->kind, "resolve") && strcmp(e->kind, "units")))
			continue;
		if (a->only_turn && e->turn != a->only_turn && e->turn != 0)
			continue;
		e->used++;
		if ((err = ord_game_phase_digest(a->g, seq, d, &nr, &nres, &nst)) != 0)
			return err;
		ord_hex(hex, d, 32);
		v = body_get(e->body, "digest");
		if (!v || strcmp(v, hex))
			problem(a, "the rolls, results or unit states of log entry %lld (%s, turn %d) were changed after they were written",
				(long long)seq, e->kind, e->turn);
		free(v);
		n++;
	}
	/* rows that point at no digest entry were slipped in */
	{
		static const char *const tables[] = { "roll", "result", "unit_state" };
		size_t i;
		for (i = 0; i < ORD_ARRAY_SIZE(tables); i++) {
			sqlite3_stmt *st = NULL;
			struct ord_buf q = ORD_BUF_INIT;
			ord_buf_addf(&q,
				     "SELECT count(*) FROM %s t WHERE NOT EXISTS (SELECT 1 FROM log WHERE log.seq = t.log_seq "
				     "AND log.kind IN ('resolve', 'units'))",
				     tables[i]);
			if ((err = ord_store_prepare(a->g->db, &st, q.buf)) != 0) {
				ord_buf_release(&q);
				return err;
			}
			if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0)
				problem(a, "%d %s row%s belong to no logged phase (inserted)",
					sqlite3_column_int(st, 0), tables[i],
					sqlite3_column_int(st, 0) == 1 ? "" : "s");
			sqlite3_finalize(st);
			ord_buf_release(&q);
		}
	}
	ord_buf_addf(a->out, "  phases: %d digests of rolls, results and unit states recomputed\n", n);
	return 0;
}

static int check_turns(struct audit *a)
{
	sqlite3_stmt *st = NULL, *rs = NULL;
	int err, rc, nrolls = 0;

	if ((err = ord_store_prepare(a->g->db, &st,
				     "SELECT turn, state, seed, seed_commitment, dice_key, log_seq FROM turn "
				     "WHERE ?1 = 0 OR turn = ?1 ORDER BY turn")) != 0)
		return err;
	sqlite3_bind_int(st, 1, a->only_turn);
	if ((err = ord_store_prepare(a->g->db, &rs,
				     "SELECT phase, event_seq, purpose, idx, sides, value, fixed, id FROM roll WHERE turn = ? ORDER BY id")) !=
	    0)
		goto out;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int turn = sqlite3_column_int(st, 0);
		const char *state = col_text(st, 1);
		unsigned char c[32], key[32];
		struct ord_buf what = ORD_BUF_INIT, body = ORD_BUF_INIT;
		struct entry *e;
		int64_t s;

		ord_buf_addf(&what, "turn %d", turn);
		if (sqlite3_column_bytes(st, 2) != 32 || sqlite3_column_bytes(st, 3) != 32) {
			problem(a, "turn %d: its dice seed is damaged", turn);
			goto next;
		}
		ord_commit_seed(c, a->g->game_id, turn, sqlite3_column_blob(st, 2));
		if (memcmp(c, sqlite3_column_blob(st, 3), 32))
			problem(a, "turn %d: the dice seed does not match the commitment made when the turn opened",
				turn);
		e = entry_at(a, sqlite3_column_int64(st, 5), "open", what.buf);
		if (e) {
			ord_canon_open(&body, turn, sqlite3_column_blob(st, 3));
			if (strcmp(body.buf, e->body))
				problem(a, "turn %d: the seed commitment differs from the one logged when it opened",
					turn);
		}
		if (!strcmp(state, "exchanged")) {
			/* the revealed seed must be the committed one */
			for (s = 1; s <= a->nlog; s++) {
				char *v, hex[65];
				if (!a->log[s].kind || strcmp(a->log[s].kind, "exchange") ||
				    a->log[s].turn != turn)
					continue;
				a->log[s].used++;
				v = body_get(a->log[s].body, "seed");
				ord_hex(hex, sqlite3_column_blob(st, 2), 32);
				if (!v || strcmp(v, hex))
					problem(a, "turn %d: the seed revealed at the exchange is not the stored one",
						turn);
				free(v);
			}
		}
		if (strcmp(state, "open")) {
			err = ord_game_dice_key(a->g, turn, sqlite3_column_blob(st, 2), key);
			if (err == ORD_ESTATE && a->g->refereeless && !strcmp(state, "sealed")) {
				/* referee-less, sheets still to open: no key, no rolls yet */
				ord_error_clear();
				err = 0;
				if (sqlite3_column_type(st, 4) != SQLITE_NULL)
					problem(a, "turn %d: a dice key is set before every sheet was opened",
						turn);
				goto next;
			}
			if (err) {
				ord_buf_release(&what);
				ord_buf_release(&body);
				goto out;
			}
			if (sqlite3_column_bytes(st, 4) != 32 ||
			    memcmp(key, sqlite3_column_blob(st, 4), 32))
				problem(a, "turn %d: the dice key is not the one derived from its seed and the sealed sheets",
					turn);
			sqlite3_reset(rs);
			sqlite3_bind_int(rs, 1, turn);
			while (sqlite3_step(rs) == SQLITE_ROW) {
				int want;
				if (sqlite3_column_int(rs, 6)) {
					if (!a->g->fixed_dice)
						problem(a, "turn %d: roll %d is marked fixed in a game whose dice come from its seed",
							turn, sqlite3_column_int(rs, 7));
					continue;
				}
				want = ord_dice_face(key, col_text(rs, 0),
						     (unsigned)sqlite3_column_int(rs, 1),
						     col_text(rs, 2),
						     (unsigned)sqlite3_column_int(rs, 3),
						     (unsigned)sqlite3_column_int(rs, 4));
				nrolls++;
				if (want != sqlite3_column_int(rs, 5))
					problem(a, "turn %d: roll [%s #%d %s #%d] is %d but the seed gives %d (the dice were chosen)",
						turn, col_text(rs, 0), sqlite3_column_int(rs, 1),
						col_text(rs, 2), sqlite3_column_int(rs, 3),
						sqlite3_column_int(rs, 5), want);
			}
		}
	next:
		ord_buf_release(&what);
		ord_buf_release(&body);
	}
	if (rc != SQLITE_DONE)
		err = ord_store_error(a->g->db, "reading turns");
	ord_buf_addf(a->out, "  dice: %d rolls recomputed from the turn seeds%s\n", nrolls,
		     a->g->fixed_dice ? " (a fixed-dice test game: its dice were given by the referee)"
				      : "");
out:
	sqlite3_finalize(st);
	sqlite3_finalize(rs);
	return err;
}

/* Every entry that should vouch for a row found one. */
static void check_orphans(struct audit *a)
{
	int64_t seq;

	for (seq = 1; seq <= a->nlog; seq++) {
		struct entry *e = &a->log[seq];
		if (!e->kind || e->used)
			continue;
		if (a->only_turn && e->turn != a->only_turn)
			continue;
		if (!strcmp(e->kind, "sheet") || !strcmp(e->kind, "event") || !strcmp(e->kind, "open") ||
		    !strcmp(e->kind, "commit") || !strcmp(e->kind, "opening"))
			problem(a, "log entry %lld (%s, turn %d): the %s it records is missing (deleted)",
				(long long)seq, e->kind, e->turn,
				!strcmp(e->kind, "open")      ? "turn"
				: !strcmp(e->kind, "opening") ? "sheet"
				: !strcmp(e->kind, "commit")  ? "commitment"
							      : e->kind);
	}
}

static int check_execution(struct audit *a)
{
	struct ord_turn t;
	struct ord_diag d;
	int turn, err, first = 1;

	if (!a->g->rs->check_execution)
		return 0;
	ord_diag_init(&d);
	for (turn = a->only_turn ? a->only_turn : 1;; turn++) {
		struct ord_ctx ctx;
		size_t i;

		if (ord_game_turn(a->g, &t, turn) != 0)
			break;
		if (strcmp(t.state, "exchanged")) {
			if (a->only_turn)
				break;
			continue;
		}
		if ((err = ord_game_load_ctx(a->g, &ctx, turn, 1, "*")) != 0) {
			ord_diag_release(&d);
			return err;
		}
		ord_diag_release(&d);
		a->g->rs->check_execution(&ctx, &d);
		for (i = 0; i < d.n; i++) {
			if (first) {
				ord_buf_adds(a->out,
					     "  execution: where what was done differs from the orders:\n");
				first = 0;
			}
			ord_buf_addf(a->out, "    turn %d: %s%s%s%s%s\n", turn,
				     *d.items[i].unit ? "unit '" : "", d.items[i].unit,
				     *d.items[i].unit ? "': " : "", d.items[i].msg,
				     *d.items[i].rule ? "" : "");
		}
		ord_ctx_release(&ctx);
		if (a->only_turn)
			break;
	}
	ord_diag_release(&d);
	ord_error_clear();
	return 0;
}

int ord_game_audit(ord_game *g, int turn, struct ord_buf *out)
{
	return ord_game_audit_heads(g, turn, NULL, 0, out);
}

int ord_game_audit_heads(ord_game *g, int turn, const struct ord_head *heads, size_t nheads,
			 struct ord_buf *out)
{
	struct audit a;
	int64_t i;
	int err;

	memset(&a, 0, sizeof(a));
	a.g = g;
	a.out = out;
	a.only_turn = turn > 0 ? turn : 0;
	if (a.only_turn) {
		struct ord_turn t;
		if ((err = ord_game_turn(g, &t, a.only_turn)) != 0)
			return err;
	}
	ord_buf_addf(out, "audit of '%s'%s:\n", g->path, "");
	if ((err = ord_store_exec(g->db, "BEGIN")) != 0)
		return err;
	if ((err = check_chain(&a)) != 0 || (err = check_create(&a)) != 0 ||
	    (err = check_turns(&a)) != 0 || (err = check_sheets(&a)) != 0 ||
	    (err = check_commitments(&a)) != 0 || (err = check_seals(&a)) != 0 ||
	    (err = check_events(&a)) != 0 || (err = check_phases(&a)) != 0)
		goto out;
	check_key(&a);
	if ((err = check_heads(&a, heads, nheads)) != 0)
		goto out;
	check_orphans(&a);
	if ((err = check_execution(&a)) != 0)
		goto out;
	if (a.problems)
		ord_buf_addf(out, "%d problem%s found\n", a.problems, a.problems == 1 ? "" : "s");
	else
		ord_buf_adds(out,
			     "clean: no sheet, log entry, roll or result has changed since it was written\n");
out:
	ord_store_exec(g->db, "COMMIT");
	for (i = 0; i <= a.nlog; i++) {
		free(a.log[i].kind);
		free(a.log[i].body);
	}
	free(a.log);
	if (err)
		return err;
	return a.problems ? ord_error_set(ORD_ETAMPERED, "%d problem%s found", a.problems,
					  a.problems == 1 ? "" : "s")
			  : 0;
}
