/*
 * cmd_event.c - `orderly event GAME KIND key=value... [--override REASON]`
 * and `orderly event GAME --file FILE [--override REASON]`: record what the
 * referee measured on the table (who fires at whom, range, contact) for
 * the current phase.  The library checks each event against the sealed
 * orders; one that disagrees is refused unless the referee gives a reason
 * to --override, which is logged with it.
 *
 * An event file holds the events of a whole phase, one "KIND key=value..."
 * per line; blank lines and '#' comments are allowed, and a value may be
 * "double quoted" to hold blanks (\" and \\ inside quotes).  A file pasted
 * from a word processor reads the same: its curly double quotes are quotes
 * and its Unicode blanks (a no-break space) blanks, as on a sheet.  The whole
 * file is checked first, every line against the orders and the lines
 * before it, and recorded in one transaction, or nothing is: the problems
 * are printed at their line (and at the column of its word when the words
 * themselves are wrong), the first EV_MAX_SHOWN of them and then how many
 * more, a line whose words are wrong is counted among the refused like one
 * the orders refuse, and the referee fixes the file and runs it again.  A
 * byte order mark at its start is skipped.
 *
 * `orderly event GAME --void SEQ --reason REASON` voids an event of the
 * current phase (a wrong measurement) before the phase is resolved; it can
 * then be recorded again.  The log keeps both, and audit lists the void.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* One event line of a file: words point into the file's buffer. */
struct ev_line {
	unsigned lineno; /* 1-based line in the file */
	int nwords;      /* KIND and its key=value words */
	char **words;    /* malloc'd array */
	unsigned *cols;  /* the column of each word (malloc'd) */
	int bad;         /* its words have a problem (in the diag): not an event */
};

struct ev_list {
	struct ev_line *items;
	size_t n, alloc;
};

static void ev_list_release(struct ev_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->items[i].words);
		free(l->items[i].cols);
	}
	free(l->items);
	l->items = NULL;
	l->n = l->alloc = 0;
}

/* Bytes of the blank at r (end: the end of its line), or 0: an ASCII
 * space, tab or line end, or a Unicode blank a word processor or a paste
 * brings (a no-break space), the core's set (ord_utf8_blank_at). */
static size_t blank_at(const char *r, const char *end)
{
	if ((unsigned char)*r < 0x80)
		return *r == ' ' || *r == '\t' || *r == '\r' || *r == '\f' || *r == '\v';
	return ord_utf8_blank_at(r, (size_t)(end - r), 0);
}

/* The double quotes a value may be written in: the straight '"', and the
 * curly ones a word processor puts in its place, the set a sheet's
 * quoted target takes (orders/text.c): “…” (English), „…“ and „…”
 * (German, Danish), ”…” (Swedish, and Word's after a '='), «…» (French)
 * and »…« (Danish).  One opened by '"' ends at the next '"'; one opened by
 * a curly quote at the first of its closing quotes or a '"'.  Single
 * quotes ‘ ’ are no quotes: ’ is an apostrophe. */
static const struct {
	uint32_t open;     /* the opening quote */
	uint32_t close[2]; /* the closing quotes besides '"', 0: none */
	const char *why;   /* the message when no quote closes it */
} quotes[] = {
	{ '"', { 0, 0 }, "unterminated \" quote" },
	{ 0x201C, { 0x201D, 0x201C }, "unterminated “ quote (expected a closing ” or \")" },
	{ 0x201E, { 0x201C, 0x201D }, "unterminated „ quote (expected a closing “ or \")" },
	{ 0x201D, { 0x201D, 0x201C }, "unterminated ” quote (expected a closing ” or \")" },
	{ 0xAB, { 0xBB, 0 }, "unterminated « quote (expected a closing » or \")" },
	{ 0xBB, { 0xAB, 0 }, "unterminated » quote (expected a closing « or \")" },
};

/* The quote at r (end: the end of its line): its index in quotes[] and
 * its bytes in *n, or -1 when r is at none. */
static int quote_at(const char *r, const char *end, size_t *n)
{
	uint32_t cp;
	size_t i;

	if (*r == '"') {
		*n = 1;
		return 0;
	}
	if ((unsigned char)*r != 0xC2 && (unsigned char)*r != 0xE2)
		return -1;
	if (!(*n = ord_utf8_decode((const unsigned char *)r, (const unsigned char *)end, &cp)))
		return -1;
	for (i = 1; i < ORD_ARRAY_SIZE(quotes); i++)
		if (cp == quotes[i].open)
			return (int)i;
	return -1;
}

/* Bytes of the quote at r that closes quotes[q], or 0. */
static size_t quote_closes(int q, const char *r, const char *end)
{
	uint32_t cp;
	size_t n;

	if (*r == '"')
		return 1;
	if (q == 0 || (unsigned char)*r < 0x80 ||
	    !(n = ord_utf8_decode((const unsigned char *)r, (const unsigned char *)end, &cp)))
		return 0;
	return cp == quotes[q].close[0] || cp == quotes[q].close[1] ? n : 0;
}

/* The 1-based column of byte off of line, in characters (UTF-8), as an
 * editor counts them. */
static unsigned column(const char *line, size_t off)
{
	unsigned col = 1;
	size_t i;

	for (i = 0; i < off; i++)
		col += ((unsigned char)line[i] & 0xC0) != 0x80;
	return col;
}

/* Columns of one line asked in increasing order, each counted on from the
 * one before: a line of 100,000 words is read once, not once a word. */
struct col_cursor {
	const char *line; /* the line as read */
	size_t off;       /* byte of the last column asked */
	unsigned col;     /* its column */
};

static unsigned column_at(struct col_cursor *c, size_t off)
{
	if (off < c->off) {
		c->off = 0;
		c->col = 1;
	}
	c->col += column(c->line + c->off, off - c->off) - 1;
	c->off = off;
	return c->col;
}

/*
 * Split line (NUL-terminated, modified in place) into words; offs[i] is
 * where word i began in the line.  Returns 0, or -1 with *why set and
 * *bad_off where the word at fault began (the words before it are kept).
 * A word beginning with '#' starts a comment.
 */
static int split_words(char *line, struct ev_line *ev, size_t **offs, const char **why, size_t *bad_off)
{
	size_t alloc = 0, n;
	char *r = line;
	/* the words are copied down over what was read, never past it: the
	 * line's end stays where it was */
	const char *end = line + strlen(line);

	ev->nwords = 0;
	ev->words = NULL;
	*offs = NULL;
	for (;;) {
		char *w, *start;
		int q;

		while ((n = blank_at(r, end)) != 0)
			r += n;
		if (!*r || *r == '#')
			return 0;
		start = w = r;
		while (*r && !blank_at(r, end)) {
			if ((q = quote_at(r, end, &n)) < 0) {
				*w++ = *r++;
				continue;
			}
			for (r += n; !(n = quote_closes(q, r, end)); r++) {
				if (!*r) {
					*why = quotes[q].why;
					*bad_off = (size_t)(start - line);
					return -1;
				}
				if (*r == '\\' && (r[1] == '"' || r[1] == '\\'))
					r++;
				*w++ = *r;
			}
			r += n;
		}
		/* the blank at r, whatever its bytes, ends the word: skipped
		 * before the next one */
		n = blank_at(r, end);
		*w = '\0'; /* may overwrite the blank at r, already measured */
		r += n;
		if ((size_t)ev->nwords + 1 >= alloc) {
			alloc = alloc ? 2 * alloc : 8;
			ev->words = realloc(ev->words, alloc * sizeof(*ev->words));
			*offs = realloc(*offs, alloc * sizeof(**offs));
			if (!ev->words || !*offs)
				abort();
		}
		(*offs)[ev->nwords] = (size_t)(start - line);
		ev->words[ev->nwords++] = start;
		ev->words[ev->nwords] = NULL;
	}
}

/*
 * Check one split line's words: a KIND first, then key=value words.  Adds
 * every problem to diag at its line and the column of its word (orig is
 * the line as read, for the columns); returns how many it added.
 */
static size_t check_words(const struct ev_line *ev, const size_t *offs, const char *orig,
			  struct ord_diag *diag)
{
	struct col_cursor cur = { orig, 0, 1 };
	size_t before = ord_diag_count(diag);
	int i;

	for (i = 0; i < ev->nwords; i++) {
		const char *w = ev->words[i], *eq = strchr(w, '=');

		if (i == 0 && eq)
			ord_diag_add(diag, ev->lineno, column_at(&cur, offs[i]), NULL, NULL,
				     "missing KIND before '%s'", w);
		else if (i > 0 && (!eq || eq == w))
			ord_diag_add(diag, ev->lineno, column_at(&cur, offs[i]), NULL, NULL,
				     "'%s' is not key=value", w);
	}
	return ord_diag_count(diag) - before;
}

/*
 * Read and split an event file into list: every line with an event, those
 * whose words have a problem marked bad, the problems in diag (every one of
 * every line).  A byte order mark at the start is skipped, as a sheet's is.
 * Prints why the file cannot be read and returns its status, or 0.
 */
static int read_events(struct ev_list *list, struct ord_diag *diag, struct ord_buf *text,
		       const char *path)
{
	const char *name = cli_input_name(path);
	struct ord_buf orig = ORD_BUF_INIT;
	unsigned lineno = 0;
	char *p, *nl;
	int rc;

	if ((rc = cli_read_input(text, path, CLI_MAX_INPUT)) != 0)
		return rc;
	if (memchr(text->buf, '\0', text->len)) {
		cli_error("%s: a NUL byte in an event file", name);
		return CLI_DATAERR;
	}
	p = text->buf;
	p += ord_utf8_bom_at(p, text->len);
	for (; *p; p = nl ? nl + 1 : p + strlen(p)) {
		struct ev_line ev;
		const char *why = NULL;
		size_t *offs = NULL, bad_off = 0;
		int split;

		lineno++;
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		/* the line as read, for the columns: splitting rewrites it */
		ord_buf_reset(&orig);
		ord_buf_adds(&orig, p);
		split = split_words(p, &ev, &offs, &why, &bad_off);
		ev.lineno = lineno;
		ev.cols = NULL;
		ev.bad = check_words(&ev, offs, orig.buf, diag) > 0;
		if (!ev.bad && split == 0 && ev.nwords) {
			/* where each word is, for the problems of its value */
			struct col_cursor cur = { orig.buf, 0, 1 };
			int i;
			ev.cols = ord_xcalloc((size_t)ev.nwords, sizeof(*ev.cols));
			for (i = 0; i < ev.nwords; i++)
				ev.cols[i] = column_at(&cur, offs[i]);
		}
		if (split < 0) {
			ord_diag_add(diag, lineno, column(orig.buf, bad_off), NULL, NULL, "%s", why);
			ev.bad = 1;
		}
		free(offs);
		if (!ev.nwords && !ev.bad) {
			free(ev.words);
			free(ev.cols);
			continue;
		}
		if (list->n == list->alloc) {
			list->alloc = list->alloc ? 2 * list->alloc : 16;
			list->items = realloc(list->items, list->alloc * sizeof(*list->items));
			if (!list->items)
				abort();
		}
		list->items[list->n++] = ev;
	}
	ord_buf_release(&orig);
	return 0;
}

/* Problems of a file printed; the rest are counted ("... and N more"): a
 * referee fixes the first and runs the file again, and a file that is not
 * an event file at all (or one event copied a thousand times) would
 * otherwise fill the terminal. */
#define EV_MAX_SHOWN 50

/*
 * Print diag's problems as "FILE:LINE:COL: message", the column 1-based,
 * or "FILE:LINE: message" where no column is known (0): never a column 0,
 * which would send an editor to the wrong place.  Each item goes through
 * ord_diag_format, alone, with its line moved into the prefix when it has
 * no column.  The first EV_MAX_SHOWN are printed, then how many more there
 * are, listed or only counted.
 */
static void print_diag(const struct ord_diag *d, const char *name)
{
	struct ord_buf out = ORD_BUF_INIT, where = ORD_BUF_INIT;
	struct ord_diag one;
	size_t i, total = ord_diag_count(d);

	for (i = 0; i < d->n && i < EV_MAX_SHOWN; i++) {
		struct ord_diag_item it = d->items[i];

		ord_buf_reset(&where);
		ord_buf_adds(&where, name);
		if (it.line && !it.col) {
			ord_buf_addf(&where, ":%u", it.line);
			it.line = 0;
		}
		ord_diag_init(&one); /* borrows it: never released */
		one.items = &it;
		one.n = one.alloc = 1;
		ord_diag_format(&one, where.buf, &out);
	}
	if (total > i)
		ord_buf_addf(&out, "%s: ... and %zu more problem%s (the first %zu are listed)\n",
			     name, total - i, total - i == 1 ? "" : "s", i);
	cli_print_lines(out.buf, 0);
	ord_buf_release(&out);
	ord_buf_release(&where);
}

/*
 * Record one event (words[0] is KIND).  where is "FILE:LINE" for a line of
 * a file, NULL on the command line.  Prints why it failed and returns the
 * exit status, or 0.
 */
static int record(ord_game *g, const char *where, int nwords, char **words, const char *override,
		  unsigned *seq)
{
	struct ord_buf msgs = ORD_BUF_INIT;
	struct ord_diag diag;
	const char *at = where ? where : "", *sep = where ? ": " : "";
	int rc;

	ord_diag_init(&diag);
	rc = ord_game_event_seq(g, words[0], nwords - 1, words + 1, override, &diag, seq);
	if (diag.n) {
		ord_diag_format(&diag, where, &msgs);
		cli_print_lines(msgs.buf, where == NULL);
	}
	if (rc == 0) {
		if (diag.n)
			cli_error("%s%sevent '%s' recorded although it disagrees with the orders "
				  "(overridden: %s)",
				  at, sep, words[0], override);
		goto out;
	}
	if (rc == ORD_ECHECK) {
		if (!diag.n)
			cli_error("%s%s%s", at, sep, ord_error_last());
		cli_error("%s%sevent '%s' not recorded: %zu problem(s); --override \"reason\" "
			  "records it anyway",
			  at, sep, words[0], ord_diag_count(&diag));
		rc = CLI_DATAERR;
		goto out;
	}
	if (!where) {
		rc = cli_fail(rc);
		goto out;
	}
	if (*ord_error_last())
		cli_error("%s: %s", where, ord_error_last());
	else
		cli_error("%s: event '%s' not recorded (code %d)", where, words[0], rc);
	rc = cli_exit_code(rc);
	/* a bad key in a file is bad data, not a wrong command line */
	if (rc == CLI_USAGE)
		rc = CLI_DATAERR;
out:
	ord_diag_release(&diag);
	ord_buf_release(&msgs);
	return rc;
}

static int record_file(ord_game *g, const char *path, const char *override)
{
	struct ord_buf text = ORD_BUF_INIT;
	struct ev_list list = { NULL, 0, 0 };
	struct ord_event_in *evs = NULL;
	struct ord_diag diag;
	const char *name = cli_input_name(path);
	size_t i;
	int rc;

	ord_diag_init(&diag);
	if ((rc = read_events(&list, &diag, &text, path)) != 0)
		goto out;
	if (!list.n) {
		cli_error("%s: no events in it", name);
		rc = CLI_DATAERR;
		goto out;
	}
	evs = calloc(list.n, sizeof(*evs));
	if (!evs) {
		rc = CLI_SOFTWARE;
		goto out;
	}
	for (i = 0; i < list.n; i++) {
		const struct ev_line *l = &list.items[i];

		/* a line whose words are wrong still counts, as one refused */
		evs[i].kind = l->bad ? NULL : l->words[0];
		evs[i].argc = l->bad ? 0 : l->nwords - 1;
		evs[i].argv = l->bad ? NULL : l->words + 1;
		evs[i].line = l->lineno;
		evs[i].cols = l->bad || !l->cols ? NULL : l->cols + 1;
		evs[i].col = l->cols ? l->cols[0] : 0;
	}
	rc = ord_game_events(g, evs, list.n, override, &diag);
	ord_diag_sort(&diag, 0);
	if (ord_diag_count(&diag))
		print_diag(&diag, name);
	if (rc == ORD_ECHECK) {
		/* only disagreements with the orders: the referee may stand by them */
		cli_error("%s: %s; --override \"reason\" records them anyway, or fix the file and "
			  "run it again",
			  name, ord_error_last());
		rc = CLI_DATAERR;
		goto out;
	}
	if (rc < 0) {
		cli_error("%s: %s; fix the file and run it again", name, ord_error_last());
		rc = rc == ORD_EUSAGE ? CLI_DATAERR : cli_exit_code(rc);
		goto out;
	}
	if (ord_diag_count(&diag))
		cli_error("%s: recorded although %zu problem(s) disagree with the orders (overridden: %s)",
			  name, ord_diag_count(&diag), override);
	printf("recorded %zu event(s) from %s (#%u to #%u)\n", list.n, name, evs[0].seq,
	       evs[list.n - 1].seq);
out:
	free(evs);
	ord_diag_release(&diag);
	ev_list_release(&list);
	ord_buf_release(&text);
	return rc;
}

int cmd_event(const struct cli_cmd *cmd, int argc, char **argv)
{
	const char *file = NULL, *override = NULL, *void_s = NULL, *reason = NULL;
	ord_game *g = NULL;
	unsigned recorded = 0;
	int rc;
	const struct cli_opt opts[] = {
		{ "file", &file, NULL },   { "override", &override, NULL },
		{ "void", &void_s, NULL }, { "reason", &reason, NULL },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	/* a reason of blanks states nothing, and the audit would show nothing */
	if (override && !override[strspn(override, " \t\r\n\f\v")])
		return cli_usage_error(cmd, "option '--override' needs a value (the reason, "
					    "not only blanks)");
	if (reason && !reason[strspn(reason, " \t\r\n\f\v")])
		return cli_usage_error(cmd, "option '--reason' needs a value (the reason, "
					    "not only blanks)");
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (void_s || reason) {
		int seq;
		if (!void_s || !reason)
			return cli_usage_error(cmd,
					       "--void SEQ needs --reason REASON (and --reason goes with --void)");
		if (file || override || argc > 2)
			return cli_usage_error(cmd,
					       "--void takes only the event's number and --reason");
		if ((rc = cli_parse_positive(cmd, "--void", void_s, &seq)) != 0)
			return rc;
		if ((rc = cli_open_game(&g, argv[1])) != 0)
			return rc;
		rc = ord_game_void_event(g, (unsigned)seq, reason);
		if (rc < 0)
			rc = cli_fail(rc);
		else
			printf("voided event #%d: record it again if it was wrong\n", seq);
		ord_game_free(g);
		return rc;
	}
	if (file && argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s' (the events are in --file)",
				       argv[2]);
	if (!file) {
		if (argc < 3)
			return cli_usage_error(cmd, "missing KIND (or --file FILE)");
		if (strchr(argv[2], '='))
			return cli_usage_error(cmd, "missing KIND before '%s'", argv[2]);
		if ((rc = cli_check_keyvalues(cmd, argc - 3, argv + 3)) != 0)
			return rc;
	}
	if ((rc = cli_open_game(&g, argv[1])) != 0)
		goto out;
	if (file) {
		rc = record_file(g, file, override);
		goto out;
	}
	/* with its number, which event --void takes and the referee's report
	 * lists it by, as a file's events are said */
	rc = record(g, NULL, argc - 2, argv + 2, override, &recorded);
	if (rc == 0)
		printf("recorded %s (#%u)\n", argv[2], recorded);
out:
	if (g)
		ord_game_free(g);
	return rc;
}
