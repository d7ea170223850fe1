/*
 * schedule.c - a game's deadline rule: "every 48h at 18:00 in
 * Europe/Copenhagen grace 1h remind 24h,2h autoseal on".  The next turn's
 * deadline follows from it (ord_game_open_turn), tick sends the reminders
 * and seals at the deadline when auto-seal is on.
 *
 * Decisions:
 *  S1. Deadlines keep their rhythm: the next one is the previous one plus
 *      the period, so a referee who resolves three hours late does not push
 *      every later deadline by three hours.  When that leaves the players
 *      less than half a period (the referee was very late), whole periods
 *      are added until it does not.
 *  S2. "at HH:MM" then moves the time to that wall-clock time of the same
 *      day in the zone (a day later if that is too soon by S1); so a 48h
 *      rhythm stays on 18:00 across a change of summer time.
 *  S3. The deadline the core enforces (turn.deadline) is the announced
 *      deadline plus the grace: sheets are taken until then, late notices
 *      go out at the announced deadline, and the seal comes after the grace.
 *  S4. A turn with no previous deadline starts the rhythm a period from now.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/common.h"

void ord_schedule_init(struct ord_schedule *s)
{
	memset(s, 0, sizeof(*s));
	s->at = -1;
	snprintf(s->zone, sizeof(s->zone), "UTC");
}

static int bad(const char *text, const char *why)
{
	return ord_error_set(ORD_EUSAGE,
			     "bad schedule '%.80s': %s (expected e.g. 'every 48h at 18:00 in Europe/Copenhagen grace 1h remind 24h,2h autoseal on', or 'none')",
			     text, why);
}

static int parse_hhmm(const char *s, int *out)
{
	int h, m;
	char c;

	if (sscanf(s, "%2d:%2d%c", &h, &m, &c) != 2 || h < 0 || h > 23 || m < 0 || m > 59 ||
	    !isdigit((unsigned char)s[0]) || strlen(s) > 5)
		return -1;
	*out = h * 60 + m;
	return 0;
}

int ord_schedule_set(struct ord_schedule *s, const char *key, const char *value)
{
	int64_t d;
	int b;

	if (!strcmp(key, "every")) {
		if (ord_duration_parse(&d, value) || d < 3600)
			return ord_error_set(ORD_EUSAGE,
					     "schedule: every '%.40s' is not a period of at least 1h (expected e.g. 48h or 2d)",
					     value);
		s->every = d;
	} else if (!strcmp(key, "at")) {
		if (!strcmp(value, "-") || !strcmp(value, "any")) {
			s->at = -1;
		} else if (parse_hhmm(value, &s->at)) {
			return ord_error_set(ORD_EUSAGE,
					     "schedule: at '%.40s' is not a time of day (expected HH:MM such as 18:00)",
					     value);
		}
	} else if (!strcmp(key, "in") || !strcmp(key, "zone")) {
		if (ord_zone_check(value))
			return ORD_EUSAGE;
		snprintf(s->zone, sizeof(s->zone), "%s", value);
	} else if (!strcmp(key, "grace")) {
		if (ord_duration_parse(&d, value) && strcmp(value, "0"))
			return ord_error_set(ORD_EUSAGE,
					     "schedule: grace '%.40s' is not a duration (expected e.g. 0, 90m or 2h)",
					     value);
		s->grace = strcmp(value, "0") ? d : 0;
	} else if (!strcmp(key, "remind")) {
		char *copy = ord_strdup(value), *tok, *save = NULL;
		s->nremind = 0;
		for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
			if (!strcmp(tok, "none"))
				continue;
			if (s->nremind == ORD_SCHEDULE_MAX_REMIND || ord_duration_parse(&d, tok)) {
				free(copy);
				return ord_error_set(ORD_EUSAGE,
						     "schedule: remind '%.40s' is not a list of at most %d durations before the deadline (expected e.g. 24h,2h)",
						     value, ORD_SCHEDULE_MAX_REMIND);
			}
			s->remind[s->nremind++] = d;
		}
		free(copy);
	} else if (!strcmp(key, "autoseal")) {
		if ((b = ord_parse_bool(value)) < 0 && strcmp(value, "on") && strcmp(value, "off"))
			return ord_error_set(ORD_EUSAGE,
					     "schedule: autoseal '%.20s' (expected on or off)", value);
		s->autoseal = b >= 0 ? b : !strcmp(value, "on");
	} else {
		return ord_error_set(ORD_EUSAGE,
				     "schedule: unknown word '%.40s' (expected every, at, in, grace, remind, autoseal)",
				     key);
	}
	return 0;
}

int ord_schedule_parse(struct ord_schedule *out, const char *text)
{
	char *copy = ord_strdup(text), *tok, *save = NULL, *val;
	int err = 0;

	ord_schedule_init(out);
	tok = strtok_r(copy, " \t", &save);
	if (tok && !strcmp(tok, "none") && !strtok_r(NULL, " \t", &save))
		goto out;
	for (; tok; tok = strtok_r(NULL, " \t", &save)) {
		if (!strcmp(tok, "autoseal") || !strcmp(tok, "no-autoseal")) {
			/* "autoseal" alone, or followed by on/off */
			char *peek = save ? save + strspn(save, " \t") : NULL;
			if (!strcmp(tok, "autoseal") && peek &&
			    (!strncmp(peek, "on", 2) || !strncmp(peek, "off", 3) ||
			     !strncmp(peek, "yes", 3) || !strncmp(peek, "no", 2))) {
				val = strtok_r(NULL, " \t", &save);
				if ((err = ord_schedule_set(out, "autoseal", val)) != 0)
					goto out;
			} else {
				out->autoseal = !strcmp(tok, "autoseal");
			}
			continue;
		}
		val = strtok_r(NULL, " \t", &save);
		if (!val) {
			err = bad(text, "a word without its value");
			goto out;
		}
		if ((err = ord_schedule_set(out, tok, val)) != 0)
			goto out;
	}
	if (!out->every)
		err = bad(text, "no 'every PERIOD'");
out:
	free(copy);
	return err;
}

void ord_schedule_format(const struct ord_schedule *s, struct ord_buf *out)
{
	size_t i;

	if (!s->every) {
		ord_buf_adds(out, "none");
		return;
	}
	ord_buf_adds(out, "every ");
	ord_duration_format(out, s->every);
	if (s->at >= 0)
		ord_buf_addf(out, " at %02d:%02d", s->at / 60, s->at % 60);
	ord_buf_addf(out, " in %s grace ", s->zone);
	if (s->grace)
		ord_duration_format(out, s->grace);
	else
		ord_buf_adds(out, "0");
	ord_buf_adds(out, " remind ");
	for (i = 0; i < s->nremind; i++) {
		if (i)
			ord_buf_addch(out, ',');
		ord_duration_format(out, s->remind[i]);
	}
	if (!s->nremind)
		ord_buf_adds(out, "none");
	ord_buf_addf(out, " autoseal %s", s->autoseal ? "on" : "off");
}

int ord_schedule_next(const struct ord_schedule *s, int64_t prev, int64_t now, int64_t *out)
{
	int64_t t, min = now + s->every / 2;
	struct tm tm;
	int err, tries;

	*out = 0;
	if (!s->every)
		return 0;
	t = prev > 0 ? prev + s->every : now + s->every;
	while (t < min)
		t += s->every;
	if (s->at < 0) {
		*out = t;
		return 0;
	}
	/* the wall-clock time of that day, a day later while too soon */
	for (tries = 0; tries < 3; tries++) {
		int64_t snapped;
		if ((err = ord_zone_local(&tm, s->zone, t)) != 0)
			return err;
		if ((err = ord_zone_to_utc(&snapped, s->zone, tm.tm_year + 1900, tm.tm_mon + 1,
					   tm.tm_mday, s->at / 60, s->at % 60, 0)) != 0)
			return err;
		if (snapped >= min) {
			*out = snapped;
			return 0;
		}
		t += 86400;
	}
	*out = t;
	return 0;
}
