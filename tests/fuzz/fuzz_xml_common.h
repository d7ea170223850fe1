/*
 * fuzz_xml_common.h - for the targets that read XML (scenario, tables):
 * after xmlsafe has installed its own refusing loader, put one over it that
 * aborts, so that any attempt by libxml2 to open a file or URL while
 * reading a fuzzed document is a finding, not a silent refusal.
 */
#ifndef ORD_FUZZ_XML_COMMON_H
#define ORD_FUZZ_XML_COMMON_H

#include <libxml/parser.h>

#include "xml/xmlsafe.h"

static xmlParserInputPtr fuzz_abort_loader(const char *url, const char *id, xmlParserCtxtPtr ctxt)
{
	(void)ctxt;
	fuzz_fail("libxml2 tried to load an external resource: url '%s' id '%s'",
		  url ? url : "(null)", id ? id : "(null)");
	return NULL;
}

static void fuzz_xml_init(void)
{
	xmlDocPtr doc;

	if (ord_xml_parse(&doc, "<r/>", 4, "init") != 0)
		fuzz_fail("cannot parse <r/>: %s", ord_error_last());
	xmlFreeDoc(doc);
	xmlSetExternalEntityLoader(fuzz_abort_loader);
}

#endif
