/*
 * cli_picture.c - writing a picture as SVG or PNG (cli_picture.h).
 */
#include <stdlib.h>
#include <string.h>

#include "canvas.h"
#include "cli/cli_keys.h"
#include "cli/cli_picture.h"

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && ord_strcaseeq(s + n - m, tail);
}

static int is_png(const char *path)
{
	return path && strcmp(path, "-") != 0 && ends_with(path, ".png");
}

int cli_picture_args(const struct cli_cmd *cmd, const char *path, const char *scale)
{
	double k;

	if (path && strcmp(path, "-") != 0 && !ends_with(path, ".svg") && !ends_with(path, ".png"))
		return cli_usage_error(cmd,
				       "-o '%s': a picture is written as FILE.svg or FILE.png "
				       "(or to standard output without -o)",
				       path);
	if (scale && (ord_parse_num(scale, &k) || k <= 0 || k > 8))
		return cli_usage_error(cmd, "--scale '%s' (expected a number above 0, at most 8)",
				       scale);
	if (scale && !is_png(path))
		return cli_usage_error(cmd, "--scale is for a PNG (-o FILE.png)");
	return 0;
}

int cli_write_picture(const char *path, const struct ord_buf *svg, const char *scale)
{
	struct ord_buf png = ORD_BUF_INIT;
	double k = 2;
	int rc;

	if (scale)
		ord_parse_num(scale, &k); /* checked by cli_picture_args */
	if (!is_png(path))
		return cli_write_output(path, svg->buf, svg->len);
	if ((rc = ord_svg_to_png(&png, svg->buf, svg->len, k)) < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	rc = cli_write_output(path, png.buf, png.len);
out:
	ord_buf_release(&png);
	return rc;
}
