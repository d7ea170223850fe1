/*
 * check_game.c - the core turn manager through the public API of
 * src/orderly.h: creating and opening game files, submitting sheets and
 * their receipts (and the checkpoint before one, which a reader can hold
 * up), commitments recomputed from the stored rows, resubmission
 * versions, the seal rules and the NMR policies, deadlines, rejected sheets
 * and refused events, a clean audit (and a tampered one), and the dice.
 *
 * Every test works in its own temporary directory; the game file is read
 * back with SQLite directly where the API offers no getter (the nonces, the
 * stored bytes, the dice key).
 */
#include <check.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/canon.h"
#include "core/ctx.h"
#include "core/game.h"
#include "core/phase.h"
#include "orderly.h"
#include "store/stmt.h"
#include "store/store.h"

#define FIXTURES ORD_SOURCE_DIR "/tests/fixtures/e2e/"
#define SCENARIO_HOLD FIXTURES "scenario.xml"
#define SCENARIO_REPEAT FIXTURES "scenario-repeat.xml"
#define SCENARIO_WAIT FIXTURES "scenario-wait.xml"

static const char *const PHASES[] = { "movement", "fire", "fire-morale", "melee", "melee-morale" };

static const char BLUE_SHEET[] = "# blue, turn 1\nB1: ↑ 1/2   # a comment\nB2 Fb @R1\n";
static const char RED_SHEET[] = "R1 ↑ 1/4 @B1\nR2 → 1/2\n";

static char dir[1024];
static char path[1200]; /* the game file of the test */

static void setup(void)
{
	snprintf(dir, sizeof(dir), "%s/check_game.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/test.orderly", dir);
}

static void rm_in_dir(const char *name)
{
	char p[1200];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	unlink(p);
}

static void teardown(void)
{
	static const char *const names[] = {
		"test.orderly",         "test.orderly-wal", "test.orderly-shm",
		"test.orderly-journal", "other.db",         "notes.txt",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		rm_in_dir(names[i]);
	rmdir(dir);
}

/* ---- helpers ---- */

static ord_game *create(const char *scenario)
{
	ord_game *g = NULL;
	int rc = ord_game_create(&g, path, scenario, NULL);

	ck_assert_msg(rc == 0, "create: %d %s", rc, ord_error_last());
	ck_assert_ptr_nonnull(g);
	return g;
}

static int submit(ord_game *g, const char *side, const char *text, struct ord_receipt *rc_out)
{
	struct ord_receipt r;
	struct ord_diag d;
	int rc;

	ord_diag_init(&d);
	rc = ord_game_submit(g, rc_out ? rc_out : &r, side, text, strlen(text), &d);
	ord_diag_release(&d);
	return rc;
}

static void submit_ok(ord_game *g, const char *side, const char *text, struct ord_receipt *r)
{
	int rc = submit(g, side, text, r);

	ck_assert_msg(rc == 0, "submit %s: %d %s", side, rc, ord_error_last());
}

/* Record an event: the key=value arguments, then NULL. */
static int event(ord_game *g, const char *kind, const char *override, struct ord_diag *d, ...)
{
	char *argv[16];
	const char *a;
	int argc = 0, rc, i;
	va_list ap;

	va_start(ap, d);
	while ((a = va_arg(ap, const char *)) != NULL && argc < 16)
		argv[argc++] = strdup(a);
	va_end(ap);
	rc = ord_game_event(g, kind, argc, argv, override, d);
	for (i = 0; i < argc; i++)
		free(argv[i]);
	return rc;
}

static void resolve_all(ord_game *g)
{
	size_t i;

	for (i = 0; i < sizeof(PHASES) / sizeof(PHASES[0]); i++) {
		struct ord_buf out = ORD_BUF_INIT;
		/* each phase named, and meant empty where it has no event */
		struct ord_resolve_opts o = { .phase = PHASES[i], .empty = 1 };
		int rc = ord_game_resolve_opts(g, &o, &out);

		ck_assert_msg(rc == 0, "resolve %s: %d %s", PHASES[i], rc, ord_error_last());
		ord_buf_release(&out);
	}
}

static char *info(ord_game *g, int xml)
{
	struct ord_buf out = ORD_BUF_INIT;

	ck_assert_int_eq(ord_game_info(g, &out, xml), 0);
	return ord_buf_detach(&out, NULL);
}

static void expect_info(ord_game *g, const char *want)
{
	char *s = info(g, 0);

	ck_assert_msg(strstr(s, want) != NULL, "expected '%s' in:\n%s", want, s);
	free(s);
}

/* A second connection to the game file, to read what the API does not show. */
static sqlite3 *db_open(void)
{
	sqlite3 *db = NULL;

	ck_assert_int_eq(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
	sqlite3_busy_timeout(db, 5000);
	return db;
}

static sqlite3_stmt *db_query(sqlite3 *db, const char *fmt, ...)
{
	sqlite3_stmt *st = NULL;
	char sql[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sql, sizeof(sql), fmt, ap);
	va_end(ap);
	ck_assert_msg(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK, "%s: %s", sql,
		      sqlite3_errmsg(db));
	return st;
}

static long long db_int(const char *fmt, ...)
{
	sqlite3 *db = db_open();
	sqlite3_stmt *st;
	char sql[2048];
	long long v;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sql, sizeof(sql), fmt, ap);
	va_end(ap);
	st = db_query(db, "%s", sql);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static void db_exec(const char *sql)
{
	sqlite3 *db = db_open();

	ck_assert_msg(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK, "%s: %s", sql,
		      sqlite3_errmsg(db));
	sqlite3_close(db);
}

/* One stored sheet (the latest version when version is 0). */
struct stored {
	unsigned char game_id[16];
	unsigned char seed_commitment[32]; /* of the sheet's turn */
	unsigned char nonce[32];
	unsigned char commitment[32];
	char *bytes;
	size_t len;
	char source[16];
	int version;
};

static void copy_blob(sqlite3_stmt *st, int col, unsigned char *out, size_t len)
{
	ck_assert_int_eq(sqlite3_column_bytes(st, col), (int)len);
	memcpy(out, sqlite3_column_blob(st, col), len);
}

static void stored_sheet(struct stored *s, const char *side, int turn, int version)
{
	sqlite3 *db = db_open();
	sqlite3_stmt *st;

	memset(s, 0, sizeof(*s));
	st = db_query(db,
		      "SELECT game.game_id, sheet.nonce, sheet.commitment, sheet.bytes, sheet.source, sheet.version, "
		      "turn.seed_commitment FROM sheet JOIN side ON side.id = sheet.side_id "
		      "JOIN turn ON turn.turn = sheet.turn, game WHERE side.name = '%s' "
		      "AND sheet.turn = %d AND (%d = 0 OR sheet.version = %d) ORDER BY sheet.version DESC LIMIT 1",
		      side, turn, version, version);
	ck_assert_msg(sqlite3_step(st) == SQLITE_ROW, "no sheet of %s, turn %d, version %d", side,
		      turn, version);
	copy_blob(st, 0, s->game_id, 16);
	copy_blob(st, 1, s->nonce, 32);
	copy_blob(st, 2, s->commitment, 32);
	s->len = (size_t)sqlite3_column_bytes(st, 3);
	s->bytes = malloc(s->len + 1);
	ck_assert_ptr_nonnull(s->bytes);
	memcpy(s->bytes, s->len ? sqlite3_column_blob(st, 3) : "", s->len);
	s->bytes[s->len] = '\0';
	snprintf(s->source, sizeof(s->source), "%s", (const char *)sqlite3_column_text(st, 4));
	s->version = sqlite3_column_int(st, 5);
	copy_blob(st, 6, s->seed_commitment, 32);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

/* The commitment of a stored sheet's (possibly changed) fields. */
static void commit_of(unsigned char out[32], const struct stored *s, int turn, const char *side,
		      const unsigned char nonce[32], const void *bytes, size_t len)
{
	struct ord_sheet_binding b;

	memset(&b, 0, sizeof(b));
	memcpy(b.game_id, s->game_id, 16);
	b.turn = turn;
	b.side = side;
	memcpy(b.seed_commitment, s->seed_commitment, 32);
	ord_commit_sheet(out, &b, nonce, bytes, len);
}

static void write_file(const char *name, const void *data, size_t len)
{
	char p[1200];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	fclose(f);
}

static char *read_path(const char *p, size_t *len)
{
	FILE *f = fopen(p, "rb");
	char *buf;
	long n;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* ---- creating and opening ---- */

/* The sealed orders' index keeps every field of an order: a value with a
 * tab, a newline or a backslash, an argument present, empty or absent. */
START_TEST(test_order_serialize_round_trip)
{
	struct ord_sheet a, b;
	struct ord_buf text = ORD_BUF_INIT, again = ORD_BUF_INIT;
	struct ord_order *o;
	struct ord_token *t;

	ord_sheet_init(&a);
	ord_sheet_init(&b);
	o = ord_sheet_add_order(&a, 7, 3, "Slesvigske Inf.Rgt. 4/");
	ord_order_add_token(o, ORD_TOK_DIR, "\xe2\x86\x91", 0, 26);
	ord_order_add_token(o, ORD_TOK_FRAC, "1/2", 2, 28);
	t = ord_order_add_token(o, ORD_TOK_CODE, "a\tb\\c\nd", -4, 32);
	t->group = 2;
	t->arg = strdup("");
	t = ord_order_add_token(o, ORD_TOK_TARGET, "Russisk-Tyske Legion 1/", 0, 40);
	t->arg = strdup("x\ty");
	ord_order_serialize(o, &text);
	ck_assert_int_eq(ord_order_deserialize(&b, text.buf), 0);
	ck_assert_uint_eq(b.n, 1);
	ck_assert_uint_eq(b.orders[0].line, 7);
	ck_assert_uint_eq(b.orders[0].col, 3);
	ck_assert_str_eq(b.orders[0].unit, "Slesvigske Inf.Rgt. 4/");
	ck_assert_uint_eq(b.orders[0].ntok, 4);
	ck_assert_int_eq(b.orders[0].tok[1].num, 2);
	ck_assert_str_eq(b.orders[0].tok[2].value, "a\tb\\c\nd");
	ck_assert_int_eq(b.orders[0].tok[2].num, -4);
	ck_assert_uint_eq(b.orders[0].tok[2].group, 2);
	ck_assert_str_eq(b.orders[0].tok[2].arg, "");
	ck_assert_ptr_null(b.orders[0].tok[1].arg);
	ck_assert_str_eq(b.orders[0].tok[3].arg, "x\ty");
	ck_assert_uint_eq(b.orders[0].tok[3].col, 40);
	ord_order_serialize(&b.orders[0], &again);
	ck_assert_str_eq(again.buf, text.buf);
	ord_sheet_release(&b);
	/* not in its form: refused, not read as something else */
	ck_assert_int_eq(ord_order_deserialize(&b, "t 3 0 1 0 0\tC\t\n"), ORD_ETAMPERED);
	ord_sheet_release(&b);
	ck_assert_int_eq(ord_order_deserialize(&b, ""), ORD_ETAMPERED);
	ord_sheet_release(&b);
	ord_sheet_release(&a);
	ord_buf_release(&text);
	ord_buf_release(&again);
	ord_error_clear();
}
END_TEST

/* A packed sheet (each order one block, as a context holds it) keeps every
 * field; a token added to a packed order makes it a growing one again. */
START_TEST(test_sheet_pack)
{
	struct ord_sheet a;
	struct ord_buf before = ORD_BUF_INIT, after = ORD_BUF_INIT;
	struct ord_order *o;
	struct ord_token *t;
	size_t i;

	ord_sheet_init(&a);
	for (i = 0; i < 3; i++) {
		o = ord_sheet_add_order(&a, (unsigned)i + 1, 1, i == 1 ? "L2" : "Bn 1/1");
		if (i == 1)
			continue; /* an order of no token */
		ord_order_add_token(o, ORD_TOK_DIR, "\xe2\x86\x91", 0, 4);
		t = ord_order_add_token(o, ORD_TOK_TARGET, "B7", 0, 6);
		t->arg = strdup("x\ty");
	}
	for (i = 0; i < a.n; i++)
		ord_order_serialize(&a.orders[i], &before);
	ord_sheet_pack(&a);
	ord_sheet_pack(&a); /* twice: nothing more */
	ck_assert_uint_eq(a.alloc, 3);
	for (i = 0; i < a.n; i++)
		ord_order_serialize(&a.orders[i], &after);
	ck_assert_str_eq(after.buf, before.buf);
	/* the strings live in the block after the tokens */
	ck_assert_ptr_eq(a.orders[0].unit, (char *)(a.orders[0].tok + 2));
	ck_assert_str_eq(a.orders[2].tok[1].arg, "x\ty");
	ck_assert_ptr_null(a.orders[2].tok[0].arg);
	ck_assert_str_eq(a.orders[1].unit, "L2");
	ck_assert_uint_eq(a.orders[1].ntok, 0);
	t = ord_order_add_token(&a.orders[0], ORD_TOK_CODE, "FCol", 0, 9);
	ck_assert_str_eq(t->value, "FCol");
	ck_assert_uint_eq(a.orders[0].ntok, 3);
	ck_assert_str_eq(a.orders[0].tok[1].value, "B7");
	ck_assert_str_eq(a.orders[0].tok[1].arg, "x\ty");
	ck_assert_str_eq(a.orders[0].unit, "Bn 1/1");
	ord_sheet_release(&a); /* ASan: every piece freed once */
	ord_buf_release(&before);
	ord_buf_release(&after);
}
END_TEST

/* An order added with its tokens at once (ord_sheet_add_packed, as the
 * notations' reader adds them) is the order added a token at a time:
 * 2,000 random orders of 0..20 tokens (past the reader's 16 on its
 * stack), every field, a token added after, and the sheet packed into
 * one block as a context holds it.  The orders are packed in the sheet's
 * blocks of many (each of 16 KiB, or an order's size when larger: one of
 * a 20,000-byte unit among them), none over another. */
START_TEST(test_sheet_add_packed)
{
	static const char *const values[] = { "", "FLn", "B7", "a\tb", "\xe2\x86\x91" };
	struct ord_sheet a, b;
	struct ord_token tok[20];
	struct ord_buf x = ORD_BUF_INIT, y = ORD_BUF_INIT;
	uint32_t r = 99;
	size_t i, k, n;

	ord_sheet_init(&a);
	ord_sheet_init(&b);
	for (i = 0; i < 2000; i++) {
		struct ord_order *o, *p;

		if (i == 1000) { /* an order larger than a block */
			char *big = malloc(20001);

			memset(big, 'U', 20000);
			big[20000] = '\0';
			ord_sheet_add_order(&a, 9999, 3, big);
			ord_order_add_token(&a.orders[a.n - 1], ORD_TOK_TARGET, big + 19990, 0, 4);
			memset(&tok[0], 0, sizeof(tok[0]));
			tok[0].kind = ORD_TOK_TARGET;
			tok[0].value = big + 19990;
			tok[0].col = 4;
			p = ord_sheet_add_packed(&b, 9999, 3, big, tok, 1);
			ck_assert_str_eq(p->unit, big);
			free(big);
		}
		o = ord_sheet_add_order(&a, (unsigned)i + 1, 3, values[i % 5]);

		r = r * 1103515245u + 12345u;
		n = (r >> 8) % 21;
		for (k = 0; k < n; k++) {
			struct ord_token *t;
			r = r * 1103515245u + 12345u;
			memset(&tok[k], 0, sizeof(tok[k]));
			tok[k].kind = (enum ord_tok_kind)(1 + (r >> 8) % 5);
			tok[k].value = (char *)values[(r >> 12) % 5];
			tok[k].arg = (r >> 16) % 3 ? NULL : (char *)values[(r >> 20) % 5];
			tok[k].num = (int)((r >> 4) % 7) - 3;
			tok[k].col = (unsigned)k + 5;
			tok[k].group = (r >> 24) % 3;
			t = ord_order_add_token(o, tok[k].kind, tok[k].value, tok[k].num, tok[k].col);
			t->group = tok[k].group;
			t->arg = tok[k].arg ? strdup(tok[k].arg) : NULL;
		}
		p = ord_sheet_add_packed(&b, (unsigned)i + 1, 3, values[i % 5], tok, n);
		ck_assert_uint_eq(p->ntok, n);
		if (i % 7 == 0) { /* a token after: a growing order again */
			ord_order_add_token(o, ORD_TOK_CODE, "C", 1, 40);
			ord_order_add_token(p, ORD_TOK_CODE, "C", 1, 40);
		}
	}
	for (i = 0; i < a.n; i++) {
		ord_order_serialize(&a.orders[i], &x);
		ord_order_serialize(&b.orders[i], &y);
	}
	ck_assert_uint_eq(a.n, b.n);
	ck_assert_uint_eq(b.n, 2001);
	ck_assert_uint_eq(b.orders[1000].ntok, 1);
	ck_assert_uint_eq(strlen(b.orders[1000].unit), 20000);
	ck_assert_str_eq(b.orders[1000].tok[0].value, "UUUUUUUUUU");
	ck_assert_ptr_nonnull(b.chunks);
	ck_assert_str_eq(x.buf, y.buf);
	/* a context's sheet: its orders, each in a block of its own or
	 * growing, packed into the sheet's one block, the same orders */
	ord_sheet_pack(&b);
	ck_assert_ptr_nonnull(b.block);
	ord_buf_reset(&y);
	for (i = 0; i < b.n; i++)
		ord_order_serialize(&b.orders[i], &y);
	ck_assert_str_eq(x.buf, y.buf);
	ord_order_add_token(&b.orders[3], ORD_TOK_CODE, "L", 0, 50); /* out of the block again */
	ck_assert_str_eq(b.orders[3].tok[b.orders[3].ntok - 1].value, "L");
	ord_sheet_release(&a); /* ASan: every piece freed once */
	ord_sheet_release(&b);
	ord_buf_release(&x);
	ord_buf_release(&y);
}
END_TEST

/* A message may quote the one before it. */
START_TEST(test_error_quotes_the_last)
{
	ord_error_set(ORD_ERROR, "inner");
	ord_error_set(ORD_EUSAGE, "outer (%s): %s", ord_error_last(), "end");
	ck_assert_str_eq(ord_error_last(), "outer (inner): end");
	ord_error_clear();
}
END_TEST

START_TEST(test_create_open)
{
	ord_game *g = create(SCENARIO_HOLD), *again = NULL;
	char *s;

	s = info(g, 0);
	ck_assert_ptr_nonnull(strstr(s, "turn:      1 (open)"));
	ck_assert_ptr_nonnull(strstr(s, "nmr:       hold"));
	ck_assert_ptr_nonnull(strstr(s, "  blue         not submitted"));
	ck_assert_ptr_nonnull(strstr(s, "  red          not submitted"));
	free(s);
	s = info(g, 1);
	ck_assert_ptr_nonnull(strstr(s, "turn=\"1\" state=\"open\""));
	ck_assert_ptr_nonnull(strstr(s, "<side id=\"blue\" name=\"Blue Army\" submitted=\"no\""));
	free(s);
	ord_game_free(g);

	/* a game file is never overwritten */
	ck_assert_int_eq(ord_game_create(&again, path, SCENARIO_HOLD, NULL), ORD_EEXISTS);
	ck_assert_ptr_null(again);
	ck_assert_int_eq(ord_game_open(&g, path), 0);
	expect_info(g, "turn:      1 (open)");
	ord_game_free(g);
	ck_assert_int_eq(db_int("SELECT count(*) FROM unit"), 6);
	ck_assert_int_eq(db_int("SELECT count(*) FROM turn"), 1);
}
END_TEST

/* body with the first from replaced by to (malloc'd) */
static char *body_edit(const char *body, const char *from, const char *to)
{
	const char *at = strstr(body, from);
	struct ord_buf b = ORD_BUF_INIT;

	ck_assert_msg(at != NULL, "'%s' not in:\n%s", from, body);
	ord_buf_add(&b, body, (size_t)(at - body));
	ord_buf_adds(&b, to);
	ord_buf_adds(&b, at + strlen(from));
	return ord_buf_detach(&b, NULL);
}

/* body's config read: 0, or the error, whose message must hold want */
static int config_of(const char *body, struct ord_canon_config *c, const char *want)
{
	int err = ord_canon_config_read(c, body);

	if (err) {
		ck_assert_msg(strstr(ord_error_last(), want) != NULL, "expected '%s' in '%s'", want,
			      ord_error_last());
		ord_error_clear();
	}
	return err;
}

/* A game logs, in its creation and every opening beside made= (a day),
 * the core and rules revisions it was made with (made_core=, made_rules=:
 * canon.h); a change gated on the game's age compares the core revision
 * (ord_game_made_since_core), and a game that logs none keeps made='s day
 * up to ORD_GAME_MADE_CORE.  A marker no orderly writes is refused. */
START_TEST(test_made_core)
{
	ord_game *g = create(SCENARIO_HOLD);
	const char *rules = ord_ruleset_revision(g->rs);
	struct ord_canon_config c, d;
	struct ord_buf want = ORD_BUF_INIT;
	sqlite3 *db = db_open();
	sqlite3_stmt *st;
	char *create_body, *open_body, *b, *b2;
	int cmp;

	/* this orderly's core is the marker's first revision or later */
	ck_assert_int_eq(ord_canon_revision_cmp(ORD_CORE_REVISION, ORD_GAME_MADE_CORE, &cmp), 0);
	ck_assert_int_ge(cmp, 0);
	ck_assert_ptr_nonnull(rules);
	st = db_query(db, "SELECT body FROM log WHERE kind = 'create'");
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	create_body = ord_strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	st = db_query(db, "SELECT body FROM log WHERE kind = 'open' AND turn = 1");
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	open_body = ord_strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(db);
	ord_buf_addf(&want, "made=" ORD_GAME_MADE "\nmade_core=" ORD_CORE_REVISION "\nmade_rules=%s\n",
		     rules);
	ck_assert_ptr_nonnull(strstr(create_body, want.buf));
	ck_assert_ptr_nonnull(strstr(open_body, want.buf));
	ck_assert_int_eq(ord_game_made_since_core(g, ORD_GAME_MADE_CORE), 1);
	ck_assert_int_eq(ord_game_made_since_core(g, ORD_CORE_REVISION), 1);
	ck_assert_int_eq(ord_game_made_since_core(g, "2099-01-01.1"), 0);
	ord_buf_reset(&want);
	ord_buf_addf(&want,
		     "made:      " ORD_GAME_MADE ", core revision " ORD_CORE_REVISION
		     ", battalion rules of %s\n",
		     rules);
	expect_info(g, want.buf);
	ord_buf_reset(&want);
	ord_buf_addf(&want,
		     " made=\"" ORD_GAME_MADE "\" made-core=\"" ORD_CORE_REVISION
		     "\" made-rules=\"%s\"",
		     rules);
	b = info(g, 1);
	ck_assert_msg(strstr(b, want.buf) != NULL, "expected '%s' in:\n%s", want.buf, b);
	free(b);

	/* read back, and an opening without it differs from the creation */
	ck_assert_int_eq(config_of(create_body, &c, ""), 0);
	ck_assert_str_eq(c.made_core, ORD_CORE_REVISION);
	ck_assert_str_eq(c.made_rules, rules);
	ck_assert_int_eq(ord_canon_made_since_core(&c, ORD_GAME_MADE_CORE), 1);
	ord_buf_reset(&want);
	ord_buf_addf(&want, "made_core=" ORD_CORE_REVISION "\nmade_rules=%s\n", rules);
	b = body_edit(open_body, want.buf, "");
	ck_assert_int_eq(config_of(b, &d, ""), 0);
	ck_assert_ptr_null(d.made_core);
	ck_assert_ptr_null(d.made_rules);
	ck_assert_str_eq(ord_canon_config_diff(&c, &d), "core revision it was made with");
	/* ... a game made before the marker: made='s day up to it, before
	 * every later core revision */
	ck_assert_int_eq(ord_canon_made_since_core(&d, ORD_GAME_MADE_CORE), 1);
	ck_assert_int_eq(ord_canon_made_since_core(&d, "2026-12-07.2"), 0);
	ck_assert_int_eq(ord_canon_made_since_core_of(NULL, NULL, ORD_GAME_MADE_CORE), 0);
	ord_canon_config_release(&d);
	free(b);
	b = body_edit(open_body, rules, "2026-12-01.9");
	ck_assert_int_eq(config_of(b, &d, ""), 0);
	ck_assert_str_eq(ord_canon_config_diff(&c, &d), "rules revision it was made with");
	ord_canon_config_release(&d);
	free(b);
	b = body_edit(open_body, "made_core=" ORD_CORE_REVISION, "made_core=2099-01-01.1");
	ck_assert_int_eq(config_of(b, &d, ""), 0);
	ck_assert_str_eq(ord_canon_config_diff(&c, &d), "core revision it was made with");
	ck_assert_int_eq(ord_canon_made_since_core(&d, "2099-01-01.1"), 1);
	ck_assert_int_eq(ord_canon_made_since_core(&d, "2099-01-01.2"), 0);
	ord_canon_config_release(&d);
	free(b);

	/* no orderly's: before the marker came, no revision, without made=,
	 * the rules' without the core's */
	b = body_edit(create_body, "made_core=" ORD_CORE_REVISION, "made_core=2026-12-06.1");
	ck_assert_int_eq(config_of(b, &d,
				   "the entry's made_core=2026-12-06.1 is not a core revision of " ORD_GAME_MADE_CORE
				   " or later (expected YYYY-MM-DD.N)"),
			 ORD_EBADDATA);
	free(b);
	b = body_edit(create_body, "made_core=" ORD_CORE_REVISION, "made_core=2026-12-07.1x");
	ck_assert_int_eq(config_of(b, &d, "made_core=2026-12-07.1x is not a core revision"),
			 ORD_EBADDATA);
	free(b);
	b = body_edit(create_body, "made_core=" ORD_CORE_REVISION, "made_core=2026-12-07.1 ");
	ck_assert_int_eq(config_of(b, &d, "made_core=(a value that is no revision) is not"),
			 ORD_EBADDATA);
	free(b);
	b = body_edit(create_body, "made=" ORD_GAME_MADE "\n", "");
	ck_assert_int_eq(config_of(b, &d,
				   "the entry's made_core=" ORD_CORE_REVISION
				   " names the core revision the game was made with, but the entry logs no made="),
			 ORD_EBADDATA);
	free(b);
	b = body_edit(create_body, "made_core=" ORD_CORE_REVISION "\n", "");
	ck_assert_int_eq(config_of(b, &d,
				   "names the rules revision the game was made with, but the entry logs no made_core="),
			 ORD_EBADDATA);
	free(b);
	b = body_edit(create_body, rules, "next week");
	ck_assert_int_eq(config_of(b, &d,
				   "the entry's made_rules=(a value that is no revision) is not a rules revision"),
			 ORD_EBADDATA);
	free(b);
	b = body_edit(create_body, rules, "0123456789012345678901234567890123");
	ck_assert_int_eq(config_of(b, &d,
				   "is not a rules revision (expected a word of at most 31 characters"),
			 ORD_EBADDATA);
	free(b);
	/* a module's own word is one (the template's "1") */
	b = body_edit(create_body, rules, "1");
	ck_assert_int_eq(config_of(b, &d, ""), 0);
	ck_assert_str_eq(d.made_rules, "1");
	ord_canon_config_release(&d);
	free(b);
	/* and a game made before made= logs neither: read as before */
	b = body_edit(create_body, want.buf, "");
	b2 = body_edit(b, "made=" ORD_GAME_MADE "\n", "");
	ck_assert_int_eq(config_of(b2, &d, ""), 0);
	ck_assert_ptr_null(d.made);
	ck_assert_int_eq(ord_canon_made_since_core(&d, ORD_GAME_MADE_CORE), 0);
	ord_canon_config_release(&d);
	free(b2);
	free(b);

	ord_canon_config_release(&c);
	ord_buf_release(&want);
	free(create_body);
	free(open_body);
	ord_game_free(g);
}
END_TEST

START_TEST(test_create_refused_leaves_nothing)
{
	ord_game *g = NULL;
	int rc;

	rc = ord_game_create(&g, path, FIXTURES "bad-kind.xml", NULL);
	ck_assert_int_eq(rc, ORD_EBADDATA);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "bad-kind.xml:8:56: "));
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "'dragoons'"));
	ck_assert_ptr_null(g);
	ck_assert_int_ne(access(path, F_OK), 0);
	rc = ord_game_create(&g, path, FIXTURES "no-such-scenario.xml", NULL);
	ck_assert_int_eq(rc, ORD_ENOFILE);
	ck_assert_int_ne(access(path, F_OK), 0);
	rc = ord_game_create(&g, path, FIXTURES "hostile-xxe.xml", NULL);
	ck_assert_int_eq(rc, ORD_EBADDATA);
	ck_assert_int_ne(access(path, F_OK), 0);
}
END_TEST

/* Opening a game in a process that already has it open (another
 * connection: a server's other thread) leaves that connection's locks in
 * place: reading the header through open() and close() drops every POSIX
 * lock of the process on the file, and another process would then take
 * the game for unused (and may checkpoint and delete its write-ahead log
 * under the open connection).  SQLite holds its SHARED lock in the bytes
 * from 0x40000002 on; another process sees it with F_GETLK. */
START_TEST(test_open_keeps_the_locks_of_the_process)
{
	ord_game *g = create(SCENARIO_HOLD), *again = NULL;
	sqlite3 *db = NULL;
	pid_t pid;
	int status = 0;

	ord_game_free(g);
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "SELECT count(*) FROM unit", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(ord_game_open(&again, path), 0);
	ord_game_free(again);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct flock fl;
		int fd = open(path, O_RDWR);
		memset(&fl, 0, sizeof(fl));
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		fl.l_start = 0x40000000;
		fl.l_len = 512;
		if (fd < 0 || fcntl(fd, F_GETLK, &fl) < 0)
			_exit(2);
		_exit(fl.l_type == F_UNLCK ? 1 : 0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the lock of an open connection was dropped by opening the game again (status %d)",
		      status);
	sqlite3_close(db);
}
END_TEST

START_TEST(test_open_refuses)
{
	ord_game *g = NULL;
	char other[1200], *before, *after;
	size_t blen, alen;
	sqlite3 *db;

	ck_assert_int_eq(ord_game_open(&g, path), ORD_ENOFILE);
	ck_assert_ptr_null(g);

	/* a text file */
	write_file("notes.txt", "not a game\n", 11);
	snprintf(other, sizeof(other), "%s/notes.txt", dir);
	ck_assert_int_eq(ord_game_open(&g, other), ORD_ENOTGAME);
	ck_assert_ptr_null(g);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "not an orderly game"));

	/* an SQLite database of another program, left byte-identical */
	snprintf(other, sizeof(other), "%s/other.db", dir);
	ck_assert_int_eq(sqlite3_open(other, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1)", NULL, NULL,
				      NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	before = read_path(other, &blen);
	ck_assert_int_eq(ord_game_open(&g, other), ORD_ENOTGAME);
	ck_assert_ptr_null(g);
	after = read_path(other, &alen);
	ck_assert_uint_eq(alen, blen);
	ck_assert_int_eq(memcmp(before, after, blen), 0);
	free(before);
	free(after);

	/* a game of a newer schema */
	g = create(SCENARIO_HOLD);
	ord_game_free(g);
	g = NULL;
	db_exec("PRAGMA user_version = 99");
	before = read_path(path, &blen);
	ck_assert_int_eq(ord_game_open(&g, path), ORD_ENEWER);
	ck_assert_ptr_null(g);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "newer"));
	after = read_path(path, &alen);
	ck_assert_uint_eq(alen, blen);
	ck_assert_int_eq(memcmp(before, after, blen), 0);
	free(before);
	free(after);
}
END_TEST

/* ---- sheets, receipts, commitments ---- */

static int pragma(ord_game *g, const char *name)
{
	sqlite3_stmt *st = NULL;
	char sql[64];
	int v;

	snprintf(sql, sizeof sql, "PRAGMA %s", name);
	ck_assert_int_eq(sqlite3_prepare_v2(g->db, sql, -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int synchronous(ord_game *g)
{
	return pragma(g, "synchronous");
}

static off_t game_file_size(ord_game *g)
{
	struct stat sb;

	ck_assert_int_eq(stat(sqlite3_db_filename(g->db, "main"), &sb), 0);
	return sb.st_size;
}

/* A change with a receipt commits unsynced and is synced by its
 * checkpoint (ord_store_begin_receipt): after it, committed or rolled
 * back, every other change syncs at its commit again (2: FULL). */
START_TEST(test_receipt_commit_syncs_again_after)
{
	ord_game *g = create(SCENARIO_HOLD);

	ck_assert_int_eq(synchronous(g), 2);
	submit_ok(g, "blue", BLUE_SHEET, NULL);
	ck_assert_int_eq(synchronous(g), 2);
	ck_assert_int_eq(ord_store_begin_receipt(g->db), 0);
	ck_assert_int_eq(synchronous(g), 0);
	ord_store_rollback(g->db);
	ck_assert_int_eq(synchronous(g), 2);
	ck_assert_int_eq(ord_store_begin_receipt(g->db), 0);
	ck_assert_int_eq(ord_store_commit(g->db), 0);
	ck_assert_int_eq(synchronous(g), 0);
	ck_assert_int_eq(ord_store_checkpoint(g->db), 0);
	ck_assert_int_eq(synchronous(g), 2);
	ord_game_free(g);
}
END_TEST

/* SQLite's own checkpoint does not run in the commit of a receipt's
 * change, however large: it would copy the change into the game file
 * unsynced and leave the checkpoint that follows nothing to sync; the
 * game file grows only at ord_store_checkpoint, and SQLite's own
 * checkpoint is back after it (and after a rollback) */
START_TEST(test_receipt_commit_not_checkpointed_unsynced)
{
	ord_game *g = create(SCENARIO_HOLD);
	off_t before;

	ck_assert_int_eq(pragma(g, "wal_autocheckpoint"), 1000);
	ck_assert_int_eq(ord_store_exec(g->db, "CREATE TABLE scratch(b BLOB)"), 0);
	ck_assert_int_eq(ord_store_checkpoint(g->db), 0);
	before = game_file_size(g);
	ck_assert_int_eq(ord_store_begin_receipt(g->db), 0);
	ck_assert_int_eq(pragma(g, "wal_autocheckpoint"), 0);
	/* 8 MB: some 2,000 pages of write-ahead log */
	ck_assert_int_eq(ord_store_exec(g->db, "INSERT INTO scratch VALUES (randomblob(8000000))"), 0);
	ck_assert_int_eq(ord_store_commit(g->db), 0);
	ck_assert_int_eq(game_file_size(g), before);
	ck_assert_int_eq(ord_store_checkpoint(g->db), 0);
	ck_assert_int_gt(game_file_size(g), before + 8000000);
	ck_assert_int_eq(pragma(g, "wal_autocheckpoint"), 1000);
	ck_assert_int_eq(ord_store_begin_receipt(g->db), 0);
	ord_store_rollback(g->db);
	ck_assert_int_eq(pragma(g, "wal_autocheckpoint"), 1000);
	ord_game_free(g);
}
END_TEST

/* Milliseconds of a clock that only goes forward. */
static long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The sheets the game file holds by itself, without its write-ahead log:
 * a copy of the file alone (other.db), read as it is. */
static long long sheets_in_file_alone(void)
{
	char copy[1200], uri[1300];
	sqlite3 *db = NULL;
	sqlite3_stmt *st;
	long long n;
	size_t len;
	int rc;
	char *bytes = read_path(path, &len);

	write_file("other.db", bytes, len);
	free(bytes);
	snprintf(copy, sizeof(copy), "%s/other.db", dir);
	snprintf(uri, sizeof(uri), "file:%s?immutable=1", copy);
	ck_assert_int_eq(sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL),
			 SQLITE_OK);
	st = db_query(db, "SELECT count(*) FROM sheet");
	rc = sqlite3_step(st);
	ck_assert_msg(rc == SQLITE_ROW, "the file alone: %d %s", rc, sqlite3_errmsg(db));
	n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

/* A submit's checkpoint that a reader of an older snapshot keeps from
 * completing gives up at its limit (30 s; 300 ms here), counted from its
 * first try: the sheet is stored, in the write-ahead log, and the submit
 * says it is not yet in the game file itself.  Once the reader is gone,
 * the next submit's checkpoint completes, and the file alone holds both. */
START_TEST(test_checkpoint_gives_up_at_its_limit)
{
	ord_game *g = create(SCENARIO_HOLD);
	sqlite3 *reader = db_open();
	sqlite3_stmt *st;
	char want[2048];
	long long start, took;
	int rc;

	ord_store_set_checkpoint_limit_ms(300);
	/* the game made is in the file itself */
	ck_assert_int_eq(ord_store_checkpoint(g->db), 0);
	ck_assert_int_eq(sheets_in_file_alone(), 0);
	/* the reader's snapshot, taken before the sheet, held open */
	ck_assert_int_eq(sqlite3_exec(reader, "BEGIN; SELECT count(*) FROM sheet", NULL, NULL, NULL),
			 SQLITE_OK);
	start = mono_ms();
	rc = submit(g, "blue", BLUE_SHEET, NULL);
	took = mono_ms() - start;
	ck_assert_msg(rc == ORD_ERROR, "submit: %d %s", rc, ord_error_last());
	snprintf(want, sizeof(want),
		 "the sheet of blue (version 1) is stored, but not yet in the game file itself "
		 "('%s': copying the write-ahead log into the game file: database is locked): "
		 "ask 'orderly info' again before you rely on it",
		 path);
	ck_assert_str_eq(ord_error_last(), want);
	ck_assert_msg(took >= 300 && took < 10000, "the checkpoint gave up after %lld ms", took);
	/* stored: the game shows it, and another connection reads it; the
	 * reader still sees its snapshot, and the file alone has no sheet */
	expect_info(g, "blue         submitted (version 1)");
	ck_assert_int_eq(db_int("SELECT count(*) FROM sheet WHERE version = 1 AND side_id = "
				"(SELECT id FROM side WHERE name = 'blue')"),
			 1);
	st = db_query(reader, "SELECT count(*) FROM sheet");
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(st, 0), 0);
	sqlite3_finalize(st);
	ck_assert_int_eq(sheets_in_file_alone(), 0);
	/* the reader gone, the next checkpoint completes */
	ck_assert_int_eq(sqlite3_exec(reader, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(reader);
	submit_ok(g, "red", RED_SHEET, NULL);
	ck_assert_int_eq(sheets_in_file_alone(), 2);
	ord_store_set_checkpoint_limit_ms(30000);
	ord_game_free(g);
}
END_TEST

START_TEST(test_submit_receipt_and_commitment)
{
	ord_game *g = create(SCENARIO_HOLD);
	struct ord_receipt r;
	struct stored s;
	unsigned char c[32], other[32];

	submit_ok(g, "blue", BLUE_SHEET, &r);
	ck_assert_int_eq(r.turn, 1);
	ck_assert_int_eq(r.version, 1);
	ck_assert_str_eq(r.side, "blue");

	/* the exact bytes are stored, under the receipt's commitment */
	stored_sheet(&s, "blue", 1, 1);
	ck_assert_uint_eq(s.len, strlen(BLUE_SHEET));
	ck_assert_int_eq(memcmp(s.bytes, BLUE_SHEET, s.len), 0);
	ck_assert_str_eq(s.source, "submitted");
	ck_assert_int_eq(memcmp(s.commitment, r.commitment, 32), 0);

	/* anybody with the nonce recomputes it ... */
	commit_of(c, &s, 1, "blue", s.nonce, s.bytes, s.len);
	ck_assert_int_eq(memcmp(c, r.commitment, 32), 0);
	/* ... and it binds every input */
	s.bytes[s.len - 2] ^= 1;
	commit_of(other, &s, 1, "blue", s.nonce, s.bytes, s.len);
	ck_assert_int_ne(memcmp(other, c, 32), 0);
	s.bytes[s.len - 2] ^= 1;
	commit_of(other, &s, 1, "blue", s.nonce, s.bytes, s.len - 1);
	ck_assert_int_ne(memcmp(other, c, 32), 0);
	commit_of(other, &s, 2, "blue", s.nonce, s.bytes, s.len);
	ck_assert_int_ne(memcmp(other, c, 32), 0);
	commit_of(other, &s, 1, "red", s.nonce, s.bytes, s.len);
	ck_assert_int_ne(memcmp(other, c, 32), 0);
	s.nonce[0] ^= 0x80;
	commit_of(other, &s, 1, "blue", s.nonce, s.bytes, s.len);
	ck_assert_int_ne(memcmp(other, c, 32), 0);
	s.nonce[0] ^= 0x80;
	s.game_id[15] ^= 1;
	commit_of(other, &s, 1, "blue", s.nonce, s.bytes, s.len);
	ck_assert_int_ne(memcmp(other, c, 32), 0);
	s.game_id[15] ^= 1;
	/* the turn's seed commitment too: a re-drawn seed voids every receipt */
	s.seed_commitment[31] ^= 1;
	commit_of(other, &s, 1, "blue", s.nonce, s.bytes, s.len);
	ck_assert_int_ne(memcmp(other, c, 32), 0);
	s.seed_commitment[31] ^= 1;
	/* and is deterministic */
	commit_of(other, &s, 1, "blue", s.nonce, s.bytes, s.len);
	ck_assert_int_eq(memcmp(other, c, 32), 0);
	free(s.bytes);

	expect_info(g, "  blue         submitted (version 1)");
	expect_info(g, "  red          not submitted");
	ck_assert_int_eq(submit(g, "green", RED_SHEET, NULL), ORD_ENOTFOUND);
	ord_game_free(g);
}
END_TEST

START_TEST(test_resubmission_versions)
{
	ord_game *g = create(SCENARIO_HOLD);
	struct ord_receipt r1, r2, r3;
	struct stored s1, s2;
	struct ord_buf rep = ORD_BUF_INIT;

	submit_ok(g, "blue", BLUE_SHEET, &r1);
	submit_ok(g, "blue", BLUE_SHEET, &r2);
	submit_ok(g, "blue", "B3: ↖ 1\n", &r3);
	ck_assert_int_eq(r1.version, 1);
	ck_assert_int_eq(r2.version, 2);
	ck_assert_int_eq(r3.version, 3);
	/* the same bytes again: a fresh nonce, so another commitment */
	ck_assert_int_ne(memcmp(r1.commitment, r2.commitment, 32), 0);
	stored_sheet(&s1, "blue", 1, 1);
	stored_sheet(&s2, "blue", 1, 2);
	ck_assert_int_ne(memcmp(s1.nonce, s2.nonce, 32), 0);
	ck_assert_uint_eq(s1.len, s2.len);
	ck_assert_int_eq(memcmp(s1.bytes, s2.bytes, s1.len), 0);
	free(s1.bytes);
	free(s2.bytes);
	/* every version is kept; the latest is the one in force */
	ck_assert_int_eq(db_int("SELECT count(*) FROM sheet"), 3);
	expect_info(g, "  blue         submitted (version 3)");
	ck_assert_int_eq(ord_game_report(g, NULL, 0, 0, &rep), 0);
	ck_assert_ptr_nonnull(strstr(rep.buf, "sheet of blue (version 3, submitted)"));
	ck_assert_ptr_nonnull(strstr(rep.buf, "B3: ↖ 1"));
	ck_assert_ptr_null(strstr(rep.buf, "B2: Fb @R1"));
	/* text and XML from one reading are the two reports made apart */
	{
		struct ord_report_opts o = { 0 };
		struct ord_buf t = ORD_BUF_INIT, x = ORD_BUF_INIT, x1 = ORD_BUF_INIT;
		ck_assert_int_eq(ord_game_report_both(g, &o, &t, &x), 0);
		ck_assert_int_eq(ord_game_report(g, NULL, 0, 1, &x1), 0);
		ck_assert_str_eq(t.buf, rep.buf);
		ck_assert_str_eq(x.buf, x1.buf);
		ck_assert_ptr_nonnull(strstr(x.buf, ">B3: ↖ 1</order>"));
		ord_buf_reset(&x);
		ck_assert_int_eq(ord_game_report_both(g, &o, NULL, &x), 0);
		ck_assert_str_eq(x.buf, x1.buf);
		ord_buf_release(&t);
		ord_buf_release(&x);
		ord_buf_release(&x1);
	}
	ord_buf_release(&rep);
	ord_game_free(g);
}
END_TEST

/* A sheet written against a version (opts' based_on, a page's W21) is
 * stored only while that version is the latest: another version stored
 * meanwhile (from the command line, mail, another page) refuses it, and
 * nothing is stored. */
START_TEST(test_submit_based_on)
{
	static const char b3[] = "B3: ↖ 1\n";
	ord_game *g = create(SCENARIO_HOLD);
	struct ord_receipt r;
	struct ord_diag d;
	int none = 0, one = 1, two = 2;
	struct ord_submit_opts o = { .based_on = &none };

	ord_diag_init(&d);
	ck_assert_int_eq(ord_game_submit_opts(g, &r, "blue", BLUE_SHEET, strlen(BLUE_SHEET), &o, &d),
			 0);
	ck_assert_int_eq(r.version, 1);
	/* written against no sheet, but version 1 came in: refused */
	ck_assert_int_eq(ord_game_submit_opts(g, &r, "blue", b3, strlen(b3), &o, &d), ORD_ESTATE);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "is at version 1, not at version 0"));
	ck_assert_int_eq(db_int("SELECT count(*) FROM sheet"), 1);
	/* ahead of the game: refused too */
	o.based_on = &two;
	ck_assert_int_eq(ord_game_submit_opts(g, &r, "blue", b3, strlen(b3), &o, &d), ORD_ESTATE);
	ck_assert_int_eq(db_int("SELECT count(*) FROM sheet"), 1);
	/* against the latest: stored; another side's versions do not count */
	submit_ok(g, "red", RED_SHEET, NULL);
	o.based_on = &one;
	ck_assert_int_eq(ord_game_submit_opts(g, &r, "blue", b3, strlen(b3), &o, &d), 0);
	ck_assert_int_eq(r.version, 2);
	ck_assert_int_eq(db_int("SELECT count(*) FROM sheet"), 3);
	ord_diag_release(&d);
	ord_game_free(g);
}
END_TEST

/* A sheet headed with another turn is warned of (ord_sheet_warnings, and
 * through ord_submit_opts' warnings), at the word, and stored all the
 * same; a heading of this turn, a turn named after the first order, or a
 * refused sheet gives none. */
START_TEST(test_submit_warnings)
{
	static const char old[] = "\xef\xbb\xbf# Blå, Træk 3 \r\nB3: ↖ 1\r\n";
	static const char later[] = "# blue\nB3: ↖ 1   # as in turn 3\n# turn 3rd, turn 4\n";
	ord_game *g = create(SCENARIO_HOLD);
	struct ord_receipt r;
	struct ord_diag d, w;
	struct ord_submit_opts o = { 0 };

	ord_diag_init(&d);
	ord_diag_init(&w);
	o.warnings = &w;
	ck_assert_int_eq(ord_game_submit_opts(g, &r, "blue", old, strlen(old), &o, &d), 0);
	ck_assert_int_eq(r.version, 1);
	ck_assert_uint_eq(w.n, 1);
	ck_assert_uint_eq(w.items[0].line, 1);
	ck_assert_uint_eq(w.items[0].col, 8); /* characters after the BOM */
	ck_assert_str_eq(w.items[0].msg,
			 "the sheet's heading says 'Træk 3', but the game is at turn 1: is it the "
			 "sheet of another turn?");
	ord_diag_release(&w);
	ord_diag_init(&w);
	ck_assert_int_eq(ord_game_submit_opts(g, &r, "blue", BLUE_SHEET, strlen(BLUE_SHEET), &o, &d),
			 0);
	ck_assert_int_eq(r.version, 2);
	ck_assert_uint_eq(w.n, 0);
	ck_assert_int_eq(ord_game_submit_opts(g, &r, "blue", later, strlen(later), &o, &d), 0);
	ck_assert_uint_eq(w.n, 0);
	ck_assert_uint_eq(ord_sheet_warnings(&w, later, strlen(later), 1), 0);
	ck_assert_uint_eq(ord_sheet_warnings(&w, "#turn 2\n", 8, 1), 1);
	ck_assert_uint_eq(w.items[0].col, 2);
	ord_diag_release(&w);
	ord_diag_init(&w);
	ck_assert_int_eq(ord_game_submit_opts(g, &r, "blue", "# turn 9\nZZ9 ↑\n", 17, &o, &d),
			 ORD_EBADSHEET);
	ck_assert_uint_eq(w.n, 0);
	ck_assert_int_eq(db_int("SELECT count(*) FROM sheet"), 3);
	ord_diag_release(&w);
	ord_diag_release(&d);
	ord_game_free(g);
}
END_TEST

/* The text of a sheet as ord_game_side_sheet_text gives it: rc, and the
 * bytes and version in *out and *version. */
static int sheet_text(ord_game *g, struct ord_buf *out, int *version, int turn, const char *side,
		      const char *viewer)
{
	ord_buf_reset(out);
	*version = -1;
	return ord_game_side_sheet_text(g, out, version, turn, side, viewer);
}

/* A side's sheet text: the exact bytes of its last version, comments and
 * all; its own alone, at any state of the turn (before the seal the
 * version in force now); the referee's whenever. */
START_TEST(test_side_sheet_text)
{
	static const char BLUE_2[] = "# blue, second thoughts\n\nB1: ↑ 1/4  # slower\nB2 Fb @R1\n";
	ord_game *g = create(SCENARIO_HOLD);
	struct ord_buf t = ORD_BUF_INIT;
	struct stored s;
	int v;

	/* open with no sheet yet: none, to the side as to the referee */
	ck_assert_int_eq(sheet_text(g, &t, &v, 1, "blue", "blue"), ORD_ENOTFOUND);
	ck_assert_str_eq(ord_error_last(), "side 'blue' has no sheet of turn 1");
	ck_assert_uint_eq(t.len, 0);
	ck_assert_int_eq(v, 0);
	submit_ok(g, "red", RED_SHEET, NULL);
	/* open: a side is given its own last version, as the referee is, the
	 * exact bytes with the comments and the blank line; a later version
	 * takes its place until the seal */
	submit_ok(g, "blue", BLUE_SHEET, NULL);
	ck_assert_int_eq(sheet_text(g, &t, &v, 1, "blue", "blue"), 0);
	ck_assert_str_eq(t.buf, BLUE_SHEET);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(sheet_text(g, &t, &v, 0, "blue", "blue"), 0);
	ck_assert_str_eq(t.buf, BLUE_SHEET);
	submit_ok(g, "blue", BLUE_2, NULL);
	ck_assert_int_eq(sheet_text(g, &t, &v, 1, "blue", "blue"), 0);
	ck_assert_str_eq(t.buf, BLUE_2);
	ck_assert_uint_eq(t.len, strlen(BLUE_2));
	ck_assert_int_eq(v, 2);
	ck_assert_int_eq(sheet_text(g, &t, &v, 1, "blue", NULL), 0);
	ck_assert_str_eq(t.buf, BLUE_2);
	ck_assert_int_eq(v, 2);
	/* another side's sheet: never, whatever the state */
	ck_assert_int_eq(sheet_text(g, &t, &v, 1, "red", "blue"), ORD_EUSAGE);
	ck_assert_str_eq(ord_error_last(), "side 'blue' may read its own sheet only, not side 'red''s");
	ck_assert_uint_eq(t.len, 0);
	ck_assert_int_eq(sheet_text(g, &t, &v, 1, NULL, NULL), ORD_EUSAGE);
	ck_assert_int_eq(sheet_text(g, &t, &v, 1, "", ""), ORD_EUSAGE);
	ck_assert_int_eq(sheet_text(g, &t, &v, 1, "green", "green"), ORD_ENOTFOUND);
	ck_assert_str_eq(ord_error_last(), "unknown side 'green' (expected one of blue, red)");

	ck_assert_int_eq(ord_game_seal(g, 0), 0);
	/* sealed: the exact bytes stored, comments and the blank line too */
	ck_assert_int_eq(sheet_text(g, &t, &v, 1, "blue", "blue"), 0);
	ck_assert_str_eq(t.buf, BLUE_2);
	ck_assert_uint_eq(t.len, strlen(BLUE_2));
	ck_assert_int_eq(v, 2);
	stored_sheet(&s, "blue", 1, 0);
	ck_assert_uint_eq(s.len, t.len);
	ck_assert_int_eq(memcmp(s.bytes, t.buf, t.len), 0);
	free(s.bytes);
	ck_assert_int_eq(sheet_text(g, &t, &v, 0, "red", "red"), 0);
	ck_assert_str_eq(t.buf, RED_SHEET);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(sheet_text(g, &t, &v, 1, "red", "blue"), ORD_EUSAGE);
	ck_assert_uint_eq(t.len, 0);
	ck_assert_int_eq(sheet_text(g, &t, &v, 1, "blue", "red"), ORD_EUSAGE);
	ck_assert_int_eq(sheet_text(g, &t, &v, 7, "blue", "blue"), ORD_ENOTFOUND);
	ck_assert_str_eq(ord_error_last(), "no turn 7 in this game");

	/* exchanged, every sheet revealed: still a side's own alone */
	resolve_all(g);
	ck_assert_int_eq(ord_game_exchange(g), 0);
	ck_assert_int_eq(sheet_text(g, &t, &v, 1, "red", "blue"), ORD_EUSAGE);
	ck_assert_uint_eq(t.len, 0);
	ck_assert_int_eq(sheet_text(g, &t, &v, 1, "blue", "blue"), 0);
	ck_assert_str_eq(t.buf, BLUE_2);
	/* turn 2, open with no sheet: none, to the side as to the referee */
	ck_assert_int_eq(sheet_text(g, &t, &v, 2, "blue", "blue"), ORD_ENOTFOUND);
	ck_assert_int_eq(sheet_text(g, &t, &v, 2, "blue", NULL), ORD_ENOTFOUND);
	ck_assert_str_eq(ord_error_last(), "side 'blue' has no sheet of turn 2");
	ck_assert_int_eq(v, 0);
	ord_buf_release(&t);
	ord_game_free(g);
}
END_TEST

START_TEST(test_rejected_sheet)
{
	ord_game *g = create(SCENARIO_HOLD);
	struct ord_receipt r;
	struct ord_diag d;
	const char *bad_unit = "R1 ↑ 1/4\nZ9 ↑ 1\n  B1 ↑ 1\n";
	const char *bad_code = "R1 ↑ 1/4\nR2 → FXy\n";
	long long entries = db_int("SELECT count(*) FROM log");

	ord_diag_init(&d);
	ck_assert_int_eq(ord_game_submit(g, &r, "red", bad_unit, strlen(bad_unit), &d), ORD_EBADSHEET);
	ck_assert_uint_eq(d.n, 2);
	ck_assert_uint_eq(d.items[0].line, 2);
	ck_assert_uint_eq(d.items[0].col, 1);
	ck_assert_str_eq(d.items[0].unit, "Z9");
	ck_assert_ptr_nonnull(strstr(d.items[0].msg, "unknown unit 'Z9'"));
	ck_assert_uint_eq(d.items[1].line, 3);
	ck_assert_uint_eq(d.items[1].col, 3);
	ck_assert_ptr_nonnull(strstr(d.items[1].msg, "belongs to side blue"));
	ord_diag_release(&d);

	ord_diag_init(&d);
	ck_assert_int_eq(ord_game_submit(g, &r, "red", bad_code, strlen(bad_code), &d), ORD_EBADSHEET);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_uint_eq(d.items[0].line, 2);
	ck_assert_uint_eq(d.items[0].col, 6);
	ck_assert_ptr_nonnull(strstr(d.items[0].msg, "unknown code 'FXy'"));
	ord_diag_release(&d);

	ord_diag_init(&d);
	ck_assert_int_eq(ord_game_submit(g, &r, "red", " \n\n", 3, &d), ORD_EBADSHEET);
	ck_assert_uint_ge(d.n, 1);
	ord_diag_release(&d);

	/* nothing stored, nothing logged: bad input changes nothing */
	ck_assert_int_eq(db_int("SELECT count(*) FROM sheet"), 0);
	ck_assert_int_eq(db_int("SELECT count(*) FROM log"), entries);
	expect_info(g, "  red          not submitted");
	ord_game_free(g);
}
END_TEST

/* ---- sealing, NMR, deadlines ---- */

START_TEST(test_seal_rules)
{
	ord_game *g = create(SCENARIO_HOLD);

	/* nothing is sealed while a side is missing, unless forced */
	ck_assert_int_eq(ord_game_seal(g, 0), ORD_ESTATE);
	submit_ok(g, "red", RED_SHEET, NULL);
	ck_assert_int_eq(ord_game_seal(g, 0), ORD_ESTATE);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "blue"));
	expect_info(g, "turn:      1 (open)");
	/* info's last line is the referee's next step */
	expect_info(g, "\nnext:      the sheets of blue (submit), then seal; or seal --force now, "
		       "the NMR policy 'hold' standing in for blue\n");
	submit_ok(g, "blue", BLUE_SHEET, NULL);
	expect_info(g, "\nnext:      seal: every side has submitted\n");
	ck_assert_int_eq(ord_game_seal(g, 0), 0);
	expect_info(g, "turn:      1 (sealed)");
	expect_info(g, "\nnext:      the events of phase ");
	/* sealed: no sheet, no second seal, no deadline change */
	ck_assert_int_eq(submit(g, "blue", BLUE_SHEET, NULL), ORD_ESEALED);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "sealed"));
	ck_assert_int_eq(ord_game_seal(g, 0), ORD_ESTATE);
	ck_assert_int_eq(ord_game_seal(g, 1), ORD_ESTATE);
	ck_assert_int_eq(ord_game_set_deadline(g, (int64_t)time(NULL) + 3600), ORD_ESEALED);
	ck_assert_int_eq(db_int("SELECT count(*) FROM sheet"), 2);
	ck_assert_int_eq(db_int("SELECT count(*) FROM turn WHERE dice_key IS NOT NULL"), 1);
	/* the seal logs the commitments in force */
	ck_assert_int_eq(db_int("SELECT count(*) FROM log WHERE kind = 'seal' AND body LIKE '%%sealed.blue=1:%%' "
				"AND body LIKE '%%sealed.red=1:%%'"),
			 1);
	ord_game_free(g);
}
END_TEST

START_TEST(test_nmr_hold)
{
	ord_game *g = create(SCENARIO_HOLD);
	struct stored s;

	submit_ok(g, "red", RED_SHEET, NULL);
	ck_assert_int_eq(ord_game_seal(g, 1), 0);
	stored_sheet(&s, "blue", 1, 0);
	ck_assert_str_eq(s.source, "hold");
	ck_assert_int_eq(s.version, 1);
	{
		/* the stand-in is the side's sheet, its text what was stored */
		struct ord_buf t = ORD_BUF_INIT;
		int v = 0;
		ck_assert_int_eq(ord_game_side_sheet_text(g, &t, &v, 1, "blue", "blue"), 0);
		ck_assert_int_eq(v, 1);
		ck_assert_uint_eq(t.len, s.len);
		ck_assert_int_eq(memcmp(t.buf, s.bytes, s.len), 0);
		ord_buf_release(&t);
	}
	free(s.bytes);
	expect_info(g, "  blue         no sheet: NMR policy 'hold' applied");
	expect_info(g, "  red          submitted (version 1)");
	ord_game_free(g);
}
END_TEST

START_TEST(test_nmr_wait)
{
	ord_game *g = create(SCENARIO_WAIT);

	submit_ok(g, "red", RED_SHEET, NULL);
	ck_assert_int_eq(ord_game_seal(g, 1), ORD_ESTATE);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "wait"));
	ck_assert_int_eq(ord_game_seal(g, 0), ORD_ESTATE);
	expect_info(g, "turn:      1 (open)");
	expect_info(g, "\nnext:      the sheets of blue (submit), then seal: the NMR policy 'wait' "
		       "seals no turn without them\n");
	ck_assert_int_eq(db_int("SELECT count(*) FROM sheet"), 1);
	submit_ok(g, "blue", BLUE_SHEET, NULL);
	ck_assert_int_eq(ord_game_seal(g, 0), 0);
	ord_game_free(g);
}
END_TEST

START_TEST(test_nmr_repeat)
{
	ord_game *g = create(SCENARIO_REPEAT);
	struct stored t1, t2;
	struct ord_buf out = ORD_BUF_INIT;

	/* turn 1: both sides */
	submit_ok(g, "blue", BLUE_SHEET, NULL);
	submit_ok(g, "red", RED_SHEET, NULL);
	ck_assert_int_eq(ord_game_seal(g, 0), 0);
	ck_assert_int_eq(ord_game_exchange(g), ORD_ESTATE);
	resolve_all(g);
	expect_info(g, "\nnext:      exchange: every phase of the turn is resolved\n");
	ck_assert_int_eq(ord_game_resolve(g, NULL, NULL, 0, &out), ORD_ESTATE);
	ord_buf_release(&out);
	ck_assert_int_eq(ord_game_exchange(g), 0);
	expect_info(g, "turn:      2 (open)");
	/* turn 2: blue is missing and repeats its last sheet */
	submit_ok(g, "red", RED_SHEET, NULL);
	ck_assert_int_eq(ord_game_seal(g, 1), 0);
	stored_sheet(&t1, "blue", 1, 0);
	stored_sheet(&t2, "blue", 2, 0);
	ck_assert_str_eq(t2.source, "repeat");
	ck_assert_uint_eq(t2.len, t1.len);
	ck_assert_int_eq(memcmp(t2.bytes, t1.bytes, t1.len), 0);
	/* a new commitment, for turn 2 */
	ck_assert_int_ne(memcmp(t2.commitment, t1.commitment, 32), 0);
	{
		unsigned char c[32];
		commit_of(c, &t2, 2, "blue", t2.nonce, t2.bytes, t2.len);
		ck_assert_int_eq(memcmp(c, t2.commitment, 32), 0);
	}
	free(t1.bytes);
	free(t2.bytes);
	expect_info(g, "  blue         no sheet: NMR policy 'repeat' applied");
	ord_game_free(g);
}
END_TEST

START_TEST(test_deadline)
{
	ord_game *g = create(SCENARIO_HOLD);

	submit_ok(g, "red", RED_SHEET, NULL);
	/* a deadline to come changes nothing */
	ck_assert_int_eq(ord_game_set_deadline(g, (int64_t)time(NULL) + 3600), 0);
	ck_assert_int_eq(ord_game_seal(g, 0), ORD_ESTATE);
	submit_ok(g, "red", RED_SHEET, NULL);
	/* once it has passed: no sheet; seal without force */
	ck_assert_int_eq(ord_game_set_deadline(g, (int64_t)time(NULL) - 60), 0);
	ck_assert_int_eq(submit(g, "blue", BLUE_SHEET, NULL), ORD_ESTATE);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "deadline"));
	ck_assert_int_eq(submit(g, "red", RED_SHEET, NULL), ORD_ESTATE);
	ck_assert_int_eq(db_int("SELECT count(*) FROM sheet"), 2);
	ck_assert_int_eq(ord_game_seal(g, 0), 0);
	expect_info(g, "  blue         no sheet: NMR policy 'hold' applied");
	ck_assert_int_eq(db_int("SELECT count(*) FROM log WHERE kind = 'deadline'"), 2);
	ord_game_free(g);
}
END_TEST

/* What a deadline's hook is told: the deadline before and after. */
static int deadline_seen(void *ud, ord_game *g, const struct ord_change *c)
{
	int64_t *seen = ud;

	(void)g;
	if (c->kind == ORD_CHANGE_DEADLINE) {
		seen[0] = c->deadline_from;
		seen[1] = c->deadline;
	}
	return 0;
}

/* The deadline the players are told: the turn keeps the end of the
 * schedule's grace after it, as `orderly deadline`, the web page's form
 * and the mail judge's DEADLINE set it; the hook is told the deadline
 * before the change and after it, as the turn keeps both (each front-end
 * read the one before itself, outside the change's transaction). */
START_TEST(test_told_deadline)
{
	ord_game *g = create(SCENARIO_HOLD);
	struct ord_game_status st;
	struct ord_schedule sc;
	int64_t seen[2] = { -1, -1 }, t = (int64_t)time(NULL) + 3 * 3600;

	ck_assert_int_eq(ord_schedule_parse(&sc, "every 48h grace 1h"), 0);
	ck_assert_int_eq(ord_game_set_schedule(g, &sc), 0);
	ord_game_set_hook(g, deadline_seen, seen);
	ck_assert_int_eq(ord_game_set_told_deadline(g, t), 0);
	ck_assert_int_eq(ord_game_status(g, &st), 0);
	ck_assert_int_eq(st.deadline, t + 3600);
	ck_assert_int_eq(seen[0], 0);
	ck_assert_int_eq(seen[1], t + 3600);
	ck_assert_int_eq(ord_game_set_told_deadline(g, 0), 0);
	ck_assert_int_eq(ord_game_status(g, &st), 0);
	ck_assert_int_eq(st.deadline, 0);
	ck_assert_int_eq(seen[0], t + 3600);
	ck_assert_int_eq(seen[1], 0);
	/* ord_game_set_deadline sets what the turn keeps, as given */
	ck_assert_int_eq(ord_game_set_deadline(g, t), 0);
	ck_assert_int_eq(seen[1], t);
	ord_game_set_hook(g, NULL, NULL);
	ord_game_free(g);
}
END_TEST

/* ord_game_read: one snapshot, whatever another connection commits
 * meanwhile; no change inside it. */
struct snap {
	ord_game *other;
	int64_t before, during, after;
	int seal_rc;
};

static int snap_fn(void *ud, ord_game *g)
{
	struct snap *sn = ud;
	struct ord_game_status st;

	ck_assert_int_eq(ord_game_status(g, &st), 0);
	sn->before = st.deadline;
	ck_assert_int_eq(ord_game_set_deadline(sn->other, (int64_t)time(NULL) + 3600), 0);
	ck_assert_int_eq(ord_game_status(g, &st), 0);
	sn->during = st.deadline;
	sn->seal_rc = ord_game_seal(g, 1);
	return 0;
}

START_TEST(test_read_snapshot)
{
	ord_game *g = create(SCENARIO_HOLD);
	struct ord_game_status st;
	struct snap sn = { 0 };

	ord_game_free(g); /* the file's header is written when its creator closes it */
	ck_assert_int_eq(ord_game_open(&g, path), 0);
	ck_assert_int_eq(ord_game_open(&sn.other, path), 0);
	ck_assert_int_eq(ord_game_read(g, snap_fn, &sn), 0);
	ck_assert(sn.before == 0 && sn.during == 0);
	ck_assert_int_eq(sn.seal_rc, ORD_ESTATE);
	ck_assert_int_eq(ord_game_status(g, &st), 0);
	ck_assert(st.deadline > 0);
	expect_info(g, "turn:      1 (open)");
	ord_game_free(sn.other);
	ord_game_free(g);
}
END_TEST

/* ---- events ---- */

/* A load does what its options ask, and only that (struct ord_game_load):
 * a plain one (NULL) reads an event row changed outside orderly as it is,
 * one that holds events refuses it naming the row, and one given a
 * roster digests the units it loads as the turn's opening does. */
START_TEST(test_load_options)
{
	ord_game *g = create(SCENARIO_HOLD);
	struct ord_game_load held = { .hold_events = 1, .roster = NULL };
	struct ord_game_load roster_load = ORD_GAME_LOAD_INIT;
	struct ord_digest roster;
	unsigned char units[32];
	struct ord_ctx ctx;
	struct ord_diag d;
	int logged = 0;

	submit_ok(g, "blue", "B1 ↑ 1/2\n", NULL);
	submit_ok(g, "red", RED_SHEET, NULL);
	ck_assert_int_eq(ord_game_seal(g, 0), 0);
	ord_diag_init(&d);
	ck_assert_int_eq(event(g, "move", NULL, &d, "unit=B1", "distance=4", NULL), 0);
	ord_diag_release(&d);

	/* a roster: the units loaded digested, as the opening logs them */
	ord_digest_init(&roster, ORD_ROSTER_TAG);
	roster_load.roster = &roster;
	ck_assert_int_eq(ord_game_load_ctx(g, &ctx, 1, 1, "movement", &roster_load), 0);
	ck_assert_uint_eq(ctx.nevents, 1);
	ord_ctx_release(&ctx);
	ord_digest_final(&roster, units);
	ck_assert_int_eq(ord_game_live_roster(g, 1, NULL, units, &logged), 0);
	ck_assert_int_eq(logged, 1);
	/* held, the event as logged loads */
	ck_assert_int_eq(ord_game_load_ctx(g, &ctx, 1, 1, "movement", &held), 0);
	ck_assert_uint_eq(ctx.nevents, 1);
	ord_ctx_release(&ctx);

	db_exec("UPDATE event SET args = replace(args, 'distance=4', 'distance=9')");
	/* a plain load reads the row as it is */
	ck_assert_int_eq(ord_game_load_ctx(g, &ctx, 1, 1, "movement", NULL), 0);
	ck_assert_uint_eq(ctx.nevents, 1);
	ck_assert_str_eq(ord_kv_get(&ctx.events[0].kv, "distance"), "9");
	ord_ctx_release(&ctx);
	/* held, it is refused, naming the row */
	ck_assert_int_eq(ord_game_load_ctx(g, &ctx, 1, 1, "movement", &held), ORD_EBADDATA);
	ck_assert_msg(strstr(ord_error_last(), "event #1 of turn 1 (table event) differs from") != NULL,
		      "%s", ord_error_last());
	ord_ctx_release(&ctx);
	/* and the options were the load's alone: the next plain load is plain */
	ck_assert_int_eq(ord_game_load_ctx(g, &ctx, 1, 1, "movement", NULL), 0);
	ord_ctx_release(&ctx);
	ord_game_free(g);
}
END_TEST

START_TEST(test_event_refusal)
{
	ord_game *g = create(SCENARIO_HOLD);
	struct ord_buf out = ORD_BUF_INIT;
	struct ord_diag d;
	int dice[1] = { 3 };

	ord_diag_init(&d);
	submit_ok(g, "blue", "B1 ↑ 1/2\n", NULL);
	submit_ok(g, "red", RED_SHEET, NULL);
	/* not before the seal */
	ck_assert_int_eq(event(g, "move", NULL, &d, "unit=B1", "distance=4", NULL), ORD_ESTATE);
	ord_diag_release(&d);
	ck_assert_int_eq(ord_game_seal(g, 0), 0);

	ord_diag_init(&d);
	ck_assert_int_eq(event(g, "teleport", NULL, &d, "unit=B1", NULL), ORD_EUSAGE);
	ck_assert_ptr_nonnull(strstr(ord_error_last(), "teleport"));
	ord_diag_release(&d);
	/* an event of another phase */
	ord_diag_init(&d);
	ck_assert_int_eq(event(g, "fire", NULL, &d, "unit=R1", "target=B1", "range=5", NULL),
			 ORD_ESTATE);
	ord_diag_release(&d);
	/* an unknown unit */
	ord_diag_init(&d);
	ck_assert_int_eq(event(g, "move", NULL, &d, "unit=Z9", "distance=4", NULL), ORD_EUSAGE);
	/* one event refused for its arguments: the command's usage */
	ck_assert_str_eq(ord_error_last(), "event 'move': 1 bad argument");
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(d.items[0].msg, "unit: unknown unit 'Z9': expected a unit of the game: side "
					 "blue's 'B1' to 'B3'; side red's 'R1' to 'R3'");
	ord_diag_release(&d);
	/* two */
	ord_diag_init(&d);
	ck_assert_int_eq(event(g, "move", NULL, &d, "unit=B1", "distance=x", "bogus=1", NULL),
			 ORD_EUSAGE);
	ck_assert_str_eq(ord_error_last(), "event 'move': 2 bad arguments");
	ord_diag_release(&d);
	/* B3 has no order to move: refused with the reason */
	ord_diag_init(&d);
	ck_assert_int_eq(event(g, "move", NULL, &d, "unit=B3", "distance=5", NULL), ORD_ECHECK);
	ck_assert_uint_ge(d.n, 1);
	ck_assert_ptr_nonnull(strstr(d.items[0].msg, "orders no move"));
	ord_diag_release(&d);
	/* B1 ordered half a move in column (4"), measured 6" */
	ord_diag_init(&d);
	ck_assert_int_eq(event(g, "move", NULL, &d, "unit=B1", "distance=6", NULL), ORD_ECHECK);
	/* not for its arguments: the refusal's own words */
	ck_assert_str_eq(ord_error_last(), "event 'move' disagrees with the sealed orders");
	ord_diag_release(&d);
	ck_assert_int_eq(db_int("SELECT count(*) FROM event"), 0);
	/* an override needs a reason */
	ord_diag_init(&d);
	ck_assert_int_eq(event(g, "move", "", &d, "unit=B3", "distance=5", NULL), ORD_EUSAGE);
	ord_diag_release(&d);
	ck_assert_int_eq(db_int("SELECT count(*) FROM event"), 0);
	/* with one, the event is kept and the override recorded */
	ord_diag_init(&d);
	ck_assert_int_eq(event(g, "move", "the umpire saw it", &d, "unit=B3", "distance=5", NULL), 0);
	ord_diag_release(&d);
	ord_diag_init(&d);
	ck_assert_int_eq(event(g, "move", NULL, &d, "unit=B1", "distance=4", NULL), 0);
	ord_diag_release(&d);
	ck_assert_int_eq(db_int("SELECT count(*) FROM event"), 2);
	ck_assert_int_eq(db_int("SELECT count(*) FROM event WHERE override = 'the umpire saw it'"), 1);
	/* what the checks said, stored with it: each problem's "msg (rule)" */
	ck_assert_int_eq(db_int("SELECT count(*) FROM event WHERE override = 'the umpire saw it' AND "
				"checks = 'unit ''B3'': unit ''B3'' moved 5\" but its sheet orders no "
				"move (orders may never be changed)'"),
			 1);
	/* B1 moved once already */
	ord_diag_init(&d);
	ck_assert_int_eq(event(g, "move", NULL, &d, "unit=B1", "distance=1", NULL), ORD_ECHECK);
	ord_diag_release(&d);

	/* dice are not the referee's to give in a real game */
	ck_assert_int_eq(ord_game_resolve(g, NULL, dice, 1, &out), ORD_EUSAGE);
	ck_assert_int_eq(ord_game_resolve(g, "fire", NULL, 0, &out), ORD_ESTATE);
	ck_assert_int_eq(ord_game_exchange(g), ORD_ESTATE);
	ck_assert_int_eq(ord_game_resolve(g, "movement", NULL, 0, &out), 0);
	ck_assert_ptr_nonnull(strstr(out.buf, "2 events"));
	ord_buf_release(&out);
	/* the movement phase is over */
	ord_diag_init(&d);
	ck_assert_int_eq(event(g, "move", NULL, &d, "unit=R1", "distance=1", NULL), ORD_ESTATE);
	ord_diag_release(&d);
	ord_game_free(g);
}
END_TEST

/* A refusal that names the command line's way out says which and where
 * (ord_error_way), for a front-end to say its own there: a seal waiting
 * for a side (seal --force), a phase with no event while an order waits
 * for one (to the end); any other error, or one set after, names none. */
START_TEST(test_error_way)
{
	ord_game *g = create(SCENARIO_HOLD);
	struct ord_resolve_opts o = { .phase = "movement" };
	struct ord_buf out = ORD_BUF_INIT;
	const char *m;
	size_t at = 9, len = 9, waiting = 0;

	submit_ok(g, "blue", "B1 ↑ 1/2\n", NULL);
	ck_assert_int_eq(ord_game_seal(g, 0), ORD_ESTATE);
	m = ord_error_last();
	ck_assert_int_eq(ord_error_way(&at, &len), ORD_WAY_SEAL_FORCE);
	ck_assert_uint_eq(len, strlen("seal --force seals now"));
	ck_assert(!strncmp(m + at, "seal --force seals now", len));
	ck_assert_str_eq(m + at + len, "; missing sides follow the NMR policy 'hold')");
	ck_assert_str_eq(m, "cannot seal turn 1: waiting for red (seal --force seals now; missing "
			    "sides follow the NMR policy 'hold')");
	ord_error_set(ORD_ESTATE, "%s", m); /* the same words, set again: no way */
	ck_assert_int_eq(ord_error_way(&at, &len), ORD_WAY_NONE);
	ck_assert_uint_eq(at + len, 0);
	ck_assert_int_eq(ord_game_seal(g, 1), 0);
	o.waiting = &waiting;
	ck_assert_int_eq(ord_game_resolve_opts(g, &o, &out), ORD_ESTATE);
	ck_assert_uint_eq(waiting, 1);
	m = ord_error_last();
	ck_assert_int_eq(ord_error_way(&at, &len), ORD_WAY_RESOLVE_EMPTY);
	ck_assert_uint_eq(at + len, strlen(m));
	ck_assert(!strncmp(m + at, "; record them with `orderly event`, or add --empty", 50));
	ck_assert_msg(!strncmp(m, "phase movement has no events, but 1 unit waits for one in it", 60),
		      "%s", m);
	ord_error_clear();
	ck_assert_int_eq(ord_error_way(&at, &len), ORD_WAY_NONE);
	ord_buf_release(&out);
	ord_game_free(g);
}
END_TEST

/* ---- a whole turn, its audit and its dice ---- */

START_TEST(test_audit_whole_turn)
{
	ord_game *g = create(SCENARIO_HOLD);
	struct ord_buf out = ORD_BUF_INIT;
	unsigned char key[32];
	struct ord_diag d;
	sqlite3 *db;
	sqlite3_stmt *st;
	size_t i;
	int nrolls = 0;

	submit_ok(g, "blue", "B1 ^NE 1/4\n", NULL);
	submit_ok(g, "red", RED_SHEET, NULL);
	ck_assert_int_eq(ord_game_seal(g, 0), 0);
	for (i = 0; i < sizeof(PHASES) / sizeof(PHASES[0]); i++) {
		ord_diag_init(&d);
		if (i == 0)
			ck_assert_int_eq(event(g, "move", NULL, &d, "unit=B1", "distance=2", NULL), 0);
		if (i == 1)
			ck_assert_int_eq(event(g, "fire", NULL, &d, "unit=R1", "target=B1",
					       "range=5", NULL),
					 0);
		ord_diag_release(&d);
		{
			struct ord_resolve_opts o = { .phase = PHASES[i], .empty = 1 };
			ck_assert_msg(ord_game_resolve_opts(g, &o, &out) == 0, "%s: %s", PHASES[i],
				      ord_error_last());
		}
	}
	ord_buf_release(&out);
	ck_assert_int_eq(ord_game_exchange(g), 0);
	ck_assert_int_eq(ord_game_audit(g, 0, &out), 0);
	ck_assert_msg(strstr(out.buf, "clean") != NULL, "%s", out.buf);
	{
		/* the web page's audit names the game by its page's name, the
		 * rest as the command's (its path in the first line only) */
		struct ord_buf named = ORD_BUF_INIT, want = ORD_BUF_INIT;
		const char *rest = strchr(out.buf, '\n');

		ck_assert_int_eq(ord_game_audit_named(g, 0, "cross", &named), 0);
		ord_buf_addf(&want, "audit of '%s':", path);
		ck_assert(!strncmp(out.buf, want.buf, want.len) && out.buf + want.len == rest);
		ord_buf_reset(&want);
		ord_buf_addf(&want, "audit of 'cross':%s", rest);
		ck_assert_str_eq(named.buf, want.buf);
		ord_buf_release(&named);
		ord_buf_release(&want);
	}
	ord_buf_release(&out);
	ck_assert_int_eq(ord_game_audit(g, 1, &out), 0);
	ord_buf_release(&out);
	ck_assert_int_eq(ord_game_audit(g, 9, &out), ORD_ENOTFOUND);
	ord_buf_release(&out);

	/* every roll is the face the dice key gives its identity */
	db = db_open();
	st = db_query(db, "SELECT dice_key FROM turn WHERE turn = 1");
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	copy_blob(st, 0, key, 32);
	sqlite3_finalize(st);
	st = db_query(db,
		      "SELECT phase, event_seq, purpose, idx, sides, value FROM roll WHERE turn = 1");
	while (sqlite3_step(st) == SQLITE_ROW) {
		int want = ord_dice_face(key, (const char *)sqlite3_column_text(st, 0),
					 (unsigned)sqlite3_column_int(st, 1),
					 (const char *)sqlite3_column_text(st, 2),
					 (unsigned)sqlite3_column_int(st, 3),
					 (unsigned)sqlite3_column_int(st, 4));
		ck_assert_int_eq(sqlite3_column_int(st, 5), want);
		nrolls++;
	}
	sqlite3_finalize(st);
	ck_assert_int_ge(nrolls, 1);

	/* an edited log entry is found */
	ck_assert_int_eq(sqlite3_exec(db, "UPDATE log SET body = body || 'x=1' || char(10) WHERE kind = 'seal'",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	ck_assert_int_eq(ord_game_audit(g, 0, &out), ORD_ETAMPERED);
	ck_assert_msg(strstr(out.buf, "(seal, turn 1): its content does not match its hash") != NULL,
		      "%s", out.buf);
	ord_buf_release(&out);
	ord_game_free(g);
}
END_TEST

/* ---- dice ---- */

static const unsigned char KEY[32] = {
	0x6f, 0x72, 0x64, 0x65, 0x72, 0x6c, 0x79, 0x2d, 0x74, 0x65, 0x73,
	0x74, 0x2d, 0x6b, 0x65, 0x79, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06,
	0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
};

/* How many of n identities (index 0..n-1) give another face under a change. */
static int differ(const unsigned char *key2, const char *phase2, unsigned seq2,
		  const char *purpose2, unsigned sides2, int n)
{
	int i, diff = 0;

	for (i = 0; i < n; i++)
		if (ord_dice_face(KEY, "fire", 1, "hits", (unsigned)i, 6) !=
		    ord_dice_face(key2, phase2, seq2, purpose2, (unsigned)i, sides2))
			diff++;
	return diff;
}

START_TEST(test_dice_face)
{
	static const unsigned sides[] = { 2, 3, 6, 10, 20, 100 };
	unsigned char key2[32];
	int counts[7] = { 0 };
	size_t s;
	int i, seen_all;

	/* the same identity, the same face */
	for (i = 0; i < 50; i++)
		ck_assert_int_eq(ord_dice_face(KEY, "fire", 1, "hits", (unsigned)i, 6),
				 ord_dice_face(KEY, "fire", 1, "hits", (unsigned)i, 6));
	/* faces in 1..sides, every face turns up */
	for (s = 0; s < sizeof(sides) / sizeof(sides[0]); s++) {
		char seen[101] = { 0 };
		seen_all = 1;
		for (i = 0; i < 3000; i++) {
			int f = ord_dice_face(KEY, "melee", 2, "score", (unsigned)i, sides[s]);
			ck_assert_msg(f >= 1 && f <= (int)sides[s], "d%u gave %d", sides[s], f);
			seen[f] = 1;
		}
		for (i = 1; i <= (int)sides[s]; i++)
			seen_all &= seen[i];
		ck_assert_msg(seen_all, "not every face of a d%u turned up in 3000 rolls", sides[s]);
	}
	/* a d6 is fair: each face within 20% of n/6 (the key is fixed, so
	 * this is deterministic) */
	for (i = 0; i < 6000; i++)
		counts[ord_dice_face(KEY, "fire-morale", 0, "morale B1", (unsigned)i, 6)]++;
	for (i = 1; i <= 6; i++)
		ck_assert_msg(counts[i] > 800 && counts[i] < 1200, "face %d came %d times in 6000",
			      i, counts[i]);
	/* every part of the identity, and the key, changes the faces */
	memcpy(key2, KEY, 32);
	key2[31] ^= 1;
	ck_assert_int_eq(differ(KEY, "fire", 1, "hits", 6, 64), 0);
	ck_assert_int_gt(differ(key2, "fire", 1, "hits", 6, 64), 20);
	ck_assert_int_gt(differ(KEY, "melee", 1, "hits", 6, 64), 20);
	ck_assert_int_gt(differ(KEY, "fire", 2, "hits", 6, 64), 20);
	ck_assert_int_gt(differ(KEY, "fire", 1, "morale", 6, 64), 20);
	ck_assert_int_gt(differ(KEY, "fire", 1, "hits", 20, 64), 20);
	/* the index too: one identity's faces are not all alike */
	for (i = 1, seen_all = 0; i < 64; i++)
		if (ord_dice_face(KEY, "fire", 1, "hits", (unsigned)i, 6) !=
		    ord_dice_face(KEY, "fire", 1, "hits", 0, 6))
			seen_all++;
	ck_assert_int_gt(seen_all, 20);
}
END_TEST

START_TEST(test_every_problem_in_one_pass)
{
	ord_game *g = create(SCENARIO_HOLD);
	/* line 1: a unit the game does not have (a rule); line 2: a code the
	 * notation does not know (syntax); line 3 fine */
	static const char sheet[] = "B9 ↑ 1/2\nB1 FXy\nB2 Fb @R1\n";
	struct ord_diag d;
	int rc;

	ord_diag_init(&d);
	rc = ord_game_submit(g, NULL, "blue", sheet, strlen(sheet), &d);
	ck_assert_int_eq(rc, ORD_EBADSHEET);
	/* both, in one reply, in the sheet's order */
	ck_assert_uint_eq(d.n, 2);
	ck_assert_uint_eq(d.items[0].line, 1);
	ck_assert_msg(strstr(d.items[0].msg, "B9"), "%s", d.items[0].msg);
	ck_assert_uint_eq(d.items[1].line, 2);
	ck_assert_msg(strstr(d.items[1].msg, "FXy"), "%s", d.items[1].msg);
	ord_diag_release(&d);
	ord_game_free(g);
}
END_TEST

/* A sheet's problems are listed up to ORD_DIAG_MAX_LISTED whoever finds
 * them: here 500 syntax errors (the reader) and 1999 second orders (the
 * ruleset's checks); the rest are counted, the count comes last, and the
 * summary and the log give the real total. */
START_TEST(test_sheet_problems_capped)
{
	ord_game *g = create(SCENARIO_HOLD);
	struct ord_buf sheet = ORD_BUF_INIT, out = ORD_BUF_INIT;
	struct ord_diag d;
	const char *first, *last;
	size_t i;

	for (i = 0; i < 500; i++)
		ord_buf_adds(&sheet, "R2 → FXy\n");
	for (i = 0; i < 2000; i++)
		ord_buf_adds(&sheet, "R1 ↑ 1/4\n");
	ord_diag_init(&d);
	ck_assert_int_eq(ord_game_submit(g, NULL, "red", sheet.buf, sheet.len, &d), ORD_EBADSHEET);
	ck_assert_uint_eq(d.n, ORD_DIAG_MAX_LISTED);
	ck_assert_uint_eq(ord_diag_count(&d), 2499);
	ck_assert_uint_eq(d.more, 2499 - ORD_DIAG_MAX_LISTED);
	ck_assert_str_eq(ord_error_last(), "sheet rejected: 2499 problems");
	/* in the sheet's order: the syntax errors, then the second orders */
	ck_assert_uint_eq(d.items[0].line, 1);
	ck_assert_ptr_nonnull(strstr(d.items[0].msg, "unknown code 'FXy'"));
	ck_assert_uint_eq(d.items[500].line, 502);
	ck_assert_ptr_nonnull(strstr(d.items[500].msg, "second order for unit 'R1'"));
	/* the count of those not listed after the listed ones, not first */
	ord_diag_format(&d, "s.txt", &out);
	first = "s.txt:1:6: unit 'R2': unknown code 'FXy'";
	ck_assert_msg(!strncmp(out.buf, first, strlen(first)), "%.80s", out.buf);
	last = strrchr(out.buf, '\n');
	ck_assert_ptr_nonnull(last);
	while (last > out.buf && last[-1] != '\n')
		last--;
	ck_assert_str_eq(last, "s.txt: 1499 more problems not listed\n");
	ck_assert_ptr_null(strstr(out.buf, "not listed\ns.txt"));
	ord_buf_release(&out);
	ord_buf_release(&sheet);
	ord_diag_release(&d);
	ord_game_free(g);
}
END_TEST

/* ord_diag_add keeps the cap for any caller, and a problem names its unit
 * once: the "unit 'U': " before the message only when the message does
 * not name it. */
START_TEST(test_diag_cap_and_unit_once)
{
	struct ord_diag d;
	struct ord_buf out = ORD_BUF_INIT;
	size_t i;

	ord_diag_init(&d);
	ord_diag_add(&d, 1, 1, "A1", "orders", "unit '%s' belongs to side allied, not french", "A1");
	ord_diag_add(&d, 2, 3, "F1", NULL, "bad fraction '1/3'");
	ord_diag_add(&d, 3, 1, "F2", "fire", "target 'F22' is a unit of your own side");
	ord_diag_add(&d, 4, 1, "G1", NULL, "gun 'G1' is already unlimbered");
	ord_diag_format(&d, NULL, &out);
	ck_assert_str_eq(out.buf, "1:1: unit 'A1' belongs to side allied, not french (orders)\n"
				  "2:3: unit 'F1': bad fraction '1/3'\n"
				  "3:1: unit 'F2': target 'F22' is a unit of your own side (fire)\n"
				  "4:1: gun 'G1' is already unlimbered\n");
	for (i = 4; i < ORD_DIAG_MAX_LISTED + 2; i++)
		ord_diag_add(&d, (unsigned)i + 1, 1, "", NULL, "problem %zu", i);
	ord_diag_add_unlisted(&d);
	ck_assert(ord_diag_full(&d));
	ck_assert_uint_eq(d.n, ORD_DIAG_MAX_LISTED);
	ck_assert_uint_eq(ord_diag_count(&d), ORD_DIAG_MAX_LISTED + 3);
	ord_buf_reset(&out);
	ord_diag_format(&d, "f", &out);
	ck_assert_msg(strstr(out.buf, "f:1000:1: problem 999\nf: 3 more problems not listed\n") != NULL,
		      "%s", out.buf + out.len - 80);
	ord_diag_release(&d);
	ck_assert_uint_eq(ord_diag_count(&d), 0);
	/* a problem with a unit's attribute names it; the others name none */
	ord_diag_add(&d, 1, 2, "A1", NULL, "plain");
	ord_diag_add_attr(&d, "A2", "kind", "table 'kinds'", "kind: unknown '%s'", "x");
	ck_assert_str_eq(d.items[0].attr, "");
	ck_assert_str_eq(d.items[1].attr, "kind");
	ck_assert_uint_eq(d.items[1].line, 0);
	ck_assert_str_eq(d.items[1].msg, "kind: unknown 'x'");
	ord_diag_truncate(&d, 1);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(d.items[0].msg, "plain");
	ord_diag_release(&d);
	ord_buf_release(&out);
}
END_TEST

/* A message that names an event by number says where (ord_diag_item_event),
 * for the core to name it otherwise (a refused batch: by its line) without
 * reading the words; a problem only counted takes none of it; and
 * ord_diag_item_format writes "msg (rule)" as every front-end does. */
START_TEST(test_diag_item_names_events)
{
	struct ord_diag_item *it;
	struct ord_buf out = ORD_BUF_INIT;
	struct ord_diag d;
	size_t i;

	ord_diag_init(&d);
	it = ord_diag_add(&d, 0, 0, "R1", "orders", "unit '%s' already moved (", "R1");
	ck_assert_ptr_eq(it, &d.items[0]);
	ord_diag_item_event(it, 4);
	ord_diag_item_addf(it, ") and met ");
	ord_diag_item_event(it, 12);
	ord_diag_item_addf(it, "%s", " too");
	ck_assert_str_eq(it->msg, "unit 'R1' already moved (event #4) and met event #12 too");
	ck_assert_uint_eq(it->nrefs, 2);
	ck_assert_uint_eq(it->refs[0].seq, 4);
	ck_assert_uint_eq(it->refs[0].at, 25);
	ck_assert_uint_eq(it->refs[0].len, 8);
	ck_assert_uint_eq(it->refs[1].seq, 12);
	ck_assert_uint_eq(it->refs[1].at, 43);
	ck_assert_uint_eq(it->refs[1].len, 9);
	ck_assert(!strncmp(it->msg + it->refs[1].at, "event #12", it->refs[1].len));
	ord_diag_item_format(&out, it);
	ck_assert_str_eq(out.buf, "unit 'R1' already moved (event #4) and met event #12 too (orders)");
	ord_buf_reset(&out);
	ord_diag_item_format(&out, ord_diag_add(&d, 0, 0, NULL, NULL, "no rule"));
	ck_assert_str_eq(out.buf, "no rule");
	for (i = d.n; i < ORD_DIAG_MAX_LISTED; i++)
		ck_assert_ptr_nonnull(ord_diag_add(&d, 0, 0, NULL, NULL, "p"));
	/* the list full: counted, and what would go in it is let go */
	it = ord_diag_add(&d, 0, 0, NULL, NULL, "past the cap (");
	ck_assert_ptr_null(it);
	ord_diag_item_event(it, 5);
	ord_diag_item_addf(it, ")");
	ck_assert_uint_eq(ord_diag_count(&d), ORD_DIAG_MAX_LISTED + 1);
	ord_diag_release(&d);
	ord_buf_release(&out);
}
END_TEST

/* ord_diag_add_citing writes "MSG (event #SEQ)" and notes the event as
 * ord_diag_item_event does, for more to be appended; a problem only
 * counted takes none of it. */
START_TEST(test_diag_add_citing)
{
	struct ord_diag_item *it;
	struct ord_diag d;
	size_t i;

	ord_diag_init(&d);
	it = ord_diag_add_citing(&d, 3, 7, "R1", "orders", 4, "unit '%s' already moved", "R1");
	ck_assert_ptr_eq(it, &d.items[0]);
	ck_assert_str_eq(it->msg, "unit 'R1' already moved (event #4)");
	ck_assert_uint_eq(it->line, 3);
	ck_assert_uint_eq(it->col, 7);
	ck_assert_str_eq(it->unit, "R1");
	ck_assert_str_eq(it->rule, "orders");
	ck_assert_uint_eq(it->nrefs, 1);
	ck_assert_uint_eq(it->refs[0].seq, 4);
	ck_assert_uint_eq(it->refs[0].at, 25);
	ck_assert_uint_eq(it->refs[0].len, 8);
	ord_diag_item_addf(it, ": a %s does not move", "gun");
	ck_assert_str_eq(it->msg, "unit 'R1' already moved (event #4): a gun does not move");
	it = ord_diag_add_citing(&d, 0, 0, NULL, NULL, 12, "a support supports one unit");
	ck_assert_str_eq(it->msg, "a support supports one unit (event #12)");
	ck_assert_str_eq(it->unit, "");
	ck_assert_uint_eq(it->refs[0].at, 29);
	ck_assert_uint_eq(it->refs[0].len, 9);
	for (i = d.n; i < ORD_DIAG_MAX_LISTED; i++)
		ck_assert_ptr_nonnull(ord_diag_add(&d, 0, 0, NULL, NULL, "p"));
	ck_assert_ptr_null(ord_diag_add_citing(&d, 0, 0, NULL, NULL, 5, "past the cap"));
	ck_assert_uint_eq(ord_diag_count(&d), ORD_DIAG_MAX_LISTED + 1);
	ord_diag_release(&d);
}
END_TEST

/* The reading shows the lines not understood, and the orders the rules
 * refused (R9 is no unit of the game), as comments, in their place: R9's
 * order showed as if accepted. */
START_TEST(test_check_sheet_reading_marks_lines_not_understood)
{
	ord_game *g = create(SCENARIO_HOLD);
	struct ord_buf reading = ORD_BUF_INIT;
	struct ord_diag d;
	static const char sheet[] = "R1 ↑ 1/4\nR2 → FXy FXy\n# a comment\n\nR9 ↑ 1/2\nR2 ?\n";

	ord_diag_init(&d);
	ck_assert_int_eq(ord_game_check_sheet(g, "red", sheet, strlen(sheet), &d, &reading),
			 ORD_EBADSHEET);
	ck_assert_str_eq(reading.buf, "R1: ↑ 1/4\n"
				      "# line 2 not understood (see its problems)\n"
				      "# line 5 not accepted (see its problems): R9: ↑ 1/2\n"
				      "# line 6 not understood (see its problems)\n");
	{
		/* the same, with its marks: where each line no order was
		 * accepted of starts, the sheet's line, and a refused order's
		 * own text (what the web page strikes out) */
		struct ord_buf again = ORD_BUF_INIT;
		struct ord_reading_marks m;
		const char *refused = strstr(reading.buf, "# line 5");

		memset(&m, 0, sizeof(m));
		ord_diag_release(&d);
		ck_assert_int_eq(ord_game_check_sheet_marked(g, "red", sheet, strlen(sheet), &d,
							     &again, &m),
				 ORD_EBADSHEET);
		ck_assert_str_eq(again.buf, reading.buf);
		ck_assert_uint_eq(m.n, 3);
		ck_assert_uint_eq(m.items[0].at, strlen("R1: ↑ 1/4\n"));
		ck_assert_uint_eq(m.items[0].line, 2);
		ck_assert_int_eq(m.items[0].refused, 0);
		ck_assert_uint_eq(m.items[1].at, (size_t)(refused - reading.buf));
		ck_assert_uint_eq(m.items[1].line, 5);
		ck_assert_int_eq(m.items[1].refused, 1);
		ck_assert_str_eq(again.buf + m.items[1].order,
				 "R9: ↑ 1/2\n# line 6 not understood (see its problems)\n");
		ck_assert_uint_eq(m.items[2].line, 6);
		ck_assert_int_eq(m.items[2].refused, 0);
		ck_assert(!strcmp(again.buf + m.items[2].at,
				  "# line 6 not understood (see its problems)\n"));
		ord_reading_marks_release(&m);
		ck_assert_uint_eq(m.n, 0);
		ord_buf_release(&again);
	}
	ord_buf_release(&reading);
	ord_diag_release(&d);
	ord_game_free(g);
}
END_TEST

START_TEST(test_check_sheet_stores_nothing)
{
	ord_game *g = create(SCENARIO_HOLD);
	struct ord_buf reading = ORD_BUF_INIT;
	struct ord_diag d;
	char *text;

	ord_diag_init(&d);
	ck_assert_int_eq(ord_game_check_sheet(g, "blue", BLUE_SHEET, strlen(BLUE_SHEET), &d, &reading),
			 0);
	ck_assert_uint_eq(d.n, 0);
	/* the reading: each order as the notation prints it, comments gone */
	ck_assert_msg(strstr(reading.buf, "B1: ↑ 1/2\nB2: Fb @R1\n") != NULL, "reading: %s",
		      reading.buf);
	ck_assert_ptr_null(strstr(reading.buf, "comment"));
	ord_buf_reset(&reading);
	ck_assert_int_eq(ord_game_check_sheet(g, "red", "R9 ↑ 1/2\nR1 ↑ 1/4\n", 20, &d, &reading),
			 ORD_EBADSHEET);
	ck_assert_uint_ge(d.n, 1);
	ck_assert_int_eq(ord_game_check_sheet(g, "green", BLUE_SHEET, strlen(BLUE_SHEET), &d, NULL),
			 ORD_ENOTFOUND);
	text = info(g, 0);
	ck_assert_ptr_null(strstr(text, "submitted (version"));
	free(text);
	ord_buf_release(&reading);
	ord_diag_release(&d);
	ord_game_free(g);
}
END_TEST

/* ---- the change hook and ord_game_transact ---- */

struct seen {
	char kinds[256]; /* one letter per change: S submit, R reject, L seal, E event, V resolve, X exchange */
	int fail_on; /* a kind to refuse (0: none) */
	char held[64];
	int last_phase;
};

static int hook(void *ud, ord_game *g, const struct ord_change *c)
{
	struct seen *s = ud;
	static const char letter[] = "?SCOLEVXDNKW";
	size_t n = strlen(s->kinds);

	(void)g;
	if (n + 1 < sizeof(s->kinds))
		s->kinds[n] = letter[c->kind];
	if (c->kind == ORD_CHANGE_SEAL)
		snprintf(s->held, sizeof(s->held), "%s", c->held);
	if (c->kind == ORD_CHANGE_RESOLVE && c->last_phase)
		s->last_phase = 1;
	if ((int)c->kind == s->fail_on)
		return ord_error_set(ORD_ESTATE, "the hook refused");
	return 0;
}

static int in_tx(void *ud, ord_game *g)
{
	(void)ud;
	/* a change inside a transaction of the caller's is refused */
	return submit(g, "blue", BLUE_SHEET, NULL);
}

START_TEST(test_change_hook)
{
	ord_game *g = create(SCENARIO_HOLD);
	struct seen s;
	struct ord_buf out = ORD_BUF_INIT;
	char *text;

	memset(&s, 0, sizeof(s));
	ord_game_set_hook(g, hook, &s);
	/* a hook that fails rolls the change back: no sheet, the error returned */
	s.fail_on = ORD_CHANGE_SUBMIT;
	ck_assert_int_eq(submit(g, "blue", BLUE_SHEET, NULL), ORD_ESTATE);
	ck_assert_str_eq(ord_error_last(), "the hook refused");
	text = info(g, 0);
	ck_assert_ptr_nonnull(strstr(text, "not submitted"));
	free(text);
	s.fail_on = 0;
	submit_ok(g, "blue", BLUE_SHEET, NULL);
	ck_assert_int_eq(submit(g, "red", "R9 ↑ 1/2\n", NULL), ORD_EBADSHEET);
	ck_assert_int_eq(ord_game_seal(g, 1), 0);
	resolve_all(g);
	ck_assert_int_eq(ord_game_exchange(g), 0);
	/* S (the refused one, rolled back), S, L, five V, X: the bad sheet
	 * changed nothing, so no change was told */
	ck_assert_str_eq(s.kinds, "SSLVVVVVX");
	ck_assert_str_eq(s.held, "red");
	ck_assert_int_eq(s.last_phase, 1);
	/* changes cannot nest inside ord_game_transact */
	ck_assert_int_eq(ord_game_transact(g, in_tx, NULL), ORD_ESTATE);
	ck_assert_int_eq(ord_game_audit(g, 0, &out), 0);
	ord_buf_release(&out);
	ord_game_free(g);
}
END_TEST

static int found_unit(void *ud, const struct ord_store_unit *u)
{
	struct ord_buf *b = ud;

	ord_buf_addf(b, "%s:%s,", u->uid, u->side);
	return 0;
}

/* The units a sheet names, looked up in one statement (a submit's): by
 * id first, else by name whatever its case, a name named twice twice, a
 * name of no unit nothing, and a name JSON must escape read as written. */
START_TEST(test_units_found_at_once)
{
	static const char *const names[] = { "R1", "red rifles", "Z9", "R1", "1st \"Red\\", "B3" };
	ord_game *g = create(SCENARIO_HOLD);
	struct ord_buf b = ORD_BUF_INIT;
	sqlite3 *db;

	ord_game_free(g);
	db = db_open();
	ck_assert_int_eq(ord_store_units_find(db, names, 6, found_unit, &b), 0);
	ck_assert_str_eq(b.buf, "R1:red,R1:red,B3:blue,R2:red,");
	ord_buf_reset(&b);
	ck_assert_int_eq(ord_store_units_find(db, names, 0, found_unit, &b), 0);
	ck_assert_uint_eq(b.len, 0);
	ord_store_stmt_finalize_all(db);
	sqlite3_close(db);
	ord_buf_release(&b);
}
END_TEST

static int side_unit(void *ud, const struct ord_store_unit *u)
{
	struct ord_buf *b = ud;

	ord_buf_addf(b, "%s:%s:%s,", u->uid, u->side,
		     !*u->state                     ? "-"
		     : strstr(u->state, "figures=") ? "s"
						    : "?");
	return 0;
}

static void side_units(sqlite3 *db, int64_t side_id, const char *side, const char *want)
{
	struct ord_buf b = ORD_BUF_INIT;

	ck_assert_int_eq(ord_store_units_now(db, side_id, side, side_unit, &b), 0);
	ck_assert_str_eq(b.buf ? b.buf : "", want);
	ord_buf_release(&b);
}

/* A side's units with their current state (a submit's load), in the
 * order of their ids: read along the ids from the side's first to its
 * last when they stand together (another side's unit among them
 * skipped), down the index of a side's units when the sides are mixed
 * (here a third side makes red's ids span more than twice its share). */
START_TEST(test_side_units_now)
{
	ord_game *g = create(SCENARIO_HOLD);
	sqlite3 *db;
	int64_t id, green;

	ord_game_free(g);
	db = db_open();
	side_units(db, 1, "blue", "B1:blue:s,B2:blue:s,B3:blue:s,");
	side_units(db, 2, "red", "R1:red:s,R2:red:s,R3:red:s,");
	side_units(db, 3, "green", "");
	/* a blue unit after red's, then a red one: no state of their own */
	ck_assert_int_eq(ord_store_unit_insert(db, &id, "B4", "Blue Four", 1, "kind=line_infantry\n"),
			 0);
	ck_assert_int_eq(ord_store_unit_insert(db, &id, "R4", "Red Four", 2, "kind=line_infantry\n"),
			 0);
	side_units(db, 1, "blue", "B1:blue:s,B2:blue:s,B3:blue:s,B4:blue:-,");
	side_units(db, 2, "red", "R1:red:s,R2:red:s,R3:red:s,R4:red:-,");
	/* three sides, red's ids 4 to 13 of 13 units: mixed */
	ck_assert_int_eq(ord_store_side_insert(db, &green, "green", "Green", NULL), 0);
	ck_assert_int_eq(ord_store_unit_insert(db, &id, "G1", "Green One", green, "kind=line_infantry\n"),
			 0);
	ck_assert_int_eq(ord_store_unit_insert(db, &id, "B5", "Blue Five", 1, "kind=line_infantry\n"),
			 0);
	ck_assert_int_eq(ord_store_unit_insert(db, &id, "B6", "Blue Six", 1, "kind=line_infantry\n"),
			 0);
	ck_assert_int_eq(ord_store_unit_insert(db, &id, "B7", "Blue Seven", 1, "kind=line_infantry\n"),
			 0);
	ck_assert_int_eq(ord_store_unit_insert(db, &id, "R5", "Red Five", 2, "kind=line_infantry\n"),
			 0);
	ck_assert_int_eq(id, 13);
	side_units(db, 2, "red", "R1:red:s,R2:red:s,R3:red:s,R4:red:-,R5:red:-,");
	side_units(db, 1, "blue",
		   "B1:blue:s,B2:blue:s,B3:blue:s,B4:blue:-,B5:blue:-,B6:blue:-,B7:blue:-,");
	side_units(db, green, "green", "G1:green:-,");
	ord_store_stmt_finalize_all(db);
	sqlite3_close(db);
}
END_TEST

Suite *ord_test_suite(void);
Suite *ord_test_suite(void)
{
	Suite *s = suite_create("game");
	TCase *files = tcase_create("files");
	TCase *sheets = tcase_create("sheets");
	TCase *seal = tcase_create("seal");
	TCase *events = tcase_create("events");
	TCase *dice = tcase_create("dice");

	tcase_add_checked_fixture(files, setup, teardown);
	tcase_add_test(files, test_create_open);
	tcase_add_test(files, test_made_core);
	tcase_add_test(files, test_receipt_commit_syncs_again_after);
	tcase_add_test(files, test_receipt_commit_not_checkpointed_unsynced);
	tcase_add_test(files, test_checkpoint_gives_up_at_its_limit);
	tcase_add_test(files, test_units_found_at_once);
	tcase_add_test(files, test_side_units_now);
	tcase_add_test(files, test_create_refused_leaves_nothing);
	tcase_add_test(files, test_open_refuses);
	tcase_add_test(files, test_open_keeps_the_locks_of_the_process);
	suite_add_tcase(s, files);

	tcase_add_checked_fixture(sheets, setup, teardown);
	tcase_add_test(sheets, test_submit_receipt_and_commitment);
	tcase_add_test(sheets, test_resubmission_versions);
	tcase_add_test(sheets, test_submit_based_on);
	tcase_add_test(sheets, test_submit_warnings);
	tcase_add_test(sheets, test_side_sheet_text);
	tcase_add_test(sheets, test_rejected_sheet);
	tcase_add_test(sheets, test_check_sheet_stores_nothing);
	tcase_add_test(sheets, test_every_problem_in_one_pass);
	tcase_add_test(sheets, test_sheet_problems_capped);
	tcase_add_test(sheets, test_diag_cap_and_unit_once);
	tcase_add_test(sheets, test_diag_item_names_events);
	tcase_add_test(sheets, test_diag_add_citing);
	tcase_add_test(sheets, test_error_way);
	tcase_add_test(sheets, test_check_sheet_reading_marks_lines_not_understood);
	suite_add_tcase(s, sheets);

	tcase_add_checked_fixture(seal, setup, teardown);
	tcase_add_test(seal, test_seal_rules);
	tcase_add_test(seal, test_nmr_hold);
	tcase_add_test(seal, test_nmr_wait);
	tcase_add_test(seal, test_nmr_repeat);
	tcase_add_test(seal, test_deadline);
	tcase_add_test(seal, test_told_deadline);
	tcase_add_test(seal, test_read_snapshot);
	suite_add_tcase(s, seal);

	tcase_add_checked_fixture(events, setup, teardown);
	tcase_add_test(events, test_event_refusal);
	tcase_add_test(events, test_load_options);
	tcase_add_test(events, test_audit_whole_turn);
	tcase_add_test(events, test_change_hook);
	suite_add_tcase(s, events);

	tcase_add_test(dice, test_dice_face);
	tcase_add_test(dice, test_order_serialize_round_trip);
	tcase_add_test(dice, test_sheet_pack);
	tcase_add_test(dice, test_sheet_add_packed);
	tcase_add_test(dice, test_error_quotes_the_last);
	suite_add_tcase(s, dice);
	return s;
}
