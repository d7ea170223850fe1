/*
 * png.c - an SVG document as a PNG (canvas.h, ord_svg_to_png): librsvg
 * reads the document from memory (with no base file, so it loads nothing
 * else) and renders it on a cairo image, which cairo encodes as PNG.
 * Used for pictures sent where SVG is not shown (mail attachments).
 *
 * Not in liborderly's archive: it is built alone, as orderly-png.so for the
 * orderly binary and as a static library for the tests (CMakeLists.txt).
 */
#include <math.h>
#include <string.h>

#include <cairo.h>
#include <librsvg/rsvg.h>

#include "canvas.h"

/* The largest picture rendered: 100 megapixels (400 MB of ARGB). */
#define MAX_PIXELS 100e6

static cairo_status_t write_png(void *closure, const unsigned char *data, unsigned int len)
{
	ord_buf_add(closure, data, len);
	return CAIRO_STATUS_SUCCESS;
}

int ord_svg_to_png(struct ord_buf *out, const char *svg, size_t len, double scale)
{
	GError *gerr = NULL;
	RsvgHandle *h = NULL;
	cairo_surface_t *surface = NULL;
	cairo_t *cr = NULL;
	RsvgRectangle vp;
	gdouble w = 0, ht = 0;
	int pw, ph, err = 0;

	if (scale <= 0)
		scale = 1;
	h = rsvg_handle_new_from_data((const guint8 *)svg, len, &gerr);
	if (!h) {
		err = ord_error_set(ORD_EBADDATA, "svg: librsvg cannot read the picture: %s",
				    gerr ? gerr->message : "unknown error");
		goto out;
	}
	if (!rsvg_handle_get_intrinsic_size_in_pixels(h, &w, &ht) || w <= 0 || ht <= 0) {
		err = ord_error_set(ORD_EBADDATA, "svg: the picture has no width and height in pixels");
		goto out;
	}
	if (w * scale * ht * scale > MAX_PIXELS) {
		err = ord_error_set(ORD_ERROR,
				    "svg: a PNG of %.0f x %.0f pixels is too large (at most %.0f megapixels)",
				    w * scale, ht * scale, MAX_PIXELS / 1e6);
		goto out;
	}
	pw = (int)ceil(w * scale);
	ph = (int)ceil(ht * scale);
	surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pw, ph);
	if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
		err = ord_error_set(ORD_ERROR, "svg: cannot make a %d x %d image", pw, ph);
		goto out;
	}
	cr = cairo_create(surface);
	vp.x = 0;
	vp.y = 0;
	vp.width = pw;
	vp.height = ph;
	if (!rsvg_handle_render_document(h, cr, &vp, &gerr)) {
		err = ord_error_set(ORD_EBADDATA, "svg: librsvg cannot render the picture: %s",
				    gerr ? gerr->message : "unknown error");
		goto out;
	}
	cairo_surface_flush(surface);
	if (cairo_surface_write_to_png_stream(surface, write_png, out) != CAIRO_STATUS_SUCCESS) {
		err = ord_error_set(ORD_ERROR, "svg: cannot encode the PNG");
		goto out;
	}
out:
	if (gerr)
		g_error_free(gerr);
	if (cr)
		cairo_destroy(cr);
	if (surface)
		cairo_surface_destroy(surface);
	if (h)
		g_object_unref(h);
	return err;
}

__attribute__((visibility("default"))) const struct ord_png *ord_png_plugin(void)
{
	static const struct ord_png table = { ORD_PNG_ABI, ORD_BUILD_ID, ord_svg_to_png };

	return &table;
}
