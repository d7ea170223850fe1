/*
 * bundle.c - turn bundles: the helpers that write their text (bundle.h),
 * and `orderly verify`, which checks a bundle offline, with no game file.
 *
 * Each check is independent and says what it proves; a failure names the
 * entry, sheet, roll or head concerned, and the checks after it still run,
 * so that the player gets the whole list.  What the checks rebuild (commit-
 * ments, log hashes, entry bodies, phase digests, the dice key, every roll)
 * comes from the same functions the game used to write them (crypto.c,
 * canon.c, ord_dice_face), so they cannot drift apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "core/bundle.h"
#include "core/canon.h"
#include "core/crypto.h"
#include "core/ctx.h"
#include "xml/xmlsafe.h"

/* ---- writing ---- */

/* Length of the UTF-8 sequence at s (at most n bytes) of a character XML
 * 1.0 allows, or 0.  CR and control characters other than TAB and LF are
 * refused too: XML parsers normalise CR, and the others cannot be written. */
static size_t xml_char(const unsigned char *s, size_t n)
{
	unsigned c, len, i;

	if (s[0] < 0x80) {
		if (s[0] < 0x20 && s[0] != '\t' && s[0] != '\n')
			return 0;
		return 1;
	}
	if ((s[0] & 0xE0) == 0xC0) {
		len = 2;
		c = s[0] & 0x1F;
	} else if ((s[0] & 0xF0) == 0xE0) {
		len = 3;
		c = s[0] & 0x0F;
	} else if ((s[0] & 0xF8) == 0xF0) {
		len = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3F);
	}
	/* overlong forms, surrogates, U+FFFE/U+FFFF, beyond U+10FFFF */
	if ((len == 2 && c < 0x80) || (len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    (c >= 0xD800 && c <= 0xDFFF) || c == 0xFFFE || c == 0xFFFF || c > 0x10FFFF)
		return 0;
	return len;
}

int ord_bundle_text_ok(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		if ((n = xml_char(p + i, len - i)) == 0)
			return 0;
		i += n;
	}
	return 1;
}

static void add_escaped(struct ord_buf *out, const char *s, size_t len, int attr)
{
	size_t i;

	for (i = 0; i < len; i++) {
		switch (s[i]) {
		case '<': ord_buf_adds(out, "&lt;"); break;
		case '>': ord_buf_adds(out, "&gt;"); break;
		case '&': ord_buf_adds(out, "&amp;"); break;
		case '"': ord_buf_adds(out, attr ? "&quot;" : "\""); break;
		case '\t': ord_buf_adds(out, attr ? "&#9;" : "\t"); break;
		case '\n': ord_buf_adds(out, attr ? "&#10;" : "\n"); break;
		default: ord_buf_addch(out, s[i]);
		}
	}
}

int ord_bundle_attr(struct ord_buf *out, const char *name, const char *value)
{
	if (!ord_bundle_text_ok(value, strlen(value)))
		return ord_error_set(ORD_EBADDATA,
				     "%s '%s' cannot be written in a bundle (not UTF-8 text)", name,
				     value);
	ord_buf_addf(out, " %s=\"", name);
	add_escaped(out, value, strlen(value), 1);
	ord_buf_addch(out, '"');
	return 0;
}

void ord_bundle_elem(struct ord_buf *out, int indent, const char *name, const char *attrs,
		     const void *bytes, size_t len, int base64)
{
	int b64 = base64 || !ord_bundle_text_ok(bytes, len);

	ord_buf_addf(out, "%*s<%s%s%s>", indent, "", name, attrs, b64 ? " enc=\"base64\"" : "");
	if (b64) {
		size_t n = sodium_base64_ENCODED_LEN(len, sodium_base64_VARIANT_ORIGINAL);
		ord_buf_grow(out, n);
		sodium_bin2base64(out->buf + out->len, n, bytes, len, sodium_base64_VARIANT_ORIGINAL);
		out->len += n - 1;
		out->buf[out->len] = '\0';
	} else {
		add_escaped(out, bytes, len, 0);
	}
	ord_buf_addf(out, "</%s>\n", name);
}

void ord_bundle_sign(struct ord_buf *doc, const unsigned char sk[64])
{
	unsigned char msg[32], sig[64];

	ord_sig_bundle_msg(msg, doc->buf, doc->len);
	ord_sig_sign(sig, msg, sk);
	ord_buf_adds(doc, ORD_BUNDLE_SIG_OPEN);
	ord_buf_add_hex(doc, sig, 64);
	ord_buf_adds(doc, ORD_BUNDLE_SIG_CLOSE);
}

/* ---- reading ---- */

struct v_side {
	char *id;
	int has_key;
	unsigned char key[32];
};

struct v_entry {
	int64_t seq, at;
	int turn;
	char *kind, *body;
	unsigned char hash[32];
	int used; /* rows of the bundle that point at it */
};

struct v_commit {
	char *side;
	int version;
	unsigned char commitment[32], signature[64];
	int64_t log;
};

struct v_sheet {
	char *side, *source;
	int version, has_sig, commit_ok;
	unsigned char *bytes;
	size_t len;
	unsigned char nonce[32], commitment[32], signature[64];
	int64_t log;
};

struct v_event {
	unsigned seq;
	char *phase, *kind, *args, *override, *checks;
	int64_t log;
};

struct v_roll {
	int64_t log;
	int turn, event, idx, sides, value, fixed;
	char *phase, *purpose;
};

struct v_result {
	int64_t log;
	int turn, event;
	char *phase, *unit, *values, *explanation;
};

struct v_state {
	int64_t log;
	int turn, phase;
	char *unit, *attrs, *value;
};

struct v_head {
	char at[16];
	int64_t seq;
	unsigned char hash[32], signature[64];
};

struct verify {
	const char *name;
	struct ord_buf *out;
	int failures;

	unsigned char game_id[16], key[32], seed[32], seed_commitment[32], prev[32];
	int turn, refereeless;
	char *ruleset;

	struct v_side *sides;
	size_t nsides;
	struct v_entry *entries;
	size_t nentries;
	struct v_commit *commits;
	size_t ncommits;
	struct v_sheet *sheets;
	size_t nsheets;
	struct v_event *events;
	size_t nevents;
	struct v_roll *rolls;
	size_t nrolls;
	struct v_result *results;
	size_t nresults;
	struct v_state *states;
	size_t nstates;
	struct v_head *heads;
	size_t nheads;
	char sig_hex[129]; /* the text of the <signature> element */
};

#define GROW(arr, n)                                              \
	((arr) = ord_xrealloc((arr), ((n) + 1) * sizeof(*(arr))), \
	 memset(&(arr)[(n)], 0, sizeof(*(arr))), &(arr)[(n)++])

static void failed(struct verify *v, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
static void failed(struct verify *v, const char *fmt, ...)
{
	va_list ap;

	ord_buf_adds(v->out, "  FAILED: ");
	va_start(ap, fmt);
	ord_buf_vaddf(v->out, fmt, ap);
	va_end(ap);
	ord_buf_addch(v->out, '\n');
	v->failures++;
}

static void okay(struct verify *v, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
static void okay(struct verify *v, const char *fmt, ...)
{
	va_list ap;

	ord_buf_adds(v->out, "  ok: ");
	va_start(ap, fmt);
	ord_buf_vaddf(v->out, fmt, ap);
	va_end(ap);
	ord_buf_addch(v->out, '\n');
}

/* An attribute the schema requires (never NULL). */
static char *attr(xmlNodePtr n, const char *name)
{
	char *s = ord_xml_attr(n, name);
	return s ? s : ord_strdup("");
}

static long attr_long(xmlNodePtr n, const char *name)
{
	char *s = ord_xml_attr(n, name);
	long l = 0;

	if (!s || ord_parse_long(s, &l))
		l = 0;
	free(s);
	return l;
}

static void attr_hex(xmlNodePtr n, const char *name, unsigned char *out, size_t len)
{
	char *s = ord_xml_attr(n, name);

	memset(out, 0, len);
	if (s && strlen(s) == 2 * len)
		ord_unhex(out, len, s);
	free(s);
}

/* The content of an element, decoded from base64 when it says so;
 * *len receives its length.  NULL (with the error set) when it is not
 * base64 though it says so. */
static char *content(xmlNodePtr n, size_t *len, const struct verify *v)
{
	char *text = ord_xml_text(n), *enc = ord_xml_attr(n, "enc"), *bin;
	size_t tl = strlen(text), bl = 0;

	if (!enc) {
		*len = tl;
		return text;
	}
	free(enc);
	bin = ord_xmalloc(tl / 4 * 3 + 4);
	if (sodium_base642bin((unsigned char *)bin, tl / 4 * 3 + 4, text, tl, NULL, &bl, NULL,
			      sodium_base64_VARIANT_ORIGINAL) != 0) {
		ord_error_set(ORD_EBADDATA, "%s:%ld: <%s> is not base64", v->name, xmlGetLineNo(n),
			      (const char *)n->name);
		free(text);
		free(bin);
		return NULL;
	}
	free(text);
	bin[bl] = '\0';
	*len = bl;
	return bin;
}

/* Content as a C string (a NUL inside stops it, as it stops the game's
 * own reading of a text column). */
static char *content_str(xmlNodePtr n, const struct verify *v, int *err)
{
	size_t len;
	char *s = content(n, &len, v);

	if (!s)
		*err = ORD_EBADDATA;
	return s;
}

static char *child_str(xmlNodePtr n, const char *name, const struct verify *v, int *err)
{
	xmlNodePtr c = ord_xml_child(n, name);

	if (!c)
		return NULL;
	return content_str(c, v, err);
}

static int load(struct verify *v, xmlNodePtr root)
{
	xmlNodePtr n;
	int err = 0;

	attr_hex(root, "game", v->game_id, 16);
	v->turn = (int)attr_long(root, "turn");
	v->ruleset = attr(root, "ruleset");
	{
		char *r = attr(root, "referee");
		v->refereeless = !strcmp(r, "no");
		free(r);
	}
	for (n = ord_xml_child(root, NULL); n && !err; n = ord_xml_next(n->next, NULL)) {
		const char *e = (const char *)n->name;

		if (!strcmp(e, "key")) {
			char *t = ord_xml_text(n);
			ord_unhex(v->key, 32, t);
			free(t);
		} else if (!strcmp(e, "side")) {
			struct v_side *s = GROW(v->sides, v->nsides);
			char *k = ord_xml_attr(n, "key");
			s->id = attr(n, "id");
			if (k) {
				s->has_key = ord_unhex(s->key, 32, k) == 32;
				free(k);
			}
		} else if (!strcmp(e, "seed")) {
			char *t = ord_xml_text(n);
			ord_unhex(v->seed, 32, t);
			free(t);
			attr_hex(n, "commitment", v->seed_commitment, 32);
		} else if (!strcmp(e, "log")) {
			xmlNodePtr c;
			attr_hex(n, "prev", v->prev, 32);
			for (c = ord_xml_child(n, "entry"); c && !err;
			     c = ord_xml_next(c->next, "entry")) {
				struct v_entry *en = GROW(v->entries, v->nentries);
				en->seq = attr_long(c, "seq");
				en->turn = (int)attr_long(c, "turn");
				en->at = attr_long(c, "at");
				en->kind = attr(c, "kind");
				attr_hex(c, "hash", en->hash, 32);
				en->body = content_str(c, v, &err);
			}
		} else if (!strcmp(e, "commitment")) {
			struct v_commit *c = GROW(v->commits, v->ncommits);
			c->side = attr(n, "side");
			c->version = (int)attr_long(n, "version");
			attr_hex(n, "commitment", c->commitment, 32);
			attr_hex(n, "signature", c->signature, 64);
			c->log = attr_long(n, "log");
		} else if (!strcmp(e, "sheet")) {
			struct v_sheet *s = GROW(v->sheets, v->nsheets);
			char *sig = ord_xml_attr(n, "signature");
			s->side = attr(n, "side");
			s->source = attr(n, "source");
			s->version = (int)attr_long(n, "version");
			attr_hex(n, "nonce", s->nonce, 32);
			attr_hex(n, "commitment", s->commitment, 32);
			if (sig) {
				s->has_sig = 1;
				free(sig);
				attr_hex(n, "signature", s->signature, 64);
			}
			s->log = attr_long(n, "log");
			s->bytes = (unsigned char *)content(n, &s->len, v);
			if (!s->bytes)
				err = ORD_EBADDATA;
		} else if (!strcmp(e, "event")) {
			struct v_event *ev = GROW(v->events, v->nevents);
			ev->seq = (unsigned)attr_long(n, "seq");
			ev->phase = attr(n, "phase");
			ev->kind = attr(n, "kind");
			ev->log = attr_long(n, "log");
			ev->args = child_str(n, "args", v, &err);
			ev->override = child_str(n, "override", v, &err);
			ev->checks = child_str(n, "checks", v, &err);
		} else if (!strcmp(e, "roll")) {
			struct v_roll *r = GROW(v->rolls, v->nrolls);
			char *f = attr(n, "fixed");
			r->log = attr_long(n, "log");
			r->turn = (int)attr_long(n, "turn");
			r->phase = attr(n, "phase");
			r->event = (int)attr_long(n, "event");
			r->purpose = attr(n, "purpose");
			r->idx = (int)attr_long(n, "index");
			r->sides = (int)attr_long(n, "sides");
			r->value = (int)attr_long(n, "value");
			r->fixed = !strcmp(f, "yes");
			free(f);
		} else if (!strcmp(e, "result")) {
			struct v_result *r = GROW(v->results, v->nresults);
			r->log = attr_long(n, "log");
			r->turn = (int)attr_long(n, "turn");
			r->phase = attr(n, "phase");
			r->event = (int)attr_long(n, "event");
			r->unit = attr(n, "unit");
			r->values = child_str(n, "values", v, &err);
			r->explanation = child_str(n, "explanation", v, &err);
		} else if (!strcmp(e, "state")) {
			struct v_state *s = GROW(v->states, v->nstates);
			s->log = attr_long(n, "log");
			s->unit = attr(n, "unit");
			s->turn = (int)attr_long(n, "turn");
			s->phase = (int)attr_long(n, "phase");
			s->attrs = child_str(n, "attrs", v, &err);
			s->value = child_str(n, "value", v, &err);
		} else if (!strcmp(e, "head")) {
			struct v_head *h = GROW(v->heads, v->nheads);
			char *at = attr(n, "at");
			snprintf(h->at, sizeof(h->at), "%s", !strcmp(at, "seal") ? "seal" : "exchange");
			free(at);
			h->seq = attr_long(n, "seq");
			attr_hex(n, "hash", h->hash, 32);
			attr_hex(n, "signature", h->signature, 64);
		} else if (!strcmp(e, "signature")) {
			char *t = ord_xml_text(n);
			snprintf(v->sig_hex, sizeof(v->sig_hex), "%.128s", t);
			free(t);
		}
	}
	return err;
}

static void release(struct verify *v)
{
	size_t i;

	free(v->ruleset);
	for (i = 0; i < v->nsides; i++)
		free(v->sides[i].id);
	free(v->sides);
	for (i = 0; i < v->nentries; i++) {
		free(v->entries[i].kind);
		free(v->entries[i].body);
	}
	free(v->entries);
	for (i = 0; i < v->ncommits; i++)
		free(v->commits[i].side);
	free(v->commits);
	for (i = 0; i < v->nsheets; i++) {
		free(v->sheets[i].side);
		free(v->sheets[i].source);
		free(v->sheets[i].bytes);
	}
	free(v->sheets);
	for (i = 0; i < v->nevents; i++) {
		free(v->events[i].phase);
		free(v->events[i].kind);
		free(v->events[i].args);
		free(v->events[i].override);
		free(v->events[i].checks);
	}
	free(v->events);
	for (i = 0; i < v->nrolls; i++) {
		free(v->rolls[i].phase);
		free(v->rolls[i].purpose);
	}
	free(v->rolls);
	for (i = 0; i < v->nresults; i++) {
		free(v->results[i].phase);
		free(v->results[i].unit);
		free(v->results[i].values);
		free(v->results[i].explanation);
	}
	free(v->results);
	for (i = 0; i < v->nstates; i++) {
		free(v->states[i].unit);
		free(v->states[i].attrs);
		free(v->states[i].value);
	}
	free(v->states);
	free(v->heads);
}

/* ---- the checks ---- */

static struct v_entry *entry(struct verify *v, int64_t seq)
{
	size_t i;

	for (i = 0; i < v->nentries; i++)
		if (v->entries[i].seq == seq)
			return &v->entries[i];
	return NULL;
}

static const struct v_side *side(struct verify *v, const char *id)
{
	size_t i;

	for (i = 0; i < v->nsides; i++)
		if (!strcmp(v->sides[i].id, id))
			return &v->sides[i];
	return NULL;
}

/* The entry at seq, of kind; NULL (with a failure naming what) if not. */
static struct v_entry *entry_of(struct verify *v, int64_t seq, const char *kind, const char *what)
{
	struct v_entry *e = entry(v, seq);

	if (!e) {
		failed(v, "%s points at log entry %lld, which is not in this turn's log", what,
		       (long long)seq);
		return NULL;
	}
	if (strcmp(e->kind, kind)) {
		failed(v, "%s points at log entry %lld, a '%s' entry, not '%s'", what,
		       (long long)seq, e->kind, kind);
		return NULL;
	}
	e->used++;
	return e;
}

static void check_signature(struct verify *v, const char *bytes, size_t len,
			    const struct ord_verify_opts *o)
{
	size_t so = strlen(ORD_BUNDLE_SIG_OPEN), sc = strlen(ORD_BUNDLE_SIG_CLOSE), prefix;
	unsigned char sig[64], msg[32];
	char hex[65], want[65];
	const unsigned char *key = o && o->pubkey ? o->pubkey : v->key;

	ord_hex(hex, v->key, 32);
	if (o && o->pubkey && memcmp(o->pubkey, v->key, 32)) {
		ord_hex(want, o->pubkey, 32);
		failed(v, "the bundle is signed with key %s, not with the game's key %s (given with --pubkey)",
		       hex, want);
	}
	if (len < so + 128 + sc || memcmp(bytes + len - sc, ORD_BUNDLE_SIG_CLOSE, sc) ||
	    memcmp(bytes + len - sc - 128 - so, ORD_BUNDLE_SIG_OPEN, so)) {
		failed(v, "the signature is not the last element, followed only by the end of the bundle: what follows it would not be signed");
		return;
	}
	prefix = len - sc - 128 - so;
	if (memcmp(bytes + prefix + so, v->sig_hex, 128) || ord_unhex(sig, 64, v->sig_hex) != 64) {
		failed(v, "the signature element read is not the one at the end of the bundle");
		return;
	}
	ord_sig_bundle_msg(msg, bytes, prefix);
	if (ord_sig_check(sig, msg, key))
		failed(v, "the signature does not hold: the bundle was changed after it was signed, or signed by another key");
	else
		okay(v, "signature by %s %s",
		     o && o->pubkey ? "the game's key" : "the bundle's own key",
		     o && o->pubkey ? "(the key you gave)"
				    : "(give --pubkey to check that it is the game's)");
}

static void check_chain(struct verify *v)
{
	unsigned char h[32];
	const unsigned char *prev = v->prev;
	size_t i;
	int bad = v->failures;

	for (i = 0; i < v->nentries; i++) {
		struct v_entry *e = &v->entries[i];
		if (i && e->seq != v->entries[i - 1].seq + 1)
			failed(v, "log entry %lld follows entry %lld: entries were removed, added or reordered",
			       (long long)e->seq, (long long)v->entries[i - 1].seq);
		if (e->turn != v->turn)
			failed(v, "log entry %lld (%s) belongs to turn %d, not to turn %d",
			       (long long)e->seq, e->kind, e->turn, v->turn);
		ord_log_hash(h, prev, e->seq, e->turn, e->kind, e->body, e->at);
		if (memcmp(h, e->hash, 32))
			failed(v, "log entry %lld (%s): its content and the entry before it do not give its hash (changed)",
			       (long long)e->seq, e->kind);
		prev = e->hash;
	}
	if (!v->nentries || strcmp(v->entries[0].kind, "open"))
		failed(v, "the log does not start with the opening of turn %d", v->turn);
	if (!v->nentries || strcmp(v->entries[v->nentries - 1].kind, "exchange"))
		failed(v, "the log does not end with the exchange of turn %d", v->turn);
	if (v->failures == bad)
		okay(v, "log: %zu entries (%lld to %lld) chain from the hash before them",
		     v->nentries, v->nentries ? (long long)v->entries[0].seq : 0LL,
		     v->nentries ? (long long)v->entries[v->nentries - 1].seq : 0LL);
}

static void check_seed(struct verify *v)
{
	struct ord_buf b = ORD_BUF_INIT;
	unsigned char c[32];
	struct v_entry *open = NULL, *exch = NULL, *first_sheet = NULL;
	size_t i;
	int bad = v->failures;

	for (i = 0; i < v->nentries; i++) {
		struct v_entry *e = &v->entries[i];
		if (!strcmp(e->kind, "open") && !open)
			open = e;
		else if (!strcmp(e->kind, "exchange") && !exch)
			exch = e;
		else if ((!strcmp(e->kind, "sheet") || !strcmp(e->kind, "commit")) && !first_sheet)
			first_sheet = e;
	}
	ord_commit_seed(c, v->game_id, v->turn, v->seed);
	if (memcmp(c, v->seed_commitment, 32))
		failed(v, "the dice seed does not match its commitment");
	if (!open) {
		failed(v, "no log entry commits to the dice seed (the turn's 'open' entry is missing)");
	} else {
		open->used++;
		ord_canon_open(&b, v->turn, v->seed_commitment);
		if (strcmp(b.buf, open->body))
			failed(v, "the seed commitment is not the one logged when the turn opened (entry %lld)",
			       (long long)open->seq);
		if (first_sheet && first_sheet->seq < open->seq)
			failed(v, "the seed was committed (entry %lld) after the first sheet (entry %lld)",
			       (long long)open->seq, (long long)first_sheet->seq);
	}
	if (!exch) {
		failed(v, "no log entry reveals the dice seed (the turn's 'exchange' entry is missing)");
	} else {
		exch->used++;
		ord_buf_reset(&b);
		ord_canon_exchange(&b, v->turn, v->seed);
		if (strcmp(b.buf, exch->body))
			failed(v, "the dice seed is not the one revealed at the exchange (entry %lld)",
			       (long long)exch->seq);
	}
	if (v->failures == bad && open)
		okay(v, "seed: committed in entry %lld, before the first sheet%s; revealed in entry %lld",
		     (long long)open->seq, first_sheet ? "" : " (there was none)",
		     exch ? (long long)exch->seq : 0LL);
	ord_buf_release(&b);
}

static void check_sheets(struct verify *v)
{
	struct ord_buf b = ORD_BUF_INIT, what = ORD_BUF_INIT;
	unsigned char c[32];
	size_t i;
	int bad = v->failures, nsigned = 0;

	for (i = 0; i < v->nsheets; i++) {
		struct v_sheet *s = &v->sheets[i];
		const struct v_side *sd = side(v, s->side);
		struct v_entry *e;

		ord_buf_reset(&what);
		ord_buf_addf(&what, "the sheet of %s, version %d", s->side, s->version);
		if (!sd)
			failed(v, "%s: no such side in this game", what.buf);
		ord_commit_sheet(c, v->game_id, v->turn, s->side, s->nonce, s->bytes, s->len);
		s->commit_ok = !memcmp(c, s->commitment, 32);
		if (!s->commit_ok)
			failed(v, "%s: its bytes and nonce do not give its commitment (changed since it was committed)",
			       what.buf);
		if (sd && sd->has_key && !strcmp(s->source, "submitted")) {
			if (!s->has_sig)
				failed(v, "%s: not signed, but side %s signs its sheets", what.buf,
				       s->side);
			else if (ord_sheet_sig_check(sd->key, s->signature, v->game_id, v->turn,
						     s->side, s->commitment))
				failed(v, "%s: its signature is not side %s's over its commitment",
				       what.buf, s->side);
			else
				nsigned++;
		} else if (s->has_sig) {
			failed(v, "%s: carries a signature no key of the bundle can check", what.buf);
		}
		e = entry(v, s->log);
		if (e && !strcmp(e->kind, "opening")) {
			e = entry_of(v, s->log, "opening", what.buf);
			ord_buf_reset(&b);
			ord_canon_opening(&b, s->side, s->version, s->commitment);
		} else {
			e = entry_of(v, s->log, "sheet", what.buf);
			ord_buf_reset(&b);
			ord_canon_sheet(&b, s->side, s->version, s->source, s->commitment,
					s->has_sig ? s->signature : NULL);
		}
		if (e && strcmp(e->body, b.buf))
			failed(v, "%s: differs from what was logged in entry %lld", what.buf,
			       (long long)e->seq);
	}
	for (i = 0; i < v->ncommits; i++) {
		struct v_commit *cm = &v->commits[i];
		const struct v_side *sd = side(v, cm->side);
		struct v_entry *e;

		ord_buf_reset(&what);
		ord_buf_addf(&what, "the commitment of %s, version %d", cm->side, cm->version);
		if (!sd || !sd->has_key ||
		    ord_sheet_sig_check(sd->key, cm->signature, v->game_id, v->turn, cm->side,
					cm->commitment))
			failed(v, "%s: its signature is not side %s's", what.buf, cm->side);
		else
			nsigned++;
		e = entry_of(v, cm->log, "commit", what.buf);
		ord_buf_reset(&b);
		ord_canon_commit(&b, cm->side, cm->version, cm->commitment, cm->signature);
		if (e && strcmp(e->body, b.buf))
			failed(v, "%s: differs from what was logged in entry %lld", what.buf,
			       (long long)e->seq);
	}
	if (v->failures == bad)
		okay(v, "sheets: %zu commitment%s recomputed from the sheets' bytes and nonces; %d side signature%s checked",
		     v->nsheets, v->nsheets == 1 ? "" : "s", nsigned, nsigned == 1 ? "" : "s");
	ord_buf_release(&b);
	ord_buf_release(&what);
}

/* The sealed version of each side, as the seal entry must name it. */
struct sealed {
	int version;
	unsigned char commitment[32];
	const struct v_sheet *sheet; /* its opened sheet, or NULL */
};

static int check_seal(struct verify *v, struct sealed *sealed)
{
	struct ord_buf b = ORD_BUF_INIT;
	struct v_entry *seal = NULL;
	size_t i, j, nseals = 0;
	char *forced;
	int bad = v->failures;

	for (i = 0; i < v->nentries; i++)
		if (!strcmp(v->entries[i].kind, "seal")) {
			if (!seal)
				seal = &v->entries[i];
			nseals++;
		}
	if (nseals != 1) {
		failed(v, "the turn was sealed %zu times (expected once)", nseals);
		if (!seal)
			return -1;
	}
	seal->used++;
	/* the latest version each side handed in before the seal */
	for (j = 0; j < v->nsides; j++) {
		memset(&sealed[j], 0, sizeof(sealed[j]));
		for (i = 0; i < v->nsheets; i++) {
			const struct v_sheet *s = &v->sheets[i];
			struct v_entry *e = entry(v, s->log);
			if (strcmp(s->side, v->sides[j].id) || !e || strcmp(e->kind, "sheet") ||
			    s->log > seal->seq)
				continue;
			if (s->version > sealed[j].version) {
				sealed[j].version = s->version;
				memcpy(sealed[j].commitment, s->commitment, 32);
			}
		}
		for (i = 0; i < v->ncommits; i++) {
			const struct v_commit *c = &v->commits[i];
			if (strcmp(c->side, v->sides[j].id) || c->log > seal->seq)
				continue;
			if (c->version > sealed[j].version) {
				sealed[j].version = c->version;
				memcpy(sealed[j].commitment, c->commitment, 32);
			}
		}
		for (i = 0; i < v->nsheets; i++)
			if (!strcmp(v->sheets[i].side, v->sides[j].id) &&
			    v->sheets[i].version == sealed[j].version &&
			    !memcmp(v->sheets[i].commitment, sealed[j].commitment, 32))
				sealed[j].sheet = &v->sheets[i];
	}
	forced = ord_canon_get(seal->body, "forced");
	ord_buf_addf(&b, "turn=%d\nforced=%s\n", v->turn, forced ? forced : "");
	free(forced);
	for (j = 0; j < v->nsides; j++) {
		ord_buf_addf(&b, "sealed.%s=%d:", v->sides[j].id, sealed[j].version);
		ord_buf_add_hex(&b, sealed[j].commitment, 32);
		ord_buf_addch(&b, '\n');
	}
	if (strcmp(b.buf, seal->body))
		failed(v, "the seal (entry %lld) does not name, for each side, the latest sheet it handed in before it",
		       (long long)seal->seq);
	for (i = 0; i < v->nentries; i++) {
		struct v_entry *e = &v->entries[i];
		if ((!strcmp(e->kind, "sheet") || !strcmp(e->kind, "commit")) && e->seq > seal->seq)
			failed(v, "log entry %lld: a %s handed in after the seal",
			       (long long)e->seq, e->kind);
		if (!strcmp(e->kind, "opening") && e->seq < seal->seq)
			failed(v, "log entry %lld: a sheet opened before the seal", (long long)e->seq);
		if ((!strcmp(e->kind, "event") || !strcmp(e->kind, "resolve")) && e->seq < seal->seq)
			failed(v, "log entry %lld: an %s before the seal", (long long)e->seq, e->kind);
	}
	for (j = 0; j < v->nsides; j++)
		if (!sealed[j].sheet)
			failed(v, "the sealed sheet of %s (version %d) is not in the bundle%s",
			       v->sides[j].id, sealed[j].version,
			       v->refereeless ? " (never opened)" : "");
	if (v->failures == bad)
		okay(v, "seal: entry %lld seals the latest sheet of each of the %zu sides",
		     (long long)seal->seq, v->nsides);
	ord_buf_release(&b);
	return 0;
}

static void check_dice(struct verify *v, const struct sealed *sealed, int have_sealed)
{
	struct ord_digest d;
	unsigned char key[32];
	size_t i, j;
	int bad = v->failures, complete = have_sealed;

	ord_dice_key_begin(&d, v->refereeless, v->game_id, v->turn, v->seed);
	for (j = 0; have_sealed && j < v->nsides; j++) {
		if (v->refereeless && !sealed[j].sheet)
			complete = 0;
		ord_dice_key_side(&d, v->sides[j].id, sealed[j].commitment,
				  v->refereeless && sealed[j].sheet ? sealed[j].sheet->nonce : NULL);
	}
	ord_digest_final(&d, key);
	if (!complete && v->nrolls) {
		failed(v, "the dice key cannot be derived (the sealed sheets are not all here): %zu rolls not checked",
		       v->nrolls);
		return;
	}
	for (i = 0; i < v->nrolls; i++) {
		const struct v_roll *r = &v->rolls[i];
		int want;

		if (r->fixed) {
			failed(v, "roll [%s, event %d, %s, #%d] was given by the referee (a fixed-dice test game), not derived from the seed",
			       r->phase, r->event, r->purpose, r->idx);
			continue;
		}
		if (r->sides < 2 || r->sides > 1000 || r->event < 0 || r->idx < 0) {
			failed(v, "roll [%s, event %d, %s, #%d]: a d%d cannot be rolled", r->phase,
			       r->event, r->purpose, r->idx, r->sides);
			continue;
		}
		want = ord_dice_face(key, r->phase, (unsigned)r->event, r->purpose,
				     (unsigned)r->idx, (unsigned)r->sides);
		if (want != r->value)
			failed(v, "roll [%s, event %d, %s, #%d] is %d on a d%d, but the seed and the sealed sheets give %d (the dice were chosen)",
			       r->phase, r->event, r->purpose, r->idx, r->value, r->sides, want);
	}
	if (v->failures == bad)
		okay(v, "dice: %zu roll%s recomputed from the seed and the sealed %s", v->nrolls,
		     v->nrolls == 1 ? "" : "s",
		     v->refereeless ? "commitments and nonces" : "commitments");
}

static void check_events(struct verify *v)
{
	struct ord_buf b = ORD_BUF_INIT, what = ORD_BUF_INIT;
	size_t i;
	int bad = v->failures, overrides = 0;

	for (i = 0; i < v->nevents; i++) {
		const struct v_event *ev = &v->events[i];
		struct v_entry *e;

		ord_buf_reset(&what);
		ord_buf_addf(&what, "event #%u (%s)", ev->seq, ev->kind);
		e = entry_of(v, ev->log, "event", what.buf);
		ord_buf_reset(&b);
		ord_canon_event(&b, ev->seq, ev->phase, ev->kind, ev->args ? ev->args : "",
				ev->override, ev->checks);
		if (e && strcmp(e->body, b.buf))
			failed(v, "%s: differs from what was logged in entry %lld", what.buf,
			       (long long)e->seq);
		if (ev->override)
			overrides++;
	}
	if (v->failures == bad)
		okay(v, "events: %zu match the log (%d recorded against the orders, with the referee's reason)",
		     v->nevents, overrides);
	ord_buf_release(&b);
	ord_buf_release(&what);
}

static void check_phases(struct verify *v)
{
	size_t i, k;
	int bad = v->failures, n = 0;

	for (i = 0; i < v->nentries; i++) {
		struct v_entry *e = &v->entries[i];
		struct ord_digest d;
		unsigned char h[32];
		char hex[65], *want, *cnt;
		int nr = 0, nres = 0, nst = 0;

		if (strcmp(e->kind, "resolve"))
			continue;
		e->used++;
		n++;
		ord_digest_init(&d, ORD_PHASE_TAG);
		for (k = 0; k < v->nrolls; k++) {
			const struct v_roll *r = &v->rolls[k];
			if (r->log != e->seq)
				continue;
			ord_digest_roll(&d, r->turn, r->phase, r->event, r->purpose, r->idx,
					r->sides, r->value, r->fixed);
			nr++;
		}
		for (k = 0; k < v->nresults; k++) {
			const struct v_result *r = &v->results[k];
			if (r->log != e->seq)
				continue;
			ord_digest_result(&d, r->turn, r->phase, r->event, r->unit,
					  r->values ? r->values : "",
					  r->explanation ? r->explanation : "");
			nres++;
		}
		for (k = 0; k < v->nstates; k++) {
			const struct v_state *s = &v->states[k];
			if (s->log != e->seq)
				continue;
			ord_digest_state(&d, s->unit, s->attrs ? s->attrs : "", s->turn, s->phase,
					 s->value ? s->value : "");
			nst++;
		}
		ord_digest_final(&d, h);
		ord_hex(hex, h, 32);
		want = ord_canon_get(e->body, "digest");
		if (!want || strcmp(want, hex)) {
			cnt = ord_canon_get(e->body, "phase");
			failed(v, "the rolls, results or unit states of entry %lld (phase %s) are not the ones logged",
			       (long long)e->seq, cnt ? cnt : "?");
			free(cnt);
		}
		free(want);
	}
	/* rows that no resolve entry vouches for were slipped in */
	for (k = 0; k < v->nrolls + v->nresults + v->nstates; k++) {
		int64_t log = k < v->nrolls ? v->rolls[k].log
			      : k < v->nrolls + v->nresults
				      ? v->results[k - v->nrolls].log
				      : v->states[k - v->nrolls - v->nresults].log;
		struct v_entry *e = entry(v, log);
		if (!e || strcmp(e->kind, "resolve")) {
			failed(v, "a %s of the bundle belongs to no resolved phase of this turn (entry %lld)",
			       k < v->nrolls                 ? "roll"
			       : k < v->nrolls + v->nresults ? "result"
							     : "unit state",
			       (long long)log);
			break;
		}
	}
	if (v->failures == bad)
		okay(v, "phases: %d digest%s of rolls, results and unit states recomputed (%zu results, %zu unit states)",
		     n, n == 1 ? "" : "s", v->nresults, v->nstates);
}

/* Entries of kinds that record a row must each have found theirs. */
static void check_unvouched(struct verify *v)
{
	static const char *const kinds[] = { "sheet", "opening", "commit", "event", NULL };
	size_t i, k;

	for (i = 0; i < v->nentries; i++) {
		const struct v_entry *e = &v->entries[i];
		for (k = 0; kinds[k]; k++)
			if (!strcmp(e->kind, kinds[k]) && e->used != 1)
				failed(v, "log entry %lld (%s): %s", (long long)e->seq, e->kind,
				       e->used ? "more than one row of the bundle claims it"
					       : "what it records is not in the bundle (left out)");
	}
}

/* One head against the log of the bundle; what names it in messages. */
static int head_matches(struct verify *v, const char *at, int turn, int64_t seq,
			const unsigned char hash[32], const char *what)
{
	const unsigned char *have = NULL;
	struct v_entry *e;

	if (turn != v->turn && !(turn == v->turn - 1 && !strcmp(at, "exchange"))) {
		failed(v, "%s: a head of turn %d, which this bundle of turn %d does not hold", what,
		       turn, v->turn);
		return -1;
	}
	if (v->nentries && seq == v->entries[0].seq - 1) {
		have = v->prev;
	} else if ((e = entry(v, seq)) != NULL) {
		have = e->hash;
		if (!memcmp(have, hash, 32) && strcmp(e->kind, at)) {
			failed(v, "%s: entry %lld is a '%s' entry, not the %s", what,
			       (long long)seq, e->kind, at);
			return -1;
		}
	} else {
		failed(v, "%s: entry %lld is outside this bundle (entries %lld to %lld): export the turn it belongs to",
		       what, (long long)seq, v->nentries ? (long long)v->entries[0].seq : 0LL,
		       v->nentries ? (long long)v->entries[v->nentries - 1].seq : 0LL);
		return -1;
	}
	if (memcmp(have, hash, 32)) {
		failed(v, "%s: entry %lld does not have the hash that was signed: the history up to it was rewritten",
		       what, (long long)seq);
		return -1;
	}
	return 0;
}

static void check_heads(struct verify *v, const struct ord_verify_opts *o)
{
	struct ord_buf what = ORD_BUF_INIT;
	unsigned char msg[32];
	char hex[65];
	size_t i;
	int bad = v->failures, seal = 0, exch = 0;

	for (i = 0; i < v->nheads; i++) {
		const struct v_head *h = &v->heads[i];
		ord_buf_reset(&what);
		ord_buf_addf(&what, "the signed head of the %s (entry %lld)", h->at, (long long)h->seq);
		ord_sig_head_msg(msg, v->game_id, v->turn, h->at, h->seq, h->hash);
		if (ord_sig_check(h->signature, msg, v->key))
			failed(v, "%s: its signature does not hold", what.buf);
		else if (!head_matches(v, h->at, v->turn, h->seq, h->hash, what.buf)) {
			if (!strcmp(h->at, "seal"))
				seal++;
			else
				exch++;
		}
	}
	if (v->failures == bad) {
		if (seal && exch)
			okay(v, "heads: the seal and the exchange were signed as the log stood then");
		else
			ord_buf_addf(v->out,
				     "  note: this turn has %s signed head of its seal and %s of its exchange (a game older than signed heads)\n",
				     seal ? "a" : "no", exch ? "one" : "none");
	}
	for (i = 0; o && i < o->nheads; i++) {
		const struct ord_head *h = &o->heads[i];
		int before = v->failures;

		ord_buf_reset(&what);
		ord_buf_addf(&what, "the head you kept of turn %d's %s (entry %lld)", h->turn,
			     h->at, (long long)h->seq);
		if (memcmp(h->game_id, v->game_id, 16)) {
			failed(v, "%s: it is a head of another game", what.buf);
			continue;
		}
		if (memcmp(h->key, v->key, 32)) {
			ord_hex(hex, h->key, 32);
			failed(v, "%s: it was signed by key %s, not by the key of this bundle",
			       what.buf, hex);
			continue;
		}
		if (ord_head_check(h)) {
			failed(v, "%s: its signature does not hold", what.buf);
			continue;
		}
		if (!head_matches(v, h->at, h->turn, h->seq, h->hash, what.buf) && v->failures == before)
			okay(v, "%s: matches; nothing up to it was rewritten", what.buf);
	}
	ord_buf_release(&what);
}

static void check_receipts(struct verify *v, const struct sealed *sealed, int have_sealed,
			   const struct ord_verify_opts *o)
{
	size_t i, k, j;
	char hex[65];

	for (i = 0; o && i < o->nreceipts; i++) {
		const struct v_sheet *s = NULL;

		ord_hex(hex, o->receipts[i], 32);
		for (k = 0; k < v->nsheets; k++)
			if (!memcmp(v->sheets[k].commitment, o->receipts[i], 32))
				s = &v->sheets[k];
		if (!s) {
			for (k = 0; k < v->ncommits; k++)
				if (!memcmp(v->commits[k].commitment, o->receipts[i], 32))
					break;
			if (k < v->ncommits)
				failed(v, "receipt %s: the commitment of %s (version %d) is here, but its sheet was never opened",
				       hex, v->commits[k].side, v->commits[k].version);
			else
				failed(v, "receipt %s: no sheet of this bundle has this commitment (your sheet was dropped or replaced)",
				       hex);
			continue;
		}
		if (!s->commit_ok) {
			failed(v, "receipt %s: the sheet of %s with this commitment was changed (its bytes no longer give it)",
			       hex, s->side);
			continue;
		}
		for (j = 0; have_sealed && j < v->nsides; j++) {
			if (strcmp(v->sides[j].id, s->side))
				continue;
			if (sealed[j].version != s->version)
				failed(v, "receipt %s: the sheet of %s, version %d, is here unchanged, but version %d was sealed instead",
				       hex, s->side, s->version, sealed[j].version);
			else
				okay(v, "receipt %s: the sheet of %s, version %d, is here unchanged and was the one sealed",
				     hex, s->side, s->version);
		}
	}
}

int ord_bundle_verify(const char *bytes, size_t len, const char *name,
		      const struct ord_verify_opts *opts, struct ord_buf *out)
{
	struct verify v;
	struct sealed *sealed = NULL;
	xmlDocPtr doc = NULL;
	char gid[33], key[65];
	int err, have_sealed;

	memset(&v, 0, sizeof(v));
	v.name = name;
	v.out = out;
	if ((err = ord_crypto_init()) != 0)
		return err;
	if ((err = ord_xml_load(&doc, bytes, len, name, "schema/bundle.rng")) != 0)
		return err;
	if ((err = load(&v, xmlDocGetRootElement(doc))) != 0)
		goto out;
	ord_hex(gid, v.game_id, 16);
	ord_hex(key, v.key, 32);
	ord_buf_addf(out, "bundle '%s': game %s, turn %d, ruleset %s, %s\n  signed by %s\n", name,
		     gid, v.turn, v.ruleset, v.refereeless ? "no referee" : "refereed", key);
	check_signature(&v, bytes, len, opts);
	check_chain(&v);
	check_seed(&v);
	check_sheets(&v);
	sealed = ord_xcalloc(v.nsides + 1, sizeof(*sealed));
	have_sealed = check_seal(&v, sealed) == 0;
	check_dice(&v, sealed, have_sealed);
	check_events(&v);
	check_phases(&v);
	check_unvouched(&v);
	check_heads(&v, opts);
	check_receipts(&v, sealed, have_sealed, opts);
	if (v.failures) {
		ord_buf_addf(out, "%d check%s failed\n", v.failures, v.failures == 1 ? "" : "s");
		err = ord_error_set(ORD_ETAMPERED, "%s: %d check%s failed", name, v.failures,
				    v.failures == 1 ? "" : "s");
	} else {
		ord_buf_addf(out, "verified: every check holds%s\n",
			     opts && opts->pubkey ? ""
						  : " (against the bundle's own key: give --pubkey)");
	}
out:
	free(sealed);
	release(&v);
	xmlFreeDoc(doc);
	return err;
}
