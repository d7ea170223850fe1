/*
 * web.h - `orderly serve` (src/web): the club's web page on libmicrohttpd.
 * A front-end like src/cli and src/mail: it uses liborderly's public
 * headers only (orderly.h, ruleset.h, notation.h).  docs/web.md says how
 * to run it; the decisions are listed at the top of server.c.
 *
 * What the files share: the server's settings and state (struct web),
 * one request and its response (struct web_req), forms, sessions and the
 * login limits (auth.c), HTML building (html.c) and the pages (pages.c,
 * player.c, referee.c).
 */
#ifndef ORD_WEB_H
#define ORD_WEB_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "orderly.h"

/* What `orderly serve` was told. */
struct web_opts {
	const char *dir;      /* the directory of game files (NAME.orderly) */
	const char *listen;   /* "127.0.0.1:8080", "[::1]:8080", "0.0.0.0:8080" */
	const char *tls_cert; /* PEM files: both or neither */
	const char *tls_key;
	int behind_proxy;     /* trust X-Forwarded-For / X-Forwarded-Proto from the proxy */
	unsigned threads;     /* worker threads (libmicrohttpd's pool) */
	unsigned per_address; /* connections one client address may hold at once, 0: any */
	/* Mail a deadline the referee's page changed to every side told of
	 * the turn (mail_deadline_notices: queued in the change's own
	 * transaction, sent by the next tick), *told the sides mailed; NULL:
	 * not mailed.  The server calls it from its worker threads one at a
	 * time: it composes with GMime, which the caller initialises once
	 * before web_serve (before the threads) and shuts down after. */
	int (*deadline_notices)(ord_game *g, int turn, int64_t from, int64_t to, size_t *told);
};

/* Run the server until SIGINT or SIGTERM.  Prints "serving DIR at URL"
 * on stdout once it listens.  0, or an ORD_E* code with the message set. */
int web_serve(const struct web_opts *o);

/* The web page is a shared object of its own, orderly-web.so, which the
 * orderly binary loads for `orderly serve` (src/cli/plugins.c):
 * libmicrohttpd and GnuTLS are for that command alone.  Its one entry
 * gives web_serve; abi is WEB_ABI, build the build's ORD_BUILD_ID. */
#define WEB_ABI 2
struct web_plugin {
	unsigned abi;
	const char *build;
	int (*serve)(const struct web_opts *o);
};
const struct web_plugin *web_plugin(void);

/* ---- sessions, CSRF, login limits (auth.c) ---- */

#define WEB_SID_HEX 64     /* a session id: 32 random bytes in hex */
#define WEB_MAX_GRANTS 8   /* (game, party) pairs one session may hold */
#define WEB_GAME_NAME 96   /* longest game name */
#define WEB_PARTY_NAME 64  /* longest side name */
#define WEB_REFEREE "\x01" /* the party name of the referee in a grant */
#define WEB_IP_MAX 64      /* a client's address as text, with its NUL */

struct web_grant {
	char game[WEB_GAME_NAME + 1];
	char party[WEB_PARTY_NAME + 1]; /* a side, or WEB_REFEREE */
	char pass_id[65];               /* the passphrase it was given for (ord_mail_party) */
};

/* A copy of a session, as a request sees it. */
struct web_session {
	char sid[WEB_SID_HEX + 1];  /* "" when the request has none */
	char csrf[WEB_SID_HEX + 1]; /* the token its forms carry */
	struct web_grant grants[WEB_MAX_GRANTS];
	size_t ngrants;
};

struct web_auth; /* the session table and the login counters (opaque) */

/* threads: the server's worker threads (logins waiting for a passphrase
 * check leave two of them free). */
struct web_auth *web_auth_new(int threads);
void web_auth_free(struct web_auth *a);
/* The session of cookie sid; 1 if found.  A well-formed cookie of no
 * session is an anonymous one (no grants; its CSRF token derived from the
 * cookie, W16); NULL or a malformed one: out->sid "". */
int web_auth_find(struct web_auth *a, const char *sid, struct web_session *out);
/* A new anonymous session (for a login form's CSRF token): a random
 * cookie and its derived token, stored nowhere (W16). */
void web_auth_create(struct web_auth *a, struct web_session *out);
/* Add a grant to session sid under a new id (the old one ends, so a
 * session fixed before the login is worth nothing after it).  A side's
 * grant replaces the session's grants of the game's other sides (a
 * shared browser: the next player must not see the last one's sheet);
 * the referee's and a side's are held together.  At most 16
 * live sessions hold one grant: past them, the one of them used longest
 * ago loses it (and ends when it holds no other). */
int web_auth_grant(struct web_auth *a, const char *sid, const char *game, const char *party,
		   const char *pass_id, struct web_session *out);
/* Drop from session sid (and from s, its copy) the grants of game whose
 * passphrase is no longer the registered one: a passphrase changed, or
 * removed, ends what was logged in with the old one. */
void web_auth_check_grants(struct web_auth *a, struct web_session *s, const char *game, ord_game *g);
/* End session sid. */
void web_auth_end(struct web_auth *a, const char *sid);
/* 1 when s holds a grant of game for party (WEB_REFEREE: the referee). */
int web_session_has(const struct web_session *s, const char *game, const char *party);
/* 1 when s holds any grant of game. */
int web_session_any(const struct web_session *s, const char *game);
/* The login limits' numbers that pages tell (the rest are auth.c's). */
#define WEB_WINDOW (10 * 60)               /* the limits' window, seconds */
#define WEB_FAILS_PER_SIDE 20              /* wrong passphrases for a party from every key in it */
#define WEB_KNOWN_KEEP (30 * 24 * 60 * 60) /* a network logged in from is known for, seconds */
/* Login limits (auth.c), counting an IPv6 address by its /64: 0 when a
 * try from ip for (game, party) may be made now (it is counted as one of
 * ip's tries), else the seconds to wait, *side_wide 1 when the party's
 * logins are refused from every address it has not logged in from (too
 * many wrong passphrases for it from all of them).  Wrong passphrases are
 * counted with web_auth_failed, 1 when this one locked the party; a login
 * with web_auth_succeeded, whose address the party's lock then lets in.
 * A party's wrong passphrases count against its passphrase pass_id
 * (ord_mail_party's; "" when none is registered): a new one lifts its
 * lock. */
int web_auth_may_try(struct web_auth *a, const char *ip, const char *game, const char *party,
		     const char *pass_id, int *side_wide);
int web_auth_failed(struct web_auth *a, const char *ip, const char *game, const char *party,
		    const char *pass_id);
void web_auth_succeeded(struct web_auth *a, const char *ip, const char *game, const char *party);
/* The seconds the lock of (game, party) has left, 0 when it has none;
 * *fails the party's wrong passphrases in the window. */
int web_auth_side_locked(struct web_auth *a, const char *game, const char *party,
			 const char *pass_id, int *fails);
/* Passphrase checks are slow on purpose (crypto_pwhash): one at once,
 * whatever the number of requests, the others waiting their turn, two of
 * an address at a time and all together two fewer than the server's
 * threads; -1 when ip has two already or that many are, and the login is
 * to be told the server is busy (no web_auth_hash_leave then). */
int web_auth_hash_enter(struct web_auth *a, const char *ip);
void web_auth_hash_leave(struct web_auth *a, const char *ip);
/* The logins in a check, running or waiting. */
int web_auth_hash_busy(struct web_auth *a);
/* The connections clients hold at once (server.c W17), counted by the
 * limits' key of their address (an IPv6 one by its /64, which one
 * subscriber holds whole): 0 when addr's key may hold one more, which is
 * counted, -1 when it holds limit already (0: no limit); each counted
 * connection is let go of with web_conn_leave. */
int web_conn_enter(struct web_auth *a, const char *addr, unsigned limit);
void web_conn_leave(struct web_auth *a, const char *addr);

/* ---- a request and its response (server.c) ---- */

#define WEB_MAX_BODY ((size_t)1 << 20) /* a sheet's POST body, the largest taken (W15) */

/* A decoded application/x-www-form-urlencoded body. */
struct web_form {
	struct ord_kv kv;
};

struct web;

struct web_req {
	struct web *w;
	void *conn;           /* struct MHD_Connection */
	const char *method;   /* "GET", "POST", "HEAD" */
	const char *path;     /* decoded, without the query */
	const char *parts[8]; /* path split at '/', decoded */
	size_t nparts;
	struct web_form form;    /* a POST's fields */
	struct web_session sess; /* the caller's session (sid "" if none) */
	char ip[WEB_IP_MAX];     /* the client's address */
	int https;               /* reached over TLS (or the proxy says so) */
	/* the response */
	int status;
	const char *ctype;          /* "text/html; charset=utf-8" */
	struct ord_buf body;        /* the response's bytes */
	struct ord_buf set_cookie;  /* Set-Cookie value, "" for none */
	struct ord_buf location;    /* Location for a redirect */
	struct ord_buf disposition; /* Content-Disposition, "" for none */
	int cache;                  /* 1: may be cached (static files), 2: asked again */
	char etag[36];              /* ETag, "" for none */
	int body_fd;                /* >= 0: the response is this file's bytes */
	uint64_t body_fd_len;       /* and their number */
	const char *csp;            /* this response's Content-Security-Policy, NULL: the pages' */
	void *game_lock;            /* the lock of the game open now (W8), or NULL */
};

/* The state of turn's bundle as game g (open under its lock) would give
 * it now (ord_game_export_state), which names the server's copy of it
 * (W18): found again only when the file changed on the disk since it was
 * last found (a write by any process); errors as ord_game_export's. */
int web_bundle_state(struct web_req *r, ord_game *g, int turn, unsigned char id[32]);
/* A turn's bundle (W18): served as the server's cached file of id when
 * it holds one (0), else -1 and nothing is set. */
int web_respond_cached(struct web_req *r, const unsigned char id[32]);
/* Turn's bundle of game g (open under its lock) made into a new file
 * (ord_game_export_fd: never held in memory) and served from it, made its
 * state (ord_bundle_state_fd); the file is kept in the server's directory
 * of bundles under made (W18), or, with none, removed as it is served;
 * made in memory (r->body) only when no directory takes a file.
 * 0, or ord_game_export_fd's refusal, nothing served and no file left;
 * what names the bundle in the server's messages. */
int web_bundle_make(struct web_req *r, ord_game *g, int turn, unsigned char made[32], const char *what);
/* 1, with a 304 response set, when the request's If-None-Match names
 * etag (which the response carries either way). */
int web_not_modified(struct web_req *r, const char *etag);
/* A GET argument (query string), or NULL. */
const char *web_arg(struct web_req *r, const char *name);
/* 1 when the browser says the request was sent from a page of this
 * server (W23: Sec-Fetch-Site same-origin, else an Origin that is this
 * server's scheme and Host); 0 from another site, or when it says
 * nothing. */
int web_from_here(struct web_req *r);
/* A POST field, or NULL. */
const char *web_field(struct web_req *r, const char *name);
/* The path of game NAME's file in the served directory (caller frees),
 * or NULL when NAME is no game name (nothing but [A-Za-z0-9_.-], not
 * starting with '.'). */
char *web_game_path(struct web_req *r, const char *name);
/* Open game NAME: read-only for a GET or HEAD, read-write for a POST
 * (W11); on failure the response is an error page and NULL is returned. */
ord_game *web_open_game(struct web_req *r, const char *name);
/* The same, read-only whatever the method: a POST that changes nothing. */
ord_game *web_open_game_to_read(struct web_req *r, const char *name);
/* Open the game file at path, holding its lock (W8) until
 * web_game_close; a request has one game open at a time.  Read-write
 * when change is set, else read-only (ORD_OPEN_READONLY, W11). */
int web_game_open_at(struct web_req *r, const char *path, int change, ord_game **out);
void web_game_close(struct web_req *r, ord_game *g);
/* Log the library's last error for game name on standard error (W13):
 * its message may name paths of this machine, which no page shows. */
void web_log_error(struct web_req *r, const char *name);
/* Make sure the caller has a session (a login form needs a CSRF token). */
void web_need_session(struct web_req *r);
/* 1 when the POST carries the session's CSRF token; else the response is
 * a 403 page and 0 is returned. */
int web_csrf_ok(struct web_req *r);
/* May this request act as party (a side, or WEB_REFEREE) of game?  1 when
 * its session holds the grant and a POST carries its CSRF token; else the
 * answer is written (a GET is sent to the login page, a POST refused with
 * nothing changed) and 0. */
int web_party_ok(struct web_req *r, const char *game, const char *party);
/* Set the cookie of session s. */
void web_set_cookie(struct web_req *r, const struct web_session *s);
/* Redirect (303 See Other) to url. */
void web_redirect(struct web_req *r, const char *url);
/* An error page with status and a message (plain text, escaped here). */
void web_error_page(struct web_req *r, int status, const char *title, const char *msg);
/* The same, with html (already escaped, NULL: none) after the message. */
void web_error_page_html(struct web_req *r, int status, const char *title, const char *msg,
			 const char *html);
/* The auth table of the server. */
struct web_auth *web_auth_of(struct web_req *r);
/* The served directory. */
const char *web_dir(struct web_req *r);
/* The server's deadline_notices (web_opts) for a change of turn's deadline
 * from `from` to `to`, under the server's lock of it; *told 0 and nothing
 * done when the server has none. */
int web_deadline_notices(struct web_req *r, ord_game *g, int turn, int64_t from, int64_t to,
			 size_t *told);

/* ---- HTML (html.c) ---- */

/* Append s escaped for HTML text and attribute values (& < > " '). */
void web_esc(struct ord_buf *b, const char *s);
void web_esc_n(struct ord_buf *b, const char *s, size_t n);
/* A name of the game's scenario (its title, a unit's name) as web_esc,
 * but every character a reader does not see or that reorders what he sees
 * (a bidirectional override, a zero-width space: ord_name_char_hidden)
 * shown escaped, \u202e, as the text report shows it: a game made before
 * `new` refused such names, or by a referee's own build, holds them (threat
 * model, attack 41).  Not for a form's value, which must come back as it
 * was. */
void web_esc_name(struct ord_buf *b, const char *s);
/* n bytes of s so (one line of a sheet: its order and its comment, where
 * an old sheet or a referee's own build may hold a bidirectional override
 * or a C1 control: attack 43). */
void web_esc_name_n(struct ord_buf *b, const char *s, size_t n);
/* Append s percent-encoded for a URL path segment or query value. */
void web_url(struct ord_buf *b, const char *s);
/* Start a page: doctype, head (title escaped), the header bar with crumbs
 * (NULL-terminated label, href pairs; href NULL: no link). */
void web_page_start(struct web_req *r, const char *title, const char *const *crumbs);
void web_page_end(struct web_req *r);
/* A form's start (POST to action) with its CSRF field. */
void web_form_start(struct web_req *r, const char *action, const char *cls);
/* A duration as "2 d 4 h", "3 h 12 min", "45 s". */
void web_duration(struct ord_buf *b, int64_t secs);
/* The deadline of g's turn whose sheets are taken until `until` (its
 * status's deadline, the end of the schedule's grace: schedule.c S3): the
 * deadline the players are told, the time left (the <time> element the
 * script counts down), and with a grace, when it ends; open 0 (the turn
 * sealed): the deadline and that the sheets are closed, nothing left.
 * Each time in UTC, a <time class="utc"> the script gives in the viewer's
 * own zone too. */
void web_deadline(struct ord_buf *b, ord_game *g, int64_t until, int open);
/* A time of the game: <time class="utc"> with its UTC text as `orderly`
 * writes it (a sheet stored: how 0), or as people read it, "Tue 10 Dec
 * 2030, 18:00 UTC" (WEB_TIME_READ); WEB_TIME_COUNT, a deadline to count
 * down from now: read so, of class "deadline" too, with data-at and
 * data-now for the script.  The page's script adds the viewer's own time
 * beside each.  now is read only with WEB_TIME_COUNT. */
#define WEB_TIME_READ 1
#define WEB_TIME_COUNT 2
/* WEB_TIME_SECOND: the time of day to the second, "18:00:02 UTC" (a time
 * a second decides: the seal's confirmation, attack 36), its class
 * "second" too, which the script gives to the second as well */
#define WEB_TIME_SECOND 4
void web_time(struct ord_buf *b, int64_t at, int how, int64_t now);
/* Lines of diagnostics as a list, each "line:col" linking to the text
 * area with id area (NULL: no links). */
void web_diag_list(struct ord_buf *b, const struct ord_diag *d, const char *area);
/* The name of a party for people: the side, or "the referee". */
const char *web_party_label(const char *party);
/* s less the blanks at both ends (ASCII's, and Unicode's white space and
 * zero-width ones, which a paste or a phone's keyboard brings): where it
 * starts in s, and its length in *len. */
const char *web_trim(const char *s, size_t *len);
/* Hex of n bytes into out (2n + 1). */
void web_hex(char *out, const unsigned char *p, size_t n);

/* ---- the pages ---- */

void web_page_games(struct web_req *r);                                    /* GET / */
void web_page_status(struct web_req *r, const char *name);                 /* GET /g/NAME */
void web_page_head(struct web_req *r, const char *name, const char *file); /* heads */
void web_page_bundle(struct web_req *r, const char *name, const char *file);
void web_page_login(struct web_req *r, const char *name);  /* GET/POST /g/NAME/login */
void web_page_logout(struct web_req *r, const char *name); /* POST /g/NAME/logout */
void web_page_player(struct web_req *r, const char *name, const char *side);
void web_page_report(struct web_req *r, const char *name, const char *party, const char *turn);
void web_page_referee(struct web_req *r, const char *name);

/* Shared by the pages: the heads and bundles of a game, and the verify
 * command for a side (NULL: the referee, no receipt). */
void web_files_section(struct web_req *r, ord_game *g, const char *name, const char *side);
/* The maps of every turn and the chart as party may see them (its fog of
 * war), as images of web_page_picture: this turn's map and the chart, the
 * earlier turns' maps folded. */
void web_pictures_section(struct web_req *r, ord_game *g, const char *name, const char *party);
void web_page_picture(struct web_req *r, const char *name, const char *party, const char *kind,
		      const char *file);
/* The list of reports of every turn, with the ruleset's languages. */
void web_reports_section(struct web_req *r, ord_game *g, const char *name, const char *party);

/* The notation help for a notation name ("hieroglyph"), or NULL. */
const char *web_notation_help(const char *notation);
/* Markdown (the few kinds a notation's help uses) as HTML, every byte of
 * text escaped (markdown.c). */
void web_markdown(struct ord_buf *b, const char *md, size_t len);

/* Static files (compiled in from src/web/static/). */
extern const unsigned char web_css[];
extern const size_t web_css_len;
extern const unsigned char web_js[];
extern const size_t web_js_len;
extern const unsigned char web_help_hieroglyph[];
extern const size_t web_help_hieroglyph_len;
extern const unsigned char web_help_ordre[];
extern const size_t web_help_ordre_len;

#endif
