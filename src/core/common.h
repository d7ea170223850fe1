/*
 * common.h - small pieces every part of liborderly uses: key/value lists,
 * embedded resources, hex, reading files.  Internal (not installed).
 */
#ifndef ORD_COMMON_H
#define ORD_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include "orderly.h"

#define ORD_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* An ordered list of key=value strings (unit attributes, unit state, event
 * arguments, result values).  Keys are unique; set replaces in place, so the
 * order of first insertion is kept and serialisation is deterministic. */
struct ord_kv_item {
	char *key;
	char *value;
};
struct ord_kv {
	struct ord_kv_item *items;
	size_t n, alloc;
};
void ord_kv_init(struct ord_kv *kv);
void ord_kv_release(struct ord_kv *kv);
void ord_kv_copy(struct ord_kv *dst, const struct ord_kv *src); /* dst initialised */
const char *ord_kv_get(const struct ord_kv *kv, const char *key); /* NULL if absent */
void ord_kv_set(struct ord_kv *kv, const char *key, const char *value);
void ord_kv_setf(struct ord_kv *kv, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
void ord_kv_set_int(struct ord_kv *kv, const char *key, long v);
void ord_kv_del(struct ord_kv *kv, const char *key);
long ord_kv_get_int(const struct ord_kv *kv, const char *key, long def);
double ord_kv_get_num(const struct ord_kv *kv, const char *key, double def);
/* yes/no/true/false/1/0; def when absent or unreadable */
int ord_kv_get_bool(const struct ord_kv *kv, const char *key, int def);
/* "key=value\n" per item, in order. */
void ord_kv_serialize(const struct ord_kv *kv, struct ord_buf *out);
/* Inverse of ord_kv_serialize (appends to kv).  Returns 0 or ORD_EBADDATA. */
int ord_kv_parse(struct ord_kv *kv, const char *text);

/* Resources embedded at build time (cmake/embed.cmake). */
struct ord_resource {
	const char *name;            /* path relative to the source tree */
	const unsigned char *data;   /* NUL-terminated */
	size_t len;                  /* without the NUL */
};
extern const struct ord_resource ord_resources[];
const struct ord_resource *ord_resource_find(const char *name);

/* Read a whole regular file (max_len bytes at most).  Errors: ORD_ENOFILE
 * (missing), ORD_EBADDATA (a directory, too large). *out is NUL-terminated. */
int ord_read_file(char **out, size_t *len, const char *path, size_t max_len);

/* Hex encode (out has 2*len+1 bytes) and decode (returns bytes or -1). */
void ord_hex(char *out, const unsigned char *p, size_t len);
int ord_unhex(unsigned char *out, size_t max, const char *hex);

/* Parse a strict decimal integer / number; 0 on success, -1 otherwise. */
int ord_parse_long(const char *s, long *out);
int ord_parse_num(const char *s, double *out);
/* 1/0 for yes/no words, -1 if s is no boolean. */
int ord_parse_bool(const char *s);

/* strerror(e) with a lowercase first letter, as every message of orderly is
 * (a thread-local buffer, valid until the next call in this thread). */
const char *ord_strerror(int e);

/* Case-insensitive ASCII compare. */
int ord_strcaseeq(const char *a, const char *b);
char *ord_strdup(const char *s);     /* aborts on OOM, NULL stays NULL */
void *ord_xmalloc(size_t n);
void *ord_xcalloc(size_t n, size_t size);
void *ord_xrealloc(void *p, size_t n);

#endif
