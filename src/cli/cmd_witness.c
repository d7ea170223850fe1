/*
 * cmd_witness.c - witnessed dice (docs/threat-model.md, "Witnessed dice"):
 *
 *   orderly witness GAME --close [--key FILE] [--head FILE]
 *       the referee: no more events for the current phase; the head signed
 *       over them goes to every side, who then reveal their links
 *   orderly witness GAME --side SIDE --link HEX | --key FILE [--head FILE]
 *       record a side's link for the current phase (with --head, write the
 *       game's signed head of the entry that records it, for the player:
 *       his proof that the link was in before the resolve; threat model,
 *       22) (HEX as the player's
 *       own 'orderly witness --link-for' printed it, or derived here from
 *       his key file when he is at the table)
 *   orderly witness --link-for --head FILE --pubkey KEY --side SIDE --key FILE
 *                   --nonce HEX --phase N [--turn N] [--game-id ID] [--opening FILE]
 *                   [--record FILE] [--receipt FILE --commitment HEX|--sheet FILE]
 *       the player, on his own machine: the link of phase N of the chain
 *       of his sheet (its nonce, as 'orderly sign --witness' printed it;
 *       "none" for a sheet signed by an orderly before chains were of
 *       their sheet's nonce), given only against the signed head of phase
 *       N's close (its turn and game are the link's), under the game's
 *       key; with the head of the turn's opening he kept, only a close
 *       signed after it; never against a second, different close of
 *       a phase it answered before (the record, beside his key file);
 *       and, with the receipt the game signed for his sheet, only when
 *       the commitment it states is his own (threat model 26)
 */
#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_keys.h"
#include "core/common.h"

#define WITNESS_LINKS 64 /* the links of a chain (ORD_WITNESS_LINKS in core/crypto.h) */

static int close_phase(ord_game *g, void *ud)
{
	(void)ud;
	return ord_game_close_phase(g, NULL);
}

/*
 * The link is a function of the player's secret, his sheet's nonce, the
 * game, the turn, the side and the phase only: whatever head he names, it
 * is the same link.
 * So the head is what tells him it is time: a close head that states
 * phase N, of the game and turn asked for, signed by the game's key.  With
 * a head of any other kind, phase or key, the referee could have the link
 * before the phase's events are fixed, and choose them knowing its dice.
 */
static int check_close_head(const struct cli_cmd *cmd, const char *path, const struct ord_head *h,
			    const char *pub_s, int phase, const char *turn_s, const char *gid_s)
{
	struct ord_buf have = ORD_BUF_INIT, want = ORD_BUF_INIT;
	unsigned char pk[32], gid[16];
	int rc, turn;

	if ((rc = ord_pubkey_parse(pk, pub_s)) < 0)
		return rc == ORD_ENOTFOUND ? cli_usage_error(cmd, "%s", ord_error_last())
					   : cli_fail(rc);
	if (strcmp(h->at, "close")) {
		cli_error("'%s' is a head at '%s', not at a phase's close: a link is revealed only against the signed head of its phase's close",
			  path, h->at);
		return CLI_DATAERR;
	}
	if (memcmp(pk, h->key, 32)) {
		ord_buf_add_hex(&have, h->key, 32);
		cli_error("'%s' is signed by key %s, not by the game's key you gave: do not reveal a link for it",
			  path, have.buf);
		ord_buf_release(&have);
		return CLI_DATAERR;
	}
	if (ord_head_check(h)) {
		cli_error("'%s': its signature does not hold (altered or forged): do not reveal a link for it",
			  path);
		return CLI_DATAERR;
	}
	if (!h->phase) {
		cli_error("'%s' states no phase (a close head of an earlier orderly): it cannot show that phase %d's events are closed",
			  path, phase);
		return CLI_DATAERR;
	}
	if (h->phase != phase) {
		cli_error("'%s' is the head of phase %d's close, not of phase %d's: the link of phase %d is revealed only once phase %d's events are closed",
			  path, h->phase, phase, phase, phase);
		return CLI_DATAERR;
	}
	if (turn_s) {
		if ((rc = cli_parse_positive(cmd, "--turn", turn_s, &turn)) != 0)
			return rc;
		if (h->turn != turn) {
			cli_error("'%s' is a head of turn %d, not of turn %d", path, h->turn, turn);
			return CLI_DATAERR;
		}
	}
	if (gid_s) {
		if ((rc = cli_hex_option(cmd, "--game-id", gid_s, gid, sizeof(gid))) != 0)
			return rc;
		if (memcmp(gid, h->game_id, 16)) {
			ord_buf_add_hex(&have, h->game_id, 16);
			ord_buf_add_hex(&want, gid, 16);
			cli_error("'%s' is a head of game %s, not of game %s", path, have.buf,
				  want.buf);
			ord_buf_release(&have);
			ord_buf_release(&want);
			return CLI_DATAERR;
		}
	}
	return 0;
}

/*
 * The close head signs an entry after the opening of the turn it names, as
 * the head of that opening the player kept shows (the game's opening head
 * for turn 1, the previous turn's exchange head after): a close head dated
 * into a later turn over an earlier close of the same phase (a second
 * red-team finding) signs an entry before it.
 */
static int check_after_opening(const char *path, const struct ord_head *h, const char *open_path)
{
	struct ord_head o;
	int rc, opens;

	if ((rc = cli_load_head(open_path, &o)) != 0)
		return rc;
	opens = !strcmp(o.at, "open") ? 1 : !strcmp(o.at, "exchange") ? o.turn + 1 : 0;
	if (!opens) {
		cli_error("'%s' is a head at '%s', not of a turn's opening (the game's opening head, or the exchange head before the turn)",
			  open_path, o.at);
		return CLI_DATAERR;
	}
	if (memcmp(o.key, h->key, 32) || memcmp(o.game_id, h->game_id, 16) || ord_head_check(&o)) {
		cli_error("'%s' is not a head of this game signed by its key", open_path);
		return CLI_DATAERR;
	}
	if (opens != h->turn) {
		cli_error("'%s' signs the opening of turn %d, but '%s' says it is of turn %d: give the head of turn %d's opening",
			  open_path, opens, path, h->turn, h->turn);
		return CLI_DATAERR;
	}
	/* a head of format v3 states no number (attack 49's leftover): which
	 * entry its hash is, and of which turn, is shown by the bundle after
	 * the exchange (verify --head), as a number the referee signed falsely
	 * always was */
	if (!h->unnumbered && h->seq <= o.seq) {
		cli_error("'%s' says it closes a phase of turn %d, but signs entry %lld, which comes before that turn's opening (entry %lld): a close head dated into a later turn; do not reveal a link for it",
			  path, h->turn, (long long)h->seq, (long long)o.seq);
		return CLI_DATAERR;
	}
	return 0;
}

/*
 * The record of the close heads a player answered (his machine: beside his
 * key file, or --record FILE).  A link does not depend on the head, so a
 * referee who copies the file after the seal, closes phase 5 at once in
 * the copy and mails that close's genuine head has link 5, and links 1 to
 * 4 by hashing it, before he records the real game's events (a red team's
 * find); the real closes come later and are answered too.  Only the
 * player sees both heads: the record keeps each head he answered, and a
 * second, different close of the same phase of the same game and turn is
 * refused, the two heads being the proof.  Text, one line a head:
 *
 *   orderly witness record v1
 *   answered: game=HEX turn=T phase=P entry=E hash=HEX head=BASE64 side=S link=HEX
 *
 * the head's own text in base64, so that the evidence survives a head file
 * overwritten by the next mail of the same name.  A line is written and
 * synced before the link is printed: no link goes out unrecorded.  The
 * side and the link given (since 2026-12-05; a line of an older record
 * ends at head=) let `verify --record` hold the turn to them: a referee who
 * stores the player's sheet with a witness chain of his own (the player's
 * nonce and top swapped for his, in a game whose sides sign nothing: the
 * red team of 2026-12-05) knows every phase's dice, and the player's links
 * are the proof that the chain sealed is not his.
 */
#define RECORD_MAGIC "orderly witness record v1"
#define RECORD_MAX ((size_t)256 * 1024 * 1024)

struct record {
	const char *path;
	int fd, created;
	struct ord_buf text; /* the file as read */
};

/* A head answered before, as its line of the record says it. */
struct answered {
	unsigned char game_id[16], hash[32], key[32];
	int turn, phase, line;
	long long seq;
	int has_link; /* side= and link= (records since 2026-12-05) */
	char side[33];
	unsigned char link[32];
};

/* A side's id as a scenario may write it ([a-z0-9_-]{1,32}, the schema's). */
static int side_id_ok(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n <= 32 && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

static int record_io_error(const struct record *r, const char *what)
{
	cli_error("cannot %s '%s', the record of the close heads you answered: %s; no link is given unrecorded (--record FILE names another)",
		  what, r->path, ord_strerror(errno));
	return CLI_CANTCREAT;
}

/* Open the record (made when missing), locked against a second run at once,
 * and read it whole. */
static int record_open(struct record *r, const char *path)
{
	struct flock fl;
	struct stat st;

	memset(r, 0, sizeof(*r));
	r->path = path;
	r->fd = -1;
	ord_buf_init(&r->text);
	r->created = stat(path, &st) < 0 && errno == ENOENT;
	r->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NOCTTY, 0600);
	if (r->fd < 0)
		return record_io_error(r, r->created ? "create" : "open");
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	while (fcntl(r->fd, F_SETLKW, &fl) < 0)
		if (errno != EINTR)
			return record_io_error(r, "lock");
	if (fstat(r->fd, &st) < 0)
		return record_io_error(r, "read");
	if (!S_ISREG(st.st_mode)) {
		cli_error("'%s', the record of the close heads you answered, is not a file; no link is given unrecorded",
			  path);
		return CLI_CANTCREAT;
	}
	for (;;) {
		ssize_t got;

		ord_buf_grow(&r->text, 65536);
		got = read(r->fd, r->text.buf + r->text.len, r->text.alloc - r->text.len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return record_io_error(r, "read");
		if (!got)
			break;
		r->text.len += (size_t)got;
		r->text.buf[r->text.len] = '\0';
		if (r->text.len > RECORD_MAX) {
			cli_error("'%s', the record of the close heads you answered, is larger than %zu MiB: it is not one; no link is given unrecorded",
				  path, RECORD_MAX / (1024 * 1024));
			return CLI_DATAERR;
		}
	}
	return 0;
}

static void record_close(struct record *r)
{
	if (r->fd >= 0)
		close(r->fd); /* the lock with it */
	ord_buf_release(&r->text);
}

/* "name=VALUE " at *p: VALUE (NUL-terminated in place), *p after it. */
static char *take_field(char **p, const char *name)
{
	size_t n = strlen(name);
	char *v, *end;

	if (strncmp(*p, name, n) || (*p)[n] != '=')
		return NULL;
	v = *p + n + 1;
	end = strchr(v, ' ');
	if (end)
		*end++ = '\0';
	*p = end ? end : v + strlen(v);
	return *v ? v : NULL;
}

static int parse_number(const char *s, long long *out)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtoll(s, &end, 10);
	return errno || *end || *out < 1 ? -1 : 0;
}

/* One "answered:" line (rest: after it, modified in place); the stored head
 * must say what the line does, and its signature hold; the head into *out
 * when out is given. */
static int parse_answered(char *rest, struct answered *a, struct ord_head *out)
{
	char *game = take_field(&rest, "game"), *turn = NULL, *phase = NULL, *entry = NULL;
	char *hash = NULL, *b64 = NULL;
	struct ord_head h;
	long long t, ph;
	size_t len;
	int ok = -1;
	unsigned char *bin;

	if (game)
		turn = take_field(&rest, "turn");
	if (turn)
		phase = take_field(&rest, "phase");
	if (phase)
		entry = take_field(&rest, "entry");
	/* "none": a head of format v3, which states no entry number */
	if (entry)
		hash = take_field(&rest, "hash");
	if (hash)
		b64 = take_field(&rest, "head");
	a->has_link = 0;
	if (b64 && *rest) {
		char *side = take_field(&rest, "side"), *link = side ? take_field(&rest, "link") : NULL;

		if (!link || !side_id_ok(side) || strlen(link) != 64 ||
		    ord_unhex(a->link, 32, link) != 32)
			return -1;
		snprintf(a->side, sizeof(a->side), "%s", side);
		a->has_link = 1;
	}
	if (!b64 || *rest || strlen(game) != 32 || ord_unhex(a->game_id, 16, game) != 16 ||
	    strlen(hash) != 64 || ord_unhex(a->hash, 32, hash) != 32 || parse_number(turn, &t) ||
	    parse_number(phase, &ph) || (strcmp(entry, "none") && parse_number(entry, &a->seq)) ||
	    t > 1000000000L || ph > WITNESS_LINKS)
		return -1;
	if (!strcmp(entry, "none"))
		a->seq = 0;
	a->turn = (int)t;
	a->phase = (int)ph;
	len = strlen(b64);
	bin = malloc(len + 1);
	if (!bin)
		abort();
	if (!sodium_base642bin(bin, len, b64, len, NULL, &len, NULL, sodium_base64_VARIANT_ORIGINAL) &&
	    !ord_head_parse(&h, (const char *)bin, len, "the record") && !ord_head_check(&h) &&
	    !strcmp(h.at, "close") && !memcmp(h.game_id, a->game_id, 16) && h.turn == a->turn &&
	    h.phase == a->phase && h.seq == a->seq && !h.unnumbered == !!a->seq &&
	    !memcmp(h.hash, a->hash, 32)) {
		memcpy(a->key, h.key, 32);
		if (out)
			*out = h;
		ok = 0;
	}
	free(bin);
	ord_error_clear();
	return ok;
}

int cli_witness_record_heads(const char *path, struct ord_head **heads, size_t *n,
			     struct ord_witness_given **given, size_t *ngiven)
{
	struct ord_buf text = ORD_BUF_INIT;
	char *p, *nl;
	int rc, line = 0;

	*heads = NULL;
	*n = 0;
	*given = NULL;
	*ngiven = 0;
	if ((rc = cli_read_input(&text, path, CLI_MAX_INPUT)) != 0)
		return rc;
	if (text.len && memchr(text.buf, '\0', text.len)) {
		cli_error("'%s' holds a NUL byte: it is no record of the close heads you answered",
			  path);
		rc = CLI_DATAERR;
		goto out;
	}
	for (p = text.buf ? text.buf : ""; *p; p = nl ? nl + 1 : p + strlen(p)) {
		struct answered a;

		line++;
		if ((nl = strchr(p, '\n')) != NULL)
			*nl = '\0';
		if (strncmp(p, "answered: ", 10))
			continue;
		*heads = realloc(*heads, (*n + 1) * sizeof(**heads));
		if (!*heads)
			abort();
		if (parse_answered(p + 10, &a, &(*heads)[*n])) {
			cli_error("'%s', line %d: not a close head as 'orderly witness --link-for' records it (a damaged record?)",
				  path, line);
			rc = CLI_DATAERR;
			goto out;
		}
		(*n)++;
		if (a.has_link) {
			struct ord_witness_given *gv;

			*given = realloc(*given, (*ngiven + 1) * sizeof(**given));
			if (!*given)
				abort();
			gv = &(*given)[(*ngiven)++];
			memset(gv, 0, sizeof(*gv));
			memcpy(gv->game_id, a.game_id, 16);
			gv->turn = a.turn;
			gv->phase = a.phase;
			gv->line = line;
			snprintf(gv->side, sizeof(gv->side), "%s", a.side);
			memcpy(gv->link, a.link, 32);
		}
	}
out:
	ord_buf_release(&text);
	return rc;
}

/*
 * Look up the record for the close head h: *same, the line of h answered
 * before for side with link (0: none); *other, the first answered close of h's game, turn and
 * phase that is another head (line 0: none); *prev, whether the close of
 * the phase before was answered.
 */
static int record_find(struct record *r, const struct ord_head *h, const char *side,
		       const unsigned char link[32], int *same, struct answered *other, int *prev)
{
	char *p = r->text.buf, *nl;
	int line = 0, header = 0;

	*same = *prev = 0;
	other->line = 0;
	/* a NUL would end the walk early, and hide every line after it */
	if (memchr(r->text.buf, '\0', r->text.len)) {
		cli_error("'%s' holds a NUL byte: it is no record of the close heads you answered (damaged?): mend it or name another record with --record FILE; no link is given unrecorded",
			  r->path);
		return CLI_DATAERR;
	}
	for (; *p; p = nl + 1) {
		struct answered a;

		line++;
		nl = strchr(p, '\n');
		if (!nl) {
			cli_error("'%s', line %d, the last: it does not end (a write cut short?): mend it or name another record with --record FILE; no link is given unrecorded",
				  r->path, line);
			return CLI_DATAERR;
		}
		*nl = '\0';
		if (!*p || *p == '#')
			continue;
		if (!header) {
			if (strcmp(p, RECORD_MAGIC)) {
				cli_error("'%s' is not a record of the close heads you answered (its first line is not '" RECORD_MAGIC
					  "'): name your record with --record FILE; no link is given unrecorded",
					  r->path);
				return CLI_DATAERR;
			}
			header = 1;
			continue;
		}
		if (strncmp(p, "answered: ", 10) || parse_answered(p + 10, &a, NULL)) {
			cli_error("'%s', line %d: not a close head answered (game=, turn=, phase=, entry=, hash=, head= of a close head whose signature holds): the record is damaged; mend it, keeping every head it holds; no link is given unrecorded",
				  r->path, line);
			return CLI_DATAERR;
		}
		if (memcmp(a.game_id, h->game_id, 16) || a.turn != h->turn)
			continue;
		if (a.phase == h->phase - 1)
			*prev = 1;
		if (a.phase != h->phase)
			continue;
		/* the same close: the same hash (a head of format v3 states
		 * no number, and the hash fixes the entry) */
		if (!memcmp(a.hash, h->hash, 32) && (a.seq == h->seq || !a.seq || h->unnumbered)) {
			/* the same head answered again: the same line only for
			 * the same side and link (another nonce, key or side
			 * gives another link, which is written too: no link
			 * goes out unrecorded; a code review's find) */
			if (a.has_link && !strcmp(a.side, side) && !memcmp(a.link, link, 32))
				*same = line;
		} else if (!other->line) {
			*other = a;
			other->line = line;
		}
	}
	return 0;
}

/* Append h's line (and the record's first lines, to a new record), with
 * the side and the link given against it, synced to the disk, the
 * directory too when the file is new. */
static int record_append(struct record *r, const struct ord_head *h, const char *side,
			 const unsigned char link[32])
{
	struct ord_buf line = ORD_BUF_INIT, head = ORD_BUF_INIT;
	char *b64, *dir, *slash;
	size_t n;
	int rc = 0, dfd;

	if (!r->text.len)
		ord_buf_adds(&line, RECORD_MAGIC
			     "\n"
			     "# The close heads 'orderly witness --link-for' gave a link against, one a\n"
			     "# line: the game, turn, phase, entry and hash each signs, and the head\n"
			     "# itself (base64).  A second, different close of a phase answered here is\n"
			     "# refused: the game's key signed two, and the two heads are the proof.\n"
			     "# Each line ends with the side and the link given: 'orderly verify\n"
			     "# --record' holds the turn's sealed sheet and dice to them.\n"
			     "# Keep this file.\n");
	ord_head_format(h, &head);
	n = sodium_base64_ENCODED_LEN(head.len, sodium_base64_VARIANT_ORIGINAL);
	b64 = malloc(n);
	if (!b64)
		abort();
	sodium_bin2base64(b64, n, (const unsigned char *)head.buf, head.len,
			  sodium_base64_VARIANT_ORIGINAL);
	ord_buf_adds(&line, "answered: game=");
	ord_buf_add_hex(&line, h->game_id, 16);
	ord_buf_addf(&line, " turn=%d phase=%d entry=", h->turn, h->phase);
	if (h->unnumbered)
		ord_buf_adds(&line, "none");
	else
		ord_buf_addf(&line, "%lld", (long long)h->seq);
	ord_buf_adds(&line, " hash=");
	ord_buf_add_hex(&line, h->hash, 32);
	ord_buf_addf(&line, " head=%s side=%s link=", b64, side);
	ord_buf_add_hex(&line, link, 32);
	ord_buf_adds(&line, "\n");
	free(b64);
	ord_buf_release(&head);
	if (ord_fd_write(r->fd, line.buf, line.len, ORD_FD_APPEND) || fsync(r->fd))
		rc = record_io_error(r, "write");
	ord_buf_release(&line);
	if (rc || !r->created)
		return rc;
	/* a new file: its name in its directory on the disk too */
	dir = strdup(r->path);
	if (!dir)
		abort();
	slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = '\0';
	dfd = open(slash ? dir : ".", O_RDONLY | O_CLOEXEC);
	if (dfd < 0 || (fsync(dfd) < 0 && errno != EINVAL))
		rc = record_io_error(r, "write the directory of");
	if (dfd >= 0)
		close(dfd);
	free(dir);
	return rc;
}

/* A close as a head names it: "entry N", or "hash H..." for a head of
 * format v3, which states no number (seq 0). */
static void close_named(struct ord_buf *out, long long seq, const unsigned char hash[32])
{
	char hex[65];

	if (seq) {
		ord_buf_addf(out, "entry %lld", seq);
		return;
	}
	ord_hex(hex, hash, 32);
	ord_buf_addf(out, "hash %.16s...", hex);
}

/* The refusal of a second close of a phase answered before. */
static int refuse_second_close(const struct record *r, const char *path, const struct ord_head *h,
			       const struct answered *first)
{
	struct ord_buf gid = ORD_BUF_INIT, kept = ORD_BUF_INIT, why = ORD_BUF_INIT;

	ord_buf_add_hex(&gid, h->game_id, 16);
	ord_buf_addf(&kept, "close-%d-%d-answered.head", h->turn, h->phase);
	if (!memcmp(first->key, h->key, 32) && (!first->seq || h->unnumbered)) {
		char a[65], b[65];

		ord_hex(a, first->hash, 32);
		ord_hex(b, h->hash, 32);
		ord_buf_addf(&why,
			     "the game's key signed two different closes of phase %d of turn %d (hashes %.16s... and %.16s...; you answered the first) of game %s: the turn was played twice, or a copy of it, and the referee may have known your links before he recorded the phase's events",
			     h->phase, h->turn, a, b, gid.buf);
	} else if (!memcmp(first->key, h->key, 32)) {
		ord_buf_addf(&why,
			     "the game's key signed two different closes of phase %d of turn %d (entries %lld and %lld%s; you answered the first) of game %s: the turn was played twice, or a copy of it, and the referee may have known your links before he recorded the phase's events",
			     h->phase, h->turn, first->seq, (long long)h->seq,
			     first->seq == h->seq ? ", of other hashes" : "", gid.buf);
	} else {
		/* a head of format v3 states no number: named by its hash */
		ord_buf_addf(&why, "you answered a close of phase %d of turn %d of game %s (",
			     h->phase, h->turn, gid.buf);
		close_named(&why, first->seq, first->hash);
		ord_buf_adds(&why, ") signed by another key, ");
		ord_buf_add_hex(&why, first->key, 32);
		ord_buf_adds(&why, ", than this one's (");
		close_named(&why, h->unnumbered ? 0 : (long long)h->seq, h->hash);
		ord_buf_adds(&why, "): a second game made with this one's id");
	}
	cli_error("'%s' is refused, and no link is given: %s.\n"
		  "The two heads are the proof: keep both. The one you answered is kept in '%s' (line %d); to write it to a file:\n"
		  "  sed -n '%ds/.* head=\\([^ ]*\\).*/\\1/p' '%s' | base64 -d >%s\n"
		  "and give both to 'orderly verify BUNDLE --head %s --head %s': it names the one that was rewritten.",
		  path, why.buf, r->path, first->line, first->line, r->path, kept.buf, kept.buf, path);
	ord_buf_release(&gid);
	ord_buf_release(&kept);
	ord_buf_release(&why);
	return CLI_DATAERR;
}

/*
 * Check h against the record at path and, when it is new, record it: 0 to
 * print the link, else the exit status (nothing printed).
 */
static int record_answer(const char *path, const char *head, const struct ord_head *h,
			 const char *side, const unsigned char link[32])
{
	struct record r;
	struct answered other;
	int rc, same, prev;

	if ((rc = record_open(&r, path)) != 0 ||
	    (rc = record_find(&r, h, side, link, &same, &other, &prev)) != 0)
		goto out;
	if (other.line) {
		rc = refuse_second_close(&r, head, h, &other);
		goto out;
	}
	if (!same && (rc = record_append(&r, h, side, link)) != 0)
		goto out;
	if (h->phase > 1 && !prev) {
		if (h->phase == 2)
			cli_error("warning: '%s' records no close of phase 1 of turn %d of this game answered: your link of phase 2 gives away that of phase 1 too; if you have not seen phase 1's close head, the referee may be asking early",
				  path, h->turn);
		else
			cli_error("warning: '%s' records no close of phase %d of turn %d of this game answered: your link of phase %d gives away those of phases 1 %s %d too; if you have not seen those phases' close heads, the referee may be asking early",
				  path, h->phase - 1, h->turn, h->phase,
				  h->phase == 3 ? "and" : "to", h->phase - 1);
	}
out:
	record_close(&r);
	return rc;
}

/* What --link-for is given. */
struct link_for_opts {
	const char *head, *pub_s, *side, *key, *phase_s, *turn_s, *gid_s, *opening, *nonce_s;
	const char *record;
	const char *receipt;  /* the receipt head the game signed for the sheet */
	const char *commit_s; /* the commitment 'orderly sign' printed with it */
	const char *sheet;    /* or the sheet, its commitment computed here */
};

/*
 * The receipt the game signed for the player's sheet (at "receipt": the
 * commitment it stored for him, signed) against his own commitment: the one
 * `orderly sign` printed (--commitment), or one computed here from the
 * sheet, its nonce, the top of his chain derived from his key and that
 * nonce, and the seed commitment of the head of the turn's opening
 * (--sheet, with --opening).  A host who keeps the bytes of a sheet the
 * player mailed and stores them with a nonce and chain of his own (sides
 * that sign nothing: the red team of 2026-12-05, threat model 26) signs a
 * receipt of another commitment, and would know every phase's dice: no
 * link goes out then.  A receipt holds the sheet the game stored, not that
 * it was the version sealed: a later version the host stored for a side
 * without a key would pass it.  The head of the seal the game signs for
 * the side (at "sealed": `head --at sealed`, the seal mail's
 * sealed-T-SIDE.head) states the commitment the seal took, and is taken
 * here the same way: given it, a later version sealed in the player's
 * name gives no link either (and a sealed head that lies is the game's
 * signature on a false statement, which `verify --receipt` names after
 * the exchange).
 */
static int check_receipt(const struct cli_cmd *cmd, const struct link_for_opts *o,
			 const struct ord_head *h, const struct ord_keypair *kp,
			 const unsigned char nonce[32])
{
	struct ord_buf have = ORD_BUF_INIT, want = ORD_BUF_INIT, sheet = ORD_BUF_INIT;
	struct ord_head r, op;
	unsigned char mine[32];
	const char *whose;
	int rc, sealed;

	if ((rc = cli_load_head(o->receipt, &r)) != 0)
		return rc;
	if (strcmp(r.at, "receipt") && strcmp(r.at, "sealed")) {
		cli_error("'%s' is a head at '%s', not a receipt: give the head of the seal the game signed for your side ('head --at sealed', the seal mail's sealed-T-SIDE.head) or the receipt it signed for your sheet ('submit --receipt-head', the receipt mail's receipt-T-SIDE-V.head)",
			  o->receipt, r.at);
		return CLI_DATAERR;
	}
	sealed = !strcmp(r.at, "sealed");
	if (memcmp(r.key, h->key, 32) || memcmp(r.game_id, h->game_id, 16) || ord_head_check(&r)) {
		cli_error("'%s' is not a receipt of this game signed by its key: do not reveal a link for it",
			  o->receipt);
		return CLI_DATAERR;
	}
	/* its words, signed since 2026-12-07 (attack 47): a receipt of
	 * another side's sheet is no receipt of his */
	if (r.words_signed && ord_head_words_check(&r)) {
		cli_error("'%s': its words ('# turn T, side S, version V, commitment C') are not what the game signed: do not reveal a link for it",
			  o->receipt);
		return CLI_DATAERR;
	}
	if (r.turn != h->turn) {
		cli_error("'%s' is the receipt of a sheet of turn %d, not of turn %d: give the receipt of the sheet you handed in for turn %d",
			  o->receipt, r.turn, h->turn, h->turn);
		return CLI_DATAERR;
	}
	if (!h->unnumbered && r.seq >= h->seq) {
		cli_error("'%s' signs entry %lld, which comes after the close it would answer (entry %lld): a sheet is stored before its turn's seal; do not reveal a link for it",
			  o->receipt, (long long)r.seq, (long long)h->seq);
		return CLI_DATAERR;
	}
	if (o->opening) { /* --sheet needs it; with --commitment when given */
		if ((rc = cli_load_head(o->opening, &op)) != 0)
			return rc;
		if (r.seq <= op.seq) {
			cli_error("'%s' signs entry %lld, which comes before the turn's opening (entry %lld): no sheet of turn %d; do not reveal a link for it",
				  o->receipt, (long long)r.seq, (long long)op.seq, h->turn);
			return CLI_DATAERR;
		}
	}
	if (o->sheet) {
		struct ord_sheet_binding b;

		if ((rc = cli_read_input(&sheet, o->sheet, CLI_MAX_INPUT)) != 0)
			return rc;
		memset(&b, 0, sizeof(b));
		memcpy(b.game_id, h->game_id, 16);
		b.turn = h->turn;
		b.side = o->side;
		memcpy(b.seed_commitment, op.seed_commitment, 32);
		ord_witness_top(b.witness, kp, h->game_id, h->turn, o->side, nonce);
		ord_commit_sheet(mine, &b, nonce, sheet.buf, sheet.len);
		ord_buf_release(&sheet);
		whose = "your sheet, its nonce and the top of your chain give";
	} else {
		if ((rc = cli_hex_option(cmd, "--commitment", o->commit_s, mine, 32)) != 0)
			return rc;
		whose = "'orderly sign' gave you";
	}
	if (memcmp(mine, r.commitment, 32)) {
		ord_buf_add_hex(&have, r.commitment, 32);
		ord_buf_add_hex(&want, mine, 32);
		cli_error("'%s' states commitment %s for your sheet, but %s %s: the game %s another sheet, nonce or witness chain than yours (a host who stores it with a chain of his own knows every phase's dice: threat model 26); no link is given",
			  o->receipt, have.buf, whose, want.buf, sealed ? "sealed" : "stored");
		ord_buf_release(&have);
		ord_buf_release(&want);
		return CLI_DATAERR;
	}
	/* your commitment binds your side: words of another side signed
	 * over it are a false statement of the game's */
	if (r.words_signed && strcmp(r.said.side, o->side)) {
		cli_error("'%s' is the game's receipt of a sheet of side %s, not of yours (%s): do not reveal a link for it",
			  o->receipt, r.said.side, o->side);
		return CLI_DATAERR;
	}
	if (!sealed)
		cli_error("warning: '%s' is a receipt: it shows the game stored your sheet, not that the seal took it; the head of the seal the game signs for your side ('head --at sealed', the seal mail's sealed-%d-%s.head) shows that",
			  o->receipt, h->turn, o->side);
	return 0;
}

static int link_for(const struct cli_cmd *cmd, int argc, const struct link_for_opts *o)
{
	struct ord_keypair kp;
	struct ord_head h;
	struct ord_buf gid = ORD_BUF_INIT, rec = ORD_BUF_INIT;
	unsigned char link[32], nonce[32];
	int phase, rc, old = 0;

	if (argc > 1)
		return cli_usage_error(cmd,
				       "--link-for needs no GAME: it runs on the player's machine");
	if (!o->head || !o->side || !o->key || !o->phase_s)
		return cli_usage_error(cmd,
				       "--link-for needs --head FILE (the signed head of phase N's close), --pubkey KEY, --side, --key and --phase N");
	if (!o->pub_s)
		return cli_usage_error(cmd,
				       "--link-for needs --pubkey KEY (the game's public key, from its start): the close head must be the game's");
	if (!side_id_ok(o->side))
		return cli_usage_error(cmd,
				       "--side '%.40s': no side of a game is named so (a-z, 0-9, _ and -, 1 to 32 of them, as its scenario's id)",
				       o->side);
	if (!o->nonce_s)
		return cli_usage_error(cmd,
				       "--link-for needs --nonce HEX: the nonce 'orderly sign --witness' printed with your sheet (its chain is that sheet's own), or --nonce none for a sheet signed by an orderly before 2026-12-03");
	if (!strcmp(o->nonce_s, "none"))
		old = 1;
	else if ((rc = cli_hex_option(cmd, "--nonce", o->nonce_s, nonce, sizeof(nonce))) != 0)
		return rc;
	if ((o->commit_s || o->sheet) && !o->receipt)
		return cli_usage_error(cmd,
				       "--commitment and --sheet are compared with --receipt FILE, the receipt the game signed for your sheet");
	if (o->receipt && !!o->commit_s == !!o->sheet)
		return cli_usage_error(cmd,
				       "--receipt needs your own commitment to compare: --commitment HEX as 'orderly sign' printed it, or --sheet FILE (with --opening) to compute it here");
	if (o->sheet && !o->opening)
		return cli_usage_error(cmd,
				       "--sheet needs --opening FILE, the head of the turn's opening: your commitment binds its seed commitment");
	if (o->sheet && old)
		return cli_usage_error(cmd,
				       "--sheet needs the sheet's nonce: with --nonce none give --commitment HEX");
	if ((rc = cli_parse_positive(cmd, "--phase", o->phase_s, &phase)) != 0)
		return rc;
	if (phase > WITNESS_LINKS)
		return cli_usage_error(cmd, "--phase %d: a witness chain has %d links", phase,
				       WITNESS_LINKS);
	if ((rc = cli_load_head(o->head, &h)) != 0 ||
	    (rc = check_close_head(cmd, o->head, &h, o->pub_s, phase, o->turn_s, o->gid_s)) != 0 ||
	    (o->opening && (rc = check_after_opening(o->head, &h, o->opening)) != 0))
		return rc;
	if ((rc = cli_load_key(o->key, &kp)) != 0)
		return rc;
	if (o->receipt && (rc = check_receipt(cmd, o, &h, &kp, nonce)) != 0) {
		memset(&kp, 0, sizeof(kp));
		return rc;
	}
	ord_witness_link(link, &kp, h.game_id, h.turn, o->side, old ? NULL : nonce, phase);
	memset(&kp, 0, sizeof(kp));
	/* recorded before it is printed, or not printed */
	if (!o->record)
		ord_buf_addf(&rec, "%s.links", o->key);
	rc = record_answer(o->record ? o->record : rec.buf, o->head, &h, o->side, link);
	ord_buf_release(&rec);
	if (rc) {
		sodium_memzero(link, sizeof(link));
		return rc;
	}
	if (!o->receipt)
		cli_error("warning: no --receipt: the commitment the game stored for your sheet is not compared with yours; a host who stored your sheet with a witness chain of his own knows every phase's dice, and only 'verify --record' shows it, after the exchange (give --receipt FILE --commitment HEX)");
	ord_buf_add_hex(&gid, h.game_id, 16);
	printf("# the link of %s for phase %d of turn %d of game %s\n", o->side, phase, h.turn,
	       gid.buf);
	ord_buf_reset(&gid);
	ord_buf_add_hex(&gid, link, 32);
	printf("link: %s\n", gid.buf);
	/* the line a mail judge takes (docs/pbem.md), ready to paste */
	printf("# to the mail judge, on a line of its own: LINK %d %s\n", phase, gid.buf);
	ord_buf_release(&gid);
	return CLI_OK;
}

int cmd_witness(const struct cli_cmd *cmd, int argc, char **argv)
{
	const char *side = NULL, *link_s = NULL, *key = NULL, *head = NULL, *phase_s = NULL;
	const char *pub_s = NULL, *turn_s = NULL, *gid_s = NULL, *opening = NULL, *nonce_s = NULL;
	const char *record = NULL, *receipt = NULL, *commit_s = NULL, *sheet = NULL;
	struct ord_keypair kp;
	unsigned char link[32];
	ord_game *g = NULL;
	int do_close = 0, link_for_ = 0, rc, phase = 0, closed = 0;
	const struct cli_opt opts[] = {
		{ "close", NULL, &do_close },
		{ "side", &side, NULL },
		{ "link", &link_s, NULL },
		{ "key", &key, NULL },
		{ "head", &head, NULL },
		{ "link-for", NULL, &link_for_ },
		{ "phase", &phase_s, NULL },
		{ "pubkey", &pub_s, NULL },
		{ "turn", &turn_s, NULL },
		{ "game-id", &gid_s, NULL },
		{ "opening", &opening, NULL },
		{ "nonce", &nonce_s, NULL },
		{ "record", &record, NULL },
		{ "receipt", &receipt, NULL },
		{ "commitment", &commit_s, NULL },
		{ "sheet", &sheet, NULL },
		{ NULL, NULL, NULL },
	};

	memset(&kp, 0, sizeof(kp));
	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (link_for_) {
		const struct link_for_opts o = {
			.head = head,
			.pub_s = pub_s,
			.side = side,
			.key = key,
			.phase_s = phase_s,
			.turn_s = turn_s,
			.gid_s = gid_s,
			.opening = opening,
			.nonce_s = nonce_s,
			.record = record,
			.receipt = receipt,
			.commit_s = commit_s,
			.sheet = sheet,
		};
		return link_for(cmd, argc, &o);
	}
	if (phase_s || pub_s || turn_s || gid_s || opening || nonce_s || record || receipt ||
	    commit_s || sheet)
		return cli_usage_error(cmd,
				       "--phase, --pubkey, --turn, --game-id, --opening, --nonce, --record, --receipt, --commitment and --sheet are for --link-for");
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	if (do_close) {
		if (side || link_s)
			return cli_usage_error(cmd, "--close is the referee's: no --side or --link");
		return cli_signed_change(argv[1], key, head, close_phase, NULL,
					 "closed the phase's events: the sides reveal their witness links now");
	}
	if (!side)
		return cli_usage_error(cmd, "missing --side SIDE (or --close)");
	if (!!link_s == !!key)
		return cli_usage_error(cmd,
				       "give the side's link: --link HEX, or --key FILE (the player's key file)");
	if (link_s && (rc = cli_hex_option(cmd, "--link", link_s, link, 32)) != 0)
		return rc;
	if ((rc = cli_open_game(&g, argv[1])) != 0)
		return rc;
	/* the link head is signed once the link is recorded: a game that
	 * cannot sign says so before */
	if (head && !ord_game_can_sign(g)) {
		rc = cli_usage_error(cmd,
				     "the key of '%s' is kept outside the game file: the head of the link cannot be signed here (--key is the player's key); record the link without --head",
				     argv[1]);
		goto out;
	}
	if (head && (rc = ord_game_link_state(g, NULL, &phase, &closed, NULL)) < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	if (key) {
		if ((rc = cli_load_key(key, &kp)) != 0)
			goto out;
	}
	if (head && (rc = cli_output_allowed(head)) != 0)
		goto out; /* written once the link is recorded */
	if (key) {
		/* of the nonce of the side's sheet, which the game holds */
		rc = ord_game_witness_key(g, side, &kp);
	} else {
		rc = ord_game_witness(g, side, link);
	}
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	printf("witness link of %s recorded\n", side);
	rc = CLI_OK;
	if (head) {
		struct ord_game_status st;
		struct ord_head h;
		struct ord_buf b = ORD_BUF_INIT;

		if ((rc = ord_game_status(g, &st)) < 0 ||
		    (rc = ord_game_link_head(g, &h, st.turn, side, phase)) < 0) {
			rc = cli_fail(rc);
			goto out;
		}
		ord_head_format(&h, &b);
		rc = cli_write_output(head, b.buf, b.len);
		ord_buf_release(&b);
		if (!rc && strcmp(head, "-"))
			printf("link head: %s (hand it to %s: the game's signature that the link of phase %d is in the log before its resolve)\n",
			       head, side, phase);
	}
out:
	memset(&kp, 0, sizeof(kp));
	ord_game_free(g);
	return rc;
}
