/*
 * auth.c - the web page's sessions, CSRF tokens and login limits, kept in
 * memory (a restart logs everybody out; nothing of them is in a game file).
 *
 * A session is 32 random bytes, sent as a cookie in hex; the table keeps
 * only their BLAKE2b hash, so a copy of the server's memory holds no
 * usable cookie.  Each session has its own CSRF token (32 random bytes),
 * which every form carries and every POST must give back.  A cookie of no
 * session (the login form's, before the login) is kept nowhere: its token
 * is an HMAC of the cookie under a secret the server draws at its start
 * (W16).  A session
 * holds grants: (game, party) pairs for which a passphrase was given.
 *
 * Login limits, in windows of WEB_WINDOW seconds (web.md), count a client
 * by the key of its address (addr_key): an IPv4 address as it is, an IPv6
 * one by its /64 (a subscriber is given a /64, 2^64 addresses, and could
 * try each from a new one; a guesser with many /64s meets the side's
 * limit below), an IPv4-mapped one as the IPv4 address.  A key may have
 * WEB_FAILS_PER_IP wrong passphrases and WEB_TRIES_PER_IP checks in all
 * (right ones too: each costs 64 MiB and tens of milliseconds), then
 * waits for the window's end.
 *
 * A (game, party) may have WEB_FAILS_PER_SIDE wrong passphrases in a
 * window from every address together; past them its logins are refused
 * until the window's end, whatever the address, the server's log says so
 * once and the referee's page while it lasts.  The trade-off: that number
 * is both the most guesses anyone gets at a side (20 in 10 minutes, 2,880
 * a day, however many addresses he has) and what a stranger pays to keep
 * it locked (20 wrong passphrases every 10 minutes, from two keys at
 * least).  A longer window slows guessing and makes a lock last longer, a
 * shorter one the opposite; neither makes a lock dear.  So the lock does
 * not shut out a key the party logged in from in the last WEB_KNOWN_KEEP
 * seconds (the last WEB_KNOWN_PER_GRANT of them, in memory, in a list of
 * the game's own: another game's logins, whose referee may register
 * thousands of sides, push out none of them; a stranger cannot come from
 * the player's network, bar a shared IPv4 address, which still has its
 * own key's limits), nor touch a session already logged in; a player
 * on a network new to the server waits for the window's end after the
 * strangers stop, and a restart of the server lifts every lock.
 * The side's counters are the last the counter table gives up when full,
 * so that a flood of other keys' counters does not lift a lock.
 * The connections a client holds at once (server.c W17) are counted by
 * the same key, an IPv6 client by its /64 (web_conn_enter).
 *
 * A login as a side of a game drops the session's grants of the game's
 * other sides (not the referee's, who may play a side too: web.md): on a
 * browser shared at the club table, the second player's login would
 * otherwise keep the first one's, and his pages showed that side's sheet
 * to the next before the exchange.
 *
 * A grant (game, party) is held by at most WEB_SESSIONS_PER_GRANT live
 * sessions: a login past them takes the grant from the one of them used
 * longest ago (ending it when it holds no other), so that one passphrase
 * logged in from thousands of addresses fills no table and logs nobody
 * else out (slot() drops the oldest session of all when the table is
 * full).
 *
 * Passphrase checks
 * (crypto_pwhash, 64 MiB each) run at most WEB_HASHES at once; the others
 * wait, two of an address key at a time (players behind one router) and
 * all together two worker threads fewer than the server has, so that a
 * club's players logging in at once wait their turn (tens of milliseconds
 * each) while a flood of logins from one address is told the server is
 * busy and holds two worker threads, never every one.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "web/web.h"

#define WEB_MAX_SESSIONS 8192
#define WEB_IDLE_ANON (60 * 60)         /* an anonymous session (a login form) */
#define WEB_IDLE_GRANTED (12 * 60 * 60) /* a logged-in session, idle */
#define WEB_FAILS_PER_IP 10             /* wrong passphrases of an address key in a window */
#define WEB_TRIES_PER_IP 60             /* checks of an address key in a window */
#define WEB_MAX_COUNTERS 4096
#define WEB_SESSIONS_PER_GRANT 16 /* live sessions holding one (game, party) */
#define WEB_KNOWN_PER_GAME 4096   /* keys the parties of one game logged in from */
#define WEB_KNOWN_PER_GRANT 8     /* of them, of one party */
#define WEB_HASHES 1
#define WEB_HASH_ADDRS 64     /* at most this many logins in a check, running or waiting */
#define WEB_HASHES_PER_ADDR 2 /* of them, of one address (two players behind one router) */
#define WEB_CONN_KEYS 2048    /* address keys holding connections (the server takes 1000) */

struct sess {
	unsigned char key[32]; /* BLAKE2b of the cookie's bytes */
	char csrf[WEB_SID_HEX + 1];
	int64_t seen;  /* last use, unix seconds */
	uint64_t born; /* the order of its making (seen's ties) */
	struct web_grant grants[WEB_MAX_GRANTS];
	size_t ngrants;
	int used;
};

struct counter {
	/* "ip KEY", "tries KEY" or "side GAME/PARTY" (KEY: addr_key) */
	char what[WEB_GAME_NAME + WEB_PARTY_NAME + 80];
	int64_t start;    /* the window's start */
	int fails;        /* (or tries) */
	char pass_id[65]; /* a side's: the passphrase its wrong ones were given against */
};

/* A key a party logged in from: the side's lock does not shut it out. */
struct known {
	char key[WEB_IP_MAX];           /* addr_key; "" unused */
	char party[WEB_PARTY_NAME + 1]; /* a side, or WEB_REFEREE */
	int64_t last;                   /* its last login */
};

/* The keys the parties of one game logged in from: a list of its own, so
 * that the logins of one game (its referee may register thousands of
 * sides) make no other game's known networks give way. */
struct known_game {
	char game[WEB_GAME_NAME + 1];
	struct known *v; /* n used of cap, at most WEB_KNOWN_PER_GAME */
	size_t n, cap;
	struct known_game *next;
};

/* The connections an address key holds (server.c W17). */
struct conn_count {
	char key[WEB_IP_MAX]; /* addr_key; "" unused */
	unsigned n;           /* the connections it holds */
};

struct web_auth {
	pthread_mutex_t lock;
	struct sess *sess;                          /* WEB_MAX_SESSIONS */
	uint64_t born;                              /* sessions made so far */
	struct counter *counters;                   /* WEB_MAX_COUNTERS */
	struct known_game *known;                   /* a list a game, by game */
	unsigned char secret[crypto_auth_KEYBYTES]; /* the anonymous tokens' key (W16) */
	pthread_mutex_t conn_lock;
	struct conn_count *conns; /* WEB_CONN_KEYS */
	pthread_mutex_t hash_lock;
	pthread_cond_t hash_cond;
	int hashing;   /* checks running or waiting to */
	int running;   /* checks running */
	int max_stage; /* at most this many running or waiting */
	struct {
		char ip[WEB_IP_MAX]; /* the address key of a login in a check */
		int used;
	} stage[WEB_HASH_ADDRS];
};

static int64_t now(void)
{
	return (int64_t)time(NULL);
}

struct web_auth *web_auth_new(int threads)
{
	struct web_auth *a = ord_xcalloc(1, sizeof(*a));

	a->max_stage = threads > 3 ? threads - 2 : 1;
	if (a->max_stage > WEB_HASH_ADDRS)
		a->max_stage = WEB_HASH_ADDRS;

	pthread_mutex_init(&a->lock, NULL);
	pthread_mutex_init(&a->hash_lock, NULL);
	pthread_mutex_init(&a->conn_lock, NULL);
	pthread_cond_init(&a->hash_cond, NULL);
	a->conns = ord_xcalloc(WEB_CONN_KEYS, sizeof(*a->conns));
	a->sess = ord_xcalloc(WEB_MAX_SESSIONS, sizeof(*a->sess));
	a->counters = ord_xcalloc(WEB_MAX_COUNTERS, sizeof(*a->counters));
	crypto_auth_keygen(a->secret);
	return a;
}

void web_auth_free(struct web_auth *a)
{
	if (!a)
		return;
	sodium_memzero(a->sess, WEB_MAX_SESSIONS * sizeof(*a->sess));
	sodium_memzero(a->secret, sizeof(a->secret));
	free(a->sess);
	free(a->counters);
	while (a->known) {
		struct known_game *k = a->known;

		a->known = k->next;
		free(k->v);
		free(k);
	}
	pthread_mutex_destroy(&a->lock);
	pthread_mutex_destroy(&a->hash_lock);
	pthread_mutex_destroy(&a->conn_lock);
	pthread_cond_destroy(&a->hash_cond);
	free(a->conns);
	free(a);
}

static int unhex(unsigned char *out, size_t n, const char *hex)
{
	size_t bin = 0;

	if (!hex || strlen(hex) != 2 * n)
		return -1;
	if (sodium_hex2bin(out, n, hex, 2 * n, NULL, &bin, NULL) != 0 || bin != n)
		return -1;
	return 0;
}

static void key_of(unsigned char key[32], const unsigned char raw[32])
{
	crypto_generichash(key, 32, raw, 32, NULL, 0);
}

static int expired(const struct sess *s, int64_t t)
{
	return t - s->seen > (s->ngrants ? WEB_IDLE_GRANTED : WEB_IDLE_ANON);
}

/* The session with cookie sid (lock held), or NULL. */
static struct sess *lookup(struct web_auth *a, const char *sid)
{
	unsigned char raw[32], key[32];
	int64_t t = now();
	size_t i;

	if (unhex(raw, 32, sid) != 0)
		return NULL;
	key_of(key, raw);
	for (i = 0; i < WEB_MAX_SESSIONS; i++) {
		struct sess *s = &a->sess[i];

		if (s->used && !sodium_memcmp(s->key, key, 32)) {
			if (expired(s, t)) {
				s->used = 0;
				return NULL;
			}
			s->seen = t;
			return s;
		}
	}
	return NULL;
}

/* 1 when session x was used longer ago than y (or y is NULL). */
static int older(const struct sess *x, const struct sess *y)
{
	return !y || x->seen < y->seen || (x->seen == y->seen && x->born < y->born);
}

/* A free slot (lock held): an unused or expired one, else the anonymous
 * session seen longest ago, else the oldest. */
static struct sess *slot(struct web_auth *a)
{
	struct sess *anon = NULL, *old = NULL;
	int64_t t = now();
	size_t i;

	for (i = 0; i < WEB_MAX_SESSIONS; i++) {
		struct sess *s = &a->sess[i];

		if (!s->used || expired(s, t))
			return s;
		if (!s->ngrants && older(s, anon))
			anon = s;
		if (older(s, old))
			old = s;
	}
	return anon ? anon : old;
}

/* Drop grant i of a grant list of n. */
static void drop_grant(struct web_grant *v, size_t *n, size_t i)
{
	memmove(&v[i], &v[i + 1], (*n - i - 1) * sizeof(*v));
	(*n)--;
}

/* The index of the grant (game, party) in s, or -1. */
static int grant_of(const struct sess *s, const char *game, const char *party)
{
	size_t i;

	for (i = 0; i < s->ngrants; i++)
		if (!strcmp(s->grants[i].game, game) && !strcmp(s->grants[i].party, party))
			return (int)i;
	return -1;
}

/* Make room for one more session holding (game, party) (lock held): with
 * WEB_SESSIONS_PER_GRANT of them live, the one used longest ago gives up
 * that grant, and ends when it holds no other.  Only the grant's own
 * sessions are touched: a passphrase logged in from thousands of places
 * logs out none of the other players' sessions, nor the referee's. */
static void cap_grant(struct web_auth *a, const char *game, const char *party)
{
	struct sess *old = NULL;
	int64_t t = now();
	size_t i, n = 0;
	int k;

	for (i = 0; i < WEB_MAX_SESSIONS; i++) {
		struct sess *s = &a->sess[i];

		if (!s->used || expired(s, t) || grant_of(s, game, party) < 0)
			continue;
		n++;
		if (older(s, old))
			old = s;
	}
	if (n < WEB_SESSIONS_PER_GRANT)
		return;
	k = grant_of(old, game, party);
	drop_grant(old->grants, &old->ngrants, (size_t)k);
	if (!old->ngrants) {
		sodium_memzero(old, sizeof(*old));
		old->used = 0;
	}
}

static void copy_out(const struct sess *s, const char *sid, struct web_session *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->sid, sizeof(out->sid), "%s", sid);
	memcpy(out->csrf, s->csrf, sizeof(out->csrf));
	memcpy(out->grants, s->grants, sizeof(out->grants));
	out->ngrants = s->ngrants;
}

/* Fill s as a new session; its cookie in sid. */
static void fresh(struct web_auth *a, struct sess *s, char sid[WEB_SID_HEX + 1])
{
	unsigned char raw[32], tok[32];

	randombytes_buf(raw, 32);
	randombytes_buf(tok, 32);
	key_of(s->key, raw);
	sodium_bin2hex(sid, WEB_SID_HEX + 1, raw, 32);
	sodium_bin2hex(s->csrf, sizeof(s->csrf), tok, 32);
	sodium_memzero(raw, 32);
	s->seen = now();
	s->born = ++a->born;
	s->used = 1;
}

/* An anonymous session of cookie raw (W16): its CSRF token is derived from
 * the cookie with the server's secret, and nothing is stored, so that
 * strangers loading login pages fill no table and evict nobody. */
static void anonymous(struct web_auth *a, const unsigned char raw[32], struct web_session *out)
{
	unsigned char tok[crypto_auth_BYTES];

	memset(out, 0, sizeof(*out));
	sodium_bin2hex(out->sid, sizeof(out->sid), raw, 32);
	crypto_auth(tok, raw, 32, a->secret);
	sodium_bin2hex(out->csrf, sizeof(out->csrf), tok, 32);
}

int web_auth_find(struct web_auth *a, const char *sid, struct web_session *out)
{
	unsigned char raw[32];
	struct sess *s;

	memset(out, 0, sizeof(*out));
	if (!sid)
		return 0;
	pthread_mutex_lock(&a->lock);
	s = lookup(a, sid);
	if (s)
		copy_out(s, sid, out);
	pthread_mutex_unlock(&a->lock);
	if (!s && unhex(raw, 32, sid) == 0)
		anonymous(a, raw, out);
	return s != NULL;
}

void web_auth_create(struct web_auth *a, struct web_session *out)
{
	unsigned char raw[32];

	randombytes_buf(raw, 32);
	anonymous(a, raw, out);
	sodium_memzero(raw, 32);
}

int web_auth_grant(struct web_auth *a, const char *sid, const char *game, const char *party,
		   const char *pass_id, struct web_session *out)
{
	struct web_grant keep[WEB_MAX_GRANTS];
	size_t nkeep = 0, i;
	char nsid[WEB_SID_HEX + 1];
	struct sess *s;

	pthread_mutex_lock(&a->lock);
	s = sid ? lookup(a, sid) : NULL;
	if (s) {
		for (i = 0; i < s->ngrants; i++) {
			const struct web_grant *k = &s->grants[i];

			if (strcmp(k->game, game))
				keep[nkeep++] = *k; /* another game's */
			else if (strcmp(k->party, party) &&
				 (!strcmp(k->party, WEB_REFEREE) || !strcmp(party, WEB_REFEREE)))
				keep[nkeep++] = *k; /* the referee's beside a side's */
		}
		s->used = 0;
	}
	cap_grant(a, game, party);
	s = slot(a);
	memset(s, 0, sizeof(*s));
	fresh(a, s, nsid);
	/* the newest grant first; the oldest falls off a full session */
	snprintf(s->grants[0].game, sizeof(s->grants[0].game), "%s", game);
	snprintf(s->grants[0].party, sizeof(s->grants[0].party), "%s", party);
	snprintf(s->grants[0].pass_id, sizeof(s->grants[0].pass_id), "%s", pass_id);
	s->ngrants = 1;
	for (i = 0; i < nkeep && s->ngrants < WEB_MAX_GRANTS; i++)
		s->grants[s->ngrants++] = keep[i];
	copy_out(s, nsid, out);
	pthread_mutex_unlock(&a->lock);
	return 0;
}

void web_auth_check_grants(struct web_auth *a, struct web_session *s, const char *game, ord_game *g)
{
	struct sess *live;
	size_t i;

	for (i = 0; i < s->ngrants;) {
		struct ord_mail_party mp;
		const struct web_grant *gr = &s->grants[i];
		int current;

		if (strcmp(gr->game, game)) {
			i++;
			continue;
		}
		current = ord_mail_party(g, strcmp(gr->party, WEB_REFEREE) ? gr->party : NULL, &mp) ==
				  0 &&
			  !strcmp(mp.pass_id, gr->pass_id) && *mp.pass_id;
		ord_error_clear();
		if (current) {
			i++;
			continue;
		}
		pthread_mutex_lock(&a->lock);
		if ((live = lookup(a, s->sid)) != NULL) {
			size_t k;
			for (k = 0; k < live->ngrants; k++)
				if (!strcmp(live->grants[k].game, game) &&
				    !strcmp(live->grants[k].party, gr->party)) {
					drop_grant(live->grants, &live->ngrants, k);
					break;
				}
		}
		pthread_mutex_unlock(&a->lock);
		drop_grant(s->grants, &s->ngrants, i);
	}
}

void web_auth_end(struct web_auth *a, const char *sid)
{
	struct sess *s;

	pthread_mutex_lock(&a->lock);
	s = lookup(a, sid);
	if (s) {
		sodium_memzero(s, sizeof(*s));
		s->used = 0;
	}
	pthread_mutex_unlock(&a->lock);
}

int web_session_has(const struct web_session *s, const char *game, const char *party)
{
	size_t i;

	for (i = 0; i < s->ngrants; i++)
		if (!strcmp(s->grants[i].game, game) && !strcmp(s->grants[i].party, party))
			return 1;
	return 0;
}

/*
 * What a refused POST of party's page carried, given back to the browser
 * that sent it (a session ended, another side logged in on the same
 * browser, a form of an old session): a side's sheet, or the referee's
 * event as `KIND key=value ...` (the command line's words), in a box to
 * copy, and a link to log in to the game as party in a new tab, so that
 * the box stays.  It is this browser's own text, sent with this very
 * request: nothing is stored, nothing read of the game; "" when the form
 * carried nothing worth keeping.  Only a form the browser says was sent
 * from a page of this server is given back (here: W23 in server.c); one
 * from another site's page gets the login link alone, since its text is
 * that page's author's, not the player's.
 */
static void given_back(struct ord_buf *out, const char *game, const char *party,
		       const struct web_form *f, int here)
{
	int referee = !strcmp(party, WEB_REFEREE);
	const char *sheet = ord_kv_get(&f->kv, "sheet"), *kind = ord_kv_get(&f->kv, "kind"),
		   *action = ord_kv_get(&f->kv, "action");
	struct ord_buf text = ORD_BUF_INIT;
	size_t i;

	if (!referee && sheet && *sheet) {
		ord_buf_adds(&text, sheet);
	} else if (referee && action && !strcmp(action, "event") && kind && *kind) {
		ord_buf_adds(&text, kind);
		for (i = 0; i < f->kv.n; i++) {
			const struct ord_kv_item *it = &f->kv.items[i];

			if (strncmp(it->key, "k_", 2) || !it->key[2] || !*it->value)
				continue;
			ord_buf_addf(&text, " %s=%s", it->key + 2, it->value);
		}
		if (ord_kv_get(&f->kv, "override") && *ord_kv_get(&f->kv, "override"))
			ord_buf_addf(&text, "\noverride reason: %s", ord_kv_get(&f->kv, "override"));
	}
	if (text.len && !here) {
		ord_buf_adds(out,
			     "<p class=\"not-given-back\">What the form carried is not shown: "
			     "your browser does not say it was sent from a page of this server, "
			     "and a page elsewhere could otherwise put words on this server's page "
			     "as yours. If you typed it here, it is still in the tab you typed it "
			     "in.</p>\n");
	} else if (text.len) {
		ord_buf_addf(out,
			     "<section class=\"given-back\"><label for=\"given-back\">What you "
			     "sent, given back so that it is not lost: it was not stored, here or "
			     "anywhere. Copy it, log in, and %s</label>\n<textarea id=\"given-back\" "
			     "rows=\"12\" readonly spellcheck=\"false\">",
			     referee ? "record the event again" : "paste it in your sheet's box");
		web_esc(out, text.buf);
		ord_buf_adds(out, "</textarea></section>\n");
	}
	ord_buf_adds(out, "<p><a class=\"button login\" target=\"_blank\" rel=\"noopener\" "
			  "href=\"/g/");
	web_url(out, game);
	ord_buf_adds(out, "/login?side=");
	web_url(out, referee ? "referee" : party);
	ord_buf_adds(out, "\">Log in to this game as ");
	web_esc(out, web_party_label(party));
	ord_buf_adds(out, "</a> (in a new tab: this one keeps what you sent)</p>");
	ord_buf_release(&text);
}

int web_party_ok(struct web_req *r, const char *game, const char *party)
{
	int referee = !strcmp(party, WEB_REFEREE), here;
	struct ord_buf to = ORD_BUF_INIT;

	if (web_session_has(&r->sess, game, party)) {
		if (strcmp(r->method, "POST") || web_csrf_ok(r))
			return 1;
		/* a form of a session since ended: refused, its text given back */
		here = web_from_here(r);
		given_back(&to, game, party, &r->form, here);
		web_error_page_html(r, 403, "Refused",
				    here ? "This form is not one this server gave you (its security "
					   "token is missing or old: you logged in again since it was "
					   "drawn). Nothing was changed."
					 : "This form was not sent from a page of this server (its "
					   "security token is missing or wrong). Nothing was changed.",
				    to.buf);
		ord_buf_release(&to);
		return 0;
	}
	if (!strcmp(r->method, "POST")) {
		here = web_from_here(r);
		given_back(&to, game, party, &r->form, here);
		web_error_page_html(r, 403, here ? "Log in first" : "Refused",
				    !here     ? "This form was not sent from a page of this server "
						"(another site's page sent it here, or your browser does "
						"not say where it was sent from). Nothing was changed."
				    : referee ? "You are not logged in as the referee (or your "
						"session ended). Nothing was changed."
					      : "You are not logged in as this side (or your session "
						"ended, or another side logged in on this browser). "
						"Nothing was changed.",
				    to.buf);
		ord_buf_release(&to);
		return 0;
	}
	ord_buf_adds(&to, "/g/");
	web_url(&to, game);
	ord_buf_adds(&to, "/login?side=");
	web_url(&to, referee ? "referee" : party);
	web_redirect(r, to.buf);
	ord_buf_release(&to);
	return 0;
}

int web_session_any(const struct web_session *s, const char *game)
{
	size_t i;

	for (i = 0; i < s->ngrants; i++)
		if (!strcmp(s->grants[i].game, game))
			return 1;
	return 0;
}

/* The key the limits count address ip under: an IPv4 address as it is, an
 * IPv6 one as its /64 ("2001:db8:1:2::/64"), an IPv4-mapped IPv6 one as
 * the IPv4 address; anything else (a proxy's odd value, "unknown") as
 * given.  Brackets and a zone ("[fe80::1%eth0]") are no part of it. */
static void addr_key(char out[WEB_IP_MAX], const char *ip)
{
	char buf[WEB_IP_MAX];
	struct in6_addr a6;
	struct in_addr a4;
	const char *s = ip + (*ip == '[');
	size_t n = strcspn(s, "]%");

	snprintf(out, WEB_IP_MAX, "%s", ip);
	if (n >= sizeof(buf))
		return;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (inet_pton(AF_INET6, buf, &a6) == 1) {
		if (IN6_IS_ADDR_V4MAPPED(&a6)) {
			memcpy(&a4, &a6.s6_addr[12], 4);
			inet_ntop(AF_INET, &a4, out, WEB_IP_MAX);
		} else {
			char net[INET6_ADDRSTRLEN];

			memset(&a6.s6_addr[8], 0, 8);
			if (inet_ntop(AF_INET6, &a6, net, sizeof(net)))
				snprintf(out, WEB_IP_MAX, "%s/64", net);
		}
	} else if (inet_pton(AF_INET, buf, &a4) == 1) {
		inet_ntop(AF_INET, &a4, out, WEB_IP_MAX);
	}
}

static int side_counter(const struct counter *c)
{
	return !strncmp(c->what, "side ", 5);
}

/* The counter of what (lock held): found, or a new one in a free or
 * stale slot (or, when all are in use, the oldest that is not a side's,
 * so that a flood of addresses' counters does not lift a side's lock). */
static struct counter *counter(struct web_auth *a, const char *what, int create)
{
	struct counter *free_slot = NULL, *old = NULL;
	int64_t t = now();
	size_t i;

	for (i = 0; i < WEB_MAX_COUNTERS; i++) {
		struct counter *c = &a->counters[i];

		if (c->what[0] && !strcmp(c->what, what)) {
			if (t - c->start >= WEB_WINDOW) {
				c->start = t;
				c->fails = 0;
			}
			return c;
		}
		if (!free_slot && (!c->what[0] || t - c->start >= WEB_WINDOW))
			free_slot = c;
		if (!old || (side_counter(old) && !side_counter(c)) ||
		    (side_counter(old) == side_counter(c) && c->start < old->start))
			old = c;
	}
	if (!create)
		return NULL;
	if (!free_slot)
		free_slot = old;
	memset(free_slot, 0, sizeof(*free_slot));
	snprintf(free_slot->what, sizeof(free_slot->what), "%s", what);
	free_slot->start = t;
	return free_slot;
}

static int wait_of(struct counter *c, int limit)
{
	if (!c || c->fails < limit)
		return 0;
	return (int)(c->start + WEB_WINDOW - now()) > 0 ? (int)(c->start + WEB_WINDOW - now()) : 1;
}

/* The count of (game, party)'s wrong passphrases (lock held), counted
 * against the passphrase pass_id (ord_mail_party): a new passphrase
 * registered for the party starts it again, so that giving the side a new
 * passphrase, as the referee's page says, lifts a lock at once. */
static struct counter *side_count(struct web_auth *a, const char *game, const char *party,
				  const char *pass_id, int create)
{
	char what[sizeof(((struct counter *)0)->what)];
	struct counter *c;

	snprintf(what, sizeof(what), "side %s/%s", game, party);
	if (!(c = counter(a, what, create)))
		return NULL;
	if (strcmp(c->pass_id, pass_id)) {
		if (!create)
			return NULL;
		c->start = now();
		c->fails = 0;
		snprintf(c->pass_id, sizeof(c->pass_id), "%s", pass_id);
	}
	return c;
}

/* The list of game's known keys (lock held), made when create is set;
 * NULL when it has none. */
static struct known_game *known_game(struct web_auth *a, const char *game, int create)
{
	struct known_game *k;

	for (k = a->known; k; k = k->next)
		if (!strcmp(k->game, game))
			return k;
	if (!create)
		return NULL;
	k = ord_xcalloc(1, sizeof(*k));
	snprintf(k->game, sizeof(k->game), "%s", game);
	k->next = a->known;
	a->known = k;
	return k;
}

static int known_stale(const struct known *e, int64_t t)
{
	return !e->key[0] || t - e->last > WEB_KNOWN_KEEP;
}

/* The entry of key for (game, party) (lock held), or NULL. */
static struct known *known_of(struct web_auth *a, const char *key, const char *game, const char *party)
{
	struct known_game *kg = known_game(a, game, 0);
	int64_t t = now();
	size_t i;

	for (i = 0; kg && i < kg->n; i++) {
		struct known *k = &kg->v[i];

		if (!known_stale(k, t) && !strcmp(k->key, key) && !strcmp(k->party, party))
			return k;
	}
	return NULL;
}

int web_auth_may_try(struct web_auth *a, const char *ip, const char *game, const char *party,
		     const char *pass_id, int *side_wide)
{
	char what[sizeof(((struct counter *)0)->what)], key[WEB_IP_MAX];
	int w, w2;

	addr_key(key, ip);
	*side_wide = 0;
	pthread_mutex_lock(&a->lock);
	snprintf(what, sizeof(what), "ip %s", key);
	w = wait_of(counter(a, what, 0), WEB_FAILS_PER_IP);
	snprintf(what, sizeof(what), "tries %s", key);
	if ((w2 = wait_of(counter(a, what, 0), WEB_TRIES_PER_IP)) > w)
		w = w2;
	/* the side's count shuts out every key but those it logged in from */
	if ((w2 = wait_of(side_count(a, game, party, pass_id, 0), WEB_FAILS_PER_SIDE)) > 0 &&
	    !known_of(a, key, game, party)) {
		*side_wide = 1;
		if (w2 > w)
			w = w2;
	}
	if (!w) {
		snprintf(what, sizeof(what), "tries %s", key);
		counter(a, what, 1)->fails++;
	}
	pthread_mutex_unlock(&a->lock);
	return w;
}

int web_auth_failed(struct web_auth *a, const char *ip, const char *game, const char *party,
		    const char *pass_id)
{
	char what[sizeof(((struct counter *)0)->what)], key[WEB_IP_MAX];
	struct counter *c;
	int locked;

	addr_key(key, ip);
	pthread_mutex_lock(&a->lock);
	snprintf(what, sizeof(what), "ip %s", key);
	counter(a, what, 1)->fails++;
	c = side_count(a, game, party, pass_id, 1);
	c->fails++;
	locked = c->fails == WEB_FAILS_PER_SIDE;
	pthread_mutex_unlock(&a->lock);
	return locked;
}

void web_auth_succeeded(struct web_auth *a, const char *ip, const char *game, const char *party)
{
	char key[WEB_IP_MAX];
	struct known_game *kg;
	struct known *k, *mine_old = NULL, *free_slot = NULL, *old = NULL;
	int64_t t = now();
	size_t i, mine = 0;

	addr_key(key, ip);
	pthread_mutex_lock(&a->lock);
	if ((k = known_of(a, key, game, party)) != NULL) {
		k->last = t;
		goto out;
	}
	kg = known_game(a, game, 1);
	for (i = 0; i < kg->n; i++) {
		struct known *e = &kg->v[i];

		if (known_stale(e, t)) {
			if (!free_slot)
				free_slot = e;
			continue;
		}
		if (!old || e->last < old->last)
			old = e;
		if (!strcmp(e->party, party)) {
			mine++;
			if (!mine_old || e->last < mine_old->last)
				mine_old = e;
		}
	}
	/* the party's own oldest makes room first, then a free one, then a
	 * new one, then the oldest of the game's: never another game's */
	if (mine >= WEB_KNOWN_PER_GRANT)
		k = mine_old;
	else if (free_slot)
		k = free_slot;
	else if (kg->n < WEB_KNOWN_PER_GAME) {
		if (kg->n == kg->cap) {
			kg->cap = kg->cap ? 2 * kg->cap : 16;
			kg->v = ord_xrealloc(kg->v, kg->cap * sizeof(*kg->v));
		}
		k = &kg->v[kg->n++];
	} else
		k = old;
	snprintf(k->key, sizeof(k->key), "%s", key);
	snprintf(k->party, sizeof(k->party), "%s", party);
	k->last = t;
out:
	pthread_mutex_unlock(&a->lock);
}

int web_auth_side_locked(struct web_auth *a, const char *game, const char *party,
			 const char *pass_id, int *fails)
{
	struct counter *c;
	int w;

	pthread_mutex_lock(&a->lock);
	c = side_count(a, game, party, pass_id, 0);
	w = wait_of(c, WEB_FAILS_PER_SIDE);
	*fails = c ? c->fails : 0;
	pthread_mutex_unlock(&a->lock);
	return w;
}

/* The logins of address key ip in a check, and a free slot (or -1) in
 * *free_slot. */
static int in_stage(struct web_auth *a, const char *ip, int *free_slot)
{
	int i, n = 0;

	*free_slot = -1;
	for (i = 0; i < WEB_HASH_ADDRS; i++)
		if (!a->stage[i].used) {
			if (*free_slot < 0)
				*free_slot = i;
		} else if (!strcmp(a->stage[i].ip, ip)) {
			n++;
		}
	return n;
}

int web_auth_hash_enter(struct web_auth *a, const char *addr)
{
	char ip[WEB_IP_MAX];
	int slot;

	addr_key(ip, addr);
	pthread_mutex_lock(&a->hash_lock);
	if (a->hashing >= a->max_stage || in_stage(a, ip, &slot) >= WEB_HASHES_PER_ADDR || slot < 0) {
		pthread_mutex_unlock(&a->hash_lock);
		return -1;
	}
	snprintf(a->stage[slot].ip, sizeof(a->stage[slot].ip), "%s", ip);
	a->stage[slot].used = 1;
	a->hashing++;
	while (a->running >= WEB_HASHES)
		pthread_cond_wait(&a->hash_cond, &a->hash_lock);
	a->running++;
	pthread_mutex_unlock(&a->hash_lock);
	return 0;
}

void web_auth_hash_leave(struct web_auth *a, const char *addr)
{
	char ip[WEB_IP_MAX];
	int slot;

	addr_key(ip, addr);
	pthread_mutex_lock(&a->hash_lock);
	for (slot = 0; slot < WEB_HASH_ADDRS; slot++)
		if (a->stage[slot].used && !strcmp(a->stage[slot].ip, ip)) {
			a->stage[slot].used = 0;
			break;
		}
	a->hashing--;
	a->running--;
	pthread_cond_signal(&a->hash_cond);
	pthread_mutex_unlock(&a->hash_lock);
}

int web_auth_hash_busy(struct web_auth *a)
{
	int n;

	pthread_mutex_lock(&a->hash_lock);
	n = a->hashing;
	pthread_mutex_unlock(&a->hash_lock);
	return n;
}

/* The slot of address key in the connections' counts (conn_lock held):
 * its own, else a free one when create is set (its count 0), else -1. */
static int conn_slot(struct web_auth *a, const char *key, int create)
{
	int i, free_slot = -1;

	for (i = 0; i < WEB_CONN_KEYS; i++) {
		if (!a->conns[i].key[0]) {
			if (free_slot < 0)
				free_slot = i;
		} else if (!strcmp(a->conns[i].key, key)) {
			return i;
		}
	}
	if (!create || free_slot < 0)
		return -1;
	snprintf(a->conns[free_slot].key, sizeof(a->conns[free_slot].key), "%s", key);
	a->conns[free_slot].n = 0;
	return free_slot;
}

int web_conn_enter(struct web_auth *a, const char *addr, unsigned limit)
{
	char key[WEB_IP_MAX];
	int i, rc = -1;

	addr_key(key, addr);
	pthread_mutex_lock(&a->conn_lock);
	if ((i = conn_slot(a, key, 1)) >= 0 && (!limit || a->conns[i].n < limit)) {
		a->conns[i].n++;
		rc = 0;
	}
	pthread_mutex_unlock(&a->conn_lock);
	return rc;
}

void web_conn_leave(struct web_auth *a, const char *addr)
{
	char key[WEB_IP_MAX];
	int i;

	addr_key(key, addr);
	pthread_mutex_lock(&a->conn_lock);
	if ((i = conn_slot(a, key, 0)) >= 0 && (!a->conns[i].n || !--a->conns[i].n))
		a->conns[i].key[0] = '\0';
	pthread_mutex_unlock(&a->conn_lock);
}
