/*
 * server.c - `orderly serve`: libmicrohttpd's daemon, the routes, forms,
 * cookies and the headers every response carries.
 *
 * Decisions:
 *  W1. A game is a file NAME.orderly in the served directory, named in
 *      URLs as /g/NAME; NAME is [A-Za-z0-9_.-], not starting with '.', and
 *      the file must be a regular file there (no symbolic link, no other
 *      directory): nothing else in or outside the directory can be reached.
 *  W2. Each request opens its game and frees it before it answers (no
 *      ord_game is shared between threads); a page is read in one snapshot
 *      (ord_game_read), a change is the library's own transaction, so a
 *      request never sees a half-written turn, and the command line and
 *      the mail judge work on the same files at the same time.
 *  W3. Who may act: the passphrase registered for a side or the referee
 *      (`orderly register --passphrase-file`, stored only as a
 *      crypto_pwhash hash in the game file and logged; the same proof the
 *      mail judge takes).  A secret link is /g/NAME/login?side=S#PASS:
 *      the part after '#' never leaves the browser, the script puts it in
 *      the form.  No passphrase registered: that party cannot log in.
 *  W4. Sessions live in memory (auth.c); cookies are HttpOnly,
 *      SameSite=Strict, and Secure (named __Host-orderly) under TLS; every
 *      POST carries the session's CSRF token; failed logins are limited
 *      per address (an IPv6 one by its /64) and per party (W14).
 *  W5. Every response carries a Content-Security-Policy that allows only
 *      this server's style sheet and script, no inline code, no frames;
 *      pages of a session are not cached.
 *  W6. A side's page and responses show only what its report shows; the
 *      other sides' sheets, nonces and the seed are never read by the
 *      server before the exchange (the reports and the bundle, which only
 *      exists after it, are the library's).
 *  W7. A sheet typed in a text area reaches us with CRLF line ends (the
 *      form encoding's, not the player's): they are stored as LF.
 *  W8. One connection to a game file at a time in this process: a request
 *      takes the file's lock before ord_game_open and leaves it after
 *      ord_game_free.  ord_game_open reads the file's header with open()
 *      and close(), and a close() drops every POSIX lock this process
 *      holds on the file, another thread's SQLite locks included; a
 *      command-line process could then take the file as unused and
 *      checkpoint or remove its write-ahead log under a reader here (the
 *      load test saw "database disk image is malformed").  Requests for
 *      different games still run side by side.
 *  W9. Seal, Resolve and Exchange cannot be undone, so none is done on
 *      one tap: the first POST answers with what the step will do (for
 *      Resolve, the orders no event carries out so far) and a form that
 *      posts it again with confirm=yes and the turn and phase the referee
 *      saw; a confirmation for another turn or phase is refused.  The
 *      server enforces it, so it holds without the script.
 * W10. A number typed in an event form may have a decimal comma (a phone
 *      in a comma locale offers nothing else for inputmode=decimal): for
 *      a key of type number only, "5,5" reaches the library as "5.5".
 *      Anything else, and a value with a point or two commas, goes as
 *      typed, for the library to judge, less the blanks at its ends (a
 *      tablet's autocorrect: " 4 " was refused), as every field the
 *      referee's page posts.
 * W11. A request that only reads (GET and HEAD, and the login's POST,
 *      which checks a passphrase) opens its game with ORD_OPEN_READONLY,
 *      as the command line's readers do; a POST that may change it, read
 *      and write.  For a file the server may write the two are the same
 *      open (store.c opens such a file read-write even to read it, so
 *      that SQLite's locks keep the reader safe and W8 holds as it is).
 *      A file the server may not write (an archived game, a read-only
 *      directory) is served read-only, where every page of it was
 *      refused: with no -wal file beside it SQLite opens it "immutable",
 *      with no locks for a close() to drop (W8's lock still takes the
 *      requests in turn), but none either to keep out a writer of
 *      another user that starts on it meanwhile (store.c's NEEDSWORK: a
 *      checkpoint could change a page under the reader); a -wal it
 *      cannot read without writing refuses it, as before.  Its changes
 *      are refused (403), nothing written.
 * W12. A form that acts on one turn says which: the sheet form its turn,
 *      the referee's event and Void forms their turn and phase (event
 *      numbers start again every turn).  A POST of such a form for
 *      another turn or phase than the game's now (a page loaded before
 *      the seal, sent after the next turn opened) is refused as W9
 *      refuses a stale confirmation: nothing is stored or changed, the
 *      page says why, and a sheet's text is given back.  A POST without
 *      the field is refused the same way.
 * W13. A page shows no path of this machine: a game file that cannot be
 *      opened is said to be so, and the library's message (which names
 *      the file) goes to standard error, the server's log.
 * W14. A login reads the party's stored passphrase hash and lets go of
 *      the game (W8's lock) before it checks the passphrase against it
 *      (crypto_pwhash: 64 MiB, tens of milliseconds), so that logins do
 *      not stall the game's other requests; one check runs and the
 *      others wait their turn, two of an address at a time (players
 *      behind one router) and all together two fewer than the worker
 *      threads: a login past that is
 *      answered 503 at once, so that logins never hold every worker
 *      thread, and a club's players logging in together all get in.  The limits (auth.c) count an
 *      address's checks, right or wrong, and its wrong passphrases (an
 *      IPv6 address by its /64, which one subscriber holds whole), and a
 *      party's wrong passphrases from every address: past 20 in 10
 *      minutes its logins are refused until the window ends, the log and
 *      the referee's page say so, but not from a network the party has
 *      logged in from (a stranger could otherwise keep the player out for
 *      20 tries every 10 minutes).  One grant is held by at most 16
 *      sessions: a login past them takes it from the grant's own session
 *      used longest ago, never from another's.
 * W15. A POST's body is held in memory until it is whole: a side's page
 *      (a sheet) takes 1 MiB, every other form 64 KiB (413 past it), and
 *      all the bodies being received together at most 64 MiB, past which
 *      a POST is answered 503 ("try again in a moment"); so that clients
 *      sending large bodies slowly cannot make the server hold a MiB per
 *      connection.
 * W16. The login form's CSRF token needs no stored session: a browser
 *      without a session's cookie is given a random cookie, and the
 *      token is an HMAC of it under a secret drawn at the server's start.
 *      A login checks the token against the cookie the POST carries (a
 *      page of another site can neither read nor set it: SameSite, and
 *      __Host- under TLS), and the session table holds only logged-in
 *      sessions, so strangers loading login pages evict nobody's form.
 * W17. One client address may hold at most --per-address connections at
 *      once (default 64; the rest are closed at once), so that one slow
 *      client cannot take the server's 1000 and starve everyone else.  An
 *      IPv6 client is counted by its /64, as the login limits count it:
 *      libmicrohttpd's own per-address limit counted each address alone,
 *      and one subscriber holds 2^64 of them; the server's accept policy
 *      counts instead (accept_policy, connection_notice).  Behind a
 *      proxy every connection is the proxy's, so there the default is no
 *      limit: the proxy is the place to limit clients.
 * W18. A turn's bundle is made once and sent from a file: the first
 *      download writes it to the server's own directory (mkdtemp under
 *      TMPDIR, 0700, emptied and removed when the server stops), named by
 *      ord_game_export_id, and every download sends that file.  A bundle
 *      is up to hundreds of MB at the caps: held in memory until a slow
 *      client had read it, a few downloads at once took gigabytes, and
 *      each download made it again under the game's lock (W8), stopping
 *      the game's other pages meanwhile.  The copy is named by what the
 *      bundle is made of (ord_game_export_state: a hash of the bundle's
 *      bytes, made without the verifier's check), found again only when
 *      the game file or its write-ahead log changed on the disk since it
 *      was last found (web_bundle_state: their inode, size and times,
 *      kept with the game's lock): it was named by ord_game_export_id,
 *      the log alone, so a file whose rows were edited outside orderly
 *      after a download (the sqlite3 shell) was sent the copy made
 *      before, never made and checked again, never refused.  Now a
 *      changed file's bundle is made and checked again, and refused when
 *      the check fails; a file put back names its copy again, sent
 *      without being made.  It carries that id as its ETag, and a
 *      download that names it is answered 304 while it holds.  Without
 *      the directory (no writable TMPDIR) a bundle is made for each
 *      download.  Either way it is made into a file, not in memory
 *      (web_bundle_make: ord_game_export_fd, 0600 by mkstemp, in the
 *      directory, else beside the game file, else TMPDIR, else /tmp; one
 *      not kept is unlinked at once and goes with the response): made in
 *      memory and checked there, a bundle of 100,000 units took 350 MiB.
 *      Only a server that may write none of them (a read-only game
 *      served from a read-only tree) makes it in memory still.
 * W19. A deadline changed on the referee's page is mailed to every side
 *      told of the turn, as `orderly deadline` and the judge's DEADLINE
 *      mail it: queued in the change's transaction (the hook), sent by
 *      the next tick; it was not mailed at all.  The mails are composed
 *      with GMime, whose objects are not for two threads at once: the
 *      server is given the composer (web_opts.deadline_notices, src/mail
 *      stays out of src/web), whose caller initialises GMime once before
 *      the threads start, and calls it one change at a time.
 * W20. A Submit is answered 303 See Other, to the side's page with
 *      ?receipt=T-V (Post/Redirect/Get), whose GET shows that stored
 *      version's receipt: a reload of the receipt (a phone's
 *      pull-to-refresh, which re-posts the form) stored the sheet again as
 *      a new version, so that the player's receipt named a version the
 *      seal did not take and verify called an honest server a cheat.  A
 *      reload now asks for the page again and stores nothing.  A sheet
 *      the same as the last version stored is still stored if sent again
 *      on purpose (Submit pressed again on the receipt's page): refusing
 *      it would surprise the player, who asked for it, and a reload no
 *      longer sends it.  Two taps on one page are W21.
 * W21. The sheet form carries the version of the side's sheet the page was
 *      drawn with (based_on, 0: none).  A double tap on Submit sent the
 *      form twice, each POST stored a version, and the player's receipt of
 *      the first named a version the seal did not take ("not sealed" to
 *      verify).  A Submit whose based_on is no longer the side's version
 *      is not stored: when the version the game holds now is the very
 *      sheet sent (its bytes, and a signed one's nonce), it is answered
 *      with that version's receipt (W20's redirect); otherwise it is
 *      refused, saying which version was stored when, the text given
 *      back in a form drawn now, nothing stored.  Requests for one game
 *      take turns (W8), so the second tap finds the first one's version;
 *      a version another process stores between the look and the store
 *      (the command line, the mail judge) is caught by the submit itself
 *      (ord_submit_opts' based_on, checked in its transaction) and
 *      answered the same way.  A POST without the field (hand-made, a page of before) is stored
 *      as before; a value that is no version is refused.
 * W22. A passphrase is checked less the blanks at both ends of what was
 *      typed, ASCII and Unicode's (html.c, web_trim): pasted from the
 *      referee's mail it brought a space or a line end, "wrong
 *      passphrase", counted toward the lock (W14).  None can be part of a
 *      passphrase: the mail judge takes its Passphrase: line trimmed, so
 *      one registered with a blank at an end was of no use by mail
 *      either; a blank inside it counts.
 * W23. A form refused for want of its login gives back what it carried
 *      (auth.c, given_back) only when the browser says it was sent from
 *      a page of this server (web_from_here): `Sec-Fetch-Site:
 *      same-origin`, or, from a browser that sends no Sec-Fetch-Site,
 *      an `Origin` that is this server's own scheme and Host.  A page
 *      elsewhere (a player's, mailed to his enemy or to the referee)
 *      that posted a form here had its text shown on this server's page
 *      as "what you sent", with "copy it, log in, and paste it in your
 *      sheet's box" (threat model 46).  The SameSite=Strict cookie is
 *      not sent with such a POST, so it always came to the refusal.
 *      Neither header (a client that is no browser, or one older than
 *      2019) gives nothing back: nothing is lost that the tab it was
 *      typed in does not keep.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <microhttpd.h>
#include <sodium.h>

#include "web/web.h"

#define WEB_MAX_FORM ((size_t)64 << 10)     /* any other POST's body */
#define WEB_MAX_BUFFERED ((size_t)64 << 20) /* the bodies being received, together */

/* What a game file and its write-ahead log look like on the disk: any
 * write to it, through any process, changes one of these (W18). */
struct file_mark {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	off_t wal_size; /* 0, and wal_mtime zero, when it has none written */
	struct timespec wal_mtime;
};

/* The state of a turn's bundle (ord_game_export_state) as it was found,
 * with the file's mark just before (W18). */
struct bundle_memo {
	int turn;
	struct file_mark mark;
	unsigned char id[32];
	struct bundle_memo *next;
};

/* The lock of one game file (W8); made on first use, kept until exit. */
struct game_lock {
	char *path;
	pthread_mutex_t m;
	struct bundle_memo *memo; /* the states of its bundles found (W18), under m */
	struct game_lock *next;
};

struct web {
	const struct web_opts *o;
	struct web_auth *auth;
	int tls;
	pthread_mutex_t locks_lock; /* guards the list */
	struct game_lock *locks;
	pthread_mutex_t bytes_lock;   /* guards buffered */
	size_t buffered;              /* bytes of POST bodies held now (W15) */
	char *cache_dir;              /* the bundles made (W18), or NULL */
	pthread_mutex_t notices_lock; /* one o->deadline_notices at a time (GMime) */
};

/* What libmicrohttpd keeps for us between the calls of one request. */
struct conn_state {
	struct web *w;
	struct ord_buf body;
	size_t cap; /* the largest body this request may have */
	int too_big;
	int busy; /* the server held WEB_MAX_BUFFERED already */
};

/* Whether url is a side's page, /g/NAME/side/SIDE, whose POST is a sheet. */
static int sheet_url(const char *url)
{
	const char *p;

	if (strncmp(url, "/g/", 3) || !(p = strchr(url + 3, '/')) || strncmp(p, "/side/", 6))
		return 0;
	return p[6] && !strchr(p + 6, '/');
}

/* The largest body a POST to url may have: a sheet's only from a session
 * that holds the grant of that game's side (a stranger's POST to any side's
 * page, with no login, took a MiB of the server's whole budget, so one
 * address could fill it); every other form's, WEB_MAX_FORM. */
static size_t body_cap(struct web *w, struct MHD_Connection *conn, const char *url)
{
	char game[WEB_GAME_NAME + 1], side[WEB_PARTY_NAME + 1];
	struct web_session s;
	const char *g = url + 3, *p, *sid;
	size_t ng, ns;

	if (!sheet_url(url))
		return WEB_MAX_FORM;
	p = strchr(g, '/');
	ng = (size_t)(p - g);
	ns = strlen(p + 6);
	if (ng > WEB_GAME_NAME || ns > WEB_PARTY_NAME)
		return WEB_MAX_FORM;
	memcpy(game, g, ng);
	game[ng] = '\0';
	memcpy(side, p + 6, ns);
	side[ns] = '\0';
	if (!(sid = MHD_lookup_connection_value(conn, MHD_COOKIE_KIND, "__Host-orderly")))
		sid = MHD_lookup_connection_value(conn, MHD_COOKIE_KIND, "orderly");
	return web_auth_find(w->auth, sid, &s) && web_session_has(&s, game, side) ? WEB_MAX_BODY
										  : WEB_MAX_FORM;
}

/* Take n more bytes of POST body into cs, within its cap and the server's
 * (W15); past either, what it had is let go of and the rest is dropped. */
static void body_add(struct conn_state *cs, const char *bytes, size_t n)
{
	struct web *w = cs->w;
	int ok = 0;

	if (cs->too_big || cs->busy)
		return;
	if (cs->body.len + n > cs->cap) {
		cs->too_big = 1;
	} else {
		pthread_mutex_lock(&w->bytes_lock);
		if (w->buffered + n <= WEB_MAX_BUFFERED) {
			w->buffered += n;
			ok = 1;
		}
		pthread_mutex_unlock(&w->bytes_lock);
		if (ok) {
			ord_buf_add(&cs->body, bytes, n);
			return;
		}
		cs->busy = 1;
	}
	pthread_mutex_lock(&w->bytes_lock);
	w->buffered -= cs->body.len;
	pthread_mutex_unlock(&w->bytes_lock);
	ord_buf_release(&cs->body);
}

static const char csp[] = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; "
			  "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

struct web_auth *web_auth_of(struct web_req *r)
{
	return r->w->auth;
}

const char *web_dir(struct web_req *r)
{
	return r->w->o->dir;
}

int web_deadline_notices(struct web_req *r, ord_game *g, int turn, int64_t from, int64_t to,
			 size_t *told)
{
	int err;

	*told = 0;
	if (!r->w->o->deadline_notices)
		return 0;
	pthread_mutex_lock(&r->w->notices_lock);
	err = r->w->o->deadline_notices(g, turn, from, to, told);
	pthread_mutex_unlock(&r->w->notices_lock);
	return err;
}

const char *web_arg(struct web_req *r, const char *name)
{
	return MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, name);
}

int web_from_here(struct web_req *r)
{
	const char *site = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, "Sec-Fetch-Site");
	const char *origin, *host, *scheme = r->https ? "https://" : "http://";
	size_t n = strlen(scheme);

	/* W23: the browser's word on where the form was sent from */
	if (site)
		return !strcmp(site, "same-origin");
	origin = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, "Origin");
	host = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, "Host");
	return origin && host && *host && !strncasecmp(origin, scheme, n) &&
	       !strcasecmp(origin + n, host);
}

const char *web_field(struct web_req *r, const char *name)
{
	return ord_kv_get(&r->form.kv, name);
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

/* Decode one urlencoded component of n bytes; -1 on a bad escape or NUL. */
static int url_decode(struct ord_buf *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int c = (unsigned char)s[i];

		if (c == '+') {
			c = ' ';
		} else if (c == '%') {
			int hi, lo;

			if (i + 2 >= n)
				return -1;
			hi = hexval(s[i + 1]);
			lo = hexval(s[i + 2]);
			if (hi < 0 || lo < 0)
				return -1;
			c = hi * 16 + lo;
			i += 2;
		}
		if (c == 0)
			return -1;
		ord_buf_addch(out, c);
	}
	return 0;
}

/* Parse an application/x-www-form-urlencoded body; -1 when it is none. */
static int form_parse(struct web_form *f, const char *s, size_t len)
{
	struct ord_buf k = ORD_BUF_INIT, v = ORD_BUF_INIT;
	size_t i = 0;
	int err = 0;

	while (i < len && !err) {
		size_t end = i, eq;

		while (end < len && s[end] != '&')
			end++;
		for (eq = i; eq < end && s[eq] != '='; eq++)
			;
		ord_buf_reset(&k);
		ord_buf_reset(&v);
		if (end > i) {
			if (url_decode(&k, s + i, eq - i) != 0 ||
			    (eq < end && url_decode(&v, s + eq + 1, end - eq - 1) != 0))
				err = -1;
			else if (k.len && !ord_kv_get(&f->kv, k.buf))
				ord_kv_set(&f->kv, k.buf, v.buf); /* the first of a name counts */
		}
		i = end + 1;
	}
	ord_buf_release(&k);
	ord_buf_release(&v);
	return err;
}

char *web_game_path(struct web_req *r, const char *name)
{
	struct ord_buf p = ORD_BUF_INIT;
	const char *c;
	struct stat st;

	if (!name || !*name || *name == '.' || strlen(name) > WEB_GAME_NAME)
		return NULL;
	for (c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '_' || *c == '-' || *c == '.'))
			return NULL;
	ord_buf_addf(&p, "%s/%s.orderly", r->w->o->dir, name);
	if (lstat(p.buf, &st) != 0 || !S_ISREG(st.st_mode)) {
		ord_buf_release(&p);
		return NULL;
	}
	return ord_buf_detach(&p, NULL);
}

static struct game_lock *lock_of(struct web *w, const char *path)
{
	struct game_lock *l;

	pthread_mutex_lock(&w->locks_lock);
	for (l = w->locks; l; l = l->next)
		if (!strcmp(l->path, path))
			break;
	if (!l) {
		l = ord_xcalloc(1, sizeof(*l));
		l->path = ord_strdup(path);
		pthread_mutex_init(&l->m, NULL);
		l->next = w->locks;
		w->locks = l;
	}
	pthread_mutex_unlock(&w->locks_lock);
	return l;
}

int web_game_open_at(struct web_req *r, const char *path, int change, ord_game **out)
{
	struct game_lock *l = lock_of(r->w, path);
	int err;

	pthread_mutex_lock(&l->m);
	if ((err = ord_game_open_ext(out, path, change ? 0 : ORD_OPEN_READONLY)) != 0) {
		pthread_mutex_unlock(&l->m);
		*out = NULL;
		return err;
	}
	r->game_lock = l;
	return 0;
}

void web_game_close(struct web_req *r, ord_game *g)
{
	struct game_lock *l = r->game_lock;

	if (g)
		ord_game_free(g);
	if (l) {
		r->game_lock = NULL;
		pthread_mutex_unlock(&l->m);
	}
}

void web_log_error(struct web_req *r, const char *name)
{
	/* the name is a game name (web_game_path): no line break in it */
	fprintf(stderr, "orderly: %s of game %s: %s\n", r->method, name, ord_error_last());
}

/* Open game NAME to read it, or to change it too (W11). */
static ord_game *open_game(struct web_req *r, const char *name, int change)
{
	char *path = web_game_path(r, name);
	ord_game *g = NULL;
	int err;

	if (!path) {
		web_error_page(r, 404, "No such game", "There is no game of that name here.");
		return NULL;
	}
	/* the library's message names the file's path on this machine: it goes
	 * to the server's log, the page says what it means (W13) */
	if ((err = web_game_open_at(r, path, change, &g)) == ORD_ECANTWRITE) {
		web_log_error(r, name);
		web_error_page(r, 403, "The game cannot be changed here",
			       "The game file may not be written by this server: it can be read, "
			       "not played. Nothing was changed.");
	} else if (err) {
		web_log_error(r, name);
		web_error_page(r, 503, "The game cannot be opened",
			       "The game file cannot be opened now; the server's log says why.");
	} else
		web_auth_check_grants(r->w->auth, &r->sess, name, g);
	free(path);
	return g;
}

ord_game *web_open_game(struct web_req *r, const char *name)
{
	return open_game(r, name, !strcmp(r->method, "POST"));
}

ord_game *web_open_game_to_read(struct web_req *r, const char *name)
{
	return open_game(r, name, 0);
}

void web_set_cookie(struct web_req *r, const struct web_session *s)
{
	ord_buf_reset(&r->set_cookie);
	ord_buf_addf(&r->set_cookie, "%s=%s; Path=/; HttpOnly; SameSite=Strict%s",
		     r->https ? "__Host-orderly" : "orderly", s->sid, r->https ? "; Secure" : "");
}

void web_need_session(struct web_req *r)
{
	if (*r->sess.sid)
		return;
	web_auth_create(r->w->auth, &r->sess);
	web_set_cookie(r, &r->sess);
}

int web_csrf_ok(struct web_req *r)
{
	const char *tok = web_field(r, "csrf");

	if (*r->sess.sid && tok && strlen(tok) == strlen(r->sess.csrf) &&
	    !sodium_memcmp(tok, r->sess.csrf, strlen(tok)))
		return 1;
	web_error_page(r, 403, "Refused",
		       "This form is not one this server gave you (its security token is missing "
		       "or old). Nothing was changed: go back, reload the page and try again.");
	return 0;
}

void web_redirect(struct web_req *r, const char *url)
{
	r->status = 303;
	ord_buf_reset(&r->location);
	ord_buf_adds(&r->location, url);
	ord_buf_reset(&r->body);
	r->ctype = "text/plain; charset=utf-8";
	ord_buf_adds(&r->body, "see other\n");
}

void web_error_page(struct web_req *r, int status, const char *title, const char *msg)
{
	web_error_page_html(r, status, title, msg, NULL);
}

void web_error_page_html(struct web_req *r, int status, const char *title, const char *msg,
			 const char *html)
{
	const char *crumbs[] = { title, NULL, NULL };

	r->status = status;
	ord_buf_reset(&r->body);
	web_page_start(r, title, crumbs);
	ord_buf_adds(&r->body, "<section class=\"card error\"><h1>");
	web_esc(&r->body, title);
	ord_buf_adds(&r->body, "</h1><p>");
	web_esc(&r->body, msg);
	ord_buf_adds(&r->body, "</p>");
	if (html)
		ord_buf_adds(&r->body, html);
	ord_buf_adds(&r->body, "<p><a href=\"/\">All games</a></p></section>\n");
	web_page_end(r);
}

/* ---- static files ---- */

static void static_file(struct web_req *r, const char *name)
{
	if (!strcmp(name, "orderly.css")) {
		ord_buf_add(&r->body, web_css, web_css_len);
		r->ctype = "text/css; charset=utf-8";
	} else if (!strcmp(name, "orderly.js")) {
		ord_buf_add(&r->body, web_js, web_js_len);
		r->ctype = "text/javascript; charset=utf-8";
	} else {
		web_error_page(r, 404, "Not found", "There is no such file here.");
		return;
	}
	r->cache = 1;
}

/* ---- routes ---- */

static void route(struct web_req *r)
{
	const char *const *p = r->parts;
	size_t n = r->nparts;
	int get = !strcmp(r->method, "GET") || !strcmp(r->method, "HEAD");
	int post = !strcmp(r->method, "POST");

	if (!get && !post) {
		web_error_page(r, 405, "Method not allowed", "Only GET and POST are used here.");
		return;
	}
	if (n == 0 && get) {
		web_page_games(r);
		return;
	}
	if (n == 2 && !strcmp(p[0], "static") && get) {
		static_file(r, p[1]);
		return;
	}
	if (n >= 2 && !strcmp(p[0], "g")) {
		const char *name = p[1];

		if (n == 2 && get) {
			web_page_status(r, name);
			return;
		}
		if (n == 3 && !strcmp(p[2], "login")) {
			web_page_login(r, name);
			return;
		}
		if (n == 3 && !strcmp(p[2], "logout") && post) {
			web_page_logout(r, name);
			return;
		}
		if (n == 4 && !strcmp(p[2], "head") && get) {
			web_page_head(r, name, p[3]);
			return;
		}
		if (n == 4 && !strcmp(p[2], "bundle") && get) {
			web_page_bundle(r, name, p[3]);
			return;
		}
		if (n == 4 && !strcmp(p[2], "side")) {
			web_page_player(r, name, p[3]);
			return;
		}
		if (n == 6 && !strcmp(p[2], "side") && !strcmp(p[4], "report") && get) {
			web_page_report(r, name, p[3], p[5]);
			return;
		}
		if (n == 6 && !strcmp(p[2], "side") && !strcmp(p[4], "map") && get) {
			web_page_picture(r, name, p[3], "map", p[5]);
			return;
		}
		if (n == 5 && !strcmp(p[2], "side") && !strcmp(p[4], "chart.svg") && get) {
			web_page_picture(r, name, p[3], "chart", p[4]);
			return;
		}
		if (n == 5 && !strcmp(p[2], "referee") && !strcmp(p[3], "map") && get) {
			web_page_picture(r, name, WEB_REFEREE, "map", p[4]);
			return;
		}
		if (n == 4 && !strcmp(p[2], "referee") && !strcmp(p[3], "chart.svg") && get) {
			web_page_picture(r, name, WEB_REFEREE, "chart", p[3]);
			return;
		}
		if (n == 3 && !strcmp(p[2], "referee")) {
			web_page_referee(r, name);
			return;
		}
		if (n == 5 && !strcmp(p[2], "referee") && !strcmp(p[3], "report") && get) {
			web_page_report(r, name, WEB_REFEREE, p[4]);
			return;
		}
	}
	web_error_page(r, 404, "Not found", "There is no such page here.");
}

/* Split the decoded path into its parts; -1 when it has '..', '.', an
 * empty part or too many. */
static int split_path(struct web_req *r, char *path)
{
	char *s = path, *slash;

	r->nparts = 0;
	if (*s != '/')
		return -1;
	s++;
	if (!*s)
		return 0;
	for (;;) {
		slash = strchr(s, '/');
		if (slash)
			*slash = '\0';
		if (!*s) {
			if (!slash)
				return 0; /* a trailing '/' */
			return -1;
		}
		if (!strcmp(s, "..") || !strcmp(s, ".") || r->nparts == ORD_ARRAY_SIZE(r->parts))
			return -1;
		r->parts[r->nparts++] = s;
		if (!slash)
			return 0;
		s = slash + 1;
	}
}

/* The address of a client's socket as text, "unknown" when it is none. */
static void addr_text(char out[WEB_IP_MAX], const struct sockaddr *sa)
{
	snprintf(out, WEB_IP_MAX, "unknown");
	if (!sa)
		return;
	if (sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, out,
			  WEB_IP_MAX);
	else if (sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr,
			  out, WEB_IP_MAX);
}

static void client_ip(struct web_req *r)
{
	const union MHD_ConnectionInfo *ci = MHD_get_connection_info(r->conn,
								     MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const char *fwd;

	addr_text(r->ip, ci ? ci->client_addr : NULL);
	r->https = r->w->tls;
	if (!r->w->o->behind_proxy)
		return;
	/* the proxy appends the address it saw last */
	fwd = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, "X-Forwarded-For");
	if (fwd && *fwd) {
		const char *last = strrchr(fwd, ',');

		last = last ? last + 1 : fwd;
		while (*last == ' ')
			last++;
		snprintf(r->ip, sizeof(r->ip), "%.*s", (int)strcspn(last, " "), last);
	}
	fwd = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, "X-Forwarded-Proto");
	if (fwd && !strcmp(fwd, "https"))
		r->https = 1;
}

static enum MHD_Result respond(struct web_req *r)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;
	size_t len = r->body.len;
	char *bytes = ord_buf_detach(&r->body, NULL);

	if (r->body_fd >= 0) {
		/* libmicrohttpd closes the file with the response */
		free(bytes);
		resp = MHD_create_response_from_fd64(r->body_fd_len, r->body_fd);
		if (!resp)
			close(r->body_fd);
		r->body_fd = -1;
		if (!resp)
			return MHD_NO;
	} else if (!(resp = MHD_create_response_from_buffer(len, bytes, MHD_RESPMEM_MUST_FREE))) {
		free(bytes);
		return MHD_NO;
	}
	MHD_add_response_header(resp, "Content-Type", r->ctype);
	MHD_add_response_header(resp, "Content-Security-Policy", r->csp ? r->csp : csp);
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(resp, "X-Frame-Options", "DENY");
	MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(resp, "Cross-Origin-Opener-Policy", "same-origin");
	MHD_add_response_header(resp, "Cross-Origin-Resource-Policy", "same-origin");
	MHD_add_response_header(resp, "Permissions-Policy", "camera=(), microphone=(), geolocation=()");
	MHD_add_response_header(resp, "Cache-Control",
				r->cache == 1   ? "public, max-age=300"
				: r->cache == 2 ? "private, no-cache"
						: "no-store");
	if (r->etag[0])
		MHD_add_response_header(resp, "ETag", r->etag);
	if (r->https)
		MHD_add_response_header(resp, "Strict-Transport-Security", "max-age=31536000");
	if (r->set_cookie.len)
		MHD_add_response_header(resp, "Set-Cookie", r->set_cookie.buf);
	if (r->location.len)
		MHD_add_response_header(resp, "Location", r->location.buf);
	if (r->disposition.len)
		MHD_add_response_header(resp, "Content-Disposition", r->disposition.buf);
	ret = MHD_queue_response(r->conn, (unsigned)r->status, resp);
	MHD_destroy_response(resp);
	return ret;
}

/* ---- the bundles made (W18) ---- */

static void cache_name(struct ord_buf *out, const struct web *w, const unsigned char id[32])
{
	char hex[65];

	sodium_bin2hex(hex, sizeof(hex), id, 32);
	ord_buf_addf(out, "%s/%s.xml", w->cache_dir, hex);
}

static int send_file(struct web_req *r, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	ord_buf_release(&r->body);
	r->body_fd = fd;
	r->body_fd_len = (uint64_t)st.st_size;
	return 0;
}

/* The mark of the game file at path (0), or -1 when it cannot be read. */
static int file_mark(const char *path, struct file_mark *out)
{
	struct ord_buf wal = ORD_BUF_INIT;
	struct stat st;

	memset(out, 0, sizeof(*out)); /* compared whole, padding too */
	if (stat(path, &st) != 0)
		return -1;
	out->dev = st.st_dev;
	out->ino = st.st_ino;
	out->size = st.st_size;
	out->mtime = st.st_mtim;
	/* the log SQLite writes first: made empty, and removed, as the file
	 * is opened and closed, which changes nothing in it */
	ord_buf_addf(&wal, "%s-wal", path);
	if (stat(wal.buf, &st) == 0 && st.st_size > 0) {
		out->wal_size = st.st_size;
		out->wal_mtime = st.st_mtim;
	}
	ord_buf_release(&wal);
	return 0;
}

int web_bundle_state(struct web_req *r, ord_game *g, int turn, unsigned char id[32])
{
	struct game_lock *l = r->game_lock;
	struct file_mark now;
	struct bundle_memo *m;
	int err, marked = l && file_mark(l->path, &now) == 0;

	/* the file as it was when the state was last found: the same */
	for (m = marked ? l->memo : NULL; m; m = m->next)
		if (m->turn == turn) {
			if (!memcmp(&m->mark, &now, sizeof(now))) {
				memcpy(id, m->id, 32);
				return 0;
			}
			break;
		}
	if ((err = ord_game_export_state(g, turn, id)) != 0 || !marked)
		return err;
	if (!m) {
		m = ord_xcalloc(1, sizeof(*m));
		m->turn = turn;
		m->next = l->memo;
		l->memo = m;
	}
	m->mark = now;
	memcpy(m->id, id, 32);
	return 0;
}

int web_respond_cached(struct web_req *r, const unsigned char id[32])
{
	struct ord_buf path = ORD_BUF_INIT;
	int err;

	if (!r->w->cache_dir)
		return -1;
	cache_name(&path, r->w, id);
	err = send_file(r, path.buf);
	ord_buf_release(&path);
	return err;
}

/* A new empty file, 0600, for a bundle being made, its name in tmp: in
 * the server's directory of bundles (W18), else beside the game file,
 * else in TMPDIR, else in /tmp; -1 when none can be made (errno). */
static int bundle_temp(struct web_req *r, struct ord_buf *tmp)
{
	struct game_lock *l = r->game_lock;
	const char *env = getenv("TMPDIR");
	const char *dirs[4];
	size_t i, n = 0;
	int fd = -1;

	if (r->w->cache_dir)
		dirs[n++] = r->w->cache_dir;
	if (l)
		dirs[n++] = NULL; /* the game file's own directory */
	if (env && *env && strcmp(env, "/tmp"))
		dirs[n++] = env;
	dirs[n++] = "/tmp";
	for (i = 0; fd < 0 && i < n; i++) {
		ord_buf_reset(tmp);
		if (dirs[i]) {
			ord_buf_addf(tmp, "%s/", dirs[i]);
		} else {
			const char *slash = strrchr(l->path, '/');

			if (slash)
				ord_buf_add(tmp, l->path, (size_t)(slash - l->path) + 1);
		}
		ord_buf_adds(tmp, ".orderly-bundle-XXXXXX");
		if ((fd = mkstemp(tmp->buf)) >= 0)
			fcntl(fd, F_SETFD, FD_CLOEXEC);
	}
	return fd;
}

int web_bundle_make(struct web_req *r, ord_game *g, int turn, unsigned char made[32], const char *what)
{
	struct ord_buf tmp = ORD_BUF_INIT, path = ORD_BUF_INIT;
	size_t len = 0;
	int err, fd = bundle_temp(r, &tmp);

	if (fd < 0) {
		/* a server that may write nowhere (a read-only game served
		 * from a read-only tree): made in memory, as before */
		unsigned char id[32];

		fprintf(stderr, "orderly: %s: no file to make it in (%s: %s): made in memory\n",
			what, tmp.buf, strerror(errno));
		if ((err = ord_game_export(g, turn, &r->body)) != 0) {
			ord_buf_reset(&r->body);
		} else {
			ord_bundle_state(r->body.buf, r->body.len, id);
			memcpy(made, id, 32);
		}
		goto out;
	}
	/* a file not kept goes with its last descriptor: none is left
	 * behind, whatever happens to the server (made in the directory of
	 * bundles, it is removed with it) */
	if (!r->w->cache_dir)
		unlink(tmp.buf);
	if ((err = ord_game_export_fd(g, turn, fd, tmp.buf, &len)) != 0 ||
	    (err = ord_bundle_state_fd(fd, len, tmp.buf, made)) != 0)
		goto out;
	if (r->w->cache_dir) {
		cache_name(&path, r->w, made);
		if (rename(tmp.buf, path.buf) != 0) {
			fprintf(stderr, "orderly: %s: cannot keep it in %s: %s\n", what,
				r->w->cache_dir, strerror(errno));
			unlink(tmp.buf);
		} else {
			fprintf(stderr, "orderly: %s: made, %zu bytes, kept for its downloads\n",
				what, len);
		}
	}
	ord_buf_release(&r->body);
	r->body_fd = fd;
	r->body_fd_len = (uint64_t)len;
	fd = -1;
out:
	if (fd >= 0) {
		close(fd);
		if (r->w->cache_dir)
			unlink(tmp.buf);
	}
	ord_buf_release(&tmp);
	ord_buf_release(&path);
	return err;
}

int web_not_modified(struct web_req *r, const char *etag)
{
	const char *inm = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, "If-None-Match");

	snprintf(r->etag, sizeof(r->etag), "%s", etag);
	if (!inm || !strstr(inm, etag))
		return 0;
	r->status = 304;
	ord_buf_reset(&r->body);
	return 1;
}

static void cache_start(struct web *w)
{
	const char *tmp = getenv("TMPDIR");
	struct ord_buf dir = ORD_BUF_INIT;

	ord_buf_addf(&dir, "%s/orderly-serve-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(dir.buf)) {
		w->cache_dir = ord_buf_detach(&dir, NULL);
		return;
	}
	fprintf(stderr,
		"orderly: no directory for the bundles made (%s: %s): each is made for its download\n",
		dir.buf, strerror(errno));
	ord_buf_release(&dir);
}

static void cache_stop(struct web *w)
{
	DIR *d;
	struct dirent *e;

	if (!w->cache_dir)
		return;
	if ((d = opendir(w->cache_dir)) != NULL) {
		while ((e = readdir(d)) != NULL)
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				unlinkat(dirfd(d), e->d_name, 0);
		closedir(d);
	}
	rmdir(w->cache_dir);
	free(w->cache_dir);
	w->cache_dir = NULL;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **con_cls)
{
	struct conn_state *cs = *con_cls;
	struct web_req r;
	enum MHD_Result ret;
	const char *sid;
	char *path;

	(void)version;
	if (!cs) {
		cs = ord_xcalloc(1, sizeof(*cs));
		ord_buf_init(&cs->body);
		cs->w = cls;
		cs->cap = body_cap(cls, conn, url);
		*con_cls = cs;
		return MHD_YES;
	}
	if (*upload_size) {
		body_add(cs, upload, *upload_size);
		*upload_size = 0;
		return MHD_YES;
	}

	memset(&r, 0, sizeof(r));
	r.w = cls;
	r.conn = conn;
	r.method = method;
	r.status = 200;
	r.ctype = "text/html; charset=utf-8";
	r.body_fd = -1;
	ord_buf_init(&r.body);
	ord_buf_init(&r.set_cookie);
	ord_buf_init(&r.location);
	ord_buf_init(&r.disposition);
	ord_kv_init(&r.form.kv);
	client_ip(&r);
	path = ord_strdup(url);
	r.path = url;

	sid = MHD_lookup_connection_value(conn, MHD_COOKIE_KIND,
					  r.https ? "__Host-orderly" : "orderly");
	web_auth_find(r.w->auth, sid, &r.sess);

	if (cs->too_big) {
		/* what was sent is not held past the limit (W15), so it cannot
		 * be given back: the sheet form's script keeps a sheet over it
		 * in its box, unsent */
		char msg[400];

		snprintf(msg, sizeof(msg),
			 "What you sent is larger than this server takes: %s. Nothing was "
			 "changed, and the server did not keep it: shorten the text and send it "
			 "again.",
			 cs->cap == WEB_MAX_BODY ? "1 MiB (1048576 bytes) for a sheet, as the form sends it"
			 : sheet_url(url) ? "64 KiB (65536 bytes) from a browser not logged in as "
					    "the side (a sheet from the side's session: 1 MiB)"
					  : "64 KiB (65536 bytes) for a form");
		web_error_page(&r, 413, "Too large", msg);
	} else if (cs->busy) {
		web_error_page(&r, 503, "Busy",
			       "The server is receiving too much at once: try again in a moment. "
			       "Nothing was changed.");
	} else if (!strcmp(method, "POST") && form_parse(&r.form, cs->body.buf, cs->body.len) != 0) {
		web_error_page(&r, 400, "Bad form",
			       "The form's data could not be read (a bad %-escape or a NUL byte). "
			       "Nothing was changed.");
	} else if (strlen(url) > 2048 || split_path(&r, path) != 0) {
		web_error_page(&r, 404, "Not found", "There is no such page here.");
	} else {
		route(&r);
	}

	web_game_close(&r, NULL); /* a page that returned with its game open */
	ret = respond(&r);
	if (r.body_fd >= 0)
		close(r.body_fd);
	ord_buf_release(&r.body);
	ord_buf_release(&r.set_cookie);
	ord_buf_release(&r.location);
	ord_buf_release(&r.disposition);
	ord_kv_release(&r.form.kv);
	sodium_memzero(&r.sess, sizeof(r.sess));
	free(path);
	return ret;
}

static void completed(void *cls, struct MHD_Connection *conn, void **con_cls,
		      enum MHD_RequestTerminationCode toe)
{
	struct conn_state *cs = *con_cls;

	(void)cls;
	(void)conn;
	(void)toe;
	if (cs) {
		pthread_mutex_lock(&cs->w->bytes_lock);
		cs->w->buffered -= cs->body.len;
		pthread_mutex_unlock(&cs->w->bytes_lock);
		ord_buf_release(&cs->body);
		free(cs);
		*con_cls = NULL;
	}
}

/*
 * W17: the connections of a client, counted by the limits' key of its
 * address (web_conn_enter: an IPv6 one by its /64).  libmicrohttpd's
 * MHD_OPTION_PER_IP_CONNECTION_LIMIT counts each address alone, so one
 * /64 held as many connections as it has addresses (2^64).  The accept
 * policy counts a connection before libmicrohttpd takes it, and the
 * connection's start takes the count over, to give back when it closes.
 * Both run in the thread that accepted it, one after the other, but
 * libmicrohttpd may still close a connection between them (no memory,
 * its own limit, TLS failing to start) and say nothing: the count taken
 * for it is held by the thread (accepted) until its next accept gives it
 * back, so that it is counted a while longer, never lost for good.
 */
static _Thread_local struct {
	char ip[WEB_IP_MAX]; /* the address of the connection last accepted here */
	int held;            /* its count taken and not yet handed over */
} accepted;

static enum MHD_Result accept_policy(void *cls, const struct sockaddr *addr, socklen_t len)
{
	struct web *w = cls;
	char ip[WEB_IP_MAX];

	(void)len;
	if (accepted.held) {
		web_conn_leave(w->auth, accepted.ip);
		accepted.held = 0;
	}
	addr_text(ip, addr);
	if (web_conn_enter(w->auth, ip, w->o->per_address) != 0)
		return MHD_NO;
	memcpy(accepted.ip, ip, sizeof(ip));
	accepted.held = 1;
	return MHD_YES;
}

static void connection_notice(void *cls, struct MHD_Connection *conn, void **socket_context,
			      enum MHD_ConnectionNotificationCode code)
{
	struct web *w = cls;
	const union MHD_ConnectionInfo *ci;
	char ip[WEB_IP_MAX];

	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
		addr_text(ip, ci ? ci->client_addr : NULL);
		/* the count its accept took is handed over; one accepted
		 * elsewhere is counted now, past the limit too */
		if (accepted.held && !strcmp(accepted.ip, ip))
			accepted.held = 0;
		else if (web_conn_enter(w->auth, ip, 0) != 0)
			return; /* the counts are full: nothing to give back */
		*socket_context = ord_strdup(ip);
	} else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
		web_conn_leave(w->auth, *socket_context);
		free(*socket_context);
		*socket_context = NULL;
	}
}

/* libmicrohttpd's own unescaping would turn %00 into the end of the
 * string (/g/qb%00anything is /g/qb): a %00 is left as it is, so that it
 * names nothing. */
static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
	char *w = s, *r = s;

	(void)cls;
	(void)c;
	while (*r) {
		int hi, lo;

		if (r[0] == '%' && (hi = hexval(r[1])) >= 0 && (lo = hexval(r[2])) >= 0 && (hi || lo)) {
			*w++ = (char)(hi * 16 + lo);
			r += 3;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
	return (size_t)(w - s);
}

/* ---- starting ---- */

static int read_file(struct ord_buf *out, const char *path)
{
	FILE *fp = fopen(path, "rb");
	char chunk[4096];
	size_t n;

	if (!fp)
		return ord_error_set(ORD_ENOFILE, "cannot open '%s': %s", path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
		ord_buf_add(out, chunk, n);
	fclose(fp);
	return 0;
}

/* A listening socket for "HOST:PORT" ("[V6]:PORT"); its URL in url. */
static int listen_on(const char *spec, int tls, int *fd_out, struct ord_buf *url)
{
	struct addrinfo hints, *ai = NULL;
	char host[256], port[16];
	const char *colon;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char shown[INET6_ADDRSTRLEN];
	int fd, one = 1, rc, loop;

	if (spec[0] == '[') {
		const char *close = strchr(spec, ']');

		if (!close || close[1] != ':' || (size_t)(close - spec - 1) >= sizeof(host))
			return ord_error_set(ORD_EUSAGE, "--listen '%s' (expected [ADDRESS]:PORT)",
					     spec);
		snprintf(host, sizeof(host), "%.*s", (int)(close - spec - 1), spec + 1);
		colon = close + 1;
	} else {
		colon = strrchr(spec, ':');
		if (!colon || (size_t)(colon - spec) >= sizeof(host))
			return ord_error_set(ORD_EUSAGE, "--listen '%s' (expected ADDRESS:PORT)", spec);
		snprintf(host, sizeof(host), "%.*s", (int)(colon - spec), spec);
	}
	snprintf(port, sizeof(port), "%s", colon + 1);
	{
		long p;

		if (ord_parse_long(port, &p) != 0 || p < 0 || p > 65535)
			return ord_error_set(ORD_EUSAGE,
					     "--listen '%s': the port is a number from 0 to 65535",
					     spec);
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV | AI_NUMERICHOST;
	if ((rc = getaddrinfo(*host ? host : NULL, port, &hints, &ai)) != 0)
		return ord_error_set(ORD_EUSAGE, "--listen '%s': %s (give a numeric address)", spec,
				     gai_strerror(rc));
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		freeaddrinfo(ai);
		return ord_error_set(ORD_ERROR, "socket: %s", strerror(errno));
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 256) != 0) {
		rc = errno;
		close(fd);
		freeaddrinfo(ai);
		return ord_error_set(ORD_ERROR, "cannot listen on %s: %s", spec, strerror(rc));
	}
	freeaddrinfo(ai);
	getsockname(fd, (struct sockaddr *)&ss, &sl);
	if (ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)&ss;

		inet_ntop(AF_INET6, &s6->sin6_addr, shown, sizeof(shown));
		ord_buf_addf(url, "%s://[%s]:%u/", tls ? "https" : "http", shown, ntohs(s6->sin6_port));
		loop = IN6_IS_ADDR_LOOPBACK(&s6->sin6_addr);
	} else {
		const struct sockaddr_in *s4 = (const void *)&ss;

		inet_ntop(AF_INET, &s4->sin_addr, shown, sizeof(shown));
		ord_buf_addf(url, "%s://%s:%u/", tls ? "https" : "http", shown, ntohs(s4->sin_port));
		loop = (ntohl(s4->sin_addr.s_addr) >> 24) == 127;
	}
	if (!loop && !tls)
		fprintf(stderr, "orderly: warning: serving beyond this machine without TLS: give "
				"--tls-cert and --tls-key, or put a proxy with TLS in front "
				"(docs/web.md)\n");
	*fd_out = fd;
	return 0;
}

int web_serve(const struct web_opts *o)
{
	struct ord_buf cert = ORD_BUF_INIT, key = ORD_BUF_INIT, url = ORD_BUF_INIT;
	struct MHD_Daemon *d = NULL;
	MHD_AcceptPolicyCallback apc;
	MHD_NotifyConnectionCallback notice;
	struct web w;
	sigset_t set;
	unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG;
	int fd = -1, err, sig;
	struct stat st;

	memset(&w, 0, sizeof(w));
	w.o = o;
	pthread_mutex_init(&w.locks_lock, NULL);
	pthread_mutex_init(&w.bytes_lock, NULL);
	pthread_mutex_init(&w.notices_lock, NULL);
	if (stat(o->dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return ord_error_set(ORD_ENOFILE, "'%s' is not a directory of games", o->dir);
	if (o->tls_cert) {
		if ((err = read_file(&cert, o->tls_cert)) != 0 ||
		    (err = read_file(&key, o->tls_key)) != 0)
			goto out;
		w.tls = 1;
		flags |= MHD_USE_TLS;
	}
	if ((err = listen_on(o->listen, w.tls, &fd, &url)) != 0)
		goto out;
	w.auth = web_auth_new(o->threads);
	cache_start(&w);
	xmlInitParser(); /* once, before the threads (the referee's page reads XML) */

	/* the workers inherit the mask: only this thread takes the signals */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);

	/* W17: no limit, no counting (behind a proxy, by default) */
	apc = o->per_address ? accept_policy : NULL;
	notice = o->per_address ? connection_notice : NULL;
	if (w.tls)
		d = MHD_start_daemon(flags, 0, apc, &w, handle, &w, MHD_OPTION_LISTEN_SOCKET, fd,
				     MHD_OPTION_THREAD_POOL_SIZE, o->threads,
				     MHD_OPTION_CONNECTION_LIMIT, 1000u,
				     MHD_OPTION_CONNECTION_TIMEOUT, 60u, MHD_OPTION_NOTIFY_CONNECTION,
				     notice, &w, MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
				     MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
				     MHD_OPTION_HTTPS_MEM_CERT, cert.buf, MHD_OPTION_HTTPS_MEM_KEY,
				     key.buf, MHD_OPTION_END);
	else
		d = MHD_start_daemon(flags, 0, apc, &w, handle, &w, MHD_OPTION_LISTEN_SOCKET, fd,
				     MHD_OPTION_THREAD_POOL_SIZE, o->threads,
				     MHD_OPTION_CONNECTION_LIMIT, 1000u,
				     MHD_OPTION_CONNECTION_TIMEOUT, 60u, MHD_OPTION_NOTIFY_CONNECTION,
				     notice, &w, MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
				     MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL, MHD_OPTION_END);
	if (!d) {
		err = ord_error_set(ORD_ERROR, "cannot start the web server on %s%s", o->listen,
				    w.tls ? " (are the certificate and key PEM files that match?)"
					  : "");
		close(fd);
		goto out;
	}
	printf("serving %s at %s\n", o->dir, url.buf);
	fflush(stdout);
	sigwait(&set, &sig);
	fprintf(stderr, "orderly: %s: stopping\n", sig == SIGINT ? "interrupted" : "terminated");
	MHD_stop_daemon(d);
	close(fd);
	err = 0;
out:
	while (w.locks) {
		struct game_lock *l = w.locks;

		w.locks = l->next;
		pthread_mutex_destroy(&l->m);
		while (l->memo) {
			struct bundle_memo *m = l->memo;
			l->memo = m->next;
			free(m);
		}
		free(l->path);
		free(l);
	}
	pthread_mutex_destroy(&w.locks_lock);
	pthread_mutex_destroy(&w.bytes_lock);
	pthread_mutex_destroy(&w.notices_lock);
	cache_stop(&w);
	web_auth_free(w.auth);
	sodium_memzero(key.buf, key.len);
	ord_buf_release(&cert);
	ord_buf_release(&key);
	ord_buf_release(&url);
	return err;
}

__attribute__((visibility("default"))) const struct web_plugin *web_plugin(void)
{
	static const struct web_plugin table = { WEB_ABI, ORD_BUILD_ID, web_serve };

	return &table;
}
