/*
 * scenario.c - reading a scenario file: hardened parse, RelaxNG validation
 * against schema/scenario.rng, then what a schema cannot check (unique ids
 * and names, units on declared sides, real dates), and the ruleset's unit
 * attributes.
 *
 * Why the document is walked with its own structural checks although the
 * schema has already judged it: libxml2's RelaxNG messages rarely say what
 * was expected ("Did not expect element side there" for a missing title,
 * "Element side failed to validate attributes" for a bad id).  The schema
 * stays the authority; when it refuses a document, the walk that reads it
 * is run to find the fault and word it better, and the schema's own message
 * is kept when the walk finds nothing.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/argcheck.h"
#include "core/lookalike.h"
#include "core/scenario.h"
#include "xml/xmlsafe.h"

#define SCENARIO_SCHEMA "schema/scenario.rng"
#define MAX_PROBLEMS 20        /* messages shown; the rest are counted */
#define MAX_PROBLEM_BYTES 1800 /* the thread's error message holds 2048 */
#define MAX_TITLE 200          /* characters, as in the schema */
#define MAX_NAME 100           /* characters of a side or unit name, as in the schema */
#define MAX_ID 32              /* characters of a side or unit id */
#define MAX_RULESET 64         /* characters of a ruleset name */
#define MAX_SIDES 64 /* sides of a game: a verifier's checks of each side go over every sheet */

/* The children of <scenario>, in the order the schema requires. */
enum {
	EL_TITLE,
	EL_DESCRIPTION,
	EL_DEADLINE,
	EL_NMR,
	EL_SCHEDULE,
	EL_MAIL,
	EL_SIDE,
	EL_UNIT,
	EL_COUNT
};
static const char *const element_names[EL_COUNT] = {
	"title", "description", "deadline", "nmr", "schedule", "mail", "side", "unit",
};

/* Problems found by the checks that report everything at once. */
struct problem {
	long line;    /* where, for sorting; 0 when not known */
	unsigned col; /* 0 when not known */
	size_t seq;   /* order found, to keep sorting stable */
	char *msg;    /* "FILE:LINE: ..." */
};
struct problems {
	const char *name;
	struct problem *items;
	size_t n, alloc;
};

void ord_scenario_init(struct ord_scenario *sc)
{
	memset(sc, 0, sizeof(*sc));
	ord_schedule_init(&sc->schedule);
}

void ord_scenario_release(struct ord_scenario *sc)
{
	size_t i;

	ord_scenario_drop_positions(sc);
	free(sc->title);
	free(sc->description);
	free(sc->ruleset);
	free(sc->nmr);
	free(sc->mail_address);
	free(sc->referee_email);
	free(sc->deadline_problem);
	for (i = 0; i < sc->nsides; i++) {
		free(sc->sides[i].id);
		free(sc->sides[i].name);
		free(sc->sides[i].pubkey);
		free(sc->sides[i].email);
	}
	free(sc->sides);
	for (i = 0; i < sc->nunits; i++)
		ord_kv_release(&sc->units[i].attrs); /* the strings are unit_strings' */
	free(sc->units);
	ord_arena_release(&sc->unit_strings);
	ord_kv_pool_release(&sc->pool);
	ord_scenario_init(sc);
}

/* ---- messages ------------------------------------------------------- */

static void vformat_at(struct ord_buf *b, const char *name, long line, unsigned col,
		       const char *fmt, va_list ap)
{
	if (line > 0 && col > 0)
		ord_buf_addf(b, "%s:%ld:%u: ", name, line, col);
	else if (line > 0)
		ord_buf_addf(b, "%s:%ld: ", name, line);
	else
		ord_buf_addf(b, "%s: ", name);
	ord_buf_vaddf(b, fmt, ap);
}

/* Set the error for the first fault of a walk: "FILE:LINE:COL: ...", or
 * "FILE:LINE: ..." when col is 0 (bad). */
static int bad_at(const char *name, long line, unsigned col, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
#define bad(name, line, ...) bad_at(name, line, 0, __VA_ARGS__)
static int bad_at(const char *name, long line, unsigned col, const char *fmt, ...)
{
	struct ord_buf b = ORD_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	vformat_at(&b, name, line, col, fmt, ap);
	va_end(ap);
	ord_error_set(ORD_EBADDATA, "%s", b.buf);
	ord_buf_release(&b);
	return ORD_EBADDATA;
}

static void problem_at(struct problems *p, long line, unsigned col, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
#define problem(p, line, ...) problem_at(p, line, 0, __VA_ARGS__)
static void problem_at(struct problems *p, long line, unsigned col, const char *fmt, ...)
{
	struct ord_buf b = ORD_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	vformat_at(&b, p->name, line, col, fmt, ap);
	va_end(ap);
	if (p->n == p->alloc) {
		p->alloc = p->alloc ? 2 * p->alloc : 16;
		p->items = ord_xrealloc(p->items, p->alloc * sizeof(*p->items));
	}
	p->items[p->n].line = line;
	p->items[p->n].col = col;
	p->items[p->n].seq = p->n;
	p->items[p->n].msg = ord_buf_detach(&b, NULL);
	p->n++;
}

static int problem_cmp(const void *a, const void *b)
{
	const struct problem *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Report the problems in file order, the first MAX_PROBLEMS of them (fewer if
 * they would not fit the error message), and free them. */
static int problems_finish(struct problems *p)
{
	struct ord_buf b = ORD_BUF_INIT;
	size_t i, shown = 0;
	int err = 0;

	if (p->n == 0)
		goto out;
	qsort(p->items, p->n, sizeof(*p->items), problem_cmp);
	for (i = 0; i < p->n && shown < MAX_PROBLEMS; i++) {
		if (shown && b.len + 1 + strlen(p->items[i].msg) > MAX_PROBLEM_BYTES)
			break;
		if (shown)
			ord_buf_addch(&b, '\n');
		ord_buf_adds(&b, p->items[i].msg);
		shown++;
	}
	if (shown < p->n)
		ord_buf_addf(&b, "\n%s: %zu more problem%s not shown", p->name, p->n - shown,
			     p->n - shown == 1 ? "" : "s");
	err = ord_error_set(ORD_EBADDATA, "%s", b.buf);
out:
	for (i = 0; i < p->n; i++)
		free(p->items[i].msg);
	free(p->items);
	p->items = NULL;
	p->n = p->alloc = 0;
	ord_buf_release(&b);
	return err;
}

/* ---- values --------------------------------------------------------- */

static int is_xml_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* What xsd:token does before the schema compares: runs of white space become
 * one space, none at either end.  Returns a new string. */
static char *collapse(const char *s)
{
	char *out = ord_xmalloc(strlen(s) + 1), *q = out;
	int space = 0;

	for (; *s; s++) {
		if (is_xml_space((unsigned char)*s)) {
			space = q != out;
			continue;
		}
		if (space)
			*q++ = ' ';
		space = 0;
		*q++ = *s;
	}
	*q = '\0';
	return out;
}

/* Strip white space at both ends, in place. */
static char *trim(char *s)
{
	size_t len = strlen(s), start = 0;

	while (len && is_xml_space((unsigned char)s[len - 1]))
		len--;
	while (start < len && is_xml_space((unsigned char)s[start]))
		start++;
	memmove(s, s + start, len - start);
	s[len - start] = '\0';
	return s;
}

/* Characters (not bytes) of UTF-8 text, as the schema's maxLength counts. */
static size_t utf8_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			n++;
	return n;
}

/* 1 if s is 1 to max characters, each a-z, 0-9 or one of extra (or A-Z if upper). */
static int word_ok(const char *s, size_t max, int upper, const char *extra)
{
	size_t n = 0;

	for (; *s; s++, n++) {
		unsigned char c = (unsigned char)*s;
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      (upper && c >= 'A' && c <= 'Z') || strchr(extra, c)))
			return 0;
	}
	return n >= 1 && n <= max;
}

/* Bytes of s to quote in a message: at most max, never half a character. */
static int clip(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n <= max)
		return (int)n;
	while (max && ((unsigned char)s[max] & 0xC0) == 0x80)
		max--;
	return (int)max;
}

/* name@host: no blanks, brackets or quotes; one '@' with something on each side */
static int email_ok(const char *s)
{
	const char *at = strchr(s, '@'), *p;

	if (!at || at == s || !at[1] || strchr(at + 1, '@') || strlen(s) > 250)
		return 0;
	for (p = s; *p; p++)
		if ((unsigned char)*p <= ' ' || strchr("<>()[]\\,;:\"", *p))
			return 0;
	return 1;
}

static int hex64_ok(const char *s)
{
	size_t n;

	for (n = 0; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f') ||
		      (s[n] >= 'A' && s[n] <= 'F')))
			return 0;
	return n == 64;
}

/* Any form of ord_when_parse (relative forms count from now, the game's
 * creation); a time before 1970 is refused there.  A local time its zone's
 * clocks skip or show twice is read as it always was, the game's stored
 * scenario being read again by every audit: its refusal is kept in
 * deadline_problem, for `orderly new` to say (when.c, W2). */
static int parse_deadline(struct ord_scenario *sc, const char *s, const char *name, long line)
{
	int64_t now = (int64_t)time(NULL), t;

	if (ord_when_parse_stored(&sc->deadline, s, now))
		return -1;
	if (ord_when_parse(&t, s, now)) {
		struct ord_buf b = ORD_BUF_INIT;

		ord_buf_adds(&b, ord_error_last());
		ord_error_clear();
		bad(name, line, "deadline '%.*s': %s", clip(s, 60), s, b.buf);
		free(sc->deadline_problem);
		sc->deadline_problem = ord_strdup(ord_error_last());
		ord_error_clear();
		ord_buf_release(&b);
	}
	return 0;
}

/*
 * Room for one more item in an array of n: the capacity is the power of two
 * at or above n, so it doubles (a realloc per item made a scenario of many
 * units quadratic where realloc copies, as under ASan).
 */
static void *grow(void *items, size_t n, size_t size)
{
	if (n == 0 || (n & (n - 1)) == 0)
		items = ord_xrealloc(items, (n ? 2 * n : 1) * size);
	return items;
}

/* ---- where each unit's attributes are ---------------------------------- */

/* A cursor over the file's bytes that counts lines and columns (a column
 * is a character: a UTF-8 continuation byte does not start one). */
struct scan {
	const char *p, *end;
	unsigned line, col;
};

static void scan_step(struct scan *s)
{
	if (*s->p == '\n') {
		s->line++;
		s->col = 1;
	} else if (((unsigned char)*s->p & 0xC0) != 0x80) {
		s->col++;
	}
	s->p++;
}

/* Where unit element n's attributes are written, into u->pos (nothing when
 * its document was not indexed: a message then names the unit's line). */
static void locate_unit(struct ord_scenario_unit *u, xmlNodePtr n)
{
	const struct ord_xml_lines *l = n->doc ? n->doc->_private : NULL;
	const char *q = ord_xml_start_tag(l, n);
	struct scan at, *s = &at;
	size_t i;

	if (!q)
		return;
	at.p = q;
	at.end = l->bytes + l->len;
	ord_xml_where(l, q, &at.line, &at.col);
	u->col = s->col; /* u->line is the same start line (line_of) */
	for (i = 0; i < 5; i++)
		scan_step(s);
	while (s->p < s->end && *s->p != '>' && *s->p != '/') {
		struct ord_scenario_pos *ps;
		const char *name;
		char quote;

		if (is_xml_space(*s->p)) {
			scan_step(s);
			continue;
		}
		u->pos = grow(u->pos, u->npos, sizeof(*u->pos));
		ps = &u->pos[u->npos++];
		ps->line = s->line;
		ps->col = s->col;
		name = s->p;
		while (s->p < s->end && *s->p != '=' && !is_xml_space(*s->p))
			scan_step(s);
		ps->attr = ord_xmalloc((size_t)(s->p - name) + 1);
		memcpy(ps->attr, name, (size_t)(s->p - name));
		ps->attr[s->p - name] = '\0';
		while (s->p < s->end && *s->p != '"' && *s->p != '\'')
			scan_step(s);
		if (s->p >= s->end)
			break;
		quote = *s->p;
		scan_step(s);
		ps->value_line = s->line;
		ps->value_col = s->col;
		while (s->p < s->end && *s->p != quote)
			scan_step(s);
		if (s->p < s->end)
			scan_step(s);
	}
}

/* ---- the walk ------------------------------------------------------- */

/* The line n's start tag begins on (libxml2 names the line it ends on:
 * a tag written over several lines would be named by its last). */
static long line_of(xmlNodePtr n)
{
	return (long)ord_xml_line(n);
}

/* libxml2 gives a text node the line where its first chunk ended; count
 * back to the line of its first non-space character. */
static long text_line(xmlNodePtr n)
{
	long line = xmlGetLineNo(n);
	const xmlChar *p = n->content;

	while (p && *p && is_xml_space(*p))
		p++;
	for (; p && *p; p++)
		if (*p == '\n' && line > 1)
			line--;
	return line;
}

static int only_space(const xmlChar *s)
{
	for (; s && *s; s++)
		if (!is_xml_space(*s))
			return 0;
	return 1;
}

/* An element that may hold text only (title, description, deadline). */
static int check_text_only(xmlNodePtr n, const char *name)
{
	xmlNodePtr c;

	for (c = n->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			return bad(name, line_of(c),
				   "unexpected element <%s> in <%s> (expected text only)",
				   (const char *)c->name, (const char *)n->name);
	if (n->properties)
		return bad(name, line_of(n), "unknown attribute '%s' on <%s> (expected none)",
			   (const char *)n->properties->name, (const char *)n->name);
	return 0;
}

/* An element that must be empty (nmr, side, unit). */
static int check_empty(xmlNodePtr n, const char *name)
{
	xmlNodePtr c;

	for (c = n->children; c; c = c->next) {
		if (c->type == XML_ELEMENT_NODE)
			return bad(name, line_of(c),
				   "unexpected element <%s> in <%s> (expected an empty element)",
				   (const char *)c->name, (const char *)n->name);
		if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) &&
		    !only_space(c->content))
			return bad(name, text_line(c),
				   "unexpected text in <%s> (expected an empty element)",
				   (const char *)n->name);
	}
	return 0;
}

/* Refuse namespaced attributes and, when allowed is given, any other name. */
static int check_attr_names(xmlNodePtr n, const char *const *allowed, const char *expected,
			    const char *name)
{
	xmlAttrPtr a;
	size_t i;

	for (a = n->properties; a; a = a->next) {
		if (a->ns)
			return bad(name, line_of(n),
				   "attribute '%s:%s' on <%s> is not accepted (expected attributes without a namespace)",
				   a->ns->prefix ? (const char *)a->ns->prefix : "",
				   (const char *)a->name, (const char *)n->name);
		if (!allowed)
			continue;
		for (i = 0; allowed[i]; i++)
			if (!strcmp(allowed[i], (const char *)a->name))
				break;
		if (!allowed[i])
			return bad(name, line_of(n), "unknown attribute '%s' on <%s> (expected %s)",
				   (const char *)a->name, (const char *)n->name, expected);
	}
	return 0;
}

/* A required attribute, white space collapsed; *out NULL on error. */
static int required_attr(char **out, xmlNodePtr n, const char *attr, const char *expected,
			 const char *name)
{
	char *raw = ord_xml_attr(n, attr);

	*out = NULL;
	if (!raw)
		return bad(name, line_of(n), "<%s> has no '%s' attribute (expected %s)",
			   (const char *)n->name, attr, expected);
	*out = collapse(raw);
	free(raw);
	return 0;
}

static int check_name(const char *value, xmlNodePtr n, const char *what, const char *name)
{
	if (!*value)
		return bad(name, line_of(n), "%s name is empty (expected 1 to %d characters)", what,
			   MAX_NAME);
	if (utf8_chars(value) > MAX_NAME)
		return bad(name, line_of(n),
			   "%s name '%.*s...' is too long (expected at most %d characters)", what,
			   clip(value, 40), value, MAX_NAME);
	return 0;
}

static int read_side(struct ord_scenario *sc, xmlNodePtr n, const char *name)
{
	static const char *const allowed[] = { "id", "name", "pubkey", "email", NULL };
	struct ord_scenario_side *s;
	char *raw;
	size_t i;
	int err;

	if ((err = check_attr_names(n, allowed, "id, name, pubkey, email", name)) != 0 ||
	    (err = check_empty(n, name)) != 0)
		return err;
	if (sc->nsides == MAX_SIDES)
		return bad(name, line_of(n), "side %d: more than %d sides (expected at most %d)",
			   MAX_SIDES + 1, MAX_SIDES, MAX_SIDES);
	sc->sides = grow(sc->sides, sc->nsides, sizeof(*sc->sides));
	s = &sc->sides[sc->nsides++];
	memset(s, 0, sizeof(*s));
	s->line = (unsigned)line_of(n);
	if ((err = required_attr(&s->id, n, "id", "a side id of a-z 0-9 _ -", name)) != 0)
		return err;
	if (!word_ok(s->id, MAX_ID, 0, "_-"))
		return bad(name, line_of(n),
			   "side id '%s' is not valid (expected 1 to %d of a-z 0-9 _ -)", s->id,
			   MAX_ID);
	if ((err = required_attr(&s->name, n, "name", "the side's display name", name)) != 0 ||
	    (err = check_name(s->name, n, "side", name)) != 0)
		return err;
	if ((raw = ord_xml_attr(n, "pubkey")) != NULL) {
		s->pubkey = collapse(raw);
		free(raw);
		if (!hex64_ok(s->pubkey))
			return bad(name, line_of(n),
				   "side '%s': pubkey '%.*s' is not valid (expected 64 hex digits, an Ed25519 public key)",
				   s->id, clip(s->pubkey, 70), s->pubkey);
		for (i = 0; s->pubkey[i]; i++)
			if (s->pubkey[i] >= 'A' && s->pubkey[i] <= 'F')
				s->pubkey[i] = (char)(s->pubkey[i] - 'A' + 'a');
	}
	if ((raw = ord_xml_attr(n, "email")) != NULL) {
		s->email = collapse(raw);
		free(raw);
		if (!email_ok(s->email))
			return bad(name, line_of(n),
				   "side '%s': email '%.*s' is not a mail address (expected name@host)",
				   s->id, clip(s->email, 80), s->email);
	}
	return 0;
}

/* <schedule every="48h" at="18:00" zone="..." grace="1h" remind="24h,2h" autoseal="yes"/> */
static int read_schedule(struct ord_scenario *sc, xmlNodePtr n, const char *name)
{
	static const char *const allowed[] = { "every",  "at",       "zone", "grace",
					       "remind", "autoseal", NULL };
	size_t i;
	int err;

	if ((err = check_attr_names(n, allowed, "every, at, zone, grace, remind, autoseal", name)) != 0 ||
	    (err = check_empty(n, name)) != 0)
		return err;
	for (i = 0; allowed[i]; i++) {
		char *raw = ord_xml_attr(n, allowed[i]), *v;
		if (!raw)
			continue;
		v = collapse(raw);
		free(raw);
		err = ord_schedule_set(&sc->schedule, allowed[i], v);
		free(v);
		if (err)
			return bad(name, line_of(n), "%s", ord_error_last());
	}
	if (!sc->schedule.every)
		return bad(name, line_of(n),
			   "<schedule> has no 'every' attribute (expected the period between deadlines, such as 48h)");
	return 0;
}

/* <mail address="orderly@club.example" referee="ref@club.example" replies-per-hour="20"/> */
static int read_mail(struct ord_scenario *sc, xmlNodePtr n, const char *name)
{
	static const char *const allowed[] = { "address", "referee", "replies-per-hour", NULL };
	char *raw;
	long v;
	int err;

	if ((err = check_attr_names(n, allowed, "address, referee, replies-per-hour", name)) != 0 ||
	    (err = check_empty(n, name)) != 0)
		return err;
	if ((raw = ord_xml_attr(n, "address")) != NULL) {
		sc->mail_address = collapse(raw);
		free(raw);
		if (!email_ok(sc->mail_address))
			return bad(name, line_of(n),
				   "<mail> address '%.*s' is not a mail address (expected name@host)",
				   clip(sc->mail_address, 80), sc->mail_address);
	}
	if ((raw = ord_xml_attr(n, "referee")) != NULL) {
		sc->referee_email = collapse(raw);
		free(raw);
		if (!email_ok(sc->referee_email))
			return bad(name, line_of(n),
				   "<mail> referee '%.*s' is not a mail address (expected name@host)",
				   clip(sc->referee_email, 80), sc->referee_email);
	}
	if ((raw = ord_xml_attr(n, "replies-per-hour")) != NULL) {
		char *c = collapse(raw);
		free(raw);
		err = ord_parse_long(c, &v) || v < 1 || v > 10000;
		free(c);
		if (err)
			return bad(name, line_of(n),
				   "<mail> replies-per-hour is not a number from 1 to 10000");
		sc->replies_per_hour = (int)v;
	}
	return 0;
}

/* A unit's id, name and side, checked, in one block at u->id (a
 * scenario may hold 100,000 units); all NULL on error. */
static int unit_strings(struct ord_scenario *sc, struct ord_scenario_unit *u, xmlNodePtr n,
			const char *name)
{
	char *id = NULL, *nm = NULL, *side = NULL;
	struct ord_buf b = ORD_BUF_INIT;
	size_t li, ln, ls;
	unsigned line, col;
	int err;

	if ((err = required_attr(&id, n, "id", "a unit id of letters, digits _ . / -", name)) != 0)
		goto out;
	/* the schema leaves the id's form to this check (scenario.rng) */
	if (!word_ok(id, MAX_ID, 1, "_./-")) {
		col = ord_scenario_unit_col(u, "id", 1, &line);
		err = bad_at(name, line, col,
			     "unit id '%s' is not valid (expected 1 to %d of letters, digits _ . / -)",
			     id, MAX_ID);
		goto out;
	}
	if ((err = required_attr(&nm, n, "name", "the unit's display name", name)) != 0 ||
	    (err = check_name(nm, n, "unit", name)) != 0 ||
	    (err = required_attr(&side, n, "side", "the id of one of the sides", name)) != 0)
		goto out;
	li = strlen(id) + 1;
	ln = strlen(nm) + 1;
	ls = strlen(side) + 1;
	/* "id\0name\0side\0" in the scenario's arena (a block each cost
	 * 100,000 units 1.6 MB of malloc's own) */
	ord_buf_add(&b, id, li);
	ord_buf_add(&b, nm, ln);
	ord_buf_add(&b, side, ls - 1);
	u->id = ord_arena_strn(&sc->unit_strings, b.buf, b.len);
	u->name = u->id + li;
	u->side = u->id + li + ln;
	ord_buf_release(&b);
out:
	free(id);
	free(nm);
	free(side);
	return err;
}

/* Calls fn with each of n's attributes but the unit's id, name and side,
 * and its value as plain text (no entities ever reach here: xmlsafe). */
static void each_unit_attr(xmlNodePtr n, void (*fn)(const char *key, const char *v, void *arg),
			   void *arg)
{
	xmlAttrPtr a;

	for (a = n->properties; a; a = a->next) {
		xmlChar *v;
		const char *key = (const char *)a->name;

		if (!strcmp(key, "id") || !strcmp(key, "name") || !strcmp(key, "side"))
			continue;
		v = xmlNodeListGetString(n->doc, a->children, 1);
		fn(key, v ? (const char *)v : "", arg);
		xmlFree(v);
	}
}

static void set_attr(const char *key, const char *v, void *arg)
{
	ord_kv_set(arg, key, v);
}

struct attr_text {
	struct ord_buf buf;
	int lines_apart; /* a value holds a newline */
};

static void add_attr_text(const char *key, const char *v, void *arg)
{
	struct attr_text *t = arg;

	if (strchr(v, '\n'))
		t->lines_apart = 1;
	ord_buf_adds(&t->buf, key);
	ord_buf_addch(&t->buf, '=');
	ord_buf_adds(&t->buf, v);
	ord_buf_addch(&t->buf, '\n');
}

static int read_unit(struct ord_scenario *sc, xmlNodePtr n, const char *name)
{
	struct ord_scenario_unit *u;
	struct attr_text text = { ORD_BUF_INIT, 0 };
	int err;

	if ((err = check_attr_names(n, NULL, NULL, name)) != 0 || (err = check_empty(n, name)) != 0)
		return err;
	sc->units = grow(sc->units, sc->nunits, sizeof(*sc->units));
	u = &sc->units[sc->nunits++];
	memset(u, 0, sizeof(*u));
	ord_kv_init(&u->attrs);
	u->line = (unsigned)line_of(n);
	if (!sc->no_positions)
		locate_unit(u, n);
	if ((err = unit_strings(sc, u, n, name)) != 0)
		return err;
	/* the attributes as ord_kv_serialize writes a list, parsed into the
	 * pool: in one block, shared by the units of one kind (a string for
	 * each attribute of 100,000 units was a tenth of an audit's memory),
	 * and the text the units of a kind write alike found again without
	 * a parse (ord_kv_pool_parse) */
	each_unit_attr(n, add_attr_text, &text);
	if (!text.lines_apart) {
		err = ord_kv_pool_parse(&sc->pool, &u->attrs, text.buf.buf);
	} else {
		/* a value with a newline reads otherwise as text: set one by
		 * one, then in one block shared as above */
		ord_buf_reset(&text.buf);
		each_unit_attr(n, set_attr, &u->attrs);
		ord_kv_serialize(&u->attrs, &text.buf);
		ord_kv_pool_repack(&sc->pool, &u->attrs, &text.buf);
	}
	ord_buf_release(&text.buf);
	return err;
}

static int read_nmr(struct ord_scenario *sc, xmlNodePtr n, const char *name)
{
	static const char *const allowed[] = { "policy", NULL };
	char *v = NULL;
	int err;

	if ((err = check_attr_names(n, allowed, "policy", name)) != 0 ||
	    (err = check_empty(n, name)) != 0 ||
	    (err = required_attr(&v, n, "policy", "hold, repeat or wait", name)) != 0)
		goto out;
	if (strcmp(v, "hold") && strcmp(v, "repeat") && strcmp(v, "wait")) {
		err = bad(name, line_of(n),
			  "nmr policy '%s' is not known (expected hold, repeat or wait)", v);
		goto out;
	}
	free(sc->nmr);
	sc->nmr = v;
	v = NULL;
out:
	free(v);
	return err;
}

static int read_child(struct ord_scenario *sc, int which, xmlNodePtr n, const char *name)
{
	char *raw, *text;
	int err;

	switch (which) {
	case EL_TITLE:
		if ((err = check_text_only(n, name)) != 0)
			return err;
		raw = ord_xml_text(n);
		sc->title = collapse(raw);
		free(raw);
		if (!*sc->title)
			return bad(name, line_of(n),
				   "<title> is empty (expected the scenario's title)");
		if (utf8_chars(sc->title) > MAX_TITLE)
			return bad(name, line_of(n),
				   "<title> is too long (expected at most %d characters)", MAX_TITLE);
		return 0;
	case EL_DESCRIPTION:
		if ((err = check_text_only(n, name)) != 0)
			return err;
		free(sc->description);
		sc->description = trim(ord_xml_text(n));
		return 0;
	case EL_DEADLINE:
		if ((err = check_text_only(n, name)) != 0)
			return err;
		raw = ord_xml_text(n);
		text = collapse(raw);
		free(raw);
		if (parse_deadline(sc, text, name, line_of(n)))
			err = bad(name, line_of(n),
				  "deadline '%.*s' is not a valid date and time (expected ISO 8601 with a zone such as 2026-12-01T18:00:00Z, 2026-12-01T18:00+01:00 or 2026-12-01T18:00 Europe/Copenhagen, or +48h, +2d from the game's creation)",
				  clip(text, 40), text);
		free(text);
		return err;
	case EL_NMR: return read_nmr(sc, n, name);
	case EL_SCHEDULE: return read_schedule(sc, n, name);
	case EL_MAIL: return read_mail(sc, n, name);
	case EL_SIDE: return read_side(sc, n, name);
	default: return read_unit(sc, n, name);
	}
}

/* The walk of <scenario>'s children, whether over a tree or a stream. */
struct walk {
	size_t count[EL_COUNT];
	int state;       /* the last child's EL_*, -1 before the first */
	long root_line;  /* <scenario>'s line */
	long first_unit; /* the first <unit>'s line, 0 before it */
};

/* <scenario> itself: its name and its ruleset. */
static int read_root(struct ord_scenario *sc, struct walk *w, xmlNodePtr root, const char *name)
{
	static const char *const allowed[] = { "ruleset", NULL };
	int err;

	memset(w, 0, sizeof(*w));
	w->state = -1;
	w->root_line = line_of(root);
	if (strcmp((const char *)root->name, "scenario") || root->ns)
		return bad(name, line_of(root), "root element is <%s%s%s>, expected <scenario>%s",
			   root->ns && root->ns->prefix ? (const char *)root->ns->prefix : "",
			   root->ns && root->ns->prefix ? ":" : "", (const char *)root->name,
			   root->ns ? " with no namespace" : "");
	if ((err = check_attr_names(root, allowed, "ruleset", name)) != 0 ||
	    (err = required_attr(&sc->ruleset, root, "ruleset", "a ruleset name such as battalion",
				 name)) != 0)
		return err;
	if (!word_ok(sc->ruleset, MAX_RULESET, 0, "_"))
		return bad(name, line_of(root),
			   "ruleset '%s' is not a ruleset name (expected 1 to %d of a-z 0-9 _)",
			   sc->ruleset, MAX_RULESET);
	return 0;
}

/* Which child of <scenario> element n is (EL_*), in its place: else the
 * fault, and -1. */
static int child_which(struct walk *w, xmlNodePtr n, const char *name)
{
	int which;

	for (which = 0; which < EL_COUNT; which++)
		if (!strcmp(element_names[which], (const char *)n->name))
			break;
	if (n->ns)
		return bad(name, line_of(n),
			   "element <%s> in namespace '%s' is not accepted (expected no namespace)",
			   (const char *)n->name, (const char *)n->ns->href),
		       -1;
	if (which == EL_COUNT)
		return bad(name, line_of(n),
			   "unknown element <%s> in <scenario> (expected title, description, deadline, nmr, schedule, mail, side or unit)",
			   (const char *)n->name),
		       -1;
	if (w->state < 0 && which != EL_TITLE)
		return bad(name, line_of(n), "expected <title> first, found <%s>",
			   (const char *)n->name),
		       -1;
	if (which < w->state)
		return bad(name, line_of(n),
			   "<%s> after <%s> (expected the order title, description, deadline, nmr, schedule, mail, sides, units)",
			   (const char *)n->name, element_names[w->state]),
		       -1;
	if (which == w->state && which < EL_SIDE)
		return bad(name, line_of(n), "second <%s> (only one is allowed)",
			   (const char *)n->name),
		       -1;
	if (which == EL_UNIT && !w->first_unit)
		w->first_unit = line_of(n);
	w->state = which;
	w->count[which]++;
	return which;
}

/* What the whole of <scenario> must have had. */
static int read_end(struct ord_scenario *sc, const struct walk *w, const char *name)
{
	if (!w->count[EL_TITLE])
		return bad(name, w->root_line, "<scenario> has no <title> (expected <title> first)");
	if (w->count[EL_SIDE] < 2)
		return bad(name, w->first_unit ? w->first_unit : w->root_line,
			   "%s <side> (expected at least two sides)",
			   w->count[EL_SIDE] ? "only one" : "no");
	if (!w->count[EL_UNIT])
		return bad(name, w->root_line, "no <unit> in <scenario> (expected at least one)");
	if (!sc->nmr)
		sc->nmr = ord_strdup("hold");
	if (!sc->description)
		sc->description = ord_strdup("");
	return 0;
}

/* Read the whole document into sc, stopping at the first structural fault. */
static int read_doc(struct ord_scenario *sc, xmlDocPtr doc, const char *name)
{
	xmlNodePtr root = xmlDocGetRootElement(doc), n;
	struct walk w;
	int which, err;

	if (!root)
		return bad(name, 1, "no root element (expected <scenario>)");
	if ((err = read_root(sc, &w, root, name)) != 0)
		return err;
	for (n = root->children; n; n = n->next) {
		if ((n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) &&
		    !only_space(n->content))
			return bad(name, text_line(n),
				   "unexpected text in <scenario> (expected elements only)");
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if ((which = child_which(&w, n, name)) < 0)
			return ORD_EBADDATA;
		if ((err = read_child(sc, which, n, name)) != 0)
			return err;
	}
	return read_end(sc, &w, name);
}

/*
 * read_doc over a stream: the document validated as it is read, each
 * element read from the reader's node of it and let go, so that the tree
 * of a 100,000-unit scenario (200 MB, the peak of a game's audit) is
 * never built.  The elements are numbered as ord_xml_lines_init numbers a
 * tree's, so that each is named by the same line and column.  Any fault
 * is only said to be one: the caller reads the document again as a tree,
 * whose messages (the schema's, or the clearer one of the walk) stand.
 */
static int read_stream(struct ord_scenario *sc, const char *bytes, size_t len, const char *name,
		       const char *schema, struct ord_xml_lines *lines)
{
	struct ord_xml_stream *s;
	struct walk w;
	uintptr_t k = 0;
	int ev = 0, err = 0, which, root = 0;

	ord_xml_lines_init(lines, bytes, len, NULL);
	if (ord_xml_stream_open(&s, bytes, len, ORD_XML_MAX_BYTES, name, schema, NULL))
		return ORD_EBADDATA;
	memset(&w, 0, sizeof(w));
	while (!err && (ev = ord_xml_stream_next(s)) > 0) {
		int depth = ord_xml_stream_depth(s);
		xmlNodePtr n;
		size_t tlen;
		const char *text;

		if (ev == ORD_XML_TEXT) {
			text = ord_xml_stream_text(s, &tlen);
			if (depth == 1 && !only_space((const xmlChar *)text))
				err = ORD_EBADDATA;
			continue;
		}
		if (ev != ORD_XML_START)
			continue;
		if (!(n = ord_xml_stream_node(s, 0))) {
			err = ORD_EBADDATA;
			break;
		}
		n->_private = (void *)++k;
		if (n->doc)
			n->doc->_private = lines;
		if (depth == 0) {
			root = 1;
			err = read_root(sc, &w, n, name);
		} else if (depth == 1) {
			if ((which = child_which(&w, n, name)) < 0)
				err = ORD_EBADDATA;
			/* a text's element read whole; the others are empty */
			else if (which <= EL_DEADLINE && !(n = ord_xml_stream_node(s, 1)))
				err = ORD_EBADDATA;
			else
				err = read_child(sc, which, n, name);
		}
	}
	if (!err && (ev < 0 || !root))
		err = ORD_EBADDATA;
	ord_xml_stream_free(s);
	if (!err)
		err = read_end(sc, &w, name);
	ord_error_clear();
	return err;
}

/* ---- what the schema cannot check ----------------------------------- */

struct keyed {
	const char *key;
	unsigned line;
	size_t idx;
};

static int keyed_cmp(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int keyed_find(const void *key, const void *elem)
{
	return strcmp(key, ((const struct keyed *)elem)->key);
}

static char *ascii_lower(const char *s)
{
	char *out = ord_strdup(s), *p;

	for (p = out; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return out;
}

static int check_semantics(struct ord_scenario *sc, const char *name)
{
	struct problems p = { name, NULL, 0, 0 };
	struct keyed *sides = ord_xcalloc(sc->nsides, sizeof(*sides));
	struct keyed *ids = ord_xcalloc(sc->nunits, sizeof(*ids));
	struct keyed *names = ord_xcalloc(sc->nunits, sizeof(*names));
	char *first = ord_xcalloc(sc->nsides, 1);
	struct ord_buf list = ORD_BUF_INIT;
	size_t i, run, listed;

	for (i = 0; i < sc->nsides; i++)
		sides[i] = (struct keyed){ sc->sides[i].id, sc->sides[i].line, i };
	qsort(sides, sc->nsides, sizeof(*sides), keyed_cmp);
	for (i = 1, run = 0; i < sc->nsides; i++) {
		if (strcmp(sides[i].key, sides[run].key))
			run = i;
		else
			problem(&p, sides[i].line, "side id '%s' is already used on line %u",
				sides[i].key, sides[run].line);
	}

	/* the side ids in document order, each once, for "expected one of";
	 * sorting put each id's first occurrence first among its equals */
	for (i = 0; i < sc->nsides; i++)
		first[sides[i].idx] = i == 0 || strcmp(sides[i].key, sides[i - 1].key) != 0;
	for (i = 0, listed = 0; i < sc->nsides; i++) {
		if (!first[i])
			continue;
		if (listed == 10) {
			ord_buf_adds(&list, " ...");
			break;
		}
		ord_buf_addf(&list, "%s%s", listed++ ? " " : "", sc->sides[i].id);
	}

	for (i = 0; i < sc->nunits; i++) {
		ids[i] = (struct keyed){ sc->units[i].id, sc->units[i].line, i };
		names[i] = (struct keyed){ ascii_lower(sc->units[i].name), sc->units[i].line, i };
		if (!bsearch(sc->units[i].side, sides, sc->nsides, sizeof(*sides), keyed_find)) {
			unsigned line, col = ord_scenario_unit_col(&sc->units[i], "side", 1, &line);
			problem_at(&p, line, col,
				   "unit '%s': side '%s' is not declared (expected one of %s)",
				   sc->units[i].id, sc->units[i].side, list.buf);
		}
	}
	qsort(ids, sc->nunits, sizeof(*ids), keyed_cmp);
	for (i = 1, run = 0; i < sc->nunits; i++) {
		if (strcmp(ids[i].key, ids[run].key))
			run = i;
		else {
			unsigned line,
				col = ord_scenario_unit_col(&sc->units[ids[i].idx], "id", 1, &line);
			problem_at(&p, line, col, "unit id '%s' is already used on line %u",
				   ids[i].key, ids[run].line);
		}
	}
	qsort(names, sc->nunits, sizeof(*names), keyed_cmp);
	for (i = 1, run = 0; i < sc->nunits; i++) {
		if (strcmp(names[i].key, names[run].key))
			run = i;
		else {
			unsigned line, col = ord_scenario_unit_col(&sc->units[names[i].idx], "name",
								   1, &line);
			problem_at(&p, line, col,
				   "unit name '%s' is already used by unit '%s' on line %u (names must differ ignoring case)",
				   sc->units[names[i].idx].name, sc->units[names[run].idx].id,
				   names[run].line);
		}
	}

	/* a sheet names a unit by its id, else by its name ignoring case: a
	 * name that is another unit's id would name two units, and which one a
	 * word reads as would depend on the units at hand (a side's sheet) */
	for (i = 0; i < sc->nunits; i++) /* the keys were the units' own ids */
		ids[i] = (struct keyed){ ascii_lower(sc->units[i].id), sc->units[i].line, i };
	qsort(ids, sc->nunits, sizeof(*ids), keyed_cmp);
	for (i = 0; i < sc->nunits; i++) {
		const struct keyed *k = bsearch(names[i].key, ids, sc->nunits, sizeof(*ids),
						keyed_find);
		char *own = k ? ascii_lower(sc->units[names[i].idx].id) : NULL;
		int other = k && strcmp(own, k->key) != 0;

		free(own);
		if (other) {
			unsigned line, col = ord_scenario_unit_col(&sc->units[names[i].idx], "name",
								   1, &line);
			problem_at(&p, line, col,
				   "unit name '%s' of unit '%s' is the id of unit '%s' on line %u (a sheet's word would name both: a name must differ from every other unit's id, ignoring case)",
				   sc->units[names[i].idx].name, sc->units[names[i].idx].id,
				   sc->units[k->idx].id, k->line);
		}
	}
	for (i = 0; i < sc->nunits; i++) {
		free((char *)names[i].key);
		free((char *)ids[i].key);
	}
	free(names);
	free(ids);
	free(sides);
	free(first);
	ord_buf_release(&list);
	return problems_finish(&p);
}

/* ---- names a player tells apart (threat model, attack 41) ---------- */

#define SHOWN_MAX 60 /* characters of a name quoted in a message */

/* A name to compare: what it is, whose, where. */
struct alike {
	char *key;          /* ord_name_skeleton of the text */
	const char *text;   /* as the scenario writes it */
	const char *owner;  /* the side's or unit's id */
	int unit;           /* a unit's (else a side's) */
	int id;             /* its id (else its name) */
	unsigned line, col; /* where it is written */
	size_t seq;         /* its place in the list, for a stable order */
};

static int alike_cmp(const void *a, const void *b)
{
	const struct alike *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c)
		return c;
	if (x->unit != y->unit)
		return x->unit - y->unit;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void alike_what(struct ord_buf *b, const struct alike *a)
{
	ord_buf_addf(b, "the %s of %s '%s'", a->id ? "id" : "name", a->unit ? "unit" : "side",
		     a->owner);
	if (!a->id) {
		ord_buf_adds(b, " (");
		ord_buf_add_name_quoted(b, a->text, SHOWN_MAX);
		ord_buf_addch(b, ')');
	}
}

/* A name holding a character a reader does not see, or a blank at an end;
 * why: with what was expected and why, in parentheses (`new`'s refusal,
 * not a note). */
static void name_shown_plain(struct problems *p, const char *what, const char *owner,
			     const char *text, unsigned line, unsigned col, int why)
{
	struct ord_buf q = ORD_BUF_INIT;
	unsigned at;
	uint32_t cp;
	size_t n = strlen(text);
	int k = ord_name_hidden(text, &at, &cp);

	if (k || ord_utf8_blank_at(text, n, 0) || ord_utf8_blank_at(text, n, 1))
		ord_buf_add_name_quoted(&q, text, SHOWN_MAX); /* only a name said */
	if (k)
		problem_at(p, line, col, "%s%s%s%s %s holds %s %s%04X at character %u%s",
			   owner ? what : "", owner ? " '" : "", owner ? owner : "",
			   owner ? "': its name" : what, q.buf,
			   k > 0 ? "the unseen character" : "the byte", k > 0 ? "U+" : "0x",
			   (unsigned)cp, at,
			   why ? " (expected characters a player sees: a zero-width, bidirectional, "
				 "control or other unseen character makes a name look like another's, "
				 "or a report's line read otherwise)"
			       : "");
	else if ((k = (int)ord_utf8_blank_at(text, n, 0)) != 0 ||
		 (k = -(int)ord_utf8_blank_at(text, n, 1)) != 0) {
		const unsigned char *b = (const unsigned char *)text + (k > 0 ? 0 : n + (size_t)k);
		cp = 0;
		ord_utf8_decode(b, (const unsigned char *)text + n, &cp);
		problem_at(p, line, col, "%s%s%s%s %s %s with the blank U+%04X%s", owner ? what : "",
			   owner ? " '" : "", owner ? owner : "", owner ? "': its name" : what,
			   q.buf, k > 0 ? "begins" : "ends", (unsigned)cp,
			   why ? " (expected no blank at either end: a name and the same name with a "
				 "blank after it look alike)"
			       : "");
	}
	ord_buf_release(&q);
}

static int names_apart(const struct ord_scenario *sc, const char *name, int why)
{
	struct problems p = { name ? name : "scenario", NULL, 0, 0 };
	struct alike *a = ord_xcalloc(2 * (sc->nsides + sc->nunits) + 1, sizeof(*a));
	struct ord_buf key = ORD_BUF_INIT, x = ORD_BUF_INIT, y = ORD_BUF_INIT;
	size_t i, n = 0, run;

	name_shown_plain(&p, "the title", NULL, sc->title, 0, 0, why);
	for (i = 0; i < sc->nsides; i++) {
		const struct ord_scenario_side *s = &sc->sides[i];
		name_shown_plain(&p, "side", s->id, s->name, s->line, 0, why);
		a[n] = (struct alike){ NULL, s->name, s->id, 0, 0, s->line, 0, n };
		n++;
		a[n] = (struct alike){ NULL, s->id, s->id, 0, 1, s->line, 0, n };
		n++;
	}
	for (i = 0; i < sc->nunits; i++) {
		const struct ord_scenario_unit *u = &sc->units[i];
		unsigned line, col = ord_scenario_unit_col(u, "name", 1, &line), iline,
			       icol = ord_scenario_unit_col(u, "id", 1, &iline);
		name_shown_plain(&p, "unit", u->id, u->name, line, col, why);
		a[n] = (struct alike){ NULL, u->name, u->id, 1, 0, line, col, n };
		n++;
		a[n] = (struct alike){ NULL, u->id, u->id, 1, 1, iline, icol, n };
		n++;
	}
	for (i = 0; i < n; i++) {
		ord_name_skeleton(&key, a[i].text);
		a[i].key = ord_strdup(key.buf);
	}
	/* in each run of one form, of sides or of units, every name or id of
	 * another side or unit than the first's looks like the first's */
	qsort(a, n, sizeof(*a), alike_cmp);
	for (i = 1, run = 0; i < n; i++) {
		if (strcmp(a[i].key, a[run].key) || a[i].unit != a[run].unit) {
			run = i;
			continue;
		}
		if (!strcmp(a[i].owner, a[run].owner))
			continue;
		ord_buf_reset(&x);
		ord_buf_reset(&y);
		alike_what(&x, &a[i]);
		alike_what(&y, &a[run]);
		problem_at(&p, a[i].line, a[i].col,
			   "%s looks like %s on line %u: a player cannot tell them apart%s%s%s",
			   x.buf, y.buf, a[run].line, why ? " (expected " : "",
			   why ? (a[i].unit ? "units' names and ids" : "sides' names and ids") : "",
			   why ? " that differ in more than case, blanks, unseen characters and "
				 "letters drawn alike: Greek and Cyrillic ones as Latin, fullwidth "
				 "forms, 0 and O, 1, I and l)"
			       : "");
	}
	for (i = 0; i < n; i++)
		free(a[i].key);
	free(a);
	ord_buf_release(&key);
	ord_buf_release(&x);
	ord_buf_release(&y);
	return problems_finish(&p);
}

int ord_scenario_names_apart(const struct ord_scenario *sc, const char *name)
{
	return names_apart(sc, name, 1);
}

int ord_scenario_names_alike(const struct ord_scenario *sc, const char *name)
{
	return names_apart(sc, name, 0);
}

void ord_scenario_drop_positions(struct ord_scenario *sc)
{
	size_t i, j;

	for (i = 0; i < sc->nunits; i++) {
		for (j = 0; j < sc->units[i].npos; j++)
			free(sc->units[i].pos[j].attr);
		free(sc->units[i].pos);
		sc->units[i].pos = NULL;
		sc->units[i].npos = 0;
	}
}

unsigned ord_scenario_unit_col(const struct ord_scenario_unit *u, const char *attr, int value,
			       unsigned *line)
{
	size_t i;

	*line = u->line;
	for (i = 0; i < u->npos; i++)
		if (!strcmp(u->pos[i].attr, attr)) {
			*line = value ? u->pos[i].value_line : u->pos[i].line;
			return value ? u->pos[i].value_col : u->pos[i].col;
		}
	return 0;
}

static int load(struct ord_scenario *out, const char *bytes, size_t len, const char *name,
		int stream, int positions)
{
	struct ord_scenario scratch;
	struct ord_xml_lines lines;
	xmlDocPtr doc = NULL;
	char *schema_msg = NULL;
	int err;

	ord_scenario_init(out);
	out->no_positions = !positions;
	memset(&lines, 0, sizeof(lines));
	if (!name)
		name = "scenario";
	/* read as a stream; a document that is not right as one is read
	 * again as a tree, for the messages that say what is wrong */
	if (stream && read_stream(out, bytes, len, name, SCENARIO_SCHEMA, &lines) == 0) {
		err = check_semantics(out, name);
		goto out;
	}
	ord_scenario_release(out);
	ord_scenario_init(out);
	out->no_positions = !positions;
	ord_xml_lines_release(&lines);
	if ((err = ord_xml_parse(&doc, bytes, len, name)) != 0)
		goto out;
	/* every element is named by the line its start tag begins on, and a
	 * unit's attributes by their own line and column */
	ord_xml_lines_init(&lines, bytes, len, doc);
	if ((err = ord_xml_validate(doc, SCENARIO_SCHEMA, name)) != 0) {
		if (err != ORD_EBADDATA)
			goto out;
		/* find the same fault with a clearer message, else keep the schema's */
		schema_msg = ord_strdup(ord_error_last());
		ord_scenario_init(&scratch);
		if (read_doc(&scratch, doc, name) == 0)
			ord_error_set(err, "%s", schema_msg);
		ord_scenario_release(&scratch);
		goto out;
	}
	if ((err = read_doc(out, doc, name)) != 0)
		goto out;
	err = check_semantics(out, name);
out:
	if (err)
		ord_scenario_release(out);
	else if (out->nunits)
		/* the units' array its size (grow's doubling left up to half of
		 * it spare): a verifier keeps the scenario for the whole audit,
		 * and no unit is added after the load */
		out->units = ord_xrealloc(out->units, out->nunits * sizeof(*out->units));
	ord_xml_lines_release(&lines);
	if (doc)
		xmlFreeDoc(doc);
	free(schema_msg);
	return err;
}

int ord_scenario_load(struct ord_scenario *out, const char *bytes, size_t len, const char *name)
{
	return load(out, bytes, len, name, 1, 1);
}

int ord_scenario_load_checked(struct ord_scenario *out, const char *bytes, size_t len, const char *name,
			      const struct ord_key_spec *specs, const struct ord_words_how *words)
{
	int err;

	if ((err = load(out, bytes, len, name, 1, 0)) == 0 &&
	    (err = ord_scenario_check_attrs(out, specs, words, name)) == 0)
		return 0;
	/* refused: said again with the places, as a load says it */
	ord_scenario_release(out);
	ord_error_clear();
	if ((err = ord_scenario_load(out, bytes, len, name)) == 0)
		err = ord_scenario_check_attrs(out, specs, words, name);
	return err;
}

int ord_scenario_load_logged(struct ord_scenario *out, const char *bytes, size_t len, const char *name)
{
	struct ord_xml_lines lines;
	int err;

	ord_scenario_init(out);
	out->no_positions = 1;
	memset(&lines, 0, sizeof(lines));
	if (!name)
		name = "scenario";
	err = read_stream(out, bytes, len, name, NULL, &lines);
	if (!err)
		err = check_semantics(out, name);
	ord_xml_lines_release(&lines);
	if (!err)
		return 0;
	/* not as it was when the game was made: said as a load says it */
	ord_scenario_release(out);
	ord_error_clear();
	return ord_scenario_load(out, bytes, len, name);
}

int ord_scenario_load_tree(struct ord_scenario *out, const char *bytes, size_t len, const char *name)
{
	return load(out, bytes, len, name, 0, 1);
}

int ord_scenario_public(char **bytes, size_t *len, const char *name)
{
	xmlDocPtr doc = NULL;
	xmlNodePtr root, n;
	xmlChar *mem = NULL;
	struct ord_scenario check;
	int size = 0, removed = 0, err;

	/* an attribute's name is written as it is (no reference stands for
	 * one): without the words there are no addresses, and the scenario
	 * need not be read again */
	if (!ord_xml_find_bytes(*bytes, *len, "email") && !ord_xml_find_bytes(*bytes, *len, "referee"))
		return 0;
	if ((err = ord_xml_parse(&doc, *bytes, *len, name ? name : "scenario")) != 0)
		return err;
	root = xmlDocGetRootElement(doc);
	for (n = root ? root->children : NULL; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (!strcmp((const char *)n->name, "side") && xmlHasProp(n, BAD_CAST "email"))
			removed += xmlUnsetProp(n, BAD_CAST "email") == 0;
		else if (!strcmp((const char *)n->name, "mail") && xmlHasProp(n, BAD_CAST "referee"))
			removed += xmlUnsetProp(n, BAD_CAST "referee") == 0;
	}
	if (removed)
		xmlDocDumpMemoryEnc(doc, &mem, &size, "UTF-8");
	xmlFreeDoc(doc);
	if (!removed)
		return 0;
	if (!mem || size <= 0) {
		xmlFree(mem);
		return ord_error_set(ORD_ERROR, "%s: the scenario could not be written again",
				     name ? name : "scenario");
	}
	/* what is kept must read as the same scenario, addresses aside */
	if ((err = ord_scenario_load(&check, (const char *)mem, (size_t)size, name)) != 0) {
		xmlFree(mem);
		return err;
	}
	ord_scenario_release(&check);
	free(*bytes);
	*bytes = ord_xmalloc((size_t)size + 1);
	memcpy(*bytes, mem, (size_t)size);
	(*bytes)[size] = '\0';
	*len = (size_t)size;
	xmlFree(mem);
	return 0;
}

int ord_scenario_load_file(struct ord_scenario *out, const char *path)
{
	char *bytes = NULL;
	size_t len = 0;
	int err;

	ord_scenario_init(out);
	if ((err = ord_read_file(&bytes, &len, path, ORD_XML_MAX_BYTES)) != 0)
		return err;
	err = ord_scenario_load(out, bytes, len, path);
	free(bytes);
	return err;
}

/* ---- the ruleset's attributes --------------------------------------- */

/* The units an attribute of type ORD_KEY_UNIT may name: by id, else by
 * name ignoring ASCII case, as a sheet or an event names them.  Sorted
 * when the first such attribute is met, so a ruleset that declares none
 * pays nothing. */
struct unit_index {
	struct keyed *ids, *names;
};

static int names_a_unit(const struct ord_scenario *sc, struct unit_index *ix, const char *value)
{
	char *low;
	int found;
	size_t i;

	if (!ix->ids) {
		ix->ids = ord_xcalloc(sc->nunits + 1, sizeof(*ix->ids));
		ix->names = ord_xcalloc(sc->nunits + 1, sizeof(*ix->names));
		for (i = 0; i < sc->nunits; i++) {
			ix->ids[i] = (struct keyed){ sc->units[i].id, sc->units[i].line, i };
			ix->names[i] = (struct keyed){ ascii_lower(sc->units[i].name),
						       sc->units[i].line, i };
		}
		qsort(ix->ids, sc->nunits, sizeof(*ix->ids), keyed_cmp);
		qsort(ix->names, sc->nunits, sizeof(*ix->names), keyed_cmp);
	}
	if (bsearch(value, ix->ids, sc->nunits, sizeof(*ix->ids), keyed_find))
		return 1;
	low = ascii_lower(value);
	found = bsearch(low, ix->names, sc->nunits, sizeof(*ix->names), keyed_find) != NULL;
	free(low);
	return found;
}

static void unit_index_release(const struct ord_scenario *sc, struct unit_index *ix)
{
	size_t i;

	if (ix->names)
		for (i = 0; i < sc->nunits; i++)
			free((char *)ix->names[i].key);
	free(ix->ids);
	free(ix->names);
}

/* The word of spec s that attribute key of u is as words reads it, set
 * as the key's list writes it ("KARRÉ", "kar": karre): 1; 0, unchanged,
 * when it is its list's own or none (why: a scratch buffer). */
static int set_word(struct ord_scenario_unit *u, const struct ord_key_spec *s,
		    const struct ord_words_how *words, struct ord_buf *why)
{
	const char *v = ord_kv_get(&u->attrs, s->name);

	if (!words || !v || s->type != ORD_KEY_ENUM || !s->values || ord_words_has(s->values, v) ||
	    !ord_key_word(why, s, v, words))
		return 0;
	ord_kv_set(&u->attrs, s->name, why->buf);
	return 1;
}

/* The attributes u lacks that specs give a default, set to it, and its
 * words as their lists write them (why: a scratch buffer). */
static void fill_defaults(struct ord_scenario *sc, struct ord_scenario_unit *u,
			  const struct ord_key_spec *specs, const struct ord_words_how *words,
			  struct ord_buf *why)
{
	const struct ord_key_spec *s;

	for (s = specs; s->name; s++)
		if (!s->required && s->def && !ord_kv_get(&u->attrs, s->name))
			ord_kv_set(&u->attrs, s->name, s->def);
		else
			set_word(u, s, words, why);
	if (!ord_kv_held(&u->attrs)) { /* in one block again (read_unit) */
		ord_buf_reset(why);
		ord_kv_serialize(&u->attrs, why);
		ord_kv_pool_repack(&sc->pool, &u->attrs, why);
	}
}

void ord_scenario_fill_defaults(struct ord_scenario *sc, const struct ord_key_spec *specs,
				const struct ord_words_how *words)
{
	struct ord_buf why = ORD_BUF_INIT;
	size_t i;

	for (i = 0; specs && i < sc->nunits; i++)
		fill_defaults(sc, &sc->units[i], specs, words, &why);
	ord_buf_release(&why);
}

/* The lists of attributes ord_scenario_check_attrs found clean, by the
 * address of the block the pool shares: a scenario's kinds, formations and
 * sizes make a few dozen; a list not found within CLEAN_PROBE slots of its
 * own is checked again each time (more lists cost time, not a wrong
 * answer). */
#define CLEAN_SLOTS 256
#define CLEAN_PROBE 8

struct clean_list {
	const void *in;           /* the block a unit was read as; NULL: an empty slot */
	const struct ord_kv *out; /* the list its defaults made, a unit's */
};

/* The slot holding in, or the empty one where it goes, or NULL. */
static struct clean_list *clean_slot(struct clean_list *clean, const void *in)
{
	size_t s = ord_hash64(&in, sizeof(in)) % CLEAN_SLOTS, k;

	for (k = 0; k < CLEAN_PROBE; k++, s = (s + 1) % CLEAN_SLOTS)
		if (!clean[s].in || clean[s].in == in)
			return &clean[s];
	return NULL;
}

int ord_scenario_check_attrs(struct ord_scenario *sc, const struct ord_key_spec *specs,
			     const struct ord_words_how *words, const char *name)
{
	static const struct ord_key_spec none[] = { { 0 } };
	struct problems p = { name ? name : "scenario", NULL, 0, 0 };
	struct ord_buf known = ORD_BUF_INIT, why = ORD_BUF_INIT;
	struct unit_index units = { NULL, NULL };
	const struct ord_key_spec *s;
	/* lists checked with no problem: the list a unit was read as (the
	 * pool's block), found by its address, and the list its defaults
	 * made */
	struct clean_list clean[CLEAN_SLOTS] = { { 0 } };
	struct clean_list *c;
	unsigned line, col;
	size_t i, j;

	if (!specs)
		specs = none;
	for (s = specs; s->name; s++)
		ord_words_add(&known, " ", s->name);
	for (i = 0; i < sc->nunits; i++) {
		struct ord_scenario_unit *u = &sc->units[i];
		const void *in = ord_kv_shared_block(&u->attrs);
		size_t before = p.n;

		/* the units of a kind are read as one list the pool shares: a
		 * list checked clean is clean again (no check reads more than
		 * the list, the specs and the scenario's ids and names), and
		 * its defaults make the same list.  Every block a unit not yet
		 * checked holds was read before this loop and is held since,
		 * so one at a noted address is the block noted, not one made
		 * since. */
		c = in ? clean_slot(clean, in) : NULL;
		if (c && c->in) {
			ord_kv_release(&u->attrs);
			ord_kv_share(&u->attrs, c->out);
			continue;
		}

		for (j = 0; j < u->attrs.n; j++) {
			const struct ord_kv_item *it = &u->attrs.items[j];

			for (s = specs; s->name; s++)
				if (!strcmp(s->name, it->key))
					break;
			if (!s->name) {
				col = ord_scenario_unit_col(u, it->key, 0, &line);
				if (known.len)
					problem_at(&p, line, col,
						   "unit '%s': unknown attribute '%s' (expected one of %s)",
						   u->id, it->key, known.buf);
				else
					problem_at(&p, line, col,
						   "unit '%s': unknown attribute '%s' (the ruleset declares no unit attributes)",
						   u->id, it->key);
				continue;
			}
			ord_buf_reset(&why);
			if (set_word(u, s, words, &why)) {
				/* the sheet's spelling of a word: as its list
				 * writes it, as an event's is */
				continue;
			} else if (ord_key_check_value(s, it->value, &why)) {
				if (words && s->type == ORD_KEY_ENUM && s->values)
					ord_words_hint_how(&why, s->values, it->value, words);
				col = ord_scenario_unit_col(u, it->key, 1, &line);
				problem_at(&p, line, col, "unit '%s': %s", u->id, why.buf);
			} else if (s->type == ORD_KEY_UNIT && !names_a_unit(sc, &units, it->value)) {
				col = ord_scenario_unit_col(u, it->key, 1, &line);
				problem_at(&p, line, col,
					   "unit '%s': '%s' names no unit of the scenario (expected the id or name of a unit for '%s')",
					   u->id, it->value, it->key);
			}
		}
		for (s = specs; s->name; s++) {
			if (!s->required || ord_kv_get(&u->attrs, s->name))
				continue;
			ord_buf_reset(&why);
			ord_key_describe(s, &why);
			problem_at(&p, u->line, u->col,
				   "unit '%s': missing attribute '%s' (expected %s)", u->id,
				   s->name, why.buf);
		}
		fill_defaults(sc, u, specs, words, &why);
		if (c && p.n == before && ord_kv_shared_block(&u->attrs)) {
			c->in = in;
			c->out = &u->attrs;
		}
	}
	unit_index_release(sc, &units);
	ord_buf_release(&known);
	ord_buf_release(&why);
	return problems_finish(&p);
}
