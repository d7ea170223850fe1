/*
 * map.h - the hex terrain map of a Krigsspil game (schema/krigsspil-map.rng):
 * plates 30 cm across in axial coordinates, each with its terrain, height
 * in contour steps (F) and linear features; positions in cm to plates;
 * what a straight move crosses; the map as text.
 *
 * Geometry: pointy-topped plates, P cm across the flats.  The centre of
 * plate (q, r) is at x = P (q + r/2), y = P (sqrt 3 / 2) r, with x to the
 * east and y to the south (as the map is printed).  Sides are numbered
 * from the east clockwise: 0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE; 6 is the
 * centre (a feature ending on the plate).
 *
 * Ownership: ks_map_load returns a map freed with ks_map_free; every
 * pointer into it lives as long as the map.
 */
#ifndef KS_MAP_H
#define KS_MAP_H

#include <libxml/tree.h>

#include "orderly.h"
#include "xml/xmlsafe.h"

#define KS_SIDE_CENTRE 6

struct ks_feature {
	char type[24];     /* vej sti vandloeb mur feltbefaestning vadested bro */
	int from, to;      /* sides 0..5, or KS_SIDE_CENTRE */
	double width;      /* cm, streams only (0: not given) */
	char obstacle[16]; /* ingen I II III impassabel, or "" for the Skema's class */
	int high;          /* a wall over 2 m: passable only at openings */
	unsigned line;     /* line of the <feature> element */
};

struct ks_plate {
	int q, r;
	char terrain[16]; /* aabent vanskeligt skov bebyggelse sump vand plantage */
	int height;       /* contour steps F */
	char *name;       /* optional, NULL */
	struct ks_feature *f;
	size_t nf;
	unsigned line;
};

struct ks_map {
	char *title;
	double plate_cm; /* across the flats */
	struct ks_plate *p;
	size_t n;
};

/* A crossing found along a move: a feature or a terrain edge.  Of an edge
 * the trace gives both sides; which of them is the obstacle is the rules'
 * (move.c, ks_edge_class). */
struct ks_crossing {
	int q, r;                   /* the plate it is on (the plate entered for an edge) */
	const char *what;           /* feature type, or the terrain entered (left when
				       entering open ground) */
	int edge;                   /* 1: a terrain edge, 0: a linear feature */
	const struct ks_feature *f; /* the feature, or NULL for an edge */
	const char *to;             /* an edge: the terrain entered */
	const char *from;           /* an edge: the terrain left ("aabent" off the map) */
	int from_q, from_r;         /* an edge: the plate left */
};

/* Load from an already parsed and validated <map> element.  plate_cm is the
 * width to use when the map does not give one.  ORD_EBADDATA naming name
 * and the line for duplicate plates and bad features. */
int ks_map_from_xml(struct ks_map **out, xmlNodePtr root, const struct ord_xml_lines *lines,
		    const char *name, double plate_cm);
void ks_map_free(struct ks_map *m);

/* The plate under a position in cm (nearest centre), or NULL if off the map. */
const struct ks_plate *ks_map_at(const struct ks_map *m, double x, double y);
const struct ks_plate *ks_map_plate(const struct ks_map *m, int q, int r);
/* The axial coordinates of the plate holding a position (on the map or not). */
void ks_map_axial(const struct ks_map *m, double x, double y, int *q, int *r);
/* The centre of a plate in cm. */
void ks_map_centre(const struct ks_map *m, int q, int r, double *x, double *y);

/* Everything a straight move from (x0, y0) to (x1, y1) crosses, in order:
 * linear features it cuts and the edges of terrain it enters or leaves.
 * Returns the number found (at most max). */
size_t ks_map_trace(const struct ks_map *m, double x0, double y0, double x1, double y1,
		    struct ks_crossing *out, size_t max);

/* A stretch of a straight move over plates of one terrain ("aabent" off
 * the map) and its length in cm. */
struct ks_segment {
	int q, r;            /* the plate */
	const char *terrain; /* the plate's terrain, or "aabent" off the map */
	double cm;           /* the length of the move over it */
};

/* The ground a straight move from (x0, y0) to (x1, y1) passes over, in
 * order: a stretch for each plate, plates of the same terrain in a row
 * joined (q, r: the first), with the length of the move over it (the
 * boundaries found by halving to well under a millimetre); returns the
 * number of stretches (at most max: the rest is added to the last). */
size_t ks_map_segments(const struct ks_map *m, double x0, double y0, double x1, double y1,
		       struct ks_segment *out, size_t max);

/* A side's name ("E", "SW", "C"), and its number from a name ("Ø" too). */
const char *ks_side_name(int side);
/* The side in Danish, as a map may write it too ("SØ", "V"): the Danish
 * listing of the map (mapprint.c). */
const char *ks_side_name_da(int side);
int ks_side_parse(const char *s);

#endif
