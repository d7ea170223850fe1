/*
 * game_turn.c - the turn cycle: submit, seal, event, close and witness
 * (witnessed dice), resolve, exchange.
 *
 *   open --submit/resubmit--> sealed --phases resolved--> resolved --exchange--> next turn open
 *
 * Every change is one BEGIN IMMEDIATE transaction that also appends to the
 * hash-chained log, so a crash leaves either the whole change or none of
 * it.  What a phase does (the event checks, the run, the digest) is
 * phase.c's, which the verifier's replay calls too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/game.h"
#include "core/phase.h"

#define MAX_SHEET_BYTES (16u << 20)

static int blank(const char *bytes, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (bytes[i] != ' ' && bytes[i] != '\t' && bytes[i] != '\r' && bytes[i] != '\n')
			return 0;
	return 1;
}

static void binding(struct ord_game *g, struct ord_sheet_binding *b, const struct ord_store_turn *t,
		    const char *side, const unsigned char *witness)
{
	memset(b, 0, sizeof(*b));
	memcpy(b->game_id, g->game_id, 16);
	b->turn = t->turn;
	b->side = side;
	memcpy(b->seed_commitment, t->seed_commitment, 32);
	if (witness)
		memcpy(b->witness, witness, 32);
}

/* ---- submit ---- */

/* The next version number of a side's sheets this turn (sheets and
 * commitments share the numbering). */
static int next_version(struct ord_game *g, int turn, const struct ord_store_side *side, int *out)
{
	unsigned char c[32];
	int opened, err;

	if ((err = ord_store_latest(g->db, turn, side->id, out, c, &opened)) != 0)
		return err;
	(*out)++;
	return 0;
}

/*
 * Store a sheet and log it.  nonce NULL: a fresh one is drawn (the player
 * does not know it; he may not need to), unless the sheet is a stand-in,
 * whose nonce is derived from public values.  opens_version 0: the next
 * version; else the version of the commitment this sheet opens, logged as
 * an "opening".
 */
static int store_sheet(struct ord_game *g, struct ord_receipt *rc, const struct ord_store_turn *t,
		       const struct ord_store_side *side, const char *source, const char *bytes,
		       size_t len, const unsigned char *given_nonce, const unsigned char *signature,
		       const unsigned char *witness, int opens_version)
{
	struct ord_sheet_binding b;
	struct ord_store_sheet s;
	struct ord_buf body = ORD_BUF_INIT;
	int64_t seq;
	int err = 0;

	memset(&s, 0, sizeof(s));
	s.version = opens_version;
	if (!s.version && (err = next_version(g, t->turn, side, &s.version)) != 0)
		return err;
	if (given_nonce)
		memcpy(s.nonce, given_nonce, 32);
	else if (strcmp(source, "submitted"))
		ord_stand_in_nonce(s.nonce, g->game_id, t->turn, side->name);
	else
		randombytes_buf(s.nonce, sizeof(s.nonce));
	binding(g, &b, t, side->name, witness);
	ord_commit_sheet(s.commitment, &b, s.nonce, bytes, len);
	if (opens_version) {
		ord_canon_opening(&body, side->name, s.version, s.commitment);
		err = ord_game_log(g, &seq, t->turn, "opening", body.buf);
	} else {
		ord_canon_sheet(&body, side->name, s.version, source, s.commitment, signature, witness);
		err = ord_game_log(g, &seq, t->turn, "sheet", body.buf);
	}
	if (err)
		goto out;
	s.source = (char *)source;
	s.bytes = (char *)bytes;
	s.len = len;
	s.log_seq = seq;
	if ((s.has_sig = signature != NULL) != 0)
		memcpy(s.signature, signature, 64);
	if ((s.has_witness = witness != NULL) != 0)
		memcpy(s.witness, witness, 32);
	if ((err = ord_store_sheet_insert(g->db, t->turn, side->id, &s)) != 0)
		goto out;
	if (rc) {
		rc->turn = t->turn;
		rc->version = s.version;
		snprintf(rc->side, sizeof(rc->side), "%s", side->name);
		memcpy(rc->commitment, s.commitment, 32);
	}
out:
	sodium_memzero(s.nonce, sizeof(s.nonce));
	ord_buf_release(&body);
	return err;
}

/* Parse a sheet and have the ruleset validate it for side; reading (may be
 * NULL) gets every order that parsed, as the notation prints it.  The lines
 * that parsed are validated even when others did not (notation.h), so the
 * player learns every problem of his sheet in one round, in sheet order. */
static int check_sheet(struct ord_game *g, int turn, const char *side, const char *bytes,
		       size_t len, struct ord_diag *diag, struct ord_buf *reading)
{
	struct ord_sheet sheet;
	struct ord_ctx ctx;
	size_t i, before = diag->n;
	int err, loaded = 0;

	ord_sheet_init(&sheet);
	err = ord_game_parse_sheet(g, &sheet, bytes, len, diag);
	if (err && err != ORD_EBADSHEET)
		goto out;
	for (i = 0; reading && i < sheet.n; i++) {
		g->notation->format(&sheet.orders[i], reading);
		ord_buf_addch(reading, '\n');
	}
	if ((err = ord_game_load_ctx(g, &ctx, turn, 0, NULL)) != 0)
		goto out;
	loaded = 1;
	ctx.side = side;
	if (g->rs->validate_sheet && (err = g->rs->validate_sheet(&ctx, &sheet, diag)) != 0 &&
	    err != ORD_EBADSHEET)
		goto out;
	err = diag->n > before ? ORD_EBADSHEET : 0;
	ord_diag_sort(diag, before);
out:
	if (loaded)
		ord_ctx_release(&ctx);
	ord_sheet_release(&sheet);
	return err;
}

static int log_rejection(struct ord_game *g, int turn, const char *side, size_t len,
			 const struct ord_diag *diag, const char *message, const char *reason)
{
	struct ord_change c = {
		.kind = ORD_CHANGE_REJECT, .turn = turn, .side = side, .message = message, .diag = diag
	};
	struct ord_buf body = ORD_BUF_INIT;
	int64_t seq;
	int err;

	ord_canon_reject(&body, side, len, diag ? diag->n : 1, reason);
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

static int turn_open_check(struct ord_game *g, const struct ord_store_turn *t)
{
	(void)g;
	if (t->state != ORD_TURN_OPEN)
		return ord_error_set(ORD_ESEALED,
				     "turn %d is sealed: sheets can no longer be submitted or changed",
				     t->turn);
	if (t->deadline && (int64_t)time(NULL) > t->deadline)
		return ord_error_set(ORD_ESTATE,
				     "the deadline of turn %d has passed: no more sheets (the referee seals the turn)",
				     t->turn);
	return 0;
}

static int find_side(struct ord_game *g, const char *side, const struct ord_store_side **out)
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
static int refuse_logged(struct ord_game *g, int turn, const char *side, size_t len, const char *reason)
{
	struct ord_buf msg = ORD_BUF_INIT;
	int code = ord_error_code(), lerr;

	ord_buf_adds(&msg, ord_error_last());
	lerr = log_rejection(g, turn, side, len, NULL, msg.buf, reason);
	if (!lerr)
		ord_error_set(code, "%s", msg.buf);
	ord_buf_release(&msg);
	return lerr ? lerr : code;
}

/* Validate a sheet's bytes for side; ORD_EBADSHEET (logged) with diag. */
static int validate_bytes(struct ord_game *g, int turn, const char *side, const char *bytes,
			  size_t len, struct ord_diag *diag, struct ord_buf *reading, int log)
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
		err = check_sheet(g, turn, side, bytes, len, diag, reading);
	}
	if (err == ORD_EBADSHEET) {
		struct ord_buf msg = ORD_BUF_INIT;
		int lerr = 0;

		ord_buf_addf(&msg, "sheet rejected: %zu problem%s", diag->n, diag->n == 1 ? "" : "s");
		if (log)
			lerr = log_rejection(g, turn, side, len, diag, msg.buf, NULL);
		if (!lerr)
			lerr = ord_error_set(ORD_EBADSHEET, "%s", msg.buf);
		ord_buf_release(&msg);
		return lerr;
	}
	return err;
}

int ord_game_check_sheet(ord_game *g, const char *side, const char *bytes, size_t len,
			 struct ord_diag *diag, struct ord_buf *reading)
{
	const struct ord_store_side *s;
	struct ord_store_turn t;
	int err;

	if ((err = find_side(g, side, &s)) != 0 || (err = ord_game_turn(g, &t, 0)) != 0 ||
	    (err = turn_open_check(g, &t)) != 0)
		return err;
	return validate_bytes(g, t.turn, s->name, bytes, len, diag, reading, 0);
}

/* Tell the hook a side's sheet or commitment was stored. */
static int notify_sheet(struct ord_game *g, enum ord_change_kind kind, const struct ord_receipt *rc)
{
	struct ord_change c = { .kind = kind, .turn = rc->turn, .side = rc->side, .receipt = rc };

	return ord_game_notify(g, &c);
}

int ord_game_submit_opts(ord_game *g, struct ord_receipt *out, const char *side, const char *bytes,
			 size_t len, const struct ord_submit_opts *o, struct ord_diag *diag)
{
	static const struct ord_submit_opts none;
	const struct ord_store_side *s;
	struct ord_receipt rc;
	struct ord_sheet_binding b;
	unsigned char c[32];
	struct ord_store_turn t;
	int err;

	if (!o)
		o = &none;
	if ((err = ord_game_may_change(g)) != 0 || (err = find_side(g, side, &s)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = turn_open_check(g, &t)) != 0)
		return err;
	if (o->signature && !o->nonce)
		return ord_error_set(ORD_EUSAGE,
				     "a signature needs the nonce it was made with (--nonce)");
	if (g->witnessed && !o->witness) {
		ord_error_set(ORD_EBADDATA,
			      "the dice of '%s' are witnessed: a sheet needs the top of its side's witness chain for turn %d "
			      "(--witness HEX from 'orderly sign --witness', or --witness-key FILE)",
			      g->path, t.turn);
		return refuse_logged(g, t.turn, side, len, "no witness chain");
	}
	if (!g->witnessed && o->witness)
		return ord_error_set(ORD_EUSAGE,
				     "the dice of '%s' are not witnessed: submit without a witness chain",
				     g->path);
	if (s->has_key && !o->signature) {
		ord_error_set(ORD_EBADDATA,
			      "side '%s' signs its sheets (its key is in the scenario): an unsigned sheet is refused; "
			      "sign it with 'orderly sign' and submit it with --nonce and --signature",
			      side);
		return refuse_logged(g, t.turn, side, len, "unsigned");
	}
	if (o->signature && !s->has_key)
		return ord_error_set(ORD_EUSAGE,
				     "side '%s' has no key in the scenario, so its signature cannot be checked; submit without --signature",
				     side);
	if (o->signature) {
		binding(g, &b, &t, s->name, o->witness);
		ord_commit_sheet(c, &b, o->nonce, bytes, len);
		if (ord_sheet_sig_check(s->pubkey, o->signature, g->game_id, t.turn, s->name, c)) {
			ord_error_set(ORD_EBADDATA,
				      "the signature is not side %s's over this sheet for turn %d with this nonce "
				      "(signed by another key, for another game, turn or side, or before turn %d opened with its seed "
				      "commitment, or the sheet or nonce changed since)",
				      side, t.turn, t.turn);
			return refuse_logged(g, t.turn, side, len, "bad signature");
		}
	}
	if ((err = validate_bytes(g, t.turn, side, bytes, len, diag, NULL, 1)) != 0)
		return err;
	if ((err = ord_store_begin(g->db)) != 0)
		return err;
	/* the turn may have been sealed while we validated */
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = turn_open_check(g, &t)) != 0 ||
	    (err = store_sheet(g, &rc, &t, s, "submitted", bytes, len, o->nonce, o->signature,
			       o->witness, 0)) != 0 ||
	    (err = notify_sheet(g, ORD_CHANGE_SUBMIT, &rc)) != 0 ||
	    (err = ord_store_commit(g->db)) != 0) {
		ord_store_rollback(g->db);
		return err;
	}
	/* a receipt is handed out only when the game file alone holds the
	 * sheet: not just its write-ahead log, which a copy of the file misses */
	if ((err = ord_store_checkpoint(g->db)) != 0)
		return ord_error_set(err,
				     "the sheet of %s (version %d) is stored, but not yet in the game file itself (%s): "
				     "ask 'orderly info' again before you rely on it",
				     rc.side, rc.version, ord_error_last());
	if (out)
		*out = rc;
	return 0;
}

int ord_game_submit_signed(ord_game *g, struct ord_receipt *out, const char *side,
			   const char *bytes, size_t len, const unsigned char *nonce,
			   const unsigned char *signature, struct ord_diag *diag)
{
	struct ord_submit_opts o = { nonce, signature, NULL };

	return ord_game_submit_opts(g, out, side, bytes, len, &o, diag);
}

int ord_game_submit(ord_game *g, struct ord_receipt *out, const char *side, const char *bytes,
		    size_t len, struct ord_diag *diag)
{
	return ord_game_submit_opts(g, out, side, bytes, len, NULL, diag);
}

/* ---- referee-less games: commit, then open after the seal ---- */

int ord_game_commit(ord_game *g, struct ord_receipt *out, const char *side,
		    const unsigned char commitment[32], const unsigned char signature[64])
{
	struct ord_receipt rc;
	const struct ord_store_side *s;
	struct ord_buf body = ORD_BUF_INIT;
	struct ord_store_turn t;
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
	    (err = ord_store_commit_insert(g->db, t.turn, s->id, version, commitment, signature,
					   seq)) != 0)
		goto out;
	rc.turn = t.turn;
	rc.version = version;
	snprintf(rc.side, sizeof(rc.side), "%s", s->name);
	memcpy(rc.commitment, commitment, 32);
	if ((err = notify_sheet(g, ORD_CHANGE_COMMIT, &rc)) != 0 || (err = ord_store_commit(g->db)) != 0)
		goto out;
	if ((err = ord_store_checkpoint(g->db)) != 0)
		goto out;
	if (out)
		*out = rc;
out:
	if (err) {
		int code = ord_error_code();
		ord_store_rollback(g->db);
		/* a refused commitment is logged as an attempt, like a refused sheet */
		if (code == ORD_EBADDATA)
			err = refuse_logged(g, t.turn, side, 32, "bad signature");
	}
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
		if ((err = ord_store_latest(g->db, turn, g->sides[i].id, &version, c, &opened)) != 0)
			return err;
		if (!version || (want_opened && !opened))
			ord_buf_addf(out, "%s%s", (*n)++ ? ", " : "", g->sides[i].name);
	}
	return 0;
}

/* Once every sealed commitment is opened, the dice key can be derived. */
static int set_dice_key_if_complete(struct ord_game *g, const struct ord_store_turn *t)
{
	unsigned char key[32];
	int err;

	err = ord_game_dice_key(g, t->turn, t->seed, key);
	if (err == ORD_ESTATE) {
		ord_error_clear();
		return 0;
	}
	if (err)
		return err;
	return ord_store_turn_set_state(g->db, t->turn, t->state, t->phase, key);
}

int ord_game_open_sheet(ord_game *g, struct ord_receipt *out, const char *side, const char *bytes,
			size_t len, const unsigned char nonce[32], struct ord_diag *diag)
{
	const struct ord_store_side *s;
	struct ord_receipt rc;
	struct ord_buf waiting = ORD_BUF_INIT;
	struct ord_sheet_binding b;
	unsigned char sealed[32], c[32], sig[64];
	struct ord_store_turn t;
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
	if (t.state == ORD_TURN_OPEN) {
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
	if (t.state != ORD_TURN_SEALED || t.have_dice_key) {
		err = ord_error_set(ORD_ESTATE, "every sheet of turn %d is opened already", t.turn);
		goto out;
	}
	if ((err = ord_store_latest(g->db, t.turn, s->id, &version, sealed, &opened)) != 0)
		goto out;
	if (opened) {
		err = ord_error_set(ORD_ESTATE,
				    "the sheet of %s for turn %d (version %d) is opened already",
				    side, t.turn, version);
		goto out;
	}
	binding(g, &b, &t, s->name, NULL);
	ord_commit_sheet(c, &b, nonce, bytes, len);
	if (memcmp(c, sealed, 32)) {
		ord_error_set(ORD_EBADDATA,
			      "this sheet and nonce do not give the commitment %s sealed for turn %d (version %d): "
			      "a wrong nonce, or a sheet changed since it was signed",
			      side, t.turn, version);
		err = refuse_logged(g, t.turn, side, len, "does not open the commitment");
		goto out;
	}
	if ((err = validate_bytes(g, t.turn, side, bytes, len, diag, NULL, 1)) != 0)
		goto out;
	if ((err = ord_store_begin(g->db)) != 0)
		goto out;
	began = 1;
	if ((err = ord_store_commit_signature(g->db, t.turn, s->id, version, sig)) != 0)
		goto out;
	if ((err = store_sheet(g, &rc, &t, s, "submitted", bytes, len, nonce, sig, NULL, version)) != 0 ||
	    (err = set_dice_key_if_complete(g, &t)) != 0 ||
	    (err = notify_sheet(g, ORD_CHANGE_OPEN, &rc)) != 0 || (err = ord_store_commit(g->db)) != 0)
		goto out;
	began = 0;
	if ((err = ord_store_checkpoint(g->db)) != 0)
		goto out;
	if (out)
		*out = rc;
out:
	if (err && began)
		ord_store_rollback(g->db);
	ord_buf_release(&waiting);
	return err;
}

/* ---- seal ---- */

/*
 * The stand-in of a side that sent nothing: its sheet of the turn before
 * when the policy repeats and that sheet is still valid, else a hold.
 * Everything in it follows from public values (its text, the policy, the
 * sheet revealed last turn, a nonce derived from the game, turn and side),
 * so re-sealing a copy of the game cannot give another one, nor another
 * dice key.  The verifier's replay decides the same (verify.c).
 */
static int stand_in(struct ord_game *g, const struct ord_store_turn *t,
		    const struct ord_store_side *side)
{
	struct ord_store_sheet prev;
	struct ord_buf hold = ORD_BUF_INIT;
	int err = 0, repeat = 0;

	memset(&prev, 0, sizeof(prev));
	if (!strcmp(g->nmr, "repeat") && t->turn > 1) {
		err = ord_store_sheet_read(g->db, t->turn - 1, side->id, 0, &prev);
		if (err == ORD_ENOTFOUND) {
			ord_error_clear();
			err = 0;
		} else if (err) {
			return err;
		} else if (!blank(prev.bytes, prev.len)) {
			struct ord_diag d;
			ord_diag_init(&d);
			repeat = !check_sheet(g, t->turn, side->name, prev.bytes, prev.len, &d, NULL);
			ord_error_clear();
			ord_diag_release(&d);
		}
	}
	if (repeat) {
		err = store_sheet(g, NULL, t, side, "repeat", prev.bytes, prev.len, NULL, NULL,
				  NULL, 0);
	} else {
		ord_phase_hold_text(&hold, side->name, t->turn, g->nmr);
		err = store_sheet(g, NULL, t, side, "hold", hold.buf, hold.len, NULL, NULL, NULL, 0);
	}
	ord_store_sheet_release(&prev);
	ord_buf_release(&hold);
	return err;
}

int ord_game_seal(ord_game *g, int force)
{
	struct ord_buf missing = ORD_BUF_INIT, body = ORD_BUF_INIT, held = ORD_BUF_INIT;
	struct ord_canon_sealed *cs = NULL;
	unsigned char key[32], wstart[32], wtop[32];
	struct ord_store_turn t;
	struct ord_head head;
	size_t i, nmissing = 0;
	int64_t seq;
	int err, late, have_key = 1;

	if ((err = ord_game_may_change(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0)
		goto out;
	if (t.state != ORD_TURN_OPEN) {
		err = ord_error_set(ORD_ESTATE, "turn %d is already sealed", t.turn);
		goto out;
	}
	if (!g->have_sk) {
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
	/* witnessed: the referee's own chain, which stands in for a side that
	 * does not reveal its link in time; its start is revealed at the exchange */
	if (g->witnessed) {
		randombytes_buf(wstart, sizeof(wstart));
		memcpy(wtop, wstart, 32);
		ord_witness_up(wtop, ORD_WITNESS_LINKS);
		if ((err = ord_store_turn_set_referee_witness(g->db, t.turn, wstart)) != 0)
			goto out;
	}
	for (i = 0; i < g->nsides; i++) {
		unsigned char c[32];
		int version, opened;

		if ((err = ord_store_latest(g->db, t.turn, g->sides[i].id, &version, c, &opened)) != 0)
			goto out;
		if (version)
			continue;
		ord_buf_addf(&held, "%s%s", held.len ? ", " : "", g->sides[i].name);
		if ((err = stand_in(g, &t, &g->sides[i])) != 0)
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
	cs = ord_xcalloc(g->nsides + 1, sizeof(*cs));
	for (i = 0; i < g->nsides; i++) {
		int opened;
		cs[i].side = g->sides[i].name;
		if ((err = ord_store_latest(g->db, t.turn, g->sides[i].id, &cs[i].version,
					    cs[i].commitment, &opened)) != 0)
			goto out;
	}
	ord_canon_seal(&body, t.turn, force, cs, g->nsides, held.buf, g->witnessed ? wtop : NULL);
	if ((err = ord_game_log(g, &seq, t.turn, "seal", body.buf)) != 0 ||
	    (err = ord_game_sign_head(g, t.turn, "seal", &head)) != 0 ||
	    (err = ord_store_turn_set_state(g->db, t.turn, ORD_TURN_SEALED, 0,
					    have_key ? key : NULL)) != 0)
		goto out;
	{
		struct ord_change c = {
			.kind = ORD_CHANGE_SEAL, .turn = t.turn, .held = held.buf, .head = &head
		};
		if ((err = ord_game_notify(g, &c)) != 0)
			goto out;
	}
	err = ord_store_commit(g->db);
out:
	if (err)
		ord_store_rollback(g->db);
	sodium_memzero(wstart, sizeof(wstart));
	free(cs);
	ord_buf_release(&missing);
	ord_buf_release(&held);
	ord_buf_release(&body);
	return err;
}

/* ---- events ---- */

/* The current phase (0-based index into the ruleset's phases) and name. */
static int current_phase(struct ord_game *g, const struct ord_store_turn *t, const char **phase)
{
	size_t n = ord_game_nphases(g);
	int logged, err;

	if (t->state == ORD_TURN_OPEN)
		return ord_error_set(ORD_ESTATE,
				     "turn %d is not sealed yet: seal it before its phases", t->turn);
	if (t->state != ORD_TURN_SEALED || (size_t)t->phase >= n)
		return ord_error_set(ORD_ESTATE,
				     "every phase of turn %d is resolved: exchange the sheets to open the next turn",
				     t->turn);
	/* the log, not the turn row, says how far the turn is */
	if ((err = ord_store_log_count(g->db, t->turn, "resolve", &logged)) != 0)
		return err;
	if (logged != t->phase)
		return ord_error_set(ORD_ETAMPERED,
				     "turn %d: the game file says %d phase%s resolved, but its log shows %d: it was changed outside orderly ('orderly audit' says where)",
				     t->turn, t->phase, t->phase == 1 ? " is" : "s are", logged);
	if (!t->have_dice_key && g->refereeless) {
		struct ord_buf w = ORD_BUF_INIT;
		size_t nw;
		err = sides_lacking(g, t->turn, 1, &w, &nw);
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

/* Witnessed games: whether the current phase's events are closed. */
static int phase_closed(struct ord_game *g, const struct ord_store_turn *t, int *closed)
{
	int n, err;

	*closed = 0;
	if (!g->witnessed)
		return 0;
	if ((err = ord_store_log_count(g->db, t->turn, "close", &n)) != 0)
		return err;
	*closed = n > t->phase;
	return 0;
}

int ord_game_event(ord_game *g, const char *kind, int argc, char *const *argv,
		   const char *override_reason, struct ord_diag *diag)
{
	const struct ord_event_kind *ek = ord_ruleset_event_kind(g->rs, kind);
	struct ord_buf args = ORD_BUF_INIT, checks = ORD_BUF_INIT, body = ORD_BUF_INIT;
	struct ord_store_event se;
	struct ord_ctx ctx;
	struct ord_event *ev;
	struct ord_kv kv;
	struct ord_store_turn t;
	struct ord_diag cd;
	const char *phase = NULL;
	unsigned seq = 1;
	int64_t lseq;
	int err, loaded = 0, closed;

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
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = current_phase(g, &t, &phase)) != 0 ||
	    (err = phase_closed(g, &t, &closed)) != 0)
		goto out;
	if (strcmp(ek->phase, phase)) {
		err = ord_error_set(ORD_ESTATE,
				    "event '%s' belongs to phase '%s'; the current phase is '%s'",
				    kind, ek->phase, phase);
		goto out;
	}
	if (closed) {
		err = ord_error_set(ORD_ESTATE,
				    "the events of phase '%s' are closed (the sides reveal their witness links now): resolve it",
				    phase);
		goto out;
	}
	if ((err = ord_game_load_ctx(g, &ctx, t.turn, 1, phase)) != 0)
		goto out;
	loaded = 1;
	if (ord_phase_event_args(&ctx, ek, argc, argv, &kv, diag)) {
		err = ord_error_set(ORD_EUSAGE, "event '%s': %zu bad argument%s", kind, diag->n,
				    diag->n == 1 ? "" : "s");
		goto out;
	}
	if ((err = ord_store_event_next(g->db, t.turn, &seq)) != 0)
		goto out;
	ctx.phase = phase;
	ord_kv_serialize(&kv, &args);
	ev = ord_ctx_add_event(&ctx, seq, phase, kind, args.buf, override_reason, NULL);
	ord_phase_check_event(&ctx, ev, &checks, &cd);
	ord_error_clear();
	if (cd.n && !override_reason) {
		size_t i;
		for (i = 0; i < cd.n; i++)
			ord_diag_add(diag, 0, 0, cd.items[i].unit, cd.items[i].rule, "%s",
				     cd.items[i].msg);
		err = ord_error_set(ORD_ECHECK, "event '%s' disagrees with the sealed orders", kind);
		goto out;
	}
	ord_canon_event(&body, seq, phase, kind, args.buf, cd.n ? override_reason : NULL, checks.buf);
	if ((err = ord_game_log(g, &lseq, t.turn, "event", body.buf)) != 0)
		goto out;
	se.seq = seq;
	se.phase = phase;
	se.kind = kind;
	se.args = args.buf;
	se.override = cd.n ? override_reason : NULL;
	se.checks = checks.buf;
	se.log_seq = lseq;
	if ((err = ord_store_event_insert(g->db, t.turn, &se)) != 0)
		goto out;
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
	ord_kv_release(&kv);
	ord_diag_release(&cd);
	ord_buf_release(&args);
	ord_buf_release(&checks);
	ord_buf_release(&body);
	return err;
}

/* ---- witnessed dice: close a phase's events, reveal links ---- */

int ord_game_close_phase(ord_game *g, struct ord_head *head_out)
{
	struct ord_store_turn t;
	struct ord_buf body = ORD_BUF_INIT;
	struct ord_ctx ctx;
	struct ord_head head;
	unsigned char events[32];
	const char *phase = NULL;
	int64_t seq;
	int err, loaded = 0, closed;

	if (!g->witnessed)
		return ord_error_set(ORD_ESTATE,
				     "the dice of '%s' are not witnessed: its phases are resolved without closing their events",
				     g->path);
	if ((err = ord_game_may_change(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = current_phase(g, &t, &phase)) != 0 ||
	    (err = phase_closed(g, &t, &closed)) != 0)
		goto out;
	if (closed) {
		err = ord_error_set(ORD_ESTATE, "the events of phase '%s' are closed already", phase);
		goto out;
	}
	if ((err = ord_game_load_ctx(g, &ctx, t.turn, 0, phase)) != 0)
		goto out;
	loaded = 1;
	ord_phase_events_digest(&ctx, events);
	ord_canon_close(&body, t.turn, t.phase + 1, phase, events);
	if ((err = ord_game_log(g, &seq, t.turn, "close", body.buf)) != 0 ||
	    (err = ord_game_sign_head(g, t.turn, "close", &head)) != 0)
		goto out;
	{
		struct ord_change c = {
			.kind = ORD_CHANGE_CLOSE, .turn = t.turn, .phase = phase, .head = &head
		};
		if ((err = ord_game_notify(g, &c)) != 0)
			goto out;
	}
	if ((err = ord_store_commit(g->db)) != 0)
		goto out;
	if (head_out)
		*head_out = head;
out:
	if (err)
		ord_store_rollback(g->db);
	if (loaded)
		ord_ctx_release(&ctx);
	ord_buf_release(&body);
	return err;
}

int ord_game_witness(ord_game *g, const char *side, const unsigned char link[32])
{
	const struct ord_store_side *s;
	struct ord_store_sheet sheet;
	struct ord_store_turn t;
	struct ord_buf body = ORD_BUF_INIT;
	unsigned char up[32], have[32];
	const char *phase = NULL;
	int64_t seq;
	int err, closed, version, opened;

	memset(&sheet, 0, sizeof(sheet));
	if (!g->witnessed)
		return ord_error_set(ORD_ESTATE, "the dice of '%s' are not witnessed", g->path);
	if ((err = ord_game_may_change(g)) != 0 || (err = find_side(g, side, &s)) != 0 ||
	    (err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = current_phase(g, &t, &phase)) != 0 ||
	    (err = phase_closed(g, &t, &closed)) != 0)
		goto out;
	if (!closed) {
		err = ord_error_set(ORD_ESTATE,
				    "the events of phase '%s' are not closed yet: a link is revealed only after them ('orderly witness GAME --close')",
				    phase);
		goto out;
	}
	err = ord_store_link_read(g->db, t.turn, t.phase + 1, s->id, have);
	if (!err) {
		err = ord_error_set(ORD_ESTATE, "side %s has revealed its link for phase '%s' already",
				    side, phase);
		goto out;
	}
	if (err != ORD_ENOTFOUND)
		goto out;
	ord_error_clear();
	if ((err = ord_store_latest(g->db, t.turn, s->id, &version, have, &opened)) != 0 ||
	    (err = ord_store_sheet_read(g->db, t.turn, s->id, version, &sheet)) != 0)
		goto out;
	if (!sheet.has_witness) {
		err = ord_error_set(ORD_ESTATE,
				    "side %s's sheet of turn %d is a stand-in with no witness chain: the referee's chain stands in for it",
				    side, t.turn);
		goto out;
	}
	memcpy(up, link, 32);
	ord_witness_up(up, (unsigned)t.phase + 1);
	if (memcmp(up, sheet.witness, 32)) {
		err = ord_error_set(ORD_EBADDATA,
				    "this is not side %s's link for phase %d ('%s') of turn %d: it does not lead to the witness chain its sheet committed to",
				    side, t.phase + 1, phase, t.turn);
		goto out;
	}
	ord_canon_witness(&body, t.turn, t.phase + 1, s->name, link);
	if ((err = ord_game_log(g, &seq, t.turn, "witness", body.buf)) != 0 ||
	    (err = ord_store_link_insert(g->db, t.turn, t.phase + 1, s->id, link, seq)) != 0)
		goto out;
	{
		struct ord_change c = {
			.kind = ORD_CHANGE_WITNESS, .turn = t.turn, .side = s->name, .phase = phase
		};
		if ((err = ord_game_notify(g, &c)) != 0)
			goto out;
	}
	err = ord_store_commit(g->db);
out:
	if (err)
		ord_store_rollback(g->db);
	ord_store_sheet_release(&sheet);
	ord_buf_release(&body);
	return err;
}

/* The dice key of the current phase of a witnessed turn: the turn's key,
 * the events closed and every side's link (the referee's for a side that
 * revealed none, named in stood_in). */
static int witness_key(struct ord_game *g, const struct ord_store_turn *t, struct ord_ctx *ctx,
		       const char *phase, int stand_in, unsigned char out[32], struct ord_buf *stood_in)
{
	struct ord_digest d;
	unsigned char events[32];
	size_t i;
	int err, closed;

	if ((err = phase_closed(g, t, &closed)) != 0)
		return err;
	if (!closed)
		return ord_error_set(ORD_ESTATE,
				     "the dice of this game are witnessed: close the events of phase '%s' first ('orderly witness GAME --close'), then the sides reveal their links",
				     phase);
	ord_phase_events_digest(ctx, events);
	ord_phase_key_begin(&d, t->dice_key, t->phase + 1, phase, events);
	for (i = 0; i < g->nsides; i++) {
		unsigned char link[32];
		err = ord_store_link_read(g->db, t->turn, t->phase + 1, g->sides[i].id, link);
		if (err == ORD_ENOTFOUND) {
			ord_error_clear();
			ord_buf_addf(stood_in, "%s%s", stood_in->len ? "," : "", g->sides[i].name);
			memcpy(link, t->referee_witness, 32);
			ord_witness_up(link, ORD_WITNESS_LINKS - (unsigned)(t->phase + 1));
			ord_phase_key_side(&d, g->sides[i].name, link, 1);
			continue;
		}
		if (err)
			return err;
		ord_phase_key_side(&d, g->sides[i].name, link, 0);
	}
	if (stood_in->len && !stand_in)
		return ord_error_set(ORD_ESTATE,
				     "%s %s not revealed %s witness link for phase '%s': wait for it, or resolve with --stand-in and the referee's chain stands in (the audit says so)",
				     stood_in->buf, strchr(stood_in->buf, ',') ? "have" : "has",
				     strchr(stood_in->buf, ',') ? "their" : "its", phase);
	ord_digest_final(&d, out);
	return 0;
}

/* ---- resolve ---- */

static int store_phase(struct ord_game *g, struct ord_ctx *ctx, const struct ord_store_turn *t,
		       const char *phase, const char *stood_in)
{
	struct ord_buf b = ORD_BUF_INIT, body = ORD_BUF_INIT;
	unsigned char digest[32], hprev[32];
	int64_t seq, lseq;
	int nr, nres, nst, err = 0;
	size_t i;

	/* rows point at the log entry that will digest them: inside this
	 * IMMEDIATE transaction nobody else can take its number */
	if ((err = ord_store_log_head(g->db, &seq, hprev)) != 0)
		return err;
	seq++;
	/* the digest is taken from what is about to be written, not re-read */
	ord_phase_digest(ctx, t->turn, t->phase + 1, digest, &nr, &nres, &nst);
	for (i = 0; i < ctx->nrolls; i++) {
		const struct ord_ctx_roll *r = &ctx->rolls[i];
		if ((err = ord_store_roll_insert(g->db, t->turn, r->phase, r->event_seq, r->purpose,
						 r->idx, r->sides, r->value, r->fixed, seq)) != 0)
			goto out;
	}
	for (i = 0; i < ctx->nresults; i++) {
		const struct ord_ctx_result *r = &ctx->results[i];
		ord_buf_reset(&b);
		ord_kv_serialize(&r->values, &b);
		if ((err = ord_store_result_insert(g->db, t->turn, r->phase, r->event_seq, r->unit,
						   b.buf, r->explanation, seq)) != 0)
			goto out;
	}
	for (i = 0; i < ctx->nunits; i++) {
		if (!ord_ctx_unit_changed(ctx, i, &b))
			continue;
		if ((err = ord_store_state_put_uid(g->db, ctx->units[i].id, t->turn, t->phase + 1,
						   b.buf, seq)) != 0)
			goto out;
	}
	ord_canon_resolve(&body, t->turn, phase, t->phase + 1, nr, nres, nst, digest, stood_in);
	if ((err = ord_game_log(g, &lseq, t->turn, "resolve", body.buf)) != 0)
		goto out;
	if (lseq != seq) {
		err = ord_error_set(ORD_ERROR, "the log moved while resolving (%lld, expected %lld)",
				    (long long)lseq, (long long)seq);
		goto out;
	}
	err = ord_store_turn_set_state(g->db, t->turn,
				       (size_t)t->phase + 1 >= ord_game_nphases(g) ? ORD_TURN_RESOLVED
										   : ORD_TURN_SEALED,
				       t->phase + 1, t->have_dice_key ? t->dice_key : NULL);
out:
	ord_buf_release(&b);
	ord_buf_release(&body);
	return err;
}

int ord_game_resolve_opts(ord_game *g, const char *phase, const int *dice, size_t ndice,
			  int stand_in, struct ord_buf *out)
{
	struct ord_buf stood = ORD_BUF_INIT;
	struct ord_phase_dice pd;
	struct ord_store_turn t;
	struct ord_ctx ctx;
	unsigned char pkey[32];
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
	memset(&pd, 0, sizeof(pd));
	if (g->fixed_dice) {
		pd.fixed_game = 1;
		pd.fixed = dice;
		pd.nfixed = dice ? ndice : 0;
	} else if (g->witnessed) {
		if ((err = witness_key(g, &t, &ctx, cur, stand_in, pkey, &stood)) != 0)
			goto out;
		pd.key = pkey;
	} else if (t.have_dice_key) {
		pd.key = t.dice_key;
	}
	if ((err = ord_phase_run(&ctx, cur, &pd)) != 0 ||
	    (err = store_phase(g, &ctx, &t, cur, stood.buf)) != 0)
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
	if (stood.len)
		ord_buf_addf(out, "  (the referee's witness chain stood in for %s)\n", stood.buf);
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
	ord_buf_release(&stood);
	return err;
}

int ord_game_resolve(ord_game *g, const char *phase, const int *dice, size_t ndice, struct ord_buf *out)
{
	return ord_game_resolve_opts(g, phase, dice, ndice, 0, out);
}

/* ---- exchange ---- */

int ord_game_exchange(ord_game *g)
{
	struct ord_buf body = ORD_BUF_INIT;
	struct ord_store_turn t;
	struct ord_head head;
	int64_t seq;
	int err, logged;

	if ((err = ord_game_may_change(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0)
		goto out;
	if (g->refereeless && t.state != ORD_TURN_OPEN) {
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
	if (t.state != ORD_TURN_RESOLVED) {
		if (t.state == ORD_TURN_OPEN)
			err = ord_error_set(ORD_ESTATE,
					    "turn %d is still open: seal it and resolve its phases first",
					    t.turn);
		else
			err = ord_error_set(ORD_ESTATE, "turn %d has phases left to resolve (next: %s)",
					    t.turn, g->rs->phases[t.phase]);
		goto out;
	}
	/* every phase must be in the log, whatever the turn row says */
	if ((err = ord_store_log_count(g->db, t.turn, "resolve", &logged)) != 0)
		goto out;
	if ((size_t)logged != ord_game_nphases(g)) {
		err = ord_error_set(ORD_ETAMPERED,
				    "turn %d: its log shows %d of the %zu phases resolved, though the game file says every one is: it was changed outside orderly ('orderly audit' says where)",
				    t.turn, logged, ord_game_nphases(g));
		goto out;
	}
	/* revealing the seed lets everyone recompute the dice */
	ord_canon_exchange(&body, t.turn, t.seed, t.have_referee_witness ? t.referee_witness : NULL);
	if ((err = ord_game_log(g, &seq, t.turn, "exchange", body.buf)) != 0 ||
	    (err = ord_store_turn_set_state(g->db, t.turn, ORD_TURN_EXCHANGED, t.phase,
					    t.have_dice_key ? t.dice_key : NULL)) != 0 ||
	    (err = ord_game_open_turn(g, t.turn + 1)) != 0)
		goto out;
	/* the head signs the next turn's opening too: its seed is fixed and
	 * handed to the players before any sheet of it is written */
	if ((err = ord_game_sign_head(g, t.turn, "exchange", &head)) != 0)
		goto out;
	{
		struct ord_change c = { .kind = ORD_CHANGE_EXCHANGE, .turn = t.turn, .head = &head };
		if ((err = ord_game_notify(g, &c)) != 0)
			goto out;
	}
	err = ord_store_commit(g->db);
out:
	if (err)
		ord_store_rollback(g->db);
	ord_buf_release(&body);
	return err;
}
