/*
 * keys.c - Ed25519 key files, the player's signature over a sheet's
 * commitment, and signed head files.
 *
 * The three file formats share one shape, so that a player can read them
 * and mail them as text: a first line naming the format and its version,
 * then one "name: value" per line; blank lines and lines starting with '#'
 * are ignored, a CR before the newline is dropped.  Every name is required
 * exactly once and no other is accepted: a file that says more than we
 * understand is refused rather than half read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/crypto.h"

#define MAX_KEY_FILE 4096
#define MAX_FIELDS 8

struct field {
	const char *name;
	char value[160];
	unsigned line;
	int seen;
	int optional; /* may be left out (a field appended to a format) */
};

/* Parse text against the expected magic line and fields (name == NULL ends). */
static int parse_record(struct field *fields, const char *magic, const char *text, size_t len,
			const char *name)
{
	const char *p = text, *end = text + len;
	unsigned line = 0;
	int have_magic = 0;
	struct field *f;

	if (memchr(text, '\0', len))
		return ord_error_set(ORD_EBADDATA, "%s: contains a NUL byte (expected a text file)",
				     name);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *colon, *v;
		size_t n;

		line++;
		n = (size_t)(e - p);
		if (n && p[n - 1] == '\r')
			n--;
		while (n && (*p == ' ' || *p == '\t'))
			p++, n--;
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (!n || *p == '#')
			goto next;
		if (!have_magic) {
			if (n != strlen(magic) || memcmp(p, magic, n))
				return ord_error_set(ORD_EBADDATA,
						     "%s:%u: '%.*s' is not what this file should start with (expected '%s')",
						     name, line, (int)(n > 60 ? 60 : n), p, magic);
			have_magic = 1;
			goto next;
		}
		colon = memchr(p, ':', n);
		if (!colon)
			return ord_error_set(ORD_EBADDATA, "%s:%u: expected 'name: value'", name, line);
		for (f = fields; f->name; f++)
			if (strlen(f->name) == (size_t)(colon - p) &&
			    !memcmp(f->name, p, (size_t)(colon - p)))
				break;
		if (!f->name)
			return ord_error_set(ORD_EBADDATA, "%s:%u: unknown field '%.*s'", name,
					     line, (int)((colon - p) > 40 ? 40 : (colon - p)), p);
		if (f->seen)
			return ord_error_set(ORD_EBADDATA, "%s:%u: '%s' given twice", name, line,
					     f->name);
		v = colon + 1;
		while (v < p + n && (*v == ' ' || *v == '\t'))
			v++;
		if ((size_t)(p + n - v) >= sizeof(f->value))
			return ord_error_set(ORD_EBADDATA, "%s:%u: the value of '%s' is too long",
					     name, line, f->name);
		memcpy(f->value, v, (size_t)(p + n - v));
		f->value[p + n - v] = '\0';
		f->line = line;
		f->seen = 1;
	next:
		p = nl ? nl + 1 : end;
	}
	if (!have_magic)
		return ord_error_set(ORD_EBADDATA, "%s: empty (expected a file starting with '%s')",
				     name, magic);
	for (f = fields; f->name; f++)
		if (!f->seen && !f->optional)
			return ord_error_set(ORD_EBADDATA, "%s: '%s' is missing", name, f->name);
	return 0;
}

/* A field of exactly n bytes written as 2n hex digits. */
static int field_hex(unsigned char *out, size_t n, const struct field *f, const char *name)
{
	if (strlen(f->value) != 2 * n || ord_unhex(out, n, f->value) != (int)n)
		return ord_error_set(ORD_EBADDATA, "%s:%u: '%s' is not %zu hexadecimal digits",
				     name, f->line, f->name, 2 * n);
	return 0;
}

static int write_new(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);

	if (fd < 0) {
		if (errno == EEXIST)
			return ord_error_set(ORD_EEXISTS,
					     "'%s' already exists; a key is never overwritten", path);
		return ord_error_set(ORD_ECANTWRITE, "cannot create '%s': %s", path, strerror(errno));
	}
	if (ord_fd_write(fd, text, strlen(text), ORD_FD_APPEND) < 0) {
		int e = errno;
		close(fd);
		unlink(path);
		return ord_error_set(ORD_ERROR, "cannot write '%s': %s", path, strerror(e));
	}
	if (fsync(fd) < 0 || close(fd) < 0) {
		unlink(path);
		return ord_error_set(ORD_ERROR, "cannot write '%s': %s", path, strerror(errno));
	}
	return 0;
}

void ord_keypair_generate(struct ord_keypair *out)
{
	crypto_sign_keypair(out->pk, out->sk);
}

int ord_key_save(const struct ord_keypair *kp, const char *path, const char *pub_path)
{
	struct ord_buf b = ORD_BUF_INIT;
	int err;

	if (pub_path && access(pub_path, F_OK) == 0)
		return ord_error_set(ORD_EEXISTS, "'%s' already exists; a key is never overwritten",
				     pub_path);
	ord_buf_adds(&b, "orderly secret key v1\n"
			 "# Ed25519.  Keep this file private: whoever holds it signs as you.\n"
			 "seed: ");
	ord_buf_add_hex(&b, kp->sk, 32);
	ord_buf_adds(&b, "\npublic: ");
	ord_buf_add_hex(&b, kp->pk, 32);
	ord_buf_addch(&b, '\n');
	err = write_new(path, b.buf, 0600);
	sodium_memzero(b.buf, b.len);
	ord_buf_reset(&b);
	if (!err && pub_path) {
		ord_buf_adds(&b, "orderly public key v1\npublic: ");
		ord_buf_add_hex(&b, kp->pk, 32);
		ord_buf_addch(&b, '\n');
		if ((err = write_new(pub_path, b.buf, 0644)) != 0)
			unlink(path);
	}
	ord_buf_release(&b);
	return err;
}

static int key_from_text(struct ord_keypair *out, const char *text, size_t len, const char *name)
{
	struct field f[] = { { "seed", "", 0, 0, 0 }, { "public", "", 0, 0, 0 }, { NULL, "", 0, 0, 0 } };
	unsigned char seed[32], pk[32];
	int err;

	if ((err = parse_record(f, "orderly secret key v1", text, len, name)) != 0 ||
	    (err = field_hex(seed, 32, &f[0], name)) != 0 ||
	    (err = field_hex(pk, 32, &f[1], name)) != 0)
		goto out;
	crypto_sign_seed_keypair(out->pk, out->sk, seed);
	if (memcmp(out->pk, pk, 32))
		err = ord_error_set(ORD_EBADDATA,
				    "%s:%u: the public key is not the one of this seed (a damaged key file)",
				    name, f[1].line);
out:
	sodium_memzero(seed, sizeof(seed));
	sodium_memzero(f[0].value, sizeof(f[0].value));
	if (err)
		sodium_memzero(out, sizeof(*out));
	return err;
}

int ord_key_load(struct ord_keypair *out, const char *path)
{
	char *text = NULL;
	size_t len = 0;
	int err;

	if ((err = ord_crypto_init()) != 0)
		return err;
	if ((err = ord_read_file(&text, &len, path, MAX_KEY_FILE)) != 0)
		return err;
	err = key_from_text(out, text, len, path);
	sodium_memzero(text, len);
	free(text);
	return err;
}

int ord_pubkey_parse(unsigned char out[32], const char *s)
{
	struct field f[] = { { "public", "", 0, 0, 0 }, { NULL, "", 0, 0, 0 } };
	struct ord_keypair kp;
	char *text = NULL;
	size_t len = 0;
	int err;

	if (strlen(s) == 64 && ord_unhex(out, 32, s) == 32)
		return 0;
	if ((err = ord_crypto_init()) != 0)
		return err;
	if ((err = ord_read_file(&text, &len, s, MAX_KEY_FILE)) != 0) {
		if (err == ORD_ENOFILE)
			err = ord_error_set(ORD_ENOTFOUND,
					    "'%s' is neither a public key (64 hexadecimal digits) nor a key file",
					    s);
		return err;
	}
	if (strstr(text, "orderly secret key v1")) {
		if ((err = key_from_text(&kp, text, len, s)) == 0)
			memcpy(out, kp.pk, 32);
		sodium_memzero(&kp, sizeof(kp));
	} else if ((err = parse_record(f, "orderly public key v1", text, len, s)) == 0) {
		err = field_hex(out, 32, &f[0], s);
	}
	sodium_memzero(text, len);
	free(text);
	return err;
}

/* ---- sheets ---- */

void ord_nonce_draw(unsigned char out[32])
{
	randombytes_buf(out, 32);
}

void ord_sheet_sign(struct ord_signed_sheet *out, const struct ord_sheet_binding *b,
		    const void *bytes, size_t len, const struct ord_keypair *kp)
{
	ord_nonce_draw(out->nonce);
	ord_sheet_sign_nonce(out, b, bytes, len, kp);
}

/* What a player's key signs: a sheet's commitment, or a draft's */
typedef void sig_msg_fn(unsigned char out[32], const unsigned char game_id[16], int turn,
			const char *side, const unsigned char commitment[32]);

static void sign_commitment(struct ord_signed_sheet *out, const struct ord_sheet_binding *b,
			    const void *bytes, size_t len, const struct ord_keypair *kp,
			    sig_msg_fn *msg_of)
{
	unsigned char msg[32];

	ord_commit_sheet(out->commitment, b, out->nonce, bytes, len);
	msg_of(msg, b->game_id, b->turn, b->side, out->commitment);
	ord_sig_sign(out->signature, msg, kp->sk);
}

static int check_commitment_sig(const unsigned char pk[32], const unsigned char signature[64],
				const unsigned char game_id[16], int turn, const char *side,
				const unsigned char commitment[32], sig_msg_fn *msg_of)
{
	unsigned char msg[32];

	msg_of(msg, game_id, turn, side, commitment);
	return ord_sig_check(signature, msg, pk) ? ORD_EBADDATA : 0;
}

void ord_sheet_sign_nonce(struct ord_signed_sheet *out, const struct ord_sheet_binding *b,
			  const void *bytes, size_t len, const struct ord_keypair *kp)
{
	sign_commitment(out, b, bytes, len, kp, ord_sig_sheet_msg);
}

int ord_sheet_sig_check(const unsigned char pk[32], const unsigned char signature[64],
			const unsigned char game_id[16], int turn, const char *side,
			const unsigned char commitment[32])
{
	return check_commitment_sig(pk, signature, game_id, turn, side, commitment, ord_sig_sheet_msg);
}

void ord_draft_sign(struct ord_signed_sheet *out, const struct ord_sheet_binding *b,
		    const void *bytes, size_t len, const struct ord_keypair *kp)
{
	ord_nonce_draw(out->nonce);
	sign_commitment(out, b, bytes, len, kp, ord_sig_draft_msg);
}

int ord_draft_sig_check(const unsigned char pk[32], const unsigned char signature[64],
			const unsigned char game_id[16], int turn, const char *side,
			const unsigned char commitment[32])
{
	return check_commitment_sig(pk, signature, game_id, turn, side, commitment, ord_sig_draft_msg);
}

/* ---- witness chains ---- */

void ord_witness_top(unsigned char out[32], const struct ord_keypair *kp,
		     const unsigned char game_id[16], int turn, const char *side,
		     const unsigned char *nonce)
{
	ord_witness_start(out, kp->sk, game_id, turn, side, nonce);
	ord_witness_up(out, ORD_WITNESS_LINKS);
}

void ord_witness_link(unsigned char out[32], const struct ord_keypair *kp,
		      const unsigned char game_id[16], int turn, const char *side,
		      const unsigned char *nonce, int index)
{
	ord_witness_start(out, kp->sk, game_id, turn, side, nonce);
	if (index >= 0 && index <= ORD_WITNESS_LINKS)
		ord_witness_up(out, ORD_WITNESS_LINKS - (unsigned)index);
}

/* ---- signed heads ---- */

/* Whether a line of text is line (a comment, not a field: nothing signs it). */
static int comment_line(const char *text, size_t len, const char *line)
{
	size_t n = strlen(line);
	const char *p = text, *end = text + len, *nl;

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if ((size_t)(nl - p) >= n && !memcmp(p, line, n))
			return 1;
	}
	return 0;
}

/* The words line of a receipt, line n of l bytes: 1 and out filled when it
 * reads exactly as ord_receipt_head_format writes it, else 0. */
static int words_read(struct ord_receipt *out, const char *l, size_t n)
{
	static const char lead[] = "# turn ", sside[] = ", side ", sver[] = ", version ",
			  scom[] = ", commitment ";
	char buf[256], again[256], *p, *q, *end;
	long v;

	if (n >= sizeof(buf))
		return 0;
	memcpy(buf, l, n);
	buf[n] = '\0';
	memset(out, 0, sizeof(*out));
	p = buf + strlen(lead);
	if (!(q = strstr(p, sside)))
		return 0;
	*q = '\0';
	if (ord_parse_long(p, &v) || v < 1 || v > 1000000000L)
		return 0;
	out->turn = (int)v;
	p = q + strlen(sside);
	if (!(q = strstr(p, sver)) || q == p || (size_t)(q - p) >= sizeof(out->side))
		return 0;
	memcpy(out->side, p, (size_t)(q - p));
	p = q + strlen(sver);
	if (!(q = strstr(p, scom)))
		return 0;
	*q = '\0';
	if (ord_parse_long(p, &v) || v < 1 || v > 1000000000L)
		return 0;
	out->version = (int)v;
	p = q + strlen(scom);
	end = p + strlen(p);
	if (end - p != 64 || ord_unhex(out->commitment, 32, p) != 32)
		return 0;
	/* exactly the line orderly writes: no other spelling of a number */
	snprintf(again, sizeof(again), "%s%d%s%s%s%d%s%s", lead, out->turn, sside, out->side, sver,
		 out->version, scom, p);
	memcpy(buf, l, n);
	buf[n] = '\0';
	return !strcmp(again, buf);
}

/* Whether line l (n bytes) is one of the comment lines of text. */
static int text_has_line(const char *text, const char *l, size_t n)
{
	const char *p = text, *nl;

	for (; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if ((size_t)(nl - p) == n && !memcmp(p, l, n))
			return 1;
		if (!*nl)
			break;
	}
	return 0;
}

/* The comment that carries the game's signature of a receipt's words,
 * and what the file says of it under it (a comment, not a field: an
 * orderly before it refuses a field it does not know, and reads a comment
 * line it does not know as a note). */
#define WORDS_SIG_LEAD "# words-signature: "
#define WORDS_SIG_NOTE                                                                   \
	"# The game signed the words of line 2 too (the signature below): 'orderly\n"    \
	"# verify --receipt FILE --pubkey KEY' says now whose sheet and which version\n" \
	"# this receipt is for, before the exchange.\n"

/* The line of the words' signature, l of n bytes: 1 and sig filled when it
 * reads as WORDS_SIG_LEAD and 128 hex digits, else 0. */
static int words_sig_read(unsigned char sig[64], const char *l, size_t n)
{
	size_t k = strlen(WORDS_SIG_LEAD);
	char hex[129];

	if (n != k + 128)
		return 0;
	memcpy(hex, l + k, 128);
	hex[128] = '\0';
	return ord_unhex(sig, 64, hex) == 64;
}

/* A receipt's or sealed head's comments (attack 47): its words, read into
 * out->said, their signature, and the first comment line that orderly
 * writes in no such head (the free text a player would read as the
 * game's). */
static void read_words(struct ord_head *out, const char *text, size_t len)
{
	static const char lead[] = "# turn ";
	const char *p = text, *end = text + len;
	struct ord_buf ours = ORD_BUF_INIT;
	unsigned line = 0;

	ord_head_format(out, &ours);
	ord_buf_adds(&ours, WORDS_SIG_NOTE);
	for (; p < end; p++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *l = p;
		size_t n = (size_t)((nl ? nl : end) - p);

		line++;
		if (n && l[n - 1] == '\r')
			n--;
		while (n && (*l == ' ' || *l == '\t'))
			l++, n--;
		while (n && (l[n - 1] == ' ' || l[n - 1] == '\t'))
			n--;
		if (n && *l == '#') {
			if (n >= strlen(WORDS_SIG_LEAD) &&
			    !memcmp(l, WORDS_SIG_LEAD, strlen(WORDS_SIG_LEAD))) {
				if (out->words_signed || !words_sig_read(out->words_signature, l, n)) {
					if (out->words_signed != -1)
						out->words_sig_line = line;
					out->words_signed = -1;
				} else {
					out->words_signed = 1;
					out->words_sig_line = line;
				}
			} else if (n >= strlen(lead) && !memcmp(l, lead, strlen(lead))) {
				if (out->words || !words_read(&out->said, l, n)) {
					if (out->words != -1)
						out->words_line = line;
					out->words = -1;
				} else {
					out->words = 1;
					out->words_line = line;
				}
			} else if (!out->odd_line && !text_has_line(ours.buf, l, n)) {
				size_t k = n < sizeof(out->odd) - 1 ? n : sizeof(out->odd) - 1;
				/* cut at a character, not inside one */
				while (k < n && k && ((unsigned char)l[k] & 0xC0) == 0x80)
					k--;
				memcpy(out->odd, l, k);
				out->odd[k] = '\0';
				out->odd_line = line;
			}
		}
		if (!nl)
			break;
		p = nl;
	}
	ord_buf_release(&ours);
}

/* Whether the first line of text that is no comment is line. */
static int first_line_is(const char *text, size_t len, const char *line)
{
	const char *p = text, *end = text + len;
	size_t n = strlen(line);

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
		size_t k;

		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		k = (size_t)(e - p);
		if (k && p[k - 1] == '\r')
			k--;
		while (k && (p[k - 1] == ' ' || p[k - 1] == '\t'))
			k--;
		if (k && *p != '#')
			return k == n && !memcmp(p, line, n);
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* A head's 'phase' line (ph), when it has one: a close's alone, a phase
 * number (v2 since the witnessed-close issue, and v3). */
static int head_phase(struct ord_head *out, const struct field *ph, const char *name)
{
	long v;

	if (!ph->seen)
		return 0;
	if (strcmp(out->at, "close"))
		return ord_error_set(ORD_EBADDATA,
				     "%s:%u: a head of a %s has no phase (only a phase's close has)",
				     name, ph->line, out->at);
	if (ord_parse_long(ph->value, &v) || v < 1 || v > ORD_WITNESS_LINKS)
		return ord_error_set(ORD_EBADDATA, "%s:%u: 'phase' is not a phase number", name,
				     ph->line);
	out->phase = (int)v;
	return 0;
}

/* A head of format v3 (ORD_HEAD_MAGIC_V3): a close head or a link head
 * that states no entry number, nor a seed commitment or a commitment. */
static int unnumbered_parse(struct ord_head *out, const struct field *f, const char *name)
{
	static const char *const names[] = { "entry", "seed-commitment", "commitment" };
	size_t i;
	int err;

	for (i = 0; i < ORD_ARRAY_SIZE(names); i++) {
		const struct field *x = &f[i == 0 ? 3 : i == 1 ? 5 : 9];
		if (x->seen)
			return ord_error_set(ORD_EBADDATA,
					     "%s:%u: a head of format v3 states no '%s' (expected game, turn, at, phase, hash, key and signature: it signs the entry's hash alone, which fixes the entry, and its number is read from the bundle after the exchange)",
					     name, x->line, names[i]);
	}
	if (strcmp(out->at, "close") && strcmp(out->at, "link"))
		return ord_error_set(ORD_EBADDATA,
				     "%s:%u: 'at' is '%s' (expected close or link: only those heads are of format v3)",
				     name, f[2].line, out->at);
	if (!strcmp(out->at, "close") && !f[8].seen)
		return ord_error_set(ORD_EBADDATA,
				     "%s: a close head of format v3 has no 'phase' (expected the phase it closes)",
				     name);
	if ((err = head_phase(out, &f[8], name)) != 0)
		return err;
	out->unnumbered = 1;
	out->seq = 0; /* found in the log by its hash */
	return 0;
}

int ord_head_parse(struct ord_head *out, const char *text, size_t len, const char *name)
{
	struct field f[] = { { "game", "", 0, 0, 0 },  { "turn", "", 0, 0, 0 },
			     { "at", "", 0, 0, 0 },    { "entry", "", 0, 0, 0 },
			     { "hash", "", 0, 0, 0 },  { "seed-commitment", "", 0, 0, 0 },
			     { "key", "", 0, 0, 0 },   { "signature", "", 0, 0, 0 },
			     { "phase", "", 0, 0, 1 }, { "commitment", "", 0, 0, 1 },
			     { NULL, "", 0, 0, 0 } };
	static const char *const ats[] = { "open",    "seal",   "close", "exchange",
					   "receipt", "sealed", "link" };
	int v3 = first_line_is(text, len, ORD_HEAD_MAGIC_V3);
	size_t i;
	long v;
	int err;

	memset(out, 0, sizeof(*out));
	out->fixed_dice = comment_line(text, len, ORD_HEAD_FIXED_DICE);
	if (v3) {
		f[3].optional = f[5].optional = 1; /* refused below when given */
		err = parse_record(f, ORD_HEAD_MAGIC_V3, text, len, name);
	} else {
		err = parse_record(f, "orderly signed head v2", text, len, name);
	}
	if (err != 0 || (err = field_hex(out->game_id, 16, &f[0], name)) != 0 ||
	    (err = field_hex(out->hash, 32, &f[4], name)) != 0 ||
	    (err = field_hex(out->key, 32, &f[6], name)) != 0 ||
	    (err = field_hex(out->signature, 64, &f[7], name)) != 0)
		return err;
	if (ord_parse_long(f[1].value, &v) || v < 1 || v > 1000000000L)
		return ord_error_set(ORD_EBADDATA, "%s:%u: 'turn' is not a turn number", name,
				     f[1].line);
	out->turn = (int)v;
	for (i = 0; i < ORD_ARRAY_SIZE(ats); i++)
		if (!strcmp(f[2].value, ats[i]))
			break;
	if (i == ORD_ARRAY_SIZE(ats))
		return ord_error_set(ORD_EBADDATA,
				     "%s:%u: 'at' is '%s' (expected open, seal, close, exchange, receipt, sealed or link)",
				     name, f[2].line, f[2].value);
	memcpy(out->at, ats[i], strlen(ats[i]) + 1);
	if (v3)
		return unnumbered_parse(out, f, name);
	if (ord_parse_long(f[3].value, &v) || v < 1)
		return ord_error_set(ORD_EBADDATA, "%s:%u: 'entry' is not a log entry number", name,
				     f[3].line);
	out->seq = v;
	/* a close head states its phase since the witnessed-close issue; one
	 * written before has none, and is only good for audits */
	if ((err = head_phase(out, &f[8], name)) != 0)
		return err;
	/* a receipt states the sheet's commitment: the game signs which sheet
	 * it receipts, not only an entry (found by a red-team review); a
	 * "sealed" head the commitment the seal took for one side */
	if (!strcmp(out->at, "receipt") || !strcmp(out->at, "sealed")) {
		if (!f[9].seen)
			return ord_error_set(ORD_EBADDATA,
					     "%s: a %s head has no 'commitment' (expected the sheet's, 64 hex digits)",
					     name, out->at);
		if ((err = field_hex(out->commitment, 32, &f[9], name)) != 0)
			return err;
		out->has_commitment = 1;
	} else if (f[9].seen) {
		return ord_error_set(ORD_EBADDATA,
				     "%s:%u: a head of a %s has no commitment (only a receipt and a sealed head have)",
				     name, f[9].line, out->at);
	}
	out->has_seed_commitment = !strcmp(out->at, "open") || !strcmp(out->at, "exchange");
	if (!out->has_seed_commitment) {
		if (strcmp(f[5].value, "none"))
			return ord_error_set(ORD_EBADDATA,
					     "%s:%u: a head of a %s has no seed commitment (expected 'none')",
					     name, f[5].line, out->at);
	} else if ((err = field_hex(out->seed_commitment, 32, &f[5], name)) != 0) {
		return err;
	}
	if (out->has_commitment)
		read_words(out, text, len);
	return 0;
}

void ord_head_format(const struct ord_head *h, struct ord_buf *out)
{
	ord_buf_adds(out, h->unnumbered ? ORD_HEAD_MAGIC_V3 "\n" : "orderly signed head v2\n");
	if (h->fixed_dice)
		ord_buf_adds(out, ORD_HEAD_FIXED_DICE
			     "\n"
			     "# The referee chooses every die of this game: none is drawn from the\n"
			     "# seed, so its rolls prove nothing ('orderly verify' says so too).\n");
	ord_buf_adds(out, "# The game's signature over its log as it stood at this point.  Keep it:\n"
			  "# 'orderly audit GAME --head FILE' or 'orderly verify BUNDLE --head FILE'\n"
			  "# shows whether the history up to here was rewritten since.\n");
	if (h->has_seed_commitment && h->fixed_dice)
		ord_buf_addf(out,
			     "# The seed commitment is turn %d's: your sheets of turn %d commit to it\n"
			     "# ('orderly sign --head FILE'), but the dice are not drawn from it.\n",
			     ord_head_next_turn(h), ord_head_next_turn(h));
	else if (h->has_seed_commitment)
		ord_buf_addf(out,
			     "# The seed commitment is turn %d's: your sheets of turn %d commit to it\n"
			     "# ('orderly sign --head FILE'), so its dice cannot be re-drawn.\n",
			     ord_head_next_turn(h), ord_head_next_turn(h));
	if (!strcmp(h->at, "receipt"))
		ord_buf_adds(out,
			     "# Your receipt: the game's signature over the log entry that stores your\n"
			     "# sheet and over its commitment below.  Check now that the commitment is\n"
			     "# the one 'orderly sign' gave you.  After the exchange\n"
			     "# 'orderly verify BUNDLE --receipt FILE' shows that this very sheet was\n"
			     "# the one sealed: the game signed it, it is not only your word.\n");
	if (!strcmp(h->at, "sealed"))
		ord_buf_adds(out,
			     "# The sheet the seal took for your side: the game's signature over the\n"
			     "# seal's log entry and over the commitment below, the one it sealed for\n"
			     "# you.  Check now that it is the one 'orderly sign' gave you (a witnessed\n"
			     "# game: 'orderly witness --link-for ... --receipt FILE --commitment HEX'\n"
			     "# refuses your links otherwise).  After the exchange\n"
			     "# 'orderly verify BUNDLE --receipt FILE' holds the seal to it.\n");
	if (!strcmp(h->at, "link"))
		ord_buf_adds(out,
			     "# Your witness link is recorded: the game's signature over the log entry\n"
			     "# that records it.  'orderly verify BUNDLE --head FILE' fails if the\n"
			     "# phase was resolved on a history without it (your side stood in for).\n");
	if (h->phase > 0)
		ord_buf_addf(out,
			     "# The close of phase %d's events: reveal your witness link of phase %d\n"
			     "# now, and only against this head ('orderly witness --link-for --head FILE\n"
			     "# --phase %d --pubkey KEY ...').\n",
			     h->phase, h->phase, h->phase);
	if (h->unnumbered)
		ord_buf_adds(out,
			     "# It states no entry number, which would tell how many events were\n"
			     "# recorded before it: its hash fixes the entry, and the bundle shows\n"
			     "# its number after the exchange.\n");
	ord_buf_adds(out, "game: ");
	ord_buf_add_hex(out, h->game_id, 16);
	ord_buf_addf(out, "\nturn: %d\nat: %s\n", h->turn, h->at);
	if (h->phase > 0)
		ord_buf_addf(out, "phase: %d\n", h->phase);
	/* a head of format v3 states no entry number, nor a commitment */
	if (!h->unnumbered)
		ord_buf_addf(out, "entry: %lld\n", (long long)h->seq);
	ord_buf_adds(out, "hash: ");
	ord_buf_add_hex(out, h->hash, 32);
	if (!h->unnumbered) {
		ord_buf_adds(out, "\nseed-commitment: ");
		if (h->has_seed_commitment)
			ord_buf_add_hex(out, h->seed_commitment, 32);
		else
			ord_buf_adds(out, "none");
	}
	if (!h->unnumbered && h->has_commitment) {
		ord_buf_adds(out, "\ncommitment: ");
		ord_buf_add_hex(out, h->commitment, 32);
	}
	ord_buf_adds(out, "\nkey: ");
	ord_buf_add_hex(out, h->key, 32);
	ord_buf_adds(out, "\nsignature: ");
	ord_buf_add_hex(out, h->signature, 64);
	ord_buf_addch(out, '\n');
}

int ord_head_signs_kind(const char *at, const char *kind)
{
	if (!strcmp(at, "open") || !strcmp(at, "exchange"))
		return !strcmp(kind, "open");
	/* a receipt signs the entry that logs what a side handed in: a sheet,
	 * a referee-less commitment or its opening; a link head the entry of
	 * a witness link */
	if (!strcmp(at, "receipt"))
		return !strcmp(kind, "sheet") || !strcmp(kind, "commit") || !strcmp(kind, "opening");
	if (!strcmp(at, "link"))
		return !strcmp(kind, "witness");
	if (!strcmp(at, "sealed")) /* the seal's entry, stating one side's commitment */
		return !strcmp(kind, "seal");
	return !strcmp(kind, at);
}

void ord_receipt_head_format(const struct ord_head *h, const struct ord_receipt *r, struct ord_buf *out)
{
	struct ord_buf t = ORD_BUF_INIT;
	const char *nl, *fields;

	ord_head_format(h, &t);
	nl = strchr(t.buf, '\n');
	ord_buf_add(out, t.buf, (size_t)(nl + 1 - t.buf));
	if (h->words_signed == 1)
		r = &h->said; /* the words the game signed */
	ord_buf_addf(out, "# turn %d, side %s, version %d, commitment ", r->turn, r->side, r->version);
	ord_buf_add_hex(out, r->commitment, 32);
	ord_buf_addch(out, '\n');
	/* the comments ord_head_format writes, then the words' signature
	 * last among them, before the fields (the words stay on line 2, a
	 * fixed-dice game's warning on line 3) */
	fields = strstr(nl + 1, "\ngame: ");
	if (h->words_signed == 1 && fields) {
		ord_buf_add(out, nl + 1, (size_t)(fields + 1 - (nl + 1)));
		ord_buf_adds(out, WORDS_SIG_NOTE WORDS_SIG_LEAD);
		ord_buf_add_hex(out, h->words_signature, 64);
		ord_buf_addch(out, '\n');
		ord_buf_adds(out, fields + 1);
	} else {
		ord_buf_adds(out, nl + 1);
	}
	ord_buf_release(&t);
}

int ord_head_next_turn(const struct ord_head *h)
{
	if (!strcmp(h->at, "open"))
		return 1;
	if (!strcmp(h->at, "exchange"))
		return h->turn + 1;
	return 0;
}

int ord_head_check(const struct ord_head *h)
{
	static const unsigned char none[32];
	unsigned char msg[32];

	if (h->unnumbered)
		ord_sig_unnumbered_msg(msg, h->game_id, h->turn, h->at, h->phase, h->hash);
	else if (h->phase > 0)
		ord_sig_close_msg(msg, h->game_id, h->turn, h->phase, h->seq, h->hash);
	else
		ord_sig_head_msg(msg, h->game_id, h->turn, h->at, h->seq, h->hash,
				 h->has_seed_commitment ? h->seed_commitment
				 : h->has_commitment    ? h->commitment
							: none);
	return ord_sig_check(h->signature, msg, h->key) ? ORD_ETAMPERED : 0;
}

int ord_head_words_check(const struct ord_head *h)
{
	unsigned char msg[32];

	if (h->words_signed != 1 || h->words != 1)
		return ORD_ETAMPERED;
	ord_sig_words_msg(msg, h->game_id, h->turn, h->at, h->seq, h->hash, &h->said);
	return ord_sig_check(h->words_signature, msg, h->key) ? ORD_ETAMPERED : 0;
}
