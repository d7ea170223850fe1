/*
 * check_when.c - the one reader of times and durations (src/core/when.c)
 * and the schedule (src/core/schedule.c): every form a place that takes a
 * time accepts, zones across summer time, refusals with what was expected,
 * the rhythm of deadlines from turn to turn, and times in several zones read
 * and written by several threads at once (`orderly serve`).
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/common.h"
#include "orderly.h"

#define NOW 1796000000 /* 2026-11-30T00:53:20Z */

START_TEST(test_forms)
{
	static const struct {
		const char *text;
		long long want; /* 0: refused */
	} cases[] = {
		{ "2026-12-01T18:00:00Z", 1796148000 },
		{ "2026-12-01T18:00Z", 1796148000 },
		{ "2026-12-01 18:00Z", 1796148000 },
		{ "2026-12-01T19:00+01:00", 1796148000 },
		{ "2026-12-01T19:00+0100", 1796148000 },
		{ "2026-12-01T19:00+01", 1796148000 },
		{ "2026-12-01T13:30-04:30", 1796148000 },
		{ "2026-12-01T19:00 Europe/Copenhagen", 1796148000 },
		{ "2026-12-01T19:00[Europe/Copenhagen]", 1796148000 },
		{ "2026-07-01T20:00 Europe/Copenhagen", 1782928800 }, /* summer: UTC+2 */
		{ "2026-12-01T18:00 UTC", 1796148000 },
		{ "+90m", NOW + 5400 },
		{ "+48h", NOW + 172800 },
		{ "+2d", NOW + 172800 },
		{ "+ 2 d", NOW + 172800 },
		{ "+1w", NOW + 604800 },
		{ "+0h", 0 },
		{ "+2y", 0 },
		{ "2026-12-01T18:00", 0 },
		{ "2026-12-01T18:00 Mars/Olympus", 0 },
		{ "2026-12-01T18:00 ../../etc/passwd", 0 },
		{ "2026-02-30T18:00Z", 0 },
		{ "2026-12-01T24:00Z", 0 },
		{ "1969-12-31T23:59Z", 0 },
		{ "tomorrow", 0 },
		{ "", 0 },
	};
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(cases); i++) {
		int64_t t = 0;
		int rc = ord_when_parse(&t, cases[i].text, NOW);

		if (cases[i].want) {
			ck_assert_msg(rc == 0, "'%s': %s", cases[i].text, ord_error_last());
			ck_assert_msg(t == cases[i].want, "'%s': %lld, expected %lld",
				      cases[i].text, (long long)t, cases[i].want);
		} else {
			ck_assert_msg(rc == ORD_EUSAGE, "'%s' accepted", cases[i].text);
			ck_assert_msg(strstr(ord_error_last(), "expected") != NULL, "'%s': %s",
				      cases[i].text, ord_error_last());
		}
	}
	/* no time from now is said as such, not as a bad time */
	{
		int64_t t = 0;
		ck_assert_int_eq(ord_when_parse(&t, "+0m", NOW), ORD_EUSAGE);
		ck_assert_str_eq(ord_error_last(),
				 "'+0m' is now, not later (expected a time from now: +90m, +48h, +2d, +1w)");
	}
	/* a text that is no time: said as what it was to be (a deadline) */
	{
		static const char tail[] = " (expected 2026-12-07T18:00Z, 2026-12-07T18:00+01:00, "
					   "2026-12-07T18:00 Europe/Copenhagen, or from now: +90m, "
					   "+48h, +2d, +1w)";
		char want[400];
		int64_t t = 0;

		ck_assert_int_eq(ord_when_parse(&t, "tomorrow", NOW), ORD_EUSAGE);
		snprintf(want, sizeof(want), "bad time 'tomorrow'%s", tail);
		ck_assert_str_eq(ord_error_last(), want);
		ck_assert_int_eq(ord_when_parse_as(&t, "tomorrow", NOW, "deadline"), ORD_EUSAGE);
		snprintf(want, sizeof(want), "bad deadline 'tomorrow'%s", tail);
		ck_assert_str_eq(ord_error_last(), want);
		ck_assert_int_eq(ord_when_parse_as(&t, "+0m", NOW, "deadline"), ORD_EUSAGE);
		ck_assert_str_eq(ord_error_last(),
				 "'+0m' is now, not later (expected a time from now: +90m, +48h, +2d, +1w)");
		ck_assert_int_eq(ord_when_parse_as(&t, "+1h", NOW, "deadline"), 0);
		ck_assert_int_eq(t, NOW + 3600);
	}
}
END_TEST

/* A date alone (a game's made=) read as a time's date is: a day of the
 * calendar, or refused saying what was expected. */
START_TEST(test_date)
{
	static const struct {
		const char *text;
		long long want; /* -1: refused */
	} cases[] = {
		{ "2026-12-07", 1796601600 }, { "1970-01-01", 0 },
		{ "2028-02-29", 1835395200 },                       /* a leap year */
		{ "2000-02-29", 951782400 },                        /* a fourth century: leap */
		{ "2027-02-29", -1 },         { "2100-02-29", -1 }, /* a century: not leap */
		{ "2026-02-31", -1 },         { "2027-04-31", -1 },
		{ "2026-12-32", -1 },         { "2026-13-01", -1 },
		{ "2026-00-10", -1 },         { "2026-12-00", -1 },
		{ "1969-12-31", -1 },         { "2026-12-7", -1 },
		{ "2026-12-07T18:00Z", -1 },  { "2026-12-07 ", -1 },
		{ " 2026-12-07", -1 },        { "", -1 },
	};
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(cases); i++) {
		int64_t t = -1;
		int rc = ord_date_parse(&t, cases[i].text);

		if (cases[i].want >= 0) {
			ck_assert_msg(rc == 0, "'%s': %s", cases[i].text, ord_error_last());
			ck_assert_msg(t == cases[i].want, "'%s': %lld, expected %lld",
				      cases[i].text, (long long)t, cases[i].want);
		} else {
			ck_assert_msg(rc == ORD_EUSAGE, "'%s' accepted as %lld", cases[i].text,
				      (long long)t);
			ck_assert_msg(strstr(ord_error_last(), "expected YYYY-MM-DD") != NULL,
				      "'%s': %s", cases[i].text, ord_error_last());
		}
	}
	/* a time's date is read so too */
	{
		int64_t t = 0;
		ck_assert_int_eq(ord_when_parse(&t, "2027-02-29T18:00Z", NOW), ORD_EUSAGE);
		ck_assert_int_eq(ord_when_parse(&t, "2028-02-29T18:00Z", NOW), 0);
		ck_assert_int_eq(t, 1835395200 + 18 * 3600);
	}
}
END_TEST

/*
 * A local time the zone's clocks skip or show twice (W2, red team #11):
 * refused with the gap, or both times and how to write each, whatever the
 * process's own zone; the offset says which of the two; a time already
 * stored reads as it always did.
 */
static void refused_as(const char *text, const char *msg)
{
	int64_t t = 0;

	ck_assert_msg(ord_when_parse(&t, text, NOW) == ORD_EUSAGE, "'%s' accepted as %lld", text,
		      (long long)t);
	ck_assert_str_eq(ord_error_last(), msg);
	ord_error_clear();
}

static void read_as(const char *text, long long want)
{
	int64_t t = 0;

	ck_assert_msg(ord_when_parse(&t, text, NOW) == 0, "'%s': %s", text, ord_error_last());
	ck_assert_msg(t == want, "'%s': %lld, expected %lld", text, (long long)t, want);
}

START_TEST(test_clock_changes)
{
	const char *was = getenv("TZ");
	char *keep = was ? strdup(was) : NULL;
	int64_t t = 0;

	/* the process's zone is another's: the text's zone is read */
	ck_assert_int_eq(setenv("TZ", "Asia/Tokyo", 1), 0);
	tzset();
	refused_as("2026-03-29T02:30 Europe/Copenhagen",
		   "02:30 does not exist in Europe/Copenhagen on 2026-03-29: clocks go from 02:00 to 03:00 (expected a time the clocks there show, such as 03:00, or one with its UTC offset)");
	refused_as("2026-03-29T02:00 Europe/Copenhagen",
		   "02:00 does not exist in Europe/Copenhagen on 2026-03-29: clocks go from 02:00 to 03:00 (expected a time the clocks there show, such as 03:00, or one with its UTC offset)");
	refused_as("2026-03-29 02:59:30 [Europe/Copenhagen]",
		   "02:59:30 does not exist in Europe/Copenhagen on 2026-03-29: clocks go from 02:00 to 03:00 (expected a time the clocks there show, such as 03:00, or one with its UTC offset)");
	read_as("2026-03-29T01:59 Europe/Copenhagen", 1774745940); /* 00:59Z, CET */
	read_as("2026-03-29T03:00 Europe/Copenhagen", 1774746000); /* 01:00Z, CEST */
	refused_as("2026-10-25T02:30 Europe/Copenhagen",
		   "02:30 happens twice in Europe/Copenhagen on 2026-10-25: clocks go back from 03:00 to 02:00 (expected its UTC offset to say which: 2026-10-25T02:30+02:00 is 2026-10-25T00:30:00Z, 2026-10-25T02:30+01:00 is 2026-10-25T01:30:00Z)");
	refused_as("2026-10-25T02:00 Europe/Copenhagen",
		   "02:00 happens twice in Europe/Copenhagen on 2026-10-25: clocks go back from 03:00 to 02:00 (expected its UTC offset to say which: 2026-10-25T02:00+02:00 is 2026-10-25T00:00:00Z, 2026-10-25T02:00+01:00 is 2026-10-25T01:00:00Z)");
	/* each of the two as the message writes it */
	read_as("2026-10-25T02:30+02:00", 1792888200);
	read_as("2026-10-25T02:30+01:00", 1792891800);
	read_as("2026-10-25T01:59 Europe/Copenhagen", 1792886340); /* 23:59Z, CEST */
	read_as("2026-10-25T03:00 Europe/Copenhagen", 1792893600); /* 02:00Z, CET */
	/* another zone, another hour */
	refused_as("2026-03-08T02:30 America/New_York",
		   "02:30 does not exist in America/New_York on 2026-03-08: clocks go from 02:00 to 03:00 (expected a time the clocks there show, such as 03:00, or one with its UTC offset)");
	refused_as("2026-11-01T01:30 America/New_York",
		   "01:30 happens twice in America/New_York on 2026-11-01: clocks go back from 02:00 to 01:00 (expected its UTC offset to say which: 2026-11-01T01:30-04:00 is 2026-11-01T05:30:00Z, 2026-11-01T01:30-05:00 is 2026-11-01T06:30:00Z)");
	/* a change of half an hour */
	refused_as("2026-10-04T02:15 Australia/Lord_Howe",
		   "02:15 does not exist in Australia/Lord_Howe on 2026-10-04: clocks go from 02:00 to 02:30 (expected a time the clocks there show, such as 02:30, or one with its UTC offset)");
	/* a time already stored reads as mktime read it (a scenario of a game
	 * made before): the gap's 02:30 as 03:30 CEST, the overlap's as the
	 * second, in CET (glibc) */
	ck_assert_int_eq(ord_when_parse_stored(&t, "2026-03-29T02:30 Europe/Copenhagen", NOW), 0);
	ck_assert_int_eq(t, 1774747800);
	ck_assert_int_eq(ord_when_parse_stored(&t, "2026-10-25T02:30 Europe/Copenhagen", NOW), 0);
	ck_assert_int_eq(t, 1792891800);
	ck_assert_str_eq(getenv("TZ"), "Asia/Tokyo");
	if (keep)
		setenv("TZ", keep, 1);
	else
		unsetenv("TZ");
	tzset();
	free(keep);
}
END_TEST

START_TEST(test_format)
{
	struct ord_buf b = ORD_BUF_INIT;

	ord_when_format(&b, 1796148000, NULL);
	ck_assert_str_eq(b.buf, "2026-12-01T18:00:00Z");
	ord_buf_reset(&b);
	ord_when_format(&b, 1796148000, "Europe/Copenhagen");
	ck_assert_str_eq(b.buf, "2026-12-01 19:00 Europe/Copenhagen (UTC+01:00)");
	ord_buf_reset(&b);
	ord_duration_format(&b, 172800);
	ck_assert_str_eq(b.buf, "48h");
	ord_buf_reset(&b);
	ord_duration_format(&b, 7 * 86400);
	ck_assert_str_eq(b.buf, "1w");
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_schedule_text)
{
	struct ord_schedule s;
	struct ord_buf b = ORD_BUF_INIT;

	ck_assert_int_eq(ord_schedule_parse(&s, "every 48h at 18:00 in Europe/Copenhagen grace 1h "
						"remind 24h,2h autoseal on"),
			 0);
	ord_schedule_format(&s, &b);
	ck_assert_str_eq(b.buf, "every 48h at 18:00 in Europe/Copenhagen grace 1h remind 24h,2h "
				"autoseal on");
	ck_assert_int_eq(ord_schedule_parse(&s, "every 2d autoseal"), 0);
	ck_assert_int_eq(s.autoseal, 1);
	ck_assert_int_eq(s.at, -1);
	ck_assert_int_eq(ord_schedule_parse(&s, "none"), 0);
	ck_assert_int_eq((int)s.every, 0);
	ck_assert_int_eq(ord_schedule_parse(&s, "every 48h at 25:00"), ORD_EUSAGE);
	ck_assert_int_eq(ord_schedule_parse(&s, "every 10m"), ORD_EUSAGE);
	ck_assert_int_eq(ord_schedule_parse(&s, "at 18:00"), ORD_EUSAGE);
	ck_assert_int_eq(ord_schedule_parse(&s, "every 48h in Mars/Olympus"), ORD_EUSAGE);
	ck_assert_int_eq(ord_schedule_parse(&s, "every 48h often"), ORD_EUSAGE);
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_schedule_rhythm)
{
	struct ord_schedule s;
	int64_t d1, d2, d3, late;

	ck_assert_int_eq(ord_schedule_parse(&s, "every 48h at 18:00 in Europe/Copenhagen"), 0);
	/* the first: 48h from now, moved to 18:00 local of that day */
	ck_assert_int_eq(ord_schedule_next(&s, 0, NOW, &d1), 0);
	ck_assert_int_eq(d1, 1796230800); /* 2026-12-02T17:00Z = 18:00 CET */
	/* the next ones keep the rhythm, whenever the turn opened */
	ck_assert_int_eq(ord_schedule_next(&s, d1, d1 + 3 * 3600, &d2), 0);
	ck_assert_int_eq(d2, d1 + 172800);
	ck_assert_int_eq(ord_schedule_next(&s, d2, d2 + 60, &d3), 0);
	ck_assert_int_eq(d3, d2 + 172800);
	/* a referee three days late: whole periods until half a period is left */
	ck_assert_int_eq(ord_schedule_next(&s, d1, d1 + 3 * 86400, &late), 0);
	ck_assert_int_eq(late, d1 + 2 * 172800);
	/* across the end of summer time the wall clock stays at 18:00: from
	 * 18:00 CEST on 24 October to 18:00 CET on 26 October is 49 hours */
	ck_assert_int_eq(ord_schedule_next(&s, 1792857600, 1792857600 + 3600, &d2), 0);
	ck_assert_int_eq(d2, 1793034000);
}
END_TEST

/*
 * Threads that read and write times in their own zone at once, as the
 * server's request threads and its mail worker do: the C library reads a
 * zone from the process's one TZ, so without when.c's lock a thread's
 * time came out in another thread's zone (and setenv and unsetenv moved
 * the environment under every getenv).
 */
#define RACE_ROUNDS 2000

struct racer {
	const char *zone;
	int64_t t;         /* a time to write in zone */
	const char *shown; /* ord_when_format's text of it */
	const char *wall;  /* the same wall-clock time, with the zone, to read back */
	int bad;           /* out: rounds that gave another answer */
	char first[160];   /* out: the first wrong answer */
};

static void *race(void *arg)
{
	struct racer *r = arg;
	struct ord_buf b = ORD_BUF_INIT;
	int64_t back;
	int i;

	for (i = 0; i < RACE_ROUNDS; i++) {
		ord_buf_reset(&b);
		ord_when_format(&b, r->t, r->zone);
		back = 0;
		if (ord_when_parse(&back, r->wall, NOW) != 0 || back != r->t ||
		    strcmp(b.buf ? b.buf : "", r->shown)) {
			if (!r->bad++)
				snprintf(r->first, sizeof(r->first), "'%s' read as %lld",
					 b.buf ? b.buf : "", (long long)back);
		}
	}
	ord_buf_release(&b);
	return NULL;
}

START_TEST(test_zones_in_threads)
{
	/* 2026-12-01T18:00Z in three zones of three offsets */
	struct racer r[] = {
		{ "Europe/Copenhagen", 1796148000, "2026-12-01 19:00 Europe/Copenhagen (UTC+01:00)",
		  "2026-12-01T19:00 Europe/Copenhagen", 0, "" },
		{ "America/New_York", 1796148000, "2026-12-01 13:00 America/New_York (UTC-05:00)",
		  "2026-12-01T13:00 America/New_York", 0, "" },
		{ "Asia/Tokyo", 1796148000, "2026-12-02 03:00 Asia/Tokyo (UTC+09:00)",
		  "2026-12-02T03:00 Asia/Tokyo", 0, "" },
	};
	pthread_t th[ORD_ARRAY_SIZE(r)];
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(r); i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, race, &r[i]), 0);
	for (i = 0; i < ORD_ARRAY_SIZE(r); i++)
		ck_assert_int_eq(pthread_join(th[i], NULL), 0);
	for (i = 0; i < ORD_ARRAY_SIZE(r); i++)
		ck_assert_msg(r[i].bad == 0, "%s: %d of %d rounds wrong, the first %s", r[i].zone,
			      r[i].bad, RACE_ROUNDS, r[i].first);
}
END_TEST

/* The process's own zone is back after every change (TZ changed in place,
 * never unset: W5). */
START_TEST(test_process_zone)
{
	struct ord_buf b = ORD_BUF_INIT;
	const char *was = getenv("TZ");
	char *keep = was ? strdup(was) : NULL;

	ck_assert_int_eq(setenv("TZ", "Asia/Tokyo", 1), 0);
	ord_when_format(&b, 1796148000, "America/New_York");
	ck_assert_str_eq(b.buf, "2026-12-01 13:00 America/New_York (UTC-05:00)");
	ck_assert_str_eq(getenv("TZ"), "Asia/Tokyo");
	{
		time_t t = 1796148000;
		struct tm tm;

		ck_assert_ptr_nonnull(localtime_r(&t, &tm));
		ck_assert_int_eq(tm.tm_hour, 3); /* Tokyo's 03:00, not New York's */
	}
	/* no TZ: what an unset one reads is put in its place, not unset again */
	ck_assert_int_eq(unsetenv("TZ"), 0);
	ord_buf_reset(&b);
	ord_when_format(&b, 1782928800, "Europe/Copenhagen");
	ck_assert_str_eq(b.buf, "2026-07-01 20:00 Europe/Copenhagen (UTC+02:00)");
	ck_assert_ptr_nonnull(getenv("TZ"));
	ck_assert_str_eq(getenv("TZ"), ":/etc/localtime");
	if (keep)
		setenv("TZ", keep, 1);
	else
		unsetenv("TZ");
	free(keep);
	ord_buf_release(&b);
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("when");
	TCase *tc = tcase_create("when");

	tcase_add_test(tc, test_forms);
	tcase_add_test(tc, test_date);
	tcase_add_test(tc, test_clock_changes);
	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_schedule_text);
	tcase_add_test(tc, test_schedule_rhythm);
	tcase_add_test(tc, test_zones_in_threads);
	tcase_add_test(tc, test_process_zone);
	suite_add_tcase(s, tc);
	return s;
}
