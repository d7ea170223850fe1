/*
 * referee.c - the referee's page, /g/NAME/referee: the deadline (a
 * change mailed to the sides told of the turn, server.c W19) and the
 * seal; then phase by phase the events, through forms made from the
 * ruleset's event kinds and their key specs (the checks are the
 * library's, ord_game_event; a refused event may be recorded with a
 * reason, the override), voiding one, resolving the phase and reading its
 * results; the referee's report; the exchange.  Made for a tablet at the
 * table: one action a form, big buttons, the results on top.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "notation.h"
#include "ruleset.h"
#include "web/web.h"

struct referee {
	struct web_req *r;
	const char *name;
	const struct ord_ruleset *rs;
	/* the language the page's event forms are read in: one of the
	 * ruleset's, chosen (page_lang), or NULL: the ruleset's first */
	const char *lang;
	/* what the POST did */
	const char *action;
	const char *kind; /* the event kind tried */
	int rc;
	char *msg;              /* what to say (done or refused) */
	int warn;               /* done, with a warning in msg (a deadline past) */
	struct ord_diag diag;   /* an event's problems */
	struct ord_buf results; /* a resolved phase's results */
	int unit_list;          /* the page has the game's units as a list */
	const char *confirm;    /* an irreversible action asked for, to confirm (W9) */
	int empty;              /* a resolve refused for an empty phase: offer it empty */
	int64_t past;           /* a deadline refused as already past: offer it even so */
	int way;                /* the command line's way out msg names (ORD_WAY_*), */
	size_t way_at, way_len; /* at msg[way_at], way_len bytes (ord_error_way) */
};

/* A game of more units than this offers none to pick from: a list that
 * long helps nobody at the table, and costs every page (the field still
 * takes an id or a name, checked by the library). */
#define UNIT_LIST_MAX 2000
/* The orders still to record shown above Resolve, at most; the list is
 * open (not folded) up to PENDING_OPEN of them. */
#define PENDING_MAX 200
#define PENDING_OPEN 20

struct unit_list {
	struct ord_buf *b;
	size_t n;
};

static int unit_option(void *ud, const char *id, const char *name, const char *side)
{
	struct unit_list *l = ud;

	if (++l->n > UNIT_LIST_MAX)
		return 1;
	ord_buf_adds(l->b, "<option value=\"");
	web_esc(l->b, id);
	ord_buf_adds(l->b, "\">");
	web_esc_name(l->b, name);
	ord_buf_adds(l->b, " (");
	web_esc(l->b, side);
	ord_buf_adds(l->b, ")</option>");
	return 0;
}

/* Whether an event of phase names a unit (a key of type unit). */
static int phase_names_units(const struct ord_ruleset *rs, const char *phase)
{
	const struct ord_event_kind *ek;
	const struct ord_key_spec *k;

	for (ek = rs ? rs->events : NULL; ek && ek->name; ek++)
		for (k = ek->keys; !strcmp(ek->phase, phase) && k && k->name; k++)
			if (k->type == ORD_KEY_UNIT)
				return 1;
	return 0;
}

/* The game's units as a <datalist id="units"> the unit fields of the
 * event forms name: on a tablet the referee picks "F1 1/2e Léger (french)"
 * from what he starts to type. */
static void units_datalist(struct referee *f, ord_game *g)
{
	struct ord_buf list = ORD_BUF_INIT;
	struct unit_list l = { &list, 0 };

	if (ord_game_units(g, unit_option, &l) == 0 && l.n) {
		ord_buf_adds(&f->r->body, "<datalist id=\"units\">");
		ord_buf_add(&f->r->body, list.buf, list.len);
		ord_buf_adds(&f->r->body, "</datalist>\n");
		f->unit_list = 1;
	}
	ord_error_clear();
	ord_buf_release(&list);
}

/* The hidden turn and phase of a form that acts on this phase: a POST of
 * it once the game is at another is refused (W12). */
static void at_fields(struct ord_buf *b, const struct ord_game_status *st)
{
	ord_buf_addf(b,
		     "<input type=\"hidden\" name=\"turn\" value=\"%d\"><input type=\"hidden\" "
		     "name=\"phase\" value=\"",
		     st->turn);
	web_esc(b, st->phase);
	ord_buf_adds(b, "\">");
}

/* The language of help, the line ord_event_help gave for a kind or key
 * whose help field's own line (English) is own: the page is English
 * (html.c), so a line the ruleset wrote in another (the Krigsspil's
 * Danish) is marked with it (lang="da"), for a screen reader to read it
 * as Danish and the browser to break it as Danish; NULL when it is
 * English. */
static const char *help_lang(const struct referee *f, const char *help, const char *own)
{
	const char *l = f->rs ? ord_ruleset_language(f->rs, f->lang) : NULL;

	return help && help != own && l && strcmp(l, "en") ? l : NULL;
}

static void key_input(struct ord_buf *b, const char *kind, const struct ord_key_spec *k,
		      const char *help, const char *lang, const char *value, int unit_list, int focus)
{
	struct ord_buf what = ORD_BUF_INIT, id = ORD_BUF_INIT;

	ord_buf_adds(&id, "ev-");
	web_url(&id, kind);
	ord_buf_addch(&id, '-');
	web_url(&id, k->name);
	ord_key_describe(k, &what);
	ord_buf_adds(b, "<div class=\"field\"><label for=\"");
	web_esc(b, id.buf);
	/* the key as the command line writes it (event move unit=F1), and
	 * what it is in words, the ruleset's own line for it (its key
	 * spec's help, as `orderly help event` gives it, in the ruleset's
	 * first language: ord_event_help): "naar_stoette" alone said
	 * nothing to a referee who does not read the source */
	ord_buf_adds(b, "\"><span class=\"key\">");
	web_esc(b, k->name);
	ord_buf_adds(b, "</span>");
	if (k->required)
		ord_buf_adds(b, " <span class=\"req\">required</span>");
	if (help && *help) {
		ord_buf_adds(b, "<span class=\"hint\"");
		if (lang) {
			ord_buf_adds(b, " lang=\"");
			web_esc(b, lang);
			ord_buf_addch(b, '"');
		}
		ord_buf_addch(b, '>');
		web_esc(b, help);
		ord_buf_adds(b, "</span>");
	}
	ord_buf_adds(b, "</label>");
	if (k->type == ORD_KEY_ENUM || k->type == ORD_KEY_BOOL) {
		const char *list = k->type == ORD_KEY_BOOL ? "yes|no" : k->values, *w;
		size_t n;

		ord_buf_adds(b, "<select id=\"");
		web_esc(b, id.buf);
		ord_buf_adds(b, "\" name=\"k_");
		web_esc(b, k->name);
		ord_buf_adds(b, focus ? "\" autofocus><option value=\"\">" : "\"><option value=\"\">");
		if (k->def) {
			ord_buf_adds(b, "(");
			web_esc(b, k->def);
			ord_buf_adds(b, ")");
		} else {
			ord_buf_adds(b, "—");
		}
		ord_buf_adds(b, "</option>");
		while ((w = ord_words_next(&list, &n)) != NULL) {
			ord_buf_adds(b, "<option value=\"");
			web_esc_n(b, w, n);
			ord_buf_adds(b, "\"");
			if (value && strlen(value) == n && !strncmp(value, w, n))
				ord_buf_adds(b, " selected");
			ord_buf_adds(b, ">");
			web_esc_n(b, w, n);
			ord_buf_adds(b, "</option>");
		}
		ord_buf_adds(b, "</select>");
	} else {
		ord_buf_adds(b, "<input id=\"");
		web_esc(b, id.buf);
		ord_buf_adds(b, "\" name=\"k_");
		web_esc(b, k->name);
		ord_buf_adds(b, "\" autocomplete=\"off\" spellcheck=\"false\" autocapitalize=\"off\"");
		if (focus)
			ord_buf_adds(b, " autofocus");
		if (k->type == ORD_KEY_INT || k->type == ORD_KEY_NUM)
			ord_buf_adds(b, " inputmode=\"decimal\"");
		if (k->type == ORD_KEY_UNIT && unit_list)
			ord_buf_adds(b, " list=\"units\"");
		if (value) {
			ord_buf_adds(b, " value=\"");
			web_esc(b, value);
			ord_buf_adds(b, "\"");
		}
		if (k->def) {
			ord_buf_adds(b, " placeholder=\"");
			web_esc(b, k->def);
			ord_buf_adds(b, "\"");
		}
		ord_buf_adds(b, ">");
	}
	ord_buf_adds(b, "<small>");
	web_esc(b, what.buf);
	ord_buf_adds(b, "</small></div>");
	ord_buf_release(&what);
	ord_buf_release(&id);
}

/* The anchor of kind's form: kind-NAME. */
static void kind_anchor(struct ord_buf *b, const char *kind)
{
	ord_buf_adds(b, "kind-");
	web_url(b, kind);
}

/* The first key of ek naming a unit, or NULL. */
static const struct ord_key_spec *unit_key(const struct ord_event_kind *ek)
{
	const struct ord_key_spec *k;

	for (k = ek->keys; k && k->name; k++)
		if (k->type == ORD_KEY_UNIT)
			return k;
	return NULL;
}

/* ek's key for the unit an order names as its target (the sheet's
 * @target), or NULL: a unit key named "target" (the battalion's fire and
 * artillery), else the one required unit key besides the unit's own (the
 * Krigsspil's skyd and artilleri maal, its angreb's maal, a melee's other
 * side).  A kind of two or more such keys names none: which of them the
 * order's target fills is the referee's to say. */
static const struct ord_key_spec *target_key(const struct ord_event_kind *ek)
{
	const struct ord_key_spec *k, *uk = unit_key(ek), *other = NULL;
	int n = 0;

	for (k = ek->keys; k && k->name; k++)
		if (k->type == ORD_KEY_UNIT && !strcmp(k->name, "target"))
			return k;
	for (k = ek->keys; k && k->name; k++)
		if (k != uk && k->type == ORD_KEY_UNIT && k->required) {
			other = k;
			n++;
		}
	return n == 1 ? other : NULL;
}

/* The page's language chosen (NULL: none), carried by a form, so that
 * the page its POST gives stays in it. */
static void lang_field(struct ord_buf *b, const char *lang)
{
	if (!lang)
		return;
	ord_buf_adds(b, "<input type=\"hidden\" name=\"lang\" value=\"");
	web_esc(b, lang);
	ord_buf_adds(b, "\">");
}

/* A kind's form, folded unless the referee is at it: the form just posted
 * stays open (an event recorded: empty again for the next unit; refused:
 * with what was typed and why), as does the one a pending order's Record
 * asked for (GET ?kind=K&unit=U&target=T; every form's unit field gets U,
 * the asked kind's target field T, the sealed order's).  The form posts to
 * its own anchor, so the page comes back scrolled to it, and the first
 * empty field has the cursor: seven moves are seven forms filled, not
 * seven forms opened and found. */
static void event_form(struct referee *f, const char *action, const struct ord_event_kind *ek,
		       const struct ord_game_status *st)
{
	struct web_req *r = f->r;
	struct ord_buf *b = &r->body, to = ORD_BUF_INIT;
	int posted = f->action && !strcmp(f->action, "event") && f->kind && !strcmp(f->kind, ek->name);
	int mine = posted && f->rc != 0;
	const char *want = f->action ? NULL : web_arg(r, "kind");
	const char *unit = f->action ? NULL : web_arg(r, "unit");
	const struct ord_key_spec *k, *uk = unit_key(ek), *tk = target_key(ek);
	int asked = want && !strcmp(want, ek->name);
	const char *target = asked ? web_arg(r, "target") : NULL, *help;
	int open = posted || asked, focus = open && !mine;

	ord_buf_adds(&to, action);
	ord_buf_addch(&to, '#');
	kind_anchor(&to, ek->name);
	ord_buf_adds(b, "<details class=\"event\" id=\"");
	kind_anchor(b, ek->name);
	ord_buf_adds(b, open ? "\" open><summary>" : "\"><summary>");
	web_esc(b, ek->name);
	if ((help = f->rs ? ord_event_help(f->rs, f->lang, ek, NULL) : ek->help) && *help) {
		const char *lang = help_lang(f, help, ek->help);

		ord_buf_adds(b, " <span class=\"muted\"");
		if (lang) {
			ord_buf_adds(b, " lang=\"");
			web_esc(b, lang);
			ord_buf_addch(b, '"');
		}
		ord_buf_addch(b, '>');
		web_esc(b, help);
		ord_buf_adds(b, "</span>");
	}
	ord_buf_adds(b, "</summary>");
	if (posted && !mine) {
		ord_buf_adds(b, "<div class=\"result ok\" role=\"status\" id=\"done\"><p>");
		web_esc(b, f->msg);
		ord_buf_adds(b, "</p>");
		if (f->diag.n)
			web_diag_list(b, &f->diag, NULL);
		ord_buf_adds(b, "</div>");
	}
	/* why it was refused, above what was typed: the page opens here */
	if (mine) {
		ord_buf_adds(b, "<div class=\"result bad\" role=\"alert\"><h3>Not recorded</h3>");
		if (f->diag.n)
			web_diag_list(b, &f->diag, NULL);
		else {
			ord_buf_adds(b, "<p>");
			web_esc(b, f->msg);
			ord_buf_adds(b, "</p>");
		}
		ord_buf_adds(b, "</div>");
	}
	web_form_start(r, to.buf, "event-form");
	ord_buf_adds(b, "<input type=\"hidden\" name=\"action\" value=\"event\">"
			"<input type=\"hidden\" name=\"kind\" value=\"");
	web_esc(b, ek->name);
	ord_buf_adds(b, "\">");
	lang_field(b, f->lang);
	at_fields(b, st);
	ord_buf_adds(b, "<div class=\"fields\">");
	for (k = ek->keys; k && k->name; k++) {
		struct ord_buf fname = ORD_BUF_INIT;
		const char *v = NULL;

		ord_buf_addf(&fname, "k_%s", k->name);
		if (mine)
			v = web_field(r, fname.buf);
		else if (asked && web_arg(r, fname.buf) && *web_arg(r, fname.buf))
			v = web_arg(r, fname.buf); /* the event its message suggests */
		else if (k == uk && unit && *unit)
			v = unit;
		else if (k == tk && target && *target)
			v = target;
		help = f->rs ? ord_event_help(f->rs, f->lang, ek, k) : k->help;
		key_input(b, ek->name, k, help, help_lang(f, help, k->help), v, f->unit_list,
			  focus && !(v && *v));
		if (focus && !(v && *v))
			focus = 0;
		ord_buf_release(&fname);
	}
	ord_buf_adds(b, "</div>");
	ord_buf_adds(b, "<div class=\"field\"><label>Override reason <input name=\"override\" "
			"autocomplete=\"off\"");
	if (mine && web_field(r, "override")) {
		ord_buf_adds(b, " value=\"");
		web_esc(b, web_field(r, "override"));
		ord_buf_adds(b, "\"");
	}
	ord_buf_adds(b, "></label><small>only for an event the orders do not allow: it is "
			"recorded anyway, with your reason in the log, and audit lists it</small>"
			"</div><div class=\"actions\"><button type=\"submit\">Record ");
	web_esc(b, ek->name);
	ord_buf_adds(b, "</button></div></form></details>\n");
	ord_buf_release(&to);
}

/* The Resolve's "Results in": the ruleset's languages, the page's (lang,
 * NULL: the first) chosen, so that the page after it stays in it. */
static void lang_select(struct ord_buf *b, const struct ord_ruleset *rs, const char *lang)
{
	size_t i;

	if (!rs || !rs->languages || !rs->languages[0] || !rs->languages[1])
		return;
	ord_buf_adds(b, "<label class=\"inline\">Results in <select name=\"lang\">");
	for (i = 0; rs->languages[i]; i++) {
		ord_buf_adds(b, lang && !strcmp(lang, rs->languages[i]) ? "<option selected>"
									: "<option>");
		web_esc(b, rs->languages[i]);
		ord_buf_adds(b, "</option>");
	}
	ord_buf_adds(b, "<option value=\"all\">all</option></select></label> ");
}

static void simple_form(struct web_req *r, const char *url, const char *action, const char *label,
			const char *cls)
{
	web_form_start(r, url, "inline");
	ord_buf_adds(&r->body, "<input type=\"hidden\" name=\"action\" value=\"");
	web_esc(&r->body, action);
	ord_buf_adds(&r->body, "\"><button type=\"submit\"");
	if (cls) {
		ord_buf_adds(&r->body, " class=\"");
		web_esc(&r->body, cls);
		ord_buf_adds(&r->body, "\"");
	}
	ord_buf_adds(&r->body, ">");
	web_esc(&r->body, label);
	ord_buf_adds(&r->body, "</button></form>");
}

/* The referee's report in XML as a document, or NULL. */
static xmlDocPtr report_doc(const struct ord_buf *xml)
{
	if (!xml->len)
		return NULL;
	return xmlReadMemory(xml->buf, (int)xml->len, "report.xml", "UTF-8",
			     XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
}

/* Where a pending order's own order is read: the referee's report (its
 * <sheet> of each side, the sealed sheets' orders at their lines), the
 * game (whose side a unit is) and the notation its sheets are in. */
struct order_at {
	ord_game *g;
	xmlDocPtr doc;
	const struct ord_notation *nt;
	const char *line; /* the pending order's line in its side's sheet */
};

struct side_of {
	const char *unit;
	char side[WEB_PARTY_NAME + 1];
};

static int unit_side(void *ud, const char *id, const char *name, const char *side)
{
	struct side_of *s = ud;

	(void)name;
	if (strcmp(id, s->unit))
		return 0;
	snprintf(s->side, sizeof(s->side), "%s", side);
	return 1;
}

/* The target (@unit, as written) of unit's sealed order, at->line of its
 * side's sheet as the referee's report gives it; NULL when it names none
 * (caller frees). */
static char *order_target(const struct order_at *at, const char *unit)
{
	struct side_of so = { unit, "" };
	xmlNodePtr s, o;
	char *target = NULL;

	if (!at || !at->g || !at->nt || !at->line)
		return NULL;
	ord_game_units(at->g, unit_side, &so);
	ord_error_clear();
	for (s = xmlDocGetRootElement(at->doc) ? xmlDocGetRootElement(at->doc)->children : NULL;
	     s && *so.side && !target; s = s->next) {
		xmlChar *side;
		int mine;

		if (s->type != XML_ELEMENT_NODE || xmlStrcmp(s->name, BAD_CAST "sheet"))
			continue;
		side = xmlGetProp(s, BAD_CAST "side");
		mine = side && !strcmp((const char *)side, so.side);
		xmlFree(side);
		for (o = mine ? s->children : NULL; o && !target; o = o->next) {
			xmlChar *line, *text;
			struct ord_sheet sheet;
			struct ord_diag diag;
			const struct ord_token *t;

			if (o->type != XML_ELEMENT_NODE || xmlStrcmp(o->name, BAD_CAST "order"))
				continue;
			line = xmlGetProp(o, BAD_CAST "line");
			if (!line || strcmp((const char *)line, at->line)) {
				xmlFree(line);
				continue;
			}
			xmlFree(line);
			/* the order as the report prints it (canonical), read again */
			text = xmlNodeGetContent(o);
			ord_sheet_init(&sheet);
			ord_diag_init(&diag);
			if (text)
				at->nt->parse(&sheet, (const char *)text,
					      strlen((const char *)text), &diag);
			if (sheet.n == 1 && (t = ord_order_find(&sheet.orders[0], ORD_TOK_TARGET)))
				target = ord_strdup(t->value);
			ord_sheet_release(&sheet);
			ord_diag_release(&diag);
			xmlFree(text);
			ord_error_clear();
			break;
		}
	}
	return target;
}

/* The event a pending order's message gives ready to record, "e.g.
 * `KIND key=value ...`" (the Krigsspil's owed retraete with its x and y),
 * as the keys of kind ek it sets, each "&k_KEY=VALUE" into out; the unit's
 * key is left to the link's unit.  Nothing when the message gives no such
 * event of ek.  Ruleset-neutral: any module may write its suggestion so. */
static void suggested_keys(struct ord_buf *out, const struct ord_event_kind *ek, const char *what)
{
	static const char eg[] = "e.g. `";
	const struct ord_key_spec *k, *uk = unit_key(ek);
	const char *p = what, *end, *w;
	size_t n;

	for (; (p = strstr(p, eg)) != NULL; p = end + 1) {
		p += strlen(eg);
		if (!(end = strchr(p, '`')))
			return;
		n = strcspn(p, " `");
		if (n != strlen(ek->name) || strncmp(p, ek->name, n))
			continue;
		for (w = p + n; w < end;) {
			const char *eq;
			size_t len;

			while (w < end && *w == ' ')
				w++;
			len = strcspn(w, " `");
			eq = memchr(w, '=', len);
			for (k = eq ? ek->keys : NULL; k && k->name; k++)
				if (k != uk && strlen(k->name) == (size_t)(eq - w) &&
				    !strncmp(k->name, w, (size_t)(eq - w)) && eq + 1 < w + len) {
					struct ord_buf v = ORD_BUF_INIT;

					ord_buf_add(&v, eq + 1, (size_t)(w + len - eq - 1));
					ord_buf_adds(out, "&amp;k_");
					web_url(out, k->name);
					ord_buf_addch(out, '=');
					web_url(out, v.buf);
					ord_buf_release(&v);
				}
			w += len;
		}
		return;
	}
}

/* A pending order's Record link: the page again with unit filled in the
 * unit field of every form of the phase, scrolled to the form of the kind
 * that carries the order out, open.  The report's <pending> names that
 * kind (its kind attribute: the module's check of execution gives it, as
 * its order_events does: the battalion's "move" of a move or a charge,
 * the Krigsspil's "flyt"); none when it names none, or one of another
 * phase (an order of a later phase: a fire while moving), or one that
 * names no unit.  A kind that takes a target (fire, artillery) gets the
 * one the unit's sealed order names (order_target), as the unit is the
 * order's; the keys of an event the message gives ready to record
 * (suggested_keys). */
static void record_link(struct ord_buf *list, const struct ord_ruleset *rs, const char *phase,
			const char *url, const char *lang, const char *unit, const char *kind,
			const char *what, const struct order_at *at)
{
	const struct ord_event_kind *ek, *match = NULL;
	char *target;

	for (ek = rs && *kind ? rs->events : NULL; ek && ek->name && !match; ek++)
		if (!strcmp(ek->name, kind) && !strcmp(ek->phase, phase) && unit_key(ek))
			match = ek;
	if (!match || !*unit)
		return;
	ord_buf_adds(list, " <a class=\"button record\" href=\"");
	web_esc(list, url);
	ord_buf_adds(list, "?unit=");
	web_url(list, unit);
	ord_buf_adds(list, "&amp;kind=");
	web_url(list, match->name);
	if (target_key(match) && (target = order_target(at, unit)) != NULL) {
		ord_buf_adds(list, "&amp;target=");
		web_url(list, target);
		free(target);
	}
	suggested_keys(list, match, what);
	if (lang) {
		/* the form it opens in the page's language */
		ord_buf_adds(list, "&amp;lang=");
		web_url(list, lang);
	}
	ord_buf_addch(list, '#');
	kind_anchor(list, match->name);
	ord_buf_adds(list, "\">Record ");
	web_esc(list, match->name);
	ord_buf_adds(list, "…</a>");
}

/* The sheets' orders no event carries out so far (the report's <pending>):
 * what is still to record (of this phase or a later one), or was left out.
 * The first PENDING_MAX of them as <li> items into list (the referee's
 * report has them all), each with its Record link when url is not NULL
 * (to the page in lang, NULL: the ruleset's first); returns how many
 * there are. */
static int pending_list(xmlDocPtr doc, struct ord_buf *list, const struct ord_ruleset *rs,
			const char *phase, const char *url, const char *lang, ord_game *g)
{
	struct order_at at = { g, doc, NULL, NULL };
	xmlNodePtr n;
	int any = 0;

	if (g && rs && ord_notation_find(&at.nt, rs->notation) != 0)
		at.nt = NULL;
	ord_error_clear();

	for (n = xmlDocGetRootElement(doc) ? xmlDocGetRootElement(doc)->children : NULL; n;
	     n = n->next) {
		xmlChar *unit, *what;

		if (n->type != XML_ELEMENT_NODE || xmlStrcmp(n->name, BAD_CAST "pending"))
			continue;
		if (any++ >= PENDING_MAX)
			continue;
		unit = xmlGetProp(n, BAD_CAST "unit");
		what = xmlNodeGetContent(n);
		/* what an order says (a target's name) shown escaped, as the
		 * text report shows it: the XML's character reference is the
		 * character again once read (attack 43) */
		ord_buf_adds(list, "<li><span><b>");
		web_esc_name(list, unit ? (const char *)unit : "");
		ord_buf_adds(list, "</b> ");
		web_esc_name(list, what ? (const char *)what : "");
		ord_buf_adds(list, "</span>");
		if (url) {
			xmlChar *line = xmlGetProp(n, BAD_CAST "line");
			xmlChar *kind = xmlGetProp(n, BAD_CAST "kind");

			at.line = (const char *)line;
			record_link(list, rs, phase, url, lang, unit ? (const char *)unit : "",
				    kind ? (const char *)kind : "", what ? (const char *)what : "",
				    &at);
			xmlFree(line);
			xmlFree(kind);
		}
		ord_buf_adds(list, "</li>");
		xmlFree(unit);
		xmlFree(what);
	}
	if (any > PENDING_MAX)
		ord_buf_addf(list,
			     "<li class=\"muted\">and %d more: the referee's report below lists "
			     "them all</li>",
			     any - PENDING_MAX);
	return any;
}

/* The events of phase standing now (the referee's report in XML lists
 * them; a voided one is gone) as a list under a heading, each with its Void
 * form when url is not NULL; returns how many. */
static int recorded_list(struct referee *f, xmlDocPtr doc, const struct ord_game_status *st,
			 const char *url)
{
	const char *phase = st->phase;
	struct web_req *r = f->r;
	struct ord_buf *b = &r->body;
	xmlNodePtr n;
	int any = 0;

	for (n = xmlDocGetRootElement(doc) ? xmlDocGetRootElement(doc)->children : NULL; n;
	     n = n->next) {
		xmlChar *seq, *ph, *kind, *args;

		if (n->type != XML_ELEMENT_NODE || xmlStrcmp(n->name, BAD_CAST "event"))
			continue;
		seq = xmlGetProp(n, BAD_CAST "seq");
		ph = xmlGetProp(n, BAD_CAST "phase");
		kind = xmlGetProp(n, BAD_CAST "kind");
		args = xmlNodeGetContent(n);
		if (seq && ph && kind && !strcmp((const char *)ph, phase)) {
			if (!any++)
				ord_buf_adds(b, "<h3>Recorded in this phase</h3><ul class=\"events\">");
			ord_buf_adds(b, "<li><span class=\"ev\"><b>#");
			web_esc(b, (const char *)seq);
			ord_buf_adds(b, "</b> ");
			web_esc(b, (const char *)kind);
			ord_buf_adds(b, " <code>");
			web_esc(b, args ? (const char *)args : "");
			ord_buf_adds(b, "</code></span>");
			if (url) {
				web_form_start(r, url, "void-form");
				at_fields(b, st);
				lang_field(b, f->lang);
				ord_buf_adds(b, "<input type=\"hidden\" name=\"action\" value=\"void\">"
						"<input type=\"hidden\" name=\"seq\" value=\"");
				web_esc(b, (const char *)seq);
				ord_buf_adds(b,
					     "\"><input name=\"reason\" aria-label=\"why it is voided\" "
					     "placeholder=\"why void it\" autocomplete=\"off\" required> "
					     "<button type=\"submit\" class=\"secondary\">Void</button>"
					     "</form>");
			}
			ord_buf_adds(b, "</li>");
		}
		xmlFree(seq);
		xmlFree(ph);
		xmlFree(kind);
		xmlFree(args);
	}
	if (any)
		ord_buf_adds(b, "</ul>\n");
	return any;
}

/* The events of the current phase standing now, each with its Void form;
 * then the orders no event carries out so far (the report's <pending>). */
static void events_list(struct referee *f, ord_game *g, const struct ord_buf *xml,
			const struct ord_game_status *st, const char *url)
{
	struct ord_buf list = ORD_BUF_INIT;
	xmlDocPtr doc = report_doc(xml);
	int any;

	if (!doc)
		return;
	recorded_list(f, doc, st, url);
	/* open when it is short enough to read before Resolve */
	if ((any = pending_list(doc, &list, f->rs, st->phase, url, f->lang, g)) != 0)
		ord_buf_addf(&f->r->body,
			     "<details class=\"pending\"%s><summary>Ordered, not carried out by an "
			     "event so far (%d)</summary><ul class=\"pending\">%s</ul></details>\n",
			     any <= PENDING_OPEN ? " open" : "", any, list.buf);
	ord_buf_release(&list);
	xmlFreeDoc(doc);
}

/* The hidden fields of a confirmed action (W9): what it is, and the turn
 * and phase the referee saw when he confirmed it. */
static void confirm_fields(struct ord_buf *b, const char *action, const struct ord_game_status *st)
{
	ord_buf_adds(b, "<input type=\"hidden\" name=\"action\" value=\"");
	web_esc(b, action);
	ord_buf_addf(b,
		     "\"><input type=\"hidden\" name=\"confirm\" value=\"yes\">"
		     "<input type=\"hidden\" name=\"turn\" value=\"%d\">"
		     "<input type=\"hidden\" name=\"phase\" value=\"",
		     st->turn);
	web_esc(b, st->phase);
	ord_buf_adds(b, "\">");
}

/* A hidden field carrying a POST's value on to its confirmation. */
static void carry_field(struct web_req *r, const char *name)
{
	const char *v = web_field(r, name);

	if (!v || !*v)
		return;
	ord_buf_adds(&r->body, "<input type=\"hidden\" name=\"");
	web_esc(&r->body, name);
	ord_buf_adds(&r->body, "\" value=\"");
	web_esc(&r->body, v);
	ord_buf_adds(&r->body, "\">");
}

/* The second step of Seal, Resolve and Exchange (W9): what the step does
 * and cannot undo, and for Resolve what the sheets ordered that no event
 * carries out so far; Yes posts it again, confirmed; Back does nothing. */
static void confirm_card(struct referee *f, ord_game *g, const struct ord_game_status *st,
			 const struct ord_buf *xml, const char *url)
{
	struct web_req *r = f->r;
	struct ord_buf *b = &r->body, list = ORD_BUF_INIT;
	const char *a = f->confirm;
	size_t i;

	ord_buf_adds(b, "<section class=\"card confirm\" id=\"confirm\" role=\"alertdialog\" "
			"aria-labelledby=\"confirm-title\"><h2 id=\"confirm-title\">");
	if (!strcmp(a, "seal")) {
		struct ord_buf lacking = ORD_BUF_INIT;
		/* the policy stands in from ord_game_seal_from on, not from
		 * the deadline's next second: in a game made since (made=) the
		 * second after the deadline still seals only by force (attack
		 * 36), and this Yes carries it, saying from when it would not
		 * need to */
		int64_t now = ord_game_now(g);
		int64_t from = st->deadline ? ord_game_seal_from(g, st->deadline) : 0;
		int missing = 0, passed = st->deadline && now > st->deadline,
		    late = st->deadline && now >= from;

		ord_buf_addf(b,
			     "Seal turn %d?</h2><p>Once sealed, no side can hand in or change "
			     "its sheet for turn %d. This cannot be undone.</p><ul class=\"sides\">",
			     st->turn, st->turn);
		for (i = 0; i < ord_game_nsides(g); i++) {
			const char *side = ord_game_side_name(g, i);
			unsigned char c[32];
			char source[16] = "";
			int version = 0;

			if (ord_game_side_sheet(g, st->turn, side, &version, source, c) != 0)
				version = 0;
			ord_buf_adds(b, "<li>");
			web_esc(b, side);
			if (version) {
				ord_buf_addf(b,
					     " <span class=\"badge yes\">sheet in</span> <span "
					     "class=\"muted\">version %d</span>",
					     version);
			} else {
				if (missing++)
					ord_buf_adds(&lacking, ", ");
				ord_buf_adds(&lacking, side);
				ord_buf_adds(b, " <span class=\"badge no\">no sheet</span> <span "
						"class=\"muted\">the policy for a missing sheet, <b>");
				web_esc(b, st->nmr);
				ord_buf_adds(b, "</b>, stands in</span>");
			}
			ord_buf_adds(b, "</li>");
		}
		ord_error_clear();
		ord_buf_adds(b, "</ul>");
		web_form_start(r, url, "confirm");
		confirm_fields(b, "seal", st);
		/* Yes does what it says: before the deadline a side without a
		 * sheet is sealed only by force, so this Yes carries it (it
		 * offered a box left unticked, and its Yes was refused) */
		if (missing && !late) {
			if (passed) {
				ord_buf_adds(b, "<p>The deadline has passed, but the policy for a "
						"missing sheet stands in only from ");
				web_time(b, from, WEB_TIME_SECOND, now);
				ord_buf_adds(b, ": Yes seals now even though a side has no sheet.</p>");
			} else {
				ord_buf_adds(b, "<p>The deadline has not passed: Yes seals even though "
						"a side has no sheet.</p>");
			}
			ord_buf_adds(b, "<input type=\"hidden\" "
					"name=\"force\" value=\"1\">"
					"<div class=\"actions\"><button type=\"submit\">Yes, seal "
					"without ");
			web_esc(b, lacking.buf);
			ord_buf_adds(b, "</button>");
		} else {
			ord_buf_addf(b,
				     "<div class=\"actions\"><button type=\"submit\">Yes, seal "
				     "turn %d</button>",
				     st->turn);
		}
		ord_buf_release(&lacking);
	} else if (!strcmp(a, "resolve")) {
		xmlDocPtr doc = report_doc(xml);
		int n = 0;

		ord_buf_addf(b, "Resolve phase %d of %d, ", st->phases_resolved + 1, st->nphases);
		web_esc(b, st->phase);
		ord_buf_adds(b, "?</h2><p>The phase's dice are rolled and its results are "
				"final. This cannot be undone.</p>");
		if (doc && !recorded_list(f, doc, st, NULL))
			ord_buf_adds(b, "<p class=\"muted\">No event is recorded in this phase.</p>");
		if (doc && (n = pending_list(doc, &list, NULL, st->phase, NULL, NULL, NULL)) != 0)
			ord_buf_addf(b,
				     "<h3>Ordered, not carried out by an event so far (%d)</h3><p "
				     "class=\"muted\">Of this phase or a later one: record what was "
				     "done first, or resolve knowing these stay undone.</p><ul "
				     "class=\"pending\">%s</ul>",
				     n, list.buf);
		else if (doc)
			ord_buf_adds(b, "<p>Every order of the sheets is carried out by an event "
					"recorded so far.</p>");
		xmlFreeDoc(doc);
		web_form_start(r, url, "confirm");
		confirm_fields(b, "resolve", st);
		carry_field(r, "lang");
		carry_field(r, "dice");
		ord_buf_adds(b, "<div class=\"actions\"><button type=\"submit\">Yes, resolve ");
		web_esc(b, st->phase);
		ord_buf_adds(b, "</button>");
	} else {
		ord_buf_addf(b,
			     "Exchange turn %d?</h2><p>Every side's sheet and the dice seed of "
			     "turn %d are revealed to every player, the bundle is signed, and turn "
			     "%d opens. This cannot be undone.</p>",
			     st->turn, st->turn, st->turn + 1);
		web_form_start(r, url, "confirm");
		confirm_fields(b, "exchange", st);
		ord_buf_adds(b, "<div class=\"actions\"><button type=\"submit\">Yes, exchange "
				"the sheets</button>");
	}
	ord_buf_adds(b, " <a class=\"button secondary\" href=\"");
	web_esc(b, url);
	ord_buf_adds(b, "\">No, back</a></div></form></section>\n");
	ord_buf_release(&list);
}

/* Whether the POST was an event of a kind whose form the page shows (it
 * says there what became of the event). */
static int event_in_form(const struct referee *f, const struct ord_game_status *st)
{
	const struct ord_event_kind *ek;

	if (!f->action || strcmp(f->action, "event") || !f->kind || !f->rs ||
	    !strcmp(st->state, "open") || !*st->phase)
		return 0;
	ek = ord_ruleset_event_kind(f->rs, f->kind);
	return ek && !strcmp(ek->phase, st->phase);
}

/* A word for a shell (sh): as it is when it is made of nothing a shell
 * reads apart, else in single quotes. */
static void shell_word(struct ord_buf *b, const char *w)
{
	const char *q;

	if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.,:/+=@%-") ==
			  strlen(w)) {
		web_esc(b, w);
		return;
	}
	ord_buf_addch(b, '\'');
	for (q = w; *q; q++) {
		if (*q == '\'')
			ord_buf_adds(b, "'\\''");
		else
			web_esc_n(b, q, 1);
	}
	ord_buf_addch(b, '\'');
}

/* The audit of the game file the server holds (`orderly audit GAME`):
 * asked for with ?audit=1, since it recomputes the whole game (the chain,
 * every commitment and roll, every phase replayed through the rules), and
 * its findings shown as the command prints them, the game named by its
 * name on the page (name, of /g/NAME), not by the file's path.  A player
 * checks the referee with the bundle on his own machine (`orderly
 * verify`); this is the referee's own look at the file, e.g. after a
 * crash or a copy. */
static void audit_card(struct web_req *r, ord_game *g, const char *name, const char *url)
{
	struct ord_buf *b = &r->body, out = ORD_BUF_INIT;
	const char *a = web_arg(r, "audit");
	int rc;

	ord_buf_adds(b, "<section class=\"card\" id=\"audit\"><h2>Audit</h2>");
	if (!a || strcmp(a, "1")) {
		ord_buf_adds(b, "<p>Recompute the log's hash chain, every commitment and roll, and "
				"replay every phase resolved through the rules, as <code>orderly "
				"audit</code> does. The players check you with the bundle and "
				"<code>orderly verify</code> on their own machines; this checks the "
				"game file this server holds.</p><p><a class=\"button secondary\" "
				"href=\"");
		web_esc(b, url);
		ord_buf_adds(b, "?audit=1#audit\">Audit the game</a></p></section>\n");
		return;
	}
	/* its first line names the game as the page names it: the
	 * command's "audit of 'PATH':" would show the server's
	 * directories, which are no business of the page's */
	rc = ord_game_audit_named(g, 0, name, &out);
	if (rc == 0)
		ord_buf_adds(b, "<div class=\"result ok\" role=\"status\"><p>Clean: no sheet, "
				"log entry, roll or result has changed since it was written, and "
				"every phase is what the rules give.</p></div>");
	else if (rc == ORD_ETAMPERED)
		ord_buf_adds(b, "<div class=\"result bad\" role=\"alert\"><p>The audit found "
				"something broken: the findings below say what. Keep a copy of the "
				"file as it is, and do not play on before you know why.</p></div>");
	else {
		ord_buf_adds(b, "<div class=\"result bad\" role=\"alert\"><p>The audit could not "
				"run: ");
		web_esc(b, ord_error_last());
		ord_buf_adds(b, "</p></div>");
	}
	ord_error_clear();
	if (out.len) {
		ord_buf_addf(b,
			     "<details%s><summary>The audit's findings</summary><pre "
			     "class=\"report audit\">",
			     rc == 0 ? "" : " open");
		web_esc(b, out.buf);
		ord_buf_adds(b, "</pre></details>");
	}
	ord_buf_adds(b, "</section>\n");
	ord_buf_release(&out);
}

/* The parties whose passphrase logins are refused now, for too many wrong
 * ones from every address (auth.c), so that the referee knows why a
 * player cannot log in, that someone may be guessing, and what he can do
 * about it: wait, tell the player where he can still log in from, or
 * give the side a new passphrase (the command to run, for each party). */
static void locks_card(struct web_req *r, ord_game *g, const char *name)
{
	struct ord_buf *b = &r->body, cmds = ORD_BUF_INIT;
	size_t i, n = ord_game_nsides(g);
	int any = 0;

	for (i = 0; i <= n; i++) {
		const char *party = i < n ? ord_game_side_name(g, i) : WEB_REFEREE;
		struct ord_mail_party mp;
		int fails, left;

		/* a lock counted against a passphrase replaced since is over */
		memset(&mp, 0, sizeof(mp));
		if (ord_mail_party(g, i < n ? party : NULL, &mp) != 0)
			ord_error_clear();
		left = web_auth_side_locked(web_auth_of(r), name, party, mp.pass_id, &fails);

		if (!left)
			continue;
		if (!any++)
			ord_buf_adds(b, "<section class=\"card locks\" id=\"locked\"><div "
					"class=\"result bad\" role=\"alert\"><h2>Logins refused</h2>"
					"<ul class=\"locks\">");
		ord_buf_adds(b, "<li><strong>");
		web_esc(b, web_party_label(party));
		ord_buf_addf(b,
			     "</strong>: %d wrong passphrases in %d minutes, from all addresses "
			     "together. Logins as ",
			     fails, WEB_WINDOW / 60);
		web_esc(b, web_party_label(party));
		ord_buf_adds(b, " are refused for <span class=\"left\">");
		web_duration(b, left);
		ord_buf_addf(b,
			     "</span> more, except from a network it logged in from in the last "
			     "%d days.</li>",
			     WEB_KNOWN_KEEP / 86400);
		/* a few words a line, as the verify command is shown: a
		 * phone's narrow box breaks no word in two */
		ord_buf_adds(&cmds, cmds.len ? "\n\n" : "");
		ord_buf_adds(&cmds, "orderly register ");
		shell_word(&cmds, name);
		ord_buf_adds(&cmds, ".orderly \\\n  ");
		if (strcmp(party, WEB_REFEREE)) {
			ord_buf_adds(&cmds, "--side ");
			shell_word(&cmds, party);
		} else {
			ord_buf_adds(&cmds, "--referee");
		}
		ord_buf_adds(&cmds, " \\\n  --passphrase-file -");
	}
	if (!any)
		return;
	ord_buf_addf(b,
		     "</ul><p>Someone may be guessing the passphrase. However many addresses "
		     "he has, he gets %d tries in %d minutes.</p></div>\n",
		     WEB_FAILS_PER_SIDE, WEB_WINDOW / 60);
	ord_buf_adds(b, "<h3>What you can do</h3><ul class=\"todo\">"
			"<li><strong>Wait:</strong> the refusal ends by itself when its time is up. "
			"Whoever is logged in stays logged in, and the side can still be logged "
			"in from a network it was logged in from before (its player's home, "
			"say).</li>"
			"<li><strong>If it comes back</strong>, give the side a new passphrase: "
			"on the server, in the games' directory, run</li></ul>"
			"<pre class=\"command\"><code>");
	ord_buf_add(b, cmds.buf, cmds.len);
	ord_buf_adds(b, "</code></pre><p class=\"muted\">and send the new passphrase (or "
			"its secret link) to the side's player (the referee's you keep). The sessions logged in with the old one "
			"end, and the guesses so far are wasted; the refusal still runs its time. Restarting <code>orderly serve</code> lifts every "
			"refusal, and logs everybody out.</p></section>\n");
	ord_buf_release(&cmds);
}

/* The refusal of an empty phase's way on: Resolve it empty (as resolve
 * --empty, the phase named as --phase names it), posted confirmed for this turn and phase, the
 * language and dice of the Resolve refused carried on. */
static void empty_form(struct referee *f, const struct ord_game_status *st, const char *url)
{
	struct ord_buf *b = &f->r->body;

	web_form_start(f->r, url, "confirm");
	confirm_fields(b, "resolve", st);
	carry_field(f->r, "lang");
	carry_field(f->r, "dice");
	ord_buf_adds(b, "<input type=\"hidden\" name=\"empty\" value=\"yes\"><div "
			"class=\"actions\"><button type=\"submit\">Resolve ");
	web_esc(b, st->phase);
	ord_buf_adds(b, " empty</button></div></form>");
}

/* The refusal of a deadline already past's way on: set it even so, as
 * deadline --past sets it, the time refused carried as orderly writes it
 * (a relative one, +0m, would be another time by the click), for this
 * turn (W12). */
static void past_form(struct referee *f, const struct ord_game_status *st, const char *url)
{
	struct ord_buf *b = &f->r->body, stamp = ORD_BUF_INIT;

	ord_when_format(&stamp, f->past, NULL);
	web_form_start(f->r, url, "deadline-past");
	at_fields(b, st);
	ord_buf_adds(b, "<input type=\"hidden\" name=\"action\" value=\"deadline\">"
			"<input type=\"hidden\" name=\"when\" value=\"");
	web_esc(b, stamp.buf);
	ord_buf_adds(b, "\"><input type=\"hidden\" name=\"past\" value=\"yes\"><div "
			"class=\"actions\"><button type=\"submit\">Yes, set ");
	web_esc(b, stamp.buf);
	ord_buf_adds(b, ", already past</button></div></form>");
	ord_buf_release(&stamp);
}

/* The languages the event forms' help is written in, when the ruleset
 * writes more than one: a link to the page in each, the one it is read
 * in not a link (as the reports' languages are offered). */
static void help_langs(struct ord_buf *b, const struct referee *f, const char *url)
{
	const char *now = f->rs ? ord_ruleset_language(f->rs, f->lang) : NULL;
	size_t i;

	if (!now || !f->rs->languages || !f->rs->languages[0] || !f->rs->languages[1])
		return;
	ord_buf_adds(b, "<p class=\"muted langs\">What the forms say, in:");
	for (i = 0; f->rs->languages[i]; i++) {
		const char *l = f->rs->languages[i];

		if (!strcmp(l, now)) {
			ord_buf_adds(b, " <b>");
			web_esc(b, l);
			ord_buf_adds(b, "</b>");
			continue;
		}
		ord_buf_adds(b, " <a href=\"");
		web_esc(b, url);
		ord_buf_adds(b, "?lang=");
		web_url(b, l);
		ord_buf_adds(b, "#record\" hreflang=\"");
		web_esc(b, l);
		ord_buf_adds(b, "\">");
		web_esc(b, l);
		ord_buf_adds(b, "</a>");
	}
	ord_buf_adds(b, "</p>\n");
}

/* The language the page is read in: the one posted (the Resolve's
 * "Results in", or a form's that carries the page's), else ?lang= (its
 * links), when the ruleset writes it ("all", another: NULL, its first). */
static const char *page_lang(struct web_req *r, const struct ord_ruleset *rs)
{
	const char *l = web_field(r, "lang");

	if (!l || !*l)
		l = web_arg(r, "lang");
	return rs && l && *l ? ord_ruleset_language(rs, l) : NULL;
}

static int referee_fill(void *ud, ord_game *g)
{
	struct referee *f = ud;
	struct web_req *r = f->r;
	struct ord_buf *b = &r->body, back = ORD_BUF_INIT, url = ORD_BUF_INIT, report = ORD_BUF_INIT;
	struct ord_buf xml = ORD_BUF_INIT;
	struct ord_report_opts ro = { 0 };
	struct ord_game_status st;
	const char *crumbs[5];
	size_t i;
	int err, have_report;

	if ((err = ord_game_status(g, &st)) != 0)
		return err;
	/* this turn's referee report, read once: its text for reading, its XML
	 * for the phase card's lists while the turn is resolved */
	ro.turn = st.turn;
	have_report = ord_game_report_both(g, &ro, &report,
					   strcmp(st.state, "open") && *st.phase ? &xml : NULL) == 0;
	ord_error_clear();
	ord_buf_adds(&back, "/g/");
	web_url(&back, f->name);
	ord_buf_addf(&url, "%s/referee", back.buf);
	crumbs[0] = st.title;
	crumbs[1] = back.buf;
	crumbs[2] = "Referee";
	crumbs[3] = NULL;
	crumbs[4] = NULL;
	web_page_start(r, "Referee", crumbs);
	ord_buf_adds(b, "<h1>");
	web_esc_name(b, st.title);
	ord_buf_addf(b, ": referee</h1>\n<p class=\"turnline\">Turn %d, ", st.turn);
	web_esc(b, st.state);
	if (st.nphases && strcmp(st.state, "open"))
		ord_buf_addf(b, ", %d of %d phases resolved", st.phases_resolved, st.nphases);
	ord_buf_adds(b, ". Deadline: ");
	web_deadline(b, g, st.deadline, !strcmp(st.state, "open"));
	ord_buf_adds(b, "</p>\n");
	locks_card(r, g, f->name);
	if (f->confirm) {
		confirm_card(f, g, &st, &xml, url.buf);
		goto end;
	}

	/* what was just done, on top; an event's in its form */
	if (f->action && !event_in_form(f, &st)) {
		ord_buf_addf(b, "<section class=\"card result %s\" role=\"%s\" id=\"done\"><p>",
			     f->rc != 0 ? "bad"
			     : f->warn  ? "warn"
					: "ok",
			     f->rc == 0 && !f->warn ? "status" : "alert");
		web_esc(b, f->msg);
		ord_buf_adds(b, "</p>");
		if (f->diag.n)
			web_diag_list(b, &f->diag, NULL);
		if (f->results.len) {
			ord_buf_adds(b, "<pre class=\"results\">");
			web_esc(b, f->results.buf);
			ord_buf_adds(b, "</pre>");
		}
		if (f->empty && *st.phase)
			empty_form(f, &st, url.buf);
		if (f->past && !strcmp(st.state, "open"))
			past_form(f, &st, url.buf);
		ord_buf_adds(b, "</section>\n");
	}

	if (!strcmp(st.state, "open")) {
		ord_buf_addf(b, "<section class=\"card\"><h2>Sheets of turn %d</h2><ul class=\"sides\">",
			     st.turn);
		for (i = 0; i < ord_game_nsides(g); i++) {
			const char *side = ord_game_side_name(g, i);
			unsigned char c[32];
			char source[16] = "";
			int version = 0;

			if (ord_game_side_sheet(g, st.turn, side, &version, source, c) != 0)
				version = 0;
			ord_buf_adds(b, "<li>");
			web_esc(b, side);
			if (version)
				ord_buf_addf(b,
					     " <span class=\"badge yes\">sheet in</span> <span "
					     "class=\"muted\">version %d</span>",
					     version);
			else
				ord_buf_adds(b, " <span class=\"badge no\">no sheet yet</span>");
			ord_buf_adds(b, "</li>");
		}
		ord_error_clear();
		ord_buf_adds(b, "</ul>");
		web_form_start(r, url.buf, "seal");
		ord_buf_adds(b, "<input type=\"hidden\" name=\"action\" value=\"seal\">"
				"<label class=\"check\"><input type=\"checkbox\" name=\"force\" "
				"value=\"1\"> Seal even though a side has no sheet (the game's "
				"policy for missing sheets, <b>");
		web_esc(b, st.nmr);
		ord_buf_adds(b, "</b>, stands in)</label><div class=\"actions\"><button "
				"type=\"submit\">Seal the turn…</button></div></form></section>\n");
		ord_buf_adds(b, "<section class=\"card\"><h2>Deadline</h2>");
		web_form_start(r, url.buf, "deadline");
		at_fields(b, &st);
		ord_buf_adds(b,
			     "<input type=\"hidden\" name=\"action\" value=\"deadline\">"
			     "<label for=\"when\">New deadline</label><input id=\"when\" "
			     "name=\"when\" placeholder=\"+48h, 2026-12-07T18:00Z or none\" "
			     "autocomplete=\"off\"><div class=\"actions\"><button type=\"submit\" "
			     "class=\"secondary\">Set the deadline</button></div></form></section>\n");
	} else if (*st.phase) {
		const struct ord_event_kind *ek;
		int any = 0;

		ord_buf_addf(b,
			     "<section class=\"card\" id=\"phase\"><h2><a class=\"jump\" "
			     "href=\"#pictures\">Map ↓</a>Phase %d of %d: ",
			     st.phases_resolved + 1, st.nphases);
		web_esc(b, st.phase);
		ord_buf_adds(b, "</h2><h3 id=\"record\">Record what you measured</h3>\n");
		help_langs(b, f, url.buf);
		if (phase_names_units(f->rs, st.phase))
			units_datalist(f, g);

		for (ek = f->rs ? f->rs->events : NULL; ek && ek->name; ek++) {
			if (strcmp(ek->phase, st.phase))
				continue;
			event_form(f, url.buf, ek, &st);
			any = 1;
		}
		if (!any)
			ord_buf_adds(b, "<p class=\"muted\">This phase takes no event: resolve "
					"it.</p>");
		events_list(f, g, &xml, &st, url.buf);
		ord_buf_adds(b, "<h3>Resolve the phase</h3>");
		web_form_start(r, url.buf, "resolve");
		ord_buf_adds(b, "<input type=\"hidden\" name=\"action\" value=\"resolve\">");
		lang_select(b, f->rs, f->lang);
		if (st.fixed_dice)
			ord_buf_adds(b, "<label class=\"inline\">Dice (a test game) <input "
					"name=\"dice\" placeholder=\"3,5,1\" autocomplete=\"off\">"
					"</label> ");
		ord_buf_adds(b, "<div class=\"actions\"><button type=\"submit\">Resolve ");
		web_esc(b, st.phase);
		ord_buf_adds(b, "…</button></div></form></section>\n");
	} else if (strcmp(st.state, "exchanged")) {
		ord_buf_addf(b,
			     "<section class=\"card\"><h2>Every phase is resolved</h2><p>Read "
			     "the reports, then exchange: every sheet and the dice seed of turn "
			     "%d are revealed to all, and turn %d opens.</p>",
			     st.turn, st.turn + 1);
		simple_form(r, url.buf, "exchange", "Exchange the sheets…", NULL);
		ord_buf_adds(b, "</section>\n");
	}

	/* the map next to the forms, to look at while recording; the report
	 * (thousands of lines in a big game) folded below it */
	web_pictures_section(r, g, f->name, WEB_REFEREE);
	if (have_report) {
		ord_buf_addf(b,
			     "<section class=\"card\" id=\"report\"><details><summary>Turn %d: the "
			     "referee's report</summary><pre class=\"report\">",
			     st.turn);
		web_esc(b, report.buf);
		ord_buf_adds(b, "</pre></details></section>\n");
	}
	ord_error_clear();
	web_reports_section(r, g, f->name, WEB_REFEREE);
	audit_card(r, g, f->name, url.buf);
	web_files_section(r, g, f->name, NULL);
	ord_buf_adds(b, "<section class=\"card\">");
	ord_buf_adds(&back, "/logout");
	web_form_start(r, back.buf, "inline");
	ord_buf_adds(b, "<button type=\"submit\" class=\"secondary\">Log out</button></form>"
			"</section>\n");
end:
	web_page_end(r);
	ord_buf_release(&back);
	ord_buf_release(&url);
	ord_buf_release(&report);
	ord_buf_release(&xml);
	return 0;
}

static int parse_dice(const char *s, int **dice, size_t *n)
{
	const char *p = s;

	*dice = NULL;
	*n = 0;
	while (p && *p) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p || v < 1 || v > 100 || *n >= 1000) {
			free(*dice);
			*dice = NULL;
			return -1;
		}
		*dice = ord_xrealloc(*dice, (*n + 1) * sizeof(**dice));
		(*dice)[(*n)++] = (int)v;
		p = end;
		while (*p == ',' || *p == ' ')
			p++;
	}
	return 0;
}

static void say(struct referee *f, int rc, const char *fmt, const char *arg)
{
	struct ord_buf m = ORD_BUF_INIT;

	f->rc = rc;
	f->way = ORD_WAY_NONE;
	if (rc != 0) {
		ord_buf_adds(&m, ord_error_last());
		f->way = ord_error_way(&f->way_at, &f->way_len);
	} else {
		ord_buf_addf(&m, fmt, arg ? arg : "");
	}
	free(f->msg);
	f->msg = ord_buf_detach(&m, NULL);
}

/* A deadline set that has passed already (by its refusal's button, as
 * `orderly deadline --past` sets it) is said so, as the command says it:
 * no more sheets are taken (or only until the schedule's grace ends), and
 * the page's Seal seals without its box. */
static void deadline_past(struct referee *f, ord_game *g, int64_t when)
{
	struct ord_game_status st;
	struct ord_buf m = ORD_BUF_INIT;
	int64_t now = ord_game_now(g);

	if (ord_game_status(g, &st) != 0) {
		ord_error_clear();
		return;
	}
	if (st.deadline && st.deadline <= now)
		ord_buf_addf(&m,
			     "%s Note: this deadline has passed already: no more sheets are taken, "
			     "and Seal seals the turn without \"Seal even though a side has no "
			     "sheet\".",
			     f->msg);
	else if (when <= now)
		ord_buf_addf(&m,
			     "%s Note: this deadline has passed already: sheets are taken until "
			     "the grace ends.",
			     f->msg);
	else
		return;
	f->warn = 1;
	free(f->msg);
	f->msg = ord_buf_detach(&m, NULL);
}

/* A refusal that names the command line's way out (way, where the
 * library says msg names it: ord_error_way) in the page's words instead:
 * page in its place, the message's rest after it.  1 when it named it. */
static int page_words(struct referee *f, int way, const char *page)
{
	struct ord_buf m = ORD_BUF_INIT;

	if (f->rc == 0 || !f->msg || f->way != way || f->way_at + f->way_len > strlen(f->msg))
		return 0;
	ord_buf_add(&m, f->msg, f->way_at);
	ord_buf_adds(&m, page);
	ord_buf_adds(&m, f->msg + f->way_at + f->way_len);
	free(f->msg);
	f->msg = ord_buf_detach(&m, NULL);
	f->way = ORD_WAY_NONE;
	return 1;
}

/* A seal refused for a side without a sheet names the command line's
 * switch (seal --force); the page's own control is the box. */
static void seal_words(struct referee *f)
{
	page_words(f, ORD_WAY_SEAL_FORCE, "tick \"Seal even though a side has no sheet\" to seal now");
}

/* A phase refused for having no event while sealed orders wait for one
 * names the command line's ways, to record them or resolve it empty
 * (resolve --empty); the page's are its forms and the button the
 * refusal's card offers (f->empty). */
static void empty_words(struct referee *f)
{
	if (page_words(f, ORD_WAY_RESOLVE_EMPTY,
		       ". Nothing was done: record them in the phase's forms below or, if the "
		       "phase is meant to go empty, resolve it empty (the button below)."))
		f->empty = 1;
}

/* Whether action a may be done now (W9): Seal, Resolve and Exchange only
 * when confirmed, for the turn and phase the game is at; else f->confirm
 * asks for it (0), or the POST is refused as stale (-1, said).  An event
 * or a Void only from a form of the turn and phase the game is at (W12). */
static int confirmed(struct referee *f, ord_game *g, const char *a)
{
	const char *c = web_field(f->r, "confirm"), *turn = web_field(f->r, "turn"),
		   *phase = web_field(f->r, "phase");
	struct ord_game_status st;
	long t;

	if (strcmp(a, "seal") && strcmp(a, "resolve") && strcmp(a, "exchange") &&
	    strcmp(a, "event") && strcmp(a, "void") && strcmp(a, "deadline"))
		return 1;
	if (ord_game_status(g, &st) != 0) {
		say(f, ord_error_code(), "", NULL);
		return -1;
	}
	/* an event or a void is for the phase its form was shown in (W12):
	 * event numbers start again every turn, and a kind is of one phase;
	 * a deadline for the turn its form was shown in (the next turn's
	 * drives its own seal and reminders) */
	if (!strcmp(a, "event") || !strcmp(a, "void") || !strcmp(a, "deadline")) {
		if (turn && ord_parse_long(turn, &t) == 0 && t == st.turn && phase &&
		    !strcmp(phase, st.phase))
			return 1;
		say(f,
		    ord_error_set(ORD_ESTATE,
				  "the game has moved on since this page was loaded (it is now "
				  "turn %d, %s%s%s): nothing was %s",
				  st.turn, st.state, *st.phase ? ", phase " : "", st.phase,
				  !strcmp(a, "void")       ? "voided"
				  : !strcmp(a, "deadline") ? "changed"
							   : "recorded"),
		    "", NULL);
		return -1;
	}
	/* a step the game is not ready for is refused by the library, with
	 * its reason, and asks nothing */
	if (!strcmp(a, "seal") ? strcmp(st.state, "open") != 0
			       : !strcmp(st.state, "open") || !strcmp(st.state, "exchanged") ||
					 !strcmp(a, "resolve") != (*st.phase != '\0'))
		return 1;
	if (!c || strcmp(c, "yes")) {
		f->confirm = a;
		return 0;
	}
	if (!turn || ord_parse_long(turn, &t) != 0 || t != st.turn || !phase ||
	    strcmp(phase, st.phase)) {
		say(f,
		    ord_error_set(ORD_ESTATE,
				  "the game has moved on since this was confirmed (it is now "
				  "turn %d, %s%s%s): nothing was done",
				  st.turn, st.state, *st.phase ? ", phase " : "", st.phase),
		    "", NULL);
		return -1;
	}
	return 1;
}

/* Append v, a value of key k, as the library reads it: a number typed
 * with a decimal comma ("5,5", as a phone in a comma locale offers it for
 * inputmode=decimal) with its comma made a point (W10); every other value
 * as it is. */
static void decimal_point(struct ord_buf *kv, const struct ord_key_spec *k, const char *v)
{
	const char *comma = strchr(v, ',');

	if (k->type != ORD_KEY_NUM || !comma || strchr(comma + 1, ',') || strchr(v, '.')) {
		ord_buf_adds(kv, v);
		return;
	}
	ord_buf_add(kv, v, (size_t)(comma - v));
	ord_buf_addch(kv, '.');
	ord_buf_adds(kv, comma + 1);
}

/* What the deadline form's hook needs: the request (its server mails)
 * and how many sides it mailed. */
struct deadline_change {
	struct web_req *r;
	size_t told;
};

/* The change mailed by the server, in its transaction (W19). */
static int deadline_hook(void *ud, ord_game *g, const struct ord_change *c)
{
	struct deadline_change *d = ud;

	if (c->kind != ORD_CHANGE_DEADLINE)
		return 0;
	return web_deadline_notices(d->r, g, c->turn, c->deadline_from, c->deadline, &d->told);
}

static void act(struct referee *f, ord_game *g)
{
	struct web_req *r = f->r;
	const char *a = web_field(r, "action");
	int ok;

	f->action = a;
	if (a && (!strcmp(a, "event") || !strcmp(a, "void")))
		f->kind = !strcmp(a, "event") ? web_field(r, "kind") : NULL;
	if (a && (ok = confirmed(f, g, a)) <= 0) {
		if (!ok)
			f->action = NULL;
	} else if (!a) {
		f->action = "none";
		f->rc = ORD_EUSAGE;
		f->msg = ord_strdup("No action was chosen: nothing was done.");
	} else if (!strcmp(a, "seal")) {
		say(f, ord_game_seal(g, web_field(r, "force") != NULL),
		    "The turn is sealed: its sheets can no longer change. Record the first "
		    "phase's events.%s",
		    NULL);
		seal_words(f);
	} else if (!strcmp(a, "exchange")) {
		say(f, ord_game_exchange(g),
		    "Exchanged: every sheet and the dice seed are revealed, the bundle can be "
		    "downloaded, and the next turn is open.%s",
		    NULL);
	} else if (!strcmp(a, "deadline")) {
		const char *when = web_field(r, "when"), *past = web_field(r, "past");
		struct deadline_change change = { r, 0 };
		char told[160] = "";
		int64_t t = 0, now = ord_game_now(g);
		int rc = 0;

		if (!when || !*when)
			rc = ord_error_set(ORD_EUSAGE, "give a time: +48h, 2026-12-07T18:00Z or none");
		else if (strcmp(when, "none") && (rc = ord_when_parse(&t, when, now)) == 0 &&
			 t <= now && !(past && !strcmp(past, "yes"))) {
			/* a time not after now is refused, as `orderly deadline`
			 * refuses it (yesterday's date typed by mistake closes
			 * the turn and tells every side); the refusal's button
			 * sets it, as --past does */
			struct ord_buf stamp = ORD_BUF_INIT, at = ORD_BUF_INIT;

			ord_when_format(&stamp, t, NULL);
			ord_when_format(&at, now, NULL);
			rc = ord_error_set(ORD_EUSAGE,
					   "the deadline %s is not after now (%s): nothing was set. If "
					   "the turn's sheets are meant to close at a time already "
					   "past, set it with the button below.",
					   stamp.buf, at.buf);
			f->past = t;
			ord_buf_release(&stamp);
			ord_buf_release(&at);
		}
		if (!rc) {
			/* the deadline the players are told, the grace after it,
			 * mailed in the change's transaction, as `orderly
			 * deadline` does (W19) */
			ord_game_set_hook(g, deadline_hook, &change);
			rc = ord_game_set_told_deadline(g, t);
			ord_game_set_hook(g, NULL, NULL);
		}
		if (!rc && change.told)
			snprintf(told, sizeof(told),
				 " The %zu side%s told of the turn by mail %s mailed the change "
				 "at the next tick.",
				 change.told, change.told == 1 ? "" : "s",
				 change.told == 1 ? "is" : "are");
		say(f, rc, t ? "The deadline is set.%s" : "The deadline is cleared.%s", told);
		if (!rc && t)
			deadline_past(f, g, t);
	} else if (!strcmp(a, "resolve")) {
		struct ord_resolve_opts o = { 0 };
		const char *lang = web_field(r, "lang"), *empty = web_field(r, "empty");
		int *dice = NULL;
		size_t n = 0, waiting = 0;

		if (parse_dice(web_field(r, "dice"), &dice, &n) != 0) {
			say(f, ord_error_set(ORD_EUSAGE, "dice: numbers 1 to 100 separated by commas"),
			    "", NULL);
			return;
		}
		o.lang = lang && *lang ? lang : NULL;
		o.dice = dice;
		o.ndice = n;
		o.waiting = &waiting;
		/* Resolve it empty (the refusal's own button, empty=yes): as
		 * resolve --empty, the word that it is meant to go empty, and
		 * its phase named as --phase names it, a guard only, which
		 * confirmed() held to the game's already (red-team finding 9) */
		if (empty && !strcmp(empty, "yes")) {
			o.empty = 1;
			o.phase = web_field(r, "phase");
		}
		say(f, ord_game_resolve_opts(g, &o, &f->results), "The phase is resolved.%s", NULL);
		if (f->rc && waiting)
			empty_words(f);
		free(dice);
	} else if (!strcmp(a, "void")) {
		long seq;
		const char *reason = web_field(r, "reason");
		int rc;

		if (ord_parse_long(web_field(r, "seq") ? web_field(r, "seq") : "", &seq) != 0 || seq < 1)
			rc = ord_error_set(ORD_EUSAGE, "the event's number is a whole number from 1");
		else if (!reason || !*reason)
			rc = ord_error_set(ORD_EUSAGE, "say why the event is voided");
		else
			rc = ord_game_void_event(g, (unsigned)seq, reason);
		say(f, rc, "The event is voided.%s", NULL);
	} else if (!strcmp(a, "event")) {
		const char *kind = web_field(r, "kind"), *ov = web_field(r, "override");
		const struct ord_event_kind *ek = kind && f->rs ? ord_ruleset_event_kind(f->rs, kind)
								: NULL;
		const struct ord_key_spec *k;
		char **argv = NULL;
		int argc = 0, rc, i;

		f->kind = kind;
		if (!ek) {
			say(f, ord_error_set(ORD_EUSAGE, "no such kind of event"), "", NULL);
			return;
		}
		for (k = ek->keys; k && k->name; k++) {
			struct ord_buf fname = ORD_BUF_INIT, kv = ORD_BUF_INIT;
			const char *v;

			ord_buf_addf(&fname, "k_%s", k->name);
			v = web_field(r, fname.buf);
			if (v && *v) {
				ord_buf_addf(&kv, "%s=", k->name);
				decimal_point(&kv, k, v);
				argv = ord_xrealloc(argv, (size_t)(argc + 1) * sizeof(*argv));
				argv[argc++] = ord_buf_detach(&kv, NULL);
			}
			ord_buf_release(&fname);
			ord_buf_release(&kv);
		}
		{
			struct ord_event_in ev = { .kind = kind, .argc = argc, .argv = argv };
			char what[160];

			rc = ord_game_events(g, &ev, 1, ov && *ov ? ov : NULL, &f->diag);
			snprintf(what, sizeof(what), "#%u %s", ev.seq, kind);
			if (rc == 0 && f->diag.n)
				say(f, 0,
				    "Recorded %s although it disagrees with the orders (overridden).",
				    what);
			else
				say(f, rc, "Recorded %s.", what);
		}
		for (i = 0; i < argc; i++)
			free(argv[i]);
		free(argv);
	} else {
		f->rc = ORD_EUSAGE;
		f->msg = ord_strdup("No such action: nothing was done.");
	}
}

void web_page_referee(struct web_req *r, const char *name)
{
	struct referee f;
	struct ord_game_status st;
	ord_game *g;

	memset(&f, 0, sizeof(f));
	f.r = r;
	f.name = name;
	ord_diag_init(&f.diag);
	ord_buf_init(&f.results);
	/* opened first: a grant given for a passphrase since changed is
	 * dropped there (web_auth_check_grants) */
	if (!(g = web_open_game(r, name)))
		goto out;
	if (!web_party_ok(r, name, WEB_REFEREE)) {
		web_game_close(r, g);
		goto out;
	}
	if (ord_game_status(g, &st) == 0 && ord_ruleset_find(&f.rs, st.ruleset) != 0)
		f.rs = NULL;
	ord_error_clear();
	f.lang = page_lang(r, f.rs);
	if (!strcmp(r->method, "POST")) {
		size_t i;

		/* every field less the blanks at its ends: " 4 " from a
		 * tablet's autocorrect is 4, not a value the library refuses */
		for (i = 0; i < r->form.kv.n; i++) {
			char *v = r->form.kv.items[i].value;
			size_t len;
			const char *t = web_trim(v, &len);

			memmove(v, t, len);
			v[len] = '\0';
		}
		act(&f, g);
		if (f.rc != 0)
			r->status = f.rc == ORD_EUSAGE || f.rc == ORD_ECHECK ? 422 : 409;
	}
	if (ord_game_read(g, referee_fill, &f) != 0) {
		ord_buf_reset(&r->body);
		web_error_page(r, 500, "The game cannot be read", ord_error_last());
	}
	web_game_close(r, g);
out:
	free(f.msg);
	ord_diag_release(&f.diag);
	ord_buf_release(&f.results);
}
