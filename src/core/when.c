/*
 * when.c - the one reader of times and durations, used by every place that
 * takes a time: `orderly deadline`, the scenario's <deadline>, the
 * schedule, the mail judge's DEADLINE command (issue 16, item 3).
 *
 * Forms of a time:
 *   2026-12-07T18:00Z, 2026-12-07T18:00:30Z          UTC
 *   2026-12-07T18:00+01:00, ...+0100, ...+01           an offset
 *   2026-12-07T18:00 Europe/Copenhagen                 a zone of the tz database
 *   2026-12-07 18:00 ...                               a space for the T
 *   +90m, +48h, +2d, +1w (a blank before the unit allowed)   from now
 * A duration is the relative form without its '+': 90m, 48h, 2d, 1w.
 *
 * Decisions:
 *  W1. Zones are read through the C library (TZ and mktime/localtime_r),
 *      which is what the tz database is for; a name is accepted only when
 *      its file exists, since tzset silently falls back to UTC for an
 *      unknown one and a deadline an hour off is worse than a refusal.
 *  W2. A local time that a clock change skips or repeats is read as
 *      mktime reads it with tm_isdst = -1 (the later or the first one).
 *  W3. Dates before 1970 or after 9999 are refused.
 *  W4. The C library takes a zone from the process's one TZ, and `orderly
 *      serve` reads and writes times in several threads (its request
 *      threads, one of which may be composing deadline mails): a thread's
 *      time came out in another thread's zone (check_when's
 *      test_zones_in_threads saw it in every run).  So one process-wide
 *      mutex (zone_lock) is held from the TZ change through the mktime or
 *      localtime_r that reads it to the TZ put back, and every local time
 *      of the process is read here under it (ord_zone_local,
 *      ord_zone_to_utc).  Nothing else of the program calls localtime,
 *      mktime or strftime's %Z: UTC is written with gmtime_r, and a
 *      mail's Date is UTC (compose.c), where GLib's local time read TZ
 *      with no lock.  Outside the lock TZ is always the process's own.
 *      One lock, not one per zone: a conversion takes microseconds, and
 *      TZ is one variable whichever zone is read.
 *  W5. The environment is changed in place only: when the process has no
 *      TZ, the first change puts ":/etc/localtime" (what an unset TZ
 *      reads, in glibc and musl) and leaves it there, where it unset TZ
 *      after every change.  unsetenv moved the environment's entries, and
 *      a getenv of another thread (the rulesets' path, TMPDIR) could miss
 *      its variable meanwhile; setenv of a variable that is there only
 *      replaces its pointer, and the old string is never freed.  That
 *      first change adds TZ once (glibc copies the environment to a new
 *      array then, and frees nothing of the one a reader may hold).
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/common.h"

static int digits(const char **p, int n, int *out)
{
	int v = 0, i;

	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)(*p)[i]))
			return 0;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*out = v;
	return 1;
}

/* Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant). */
static int64_t days_from_civil(int y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int ord_zone_check(const char *zone)
{
	const char *dir = getenv("TZDIR");
	struct ord_buf path = ORD_BUF_INIT;
	struct stat st;
	const char *p;
	int ok;

	if (!zone || !*zone || strlen(zone) > 64 || zone[0] == '/' || strstr(zone, ".."))
		goto bad;
	for (p = zone; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("/_+-", *p))
			goto bad;
	if (!strcmp(zone, "UTC"))
		return 0;
	ord_buf_addf(&path, "%s/%s", dir && *dir ? dir : "/usr/share/zoneinfo", zone);
	ok = stat(path.buf, &st) == 0 && S_ISREG(st.st_mode);
	ord_buf_release(&path);
	if (ok)
		return 0;
bad:
	return ord_error_set(ORD_EUSAGE,
			     "unknown time zone '%.64s' (expected a name of the tz database such as Europe/Copenhagen, or UTC)",
			     zone ? zone : "");
}

/* Every TZ change and every local time read with it (W4). */
static pthread_mutex_t zone_lock = PTHREAD_MUTEX_INITIALIZER;

/* Run the C library's local time in zone: take the lock, set TZ, and put
 * it back after (W5: never unset). */
struct tz_save {
	char *old;
};

static void tz_enter(struct tz_save *s, const char *zone)
{
	const char *o;

	pthread_mutex_lock(&zone_lock);
	o = getenv("TZ");
	s->old = ord_strdup(o ? o : ":/etc/localtime");
	setenv("TZ", zone, 1);
	tzset();
}

static void tz_leave(struct tz_save *s)
{
	setenv("TZ", s->old, 1);
	tzset();
	pthread_mutex_unlock(&zone_lock);
	free(s->old);
}

int ord_zone_to_utc(int64_t *out, const char *zone, int y, int mo, int d, int h, int mi, int s)
{
	struct tz_save save;
	struct tm tm;
	time_t t;
	int err;

	if (!zone || !strcmp(zone, "UTC")) {
		*out = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
		return 0;
	}
	if ((err = ord_zone_check(zone)) != 0)
		return err;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = s;
	tm.tm_isdst = -1;
	tz_enter(&save, zone);
	t = mktime(&tm);
	tz_leave(&save);
	if (t == (time_t)-1)
		return ord_error_set(ORD_EUSAGE, "%04d-%02d-%02d %02d:%02d is not a time in %s", y,
				     mo, d, h, mi, zone);
	*out = (int64_t)t;
	return 0;
}

int ord_zone_local(struct tm *out, const char *zone, int64_t t)
{
	struct tz_save save;
	time_t tt = (time_t)t;
	int err;

	if (!zone || !strcmp(zone, "UTC")) {
		gmtime_r(&tt, out);
		return 0;
	}
	if ((err = ord_zone_check(zone)) != 0)
		return err;
	tz_enter(&save, zone);
	localtime_r(&tt, out);
	tz_leave(&save);
	return 0;
}

int ord_duration_parse(int64_t *out, const char *text)
{
	const char *p = text;
	int64_t n = 0, unit;

	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		goto bad;
	for (; isdigit((unsigned char)*p); p++) {
		n = n * 10 + (*p - '0');
		if (n > 100000000) /* more than three years of seconds in any unit */
			goto bad;
	}
	while (*p == ' ')
		p++;
	switch (tolower((unsigned char)*p)) {
	case 'm': unit = 60; break;
	case 'h': unit = 3600; break;
	case 'd': unit = 86400; break;
	case 'w': unit = 7 * 86400; break;
	default: goto bad;
	}
	p++;
	while (*p == ' ')
		p++;
	if (*p || n * unit > 10LL * 366 * 86400)
		goto bad;
	*out = n * unit;
	return 0;
bad:
	return ord_error_set(ORD_EUSAGE,
			     "bad duration '%.40s' (expected a number and a unit: 90m, 48h, 2d or 1w)",
			     text);
}

static int bad_time(const char *text)
{
	return ord_error_set(ORD_EUSAGE,
			     "bad time '%.60s' (expected 2026-12-07T18:00Z, 2026-12-07T18:00+01:00, 2026-12-07T18:00 Europe/Copenhagen, or from now: +90m, +48h, +2d, +1w)",
			     text);
}

int ord_when_parse(int64_t *out, const char *text, int64_t now)
{
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	const char *p = text;
	int y, mo, d, h, mi, sec = 0, oh = 0, om = 0, sign = 0, leap;
	int64_t t, rel;
	int err;

	while (*p == ' ')
		p++;
	if (*p == '+') {
		if (ord_duration_parse(&rel, p + 1) != 0)
			return bad_time(text);
		if (rel <= 0)
			return ord_error_set(ORD_EUSAGE,
					     "'%.40s' is now, not later (expected a time from now: +90m, +48h, +2d, +1w)",
					     text);
		*out = now + rel;
		return 0;
	}
	if (!digits(&p, 4, &y) || *p++ != '-' || !digits(&p, 2, &mo) || *p++ != '-' ||
	    !digits(&p, 2, &d) || (*p != 'T' && *p != 't' && *p != ' '))
		return bad_time(text);
	p++;
	if (!digits(&p, 2, &h) || *p++ != ':' || !digits(&p, 2, &mi))
		return bad_time(text);
	if (*p == ':' && (p++, !digits(&p, 2, &sec)))
		return bad_time(text);
	if (y < 1970 || y > 9999 || mo < 1 || mo > 12 || h > 23 || mi > 59 || sec > 59)
		return bad_time(text);
	leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (d < 1 || d > mdays[mo - 1] + (mo == 2 && leap))
		return bad_time(text);
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		sign = *p++ == '-' ? -1 : 1;
		if (!digits(&p, 2, &oh))
			return bad_time(text);
		if (*p == ':')
			p++;
		if (isdigit((unsigned char)*p) && !digits(&p, 2, &om))
			return bad_time(text);
		if (oh > 23 || om > 59)
			return bad_time(text);
	} else if (*p == ' ' || *p == '[') {
		/* a zone name: "... Europe/Copenhagen" or "...[Europe/Copenhagen]" */
		char zone[80];
		size_t n;
		int br = *p == '[';

		while (*p == ' ')
			p++;
		if (*p == '[')
			p++, br = 1;
		n = strcspn(p, br ? "]" : " ");
		if (n == 0 || n >= sizeof(zone))
			return bad_time(text);
		memcpy(zone, p, n);
		zone[n] = '\0';
		p += n + (br && p[n] == ']');
		while (*p == ' ')
			p++;
		if (*p)
			return bad_time(text);
		if ((err = ord_zone_to_utc(&t, zone, y, mo, d, h, mi, sec)) != 0)
			return err;
		*out = t;
		return 0;
	} else {
		return ord_error_set(ORD_EUSAGE,
				     "time '%.60s' has no zone (expected Z for UTC, an offset such as +01:00, or a zone name such as Europe/Copenhagen after it)",
				     text);
	}
	while (*p == ' ')
		p++;
	if (*p)
		return bad_time(text);
	t = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
	t -= (int64_t)sign * (oh * 3600 + om * 60);
	if (t <= 0)
		return bad_time(text);
	*out = t;
	return 0;
}

void ord_when_format(struct ord_buf *out, int64_t t, const char *zone)
{
	char s[64];
	struct tm tm;
	time_t tt = (time_t)t;

	if (zone && strcmp(zone, "UTC") && ord_zone_local(&tm, zone, t) == 0) {
		long off = tm.tm_gmtoff;
		strftime(s, sizeof(s), "%Y-%m-%d %H:%M", &tm);
		ord_buf_addf(out, "%s %s (UTC%c%02ld:%02ld)", s, zone, off < 0 ? '-' : '+',
			     labs(off) / 3600, labs(off) % 3600 / 60);
		return;
	}
	gmtime_r(&tt, &tm);
	strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%SZ", &tm);
	ord_buf_adds(out, s);
}

void ord_duration_format(struct ord_buf *out, int64_t secs)
{
	/* hours up to three days (48h reads better than 2d), days beyond */
	if (secs >= 3 * 86400 && secs % (7 * 86400) == 0)
		ord_buf_addf(out, "%lldw", (long long)(secs / (7 * 86400)));
	else if (secs >= 3 * 86400 && secs % 86400 == 0)
		ord_buf_addf(out, "%lldd", (long long)(secs / 86400));
	else if (secs && secs % 3600 == 0)
		ord_buf_addf(out, "%lldh", (long long)(secs / 3600));
	else
		ord_buf_addf(out, "%lldm", (long long)(secs / 60));
}
