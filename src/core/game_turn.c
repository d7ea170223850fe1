/*
 * game_turn.c - the turn cycle: submit, seal, event, resolve, exchange.
 *
 *   open --submit/resubmit--> sealed --phases resolved--> resolved --exchange--> next turn open
 *
 * Every change is one BEGIN IMMEDIATE transaction that also appends to the
 * hash-chained log, so a crash leaves either the whole change or none of it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/canon.h"
#include "core/game.h"

#define MAX_SHEET_BYTES (16u << 20)

static int blank(const char *bytes, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (bytes[i] != ' ' && bytes[i] != '\t' && bytes[i] != '\r' && bytes[i] != '\n')
			return 0;
	return 1;
}

static void diag_join(const struct ord_diag *d, struct ord_buf *out)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		const char *p;
		if (i)
			ord_buf_adds(out, "; ");
		if (*d->items[i].unit)
			ord_buf_addf(out, "unit '%s': ", d->items[i].unit);
		for (p = d->items[i].msg; *p; p++)
			ord_buf_addch(out, *p == '\n' ? ' ' : *p);
		if (*d->items[i].rule)
			ord_buf_addf(out, " (%s)", d->items[i].rule);
	}
}

/* ---- submit ---- */

/* The next version number of a side's sheets this turn (sheets and
 * commitments share the numbering). */
static int next_version(struct ord_game *g, int turn, const struct ord_game_side *side, int *out)
{
	unsigned char c[32];
	int opened, err;

	if ((err = ord_game_latest(g, turn, side->id, out, c, &opened)) != 0)
		return err;
	(*out)++;
	return 0;
}

/*
 * Store a sheet and log it.  nonce NULL: a fresh one is drawn (the player
 * does not know it; he may not need to).  version 0: the next one; else
 * the version of the commitment this sheet opens, logged as an "opening".
 */
static int store_sheet(struct ord_game *g, struct ord_receipt *rc, int turn,
		       const struct ord_game_side *side, const char *source, const char *bytes,
		       size_t len, const unsigned char *given_nonce, const unsigned char *signature,
		       int opens_version)
{
	unsigned char nonce[32], commitment[32];
	struct ord_buf body = ORD_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int64_t seq;
	int version = opens_version, err;

	if (!version && (err = next_version(g, turn, side, &version)) != 0)
		return err;
	if (given_nonce)
		memcpy(nonce, given_nonce, 32);
	else
		randombytes_buf(nonce, sizeof(nonce));
	ord_commit_sheet(commitment, g->game_id, turn, side->name, nonce, bytes, len);
	if (opens_version) {
		ord_canon_opening(&body, side->name, version, commitment);
		err = ord_game_log(g, &seq, turn, "opening", body.buf);
	} else {
		ord_canon_sheet(&body, side->name, version, source, commitment, signature);
		err = ord_game_log(g, &seq, turn, "sheet", body.buf);
	}
	if (err)
		goto out;
	if ((err = ord_store_prepare(g->db, &st,
				     "INSERT INTO sheet(turn, side_id, version, source, bytes, nonce, commitment, log_seq, signature) "
				     "VALUES (?,?,?,?,?,?,?,?,?)")) != 0)
		goto out;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int64(st, 2, side->id);
	sqlite3_bind_int(st, 3, version);
	sqlite3_bind_text(st, 4, source, -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 5, len ? bytes : "", (int)len, SQLITE_STATIC);
	sqlite3_bind_blob(st, 6, nonce, 32, SQLITE_STATIC);
	sqlite3_bind_blob(st, 7, commitment, 32, SQLITE_STATIC);
	sqlite3_bind_int64(st, 8, seq);
	if (signature)
		sqlite3_bind_blob(st, 9, signature, 64, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 9);
	if (sqlite3_step(st) != SQLITE_DONE) {
		err = ord_store_error(g->db, "storing the sheet");
		goto out;
	}
	if (rc) {
		rc->turn = turn;
		rc->version = version;
		snprintf(rc->side, sizeof(rc->side), "%s", side->name);
		memcpy(rc->commitment, commitment, 32);
	}
out:
	sodium_memzero(nonce, sizeof(nonce));
	sqlite3_finalize(st);
	ord_buf_release(&body);
	return err;
}

/* Parse a sheet and have the ruleset validate it for side. */
static int check_sheet(struct ord_game *g, int turn, const char *side, const char *bytes,
		       size_t len, struct ord_diag *diag)
{
	struct ord_sheet sheet;
	struct ord_ctx ctx;
	int err;

	ord_sheet_init(&sheet);
	if ((err = ord_game_parse_sheet(g, &sheet, bytes, len, diag)) != 0 || diag->n) {
		ord_sheet_release(&sheet);
		return ORD_EBADSHEET;
	}
	if ((err = ord_game_load_ctx(g, &ctx, turn, 0, NULL)) != 0)
		goto out;
	ctx.side = side;
	if (g->rs->validate_sheet)
		err = g->rs->validate_sheet(&ctx, &sheet, diag);
	if (!err)
		err = ord_state_check(&ctx); /* a key the module did not declare */
	if (!err && diag->n)
		err = ORD_EBADSHEET;
	if (err && diag->n)
		err = ORD_EBADSHEET;
out:
	ord_ctx_release(&ctx);
	ord_sheet_release(&sheet);
	return err;
}

static int log_rejection(struct ord_game *g, int turn, const char *side, const char *bytes, size_t len,
			 const struct ord_diag *diag, const char *message, const char *reason)
{
	struct ord_change c = {
		.kind = ORD_CHANGE_REJECT, .turn = turn, .side = side, .message = message, .diag = diag
	};
	size_t problems = diag ? diag->n : 1;
	struct ord_buf body = ORD_BUF_INIT;
	unsigned char h[32];
	int64_t seq;
	int err;

	crypto_generichash(h, 32, (const unsigned char *)bytes, len, NULL, 0);
	ord_buf_addf(&body, "side=%s\nbytes=%zu\nproblems=%zu\nblake2b=", side, len, problems);
	ord_buf_add_hex(&body, h, 32);
	ord_buf_addch(&body, '\n');
	if (reason)
		ord_buf_addf(&body, "reason=%s\n", reason);
	if ((err = ord_store_begin(g->db)) == 0) {
		err = ord_game_log(g, &seq, turn, "reject", body.buf);
		if (!err)
			err = ord_game_notify(g, &c);
		if (!err)
			err = ord_store_commit(g->db);
		if (err)
			ord_store_rollback(g->db);
	}
	ord_buf_release(&body);
	return err;
}

static int turn_open_check(struct ord_game *g, const struct ord_turn *t)
{
	if (strcmp(t->state, "open"))
		return ord_error_set(ORD_ESEALED,
				     "turn %d is sealed: sheets can no longer be submitted or changed",
				     t->turn);
	if (t->deadline && (int64_t)time(NULL) > t->deadline)
		return ord_error_set(ORD_ESTATE,
				     "the deadline of turn %d has passed: no more sheets (the referee seals the turn)",
				     t->turn);
	return 0;
}

static int find_side(struct ord_game *g, const char *side, const struct ord_game_side **out)
{
	struct ord_buf l = ORD_BUF_INIT;
	int err;

	*out = ord_game_side_by_name(g, side);
	if (*out)
		return 0;
	ord_game_side_list(g, &l);
	err = ord_error_set(ORD_ENOTFOUND, "unknown side '%s' (expected one of %s)", side, l.buf);
	ord_buf_release(&l);
	return err;
}

/* Log a refused attempt, then return the error already set. */
static int refuse_logged(struct ord_game *g, int turn, const char *side, const char *bytes,
			 size_t len, const char *reason)
{
	struct ord_buf msg = ORD_BUF_INIT;
	int code = ord_error_code(), lerr;

	ord_buf_adds(&msg, ord_error_last());
	lerr = log_rejection(g, turn, side, bytes, len, NULL, msg.buf, reason);
	if (!lerr)
		ord_error_set(code, "%s", msg.buf);
	ord_buf_release(&msg);
	return lerr ? lerr : code;
}

/* Validate a sheet's bytes for side; ORD_EBADSHEET (logged) with diag. */
static int validate_bytes(struct ord_game *g, int turn, const char *side, const char *bytes,
			  size_t len, struct ord_diag *diag)
{
	int err;

	if (len > MAX_SHEET_BYTES)
		return ord_error_set(ORD_EBADSHEET, "sheet of %zu bytes is larger than %u bytes",
				     len, MAX_SHEET_BYTES);
	if (blank(bytes, len)) {
		ord_diag_add(diag, 1, 1, NULL, NULL,
			     "the sheet is empty (expected one order per line: a unit, then its codes)");
		err = ORD_EBADSHEET;
	} else {
		err = check_sheet(g, turn, side, bytes, len, diag);
	}
	if (err == ORD_EBADSHEET) {
		struct ord_buf msg = ORD_BUF_INIT;
		int lerr;

		ord_buf_addf(&msg, "sheet rejected: %zu problem%s", diag->n, diag->n == 1 ? "" : "s");
		lerr = log_rejection(g, turn, side, bytes, len, diag, msg.buf, NULL);
		if (!lerr)
			lerr = ord_error_set(ORD_EBADSHEET, "%s", msg.buf);
		ord_buf_release(&msg);
		return lerr;
	}
	return err;
}

/* Tell the hook a side's sheet or commitment was stored. */
static int notify_sheet(struct ord_game *g, enum ord_change_kind kind, const struct ord_receipt *rc)
{
	struct ord_change c = { .kind = kind, .turn = rc->turn, .side = rc->side, .receipt = rc };

	return ord_game_notify(g, &c);
}

int ord_game_submit_signed(ord_game *g, struct ord_receipt *out, const char *side,
			   const char *bytes, size_t len, const unsigned char *nonce,
			   const unsigned char *signature, struct ord_diag *diag)
{
	const struct ord_game_side *s;
	struct ord_receipt rc;
	unsigned char c[32];
	struct ord_turn t;
	int err;

	if ((err = ord_game_may_change(g)) != 0 || (err = find_side(g, side, &s)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = turn_open_check(g, &t)) != 0)
		return err;
	if (signature && !nonce)
		return ord_error_set(ORD_EUSAGE,
				     "a signature needs the nonce it was made with (--nonce)");
	if (s->has_key && !signature) {
		ord_error_set(ORD_EBADDATA,
			      "side '%s' signs its sheets (its key is in the scenario): an unsigned sheet is refused; "
			      "sign it with 'orderly sign' and submit it with --nonce and --signature",
			      side);
		return refuse_logged(g, t.turn, side, bytes, len, "unsigned");
	}
	if (signature && !s->has_key)
		return ord_error_set(ORD_EUSAGE,
				     "side '%s' has no key in the scenario, so its signature cannot be checked; submit without --signature",
				     side);
	if (signature) {
		ord_commit_sheet(c, g->game_id, t.turn, s->name, nonce, bytes, len);
		if (ord_sheet_sig_check(s->pubkey, signature, g->game_id, t.turn, s->name, c)) {
			ord_error_set(ORD_EBADDATA,
				      "the signature is not side %s's over this sheet for turn %d with this nonce "
				      "(signed by another key, for another game, turn or side, or the sheet or nonce changed since)",
				      side, t.turn);
			return refuse_logged(g, t.turn, side, bytes, len, "bad signature");
		}
	}
	if ((err = validate_bytes(g, t.turn, side, bytes, len, diag)) != 0)
		return err;
	if ((err = ord_store_begin(g->db)) != 0)
		return err;
	/* the turn may have been sealed while we validated */
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = turn_open_check(g, &t)) != 0 ||
	    (err = store_sheet(g, &rc, t.turn, s, "submitted", bytes, len, nonce, signature, 0)) != 0 ||
	    (err = notify_sheet(g, ORD_CHANGE_SUBMIT, &rc)) != 0 ||
	    (err = ord_store_commit(g->db)) != 0) {
		ord_store_rollback(g->db);
		return err;
	}
	if (out)
		*out = rc;
	return 0;
}

int ord_game_submit(ord_game *g, struct ord_receipt *out, const char *side, const char *bytes,
		    size_t len, struct ord_diag *diag)
{
	return ord_game_submit_signed(g, out, side, bytes, len, NULL, NULL, diag);
}

/* ---- referee-less games: commit, then open after the seal ---- */

int ord_game_commit(ord_game *g, struct ord_receipt *out, const char *side,
		    const unsigned char commitment[32], const unsigned char signature[64])
{
	struct ord_receipt rc;
	const struct ord_game_side *s;
	struct ord_buf body = ORD_BUF_INIT;
	sqlite3_stmt *st = NULL;
	struct ord_turn t;
	int64_t seq;
	int version, err;

	memset(&t, 0, sizeof(t));
	if ((err = ord_game_may_change(g)) != 0)
		return err;
	if (!g->refereeless)
		return ord_error_set(ORD_ESTATE,
				     "'%s' has a referee: submit the sheet itself (a commitment alone is for referee-less games, 'new --no-referee')",
				     g->path);
	if ((err = find_side(g, side, &s)) != 0)
		return err;
	if (!signature)
		return ord_error_set(ORD_EBADDATA,
				     "an unsigned commitment is refused: side '%s' must sign it ('orderly sign', then --signature)",
				     side);
	if ((err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = turn_open_check(g, &t)) != 0)
		goto out;
	if (!s->has_key ||
	    ord_sheet_sig_check(s->pubkey, signature, g->game_id, t.turn, s->name, commitment)) {
		err = ord_error_set(ORD_EBADDATA,
				    "the signature is not side %s's over this commitment for turn %d "
				    "(signed by another key, or for another game, turn or side)",
				    side, t.turn);
		goto out;
	}
	if ((err = next_version(g, t.turn, s, &version)) != 0)
		goto out;
	ord_canon_commit(&body, s->name, version, commitment, signature);
	if ((err = ord_game_log(g, &seq, t.turn, "commit", body.buf)) != 0 ||
	    (err = ord_store_prepare(g->db, &st,
				     "INSERT INTO commitment(turn, side_id, version, commitment, signature, log_seq) VALUES (?,?,?,?,?,?)")) !=
		    0)
		goto out;
	sqlite3_bind_int(st, 1, t.turn);
	sqlite3_bind_int64(st, 2, s->id);
	sqlite3_bind_int(st, 3, version);
	sqlite3_bind_blob(st, 4, commitment, 32, SQLITE_STATIC);
	sqlite3_bind_blob(st, 5, signature, 64, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, seq);
	if (sqlite3_step(st) != SQLITE_DONE) {
		err = ord_store_error(g->db, "storing the commitment");
		goto out;
	}
	rc.turn = t.turn;
	rc.version = version;
	snprintf(rc.side, sizeof(rc.side), "%s", s->name);
	memcpy(rc.commitment, commitment, 32);
	if ((err = notify_sheet(g, ORD_CHANGE_COMMIT, &rc)) != 0 || (err = ord_store_commit(g->db)) != 0)
		goto out;
	if (out)
		*out = rc;
out:
	if (err) {
		int code = ord_error_code();
		ord_store_rollback(g->db);
		/* a refused commitment is logged as an attempt, like a refused sheet */
		if (code == ORD_EBADDATA)
			err = refuse_logged(g, t.turn, side, (const char *)commitment, 32,
					    "bad signature");
	}
	sqlite3_finalize(st);
	ord_buf_release(&body);
	return err;
}

/* Sides (", "-joined into out) whose latest version this turn is not
 * committed (want_opened 0) or not opened (want_opened 1). */
static int sides_lacking(struct ord_game *g, int turn, int want_opened, struct ord_buf *out, size_t *n)
{
	size_t i;
	int err;

	*n = 0;
	for (i = 0; i < g->nsides; i++) {
		unsigned char c[32];
		int version, opened;
		if ((err = ord_game_latest(g, turn, g->sides[i].id, &version, c, &opened)) != 0)
			return err;
		if (!version || (want_opened && !opened)) {
			ord_buf_addf(out, "%s%s", (*n)++ ? ", " : "", g->sides[i].name);
		}
	}
	return 0;
}

/* Once every sealed commitment is opened, the dice key can be derived. */
static int set_dice_key_if_complete(struct ord_game *g, const struct ord_turn *t)
{
	unsigned char key[32];
	sqlite3_stmt *st = NULL;
	int err;

	err = ord_game_dice_key(g, t->turn, t->seed, key);
	if (err == ORD_ESTATE) {
		ord_error_clear();
		return 0;
	}
	if (err)
		return err;
	if ((err = ord_store_prepare(g->db, &st, "UPDATE turn SET dice_key = ? WHERE turn = ?")) != 0)
		return err;
	sqlite3_bind_blob(st, 1, key, 32, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, t->turn);
	if (sqlite3_step(st) != SQLITE_DONE)
		err = ord_store_error(g->db, "fixing the dice key");
	sqlite3_finalize(st);
	return err;
}

int ord_game_open_sheet(ord_game *g, struct ord_receipt *out, const char *side, const char *bytes,
			size_t len, const unsigned char nonce[32], struct ord_diag *diag)
{
	const struct ord_game_side *s;
	struct ord_receipt rc;
	struct ord_buf waiting = ORD_BUF_INIT;
	unsigned char sealed[32], c[32], sig[64];
	sqlite3_stmt *st = NULL;
	struct ord_turn t;
	size_t nwaiting;
	int version, opened, err, began = 0;

	if ((err = ord_game_may_change(g)) != 0)
		return err;
	if (!g->refereeless)
		return ord_error_set(ORD_ESTATE,
				     "'%s' has a referee: there are no commitments to open (submit the sheet itself)",
				     g->path);
	if ((err = find_side(g, side, &s)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0)
		return err;
	if (!strcmp(t.state, "open")) {
		if ((err = sides_lacking(g, t.turn, 0, &waiting, &nwaiting)) != 0)
			goto out;
		if (nwaiting)
			err = ord_error_set(ORD_ESTATE,
					    "cannot open before every side has committed: turn %d is waiting for the commitment of %s",
					    t.turn, waiting.buf);
		else
			err = ord_error_set(ORD_ESTATE,
					    "every side has committed to turn %d: seal it first ('orderly seal'), then open the sheets",
					    t.turn);
		goto out;
	}
	if (strcmp(t.state, "sealed") || t.have_dice_key) {
		err = ord_error_set(ORD_ESTATE, "every sheet of turn %d is opened already", t.turn);
		goto out;
	}
	if ((err = ord_game_latest(g, t.turn, s->id, &version, sealed, &opened)) != 0)
		goto out;
	if (opened) {
		err = ord_error_set(ORD_ESTATE,
				    "the sheet of %s for turn %d (version %d) is opened already",
				    side, t.turn, version);
		goto out;
	}
	ord_commit_sheet(c, g->game_id, t.turn, s->name, nonce, bytes, len);
	if (memcmp(c, sealed, 32)) {
		err = ord_error_set(ORD_EBADDATA,
				    "this sheet and nonce do not give the commitment %s sealed for turn %d (version %d): "
				    "a wrong nonce, or a sheet changed since it was signed",
				    side, t.turn, version);
		err = refuse_logged(g, t.turn, side, bytes, len, "does not open the commitment");
		goto out;
	}
	if ((err = validate_bytes(g, t.turn, side, bytes, len, diag)) != 0)
		goto out;
	if ((err = ord_store_begin(g->db)) != 0)
		goto out;
	began = 1;
	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT signature FROM commitment WHERE turn = ? AND side_id = ? AND version = ?")) !=
	    0)
		goto out;
	sqlite3_bind_int(st, 1, t.turn);
	sqlite3_bind_int64(st, 2, s->id);
	sqlite3_bind_int(st, 3, version);
	if (sqlite3_step(st) != SQLITE_ROW || sqlite3_column_bytes(st, 0) != 64) {
		err = ord_error_set(ORD_ETAMPERED, "the commitment of %s for turn %d is damaged",
				    side, t.turn);
		goto out;
	}
	memcpy(sig, sqlite3_column_blob(st, 0), 64);
	sqlite3_finalize(st);
	st = NULL;
	if ((err = store_sheet(g, &rc, t.turn, s, "submitted", bytes, len, nonce, sig, version)) != 0 ||
	    (err = set_dice_key_if_complete(g, &t)) != 0 ||
	    (err = notify_sheet(g, ORD_CHANGE_OPEN, &rc)) != 0 || (err = ord_store_commit(g->db)) != 0)
		goto out;
	if (out)
		*out = rc;
out:
	if (err && began)
		ord_store_rollback(g->db);
	sqlite3_finalize(st);
	ord_buf_release(&waiting);
	return err;
}

/* ---- seal ---- */

static int latest_sheet(struct ord_game *g, int turn, int64_t side_id, char **bytes, size_t *len)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	*bytes = NULL;
	*len = 0;
	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT bytes FROM sheet WHERE turn = ? AND side_id = ? ORDER BY version DESC LIMIT 1")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int64(st, 2, side_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*len = (size_t)sqlite3_column_bytes(st, 0);
		*bytes = ord_xmalloc(*len + 1);
		memcpy(*bytes, sqlite3_column_blob(st, 0) ? sqlite3_column_blob(st, 0) : "", *len);
		(*bytes)[*len] = '\0';
	} else if (rc != SQLITE_DONE) {
		err = ord_store_error(g->db, "reading sheets");
	}
	sqlite3_finalize(st);
	return err;
}

int ord_game_seal(ord_game *g, int force)
{
	struct ord_buf missing = ORD_BUF_INIT, body = ORD_BUF_INIT;
	unsigned char key[32];
	sqlite3_stmt *st = NULL;
	struct ord_turn t;
	size_t i, nmissing = 0;
	struct ord_buf held = ORD_BUF_INIT;
	int64_t seq;
	int err, late, have_key = 1;

	if ((err = ord_game_may_change(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0)
		goto out;
	if (strcmp(t.state, "open")) {
		err = ord_error_set(ORD_ESTATE, "turn %d is already sealed", t.turn);
		goto out;
	}
	if (!g->have_sk && g->have_pk) {
		err = ord_error_set(ORD_EUSAGE,
				    "the key of '%s' is kept outside the game file: give it with --key FILE to sign the seal",
				    g->path);
		goto out;
	}
	/* a side has handed in when it has a sheet or, referee-less, a commitment */
	if ((err = sides_lacking(g, t.turn, 0, &missing, &nmissing)) != 0)
		goto out;
	late = t.deadline && (int64_t)time(NULL) > t.deadline;
	if (nmissing && !force && !late) {
		err = ord_error_set(ORD_ESTATE,
				    g->refereeless
					    ? "cannot seal turn %d: waiting for the commitment of %s (seal --force seals now; missing sides follow the NMR policy '%s')"
					    : "cannot seal turn %d: waiting for %s (seal --force seals now; missing sides follow the NMR policy '%s')",
				    t.turn, missing.buf, g->nmr);
		goto out;
	}
	if (nmissing && !strcmp(g->nmr, "wait")) {
		err = ord_error_set(ORD_ESTATE,
				    "cannot seal turn %d: the NMR policy is 'wait' and %s %s not submitted",
				    t.turn, missing.buf, nmissing == 1 ? "has" : "have");
		goto out;
	}
	/* missing sides: hold, or repeat last turn's sheet if it is still valid */
	for (i = 0; i < g->nsides; i++) {
		char *prev = NULL;
		size_t pl = 0;
		const char *source = "hold";
		struct ord_buf hold = ORD_BUF_INIT;
		unsigned char c[32];
		int version, opened;

		if ((err = ord_game_latest(g, t.turn, g->sides[i].id, &version, c, &opened)) != 0)
			goto out;
		if (version)
			continue;
		if (!strcmp(g->nmr, "repeat") && t.turn > 1) {
			struct ord_diag d;
			ord_diag_init(&d);
			if ((err = latest_sheet(g, t.turn - 1, g->sides[i].id, &prev, &pl)) != 0)
				goto out;
			if (prev && !blank(prev, pl) &&
			    !check_sheet(g, t.turn, g->sides[i].name, prev, pl, &d))
				source = "repeat";
			ord_diag_release(&d);
		}
		ord_buf_addf(&held, "%s%s", held.len ? ", " : "", g->sides[i].name);
		if (!strcmp(source, "repeat")) {
			err = store_sheet(g, NULL, t.turn, &g->sides[i], source, prev, pl, NULL,
					  NULL, 0);
		} else {
			ord_buf_addf(&hold,
				     "# no orders received from %s for turn %d: NMR policy %s, every unit holds\n",
				     g->sides[i].name, t.turn, g->nmr);
			err = store_sheet(g, NULL, t.turn, &g->sides[i], "hold", hold.buf, hold.len,
					  NULL, NULL, 0);
		}
		free(prev);
		ord_buf_release(&hold);
		if (err)
			goto out;
	}
	/* referee-less: the key waits for the last opening (ord_game_dice_key) */
	err = ord_game_dice_key(g, t.turn, t.seed, key);
	if (err == ORD_ESTATE && g->refereeless) {
		ord_error_clear();
		have_key = 0;
		err = 0;
	}
	if (err)
		goto out;
	ord_buf_addf(&body, "turn=%d\nforced=%d\n", t.turn, force);
	for (i = 0; i < g->nsides; i++) {
		unsigned char c[32];
		int version, opened;
		if ((err = ord_game_latest(g, t.turn, g->sides[i].id, &version, c, &opened)) != 0)
			goto out;
		ord_buf_addf(&body, "sealed.%s=%d:", g->sides[i].name, version);
		ord_buf_add_hex(&body, c, 32);
		ord_buf_addch(&body, '\n');
	}
	if ((err = ord_game_ensure_key(g, t.turn)) != 0 ||
	    (err = ord_game_log(g, &seq, t.turn, "seal", body.buf)) != 0 ||
	    (err = ord_game_sign_head(g, t.turn, "seal")) != 0 ||
	    (err = ord_store_prepare(g->db, &st,
				     "UPDATE turn SET state = 'sealed', phase = 0, dice_key = ? WHERE turn = ?")) !=
		    0)
		goto out;
	if (have_key)
		sqlite3_bind_blob(st, 1, key, 32, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 1);
	sqlite3_bind_int(st, 2, t.turn);
	if (sqlite3_step(st) != SQLITE_DONE) {
		err = ord_store_error(g->db, "sealing");
		goto out;
	}
	{
		struct ord_change c = { .kind = ORD_CHANGE_SEAL, .turn = t.turn, .held = held.buf };
		if ((err = ord_game_notify(g, &c)) != 0)
			goto out;
	}
	err = ord_store_commit(g->db);
out:
	if (err)
		ord_store_rollback(g->db);
	sqlite3_finalize(st);
	ord_buf_release(&missing);
	ord_buf_release(&held);
	ord_buf_release(&body);
	return err;
}

/* ---- events ---- */

static int current_phase(struct ord_game *g, const struct ord_turn *t, const char **phase)
{
	size_t n = ord_game_nphases(g);

	if (!strcmp(t->state, "open"))
		return ord_error_set(ORD_ESTATE,
				     "turn %d is not sealed yet: seal it before its phases", t->turn);
	if (strcmp(t->state, "sealed") || (size_t)t->phase >= n)
		return ord_error_set(ORD_ESTATE,
				     "every phase of turn %d is resolved: exchange the sheets to open the next turn",
				     t->turn);
	if (!t->have_dice_key && g->refereeless) {
		struct ord_buf w = ORD_BUF_INIT;
		size_t nw;
		int err = sides_lacking(g, t->turn, 1, &w, &nw);
		if (!err)
			err = ord_error_set(ORD_ESTATE,
					    "turn %d is sealed but waiting for %s to open %s sheet ('orderly open'): the phases need every sheet",
					    t->turn, w.buf, nw == 1 ? "its" : "their");
		ord_buf_release(&w);
		return err;
	}
	*phase = g->rs->phases[t->phase];
	return 0;
}

int ord_game_event(ord_game *g, const char *kind, int argc, char *const *argv,
		   const char *override_reason, struct ord_diag *diag)
{
	const struct ord_event_kind *ek = ord_ruleset_event_kind(g->rs, kind);
	struct ord_buf args = ORD_BUF_INIT, checks = ORD_BUF_INIT, body = ORD_BUF_INIT;
	struct ord_ctx ctx;
	struct ord_event *ev;
	struct ord_kv kv;
	struct ord_turn t;
	struct ord_diag cd;
	sqlite3_stmt *st = NULL;
	const char *phase = NULL;
	const struct ord_key_spec *ks;
	unsigned seq = 1;
	int64_t lseq;
	int err, loaded = 0;

	ord_kv_init(&kv);
	ord_diag_init(&cd);
	if (!ek) {
		const struct ord_event_kind *k;
		for (k = g->rs->events; k && k->name; k++)
			ord_buf_addf(&args, "%s%s", args.len ? " " : "", k->name);
		err = ord_error_set(ORD_EUSAGE,
				    "unknown event '%s' for ruleset %s (expected one of %s)", kind,
				    g->rs->name, args.buf);
		goto out;
	}
	if (override_reason && !*override_reason) {
		err = ord_error_set(ORD_EUSAGE, "an override needs a stated reason");
		goto out;
	}
	if ((err = ord_game_may_change(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		goto out;
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = current_phase(g, &t, &phase)) != 0)
		goto out;
	if (strcmp(ek->phase, phase)) {
		err = ord_error_set(ORD_ESTATE,
				    "event '%s' belongs to phase '%s'; the current phase is '%s'",
				    kind, ek->phase, phase);
		goto out;
	}
	if (ord_keys_check(&kv, ek->keys, argc, argv, diag)) {
		err = ord_error_set(ORD_EUSAGE, "event '%s': %zu bad argument%s", kind, diag->n,
				    diag->n == 1 ? "" : "s");
		goto out;
	}
	if ((err = ord_game_load_ctx(g, &ctx, t.turn, 1, phase)) != 0)
		goto out;
	loaded = 1;
	for (ks = ek->keys; ks->name; ks++)
		if (ks->type == ORD_KEY_UNIT && ord_kv_get(&kv, ks->name) &&
		    !ord_ctx_find_unit(&ctx, ord_kv_get(&kv, ks->name)))
			ord_diag_add(diag, 0, 0, NULL, NULL, "%s: unknown unit '%s'", ks->name,
				     ord_kv_get(&kv, ks->name));
	if (diag->n) {
		err = ord_error_set(ORD_EUSAGE, "event '%s': unknown unit", kind);
		goto out;
	}
	/* units are stored by id whatever the referee typed */
	for (ks = ek->keys; ks->name; ks++)
		if (ks->type == ORD_KEY_UNIT && ord_kv_get(&kv, ks->name))
			ord_kv_set(&kv, ks->name,
				   ord_ctx_find_unit(&ctx, ord_kv_get(&kv, ks->name))->id);
	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT coalesce(max(seq), 0) + 1 FROM event WHERE turn = ?")) != 0)
		goto out;
	sqlite3_bind_int(st, 1, t.turn);
	if (sqlite3_step(st) == SQLITE_ROW)
		seq = (unsigned)sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	st = NULL;
	ctx.phase = phase;
	ord_kv_serialize(&kv, &args);
	ev = ord_ctx_add_event(&ctx, seq, phase, kind, args.buf, override_reason, NULL);
	if (g->rs->check_event)
		g->rs->check_event(&ctx, ev, &cd);
	if ((err = ord_state_check(&ctx)) != 0)
		goto out;
	if (cd.n && !override_reason) {
		size_t i;
		for (i = 0; i < cd.n; i++)
			ord_diag_add(diag, 0, 0, cd.items[i].unit, cd.items[i].rule, "%s",
				     cd.items[i].msg);
		err = ord_error_set(ORD_ECHECK, "event '%s' disagrees with the sealed orders", kind);
		goto out;
	}
	diag_join(&cd, &checks);
	ord_canon_event(&body, seq, phase, kind, args.buf, cd.n ? override_reason : NULL, checks.buf);
	if ((err = ord_game_log(g, &lseq, t.turn, "event", body.buf)) != 0 ||
	    (err = ord_store_prepare(g->db, &st,
				     "INSERT INTO event(turn, seq, phase, kind, args, override, checks, log_seq) VALUES (?,?,?,?,?,?,?,?)")) !=
		    0)
		goto out;
	sqlite3_bind_int(st, 1, t.turn);
	sqlite3_bind_int(st, 2, (int)seq);
	sqlite3_bind_text(st, 3, phase, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, args.buf, -1, SQLITE_STATIC);
	if (cd.n)
		sqlite3_bind_text(st, 6, override_reason, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, 6);
	sqlite3_bind_text(st, 7, checks.buf, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 8, lseq);
	if (sqlite3_step(st) != SQLITE_DONE) {
		err = ord_store_error(g->db, "storing the event");
		goto out;
	}
	{
		struct ord_change c = { .kind = ORD_CHANGE_EVENT, .turn = t.turn, .phase = phase };
		if ((err = ord_game_notify(g, &c)) != 0)
			goto out;
	}
	err = ord_store_commit(g->db);
	/* recorded under an override: the caller learns what the checks said */
	if (!err) {
		size_t k;
		for (k = 0; k < cd.n; k++)
			ord_diag_add(diag, 0, 0, cd.items[k].unit, cd.items[k].rule, "%s",
				     cd.items[k].msg);
	}
out:
	if (err)
		ord_store_rollback(g->db);
	if (loaded)
		ord_ctx_release(&ctx);
	sqlite3_finalize(st);
	ord_kv_release(&kv);
	ord_diag_release(&cd);
	ord_buf_release(&args);
	ord_buf_release(&checks);
	ord_buf_release(&body);
	return err;
}

/* ---- resolve ---- */

static int store_phase(struct ord_game *g, struct ord_ctx *ctx, const struct ord_turn *t,
		       const char *phase)
{
	sqlite3_stmt *roll = NULL, *res = NULL, *state = NULL, *head = NULL, *up = NULL;
	struct ord_buf b = ORD_BUF_INIT, body = ORD_BUF_INIT;
	unsigned char digest[32];
	int64_t seq = 0, lseq;
	int nr, nres, nst, err;
	size_t i;

	/* rows point at the log entry that will digest them: inside this
	 * IMMEDIATE transaction nobody else can take its number */
	if ((err = ord_store_prepare(g->db, &head,
				     "SELECT coalesce((SELECT seq FROM log_head), 0) + 1")) != 0)
		goto out;
	if (sqlite3_step(head) == SQLITE_ROW)
		seq = sqlite3_column_int64(head, 0);
	if ((err = ord_store_prepare(g->db, &roll,
				     "INSERT INTO roll(turn, phase, event_seq, purpose, idx, sides, value, fixed, log_seq) VALUES (?,?,?,?,?,?,?,?,?)")) !=
		    0 ||
	    (err = ord_store_prepare(g->db, &res,
				     "INSERT INTO result(turn, phase, event_seq, unit, vals, explanation, log_seq) VALUES (?,?,?,?,?,?,?)")) !=
		    0 ||
	    (err = ord_store_prepare(g->db, &state,
				     "INSERT OR REPLACE INTO unit_state(unit_id, turn, phase, state, log_seq) SELECT id, ?, ?, ?, ? FROM unit WHERE uid = ?")) !=
		    0)
		goto out;
	for (i = 0; i < ctx->nrolls; i++) {
		const struct ord_ctx_roll *r = &ctx->rolls[i];
		sqlite3_reset(roll);
		sqlite3_bind_int(roll, 1, t->turn);
		sqlite3_bind_text(roll, 2, r->phase, -1, SQLITE_STATIC);
		sqlite3_bind_int(roll, 3, (int)r->event_seq);
		sqlite3_bind_text(roll, 4, r->purpose, -1, SQLITE_STATIC);
		sqlite3_bind_int(roll, 5, (int)r->idx);
		sqlite3_bind_int(roll, 6, (int)r->sides);
		sqlite3_bind_int(roll, 7, r->value);
		sqlite3_bind_int(roll, 8, r->fixed);
		sqlite3_bind_int64(roll, 9, seq);
		if (sqlite3_step(roll) != SQLITE_DONE) {
			err = ord_store_error(g->db, "storing rolls");
			goto out;
		}
	}
	for (i = 0; i < ctx->nresults; i++) {
		const struct ord_ctx_result *r = &ctx->results[i];
		ord_buf_reset(&b);
		ord_kv_serialize(&r->values, &b);
		sqlite3_reset(res);
		sqlite3_bind_int(res, 1, t->turn);
		sqlite3_bind_text(res, 2, r->phase, -1, SQLITE_STATIC);
		sqlite3_bind_int(res, 3, (int)r->event_seq);
		sqlite3_bind_text(res, 4, r->unit, -1, SQLITE_STATIC);
		sqlite3_bind_text(res, 5, b.buf, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(res, 6, r->explanation, -1, SQLITE_STATIC);
		sqlite3_bind_int64(res, 7, seq);
		if (sqlite3_step(res) != SQLITE_DONE) {
			err = ord_store_error(g->db, "storing results");
			goto out;
		}
	}
	for (i = 0; i < ctx->nunits; i++) {
		if (!ord_ctx_unit_changed(ctx, i, &b))
			continue;
		sqlite3_reset(state);
		sqlite3_bind_int(state, 1, t->turn);
		sqlite3_bind_int(state, 2, t->phase + 1);
		sqlite3_bind_text(state, 3, b.buf, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(state, 4, seq);
		sqlite3_bind_text(state, 5, ctx->units[i].id, -1, SQLITE_STATIC);
		if (sqlite3_step(state) != SQLITE_DONE) {
			err = ord_store_error(g->db, "storing unit states");
			goto out;
		}
	}
	if ((err = ord_game_phase_digest(g, seq, digest, &nr, &nres, &nst)) != 0)
		goto out;
	ord_buf_addf(&body, "turn=%d\nphase=%s\nindex=%d\nrolls=%d\nresults=%d\nstates=%d\ndigest=",
		     t->turn, phase, t->phase + 1, nr, nres, nst);
	ord_buf_add_hex(&body, digest, 32);
	ord_buf_addch(&body, '\n');
	if ((err = ord_game_log(g, &lseq, t->turn, "resolve", body.buf)) != 0)
		goto out;
	if (lseq != seq) {
		err = ord_error_set(ORD_ERROR, "the log moved while resolving (%lld, expected %lld)",
				    (long long)lseq, (long long)seq);
		goto out;
	}
	if ((err = ord_store_prepare(g->db, &up,
				     "UPDATE turn SET phase = phase + 1, state = CASE WHEN phase + 1 >= ? THEN 'resolved' ELSE state END WHERE turn = ?")) !=
	    0)
		goto out;
	sqlite3_bind_int(up, 1, (int)ord_game_nphases(g));
	sqlite3_bind_int(up, 2, t->turn);
	if (sqlite3_step(up) != SQLITE_DONE)
		err = ord_store_error(g->db, "advancing the phase");
out:
	sqlite3_finalize(head);
	sqlite3_finalize(roll);
	sqlite3_finalize(res);
	sqlite3_finalize(state);
	sqlite3_finalize(up);
	ord_buf_release(&b);
	ord_buf_release(&body);
	return err;
}

int ord_game_resolve(ord_game *g, const char *phase, const int *dice, size_t ndice, struct ord_buf *out)
{
	struct ord_turn t;
	struct ord_ctx ctx;
	const char *cur = NULL;
	size_t i;
	int err, loaded = 0;

	if (dice && !g->fixed_dice)
		return ord_error_set(ORD_EUSAGE,
				     "dice can only be given in a game created with --fixed-dice; this game's dice come from its sealed seed");
	if ((err = ord_game_may_change(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = current_phase(g, &t, &cur)) != 0)
		goto out;
	if (phase && strcmp(phase, cur)) {
		err = ord_error_set(ORD_ESTATE, "the current phase of turn %d is '%s', not '%s'",
				    t.turn, cur, phase);
		goto out;
	}
	if ((err = ord_game_load_ctx(g, &ctx, t.turn, 1, cur)) != 0)
		goto out;
	loaded = 1;
	ctx.phase = cur;
	if (g->fixed_dice) {
		static const int none[1];
		ctx.fixed = dice ? dice : none;
		ctx.nfixed = dice ? ndice : 0;
	} else {
		memcpy(ctx.dice_key, t.dice_key, 32);
		ctx.have_key = t.have_dice_key;
	}
	if (g->rs->resolve_phase && (err = g->rs->resolve_phase(&ctx, cur)) != 0)
		goto out;
	if ((err = ord_state_check(&ctx)) != 0)
		goto out;
	if (g->fixed_dice && ctx.fixed_pos < ctx.nfixed) {
		err = ord_error_set(ORD_EUSAGE, "%zu dice given but phase '%s' used only %zu",
				    ctx.nfixed, cur, ctx.fixed_pos);
		goto out;
	}
	if ((err = store_phase(g, &ctx, &t, cur)) != 0)
		goto out;
	{
		struct ord_change c = { .kind = ORD_CHANGE_RESOLVE,
					.turn = t.turn,
					.phase = cur,
					.last_phase = (size_t)t.phase + 1 >= ord_game_nphases(g) };
		if ((err = ord_game_notify(g, &c)) != 0)
			goto out;
	}
	if ((err = ord_store_commit(g->db)) != 0)
		goto out;
	ord_buf_addf(out, "turn %d, phase %s: %zu event%s, %zu roll%s\n", t.turn, cur, ctx.nevents,
		     ctx.nevents == 1 ? "" : "s", ctx.nrolls, ctx.nrolls == 1 ? "" : "s");
	for (i = 0; i < ctx.nresults; i++)
		ord_buf_addf(out, "  %s%s%s\n", ctx.results[i].unit,
			     *ctx.results[i].unit ? ": " : "", ctx.results[i].explanation);
	if ((size_t)t.phase + 1 < ord_game_nphases(g))
		ord_buf_addf(out, "next phase: %s\n", g->rs->phases[t.phase + 1]);
	else
		ord_buf_addf(out, "every phase of turn %d is resolved: exchange the sheets next\n",
			     t.turn);
out:
	if (err)
		ord_store_rollback(g->db);
	if (loaded)
		ord_ctx_release(&ctx);
	return err;
}

/* ---- exchange ---- */

int ord_game_exchange(ord_game *g)
{
	struct ord_buf body = ORD_BUF_INIT;
	sqlite3_stmt *st = NULL;
	struct ord_turn t;
	int64_t seq;
	int err;

	if ((err = ord_game_may_change(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0)
		goto out;
	if (g->refereeless && strcmp(t.state, "open")) {
		struct ord_buf w = ORD_BUF_INIT;
		size_t n;
		if ((err = sides_lacking(g, t.turn, 1, &w, &n)) == 0 && n)
			err = ord_error_set(ORD_ESTATE,
					    "cannot exchange turn %d: waiting for %s to open %s sheet",
					    t.turn, w.buf, n == 1 ? "its" : "their");
		ord_buf_release(&w);
		if (err)
			goto out;
	}
	if (strcmp(t.state, "resolved")) {
		if (!strcmp(t.state, "open"))
			err = ord_error_set(ORD_ESTATE,
					    "turn %d is still open: seal it and resolve its phases first",
					    t.turn);
		else
			err = ord_error_set(ORD_ESTATE, "turn %d has phases left to resolve (next: %s)",
					    t.turn, g->rs->phases[t.phase]);
		goto out;
	}
	/* revealing the seed lets everyone recompute the dice */
	ord_canon_exchange(&body, t.turn, t.seed);
	if ((err = ord_game_ensure_key(g, t.turn)) != 0 ||
	    (err = ord_game_log(g, &seq, t.turn, "exchange", body.buf)) != 0 ||
	    (err = ord_game_sign_head(g, t.turn, "exchange")) != 0 ||
	    (err = ord_store_prepare(g->db, &st,
				     "UPDATE turn SET state = 'exchanged' WHERE turn = ?")) != 0)
		goto out;
	sqlite3_bind_int(st, 1, t.turn);
	if (sqlite3_step(st) != SQLITE_DONE) {
		err = ord_store_error(g->db, "exchanging");
		goto out;
	}
	if ((err = ord_game_open_turn(g, t.turn + 1)) != 0)
		goto out;
	{
		struct ord_change c = { .kind = ORD_CHANGE_EXCHANGE, .turn = t.turn };
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
