/*
 * bench_ops.c - time one orderly operation on a game file, in process.
 *
 *   bench_ops submit GAME SIDE SHEET [REPS]   ord_game_submit (REPS resubmissions)
 *   bench_ops seal GAME                       ord_game_seal
 *   bench_ops events GAME FILE [--check]      record a phase's events (see below)
 *   bench_ops resolve GAME                    ord_game_resolve of the current phase
 *   bench_ops exchange GAME                   ord_game_exchange
 *   bench_ops audit GAME                      ord_game_audit of the whole game
 *   bench_ops report GAME SIDE|--referee      ord_game_report of the current turn
 *
 * Prints key=value lines: seconds (median over the repetitions), open
 * (seconds to open the game, not counted), maxrss_kb (the process's peak
 * resident set, open included), and what the operation produced.  Opening
 * is left out of `seconds` because it is the same for every operation: it
 * loads the rules tables, which costs the same for 10 units as for 100,000.
 *
 * `events` is the generator's helper, not an orderly operation: it records
 * a whole file of events in one transaction, writing exactly the rows and
 * log entries ord_game_event writes (same canonical body, same hash chain),
 * with one load of the game instead of one per event, and the log's head
 * written once at the end instead of once per entry.  ord_game_event loads
 * every unit and parses every sheet for each event, and every log entry
 * rewrites the game row with the whole scenario in it, so a phase of E
 * events recorded through `orderly event --file` costs E x O(N); see
 * docs/benchmarks.md, "Known limits".  The audit run afterwards checks the
 * chain this writes.  With --check each event also goes through the
 * ruleset's check_event, as ord_game_event does (O(E^2) in the battalion
 * module's duplicate checks, so only for small games).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "core/game.h"

/* the canonical body of an event's log entry: canon.h once it exists */
#if defined(__has_include)
#if __has_include("core/canon.h")
#include "core/canon.h"
#define event_body ord_canon_event
#endif
#endif
#ifndef event_body
void ord_game_event_body(struct ord_buf *out, unsigned seq, const char *phase, const char *kind,
			 const char *args, const char *override, const char *checks);
#define event_body ord_game_event_body
#endif

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The peak resident set of this program: VmHWM, not ru_maxrss, which
 * Linux carries over an exec from the parent (the Python driver). */
static long maxrss_kb(void)
{
	struct rusage ru;
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6))
			kb = atol(line + 6);
	if (f)
		fclose(f);
	if (kb >= 0)
		return kb;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void die(const char *what)
{
	fprintf(stderr, "bench_ops: %s: %s\n", what, ord_error_last());
	exit(1);
}

static ord_game *open_game(const char *path)
{
	ord_game *g;
	double t0 = now();

	if (ord_game_open(&g, path))
		die(path);
	printf("open=%.6f\n", now() - t0);
	return g;
}

static void done(ord_game *g, double seconds)
{
	printf("seconds=%.6f\nmaxrss_kb=%ld\n", seconds, maxrss_kb());
	ord_game_free(g);
}

static int op_submit(int argc, char **argv)
{
	ord_game *g = open_game(argv[0]);
	int reps = argc > 3 ? atoi(argv[3]) : 1, i;
	double *t;
	char *bytes;
	size_t len;

	if (reps < 1)
		reps = 1;
	t = calloc((size_t)reps, sizeof(*t));
	if (ord_read_file(&bytes, &len, argv[2], 64u << 20))
		die(argv[2]);
	for (i = 0; i < reps; i++) {
		struct ord_receipt rc;
		struct ord_diag d;
		struct ord_buf m = ORD_BUF_INIT;
		double t0;

		ord_diag_init(&d);
		t0 = now();
		if (ord_game_submit(g, &rc, argv[1], bytes, len, &d)) {
			ord_diag_format(&d, argv[2], &m);
			fprintf(stderr, "%s", m.buf);
			die("submit");
		}
		t[i] = now() - t0;
		ord_diag_release(&d);
	}
	qsort(t, (size_t)reps, sizeof(*t), cmp_double);
	printf("bytes=%zu\nreps=%d\nmin=%.6f\n", len, reps, t[0]);
	free(bytes);
	done(g, t[reps / 2]);
	free(t);
	return 0;
}

static int op_seal(char **argv)
{
	ord_game *g = open_game(argv[0]);
	double t0 = now();

	if (ord_game_seal(g, 0))
		die("seal");
	done(g, now() - t0);
	return 0;
}

static int op_exchange(char **argv)
{
	ord_game *g = open_game(argv[0]);
	double t0 = now();

	if (ord_game_exchange(g))
		die("exchange");
	done(g, now() - t0);
	return 0;
}

static int count(ord_game *g, const char *sql)
{
	sqlite3_stmt *st;
	int n = 0;

	if (ord_store_prepare(g->db, &st, sql))
		die("count");
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

static int op_resolve(char **argv)
{
	ord_game *g = open_game(argv[0]);
	struct ord_buf out = ORD_BUF_INIT;
	int before, rows, bytes;
	double t0, t;

	before = count(g, "SELECT (SELECT count(*) FROM roll) + (SELECT count(*) FROM result) + "
			  "(SELECT count(*) FROM unit_state)");
	t0 = now();
	if (ord_game_resolve(g, NULL, NULL, 0, &out))
		die("resolve");
	t = now() - t0;
	/* the rows the phase wrote, for the raw-insert baseline */
	rows = count(g, "SELECT (SELECT count(*) FROM roll) + (SELECT count(*) FROM result) + "
			"(SELECT count(*) FROM unit_state)") -
	       before;
	bytes = count(g,
		      "SELECT coalesce((SELECT sum(length(vals) + length(explanation) + length(phase) + length(unit) + 24) "
		      "FROM result WHERE log_seq = (SELECT seq FROM log_head)), 0) + "
		      "coalesce((SELECT sum(length(state) + 16) FROM unit_state WHERE log_seq = (SELECT seq FROM log_head)), 0) + "
		      "coalesce((SELECT sum(length(purpose) + length(phase) + 28) FROM roll WHERE log_seq = (SELECT seq FROM log_head)), 0)");
	printf("rows=%d\nrow_bytes=%d\n", rows, bytes);
	{
		const char *nl = strchr(out.buf, '\n');
		printf("summary=%.*s\n", nl ? (int)(nl - out.buf) : (int)out.len, out.buf);
	}
	ord_buf_release(&out);
	done(g, t);
	return 0;
}

static int op_audit(char **argv)
{
	ord_game *g = open_game(argv[0]);
	struct ord_buf out = ORD_BUF_INIT;
	double t0 = now(), t;
	int err;

	err = ord_game_audit(g, 0, &out);
	t = now() - t0;
	if (err) {
		fprintf(stderr, "%s", out.buf);
		die("audit");
	}
	printf("clean=yes\n");
	ord_buf_release(&out);
	done(g, t);
	return 0;
}

static int op_report(char **argv)
{
	ord_game *g = open_game(argv[0]);
	const char *side = strcmp(argv[1], "--referee") ? argv[1] : NULL;
	struct ord_buf out = ORD_BUF_INIT;
	double t0 = now(), t;

	if (ord_game_report(g, side, 0, 0, &out))
		die("report");
	t = now() - t0;
	printf("report_bytes=%zu\n", out.len);
	ord_buf_release(&out);
	done(g, t);
	return 0;
}

/* Split "KIND k=v k=v" in place into words. */
static int split(char *line, char **w, int max)
{
	int n = 0;
	char *p = strtok(line, " \t\r");

	while (p && n < max) {
		w[n++] = p;
		p = strtok(NULL, " \t\r");
	}
	return n;
}

static int op_events(int argc, char **argv)
{
	ord_game *g = open_game(argv[0]);
	int check = argc > 2 && !strcmp(argv[2], "--check");
	struct ord_buf args = ORD_BUF_INIT, body = ORD_BUF_INIT;
	sqlite3_stmt *st = NULL, *lg = NULL;
	unsigned char prev[32] = { 0 }, hash[32];
	int64_t head = 0, at = (int64_t)time(NULL);
	struct ord_turn t;
	struct ord_ctx ctx;
	const char *phase;
	char *text, *line, *save = NULL;
	size_t len;
	unsigned seq = 0;
	int n = 0;
	double t0 = now();

	if (ord_read_file(&text, &len, argv[1], 256u << 20))
		die(argv[1]);
	if (ord_store_begin(g->db) || ord_game_turn(g, &t, 0))
		die("events");
	if (strcmp(t.state, "sealed") || (size_t)t.phase >= ord_game_nphases(g)) {
		ord_error_set(ORD_ESTATE, "turn %d is %s", t.turn, t.state);
		die("events");
	}
	phase = g->rs->phases[t.phase];
	if (ord_game_load_ctx(g, &ctx, t.turn, 1, phase))
		die("events");
	ctx.phase = phase;
	seq = (unsigned)count(g, "SELECT coalesce(max(seq), 0) FROM event WHERE turn = (SELECT max(turn) FROM turn)");
	if (ord_store_prepare(g->db, &st, "SELECT seq, hash FROM log_head"))
		die("events");
	if (sqlite3_step(st) != SQLITE_ROW)
		die("events: no log head");
	head = sqlite3_column_int64(st, 0);
	if (head > 0 && sqlite3_column_bytes(st, 1) == 32)
		memcpy(prev, sqlite3_column_blob(st, 1), 32);
	sqlite3_finalize(st);
	if (ord_store_prepare(g->db, &lg,
			      "INSERT INTO log(seq, turn, kind, body, at, prev, hash) VALUES (?,?,?,?,?,?,?)"))
		die("events");
	if (ord_store_prepare(g->db, &st,
			      "INSERT INTO event(turn, seq, phase, kind, args, override, checks, log_seq) VALUES (?,?,?,?,?,?,'',?)"))
		die("events");
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *w[32];
		int nw = split(line, w, 32);
		const struct ord_event_kind *ek;
		const struct ord_key_spec *ks;
		struct ord_event *ev;
		struct ord_diag d;
		struct ord_kv kv;
		int64_t lseq;

		if (!nw || w[0][0] == '#')
			continue;
		ek = ord_ruleset_event_kind(g->rs, w[0]);
		ord_kv_init(&kv);
		ord_diag_init(&d);
		if (!ek || strcmp(ek->phase, phase) ||
		    ord_keys_check(&kv, ek->keys, nw - 1, w + 1, &d)) {
			ord_error_set(ORD_EUSAGE, "bad event '%s' for phase %s", w[0], phase);
			die("events");
		}
		for (ks = ek->keys; ks->name; ks++)
			if (ks->type == ORD_KEY_UNIT && ord_kv_get(&kv, ks->name)) {
				struct ord_unit *u = ord_ctx_find_unit(&ctx, ord_kv_get(&kv, ks->name));
				if (!u) {
					ord_error_set(ORD_EUSAGE, "unknown unit '%s'",
						      ord_kv_get(&kv, ks->name));
					die("events");
				}
				ord_kv_set(&kv, ks->name, u->id);
			}
		ord_buf_reset(&args);
		ord_kv_serialize(&kv, &args);
		seq++;
		ev = ord_ctx_add_event(&ctx, seq, phase, w[0], args.buf, NULL, NULL);
		if (check && g->rs->check_event && g->rs->check_event(&ctx, ev, &d)) {
			struct ord_buf m = ORD_BUF_INIT;
			ord_diag_format(&d, argv[1], &m);
			fprintf(stderr, "%s", m.buf);
			ord_error_set(ORD_ECHECK, "event %u disagrees with the orders", seq);
			die("events");
		}
		ord_buf_reset(&body);
		event_body(&body, seq, phase, w[0], args.buf, NULL, "");
		/* ord_game_log, with the head kept here until the end */
		lseq = ++head;
		ord_log_hash(hash, prev, lseq, t.turn, "event", body.buf, at);
		sqlite3_reset(lg);
		sqlite3_bind_int64(lg, 1, lseq);
		sqlite3_bind_int(lg, 2, t.turn);
		sqlite3_bind_text(lg, 3, "event", -1, SQLITE_STATIC);
		sqlite3_bind_text(lg, 4, body.buf, -1, SQLITE_STATIC);
		sqlite3_bind_int64(lg, 5, at);
		sqlite3_bind_blob(lg, 6, prev, 32, SQLITE_STATIC);
		sqlite3_bind_blob(lg, 7, hash, 32, SQLITE_STATIC);
		if (sqlite3_step(lg) != SQLITE_DONE) {
			ord_store_error(g->db, "writing the log");
			die("events");
		}
		memcpy(prev, hash, 32);
		sqlite3_reset(st);
		sqlite3_bind_int(st, 1, t.turn);
		sqlite3_bind_int(st, 2, (int)seq);
		sqlite3_bind_text(st, 3, phase, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, w[0], -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 5, args.buf, -1, SQLITE_TRANSIENT);
		sqlite3_bind_null(st, 6);
		sqlite3_bind_int64(st, 7, lseq);
		if (sqlite3_step(st) != SQLITE_DONE) {
			ord_store_error(g->db, "storing the event");
			die("events");
		}
		ord_kv_release(&kv);
		ord_diag_release(&d);
		n++;
	}
	sqlite3_finalize(st);
	sqlite3_finalize(lg);
	if (ord_store_prepare(g->db, &st, "UPDATE log_head SET seq = ?, hash = ?"))
		die("events");
	sqlite3_bind_int64(st, 1, head);
	sqlite3_bind_blob(st, 2, prev, 32, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_DONE) {
		ord_store_error(g->db, "writing the log head");
		die("events");
	}
	sqlite3_finalize(st);
	if (ord_store_commit(g->db))
		die("events");
	ord_ctx_release(&ctx);
	printf("events=%d\nphase=%s\n", n, phase);
	free(text);
	ord_buf_release(&args);
	ord_buf_release(&body);
	done(g, now() - t0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr,
			"usage: bench_ops submit|seal|events|resolve|exchange|audit|report GAME ...\n");
		return 64;
	}
	if (!strcmp(argv[1], "submit") && argc >= 5)
		return op_submit(argc - 2, argv + 2);
	if (!strcmp(argv[1], "seal"))
		return op_seal(argv + 2);
	if (!strcmp(argv[1], "events") && argc >= 4)
		return op_events(argc - 2, argv + 2);
	if (!strcmp(argv[1], "resolve"))
		return op_resolve(argv + 2);
	if (!strcmp(argv[1], "exchange"))
		return op_exchange(argv + 2);
	if (!strcmp(argv[1], "audit"))
		return op_audit(argv + 2);
	if (!strcmp(argv[1], "report") && argc >= 4)
		return op_report(argv + 2);
	fprintf(stderr, "bench_ops: unknown or incomplete command '%s'\n", argv[1]);
	return 64;
}
