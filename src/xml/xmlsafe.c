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
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <pthread.h>
#include <libxml/xmlerror.h>

#include "xml/xmlsafe.h"

#define MAX_MESSAGES 8

static const char xinclude_ns[] = "http://www.w3.org/2001/XInclude";
static const char xinclude_old_ns[] = "http://www.w3.org/2003/XInclude";

struct errcol {
	const char *name;
	struct ord_buf msg;
	int count;
};

static void collect(void *data, xmlErrorPtr e)
{
	struct errcol *c = data;
	size_t len;

	if (!e || e->level == XML_ERR_WARNING)
		return;
	if (c->count++ >= MAX_MESSAGES)
		return;
	if (c->msg.len)
		ord_buf_addch(&c->msg, '\n');
	if (e->line > 0)
		ord_buf_addf(&c->msg, "%s:%d: ", c->name, e->line);
	else
		ord_buf_addf(&c->msg, "%s: ", c->name);
	/* libxml2's own wording advises an option our users cannot set */
	if (e->message && !strncmp(e->message, "Excessive depth in document", 27))
		ord_buf_addf(&c->msg, "elements nested deeper than %d levels", ORD_XML_MAX_DEPTH);
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
	size_t n = strlen(needle), i;

	if (n > len)
		return NULL;
	for (i = 0; i + n <= len; i++)
		if (hay[i] == needle[0] && !memcmp(hay + i, needle, n))
			return hay + i;
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

	if (len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
		p += 3;
	if (p < end && *p != '<' && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
		return ord_error_set(ORD_EBADDATA,
				     "%s:1: does not start with '<'; expected an XML document in UTF-8",
				     name);
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
	return ord_error_set(ORD_EBADDATA, "%s:1: encoding '%.*s' is not accepted; expected UTF-8",
			     name, (int)(v - enc > 40 ? 40 : v - enc), enc);
}

/* Past the end of the markup that starts at p with open (a comment, a
 * CDATA section, a processing instruction): after its close, else end. */
static const char *skip_to(const char *p, const char *end, const char *close)
{
	const char *q = ord_xml_find_bytes(p, (size_t)(end - p), close);

	return q ? q + strlen(close) : end;
}

/* The first start tag with more than ORD_XML_MAX_ATTRS attributes (an '='
 * outside quotes between its '<' and '>'), or NULL: one pass, before
 * libxml2's pairwise check of them can take minutes. */
static const char *too_many_attrs(const char *p, const char *end)
{
	const char *tag;
	unsigned n;
	char quote;

	while ((p = memchr(p, '<', (size_t)(end - p))) != NULL) {
		if (end - p >= 4 && !memcmp(p, "<!--", 4)) {
			p = skip_to(p + 4, end, "-->");
			continue;
		}
		if (end - p >= 9 && !memcmp(p, "<![CDATA[", 9)) {
			p = skip_to(p + 9, end, "]]>");
			continue;
		}
		if (end - p >= 2 && p[1] == '?') {
			p = skip_to(p + 2, end, "?>");
			continue;
		}
		for (tag = p++, n = 0, quote = 0; p < end; p++) {
			if (quote)
				quote = *p == quote ? 0 : quote;
			else if (*p == '"' || *p == '\'')
				quote = *p;
			else if (*p == '>')
				break;
			else if (*p == '=' && ++n > ORD_XML_MAX_ATTRS)
				return tag;
		}
	}
	return NULL;
}

static int prescan(const char *bytes, size_t len, const char *name)
{
	const char *p;
	int err;

	if (len > ORD_XML_MAX_BYTES)
		return ord_error_set(ORD_EBADDATA,
				     "%s: document of %zu bytes is larger than the limit of %u bytes",
				     name, len, ORD_XML_MAX_BYTES);
	if (len >= 2 && ((unsigned char)bytes[0] == 0xFE || (unsigned char)bytes[0] == 0xFF ||
			 bytes[0] == '\0' || bytes[1] == '\0'))
		return ord_error_set(ORD_EBADDATA,
				     "%s:1: not UTF-8 (a UTF-16 or UTF-32 document); expected UTF-8",
				     name);
	if ((p = memchr(bytes, '\0', len)) != NULL)
		return ord_error_set(ORD_EBADDATA, "%s:%u: contains a NUL byte; expected UTF-8 text",
				     name, line_of(bytes, (size_t)(p - bytes)));
	if ((err = check_utf8_decl(bytes, len, name)) != 0)
		return err;
	if ((p = ord_xml_find_bytes(bytes, len, "<!DOCTYPE")) != NULL)
		return ord_error_set(ORD_EBADDATA,
				     "%s:%u: DOCTYPE declarations are not accepted (entities and DTDs are refused); expected a plain XML document",
				     name, line_of(bytes, (size_t)(p - bytes)));
	if ((p = ord_xml_find_bytes(bytes, len, "<!ENTITY")) != NULL)
		return ord_error_set(ORD_EBADDATA, "%s:%u: entity declarations are not accepted",
				     name, line_of(bytes, (size_t)(p - bytes)));
	if ((p = too_many_attrs(bytes, bytes + len)) != NULL)
		return ord_error_set(ORD_EBADDATA,
				     "%s:%u: an element with more than %d attributes; expected at most %d",
				     name, line_of(bytes, (size_t)(p - bytes)), ORD_XML_MAX_ATTRS,
				     ORD_XML_MAX_ATTRS);
	if ((p = ord_xml_find_bytes(bytes, len, xinclude_ns)) != NULL ||
	    (p = ord_xml_find_bytes(bytes, len, xinclude_old_ns)) != NULL)
		return ord_error_set(ORD_EBADDATA, "%s:%u: XInclude is not accepted", name,
				     line_of(bytes, (size_t)(p - bytes)));
	return 0;
}

static int check_tree(xmlNodePtr n, int depth, const char *name)
{
	for (; n; n = n->next) {
		if (n->type == XML_ENTITY_REF_NODE || n->type == XML_ENTITY_NODE ||
		    n->type == XML_XINCLUDE_START)
			return ord_error_set(ORD_EBADDATA, "%s:%ld: entity references are not accepted",
					     name, xmlGetLineNo(n));
		/* the pre-scan misses a namespace written with character references */
		if (n->type == XML_ELEMENT_NODE && n->ns && n->ns->href &&
		    (!strcmp((const char *)n->ns->href, xinclude_ns) ||
		     !strcmp((const char *)n->ns->href, xinclude_old_ns)))
			return ord_error_set(ORD_EBADDATA, "%s:%ld: XInclude is not accepted", name,
					     xmlGetLineNo(n));
		if (n->type == XML_ELEMENT_NODE) {
			if (depth >= ORD_XML_MAX_DEPTH)
				return ord_error_set(ORD_EBADDATA,
						     "%s:%ld: elements nested deeper than %d levels",
						     name, xmlGetLineNo(n), ORD_XML_MAX_DEPTH);
			if (check_tree(n->children, depth + 1, name))
				return ORD_EBADDATA;
		}
	}
	return 0;
}

int ord_xml_parse(xmlDocPtr *out, const char *bytes, size_t len, const char *name)
{
	struct errcol c = { name, ORD_BUF_INIT, 0 };
	xmlParserCtxtPtr ctxt = NULL;
	xmlDocPtr doc = NULL;
	int err = 0;

	*out = NULL;
	harden_once();
	if ((err = prescan(bytes, len, name)) != 0)
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
		if (c.msg.len)
			err = ord_error_set(ORD_EBADDATA, "%s", c.msg.buf);
		else
			err = ord_error_set(ORD_EBADDATA, "%s: not well-formed XML", name);
		goto out;
	}
	if (doc->intSubset || doc->extSubset) {
		err = ord_error_set(ORD_EBADDATA, "%s: DTDs are not accepted", name);
		goto out;
	}
	if (doc->encoding && !ord_strcaseeq((const char *)doc->encoding, "UTF-8")) {
		err = ord_error_set(ORD_EBADDATA, "%s:1: encoding '%s' is not accepted; expected UTF-8",
				    name, (const char *)doc->encoding);
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
	struct errcol c = { name, ORD_BUF_INIT, 0 };
	struct errcol sc = { rng_resource, ORD_BUF_INIT, 0 };
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
	if (rc != 0)
		err = ord_error_set(ORD_EBADDATA, "%s",
				    c.msg.len ? c.msg.buf : "does not match its schema");
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
