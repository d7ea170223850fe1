/*
 * game_mail.c - the mail judge's state in a game: who may act by mail and
 * with which proof, the judge's address, the schedule of deadlines, the
 * inbox and outbox (SQL in store/mail.c), and a few facts of the game a
 * front-end needs (its clock, its name, the current turn).
 *
 * Every change of who may act or of what the game does by itself is
 * logged in the hash chain in the same transaction as its row:
 *   mail-address     side=NAME | referee=1, address-hash=BLAKE2b-256 of ADDR in
 *                    lower case keyed with 32 random bytes kept in the
 *                    judge's table, never logged ("" clears): the other
 *                    sides, whose bundles show the entry, cannot try the
 *                    club's addresses against it; the judge gives the
 *                    owner the key (register prints it), who checks it.
 *                    Before schema 13 the key was the game's id, which
 *                    every bundle shows; older still, address=ADDR itself
 *   mail-passphrase  side=NAME | referee=1, hash=BLAKE2b-256 of the stored
 *                    crypto_pwhash string (the hash itself never enters the
 *                    log, which bundles show every side)
 *   mail-pgp         side=NAME | referee=1, fingerprint=FPR, key=BLAKE2b-256
 *                    of the armored key
 *   mail-config      judge=ADDR, per_hour=N[, passphrase_tries=N once set]
 *   schedule         schedule=TEXT (ord_schedule_format)
 *   deadline         turn=N, deadline=T: as `orderly deadline` logs it, also
 *                    when a turn opens with a deadline from the schedule
 *   mail-suspended   side=NAME | referee=1, until=T, wrong=N: the party's
 *                    passphrase proofs by mail are not checked until T,
 *                    after N wrong ones within an hour (J12 of the judge);
 *                    logged by the wrong one that begins it, and again,
 *                    with carried=1, by the opening of every turn it runs
 *                    into (a record, a bundle, holds one turn's log)
 *   mail-unsuspended side=NAME | referee=1, until=T, ended=T2: a new
 *                    passphrase registered (mail-passphrase, just before
 *                    it) ended at T2 the suspension that was to run until
 *                    T: the wrong ones were guesses of the old one
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/game_mail.h"

/* ---- small facts ---- */

int64_t ord_game_now(ord_game *g)
{
	const char *t = getenv("ORDERLY_TEST_NOW");
	long v;

	/* a test clock only in a fixed-dice test game, where nothing is secret */
	if (g && g->fixed_dice && t && *t && ord_parse_long(t, &v) == 0 && v > 0)
		return (int64_t)v;
	return (int64_t)time(NULL);
}

const char *ord_game_name(ord_game *g)
{
	static _Thread_local char name[256];
	const char *base = strrchr(g->path, '/');
	size_t n;

	base = base ? base + 1 : g->path;
	n = strlen(base);
	if (n > 8 && !strcmp(base + n - 8, ".orderly"))
		n -= 8;
	snprintf(name, sizeof(name), "%.*s", (int)n, base);
	return name;
}

size_t ord_game_nsides(ord_game *g)
{
	return g->nsides;
}

const char *ord_game_side_name(ord_game *g, size_t i)
{
	return i < g->nsides ? g->sides[i].name : NULL;
}

/* Version `want` of a side's sheet of a turn (0: the latest); *version 0 when none. */
static int sheet_at(ord_game *g, int turn, const char *side, int want, int *version,
		    char source[16], unsigned char commitment[32], int64_t *stored)
{
	const struct ord_store_side *s = ord_game_side_by_name(g, side);
	struct ord_store_sheet sh;
	unsigned char h[32];
	int err;

	*version = 0;
	source[0] = '\0';
	if (!s)
		return ord_error_set(ORD_ENOTFOUND, "unknown side '%s'", side);
	err = ord_store_sheet_read(g->db, turn, s->id, want, &sh);
	if (err == ORD_ENOTFOUND) {
		ord_error_clear();
		return 0;
	}
	if (err)
		return err;
	*version = sh.version;
	snprintf(source, 16, "%s", sh.source);
	memcpy(commitment, sh.commitment, 32);
	if (stored)
		err = ord_store_log_entry(g->db, sh.log_seq, h, stored);
	ord_store_sheet_release(&sh);
	return err;
}

int ord_game_side_sheet(ord_game *g, int turn, const char *side, int *version, char source[16],
			unsigned char commitment[32])
{
	return sheet_at(g, turn, side, 0, version, source, commitment, NULL);
}

int ord_game_side_sheet_version(ord_game *g, int turn, const char *side, int version,
				char source[16], unsigned char commitment[32])
{
	return ord_game_side_sheet_stored(g, turn, side, version, source, commitment, NULL);
}

int ord_game_side_sheet_stored(ord_game *g, int turn, const char *side, int version,
			       char source[16], unsigned char commitment[32], int64_t *stored)
{
	int found;
	int err = sheet_at(g, turn, side, version, &found, source, commitment, stored);

	if (!err && (version < 1 || found != version))
		err = ord_error_set(ORD_ENOTFOUND, "side '%s' has no version %d of turn %d", side,
				    version, turn);
	return err;
}

int ord_game_side_sheet_text(ord_game *g, struct ord_buf *out, int *version, int turn,
			     const char *side, const char *viewer)
{
	const struct ord_store_side *s;
	struct ord_store_turn t;
	struct ord_store_sheet sh;
	struct ord_buf l = ORD_BUF_INIT;
	unsigned char c[32];
	int latest = 0, opened = 0, err;

	*version = 0;
	if (!side || !*side)
		return ord_error_set(ORD_EUSAGE, "no side named (a sheet is one side's)");
	if (viewer && strcmp(viewer, side))
		return ord_error_set(ORD_EUSAGE,
				     "side '%s' may read its own sheet only, not side '%s''s",
				     viewer, side);
	if (!(s = ord_game_side_by_name(g, side))) {
		ord_game_side_list(g, &l);
		err = ord_error_set(ORD_ENOTFOUND, "unknown side '%s' (expected one of %s)", side,
				    l.buf);
		ord_buf_release(&l);
		return err;
	}
	/* a side's own sheet holds no secret from it, so it is given at any
	 * state: while the turn is open, the version in force now, which a
	 * later one may still replace until the seal */
	if ((err = ord_game_turn(g, &t, turn)) != 0)
		return err;
	/* the last version handed in, a sheet or a commitment alone: an
	 * earlier version's bytes are never given for it */
	if ((err = ord_store_latest(g->db, t.turn, s->id, &latest, c, &opened)) != 0)
		return err;
	if (!latest)
		return ord_error_set(ORD_ENOTFOUND, "side '%s' has no sheet of turn %d", side, t.turn);
	if (!opened)
		return ord_error_set(ORD_ENOTFOUND,
				     "side '%s''s sheet of turn %d (version %d) is a commitment alone: "
				     "its text is not opened yet",
				     side, t.turn, latest);
	if ((err = ord_store_sheet_read(g->db, t.turn, s->id, latest, &sh)) != 0)
		return err;
	ord_buf_add(out, sh.bytes, sh.len);
	*version = sh.version;
	ord_store_sheet_release(&sh);
	return 0;
}

int ord_game_side_pubkey(ord_game *g, const char *side, unsigned char out[32])
{
	const struct ord_store_side *s = ord_game_side_by_name(g, side);

	if (!s || !s->has_key)
		return ord_error_set(ORD_ENOTFOUND, "side '%s' has no key", side);
	memcpy(out, s->pubkey, 32);
	return 0;
}

/* ---- registrations ---- */

static int party_of(struct ord_game *g, const char *side, const char **party)
{
	struct ord_buf l = ORD_BUF_INIT;
	int err;

	if (!side) {
		*party = "";
		return 0;
	}
	if (ord_game_side_by_name(g, side)) {
		*party = side;
		return 0;
	}
	ord_game_side_list(g, &l);
	err = ord_error_set(ORD_ENOTFOUND, "unknown side '%s' (expected one of %s)", side, l.buf);
	ord_buf_release(&l);
	return err;
}

static void who(struct ord_buf *body, const char *side)
{
	if (side)
		ord_buf_addf(body, "side=%s\n", side);
	else
		ord_buf_adds(body, "referee=1\n");
}

static int check_address(const char *a)
{
	const char *at = strchr(a, '@');
	const char *p;

	if (!*a)
		return 0; /* clears */
	if (strlen(a) > 250 || !at || at == a || !at[1] || strchr(at + 1, '@'))
		goto bad;
	for (p = a; *p; p++)
		if ((unsigned char)*p <= ' ' || strchr("<>()[]\\,;:\"", *p))
			goto bad;
	return 0;
bad:
	return ord_error_set(ORD_EUSAGE, "bad mail address '%.80s' (expected name@host)", a);
}

/* Run one logged change of the mail tables in its own transaction. */
static int begin(struct ord_game *g, struct ord_store_turn *t)
{
	int err;

	if ((err = ord_game_may_change(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = ord_game_turn(g, t, 0)) != 0)
		ord_store_rollback(g->db);
	return err;
}

static int end(struct ord_game *g, int err)
{
	if (!err)
		err = ord_store_commit(g->db);
	if (err)
		ord_store_rollback(g->db);
	return err;
}

/* The party's suspension running at now (J12): *until 0 when none, with
 * the wrong passphrases counted in the window. */
static int suspension(struct ord_game *g, const char *party, int64_t now, int64_t *until, int *wrong)
{
	int64_t last = 0;
	int err, busy = 0, tries = 0;

	*until = 0;
	if ((err = ord_mail_pass_tries(g, &tries)) != 0 ||
	    (err = ord_store_mail_pass_count(g->db, party, now, ORD_MAIL_PASS_WINDOW,
					     ORD_MAIL_PASS_STALE, 0, wrong, &busy, &last)) != 0)
		return err;
	/* no row is added while suspended, so the last one began it and
	 * every row has left the window when it ends */
	if (*wrong >= tries)
		*until = last + ORD_MAIL_PASS_WINDOW;
	return 0;
}

/* A new passphrase of side's party (inside its transaction, after the
 * mail-passphrase entry): the checks counted were of the old one, so they
 * are forgotten, and a suspension they began ends now, logged
 * (mail-unsuspended) so that the audit's and verify's note of a side shut
 * out (attack 37) holds it to the time it ran. */
static int new_passphrase(struct ord_game *g, int turn, const char *side, const char *party)
{
	struct ord_buf body = ORD_BUF_INIT;
	int64_t now = ord_game_now(g), until = 0, seq;
	int err, wrong = 0;

	if ((err = suspension(g, party, now, &until, &wrong)) != 0)
		return err;
	if (until > now) {
		who(&body, side);
		ord_buf_addf(&body, "until=%lld\nended=%lld\n", (long long)until, (long long)now);
		err = ord_game_log(g, &seq, turn, "mail-unsuspended", body.buf);
		ord_buf_release(&body);
	}
	if (!err)
		err = ord_store_mail_pass_clear(g->db, party);
	return err;
}

static int set_address(struct ord_game *g, int turn, const char *side, const char *address)
{
	struct ord_buf body = ORD_BUF_INIT, lower = ORD_BUF_INIT;
	const char *party = NULL, *p;
	unsigned char salt[32];
	int64_t seq;
	int err;

	if ((err = party_of(g, side, &party)) != 0 || (err = check_address(address)) != 0)
		return err;
	for (p = address; *p; p++)
		ord_buf_addch(&lower, tolower((unsigned char)*p));
	who(&body, side);
	ord_buf_adds(&body, "address-hash=");
	if (*lower.buf) {
		unsigned char h[32];
		randombytes_buf(salt, sizeof(salt));
		crypto_generichash(h, sizeof(h), (const unsigned char *)lower.buf, lower.len, salt,
				   sizeof(salt));
		ord_buf_add_hex(&body, h, sizeof(h));
	}
	ord_buf_addch(&body, '\n');
	if ((err = ord_game_log(g, &seq, turn, "mail-address", body.buf)) == 0)
		err = ord_store_mail_party_set(g->db, party, "address",
					       *lower.buf ? lower.buf : NULL, lower.len, seq);
	if (!err)
		err = ord_store_mail_party_set(g->db, party, "address_salt",
					       *lower.buf ? salt : NULL, sizeof(salt), seq);
	ord_buf_release(&body);
	ord_buf_release(&lower);
	return err;
}

int ord_mail_register(ord_game *g, const char *side, const char *address)
{
	struct ord_store_turn t;
	int err;

	if ((err = begin(g, &t)) != 0)
		return err;
	return end(g, set_address(g, t.turn, side, address));
}

int ord_mail_set_passphrase(ord_game *g, const char *side, const char *passphrase)
{
	char hash[crypto_pwhash_STRBYTES];
	unsigned char h[32];
	struct ord_buf body = ORD_BUF_INIT;
	struct ord_store_turn t;
	const char *party = NULL;
	int64_t seq;
	int err;

	if ((err = party_of(g, side, &party)) != 0)
		return err;
	if (strlen(passphrase) < 8)
		return ord_error_set(ORD_EUSAGE,
				     "a passphrase needs at least 8 characters (a few words are best)");
	/* the mail judge and the web page take a passphrase less the blanks
	 * a paste brings at its ends: one with them could never be given */
	if (ord_utf8_blank_at(passphrase, strlen(passphrase), 0) ||
	    ord_utf8_blank_at(passphrase, strlen(passphrase), 1))
		return ord_error_set(ORD_EUSAGE,
				     "a passphrase may not begin or end with a blank (a space, a tab, a no-break space): "
				     "the mail judge and the web page take it less its blanks at the ends, so it could never be given");
	if (crypto_pwhash_str(hash, passphrase, strlen(passphrase), crypto_pwhash_OPSLIMIT_INTERACTIVE,
			      crypto_pwhash_MEMLIMIT_INTERACTIVE) != 0)
		return ord_error_set(ORD_ERROR, "out of memory hashing the passphrase");
	crypto_generichash(h, 32, (const unsigned char *)hash, strlen(hash), NULL, 0);
	who(&body, side);
	ord_buf_adds(&body, "hash=");
	ord_buf_add_hex(&body, h, 32);
	ord_buf_addch(&body, '\n');
	if ((err = begin(g, &t)) == 0) {
		if ((err = ord_game_log(g, &seq, t.turn, "mail-passphrase", body.buf)) == 0)
			err = ord_store_mail_party_set(g->db, party, "pass_hash", hash,
						       strlen(hash), seq);
		if (!err)
			err = new_passphrase(g, t.turn, side, party);
		err = end(g, err);
	}
	sodium_memzero(hash, sizeof(hash));
	ord_buf_release(&body);
	return err;
}

int ord_mail_set_pgp(ord_game *g, const char *side, const char *armored, const char *fpr)
{
	struct ord_buf body = ORD_BUF_INIT;
	unsigned char h[32];
	struct ord_store_turn t;
	const char *party = NULL, *p;
	int64_t seq;
	int err;

	if ((err = party_of(g, side, &party)) != 0)
		return err;
	for (p = fpr; *p; p++)
		if (!isxdigit((unsigned char)*p))
			break;
	if (*p || strlen(fpr) < 16 || strlen(fpr) > 40)
		return ord_error_set(ORD_EUSAGE,
				     "bad OpenPGP fingerprint '%.60s' (expected 40 hex digits)", fpr);
	crypto_generichash(h, 32, (const unsigned char *)armored, strlen(armored), NULL, 0);
	who(&body, side);
	ord_buf_addf(&body, "fingerprint=%s\nkey=", fpr);
	ord_buf_add_hex(&body, h, 32);
	ord_buf_addch(&body, '\n');
	if ((err = begin(g, &t)) == 0) {
		if ((err = ord_game_log(g, &seq, t.turn, "mail-pgp", body.buf)) == 0 &&
		    (err = ord_store_mail_party_set(g->db, party, "pgp_key", armored,
						    strlen(armored), seq)) == 0)
			err = ord_store_mail_party_set(g->db, party, "pgp_fpr", fpr, strlen(fpr), seq);
		err = end(g, err);
	}
	ord_buf_release(&body);
	return err;
}

int ord_mail_party(ord_game *g, const char *side, struct ord_mail_party *out)
{
	struct ord_store_party p;
	const char *party = NULL;
	int err;

	memset(out, 0, sizeof(*out));
	if ((err = party_of(g, side, &party)) != 0 ||
	    (err = ord_store_mail_party_get(g->db, party, &p)) != 0)
		return err;
	snprintf(out->side, sizeof(out->side), "%s", party);
	snprintf(out->address, sizeof(out->address), "%s", p.address);
	out->has_passphrase = *p.pass_hash != '\0';
	if (out->has_passphrase) {
		unsigned char h[32];
		crypto_generichash(h, sizeof(h), (const unsigned char *)p.pass_hash,
				   strlen(p.pass_hash), NULL, 0);
		ord_hex(out->pass_id, h, sizeof(h));
	}
	snprintf(out->pgp_fpr, sizeof(out->pgp_fpr), "%s", p.pgp_fpr);
	if (*p.address && p.has_address_salt)
		ord_hex(out->address_key, p.address_salt, 32);
	if (side)
		out->has_sign_key = ord_game_side_by_name(g, side)->has_key;
	ord_buf_release(&p.pgp_key);
	return 0;
}

int ord_mail_find(ord_game *g, const char *address, char side[64], int *referee, int *count)
{
	char party[64] = "";
	int err;

	*referee = 0;
	side[0] = '\0';
	if ((err = ord_store_mail_party_by_address(g->db, address, party, sizeof(party), count)) != 0)
		return err;
	if (!*count)
		return ord_error_set(ORD_ENOTFOUND, "no side of this game has the address '%.80s'",
				     address);
	*referee = !*party;
	snprintf(side, 64, "%s", party);
	return 0;
}

/* The stored row of side's party (NULL: the referee's); the caller
 * releases p->pgp_key once it is read. */
static int party_row(struct ord_game *g, const char *side, struct ord_store_party *p)
{
	const char *party = NULL;
	int err;

	if ((err = party_of(g, side, &party)) != 0)
		return err;
	return ord_store_mail_party_get(g->db, party, p);
}

int ord_mail_check_passphrase(ord_game *g, const char *side, const char *passphrase)
{
	char hash[ORD_PASS_HASH_MAX];
	int err;

	if ((err = ord_mail_passphrase_hash(g, side, hash)) == 0)
		err = ord_mail_passphrase_verify(hash, passphrase);
	sodium_memzero(hash, sizeof(hash));
	return err;
}

int ord_mail_passphrase_verify(const char *hash, const char *passphrase)
{
	if (crypto_pwhash_str_verify(hash, passphrase, strlen(passphrase)) != 0)
		return ord_error_set(ORD_EBADDATA, "wrong passphrase");
	return 0;
}

int ord_mail_passphrase_hash(ord_game *g, const char *side, char out[ORD_PASS_HASH_MAX])
{
	struct ord_store_party p;
	int err;

	out[0] = '\0';
	if ((err = party_row(g, side, &p)) != 0)
		return err;
	ord_buf_release(&p.pgp_key);
	if (!*p.pass_hash)
		return ord_error_set(ORD_ENOTFOUND, "no passphrase is registered for %s",
				     side ? side : "the referee");
	snprintf(out, ORD_PASS_HASH_MAX, "%s", p.pass_hash);
	sodium_memzero(p.pass_hash, sizeof(p.pass_hash));
	return 0;
}

int ord_mail_pgp_key(ord_game *g, const char *side, struct ord_buf *armored)
{
	struct ord_store_party p;
	int err;

	if ((err = party_row(g, side, &p)) != 0)
		return err;
	if (!p.pgp_key.len)
		err = ord_error_set(ORD_ENOTFOUND, "no OpenPGP key is registered for %s",
				    side ? side : "the referee");
	else
		ord_buf_add(armored, p.pgp_key.buf, p.pgp_key.len);
	ord_buf_release(&p.pgp_key);
	return err;
}

int ord_mail_pgp_last(ord_game *g, const char *side, int64_t *when)
{
	struct ord_store_party p;
	int err;

	*when = 0;
	if ((err = party_row(g, side, &p)) != 0)
		return err;
	ord_buf_release(&p.pgp_key);
	*when = p.pgp_last;
	return 0;
}

int ord_mail_set_pgp_last(ord_game *g, const char *side, int64_t when)
{
	const char *party = NULL;
	int err;

	if ((err = party_of(g, side, &party)) != 0)
		return err;
	return ord_store_mail_pgp_last_set(g->db, party, when);
}

static int set_config(struct ord_game *g, int turn, const char *judge, int per_hour, int tries)
{
	struct ord_buf body = ORD_BUF_INIT, cur = ORD_BUF_INIT;
	int64_t seq;
	int err, cur_per_hour = 0, cur_tries = 0;

	if (judge && *judge && (err = check_address(judge)) != 0)
		return err;
	if ((err = ord_store_mail_config_get(g->db, &cur, &cur_per_hour, NULL)) != 0 ||
	    (err = ord_store_mail_pass_tries_get(g->db, &cur_tries)) != 0)
		goto out;
	ord_buf_addf(&body, "judge=%s\nper_hour=%d\n", judge ? judge : cur.buf,
		     per_hour > 0 ? per_hour : cur_per_hour);
	/* only once set: the entries of a game that never set it stay as
	 * they were */
	if (tries > 0 || cur_tries > 0)
		ord_buf_addf(&body, "passphrase_tries=%d\n", tries > 0 ? tries : cur_tries);
	if ((err = ord_game_log(g, &seq, turn, "mail-config", body.buf)) == 0)
		err = ord_store_mail_config_set(g->db, judge, per_hour, NULL);
	if (!err && tries > 0)
		err = ord_store_mail_pass_tries_set(g->db, tries);
out:
	ord_buf_release(&body);
	ord_buf_release(&cur);
	return err;
}

int ord_mail_config(ord_game *g, struct ord_buf *judge, int *per_hour)
{
	return ord_store_mail_config_get(g->db, judge, per_hour, NULL);
}

int ord_mail_set_config(ord_game *g, const char *judge, int per_hour)
{
	struct ord_store_turn t;
	int err;

	if ((err = begin(g, &t)) != 0)
		return err;
	return end(g, set_config(g, t.turn, judge, per_hour, 0));
}

int ord_mail_set_pass_tries(ord_game *g, int tries)
{
	struct ord_store_turn t;
	int err;

	if (tries < 1)
		return ord_error_set(ORD_EUSAGE, "passphrase tries %d is not a number from 1 up",
				     tries);
	if ((err = begin(g, &t)) != 0)
		return err;
	return end(g, set_config(g, t.turn, NULL, 0, tries));
}

int ord_mail_pass_tries(ord_game *g, int *tries)
{
	int err = ord_store_mail_pass_tries_get(g->db, tries);

	if (!err && *tries <= 0)
		*tries = ORD_MAIL_PASS_TRIES;
	return err;
}

/* When side's passphrases are checked again (0: they are now), from the
 * checks of the last window; *running: the checks under way of others
 * that, were they wrong, would make the tries. */
static int pass_until(struct ord_game *g, const char *party, int64_t now, int64_t inbox_id,
		      int64_t *until, int *running)
{
	int64_t last = 0;
	int err, wrong = 0, busy = 0, tries = 0;

	*until = 0;
	if (running)
		*running = 0;
	if ((err = ord_mail_pass_tries(g, &tries)) != 0 ||
	    (err = ord_store_mail_pass_count(g->db, party, now, ORD_MAIL_PASS_WINDOW,
					     ORD_MAIL_PASS_STALE, inbox_id, &wrong, &busy, &last)) != 0)
		return err;
	/* no row is added while suspended, so the last one began it and
	 * every row has left the window when it ends */
	if (wrong >= tries)
		*until = last + ORD_MAIL_PASS_WINDOW;
	else if (running && wrong + busy >= tries)
		*running = busy;
	return 0;
}

int ord_mail_pass_try(ord_game *g, const char *side, int64_t inbox_id, const char *sender, int64_t *until)
{
	const char *party = NULL;
	int64_t now = ord_game_now(g);
	int err, running = 0;

	*until = 0;
	if ((err = party_of(g, side, &party)) != 0)
		return err;
	if ((err = ord_game_may_change_small(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	if ((err = pass_until(g, party, now, inbox_id, until, &running)) == 0 && !*until) {
		if (running) /* as many as the tries: wait for their end */
			*until = -1;
		else
			err = ord_store_mail_pass_add(g->db, party, now, inbox_id, sender);
	}
	return end(g, err);
}

/* The wrong passphrase just counted made the tries: the party's
 * passphrase proofs are suspended from now, logged (mail-suspended) so
 * that every audit and verify of the turn shows it.  Anyone who knows a
 * side's address can send the wrong ones, and a side whose only proof by
 * mail is its passphrase is then shut out until the end: a red team
 * (attack 37) kept one out past the deadline, and the NMR policy's
 * stand-in read as a side that had missed its time. */
static int log_suspension(ord_game *g, const char *side, const char *party)
{
	struct ord_store_turn t;
	struct ord_buf body = ORD_BUF_INIT;
	int64_t until = 0, seq;
	int err, wrong = 0, tries = 0;

	if ((err = ord_mail_pass_tries(g, &tries)) != 0 ||
	    (err = suspension(g, party, ord_game_now(g), &until, &wrong)) != 0)
		return err;
	/* no row is added while suspended: the one that makes the tries
	 * begins it, once */
	if (wrong != tries)
		return 0;
	if ((err = ord_game_turn(g, &t, 0)) != 0)
		return err;
	who(&body, side);
	ord_buf_addf(&body, "until=%lld\nwrong=%d\n", (long long)until, wrong);
	err = ord_game_log(g, &seq, t.turn, "mail-suspended", body.buf);
	ord_buf_release(&body);
	return err;
}

int ord_game_mail_carry_suspensions(ord_game *g, int turn)
{
	struct ord_buf body = ORD_BUF_INIT;
	int64_t now = ord_game_now(g), until, seq;
	size_t i;
	int err = 0, wrong;

	/* a record (the audit's, a bundle's) holds one turn's log: a
	 * suspension begun in the turn before that runs into this one is
	 * logged again in it, so that the note of a side shut out of this
	 * turn (attack 37) sees it; the referee first, then the sides */
	for (i = 0; i <= g->nsides && !err; i++) {
		const char *side = i ? g->sides[i - 1].name : NULL;

		if ((err = suspension(g, side ? side : "", now, &until, &wrong)) != 0 || until <= now)
			continue;
		ord_buf_reset(&body);
		who(&body, side);
		ord_buf_addf(&body, "until=%lld\nwrong=%d\ncarried=1\n", (long long)until, wrong);
		err = ord_game_log(g, &seq, turn, "mail-suspended", body.buf);
	}
	ord_buf_release(&body);
	return err;
}

/* The check of inbox_id ended: wrong (its row counts), or right (its row
 * is taken away). */
static int pass_checked(ord_game *g, const char *side, int64_t inbox_id, int right)
{
	const char *party = NULL;
	int err;

	if ((err = party_of(g, side, &party)) != 0)
		return err;
	if ((err = ord_game_may_change_small(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	if (right)
		return end(g, ord_store_mail_pass_forget(g->db, party, inbox_id));
	if ((err = ord_store_mail_pass_wrong(g->db, party, inbox_id)) == 0)
		err = log_suspension(g, side, party);
	return end(g, err);
}

int ord_mail_pass_right(ord_game *g, const char *side, int64_t inbox_id)
{
	return pass_checked(g, side, inbox_id, 1);
}

int ord_mail_pass_wrong(ord_game *g, const char *side, int64_t inbox_id)
{
	return pass_checked(g, side, inbox_id, 0);
}

int ord_mail_pass_suspended(ord_game *g, const char *side, int64_t *until, struct ord_buf *who)
{
	const char *party = NULL;
	int err;

	*until = 0;
	if ((err = party_of(g, side, &party)) != 0 ||
	    (err = pass_until(g, party, ord_game_now(g), 0, until, NULL)) != 0)
		return err;
	if (*until && who)
		err = ord_store_mail_pass_list(g->db, party, ord_game_now(g) - ORD_MAIL_PASS_WINDOW,
					       who);
	return err;
}

/* ---- the schedule ---- */

int ord_game_schedule(ord_game *g, struct ord_schedule *out)
{
	struct ord_buf text = ORD_BUF_INIT;
	int err;

	ord_schedule_init(out);
	if ((err = ord_store_mail_config_get(g->db, NULL, NULL, &text)) == 0)
		err = ord_schedule_parse(out, text.buf);
	if (err == ORD_EUSAGE)
		err = ord_error_set(ORD_ETAMPERED, "the stored schedule '%s' cannot be read", text.buf);
	ord_buf_release(&text);
	return err;
}

static int set_schedule(struct ord_game *g, int turn, const struct ord_schedule *s)
{
	struct ord_buf text = ORD_BUF_INIT, body = ORD_BUF_INIT;
	int64_t seq;
	int err;

	ord_schedule_format(s, &text);
	ord_buf_addf(&body, "schedule=%s\n", text.buf);
	if ((err = ord_game_log(g, &seq, turn, "schedule", body.buf)) == 0)
		err = ord_store_mail_config_set(g->db, NULL, 0, text.buf);
	ord_buf_release(&text);
	ord_buf_release(&body);
	return err;
}

int ord_game_set_schedule(ord_game *g, const struct ord_schedule *s)
{
	struct ord_store_turn t;
	struct ord_schedule old;
	int err;

	if ((err = begin(g, &t)) != 0)
		return err;
	if ((err = ord_game_schedule(g, &old)) == 0)
		err = set_schedule(g, t.turn, s);
	/* the open turn keeps the deadline it was given (the time before the
	 * grace, which every notice names): the end of its grace, which the
	 * game keeps, moves with a grace changed */
	if (!err && t.state == ORD_TURN_OPEN && t.deadline && old.grace != s->grace) {
		int64_t until = t.deadline - old.grace + s->grace;
		struct ord_change c = { .kind = ORD_CHANGE_DEADLINE,
					.turn = t.turn,
					.deadline = until,
					.deadline_from = t.deadline,
					.grace_changed = 1,
					.grace_from = old.grace };
		if ((err = ord_game_log_deadline(g, t.turn, until)) == 0)
			err = ord_game_notify(g, &c);
	}
	/* told in the transaction, as every change is: the mail judge notes
	 * its referee's step with it, so that a mail delivered again after a
	 * crash does not set it twice */
	if (!err) {
		struct ord_change c = { .kind = ORD_CHANGE_SCHEDULE, .turn = t.turn };
		err = ord_game_notify(g, &c);
	}
	return end(g, err);
}

int ord_game_mail_next_deadline(struct ord_game *g, int n, int64_t *out)
{
	struct ord_schedule s;
	struct ord_store_turn prev;
	int64_t announced, last = 0;
	int err;

	*out = 0;
	if ((err = ord_game_schedule(g, &s)) != 0 || !s.every)
		return err;
	/* the rhythm carries on from the previous turn's announced deadline */
	if (n > 1 && ord_game_turn(g, &prev, n - 1) == 0 && prev.deadline)
		last = prev.deadline - s.grace;
	ord_error_clear();
	if ((err = ord_schedule_next(&s, last, ord_game_now(g), &announced)) != 0)
		return err;
	*out = announced ? announced + s.grace : 0;
	return 0;
}

int ord_game_mail_create(struct ord_game *g, const struct ord_scenario *sc)
{
	size_t i;
	int err;

	if ((sc->mail_address || sc->replies_per_hour) &&
	    (err = set_config(g, 0, sc->mail_address, sc->replies_per_hour, 0)) != 0)
		return err;
	if (sc->referee_email && (err = set_address(g, 0, NULL, sc->referee_email)) != 0)
		return err;
	for (i = 0; i < sc->nsides; i++)
		if (sc->sides[i].email &&
		    (err = set_address(g, 0, sc->sides[i].id, sc->sides[i].email)) != 0)
			return err;
	if (sc->schedule.every && (err = set_schedule(g, 0, &sc->schedule)) != 0)
		return err;
	return 0;
}

/* ---- inbox, outbox, reply counts ---- */

int ord_mail_inbox_add(ord_game *g, int64_t *id, char state[8], int *step, const char *message_id,
		       const char *sender, const void *raw, size_t len)
{
	int err;

	if ((err = ord_game_may_change_small(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	err = ord_store_mail_inbox_add(g->db, id, state, step, message_id, sender, raw, len,
				       (int64_t)time(NULL));
	return end(g, err);
}

int ord_mail_inbox_step(ord_game *g, int64_t id, int step)
{
	return ord_store_mail_inbox_step(g->db, id, step);
}

int ord_mail_inbox_done(ord_game *g, int64_t id, const char *result)
{
	return ord_store_mail_inbox_done(g->db, id, result, (int64_t)time(NULL));
}

int ord_mail_inbox_said(ord_game *g, const char *text, int64_t before, int64_t *id)
{
	return ord_store_mail_inbox_said(g->db, text, before, id);
}

int ord_mail_queued(ord_game *g, const char *key)
{
	return ord_mail_queued_naming(g, key, NULL);
}

int ord_mail_queued_naming(ord_game *g, const char *key, const char *name)
{
	int found = 0;

	if (ord_store_mail_queued(g->db, key, name, &found) != 0)
		return 0;
	return found;
}

int ord_mail_files(ord_game *g, struct ord_buf *out, int *kept)
{
	return ord_store_mail_files_get(g->db, out, kept);
}

int ord_mail_set_files(ord_game *g, const char *files)
{
	return ord_store_mail_files_set(g->db, files);
}

int ord_mail_bundle_refused(ord_game *g, int turn, unsigned char state[32], int *found)
{
	return ord_store_mail_refused_get(g->db, turn, state, found);
}

int ord_mail_set_bundle_refused(ord_game *g, int turn, const unsigned char *state)
{
	return ord_store_mail_refused_set(g->db, turn, state);
}

int ord_mail_first_naming(ord_game *g, const char *naming, struct ord_buf *bytes, int *found)
{
	return ord_store_mail_first_naming(g->db, naming, bytes, found);
}

/* ord_mail_queue of bytes, or (bytes NULL) of the file open at fd. */
static int queue(ord_game *g, int *queued, const char *key, const char *message_id,
		 const char *rcpt, const void *bytes, int fd, size_t len)
{
	int err, found = 0;

	*queued = 0;
	if (key && ((err = ord_store_mail_queued(g->db, key, NULL, &found)) != 0 || found))
		return err;
	err = bytes ? ord_store_mail_queue(g->db, key, message_id, rcpt, bytes, len,
					   (int64_t)time(NULL))
		    : ord_store_mail_queue_fd(g->db, key, message_id, rcpt, fd, len,
					      (int64_t)time(NULL));
	if (err == 0)
		*queued = 1;
	return err;
}

int ord_mail_queue(ord_game *g, int *queued, const char *key, const char *message_id,
		   const char *rcpt, const void *bytes, size_t len)
{
	return queue(g, queued, key, message_id, rcpt, bytes ? bytes : "", -1, len);
}

int ord_mail_queue_fd(ord_game *g, int *queued, const char *key, const char *message_id,
		      const char *rcpt, int fd, size_t len)
{
	return queue(g, queued, key, message_id, rcpt, NULL, fd, len);
}

int ord_mail_outbox_next(ord_game *g, int64_t after, struct ord_mail_out *out)
{
	return ord_store_mail_outbox_next(g->db, after, &out->id, out->message_id,
					  sizeof(out->message_id), out->rcpt, sizeof(out->rcpt),
					  &out->bytes, NULL);
}

int ord_mail_outbox_peek(ord_game *g, int64_t after, struct ord_mail_out *out, size_t *len)
{
	return ord_store_mail_outbox_next(g->db, after, &out->id, out->message_id,
					  sizeof(out->message_id), out->rcpt, sizeof(out->rcpt),
					  NULL, len);
}

int ord_mail_outbox_read(ord_game *g, int64_t id, int (*put)(void *ud, const void *bytes, size_t n),
			 void *ud)
{
	return ord_store_mail_outbox_read(g->db, id, put, ud);
}

int ord_mail_outbox_sent(ord_game *g, int64_t id)
{
	return ord_store_mail_outbox_sent(g->db, id, (int64_t)time(NULL));
}

int ord_mail_inbox_cut(ord_game *g, int64_t id, const void *raw, size_t len)
{
	return ord_store_mail_inbox_raw(g->db, id, raw, len);
}

int ord_mail_rate(ord_game *g, const char *address, int per_hour, int *ok)
{
	return ord_store_mail_rate(g->db, address, per_hour > 0 ? per_hour : 30,
				   (int64_t)time(NULL), ok);
}

int ord_mail_due(const char *path, int64_t now, int *due)
{
	return ord_store_mail_due(path, now, due);
}

int ord_mail_mark_seen(ord_game *g, int64_t next)
{
	int err;

	if ((err = ord_game_may_change_small(g)) != 0 || (err = ord_store_begin(g->db)) != 0)
		return err;
	return end(g, ord_store_mail_seen(g->db, next));
}
