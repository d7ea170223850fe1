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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "core/game.h"
#include "core/lookalike.h"
#include "core/phase.h"

#define MAX_SHEET_BYTES (16u << 20)

/* Blank: white space only, Unicode's too (a no-break space, the BOM a
 * word processor writes first): a sheet of them says nothing, as an empty
 * one, and is refused as a slip (an empty file, a mail whose text was lost);
 * a sheet of comments only is a side's word that it orders nothing, the
 * way to say so that the refusal names (docs/orderly.1, submit). */
int ord_game_blank(const char *bytes, size_t len)
{
	const unsigned char *p = (const unsigned char *)bytes, *end = p + len;

	while (p < end) {
		uint32_t c = 0;
		size_t k = ord_utf8_decode(p, end, &c);
		if (!k)
			return 0;
		if (c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != 0xA0 && c != 0x1680 &&
		    !(c >= 0x2000 && c <= 0x200B) && c != 0x2028 && c != 0x2029 && c != 0x202F &&
		    c != 0x205F && c != 0x3000 && c != 0xFEFF)
			return 0;
		p += k;
	}
	return 1;
}

/* The turn the words at p (before end) name: "turn 3", "træk 3" or
 * "traek 3" in any case, the word starting a word, or 0; *len the words'
 * length. */
static int turn_named(const char *line, const char *p, const char *end, size_t *len)
{
	static const char *const words[] = { "turn", "tr\xc3\xa6k", "traek", "tr\xc3\x86k" };
	size_t k, n;
	int turn = 0;

	if (p > line && ((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z') ||
			 (unsigned char)p[-1] >= 0x80))
		return 0;
	for (k = 0; k < ORD_ARRAY_SIZE(words); k++) {
		const char *q;
		n = strlen(words[k]);
		if ((size_t)(end - p) <= n || strncasecmp(p, words[k], n))
			continue;
		q = p + n;
		if (*q != ' ' && *q != '\t')
			return 0;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q == end || *q < '0' || *q > '9')
			return 0;
		while (q < end && *q >= '0' && *q <= '9' && turn < 100000)
			turn = turn * 10 + (*q++ - '0');
		if (q < end && ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')))
			return 0; /* "turn 3rd" or the like: not a number alone */
		*len = (size_t)(q - p);
		return turn;
	}
	return 0;
}

/*
 * A sheet whose heading (its comment lines before the first order) names
 * another turn than the game's, "# French, turn 1" handed in at turn 2:
 * last turn's sheet sent again, which the rules may well accept.  A
 * warning at the word, never a refusal: a comment is the player's own.
 * Only the heading is read, since an order's comment may well name an
 * earlier turn ("charged in turn 1").
 */
size_t ord_sheet_warnings(struct ord_diag *w, const char *bytes, size_t len, int turn)
{
	const char *p = bytes, *end = bytes + len;
	unsigned lineno = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *start = p, *le = nl ? nl : end, *q = p, *c;
		size_t wl = 0;
		int named;

		lineno++;
		p = nl ? nl + 1 : end;
		if (lineno == 1 && ord_utf8_bom_at(q, (size_t)(le - q)))
			start = q += ord_utf8_bom_at(q, (size_t)(le - q));
		while (q < le && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (q == le)
			continue;
		if (*q != '#')
			return 0; /* the first order: the heading is over */
		for (c = q + 1; c < le; c++) {
			if (!(named = turn_named(q, c, le, &wl)))
				continue;
			if (named == turn)
				return 0;
			/* the column in characters, as every message gives it */
			ord_diag_add(w, lineno,
				     ord_utf8_count((const unsigned char *)start,
						    (const unsigned char *)c) +
					     1,
				     NULL, NULL,
				     "the sheet's heading says '%.*s', but the game is at turn %d: "
				     "is it the sheet of another turn?",
				     (int)wl, c, turn);
			return 1;
		}
	}
	return 0;
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
int ord_game_store_sheet(struct ord_game *g, struct ord_receipt *rc, const struct ord_store_turn *t,
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

/* Orderly's reading of a sheet, in sheet order: every order that parsed as
 * the notation prints it, and for a line that did not (one with a syntax
 * error among items from..to of d, sorted by line) a '#' comment saying
 * so, so that the player sees which of his lines were not read at all and
 * the reading stays a sheet.  An order the rules refused (a problem on its
 * line) is shown as a comment too, "# line N not accepted (see its
 * problems): ORDER": it was read, but it is not an order of the sheet as
 * it stands (it showed as if accepted).  A line whose errors were only
 * counted (past ORD_DIAG_MAX_LISTED) is not marked. */
/* Mark the reading's line that starts at at (ord_reading_mark). */
static void add_mark(struct ord_reading_marks *m, size_t at, unsigned line, int refused,
		     size_t order, size_t words)
{
	struct ord_reading_mark *k;

	if (!m)
		return;
	if (m->n == m->alloc) {
		m->alloc = m->alloc ? 2 * m->alloc : 8;
		m->items = ord_xrealloc(m->items, m->alloc * sizeof(*m->items));
	}
	k = &m->items[m->n++];
	k->at = at;
	k->line = line;
	k->refused = refused;
	k->order = order;
	k->words = words;
}

void ord_reading_marks_release(struct ord_reading_marks *m)
{
	free(m->items);
	memset(m, 0, sizeof(*m));
}

static void add_reading(struct ord_game *g, const struct ord_sheet *sheet, const struct ord_diag *d,
			size_t from, size_t to, struct ord_buf *out, struct ord_reading_marks *marks)
{
	struct ord_buf one = ORD_BUF_INIT;
	size_t i = 0, k = from;
	unsigned last = 0;

	while (i < sheet->n || k < to) {
		unsigned line;
		int refused = 0;
		if (k < to && (i == sheet->n || d->items[k].line < sheet->orders[i].line)) {
			line = d->items[k++].line;
			if (line && line != last) {
				size_t at = out->len, words;
				ord_buf_addf(out, "# line %u ", line);
				words = out->len;
				ord_buf_adds(out, "not understood (see its problems)\n");
				add_mark(marks, at, line, 0, 0, words);
			}
			last = line;
			continue;
		}
		line = sheet->orders[i].line;
		for (; k < to && line && d->items[k].line == line; k++)
			refused = 1;
		if (refused) {
			size_t at = out->len, words;
			ord_buf_addf(out, "# line %u ", line);
			words = out->len;
			ord_buf_adds(out, "not accepted (see its problems): ");
			add_mark(marks, at, line, 1, out->len, words);
		}
		/* as every report shows an order (attack 43): what the front
		 * door refuses in one, escaped, were it a sheet stored before */
		ord_buf_reset(&one);
		g->notation->format(&sheet->orders[i++], &one);
		ord_buf_add_name_line(out, one.buf ? one.buf : "");
		ord_buf_addch(out, '\n');
	}
	ord_buf_release(&one);
}

/*
 * A sheet in another ruleset's notation (a Krigsspil sheet sent to a
 * battalion game, or the other way): the game's notation refuses it a
 * word at a time ("unknown code 'M'", "direction '↑' before any order
 * symbol"), and no unit of it is looked up (a line with a syntax error
 * gives no order), so nothing said that the whole sheet is of the other
 * rules.  When every line of it reads in the notation of another ruleset
 * orderly knows, and some do not in the game's, that is said first of
 * the problems from index from on (the game notation's, in diag), at the
 * first of them that has a line: which notation the sheet is in and which
 * this game expects.  Past the cap it takes the last listed one's place.
 * 1 when said.
 */
static int other_notation(struct ord_game *g, const char *bytes, size_t len, struct ord_diag *diag,
			  size_t from)
{
	const struct ord_ruleset *rs;
	struct ord_diag_item it;
	unsigned line = 0, col = 0;
	size_t i;

	for (i = from; i < diag->n && !line; i++) {
		line = diag->items[i].line;
		col = diag->items[i].col;
	}
	if (!line)
		return 0;
	for (i = 0; (rs = ord_ruleset_at(i)) != NULL; i++) {
		const struct ord_notation *nt;
		struct ord_sheet sheet;
		struct ord_diag d;
		int reads;

		if (!rs->notation || !strcmp(rs->notation, g->notation->name) ||
		    ord_notation_find(&nt, rs->notation) != 0)
			continue;
		ord_sheet_init(&sheet);
		ord_diag_init(&d);
		reads = nt->parse(&sheet, bytes, len, &d) == 0 && !ord_diag_count(&d) && sheet.n;
		ord_sheet_release(&sheet);
		ord_diag_release(&d);
		if (!reads)
			continue;
		if (ord_diag_full(diag)) {
			ord_diag_truncate(diag, diag->n - 1);
			ord_diag_add_unlisted(diag);
		}
		ord_diag_add(diag, line, col, NULL, NULL,
			     "the sheet is in the %s notation of ruleset %s (every line of it reads so), but the game's ruleset is %s: expected its %s notation (the problems below say what each word should be); was the sheet meant for another game?",
			     nt->name, rs->name, g->rs->name, g->notation->name);
		/* first: the problems after it follow from it */
		it = diag->items[diag->n - 1];
		memmove(&diag->items[from + 1], &diag->items[from],
			(diag->n - 1 - from) * sizeof(*diag->items));
		diag->items[from] = it;
		return 1;
	}
	ord_error_clear(); /* a notation not found: nothing to say */
	return 0;
}

/* The ruleset's check of a parsed sheet of side in ctx, which holds the
 * side's units and the units the sheet names (a partial context, or one of
 * every unit): the problems from index first on (before counted) sorted,
 * the notation of another ruleset said (other: the parse refused lines),
 * and the reading (NULL: none); shown: the front door's check of what
 * its orders show too (ord_sheet_words_hidden). */
static int check_in(struct ord_game *g, struct ord_ctx *ctx, const char *side,
		    const struct ord_sheet *sheet, int other, const char *bytes, size_t len,
		    struct ord_diag *diag, size_t first, size_t before, struct ord_buf *reading,
		    struct ord_reading_marks *marks, int shown)
{
	int err;

	ctx->side = side;
	if (g->rs->validate_sheet && (err = g->rs->validate_sheet(ctx, sheet, diag)) != 0 &&
	    err != ORD_EBADSHEET)
		return err;
	if (shown)
		ord_sheet_words_hidden(sheet, diag);
	if ((err = ord_state_check(ctx)) != 0) /* a key the module did not declare */
		return err;
	err = ord_diag_count(diag) > before ? ORD_EBADSHEET : 0;
	ord_diag_sort(diag, first);
	if (other)
		other_notation(g, bytes, len, diag, first);
	if (reading)
		add_reading(g, sheet, diag, first, diag->n, reading, marks);
	return err;
}

/* Parse a sheet and have the ruleset validate it for side; reading (may be
 * NULL) gets orderly's reading of it (add_reading).  The lines that parsed
 * are validated even when others did not (notation.h), so the player
 * learns every problem of his sheet in one round, in sheet order. */
static int check_bytes(struct ord_game *g, int turn, const char *side, const char *bytes,
		       size_t len, struct ord_diag *diag, struct ord_buf *reading,
		       struct ord_reading_marks *marks, int shown)
{
	struct ord_sheet sheet;
	struct ord_ctx ctx;
	size_t first = diag->n, before = ord_diag_count(diag);
	int err, loaded = 0, other;

	ord_sheet_init(&sheet);
	err = ord_game_parse_sheet(g, &sheet, bytes, len, diag);
	if (err && err != ORD_EBADSHEET)
		goto out;
	other = err == ORD_EBADSHEET;
	/* the side's units, and the others only as the sheet or the rules name
	 * them: a sheet costs its side, not the whole game; in one read
	 * transaction, so the units looked up one by one share its snapshot
	 * and its locks (each would take and drop them by itself) */
	if ((err = ord_store_begin_read(g->db)) != 0)
		goto out;
	loaded = 1;
	if ((err = ord_game_load_side_ctx(g, &ctx, turn, side, &sheet)) != 0)
		goto out;
	err = check_in(g, &ctx, side, &sheet, other, bytes, len, diag, first, before, reading,
		       marks, shown);
out:
	if (loaded) {
		ord_ctx_release(&ctx);
		ord_store_end_read(g->db);
	}
	ord_sheet_release(&sheet);
	return err;
}

int ord_game_check_bytes(struct ord_game *g, int turn, const char *side, const char *bytes,
			 size_t len, struct ord_diag *diag, struct ord_buf *reading,
			 struct ord_reading_marks *marks)
{
	return check_bytes(g, turn, side, bytes, len, diag, reading, marks, 0);
}

int ord_game_check_bytes_in(struct ord_game *g, struct ord_ctx *ctx, const char *side,
			    const char *bytes, size_t len, struct ord_diag *diag)
{
	struct ord_sheet sheet;
	size_t first = diag->n, before = ord_diag_count(diag);
	int err;

	ord_sheet_init(&sheet);
	err = ord_game_parse_sheet(g, &sheet, bytes, len, diag);
	if (!err || err == ORD_EBADSHEET)
		err = check_in(g, ctx, side, &sheet, err == ORD_EBADSHEET, bytes, len, diag, first,
			       before, NULL, NULL, 0);
	ctx->side = NULL;
	ord_sheet_release(&sheet);
	return err;
}

/* Is the turn open to sheets?  The time checked against its deadline is
 * the time the sheet's log entry will state (g->log_at, until the caller
 * clears it), so a sheet taken in the deadline's last second is not logged
 * a second after it: the verifier holds every sheet's entry to the
 * deadline logged before it (verify.c, check_sheet_times).
 *
 * received (0: none) is when the sheet reached the game's door (the mail
 * judge's MTA, ord_submit_opts): a mail the MTA kept queued (the game
 * locked, a retry) is judged by it, not by when it was read.  The time
 * is the last entry's when that is later: the log's times never run back
 * (verify.c, check_times), and a deadline set or turn opened after the
 * sheet came is not undone by it; never after now. */
static int turn_open_check(struct ord_game *g, const struct ord_store_turn *t, int64_t received)
{
	int64_t now = (int64_t)time(NULL), seq, last = 0;
	unsigned char h[32];
	int err;

	if (received > 0 && received < now && t->state == ORD_TURN_OPEN) {
		if ((err = ord_store_log_head(g->db, &seq, h)) != 0 ||
		    (seq > 0 && (err = ord_store_log_entry(g->db, seq, h, &last)) != 0))
			return err;
		now = received > last ? received : last < now ? last : now;
	}

	if (t->state != ORD_TURN_OPEN)
		return ord_error_set(ORD_ESEALED,
				     "turn %d is sealed: sheets can no longer be submitted or changed",
				     t->turn);
	if (t->deadline && now > t->deadline)
		return ord_error_set(ORD_ESTATE,
				     "the deadline of turn %d has passed: no more sheets (the referee seals the turn)",
				     t->turn);
	/* a sheet is bound to the seed commitment its opening logs: the
	 * row's, changed outside orderly, would bind it to another (one log
	 * entry read, game_live.c) */
	{
		unsigned char c[32];
		if ((err = ord_game_live_seed(g, t, c)) != 0)
			return err;
	}
	g->log_at = now;
	return 0;
}

int ord_game_find_side(struct ord_game *g, const char *side, const struct ord_store_side **out)
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

/*
 * Validate a sheet's bytes for side; ORD_EBADSHEET with diag.  A refused
 * sheet changes nothing in the game file: not even a note of the attempt
 * (the player has the message; the mail judge keeps the mail).
 */
static int validate_bytes(struct ord_game *g, int turn, const char *side, const char *bytes,
			  size_t len, struct ord_diag *diag, struct ord_buf *reading,
			  struct ord_reading_marks *marks)
{
	int err;
	size_t n;

	if (len > MAX_SHEET_BYTES)
		return ord_error_set(ORD_EBADSHEET, "sheet of %zu bytes is larger than %u bytes",
				     len, MAX_SHEET_BYTES);
	if (ord_game_blank(bytes, len)) {
		ord_diag_add(diag, 1, 1, NULL, NULL,
			     "the sheet is empty (expected one order per line: a unit, then its codes; a side that orders nothing submits a comment, such as '# no orders')");
		err = ORD_EBADSHEET;
	} else {
		err = check_bytes(g, turn, side, bytes, len, diag, reading, marks, 1);
	}
	if (err != ORD_EBADSHEET)
		return err;
	n = ord_diag_count(diag);
	return ord_error_set(ORD_EBADSHEET, "sheet rejected: %zu problem%s", n, n == 1 ? "" : "s");
}

int ord_game_check_sheet(ord_game *g, const char *side, const char *bytes, size_t len,
			 struct ord_diag *diag, struct ord_buf *reading)
{
	return ord_game_check_sheet_marked(g, side, bytes, len, diag, reading, NULL);
}

int ord_game_check_sheet_marked(ord_game *g, const char *side, const char *bytes, size_t len,
				struct ord_diag *diag, struct ord_buf *reading,
				struct ord_reading_marks *marks)
{
	const struct ord_store_side *s;
	struct ord_store_turn t;
	int err;

	if ((err = ord_game_find_side(g, side, &s)) != 0 || (err = ord_game_turn(g, &t, 0)) != 0 ||
	    (err = turn_open_check(g, &t, 0)) != 0)
		return err;
	g->log_at = 0;
	return validate_bytes(g, t.turn, s->name, bytes, len, diag, reading, reading ? marks : NULL);
}

/* Tell the hook a side's sheet or commitment was stored. */
static int notify_sheet(struct ord_game *g, enum ord_change_kind kind, const struct ord_receipt *rc)
{
	struct ord_change c = { .kind = kind, .turn = rc->turn, .side = rc->side, .receipt = rc };

	return ord_game_notify(g, &c);
}

/*
 * A nonce the player gives is used once: a signed sheet sent again (a mail
 * replayed by whoever saw it, after the player sent another version) would
 * otherwise be stored as a new version and sealed in place of his last.
 * Signing anew gives a new nonce, so a player who wants an old sheet back
 * signs it again.  Nothing is logged: the game file is unchanged.
 */
static int nonce_fresh(struct ord_game *g, int turn, const struct ord_store_side *s,
		       const unsigned char *nonce)
{
	int version, err;

	if ((err = ord_store_sheet_nonce_used(g->db, turn, s->id, nonce, &version)) != 0)
		return err;
	if (version)
		return ord_error_set(ORD_ESTATE,
				     "this sheet, with its nonce, is version %d of side %s's sheet of turn %d, stored already: "
				     "a signed sheet is stored once (a mail or submit sent again?); to send it again, sign it anew",
				     version, s->name, turn);
	return 0;
}

int ord_game_nonce_stored(ord_game *g, const char *side, const unsigned char nonce[32], int *version)
{
	const struct ord_store_side *s;
	struct ord_store_turn t;
	int err;

	*version = 0;
	if ((err = ord_game_find_side(g, side, &s)) != 0 || (err = ord_game_turn(g, &t, 0)) != 0)
		return err;
	return ord_store_sheet_nonce_used(g->db, t.turn, s->id, nonce, version);
}

int64_t ord_game_sheet_budget(const ord_game *g)
{
	return ORD_TURN_SHEET_BYTES / (int64_t)(g->nsides ? g->nsides : 1);
}

/* "64 MiB", or "44.7 MiB" */
static void mib(char *out, size_t n, int64_t bytes)
{
	if (bytes % (1 << 20))
		snprintf(out, n, "%.1f MiB", (double)bytes / (1 << 20));
	else
		snprintf(out, n, "%lld MiB", (long long)(bytes >> 20));
}

/*
 * The caps on what a side hands in a turn (orderly.h): its versions
 * (sheets and commitments share their numbering) and, for a sheet of len
 * bytes (len 0: a commitment), the bytes of its sheets.  ORD_ELIMIT, the
 * game unchanged, when one more would pass one: a player who floods the
 * turn with versions would make its bundle too large to verify.
 */
static int under_caps(struct ord_game *g, int turn, const struct ord_store_side *s, size_t len)
{
	char budget_s[32], turn_s[32];
	int64_t had, budget = ord_game_sheet_budget(g);
	int version, err;

	if ((err = next_version(g, turn, s, &version)) != 0)
		return err;
	if (version > ORD_SHEET_VERSIONS)
		return ord_error_set(ORD_ELIMIT,
				     "side %s has submitted %d versions of its sheet for turn %d, the most a turn takes: "
				     "this one is not stored, and version %d stands (every version goes into the turn's bundle)",
				     s->name, version - 1, turn, version - 1);
	if (!len)
		return 0;
	if ((err = ord_store_sheet_bytes(g->db, turn, s->id, &had)) != 0)
		return err;
	if ((int64_t)len > budget - had) {
		mib(budget_s, sizeof(budget_s), budget);
		mib(turn_s, sizeof(turn_s), ORD_TURN_SHEET_BYTES);
		if (version == 1)
			return ord_error_set(ORD_ELIMIT,
					     "side %s's sheet of %zu bytes for turn %d is larger than the %s of sheets a side "
					     "may submit in a turn (%s shared by the game's %zu sides): it is not stored",
					     s->name, len, turn, budget_s, turn_s, g->nsides);
		return ord_error_set(ORD_ELIMIT,
				     "side %s has submitted %lld bytes of sheets for turn %d in %d version%s; this one's %zu bytes "
				     "would pass the %s a side may submit in a turn (%s shared by the game's %zu sides): "
				     "it is not stored, and version %d stands (every version goes into the turn's bundle)",
				     s->name, (long long)had, turn, version - 1,
				     version == 2 ? "" : "s", len, budget_s, turn_s, g->nsides,
				     version - 1);
	}
	return 0;
}

/* A sheet written against version based_on of side's sheet (opts'
 * based_on) is stored only while that version is the latest. */
static int still_based_on(struct ord_game *g, int turn, const struct ord_store_side *s,
			  const int *based_on)
{
	int version, err;

	if (!based_on)
		return 0;
	if ((err = next_version(g, turn, s, &version)) != 0)
		return err;
	if (version - 1 == *based_on)
		return 0;
	return ord_error_set(ORD_ESTATE,
			     "side %s's sheet for turn %d is at version %d, not at version %d this one was written "
			     "against: another version came in meanwhile; this one is not stored",
			     s->name, turn, version - 1, *based_on);
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
	/* the stored scenario is not read (ord_game_may_change_small): a
	 * sheet is checked against its side's units and those it names, and
	 * its entry states nothing of the scenario; hashing it made a submit
	 * O(the game), a ninth of it at 10,000 units */
	if ((err = ord_game_may_change_small(g)) != 0 || (err = ord_game_find_side(g, side, &s)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = turn_open_check(g, &t, o->received)) != 0)
		return err;
	g->log_at = 0; /* checked again, and logged, in the transaction */
	if (o->signature && !o->nonce)
		return ord_error_set(ORD_EUSAGE,
				     "a signature needs the nonce it was made with (--nonce)");
	if (g->witnessed && !o->witness) {
		ord_error_set(ORD_EBADDATA,
			      "the dice of '%s' are witnessed: a sheet needs the top of its side's witness chain for turn %d "
			      "(--witness HEX from 'orderly sign --witness', or --witness-key FILE)",
			      g->path, t.turn);
		return ORD_EBADDATA;
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
		return ORD_EBADDATA;
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
			return ORD_EBADDATA;
		}
	}
	if (o->nonce && (err = nonce_fresh(g, t.turn, s, o->nonce)) != 0)
		return err;
	/* the caps before the sheet is read (a flood costs no validation),
	 * and again in the transaction that stores it */
	if ((err = under_caps(g, t.turn, s, len)) != 0 ||
	    (err = still_based_on(g, t.turn, s, o->based_on)) != 0)
		return err;
	if ((err = validate_bytes(g, t.turn, side, bytes, len, diag, NULL, NULL)) != 0)
		return err;
	if (o->warnings)
		ord_sheet_warnings(o->warnings, bytes, len, t.turn);
	if ((err = ord_store_begin_receipt(g->db)) != 0)
		return err;
	/* the turn may have been sealed while we validated */
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = turn_open_check(g, &t, o->received)) != 0 ||
	    (o->nonce && (err = nonce_fresh(g, t.turn, s, o->nonce)) != 0) ||
	    (err = under_caps(g, t.turn, s, len)) != 0 ||
	    (err = still_based_on(g, t.turn, s, o->based_on)) != 0 ||
	    (err = ord_game_store_sheet(g, &rc, &t, s, "submitted", bytes, len, o->nonce,
					o->signature, o->witness, 0)) != 0 ||
	    (err = notify_sheet(g, ORD_CHANGE_SUBMIT, &rc)) != 0 ||
	    (err = ord_store_commit(g->db)) != 0) {
		g->log_at = 0;
		ord_store_rollback(g->db);
		return err;
	}
	g->log_at = 0;
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
	struct ord_submit_opts o = { .nonce = nonce, .signature = signature };

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
	if ((err = ord_game_may_change_small(g)) != 0) /* as a submit */
		return err;
	if (!g->refereeless)
		return ord_error_set(ORD_ESTATE,
				     "'%s' has a referee: submit the sheet itself (a commitment alone is for referee-less games, 'new --no-referee')",
				     g->path);
	if ((err = ord_game_find_side(g, side, &s)) != 0)
		return err;
	if (!signature)
		return ord_error_set(ORD_EBADDATA,
				     "an unsigned commitment is refused: side '%s' must sign it ('orderly sign', then --signature)",
				     side);
	if ((err = ord_store_begin_receipt(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, &t, 0)) != 0 || (err = turn_open_check(g, &t, 0)) != 0)
		goto out;
	if (!s->has_key ||
	    ord_sheet_sig_check(s->pubkey, signature, g->game_id, t.turn, s->name, commitment)) {
		err = ord_error_set(ORD_EBADDATA,
				    "the signature is not side %s's over this commitment for turn %d "
				    "(signed by another key, or for another game, turn or side)",
				    side, t.turn);
		goto out;
	}
	if ((err = under_caps(g, t.turn, s, 0)) != 0 ||
	    (err = next_version(g, t.turn, s, &version)) != 0)
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
	g->log_at = 0;
	if (err)
		ord_store_rollback(g->db);
	ord_buf_release(&body);
	return err;
}

/* Sides (", "-joined into out) whose latest version this turn is not
 * committed (want_opened 0) or not opened (want_opened 1). */
int ord_game_sides_lacking(struct ord_game *g, int turn, int want_opened, struct ord_buf *out,
			   size_t *n)
{
	return ord_game_sides_lacking_sep(g, turn, want_opened, ", ", out, n);
}

int ord_game_sides_lacking_sep(struct ord_game *g, int turn, int want_opened, const char *last_sep,
			       struct ord_buf *out, size_t *n)
{
	unsigned char *lack = ord_xcalloc(g->nsides + 1, 1);
	size_t i, k = 0;
	int err = 0;

	*n = 0;
	for (i = 0; i < g->nsides; i++) {
		unsigned char c[32];
		int version, opened;
		if ((err = ord_store_latest(g->db, turn, g->sides[i].id, &version, c, &opened)) != 0)
			goto out;
		if (!version || (want_opened && !opened))
			lack[i] = 1, (*n)++;
	}
	for (i = 0; i < g->nsides; i++)
		if (lack[i]) {
			k++;
			ord_buf_addf(out, "%s%s",
				     k == 1    ? ""
				     : k == *n ? last_sep
					       : ", ",
				     g->sides[i].name);
		}
out:
	free(lack);
	return err;
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
	return ord_game_open_sheet_witnessed(g, out, side, bytes, len, nonce, NULL, diag);
}

/* With witnessed dice the commitment a side signed binds its chain's top
 * (orderly sign --witness), which the opening gives: the host learns it
 * only after the seal, and each phase's link only once its events are
 * closed, so the dice are no longer his to know before he records them. */
int ord_game_open_sheet_witnessed(ord_game *g, struct ord_receipt *out, const char *side,
				  const char *bytes, size_t len, const unsigned char nonce[32],
				  const unsigned char *witness, struct ord_diag *diag)
{
	const struct ord_store_side *s;
	struct ord_receipt rc;
	struct ord_buf waiting = ORD_BUF_INIT;
	struct ord_sheet_binding b;
	unsigned char sealed[32], c[32], sig[64];
	struct ord_store_turn t;
	size_t nwaiting;
	int version, opened, err, began = 0;

	if ((err = ord_game_may_change_small(g)) != 0) /* as a submit */
		return err;
	if (!g->refereeless)
		return ord_error_set(ORD_ESTATE,
				     "'%s' has a referee: there are no commitments to open (submit the sheet itself)",
				     g->path);
	if ((err = ord_game_find_side(g, side, &s)) != 0)
		return err;
	if (g->witnessed && !witness)
		return ord_error_set(ORD_EBADDATA,
				     "the dice of '%s' are witnessed: the opening of %s's sheet needs the top of its witness chain, which its commitment binds (--witness HEX, as 'orderly sign --witness' printed it)",
				     g->path, side);
	if (!g->witnessed && witness)
		return ord_error_set(ORD_EUSAGE,
				     "the dice of '%s' are not witnessed: open the sheet without a witness chain",
				     g->path);
	if ((err = ord_game_turn(g, &t, 0)) != 0)
		return err;
	if ((int64_t)len > ord_game_sheet_budget(g)) {
		/* the sheet opened goes into the bundle as a submitted one does
		 * (under_caps; a second red team's find) */
		char budget_s[32], turn_s[32];
		mib(budget_s, sizeof(budget_s), ord_game_sheet_budget(g));
		mib(turn_s, sizeof(turn_s), ORD_TURN_SHEET_BYTES);
		return ord_error_set(ORD_ELIMIT,
				     "side %s's sheet of %zu bytes for turn %d is larger than the %s of sheets a side "
				     "may submit in a turn (%s shared by the game's %zu sides): it is not opened",
				     s->name, len, t.turn, budget_s, turn_s, g->nsides);
	}
	if (t.state == ORD_TURN_OPEN) {
		if ((err = ord_game_sides_lacking(g, t.turn, 0, &waiting, &nwaiting)) != 0)
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
	binding(g, &b, &t, s->name, witness);
	ord_commit_sheet(c, &b, nonce, bytes, len);
	if (memcmp(c, sealed, 32)) {
		ord_error_set(ORD_EBADDATA,
			      "this sheet and nonce%s do not give the commitment %s sealed for turn %d (version %d): "
			      "a wrong nonce%s, or a sheet changed since it was signed",
			      witness ? " and witness top" : "", side, t.turn, version,
			      witness ? " or top" : "");
		err = ORD_EBADDATA;
		goto out;
	}
	/* checked against the units the turn's opening digests, not rows
	 * changed for it (game_live.c; the first phase checks it again) */
	if ((err = ord_game_live_units_rooted(g, t.turn)) != 0 ||
	    (err = validate_bytes(g, t.turn, side, bytes, len, diag, NULL, NULL)) != 0)
		goto out;
	if ((err = ord_store_begin_receipt(g->db)) != 0)
		goto out;
	began = 1;
	if ((err = ord_store_commit_signature(g->db, t.turn, s->id, version, sig)) != 0)
		goto out;
	if ((err = ord_game_store_sheet(g, &rc, &t, s, "submitted", bytes, len, nonce, sig, witness,
					version)) != 0 ||
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

/* The sides of the units a sheet names: "a, b" in sides, "a b" in words
 * (ord_words_has). */
struct sheet_sides {
	struct ord_buf sides, words;
	int n;
};

static int unit_side(void *ud, const struct ord_store_unit *u)
{
	struct sheet_sides *ss = ud;

	if (ss->words.buf && ord_words_has(ss->words.buf, u->side))
		return 0; /* listed */
	ord_buf_addf(&ss->sides, "%s%s", ss->n ? ", " : "", u->side);
	ord_buf_addf(&ss->words, "%s%s", ss->n++ ? " " : "", u->side);
	return 0;
}

/* a unit of the game, for side_of_keyed */
static int keep_unit(void *ud, const char *id, const char *name, const char *side)
{
	ord_ctx_add_unit(ud, id, name, side, "", "");
	return 0;
}

/* The sides of the units the sheet names as the game's notation reads
 * its words, where no name is a unit's as written: a game made since
 * 2026-12-07 finds "Soendre Jaegerkorps" so (ord_ctx_set_made); a game
 * made before, none. */
static int side_of_keyed(struct ord_game *g, const struct ord_sheet *sheet, struct sheet_sides *ss)
{
	struct ord_store_unit su;
	struct ord_ctx c;
	size_t i;
	int err = 0;

	ord_ctx_init(&c, g->rs, g->rules, 0);
	ord_ctx_set_made(&c, g->made, ord_game_made_core(g));
	if (c.names_key && (err = ord_game_units(g, keep_unit, &c)) == 0) {
		ord_ctx_index(&c);
		for (i = 0; i < sheet->n; i++) {
			const struct ord_unit *u = ord_ctx_find_unit(&c, sheet->orders[i].unit);
			if (!u)
				continue;
			memset(&su, 0, sizeof(su));
			su.side = u->side;
			unit_side(ss, &su);
		}
	}
	ord_ctx_release(&c);
	return err;
}

/* The one side whose units the sheet names, in ss->sides: its units
 * looked up by id or name as submit looks them up (ord_store_units_find,
 * then side_of_keyed). */
static int side_of_sheet(struct ord_game *g, const char *bytes, size_t len, struct sheet_sides *ss)
{
	struct ord_sheet sheet;
	struct ord_diag d;
	struct ord_buf *composed;
	const char **names;
	size_t i, nn = 0;
	int err;

	ord_sheet_init(&sheet);
	ord_diag_init(&d);
	ord_game_parse_sheet(g, &sheet, bytes, len, &d);
	ord_error_clear();
	/* each name as written and, when it differs, composed, as the game's
	 * context matches them (a sheet pasted from a PDF writes é as e and
	 * U+0301; the scenario nearly always composed) */
	names = ord_xmalloc((sheet.n ? 2 * sheet.n : 1) * sizeof(*names));
	composed = ord_xmalloc((sheet.n ? sheet.n : 1) * sizeof(*composed));
	for (i = 0; i < sheet.n; i++) {
		ord_buf_init(&composed[i]);
		names[nn++] = sheet.orders[i].unit;
		if (ord_ctx_compose_name(&composed[i], sheet.orders[i].unit))
			names[nn++] = composed[i].buf;
	}
	err = ord_store_units_find(g->db, names, nn, unit_side, ss);
	if (!err && !ss->n && sheet.n)
		err = side_of_keyed(g, &sheet, ss);
	for (i = 0; i < sheet.n; i++)
		ord_buf_release(&composed[i]);
	free(composed);
	if (!err && ss->n != 1)
		err = ord_error_set(ORD_EUSAGE,
				    ss->n ? "the sheet names units of the sides %s: give --side SIDE"
					  : "the sheet names no unit of the scenario%s: give --side SIDE",
				    ss->sides.buf ? ss->sides.buf : "");
	free(names);
	ord_sheet_release(&sheet);
	ord_diag_release(&d);
	return err;
}

int ord_check_sheet_scenario(const char *scenario_path, const char *tables_path, const char *side,
			     const char *bytes, size_t len, struct ord_diag *diag,
			     struct ord_buf *reading)
{
	struct ord_create_opts co;
	struct ord_buf dir = ORD_BUF_INIT, path = ORD_BUF_INIT, f = ORD_BUF_INIT;
	const char *tmp = getenv("TMPDIR");
	static const char *const ext[] = { "", "-wal", "-shm", "-journal" };
	ord_game *g = NULL;
	size_t i;
	int err;

	ord_buf_addf(&dir, "%s/orderly-check.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir.buf)) {
		err = ord_error_set(ORD_ERROR, "cannot make a temporary directory in %s: %s",
				    tmp && *tmp ? tmp : "/tmp", strerror(errno));
		goto out;
	}
	ord_buf_addf(&path, "%s/check.orderly", dir.buf);
	memset(&co, 0, sizeof(co));
	co.tables_path = tables_path;
	co.fixed_dice = 1; /* nothing is rolled: no seed needs keeping */
	if ((err = ord_game_create(&g, path.buf, scenario_path, &co)) == 0) {
		struct sheet_sides ss;
		memset(&ss, 0, sizeof(ss));
		ord_buf_init(&ss.sides);
		ord_buf_init(&ss.words);
		if (!side && (err = side_of_sheet(g, bytes, len, &ss)) == 0) {
			side = ss.sides.buf;
			if (reading)
				ord_buf_addf(reading, "side: %s (the side of the units it names)\n",
					     side);
		} else if (!side && !ss.n && err == ORD_EUSAGE) {
			/* no unit found: perhaps none could be, the sheet being
			 * of the other rules (other_notation); then its problems
			 * say so, not "give --side" */
			size_t first = diag->n, more = diag->more, n;
			char *why = ord_strdup(ord_error_last());
			struct ord_sheet sheet;
			ord_sheet_init(&sheet);
			if (ord_game_parse_sheet(g, &sheet, bytes, len, diag) == ORD_EBADSHEET &&
			    other_notation(g, bytes, len, diag, first)) {
				n = ord_diag_count(diag);
				err = ord_error_set(ORD_EBADSHEET, "sheet rejected: %zu problem%s",
						    n, n == 1 ? "" : "s");
			} else {
				ord_diag_truncate(diag, first);
				diag->more = more;
				ord_error_set(err, "%s", why);
			}
			free(why);
			ord_sheet_release(&sheet);
		}
		if (!err)
			err = ord_game_check_sheet(g, side, bytes, len, diag, reading);
		ord_buf_release(&ss.sides);
		ord_buf_release(&ss.words);
	}
	ord_game_free(g);
	for (i = 0; i < ORD_ARRAY_SIZE(ext); i++) {
		ord_buf_reset(&f);
		ord_buf_addf(&f, "%s%s", path.buf, ext[i]);
		unlink(f.buf);
	}
	rmdir(dir.buf);
out:
	ord_buf_release(&dir);
	ord_buf_release(&path);
	ord_buf_release(&f);
	return err;
}
