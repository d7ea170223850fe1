/*
 * player.c - a side's page, /g/NAME/side/SIDE: write the sheet beside the
 * notation's help, Check it (ord_game_check_sheet: the checks of submit,
 * nothing stored) or Submit it (ord_game_submit_opts) and print the
 * receipt; once the turn is sealed, the head of the seal the game signs
 * for the side (the sheet it took); the side's sheets and receipts of
 * every turn (the text of each, this turn's before the seal too, with
 * orderly's reading of it), its reports, and the bundles with the
 * `orderly verify` command.  Nothing
 * here reads another side's sheet: the page is made of this side's
 * report, its own sheets and receipts (the library gives a side its own
 * sheet's text alone) and what the game's status says to everybody.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "ruleset.h"
#include "web/web.h"

struct player {
	struct web_req *r;
	const char *name, *side;
	/* what the POST did, shown on the page */
	const char *action; /* "check", "submit" or NULL */
	const char *sheet;  /* the text as sent (LF line ends) */
	int rc;             /* the library's answer */
	char *msg;          /* its message when rc != 0 */
	struct ord_diag diag;
	struct ord_diag warnings; /* the sheet's (ord_sheet_warnings): a Check's,
				   * or a receipt's shown */
	struct ord_buf reading;
	struct ord_reading_marks marks; /* the reading's lines of no accepted order */
	struct ord_receipt receipt;
	/* a GET of the page a Submit was sent on to (?receipt=T-V, W20):
	 * that stored version's receipt shown, stored_at the time its log
	 * entry was written */
	int shown;
	int64_t stored_at;
	/* a form of another turn than the one open (W12): nothing was
	 * checked or stored; the turn the form was of (0: it said none) */
	int stale;
	long form_turn;
};

/* The sheet form's version of the side's sheet when the page was drawn
 * (W21): a Submit from a page drawn before another version was stored is
 * not stored again. */
#define BASED_ON "based_on"

/* A signed head as a file to download, named name, of class cls: a link
 * that holds the file's text itself (nothing is stored to fetch it by). */
static void head_download(struct ord_buf *b, const char *cls, const struct ord_buf *name,
			  const struct ord_buf *text)
{
	size_t i;

	ord_buf_addf(b, "<a class=\"%s\" download=\"", cls);
	web_esc(b, name->buf);
	ord_buf_adds(b, "\" href=\"data:text/plain;charset=utf-8,");
	for (i = 0; i < text->len; i++) {
		unsigned char c = (unsigned char)text->buf[i];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
			ord_buf_addch(b, (char)c);
		else
			ord_buf_addf(b, "%%%02X", c);
	}
	ord_buf_adds(b, "\">");
	web_esc(b, name->buf);
	ord_buf_adds(b, "</a>");
}

/* The receipt the game signs (docs/threat-model.md, 21): the head of the
 * log entry that stores the sheet, offered as a file beside the receipt
 * and shown; the commitment alone is only the player's word. */
static void receipt_head(struct ord_buf *b, ord_game *g, struct player *p)
{
	struct ord_buf text = ORD_BUF_INIT, name = ORD_BUF_INIT;
	struct ord_head h;
	int err;

	if ((err = ord_game_receipt_head(g, &h, &p->receipt)) != 0) {
		/* a game whose key is kept outside its file signs none here */
		ord_buf_adds(b, "<p class=\"muted\">No receipt signed by the game: ");
		if (err == ORD_EUSAGE)
			ord_buf_adds(b, "its key is not in the server's game file.");
		else
			web_esc(b, ord_error_last());
		ord_buf_adds(b, " Keep the commitment.</p>\n");
		ord_error_clear();
		return;
	}
	ord_receipt_head_format(&h, &p->receipt, &text);
	/* named as the mail judge names it (the name the game's files keep) */
	ord_game_file_name(g, 0, &name, p->receipt.side, "receipt-%d-%s-%d.head", p->receipt.turn,
			   p->receipt.side, p->receipt.version);
	ord_buf_adds(b, "<p>The game's signed receipt: ");
	head_download(b, "receipt-head", &name, &text);
	ord_buf_adds(b, ". Keep this file: it is the game's signature of the entry that stores "
			"your sheet, and <code>orderly verify BUNDLE --receipt FILE</code> checks it. "
			"The commitment alone is only your word.</p>\n"
			"<details><summary>The receipt file</summary><pre class=\"receipt-head\">");
	web_esc(b, text.buf);
	ord_buf_adds(b, "</pre></details>\n");
	ord_buf_release(&text);
	ord_buf_release(&name);
}

/* The head of the seal the game signs for this side alone (at "sealed",
 * threat model 26) of the turn sealed last (the one before an open turn):
 * it states the sheet the seal took for the side, where a receipt shows
 * only a sheet stored (a later version stored in the side's name would
 * pass it).  Signed when the page is asked for, as the receipt is; a game
 * whose key is kept outside its file, or whose seal names no sheet of the
 * side (made before it), signs none here, and nothing is said: the page's
 * other cards say what the side has. */
static void sealed_head(struct ord_buf *b, ord_game *g, const struct player *p,
			const struct ord_game_status *st)
{
	struct ord_buf text = ORD_BUF_INIT, name = ORD_BUF_INIT;
	struct ord_receipt r;
	struct ord_head h;
	int open = !strcmp(st->state, "open");
	unsigned char c[32];
	char hex[65], source[16] = "";

	memset(&r, 0, sizeof(r));
	r.turn = open ? st->turn - 1 : st->turn;
	snprintf(r.side, sizeof(r.side), "%s", p->side);
	if (r.turn < 1 || ord_game_sealed_head(g, &h, &r) != 0) {
		ord_error_clear();
		return;
	}
	ord_receipt_head_format(&h, &r, &text);
	ord_game_file_name(g, 0, &name, p->side, "sealed-%d-%s.head", r.turn, p->side);
	web_hex(hex, r.commitment, 32);
	ord_buf_addf(b,
		     "<section class=\"card sealed\" id=\"sealed\"><h2>The seal of your sheet of "
		     "turn %d</h2>\n<p>Turn %d %s sealed with version %d of your side's sheet, "
		     "commitment <code class=\"hex sealed-commitment\">%s</code>. The game's "
		     "signed head of the seal for your side: ",
		     r.turn, r.turn, open ? "was" : "is", r.version, hex);
	head_download(b, "sealed-head", &name, &text);
	ord_buf_adds(b, ". Keep this file: it is the game's signature that the seal took the "
			"sheet of this commitment for your side.");
	if (ord_game_side_sheet_version(g, r.turn, p->side, r.version, source, c) == 0 &&
	    strcmp(source, "submitted"))
		ord_buf_adds(b, " It is the stand-in of the game's policy for a missing sheet "
				"(your sheets, below).");
	else
		ord_buf_addf(b,
			     " Check now that it is the commitment of your last receipt of turn %d "
			     "(the one <code>orderly sign</code> gave you, if you signed): another "
			     "means the seal took another sheet in your place.",
			     r.turn);
	ord_error_clear();
	if (st->witnessed && !open && strcmp(st->state, "exchanged"))
		ord_buf_adds(b, " Give it to <code>orderly witness --link-for</code> as "
				"<code>--receipt</code>, with <code>--commitment</code>, before you "
				"reveal a link: it gives none when the seal took another sheet.");
	ord_buf_adds(b, " After the exchange, <code>orderly verify BUNDLE --receipt FILE</code> "
			"holds the seal to it.</p>\n"
			"<details><summary>The sealed head file</summary><pre class=\"sealed-head\">");
	web_esc(b, text.buf);
	ord_buf_adds(b, "</pre></details></section>\n");
	ord_buf_release(&text);
	ord_buf_release(&name);
}

static int current_version(ord_game *g, int turn, const char *side);

/* The sheet's warnings (ord_sheet_warnings: a heading naming another
 * turn), each at its place; taken says what became of the sheet. */
static void warnings_said(struct ord_buf *b, const struct ord_diag *w, const char *area,
			  const char *taken)
{
	if (!w->n)
		return;
	ord_buf_addf(b, "<div class=\"result warn sheet-warnings\" role=\"status\"><h3>Warning%s</h3>",
		     w->n == 1 ? "" : "s");
	web_diag_list(b, w, area);
	ord_buf_adds(b, "<p>");
	web_esc(b, taken);
	ord_buf_adds(b, ": a comment is your own.</p></div>\n");
}

/* The warnings of the version a receipt shown is of, when it is the
 * side's latest: said again by the GET the Submit was sent on to (W20),
 * from the bytes the game holds, as the turn it was stored in. */
static void receipt_warnings(struct ord_buf *b, ord_game *g, struct player *p)
{
	struct ord_buf text = ORD_BUF_INIT;
	int v = 0;

	if (ord_game_side_sheet_text(g, &text, &v, p->receipt.turn, p->side, p->side) == 0 &&
	    v == p->receipt.version &&
	    ord_sheet_warnings(&p->warnings, text.buf, text.len, p->receipt.turn))
		warnings_said(b, &p->warnings, NULL, "your sheet is stored as sent");
	ord_error_clear();
	ord_buf_release(&text);
}

static void receipt_box(struct ord_buf *b, ord_game *g, struct player *p, const char *r_url)
{
	unsigned char id[16], pk[32];
	char hex[65], idhex[33];
	int latest;

	ord_game_id(g, id);
	web_hex(idhex, id, 16);
	web_hex(hex, p->receipt.commitment, 32);
	latest = current_version(g, p->receipt.turn, p->side);
	if (latest > p->receipt.version) {
		/* an earlier receipt asked again (a phone's tab reloaded):
		 * its sheet no longer stands, and its file fails verify */
		unsigned char c[32];
		char source[16] = "";
		int64_t when = 0;

		if (ord_game_side_sheet_stored(g, p->receipt.turn, p->side, latest, source, c,
					       &when) != 0)
			when = 0;
		ord_error_clear();
		ord_buf_addf(b,
			     "<section class=\"card receipt replaced\" id=\"receipt\" "
			     "aria-live=\"polite\"><h2>Receipt of version %d: replaced</h2>\n"
			     "<div class=\"result bad\" role=\"alert\"><p>This version of your "
			     "sheet was replaced by version %d",
			     p->receipt.version, latest);
		if (when) {
			ord_buf_adds(b, ", stored at ");
			web_time(b, when, 0, 0);
		}
		ord_buf_adds(b, ": it is not the sheet that stands for your side, and "
				"<code>orderly verify</code> with this receipt will say another "
				"version was sealed. ");
		if (!strcmp(source, "submitted")) {
			ord_buf_addf(b,
				     "The receipt to keep is version %d's: <a class=\"latest\" "
				     "href=\"",
				     latest);
			web_esc(b, r_url);
			ord_buf_addf(b, "?receipt=%d-%d#receipt\">the receipt of version %d</a>.",
				     p->receipt.turn, latest, latest);
		}
		ord_buf_adds(b, "</p></div>\n<dl class=\"facts\"><dt>Game</dt><dd>");
	} else {
		ord_buf_adds(b, "<section class=\"card receipt\" id=\"receipt\" "
				"aria-live=\"polite\"><h2>Receipt</h2>\n<p>Your sheet is stored. "
				"Keep this receipt: download the file the game signed (below), and "
				"note the commitment and the game's key. Check the file now: "
				"<code>orderly verify --receipt FILE --pubkey KEY</code> says which "
				"side's sheet, and which version, the game signed it for. After the exchange, "
				"<code>orderly verify</code> proves with the file that this very "
				"sheet was the one sealed and played, unless you submit another "
				"version before the seal (its receipt is then the one to keep); the "
				"commitment alone is only your word.</p>\n");
		receipt_warnings(b, g, p);
		ord_buf_adds(b, "<dl class=\"facts\"><dt>Game</dt><dd>");
	}
	web_esc(b, p->name);
	ord_buf_addf(b, " <span class=\"muted\">id</span> <code class=\"hex\">%s</code></dd>", idhex);
	ord_buf_adds(b, "<dt>Side</dt><dd>");
	web_esc(b, p->receipt.side);
	ord_buf_addf(b,
		     "</dd><dt>Turn</dt><dd>%d</dd><dt>Version</dt><dd class=\"version\">%d</dd>"
		     "<dt>Commitment</dt><dd><code class=\"hex commitment\">%s</code></dd>",
		     p->receipt.turn, p->receipt.version, hex);
	if (ord_game_pubkey(g, pk) == 0) {
		web_hex(hex, pk, 32);
		ord_buf_addf(b, "<dt>Game's key</dt><dd><code class=\"hex gamekey\">%s</code></dd>",
			     hex);
	}
	ord_error_clear();
	ord_buf_adds(b, "<dt>Stored at</dt><dd>");
	web_time(b, p->stored_at ? p->stored_at : ord_game_now(g), 0, 0);
	ord_buf_adds(b, "</dd></dl>");
	receipt_head(b, g, p);
	ord_buf_adds(b, "<p class=\"noprint\"><button type=\"button\" class=\"print\" "
			"hidden>Print the receipt</button></p></section>\n");
}

/* A side's units offered beside its sheet: more than this are a list
 * nobody reads on a phone (the report has them all). */
#define UNITS_MAX 400
/* The list is open up to this many. */
#define UNITS_OPEN 40

struct units {
	const char *side;
	struct ord_buf *list;
	size_t n;
};

static int unit_item(void *ud, const char *id, const char *name, const char *side)
{
	struct units *u = ud;

	if (strcmp(side, u->side) || ++u->n > UNITS_MAX)
		return 0;
	ord_buf_adds(u->list, "<li><code>");
	web_esc(u->list, id);
	ord_buf_adds(u->list, "</code>");
	if (strcmp(id, name)) {
		ord_buf_adds(u->list, " ");
		web_esc_name(u->list, name);
	}
	ord_buf_adds(u->list, "</li>");
	return 0;
}

/* The side's units, id and name, beside the text box: what an order line
 * starts with. */
static void units_list(struct ord_buf *b, ord_game *g, const char *side)
{
	struct ord_buf list = ORD_BUF_INIT;
	struct units u = { side, &list, 0 };

	if (ord_game_units(g, unit_item, &u) == 0 && u.n) {
		ord_buf_addf(b,
			     "<details class=\"units\"%s><summary>Your units (%zu): an order "
			     "starts with the id or the name</summary><ul class=\"units\">",
			     u.n <= UNITS_OPEN ? " open" : "", u.n);
		ord_buf_add(b, list.buf, list.len);
		if (u.n > UNITS_MAX)
			ord_buf_addf(b, "<li class=\"muted\">and %zu more: see the report</li>",
				     u.n - UNITS_MAX);
		ord_buf_adds(b, "</ul></details>\n");
	}
	ord_error_clear();
	ord_buf_release(&list);
}

/* Line n (1, 2, ...) of the sheet as sent, less its comment and the
 * blanks around it: *len 0 when there is none such. */
static const char *sheet_line(const char *sheet, unsigned n, size_t *len)
{
	const char *q = sheet, *end, *hash;

	*len = 0;
	for (; q && n > 1; n--)
		if ((q = strchr(q, '\n')) != NULL)
			q++;
	if (!q || !n)
		return NULL;
	end = strchr(q, '\n');
	end = end ? end : q + strlen(q);
	hash = memchr(q, '#', (size_t)(end - q));
	end = hash ? hash : end;
	while (q < end && (*q == ' ' || *q == '\t' || *q == '\r'))
		q++;
	while (end > q && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	*len = (size_t)(end - q);
	return q;
}

/* orderly's reading of the sheet (ord_game_check_sheet): an order read
 * but refused by the rules (an unknown unit), which the reading gives as
 * "# line N not accepted (see its problems): ORDER", struck out with the
 * words after it, so that it does not look accepted; a line it could not
 * read at all ("# line N not understood (see its problems)"), which the
 * reading cannot give back, the player's own line taken from what he
 * sent and struck out the same way (the reading had only the comment,
 * and the line it stood for was not to be seen). */
static void reading(struct ord_buf *b, const struct player *p)
{
	const char *q, *end = p->reading.buf + p->reading.len;
	size_t k = 0;

	ord_buf_addf(b, "<h4>orderly's reading</h4>%s<pre class=\"reading\">",
		     p->marks.n ? "<p class=\"muted\">A line struck out has a problem: it is "
				  "not accepted as it stands.</p>"
				: "");
	for (q = p->reading.buf; q < end;) {
		const char *nl = memchr(q, '\n', (size_t)(end - q)), *r;
		size_t len = nl ? (size_t)(nl - q) : (size_t)(end - q), n = 0;
		const struct ord_reading_mark *m = NULL;

		/* the marks, as the library gives them (ord_game_check_sheet_marked) */
		while (k < p->marks.n && p->reading.buf + p->marks.items[k].at < q)
			k++;
		if (k < p->marks.n && p->reading.buf + p->marks.items[k].at == q)
			m = &p->marks.items[k];
		if (m && m->refused && m->order <= (size_t)(q + len - p->reading.buf)) {
			ord_buf_adds(b, "<span class=\"refused\"><s>");
			web_esc_n(b, p->reading.buf + m->order,
				  (size_t)(q + len - p->reading.buf) - m->order);
			ord_buf_addf(b, "</s> # line %u not accepted (see its problems)</span>",
				     m->line);
		} else if (m && !m->refused && p->sheet &&
			   (r = sheet_line(p->sheet, m->line, &n)) != NULL && n) {
			ord_buf_adds(b, "<span class=\"refused\"><s>");
			web_esc_name_n(b, r, n); /* the player's line: as the reading shows it */
			ord_buf_addf(b, "</s> # line %u not understood (see its problems)</span>",
				     m->line);
		} else if (m) {
			ord_buf_adds(b, "<span class=\"unread\">");
			web_esc_n(b, q, len);
			ord_buf_adds(b, "</span>");
		} else {
			web_esc_n(b, q, len);
		}
		ord_buf_addch(b, '\n');
		q = nl ? nl + 1 : end;
	}
	ord_buf_adds(b, "</pre>");
}

/* The notation's help as this page shows it: a paragraph that points into
 * orderly's source tree ("More sheets are in `orders/examples/`"), a
 * folder a player at the web page cannot open, is left out. */
static void help_shown(struct ord_buf *b, const char *md)
{
	static const char tree[] = "`orders/examples";
	struct ord_buf out = ORD_BUF_INIT;
	const char *q = md, *para = md, *hit = strstr(md, tree);
	int fenced = 0;

	for (;;) {
		const char *nl = strchr(q, '\n'), *end = nl ? nl : q + strlen(q);
		int blank = end == q;

		if (!strncmp(q, "```", 3))
			fenced = !fenced;
		if ((blank && !fenced) || !nl) {
			/* [para, end): one paragraph, or a code block's part */
			const char *stop = nl ? nl + 1 : end;

			if (hit && hit < stop)
				hit = strstr(stop, tree);
			else
				ord_buf_add(&out, para, (size_t)(stop - para));
			para = stop;
		}
		if (!nl)
			break;
		q = nl + 1;
	}
	web_markdown(b, out.buf ? out.buf : "", out.len);
	ord_buf_release(&out);
}

/* The version of side's sheet of turn the game holds now, 0 when none. */
static int current_version(ord_game *g, int turn, const char *side)
{
	unsigned char c[32];
	char source[16] = "";
	int version = 0;

	if (ord_game_side_sheet(g, turn, side, &version, source, c) != 0)
		version = 0;
	ord_error_clear();
	return version;
}

static void sheet_form(struct ord_buf *b, struct web_req *r, ord_game *g, struct player *p,
		       const struct ord_game_status *st)
{
	struct ord_buf action = ORD_BUF_INIT;
	const struct ord_ruleset *rs = NULL;
	unsigned char pk[32];
	const char *help = NULL;
	int keyed = ord_game_side_pubkey(g, p->side, pk) == 0;

	ord_error_clear();
	if (ord_ruleset_find(&rs, st->ruleset) == 0)
		help = web_notation_help(rs->notation);
	ord_error_clear();
	ord_buf_adds(&action, "/g/");
	web_url(&action, p->name);
	ord_buf_adds(&action, "/side/");
	web_url(&action, p->side);

	ord_buf_addf(b,
		     "<div class=\"write\"><section class=\"card sheet\" id=\"sheet\">"
		     "<h2>Your sheet for turn %d</h2>\n",
		     st->turn);
	if (p->action && !strcmp(p->action, "check") && p->rc == 0)
		ord_buf_adds(b, "<div class=\"result ok\" role=\"status\"><h3>Checked: no "
				"problem</h3><p>Nothing was stored yet: Submit it when you are "
				"ready.</p>");
	else if (p->action && p->diag.n)
		ord_buf_addf(b, "<div class=\"result bad\" role=\"alert\"><h3>%s: %zu problem%s</h3>",
			     !strcmp(p->action, "check") ? "Checked" : "Not stored",
			     ord_diag_count(&p->diag), ord_diag_count(&p->diag) == 1 ? "" : "s");
	else if (p->action && p->rc != 0)
		ord_buf_addf(b, "<div class=\"result bad\" role=\"alert\"><h3>%s</h3>",
			     !strcmp(p->action, "check") ? "Not checked" : "Not stored");
	if (p->action && (p->rc != 0 || !strcmp(p->action, "check"))) {
		if (p->diag.n)
			web_diag_list(b, &p->diag, "sheet-text");
		else if (p->rc != 0) {
			ord_buf_adds(b, "<p>");
			web_esc(b, p->msg);
			ord_buf_adds(b, "</p>");
		}
		warnings_said(b, &p->warnings, "sheet-text", "a warning only, nothing was stored");
		if (p->reading.len) {
			reading(b, p);
		} else if (!strcmp(p->action, "check") && (p->rc == 0 || p->diag.n)) {
			/* said of a check that ran, not of one refused unread (a
			 * signature given, a form of another turn) */
			ord_buf_adds(b, "<p class=\"muted\">No order could be read.</p>");
		}
		ord_buf_adds(b, "</div>\n");
	}
	web_form_start(r, action.buf, "sheet-form");
	/* the turn this form is for: a sheet it sends once another turn is
	 * open is refused, not stored as that turn's (W12) */
	ord_buf_addf(b, "<input type=\"hidden\" name=\"turn\" value=\"%d\">\n", st->turn);
	/* the version it was drawn with: a second Submit of it once another
	 * version is stored (a double tap) is not stored again (W21) */
	ord_buf_addf(b, "<input type=\"hidden\" name=\"" BASED_ON "\" value=\"%d\">\n",
		     current_version(g, st->turn, p->side));
	units_list(b, g, p->side);
	ord_buf_adds(b, "<label for=\"sheet-text\">One order a line; <code>#</code> starts a "
			"comment</label>\n<textarea id=\"sheet-text\" name=\"sheet\" rows=\"12\" "
			"spellcheck=\"false\" autocapitalize=\"off\" autocomplete=\"off\" "
			"data-max=\"");
	/* the script keeps a sheet the server would refuse (W15) in its box,
	 * unsent: past the limit the server cannot give it back */
	ord_buf_addf(b, "%zu\">", WEB_MAX_BODY);
	if (p->sheet) {
		web_esc(b, p->sheet);
	} else {
		/* the side's own latest version of the turn, to change a line
		 * of it without typing it all again (the library gives a side
		 * its own sheet alone) */
		struct ord_buf text = ORD_BUF_INIT;
		int v = 0;

		if (ord_game_side_sheet_text(g, &text, &v, st->turn, p->side, p->side) == 0 && v &&
		    text.len)
			web_esc(b, text.buf);
		ord_error_clear();
		ord_buf_release(&text);
	}
	ord_buf_adds(b, "</textarea>\n");
	if (keyed)
		ord_buf_adds(b, "<fieldset class=\"signed\"><legend>Your signature</legend><p "
				"class=\"muted\">Your side has a key: sign the sheet on your own "
				"machine (<code>orderly sign --head HEAD --side SIDE --key KEY "
				"FILE</code>) and give its nonce and signature to Submit; Check "
				"a draft without them.</p>"
				"<label for=\"nonce\">Nonce</label><input id=\"nonce\" name=\"nonce\" "
				"autocomplete=\"off\" spellcheck=\"false\">"
				"<label for=\"signature\">Signature</label><input id=\"signature\" "
				"name=\"signature\" autocomplete=\"off\" spellcheck=\"false\">"
				"</fieldset>\n");
	ord_buf_adds(b, "<div class=\"actions\"><button type=\"submit\" name=\"action\" "
			"value=\"check\" class=\"secondary\">Check</button> <button type=\"submit\" "
			"name=\"action\" value=\"submit\">Submit</button></div>\n"
			"<p class=\"muted\">Check reads the sheet as the referee's program will and "
			"lists every problem; it stores nothing. Submit stores it and gives you a "
			"receipt; you may submit again until the seal (the last one counts).</p>"
			"</form>\n");

	ord_buf_adds(b, "</section>\n<aside class=\"card help\" id=\"help\"><h2>How to write "
			"orders</h2>\n");
	if (help) {
		ord_buf_adds(b, "<div class=\"notation\">");
		help_shown(b, help);
		ord_buf_adds(b, "</div>\n");
	} else {
		ord_buf_adds(b, "<p class=\"muted\">This notation brings no help text: see its "
				"documentation.</p>");
	}
	ord_buf_adds(b, "<p>Your units and their state are in this turn's <a href=\"");
	web_esc(b, action.buf);
	ord_buf_addf(b, "/report/%d\">report</a>.</p></aside></div>\n", st->turn);
	ord_buf_release(&action);
}

/* What stands for side in turn, said plainly: the version it handed in,
 * or the game's stand-in for a missing sheet (source "hold": a sheet of no
 * orders, every unit holds; "repeat": its sheet of the turn before). */
static void stand_in(struct ord_buf *b, int turn, int version, const char *source)
{
	if (!version)
		ord_buf_addf(b, "your side has no sheet for turn %d", turn);
	else if (!strcmp(source, "hold"))
		ord_buf_addf(b,
			     "no sheet of yours was in, so the game's policy for a missing sheet "
			     "stands in for your side: <b>hold</b>, every unit holds (version %d, "
			     "a sheet of no orders)",
			     version);
	else if (!strcmp(source, "repeat"))
		ord_buf_addf(b,
			     "no sheet of yours was in, so the game's policy for a missing sheet "
			     "stands in for your side: <b>repeat</b>, your orders of turn %d are "
			     "given again (version %d)",
			     turn - 1, version);
	else
		ord_buf_addf(b,
			     "your sheet of version %d, handed in before the seal, is the one "
			     "played",
			     version);
}

/* A sheet sent after the seal (a page loaded before it): nothing was
 * stored, what stands in for the side instead, and the text sent, back in
 * its box so that the player does not lose what he typed.  The page's
 * turn is turn: the turn sealed now, or for a form of an earlier turn
 * (W12) that one, whose late sheet is followed by the open turn's form
 * (the box is then late-text, the form's being sheet-text). */
static void late_sheet(struct ord_buf *b, ord_game *g, struct player *p,
		       const struct ord_game_status *st, int turn, const char *box)
{
	unsigned char c[32];
	char source[16] = "";
	int version = 0;

	ord_buf_addf(b,
		     "<section class=\"card sheet\" id=\"%s\"><div class=\"result bad\" "
		     "role=\"alert\">",
		     strcmp(box, "sheet-text") ? "late" : "sheet");
	if (turn < 1 || turn > st->turn) {
		ord_buf_addf(b,
			     "<h3>Not stored: this form is not of the turn the game is at (turn "
			     "%d)</h3><p>Nothing you sent was checked or stored.",
			     st->turn);
	} else {
		if (ord_game_side_sheet(g, turn, p->side, &version, source, c) != 0)
			version = 0;
		ord_error_clear();
		ord_buf_addf(b,
			     "<h3>Not stored: turn %d was sealed before your sheet arrived</h3>"
			     "<p>Nothing you sent was stored: after the seal no sheet can be "
			     "handed in or changed. For turn %d, ",
			     turn, turn);
		stand_in(b, turn, version, source);
		ord_buf_adds(b, ".");
		if (turn < st->turn && !strcmp(st->state, "open"))
			ord_buf_addf(b, " Turn %d is open now: write its sheet below.", st->turn);
		else if (turn < st->turn)
			ord_buf_addf(b, " The game is at turn %d now, %s.", st->turn, st->state);
	}
	ord_buf_adds(b, "</p></div>\n<label for=\"");
	ord_buf_adds(b, box);
	ord_buf_adds(b, "\">What you sent, kept here so that it is not lost (copy it if you want "
			"it)</label>\n<textarea id=\"");
	ord_buf_adds(b, box);
	ord_buf_adds(b, "\" rows=\"12\" readonly spellcheck=\"false\">");
	web_esc(b, p->sheet);
	ord_buf_adds(b, "</textarea>\n");
	if (turn == st->turn)
		ord_buf_addf(b,
			     "<p class=\"muted\">The referee is playing turn %d out; your "
			     "report follows each phase.</p>",
			     st->turn);
	ord_buf_adds(b, "</section>\n");
}

/* The class of a numbered block of a sheet of `lines` lines (the sheet's
 * text and orderly's reading under it): the width of its line numbers,
 * the same for both, so that an order of the reading stands under the
 * text's column. */
static const char *gutter(size_t lines)
{
	return lines < 100 ? "g2" : lines < 1000 ? "g3" : lines < 10000 ? "g4" : "g6";
}

/*
 * orderly's reading of a stored sheet as the side's report gives it (its
 * <sheet>): the notation's parse of the bytes, each order in canonical
 * form at its line, no comment.  One parse of the sheet and nothing else,
 * where building the report would read the whole turn; a stored sheet
 * was read whole when it was taken, so nothing is refused here.  Drawn
 * as the text above it is (the same font, the same numbers' width), each
 * order at its line's number.
 */
/* one order of orderly's reading (ord_notation_read) */
static void reading_item(void *ud, unsigned line, const char *order)
{
	struct ord_buf *items = ud;

	if (line)
		ord_buf_addf(items, "<li value=\"%u\"><code>", line);
	else
		ord_buf_adds(items, "<li><code>");
	web_esc_name(items, order); /* as a report shows an order (attack 43) */
	ord_buf_adds(items, "</code></li>");
}

static void own_reading(struct ord_buf *b, const struct ord_notation *nt,
			const struct ord_buf *text, size_t lines)
{
	struct ord_buf items = ORD_BUF_INIT;
	size_t n = ord_notation_read(nt, text->buf, text->len, reading_item, &items);

	if (!n)
		ord_buf_adds(b, "<p class=\"muted\">orderly reads no order in it.</p>");
	else
		ord_buf_addf(b,
			     "<h4>orderly's reading</h4><p class=\"muted\">Its %zu order%s as the game "
			     "reads them, each at its line's number (comments are not kept).</p><ol "
			     "class=\"orders %s\">%s</ol>",
			     n, n == 1 ? "" : "s", gutter(lines), items.buf ? items.buf : "");
	ord_buf_release(&items);
}

/* One line of a stored sheet, escaped, its comment (from the first '#' to
 * the end: the rule of the sheet reader every notation of orderly uses,
 * orders/text.h) in a span of its own, drawn apart from the orders and
 * kept whole on a line of its own when it does not fit beside them. */
static void held_line(struct ord_buf *b, const char *q, size_t len)
{
	const char *hash = memchr(q, '#', len);
	size_t code = hash ? (size_t)(hash - q) : len;

	/* a character a reader does not see or that turns what he reads
	 * shown escaped (\u202e), as a report shows an order: a sheet stored
	 * before the submit refused them, or by a referee's own build, may
	 * hold one (attack 43), and a comment may (no report shows it) */
	ord_buf_adds(b, "<span class=\"line\">");
	web_esc_name_n(b, q, code);
	if (hash) {
		ord_buf_adds(b, "<span class=\"comment\">");
		web_esc_name_n(b, hash, len - code);
		ord_buf_adds(b, "</span>");
	}
	ord_buf_adds(b, "</span>\n");
}

/*
 * The text of side's sheet of turn exactly as the game file holds it
 * (ord_game_side_sheet_text: the bytes its commitment is over, comments
 * and blank lines and all; the side's own alone, at any state of the
 * turn), each line numbered; a stored sheet was read whole, so no line of
 * it is marked.  now: this turn's, shown unfolded with orderly's reading
 * when nt (the game's notation) is there.  open: the turn is still open,
 * and this is the version the game holds for the side now, which one
 * handed in later replaces.
 */
static void own_sheet(struct ord_buf *b, ord_game *g, const struct player *p, int turn, int now,
		      int open, const struct ord_notation *nt)
{
	struct ord_buf text = ORD_BUF_INIT;
	const char *q, *end;
	size_t lines = 0;
	int version = 0;

	if (ord_game_side_sheet_text(g, &text, &version, turn, p->side, p->side) != 0)
		goto out;
	for (q = text.buf, end = text.buf + text.len; q < end; lines++) {
		const char *nl = memchr(q, '\n', (size_t)(end - q));
		q = nl ? nl + 1 : end;
	}
	ord_buf_addf(b,
		     "<details class=\"orders\"%s><summary>Its text (version %d, %zu line%s), "
		     "as the game file holds it%s</summary>",
		     now ? " open" : "", version, lines, lines == 1 ? "" : "s", open ? " now" : "");
	if (open)
		ord_buf_addf(b,
			     "<p class=\"muted\">What the game holds for you now: turn %d is sealed "
			     "with it unless you submit another version before the seal.</p>",
			     turn);
	ord_buf_addf(b, "<pre class=\"sheet-text %s\">", gutter(lines));
	for (q = text.buf; q < end;) {
		const char *nl = memchr(q, '\n', (size_t)(end - q));

		held_line(b, q, nl ? (size_t)(nl - q) : (size_t)(end - q));
		q = nl ? nl + 1 : end;
	}
	ord_buf_adds(b, "</pre>");
	if (now && nt)
		own_reading(b, nt, &text, lines);
	ord_buf_adds(b, "</details>");
out:
	ord_error_clear();
	ord_buf_release(&text);
}

static void sheets_list(struct ord_buf *b, ord_game *g, struct player *p,
			const struct ord_game_status *st)
{
	const struct ord_ruleset *rs = NULL;
	const struct ord_notation *nt = NULL;
	int open = !strcmp(st->state, "open"), t;

	/* this turn's reading: the notation the game's ruleset writes in */
	if (ord_ruleset_find(&rs, st->ruleset) != 0 || ord_notation_find(&nt, rs->notation) != 0)
		nt = NULL;
	ord_error_clear();
	/* what the game file holds, not the player's receipts: a server that
	 * put another sheet in his place would list that one's commitment
	 * here, and a player who copied it for verify would check the server
	 * against itself (second red-team finding) */
	ord_buf_adds(b, "<section class=\"card\" id=\"receipts\"><h2>Your side's sheets, as "
			"the game file holds them</h2>\n<p class=\"muted\">Not your receipts: "
			"compare them with the receipts you kept. A version you never handed "
			"in means another sheet was put in your place; check a turn with your "
			"own receipt, never with a commitment copied from here. Each turn's "
			"text is its last version exactly as the file holds it, comments and "
			"all (the bytes its commitment is over); under this turn's, orderly's "
			"reading of it.</p>\n<ul class=\"receipts\">");
	for (t = st->turn; t >= 1; t--) {
		unsigned char c[32];
		char source[16] = "", hex[65];
		int version = 0, now = t == st->turn;

		if (ord_game_side_sheet(g, t, p->side, &version, source, c) != 0 || !version) {
			ord_buf_addf(b, "<li>Turn %d: <span class=\"muted\">no sheet</span></li>", t);
			continue;
		}
		web_hex(hex, c, 32);
		if (!strcmp(source, "hold") || !strcmp(source, "repeat")) {
			ord_buf_addf(b, "<li>Turn %d: ", t);
			stand_in(b, t, version, source);
			own_sheet(b, g, p, t, now, now && open, nt);
			ord_buf_adds(b, "</li>");
			continue;
		}
		ord_buf_addf(b, "<li>Turn %d: version %d, ", t, version);
		web_esc(b, source);
		if (!strcmp(source, "submitted"))
			ord_buf_addf(b, ", commitment <code class=\"hex\">%s</code>", hex);
		own_sheet(b, g, p, t, now, now && open, nt);
		ord_buf_adds(b, "</li>");
	}
	ord_error_clear();
	ord_buf_adds(b, "</ul></section>\n");
}

static int player_fill(void *ud, ord_game *g)
{
	struct player *p = ud;
	struct web_req *r = p->r;
	struct ord_buf *b = &r->body, back = ORD_BUF_INIT, out = ORD_BUF_INIT;
	struct ord_game_status st;
	const char *crumbs[5];
	int err;

	if ((err = ord_game_status(g, &st)) != 0)
		return err;
	ord_buf_adds(&back, "/g/");
	web_url(&back, p->name);
	crumbs[0] = st.title;
	crumbs[1] = back.buf;
	crumbs[2] = p->side;
	crumbs[3] = NULL;
	crumbs[4] = NULL;
	web_page_start(r, p->side, crumbs);
	ord_buf_adds(b, "<h1>");
	web_esc_name(b, st.title);
	ord_buf_adds(b, ": <span class=\"side\">");
	web_esc(b, p->side);
	ord_buf_addf(b, "</span></h1>\n<p class=\"turnline\">Turn %d, ", st.turn);
	web_esc(b, st.state);
	if (*st.phase) {
		ord_buf_adds(b, " (next phase: ");
		web_esc(b, st.phase);
		ord_buf_adds(b, ")");
	}
	ord_buf_adds(b, ". Deadline: ");
	web_deadline(b, g, st.deadline, !strcmp(st.state, "open"));
	ord_buf_adds(b, "</p>\n");

	if (p->shown) {
		struct ord_buf self = ORD_BUF_INIT;

		ord_buf_adds(&self, "/g/");
		web_url(&self, p->name);
		ord_buf_adds(&self, "/side/");
		web_url(&self, p->side);
		receipt_box(b, g, p, self.buf);
		ord_buf_release(&self);
	}
	if (p->stale) {
		int open = !strcmp(st.state, "open");

		late_sheet(b, g, p, &st, (int)p->form_turn,
			   open && !st.refereeless && !st.witnessed ? "late-text" : "sheet-text");
		if (open && !st.refereeless && !st.witnessed) {
			const char *sheet = p->sheet;

			/* the open turn's form, its box holding the side's
			 * version of that turn if any: the old text is not sent
			 * again for this turn without the player's say */
			p->action = NULL;
			p->sheet = NULL;
			sheet_form(b, r, g, p, &st);
			p->sheet = sheet;
		}
	} else if (!strcmp(st.state, "open") && !st.refereeless && !st.witnessed) {
		sheet_form(b, r, g, p, &st);
	} else if (!strcmp(st.state, "open")) {
		ord_buf_adds(b, "<section class=\"card\"><p>In this game each side commits to its "
				"sheet on its own machine (<code>orderly sign</code>); hand the "
				"commitment to the referee. The web page takes plain sheets only.</p>"
				"</section>\n");
	} else if (p->action && p->sheet) {
		late_sheet(b, g, p, &st, st.turn, "sheet-text");
	} else {
		ord_buf_addf(b,
			     "<section class=\"card\"><p>Turn %d is sealed: no more sheets. "
			     "The referee is playing it out; your report follows each phase. "
			     "Your orders are under <a href=\"#receipts\">your side's "
			     "sheets</a>.</p></section>\n",
			     st.turn);
	}
	sealed_head(b, g, p, &st);
	sheets_list(b, g, p, &st);
	web_pictures_section(r, g, p->name, p->side);
	web_reports_section(r, g, p->name, p->side);
	web_files_section(r, g, p->name, p->side);
	ord_buf_adds(b, "<section class=\"card\">");
	ord_buf_adds(&back, "/logout");
	web_form_start(r, back.buf, "inline");
	ord_buf_adds(b, "<button type=\"submit\" class=\"secondary\">Log out</button></form>"
			"</section>\n");
	web_page_end(r);
	ord_buf_release(&back);
	ord_buf_release(&out);
	return 0;
}

/* Turn CRLF (the form's line ends) into LF, in place. */
static size_t unix_lines(char *s)
{
	char *w = s, *p;

	for (p = s; *p; p++)
		if (!(p[0] == '\r' && p[1] == '\n'))
			*w++ = *p;
	*w = '\0';
	return (size_t)(w - s);
}

static int hex_field(unsigned char *out, size_t n, const char *hex)
{
	size_t bin = 0;

	if (!hex || !*hex)
		return 0;
	if (strlen(hex) != 2 * n || sodium_hex2bin(out, n, hex, 2 * n, NULL, &bin, NULL) != 0 ||
	    bin != n)
		return -1;
	return 1;
}

/*
 * A Submit of a form drawn when the side's sheet was at version based_on
 * (W21), the game at another now: 1, with what to answer in p, when it is
 * not to be stored.  The sheet the game holds now is this very one (its
 * bytes, and with a signature its nonce: a double tap on Submit, the
 * first tap stored it): rc 0 and its receipt, which the caller redirects
 * to, nothing stored again.  Another sheet (stored since from another
 * page, a phone, the command line or mail): refused, nothing stored, the
 * text given back in the box of a form drawn now.  0 when the form carries
 * no version (a hand-made POST, a page of before) or the one the game is
 * at: stored as before.  The page's requests for a game take turns (W8),
 * so two taps are never both between this look and the store; the
 * command line or the mail judge may store a version between them (another
 * process), which the submit refuses in its transaction (*based, the
 * form's version, -1 when it has none, goes to the submit's based_on) and
 * this is asked again.
 */
static int stored_since(struct player *p, ord_game *g, int turn, const char *sheet, size_t len,
			const unsigned char *nonce, int *based_out)
{
	const char *field = web_field(p->r, BASED_ON);
	struct ord_buf text = ORD_BUF_INIT, when = ORD_BUF_INIT;
	unsigned char c[32], pk[32];
	char source[16] = "";
	int64_t at = 0;
	long based;
	int now = 0, same, nv = 0, ret = 1;

	*based_out = -1;
	if (!field)
		return 0;
	if (ord_parse_long(field, &based) != 0 || based < 0 || based > 100000) {
		p->rc = ORD_EUSAGE;
		p->msg = ord_strdup("The form's version of your sheet is not a number. Nothing was "
				    "stored: submit again from this page.");
		goto out;
	}
	if (ord_game_side_sheet(g, turn, p->side, &now, source, c) != 0) {
		p->rc = ord_error_code();
		p->msg = ord_strdup(ord_error_last());
		goto out;
	}
	if (now == based) {
		*based_out = (int)based;
		ret = 0;
		goto out;
	}
	if (based > now) {
		p->rc = ORD_EUSAGE;
		ord_buf_addf(&text,
			     "The form says your sheet was at version %ld when the page was drawn, "
			     "but the game holds %d version%s of it for turn %d. Nothing was stored: "
			     "submit again from this page.",
			     based, now, now == 1 ? "" : "s", turn);
		p->msg = ord_buf_detach(&text, NULL);
		goto out;
	}
	/* the same sheet: its bytes, and signed with the same nonce (the
	 * receipt's commitment is over both); unsigned, from a side that
	 * signs, it is not the sheet stored, whatever its bytes */
	same = !strcmp(source, "submitted") &&
	       ord_game_side_sheet_text(g, &text, &nv, turn, p->side, p->side) == 0 && nv == now &&
	       text.len == len && !memcmp(text.buf, sheet, len);
	if (same && nonce)
		same = ord_game_nonce_stored(g, p->side, nonce, &nv) == 0 && nv == now;
	else if (same)
		same = ord_game_side_pubkey(g, p->side, pk) != 0;
	ord_error_clear();
	if (same) {
		p->rc = 0;
		p->receipt.turn = turn;
		p->receipt.version = now;
		snprintf(p->receipt.side, sizeof(p->receipt.side), "%s", p->side);
		memcpy(p->receipt.commitment, c, 32);
		goto out;
	}
	if (ord_game_side_sheet_stored(g, turn, p->side, now, source, c, &at) != 0)
		at = 0;
	ord_error_clear();
	ord_buf_reset(&text);
	if (at)
		ord_when_format(&when, at, NULL);
	p->rc = ORD_ESTATE;
	ord_buf_addf(&text,
		     "Your sheet was changed since this page was drawn: version %d was stored%s%s "
		     "(this page had version %ld). Nothing you sent was stored. Look at version "
		     "%d under your side's sheets, below, and submit again: what you sent is "
		     "kept in the box.",
		     now, at ? " at " : "", at ? when.buf : "", based, now);
	p->msg = ord_buf_detach(&text, NULL);
out:
	ord_buf_release(&text);
	ord_buf_release(&when);
	return ret;
}

/*
 * The test hook of the race stored_since leaves to the submit's own
 * transaction (a version stored by another process between the look and
 * the store): with ORDERLY_TEST_WEB_PAUSE_SUBMIT=FILE, a Submit that
 * passed the look appends "PID submit\n" to FILE and waits until FILE is
 * gone (a minute at most) before it stores, and the test stores a version
 * from the command line meanwhile (tests/web/test_http.py, based_race).
 * Users never set it; unset, nothing here runs but one getenv a Submit.
 */
static void test_pause_submit(void)
{
	const char *path = getenv("ORDERLY_TEST_WEB_PAUSE_SUBMIT");
	struct timespec tick = { 0, 50 * 1000 * 1000 };
	char line[64];
	int fd, n, i;

	if (!path || !*path)
		return;
	n = snprintf(line, sizeof(line), "%ld submit\n", (long)getpid());
	if ((fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)) < 0)
		return;
	if (write(fd, line, (size_t)n) != n) {
		close(fd);
		return;
	}
	close(fd);
	for (i = 0; i < 1200 && access(path, F_OK) == 0; i++)
		nanosleep(&tick, NULL);
}

static void act(struct player *p, ord_game *g, char *sheet)
{
	struct web_req *r = p->r;
	const char *action = web_field(r, "action");
	unsigned char nonce[32], sig[64];
	struct ord_submit_opts o = { 0 };
	size_t len = unix_lines(sheet);
	int hn, hs, based;

	p->sheet = sheet;
	if (!action || (strcmp(action, "check") && strcmp(action, "submit"))) {
		p->action = "check";
		p->rc = ORD_EUSAGE;
		p->msg = ord_strdup("Choose Check or Submit.");
		return;
	}
	p->action = action;
	/* a form of another turn than the one open (a page loaded before the
	 * seal, sent after the next turn opened) is refused, whatever it
	 * asks: its orders were written for that turn (W12) */
	{
		const char *turn = web_field(r, "turn");
		struct ord_game_status st;

		if (ord_game_status(g, &st) != 0) {
			p->rc = ord_error_code();
			p->msg = ord_strdup(ord_error_last());
			return;
		}
		if (!turn || ord_parse_long(turn, &p->form_turn) != 0)
			p->form_turn = 0;
		if (p->form_turn != st.turn) {
			p->stale = 1;
			p->rc = ord_error_set(ORD_ESTATE,
					      "the form was of turn %ld; the game is at turn %d: "
					      "nothing was stored",
					      p->form_turn, st.turn);
			p->msg = ord_strdup(ord_error_last());
			ord_error_clear();
			return;
		}
	}
	if (!strcmp(action, "check")) {
		/* a draft is not signed (the mail judge's J5): the signature
		 * lines of a sheet commit the player to it, and nothing in them
		 * says it was only to be checked */
		const char *fn = web_field(r, "nonce"), *fs = web_field(r, "signature");
		if ((fn && *fn) || (fs && *fs)) {
			p->rc = ORD_EUSAGE;
			p->msg = ord_strdup(
				"Check takes no signature: a sheet signed with your side's key is one you "
				"commit to, and the signature does not say it was only to be checked. "
				"Nothing was checked or stored. To check a draft, leave the nonce and "
				"the signature empty; sign only the sheet you submit (if it must not be "
				"played, submit your orders: a newer sheet replaces it).");
			return;
		}
		p->rc = ord_game_check_sheet_marked(g, p->side, sheet, len, &p->diag, &p->reading,
						    &p->marks);
		p->msg = ord_strdup(ord_error_last());
		if (p->rc == 0 || p->diag.n)
			ord_sheet_warnings(&p->warnings, sheet, len, (int)p->form_turn);
		return;
	}
	hn = hex_field(nonce, 32, web_field(r, "nonce"));
	hs = hex_field(sig, 64, web_field(r, "signature"));
	if (hn < 0 || hs < 0 || hn != hs) {
		p->rc = ORD_EUSAGE;
		p->msg = ord_strdup("A nonce (64 hex digits) and a signature (128 hex digits) go "
				    "together, as 'orderly sign' prints them. Nothing was stored.");
		return;
	}
	o.nonce = hn ? nonce : NULL;
	o.signature = hs ? sig : NULL;
	if (stored_since(p, g, (int)p->form_turn, sheet, len, o.nonce, &based))
		return;
	o.based_on = based >= 0 ? &based : NULL;
	test_pause_submit();
	p->rc = ord_game_submit_opts(g, &p->receipt, p->side, sheet, len, &o, &p->diag);
	p->msg = ord_strdup(ord_error_last());
	if (p->rc == ORD_ESTATE && o.based_on) {
		/* another process stored a version since the look above:
		 * answered as a version stored from another page is */
		char *msg = p->msg;
		int rc = p->rc;

		p->msg = NULL;
		if (stored_since(p, g, (int)p->form_turn, sheet, len, o.nonce, &based)) {
			free(msg);
			return;
		}
		p->rc = rc;
		p->msg = msg;
	}
	if (p->rc == ORD_EBADSHEET) {
		/* the reading beside the problems, as Check shows it */
		struct ord_diag again;

		ord_diag_init(&again);
		ord_game_check_sheet_marked(g, p->side, sheet, len, &again, &p->reading, &p->marks);
		ord_diag_release(&again);
	}
}

/* The receipt a Submit's answer sent the browser on to (W20): ?receipt=T-V
 * names a version of this side's sheet, shown with the time the game
 * logged it.  A version the game file does not hold shows no receipt. */
static void receipt_asked(struct player *p, ord_game *g)
{
	const char *arg = web_arg(p->r, "receipt"), *dash;
	char source[16], turn[16];
	long t, v;

	if (!arg || !(dash = strchr(arg, '-')) || (size_t)(dash - arg) >= sizeof(turn))
		return;
	memcpy(turn, arg, (size_t)(dash - arg));
	turn[dash - arg] = '\0';
	if (ord_parse_long(turn, &t) != 0 || ord_parse_long(dash + 1, &v) != 0 || t < 1 ||
	    t > 100000 || v < 1 || v > 100000)
		return;
	p->receipt.turn = (int)t;
	p->receipt.version = (int)v;
	snprintf(p->receipt.side, sizeof(p->receipt.side), "%s", p->side);
	if (ord_game_side_sheet_stored(g, (int)t, p->side, (int)v, source, p->receipt.commitment,
				       &p->stored_at) != 0 ||
	    strcmp(source, "submitted")) {
		ord_error_clear();
		return;
	}
	p->shown = 1;
}

void web_page_player(struct web_req *r, const char *name, const char *side)
{
	struct player p;
	ord_game *g;
	char *sheet = NULL;
	size_t i;
	int found = 0;

	memset(&p, 0, sizeof(p));
	p.r = r;
	p.name = name;
	p.side = side;
	ord_diag_init(&p.diag);
	ord_diag_init(&p.warnings);
	ord_buf_init(&p.reading);
	/* opened first: a grant given for a passphrase since changed is
	 * dropped there (web_auth_check_grants) */
	if (!(g = web_open_game(r, name)))
		goto out;
	if (!web_party_ok(r, name, side)) {
		web_game_close(r, g);
		goto out;
	}
	for (i = 0; !found && i < ord_game_nsides(g); i++)
		found = !strcmp(ord_game_side_name(g, i), side);
	if (!found) {
		web_error_page(r, 404, "Not found", "The game has no such side.");
		web_game_close(r, g);
		goto out;
	}
	if (!strcmp(r->method, "POST")) {
		sheet = ord_strdup(web_field(r, "sheet") ? web_field(r, "sheet") : "");
		act(&p, g, sheet);
		if (p.rc != 0)
			r->status = p.rc == ORD_EBADSHEET || p.rc == ORD_EUSAGE ? 422 : 409;
		if (p.rc == 0 && !strcmp(p.action, "submit")) {
			/* Post/Redirect/Get (W20): the receipt is shown by a GET,
			 * which a reload asks again, never the POST that stored */
			struct ord_buf to = ORD_BUF_INIT;

			ord_buf_adds(&to, "/g/");
			web_url(&to, name);
			ord_buf_adds(&to, "/side/");
			web_url(&to, side);
			ord_buf_addf(&to, "?receipt=%d-%d#receipt", p.receipt.turn, p.receipt.version);
			web_redirect(r, to.buf);
			ord_buf_release(&to);
			web_game_close(r, g);
			goto out;
		}
	} else {
		receipt_asked(&p, g);
	}
	if (ord_game_read(g, player_fill, &p) != 0) {
		ord_buf_reset(&r->body);
		web_error_page(r, 500, "The game cannot be read", ord_error_last());
	}
	web_game_close(r, g);
out:
	free(sheet);
	free(p.msg);
	ord_diag_release(&p.diag);
	ord_diag_release(&p.warnings);
	ord_buf_release(&p.reading);
	ord_reading_marks_release(&p.marks);
}
