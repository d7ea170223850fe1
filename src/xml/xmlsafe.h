/*
 * xmlsafe.h - every XML file orderly reads goes through here: libxml2 with
 * no entity substitution, no DTD loading, no network, no XInclude, bounded
 * size and depth; then RelaxNG validation against an embedded schema.
 * Errors name the document, the line and what was expected.
 */
#ifndef ORD_XMLSAFE_H
#define ORD_XMLSAFE_H

#include <libxml/tree.h>
#include <stdint.h>
#include "core/common.h"

#define ORD_XML_MAX_BYTES (16u * 1024 * 1024) /* largest XML document accepted */
/* a larger document is parsed with XML_PARSE_HUGE (ord_xml_parse) */
#define ORD_XML_HUGE_BYTES (8u * 1024 * 1024)
#define ORD_XML_MAX_DEPTH 64 /* deepest element nesting accepted */
/* most attributes (namespace declarations included) on one element:
 * libxml2 compares each with every other, so that one tag of 100,000 of
 * them took minutes to refuse */
#define ORD_XML_MAX_ATTRS 256
/* the longest comment, processing instruction, CDATA section or tag
 * accepted: libxml2 2.9's push parser (its reader) reads one of more than
 * 10,000,000 bytes again for every 512 bytes it is given, so that one of
 * 12 MB took minutes and one of 200 MB would take hours (a red team's
 * finding); orderly writes none longer than a few hundred bytes */
#define ORD_XML_MAX_MARKUP (8 * 1024 * 1024)

/* Parse bytes into a document; name is used in messages.  Refuses any DOCTYPE,
 * entity declaration or reference, and documents over the limits. */
int ord_xml_parse(xmlDocPtr *out, const char *bytes, size_t len, const char *name);
/* Validate against an embedded RelaxNG schema ("schema/scenario.rng"). */
int ord_xml_validate(xmlDocPtr doc, const char *rng_resource, const char *name);
/* Parse, then validate. */
int ord_xml_load(xmlDocPtr *out, const char *bytes, size_t len, const char *name,
		 const char *rng_resource);
/* Read a file (bounded) and ord_xml_load it. */
int ord_xml_load_file(xmlDocPtr *out, const char *path, const char *rng_resource);

/*
 * A document read as a stream (libxml2's xmlTextReader): one node at a
 * time, validated against its schema as it is read, so that no tree of the
 * whole document is built (a tree costs about 14 times the bytes).  The
 * same safety as ord_xml_parse: the same pre-scan (UTF-8, no DOCTYPE, no
 * entity, no XInclude, ORD_XML_MAX_ATTRS) with the caller's size limit,
 * nesting refused deeper than ORD_XML_MAX_DEPTH before libxml2 reads it,
 * no network, no entity substitution, XML_PARSE_HUGE over
 * ORD_XML_HUGE_BYTES as ord_xml_parse.
 *
 * The validator holds an element whole when its schema cannot check it a
 * node at a time (one of text, or of a datatype): such an element with
 * elements inside would be a tree of any size.  So the caller names the
 * elements that hold elements (containers): any other element holds text
 * only, and an element inside it is refused by the pre-scan.
 *
 * Every read and every message is of the stream; the schemas' lock
 * (ord_xml_validate) is held from open to free: validate nothing else
 * in between.
 */
struct ord_xml_stream;
enum ord_xml_event {
	ORD_XML_DONE = 0,  /* the end of the document, which is valid */
	ORD_XML_START = 1, /* an element's start tag (name, depth, attributes) */
	ORD_XML_END,       /* its end (also given for <empty/>) */
	ORD_XML_TEXT,      /* character data (text or CDATA) inside an element */
};
/* Open a stream over the len bytes at bytes (which must outlive it), at
 * most max bytes; name is used in messages; containers is a NULL-ended
 * list, the root the schema starts with first (NULL: any element may hold
 * elements, and any root is the schema's to refuse). */
int ord_xml_stream_open(struct ord_xml_stream **out, const char *bytes, size_t len, size_t max,
			const char *name, const char *rng_resource, const char *const *containers);
/* ord_xml_stream_open of a document of len bytes read as it is parsed,
 * held nowhere whole: read(ud, buf, off, n) puts its n bytes at off in
 * buf, or returns an error (its code, its message set), which is the
 * stream's.  Its start tags are found as libxml2 is given its bytes.  The
 * pre-scan is the caller's, of the same bytes: ord_xml_check_start and
 * ord_xml_scan (with nesting and the containers) found nothing, and not
 * all of them white space; read must give those bytes again, or fail. */
int ord_xml_stream_open_read(struct ord_xml_stream **out, size_t len, size_t max, const char *name,
			     const char *rng_resource, const char *const *containers,
			     int (*read)(void *ud, char *buf, size_t off, size_t n), void *ud);
/* A stream over a part of a document of whole bytes that was read before
 * (with its schema), read with the limits the parser had for the whole
 * (XML_PARSE_HUGE past ORD_XML_HUGE_BYTES): a name or a text it read
 * whole is read in the part too.  No schema. */
int ord_xml_stream_open_part(struct ord_xml_stream **out, const char *bytes, size_t len,
			     size_t whole, const char *name, const char *const *containers);
/* The next event (enum ord_xml_event), or ORD_EBADDATA with the message
 * set ("NAME:LINE: what was expected"): not well-formed, not valid. */
int ord_xml_stream_next(struct ord_xml_stream *s);
/* The current element's name (START, END), its depth (the root 0). */
const char *ord_xml_stream_name(const struct ord_xml_stream *s);
int ord_xml_stream_depth(const struct ord_xml_stream *s);
/* The current element's line (as ord_xml_line: where libxml2 finished
 * its start tag). */
unsigned ord_xml_stream_line(const struct ord_xml_stream *s);
/* Where the element just started begins in the document: the offset of
 * its start tag's '<'. */
size_t ord_xml_stream_offset(const struct ord_xml_stream *s);
/* An attribute of the element just started, malloc'd (NULL if absent). */
char *ord_xml_stream_attr(const struct ord_xml_stream *s, const char *name);
/* The element just started (START) as libxml2's reader holds it: its
 * attributes, and its content too when expand is set (the reader reads
 * on to its end tag, and gives the content's events after).  Valid until
 * the next event; NULL when the content cannot be read. */
xmlNodePtr ord_xml_stream_node(struct ord_xml_stream *s, int expand);
/* The character data of a TEXT event, and its length. */
const char *ord_xml_stream_text(const struct ord_xml_stream *s, size_t *len);
void ord_xml_stream_free(struct ord_xml_stream *s);

/*
 * The pre-scan of a document, fed its bytes in pieces of any size: what
 * ord_xml_parse and ord_xml_stream_open check before libxml2 reads a byte
 * (a NUL, a DOCTYPE or ENTITY declaration, XInclude's namespace, a tag of
 * more than ORD_XML_MAX_ATTRS attributes, and with nesting set the
 * elements' nesting against the containers), found the same whatever the
 * pieces: a file too large to hold is scanned as it is read.  Only the
 * first finding of each kind is kept, by its offset; ord_xml_scan_clean
 * says whether there is none.  The XML declaration's encoding is not the
 * scan's (it wants the declaration whole: ord_xml_check_decl).
 */
enum ord_xml_scan_kind {
	ORD_XML_SCAN_NUL,
	ORD_XML_SCAN_DOCTYPE,
	ORD_XML_SCAN_ENTITY,
	ORD_XML_SCAN_ATTRS,
	ORD_XML_SCAN_XINCLUDE,     /* the namespace of 2001 */
	ORD_XML_SCAN_XINCLUDE_OLD, /* of 2003 */
	ORD_XML_SCAN_LONG,         /* markup of more than ORD_XML_MAX_MARKUP */
	ORD_XML_SCAN_NESTING,      /* the first of check_nesting's refusals */
	ORD_XML_SCAN_KINDS
};
enum ord_xml_nest_kind { ORD_XML_NEST_DEEP = 1, ORD_XML_NEST_ROOT, ORD_XML_NEST_INSIDE };
struct ord_xml_scan {
	const char *const *containers;
	int nesting;
	size_t at[ORD_XML_SCAN_KINDS];      /* where each was first found; SIZE_MAX: not */
	int nest_kind;                      /* enum ord_xml_nest_kind of at[NESTING] */
	char nest_tag[65], nest_parent[65]; /* the names it says, cut at 64 */
	size_t nonspace;                    /* the first byte not white space */
	/* the state between pieces */
	size_t off;     /* bytes fed */
	char carry[64]; /* the last bytes fed, for a word cut between pieces */
	size_t ncarry;
	int state;    /* in text, after '<', in markup, in a tag */
	char pend[9]; /* the bytes of a '<' not yet known as a tag or markup */
	size_t npend;
	int special;          /* the markup's kind (a comment, CDATA, a PI) */
	size_t since;         /* bytes since its opening */
	char last[2];         /* the last two of them */
	size_t tag_at;        /* the tag's '<' */
	size_t tag_len;       /* bytes after its '<' so far */
	char quote, c1, prev; /* quoting; the byte after '<'; the one before now */
	unsigned neq;         /* its '=' outside quotes */
	int name_done;
	size_t name_len;
	char name[64];
	int depth, stopped, root_seen;
	struct {
		char tag[64];
		int len, container;
	} open[ORD_XML_MAX_DEPTH];
	/* when set, called for each start tag as it ends: its '<' and the
	 * line of its '>' (as libxml2 counts an element's line); then the scan
	 * finds no NUL, no word, and nothing of the nesting unless nesting is
	 * set */
	void (*start_tag)(void *ud, size_t at, unsigned line);
	void *ud;
	unsigned line; /* the line of the byte fed last (kept when start_tag) */
};
void ord_xml_scan_init(struct ord_xml_scan *s, const char *const *containers, int nesting);
void ord_xml_scan_feed(struct ord_xml_scan *s, const char *p, size_t n);
/* The end of the document: 1 when nothing was found, else 0. */
int ord_xml_scan_end(struct ord_xml_scan *s);
/* The checks ord_xml_stream_open makes of the start of a document of len
 * bytes whose first n are at bytes (UTF-8: no BOM of UTF-16 or UTF-32, no
 * other encoding declared): 0, ORD_EBADDATA with the message, or 1 when
 * the declaration does not end in those n bytes. */
int ord_xml_check_start(const char *bytes, size_t n, size_t len, const char *name);

/* Where needle first stands in the len bytes at hay, or NULL. */
const char *ord_xml_find_bytes(const char *hay, size_t len, const char *needle);
/* At p (before end) in a well-formed document's bytes: the length of the
 * comment, CDATA section or processing instruction that starts there, its
 * end marker included (to end when it has none), or 0.  A scan for markup
 * steps over these: a '<' in one opens no tag. */
size_t ord_xml_special_len(const char *p, const char *end);

/* Where a document's lines and start tags are, to name the line an element
 * starts on (libxml2 gives an element the line its start tag ends on, and
 * a tag a club wrote over several lines is found by the line it begins)
 * and to find an element's own bytes. */
struct ord_xml_lines {
	const char *bytes;
	size_t len;
	size_t *start; /* start[i]: the offset of line i + 1 */
	size_t n;
	size_t *tags; /* the offset of each start tag's '<', in document order */
	size_t ntags;
};
/* Index the len bytes of the document doc was parsed from (ord_xml_parse):
 * its lines, its start tags, and doc's elements numbered in document order
 * (in each node's _private) as their start tags stand in the bytes; doc's
 * own _private points at l (ord_xml_line), so l must outlive every call of
 * ord_xml_line on doc's nodes; release it before or after the document. */
void ord_xml_lines_init(struct ord_xml_lines *l, const char *bytes, size_t len, xmlDocPtr doc);
void ord_xml_lines_release(struct ord_xml_lines *l);
/* The line and column (in characters, from 1) of the byte at p. */
void ord_xml_where(const struct ord_xml_lines *l, const char *p, unsigned *line, unsigned *col);
/* The '<' of element n's start tag, or NULL (n not numbered). */
const char *ord_xml_start_tag(const struct ord_xml_lines *l, xmlNodePtr n);
/* The line n's start tag begins on (n's own libxml2 line when n was not
 * numbered, or l is NULL). */
unsigned ord_xml_start_line(const struct ord_xml_lines *l, xmlNodePtr n);
/* ord_xml_start_line of n by the index its document points at: where its
 * start tag begins in a document indexed by ord_xml_lines_init, else the
 * line libxml2 gives it. */
unsigned ord_xml_line(xmlNodePtr n);
/* The bytes of element n as the document holds them, from its start tag's
 * '<' to its end tag's '>': 0, or -1 when not found. */
int ord_xml_element_bytes(const struct ord_xml_lines *l, xmlNodePtr n, const char **start, size_t *len);

/* An attribute as a malloc'd string (NULL if absent). */
char *ord_xml_attr(xmlNodePtr n, const char *name);
/* Text content of an element (malloc'd, never NULL). */
char *ord_xml_text(xmlNodePtr n);
/* Next element sibling named name (or any element when name is NULL). */
xmlNodePtr ord_xml_child(xmlNodePtr parent, const char *name);
xmlNodePtr ord_xml_next(xmlNodePtr n, const char *name);

#endif
