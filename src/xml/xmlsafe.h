/*
 * xmlsafe.h - every XML file orderly reads goes through here: libxml2 with
 * no entity substitution, no DTD loading, no network, no XInclude, bounded
 * size and depth; then RelaxNG validation against an embedded schema.
 * Errors name the document, the line and what was expected.
 */
#ifndef ORD_XMLSAFE_H
#define ORD_XMLSAFE_H

#include <libxml/tree.h>
#include "core/common.h"

#define ORD_XML_MAX_BYTES (16u * 1024 * 1024) /* largest XML document accepted */
#define ORD_XML_MAX_DEPTH 64                  /* deepest element nesting accepted */

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

/* Where needle first stands in the len bytes at hay, or NULL. */
const char *ord_xml_find_bytes(const char *hay, size_t len, const char *needle);
/* At p (before end) in a well-formed document's bytes: the length of the
 * comment, CDATA section or processing instruction that starts there, its
 * end marker included (to end when it has none), or 0.  A scan for markup
 * steps over these: a '<' in one opens no tag. */
size_t ord_xml_special_len(const char *p, const char *end);

/* An attribute as a malloc'd string (NULL if absent). */
char *ord_xml_attr(xmlNodePtr n, const char *name);
/* Text content of an element (malloc'd, never NULL). */
char *ord_xml_text(xmlNodePtr n);
/* Next element sibling named name (or any element when name is NULL). */
xmlNodePtr ord_xml_child(xmlNodePtr parent, const char *name);
xmlNodePtr ord_xml_next(xmlNodePtr n, const char *name);

#endif
