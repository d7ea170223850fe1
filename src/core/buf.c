/* buf.c - ord_buf, the growable byte buffer, and small string helpers. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "core/common.h"
#include "core/lookalike.h"

char ord_buf__empty[1];

void ord_malloc_tune(void)
{
#if defined(__GLIBC__)
	/* glibc raises its mmap threshold to the largest block freed (up
	 * to 32 MiB): a replay's arrays of megabytes then come from the
	 * heap, and as phases free them and make others they leave holes
	 * the heap cannot give back.  Held at its first value, every block
	 * of 128 KiB or more is mapped alone and given back when freed:
	 * the verify of a turn of 100,000 units peaked 6 MB lower, the
	 * audit 4.7 MB (docs/benchmarks.md) */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

void *ord_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		abort();
	return p;
}

void *ord_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		abort();
	return p;
}

void *ord_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		abort();
	return p;
}

char *ord_strdup(const char *s)
{
	size_t n;
	char *p;

	if (!s)
		return NULL;
	n = strlen(s) + 1;
	p = ord_xmalloc(n);
	memcpy(p, s, n);
	return p;
}

void ord_buf_init(struct ord_buf *b)
{
	b->buf = ord_buf__empty;
	b->len = 0;
	b->alloc = 0;
}

void ord_buf_release(struct ord_buf *b)
{
	if (b->alloc)
		free(b->buf);
	ord_buf_init(b);
}

char *ord_buf_detach(struct ord_buf *b, size_t *len)
{
	char *p;

	if (!b->alloc)
		ord_buf_grow(b, 1);
	p = b->buf;
	if (len)
		*len = b->len;
	ord_buf_init(b);
	return p;
}

void ord_buf_grow(struct ord_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;

	if (need < b->len)
		abort();
	if (need <= b->alloc)
		return;
	{
		size_t n = b->alloc ? b->alloc : 64;
		while (n < need)
			n *= 2;
		if (!b->alloc) {
			b->buf = ord_xmalloc(n);
			b->buf[0] = '\0';
		} else {
			b->buf = ord_xrealloc(b->buf, n);
		}
		b->alloc = n;
	}
}

void ord_buf_add(struct ord_buf *b, const void *data, size_t len)
{
	if (b->len + len >= b->alloc || b->len + len < b->len)
		ord_buf_grow(b, len);
	if (len)
		memcpy(b->buf + b->len, data, len);
	b->len += len;
	b->buf[b->len] = '\0';
}

void ord_buf_adds(struct ord_buf *b, const char *s)
{
	ord_buf_add(b, s, strlen(s));
}

void ord_buf_addch(struct ord_buf *b, int c)
{
	if (b->len + 1 >= b->alloc)
		ord_buf_grow(b, 1);
	b->buf[b->len++] = (char)c;
	b->buf[b->len] = '\0';
}

/* The conversions simple_format writes itself. */
enum simple_arg { ARG_S, ARG_D, ARG_U, ARG_LD, ARG_LU, ARG_ZU };

#define SIMPLE_ARGS 8

/* Digits of v (negative: with '-') at the end of a 24-byte p; their start. */
static char *digits(char *end, unsigned long long v, int negative)
{
	*--end = '\0';
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (negative)
		*--end = '-';
	return end;
}

/*
 * fmt written into b without vsnprintf when its conversions are only %s,
 * %d, %u, %ld, %lu, %zu and %% (no flags, widths or precisions), at most
 * SIMPLE_ARGS of them: the explanations of results, rows and events are
 * written by the thousand a phase, and vsnprintf spent 3,600 instructions
 * on a "%s: %s".  The same bytes as vsnprintf (a null string as
 * "(null)", as glibc's).  0 when fmt is not such a format: nothing of ap
 * is taken, and the caller formats it.
 */
static int simple_format(struct ord_buf *b, const char *fmt, va_list ap)
{
	enum simple_arg type[SIMPLE_ARGS];
	const char *str[SIMPLE_ARGS];
	char num[SIMPLE_ARGS][24];
	size_t len[SIMPLE_ARGS], n = 0, i, total = 0;
	const char *f;
	char *out;

	for (f = fmt; *f; f++) {
		if (*f != '%')
			continue;
		f++;
		if (*f == '%')
			continue;
		if (n == SIMPLE_ARGS)
			return 0;
		if (*f == 's')
			type[n++] = ARG_S;
		else if (*f == 'd')
			type[n++] = ARG_D;
		else if (*f == 'u')
			type[n++] = ARG_U;
		else if (*f == 'l' && f[1] == 'd' && ++f)
			type[n++] = ARG_LD;
		else if (*f == 'l' && f[1] == 'u' && ++f)
			type[n++] = ARG_LU;
		else if (*f == 'z' && f[1] == 'u' && ++f)
			type[n++] = ARG_ZU;
		else
			return 0;
	}
	for (i = 0; i < n; i++) {
		char *end = num[i] + sizeof(num[i]);
		long long v;
		unsigned long long u;

		switch (type[i]) {
		case ARG_S:
			str[i] = va_arg(ap, const char *);
			if (!str[i])
				str[i] = "(null)";
			/* a string of the buffer itself would move as it grows */
			if (b->alloc && (uintptr_t)str[i] >= (uintptr_t)b->buf &&
			    (uintptr_t)str[i] < (uintptr_t)b->buf + b->alloc)
				return -1;
			len[i] = strlen(str[i]);
			break;
		case ARG_D:
		case ARG_LD:
			v = type[i] == ARG_D ? va_arg(ap, int) : va_arg(ap, long);
			u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
			str[i] = digits(end, u, v < 0);
			len[i] = (size_t)(end - 1 - str[i]);
			break;
		default:
			u = type[i] == ARG_U    ? va_arg(ap, unsigned)
			    : type[i] == ARG_LU ? va_arg(ap, unsigned long)
						: va_arg(ap, size_t);
			str[i] = digits(end, u, 0);
			len[i] = (size_t)(end - 1 - str[i]);
			break;
		}
		total += len[i];
	}
	total += strlen(fmt);
	ord_buf_grow(b, total);
	out = b->buf + b->len;
	for (f = fmt, i = 0; *f; f++) {
		if (*f != '%') {
			*out++ = *f;
			continue;
		}
		f++;
		if (*f == '%') {
			*out++ = '%';
			continue;
		}
		if (*f == 'l' || *f == 'z')
			f++;
		memcpy(out, str[i], len[i]);
		out += len[i];
		i++;
	}
	*out = '\0';
	b->len = (size_t)(out - b->buf);
	return 1;
}

void ord_buf_vaddf(struct ord_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	size_t room;
	int n;

	va_copy(cp, ap);
	n = simple_format(b, fmt, cp);
	va_end(cp);
	if (n > 0)
		return;
	if (n < 0) {
		/* a string of its own: formatted apart, then added */
		struct ord_buf t = ORD_BUF_INIT;
		va_copy(cp, ap);
		ord_buf_vaddf(&t, fmt, cp);
		va_end(cp);
		ord_buf_add(b, t.buf, t.len);
		ord_buf_release(&t);
		return;
	}

	/* written where it fits, and formatted again only when it does
	 * not: measured first, every string was formatted twice (a tenth of
	 * an audit's instructions were vsnprintf's) */
	ord_buf_grow(b, 0);
	room = b->alloc - b->len;
	va_copy(cp, ap);
	n = vsnprintf(b->buf + b->len, room, fmt, cp);
	va_end(cp);
	if (n < 0) {
		b->buf[b->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		ord_buf_grow(b, (size_t)n);
		vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

void ord_buf_addf(struct ord_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ord_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void ord_buf_reset(struct ord_buf *b)
{
	b->len = 0;
	if (b->alloc)
		b->buf[0] = '\0';
}

void ord_buf_add_xml(struct ord_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);

	while (p < end) {
		uint32_t c;
		size_t k;

		switch (*p) {
		case '<': ord_buf_adds(b, "&lt;"); break;
		case '>': ord_buf_adds(b, "&gt;"); break;
		case '&': ord_buf_adds(b, "&amp;"); break;
		case '"': ord_buf_adds(b, "&quot;"); break;
		case '\'': ord_buf_adds(b, "&apos;"); break;
		default:
			if (*p < 0x20 && *p != '\n' && *p != '\t' && *p != '\r') {
				ord_buf_adds(b, "&#xFFFD;"); /* no XML 1.0 holds it */
			} else if (*p == 0x7F) {
				ord_buf_adds(b, "&#x7F;");
			} else if (*p < 0x80) {
				ord_buf_addch(b, (char)*p);
			} else if (!(k = ord_utf8_decode(p, end, &c))) {
				ord_buf_adds(b, "&#xFFFD;"); /* a byte that is no UTF-8 */
			} else {
				/* a character a reader does not see or that turns
				 * what he reads (a bidirectional override, a C1
				 * control: ord_name_char_hidden) as a numeric
				 * reference: the same text to an XML reader, and
				 * never acted on by a terminal or an editor that
				 * shows the file (attack 43) */
				if (ord_name_char_hidden(c))
					ord_buf_addf(b, "&#x%X;", (unsigned)c);
				else
					ord_buf_add(b, (const char *)p, k);
				p += k;
				continue;
			}
		}
		p++;
	}
}

size_t ord_lower_bound(size_t n, int64_t want, int64_t (*key)(const void *ud, size_t i), const void *ud)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (key(ud, mid) < want)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void ord_hex(char *out, const unsigned char *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * len] = '\0';
}

void ord_buf_add_hex(struct ord_buf *b, const unsigned char *p, size_t len)
{
	ord_buf_grow(b, 2 * len);
	ord_hex(b->buf + b->len, p, len);
	b->len += 2 * len;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int ord_unhex(unsigned char *out, size_t max, const char *hex)
{
	size_t n = strlen(hex), i;

	if (n % 2 || n / 2 > max)
		return -1;
	for (i = 0; i < n / 2; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return (int)(n / 2);
}

int ord_parse_long(const char *s, long *out)
{
	const char *digits, *p;
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	/* a few digits, perhaps after a minus, as states and results hold
	 * them (every state read parses one): read here, strtol's overflow
	 * cannot happen in 18 digits; anything else as strtol reads it */
	digits = s + (*s == '-');
	for (p = digits, v = 0; p - digits < 18 && *p >= '0' && *p <= '9'; p++)
		v = 10 * v + (*p - '0');
	if (!*p && p > digits) {
		*out = *s == '-' ? -v : v;
		return 0;
	}
	if (isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int ord_parse_num(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	/* plain decimals only: no hex floats, inf or nan */
	for (const char *p = s; *p; p++)
		if (!isdigit((unsigned char)*p) && *p != '.' && *p != '-' && *p != '+')
			return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

const char *ord_strerror(int e)
{
	static _Thread_local char buf[128];

	snprintf(buf, sizeof(buf), "%s", strerror(e));
	buf[0] = (char)tolower((unsigned char)buf[0]);
	return buf;
}

int ord_strcaseeq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return 0;
	return *a == *b;
}

int ord_parse_bool(const char *s)
{
	if (!s)
		return -1;
	if (ord_strcaseeq(s, "yes") || ord_strcaseeq(s, "true") || !strcmp(s, "1") ||
	    ord_strcaseeq(s, "y"))
		return 1;
	if (ord_strcaseeq(s, "no") || ord_strcaseeq(s, "false") || !strcmp(s, "0") ||
	    ord_strcaseeq(s, "n"))
		return 0;
	return -1;
}

int ord_read_file(char **out, size_t *len, const char *path, size_t max_len)
{
	struct stat st;
	struct ord_buf b = ORD_BUF_INIT;
	FILE *f = NULL;
	char chunk[65536];
	size_t n;
	int err = 0;

	*out = NULL;
	if (stat(path, &st) < 0) {
		return ord_error_set(ORD_ENOFILE, "cannot read '%s': %s", path, ord_strerror(errno));
	}
	if (S_ISDIR(st.st_mode))
		return ord_error_set(ORD_EBADDATA, "'%s' is a directory, not a file", path);
	f = fopen(path, "rb");
	if (!f)
		return ord_error_set(ORD_ENOFILE, "cannot open '%s': %s", path, ord_strerror(errno));
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (b.len + n > max_len) {
			err = ord_error_set(ORD_EBADDATA, "'%s' is larger than %zu bytes", path,
					    max_len);
			goto out;
		}
		ord_buf_add(&b, chunk, n);
	}
	if (ferror(f)) {
		err = ord_error_set(ORD_ERROR, "cannot read '%s': %s", path, ord_strerror(errno));
		goto out;
	}
	*out = ord_buf_detach(&b, len);
out:
	fclose(f);
	ord_buf_release(&b);
	return err;
}

const struct ord_resource *ord_resource_find(const char *name)
{
	const struct ord_resource *r;

	for (r = ord_resources; r->name; r++)
		if (!strcmp(r->name, name))
			return r;
	return NULL;
}

/* ---- an arena of strings (common.h) ---- */

struct ord_arena_block {
	struct ord_arena_block *next;
	size_t used, size;
	char data[];
};

/* The largest block: 64 KiB with malloc's header, under the size glibc
 * gives its own mapping. */
#define ARENA_MAX (64 * 1024 - sizeof(struct ord_arena_block) - 64)

void ord_arena_init(struct ord_arena *a)
{
	a->head = NULL;
	a->next = 0;
}

void ord_arena_release(struct ord_arena *a)
{
	struct ord_arena_block *b, *next;

	for (b = a->head; b; b = next) {
		next = b->next;
		free(b);
	}
	ord_arena_init(a);
}

char *ord_arena_strn(struct ord_arena *a, const char *s, size_t len)
{
	char *p = ord_arena_alloc(a, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *ord_arena_alloc(struct ord_arena *a, size_t n)
{
	struct ord_arena_block *b = a->head;
	size_t len = n - 1; /* as a string of len bytes and its NUL */
	char *p;

	if (len + 1 > ARENA_MAX / 8) {
		/* a block of its own, behind the one being filled */
		b = ord_xmalloc(sizeof(*b) + len + 1);
		b->used = b->size = len + 1;
		if (a->head) {
			b->next = a->head->next;
			a->head->next = b;
		} else {
			b->next = NULL;
			a->head = b;
		}
		p = b->data;
	} else {
		if (!b || b->size - b->used < len + 1) {
			/* a few strings take a small block; many, blocks of 64 KiB */
			size_t size = a->next ? a->next : 1024 - sizeof(*b) - 64;
			a->next = 2 * size + sizeof(*b) + 64 > ARENA_MAX ? ARENA_MAX
									 : 2 * size + sizeof(*b) + 64;
			if (size < len + 1)
				size = len + 1;
			b = ord_xmalloc(sizeof(*b) + size);
			b->next = a->head;
			b->used = 0;
			b->size = size;
			a->head = b;
		}
		p = b->data + b->used;
		b->used += len + 1;
	}
	return p;
}

char *ord_arena_str(struct ord_arena *a, const char *s)
{
	return s ? ord_arena_strn(a, s, strlen(s)) : NULL;
}

/* ---- a file read in pieces (common.h) ---- */

int ord_fd_pieces(int fd, size_t len, const char *what,
		  int (*fn)(void *ud, const char *piece, size_t n, size_t off), void *ud)
{
	const size_t piece = (size_t)64 * 1024;
	char *buf = ord_xmalloc(len < piece ? len + 1 : piece);
	size_t off = 0;
	int err = 0;

	while (!err && off < len) {
		size_t want = len - off < piece ? len - off : piece;
		ssize_t got = pread(fd, buf, want, (off_t)off);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			err = ord_error_set(ORD_ERROR, "%s: cannot read its file: %s", what,
					    got < 0 ? strerror(errno) : "shorter than written");
			break;
		}
		err = fn(ud, buf, (size_t)got, off);
		off += (size_t)got;
	}
	free(buf);
	return err;
}

int ord_fd_write(int fd, const void *buf, size_t len, size_t off)
{
	const char *p = buf;

	while (len) {
		ssize_t w = off == ORD_FD_APPEND ? write(fd, p, len) : pwrite(fd, p, len, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			return -1;
		}
		p += w;
		len -= (size_t)w;
		if (off != ORD_FD_APPEND)
			off += (size_t)w;
	}
	return 0;
}

int ord_fd_pread(int fd, void *buf, size_t len, size_t off, size_t *got)
{
	char *p = buf;

	*got = 0;
	while (*got < len) {
		ssize_t n = pread(fd, p + *got, len - *got, (off_t)(off + *got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		*got += (size_t)n;
	}
	return 0;
}
