/*
 * xmlsafe.c - hardened XML reading and RelaxNG validation.
 *
 * Why a pre-scan: every entity attack (billion laughs, quadratic blow-up,
 * external entities, parameter entities, external DTDs) needs a DOCTYPE, and
 * none of orderly's formats has one, so a document with a DOCTYPE is refused
 * before libxml2 sees it.  The scan reads the bytes as ASCII, so it first
 * insists on UTF-8: a declared encoding such as UTF-7 ("+ADw-!DOCTYPE") or
 * EBCDIC would otherwise let libxml2 transcode markup the scan never saw.
 * Behind that, libxml2 runs without NOENT, DTDLOAD or XINCLUDE, with NONET,
 * and with an external-entity loader that refuses everything, so no file or
 * URL can ever be opened while parsing.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/xmlreader.h>
#include <pthread.h>
#include <libxml/xmlerror.h>

#include "xml/xmlsafe.h"

#define MAX_MESSAGES 8

static const char xinclude_ns[] = "http://www.w3.org/2001/XInclude";
static const char xinclude_old_ns[] = "http://www.w3.org/2003/XInclude";

struct ord_xml_stream;

struct errcol {
	const char *name;
	struct ord_buf msg;
	int count;
	struct ord_xml_stream *stream; /* a stream's, which knows its lines */
	unsigned marks;                /* ORD_ERRMARK_ of what msg says */
};

/* A refusal err (not 0) of what orderly refuses in any XML, marked so
 * (ORD_ERRMARK_ANY_XML): a caller tells it from one of the document's
 * form by the mark, not by its words. */
static int any_xml(int err)
{
	if (err)
		ord_error_mark(ORD_ERRMARK_ANY_XML);
	return err;
}

static unsigned stream_node_line(struct ord_xml_stream *s, xmlNodePtr n);
static int stream_cut_short(struct ord_xml_stream *s, struct ord_buf *msg);

static void collect(void *data, xmlErrorPtr e)
{
	struct errcol *c = data;
	size_t len;
	int line;

	if (!e || e->level == XML_ERR_WARNING)
		return;
	if (c->count++ >= MAX_MESSAGES)
		return;
	/* bytes that are not UTF-8: libxml2 2.9 raises them as
	 * XML_ERR_INVALID_CHAR with the bytes in str1 ("Input is not proper
	 * UTF-8"), and a character XML does not allow (a control character,
	 * U+FFFE) with the same code and no str1; a document whose encoding
	 * it finds wrong as XML_ERR_INVALID_ENCODING */
	if ((e->code == XML_ERR_INVALID_CHAR && e->str1) || e->code == XML_ERR_INVALID_ENCODING)
		c->marks |= ORD_ERRMARK_ANY_XML;
	if (c->msg.len)
		ord_buf_addch(&c->msg, '\n');
	line = e->line;
	/* libxml2 keeps an element's line in 16 bits: 65,535 is any after */
	if (c->stream && e->node && line == 65535)
		line = (int)stream_node_line(c->stream, e->node);
	/* a parser's error knows its column too (libxml2 keeps it in int2);
	 * a schema's names an element, by line alone */
	if (line > 0 && e->domain == XML_FROM_PARSER && e->int2 > 0)
		ord_buf_addf(&c->msg, "%s:%d:%d: ", c->name, line, e->int2);
	else if (line > 0)
		ord_buf_addf(&c->msg, "%s:%d: ", c->name, line);
	else
		ord_buf_addf(&c->msg, "%s: ", c->name);
	/* libxml2's own wording advises an option our users cannot set
	 * (its words are read: libxml2 2.9 raises "Excessive depth" as
	 * XML_ERR_INTERNAL_ERROR, a code other failures share, with no code
	 * of its own before XML_ERR_RESOURCE_LIMIT in 2.11) */
	if (e->message && !strncmp(e->message, "Excessive depth in document", 27)) {
		ord_buf_addf(&c->msg, "elements nested deeper than %d levels", ORD_XML_MAX_DEPTH);
		c->marks |= ORD_ERRMARK_ANY_XML;
	}
	/* a stream's parser says "Extra content" of a document cut short */
	else if (c->stream && e->code == XML_ERR_DOCUMENT_END && stream_cut_short(c->stream, &c->msg))
		;
	else
		ord_buf_adds(&c->msg, e->message ? e->message : "error");
	len = c->msg.len;
	while (len && (c->msg.buf[len - 1] == '\n' || c->msg.buf[len - 1] == ' '))
		len--;
	c->msg.len = len;
	c->msg.buf[len] = '\0';
}

static xmlParserInputPtr refuse_loader(const char *url, const char *id, xmlParserCtxtPtr ctxt)
{
	(void)id;
	(void)ctxt;
	(void)url;
	return NULL;
}

static void harden_once(void)
{
	static int done;

	if (done)
		return;
	done = 1;
	xmlInitParser();
	xmlSetExternalEntityLoader(refuse_loader);
}

/* Line number (1-based) of byte offset off. */
static unsigned line_of(const char *bytes, size_t off)
{
	unsigned line = 1;
	size_t i;

	for (i = 0; i < off; i++)
		if (bytes[i] == '\n')
			line++;
	return line;
}

const char *ord_xml_find_bytes(const char *hay, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	const char *p = hay, *last;

	if (!n || n > len)
		return n ? NULL : hay;
	for (last = hay + len - n; p <= last && (p = memchr(p, needle[0], (size_t)(last - p) + 1)); p++)
		if (!memcmp(p, needle, n))
			return p;
	return NULL;
}

size_t ord_xml_special_len(const char *p, const char *end)
{
	static const struct {
		const char *open, *close;
	} special[] = { { "<!--", "-->" }, { "<![CDATA[", "]]>" }, { "<?", "?>" } };
	size_t k, n, left = (size_t)(end - p);
	const char *c;

	for (k = 0; k < ORD_ARRAY_SIZE(special); k++) {
		n = strlen(special[k].open);
		if (left < n || memcmp(p, special[k].open, n))
			continue;
		c = ord_xml_find_bytes(p + n, left - n, special[k].close);
		return c ? (size_t)(c - p) + strlen(special[k].close) : left;
	}
	return 0;
}

/* The '>' that ends the tag whose '<' is at q (one in a quoted value is
 * not), or NULL. */
static const char *tag_end(const char *q, const char *end)
{
	char quote = 0;

	for (q++; q < end; q++) {
		if (quote)
			quote = *q == quote ? 0 : quote;
		else if (*q == '"' || *q == '\'')
			quote = *q;
		else if (*q == '>')
			return q;
	}
	return NULL;
}

static void push(size_t **v, size_t *n, size_t *alloc, size_t x)
{
	if (*n == *alloc)
		*v = ord_xrealloc(*v, (*alloc = *alloc ? 2 * *alloc : 64) * sizeof(**v));
	(*v)[(*n)++] = x;
}

static void number(xmlNodePtr n, uintptr_t *k)
{
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		n->_private = (void *)++*k;
		number(n->children, k);
	}
}

void ord_xml_lines_init(struct ord_xml_lines *l, const char *bytes, size_t len, xmlDocPtr doc)
{
	const char *p = bytes, *end = bytes + len, *gt;
	size_t i, alloc = 0, talloc = 0, skip;

	memset(l, 0, sizeof(*l));
	l->bytes = bytes;
	l->len = len;
	push(&l->start, &l->n, &alloc, 0);
	for (i = 0; i < len; i++)
		if (bytes[i] == '\n')
			push(&l->start, &l->n, &alloc, i + 1);
	/* the start tags: a '<' that opens no comment, CDATA section, PI,
	 * declaration or end tag */
	while (p < end) {
		if (*p != '<') {
			p++;
			continue;
		}
		if ((skip = ord_xml_special_len(p, end)) != 0) {
			p += skip;
			continue;
		}
		if (p + 1 < end && p[1] != '/' && p[1] != '!')
			push(&l->tags, &l->ntags, &talloc, (size_t)(p - bytes));
		if (!(gt = tag_end(p, end)))
			break;
		p = gt + 1;
	}
	if (doc) {
		uintptr_t k = 0;
		number(doc->children, &k);
		doc->_private = l;
	}
}

void ord_xml_lines_release(struct ord_xml_lines *l)
{
	/* doc->_private is left as it is: the document may be freed already */
	free(l->start);
	free(l->tags);
	memset(l, 0, sizeof(*l));
}

/* The index of the line holding byte offset off: the last start at or
 * before it. */
static size_t line_index(const struct ord_xml_lines *l, size_t off)
{
	size_t lo = 0, hi = l->n;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

void ord_xml_where(const struct ord_xml_lines *l, const char *p, unsigned *line, unsigned *col)
{
	size_t i = line_index(l, (size_t)(p - l->bytes));
	const char *q = l->bytes + l->start[i];

	*line = (unsigned)(i + 1);
	/* a column is a character: a UTF-8 continuation byte starts none */
	for (*col = 1; q < p; q++)
		if (((unsigned char)*q & 0xC0) != 0x80)
			++*col;
}

/* "<name" of element n (with its prefix) in buf; its length. */
static size_t tag_open(char *buf, size_t size, xmlNodePtr n)
{
	if (n->ns && n->ns->prefix)
		snprintf(buf, size, "<%s:%s", (const char *)n->ns->prefix, (const char *)n->name);
	else
		snprintf(buf, size, "<%s", (const char *)n->name);
	return strlen(buf);
}

/* Does "<name" (tl bytes) stand at q, ending the name there? */
static int tag_at(const char *q, const char *end, const char *tag, size_t tl)
{
	return (size_t)(end - q) > tl && !memcmp(q, tag, tl) && strchr(" \t\r\n/>", q[tl]);
}

const char *ord_xml_start_tag(const struct ord_xml_lines *l, xmlNodePtr n)
{
	uintptr_t k = l && n && n->type == XML_ELEMENT_NODE ? (uintptr_t)n->_private : 0;
	char tag[256];
	const char *q;

	if (!k || k > l->ntags)
		return NULL;
	q = l->bytes + l->tags[k - 1];
	/* the k-th start tag is the k-th element: it must bear its name */
	return tag_at(q, l->bytes + l->len, tag, tag_open(tag, sizeof(tag), n)) ? q : NULL;
}

unsigned ord_xml_start_line(const struct ord_xml_lines *l, xmlNodePtr n)
{
	const char *q = ord_xml_start_tag(l, n);
	long line = xmlGetLineNo(n);

	if (!q)
		return line < 0 ? 0 : (unsigned)line;
	return (unsigned)(line_index(l, (size_t)(q - l->bytes)) + 1);
}

unsigned ord_xml_line(xmlNodePtr n)
{
	return ord_xml_start_line(n && n->doc ? n->doc->_private : NULL, n);
}

int ord_xml_element_bytes(const struct ord_xml_lines *l, xmlNodePtr n, const char **start, size_t *len)
{
	const char *q = ord_xml_start_tag(l, n), *end, *p, *gt;
	char open[256], close[260];
	size_t ol, cl, skip;
	int depth = 1;

	if (!q)
		return -1;
	end = l->bytes + l->len;
	if (!(gt = tag_end(q, end)))
		return -1;
	if (gt[-1] == '/') { /* <name .../>: the element is its tag */
		*start = q;
		*len = (size_t)(gt + 1 - q);
		return 0;
	}
	ol = tag_open(open, sizeof(open), n);
	snprintf(close, sizeof(close), "</%s", open + 1);
	cl = strlen(close);
	for (p = gt + 1; p < end;) {
		if ((skip = ord_xml_special_len(p, end)) != 0) {
			p += skip;
			continue;
		}
		if (*p != '<') {
			p++;
			continue;
		}
		if (!(gt = tag_end(p, end)))
			return -1;
		if (tag_at(p, end, open, ol) && gt[-1] != '/')
			depth++; /* one of its own name inside it */
		else if (tag_at(p, end, close, cl) && --depth == 0) {
			*start = q;
			*len = (size_t)(gt + 1 - q);
			return 0;
		}
		p = gt + 1;
	}
	return -1;
}

/*
 * The document must be UTF-8 as the scans below assume: it starts with '<'
 * or white space (libxml2 guesses EBCDIC and others from the first bytes),
 * and an XML declaration may only name UTF-8.
 */
static int check_utf8_decl(const char *bytes, size_t len, const char *name)
{
	const char *p = bytes, *end = bytes + len, *decl_end, *enc, *v;
	char quote;

	p += ord_utf8_bom_at(p, len);
	if (p < end && *p != '<' && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
		return any_xml(ord_error_set(ORD_EBADDATA,
					     "%s:1: does not start with '<'; expected an XML document in UTF-8",
					     name));
	if (end - p < 6 || memcmp(p, "<?xml", 5) ||
	    !(p[5] == ' ' || p[5] == '\t' || p[5] == '\r' || p[5] == '\n'))
		return 0;
	if ((decl_end = ord_xml_find_bytes(p, (size_t)(end - p), "?>")) == NULL)
		return 0; /* libxml2 reports the broken declaration */
	if ((enc = ord_xml_find_bytes(p, (size_t)(decl_end - p), "encoding")) == NULL)
		return 0;
	v = enc + 8;
	while (v < decl_end && (*v == ' ' || *v == '\t' || *v == '\r' || *v == '\n' || *v == '='))
		v++;
	if (v >= decl_end || (*v != '"' && *v != '\''))
		return 0;
	quote = *v++;
	for (enc = v; v < decl_end && *v != quote; v++)
		;
	if ((size_t)(v - enc) == 5 && !strncasecmp(enc, "UTF-8", 5))
		return 0;
	return any_xml(ord_error_set(ORD_EBADDATA,
				     "%s:1: encoding '%.*s' is not accepted; expected UTF-8", name,
				     (int)(v - enc > 40 ? 40 : v - enc), enc));
}

/* ---- the pre-scan, in pieces ---- */

static unsigned newlines(const char *p, const char *end)
{
	unsigned n = 0;

	while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		n++;
		p++;
	}
	return n;
}

static int is_container(const char *const *containers, const char *tag, size_t n);

/* The words found wherever they stand (in a comment or a value too), by
 * their kind. */
static const struct {
	int kind;
	const char *word;
} scan_words[] = {
	{ ORD_XML_SCAN_DOCTYPE, "<!DOCTYPE" },
	{ ORD_XML_SCAN_ENTITY, "<!ENTITY" },
	{ ORD_XML_SCAN_XINCLUDE, xinclude_ns },
	{ ORD_XML_SCAN_XINCLUDE_OLD, xinclude_old_ns },
};

/* The markup a scan steps over: a '<' in one opens no tag. */
static const struct {
	const char *open, *close;
} scan_special[] = { { "<!--", "-->" }, { "<![CDATA[", "]]>" }, { "<?", "?>" } };

enum { SCAN_TEXT, SCAN_LT, SCAN_SPECIAL, SCAN_TAG };

void ord_xml_scan_init(struct ord_xml_scan *s, const char *const *containers, int nesting)
{
	size_t k;

	memset(s, 0, sizeof(*s));
	s->containers = containers;
	s->nesting = nesting;
	for (k = 0; k < ORD_XML_SCAN_KINDS; k++)
		s->at[k] = SIZE_MAX;
	s->nonspace = SIZE_MAX;
	s->state = SCAN_TEXT;
	s->line = 1;
}

static void scan_found(struct ord_xml_scan *s, int kind, size_t at)
{
	if (s->at[kind] == SIZE_MAX)
		s->at[kind] = at;
}

/* The name n (len bytes, of which the first 64 are kept) as a message
 * says it. */
static void scan_name(char out[65], const char *n, size_t len)
{
	len = len > 64 ? 64 : len;
	memcpy(out, n, len);
	out[len] = '\0';
}

/* A nesting refusal at the tag just ended (its '>' at gt). */
static void scan_nest_fail(struct ord_xml_scan *s, int kind, size_t gt, const char *parent, size_t plen)
{
	scan_found(s, ORD_XML_SCAN_NESTING, gt);
	s->nest_kind = kind;
	scan_name(s->nest_tag, s->name, s->name_len);
	if (parent)
		scan_name(s->nest_parent, parent, plen);
	s->stopped = 1;
}

/* The tag that began at s->tag_at ends with the '>' at gt: its nesting,
 * as check_nesting read a tag (a start tag with no name stops it). */
static void scan_tag_end(struct ord_xml_scan *s, size_t gt)
{
	const char *const *c = s->containers;
	size_t n = s->name_len;

	if (!s->nesting || s->stopped || !s->tag_len)
		return;
	if (s->c1 == '/') {
		s->depth -= s->depth > 0;
		return;
	}
	if (s->c1 == '!')
		return;
	if (!n) {
		s->root_seen = 1;
		s->stopped = 1; /* no name: libxml2 says so */
		return;
	}
	if (s->depth >= ORD_XML_MAX_DEPTH) {
		scan_nest_fail(s, ORD_XML_NEST_DEEP, gt, NULL, 0);
		return;
	}
	/* said as libxml2 says it of a tree: its reader would say "Did not
	 * expect element scenario there" */
	if (!s->root_seen && c && *c &&
	    (strlen(c[0]) != n || n > sizeof(s->name) || memcmp(c[0], s->name, n))) {
		s->root_seen = 1;
		scan_nest_fail(s, ORD_XML_NEST_ROOT, gt, NULL, 0);
		return;
	}
	s->root_seen = 1;
	if (s->depth && !s->open[s->depth - 1].container) {
		scan_nest_fail(s, ORD_XML_NEST_INSIDE, gt, s->open[s->depth - 1].tag,
			       (size_t)s->open[s->depth - 1].len);
		return;
	}
	if (s->prev != '/') {
		memcpy(s->open[s->depth].tag, s->name, n > 64 ? 64 : n);
		s->open[s->depth].len = (int)(n > 64 ? 64 : n);
		/* a name longer than is kept is no container's */
		s->open[s->depth].container = n <= sizeof(s->name) ? is_container(c, s->name, n) : !c;
		s->depth++;
	}
}

/* One byte of a tag, at offset at (after its '<'): 1 when it ends it. */
static int scan_tag_byte(struct ord_xml_scan *s, char ch, size_t at)
{
	if (!s->tag_len)
		s->c1 = ch;
	if (s->quote) {
		s->quote = ch == s->quote ? 0 : s->quote;
	} else if (ch == '"' || ch == '\'') {
		s->quote = ch;
	} else if (ch == '>') {
		s->name_done = 1;
		/* a start tag as next_start_line finds one */
		if (s->start_tag && s->c1 != '/' && s->c1 != '!')
			s->start_tag(s->ud, s->tag_at, s->line);
		scan_tag_end(s, at);
		s->state = SCAN_TEXT;
		return 1;
	} else if (ch == '=' && ++s->neq > ORD_XML_MAX_ATTRS) {
		scan_found(s, ORD_XML_SCAN_ATTRS, s->tag_at);
	}
	/* the name: from the byte after '<' to white space or '/' (or the
	 * tag's end), quotes and all, as check_nesting read it */
	if (!s->name_done) {
		if (strchr(" \t\r\n/", ch)) {
			s->name_done = 1;
		} else {
			if (s->name_len < sizeof(s->name))
				s->name[s->name_len] = ch;
			s->name_len++;
		}
	}
	s->prev = ch;
	if (++s->tag_len > ORD_XML_MAX_MARKUP)
		scan_found(s, ORD_XML_SCAN_LONG, s->tag_at);
	return 0;
}

/* A '<' at tag_at begins a tag: what was held since it read as the tag's. */
static void scan_begin_tag(struct ord_xml_scan *s)
{
	size_t i;

	s->state = SCAN_TAG;
	s->tag_len = 0;
	s->quote = s->c1 = s->prev = 0;
	s->neq = 0;
	s->name_done = 0;
	s->name_len = 0;
	for (i = 1; i < s->npend && s->state == SCAN_TAG; i++)
		scan_tag_byte(s, s->pend[i], s->tag_at + i);
}

/* The words of scan_words in the n bytes at p, fed at offset off, with
 * those held from before (a word cut between two pieces). */
static void scan_words_in(struct ord_xml_scan *s, const char *p, size_t n)
{
	char joint[2 * sizeof(s->carry)];
	size_t k, j, take = n < sizeof(s->carry) ? n : sizeof(s->carry), keep;
	const char *q;

	memcpy(joint, s->carry, s->ncarry);
	memcpy(joint + s->ncarry, p, take);
	for (k = 0; k < ORD_ARRAY_SIZE(scan_words); k++) {
		if (s->at[scan_words[k].kind] != SIZE_MAX)
			continue;
		/* one that begins in the bytes held */
		if ((q = ord_xml_find_bytes(joint, s->ncarry + take, scan_words[k].word)) != NULL &&
		    (size_t)(q - joint) < s->ncarry)
			scan_found(s, scan_words[k].kind, s->off - s->ncarry + (size_t)(q - joint));
		else if ((q = ord_xml_find_bytes(p, n, scan_words[k].word)) != NULL)
			scan_found(s, scan_words[k].kind, s->off + (size_t)(q - p));
	}
	/* the last bytes, held for the next piece */
	keep = s->ncarry + n < sizeof(s->carry) ? s->ncarry + n : sizeof(s->carry);
	if (n >= keep) {
		memcpy(s->carry, p + n - keep, keep);
	} else {
		j = keep - n;
		memmove(s->carry, s->carry + s->ncarry - j, j);
		memcpy(s->carry + j, p, n);
	}
	s->ncarry = keep;
}

void ord_xml_scan_feed(struct ord_xml_scan *s, const char *p, size_t n)
{
	const char *q, *end = p + n, *lt;
	size_t k, at, cl;

	if (s->start_tag)
		goto tags; /* a stream's tags (its bytes were scanned first) */
	if ((q = memchr(p, '\0', n)) != NULL)
		scan_found(s, ORD_XML_SCAN_NUL, s->off + (size_t)(q - p));
	scan_words_in(s, p, n);
	if (s->nonspace == SIZE_MAX)
		for (q = p; q < end; q++)
			if (!strchr(" \t\r\n", *q)) {
				s->nonspace = s->off + (size_t)(q - p);
				break;
			}
tags:
	for (q = p; q < end;) {
		at = s->off + (size_t)(q - p);
		switch (s->state) {
		case SCAN_TEXT:
			if (!(lt = memchr(q, '<', (size_t)(end - q)))) {
				if (s->start_tag)
					s->line += newlines(q, end);
				q = end;
				break;
			}
			if (s->start_tag)
				s->line += newlines(q, lt);
			s->tag_at = s->off + (size_t)(lt - p);
			s->pend[0] = '<';
			s->npend = 1;
			s->state = SCAN_LT;
			q = lt + 1;
			break;
		case SCAN_LT:
			/* markup, a tag, or not known yet */
			s->line += *q == '\n';
			s->pend[s->npend++] = *q++;
			for (k = 0; k < ORD_ARRAY_SIZE(scan_special); k++) {
				size_t ol = strlen(scan_special[k].open);
				if (memcmp(s->pend, scan_special[k].open, s->npend < ol ? s->npend : ol))
					continue;
				if (s->npend < ol)
					break; /* perhaps this one */
				s->state = SCAN_SPECIAL;
				s->special = (int)k;
				s->since = 0;
				break;
			}
			if (k == ORD_ARRAY_SIZE(scan_special))
				scan_begin_tag(s);
			break;
		case SCAN_SPECIAL:
			/* its close, begun after its opening */
			cl = strlen(scan_special[s->special].close);
			if (*q == '>' && s->since + 1 >= cl &&
			    (cl == 2 ? s->last[1] == scan_special[s->special].close[0]
				     : s->last[0] == scan_special[s->special].close[0] &&
					       s->last[1] == scan_special[s->special].close[1]))
				s->state = SCAN_TEXT;
			s->line += *q == '\n';
			s->last[0] = s->last[1];
			s->last[1] = *q++;
			if (++s->since > ORD_XML_MAX_MARKUP)
				scan_found(s, ORD_XML_SCAN_LONG, s->tag_at);
			break;
		case SCAN_TAG:
			while (q < end && !scan_tag_byte(s, *q, at)) {
				s->line += *q == '\n';
				q++, at++;
			}
			q += q < end;
			break;
		}
	}
	s->off += n;
}

int ord_xml_scan_end(struct ord_xml_scan *s)
{
	size_t k;

	/* a '<' at the end, its markup cut short: a tag to the end */
	if (s->state == SCAN_LT)
		scan_begin_tag(s);
	s->state = SCAN_TEXT;
	for (k = 0; k < ORD_XML_SCAN_KINDS; k++)
		if (s->at[k] != SIZE_MAX)
			return 0;
	return 1;
}

/* The whole document's pre-scan (with the nesting's when nesting is set),
 * and its first finding said as the checks say it, in their order. */
static int prescan_nesting(const char *bytes, size_t len, size_t max, const char *name,
			   const char *const *containers, int nesting)
{
	struct ord_xml_scan sc;
	size_t at;
	int err;

	if (len > max)
		return any_xml(ord_error_set(ORD_EBADDATA,
					     "%s: document of %zu bytes is larger than the limit of %zu bytes",
					     name, len, max));
	if (len >= 2 && ((unsigned char)bytes[0] == 0xFE || (unsigned char)bytes[0] == 0xFF ||
			 bytes[0] == '\0' || bytes[1] == '\0'))
		return any_xml(ord_error_set(ORD_EBADDATA,
					     "%s:1: not UTF-8 (a UTF-16 or UTF-32 document); expected UTF-8",
					     name));
	ord_xml_scan_init(&sc, containers, nesting);
	ord_xml_scan_feed(&sc, bytes, len);
	if (ord_xml_scan_end(&sc))
		return check_utf8_decl(bytes, len, name);
	if ((at = sc.at[ORD_XML_SCAN_NUL]) != SIZE_MAX)
		return any_xml(ord_error_set(ORD_EBADDATA,
					     "%s:%u: contains a NUL byte; expected UTF-8 text",
					     name, line_of(bytes, at)));
	if ((err = check_utf8_decl(bytes, len, name)) != 0)
		return err;
	if ((at = sc.at[ORD_XML_SCAN_DOCTYPE]) != SIZE_MAX)
		return any_xml(ord_error_set(ORD_EBADDATA,
					     "%s:%u: DOCTYPE declarations are not accepted (entities and DTDs are refused); expected a plain XML document",
					     name, line_of(bytes, at)));
	if ((at = sc.at[ORD_XML_SCAN_ENTITY]) != SIZE_MAX)
		return any_xml(ord_error_set(ORD_EBADDATA, "%s:%u: entity declarations are not accepted",
					     name, line_of(bytes, at)));
	if ((at = sc.at[ORD_XML_SCAN_ATTRS]) != SIZE_MAX)
		return any_xml(
			ord_error_set(ORD_EBADDATA,
				      "%s:%u: an element with more than %d attributes; expected at most %d",
				      name, line_of(bytes, at), ORD_XML_MAX_ATTRS, ORD_XML_MAX_ATTRS));
	if ((at = sc.at[ORD_XML_SCAN_XINCLUDE]) != SIZE_MAX ||
	    (at = sc.at[ORD_XML_SCAN_XINCLUDE_OLD]) != SIZE_MAX)
		return any_xml(ord_error_set(ORD_EBADDATA, "%s:%u: XInclude is not accepted", name,
					     line_of(bytes, at)));
	if ((at = sc.at[ORD_XML_SCAN_LONG]) != SIZE_MAX)
		return any_xml(ord_error_set(ORD_EBADDATA,
					     "%s:%u: a comment, processing instruction, CDATA section or tag of more than %d bytes; expected at most %d",
					     name, line_of(bytes, at), ORD_XML_MAX_MARKUP,
					     ORD_XML_MAX_MARKUP));
	if ((at = sc.at[ORD_XML_SCAN_NESTING]) == SIZE_MAX)
		return 0;
	if (sc.nest_kind == ORD_XML_NEST_DEEP)
		return any_xml(ord_error_set(ORD_EBADDATA, "%s:%u: elements nested deeper than %d levels",
					     name, line_of(bytes, at), ORD_XML_MAX_DEPTH));
	if (sc.nest_kind == ORD_XML_NEST_ROOT)
		return ord_error_set(ORD_EBADDATA, "%s:%u: Expecting element %s, got %s", name,
				     line_of(bytes, at), containers[0], sc.nest_tag);
	return ord_error_set(ORD_EBADDATA,
			     "%s:%u: element <%s> inside <%s>; expected text only in <%s>", name,
			     line_of(bytes, at), sc.nest_tag, sc.nest_parent, sc.nest_parent);
}

static int prescan(const char *bytes, size_t len, size_t max, const char *name)
{
	return prescan_nesting(bytes, len, max, name, NULL, 0);
}

int ord_xml_check_start(const char *bytes, size_t n, size_t len, const char *name)
{
	const char *p = bytes, *end = bytes + n;

	if (n >= 2 && ((unsigned char)bytes[0] == 0xFE || (unsigned char)bytes[0] == 0xFF ||
		       bytes[0] == '\0' || bytes[1] == '\0'))
		return any_xml(ord_error_set(ORD_EBADDATA,
					     "%s:1: not UTF-8 (a UTF-16 or UTF-32 document); expected UTF-8",
					     name));
	p += ord_utf8_bom_at(p, n);
	/* a declaration that goes on past the bytes at hand */
	if (n < len && end - p >= 6 && !memcmp(p, "<?xml", 5) &&
	    !ord_xml_find_bytes(p, (size_t)(end - p), "?>"))
		return 1;
	return check_utf8_decl(bytes, n, name);
}

static int check_tree(xmlNodePtr n, int depth, const char *name)
{
	for (; n; n = n->next) {
		if (n->type == XML_ENTITY_REF_NODE || n->type == XML_ENTITY_NODE ||
		    n->type == XML_XINCLUDE_START)
			return any_xml(ord_error_set(ORD_EBADDATA,
						     "%s:%ld: entity references are not accepted",
						     name, xmlGetLineNo(n)));
		/* the pre-scan misses a namespace written with character references */
		if (n->type == XML_ELEMENT_NODE && n->ns && n->ns->href &&
		    (!strcmp((const char *)n->ns->href, xinclude_ns) ||
		     !strcmp((const char *)n->ns->href, xinclude_old_ns)))
			return any_xml(ord_error_set(ORD_EBADDATA, "%s:%ld: XInclude is not accepted",
						     name, xmlGetLineNo(n)));
		if (n->type == XML_ELEMENT_NODE) {
			if (depth >= ORD_XML_MAX_DEPTH)
				return any_xml(
					ord_error_set(ORD_EBADDATA,
						      "%s:%ld: elements nested deeper than %d levels",
						      name, xmlGetLineNo(n), ORD_XML_MAX_DEPTH));
			if (check_tree(n->children, depth + 1, name))
				return ORD_EBADDATA;
		}
	}
	return 0;
}

int ord_xml_parse(xmlDocPtr *out, const char *bytes, size_t len, const char *name)
{
	struct errcol c = { name, ORD_BUF_INIT, 0, NULL, 0 };
	xmlParserCtxtPtr ctxt = NULL;
	xmlDocPtr doc = NULL;
	int err = 0;

	*out = NULL;
	harden_once();
	if ((err = prescan(bytes, len, ORD_XML_MAX_BYTES, name)) != 0)
		return err;
	ctxt = xmlNewParserCtxt();
	if (!ctxt)
		return ord_error_set(ORD_ERROR, "%s: out of memory", name);
	xmlSetStructuredErrorFunc(&c, collect);
	/* COMPACT: short texts (most attribute values) kept in their node, not
	 * allocated apart: the tree of a 10,000-unit scenario is built about a
	 * tenth faster and smaller.  Such a tree takes no new content; orderly
	 * only reads its trees, but for the scenario's addresses, whose
	 * attributes are removed whole (xmlUnsetProp frees a compact text) */
	/* HUGE: libxml2 stops a document in memory that its parser looks
	 * more than 10,000,000 bytes into ("Huge input lookup": a bundle of
	 * 10,000 units, 15 MB); what the option lets through besides (deeper
	 * nesting, longer names and texts, entities' amplification) is
	 * refused apart: the size by prescan, entities and DTDs by prescan
	 * and check_tree, the nesting by check_tree */
	doc = xmlCtxtReadMemory(ctxt, bytes, (int)len, name, NULL,
				XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_COMPACT |
					(len > ORD_XML_HUGE_BYTES ? XML_PARSE_HUGE : 0));
	xmlSetStructuredErrorFunc(NULL, NULL);
	if (!doc || !ctxt->wellFormed || c.count) {
		if (c.msg.len) {
			err = ord_error_set(ORD_EBADDATA, "%s", c.msg.buf);
			ord_error_mark(c.marks);
		} else
			err = ord_error_set(ORD_EBADDATA, "%s: not well-formed XML", name);
		goto out;
	}
	if (doc->intSubset || doc->extSubset) {
		err = any_xml(ord_error_set(ORD_EBADDATA, "%s: DTDs are not accepted", name));
		goto out;
	}
	if (doc->encoding && !ord_strcaseeq((const char *)doc->encoding, "UTF-8")) {
		err = any_xml(ord_error_set(ORD_EBADDATA,
					    "%s:1: encoding '%s' is not accepted; expected UTF-8",
					    name, (const char *)doc->encoding));
		goto out;
	}
	if ((err = check_tree(doc->children, 0, name)) != 0)
		goto out;
	*out = doc;
	doc = NULL;
out:
	if (doc)
		xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctxt);
	ord_buf_release(&c.msg);
	return err;
}

/*
 * Compiled schemas, kept for the life of the process: compiling one costs
 * far more than validating a small document with it, and a verifier may
 * read many documents (a bundle, its tables, its scenario).  Validation
 * with a shared schema is serialised by the mutex, so threads may call.
 */
static struct {
	const struct ord_resource *r;
	xmlRelaxNGPtr schema;
} schemas[16];
static pthread_mutex_t schemas_lock = PTHREAD_MUTEX_INITIALIZER;

static xmlRelaxNGPtr schema_of(const struct ord_resource *r, struct errcol *sc)
{
	xmlRelaxNGParserCtxtPtr pctxt;
	xmlRelaxNGPtr schema;
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(schemas) && schemas[i].r; i++)
		if (schemas[i].r == r)
			return schemas[i].schema;
	pctxt = xmlRelaxNGNewMemParserCtxt((const char *)r->data, (int)r->len);
	xmlRelaxNGSetParserStructuredErrors(pctxt, collect, sc);
	schema = xmlRelaxNGParse(pctxt);
	xmlRelaxNGFreeParserCtxt(pctxt);
	if (schema && i < ORD_ARRAY_SIZE(schemas)) {
		schemas[i].r = r;
		schemas[i].schema = schema;
	}
	return schema;
}

int ord_xml_validate(xmlDocPtr doc, const char *rng_resource, const char *name)
{
	const struct ord_resource *r = ord_resource_find(rng_resource);
	struct errcol c = { name, ORD_BUF_INIT, 0, NULL, 0 };
	struct errcol sc = { rng_resource, ORD_BUF_INIT, 0, NULL, 0 };
	xmlRelaxNGPtr schema = NULL;
	xmlRelaxNGValidCtxtPtr vctxt = NULL;
	size_t i;
	int err = 0, rc, kept = 0;

	harden_once();
	if (!r)
		return ord_error_set(ORD_ERROR, "schema '%s' is not built in", rng_resource);
	pthread_mutex_lock(&schemas_lock);
	schema = schema_of(r, &sc);
	for (i = 0; i < ORD_ARRAY_SIZE(schemas); i++)
		if (schemas[i].schema == schema && schema)
			kept = 1;
	if (!schema) {
		err = ord_error_set(ORD_ERROR, "built-in schema does not load: %s", sc.msg.buf);
		goto out;
	}
	vctxt = xmlRelaxNGNewValidCtxt(schema);
	xmlRelaxNGSetValidStructuredErrors(vctxt, collect, &c);
	rc = xmlRelaxNGValidateDoc(vctxt, doc);
	if (rc != 0) {
		err = ord_error_set(ORD_EBADDATA, "%s",
				    c.msg.len ? c.msg.buf : "does not match its schema");
		ord_error_mark(c.marks);
	}
out:
	if (vctxt)
		xmlRelaxNGFreeValidCtxt(vctxt);
	if (schema && !kept)
		xmlRelaxNGFree(schema);
	pthread_mutex_unlock(&schemas_lock);
	ord_buf_release(&c.msg);
	ord_buf_release(&sc.msg);
	return err;
}

int ord_xml_load(xmlDocPtr *out, const char *bytes, size_t len, const char *name,
		 const char *rng_resource)
{
	xmlDocPtr doc;
	int err;

	*out = NULL;
	if ((err = ord_xml_parse(&doc, bytes, len, name)) != 0)
		return err;
	if (rng_resource && (err = ord_xml_validate(doc, rng_resource, name)) != 0) {
		xmlFreeDoc(doc);
		return err;
	}
	*out = doc;
	return 0;
}

int ord_xml_load_file(xmlDocPtr *out, const char *path, const char *rng_resource)
{
	char *bytes;
	size_t len;
	int err;

	*out = NULL;
	if ((err = ord_read_file(&bytes, &len, path, ORD_XML_MAX_BYTES)) != 0)
		return err;
	err = ord_xml_load(out, bytes, len, path, rng_resource);
	free(bytes);
	return err;
}

/* ---- a document as a stream ---- */

static int is_container(const char *const *containers, const char *tag, size_t n)
{
	if (!containers)
		return 1;
	for (; *containers; containers++)
		if (strlen(*containers) == n && !memcmp(*containers, tag, n))
			return 1;
	return 0;
}

struct ord_xml_stream {
	xmlTextReaderPtr r;
	struct errcol c; /* libxml2's messages, the parser's and the validator's */
	int locked;      /* holds schemas_lock */
	int schema;      /* validated against a schema */
	int empty_end;   /* the element just started is empty: its end is next */
	int err;         /* the error given, given again by every later call */
	/* the lines of the start tags, found in the bytes as the reader gives
	 * their elements (in the same order): libxml2 counts an element's
	 * line in 16 bits, and a bundle of 10,000 units has 150,000 lines */
	const char *bytes;                  /* the document */
	const char *cur, *end;              /* past the last start tag given; the end */
	const char *tag;                    /* that start tag's '<' */
	unsigned cur_line;                  /* the line of cur */
	unsigned line[ORD_XML_MAX_DEPTH];   /* each open element's line, by depth */
	xmlNodePtr node[ORD_XML_MAX_DEPTH]; /* each open element, by depth */
	size_t tag_off;                     /* that start tag's offset */
	/* a document read as it is parsed (ord_xml_stream_open_read): its
	 * bytes, the read, the parser's bytes so far and the read's error */
	size_t len;
	int (*read)(void *ud, char *buf, size_t off, size_t n);
	void *read_ud;
	size_t pos;
	int read_err;
	/* its start tags found as libxml2 is given its bytes, not yet given
	 * as elements (the bytes behind may be let go): each tag's '<' and
	 * line, a ring */
	struct ord_xml_scan *track;
	struct {
		size_t at;
		unsigned line;
	} * tags;
	size_t tags_head, tags_n, tags_alloc;
};

/* The line where the next start tag after s->cur ends (as libxml2 counts
 * an element's line); past it when take. */
static unsigned next_start_line(struct ord_xml_stream *s, int take)
{
	const char *p = s->cur, *lt, *gt;
	unsigned line = s->cur_line;
	size_t skip;

	/* a document read as it is parsed: the tags found as it was */
	if (s->read) {
		if (!s->tags_n)
			return take ? 0 : line;
		line = s->tags[s->tags_head].line;
		if (take) {
			s->tag_off = s->tags[s->tags_head].at;
			s->cur_line = line;
			s->tags_head = (s->tags_head + 1) % s->tags_alloc;
			s->tags_n--;
		}
		return line;
	}

	while ((lt = memchr(p, '<', (size_t)(s->end - p))) != NULL) {
		line += newlines(p, lt);
		if ((skip = ord_xml_special_len(lt, s->end)) != 0) {
			line += newlines(lt, lt + skip);
			p = lt + skip;
			continue;
		}
		if (!(gt = tag_end(lt, s->end)))
			break;
		line += newlines(lt, gt);
		p = gt + 1;
		if (lt[1] != '/' && lt[1] != '!') {
			if (take) {
				s->tag = lt;
				s->tag_off = (size_t)(lt - s->bytes);
				s->cur = p;
				s->cur_line = line;
			}
			return line;
		}
	}
	return line;
}

/* When the document ends inside an element: say so of the innermost as
 * libxml2 says it of a tree, and 1.  A scan of the tags from the start,
 * as check_nesting's (the document was, and is no deeper). */
static int stream_cut_short(struct ord_xml_stream *s, struct ord_buf *msg)
{
	struct {
		const char *tag;
		int len;
		unsigned line;
	} open[ORD_XML_MAX_DEPTH];
	const char *p, *lt, *gt, *tag;
	unsigned line = 1;
	size_t skip;
	int depth = 0;

	/* a document read as it is parsed is not held here: its reader
	 * says it again of all the bytes */
	if (s->read)
		return 0;
	for (p = s->bytes; (lt = memchr(p, '<', (size_t)(s->end - p))) != NULL;) {
		line += newlines(p, lt);
		if ((skip = ord_xml_special_len(lt, s->end)) != 0) {
			line += newlines(lt, lt + skip);
			p = lt + skip;
			continue;
		}
		if (!(gt = tag_end(lt, s->end)))
			break;
		line += newlines(lt, gt);
		p = gt + 1;
		if (lt[1] == '/') {
			depth -= depth > 0;
		} else if (lt[1] != '!' && gt[-1] != '/' && depth < ORD_XML_MAX_DEPTH) {
			for (tag = lt + 1; tag < gt && !strchr(" \t\r\n/", *tag); tag++)
				;
			open[depth].tag = lt + 1;
			open[depth].len = (int)(tag - lt - 1 > 64 ? 64 : tag - lt - 1);
			open[depth].line = line;
			depth++;
		}
	}
	if (!depth)
		return 0;
	ord_buf_addf(msg, "Premature end of data in tag %.*s line %u", open[depth - 1].len,
		     open[depth - 1].tag, open[depth - 1].line);
	return 1;
}

/* The line of n, an element libxml2 names in a message: one open, or the
 * one it reads next (whose start tag was not given yet). */
static unsigned stream_node_line(struct ord_xml_stream *s, xmlNodePtr n)
{
	int d;

	for (d = 0; d < ORD_XML_MAX_DEPTH; d++)
		if (s->node[d] == n)
			return s->line[d];
	return next_start_line(s, 0);
}

/* A start tag the track found (struct ord_xml_scan's start_tag). */
static void stream_tag(void *ud, size_t at, unsigned line)
{
	struct ord_xml_stream *s = ud;
	size_t i;

	if (s->tags_n == s->tags_alloc) {
		size_t n = s->tags_alloc ? 2 * s->tags_alloc : 64;
		void *v = ord_xcalloc(n, sizeof(*s->tags));
		/* the ring unrolled into the new one */
		for (i = 0; i < s->tags_n; i++)
			memcpy((char *)v + i * sizeof(*s->tags),
			       &s->tags[(s->tags_head + i) % s->tags_alloc], sizeof(*s->tags));
		free(s->tags);
		s->tags = v;
		s->tags_head = 0;
		s->tags_alloc = n;
	}
	i = (s->tags_head + s->tags_n++) % s->tags_alloc;
	s->tags[i].at = at;
	s->tags[i].line = line;
}

/* libxml2's read of a document read as it is parsed (the read's refusal
 * is the stream's), its start tags found as they are given. */
static int stream_read(void *ctx, char *buf, int len)
{
	struct ord_xml_stream *s = ctx;
	size_t n = (size_t)len;
	int err;

	if (s->read_err)
		return -1;
	if (n > s->len - s->pos)
		n = s->len - s->pos;
	if (n && (err = s->read(s->read_ud, buf, s->pos, n)) != 0) {
		s->read_err = err;
		ord_buf_reset(&s->c.msg);
		ord_buf_adds(&s->c.msg, ord_error_last());
		s->c.marks = ord_error_marks();
		return -1;
	}
	ord_xml_scan_feed(s->track, buf, n);
	s->pos += n;
	return (int)n;
}

static int stream_close(void *ctx)
{
	(void)ctx;
	return 0;
}

static int stream_open(struct ord_xml_stream **out, const char *bytes, size_t len, size_t max,
		       const char *name, const char *rng_resource, const char *const *containers,
		       size_t whole, int (*read)(void *ud, char *buf, size_t off, size_t n),
		       void *read_ud)
{
	const struct ord_resource *r = NULL;
	struct errcol sc = { rng_resource, ORD_BUF_INIT, 0, NULL, 0 };
	struct ord_xml_stream *s;
	xmlRelaxNGPtr schema = NULL;
	const char *p;
	int err = 0;

	*out = NULL;
	harden_once();
	/* libxml2 reads at most INT_MAX bytes from memory */
	if (max > INT_MAX)
		max = INT_MAX;
	/* a document read as it is parsed was scanned as it was first read */
	if (!read) {
		if ((err = prescan_nesting(bytes, len, max, name, containers, 1)) != 0)
			return err;
		/* libxml2's reader says "Extra content" of nothing */
		for (p = bytes; p < bytes + len && strchr(" \t\r\n", *p); p++)
			;
		if (p == bytes + len)
			return ord_error_set(ORD_EBADDATA, "%s:%u: Document is empty", name,
					     line_of(bytes, len));
	}
	if (rng_resource && !(r = ord_resource_find(rng_resource)))
		return ord_error_set(ORD_ERROR, "schema '%s' is not built in", rng_resource);
	s = ord_xcalloc(1, sizeof(*s));
	s->c.name = name;
	s->c.stream = s;
	ord_buf_init(&s->c.msg);
	s->bytes = s->cur = bytes;
	s->end = bytes ? bytes + len : NULL;
	s->len = len;
	s->cur_line = 1;
	if (r) {
		pthread_mutex_lock(&schemas_lock);
		s->locked = 1;
		if (!(schema = schema_of(r, &sc))) {
			err = ord_error_set(ORD_ERROR, "built-in schema does not load: %s", sc.msg.buf);
			goto out;
		}
	}
	s->read = read;
	s->read_ud = read_ud;
	if (read) {
		s->track = ord_xmalloc(sizeof(*s->track));
		ord_xml_scan_init(s->track, NULL, 0);
		s->track->start_tag = stream_tag;
		s->track->ud = s;
	}
	if (read)
		s->r = xmlReaderForIO(stream_read, stream_close, s, name, NULL,
				      XML_PARSE_NONET | XML_PARSE_NOWARNING |
					      (whole > ORD_XML_HUGE_BYTES ? XML_PARSE_HUGE : 0));
	else
		s->r = xmlReaderForMemory(bytes, (int)len, name, NULL,
					  XML_PARSE_NONET | XML_PARSE_NOWARNING |
						  (whole > ORD_XML_HUGE_BYTES ? XML_PARSE_HUGE : 0));
	if (!s->r) {
		err = ord_error_set(ORD_ERROR, "%s: out of memory", name);
		goto out;
	}
	xmlTextReaderSetStructuredErrorHandler(s->r, collect, &s->c);
	if (schema) {
		if (xmlTextReaderRelaxNGSetSchema(s->r, schema) != 0) {
			err = ord_error_set(ORD_ERROR, "%s: the schema cannot be set", name);
			goto out;
		}
		s->schema = 1;
	}
	*out = s;
	s = NULL;
out:
	ord_buf_release(&sc.msg);
	ord_xml_stream_free(s);
	return err;
}

int ord_xml_stream_open(struct ord_xml_stream **out, const char *bytes, size_t len, size_t max,
			const char *name, const char *rng_resource, const char *const *containers)
{
	return stream_open(out, bytes, len, max, name, rng_resource, containers, len, NULL, NULL);
}

int ord_xml_stream_open_read(struct ord_xml_stream **out, size_t len, size_t max, const char *name,
			     const char *rng_resource, const char *const *containers,
			     int (*read)(void *ud, char *buf, size_t off, size_t n), void *ud)
{
	if (len > max)
		return any_xml(ord_error_set(ORD_EBADDATA,
					     "%s: document of %zu bytes is larger than the limit of %zu bytes",
					     name, len, max));
	return stream_open(out, NULL, len, max, name, rng_resource, containers, len, read, ud);
}

int ord_xml_stream_open_part(struct ord_xml_stream **out, const char *bytes, size_t len,
			     size_t whole, const char *name, const char *const *containers)
{
	return stream_open(out, bytes, len, whole > len ? whole : len, name, NULL, containers,
			   whole, NULL, NULL);
}

/* The stream's error: what libxml2 said, else what; marked as what it
 * says (s->c.marks). */
static int stream_fail(struct ord_xml_stream *s, const char *what)
{
	if (s->c.msg.len)
		s->err = ord_error_set(ORD_EBADDATA, "%s", s->c.msg.buf);
	else
		s->err = ord_error_set(ORD_EBADDATA, "%s: %s", s->c.name, what);
	ord_error_mark(s->c.marks);
	return s->err;
}

int ord_xml_stream_next(struct ord_xml_stream *s)
{
	const char *ns, *enc;
	int rc, depth;

	if (s->err) {
		ord_error_set(s->err, "%s", s->c.msg.len ? s->c.msg.buf : "not read");
		ord_error_mark(s->c.marks);
		return s->err;
	}
	if (s->empty_end) {
		s->empty_end = 0;
		depth = xmlTextReaderDepth(s->r);
		if (depth >= 0 && depth < ORD_XML_MAX_DEPTH)
			s->node[depth] = NULL;
		return ORD_XML_END;
	}
	for (;;) {
		/* what libxml2 says apart from the reader's own context */
		xmlSetStructuredErrorFunc(&s->c, collect);
		rc = xmlTextReaderRead(s->r);
		xmlSetStructuredErrorFunc(NULL, NULL);
		/* the read's refusal, not what libxml2 makes of it */
		if (s->read_err) {
			s->err = ord_error_set(s->read_err, "%s", s->c.msg.buf);
			ord_error_mark(s->c.marks);
			return s->err;
		}
		if (rc < 0 || s->c.count)
			return stream_fail(s, "not well-formed XML");
		if (rc == 0) {
			if (s->schema && xmlTextReaderIsValid(s->r) != 1)
				return stream_fail(s, "does not match its schema");
			return ORD_XML_DONE;
		}
		switch (xmlTextReaderNodeType(s->r)) {
		case XML_READER_TYPE_ELEMENT:
			depth = xmlTextReaderDepth(s->r);
			if (depth < 0 || depth >= ORD_XML_MAX_DEPTH) {
				ord_buf_addf(&s->c.msg, "%s:%d: elements nested deeper than %d levels",
					     s->c.name, xmlTextReaderGetParserLineNumber(s->r),
					     ORD_XML_MAX_DEPTH);
				s->c.marks |= ORD_ERRMARK_ANY_XML;
				return stream_fail(s, "");
			}
			if (!(s->line[depth] = next_start_line(s, 1))) {
				ord_buf_addf(&s->c.msg, "%s: an element whose start tag was not found",
					     s->c.name);
				return stream_fail(s, "");
			}
			s->node[depth] = xmlTextReaderCurrentNode(s->r);
			/* the pre-scan misses a namespace written with character references */
			ns = (const char *)xmlTextReaderConstNamespaceUri(s->r);
			if (ns && (!strcmp(ns, xinclude_ns) || !strcmp(ns, xinclude_old_ns))) {
				ord_buf_addf(&s->c.msg, "%s:%u: XInclude is not accepted",
					     s->c.name, s->line[depth]);
				s->c.marks |= ORD_ERRMARK_ANY_XML;
				return stream_fail(s, "");
			}
			enc = (const char *)xmlTextReaderConstEncoding(s->r);
			if (!depth && enc && !ord_strcaseeq(enc, "UTF-8")) {
				ord_buf_addf(&s->c.msg,
					     "%s:1: encoding '%s' is not accepted; expected UTF-8",
					     s->c.name, enc);
				s->c.marks |= ORD_ERRMARK_ANY_XML;
				return stream_fail(s, "");
			}
			s->empty_end = xmlTextReaderIsEmptyElement(s->r) == 1;
			return ORD_XML_START;
		case XML_READER_TYPE_END_ELEMENT:
			depth = xmlTextReaderDepth(s->r);
			if (depth >= 0 && depth < ORD_XML_MAX_DEPTH)
				s->node[depth] = NULL;
			return ORD_XML_END;
		case XML_READER_TYPE_TEXT:
		case XML_READER_TYPE_CDATA:
		case XML_READER_TYPE_WHITESPACE:
		case XML_READER_TYPE_SIGNIFICANT_WHITESPACE: return ORD_XML_TEXT;
		case XML_READER_TYPE_ENTITY_REFERENCE:
		case XML_READER_TYPE_ENTITY:
			ord_buf_addf(&s->c.msg, "%s:%d: entity references are not accepted",
				     s->c.name, xmlTextReaderGetParserLineNumber(s->r));
			s->c.marks |= ORD_ERRMARK_ANY_XML;
			return stream_fail(s, "");
		case XML_READER_TYPE_DOCUMENT_TYPE:
			s->c.marks |= ORD_ERRMARK_ANY_XML;
			return stream_fail(s, "DTDs are not accepted");
		default: /* comments, processing instructions */ continue;
		}
	}
}

size_t ord_xml_stream_offset(const struct ord_xml_stream *s)
{
	return s->tag_off;
}

const char *ord_xml_stream_name(const struct ord_xml_stream *s)
{
	const xmlChar *n = xmlTextReaderConstName(s->r);

	return n ? (const char *)n : "";
}

int ord_xml_stream_depth(const struct ord_xml_stream *s)
{
	return xmlTextReaderDepth(s->r);
}

unsigned ord_xml_stream_line(const struct ord_xml_stream *s)
{
	int depth = xmlTextReaderDepth(s->r);

	return depth >= 0 && depth < ORD_XML_MAX_DEPTH ? s->line[depth] : 0;
}

char *ord_xml_stream_attr(const struct ord_xml_stream *s, const char *name)
{
	xmlChar *v = xmlTextReaderGetAttribute(s->r, (const xmlChar *)name);
	char *copy;

	if (!v)
		return NULL;
	copy = ord_strdup((const char *)v);
	xmlFree(v);
	return copy;
}

xmlNodePtr ord_xml_stream_node(struct ord_xml_stream *s, int expand)
{
	xmlNodePtr n;

	if (!expand)
		return xmlTextReaderCurrentNode(s->r);
	xmlSetStructuredErrorFunc(&s->c, collect);
	n = xmlTextReaderExpand(s->r);
	xmlSetStructuredErrorFunc(NULL, NULL);
	return s->c.count ? NULL : n;
}

const char *ord_xml_stream_text(const struct ord_xml_stream *s, size_t *len)
{
	const xmlChar *v = xmlTextReaderConstValue(s->r);

	*len = v ? strlen((const char *)v) : 0;
	return v ? (const char *)v : "";
}

void ord_xml_stream_free(struct ord_xml_stream *s)
{
	if (!s)
		return;
	if (s->r)
		xmlFreeTextReader(s->r);
	if (s->locked)
		pthread_mutex_unlock(&schemas_lock);
	ord_buf_release(&s->c.msg);
	free(s->track);
	free(s->tags);
	free(s);
}

char *ord_xml_attr(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
	char *s;

	if (!v)
		return NULL;
	s = ord_strdup((const char *)v);
	xmlFree(v);
	return s;
}

char *ord_xml_text(xmlNodePtr n)
{
	xmlChar *v = xmlNodeGetContent(n);
	char *s = ord_strdup(v ? (const char *)v : "");

	xmlFree(v);
	return s;
}

xmlNodePtr ord_xml_next(xmlNodePtr n, const char *name)
{
	for (; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE && (!name || !strcmp((const char *)n->name, name)))
			return n;
	return NULL;
}

xmlNodePtr ord_xml_child(xmlNodePtr parent, const char *name)
{
	return parent ? ord_xml_next(parent->children, name) : NULL;
}
