/* kv.c - ordered key=value lists (unit attributes and state, event arguments). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/common.h"

void ord_kv_init(struct ord_kv *kv)
{
	kv->items = NULL;
	kv->n = kv->alloc = 0;
}

void ord_kv_release(struct ord_kv *kv)
{
	size_t i;

	for (i = 0; i < kv->n; i++) {
		free(kv->items[i].key);
		free(kv->items[i].value);
	}
	free(kv->items);
	ord_kv_init(kv);
}

void ord_kv_copy(struct ord_kv *dst, const struct ord_kv *src)
{
	size_t i;

	for (i = 0; i < src->n; i++)
		ord_kv_set(dst, src->items[i].key, src->items[i].value);
}

static struct ord_kv_item *find(const struct ord_kv *kv, const char *key)
{
	size_t i;

	for (i = 0; i < kv->n; i++)
		if (!strcmp(kv->items[i].key, key))
			return &kv->items[i];
	return NULL;
}

const char *ord_kv_get(const struct ord_kv *kv, const char *key)
{
	struct ord_kv_item *it = find(kv, key);
	return it ? it->value : NULL;
}

void ord_kv_set(struct ord_kv *kv, const char *key, const char *value)
{
	struct ord_kv_item *it = find(kv, key);

	if (it) {
		char *v = ord_strdup(value);
		free(it->value);
		it->value = v;
		return;
	}
	if (kv->n == kv->alloc) {
		kv->alloc = kv->alloc ? 2 * kv->alloc : 8;
		kv->items = ord_xrealloc(kv->items, kv->alloc * sizeof(*kv->items));
	}
	kv->items[kv->n].key = ord_strdup(key);
	kv->items[kv->n].value = ord_strdup(value);
	kv->n++;
}

void ord_kv_setf(struct ord_kv *kv, const char *key, const char *fmt, ...)
{
	struct ord_buf b = ORD_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	ord_buf_vaddf(&b, fmt, ap);
	va_end(ap);
	ord_kv_set(kv, key, b.buf);
	ord_buf_release(&b);
}

void ord_kv_set_int(struct ord_kv *kv, const char *key, long v)
{
	ord_kv_setf(kv, key, "%ld", v);
}

void ord_kv_del(struct ord_kv *kv, const char *key)
{
	struct ord_kv_item *it = find(kv, key);
	size_t i;

	if (!it)
		return;
	i = (size_t)(it - kv->items);
	free(it->key);
	free(it->value);
	memmove(&kv->items[i], &kv->items[i + 1], (kv->n - i - 1) * sizeof(*it));
	kv->n--;
}

long ord_kv_get_int(const struct ord_kv *kv, const char *key, long def)
{
	long v;
	const char *s = ord_kv_get(kv, key);

	if (!s || ord_parse_long(s, &v))
		return def;
	return v;
}

double ord_kv_get_num(const struct ord_kv *kv, const char *key, double def)
{
	double v;
	const char *s = ord_kv_get(kv, key);

	if (!s || ord_parse_num(s, &v))
		return def;
	return v;
}

int ord_kv_get_bool(const struct ord_kv *kv, const char *key, int def)
{
	int v = ord_parse_bool(ord_kv_get(kv, key));
	return v < 0 ? def : v;
}

void ord_kv_serialize(const struct ord_kv *kv, struct ord_buf *out)
{
	size_t i;

	for (i = 0; i < kv->n; i++)
		ord_buf_addf(out, "%s=%s\n", kv->items[i].key, kv->items[i].value);
}

int ord_kv_parse(struct ord_kv *kv, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n'), *eq;
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = ord_xmalloc(len + 1);

		memcpy(line, p, len);
		line[len] = '\0';
		eq = strchr(line, '=');
		if (!eq || eq == line) {
			free(line);
			return ord_error_set(ORD_EBADDATA, "malformed key=value line");
		}
		line[eq - line] = '\0';
		ord_kv_set(kv, line, eq + 1);
		free(line);
		p += len;
		if (*p == '\n')
			p++;
	}
	return 0;
}
