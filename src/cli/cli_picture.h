/*
 * cli_picture.h - what `orderly map` and `orderly chart` share: writing a
 * picture as SVG or, for an output file ending in .png, as PNG rendered
 * by librsvg (canvas.h, ord_svg_to_png).
 */
#ifndef ORD_CLI_PICTURE_H
#define ORD_CLI_PICTURE_H

#include "cli/cli.h"

/* Check -o and --scale before any work: FILE must end in .svg or .png
 * (case aside), --scale a number in (0, 8] and only for a PNG.  Prints
 * the usage error and returns its exit status, or 0. */
int cli_picture_args(const struct cli_cmd *cmd, const char *path, const char *scale);

/* Write svg to path (standard output when NULL or "-"): as it is, or as a
 * PNG at scale (NULL: 2) when path ends in .png.  path and scale are those
 * cli_picture_args accepted.  Prints the error and
 * returns the exit status, or 0. */
int cli_write_picture(const char *path, const struct ord_buf *svg, const char *scale);

#endif
