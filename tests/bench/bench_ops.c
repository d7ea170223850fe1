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
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
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

int main(int argc, char **argv)
{
	/* as the orderly binary runs them (src/cli/main.c) */
	ord_malloc_tune();
	ord_builtin_register();
	if (argc < 3) {
		fprintf(stderr,
			"usage: bench_ops submit|seal|events|resolve|exchange|audit|report|state GAME ...\n");
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
	fprintf(stderr, "bench_ops: unknown or incomplete command '%s'\n", argv[1]);
	return 64;
}
