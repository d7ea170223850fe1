/* canon.c - the canonical text of log entries (see canon.h). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/canon.h"

/* The len bytes at value, escaped, and the newline that ends the line:
 * the bytes that need no escape a run at a time (the verifier makes an
 * event's text again each time it reads it). */
static void put_escaped(struct ord_buf *out, const char *value, size_t len)
{
	const unsigned char *p = (const unsigned char *)value, *end = p + len;

	while (p < end) {
		const unsigned char *run = p;
		while (p < end && *p != '\\' && (*p >= 0x20 || *p == '\t'))
			p++;
		ord_buf_add(out, (const char *)run, (size_t)(p - run));
		if (p == end)
			break;
		if (*p == '\\')
			ord_buf_adds(out, "\\\\");
		else if (*p == '\n')
			ord_buf_adds(out, "\\n");
		else if (*p == '\r')
			ord_buf_adds(out, "\\r");
		else
			ord_buf_addf(out, "\\x%02x", *p);
		p++;
	}
	ord_buf_addch(out, '\n');
}

void ord_canon_put(struct ord_buf *out, const char *key, const char *value)
{
	ord_buf_adds(out, key);
	ord_buf_addch(out, '=');
	put_escaped(out, value, strlen(value));
}

void ord_canon_putf(struct ord_buf *out, const char *key, const char *fmt, ...)
{
	struct ord_buf v = ORD_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	ord_buf_vaddf(&v, fmt, ap);
	va_end(ap);
	ord_canon_put(out, key, v.buf);
	ord_buf_release(&v);
}

void ord_canon_put_hex(struct ord_buf *out, const char *key, const unsigned char *p, size_t n)
{
	ord_buf_adds(out, key);
	ord_buf_addch(out, '=');
	ord_buf_add_hex(out, p, n);
	ord_buf_addch(out, '\n');
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

char *ord_canon_get(const char *body, const char *key)
{
	size_t n = strlen(key);
	const char *p = body;

	while (p && *p) {
		if (!strncmp(p, key, n) && p[n] == '=') {
			const char *v = p + n + 1, *e = strchr(v, '\n');
			size_t len = e ? (size_t)(e - v) : strlen(v), i;
			struct ord_buf b = ORD_BUF_INIT;

			for (i = 0; i < len; i++) {
				if (v[i] != '\\' || i + 1 == len) {
					ord_buf_addch(&b, v[i]);
				} else if (v[i + 1] == 'n') {
					ord_buf_addch(&b, '\n');
					i++;
				} else if (v[i + 1] == 'r') {
					ord_buf_addch(&b, '\r');
					i++;
				} else if (v[i + 1] == 'x' && i + 3 < len &&
					   hexval(v[i + 2]) >= 0 && hexval(v[i + 3]) >= 0) {
					ord_buf_addch(&b, (char)(hexval(v[i + 2]) << 4 |
								 hexval(v[i + 3])));
					i += 3;
				} else {
					ord_buf_addch(&b, v[i + 1]);
					i++;
				}
			}
			return ord_buf_detach(&b, NULL);
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/* ---- the game's config ---- */

static void put_config(struct ord_buf *out, const struct ord_canon_config *c)
{
	ord_canon_put(out, "ruleset", c->ruleset);
	ord_canon_put(out, "nmr", c->nmr);
	/* only in games made since: an older game's entries stay as they were */
	if (c->repeat_orders)
		ord_canon_put(out, "nmr_repeat", "orders");
	ord_canon_putf(out, "fixed_dice", "%d", c->fixed_dice ? 1 : 0);
	ord_canon_put(out, "referee", c->refereeless ? "no" : "yes");
	ord_canon_put(out, "witnessed", c->witnessed ? "yes" : "no");
	/* only where it is so: the entries of the games made before say
	 * nothing of it, and keep their bytes */
	if (c->dice_by_events)
		ord_canon_put(out, "dice", "events");
	if (c->made)
		ord_canon_put(out, "made", c->made);
	/* the marker of the core revision (canon.h): only in the games made
	 * since, after made= */
	if (c->made_core)
		ord_canon_put(out, "made_core", c->made_core);
	if (c->made_rules)
		ord_canon_put(out, "made_rules", c->made_rules);
	ord_canon_put_hex(out, "scenario", c->scenario, 32);
	ord_canon_put_hex(out, "tables", c->tables, 32);
	ord_canon_put_hex(out, "key", c->key, 32);
}

static int get_hex(unsigned char *out, size_t n, const char *body, const char *key)
{
	char *v = ord_canon_get(body, key);
	int ok = v && strlen(v) == 2 * n && ord_unhex(out, n, v) == (int)n;

	free(v);
	return ok ? 0 : -1;
}

/* made=DATE as an orderly writes it: a day of the calendar, YYYY-MM-DD
 * (the date reader of every time, when.c: 2027-02-30 is none), not before
 * ORD_GAME_MADE */
static int made_ok(const char *v)
{
	int64_t day;

	if (ord_date_parse(&day, v) != 0) {
		ord_error_clear(); /* the entry's message says it */
		return 0;
	}
	return ord_canon_made_since_day(v, ORD_GAME_MADE);
}

int ord_canon_revision_cmp(const char *a, const char *b, int *cmp)
{
	const char *s[2] = { a, b };
	long n[2];
	int i;

	for (i = 0; i < 2; i++) {
		char *end;
		int k;

		if (!s[i] || strlen(s[i]) < 12 || strlen(s[i]) > 30 || s[i][4] != '-' ||
		    s[i][7] != '-' || s[i][10] != '.')
			return -1;
		for (k = 0; k < 10; k++)
			if (k != 4 && k != 7 && (s[i][k] < '0' || s[i][k] > '9'))
				return -1;
		if (s[i][11] < '0' || s[i][11] > '9')
			return -1;
		errno = 0;
		n[i] = strtol(s[i] + 11, &end, 10);
		if (errno || *end)
			return -1;
	}
	*cmp = strncmp(a, b, 10);
	if (!*cmp)
		*cmp = n[0] < n[1] ? -1 : n[0] > n[1];
	return 0;
}

/* v as an entry's message may quote it: printable ASCII, not too long */
static const char *shown(const char *v, const char *instead)
{
	const char *p;

	for (p = v; *p; p++)
		if (*p <= 0x20 || *p >= 0x7F || p - v >= 40)
			return instead;
	return v;
}

/* made_core= and made_rules= as an orderly writes them (canon.h): 0, or
 * ORD_EBADDATA saying what is wrong.  A marker an orderly never wrote
 * would make a game read as another core does: one before the marker
 * (made_core=2026-12-02.2) as a game made before ae6f373. */
static int marker_check(const struct ord_canon_config *c)
{
	int cmp;

	if (c->made_core && !c->made)
		return ord_error_set(ORD_EBADDATA,
				     "the entry's made_core=%s names the core revision the game was made with, but the entry logs no made=: an orderly that logs the one logs the other, and a game made before logs neither",
				     shown(c->made_core, "(a value that is no revision)"));
	if (c->made_core && (ord_canon_revision_cmp(c->made_core, ORD_GAME_MADE_CORE, &cmp) || cmp < 0))
		return ord_error_set(ORD_EBADDATA,
				     "the entry's made_core=%s is not a core revision of %s or later (expected YYYY-MM-DD.N): an orderly that logs it writes its own, %s or later, and a game made before logs none",
				     shown(c->made_core, "(a value that is no revision)"),
				     ORD_GAME_MADE_CORE, ORD_GAME_MADE_CORE);
	if (c->made_rules && !c->made_core)
		return ord_error_set(ORD_EBADDATA,
				     "the entry's made_rules=%s names the rules revision the game was made with, but the entry logs no made_core=: an orderly that logs the one logs the other",
				     shown(c->made_rules, "(a value that is no revision)"));
	if (c->made_rules && !ord_canon_rules_word(c->made_rules))
		return ord_error_set(ORD_EBADDATA,
				     "the entry's made_rules=%s is not a rules revision (expected a word of at most 31 characters a reader sees, as a module names its revision)",
				     shown(c->made_rules, "(a value that is no revision)"));
	return 0;
}

int ord_canon_rules_word(const char *v)
{
	const char *p;

	for (p = v; *p; p++)
		if (*p <= 0x20 || *p >= 0x7F || p - v >= 31)
			return 0;
	return p > v;
}

int ord_canon_config_read(struct ord_canon_config *out, const char *body)
{
	char *v;
	const char *missing = NULL;

	memset(out, 0, sizeof(*out));
	out->ruleset = ord_canon_get(body, "ruleset");
	out->nmr = ord_canon_get(body, "nmr");
	if (!out->ruleset)
		missing = "ruleset";
	else if (!out->nmr)
		missing = "nmr";
	if ((v = ord_canon_get(body, "nmr_repeat")) != NULL) {
		out->repeat_orders = !strcmp(v, "orders");
		if (!out->repeat_orders && !missing)
			missing = "nmr_repeat";
	}
	free(v);
	if ((v = ord_canon_get(body, "fixed_dice")) != NULL)
		out->fixed_dice = !strcmp(v, "1");
	else if (!missing)
		missing = "fixed_dice";
	free(v);
	if ((v = ord_canon_get(body, "referee")) != NULL)
		out->refereeless = !strcmp(v, "no");
	else if (!missing)
		missing = "referee";
	free(v);
	if ((v = ord_canon_get(body, "witnessed")) != NULL)
		out->witnessed = !strcmp(v, "yes");
	else if (!missing)
		missing = "witnessed";
	free(v);
	/* absent in the games made before dice were keyed by events */
	if ((v = ord_canon_get(body, "dice")) != NULL) {
		out->dice_by_events = 1;
		if (strcmp(v, "events") && !missing)
			missing = "dice";
	}
	free(v);
	/* absent in the games made before 2026-12-07 (ORD_GAME_MADE); an
	 * orderly that logs it writes its own date, never one before: a
	 * made= that is no such date (2000-01-01, junk) would pass a new
	 * game off as an old one, whose checks are notes */
	if ((v = ord_canon_get(body, "made")) != NULL) {
		out->made = v;
		if (!made_ok(v) && !missing) {
			int err = ord_error_set(ORD_EBADDATA,
						"the entry's made=%s is not a date of %s or later (expected YYYY-MM-DD): an orderly that logs made= writes the day it was built, on or after %s, and a game made before logs none",
						shown(v, "(a value that is no date)"),
						ORD_GAME_MADE, ORD_GAME_MADE);
			ord_canon_config_release(out);
			return err;
		}
	}
	/* absent in the games made before the marker (ORD_GAME_MADE_CORE) */
	out->made_core = ord_canon_get(body, "made_core");
	out->made_rules = ord_canon_get(body, "made_rules");
	if (!missing) {
		int err = marker_check(out);
		if (err) {
			ord_canon_config_release(out);
			return err;
		}
	}
	if (get_hex(out->scenario, 32, body, "scenario") && !missing)
		missing = "scenario";
	if (get_hex(out->tables, 32, body, "tables") && !missing)
		missing = "tables";
	if (get_hex(out->key, 32, body, "key") && !missing)
		missing = "key";
	if (missing) {
		ord_canon_config_release(out);
		return ord_error_set(ORD_EBADDATA, "the entry names no '%s' of the game", missing);
	}
	return 0;
}

int ord_canon_made_since_day(const char *made, const char *date)
{
	/* both YYYY-MM-DD (made_ok): the text's order is the days' */
	return made && strcmp(made, date) >= 0;
}

int ord_canon_made_since(const struct ord_canon_config *c, const char *date)
{
	return ord_canon_made_since_day(c->made, date);
}

int ord_canon_made_since_core_of(const char *made, const char *made_core, const char *rev)
{
	char day[11];
	int cmp;

	if (made_core)
		return !ord_canon_revision_cmp(made_core, rev, &cmp) && cmp >= 0;
	/* no marker: made before it, by an orderly of ORD_GAME_MADE_CORE at
	 * the most; the day rule up to it (made=2026-12-07 reads as
	 * 2026-12-07.1), made before every later revision */
	if (ord_canon_revision_cmp(rev, ORD_GAME_MADE_CORE, &cmp) || cmp > 0)
		return 0;
	memcpy(day, rev, 10);
	day[10] = '\0';
	return ord_canon_made_since_day(made, day);
}

int ord_canon_made_since_core(const struct ord_canon_config *c, const char *rev)
{
	return ord_canon_made_since_core_of(c->made, c->made_core, rev);
}

void ord_canon_config_release(struct ord_canon_config *c)
{
	free((char *)c->ruleset);
	free((char *)c->nmr);
	free((char *)c->made);
	free((char *)c->made_core);
	free((char *)c->made_rules);
	memset(c, 0, sizeof(*c));
}

const char *ord_canon_config_diff(const struct ord_canon_config *a, const struct ord_canon_config *b)
{
	if (strcmp(a->ruleset, b->ruleset))
		return "ruleset";
	if (strcmp(a->nmr, b->nmr) || !a->repeat_orders != !b->repeat_orders)
		return "NMR policy";
	if (!a->fixed_dice != !b->fixed_dice)
		return "fixed dice";
	if (!a->refereeless != !b->refereeless)
		return "referee";
	if (!a->witnessed != !b->witnessed)
		return "witnessed dice";
	if (!a->dice_by_events != !b->dice_by_events)
		return "dice keyed by events";
	if (!a->made != !b->made || (a->made && strcmp(a->made, b->made)))
		return "orderly that made it";
	if (!a->made_core != !b->made_core || (a->made_core && strcmp(a->made_core, b->made_core)))
		return "core revision it was made with";
	if (!a->made_rules != !b->made_rules || (a->made_rules && strcmp(a->made_rules, b->made_rules)))
		return "rules revision it was made with";
	if (memcmp(a->scenario, b->scenario, 32))
		return "scenario";
	if (memcmp(a->tables, b->tables, 32))
		return "tables";
	if (memcmp(a->key, b->key, 32))
		return "key";
	return NULL;
}

/* ---- the kinds ---- */

void ord_canon_create(struct ord_buf *out, const unsigned char game_id[16], const char *title,
		      const struct ord_canon_config *c)
{
	ord_canon_putf(out, "protocol", "%d", ORD_LOG_PROTOCOL);
	ord_canon_put_hex(out, "game_id", game_id, 16);
	ord_canon_put(out, "title", title);
	put_config(out, c);
}

void ord_canon_open(struct ord_buf *out, int turn, const unsigned char seed_commitment[32],
		    const struct ord_canon_config *c, size_t nunits,
		    const unsigned char state_root[32], const unsigned char *sides_root,
		    const unsigned char *units_root, const struct ord_canon_last *last, size_t nlast)
{
	size_t i;

	ord_canon_putf(out, "turn", "%d", turn);
	ord_canon_put_hex(out, "seed_commitment", seed_commitment, 32);
	put_config(out, c);
	ord_canon_putf(out, "units", "%zu", nunits);
	ord_canon_put_hex(out, "state_root", state_root, 32);
	if (sides_root)
		ord_canon_put_hex(out, "sides_root", sides_root, 32);
	if (units_root)
		ord_canon_put_hex(out, "units_root", units_root, 32);
	for (i = 0; i < nlast; i++) {
		struct ord_buf k = ORD_BUF_INIT;
		ord_buf_addf(&k, "last.%s", last[i].side);
		if (last[i].have)
			ord_canon_put_hex(out, k.buf, last[i].bytes, 32);
		else
			ord_canon_put(out, k.buf, "none");
		ord_buf_release(&k);
	}
}

void ord_canon_exchange(struct ord_buf *out, int turn, const unsigned char seed[32],
			const unsigned char *referee_witness)
{
	ord_canon_putf(out, "turn", "%d", turn);
	ord_canon_put_hex(out, "seed", seed, 32);
	if (referee_witness)
		ord_canon_put_hex(out, "referee_witness", referee_witness, 32);
}

void ord_canon_sheet(struct ord_buf *out, const char *side, int version, const char *source,
		     const unsigned char commitment[32], const unsigned char *signature,
		     const unsigned char *witness)
{
	ord_canon_put(out, "side", side);
	ord_canon_putf(out, "version", "%d", version);
	ord_canon_put(out, "source", source);
	ord_canon_put_hex(out, "commitment", commitment, 32);
	if (signature)
		ord_canon_put_hex(out, "signature", signature, 64);
	if (witness)
		ord_canon_put_hex(out, "witness", witness, 32);
}

void ord_canon_commit(struct ord_buf *out, const char *side, int version,
		      const unsigned char commitment[32], const unsigned char signature[64])
{
	ord_canon_put(out, "side", side);
	ord_canon_putf(out, "version", "%d", version);
	ord_canon_put_hex(out, "commitment", commitment, 32);
	ord_canon_put_hex(out, "signature", signature, 64);
}

void ord_canon_opening(struct ord_buf *out, const char *side, int version,
		       const unsigned char commitment[32])
{
	ord_canon_put(out, "side", side);
	ord_canon_putf(out, "version", "%d", version);
	ord_canon_put_hex(out, "commitment", commitment, 32);
}

void ord_canon_seal(struct ord_buf *out, int turn, int forced, const struct ord_canon_sealed *s,
		    size_t n, const char *held, const unsigned char *referee_top, int sheets_checked)
{
	size_t i;

	ord_canon_putf(out, "turn", "%d", turn);
	ord_canon_putf(out, "forced", "%d", forced ? 1 : 0);
	for (i = 0; i < n; i++) {
		struct ord_buf k = ORD_BUF_INIT, v = ORD_BUF_INIT;
		ord_buf_addf(&k, "sealed.%s", s[i].side);
		ord_buf_addf(&v, "%d:", s[i].version);
		ord_buf_add_hex(&v, s[i].commitment, 32);
		ord_canon_put(out, k.buf, v.buf);
		ord_buf_release(&k);
		ord_buf_release(&v);
	}
	ord_canon_put(out, "held", held ? held : "");
	if (referee_top)
		ord_canon_put_hex(out, "referee_witness_top", referee_top, 32);
	if (sheets_checked)
		ord_canon_put(out, "sheets_checked", "1");
}

/* "V:HEX" of a "sealed.SIDE" line */
static int sealed_value(const char *v, int *version, unsigned char commitment[32])
{
	const char *colon = strchr(v, ':');
	char num[16];
	long n;

	if (!colon || colon == v || (size_t)(colon - v) >= sizeof(num))
		return 0;
	memcpy(num, v, (size_t)(colon - v));
	num[colon - v] = '\0';
	if (ord_parse_long(num, &n) || n < 1 || n > INT_MAX || strlen(colon + 1) != 64 ||
	    ord_unhex(commitment, 32, colon + 1) != 32)
		return 0;
	*version = (int)n;
	return 1;
}

int ord_canon_sealed_get(const char *body, const char *side, int *version, unsigned char commitment[32])
{
	struct ord_buf k = ORD_BUF_INIT;
	char *v;
	int ok;

	ord_buf_addf(&k, "sealed.%s", side);
	v = ord_canon_get(body, k.buf);
	ord_buf_release(&k);
	ok = v && sealed_value(v, version, commitment);
	free(v);
	return ok;
}

int ord_canon_seal_takes(const char *body, const unsigned char commitment[32])
{
	unsigned char c[32];
	char line[96];
	const char *p, *nl, *eq;
	size_t n;
	int version;

	for (p = body; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		n = nl ? (size_t)(nl - p) : strlen(p);
		if (strncmp(p, "sealed.", 7) || !(eq = memchr(p, '=', n)) ||
		    n - (size_t)(eq + 1 - p) >= sizeof(line))
			continue;
		memcpy(line, eq + 1, n - (size_t)(eq + 1 - p));
		line[n - (size_t)(eq + 1 - p)] = '\0';
		if (sealed_value(line, &version, c) && !memcmp(c, commitment, 32))
			return 1;
	}
	return 0;
}

void ord_canon_event(struct ord_buf *out, unsigned seq, const char *phase, const char *kind,
		     const char *args, const char *override, const char *checks)
{
	const char *p = args;
	char num[24];

	/* as ord_canon_put writes each line, written in place: the verifier
	 * makes an event's text again each time it reads its log entry */
	ord_fmt_long(num, (long)seq);
	ord_canon_put(out, "seq", num);
	ord_canon_put(out, "phase", phase);
	ord_canon_put(out, "kind", kind);
	while (*p) {
		const char *nl = strchr(p, '\n'), *e = nl ? nl : p + strlen(p);
		const char *eq = memchr(p, '=', (size_t)(e - p));

		ord_buf_adds(out, "arg.");
		ord_buf_add(out, p, eq ? (size_t)(eq - p) : (size_t)(e - p));
		ord_buf_addch(out, '=');
		put_escaped(out, eq ? eq + 1 : e, eq ? (size_t)(e - eq - 1) : 0);
		p = nl ? nl + 1 : e;
	}
	if (override)
		ord_canon_put(out, "override", override);
	if (checks && *checks)
		ord_canon_put(out, "checks", checks);
}

void ord_canon_void(struct ord_buf *out, int turn, unsigned seq, const char *reason)
{
	ord_canon_putf(out, "turn", "%d", turn);
	ord_canon_putf(out, "seq", "%u", seq);
	ord_canon_put(out, "reason", reason);
}

void ord_canon_close(struct ord_buf *out, int turn, int index, const char *phase,
		     const unsigned char events[32], const unsigned char *blind)
{
	ord_canon_putf(out, "turn", "%d", turn);
	ord_canon_putf(out, "index", "%d", index);
	ord_canon_put(out, "phase", phase);
	ord_canon_put_hex(out, "events", events, 32);
	if (blind)
		ord_canon_put_hex(out, "blind", blind, 32);
}

void ord_canon_witness(struct ord_buf *out, int turn, int index, const char *side,
		       const unsigned char link[32], const unsigned char *blind)
{
	ord_canon_putf(out, "turn", "%d", turn);
	ord_canon_putf(out, "index", "%d", index);
	ord_canon_put(out, "side", side);
	ord_canon_put_hex(out, "link", link, 32);
	if (blind)
		ord_canon_put_hex(out, "blind", blind, 32);
}

void ord_canon_resolve(struct ord_buf *out, int turn, const char *phase, int index, int nrolls,
		       int nresults, int nstates, const unsigned char digest[32],
		       const unsigned char *state_root, const char *stood_in, const char *core,
		       const char *rules)
{
	ord_canon_putf(out, "turn", "%d", turn);
	ord_canon_put(out, "phase", phase);
	ord_canon_putf(out, "index", "%d", index);
	ord_canon_putf(out, "rolls", "%d", nrolls);
	ord_canon_putf(out, "results", "%d", nresults);
	ord_canon_putf(out, "states", "%d", nstates);
	ord_canon_put_hex(out, "digest", digest, 32);
	if (state_root)
		ord_canon_put_hex(out, "state_root", state_root, 32);
	if (stood_in && *stood_in)
		ord_canon_put(out, "stood_in", stood_in);
	if (core)
		ord_canon_put(out, "core_revision", core);
	if (rules)
		ord_canon_put(out, "rules_revision", rules);
}

void ord_canon_deadline(struct ord_buf *out, int turn, int64_t when)
{
	ord_canon_putf(out, "turn", "%d", turn);
	ord_canon_putf(out, "deadline", "%lld", (long long)when);
}
