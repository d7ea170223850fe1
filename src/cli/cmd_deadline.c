/*
 * cmd_deadline.c - `orderly deadline GAME WHEN|none`: set or clear the
 * deadline of the current turn.  WHEN is a UTC time in ISO 8601
 * (2026-12-01T18:00:00Z, seconds optional) or relative to now (+24h, +90m).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"

/* "+N h" or "+N m" (the blank optional): seconds from now, or -1. */
static int64_t parse_relative(const char *s)
{
	int64_t n = 0;
	const char *p = s + 1;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		n = n * 10 + (*p - '0');
		if (n > 100L * 366 * 24 * 60) /* a century of minutes is enough */
			return -1;
	}
	while (*p == ' ')
		p++;
	if ((p[0] == 'h' || p[0] == 'H') && p[1] == '\0')
		return n * 3600;
	if ((p[0] == 'm' || p[0] == 'M') && p[1] == '\0')
		return n * 60;
	return -1;
}

/* Exactly n digits at s: their value, or -1. */
static int digits(const char *s, int n)
{
	int v = 0, i;

	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* YYYY-MM-DDTHH:MM[:SS]Z as unix seconds; 0 and *ok = 0 when malformed. */
static int64_t parse_iso(const char *s, int *ok)
{
	struct tm tm, back;
	time_t t;
	int sec = 0;
	size_t len = strlen(s);

	*ok = 0;
	memset(&tm, 0, sizeof(tm));
	if (len != 17 && len != 20)
		return 0;
	if (s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') || s[13] != ':')
		return 0;
	if (s[len - 1] != 'Z' && s[len - 1] != 'z')
		return 0;
	if (len == 20) {
		if (s[16] != ':' || (sec = digits(s + 17, 2)) < 0)
			return 0;
	}
	tm.tm_year = digits(s, 4) - 1900;
	tm.tm_mon = digits(s + 5, 2) - 1;
	tm.tm_mday = digits(s + 8, 2);
	tm.tm_hour = digits(s + 11, 2);
	tm.tm_min = digits(s + 14, 2);
	tm.tm_sec = sec;
	if (tm.tm_year < 70 || tm.tm_mon < 0 || tm.tm_mday < 1 || tm.tm_hour < 0 || tm.tm_min < 0 ||
	    tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 59)
		return 0;
	back = tm;
	t = timegm(&tm);
	/* timegm normalises 2026-02-30 to March: refuse what does not round-trip */
	if (t == (time_t)-1 || tm.tm_mday != back.tm_mday || tm.tm_mon != back.tm_mon ||
	    tm.tm_year != back.tm_year)
		return 0;
	*ok = 1;
	return (int64_t)t;
}

int cmd_deadline(const struct cli_cmd *cmd, int argc, char **argv)
{
	ord_game *g = NULL;
	int64_t when = 0;
	char stamp[32];
	int rc, ok = 1;

	if ((rc = cli_options(cmd, &argc, argv, NULL)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc < 3)
		return cli_usage_error(cmd, "missing WHEN (or none)");
	if (argc > 3)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[3]);
	if (!strcmp(argv[2], "none")) {
		when = 0;
	} else if (argv[2][0] == '+') {
		int64_t rel = parse_relative(argv[2]);

		ok = rel > 0;
		when = (int64_t)time(NULL) + rel;
	} else {
		when = parse_iso(argv[2], &ok);
	}
	if (!ok)
		return cli_usage_error(cmd,
				       "bad deadline '%s' (expected a UTC time like "
				       "2026-12-01T18:00:00Z, +N h, +N m or none)",
				       argv[2]);
	if ((rc = cli_open_game(&g, argv[1])) != 0)
		goto out;
	rc = ord_game_set_deadline(g, when);
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	if (when) {
		time_t t = (time_t)when;
		struct tm tm;

		gmtime_r(&t, &tm);
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
		printf("deadline: %s\n", stamp);
	} else {
		printf("deadline cleared\n");
	}
	rc = CLI_OK;
out:
	if (g)
		ord_game_free(g);
	return rc;
}
