/*
 * pages.c - the pages anybody may see (the games, a game's status, its
 * signed heads), logging in and out, the reports, the bundles, and what
 * the player's and the referee's pages share (files, reports, pictures).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "ruleset.h"
#include "web/web.h"

/* ---- the games ---- */

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void state_badge(struct ord_buf *b, const struct ord_game_status *st)
{
	ord_buf_adds(b, "<span class=\"state state-");
	web_esc(b, st->state);
	ord_buf_adds(b, "\">");
	web_esc(b, st->state);
	if (*st->phase) {
		ord_buf_adds(b, ": ");
		web_esc(b, st->phase);
	}
	ord_buf_adds(b, "</span>");
}

void web_page_games(struct web_req *r)
{
	struct ord_buf *b = &r->body;
	char **names = NULL;
	size_t n = 0, alloc = 0, i;
	DIR *d = opendir(web_dir(r));
	struct dirent *e;

	web_page_start(r, "Games", NULL);
	ord_buf_adds(b, "<h1>Games</h1>\n");
	while (d && (e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		char *name;

		if (len <= 8 || strcmp(e->d_name + len - 8, ".orderly"))
			continue;
		name = ord_strdup(e->d_name);
		name[len - 8] = '\0';
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			names = ord_xrealloc(names, alloc * sizeof(*names));
		}
		names[n++] = name;
	}
	if (d)
		closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	if (!n)
		ord_buf_adds(b, "<p class=\"muted\">No games here yet: <code>orderly new "
				"DIR/NAME.orderly --scenario FILE.xml</code> makes one.</p>\n");
	else
		ord_buf_adds(b, "<div class=\"table-wrap\"><table class=\"games\">\n"
				"<thead><tr><th>Game</th><th>Ruleset</th><th>Turn</th><th>State</th>"
				"<th>Deadline</th></tr></thead><tbody>\n");
	for (i = 0; i < n; i++) {
		struct ord_game_status st;
		char *path = web_game_path(r, names[i]);
		ord_game *g = NULL;

		if (!path)
			goto next; /* not a plain file, or not a name we serve */
		ord_buf_adds(b, "<tr><td data-label=\"Game\"><a href=\"/g/");
		web_url(b, names[i]);
		ord_buf_adds(b, "\">");
		if (web_game_open_at(r, path, 0, &g) != 0 || ord_game_status(g, &st) != 0) {
			web_esc(b, names[i]);
			web_log_error(r, names[i]);
			ord_buf_adds(b, "</a></td><td colspan=\"4\" class=\"error\">cannot be read "
					"(the server's log says why)</td></tr>\n");
			goto next;
		}
		web_esc_name(b, st.title);
		ord_buf_adds(b, "</a> <span class=\"muted\">");
		web_esc(b, names[i]);
		ord_buf_adds(b, "</span></td><td data-label=\"Ruleset\">");
		web_esc(b, st.ruleset);
		ord_buf_addf(b, "</td><td data-label=\"Turn\">%d</td><td data-label=\"State\">",
			     st.turn);
		state_badge(b, &st);
		ord_buf_adds(b, "</td><td data-label=\"Deadline\">");
		web_deadline(b, g, st.deadline, !strcmp(st.state, "open"));
		ord_buf_adds(b, "</td></tr>\n");
	next:
		if (g)
			web_game_close(r, g);
		free(path);
		free(names[i]);
	}
	if (n)
		ord_buf_adds(b, "</tbody></table></div>\n");
	free(names);
	web_page_end(r);
}

/* ---- a game's status ---- */

#define WEB_PHASES 64 /* a turn's phases at most (a witness chain's links) */

struct status_ctx {
	struct web_req *r;
	const char *name;
};

/* A head's file name after the game's: AT-TURN.head, or close-TURN-PHASE.head
 * for the close of a phase (phase > 0; a turn has one per phase). */
static void head_file(struct ord_buf *b, const char *at, int turn, int phase)
{
	if (phase > 0)
		ord_buf_addf(b, "%s-%d-%d.head", at, turn, phase);
	else
		ord_buf_addf(b, "%s-%d.head", at, turn);
}

/* The name a head's file is downloaded by, escaped, appended to b: as the
 * mail judge names it (ord_game_file_name: the name the game's files
 * keep, a renamed game's the one it began with), never kept from here. */
static void head_name(struct ord_buf *b, ord_game *g, const char *at, int turn, int phase)
{
	struct ord_buf own = ORD_BUF_INIT, name = ORD_BUF_INIT;

	head_file(&own, at, turn, phase);
	ord_game_file_name(g, 0, &name, NULL, "%s", own.buf);
	web_esc(b, name.buf);
	ord_buf_release(&own);
	ord_buf_release(&name);
}

/* The name of game g's file fmt names (a bundle, a side's head), escaped,
 * appended to b: as head_name. */
static void file_name(struct ord_buf *b, ord_game *g, const char *side, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void file_name(struct ord_buf *b, ord_game *g, const char *side, const char *fmt, ...)
{
	struct ord_buf name = ORD_BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	ord_game_file_namev(g, 0, &name, side, fmt, ap);
	va_end(ap);
	web_esc(b, name.buf);
	ord_buf_release(&name);
}

static void head_link(struct ord_buf *b, ord_game *g, const char *name, const char *at, int turn,
		      int phase, const char *label)
{
	ord_buf_adds(b, "<li><a download href=\"/g/");
	web_url(b, name);
	ord_buf_adds(b, "/head/");
	head_file(b, at, turn, phase);
	ord_buf_adds(b, "\">");
	head_name(b, g, at, turn, phase);
	ord_buf_adds(b, "</a> <span class=\"muted\">");
	web_esc(b, label);
	ord_buf_adds(b, "</span></li>");
}

/* The heads of game g as links, newest first (a witnessed game's closes
 * of each phase too: a player needs the head of a close to reveal his
 * link, and keeps it as the only proof the phase was not closed again). */
static void heads_list(struct ord_buf *b, ord_game *g, const char *name, int turn, int nclose)
{
	struct ord_head h;
	int t, p;

	ord_buf_adds(b, "<ul class=\"files\">");
	for (t = turn; t >= 1; t--) {
		if (ord_game_head(g, &h, t, "exchange") == 0)
			head_link(b, g, name, "exchange", t, 0,
				  "the exchange; fixes the next turn's seed");
		for (p = nclose; p >= 1; p--)
			if (ord_game_head_close(g, &h, t, p) == 0) {
				char label[64];

				snprintf(label, sizeof(label),
					 "the close of phase %d: its events, before the links", p);
				head_link(b, g, name, "close", t, p, label);
			}
		if (ord_game_head(g, &h, t, "seal") == 0)
			head_link(b, g, name, "seal", t, 0, "the seal: every sheet's commitment");
	}
	if (ord_game_head(g, &h, 1, "open") == 0)
		head_link(b, g, name, "open", 1, 0, "the game's opening: turn 1's seed commitment");
	ord_buf_adds(b, "</ul>\n");
	ord_error_clear();
}

static int status_fill(void *ud, ord_game *g)
{
	struct status_ctx *c = ud;
	struct web_req *r = c->r;
	struct ord_buf *b = &r->body;
	struct ord_game_status st;
	unsigned char pk[32];
	char hex[65];
	const char *crumbs[4];
	size_t i;
	int err;

	if ((err = ord_game_status(g, &st)) != 0)
		return err;
	crumbs[0] = st.title;
	crumbs[1] = NULL;
	crumbs[2] = NULL;
	web_page_start(r, st.title, crumbs);
	ord_buf_adds(b, "<h1>");
	web_esc_name(b, st.title);
	ord_buf_adds(b, "</h1>\n");
	ord_buf_addf(b,
		     "<section class=\"card\"><h2>Sheets of turn %d</h2>\n"
		     "<p class=\"muted\">Who has handed in a sheet; what it says stays secret until "
		     "the exchange.</p>\n<ul class=\"sides\">",
		     st.turn);
	for (i = 0; i < ord_game_nsides(g); i++) {
		const char *side = ord_game_side_name(g, i);
		unsigned char cm[32];
		char source[16] = "";
		int version = 0;

		if (ord_game_side_sheet(g, st.turn, side, &version, source, cm) != 0)
			version = 0;
		ord_buf_adds(b, "<li><a href=\"/g/");
		web_url(b, c->name);
		ord_buf_adds(b, "/side/");
		web_url(b, side);
		ord_buf_adds(b, "\">");
		web_esc(b, side);
		ord_buf_adds(b, "</a> ");
		if (!version)
			ord_buf_adds(b, "<span class=\"badge no\">no sheet yet</span>");
		else if (!strcmp(source, "submitted") &&
			 (web_session_has(&r->sess, c->name, side) ||
			  web_session_has(&r->sess, c->name, WEB_REFEREE)))
			/* how often a side rewrote its sheet is its own and the
			 * referee's: told to the enemy, it says something */
			ord_buf_addf(b,
				     "<span class=\"badge yes\">sheet in</span> <span "
				     "class=\"muted\">version %d</span>",
				     version);
		else if (!strcmp(source, "submitted"))
			ord_buf_adds(b, "<span class=\"badge yes\">sheet in</span>");
		else {
			ord_buf_adds(b, "<span class=\"badge held\">");
			web_esc(b, source);
			ord_buf_adds(b, "</span> <span class=\"muted\">(no sheet: the NMR policy stood in)"
					"</span>");
		}
		ord_buf_adds(b, "</li>");
	}
	ord_error_clear();
	ord_buf_adds(b, "</ul>\n<p><a class=\"button\" href=\"/g/");
	web_url(b, c->name);
	ord_buf_adds(b, "/login\">Log in as a side</a> <a class=\"button secondary\" href=\"/g/");
	web_url(b, c->name);
	ord_buf_adds(b, "/referee\">Referee</a></p></section>\n");

	ord_buf_adds(b, "<section class=\"card\"><dl class=\"facts\"><dt>Ruleset</dt><dd>");
	web_esc(b, st.ruleset);
	ord_buf_addf(b, "</dd><dt>Turn</dt><dd>%d</dd><dt>State</dt><dd>", st.turn);
	state_badge(b, &st);
	if (st.nphases && strcmp(st.state, "open"))
		ord_buf_addf(b, " <span class=\"muted\">(%d of %d phases resolved)</span>",
			     st.phases_resolved, st.nphases);
	ord_buf_adds(b, "</dd><dt>Deadline</dt><dd>");
	web_deadline(b, g, st.deadline, !strcmp(st.state, "open"));
	ord_buf_adds(b, "</dd><dt>Missing sheets</dt><dd>");
	web_esc(b, st.nmr);
	ord_buf_adds(b, " <span class=\"muted\">(what stands in for a side without a sheet at the "
			"seal)</span></dd>");
	if (ord_game_pubkey(g, pk) == 0) {
		web_hex(hex, pk, 32);
		ord_buf_addf(b, "<dt>Game's key</dt><dd><code class=\"hex\">%s</code></dd>", hex);
	}
	web_hex(hex, st.seed_commitment, 32);
	ord_buf_addf(b,
		     "<dt>Seed commitment</dt><dd><code class=\"hex\">%s</code> "
		     "<span class=\"muted\">(turn %d's sheets commit to it)</span></dd></dl>"
		     "</section>\n",
		     hex, st.turn);
	if (st.fixed_dice)
		ord_buf_adds(b, "<p class=\"warn\">A test game: its dice are given by the referee, "
				"not rolled.</p>\n");

	ord_buf_adds(b, "<section class=\"card\"><h2>Signed heads</h2>\n<p class=\"muted\">Keep "
			"these: each is signed by the game's key and fixes the history up to it. "
			"<code>orderly verify BUNDLE --head FILE</code> checks a turn's bundle "
			"against them.</p>\n");
	heads_list(b, g, c->name, st.turn, st.witnessed ? st.nphases : 0);
	ord_buf_adds(b, "</section>\n");
	web_page_end(r);
	return 0;
}

void web_page_status(struct web_req *r, const char *name)
{
	struct status_ctx c = { r, name };
	ord_game *g = web_open_game(r, name);

	if (!g)
		return;
	if (ord_game_read(g, status_fill, &c) != 0)
		web_error_page(r, 500, "The game cannot be read", ord_error_last());
	web_game_close(r, g);
}

/* "AT-TURN.head" -> at, turn, phase 0; "close-TURN-PHASE.head" -> "close",
 * turn, phase; -1 when file is no head's name. */
static int parse_head_name(const char *file, char at[16], int *turn, int *phase)
{
	const char *dash = strrchr(file, '-'), *dot = strrchr(file, '.');
	struct ord_buf num = ORD_BUF_INIT;
	long t, p = 0;
	int ok;

	if (!dash || !dot || dot < dash || strcmp(dot, ".head") || dash - file >= 16)
		return -1;
	snprintf(at, 16, "%.*s", (int)(dash - file), file);
	if (!strncmp(file, "close-", 6) && dash > file + 5) {
		/* the phase after the last dash, the turn before it */
		ord_buf_add(&num, dash + 1, (size_t)(dot - dash - 1));
		ok = ord_parse_long(num.buf, &p) == 0 && p >= 1 && p <= WEB_PHASES;
		ord_buf_release(&num);
		if (!ok)
			return -1;
		dot = dash;
		dash = file + 5;
		snprintf(at, 16, "close");
	}
	if (strcmp(at, "open") && strcmp(at, "seal") && strcmp(at, "close") && strcmp(at, "exchange"))
		return -1;
	ord_buf_add(&num, dash + 1, (size_t)(dot - dash - 1));
	ok = ord_parse_long(num.buf, &t) == 0 && t >= 1 && t < 1000000;
	ord_buf_release(&num);
	if (!ok)
		return -1;
	*turn = (int)t;
	*phase = (int)p;
	return 0;
}

void web_page_head(struct web_req *r, const char *name, const char *file)
{
	struct ord_head h;
	char at[16];
	int turn, phase;
	ord_game *g;

	if (parse_head_name(file, at, &turn, &phase) != 0) {
		web_error_page(r, 404, "Not found", "There is no such head.");
		return;
	}
	if (!(g = web_open_game(r, name)))
		return;
	if ((phase ? ord_game_head_close(g, &h, turn, phase) : ord_game_head(g, &h, turn, at)) != 0) {
		web_error_page(r, 404, "Not found", "The game has no such signed head (yet).");
	} else {
		ord_head_format(&h, &r->body);
		r->ctype = "text/plain; charset=utf-8";
		ord_buf_adds(&r->disposition, "attachment; filename=\"");
		head_name(&r->disposition, g, at, turn, phase);
		ord_buf_addch(&r->disposition, '"');
	}
	web_game_close(r, g);
}

static void bundle_response(struct web_req *r, ord_game *g, long turn)
{
	r->ctype = "application/xml";
	r->cache = 2;
	ord_buf_adds(&r->disposition, "attachment; filename=\"");
	file_name(&r->disposition, g, NULL, "turn-%ld.xml", turn);
	ord_buf_addch(&r->disposition, '"');
}

void web_page_bundle(struct web_req *r, const char *name, const char *file)
{
	struct ord_buf want = ORD_BUF_INIT;
	unsigned char id[32];
	char etag[36], what[128];
	struct ord_game_status st;
	long turn = 0;
	int err;
	ord_game *g;
	const char *p = strncmp(file, "turn-", 5) ? NULL : file + 5;

	if (p) {
		ord_buf_add(&want, p, strcspn(p, "."));
		if (strcmp(p + want.len, ".xml") || ord_parse_long(want.buf, &turn) != 0 || turn < 1)
			p = NULL;
	}
	ord_buf_release(&want);
	if (!p) {
		web_error_page(r, 404, "Not found", "There is no such bundle.");
		return;
	}
	/* opened first: a grant given for a passphrase since changed is
	 * dropped there (web_auth_check_grants) */
	if (!(g = web_open_game(r, name)))
		return;
	if (!web_session_any(&r->sess, name)) {
		web_error_page(r, 403, "Log in first",
			       "The turn bundles are for the game's players and referee: log in.");
		web_game_close(r, g);
		return;
	}
	/* a bundle exists only for an exchanged turn: before that nothing
	 * of it is asked for */
	if (ord_game_status(g, &st) != 0 || turn >= st.turn + (strcmp(st.state, "exchanged") == 0)) {
		web_error_page(r, 404, "Not yet", "That turn is not exchanged yet: no bundle.");
	} else if (web_bundle_state(r, g, (int)turn, id) != 0) {
		web_error_page(r, 409, "No bundle", ord_error_last());
	} else {
		/* made and checked once for what it is made from, then sent
		 * from the server's file of it (W18) */
		etag[0] = '"';
		sodium_bin2hex(etag + 1, 33, id, 16);
		strcat(etag, "\"");
		if (web_not_modified(r, etag) || web_respond_cached(r, id) == 0) {
			bundle_response(r, g, turn);
		} else {
			unsigned char made[32];

			snprintf(what, sizeof(what), "game %s, the bundle of turn %ld", name, turn);
			err = web_bundle_make(r, g, (int)turn, made, what);
			if (err == ORD_EBADDATA) {
				/* the verifier refused what the game file gives:
				 * its findings as they are, a line each */
				struct ord_buf pre = ORD_BUF_INIT;

				ord_buf_adds(&pre, "<pre class=\"findings\">");
				web_esc(&pre, ord_error_last());
				ord_buf_adds(&pre,
					     "</pre><p>The referee restores the game file from a copy made before the change; the bundle is made then.</p>");
				r->etag[0] = '\0';
				web_error_page_html(r, 409, "No bundle",
						    "The game file does not hold this turn as it was played: it was changed outside orderly, and the bundle it gives fails the verifier's checks, so it was not signed.",
						    pre.buf);
				ord_buf_release(&pre);
			} else if (err != 0) {
				r->etag[0] = '\0';
				web_error_page(r, 409, "No bundle", ord_error_last());
			} else {
				/* named by what it was made of: another process
				 * may have changed the file since its state was
				 * found */
				if (memcmp(made, id, 32)) {
					sodium_bin2hex(etag + 1, 33, made, 16);
					strcat(etag, "\"");
					snprintf(r->etag, sizeof(r->etag), "%s", etag);
				}
				bundle_response(r, g, turn);
			}
		}
	}
	web_game_close(r, g);
}

/* ---- the verify command, heads and bundles of a side ---- */

void web_files_section(struct web_req *r, ord_game *g, const char *name, const char *side)
{
	struct ord_buf *b = &r->body, versions = ORD_BUF_INIT;
	struct ord_game_status st;
	unsigned char pk[32];
	char pkhex[65];
	int t, last;

	if (ord_game_status(g, &st) != 0)
		return;
	ord_buf_adds(b, "<section class=\"card\" id=\"bundles\"><h2>Bundles and checking a "
			"turn</h2>\n");
	last = !strcmp(st.state, "exchanged") ? st.turn : st.turn - 1;
	if (last < 1 || ord_game_pubkey(g, pk) != 0) {
		ord_buf_adds(b, "<p class=\"muted\">No turn is exchanged yet. After the exchange, "
				"each turn's bundle (every sheet, the dice seed and the log, signed "
				"by the game's key) is here, with the command that checks it on "
				"your own machine.</p></section>\n");
		ord_error_clear();
		return;
	}
	web_hex(pkhex, pk, 32);
	ord_buf_adds(b, "<p>Download the bundle and the heads into one folder, then run the "
			"command there: <code>orderly verify</code> needs nothing else (no game "
			"file, no network).</p>\n");
	for (t = last; t >= 1; t--) {
		unsigned char c[32];
		char source[16] = "", chex[65];
		int version = 0;
		struct ord_head h;
		const char *heads[3 + WEB_PHASES];
		int hturn[3 + WEB_PHASES], hphase[3 + WEB_PHASES] = { 0 }, nh = 0, i, p, submitted;

		ord_buf_addf(b,
			     "<article class=\"turn\" id=\"turn-%d\"><h3>Turn %d</h3>"
			     "<ul class=\"files\"><li><a download class=\"bundle\" href=\"/g/",
			     t, t);
		web_url(b, name);
		ord_buf_addf(b, "/bundle/turn-%d.xml\">", t);
		file_name(b, g, NULL, "turn-%d.xml", t);
		ord_buf_adds(b, "</a> <span class=\"muted\">the bundle</span></li>");
		if (t == 1 && ord_game_head(g, &h, 1, "open") == 0) {
			heads[nh] = "open";
			hturn[nh++] = 1;
		} else if (t > 1 && ord_game_head(g, &h, t - 1, "exchange") == 0) {
			heads[nh] = "exchange";
			hturn[nh++] = t - 1;
		}
		if (ord_game_head(g, &h, t, "seal") == 0) {
			heads[nh] = "seal";
			hturn[nh++] = t;
		}
		/* witnessed dice: each phase's close head, the only one that
		 * shows the phase was not closed again once the links were in */
		for (p = 1; st.witnessed && p <= st.nphases && p <= WEB_PHASES; p++)
			if (ord_game_head_close(g, &h, t, p) == 0) {
				heads[nh] = "close";
				hphase[nh] = p;
				hturn[nh++] = t;
			}
		if (ord_game_head(g, &h, t, "exchange") == 0) {
			heads[nh] = "exchange";
			hturn[nh++] = t;
		}
		ord_error_clear();
		for (i = 0; i < nh; i++) {
			char label[64];

			if (hphase[i])
				snprintf(label, sizeof(label), "the close of phase %d", hphase[i]);
			else if (hturn[i] < t)
				snprintf(label, sizeof(label), "the opening (turn %d's exchange)",
					 hturn[i]);
			else
				snprintf(label, sizeof(label), "the %s",
					 !strcmp(heads[i], "open") ? "opening" : heads[i]);
			head_link(b, g, name, heads[i], hturn[i], hphase[i], label);
		}
		/* the command takes from this page nothing the player holds
		 * himself: a server that put another sheet in his side's place
		 * would fill in that sheet's commitment, and verify would say
		 * "ok"; so the receipt and the game's key are his to fill in
		 * from what he kept, and what the file holds is shown apart */
		ord_buf_adds(b, "</ul>\n<p>Check it:</p><pre class=\"command\"><code>orderly verify ");
		file_name(b, g, NULL, "turn-%d.xml", t);
		/* an argument a line, as the mail judge writes it: a phone's
		 * narrow box breaks no name in two, and the lines paste into a
		 * shell as one command */
		ord_buf_adds(b, " \\\n  --pubkey GAME-KEY");
		if (!side || ord_game_side_sheet(g, t, side, &version, source, c) != 0)
			version = 0;
		/* the versions the file holds, listed below; a receipt of his
		 * when one of them was handed in (not only stood in for by the
		 * NMR policy) */
		ord_buf_reset(&versions);
		for (i = 1, submitted = 0; i <= version; i++) {
			if (ord_game_side_sheet_version(g, t, side, i, source, c) != 0) {
				ord_error_clear();
				continue;
			}
			submitted |= !strcmp(source, "submitted");
			web_hex(chex, c, 32);
			ord_buf_addf(&versions,
				     "<li>version %d <code class=\"hex\">%s</code> %s%s</li>", i,
				     chex, source, i == version ? " (sealed)" : "");
		}
		if (submitted)
			ord_buf_adds(b, " \\\n  --receipt RECEIPT");
		for (i = 0; i < nh; i++) {
			ord_buf_adds(b, " \\\n  --head ");
			head_name(b, g, heads[i], hturn[i], hphase[i]);
		}
		ord_buf_adds(b, "</code></pre>\n<p class=\"muted\"><code>GAME-KEY</code>: the "
				"game's key as you kept it ");
		/* the referee has no receipt: he kept the key when he made the
		 * game (`orderly new` prints it, to give to every player) */
		ord_buf_adds(b, side ? "from your first receipt."
				     : "when you made the game (<code>orderly new</code> printed "
				       "it, to give to every player), not one copied from this page.");
		if (submitted) {
			ord_buf_adds(b, " <code>RECEIPT</code>: the receipt the game signed when "
					"you last submitted this turn, the file <code>");
			file_name(b, g, side, "receipt-%d-%s-V.head", t, side);
			ord_buf_adds(b,
				     "</code> this page offered (V its version), or the "
				     "receipt head your mail or <code>orderly submit</code> gave; its "
				     "commitment alone is only your word. verify then says whether "
				     "that very sheet was the one sealed and played. Or the head of "
				     "the seal the game signed for your side, the file <code>");
			file_name(b, g, side, "sealed-%d-%s.head", t, side);
			ord_buf_adds(b,
				     "</code> this page offered once the turn was sealed (the "
				     "seal mail's <code>sealed-T-SIDE.head</code>), when you checked "
				     "then that its commitment is your receipt's: it states the sheet "
				     "the seal took, and verify holds the seal to it, but a server that "
				     "sealed another sheet in your place signs that sheet's.");
		}
		ord_buf_adds(b, " This page is the referee's server: values it filled in would "
				"check it against itself. Use the heads you saved when they were "
				"issued where you have them.</p>");
		if (side && version)
			ord_buf_addf(b,
				     "<p class=\"muted\">For comparison only, the game's key here is "
				     "<code class=\"hex\">%s</code>, and the game file holds these "
				     "sheets of your side for turn %d (one submitted that you never "
				     "handed in means another sheet was put in your place; hold and "
				     "repeat are the NMR policy's):</p><ul class=\"versions\">%s</ul>",
				     pkhex, t, versions.buf);
		if (side && !submitted)
			ord_buf_adds(b, "<p class=\"muted\">No sheet of yours was handed in this turn, "
					"so there is no receipt of yours to check.</p>");
		ord_buf_adds(b, "</article>\n");
		ord_error_clear();
	}
	ord_buf_adds(b, "</section>\n");
	ord_buf_release(&versions);
}

/* The address of a picture of party's: /g/NAME/side/S/WHAT or
 * /g/NAME/referee/WHAT. */
static void picture_url(struct ord_buf *b, const char *name, const char *party, const char *what)
{
	ord_buf_adds(b, "/g/");
	web_url(b, name);
	if (strcmp(party, WEB_REFEREE)) {
		ord_buf_adds(b, "/side/");
		web_url(b, party);
	} else {
		ord_buf_adds(b, "/referee");
	}
	ord_buf_addf(b, "/%s", what);
}

/* The size of an SVG picture (its root's width and height) as an img's
 * attributes: the page keeps the picture's room while it loads, so what
 * follows does not move under a finger (or a test's click). */
static void img_size(struct ord_buf *b, const struct ord_buf *svg)
{
	const char *root = svg->len ? strstr(svg->buf, "<svg") : NULL;
	const char *end = root ? strchr(root, '>') : NULL;
	const char *names[2] = { " width=\"", " height=\"" };
	long v[2] = { 0, 0 };
	int i;

	for (i = 0; end && i < 2; i++) {
		const char *at = strstr(root, names[i]);
		char *stop;

		if (!at || at > end)
			return;
		v[i] = strtol(at + strlen(names[i]), &stop, 10);
		if (*stop != '"' || v[i] <= 0 || v[i] > 100000)
			return;
	}
	if (v[0] && v[1])
		ord_buf_addf(b, " width=\"%ld\" height=\"%ld\"", v[0], v[1]);
}

/* One map of turn t (svg) as a figure linking to the picture alone. */
static void map_figure(struct ord_buf *b, const char *name, const char *party, int t, int now,
		       const struct ord_buf *svg)
{
	char what[32];

	snprintf(what, sizeof(what), "map/%d.svg", t);
	ord_buf_adds(b, "<figure class=\"picture\"><a href=\"");
	picture_url(b, name, party, what);
	ord_buf_adds(b, "\"><img loading=\"lazy\"");
	img_size(b, svg);
	ord_buf_adds(b, " src=\"");
	picture_url(b, name, party, what);
	ord_buf_addf(b,
		     "\" alt=\"The map of turn %d as %s sees it\"></a><figcaption>Turn %d%s"
		     "</figcaption></figure>\n",
		     t, strcmp(party, WEB_REFEREE) ? "your side" : "the referee", t,
		     now ? ", as it stands" : "");
}

void web_pictures_section(struct web_req *r, ord_game *g, const char *name, const char *party)
{
	struct ord_buf *b = &r->body, svg = ORD_BUF_INIT;
	const char *side = strcmp(party, WEB_REFEREE) ? party : NULL;
	struct ord_game_status st;
	int t, any = 0, earlier = 0;

	if (ord_game_status(g, &st) != 0) {
		ord_error_clear();
		return;
	}
	ord_buf_adds(b, "<section class=\"card pictures\" id=\"pictures\"><h2>Map and chart</h2>\n");
	/* each turn's map as this party may see it (the fog of its report):
	 * this turn's and the chart, then the earlier turns' folded, newest
	 * first (a folded picture is not loaded until it is opened); a game
	 * whose units have no positions has none */
	if (ord_game_map(g, &svg, side, st.turn, NULL, NULL) == 0) {
		map_figure(b, name, party, st.turn, 1, &svg);
		any = 1;
	}
	ord_error_clear();
	ord_buf_reset(&svg);
	if (ord_game_chart(g, &svg, side, NULL) == 0) {
		/* on a phone the chart is drawn at its own size in a box that
		 * scrolls sideways: shrunk to the screen, its labels were a
		 * few pixels high */
		ord_buf_adds(b, "<figure class=\"picture chart\"><div class=\"scroll\"><a href=\"");
		picture_url(b, name, party, "chart.svg");
		ord_buf_adds(b, "\"><img loading=\"lazy\"");
		img_size(b, &svg);
		ord_buf_adds(b, " src=\"");
		picture_url(b, name, party, "chart.svg");
		ord_buf_adds(b, "\" alt=\"The story of the game: every unit's strength, phase by "
				"phase\"></a></div><figcaption>The story of the game<span "
				"class=\"narrow\">: wider than your screen, it scrolls sideways; tap "
				"it to open it alone</span></figcaption></figure>\n");
		any = 1;
	}
	ord_error_clear();
	for (t = st.turn - 1; t >= 1; t--) {
		ord_buf_reset(&svg);
		if (ord_game_map(g, &svg, side, t, NULL, NULL) != 0) {
			ord_error_clear();
			continue;
		}
		if (!earlier++)
			ord_buf_adds(b, "<details class=\"earlier\"><summary>The maps of earlier "
					"turns</summary>\n");
		map_figure(b, name, party, t, 0, &svg);
		any = 1;
	}
	if (earlier)
		ord_buf_adds(b, "</details>\n");
	if (!any)
		ord_buf_adds(b, "<p class=\"muted\">No picture of this game yet.</p>");
	ord_buf_adds(b, "</section>\n");
	ord_buf_release(&svg);
}

/* A picture as SVG: GET /g/NAME/side/S/map/N.svg, /g/NAME/side/S/chart.svg
 * (or /referee/...), for the party logged in only, in ?lang= or the
 * ruleset's own language. */
void web_page_picture(struct web_req *r, const char *name, const char *party, const char *kind,
		      const char *file)
{
	const char *side = strcmp(party, WEB_REFEREE) ? party : NULL;
	long t = 0;
	ord_game *g;
	int err;

	if (!strcmp(kind, "map")) {
		struct ord_buf n = ORD_BUF_INIT;
		ord_buf_add(&n, file, strcspn(file, "."));
		if (strcmp(file + n.len, ".svg") || ord_parse_long(n.buf, &t) != 0 || t < 1 ||
		    t > 1000000)
			t = -1;
		ord_buf_release(&n);
	} else if (strcmp(file, "chart.svg")) {
		t = -1;
	}
	if (t < 0) {
		web_error_page(r, 404, "Not found", "There is no such picture.");
		return;
	}
	/* opened first: a grant given for a passphrase since changed is
	 * dropped there (web_auth_check_grants) */
	if (!(g = web_open_game(r, name)))
		return;
	if (!web_session_has(&r->sess, name, party)) {
		web_error_page(r, 403, "Log in first", "A side's pictures are for its player.");
		web_game_close(r, g);
		return;
	}
	err = t ? ord_game_map(g, &r->body, side, (int)t, NULL, web_arg(r, "lang"))
		: ord_game_chart(g, &r->body, side, web_arg(r, "lang"));
	if (err) {
		int code = ord_error_code();
		ord_buf_reset(&r->body);
		web_error_page(r,
			       code == ORD_ENOTFOUND || code == ORD_EUSAGE || code == ORD_ESTATE ? 404
												 : 500,
			       "No such picture", ord_error_last());
	} else {
		r->ctype = "image/svg+xml";
		/* the picture's own styles, nothing else */
		r->csp = "default-src 'none'; style-src 'unsafe-inline'";
	}
	web_game_close(r, g);
}

void web_reports_section(struct web_req *r, ord_game *g, const char *name, const char *party)
{
	struct ord_buf *b = &r->body, langs = ORD_BUF_INIT;
	const struct ord_ruleset *rs = NULL;
	struct ord_game_status st;
	int t;

	if (ord_game_status(g, &st) != 0)
		return;
	if (ord_ruleset_find(&rs, st.ruleset) != 0)
		rs = NULL;
	ord_error_clear();
	ord_buf_adds(b, "<section class=\"card\" id=\"reports\"><h2>Reports</h2>\n<ul "
			"class=\"reports\">");
	for (t = st.turn; t >= 1; t--) {
		size_t i;

		ord_buf_addf(b, "<li>Turn %d: report", t);
		if (rs && rs->languages && rs->languages[0] && rs->languages[1])
			ord_buf_adds(b, " in");
		for (i = 0; rs && rs->languages && rs->languages[i]; i++) {
			ord_buf_adds(b, " <a href=\"/g/");
			web_url(b, name);
			if (!strcmp(party, WEB_REFEREE)) {
				ord_buf_adds(b, "/referee/report/");
			} else {
				ord_buf_adds(b, "/side/");
				web_url(b, party);
				ord_buf_adds(b, "/report/");
			}
			ord_buf_addf(b, "%d?lang=", t);
			web_url(b, rs->languages[i]);
			ord_buf_adds(b, "\" hreflang=\"");
			web_esc(b, rs->languages[i]);
			ord_buf_adds(b, "\">");
			web_esc(b, rs->languages[i]);
			ord_buf_adds(b, "</a>");
		}
		if (!rs || !rs->languages || !rs->languages[0]) {
			ord_buf_adds(b, " <a href=\"/g/");
			web_url(b, name);
			if (!strcmp(party, WEB_REFEREE)) {
				ord_buf_adds(b, "/referee/report/");
			} else {
				ord_buf_adds(b, "/side/");
				web_url(b, party);
				ord_buf_adds(b, "/report/");
			}
			ord_buf_addf(b, "%d\">report</a>", t);
		}
		ord_buf_adds(b, "</li>");
	}
	ord_buf_adds(b, "</ul></section>\n");
	ord_buf_release(&langs);
}

/* ---- reports ---- */

struct report_ctx {
	struct web_req *r;
	const char *name, *party, *lang;
	int turn;
};

static int report_fill(void *ud, ord_game *g)
{
	struct report_ctx *c = ud;
	struct web_req *r = c->r;
	struct ord_buf *b = &r->body, text = ORD_BUF_INIT, back = ORD_BUF_INIT, title = ORD_BUF_INIT;
	struct ord_report_opts o = { 0 };
	struct ord_game_status st;
	const char *crumbs[7];
	int referee = !strcmp(c->party, WEB_REFEREE), err;

	if ((err = ord_game_status(g, &st)) != 0)
		return err;
	o.side = referee ? NULL : c->party;
	o.turn = c->turn;
	o.lang = c->lang;
	if ((err = ord_game_report_opts(g, &o, &text)) != 0)
		goto out;
	ord_buf_adds(&back, "/g/");
	web_url(&back, c->name);
	ord_buf_addf(&title, "Turn %d: report for %s", c->turn, web_party_label(c->party));
	crumbs[0] = st.title;
	crumbs[1] = back.buf;
	ord_buf_adds(&back, "");
	crumbs[2] = web_party_label(c->party);
	crumbs[3] = NULL;
	crumbs[4] = title.buf;
	crumbs[5] = NULL;
	crumbs[6] = NULL;
	{
		struct ord_buf pl = ORD_BUF_INIT;

		ord_buf_adds(&pl, back.buf);
		if (referee) {
			ord_buf_adds(&pl, "/referee");
		} else {
			ord_buf_adds(&pl, "/side/");
			web_url(&pl, c->party);
		}
		crumbs[3] = pl.buf;
		web_page_start(r, title.buf, crumbs);
		ord_buf_adds(b, "<h1>");
		web_esc(b, title.buf);
		ord_buf_adds(b, "</h1>\n<pre class=\"report\"");
		if (c->lang && strcmp(c->lang, "all")) {
			ord_buf_adds(b, " lang=\"");
			web_esc(b, c->lang);
			ord_buf_adds(b, "\"");
		}
		ord_buf_adds(b, ">");
		web_esc(b, text.buf);
		ord_buf_adds(b, "</pre>\n<p><a href=\"");
		web_esc(b, pl.buf);
		ord_buf_adds(b, "\">Back</a></p>\n");
		ord_buf_release(&pl);
	}
	web_page_end(r);
out:
	ord_buf_release(&text);
	ord_buf_release(&back);
	ord_buf_release(&title);
	return err;
}

void web_page_report(struct web_req *r, const char *name, const char *party, const char *turn)
{
	struct report_ctx c = { r, name, party, web_arg(r, "lang"), 0 };
	long t;
	ord_game *g;
	size_t i;
	int referee = !strcmp(party, WEB_REFEREE), found = referee;

	if (ord_parse_long(turn, &t) != 0 || t < 1 || t > 1000000) {
		web_error_page(r, 404, "Not found", "There is no such turn.");
		return;
	}
	c.turn = (int)t;
	/* opened first: a grant given for a passphrase since changed is
	 * dropped there (web_auth_check_grants) */
	if (!(g = web_open_game(r, name)))
		return;
	if (!web_session_has(&r->sess, name, party)) {
		struct ord_buf to = ORD_BUF_INIT;

		web_game_close(r, g);
		ord_buf_adds(&to, "/g/");
		web_url(&to, name);
		ord_buf_adds(&to, "/login?side=");
		web_url(&to, referee ? "referee" : party);
		web_redirect(r, to.buf);
		ord_buf_release(&to);
		return;
	}
	for (i = 0; !found && i < ord_game_nsides(g); i++)
		found = !strcmp(ord_game_side_name(g, i), party);
	if (!found)
		web_error_page(r, 404, "Not found", "The game has no such side.");
	else if (ord_game_read(g, report_fill, &c) != 0) {
		int code = ord_error_code();

		ord_buf_reset(&r->body);
		web_error_page(r, code == ORD_ENOTFOUND || code == ORD_EUSAGE ? 404 : 500,
			       "No such report", ord_error_last());
	}
	web_game_close(r, g);
}

/* ---- logging in and out ---- */

static void login_form(struct web_req *r, ord_game *g, const char *name, const char *title,
		       const char *want, const char *msg)
{
	struct ord_buf *b = &r->body, back = ORD_BUF_INIT, action = ORD_BUF_INIT;
	const char *crumbs[] = { title, NULL, "Log in", NULL, NULL };
	size_t i, n;

	ord_buf_adds(&back, "/g/");
	web_url(&back, name);
	crumbs[1] = back.buf;
	ord_buf_addf(&action, "%s/login", back.buf);
	web_need_session(r);
	web_page_start(r, "Log in", crumbs);
	ord_buf_adds(b, "<h1>Log in to ");
	web_esc(b, title);
	ord_buf_adds(b, "</h1>\n");
	if (msg) {
		ord_buf_adds(b, "<p class=\"error\" role=\"alert\">");
		web_esc(b, msg);
		ord_buf_adds(b, "</p>\n");
	}
	/* a browser shared at the table: who it is logged in as, and that a
	 * side's login ends another side's here (web_auth_grant) */
	for (i = 0, n = 0; i < r->sess.ngrants; i++) {
		if (strcmp(r->sess.grants[i].game, name))
			continue;
		ord_buf_adds(b, n++ ? "</b> and <b>"
				    : "<p class=\"logged-in\">This browser is logged in to this "
				      "game as <b>");
		web_esc(b, web_party_label(r->sess.grants[i].party));
	}
	if (n)
		ord_buf_adds(b, "</b>. Logging in as a side logs any other side out on this "
				"browser; log out on your page when you leave a shared one.</p>\n");
	web_form_start(r, action.buf, "card login");
	ord_buf_adds(b, "<label for=\"side\">Who you are</label><select id=\"side\" name=\"side\">");
	for (i = 0; i <= ord_game_nsides(g); i++) {
		const char *side = i < ord_game_nsides(g) ? ord_game_side_name(g, i) : "referee";
		const char *label = i < ord_game_nsides(g) ? side : "the referee";

		ord_buf_adds(b, "<option value=\"");
		web_esc(b, side);
		ord_buf_adds(b, "\"");
		if (want && !strcmp(want, side))
			ord_buf_adds(b, " selected");
		ord_buf_adds(b, ">");
		web_esc(b, label);
		ord_buf_adds(b, "</option>");
	}
	ord_buf_adds(b, "</select>\n<label for=\"passphrase\">Passphrase</label>"
			"<input id=\"passphrase\" name=\"passphrase\" type=\"password\" "
			"autocomplete=\"current-password\" required>\n"
			"<button type=\"submit\">Log in</button>\n"
			"<p class=\"muted\">The passphrase your referee registered for you "
			"(<code>orderly register --passphrase-file</code>; the same one the mail "
			"judge takes). A secret link fills it in for you.</p></form>\n");
	web_page_end(r);
	ord_buf_release(&back);
	ord_buf_release(&action);
}

/* The login form again after a passphrase checked with the game let go
 * of (W14): the game opened anew to list its parties. */
static void login_again(struct web_req *r, const char *name, const char *side, const char *msg,
			int status)
{
	struct ord_game_status st;
	ord_game *g;

	if (!(g = web_open_game_to_read(r, name)))
		return;
	if (ord_game_status(g, &st) != 0) {
		web_error_page(r, 500, "The game cannot be read", ord_error_last());
	} else {
		login_form(r, g, name, st.title, side, msg);
		r->status = status;
	}
	web_game_close(r, g);
}

/* The passphrase as typed less the blanks at both ends (web_trim), in
 * out (n bytes): pasted from a mail or a chat it brings a space or a line
 * end, and as the mail judge takes it (the value of its Passphrase: line,
 * trimmed) it has none at either end (W22). */
static void passphrase_trimmed(char *out, size_t n, const char *pass)
{
	size_t len;
	const char *s = web_trim(pass, &len);

	snprintf(out, n, "%.*s", (int)len, s);
}

void web_page_login(struct web_req *r, const char *name)
{
	struct ord_game_status st;
	const char *side, *pass, *party;
	struct ord_buf to = ORD_BUF_INIT;
	struct web_session ns;
	struct ord_mail_party mp;
	char hash[ORD_PASS_HASH_MAX];
	ord_game *g;
	size_t i;
	int found = 0, wait, err, side_wide;

	memset(&mp, 0, sizeof(mp));
	/* a login changes nothing in the game: it checks the passphrase */
	if (!(g = web_open_game_to_read(r, name)))
		return;
	if (ord_game_status(g, &st) != 0) {
		web_error_page(r, 500, "The game cannot be read", ord_error_last());
		goto out;
	}
	if (strcmp(r->method, "POST")) {
		login_form(r, g, name, st.title, web_arg(r, "side"), NULL);
		goto out;
	}
	if (!web_csrf_ok(r))
		goto out;
	side = web_field(r, "side");
	pass = web_field(r, "passphrase");
	if (!side || !pass) {
		login_form(r, g, name, st.title, side, "Give who you are and your passphrase.");
		r->status = 400;
		goto out;
	}
	for (i = 0; !found && i < ord_game_nsides(g); i++)
		found = !strcmp(ord_game_side_name(g, i), side);
	if (!found && strcmp(side, "referee")) {
		login_form(r, g, name, st.title, NULL, "The game has no such side.");
		r->status = 400;
		goto out;
	}
	party = found ? side : WEB_REFEREE;
	/* the stored hash and which passphrase it is, read (a party's wrong
	 * ones count against the passphrase they were given for); the game
	 * is let go of before the check, which takes 64 MiB and tens of
	 * milliseconds: requests for the game do not wait on it (W14) */
	err = ord_mail_passphrase_hash(g, found ? side : NULL, hash);
	if (err == 0 && ord_mail_party(g, found ? side : NULL, &mp) != 0)
		err = ord_error_code();
	if (err != 0 && err != ORD_ENOTFOUND) {
		sodium_memzero(hash, sizeof(hash));
		web_error_page(r, 500, "The game cannot be read", ord_error_last());
		goto out;
	}
	ord_error_clear();
	if ((wait = web_auth_may_try(web_auth_of(r), r->ip, name, party, mp.pass_id, &side_wide)) > 0) {
		char msg[320], when[40];

		sodium_memzero(hash, sizeof(hash));
		if (wait < 120)
			snprintf(when, sizeof(when), "%d seconds", wait);
		else
			snprintf(when, sizeof(when), "%d minutes", (wait + 59) / 60);
		if (side_wide)
			snprintf(msg, sizeof(msg),
				 "Too many tries: too many wrong passphrases were given for %s "
				 "from everywhere, so its logins are refused for %s, except from "
				 "a network it has logged in from before. The referee's page "
				 "shows it.",
				 found ? "this side" : "the referee", when);
		else
			snprintf(msg, sizeof(msg), "Too many tries: try again in %s.", when);
		login_form(r, g, name, st.title, side, msg);
		r->status = 429;
		goto out;
	}
	web_game_close(r, g);
	g = NULL;
	if (web_auth_hash_enter(web_auth_of(r), r->ip) != 0) {
		sodium_memzero(hash, sizeof(hash));
		web_error_page(r, 503, "Busy",
			       "The server is checking other passphrases: try again in a moment.");
		goto out;
	}
	if (err == 0) {
		size_t n = strlen(pass) + 1;
		char *trimmed = ord_xmalloc(n);

		passphrase_trimmed(trimmed, n, pass);
		err = ord_mail_passphrase_verify(hash, trimmed);
		sodium_memzero(trimmed, n);
		free(trimmed);
	}
	web_auth_hash_leave(web_auth_of(r), r->ip);
	sodium_memzero(hash, sizeof(hash));
	if (err != 0) {
		/* the server's log says when a party is locked (W14) */
		if (web_auth_failed(web_auth_of(r), r->ip, name, party, mp.pass_id)) {
			int fails, left = web_auth_side_locked(web_auth_of(r), name, party,
							       mp.pass_id, &fails);

			fprintf(stderr,
				"orderly serve: game '%s': logins as %s refused for %d s (%d wrong "
				"passphrases for it from every address), but from networks it "
				"logged in from before\n",
				name, web_party_label(party), left, fails);
		}
		/* the same words whether or not a passphrase is registered */
		login_again(r, name, side,
			    "Wrong passphrase (or none is registered for you: ask your referee).",
			    403);
		goto out;
	}
	/* the grant holds which passphrase it was given for */
	web_auth_succeeded(web_auth_of(r), r->ip, name, party);
	web_auth_grant(web_auth_of(r), r->sess.sid, name, party, mp.pass_id, &ns);
	r->sess = ns;
	web_set_cookie(r, &ns);
	ord_buf_adds(&to, "/g/");
	web_url(&to, name);
	if (found) {
		ord_buf_adds(&to, "/side/");
		web_url(&to, side);
	} else {
		ord_buf_adds(&to, "/referee");
	}
	web_redirect(r, to.buf);
out:
	ord_buf_release(&to);
	if (g)
		web_game_close(r, g);
}

void web_page_logout(struct web_req *r, const char *name)
{
	struct ord_buf to = ORD_BUF_INIT;
	struct web_session none;

	if (!web_csrf_ok(r))
		return;
	web_auth_end(web_auth_of(r), r->sess.sid);
	memset(&none, 0, sizeof(none));
	web_set_cookie(r, &none);
	ord_buf_adds(&r->set_cookie, "; Max-Age=0");
	ord_buf_adds(&to, "/g/");
	web_url(&to, name);
	web_redirect(r, to.buf);
	ord_buf_release(&to);
}

/* ---- the notations' help ---- */

const char *web_notation_help(const char *notation)
{
	if (!strcmp(notation, "hieroglyph"))
		return (const char *)web_help_hieroglyph;
	if (!strcmp(notation, "ordre"))
		return (const char *)web_help_ordre;
	return NULL;
}
