/*
 * cli_util.c - helpers every subcommand uses: hand-written long option
 * parsing, usage and error messages, the mapping of library codes to exit
 * statuses, reading a file or standard input, --dice and --turn values.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"

void cli_print_usage(FILE *fp, const struct cli_cmd *cmd)
{
	fprintf(fp, "usage: orderly %s%s%s\n", cmd->name, *cmd->usage ? " " : "", cmd->usage);
	fprintf(fp, "%s\n", cmd->summary);
}

void cli_print_help(FILE *fp, const struct cli_cmd *cmd)
{
	struct ord_buf man = ORD_BUF_INIT;

	cli_print_usage(fp, cmd);
	if (cli_manual_section(cmd->name, &man))
		fprintf(fp, "\n%s", man.buf);
	ord_buf_release(&man);
}

/* A line of a message on the terminal: what the input put in it (a
 * word of a sheet, a key, a reason) shown escaped and cut, so that no
 * control reaches the terminal and no megabyte token fills it. */
#define LINE_MAX_SHOWN 2000

static void put_line(FILE *fp, const char *prefix, const char *s, size_t len)
{
	struct ord_buf raw = ORD_BUF_INIT, shown = ORD_BUF_INIT;

	ord_buf_add(&raw, s, len);
	ord_buf_add_shown_cut(&shown, raw.len ? raw.buf : "", LINE_MAX_SHOWN);
	fprintf(fp, "%s%s\n", prefix, shown.len ? shown.buf : "");
	ord_buf_release(&raw);
	ord_buf_release(&shown);
}

/* A message of several lines (a problem a line: every unit of a scenario
 * at fault) is put a line at a time, the first after "orderly: ". */
static void verror(const char *fmt, va_list ap)
{
	struct ord_buf b = ORD_BUF_INIT;
	const char *p;

	fflush(stdout);
	ord_buf_vaddf(&b, fmt, ap);
	p = b.len ? b.buf : "";
	do {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		put_line(stderr, p == b.buf || !b.len ? "orderly: " : "", p, len);
		p += len + (nl ? 1 : 0);
	} while (*p);
	ord_buf_release(&b);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
}

int cli_usage_error(const struct cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
	fprintf(stderr, "usage: orderly %s%s%s\n", cmd->name, *cmd->usage ? " " : "", cmd->usage);
	return CLI_USAGE;
}

static const struct cli_opt *find_opt(const struct cli_opt *opts, const char *name, size_t len)
{
	for (; opts && opts->name; opts++)
		if (strlen(opts->name) == len && !strncmp(opts->name, name, len))
			return opts;
	return NULL;
}

int cli_options(const struct cli_cmd *cmd, int *argc, char **argv, const struct cli_opt *opts)
{
	int i, n = 1, only_args = 0;

	for (i = 1; i < *argc; i++) {
		char *a = argv[i];
		const struct cli_opt *o;
		const char *name, *eq, *value;
		size_t len;

		if (only_args || a[0] != '-' || a[1] == '\0') {
			argv[n++] = a; /* "-" is an argument: standard input */
			continue;
		}
		if (!strcmp(a, "--")) {
			only_args = 1;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			cli_print_help(stdout, cmd);
			return CLI_OK;
		}
		if (a[1] != '-')
			return cli_usage_error(cmd, "unknown option '%s'", a);
		name = a + 2;
		eq = strchr(name, '=');
		len = eq ? (size_t)(eq - name) : strlen(name);
		o = find_opt(opts, name, len);
		if (!o)
			return cli_usage_error(cmd, "unknown option '--%.*s'", (int)len, name);
		if (!o->value) {
			if (eq)
				return cli_usage_error(cmd, "option '--%s' takes no value", o->name);
			*o->flag = 1;
			continue;
		}
		if (eq) {
			value = eq + 1;
		} else if (i + 1 < *argc && strncmp(argv[i + 1], "--", 2) != 0) {
			value = argv[++i];
		} else {
			value = NULL;
		}
		if (!value || !*value)
			return cli_usage_error(cmd, "option '--%s' needs a value", o->name);
		if (*o->value)
			return cli_usage_error(cmd, "option '--%s' given twice", o->name);
		*o->value = value;
	}
	*argc = n;
	return CLI_CONTINUE;
}

int cli_exit_code(int code)
{
	switch (code) {
	case ORD_OK: return CLI_OK;
	case ORD_ETAMPERED: return CLI_PROBLEMS;
	case ORD_EUSAGE: return CLI_USAGE;
	case ORD_EBADSHEET:
	case ORD_EBADDATA:
	case ORD_ECHECK:
	case ORD_ENOTGAME:
	case ORD_ENEWER:
	case ORD_ESEALED:
	case ORD_ESTATE:
	case ORD_EEXISTS:
	case ORD_EVERSION: return CLI_DATAERR;
	case ORD_ENOFILE: return CLI_NOINPUT;
	case ORD_ECANTWRITE: return CLI_CANTCREAT;
	case ORD_ELIMIT: return CLI_LIMIT;
	case ORD_ENOTFOUND: /* an unknown side, turn, ruleset or table named on the command line */
		return CLI_USAGE;
	case ORD_ERROR:
	default: return CLI_SOFTWARE;
	}
}

int cli_fail(int code)
{
	const char *msg = ord_error_last();

	if (msg && *msg)
		cli_error("%s", msg);
	else if (code == ORD_ETAMPERED)
		cli_error("audit found problems");
	else
		cli_error("internal error (code %d, no message)", code);
	return cli_exit_code(code);
}

int cli_open_game(ord_game **out, const char *path)
{
	int rc;

	*out = NULL;
	cli_protect_file(path, 1);
	rc = ord_game_open(out, path);
	if (rc < 0)
		return cli_fail(rc);
	return 0;
}

int cli_open_game_readonly(ord_game **out, const char *path)
{
	int rc;

	*out = NULL;
	cli_protect_file(path, 1);
	rc = ord_game_open_ext(out, path, ORD_OPEN_READONLY);
	if (rc < 0)
		return cli_fail(rc);
	return 0;
}

const char *cli_input_name(const char *path)
{
	return (!path || !strcmp(path, "-")) ? "<stdin>" : path;
}

/* strerror with a lowercase first letter, as every message here is. */
static const char *lc_strerror(int e, char *buf, size_t n)
{
	snprintf(buf, n, "%s", strerror(e));
	buf[0] = (char)tolower((unsigned char)buf[0]);
	return buf;
}

int cli_read_input(struct ord_buf *out, const char *path, size_t max)
{
	int is_stdin = !path || !strcmp(path, "-");
	const char *q = is_stdin ? "" : "'", *name = is_stdin ? "standard input" : path;
	int fd = 0, rc = 0;
	struct stat st;
	char ebuf[128];

	if (!is_stdin) {
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0) {
			if (errno == ENOENT || errno == ENOTDIR)
				cli_error("no such file '%s'", path);
			else
				cli_error("cannot open '%s': %s", path,
					  lc_strerror(errno, ebuf, sizeof(ebuf)));
			return CLI_NOINPUT;
		}
	}
	if (fstat(fd, &st) < 0) {
		cli_error("cannot read %s%s%s: %s", q, name, q, lc_strerror(errno, ebuf, sizeof(ebuf)));
		rc = CLI_NOINPUT;
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		cli_error("%s%s%s is a directory (expected a file)", q, name, q);
		rc = CLI_DATAERR;
		goto out;
	}
	if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max)
		goto too_large;
	if (is_stdin && isatty(fd))
		cli_error("reading from the terminal; end with ctrl-d");
	/* a file in one read (a bundle of 100,000 units is 149 MiB), with
	 * room for the read that finds its end */
	if (S_ISREG(st.st_mode) && st.st_size > 0)
		ord_buf_grow(out, (size_t)st.st_size + 1);
	for (;;) {
		size_t room = out->alloc > out->len + 1 ? out->alloc - out->len - 1 : 0;
		ssize_t got;

		if (!room) {
			ord_buf_grow(out, 65536);
			room = out->alloc - out->len - 1;
		}
		got = read(fd, out->buf + out->len, room < (1u << 30) ? room : (1u << 30));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			cli_error("cannot read %s%s%s: %s", q, name, q,
				  lc_strerror(errno, ebuf, sizeof(ebuf)));
			rc = errno == EISDIR ? CLI_DATAERR : CLI_NOINPUT;
			goto out;
		}
		if (got == 0)
			break;
		out->len += (size_t)got;
		out->buf[out->len] = '\0';
		if (out->len > max)
			goto too_large;
	}
	goto out;
too_large:
	if (max >= (size_t)1024 * 1024 * 1024)
		cli_error("%s%s%s is too large (more than %.0f GiB, the most orderly reads for it)",
			  q, name, q, (double)max / (1024 * 1024 * 1024));
	else if (max >= 1024 * 1024)
		cli_error("%s%s%s is too large (more than %zu MiB, the most orderly reads)", q,
			  name, q, max / (1024 * 1024));
	else if (max >= 1024)
		cli_error("%s%s%s is too large (more than %zu KiB, the most orderly reads for it)",
			  q, name, q, max / 1024);
	else
		cli_error("%s%s%s is too large (more than %zu bytes, the most orderly reads for it)",
			  q, name, q, max);
	rc = CLI_DATAERR;
out:
	if (!is_stdin)
		close(fd);
	return rc;
}

/* One die of --dice: its face, or -1 when the item is not 1..CLI_MAX_FACE. */
static int parse_die(const char *s, size_t len)
{
	const char *e = s + len;
	int v = 0;

	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (s == e)
		return -1;
	for (; s < e; s++) {
		if (!isdigit((unsigned char)*s) || v > CLI_MAX_FACE)
			return -1;
		v = v * 10 + (*s - '0');
	}
	return (v >= 1 && v <= CLI_MAX_FACE) ? v : -1;
}

int cli_parse_dice(const struct cli_cmd *cmd, const char *spec, int **dice, size_t *ndice)
{
	const char *p = spec;
	int *d = NULL;
	size_t n = 0;
	int rc = 0;

	*dice = NULL;
	*ndice = 0;
	if (!spec)
		return 0;
	d = malloc(sizeof(*d) * CLI_MAX_DICE);
	if (!d)
		abort();
	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		int v = parse_die(p, len);

		if (v < 0) {
			rc = cli_usage_error(cmd,
					     "--dice: bad die '%.*s' (expected an integer from 1 to %d)",
					     (int)len, p, CLI_MAX_FACE);
			goto out;
		}
		if (n == CLI_MAX_DICE) {
			rc = cli_usage_error(cmd, "--dice: too many dice (at most %d)", CLI_MAX_DICE);
			goto out;
		}
		d[n++] = v;
		if (!end)
			break;
		p = end + 1;
	}
	*dice = d;
	*ndice = n;
	d = NULL;
out:
	free(d);
	return rc;
}

int cli_parse_positive(const struct cli_cmd *cmd, const char *option, const char *s, int *out)
{
	long v = 0;
	const char *p;

	if (!s)
		return 0;
	for (p = s; *p; p++) {
		if (!isdigit((unsigned char)*p) || v > 1000000000L)
			goto bad;
		v = v * 10 + (*p - '0');
	}
	if (p == s || v < 1 || v > 1000000000L)
		goto bad;
	*out = (int)v;
	return 0;
bad:
	return cli_usage_error(cmd, "%s: bad value '%s' (expected a positive integer)", option, s);
}

int cli_check_keyvalues(const struct cli_cmd *cmd, int argc, char *const *argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');

		if (!eq || eq == argv[i])
			return cli_usage_error(cmd, "'%s' is not key=value", argv[i]);
	}
	return 0;
}

void cli_print_buf(const struct ord_buf *b)
{
	if (!b->len)
		return;
	fwrite(b->buf, 1, b->len, stdout);
	if (b->buf[b->len - 1] != '\n')
		putchar('\n');
}

void cli_print_lines(const char *text, int prefixed)
{
	const char *p = text;

	fflush(stdout);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		put_line(stderr, prefixed ? "orderly: " : "", p, len);
		p += len + (nl ? 1 : 0);
	}
}

int cli_report_check(int rc, const struct ord_diag *diag, const struct ord_buf *reading,
		     const char *path, const char *hint)
{
	struct ord_buf msgs = ORD_BUF_INIT;

	/* the reading is output, not an error: on stdout, with its header */
	if (reading->len) {
		const char *p = reading->buf;

		printf("orderly reads:\n");
		while (*p) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);

			put_line(stdout, "  ", p, len);
			p += len + (nl ? 1 : 0);
		}
	}
	if (rc == ORD_EBADSHEET) {
		ord_diag_format(diag, cli_input_name(path), &msgs);
		cli_print_lines(msgs.buf, 0);
		ord_buf_release(&msgs);
		cli_error("sheet checked: %zu problem(s); nothing was stored", ord_diag_count(diag));
		return cli_exit_code(rc);
	}
	if (rc < 0)
		return cli_fail(rc);
	printf("sheet checked: no problems; nothing was stored (%s)\n", hint);
	return CLI_OK;
}
