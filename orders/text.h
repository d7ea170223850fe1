/*
 * text.h - reading the UTF-8 text of an order sheet, shared by the
 * notations: decoding, counting columns in characters, and what counts as
 * a space between tokens.
 */
#ifndef ORD_TEXT_H
#define ORD_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Decode the UTF-8 sequence at s (s < end): its length in bytes and its code
 * point, or 0 when it is not well-formed (overlong, surrogate, beyond
 * U+10FFFF, cut short). */
size_t ord_utf8_decode(const unsigned char *s, const unsigned char *end, uint32_t *cp);
/* Characters in the valid UTF-8 from s to e: every byte but continuation bytes. */
unsigned ord_utf8_count(const unsigned char *s, const unsigned char *e);
/* Does the code point separate tokens like a plain space? */
int ord_text_is_space(uint32_t cp);
/* Bytes of the space at s (valid UTF-8), or 0 if s is not at a space. */
size_t ord_text_space_at(const unsigned char *s, const unsigned char *end);

#endif
