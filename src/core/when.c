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
 *  W2. A local time that a clock change skips (a gap: 02:30 on the
 *      morning summer time begins in Europe/Copenhagen) or repeats (an
 *      overlap: 02:30 on the morning it ends) is refused by
 *      ord_when_parse, saying the gap or both times it may be and how to
 *      write each with its offset: mktime read either silently as one of
 *      them (tm_isdst = -1), an hour off the one meant or at a time no
 *      clock of the zone shows (red team #11).  The candidates are the
 *      wall time less each offset the zone has a day before, at and a
 *      day after it, kept when the zone has that offset then; no
 *      candidate is a gap, two are an overlap (zones change their clocks
 *      less often than every day).  A time already stored, as a
 *      scenario's <deadline> in a game made before, reads as it always
 *      did (ord_when_parse_stored); so does the schedule's wall-clock
 *      time of a day (ord_zone_to_utc), which must give some time on
 *      every day.
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

/* A calendar date, YYYY-MM-DD, at *p (moved past it): W3's years, a month
 * of the year and a day its month has (2027-02-29 is none).  The one
 * reader of a date, a time's and a date's alone. */
static int read_date(const char **p, int *y, int *mo, int *d)
{
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap;

	if (!digits(p, 4, y) || *(*p)++ != '-' || !digits(p, 2, mo) || *(*p)++ != '-' ||
	    !digits(p, 2, d))
		return 0;
	if (*y < 1970 || *y > 9999 || *mo < 1 || *mo > 12)
		return 0;
	leap = (*y % 4 == 0 && *y % 100 != 0) || *y % 400 == 0;
	return *d >= 1 && *d <= mdays[*mo - 1] + (*mo == 2 && leap);
}

int ord_date_parse(int64_t *out, const char *text)
{
	const char *p = text;
	int y, mo, d;

	if (!read_date(&p, &y, &mo, &d) || *p)
		return ord_error_set(ORD_EUSAGE,
				     "bad date '%.40s' (expected YYYY-MM-DD, a day of the calendar from 1970 to 9999)",
				     text);
	*out = days_from_civil(y, mo, d) * 86400;
	return 0;
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

/* The offset from UTC of the zone tz_enter set, at t. */
static long offset_at(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	localtime_r(&tt, &tm);
	return tm.tm_gmtoff;
}

/* "02:30", or "02:30:15" when the seconds are not 0, of wall seconds. */
static void clock_words(char *out, size_t n, int64_t wall)
{
	long s = (long)(((wall % 86400) + 86400) % 86400);

	if (s % 60)
		snprintf(out, n, "%02ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(out, n, "%02ld:%02ld", s / 3600, s / 60 % 60);
}

/* How the wall time is written with offset off: 2026-10-25T02:30+02:00. */
static void offset_words(struct ord_buf *out, const char *date, const char *clock, long off)
{
	ord_buf_addf(out, "%sT%s%c%02ld:%02ld", date, clock, off < 0 ? '-' : '+', labs(off) / 3600,
		     labs(off) % 3600 / 60);
}

/* A wall-clock time in zone that is one time exactly (W2), else
 * ORD_EUSAGE naming the gap or both times of the overlap. */
static int zone_to_utc_exact(int64_t *out, const char *zone, int y, int mo, int d, int h, int mi, int s)
{
	int64_t wall = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
	int64_t cand[3], lo = wall - 86400, hi = wall + 86400, t;
	long offs[3], before, after;
	char date[32], clock[16], from[16], to[16];
	struct ord_buf b = ORD_BUF_INIT;
	struct tz_save save;
	size_t n = 0, i, k;
	int err;

	if (!strcmp(zone, "UTC"))
		return ord_zone_to_utc(out, zone, y, mo, d, h, mi, s);
	if ((err = ord_zone_check(zone)) != 0)
		return err;
	tz_enter(&save, zone);
	offs[0] = before = offset_at(lo);
	offs[1] = offset_at(wall);
	offs[2] = after = offset_at(hi);
	for (i = 0; i < 3; i++) {
		t = wall - offs[i];
		if (offset_at(t) != offs[i])
			continue;
		for (k = 0; k < n && cand[k] != t; k++)
			;
		if (k == n)
			cand[n++] = t;
	}
	/* the change of clocks: the first second of the offset after */
	while (n != 1 && before != after && hi - lo > 1) {
		t = lo + (hi - lo) / 2;
		if (offset_at(t) == before)
			lo = t;
		else
			hi = t;
	}
	tz_leave(&save);
	if (n == 1) {
		*out = cand[0];
		return 0;
	}
	snprintf(date, sizeof(date), "%04d-%02d-%02d", y, mo, d);
	clock_words(clock, sizeof(clock), wall);
	clock_words(from, sizeof(from), hi + before);
	clock_words(to, sizeof(to), hi + after);
	if (n == 0 && before < after) {
		err = ord_error_set(ORD_EUSAGE,
				    "%s does not exist in %s on %s: clocks go from %s to %s (expected a time the clocks there show, such as %s, or one with its UTC offset)",
				    clock, zone, date, from, to, to);
	} else if (n == 0) {
		err = ord_error_set(ORD_EUSAGE,
				    "%s does not exist in %s on %s: a change of its clocks skips it (expected a time the clocks there show, or one with its UTC offset)",
				    clock, zone, date);
	} else {
		int64_t first = cand[0] < cand[1] ? cand[0] : cand[1];
		int64_t second = cand[0] < cand[1] ? cand[1] : cand[0];

		ord_buf_addf(&b, "%s happens twice in %s on %s: ", clock, zone, date);
		if (before > after)
			ord_buf_addf(&b, "clocks go back from %s to %s ", from, to);
		ord_buf_adds(&b, "(expected its UTC offset to say which: ");
		offset_words(&b, date, clock, (long)(wall - first));
		ord_buf_adds(&b, " is ");
		ord_when_format(&b, first, NULL);
		ord_buf_adds(&b, ", ");
		offset_words(&b, date, clock, (long)(wall - second));
		ord_buf_adds(&b, " is ");
		ord_when_format(&b, second, NULL);
		ord_buf_adds(&b, ")");
		err = ord_error_set(ORD_EUSAGE, "%s", b.buf);
		ord_buf_release(&b);
	}
	return err;
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

/* A text that is no time, refused as what it was to be (what: "time"). */
static int bad_time(const char *what, const char *text)
{
	return ord_error_set(ORD_EUSAGE,
			     "bad %s '%.60s' (expected 2026-12-07T18:00Z, 2026-12-07T18:00+01:00, 2026-12-07T18:00 Europe/Copenhagen, or from now: +90m, +48h, +2d, +1w)",
			     what, text);
}

static int when_parse(int64_t *out, const char *text, int64_t now, int exact, const char *what)
{
	const char *p = text;
	int y, mo, d, h, mi, sec = 0, oh = 0, om = 0, sign = 0;
	int64_t t, rel;
	int err;

	while (*p == ' ')
		p++;
	if (*p == '+') {
		if (ord_duration_parse(&rel, p + 1) != 0)
			return bad_time(what, text);
		if (rel <= 0)
			return ord_error_set(ORD_EUSAGE,
					     "'%.40s' is now, not later (expected a time from now: +90m, +48h, +2d, +1w)",
					     text);
		*out = now + rel;
		return 0;
	}
	if (!read_date(&p, &y, &mo, &d) || (*p != 'T' && *p != 't' && *p != ' '))
		return bad_time(what, text);
	p++;
	if (!digits(&p, 2, &h) || *p++ != ':' || !digits(&p, 2, &mi))
		return bad_time(what, text);
	if (*p == ':' && (p++, !digits(&p, 2, &sec)))
		return bad_time(what, text);
	if (h > 23 || mi > 59 || sec > 59)
		return bad_time(what, text);
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		sign = *p++ == '-' ? -1 : 1;
		if (!digits(&p, 2, &oh))
			return bad_time(what, text);
		if (*p == ':')
			p++;
		if (isdigit((unsigned char)*p) && !digits(&p, 2, &om))
			return bad_time(what, text);
		if (oh > 23 || om > 59)
			return bad_time(what, text);
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
			return bad_time(what, text);
		memcpy(zone, p, n);
		zone[n] = '\0';
		p += n + (br && p[n] == ']');
		while (*p == ' ')
			p++;
		if (*p)
			return bad_time(what, text);
		if ((err = exact ? zone_to_utc_exact(&t, zone, y, mo, d, h, mi, sec)
				 : ord_zone_to_utc(&t, zone, y, mo, d, h, mi, sec)) != 0)
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
		return bad_time(what, text);
	t = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
	t -= (int64_t)sign * (oh * 3600 + om * 60);
	if (t <= 0)
		return bad_time(what, text);
	*out = t;
	return 0;
}

int ord_when_parse(int64_t *out, const char *text, int64_t now)
{
	return when_parse(out, text, now, 1, "time");
}

int ord_when_parse_as(int64_t *out, const char *text, int64_t now, const char *what)
{
	return when_parse(out, text, now, 1, what);
}

int ord_when_parse_stored(int64_t *out, const char *text, int64_t now)
{
	return when_parse(out, text, now, 0, "time");
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
