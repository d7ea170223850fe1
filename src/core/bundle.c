/*
 * bundle.c - turn bundles (bundle.h): a turn's record (record.h) written as
 * a signed XML document, and read back by `orderly verify`, which checks
 * its signature and hands the record to the one verifier (verify.c), the
 * same that `orderly audit` runs over the game file; a record that
 * verified gives the turn report (`verify --report`) by the game file's
 * report builder (report.h), and the map (`verify --map`) by its drawer
 * (picture.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include <sodium.h>

#include "core/bundle.h"
#include "core/canon.h"
#include "core/crypto.h"
#include "core/fog.h"
#include "core/picture.h"
#include "core/record.h"
#include "core/report.h"
#include "core/scenario.h"
#include "core/verify.h"
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

/* ---- writing a record ---- */

static void hexattr(struct ord_buf *a, const char *name, const unsigned char *p, size_t n)
{
	ord_buf_addf(a, " %s=\"", name);
	ord_buf_add_hex(a, p, n);
	ord_buf_addch(a, '"');
}

static void text_elem(struct ord_buf *out, int indent, const char *name, const char *attrs,
		      const char *s)
{
	ord_bundle_elem(out, indent, name, attrs, s ? s : "", s ? strlen(s) : 0, 0);
}

/* The writer's buffer handed on once it holds this much (a writer with
 * a flush). */
#define SPILL ((size_t)64 * 1024)

static int spill(struct ord_bundle_writer *w, int all)
{
	int err;

	if (!w->flush || !w->out->len || (!all && w->out->len < SPILL))
		return 0;
	err = w->flush(w->ud, w->out->buf, w->out->len);
	ord_buf_reset(w->out);
	return err;
}

/* The sections the rows are in: the units, the log, and after it. */
enum { IN_UNITS, IN_LOG, PAST_LOG };

static void stage_to(struct ord_bundle_writer *w, int stage)
{
	if (w->stage < IN_LOG && stage >= IN_LOG) {
		ord_buf_adds(w->out, "  </units>\n  <log");
		hexattr(w->out, "prev", w->prev, 32);
		ord_buf_adds(w->out, ">\n");
	}
	if (w->stage < PAST_LOG && stage >= PAST_LOG)
		ord_buf_adds(w->out, "  </log>\n");
	if (stage > w->stage)
		w->stage = stage;
}

int ord_bundle_writer_begin(struct ord_bundle_writer *w, struct ord_buf *out,
			    const struct ord_record *head,
			    int (*flush)(void *ud, const char *bytes, size_t len), void *ud)
{
	struct ord_canon_config cfg;
	int err = 0;

	memset(w, 0, sizeof(*w));
	w->out = out;
	w->flush = flush;
	w->ud = ud;
	w->a = (struct ord_buf)ORD_BUF_INIT;
	w->body = (struct ord_buf)ORD_BUF_INIT;
	memcpy(w->prev, head->prev, 32);
	if (!head->entries.n ||
	    ord_canon_config_read(&cfg, ord_record_body(head, &head->entries.v[0], &w->body)))
		return ord_error_set(ORD_ETAMPERED,
				     "turn %d's log does not open with the game's config: run 'orderly audit'",
				     head->turn);
	ord_buf_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<bundle format=\"" ORD_BUNDLE_FORMAT
			  "\" game=\"");
	ord_buf_add_hex(out, head->game_id, 16);
	ord_buf_addf(out, "\" turn=\"%d\"", head->turn);
	if ((err = ord_bundle_attr(out, "ruleset", cfg.ruleset)) != 0)
		goto out;
	ord_buf_addf(out, " referee=\"%s\"", cfg.refereeless ? "no" : "yes");
	/* a fixed-dice game says so where a reader looks first (red-team
	 * finding 4): its dice were chosen by the referee, not drawn */
	if (cfg.fixed_dice)
		ord_buf_adds(out, " dice=\"fixed\"");
	ord_buf_adds(out, ">\n  <key>");
	ord_buf_add_hex(out, head->key, 32);
	ord_buf_adds(out, "</key>\n");
	text_elem(out, 2, "title", "", head->title);
	ord_bundle_elem(out, 2, "scenario", "", head->scenario, head->scenario_len, 0);
	ord_bundle_elem(out, 2, "tables", "", head->tables ? head->tables : "", head->tables_len, 0);
	ord_buf_adds(out, "  <seed>");
	ord_buf_add_hex(out, head->seed, 32);
	ord_buf_adds(out, "</seed>\n");
	if (head->have_referee_witness) {
		ord_buf_adds(out, "  <referee-witness>");
		ord_buf_add_hex(out, head->referee_witness, 32);
		ord_buf_adds(out, "</referee-witness>\n");
	}
	ord_buf_adds(out, "  <units>\n");
	err = spill(w, 0);
out:
	ord_canon_config_release(&cfg);
	return err;
}

int ord_bundle_writer_rows(struct ord_bundle_writer *w, const struct ord_record *r)
{
	struct ord_buf *out = w->out, *a = &w->a;
	size_t i;
	int err = 0;

	for (i = 0; i < r->units.n; i++) {
		ord_buf_reset(a);
		if ((err = ord_bundle_attr(a, "id", r->units.v[i].id)) != 0)
			return err;
		text_elem(out, 4, "unit", a->buf, r->units.v[i].state);
		if ((err = spill(w, 0)) != 0)
			return err;
	}
	if (r->entries.n)
		stage_to(w, IN_LOG);
	for (i = 0; i < r->entries.n; i++) {
		const struct ord_rec_entry *e = &r->entries.v[i];
		ord_buf_reset(a);
		ord_buf_addf(a, " seq=\"%lld\" turn=\"%d\"", (long long)e->seq, e->turn);
		if ((err = ord_bundle_attr(a, "kind", e->kind)) != 0)
			return err;
		ord_buf_addf(a, " at=\"%lld\"", (long long)e->at);
		hexattr(a, "hash", e->hash, 32);
		text_elem(out, 4, "entry", a->buf, ord_record_body(r, e, &w->body));
		if ((err = spill(w, 0)) != 0)
			return err;
	}
	if (r->commits.n || r->sheets.n || r->previous.n || r->events.n || r->links.n ||
	    r->rolls.n || r->results.n || r->states.n || r->heads.n)
		stage_to(w, PAST_LOG);
	for (i = 0; i < r->commits.n; i++) {
		const struct ord_rec_commit *c = &r->commits.v[i];
		ord_buf_reset(a);
		if ((err = ord_bundle_attr(a, "side", c->side)) != 0)
			return err;
		ord_buf_addf(a, " version=\"%d\"", c->version);
		hexattr(a, "commitment", c->commitment, 32);
		hexattr(a, "signature", c->signature, 64);
		ord_buf_addf(out, "  <commitment%s log=\"%lld\"/>\n", a->buf, (long long)c->log);
		if ((err = spill(w, 0)) != 0)
			return err;
	}
	for (i = 0; i < r->sheets.n; i++) {
		const struct ord_rec_sheet *s = &r->sheets.v[i];
		ord_buf_reset(a);
		if ((err = ord_bundle_attr(a, "side", s->side)) != 0)
			return err;
		ord_buf_addf(a, " source=\"%s\" version=\"%d\"", s->source, s->version);
		hexattr(a, "nonce", s->nonce, 32);
		hexattr(a, "commitment", s->commitment, 32);
		if (s->has_sig)
			hexattr(a, "signature", s->signature, 64);
		if (s->has_witness)
			hexattr(a, "witness", s->witness, 32);
		ord_buf_addf(a, " log=\"%lld\"", (long long)s->log);
		ord_bundle_elem(out, 2, "sheet", a->buf, s->bytes, s->len, 1);
		if ((err = spill(w, 0)) != 0)
			return err;
	}
	for (i = 0; i < r->previous.n; i++) {
		const struct ord_rec_prev *p = &r->previous.v[i];
		ord_buf_reset(a);
		if ((err = ord_bundle_attr(a, "side", p->side)) != 0)
			return err;
		ord_bundle_elem(out, 2, "previous", a->buf, p->bytes, p->len, 1);
		if ((err = spill(w, 0)) != 0)
			return err;
	}
	for (i = 0; i < r->events.n; i++) {
		const struct ord_rec_event *e = &r->events.v[i];
		ord_buf_reset(a);
		ord_buf_addf(a, " seq=\"%u\"", e->seq);
		if ((err = ord_bundle_attr(a, "phase", e->phase)) != 0 ||
		    (err = ord_bundle_attr(a, "kind", e->kind)) != 0)
			return err;
		ord_buf_addf(out, "  <event%s log=\"%lld\"", a->buf, (long long)e->log);
		if (e->void_log)
			ord_buf_addf(out, " void-log=\"%lld\"", (long long)e->void_log);
		ord_buf_adds(out, ">\n");
		text_elem(out, 4, "args", "", e->args);
		if (e->override)
			text_elem(out, 4, "override", "", e->override);
		text_elem(out, 4, "checks", "", e->checks);
		if (e->void_log)
			text_elem(out, 4, "void", "", e->void_reason);
		ord_buf_adds(out, "  </event>\n");
		if ((err = spill(w, 0)) != 0)
			return err;
	}
	for (i = 0; i < r->links.n; i++) {
		const struct ord_rec_link *k = &r->links.v[i];
		ord_buf_reset(a);
		ord_buf_addf(a, " index=\"%d\"", k->index);
		if ((err = ord_bundle_attr(a, "side", k->side)) != 0)
			return err;
		hexattr(a, "link", k->link, 32);
		ord_buf_addf(out, "  <link%s log=\"%lld\"/>\n", a->buf, (long long)k->log);
		if ((err = spill(w, 0)) != 0)
			return err;
	}
	for (i = 0; i < r->rolls.n; i++) {
		const struct ord_rec_roll *o = &r->rolls.v[i];
		ord_buf_reset(a);
		ord_buf_addf(a, " log=\"%lld\" turn=\"%d\"", (long long)o->log, o->turn);
		if ((err = ord_bundle_attr(a, "phase", o->phase)) != 0)
			return err;
		ord_buf_addf(a, " event=\"%d\"", o->event);
		if ((err = ord_bundle_attr(a, "purpose", o->purpose)) != 0)
			return err;
		ord_buf_addf(out, "  <roll%s index=\"%d\" sides=\"%d\" value=\"%d\" fixed=\"%s\"/>\n",
			     a->buf, o->idx, o->sides, o->value, o->fixed ? "yes" : "no");
		if ((err = spill(w, 0)) != 0)
			return err;
	}
	for (i = 0; i < r->results.n; i++) {
		const struct ord_rec_result *o = &r->results.v[i];
		ord_buf_reset(a);
		ord_buf_addf(a, " log=\"%lld\" turn=\"%d\"", (long long)o->log, o->turn);
		if ((err = ord_bundle_attr(a, "phase", o->phase)) != 0)
			return err;
		ord_buf_addf(a, " event=\"%d\"", o->event);
		if ((err = ord_bundle_attr(a, "unit", o->unit)) != 0)
			return err;
		ord_buf_addf(out, "  <result%s>\n", a->buf);
		text_elem(out, 4, "values", "", o->values);
		if (o->texts.n < 2) {
			text_elem(out, 4, "explanation", "", o->explanation);
		} else {
			/* one <explanation lang=".."> per language, the module's first */
			size_t j;
			for (j = 0; j < o->texts.n; j++) {
				ord_buf_reset(a);
				if ((err = ord_bundle_attr(a, "lang", o->texts.items[j].key)) != 0)
					return err;
				text_elem(out, 4, "explanation", a->buf, o->texts.items[j].value);
			}
		}
		ord_buf_adds(out, "  </result>\n");
		if ((err = spill(w, 0)) != 0)
			return err;
	}
	for (i = 0; i < r->states.n; i++) {
		const struct ord_rec_state *o = &r->states.v[i];
		ord_buf_reset(a);
		ord_buf_addf(a, " log=\"%lld\"", (long long)o->log);
		if ((err = ord_bundle_attr(a, "unit", o->unit)) != 0)
			return err;
		ord_buf_addf(out, "  <state%s turn=\"%d\" phase=\"%d\">\n", a->buf, o->turn, o->phase);
		text_elem(out, 4, "attrs", "", o->attrs);
		text_elem(out, 4, "value", "", o->value);
		ord_buf_adds(out, "  </state>\n");
		if ((err = spill(w, 0)) != 0)
			return err;
	}
	for (i = 0; i < r->heads.n; i++) {
		const struct ord_rec_head *h = &r->heads.v[i];
		ord_buf_addf(out, "  <head turn=\"%d\" at=\"%s\" seq=\"%lld\"", h->turn, h->at,
			     (long long)h->seq);
		hexattr(out, "hash", h->hash, 32);
		if (h->has_seed_commitment)
			hexattr(out, "seed-commitment", h->seed_commitment, 32);
		hexattr(out, "signature", h->signature, 64);
		ord_buf_adds(out, "/>\n");
		if ((err = spill(w, 0)) != 0)
			return err;
	}
	return 0;
}

int ord_bundle_writer_end(struct ord_bundle_writer *w)
{
	stage_to(w, PAST_LOG);
	return spill(w, 1);
}

void ord_bundle_writer_release(struct ord_bundle_writer *w)
{
	ord_buf_release(&w->a);
	ord_buf_release(&w->body);
}

int ord_bundle_write(struct ord_buf *out, const struct ord_record *r, const unsigned char sk[64])
{
	struct ord_bundle_writer w;
	int err;

	if ((err = ord_bundle_writer_begin(&w, out, r, NULL, NULL)) == 0 &&
	    (err = ord_bundle_writer_rows(&w, r)) == 0 && (err = ord_bundle_writer_end(&w)) == 0)
		ord_bundle_sign(out, sk);
	ord_bundle_writer_release(&w);
	return err;
}

/* ---- reading a record ---- */

static int pread_all(int fd, char *buf, size_t len, size_t off, const char *name, size_t *got);
static int pieces_read(void *ud, char *buf, size_t off, size_t n);

/* The elements of a bundle that hold elements: every other holds text only
 * (ord_xml_stream_open refuses an element inside one). */
static const char *const containers[] = { "bundle", "units", "log", "event", "result", "state", NULL };

/*
 * A bundle read as a stream, one element at a time, into a record: a row
 * is begun at its element's start tag (its attributes), and the text of
 * each element is kept until its end tag, where it is decoded and stored.
 * The schema is checked as the stream is read, so an element is only seen
 * in a place the schema allows.
 */
/* A run of rows of one table that one log entry vouches for, standing
 * together in the bundle: read again when the replay comes to its phase
 * (rows_of), from the file, and held to the hash of the bytes first read. */
struct run {
	int table; /* ORD_REC_GROUP_* */
	int64_t log;
	size_t start, end; /* its bytes: the first row's '<' to the next element's */
	size_t n;          /* its rows */
	unsigned char hash[32];
};

/* Where a bundle's rows are read again from: the file its bytes were read
 * from, and its runs. */
struct rows_src {
	int fd;
	const char *name;
	ORD_REC_ARRAY(struct run) runs;  /* of rows */
	ORD_REC_ARRAY(struct run) units; /* of the units' opening states, in order */
	struct run scenario;             /* the scenario's element (its n: 1 when read) */
	struct run *open;                /* the run being read (of either), or NULL */
	/* a run is read again whole: a phase's rows of one table (a third
	 * of a bundle of 100,000 units) come back in runs of at most this
	 * many (ord_record_chunk) */
	size_t chunk;
	size_t len;   /* the bundle's bytes (the parser's limits) */
	int in_units; /* inside <units> */
	/* the file's pieces the runs are read again by, held to their
	 * hashes (NULL: each run is held to its own hash) */
	struct fill_src *pieces;
};

/* A bundle's file read twice (ord_bundle_verify_file): scanned, its
 * signature's message digested and each piece of it hashed as it is first
 * read, a piece at a time; then read again for the parser a piece at a
 * time, each held to its hash, so that the parser reads the bytes the scan
 * passed and the signature signs (a file changed between the two reads is
 * refused: attack 16); and its runs of rows again for the replay by the
 * same pieces.  No more than a piece of it is held. */
#define PIECE ((size_t)64 << 10)
struct fill_src {
	int fd;
	const char *name;
	size_t len;
	size_t piece;              /* PIECE (less in a test) */
	unsigned char (*hash)[32]; /* of each piece as first read */
	char *buf;                 /* one piece, read again */
	size_t at;                 /* which (SIZE_MAX: none) */
	size_t served;             /* the parser's bytes so far */
	/* a test's hook after the first read (1) and after the parse (2) */
	void (*between)(void *ud, int read);
	void *ud;
};

/* A run of units, and the scenario's element (struct run's table), apart
 * from the tables of rows. */
#define RUN_UNITS 3
#define RUN_SCENARIO 4

struct reader {
	struct ord_xml_stream *x;
	const char *name;
	struct ord_record *r; /* where a row goes: main, or scratch (src) */
	struct ord_record *main;
	const char *bytes; /* the bundle (the runs' hashes) */
	/* rows read for their checks and let go, to be read again (NULL:
	 * the record keeps its rows) */
	struct rows_src *src;
	/* the file read by its pieces as it is parsed (NULL: the bytes are
	 * all there) */
	struct fill_src *fill;
	struct ord_record scratch;
	crypto_generichash_state hs; /* the open run's bytes so far */
	size_t hashed;               /* its hash holds the bytes up to here */
	/* the bytes are the reader's to spoil: those it has passed are let
	 * go (their pages given back) as it goes, up to dropped */
	int drop;
	size_t dropped;
	char *ruleset, *referee, *dice; /* the root's attributes, for the header */
	char sig_hex[129];              /* the <signature> element's text */
	struct ord_buf text;            /* the text of the element being read */
	struct ord_buf bin;             /* that text decoded from base64 */
	int base64;                     /* the element says enc="base64" */
	int err;                        /* a text that says base64 and is not */
	/* the values' forms are held (value_ok) in a read of the whole
	 * bundle, not in a run read again (its bytes are those read first) */
	int check;
	int bad;    /* a value not of its form: ORD_EBADDATA, the message set */
	size_t len; /* the bundle's bytes (at bytes, when they are at hand) */
	/* the bodies of the log's "event" entries, until the events they
	 * are made of have been read (settle_bodies): the log comes first */
	struct ord_arena bodies;
	int defer;
};

/* The last row of an ORD_REC_ARRAY, or NULL. */
#define LAST(a) ((a).n ? &(a).v[(a).n - 1] : NULL)

/*
 * The values' forms.  schema/bundle.rng gives each hash, signature, number
 * and name a datatype libxml2 checks without a regular expression or a
 * facet (hexBinary, positiveInteger, a string of at most 200 characters),
 * looser than the form orderly writes and reads: hex of its length in
 * lower case, numbers of their digits with no sign, blank or leading
 * zero, names with no blank at either end.  The schema said the form with
 * pattern facets, but libxml2 2.9 builds every facet again for each value
 * it checks, and compiles a pattern again (a sixth of a verify); the
 * reader holds each value to its form as it reads it, and refuses the
 * bundle at the first that is not, as the schema did.
 */
enum value_kind {
	V_NAME,    /* no blank at either end, no line break: ids, kinds, phases */
	V_COUNT,   /* 1 to 18 digits, the first not 0 */
	V_NUMBER,  /* 0, or 1 to 10 digits, the first not 0 */
	V_INTEGER, /* V_NUMBER's form of up to 19 digits, perhaps after a minus */
	V_HEX16,   /* 16 bytes in hex, lower case */
	V_HEX32,
	V_HEX64,
	V_ANY, /* the schema's alone */
};

static const char *const value_expected[] = {
	[V_NAME] = "at least one character, no blank at either end and no line break",
	[V_COUNT] = "a count: 1 to 18 digits, the first not 0",
	[V_NUMBER] = "a number: 0, or 1 to 10 digits the first not 0",
	[V_INTEGER] = "an integer: 0, or 1 to 19 digits the first not 0, perhaps after a minus",
	[V_HEX16] = "32 hex digits in lower case",
	[V_HEX32] = "64 hex digits in lower case",
	[V_HEX64] = "128 hex digits in lower case",
	[V_ANY] = "",
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* 1 to max ASCII digits and nothing else, the first not 0 unless alone. */
static int digits_ok(const char *s, size_t max)
{
	size_t n = strspn(s, "0123456789");

	return n && !s[n] && n <= max && (s[0] != '0' || n == 1);
}

/* Whether s has the form of k (the patterns bundle.rng had). */
static int value_ok(enum value_kind k, const char *s)
{
	size_t n = strlen(s), want;

	switch (k) {
	case V_NAME: return n && !is_blank(s[0]) && !is_blank(s[n - 1]) && !strpbrk(s, "\r\n");
	case V_COUNT: return s[0] != '0' && digits_ok(s, 18);
	case V_NUMBER: return digits_ok(s, 10);
	case V_INTEGER: return digits_ok(s + (s[0] == '-'), 19);
	case V_ANY: return 1;
	default:
		want = k == V_HEX16 ? 32 : k == V_HEX32 ? 64 : 128;
		return n == want && strspn(s, "0123456789abcdef") == n;
	}
}

/* Where the value of attribute attr (NULL: the text) of the element just
 * read begins: *col 0 when the bytes are not at hand (read by pieces, or
 * let go), and *line then the element's. */
static void value_where(struct reader *rd, const char *attr, unsigned *line, unsigned *col)
{
	const char *b = rd->bytes, *end, *p, *v = NULL, *name, *ls = b;
	size_t off = ord_xml_stream_offset(rd->x), an = attr ? strlen(attr) : 0;
	char quote;

	*line = ord_xml_stream_line(rd->x);
	*col = 0;
	if (!b || rd->dropped || off >= rd->len || b[off] != '<')
		return;
	end = b + rd->len;
	/* the start tag's name, then its attributes */
	for (p = b + off + 1; p < end && !is_blank(*p) && *p != '>' && *p != '/'; p++)
		;
	while (p < end && !v) {
		while (p < end && is_blank(*p))
			p++;
		if (p >= end)
			break;
		if (*p == '>' || *p == '/') {
			/* the text begins after the tag (an empty one: at it) */
			v = attr ? b + off : *p == '>' ? p + 1 : b + off;
			break;
		}
		for (name = p; p < end && *p != '=' && !is_blank(*p); p++)
			;
		while (p < end && *p != '"' && *p != '\'')
			p++;
		if (p >= end)
			break;
		quote = *p++;
		if (attr && (size_t)(p - name) > an && !memcmp(name, attr, an) &&
		    (name[an] == '=' || is_blank(name[an])))
			v = p;
		while (p < end && *p != quote)
			p++;
		p++;
	}
	if (!v)
		v = b + off;
	/* its line and column (in characters) from the start */
	*line = 1;
	for (p = b; (p = memchr(p, '\n', (size_t)(v - p))) != NULL; (*line)++)
		ls = ++p;
	for (p = ls, *col = 1; p < v; p++)
		*col += ((unsigned char)*p & 0xC0) != 0x80;
}

/* The value s of attribute attr (NULL: the element's text) refused: not
 * of the form of k.  The message names the place and the form expected;
 * the value is quoted, at most 64 bytes of it, its line breaks and tabs
 * written as \n, \r, \t. */
static void value_refused(struct reader *rd, const char *attr, const char *s, enum value_kind k)
{
	struct ord_buf m = ORD_BUF_INIT;
	unsigned line, col;
	size_t n = strlen(s), cut = n > 64 ? 64 : n, i;

	while (cut < n && cut && ((unsigned char)s[cut] & 0xC0) == 0x80)
		cut--;
	value_where(rd, attr, &line, &col);
	ord_buf_addf(&m, "%s:%u", rd->name, line);
	if (col)
		ord_buf_addf(&m, ":%u", col);
	ord_buf_addf(&m, ": <%s>%s%s '", ord_xml_stream_name(rd->x), attr ? " " : "", attr ? attr : "");
	for (i = 0; i < cut; i++)
		if (s[i] == '\n' || s[i] == '\r' || s[i] == '\t')
			ord_buf_addf(&m, "\\%c", s[i] == '\n' ? 'n' : s[i] == '\r' ? 'r' : 't');
		else
			ord_buf_addch(&m, s[i]);
	ord_buf_addf(&m, "%s' is not valid (expected %s)", cut < n ? "..." : "", value_expected[k]);
	rd->bad = ord_error_set(ORD_EBADDATA, "%s", m.buf);
	ord_buf_release(&m);
}

/* The value s of attribute attr (NULL: the text) held to its form; the
 * first refused stops the read (read_events). */
static void held(struct reader *rd, const char *attr, const char *s, enum value_kind k)
{
	if (s && rd->check && !rd->bad && !value_ok(k, s))
		value_refused(rd, attr, s, k);
}

/* An attribute the schema requires (never NULL). */
static char *attr(struct reader *rd, const char *name)
{
	char *s = ord_xml_stream_attr(rd->x, name);
	return s ? s : ord_strdup("");
}

/* attr() kept in the record's blocks. */
static char *attr_rec(struct reader *rd, const char *name)
{
	return ord_record_take(rd->r, attr(rd, name));
}

/* attr_rec() of a name (V_NAME). */
static char *attr_name(struct reader *rd, const char *name)
{
	char *s = attr(rd, name);

	held(rd, name, s, V_NAME);
	return ord_record_take(rd->r, s);
}

/* A number of the form of k (0 when absent). */
static long attr_long(struct reader *rd, const char *name, enum value_kind k)
{
	char *s = ord_xml_stream_attr(rd->x, name);
	long l = 0;

	held(rd, name, s, k);
	if (!s || ord_parse_long(s, &l))
		l = 0;
	free(s);
	return l;
}

static enum value_kind hex_kind(size_t len)
{
	return len == 16 ? V_HEX16 : len == 32 ? V_HEX32 : V_HEX64;
}

/* len bytes in hex, lower case: 1, or 0 when absent (out zeroed). */
static int attr_hex(struct reader *rd, const char *name, unsigned char *out, size_t len)
{
	char *s = ord_xml_stream_attr(rd->x, name);
	int ok = s && strlen(s) == 2 * len && ord_unhex(out, len, s) == (int)len;

	held(rd, name, s, hex_kind(len));
	if (!ok)
		memset(out, 0, len);
	free(s);
	return ok;
}

static void text_hex(struct reader *rd, unsigned char *out, size_t len)
{
	const char *t = rd->text.buf;

	held(rd, NULL, t, hex_kind(len));
	if (strlen(t) != 2 * len || ord_unhex(out, len, t) != (int)len)
		memset(out, 0, len);
}

/* The text of the element just ended, decoded from base64 when it says so
 * (NUL-terminated, until the next element); *len receives its length.  ""
 * (with rd->err set) when it is not base64 though it says so. */
static const char *content(struct reader *rd, size_t *len)
{
	size_t tl = rd->text.len, bl = 0;

	if (!rd->base64) {
		*len = tl;
		return rd->text.buf;
	}
	ord_buf_reset(&rd->bin);
	ord_buf_grow(&rd->bin, tl / 4 * 3 + 4);
	if (sodium_base642bin((unsigned char *)rd->bin.buf, tl / 4 * 3 + 4, rd->text.buf, tl, NULL,
			      &bl, NULL, sodium_base64_VARIANT_ORIGINAL) != 0) {
		rd->err = ord_error_set(ORD_EBADDATA, "%s:%u: <%s> is not base64", rd->name,
					ord_xml_stream_line(rd->x), ord_xml_stream_name(rd->x));
		*len = 0;
		return "";
	}
	rd->bin.len = bl;
	rd->bin.buf[bl] = '\0';
	*len = bl;
	return rd->bin.buf;
}

/* The content as a string of the record's blocks. */
static char *content_rec(struct reader *rd)
{
	size_t len;
	return ord_record_str(rd->r, content(rd, &len));
}

/* The content malloc'd (the title, scenario, tables and sheets' bytes). */
static char *content_dup(struct reader *rd, size_t *len)
{
	const char *c = content(rd, len);
	char *copy = ord_xmalloc(*len + 1);

	memcpy(copy, c, *len);
	copy[*len] = '\0';
	return copy;
}

/* The open run's bytes up to at into its hash. */
static void run_feed(struct reader *rd, size_t at)
{
	/* a file read by its pieces holds its runs to the pieces' hashes */
	if (!rd->bytes)
		return;
	if (at > rd->hashed)
		crypto_generichash_update(&rd->hs, (const unsigned char *)rd->bytes + rd->hashed,
					  at - rd->hashed);
	rd->hashed = at;
}

/* Past at, the bytes up to a margin before it are read and hashed: their
 * pages are given back (libxml2 has copied what it reads of them). */
#define DROP_MARGIN ((size_t)1 << 20)
#define DROP_STEP ((size_t)8 << 20)
static void drop_behind(struct reader *rd, size_t at)
{
#ifdef MADV_DONTNEED
	size_t page = (size_t)sysconf(_SC_PAGESIZE), to, from;

	if (!rd->drop || !rd->bytes || at < rd->dropped + DROP_MARGIN + DROP_STEP)
		return;
	to = at - DROP_MARGIN;
	from = ((uintptr_t)rd->bytes + rd->dropped + page - 1) / page * page;
	if ((uintptr_t)rd->bytes + to > from && ((uintptr_t)rd->bytes + to) / page * page > from)
		madvise((void *)from, ((uintptr_t)rd->bytes + to) / page * page - from, MADV_DONTNEED);
	rd->dropped = to;
#else
	(void)rd;
#endif
}

/* The open run ends where the element at offset at begins: its bytes
 * hashed, its rows counted for their entry (the record's groups). */
static void run_close(struct reader *rd, size_t at)
{
	struct run *o = rd->src->open;

	o->end = at;
	run_feed(rd, at);
	crypto_generichash_final(&rd->hs, o->hash, 32);
	if (o->table < RUN_UNITS) {
		struct ord_rec_group *g = ORD_REC_ADD(rd->main->groups);
		g->table = o->table;
		g->log = o->log;
		g->n = o->n;
	}
	rd->src->open = NULL;
}

/* A row (table, log) begins at offset at: the open run goes on, or ends
 * and (when table is not -1, no row) another begins; read into the
 * scratch record. */
static void run_to(struct reader *rd, int table, int64_t log, size_t at)
{
	struct rows_src *src = rd->src;
	struct run *o = src->open;

	if (o && (o->table != table || o->log != log || o->n >= src->chunk))
		run_close(rd, at);
	else if (o)
		run_feed(rd, at);
	rd->r = rd->main;
	if (table >= 0 && !src->open) {
		o = table == RUN_UNITS      ? ORD_REC_ADD(src->units)
		    : table == RUN_SCENARIO ? &src->scenario
					    : ORD_REC_ADD(src->runs);
		o->table = table;
		o->log = log;
		o->start = at;
		src->open = o;
		crypto_generichash_init(&rd->hs, NULL, 0, 32);
		rd->hashed = at;
	}
	drop_behind(rd, at);
	if (table >= 0)
		rd->r = &rd->scratch;
}

/* An element of the bundle's top level, e, begins: a row of a run (read
 * into the scratch record), the first of a new run, or no row. */
static void run_at(struct reader *rd, const char *e)
{
	int table = !strcmp(e, "roll")     ? ORD_REC_GROUP_ROLLS
		    : !strcmp(e, "result") ? ORD_REC_GROUP_RESULTS
		    : !strcmp(e, "state")  ? ORD_REC_GROUP_STATES
					   : -1;

	rd->src->in_units = !strcmp(e, "units");
	/* the scenario, one (the schema's), is hashed and read again when
	 * the verifier asks for it */
	if (table < 0 && !strcmp(e, "scenario") && !rd->src->scenario.n)
		table = RUN_SCENARIO;
	run_to(rd, table, table < 0 || table == RUN_SCENARIO ? 0 : attr_long(rd, "log", V_COUNT),
	       ord_xml_stream_offset(rd->x));
}

/* A row (or a unit) of a run read: counted, and the scratch let go now
 * and then. */
static void run_row(struct reader *rd)
{
	struct ord_record *sc = &rd->scratch;

	rd->src->open->n++;
	rd->r = rd->main;
	if (sc->rolls.n + sc->results.n + sc->states.n + sc->units.n >= 4096) {
		ord_record_release(sc);
		ord_record_init(sc);
	}
}

/* A start tag: the root's attributes, or a row begun with its own. */
static void start(struct reader *rd, const char *e, int depth)
{
	struct ord_record *r;
	char *enc = ord_xml_stream_attr(rd->x, "enc");

	if (depth == 1 && rd->src)
		run_at(rd, e);
	else if (depth == 2 && rd->src && rd->src->in_units && !strcmp(e, "unit"))
		run_to(rd, RUN_UNITS, 0, ord_xml_stream_offset(rd->x));
	r = rd->r;

	ord_buf_reset(&rd->text);
	rd->base64 = enc != NULL;
	free(enc);
	if (depth == 0) {
		attr_hex(rd, "game", r->game_id, 16);
		r->turn = (int)attr_long(rd, "turn", V_COUNT);
		rd->ruleset = ord_xml_stream_attr(rd->x, "ruleset");
		rd->referee = ord_xml_stream_attr(rd->x, "referee");
		rd->dice = ord_xml_stream_attr(rd->x, "dice");
	} else if (depth == 2 && !strcmp(e, "unit")) {
		ORD_REC_ADD(r->units)->id = attr_name(rd, "id");
	} else if (depth == 2 && !strcmp(e, "entry")) {
		struct ord_rec_entry *en = ORD_REC_ADD(r->entries);
		en->seq = attr_long(rd, "seq", V_COUNT);
		en->turn = (int)attr_long(rd, "turn", V_NUMBER);
		en->kind = attr_name(rd, "kind");
		en->at = attr_long(rd, "at", V_INTEGER);
		attr_hex(rd, "hash", en->hash, 32);
	} else if (depth != 1) {
		return;
	} else if (!strcmp(e, "log")) {
		attr_hex(rd, "prev", r->prev, 32);
	} else if (!strcmp(e, "commitment")) {
		struct ord_rec_commit *c = ORD_REC_ADD(r->commits);
		c->side = attr_name(rd, "side");
		c->version = (int)attr_long(rd, "version", V_COUNT);
		attr_hex(rd, "commitment", c->commitment, 32);
		attr_hex(rd, "signature", c->signature, 64);
		c->log = attr_long(rd, "log", V_COUNT);
	} else if (!strcmp(e, "sheet")) {
		struct ord_rec_sheet *s = ORD_REC_ADD(r->sheets);
		s->side = attr_name(rd, "side");
		s->source = attr_rec(rd, "source");
		s->version = (int)attr_long(rd, "version", V_COUNT);
		attr_hex(rd, "nonce", s->nonce, 32);
		attr_hex(rd, "commitment", s->commitment, 32);
		s->has_sig = attr_hex(rd, "signature", s->signature, 64);
		s->has_witness = attr_hex(rd, "witness", s->witness, 32);
		s->log = attr_long(rd, "log", V_COUNT);
	} else if (!strcmp(e, "previous")) {
		ORD_REC_ADD(r->previous)->side = attr_name(rd, "side");
	} else if (!strcmp(e, "event")) {
		struct ord_rec_event *ev = ORD_REC_ADD(r->events);
		ev->seq = (unsigned)attr_long(rd, "seq", V_COUNT);
		ev->phase = attr_name(rd, "phase");
		ev->kind = attr_name(rd, "kind");
		ev->log = attr_long(rd, "log", V_COUNT);
		ev->void_log = attr_long(rd, "void-log", V_COUNT);
	} else if (!strcmp(e, "link")) {
		struct ord_rec_link *k = ORD_REC_ADD(r->links);
		k->index = (int)attr_long(rd, "index", V_COUNT);
		k->side = attr_name(rd, "side");
		attr_hex(rd, "link", k->link, 32);
		k->log = attr_long(rd, "log", V_COUNT);
	} else if (!strcmp(e, "roll")) {
		struct ord_rec_roll *o = ORD_REC_ADD(r->rolls);
		char *f = attr(rd, "fixed");
		o->log = attr_long(rd, "log", V_COUNT);
		o->turn = (int)attr_long(rd, "turn", V_COUNT);
		o->phase = attr_name(rd, "phase");
		o->event = (int)attr_long(rd, "event", V_NUMBER);
		o->purpose = attr_name(rd, "purpose");
		o->idx = (int)attr_long(rd, "index", V_NUMBER);
		/* the schema's integers of 2 to 1,000 and 1 to 1,000 */
		o->sides = (int)attr_long(rd, "sides", V_ANY);
		o->value = (int)attr_long(rd, "value", V_ANY);
		o->fixed = !strcmp(f, "yes");
		free(f);
	} else if (!strcmp(e, "result")) {
		struct ord_rec_result *o = ORD_REC_ADD(r->results);
		o->log = attr_long(rd, "log", V_COUNT);
		o->turn = (int)attr_long(rd, "turn", V_COUNT);
		o->phase = attr_name(rd, "phase");
		o->event = (int)attr_long(rd, "event", V_NUMBER);
		o->unit = attr_rec(rd, "unit");
		ord_kv_init(&o->texts);
	} else if (!strcmp(e, "state")) {
		struct ord_rec_state *o = ORD_REC_ADD(r->states);
		o->log = attr_long(rd, "log", V_COUNT);
		o->unit = attr_name(rd, "unit");
		o->turn = (int)attr_long(rd, "turn", V_NUMBER);
		o->phase = (int)attr_long(rd, "phase", V_NUMBER);
	} else if (!strcmp(e, "head")) {
		struct ord_rec_head *h = ORD_REC_ADD(r->heads);
		char *at = attr(rd, "at");
		h->turn = (int)attr_long(rd, "turn", V_COUNT);
		snprintf(h->at, sizeof(h->at), "%s", at);
		free(at);
		h->seq = attr_long(rd, "seq", V_COUNT);
		attr_hex(rd, "hash", h->hash, 32);
		h->has_seed_commitment = attr_hex(rd, "seed-commitment", h->seed_commitment, 32);
		attr_hex(rd, "signature", h->signature, 64);
	}
}

/* A result holds one <explanation> per language of its ruleset (two in
 * each of ours); a bundle of more is refused before their look-ups cost
 * the square of their number. */
#define ORD_BUNDLE_LANGS_MAX 64

/* A result's <explanation>: the first is the explanation; when there are
 * several, each is kept with its language (result_end), each language
 * once. */
static void explanation(struct reader *rd, struct ord_rec_result *o)
{
	char *lang = attr(rd, "lang");
	size_t len;
	const char *text = content(rd, &len);

	if (*lang)
		held(rd, "lang", lang, V_NAME);

	if (ord_kv_get(&o->texts, lang))
		rd->err = ord_error_set(ORD_EBADDATA,
					"%s:%u: a second <explanation lang=\"%s\"> in one <result>: one per language is expected",
					rd->name, ord_xml_stream_line(rd->x), lang);
	else if (o->texts.n >= ORD_BUNDLE_LANGS_MAX)
		rd->err = ord_error_set(ORD_EBADDATA,
					"%s:%u: more than %d <explanation> in one <result>: one per language is expected",
					rd->name, ord_xml_stream_line(rd->x), ORD_BUNDLE_LANGS_MAX);
	if (!rd->err) {
		if (!o->explanation)
			o->explanation = ord_record_str(rd->r, text);
		ord_kv_set(&o->texts, lang, text);
	}
	free(lang);
}

/* An end tag: the text of the element stored where its row wants it. */
static void end(struct reader *rd, const char *e, int depth)
{
	struct ord_record *r = rd->r;
	struct ord_rec_event *ev = LAST(r->events);
	struct ord_rec_result *res = LAST(r->results);
	struct ord_rec_state *st = LAST(r->states);
	size_t len;

	if (depth == 2) {
		if (!strcmp(e, "unit") && r->units.n) {
			LAST(r->units)->state = content_rec(rd);
			if (rd->src && rd->r != rd->main)
				run_row(rd);
		} else if (!strcmp(e, "entry") && r->entries.n) {
			struct ord_rec_entry *en = LAST(r->entries);
			if (rd->defer && !strcmp(en->kind, "event"))
				en->body = ord_arena_str(&rd->bodies, content(rd, &len));
			else
				en->body = content_rec(rd);
		} else if (!strcmp(e, "args") && ev)
			ev->args = content_rec(rd);
		else if (!strcmp(e, "override") && ev)
			ev->override = content_rec(rd);
		else if (!strcmp(e, "checks") && ev)
			ev->checks = content_rec(rd);
		else if (!strcmp(e, "void") && ev)
			ev->void_reason = content_rec(rd);
		else if (!strcmp(e, "values") && res)
			res->values = content_rec(rd);
		else if (!strcmp(e, "explanation") && res)
			explanation(rd, res);
		else if (!strcmp(e, "attrs") && st)
			st->attrs = content_rec(rd);
		else if (!strcmp(e, "value") && st)
			st->value = content_rec(rd);
		return;
	}
	if (depth != 1)
		return;
	if (!strcmp(e, "key")) {
		text_hex(rd, r->key, 32);
	} else if (!strcmp(e, "title")) {
		free(r->title);
		r->title = content_dup(rd, &len);
	} else if (!strcmp(e, "scenario") && rd->src && r != rd->main) {
		/* its hash kept, its bytes read again (scenario_of) */
		const char *c = content(rd, &len);
		crypto_generichash(rd->main->scenario_hash, 32, (const unsigned char *)c, len, NULL, 0);
		rd->main->scenario_hashed = 1;
		rd->main->scenario_len = len;
	} else if (!strcmp(e, "scenario")) {
		free(r->scenario);
		r->scenario = content_dup(rd, &r->scenario_len);
	} else if (!strcmp(e, "tables")) {
		free(r->tables);
		r->tables = content_dup(rd, &r->tables_len);
	} else if (!strcmp(e, "seed")) {
		text_hex(rd, r->seed, 32);
		r->have_seed = 1;
	} else if (!strcmp(e, "referee-witness")) {
		text_hex(rd, r->referee_witness, 32);
		r->have_referee_witness = 1;
	} else if (!strcmp(e, "sheet") && r->sheets.n) {
		struct ord_rec_sheet *s = LAST(r->sheets);
		s->bytes = (unsigned char *)content_dup(rd, &s->len);
	} else if (!strcmp(e, "previous") && r->previous.n) {
		struct ord_rec_prev *p = LAST(r->previous);
		p->bytes = (unsigned char *)content_dup(rd, &p->len);
	} else if (!strcmp(e, "event") && ev) {
		if (!ev->args)
			ev->args = ord_record_str(r, "");
		if (!ev->checks)
			ev->checks = ord_record_str(r, "");
	} else if (!strcmp(e, "result") && res) {
		if (!res->explanation)
			res->explanation = ord_record_str(r, "");
		if (res->texts.n < 2) {
			ord_kv_release(&res->texts);
			ord_kv_init(&res->texts);
		}
	} else if (!strcmp(e, "signature")) {
		held(rd, NULL, rd->text.buf, V_HEX64);
		snprintf(rd->sig_hex, sizeof(rd->sig_hex), "%.128s", rd->text.buf);
	}
	if (rd->src && rd->r != rd->main)
		run_row(rd);
}

/* Read the bundle's stream into rd->r: 0, the stream's error (not
 * well-formed, not valid: ORD_EBADDATA), ORD_EBADDATA for a value not of
 * its form (rd->bad), or 0 with rd->err set (a text that is not base64
 * though it says so). */
static int read_events(struct reader *rd)
{
	const char *t;
	size_t n;
	int ev;

	while (!rd->err && !rd->bad && (ev = ord_xml_stream_next(rd->x)) != ORD_XML_DONE) {
		if (ev < 0)
			return ev;
		if (ev == ORD_XML_TEXT) {
			t = ord_xml_stream_text(rd->x, &n);
			ord_buf_add(&rd->text, t, n);
		} else if (ev == ORD_XML_START) {
			start(rd, ord_xml_stream_name(rd->x), ord_xml_stream_depth(rd->x));
		} else {
			end(rd, ord_xml_stream_name(rd->x), ord_xml_stream_depth(rd->x));
		}
	}
	/* a value not of its form: the bundle refused as the schema would */
	return rd->bad;
}

/* The log's "event" entries given their bodies for good, now that the
 * events are read: most are the canonical text of their event, and keep
 * none (ord_record_set_body; 11 MB of a turn of 100,000 units). */
static void settle_bodies(struct reader *rd)
{
	struct ord_record *r = rd->main;
	struct ord_buf scratch = ORD_BUF_INIT;
	struct ord_rec_by_log idx;
	size_t i;

	if (!rd->defer)
		return;
	ord_record_by_log(&idx, r);
	for (i = 0; i < r->entries.n; i++) {
		struct ord_rec_entry *x = &r->entries.v[i];
		if (x->body && !strcmp(x->kind, "event"))
			ord_record_set_body(r, x, x->body, &idx, &scratch);
	}
	ord_record_by_log_release(&idx);
	ord_buf_release(&scratch);
	ord_arena_release(&rd->bodies);
	rd->defer = 0;
}

static int read_record(struct reader *rd)
{
	struct ord_record *r = rd->main;
	size_t i;
	int err;

	rd->defer = 1;
	err = read_events(rd);
	settle_bodies(rd);
	if (err)
		return err;
	/* the schema puts the signature last: it ends every run */
	if (!rd->err && rd->src && rd->src->open)
		rd->err = ord_error_set(ORD_EBADDATA, "%s: the bundle ends inside its rows", rd->name);
	/* the log says whether the turn was exchanged */
	for (i = 0; i < r->entries.n; i++)
		if (!strcmp(r->entries.v[i].kind, "exchange"))
			r->exchanged = 1;
	if (!r->scenario && !r->scenario_hashed)
		r->scenario = ord_strdup("");
	if (!r->tables)
		r->tables = ord_strdup("");
	ord_record_fit(r);
	return 0;
}

/* A bundle holds no CR (a text with one is written in base64): CR LF line
 * endings are a mail program's doing.  Say so, and whether the signature
 * holds over the bundle with its line endings put back. */
static void crlf(struct ord_vout *v, const char *bytes, size_t len, const unsigned char key[32])
{
	size_t so = strlen(ORD_BUNDLE_SIG_OPEN), sc = strlen(ORD_BUNDLE_SIG_CLOSE), i, prefix;
	struct ord_buf lf = ORD_BUF_INIT;
	unsigned char sig[64], msg[32];
	int holds = 0;

	for (i = 0; i < len; i++)
		if (!(bytes[i] == '\r' && i + 1 < len && bytes[i + 1] == '\n'))
			ord_buf_addch(&lf, bytes[i]);
	if (lf.len >= so + 128 + sc && !memcmp(lf.buf + lf.len - sc, ORD_BUNDLE_SIG_CLOSE, sc) &&
	    !memcmp(lf.buf + lf.len - sc - 128 - so, ORD_BUNDLE_SIG_OPEN, so)) {
		char hex[129];

		prefix = lf.len - sc - 128 - so;
		memcpy(hex, lf.buf + prefix + so, 128);
		hex[128] = '\0';
		if (ord_unhex(sig, 64, hex) == 64) {
			ord_sig_bundle_msg(msg, lf.buf, prefix);
			holds = !ord_sig_check(sig, msg, key);
		}
	}
	ord_vout_fail(v, "the bundle's line endings were changed in transit (CR LF where orderly writes LF, as some mail programs do)%s: save the attachment as it came, or put them back (tr -d '\\r' < BUNDLE > fixed.xml) and verify that file",
		      holds ? "; with them put back its signature holds" : "");
	ord_buf_release(&lf);
}

/* What the signature's check needs of the bytes, taken from them before
 * they are read (and, for a file, let go as they are): whether it ends
 * the bundle, its digits there, and the message it signs. */
struct sig_tail {
	int at_end; /* the signature is the last element */
	char hex[129];
	unsigned char msg[32];
};

static void sig_tail_of(struct sig_tail *t, const char *bytes, size_t len)
{
	size_t so = strlen(ORD_BUNDLE_SIG_OPEN), sc = strlen(ORD_BUNDLE_SIG_CLOSE), prefix;

	memset(t, 0, sizeof(*t));
	if (len < so + 128 + sc || memcmp(bytes + len - sc, ORD_BUNDLE_SIG_CLOSE, sc) ||
	    memcmp(bytes + len - sc - 128 - so, ORD_BUNDLE_SIG_OPEN, so))
		return;
	prefix = len - sc - 128 - so;
	t->at_end = 1;
	memcpy(t->hex, bytes + prefix + so, 128);
	ord_sig_bundle_msg(t->msg, bytes, prefix);
}

/* The signature over every byte before it, by the bundle's key: from the
 * bytes, or from what sig_tail_of took of them (bytes NULL; no CR). */
static void check_signature(struct ord_vout *v, const char *bytes, size_t len,
			    const struct sig_tail *taken, const char *sig_hex,
			    const unsigned char key[32], const struct ord_verify_opts *o)
{
	unsigned char sig[64];
	char hex[65], want[65];
	const unsigned char *k = o && o->pubkey ? o->pubkey : key;
	struct sig_tail own;
	const struct sig_tail *t = taken;

	ord_hex(hex, key, 32);
	if (o && o->pubkey && memcmp(o->pubkey, key, 32)) {
		ord_hex(want, o->pubkey, 32);
		ord_vout_fail(v, "the bundle is signed with key %s, not with the game's key %s (given with --pubkey)",
			      hex, want);
	}
	if (bytes && memchr(bytes, '\r', len)) {
		crlf(v, bytes, len, k);
		return;
	}
	if (bytes) {
		sig_tail_of(&own, bytes, len);
		t = &own;
	}
	if (!t->at_end) {
		ord_vout_fail(v, "the signature is not the last element, followed only by the end of the bundle: what follows it would not be signed");
		return;
	}
	if (memcmp(t->hex, sig_hex, 128) || ord_unhex(sig, 64, sig_hex) != 64) {
		ord_vout_fail(v, "the signature element read is not the one at the end of the bundle");
		return;
	}
	if (ord_sig_check(sig, t->msg, k))
		ord_vout_fail(v, "the signature does not hold: the bundle was changed after it was signed, or signed by another key");
	else
		ord_vout_ok(v, "%s",
			    o && o->pubkey
				    ? "signature by the game's key (the key you gave)"
				    : "signature: it holds against the bundle's own key (give --pubkey to check that it is the game's)");
}

/* The root's attributes that the record does not carry (the game, turn
 * and key are the record's own, checked by the verifier): each must say
 * what the turn's opening entry logs, since the header line shows them. */
static void check_header(struct ord_vout *v, const char *rs, const char *ref, const char *dice,
			 const struct ord_verify_facts *f)
{
	const char *want_ref = f->config.refereeless ? "no" : "yes";

	if (!f->have_config)
		return;
	if (!rs || strcmp(rs, f->config.ruleset))
		ord_vout_fail(v, "the bundle's header says ruleset=\"%s\", but the turn's opening entry logs ruleset %s",
			      rs ? rs : "", f->config.ruleset);
	if (!ref || strcmp(ref, want_ref))
		ord_vout_fail(v, "the bundle's header says referee=\"%s\", but the turn's opening entry logs a %s game (referee=\"%s\")",
			      ref ? ref : "", f->config.refereeless ? "referee-less" : "refereed",
			      want_ref);
	/* dice="fixed" only in a fixed-dice game's bundle; a bundle of an
	 * earlier orderly states none, and the verdict says the dice were
	 * fixed from the opening entry all the same */
	if (dice && !f->config.fixed_dice)
		ord_vout_fail(v, "the bundle's header says dice=\"%s\", but the turn's opening entry logs dice drawn from the seed (fixed_dice=0)",
			      dice);
}

/* The phases (bits of mask) whose close no head the player gave matches:
 * with every link in hand, the referee may have recorded their events
 * again in another order and closed them anew (red-team finding 14).  Their
 * heads are named as the player keeps them: prefix (the judge's "GAME-",
 * or "") before each. */
static void unkept_closes(struct ord_buf *out, int turn, uint64_t mask, int n, const char *prefix)
{
	int p, k = 0, all = 0;

	for (p = 0; p < 64; p++)
		all += (mask >> p) & 1;
	ord_buf_addf(out, "%s  no --head of turn %d's close of phase%s ", n ? "" : "not checked:\n",
		     turn, all > 1 ? "s" : "");
	for (p = 1; p <= 64; p++)
		if ((mask >> (p - 1)) & 1)
			ord_buf_addf(out, "%s%d", !k++ ? "" : k < all ? ", " : " and ", p);
	ord_buf_adds(out, " (");
	for (p = 1, k = 0; p <= 64; p++)
		if ((mask >> (p - 1)) & 1)
			ord_buf_addf(out, "%s%sclose-%d-%d.head", k++ ? ", " : "", prefix, turn, p);
	ord_buf_addf(out,
		     "): nothing shows %s events were not recorded again after the links were revealed, to choose the dice\n",
		     all > 1 ? "their" : "its");
}

/* After "verified": what the player did not give, so was not checked, and
 * what no bundle can show alone (one history for every player). */
/* Of the heads given with --receipt, those of r's game and turn (the
 * others check nothing of it: a note says so), and of those the receipts
 * (not sealed heads) in *signed; *other: the index of one of another turn
 * of the game, or -1. */
static size_t receipts_of_turn(const struct ord_verify_opts *o, const struct ord_record *r,
			       size_t *signed_, long *other)
{
	size_t i, n = 0;

	*signed_ = 0;
	*other = -1;
	for (i = 0; i < o->nreceipt_heads; i++) {
		const struct ord_head *h = &o->receipt_heads[i];

		if (memcmp(h->game_id, r->game_id, 16))
			continue;
		if (h->turn != r->turn) {
			*other = (long)i;
			continue;
		}
		n++;
		*signed_ += !strcmp(h->at, "receipt");
	}
	return n;
}

static void not_checked(struct ord_buf *out, const struct ord_record *r,
			const struct ord_verify_opts *o, const struct ord_verify_facts *f)
{
	size_t i, nsigned = 0, nturn = 0;
	long other = -1;
	int n = 0;
	const char *prefix = o && o->head_prefix ? o->head_prefix : "";

	if (!o || !o->pubkey)
		ord_buf_addf(out, "%s  no --pubkey: the signature ties the bundle to no key you know\n",
			     n++ ? "" : "not checked:\n");
	if (!o || !o->nheads)
		ord_buf_addf(out,
			     "%s  no --head: nothing ties this history to what the referee signed before\n",
			     n++ ? "" : "not checked:\n");
	else if (!f->heads_matched)
		ord_buf_addf(out,
			     "%s  no --head of this turn or its opening: nothing ties this history to what the referee signed before\n",
			     n++ ? "" : "not checked:\n");
	else if (!f->opening_matched)
		ord_buf_addf(out,
			     "%s  no --head of turn %d's opening (%sopen-%d.head%s): nothing shows the turn was not opened again from other unit states\n",
			     n++ ? "" : "not checked:\n", r->turn, prefix, r->turn,
			     r->turn > 1 ? ", the previous exchange's" : "");
	if (f->closes_unkept)
		unkept_closes(out, r->turn, f->closes_unkept, n++, prefix);
	/* a receipt of another turn checks nothing of this one: the
	 * player's last receipt, once the next turn is open, is of the next
	 * turn, and "verified" without this line let a sheet put in his
	 * place this turn pass unnamed (threat model 45) */
	if (o)
		nturn = receipts_of_turn(o, r, &nsigned, &other);
	if (!o || (!o->nreceipts && !nturn && other < 0))
		ord_buf_addf(out, "%s  no --receipt: your sheet was not checked\n",
			     n++ ? "" : "not checked:\n");
	else if (!o->nreceipts && !nturn)
		ord_buf_addf(out,
			     "%s  no --receipt of turn %d: your sheet was not checked (%s%s%s is a receipt of turn %d, which checks nothing of this turn: give this turn's, the receipt of the last sheet you handed in for turn %d)\n",
			     n++ ? "" : "not checked:\n", r->turn,
			     o->receipt_names && o->receipt_names[other] ? "'" : "",
			     o->receipt_names && o->receipt_names[other] ? o->receipt_names[other]
									 : "the one you gave",
			     o->receipt_names && o->receipt_names[other] ? "'" : "",
			     o->receipt_heads[other].turn, r->turn);
	else if (!nturn)
		ord_buf_addf(out,
			     "%s  that the game gave your receipt: a bare commitment is your word (give the receipt head it signed: --receipt FILE)\n",
			     n++ ? "" : "not checked:\n");
	else if (!o->nreceipts && !nsigned)
		ord_buf_addf(out,
			     "%s  that the sheet sealed is the one you handed in: a sealed head states the sheet the seal took (give your receipt too: --receipt FILE)\n",
			     n++ ? "" : "not checked:\n");
	if (!o || !o->tables || !o->scenario)
		ord_buf_addf(out,
			     "%s  no %s: the game's own %s not held against the files you were given (the results follow from the game's own)\n",
			     n++ ? "" : "not checked:\n",
			     o && o->tables     ? "--scenario"
			     : o && o->scenario ? "--tables"
						: "--scenario or --tables",
			     o && o->tables     ? "scenario was"
			     : o && o->scenario ? "tables were"
						: "scenario and tables were");
	if (f->have_config && f->config.fixed_dice)
		ord_buf_addf(out,
			     "%s  the dice: a fixed-dice game (made with 'new --fixed-dice'): the referee chose every die and none was drawn from the sealed seed, so nothing shows a roll was not chosen to suit him\n",
			     n++ ? "" : "not checked:\n");
	if (f->have_config && !f->config.witnessed && !f->config.fixed_dice && !f->config.dice_by_events)
		/* the lever witnessed dice take (docs/threat-model.md): a roll
		 * is keyed by its event's number, and the referee numbers them;
		 * not in a game whose rolls are keyed by what the event names */
		ord_buf_addf(out,
			     "%s  the order of the referee's events: in a game without witnessed dice nothing shows he did not record a phase's events again in another order, from a copy of the game kept after the seal, and keep the dice he liked (a game made with 'new --witnessed' takes this from him)\n",
			     n++ ? "" : "not checked:\n");
	for (i = 0; i < r->heads.n; i++) {
		const struct ord_rec_head *h = &r->heads.v[i];
		char hex[65];

		if (h->turn != r->turn || strcmp(h->at, "exchange"))
			continue;
		ord_hex(hex, h->hash, 32);
		/* whole: a referee who handed out two histories chooses both,
		 * and two that share 16 digits (64 bits) take him about 2^32
		 * hashes, a birthday search over a free field of each (attack
		 * 42); all 64 take 2^128 */
		ord_buf_addf(out,
			     "compare the head of turn %d's exchange with the other players' (entry %lld, hash %s), every digit (or the head files, with diff): another hash means another history was shown to you\n",
			     r->turn, (long long)h->seq, hex);
		break;
	}
}

/* Whether a </bundle> comes before end (a text's own is escaped). */
static int closed_before(const char *bytes, size_t end, const char *close)
{
	size_t n = strlen(close), i;

	for (i = 0; i + n <= end; i++)
		if (bytes[i] == '<' && !memcmp(bytes + i, close, n))
			return 1;
	return 0;
}

/* The parser's refusal (the last error) said as what it means for a
 * bundle: cut short, more after its end, or changed or damaged, when it
 * begins as one. */
static int unreadable(const char *bytes, size_t len, const char *name)
{
	static const char close[] = "</bundle>";
	char *why = ord_strdup(ord_error_last());
	unsigned marks = ord_error_marks();
	size_t end = len, i;
	int err, ends_closed;

	/* what orderly refuses in any XML (a DTD, entities, XInclude, not
	 * UTF-8, too large to be read: xmlsafe marks it so) is said as it is */
	if (len > ORD_BUNDLE_MAX_BYTES) {
		err = ord_error_set(ORD_EBADDATA, "%s", why);
		ord_error_mark(marks);
		goto out;
	}
	while (end && (bytes[end - 1] == '\n' || bytes[end - 1] == '\r' || bytes[end - 1] == ' '))
		end--;
	for (i = 0; i + 8 <= len && i < 256 && memcmp(bytes + i, "<bundle ", 8); i++)
		;
	ends_closed = end >= sizeof(close) - 1 &&
		      !memcmp(bytes + end - (sizeof(close) - 1), close, sizeof(close) - 1);
	if ((marks & ORD_ERRMARK_ANY_XML) || i + 8 > len || i >= 256) {
		err = ord_error_set(ORD_EBADDATA, "%s", why);
		ord_error_mark(marks);
	} else if (!ends_closed && closed_before(bytes, end, close))
		err = ord_error_set(ORD_EBADDATA,
				    "%s has more after its </bundle>: one bundle is expected, ending there (the parser: %s)",
				    name, why);
	else if (!ends_closed)
		err = ord_error_set(ORD_EBADDATA,
				    "%s is cut short: it does not end with </bundle> (the parser: %s)",
				    name, why);
	else
		err = ord_error_set(ORD_EBADDATA,
				    "%s does not have the form of a bundle: it was changed or damaged (%s)",
				    name, why);
out:
	free(why);
	return err;
}

/* A reader of bytes (NULL: not yet) into the record r, named name. */
static void reader_init(struct reader *rd, const char *name, struct ord_record *r, const char *bytes)
{
	memset(rd, 0, sizeof(*rd));
	ord_record_init(&rd->scratch);
	ord_buf_init(&rd->text);
	ord_buf_init(&rd->bin);
	rd->name = name;
	rd->r = rd->main = r;
	rd->bytes = bytes;
}

static void reader_release(struct reader *rd)
{
	ord_xml_stream_free(rd->x);
	rd->x = NULL;
	ord_record_release(&rd->scratch);
	ord_buf_release(&rd->text);
	ord_buf_release(&rd->bin);
	free(rd->ruleset);
	free(rd->referee);
	free(rd->dice);
	rd->ruleset = rd->referee = rd->dice = NULL;
}

/* The len bytes at off of the file at fd, again, into buf: *got of them
 * before its end.  Not ord_fd_pieces, whose fold would change what this
 * does: its callers read a run or a piece at any offset (the replay's
 * runs, a piece of the scan's size, which a test sets small) straight into
 * their own buffer, where the piece reader reads from the start through
 * a 64 KiB buffer of its own; a file that ends early is no error here but
 * a length each caller names in its own words ("it ends at byte N", a
 * byte past the end that must not be there, read as none), where the
 * piece reader fails it; and a read that fails is ORD_ENOFILE "cannot read
 * it again", not ORD_ERROR. */
static int pread_all(int fd, char *buf, size_t len, size_t off, const char *name, size_t *got)
{
	if (ord_fd_pread(fd, buf, len, off, got) < 0)
		return ord_error_set(ORD_ENOFILE, "%s: cannot read it again: %s", name,
				     strerror(errno));
	return 0;
}

/* Run o's bytes read again from the file onto doc, if they are the bytes
 * first read. */
static int read_run(const struct rows_src *src, const struct run *o, struct ord_buf *doc)
{
	size_t len = o->end - o->start, got;
	unsigned char hash[32];
	char *at;
	int err;

	ord_buf_grow(doc, len + 1);
	at = doc->buf + doc->len;
	if (src->pieces) {
		/* by the pieces of the file read first, held to their hashes */
		if ((err = pieces_read(src->pieces, at, o->start, len)) != 0)
			return err;
		doc->len += len;
		doc->buf[doc->len] = '\0';
		return 0;
	}
	if ((err = pread_all(src->fd, at, len, o->start, src->name, &got)) != 0)
		return err;
	crypto_generichash(hash, 32, (const unsigned char *)at, got, NULL, 0);
	if (got != len || sodium_memcmp(hash, o->hash, 32))
		return ord_error_set(ORD_EBADDATA,
				     "%s changed while it was verified: its bytes %zu to %zu, read again for the replay, are not the ones read and signed first",
				     src->name, o->start, o->end);
	doc->len += len;
	doc->buf[doc->len] = '\0';
	return 0;
}

/* Run o read again from the file, between pre and post (what makes its
 * elements stand at the depth they stood), into the record into. */
static int run_read(const struct rows_src *src, const struct run *o, const char *pre,
		    const char *post, struct ord_record *into)
{
	struct ord_buf doc = ORD_BUF_INIT;
	struct reader rd;
	int err;

	reader_init(&rd, src->name, into, NULL);
	ord_buf_adds(&doc, pre);
	if ((err = read_run(src, o, &doc)) == 0) {
		ord_buf_adds(&doc, post);
		rd.bytes = doc.buf;
		if ((err = ord_xml_stream_open_part(&rd.x, doc.buf, doc.len, src->len, src->name,
						    containers)) == 0 &&
		    (err = read_events(&rd)) == 0)
			err = rd.err;
		/* its bytes read as they were the first time */
		if (err)
			err = ord_error_set(err,
					    "%s: its bytes %zu to %zu, read again for the replay, do not read as they did the first time (%s)",
					    src->name, o->start, o->end, ord_error_last());
	}
	reader_release(&rd);
	ord_buf_release(&doc);
	return err;
}

/* The rows of log entry seq, read again from the bundle's file, to sink
 * (the record's rows_each): each of its runs, checked against the hash
 * of its bytes read first, read as the first read did, table by table. */
static int rows_of(void *ud, int64_t seq, const struct ord_rows_sink *sink)
{
	const struct rows_src *src = ud;
	const int want[3] = { sink->roll != NULL, sink->result != NULL, sink->state != NULL };
	struct ord_record tmp;
	size_t i;
	int t, err = 0;

	for (t = 0; t < 3 && !err; t++)
		for (i = 0; want[t] && i < src->runs.n && !err; i++) {
			const struct run *o = &src->runs.v[i];
			if (o->log != seq || o->table != t)
				continue;
			ord_record_init(&tmp);
			err = run_read(src, o, "<bundle>\n", "</bundle>\n", &tmp);
			if (!err)
				err = ord_record_rows_held(&tmp, seq, sink);
			ord_record_release(&tmp);
		}
	return err;
}

/* The scenario's bytes, read again from the bundle's file (the record's
 * scenario_load): malloc'd, for the caller to free. */
static int scenario_of(void *ud, char **bytes, size_t *len)
{
	const struct rows_src *src = ud;
	struct ord_record tmp;
	int err;

	ord_record_init(&tmp);
	err = run_read(src, &src->scenario, "<bundle>\n", "</bundle>\n", &tmp);
	*bytes = tmp.scenario ? tmp.scenario : ord_strdup("");
	*len = tmp.scenario ? tmp.scenario_len : 0;
	tmp.scenario = NULL;
	ord_record_release(&tmp);
	if (err) {
		free(*bytes);
		*bytes = NULL;
	}
	return err;
}

/* The units' opening states, read again from the bundle's file, each to
 * fn (the record's units_load): a run of them at a time.  The last run
 * ends where the next element begins, past </units>. */
static int units_of(void *ud, int turn, int (*fn)(void *fud, const char *id, const char *state),
		    void *fud)
{
	const struct rows_src *src = ud;
	struct ord_record tmp;
	size_t i, k;
	int err = 0;

	(void)turn;
	for (i = 0; i < src->units.n && !err; i++) {
		ord_record_init(&tmp);
		err = run_read(src, &src->units.v[i], "<bundle>\n<units>",
			       i + 1 < src->units.n ? "</units>\n</bundle>\n" : "</bundle>\n", &tmp);
		for (k = 0; k < tmp.units.n && !err; k++)
			err = fn(fud, tmp.units.v[k].id,
				 tmp.units.v[k].state ? tmp.units.v[k].state : "");
		ord_record_release(&tmp);
	}
	return err;
}

/* The n bytes at off of a bundle's file read again by its pieces, each
 * the bytes first read (struct fill_src), into buf. */
static int pieces_read(void *ud, char *buf, size_t off, size_t n)
{
	struct fill_src *fs = ud;
	unsigned char hash[32];
	size_t i, at, pn, got, k;
	int err;

	while (n) {
		i = off / fs->piece;
		at = i * fs->piece;
		pn = fs->len - at < fs->piece ? fs->len - at : fs->piece;
		if (fs->at != i) {
			fs->at = SIZE_MAX;
			if ((err = pread_all(fs->fd, fs->buf, pn, at, fs->name, &got)) != 0)
				return err;
			crypto_generichash(hash, 32, (const unsigned char *)fs->buf, got, NULL, 0);
			if (got != pn || sodium_memcmp(hash, fs->hash[i], 32))
				return ord_error_set(ORD_EBADDATA,
						     "%s changed while it was verified: its bytes %zu to %zu, read again, are not the ones read and scanned first",
						     fs->name, at, at + pn);
			fs->at = i;
		}
		k = at + pn - off < n ? at + pn - off : n;
		memcpy(buf, fs->buf + (off - at), k);
		buf += k;
		off += k;
		n -= k;
		if (off > fs->served)
			fs->served = off;
	}
	return 0;
}

/* The bundle's len bytes at bytes read into rd's record. */
static int read_bundle(struct reader *rd, const char *bytes, size_t len)
{
	size_t off;
	char c;
	int err;

	rd->check = 1;
	rd->len = len;
	/* read as a stream: the record and the bytes, no tree of them */
	if (rd->fill)
		err = ord_xml_stream_open_read(&rd->x, len, ORD_BUNDLE_MAX_BYTES, rd->name,
					       "schema/bundle.rng", containers, pieces_read, rd->fill);
	else
		err = ord_xml_stream_open(&rd->x, bytes, len, ORD_BUNDLE_MAX_BYTES, rd->name,
					  "schema/bundle.rng", containers);
	if (!err)
		err = read_record(rd);
	/* every piece the signature signs read again as the scan passed it
	 * (libxml2 has read them all, to the end) */
	if (!err && rd->fill)
		for (off = rd->fill->served; !err && off < len;
		     off = (off / rd->fill->piece + 1) * rd->fill->piece)
			err = pieces_read(rd->fill, &c, off, 1);
	/* the stream holds the schemas' lock: the verifier reads the
	 * scenario and tables with their schemas */
	ord_xml_stream_free(rd->x);
	rd->x = NULL;
	ord_record_release(&rd->scratch);
	ord_record_init(&rd->scratch);
	return err;
}

/* The value of key (made=, made_core=) in r's turn's opening (malloc'd),
 * NULL when it logs none. */
static char *record_made(const struct ord_record *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->entries.n; i++) {
		const struct ord_rec_entry *e = &r->entries.v[i];
		if (e->body && e->kind && !strcmp(e->kind, "open") && e->turn == r->turn)
			return ord_canon_get(e->body, key);
	}
	return NULL;
}

/* The sides of scenario sc, their names and titles (each array to be
 * freed), as the game file holds them. */
static void scenario_sides(const struct ord_scenario *sc, const char ***names, const char ***titles)
{
	size_t i;

	*names = ord_xcalloc(sc->nsides + 1, sizeof(**names));
	*titles = ord_xcalloc(sc->nsides + 1, sizeof(**titles));
	for (i = 0; i < sc->nsides; i++) {
		(*names)[i] = sc->sides[i].id;
		(*titles)[i] = sc->sides[i].name && *sc->sides[i].name ? sc->sides[i].name
								       : sc->sides[i].id;
	}
}

/* "referee" is the referee (NULL), unless a side has that name. */
static const char *viewer_of(const char *side, const char *const *sides, size_t nsides)
{
	size_t i;

	if (!side || strcmp(side, "referee"))
		return side;
	for (i = 0; i < nsides; i++)
		if (!strcmp(sides[i], side))
			return side;
	return NULL;
}

/* The report ro asks for, rebuilt from the verified record r with the
 * ruleset, tables and scenario the verifier read (c): the builder the game
 * file's report uses (report.h), from the units as the turn ended, or as
 * it stood once phase ro->phase was resolved. */
static int report_of(const struct ord_record *r, struct ord_verify_cache *c, int phases,
		     const struct ord_report_opts *ro, struct ord_buf *report)
{
	const struct ord_ruleset *rs;
	const struct ord_notation *nt;
	const struct ord_scenario *sc;
	struct ord_report_src src;
	struct ord_report_opts o;
	struct ord_record upto;
	struct ord_rules *rules;
	struct ord_ctx ctx;
	const char **sides = NULL, **titles = NULL;
	char *made = NULL, *made_core = NULL;
	size_t i, nphases;
	int err, k = -1;

	if ((err = ord_verify_cache_game(c, &rs, &rules, &sc)) != 0 ||
	    (err = ord_notation_find(&nt, rs->notation)) != 0)
		return err;
	memset(&src, 0, sizeof(src));
	scenario_sides(sc, &sides, &titles);
	o = *ro;
	o.side = viewer_of(o.side, sides, sc->nsides);
	for (nphases = 0; rs->phases[nphases]; nphases++)
		;
	if (o.phase) {
		/* the referee's report during the turn listed the events
		 * recorded for the next phase as they came in, and what no
		 * event carried out yet: no moment of the record fixes it */
		if (!o.side) {
			err = ord_error_set(ORD_EUSAGE,
					    "--phase: a side's report as it read during the turn, not the referee's (his listed the events recorded for the next phase as they came in)");
			goto out;
		}
		if ((err = ord_map_phase(rs, o.phase, r->turn, phases, nphases, &k)) != 0)
			goto out;
	}
	src.rs = rs;
	src.nt = nt;
	src.title = r->title ? r->title : sc->title;
	src.sides = sides;
	src.nsides = sc->nsides;
	src.turn = r->turn;
	/* a bundle is of an exchanged turn; its report before the exchange
	 * differs only by the state and the sheets it shows, and during the
	 * turn by the units' states, events and results of the phases not
	 * resolved yet, which it leaves out */
	src.state = k >= 0         ? ((size_t)k >= nphases ? ORD_TURN_RESOLVED : ORD_TURN_SEALED)
		    : ro->resolved ? ORD_TURN_RESOLVED
				   : ORD_TURN_EXCHANGED;
	src.phase = k >= 0 ? k : phases;
	src.r = r;
	if (k >= 0) {
		/* the results of the phases resolved by then: a view of r,
		 * its rows r's (never released) */
		upto = *r;
		upto.results.v = ord_xcalloc(r->results.n + 1, sizeof(*upto.results.v));
		upto.results.n = 0;
		for (i = 0; i < r->results.n; i++)
			if (ord_fog_phase_index(rs, r->results.v[i].phase) <= k)
				upto.results.v[upto.results.n++] = r->results.v[i];
		src.r = &upto;
	}
	src.ctx = &ctx;
	ord_ctx_init(&ctx, rs, rules, r->turn);
	made = record_made(r, "made");
	made_core = record_made(r, "made_core");
	ord_ctx_set_made(&ctx, made, made_core);
	ord_report_ctx_of_record(&ctx, r, sc, k);
	err = ord_report_build(&src, &o, o.xml ? NULL : report, o.xml ? report : NULL);
	ord_ctx_release(&ctx);
	if (k >= 0)
		free(upto.results.v);
out:
	free(sides);
	free(titles);
	free(made);
	free(made_core);
	return err;
}

/* A bundle's map: its hooks read the verified record. */
struct record_map {
	const struct ord_record *r;
	const struct ord_scenario *sc;
	const struct ord_notation *nt;
	const char *const *sides;
	struct ord_ctx *index; /* the scenario's units, indexed: a unit's index by its id */
	char **attrs;          /* each unit's attributes, as the game file keeps them */
	const char **state;    /* scratch: each unit's state at a phase */
};

static int record_units_at(void *ud, int phase, ord_store_unit_fn fn, void *fud)
{
	struct record_map *m = ud;
	const struct ord_record *r = m->r;
	int *latest = ord_xcalloc(m->sc->nunits + 1, sizeof(*latest));
	size_t i;
	int err = 0;

	/* as ord_store_units_at: each unit's last state of a phase up to
	 * phase of the turn, else the state the turn opened with */
	for (i = 0; i < m->sc->nunits; i++) {
		m->state[i] = i < r->units.n ? r->units.v[i].state : "";
		latest[i] = -1;
	}
	for (i = 0; i < r->states.n; i++) {
		const struct ord_rec_state *s = &r->states.v[i];
		const struct ord_unit *u;
		size_t k;

		if (s->turn != r->turn || s->phase > phase ||
		    !(u = ord_ctx_find_unit(m->index, s->unit)) || strcmp(u->id, s->unit))
			continue;
		k = ord_ctx_unit_index(m->index, u);
		if (s->phase >= latest[k]) {
			latest[k] = s->phase;
			m->state[k] = s->value;
		}
	}
	for (i = 0; i < m->sc->nunits && !err; i++) {
		const struct ord_scenario_unit *su = &m->sc->units[i];
		struct ord_store_unit u = { 0, su->id, su->name, su->side, m->attrs[i], m->state[i] };
		err = fn(fud, &u);
	}
	free(latest);
	return err;
}

static int record_events(void *ud, ord_store_event_fn fn, void *fud)
{
	struct record_map *m = ud;
	size_t i;
	int err = 0;

	for (i = 0; i < m->r->events.n && !err; i++) {
		const struct ord_rec_event *e = &m->r->events.v[i];
		struct ord_store_event se = { e->seq,    e->phase, e->kind, e->args, e->override,
					      e->checks, e->log,   0,       NULL };
		if (!e->void_log)
			err = fn(fud, &se);
	}
	return err;
}

/* As ord_game_attach_sheets: each side's latest version, in side order. */
static int record_sheets(void *ud, struct ord_ctx *ctx, const char *only)
{
	struct record_map *m = ud;
	const struct ord_record *r = m->r;
	size_t i, j;

	for (i = 0; i < m->sc->nsides; i++) {
		const struct ord_rec_sheet *latest = NULL;
		struct ord_sheet sheet;
		struct ord_diag diag;

		if (only && strcmp(only, m->sides[i]))
			continue;
		for (j = 0; j < r->sheets.n; j++)
			if (!strcmp(r->sheets.v[j].side, m->sides[i]) &&
			    (!latest || r->sheets.v[j].version > latest->version))
				latest = &r->sheets.v[j];
		if (!latest)
			continue;
		ord_sheet_init(&sheet);
		ord_diag_init(&diag);
		/* a sealed sheet was valid when it was accepted */
		m->nt->parse(&sheet, (const char *)latest->bytes, latest->len, &diag);
		ord_error_clear();
		ord_ctx_attach_sheet(ctx, &sheet, m->sides[i]);
		ord_diag_release(&diag);
	}
	return 0;
}

/* The map mo asks for, drawn from the verified record r with the ruleset,
 * tables and scenario the verifier read (c): the drawer the game file's
 * map uses (picture.h). */
static int map_of(const struct ord_record *r, struct ord_verify_cache *c, int phases,
		  const struct ord_map_opts *mo, struct ord_buf *svg)
{
	const struct ord_ruleset *rs;
	const struct ord_notation *nt;
	const struct ord_scenario *sc;
	struct ord_rules *rules;
	struct ord_map_src src;
	struct record_map m;
	struct ord_ctx index;
	struct ord_buf a = ORD_BUF_INIT;
	const char **sides = NULL, **titles = NULL, *side, *lang = mo->lang;
	char *made = NULL, *made_core = NULL;
	size_t i, nphases;
	int err, k;

	if ((err = ord_verify_cache_game(c, &rs, &rules, &sc)) != 0 ||
	    (err = ord_notation_find(&nt, rs->notation)) != 0)
		return err;
	for (nphases = 0; rs->phases[nphases]; nphases++)
		;
	scenario_sides(sc, &sides, &titles);
	side = viewer_of(mo->side, sides, sc->nsides);
	memset(&m, 0, sizeof(m));
	ord_ctx_init(&index, rs, rules, r->turn);
	if ((err = ord_map_check(rs, sides, sc->nsides, side, &lang)) != 0)
		goto out;
	if (mo->turn > 0 && mo->turn != r->turn) {
		err = ord_error_set(ORD_ENOTFOUND, "--turn %d: the bundle is of turn %d", mo->turn,
				    r->turn);
		goto out;
	}
	if ((err = ord_map_phase(rs, mo->phase, r->turn, phases, nphases, &k)) != 0)
		goto out;
	m.r = r;
	m.sc = sc;
	m.nt = nt;
	m.sides = sides;
	m.index = &index;
	m.attrs = ord_xcalloc(sc->nunits + 1, sizeof(*m.attrs));
	m.state = ord_xcalloc(sc->nunits + 1, sizeof(*m.state));
	for (i = 0; i < sc->nunits; i++) {
		const struct ord_scenario_unit *su = &sc->units[i];
		ord_buf_reset(&a);
		ord_kv_serialize(&su->attrs, &a);
		m.attrs[i] = ord_strdup(a.buf ? a.buf : "");
		ord_ctx_add_unit(&index, su->id, su->name, su->side, "", "");
	}
	ord_ctx_index(&index);
	memset(&src, 0, sizeof(src));
	src.rs = rs;
	src.rules = rules;
	src.made = made = record_made(r, "made");
	src.made_core = made_core = record_made(r, "made_core");
	src.title = r->title ? r->title : sc->title;
	src.sides = sides;
	src.side_titles = titles;
	src.nsides = sc->nsides;
	src.turn = r->turn;
	/* a bundle is of an exchanged turn; drawn before the exchange, the
	 * turn was sealed, or resolved once its last phase was */
	src.state = !mo->resolved          ? ORD_TURN_EXCHANGED
		    : (size_t)k >= nphases ? ORD_TURN_RESOLVED
					   : ORD_TURN_SEALED;
	src.phase = k;
	src.r = r;
	src.units_at = record_units_at;
	src.events = record_events;
	src.sheets = record_sheets;
	src.ud = &m;
	err = ord_map_draw(&src, side, lang, svg);
out:
	for (i = 0; m.attrs && i < sc->nunits; i++)
		free(m.attrs[i]);
	free(m.attrs);
	free(m.state);
	ord_ctx_release(&index);
	ord_buf_release(&a);
	free(sides);
	free(titles);
	free(made);
	free(made_core);
	return err;
}

int ord_bundle_verify(const char *bytes, size_t len, const char *name,
		      const struct ord_verify_opts *opts, struct ord_buf *out)
{
	return ord_bundle_verify_report(bytes, len, name, opts, NULL, out, NULL);
}

/* The bundle's len bytes at bytes read again into r, from the start, by a
 * reader rd made anew that lets none of them go and keeps every row (the
 * refusal of a read that let them go, said as of the bytes whole). */
static int read_again(struct reader *rd, struct ord_record *r, const char *name, const char *bytes,
		      size_t len)
{
	ord_record_release(r);
	ord_record_init(r);
	reader_release(rd);
	reader_init(rd, name, r, bytes);
	return read_bundle(rd, bytes, len);
}

int ord_bundle_read_record(const char *bytes, size_t len, const char *name, struct ord_record *r)
{
	struct reader rd;
	int err;

	reader_init(&rd, name, r, bytes);
	if ((err = read_bundle(&rd, bytes, len)) == 0 && rd.err)
		err = rd.err;
	reader_release(&rd);
	return err;
}

/* The verify of bytes; owned, when not NULL, is bytes, malloc'd, freed as
 * soon as they have been read and their signature checked; fd, when not
 * -1, the file they were read from, whose rows are read again a phase at
 * a time (not for a report, which is built from every row); fs, when not
 * NULL (bytes NULL), fd's pieces read as they are parsed, after a scan
 * that found what taken says of the signature. */
static int verify_report(const char *bytes, size_t len, char *owned, int fd, struct fill_src *fs,
			 const struct sig_tail *taken, const char *name,
			 const struct ord_verify_opts *opts, const struct ord_report_opts *ro,
			 struct ord_buf *out, struct ord_buf *report, const struct ord_map_opts *mo,
			 struct ord_buf *svg)
{
	struct ord_verify_cache *cache = NULL;
	struct ord_record r;
	struct reader rd;
	struct rows_src src;
	struct ord_vout v = { out, "  ", "FAILED", 0, NULL };
	struct ord_vout_failed kept = { NULL, 0, 0 };
	struct ord_buf verdict = ORD_BUF_INIT;
	struct ord_verify_facts facts;
	struct sig_tail tail;
	char gid[33], key[65];
	size_t got;
	int err;

	memset(&facts, 0, sizeof(facts));
	memset(&src, 0, sizeof(src));
	if (opts && opts->failed)
		v.kept = &kept;
	ord_record_init(&r);
	reader_init(&rd, name, &r, bytes);
	if (fd >= 0 && !ro && !mo) {
		src.fd = fd;
		src.name = name;
		src.chunk = ord_record_chunk();
		src.len = len;
		rd.src = &src;
	}
	if ((err = ord_crypto_init()) != 0)
		goto out;
	/* bytes of a file, held only for this read: what the signature's
	 * check needs is taken first, and the rest let go as it is read */
	if (rd.src && fs) {
		tail = *taken;
		rd.drop = 1;
		rd.fill = fs;
		src.pieces = fs;
	} else if (rd.src && owned && !memchr(bytes, '\r', len)) {
		sig_tail_of(&tail, bytes, len);
		rd.drop = 1;
	}
	err = read_bundle(&rd, bytes, len);
	if (err == ORD_EBADDATA && rd.fill) {
		/* the refusal as the bytes say it whole: all of them read
		 * again (each still the bytes first read), and read again
		 * from them, letting none go */
		owned = ord_xmalloc(len + 1);
		owned[len] = '\0';
		bytes = owned;
		if ((err = pieces_read(fs, owned, 0, len)) != 0)
			goto out;
		src.pieces = NULL;
		err = read_again(&rd, &r, name, bytes, len);
	} else if (err == ORD_EBADDATA && rd.drop && rd.dropped) {
		/* the refusal as the bytes say it whole (the parser's message
		 * of a bundle cut short inside an element names the element
		 * and line from a scan from the start; unreadable reads them
		 * all): the bytes let go are read back from the file, and the
		 * bundle read again from them, letting none go */
		size_t upto = rd.dropped;

		if ((err = pread_all(fd, owned, upto, 0, name, &got)) != 0)
			goto out;
		err = read_again(&rd, &r, name, bytes, len);
	}
	/* (a test changes the file here, before the replay reads it again) */
	if (!err && rd.fill && fs->between)
		fs->between(fs->ud, 2);
	if (rd.src) {
		r.rows_each = rows_of;
		r.rows_ud = &src;
		if (src.units.n)
			r.units_load = units_of;
		if (r.scenario_hashed)
			r.scenario_load = scenario_of;
	}
	if (err) {
		if (err == ORD_EBADDATA)
			err = unreadable(bytes, len, name);
		goto out;
	}
	if ((err = rd.err) != 0)
		goto out;
	ord_buf_release(&rd.text);
	ord_buf_release(&rd.bin);
	ord_hex(gid, r.game_id, 16);
	ord_hex(key, r.key, 32);
	ord_buf_addf(out, "bundle '%s': game %s, turn %d, ruleset %s, %s%s\n  signed by %s\n", name,
		     gid, r.turn, rd.ruleset ? rd.ruleset : "?",
		     rd.referee && !strcmp(rd.referee, "no") ? "no referee" : "refereed",
		     rd.dice ? ", fixed dice (the referee chose every die; none was drawn)" : "", key);
	if (rd.drop)
		check_signature(&v, NULL, 0, &tail, rd.sig_hex, r.key, opts);
	else
		check_signature(&v, bytes, len, NULL, rd.sig_hex, r.key, opts);
	/* the record holds what the rest needs: a bundle of 100,000 units
	 * is 156 MB that the replay would hold beside it */
	free(owned);
	owned = NULL;
	bytes = NULL;
	/* a report is built from the tables and scenario the verifier read */
	if (ro || mo)
		cache = ord_verify_cache_new();
	if ((err = ord_verify_record_cached(&r, opts, &v, &facts, cache)) != 0)
		goto out;
	check_header(&v, rd.ruleset, rd.referee, rd.dice, &facts);
	if (!r.exchanged)
		ord_vout_fail(&v, "the log does not hold the exchange of turn %d: a bundle is of an exchanged turn",
			      r.turn);
	if (v.failures) {
		if (facts.consequences && facts.missing_at)
			ord_buf_addf(&verdict,
				     "%d check%s FAILED: what log entry %lld records is missing, and %d of the failures may only follow from it",
				     v.failures, v.failures == 1 ? "" : "s",
				     (long long)facts.missing_at, facts.consequences);
		else if (facts.consequences)
			ord_buf_addf(&verdict,
				     "%d check%s FAILED: log entry %lld was changed, and %d of the failures may only follow from it",
				     v.failures, v.failures == 1 ? "" : "s",
				     (long long)facts.broken_at, facts.consequences);
		else
			ord_buf_addf(&verdict, "%d check%s FAILED", v.failures,
				     v.failures == 1 ? "" : "s");
		ord_buf_addf(out, "%s\n", verdict.buf);
		if (v.kept)
			opts->failed(opts->failed_ud, verdict.buf, (const char *const *)kept.v, kept.n);
	} else {
		ord_buf_adds(out, "verified: every check holds");
		/* not "every check holds" alone: no check reaches dice that
		 * were given, not drawn (red-team finding 4) */
		if (facts.have_config && facts.config.fixed_dice)
			ord_buf_adds(out,
				     ", but the dice were fixed, not drawn: the referee chose every die (a game made with 'new --fixed-dice')");
		if (facts.overrides)
			ord_buf_addf(out,
				     "; %s %zu event%s %s recorded against the orders, by the referee's override (the notes above)",
				     facts.have_config && facts.config.fixed_dice ? "and" : "but",
				     facts.overrides, facts.overrides == 1 ? "" : "s",
				     facts.overrides == 1 ? "was" : "were");
		ord_buf_addch(out, '\n');
		not_checked(out, &r, opts, &facts);
		/* only a record that verified is the turn as it was played */
		if (ro)
			err = report_of(&r, cache, facts.phases, ro, report);
		else if (mo)
			err = map_of(&r, cache, facts.phases, mo, svg);
	}
out:
	ord_vout_failed_release(&kept);
	ord_buf_release(&verdict);
	ord_verify_cache_free(cache);
	ord_verify_facts_release(&facts);
	ord_record_release(&r);
	reader_release(&rd);
	free(src.runs.v);
	free(src.units.v);
	free(owned);
	if (err)
		return err;
	return v.failures ? ord_error_set(ORD_ETAMPERED, "%d check%s failed", v.failures,
					  v.failures == 1 ? "" : "s")
			  : 0;
}

int ord_bundle_verify_report(const char *bytes, size_t len, const char *name,
			     const struct ord_verify_opts *opts, const struct ord_report_opts *ro,
			     struct ord_buf *out, struct ord_buf *report)
{
	return verify_report(bytes, len, NULL, -1, NULL, NULL, name, opts, ro, out, report, NULL, NULL);
}

int ord_bundle_verify_report_take(char *bytes, size_t len, const char *name,
				  const struct ord_verify_opts *opts, const struct ord_report_opts *ro,
				  struct ord_buf *out, struct ord_buf *report)
{
	return verify_report(bytes ? bytes : "", len, bytes, -1, NULL, NULL, name, opts, ro, out,
			     report, NULL, NULL);
}

int ord_bundle_verify_map_take(char *bytes, size_t len, const char *name,
			       const struct ord_verify_opts *opts, const struct ord_map_opts *mo,
			       struct ord_buf *out, struct ord_buf *svg)
{
	return verify_report(bytes ? bytes : "", len, bytes, -1, NULL, NULL, name, opts, NULL, out,
			     NULL, mo, svg);
}

int ord_bundle_verify_report_fd(char *bytes, size_t len, int fd, const char *name,
				const struct ord_verify_opts *opts, const struct ord_report_opts *ro,
				struct ord_buf *out, struct ord_buf *report)
{
	return verify_report(bytes ? bytes : "", len, bytes, fd, NULL, NULL, name, opts, ro, out,
			     report, NULL, NULL);
}

/* The first read of a bundle's file (struct fill_src): each piece hashed,
 * scanned (ord_xml_stream_open's checks), and digested for the signature,
 * whose element is taken from the end into t.  *whole is set when the
 * bytes are to be read whole instead: a scan that found something (the
 * read of them whole says it as it says it of any bytes), a declaration
 * longer than a piece, CR LF line endings (said of the bytes whole). */
static int scan_file(struct fill_src *fs, struct sig_tail *t, int *whole)
{
	enum { SO = sizeof(ORD_BUNDLE_SIG_OPEN) - 1, SC = sizeof(ORD_BUNDLE_SIG_CLOSE) - 1 };
	enum { TL = SO + 128 + SC };
	size_t len = fs->len, prefix = len >= TL ? len - TL : 0, off, n, got, i, from;
	char *buf = ord_xmalloc(fs->piece), tail[TL], extra;
	struct ord_xml_scan scan;
	struct ord_digest d;
	int err = 0;

	memset(t, 0, sizeof(*t));
	*whole = 0;
	ord_xml_scan_init(&scan, containers, 1);
	/* ord_sig_bundle_msg of the bytes before the signature, as they come:
	 * their length first, as ord_digest_bytes puts it */
	ord_digest_init(&d, ORD_SIG_BUNDLE_TAG);
	ord_digest_int(&d, (int64_t)prefix);
	for (off = 0, i = 0; off < len && !*whole; off += n, i++) {
		n = len - off < fs->piece ? len - off : fs->piece;
		if ((err = pread_all(fs->fd, buf, n, off, fs->name, &got)) != 0)
			break;
		if (got != n) {
			err = ord_error_set(ORD_EBADDATA,
					    "%s changed while it was verified: it ends at byte %zu, not %zu",
					    fs->name, off + got, len);
			break;
		}
		crypto_generichash(fs->hash[i], 32, (const unsigned char *)buf, n, NULL, 0);
		if ((!off && ord_xml_check_start(buf, n, len, fs->name) != 0) || memchr(buf, '\r', n)) {
			ord_error_clear();
			*whole = 1;
			break;
		}
		ord_xml_scan_feed(&scan, buf, n);
		if (off < prefix)
			crypto_generichash_update(&d.st, (const unsigned char *)buf,
						  prefix - off < n ? prefix - off : n);
		/* the signature's element and the bundle's end */
		for (from = len >= TL && len - TL > off ? len - TL : off;
		     len >= TL && from < off + n; from++)
			tail[from - (len - TL)] = buf[from - off];
	}
	if (!err && !*whole && pread_all(fs->fd, &extra, 1, len, fs->name, &got) == 0 && got)
		err = ord_error_set(ORD_EBADDATA,
				    "%s changed while it was verified: it goes on past its %zu bytes",
				    fs->name, len);
	if (!err && !*whole && (!ord_xml_scan_end(&scan) || scan.nonspace == SIZE_MAX))
		*whole = 1;
	if (!err && !*whole && len >= TL && !memcmp(tail, ORD_BUNDLE_SIG_OPEN, SO) &&
	    !memcmp(tail + SO + 128, ORD_BUNDLE_SIG_CLOSE, SC)) {
		t->at_end = 1;
		memcpy(t->hex, tail + SO, 128);
		ord_digest_final(&d, t->msg);
	}
	free(buf);
	return err;
}

int ord_bundle_verify_file_in(int fd, size_t len, const char *name,
			      const struct ord_verify_opts *opts, struct ord_buf *out, size_t piece,
			      void (*between)(void *ud, int read), void *ud)
{
	struct fill_src fs;
	struct sig_tail tail;
	char *bytes;
	size_t got;
	int whole, err;

	if (len > ORD_BUNDLE_MAX_BYTES)
		return ord_error_set(ORD_EBADDATA,
				     "%s: document of %zu bytes is larger than the limit of %zu bytes",
				     name, len, ORD_BUNDLE_MAX_BYTES);
	if ((err = ord_crypto_init()) != 0)
		return err;
	memset(&fs, 0, sizeof(fs));
	fs.fd = fd;
	fs.name = name;
	fs.len = len;
	fs.piece = piece ? piece : PIECE;
	fs.hash = ord_xcalloc(len / fs.piece + 1, sizeof(*fs.hash));
	fs.buf = ord_xmalloc(fs.piece);
	fs.at = SIZE_MAX;
	fs.between = between;
	fs.ud = ud;
	if ((err = scan_file(&fs, &tail, &whole)) != 0)
		goto out;
	if (between)
		between(ud, 1);
	if (!whole) {
		err = verify_report(NULL, len, NULL, fd, &fs, &tail, name, opts, NULL, out, NULL,
				    NULL, NULL);
		goto out;
	}
	/* read whole, as from standard input */
	bytes = ord_xmalloc(len + 1);
	bytes[len] = '\0';
	if ((err = pread_all(fd, bytes, len, 0, name, &got)) != 0 || got != len) {
		free(bytes);
		if (!err)
			err = ord_error_set(ORD_EBADDATA,
					    "%s changed while it was verified: it ends at byte %zu, not %zu",
					    name, got, len);
	} else {
		err = verify_report(bytes, len, bytes, fd, NULL, NULL, name, opts, NULL, out, NULL,
				    NULL, NULL);
	}
out:
	free(fs.buf);
	free(fs.hash);
	return err;
}

int ord_bundle_verify_file(int fd, size_t len, const char *name, const struct ord_verify_opts *opts,
			   struct ord_buf *out)
{
	return ord_bundle_verify_file_in(fd, len, name, opts, out, 0, NULL, NULL);
}
