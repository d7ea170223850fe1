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

#include "core/game.h"

#define MAX_SHEET_BYTES (16u << 20)

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? (const char *)s : "";
}

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

static int store_sheet(struct ord_game *g, struct ord_receipt *rc, int turn,
		       const struct ord_game_side *side, const char *source, const char *bytes,
		       size_t len)
{
	unsigned char nonce[32], commitment[32];
	struct ord_buf body = ORD_BUF_INIT;
	sqlite3_stmt *st = NULL;
	int64_t seq;
	int version = 1, err;

	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT coalesce(max(version), 0) + 1 FROM sheet WHERE turn = ? AND side_id = ?")) != 0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int64(st, 2, side->id);
	if (sqlite3_step(st) == SQLITE_ROW)
		version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	st = NULL;

	randombytes_buf(nonce, sizeof(nonce));
	ord_commit_sheet(commitment, g->game_id, turn, side->name, nonce, bytes, len);
	ord_buf_addf(&body, "side=%s\nversion=%d\nsource=%s\ncommitment=", side->name, version, source);
	ord_buf_add_hex(&body, commitment, 32);
	ord_buf_addch(&body, '\n');
	if ((err = ord_game_log(g, &seq, turn, "sheet", body.buf)) != 0)
		goto out;
	if ((err = ord_store_prepare(g->db, &st,
				     "INSERT INTO sheet(turn, side_id, version, source, bytes, nonce, commitment, log_seq) "
				     "VALUES (?,?,?,?,?,?,?,?)")) != 0)
		goto out;
	sqlite3_bind_int(st, 1, turn);
	sqlite3_bind_int64(st, 2, side->id);
	sqlite3_bind_int(st, 3, version);
	sqlite3_bind_text(st, 4, source, -1, SQLITE_STATIC);
	sqlite3_bind_blob(st, 5, len ? bytes : "", (int)len, SQLITE_STATIC);
	sqlite3_bind_blob(st, 6, nonce, 32, SQLITE_STATIC);
	sqlite3_bind_blob(st, 7, commitment, 32, SQLITE_STATIC);
	sqlite3_bind_int64(st, 8, seq);
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
	if (!err && diag->n)
		err = ORD_EBADSHEET;
	if (err && diag->n)
		err = ORD_EBADSHEET;
out:
	ord_ctx_release(&ctx);
	ord_sheet_release(&sheet);
	return err;
}

static int log_rejection(struct ord_game *g, int turn, const char *side, const char *bytes,
			 size_t len, size_t problems)
{
	struct ord_buf body = ORD_BUF_INIT;
	unsigned char h[32];
	int64_t seq;
	int err;

	crypto_generichash(h, 32, (const unsigned char *)bytes, len, NULL, 0);
	ord_buf_addf(&body, "side=%s\nbytes=%zu\nproblems=%zu\nblake2b=", side, len, problems);
	ord_buf_add_hex(&body, h, 32);
	ord_buf_addch(&body, '\n');
	if ((err = ord_store_begin(g->db)) == 0) {
		err = ord_game_log(g, &seq, turn, "reject", body.buf);
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

int ord_game_submit(ord_game *g, struct ord_receipt *out, const char *side, const char *bytes,
		    size_t len, struct ord_diag *diag)
{
	const struct ord_game_side *s = ord_game_side_by_name(g, side);
	struct ord_turn t;
	int err;

	if (!s) {
		struct ord_buf l = ORD_BUF_INIT;
		ord_game_side_list(g, &l);
		err = ord_error_set(ORD_ENOTFOUND, "unknown side '%s' (expected one of %s)", side, l.buf);
		ord_buf_release(&l);
		return err;
	}
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = turn_open_check(g, &t)) != 0)
		return err;
	if (len > MAX_SHEET_BYTES)
		return ord_error_set(ORD_EBADSHEET, "sheet of %zu bytes is larger than %u bytes", len,
				     MAX_SHEET_BYTES);
	if (blank(bytes, len)) {
		ord_diag_add(diag, 1, 1, NULL, NULL,
			     "the sheet is empty (expected one order per line: a unit, then its codes)");
		err = ORD_EBADSHEET;
	} else {
		err = check_sheet(g, t.turn, side, bytes, len, diag);
	}
	if (err == ORD_EBADSHEET) {
		int lerr = log_rejection(g, t.turn, side, bytes, len, diag->n);
		if (lerr)
			return lerr;
		return ord_error_set(ORD_EBADSHEET, "sheet rejected: %zu problem%s", diag->n,
				     diag->n == 1 ? "" : "s");
	}
	if (err)
		return err;
	if ((err = ord_store_begin(g->db)) != 0)
		return err;
	/* the turn may have been sealed while we validated */
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = turn_open_check(g, &t)) != 0 ||
	    (err = store_sheet(g, out, t.turn, s, "submitted", bytes, len)) != 0 ||
	    (err = ord_store_commit(g->db)) != 0) {
		ord_store_rollback(g->db);
		return err;
	}
	return 0;
}

/* ---- seal ---- */

static int latest_sheet(struct ord_game *g, int turn, int64_t side_id, char **bytes, size_t *len)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	*bytes = NULL;
	*len = 0;
	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT bytes FROM sheet WHERE turn = ? AND side_id = ? ORDER BY version DESC LIMIT 1")) != 0)
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
	int64_t seq;
	int err, late;

	if ((err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0)
		goto out;
	if (strcmp(t.state, "open")) {
		err = ord_error_set(ORD_ESTATE, "turn %d is already sealed", t.turn);
		goto out;
	}
	for (i = 0; i < g->nsides; i++) {
		char *b;
		size_t l;
		if ((err = latest_sheet(g, t.turn, g->sides[i].id, &b, &l)) != 0)
			goto out;
		if (!b) {
			ord_buf_addf(&missing, "%s%s", nmissing ? ", " : "", g->sides[i].name);
			nmissing++;
		}
		free(b);
	}
	late = t.deadline && (int64_t)time(NULL) > t.deadline;
	if (nmissing && !force && !late) {
		err = ord_error_set(ORD_ESTATE,
				    "cannot seal turn %d: waiting for %s (seal --force seals now; missing sides follow the NMR policy '%s')",
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
		char *b = NULL, *prev = NULL;
		size_t l = 0, pl = 0;
		const char *source = "hold";
		struct ord_buf hold = ORD_BUF_INIT;

		if ((err = latest_sheet(g, t.turn, g->sides[i].id, &b, &l)) != 0)
			goto out;
		if (b) {
			free(b);
			continue;
		}
		if (!strcmp(g->nmr, "repeat") && t.turn > 1) {
			struct ord_diag d;
			ord_diag_init(&d);
			if ((err = latest_sheet(g, t.turn - 1, g->sides[i].id, &prev, &pl)) != 0)
				goto out;
			if (prev && !blank(prev, pl) && !check_sheet(g, t.turn, g->sides[i].name, prev, pl, &d))
				source = "repeat";
			ord_diag_release(&d);
		}
		if (!strcmp(source, "repeat")) {
			err = store_sheet(g, NULL, t.turn, &g->sides[i], source, prev, pl);
		} else {
			ord_buf_addf(&hold, "# no orders received from %s for turn %d: NMR policy %s, every unit holds\n",
				     g->sides[i].name, t.turn, g->nmr);
			err = store_sheet(g, NULL, t.turn, &g->sides[i], "hold", hold.buf, hold.len);
		}
		free(prev);
		ord_buf_release(&hold);
		if (err)
			goto out;
	}
	if ((err = ord_game_dice_key(g, t.turn, t.seed, key)) != 0)
		goto out;
	ord_buf_addf(&body, "turn=%d\nforced=%d\n", t.turn, force);
	{
		sqlite3_stmt *cs = NULL;
		if ((err = ord_store_prepare(g->db, &cs,
					     "SELECT side.name, sheet.version, sheet.commitment FROM sheet JOIN side ON side.id = sheet.side_id "
					     "WHERE sheet.turn = ?1 AND sheet.version = (SELECT max(version) FROM sheet s2 "
					     "WHERE s2.turn = ?1 AND s2.side_id = sheet.side_id) ORDER BY side.id")) != 0)
			goto out;
		sqlite3_bind_int(cs, 1, t.turn);
		while (sqlite3_step(cs) == SQLITE_ROW) {
			ord_buf_addf(&body, "sealed.%s=%d:", col_text(cs, 0), sqlite3_column_int(cs, 1));
			ord_buf_add_hex(&body, sqlite3_column_blob(cs, 2), 32);
			ord_buf_addch(&body, '\n');
		}
		sqlite3_finalize(cs);
	}
	if ((err = ord_game_log(g, &seq, t.turn, "seal", body.buf)) != 0 ||
	    (err = ord_store_prepare(g->db, &st,
				     "UPDATE turn SET state = 'sealed', phase = 0, dice_key = ? WHERE turn = ?")) != 0)
		goto out;
	sqlite3_bind_blob(st, 1, key, 32, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, t.turn);
	if (sqlite3_step(st) != SQLITE_DONE) {
		err = ord_store_error(g->db, "sealing");
		goto out;
	}
	err = ord_store_commit(g->db);
out:
	if (err)
		ord_store_rollback(g->db);
	sqlite3_finalize(st);
	ord_buf_release(&missing);
	ord_buf_release(&body);
	return err;
}

/* ---- events ---- */

static int current_phase(struct ord_game *g, const struct ord_turn *t, const char **phase)
{
	size_t n = ord_game_nphases(g);

	if (!strcmp(t->state, "open"))
		return ord_error_set(ORD_ESTATE, "turn %d is not sealed yet: seal it before its phases",
				     t->turn);
	if (strcmp(t->state, "sealed") || (size_t)t->phase >= n)
		return ord_error_set(ORD_ESTATE,
				     "every phase of turn %d is resolved: exchange the sheets to open the next turn",
				     t->turn);
	*phase = g->rs->phases[t->phase];
	return 0;
}

/* The canonical text of an event, as logged and as audited. */
void ord_game_event_body(struct ord_buf *out, unsigned seq, const char *phase, const char *kind,
			 const char *args, const char *override, const char *checks);
void ord_game_event_body(struct ord_buf *out, unsigned seq, const char *phase, const char *kind,
			 const char *args, const char *override, const char *checks)
{
	const char *p = args;

	ord_buf_addf(out, "seq=%u\nphase=%s\nkind=%s\n", seq, phase, kind);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		ord_buf_adds(out, "arg.");
		ord_buf_add(out, p, len);
		ord_buf_addch(out, '\n');
		p += len + (nl ? 1 : 0);
	}
	if (override)
		ord_buf_addf(out, "override=%s\n", override);
	if (checks && *checks)
		ord_buf_addf(out, "checks=%s\n", checks);
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
		err = ord_error_set(ORD_EUSAGE, "unknown event '%s' for ruleset %s (expected one of %s)",
				    kind, g->rs->name, args.buf);
		goto out;
	}
	if (override_reason && !*override_reason) {
		err = ord_error_set(ORD_EUSAGE, "an override needs a stated reason");
		goto out;
	}
	if ((err = ord_store_begin(g->db)) != 0)
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
			ord_kv_set(&kv, ks->name, ord_ctx_find_unit(&ctx, ord_kv_get(&kv, ks->name))->id);
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
	if (cd.n && !override_reason) {
		size_t i;
		for (i = 0; i < cd.n; i++)
			ord_diag_add(diag, 0, 0, cd.items[i].unit, cd.items[i].rule, "%s", cd.items[i].msg);
		err = ord_error_set(ORD_ECHECK, "event '%s' disagrees with the sealed orders", kind);
		goto out;
	}
	diag_join(&cd, &checks);
	ord_game_event_body(&body, seq, phase, kind, args.buf, cd.n ? override_reason : NULL,
			    checks.buf);
	if ((err = ord_game_log(g, &lseq, t.turn, "event", body.buf)) != 0 ||
	    (err = ord_store_prepare(g->db, &st,
				     "INSERT INTO event(turn, seq, phase, kind, args, override, checks, log_seq) VALUES (?,?,?,?,?,?,?,?)")) != 0)
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
	err = ord_store_commit(g->db);
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
	if ((err = ord_store_prepare(g->db, &head, "SELECT head_seq + 1 FROM game")) != 0)
		goto out;
	if (sqlite3_step(head) == SQLITE_ROW)
		seq = sqlite3_column_int64(head, 0);
	if ((err = ord_store_prepare(g->db, &roll,
				     "INSERT INTO roll(turn, phase, event_seq, purpose, idx, sides, value, fixed, log_seq) VALUES (?,?,?,?,?,?,?,?,?)")) != 0 ||
	    (err = ord_store_prepare(g->db, &res,
				     "INSERT INTO result(turn, phase, event_seq, unit, vals, explanation, log_seq) VALUES (?,?,?,?,?,?,?)")) != 0 ||
	    (err = ord_store_prepare(g->db, &state,
				     "INSERT OR REPLACE INTO unit_state(unit_id, turn, phase, state, log_seq) SELECT id, ?, ?, ?, ? FROM unit WHERE uid = ?")) != 0)
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
				     "UPDATE turn SET phase = phase + 1, state = CASE WHEN phase + 1 >= ? THEN 'resolved' ELSE state END WHERE turn = ?")) != 0)
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

int ord_game_resolve(ord_game *g, const char *phase, const int *dice, size_t ndice,
		     struct ord_buf *out)
{
	struct ord_turn t;
	struct ord_ctx ctx;
	const char *cur = NULL;
	size_t i;
	int err, loaded = 0;

	if (dice && !g->fixed_dice)
		return ord_error_set(ORD_EUSAGE,
				     "dice can only be given in a game created with --fixed-dice; this game's dice come from its sealed seed");
	if ((err = ord_store_begin(g->db)) != 0)
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
	if (g->fixed_dice && ctx.fixed_pos < ctx.nfixed) {
		err = ord_error_set(ORD_EUSAGE, "%zu dice given but phase '%s' used only %zu",
				    ctx.nfixed, cur, ctx.fixed_pos);
		goto out;
	}
	if ((err = store_phase(g, &ctx, &t, cur)) != 0)
		goto out;
	if ((err = ord_store_commit(g->db)) != 0)
		goto out;
	ord_buf_addf(out, "turn %d, phase %s: %zu event%s, %zu roll%s\n", t.turn, cur, ctx.nevents,
		     ctx.nevents == 1 ? "" : "s", ctx.nrolls, ctx.nrolls == 1 ? "" : "s");
	for (i = 0; i < ctx.nresults; i++)
		ord_buf_addf(out, "  %s%s%s\n", ctx.results[i].unit, *ctx.results[i].unit ? ": " : "",
			     ctx.results[i].explanation);
	if ((size_t)t.phase + 1 < ord_game_nphases(g))
		ord_buf_addf(out, "next phase: %s\n", g->rs->phases[t.phase + 1]);
	else
		ord_buf_addf(out, "every phase of turn %d is resolved: exchange the sheets next\n", t.turn);
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

	if ((err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0)
		goto out;
	if (strcmp(t.state, "resolved")) {
		if (!strcmp(t.state, "open"))
			err = ord_error_set(ORD_ESTATE, "turn %d is still open: seal it and resolve its phases first", t.turn);
		else
			err = ord_error_set(ORD_ESTATE,
					    "turn %d has phases left to resolve (next: %s)", t.turn,
					    g->rs->phases[t.phase]);
		goto out;
	}
	/* revealing the seed lets everyone recompute the dice */
	ord_buf_addf(&body, "turn=%d\nseed=", t.turn);
	ord_buf_add_hex(&body, t.seed, 32);
	ord_buf_addch(&body, '\n');
	if ((err = ord_game_log(g, &seq, t.turn, "exchange", body.buf)) != 0 ||
	    (err = ord_store_prepare(g->db, &st, "UPDATE turn SET state = 'exchanged' WHERE turn = ?")) != 0)
		goto out;
	sqlite3_bind_int(st, 1, t.turn);
	if (sqlite3_step(st) != SQLITE_DONE) {
		err = ord_store_error(g->db, "exchanging");
		goto out;
	}
	if ((err = ord_game_open_turn(g, t.turn + 1)) != 0)
		goto out;
	err = ord_store_commit(g->db);
out:
	if (err)
		ord_store_rollback(g->db);
	sqlite3_finalize(st);
	ord_buf_release(&body);
	return err;
}
