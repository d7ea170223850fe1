/*
 * bench_ops.c - time one orderly operation on a game file, in process.
 *
 *   bench_ops submit GAME SIDE SHEET [REPS]   ord_game_submit (REPS resubmissions)
 *   bench_ops seal GAME                       ord_game_seal
 *   bench_ops events GAME FILE                ord_game_events of a file of events
 *   bench_ops resolve GAME                    ord_game_resolve of the current phase
 *   bench_ops exchange GAME                   ord_game_exchange
 *   bench_ops audit GAME                      ord_game_audit of the whole game
 *   bench_ops report GAME SIDE|--referee      ord_game_report of the current turn
 *   bench_ops inbox GAME N BYTES              the mail judge's inbox: N mails of BYTES in,
 *                                             then each marked done, then one search
 *
 * Prints key=value lines: seconds (median over the repetitions), open
 * (seconds to open the game, not counted), maxrss_kb (the process's peak
 * resident set, open included), cpu (the processor time, user and system,
 * from the game's opening to the end: for submit every repetition, not a
 * median) and what the operation produced.  Opening
 * is left out of `seconds` because it is the same for every operation: it
 * loads the rules tables, which costs the same for 10 units as for 100,000.
 *
 * `events` records a whole file of events of the current phase through
 * ord_game_events, as `orderly event --file` does: every event checked
 * against the orders and the events before it, then all recorded in one
 * transaction.
 *
 * `inbox` stores N mails of BYTES bytes each as mail-in stores a mail
 * (ord_mail_inbox_add, a transaction each), then marks each done as its
 * answer does (ord_mail_inbox_done, a transaction each), then searches
 * the results once as a mail with a nonce is checked
 * (ord_mail_inbox_said).  For each of the three (in_, done_, said_): its
 * seconds, the pages SQLite wrote to the write-ahead log
 * (SQLITE_DBSTATUS_CACHE_WRITE), the bytes the process wrote (wchar of
 * /proc/self/io: the log's frames and the checkpoints' copies into the
 * file, the log emptied before and copied after each) and the game
 * file's size after it (file_kb).
 * Each is a function of its own (inbox_in, inbox_done, inbox_said) for
 * callgrind_annotate --inclusive=yes to count.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "core/game.h"
#include "rulesets/builtin.h"

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

/* The process's processor time (user and system): on a machine shared
 * with other work it moves less than the wall time does. */
static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_opened; /* cpu_now() when the game was open */

static ord_game *open_game(const char *path)
{
	ord_game *g;
	double t0 = now();

	if (ord_game_open(&g, path))
		die(path);
	printf("open=%.6f\n", now() - t0);
	cpu_opened = cpu_now();
	return g;
}

static void done(ord_game *g, double seconds)
{
	printf("seconds=%.6f\ncpu=%.6f\nmaxrss_kb=%ld\n", seconds, cpu_now() - cpu_opened, maxrss_kb());
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

/* ord_game_export_state of a turn (the web page's and the mail judge's
 * name of a bundle): its hash printed, to compare between builds. */
static int op_state(char **argv)
{
	ord_game *g = open_game(argv[0]);
	unsigned char id[32];
	double t0 = now(), t;
	int i;

	if (ord_game_export_state(g, atoi(argv[1]), id) != 0)
		die("state");
	t = now() - t0;
	printf("state=");
	for (i = 0; i < 32; i++)
		printf("%02x", id[i]);
	printf("\n");
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
	struct ord_event_in *evs = NULL;
	char *text, *line, *save = NULL, **words = NULL;
	struct ord_diag d;
	size_t len, n = 0, alloc = 0, nw = 0, walloc = 0, i;
	unsigned lineno = 0;
	double t0;

	(void)argc;
	if (ord_read_file(&text, &len, argv[1], 256u << 20))
		die(argv[1]);
	/* split the file first: what is timed is ord_game_events alone */
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *w[32];
		int k = split(line, w, 32), a;
		lineno++;
		if (!k || w[0][0] == '#')
			continue;
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 1024;
			evs = ord_xrealloc(evs, alloc * sizeof(*evs));
		}
		if (nw + (size_t)k + 1 > walloc) {
			/* words are pointers into text: keep their indexes until the end */
			walloc = 2 * (nw + (size_t)k + 1) + 4096;
			words = ord_xrealloc(words, walloc * sizeof(*words));
		}
		evs[n].kind = w[0];
		evs[n].argc = k - 1;
		evs[n].argv = (char *const *)(uintptr_t)(nw + 1); /* fixed below */
		evs[n].line = lineno;
		evs[n].seq = 0;
		for (a = 0; a < k; a++)
			words[nw++] = w[a];
		words[nw++] = NULL;
		n++;
	}
	for (i = 0; i < n; i++)
		evs[i].argv = words + (uintptr_t)evs[i].argv;
	ord_diag_init(&d);
	t0 = now();
	if (ord_game_events(g, evs, n, NULL, &d)) {
		struct ord_buf m = ORD_BUF_INIT;
		ord_diag_format(&d, argv[1], &m);
		fprintf(stderr, "%s", m.buf);
		die("events");
	}
	printf("events=%zu\n", n);
	done(g, now() - t0);
	ord_diag_release(&d);
	free(evs);
	free(words);
	free(text);
	return 0;
}

/* The bytes this process has written (wchar of /proc/self/io). */
static long long wchar(void)
{
	char line[256];
	long long n = -1;
	FILE *f = fopen("/proc/self/io", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "wchar:", 6))
			n = atoll(line + 6);
	if (f)
		fclose(f);
	return n;
}

/* The pages SQLite has written to the write-ahead log through g's
 * connection. */
static long long pages_written(ord_game *g)
{
	int cur = 0, hi = 0;

	sqlite3_db_status(g->db, SQLITE_DBSTATUS_CACHE_WRITE, &cur, &hi, 0);
	return cur;
}

static long long size_kb(const char *path)
{
	struct stat sb;

	return stat(path, &sb) ? 0 : (long long)(sb.st_size / 1024);
}

struct inbox_run {
	ord_game *g;
	const char *path;
	int n;         /* mails */
	size_t bytes;  /* of each */
	char **mails;  /* their bytes */
	int64_t *ids;  /* their rows */
	int64_t found; /* what the search found */
	int k;         /* the mail marked done */
};

/* The write-ahead log copied into the game file and emptied. */
static void checkpoint(ord_game *g)
{
	if (sqlite3_wal_checkpoint_v2(g->db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL) != SQLITE_OK)
		die("checkpoint");
}

/* One phase measured: fn run, its cost printed prefixed by what; the
 * write-ahead log emptied before it, and its pages copied into the file
 * after it, counted (an automatic checkpoint of SQLite's within it would
 * otherwise fall in one phase or the next as it happens). */
static void inbox_phase(struct inbox_run *r, const char *what, void (*fn)(struct inbox_run *r))
{
	long long p0, w0;
	double t0;

	checkpoint(r->g);
	p0 = pages_written(r->g);
	w0 = wchar();
	t0 = now();
	fn(r);
	checkpoint(r->g);
	printf("%s_seconds=%.6f\n%s_pages=%lld\n%s_wchar=%lld\n%s_file_kb=%lld\n", what, now() - t0,
	       what, pages_written(r->g) - p0, what, wchar() - w0, what, size_kb(r->path));
}

/* Mail i: headers, then a body of text lines (its 80th byte a newline),
 * each mail's own, bytes long; made before the phase that stores it. */
static char *inbox_mail(int i, size_t bytes)
{
	char *mail = malloc(bytes + 1);
	size_t k, head;

	head = (size_t)snprintf(mail, bytes + 1,
				"From: Player <p1@club.test>\nTo: orderly@judge.test\n"
				"Subject: orders\nMessage-ID: <inbox-bench-%d@club.test>\n\n",
				i);
	for (k = head < bytes ? head : bytes; k < bytes; k++)
		mail[k] = k % 80 == 79 ? '\n' : (char)('a' + (k * 7 + (size_t)i) % 26);
	return mail;
}

/* N mails of BYTES in, each as mail-in stores one */
static __attribute__((noinline)) void inbox_in(struct inbox_run *r)
{
	char id[64], state[8];
	int i, step;

	for (i = 0; i < r->n; i++) {
		snprintf(id, sizeof(id), "inbox-bench-%d@club.test", i);
		if (ord_mail_inbox_add(r->g, &r->ids[i], state, &step, id, "Player <p1@club.test>",
				       r->mails[i], r->bytes))
			die("inbox add");
	}
}

static int inbox_done_one(void *ud, ord_game *g)
{
	struct inbox_run *r = ud;

	return ord_mail_inbox_done(g, r->ids[r->k], "orders of s1 stored: turn 1 version 1");
}

/* each marked done in a transaction of its own, as its answer is */
static __attribute__((noinline)) void inbox_done(struct inbox_run *r)
{
	for (r->k = 0; r->k < r->n; r->k++)
		if (ord_game_transact(r->g, inbox_done_one, r))
			die("inbox done");
}

/* every result before the last mail's searched for a text none holds */
static __attribute__((noinline)) void inbox_said(struct inbox_run *r)
{
	if (ord_mail_inbox_said(r->g, "(nonce 00", r->ids[r->n - 1] + 1, &r->found))
		die("inbox said");
}

static int op_inbox(char **argv)
{
	struct inbox_run r = {
		open_game(argv[0]), argv[0], atoi(argv[1]), (size_t)atol(argv[2]), NULL, NULL, 0, 0
	};
	double t0 = now();
	int i;

	if (r.n < 1 || r.bytes < 1)
		die("inbox: N and BYTES must be positive");
	r.ids = calloc((size_t)r.n, sizeof(*r.ids));
	r.mails = calloc((size_t)r.n, sizeof(*r.mails));
	for (i = 0; i < r.n; i++)
		r.mails[i] = inbox_mail(i, r.bytes);
	printf("mails=%d\nmail_bytes=%zu\nfile_kb_before=%lld\n", r.n, r.bytes, size_kb(r.path));
	inbox_phase(&r, "in", inbox_in);
	inbox_phase(&r, "done", inbox_done);
	inbox_phase(&r, "said", inbox_said);
	printf("said_found=%lld\n", (long long)r.found);
	for (i = 0; i < r.n; i++)
		free(r.mails[i]);
	free(r.mails);
	free(r.ids);
	done(r.g, now() - t0);
	return 0;
}

int main(int argc, char **argv)
{
	/* as the orderly binary runs them (src/cli/main.c) */
	ord_malloc_tune();
	ord_builtin_register();
	if (argc < 3) {
		fprintf(stderr,
			"usage: bench_ops submit|seal|events|resolve|exchange|audit|report|state|inbox GAME ...\n");
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
	if (!strcmp(argv[1], "state") && argc >= 4)
		return op_state(argv + 2);
	if (!strcmp(argv[1], "inbox") && argc >= 5)
		return op_inbox(argv + 2);
	fprintf(stderr, "bench_ops: unknown or incomplete command '%s'\n", argv[1]);
	return 64;
}
