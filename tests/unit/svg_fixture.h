/*
 * svg_fixture.h - what the suites that read a drawn map's SVG share
 * (check_pictures.c, check_canvas_labels.c): an element's attribute as a
 * number and whether it has a class.  Included once by each suite: its
 * functions are the suite's own.
 */
#ifndef ORD_TEST_SVG_FIXTURE_H
#define ORD_TEST_SVG_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

/* Attribute name of n as a number (0 when it has none). */
static double prop_num(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, BAD_CAST name);
	double d = v ? atof((const char *)v) : 0;

	xmlFree(v);
	return d;
}

/* n's class is cls. */
static int has_class(xmlNodePtr n, const char *cls)
{
	xmlChar *v = xmlGetProp(n, BAD_CAST "class");
	int yes = v && !strcmp((const char *)v, cls);

	xmlFree(v);
	return yes;
}

#endif
