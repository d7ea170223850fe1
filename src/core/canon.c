/* canon.c - the canonical text of log entries (see canon.h). */
#include <string.h>

#include "core/canon.h"

void ord_canon_open(struct ord_buf *out, int turn, const unsigned char seed_commitment[32])
{
	ord_buf_addf(out, "turn=%d\nseed_commitment=", turn);
	ord_buf_add_hex(out, seed_commitment, 32);
	ord_buf_addch(out, '\n');
}

void ord_canon_exchange(struct ord_buf *out, int turn, const unsigned char seed[32])
{
	ord_buf_addf(out, "turn=%d\nseed=", turn);
	ord_buf_add_hex(out, seed, 32);
	ord_buf_addch(out, '\n');
}

void ord_canon_sheet(struct ord_buf *out, const char *side, int version, const char *source,
		     const unsigned char commitment[32], const unsigned char *signature)
{
	ord_buf_addf(out, "side=%s\nversion=%d\nsource=%s\ncommitment=", side, version, source);
	ord_buf_add_hex(out, commitment, 32);
	ord_buf_addch(out, '\n');
	if (signature) {
		ord_buf_adds(out, "signature=");
		ord_buf_add_hex(out, signature, 64);
		ord_buf_addch(out, '\n');
	}
}

void ord_canon_commit(struct ord_buf *out, const char *side, int version,
		      const unsigned char commitment[32], const unsigned char signature[64])
{
	ord_buf_addf(out, "side=%s\nversion=%d\ncommitment=", side, version);
	ord_buf_add_hex(out, commitment, 32);
	ord_buf_adds(out, "\nsignature=");
	ord_buf_add_hex(out, signature, 64);
	ord_buf_addch(out, '\n');
}

void ord_canon_opening(struct ord_buf *out, const char *side, int version,
		       const unsigned char commitment[32])
{
	ord_buf_addf(out, "side=%s\nversion=%d\ncommitment=", side, version);
	ord_buf_add_hex(out, commitment, 32);
	ord_buf_addch(out, '\n');
}

void ord_canon_event(struct ord_buf *out, unsigned seq, const char *phase, const char *kind,
		     const char *args, const char *override, const char *checks)
{
	const char *p = args;

	ord_buf_addf(out, "seq=%u\nphase=%s\nkind=%s\n", seq, phase, kind);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		ord_buf_adds(out, "arg.");
		ord_buf_add(out, p, len);
		ord_buf_addch(out, '\n');
		p += len + (nl ? 1 : 0);
	}
	if (override)
		ord_buf_addf(out, "override=%s\n", override);
	if (checks && *checks)
		ord_buf_addf(out, "checks=%s\n", checks);
}

char *ord_canon_get(const char *body, const char *key)
{
	size_t n = strlen(key);
	const char *p = body;

	while (p && *p) {
		if (!strncmp(p, key, n) && p[n] == '=') {
			const char *e = strchr(p + n + 1, '\n');
			size_t len = e ? (size_t)(e - p - n - 1) : strlen(p + n + 1);
			char *v = ord_xmalloc(len + 1);
			memcpy(v, p + n + 1, len);
			v[len] = '\0';
			return v;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}
