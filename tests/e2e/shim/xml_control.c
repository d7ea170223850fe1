/*
 * xml_control.c - the control of tests/e2e/test_hostile_xml.sh: libxml2
 * used the unsafe way (entities substituted, DTDs loaded, XInclude done,
 * the network allowed) on one file.  Run under the openlog shim on the
 * hostile documents, it must show the opens that orderly never makes;
 * otherwise the shim, not orderly, would be what sees nothing.
 */
#include <stdio.h>

#include <libxml/parser.h>
#include <libxml/xinclude.h>

static void quiet(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

int main(int argc, char **argv)
{
	xmlDocPtr doc;

	if (argc != 2) {
		fprintf(stderr, "usage: xml_control FILE.xml\n");
		return 64;
	}
	xmlSetGenericErrorFunc(NULL, quiet);
	doc = xmlReadFile(argv[1], NULL,
			  XML_PARSE_NOENT | XML_PARSE_DTDLOAD | XML_PARSE_DTDATTR | XML_PARSE_XINCLUDE);
	if (doc) {
		xmlXIncludeProcess(doc);
		xmlFreeDoc(doc);
	}
	return 0;
}
