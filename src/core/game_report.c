/*
 * game_report.c - turn reports.  A side's report holds its own sheet, its
 * own units and their results, and what it could see of the enemy units it
 * met; other sides' sheets only after the exchange.  The referee's report
 * holds everything: sheets, events, overrides, rolls and results.  Which
 * enemy units a side met is the fog of war's rule (fog.h), which the
 * pictures follow too: only the resolved events meet a unit.
 *
 * One builder (report.h) writes every report from a turn's record and the
 * units as they stand: the game file's (ord_game_report_both, below) and
 * a verified bundle's (ord_bundle_verify_report), which must be the same.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fog.h"
#include "core/game.h"
#include "core/lookalike.h"
#include "core/report.h"
#include "core/scenario.h"
#include "tables.h"

/* Where a report goes: its text, its XML, or both from one pass (the
 * referee's web page shows the one and reads lists from the other). */
struct out {
	struct ord_buf *text, *xml;
	const char *lang; /* the reader's language (NULL: every one, in English) */
	const struct ord_report_words *words; /* the report's own words in it */
	const struct ord_report_src *src;     /* its piece: the text handed on */
	int *err;                             /* the first error a piece gave */
};

/* The text handed on (src->piece) once it holds at least `least` bytes,
 * and emptied; emptied too after an error, which stops the handing on. */
static void put_piece(const struct out *o, size_t least)
{
	if (!o->text || !o->src->piece || !o->text->len || o->text->len < least)
		return;
	if (!*o->err)
		*o->err = o->src->piece(o->src->piece_ud, o->text->buf, o->text->len);
	ord_buf_reset(o->text);
}

/* The report's own words, as the builder writes them in English.  In
 * another language they come from the ruleset's data (its words_resource,
 * ruleset.h version 11: the Krigsspil's Danish, whose players read their
 * units and results in it, rulesets/krigsspil/words.xml): a tables
 * document whose chart report_words gives each word (label en) and its
 * words in a language (a label named so).  A word's leading spaces and
 * its line's end are the builder's, left out there; a pair is a format
 * string when the English is, with the same conversions in the same
 * order (checked at load). */
static const char *const words_en[] = {
	"%s: turn %d (%s), report for %s\n",
	"the referee",
	"the other sides' sheets stay secret until the exchange\n",
	"sheet of %s (version %d, %s), commitment ",
	"  (no orders)\n",
	"your units:\n",
	"units:\n",
	"enemy units met this turn:\n",
	"results for your units and of their actions:\n",
	"results:\n",
	"events:\n",
	"rolls:\n",
	", automatic",
	"orders no event of the turn carries out so far:\n",
	"open",
	"sealed",
	"resolved",
	"exchanged",
	"submitted",
	"hold",
	"repeat",
	"events the referee recorded against the checks:\n",
	" (the checks said: ",
	"     OVERRIDE by the referee: ",
	" (checks said: ",
	" (fixed)",
	"events the referee voided (they count for nothing):\n",
	"voided",
	"  (#N numbers the events you see 1, 2, ... in the turn's order; the referee's report numbers every event of the turn, so his numbers differ)\n",
	/* info's lines of the turn's state and the referee's next step
	 * (game.c, info_text): after their label ("phase:     ") */
	"%s (%d of %zu resolved)\n",
	"seal: every side has %s\n",
	"committed",
	"exchange\n",
	"the events of phase %s (%s",
	": event, or event --file), then ",
	"phase %s records no events: ",
	"resolve\n",
	"exchange: every phase of the turn is resolved\n",
	"resolve; %zu unit still waits for an event of phase %s, by its sealed order or the rules (%s)%s\n",
	"resolve; %zu units still wait for an event of phase %s, by their sealed orders or the rules (%s)%s\n",
	": resolved without, it goes undone",
	": with no event of the phase recorded, resolve refuses it unless --empty",
	/* resolve's note of the orders left (ord_game_pending_note) */
	"%zu order no event of the turn carries out so far (%s)",
	"%zu orders no event of the turn carries out so far (%s)",
	"orderly report --referee lists them",
	"orderly audit lists them once the turn is exchanged",
	/* info's sides of an open turn and its next step then */
	"not submitted",
	"submitted (version %d)\n",
	"no sheet: NMR policy '%s' applied\n",
	"opened (version %d)",
	"committed, not opened (version %d)",
	": NMR policy applied",
	"sheets",
	"signed commitments",
	" and ",
	"the %s of %s (%s), then seal: the NMR policy 'wait' seals no turn without them\n",
	"seal: the deadline has passed; from the next second the NMR policy '%s' stands in for %s (seal --force now)\n",
	"seal: the deadline has passed; the NMR policy '%s' stands in for %s\n",
	"the %s of %s (%s), then seal; or seal --force now, the NMR policy '%s' standing in for %s\n",
	"%s to open their sheets (open)\n",
	"the next turn\n",
	"           and turn %d's bundle for the players, if not yet sent: export --turn %d -o FILE\n",
};

/* The report's words in the reader's language (words_load). */
struct ord_report_words {
	struct ord_tables *t;                       /* the ruleset's words document */
	const char *said[ORD_ARRAY_SIZE(words_en)]; /* each word as written in the language, NULL:
						     * English */
	struct ord_arena a;                         /* where said's strings are */
	const char *lang;                           /* the language read, NULL: English */
	const struct ord_message *msgs;             /* the module's messages (ruleset.h) */
	size_t nmsgs;                               /* how many */
	const char **msg_said;                      /* each as written in the language, NULL:
						     * English */
};

/* The word of en without its leading spaces and its trailing spaces and
 * line end: [*from, *to) of en. */
static void word_bare(const char *en, size_t *from, size_t *to)
{
	size_t n = strlen(en);

	*from = strspn(en, " ");
	while (n > *from && (en[n - 1] == ' ' || en[n - 1] == '\n'))
		n--;
	*to = n;
}

/* The conversions of a format string, in order ("%s %d %s"), into out. */
static void conversions(const char *s, struct ord_buf *out)
{
	ord_buf_reset(out);
	for (; *s; s++) {
		size_t k;
		if (*s != '%')
			continue;
		if (s[1] == '%') {
			s++;
			continue;
		}
		k = 1 + strspn(s + 1, "-+ #0123456789.*hlLqjzt");
		ord_buf_addf(out, "%s%.*s", out->len ? " " : "", (int)(k + (s[k] != '\0')), s);
		s += k - (s[k] == '\0');
	}
}

static void words_release(struct ord_report_words *w)
{
	ord_tables_free(w->t);
	ord_arena_release(&w->a);
	free(w->msg_said);
	memset(w, 0, sizeof(*w));
}

/* The words of document xml (len bytes, name for messages) in lang, into
 * w (memset and its arena initialised).  A document refused (a row whose
 * en is none of the builder's words or is given twice, a format string
 * whose words in the language differ in their conversions) is
 * ORD_EBADDATA naming the document and line: no report is made in words
 * of chance. */
static int messages_read(struct ord_report_words *w, const char *name, const char *lang);
static const char *say(const struct ord_report_words *w, const char *en);

/* Whether words said in a language have the conversions of their English
 * en, in that order (ce, cl scratch): else ORD_EBADDATA naming the line,
 * what ("" or "message ") and which (the words' English or id). */
static int same_conversions(const char *name, unsigned line, const char *en, const char *said,
			    const char *what, const char *which, struct ord_buf *ce, struct ord_buf *cl)
{
	conversions(en, ce);
	conversions(said, cl);
	if (!strcmp(ce->buf ? ce->buf : "", cl->buf ? cl->buf : ""))
		return 0;
	return ord_error_set(ORD_EBADDATA,
			     "%s:%u: '%s' for %s'%s' has the conversions '%s' (expected '%s', the English's, in that order)",
			     name, line, said, what, which, cl->buf ? cl->buf : "",
			     ce->buf ? ce->buf : "");
}

static int words_read(struct ord_report_words *w, const char *xml, size_t len, const char *name,
		      const char *lang, const struct ord_message *msgs)
{
	const struct ord_table *tbl;
	struct ord_buf ce = ORD_BUF_INIT, cl = ORD_BUF_INIT;
	size_t i, k, n, from, to;
	int err = 0, has = 0;

	if ((err = ord_tables_load(&w->t, xml, len, name)) != 0)
		goto out;
	if (!(tbl = ord_tables_get(w->t, "report_words"))) {
		err = ord_error_set(ORD_EBADDATA,
				    "%s: no chart 'report_words' of the report's words", name);
		goto out;
	}
	for (i = 0; i < ord_table_nlabels(tbl); i++)
		has += !strcmp(ord_table_label(tbl, i), "en") * 2 +
		       !strcmp(ord_table_label(tbl, i), lang);
	if (has != 3) {
		err = has & 2 ? 0 /* not in this language: English */
			      : ord_error_set(ORD_EBADDATA,
					      "%s:%u: chart 'report_words' has no label 'en' (the report's words as orderly writes them)",
					      name, ord_table_line(tbl));
		goto out;
	}
	n = ord_table_nrows(tbl);
	for (i = 0; i < n; i++) {
		const struct ord_row *row = ord_table_row(tbl, i);
		const char *en = ord_row_str(row, "en"), *said = ord_row_str(row, lang);
		for (k = 0; k < ORD_ARRAY_SIZE(words_en); k++) {
			word_bare(words_en[k], &from, &to);
			if (strlen(en) == to - from && !strncmp(words_en[k] + from, en, to - from))
				break;
		}
		if (k == ORD_ARRAY_SIZE(words_en)) {
			err = ord_error_set(ORD_EBADDATA,
					    "%s:%u: '%s' is none of the report's words (expected one as orderly writes it in English, without its leading spaces and line end: 'the referee', 'your units:', ...)",
					    name, ord_row_line(row), en);
			goto out;
		}
		if (w->said[k]) {
			err = ord_error_set(ORD_EBADDATA, "%s:%u: the word '%s' is given twice",
					    name, ord_row_line(row), en);
			goto out;
		}
		if ((err = same_conversions(name, ord_row_line(row), en, said, "", en, &ce, &cl)) != 0)
			goto out;
		/* the builder's leading spaces and line end around it */
		ord_buf_reset(&cl);
		ord_buf_add(&cl, words_en[k], from);
		ord_buf_adds(&cl, said);
		ord_buf_adds(&cl, words_en[k] + to);
		w->said[k] = ord_arena_strn(&w->a, cl.buf, cl.len);
	}
	w->lang = ord_arena_strn(&w->a, lang, strlen(lang));
	for (w->msgs = msgs; msgs && msgs[w->nmsgs].id; w->nmsgs++)
		;
	err = messages_read(w, name, lang);
out:
	ord_buf_release(&ce);
	ord_buf_release(&cl);
	if (err)
		words_release(w);
	return err;
}

/* The module's messages in lang (ruleset.h, messages): w's document's
 * chart messages, when it has one, each row the id of one of w->msgs, its
 * English as the module writes it and its words in lang; read into
 * w->msg_said.  Refused as report_words is, naming the line: an id that
 * is none of the module's or given twice, an English that is not the
 * message's (the message changed since its words were written: they say
 * another thing now), words whose conversions differ. */
static int messages_read(struct ord_report_words *w, const char *name, const char *lang)
{
	const struct ord_table *tbl = ord_tables_get(w->t, "messages");
	struct ord_buf ce = ORD_BUF_INIT, cl = ORD_BUF_INIT, ids = ORD_BUF_INIT;
	size_t i, k, n;
	int err = 0, has = 0;

	if (!tbl)
		return 0;
	for (i = 0; i < ord_table_nlabels(tbl); i++)
		has |= (strcmp(ord_table_label(tbl, i), "id") ? 0 : 1) |
		       (strcmp(ord_table_label(tbl, i), "en") ? 0 : 2) |
		       (strcmp(ord_table_label(tbl, i), lang) ? 0 : 4);
	if ((has & 3) != 3)
		return ord_error_set(ORD_EBADDATA,
				     "%s:%u: chart 'messages' has no label '%s' (expected id, en and a language's: the ruleset's messages, their English and their words)",
				     name, ord_table_line(tbl), has & 1 ? "en" : "id");
	if (!(has & 4))
		return 0; /* not in this language: English */
	w->msg_said = ord_xcalloc(w->nmsgs + 1, sizeof(*w->msg_said));
	for (k = 0; k < w->nmsgs && k < 3; k++)
		ord_buf_addf(&ids, "%s%s", k ? ", " : "", w->msgs[k].id);
	if (w->nmsgs > 3)
		ord_buf_adds(&ids, ", ...");
	n = ord_table_nrows(tbl);
	for (i = 0; i < n; i++) {
		const struct ord_row *row = ord_table_row(tbl, i);
		const char *id = ord_row_str(row, "id"), *en = ord_row_str(row, "en"),
			   *said = ord_row_str(row, lang);
		for (k = 0; k < w->nmsgs && strcmp(w->msgs[k].id, id); k++)
			;
		if (k == w->nmsgs) {
			err = ord_error_set(ORD_EBADDATA,
					    "%s:%u: '%s' is none of the ruleset's messages (expected one of its ids: %s)",
					    name, ord_row_line(row), id, ids.len ? ids.buf : "none");
			goto out;
		}
		if (w->msg_said[k]) {
			err = ord_error_set(ORD_EBADDATA, "%s:%u: the message '%s' is given twice",
					    name, ord_row_line(row), id);
			goto out;
		}
		if (strcmp(en, w->msgs[k].en)) {
			err = ord_error_set(ORD_EBADDATA,
					    "%s:%u: '%s' is not the English of message '%s' (expected '%s': the message changed since its words were written)",
					    name, ord_row_line(row), en, id, w->msgs[k].en);
			goto out;
		}
		if ((err = same_conversions(name, ord_row_line(row), en, said, "message ", id, &ce,
					    &cl)) != 0)
			goto out;
		w->msg_said[k] = ord_arena_strn(&w->a, said, strlen(said));
	}
out:
	ord_buf_release(&ce);
	ord_buf_release(&cl);
	ord_buf_release(&ids);
	return err;
}

/* The words of rs in lang (NULL, or "en": English, none read), from its
 * words_resource (words_read). */
static int words_load(struct ord_report_words *w, const struct ord_ruleset *rs, const char *lang)
{
	const struct ord_resource *res;

	memset(w, 0, sizeof(*w));
	ord_arena_init(&w->a);
	if (!lang || !strcmp(lang, "en") || !ORD_RULESET_HAS(rs, 11) || !rs->words_resource)
		return 0;
	if (!(res = ord_resource_find(rs->words_resource)))
		return ord_error_set(ORD_EBADDATA,
				     "ruleset %s says its report's words in '%s', which this build does not hold",
				     rs->name, rs->words_resource);
	return words_read(w, (const char *)res->data, res->len, rs->words_resource, lang,
			  ORD_RULESET_HAS(rs, 12) ? rs->messages : NULL);
}

int ord_report_words_check(const char *xml, size_t len, const char *name, const char *lang,
			   const struct ord_message *msgs, struct ord_buf *said)
{
	struct ord_report_words w;
	size_t i;
	int err;

	memset(&w, 0, sizeof(w));
	ord_arena_init(&w.a);
	if ((err = words_read(&w, xml, len, name, lang, msgs)) != 0)
		return err;
	for (i = 0; said && i < ORD_ARRAY_SIZE(words_en); i++)
		ord_buf_addf(said, "%s|%s\n", words_en[i], w.said[i] ? w.said[i] : "");
	for (i = 0; said && i < w.nmsgs; i++)
		ord_buf_addf(said, "%s|%s\n", w.msgs[i].id,
			     w.msg_said && w.msg_said[i] ? w.msg_said[i] : "");
	words_release(&w);
	return 0;
}

int ord_report_words_load(struct ord_report_words **out, const struct ord_ruleset *rs, const char *lang)
{
	struct ord_report_words *w = ord_xcalloc(1, sizeof(*w));
	int err;

	if ((err = words_load(w, rs, lang)) != 0) {
		free(w);
		w = NULL;
	}
	*out = w;
	return err;
}

void ord_report_words_free(struct ord_report_words *w)
{
	if (!w)
		return;
	words_release(w);
	free(w);
}

void ord_report_diag_said(struct ord_buf *out, const struct ord_report_words *w,
			  const struct ord_diag_item *it)
{
	const char *said = NULL, *p;
	size_t k, arg = 0;

	for (k = 0; w && w->msg_said && it->id && k < w->nmsgs; k++)
		if (!strcmp(w->msgs[k].id, it->id)) {
			said = w->msg_said[k];
			break;
		}
	if (!said) {
		ord_buf_adds(out, it->msg);
		return;
	}
	/* its conversions are the English's, in order (messages_read): each
	 * filled with what filled the English's, or its words in this
	 * language when the module gave them */
	for (p = said; *p; p++) {
		const struct ord_diag_arg *a;
		size_t n;
		if (*p != '%') {
			ord_buf_addch(out, *p);
			continue;
		}
		if (p[1] == '%') {
			ord_buf_addch(out, '%');
			p++;
			continue;
		}
		n = 1 + strspn(p + 1, "-+ #0123456789.*hlLqjzt");
		if (!p[n])
			break;
		p += n;
		if (arg >= it->nargs)
			continue; /* a message added so by hand: its English rules */
		a = &it->args[arg++];
		ord_buf_adds(out, a->said && a->lang && !strcmp(a->lang, w->lang) ? a->said : a->text);
	}
}

const char *ord_report_words_say(const struct ord_report_words *w, const char *en)
{
	return say(w, en);
}

static const char *say(const struct ord_report_words *w, const char *en)
{
	size_t i;

	if (!w)
		return en;
	for (i = 0; i < ORD_ARRAY_SIZE(words_en); i++)
		if (!strcmp(words_en[i], en))
			return w->said[i] ? w->said[i] : en;
	return en;
}

/* One sheet, canonically (and its commitment). */
/* " #N" after a result's or a roll's phase for the event N it follows
 * from; nothing for what the rules did by themselves (event 0: a morale
 * test, the end of a melee), which no event number names */
static void event_tag(struct ord_buf *out, int event, const struct ord_report_words *w)
{
	if (event > 0)
		ord_buf_addf(out, " #%d", event);
	else
		ord_buf_adds(out, say(w, ", automatic"));
}

/* one order of a sheet (ord_notation_read) */
static void put_order(void *ud, unsigned line, const char *order)
{
	const struct out *o = ud;

	if (o->xml) {
		ord_buf_addf(o->xml, "    <order line=\"%u\">", line);
		ord_buf_add_xml(o->xml, order);
		ord_buf_adds(o->xml, "</order>\n");
	}
	/* a player's words (a target's name, a new company's) shown as a
	 * unit's name is: a bidirectional override or a C1 control in them
	 * escaped (\u202e), never acted on by the reader's terminal (attack
	 * 43; a sheet stored before the submit refused them, or by a
	 * referee's own build) */
	if (o->text) {
		ord_buf_adds(o->text, "  ");
		ord_buf_add_name_line(o->text, order);
		ord_buf_addch(o->text, '\n');
	}
	put_piece(o, ORD_REPORT_PIECE);
}

static void put_sheet(const struct ord_report_src *src, const struct out *o, const char *side,
		      int version, const char *source, const unsigned char *commitment,
		      const char *bytes, size_t len)
{
	if (o->xml) {
		ord_buf_adds(o->xml, "  <sheet side=\"");
		ord_buf_add_xml(o->xml, side);
		ord_buf_addf(o->xml, "\" version=\"%d\" source=\"%s\" commitment=\"", version, source);
		ord_buf_add_hex(o->xml, commitment, 32);
		ord_buf_adds(o->xml, "\">\n");
	}
	if (o->text) {
		ord_buf_addf(o->text, say(o->words, "sheet of %s (version %d, %s), commitment "),
			     side, version, say(o->words, source));
		ord_buf_add_hex(o->text, commitment, 32);
		ord_buf_adds(o->text, ":\n");
	}
	/* a stored sheet was valid */
	if (!ord_notation_read(src->nt, bytes, len, put_order, (void *)o) && o->text)
		ord_buf_adds(o->text, say(o->words, "  (no orders)\n"));
	if (o->xml)
		ord_buf_adds(o->xml, "  </sheet>\n");
}

static void put_sheets(const struct ord_report_src *src, const struct out *o, const char *only_side)
{
	const struct ord_record *r = src->r;
	size_t i, j;

	/* the latest version of each side, in side order */
	for (i = 0; i < src->nsides; i++) {
		const struct ord_rec_sheet *latest = NULL;
		if (only_side && strcmp(src->sides[i], only_side))
			continue;
		for (j = 0; j < r->sheets.n; j++)
			if (!strcmp(r->sheets.v[j].side, src->sides[i]) &&
			    (!latest || r->sheets.v[j].version > latest->version))
				latest = &r->sheets.v[j];
		if (latest)
			put_sheet(src, o, latest->side, latest->version, latest->source,
				  latest->commitment, (const char *)latest->bytes, latest->len);
	}
}

static void put_unit(const struct ord_report_src *src, const struct out *o,
		     const struct ord_unit *u, const char *viewer)
{
	struct ord_buf d = ORD_BUF_INIT;

	if (src->rs->describe_unit)
		src->rs->describe_unit(src->ctx, u, viewer, &d);
	else
		ord_kv_serialize(&u->state, &d);
	while (d.len && d.buf[d.len - 1] == '\n')
		d.buf[--d.len] = '\0';
	if (o->xml) {
		ord_buf_adds(o->xml, "  <unit id=\"");
		ord_buf_add_xml(o->xml, u->id);
		ord_buf_adds(o->xml, "\" side=\"");
		ord_buf_add_xml(o->xml, u->side);
		ord_buf_adds(o->xml, "\">");
		ord_buf_add_xml(o->xml, d.buf);
		ord_buf_adds(o->xml, "</unit>\n");
	}
	/* the unit's name as the scenario writes it, but for a character a
	 * reader does not see, escaped: a game made before `new` refused
	 * them, or a bundle of a referee's own build, may hold a bidirectional
	 * override that would make the line read otherwise (attack 41) */
	if (o->text) {
		ord_buf_adds(o->text, "  ");
		ord_buf_add_name_shown(o->text, d.buf);
		ord_buf_addch(o->text, '\n');
	}
	ord_buf_release(&d);
	put_piece(o, ORD_REPORT_PIECE);
}

/* Event e (numbered event in the report) was recorded against the checks:
 * the referee's reason and what the checks said. */
static void put_override(const struct out *o, const struct ord_event *e, int event)
{
	if (o->xml) {
		ord_buf_addf(o->xml, "  <override event=\"%d\" checks=\"", event);
		ord_buf_add_xml(o->xml, e->check ? e->check : "");
		ord_buf_adds(o->xml, "\">");
		ord_buf_add_xml(o->xml, e->override);
		ord_buf_adds(o->xml, "</override>\n");
	}
	if (o->text) {
		ord_buf_addf(o->text, "  #%d: ", event);
		ord_buf_add_shown(o->text, e->override);
		ord_buf_adds(o->text, say(o->words, " (the checks said: "));
		ord_buf_add_shown(o->text, e->check ? e->check : "");
		ord_buf_adds(o->text, ")\n");
	}
	put_piece(o, ORD_REPORT_PIECE);
}

static void put_results(const struct ord_report_src *src, const struct out *o, const char *side)
{
	const struct ord_record *r = src->r;
	struct ord_ctx *ctx = src->ctx;
	struct ord_buf text = ORD_BUF_INIT;
	/* a side's report numbers the events it sees 1, 2, ... in the turn's
	 * order, as its maps do (fog.h); the referee's keeps the turn's
	 * numbers, which his commands (event --void N) take */
	size_t i, nnumbers;
	/* which results the side sees, as the numbering asked: asked once */
	signed char *seen = side ? ord_xcalloc(r->results.n + 1, 1) : NULL;
	unsigned *numbers = ord_fog_event_numbers(src->rs, ctx, r, side, src->phase, &nnumbers, seen);
	int n = 0, event, said_numbers = 0;
	/* once the turn is exchanged a side reads which of the events it
	 * sees the referee recorded against the checks, and why, as verify
	 * and the audit say; before it what the checks said could tell of
	 * another side's sheet */
	int overrides = side && src->state == ORD_TURN_EXCHANGED;

	for (i = 0; i < r->results.n; i++) {
		const struct ord_rec_result *res = &r->results.v[i];
		if (side && !(seen[i] >= 0 ? seen[i]
					   : ord_fog_result_seen(src->rs, ctx, res->unit,
								 (unsigned)res->event, side)))
			continue;
		event = res->event > 0 && (size_t)res->event < nnumbers ? (int)numbers[res->event]
									: res->event;
		ord_buf_reset(&text);
		ord_texts_render(res->explanation, &res->texts, ctx->lang, &text);
		/* as the side may read it: an enemy as its report tells it */
		ord_fog_result_shown(src->rs, ctx, res->phase, (unsigned)res->event, res->unit,
				     res->values, side, &text);
		if (o->xml) {
			ord_buf_addf(o->xml, "  <result phase=\"%s\" event=\"%d\" unit=\"",
				     res->phase, event);
			ord_buf_add_xml(o->xml, res->unit);
			ord_buf_adds(o->xml, "\">");
			ord_buf_add_xml(o->xml, text.buf);
			ord_buf_adds(o->xml, "</result>\n");
		}
		if (o->text) {
			if (!n++)
				ord_buf_adds(o->text, say(o->words, side ? "results for your units and of "
									   "their actions:\n"
									 : "results:\n"));
			/* said once, at the first event number a side reads */
			if (side && event > 0 && !said_numbers++)
				ord_buf_adds(o->text,
					     say(o->words,
						 "  (#N numbers the events you see 1, 2, ... in the turn's order; the referee's report numbers every event of the turn, so his numbers differ)\n"));
			ord_buf_addf(o->text, "  [%s", res->phase);
			event_tag(o->text, event, o->words);
			/* a result's words may name what an order named (a
			 * target's, a new company's name): shown escaped, as
			 * the order is (attack 43) */
			ord_buf_adds(o->text, "] ");
			ord_buf_add_name_line(o->text, res->unit);
			ord_buf_adds(o->text, ": ");
			ord_buf_add_name_shown(o->text, text.buf ? text.buf : "");
			ord_buf_addch(o->text, '\n');
		}
		put_piece(o, ORD_REPORT_PIECE);
	}
	for (i = 0, n = 0; overrides && i < ord_ctx_nevents(ctx); i++) {
		const struct ord_event *e = ord_ctx_event(ctx, i);

		if (!e->override || e->seq >= nnumbers || !numbers[e->seq])
			continue;
		if (o->text && !n++)
			ord_buf_adds(o->text,
				     say(o->words, "events the referee recorded against the checks:\n"));
		put_override(o, e, (int)numbers[e->seq]);
	}
	free(numbers);
	free(seen);
	ord_buf_release(&text);
}

/* The events the referee voided: the referee's report lists every one, a
 * side's once the turn is exchanged those that named one of its units
 * (as it reads the overrides), so a void is seen by those it touched.  A
 * voided event has no number in a side's report, which numbers only the
 * events that stand: it is told by its phase, kind and words. */
static void put_voids(const struct ord_report_src *src, const struct out *o, const char *side)
{
	const struct ord_record *r = src->r;
	struct ord_buf one = ORD_BUF_INIT;
	size_t i;
	int n = 0;

	if (side && src->state != ORD_TURN_EXCHANGED)
		return;
	for (i = 0; i < r->events.n; i++) {
		const struct ord_rec_event *re = &r->events.v[i];
		struct ord_event e = { re->seq, re->phase, re->kind, { 0 }, NULL, "" };
		int seen;

		if (!re->void_log)
			continue;
		ord_kv_init(&e.kv);
		if (ord_kv_parse(&e.kv, re->args ? re->args : ""))
			ord_error_clear(); /* the record's arguments are the core's own */
		seen = !side || ord_fog_event_seen(src->rs, src->ctx, &e, side);
		ord_kv_release(&e.kv);
		if (!seen)
			continue;
		if (o->xml) {
			ord_buf_addf(o->xml, "  <voided phase=\"%s\" kind=\"%s\"", re->phase, re->kind);
			if (!side)
				ord_buf_addf(o->xml, " seq=\"%u\"", re->seq);
			ord_buf_adds(o->xml, " reason=\"");
			ord_buf_add_xml(o->xml, re->void_reason ? re->void_reason : "");
			ord_buf_adds(o->xml, "\">");
			ord_buf_add_xml(o->xml, re->args ? re->args : "");
			ord_buf_adds(o->xml, "</voided>\n");
		}
		if (o->text) {
			const char *a;
			if (!n++)
				ord_buf_adds(o->text, say(o->words, "events the referee voided (they count for "
								    "nothing):\n"));
			/* the referee's as his events list has them, with his
			 * number (his commands'); a side's report has none for
			 * an event that does not stand */
			if (side)
				ord_buf_addf(o->text, "  [%s] %s", re->phase, re->kind);
			else
				ord_buf_addf(o->text, "  #%u %s %s", re->seq, re->phase, re->kind);
			/* its "k=v" lines on the one line, each shown escaped */
			ord_buf_reset(&one);
			for (a = re->args ? re->args : ""; *a; a++)
				if (*a == '\n')
					ord_buf_addch(&one, ' ');
				else
					ord_buf_addch(&one, *a);
			if (one.len && one.buf[one.len - 1] == ' ')
				one.buf[--one.len] = '\0';
			if (one.len) {
				ord_buf_addch(o->text, ' ');
				ord_buf_add_shown(o->text, one.buf);
			}
			ord_buf_addf(o->text, ", %s: ", say(o->words, "voided"));
			ord_buf_add_shown(o->text, re->void_reason ? re->void_reason : "");
			ord_buf_addch(o->text, '\n');
		}
		put_piece(o, ORD_REPORT_PIECE);
	}
	ord_buf_release(&one);
}

static void put_referee_extras(const struct out *o, struct ord_ctx *ctx, const struct ord_record *r)
{
	size_t i;

	ord_ctx_events_compact(ctx);
	if (o->text && ctx->nevents)
		ord_buf_adds(o->text, say(o->words, "events:\n"));
	for (i = 0; i < ctx->nevents; i++) {
		const struct ord_event *e = &ctx->events[i];
		struct ord_buf a = ORD_BUF_INIT;
		size_t k;

		for (k = 0; k < e->kv.n; k++)
			ord_buf_addf(&a, " %s=%s", e->kv.items[k].key, e->kv.items[k].value);
		if (o->xml) {
			ord_buf_addf(o->xml, "  <event seq=\"%u\" phase=\"%s\" kind=\"%s\"", e->seq,
				     e->phase, e->kind);
			if (e->override) {
				ord_buf_adds(o->xml, " override=\"");
				ord_buf_add_xml(o->xml, e->override);
				ord_buf_adds(o->xml, "\" checks=\"");
				ord_buf_add_xml(o->xml, e->check);
				ord_buf_adds(o->xml, "\"");
			}
			ord_buf_adds(o->xml, ">");
			ord_buf_add_xml(o->xml, a.buf + (a.len ? 1 : 0));
			ord_buf_adds(o->xml, "</event>\n");
		}
		if (o->text) {
			/* the words and the reason as the file holds them, shown
			 * escaped: no line of their own (ord_buf_add_shown) */
			ord_buf_addf(o->text, "  #%u %s %s", e->seq, e->phase, e->kind);
			ord_buf_add_shown(o->text, a.len ? a.buf : "");
			ord_buf_addch(o->text, '\n');
			if (e->override) {
				ord_buf_adds(o->text, say(o->words, "     OVERRIDE by the referee: "));
				ord_buf_add_shown(o->text, e->override);
				ord_buf_adds(o->text, say(o->words, " (checks said: "));
				ord_buf_add_shown(o->text, e->check ? e->check : "");
				ord_buf_adds(o->text, ")\n");
			}
		}
		ord_buf_release(&a);
		put_piece(o, ORD_REPORT_PIECE);
	}
	for (i = 0; i < r->rolls.n; i++) {
		const struct ord_rec_roll *ro = &r->rolls.v[i];
		if (o->xml)
			ord_buf_addf(o->xml,
				     "  <roll phase=\"%s\" event=\"%d\" purpose=\"%s\" index=\"%d\" sides=\"%d\" fixed=\"%s\">%d</roll>\n",
				     ro->phase, ro->event, ro->purpose, ro->idx, ro->sides,
				     ro->fixed ? "yes" : "no", ro->value);
		if (o->text) {
			if (!i)
				ord_buf_adds(o->text, say(o->words, "rolls:\n"));
			ord_buf_addf(o->text, "  [%s", ro->phase);
			event_tag(o->text, ro->event, o->words);
			ord_buf_addf(o->text, "] %s #%d: d%d = %d%s\n", ro->purpose, ro->idx,
				     ro->sides, ro->value, ro->fixed ? say(o->words, " (fixed)") : "");
		}
		put_piece(o, ORD_REPORT_PIECE);
	}
}

void ord_report_pending_line(struct ord_buf *out, const struct ord_diag_item *it,
			     const struct ord_report_words *w)
{
	struct ord_buf msg = ORD_BUF_INIT;

	ord_report_diag_said(&msg, w, it);
	ord_buf_adds(out, "  ");
	ord_buf_add_name_line(out, it->unit ? it->unit : "");
	ord_buf_adds(out, ": ");
	ord_buf_add_name_line(out, msg.buf ? msg.buf : "");
	ord_buf_addch(out, '\n');
	ord_buf_release(&msg);
}

/* A sealed turn's orders that no event recorded so far carries out (the
 * module's check of execution over the events of the turn until now): the
 * referee's list of what is still to record. */
static int put_pending(const struct ord_report_src *src, const struct out *o)
{
	struct ord_diag d;
	size_t i;
	int err;

	ord_diag_init(&d);
	if ((err = src->pending(src->pending_ud, src->ctx, &d)) != 0)
		goto out;
	if (o->text && d.n)
		ord_buf_adds(o->text,
			     say(o->words, "orders no event of the turn carries out so far:\n"));
	for (i = 0; i < d.n; i++) {
		const struct ord_diag_item *it = &d.items[i];
		if (o->xml) {
			ord_buf_adds(o->xml, "  <pending unit=\"");
			ord_buf_add_xml(o->xml, it->unit);
			ord_buf_addf(o->xml, "\" line=\"%u\"", it->line);
			/* the kind that carries it out, as the module names it */
			if (*it->kind) {
				ord_buf_adds(o->xml, " kind=\"");
				ord_buf_add_xml(o->xml, it->kind);
				ord_buf_addch(o->xml, '"');
			}
			ord_buf_addch(o->xml, '>');
			ord_buf_add_xml(o->xml, it->msg);
			ord_buf_adds(o->xml, "</pending>\n");
		}
		if (o->text)
			ord_report_pending_line(o->text, it, o->words);
		put_piece(o, ORD_REPORT_PIECE);
	}
out:
	ord_diag_release(&d);
	return err;
}

int ord_report_lang(const struct ord_ruleset *rs, const char *lang, const char **out)
{
	struct ord_buf l = ORD_BUF_INIT;
	int err;

	if (lang && !strcmp(lang, "all")) {
		*out = NULL;
		return 0;
	}
	if ((*out = ord_ruleset_language(rs, lang)) != NULL)
		return 0;
	ord_ruleset_languages(rs, &l);
	err = ord_error_set(ORD_EUSAGE, "language '%s' (the %s ruleset writes %s, or all)", lang,
			    rs->name, l.buf);
	ord_buf_release(&l);
	return err;
}

int ord_report_side_check(const struct ord_report_src *src, const char *side)
{
	struct ord_buf l = ORD_BUF_INIT;
	size_t i;
	int err;

	for (i = 0; side && i < src->nsides; i++)
		if (!strcmp(src->sides[i], side))
			return 0;
	if (!side)
		return 0;
	for (i = 0; i < src->nsides; i++)
		ord_buf_addf(&l, "%s%s", i ? ", " : "", src->sides[i]);
	err = ord_error_set(ORD_ENOTFOUND, "unknown side '%s' (expected one of %s)", side,
			    l.buf ? l.buf : "");
	ord_buf_release(&l);
	return err;
}

int ord_report_build(const struct ord_report_src *src, const struct ord_report_opts *opts,
		     struct ord_buf *text, struct ord_buf *xml)
{
	const struct ord_record *r = src->r;
	struct ord_ctx *ctx = src->ctx;
	const char *side = opts->side;
	struct out o = { .text = text, .xml = xml, .src = src };
	struct ord_report_words words;
	const char *lang;
	int *met = NULL;
	size_t i;
	int err, piece_err = 0, revealed = src->state == ORD_TURN_EXCHANGED;

	o.err = &piece_err;
	if ((err = ord_report_lang(src->rs, opts->lang, &lang)) != 0 ||
	    (err = ord_report_side_check(src, side)) != 0 ||
	    (err = words_load(&words, src->rs, text ? lang : NULL)) != 0)
		return err;
	ctx->lang = lang;
	ctx->lang_all = !lang;
	o.lang = lang;
	o.words = &words;
	if (xml) {
		ord_buf_adds(xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<report game=\"");
		ord_buf_add_xml(xml, src->title);
		ord_buf_addf(xml, "\" turn=\"%d\" state=\"%s\"", src->turn,
			     ord_turn_state_name(src->state));
		if (side) {
			ord_buf_adds(xml, " side=\"");
			ord_buf_add_xml(xml, side);
			ord_buf_adds(xml, "\"");
		}
		ord_buf_adds(xml, ">\n");
	}
	if (text) {
		struct ord_buf title = ORD_BUF_INIT;
		ord_buf_add_name_shown(&title, src->title); /* as a unit's name (attack 41) */
		ord_buf_addf(text, say(&words, "%s: turn %d (%s), report for %s\n"),
			     title.buf ? title.buf : "", src->turn,
			     say(&words, ord_turn_state_name(src->state)),
			     side ? side : say(&words, "the referee"));
		ord_buf_release(&title);
		if (side && !revealed)
			ord_buf_adds(text, say(&words, "the other sides' sheets stay secret until the "
						       "exchange\n"));
	}
	/* sheets: a side sees its own; everybody's once the turn is exchanged */
	put_sheets(src, &o, side && !revealed ? side : NULL);
	if (text)
		ord_buf_adds(text, say(&words, side ? "your units:\n" : "units:\n"));
	for (i = 0; i < ctx->nunits; i++)
		if (!side || !strcmp(ctx->units[i].side, side))
			put_unit(src, &o, &ctx->units[i], side);
	if (side) {
		int nseen = 0;
		/* met in the phases resolved: an event of the phase being
		 * recorded has met nobody yet (fog.h) */
		met = ord_xcalloc(ctx->nunits + 1, sizeof(*met));
		ord_fog_units_met(src->rs, ctx, side, src->phase, met);
		for (i = 0; i < ctx->nunits; i++) {
			if (!met[i])
				continue;
			if (text && !nseen++)
				ord_buf_adds(text, say(&words, "enemy units met this turn:\n"));
			put_unit(src, &o, &ctx->units[i], side);
		}
	} else {
		put_referee_extras(&o, ctx, r);
	}
	put_results(src, &o, side);
	put_voids(src, &o, side);
	/* the referee's, while he records the turn's events */
	if (!side && src->state == ORD_TURN_SEALED && src->pending && (err = put_pending(src, &o)) != 0)
		goto out;
	if (xml)
		ord_buf_adds(xml, "</report>\n");
	put_piece(&o, 1); /* the rest */
	err = piece_err;
out:
	free(met);
	words_release(&words);
	return err;
}

void ord_report_ctx_of_record(struct ord_ctx *ctx, const struct ord_record *r,
			      const struct ord_scenario *sc, int upto)
{
	struct ord_buf a = ORD_BUF_INIT;
	const struct ord_rec_state **last;
	size_t i, k;

	for (i = 0; i < sc->nunits; i++) {
		const struct ord_scenario_unit *su = &sc->units[i];
		ord_buf_reset(&a);
		ord_kv_serialize(&su->attrs, &a);
		ord_ctx_add_unit(ctx, su->id, su->name, su->side, a.buf,
				 i < r->units.n ? r->units.v[i].state : "");
	}
	ord_ctx_index(ctx);
	/* each unit's latest state of the turn, by its phase as the game
	 * file's are read (ord_store_units_each): not a row of the next
	 * turn's opening, which the record holds too */
	last = ord_xcalloc(ctx->nunits + 1, sizeof(*last));
	for (i = 0; i < r->states.n; i++) {
		const struct ord_rec_state *s = &r->states.v[i];
		const struct ord_unit *u;
		if (s->turn != r->turn || (upto >= 0 && s->phase > upto) ||
		    !(u = ord_ctx_find_unit(ctx, s->unit)))
			continue;
		k = ord_ctx_unit_index(ctx, u);
		if (!last[k] || last[k]->phase <= s->phase)
			last[k] = s;
	}
	for (k = 0; k < ctx->nunits; k++) {
		if (!last[k])
			continue;
		ord_kv_release(&ctx->units[k].state);
		ord_kv_init(&ctx->units[k].state);
		ord_kv_parse(&ctx->units[k].state, last[k]->value);
	}
	free(last);
	ord_buf_release(&a);
	/* the events that stand: a voided one is as if it was never recorded */
	for (i = 0; i < r->events.n; i++) {
		const struct ord_rec_event *e = &r->events.v[i];
		if (!e->void_log && (upto < 0 || ord_fog_phase_index(ctx->rs, e->phase) <= upto))
			ord_ctx_add_event(ctx, e->seq, e->phase, e->kind, e->args, e->override,
					  e->checks);
	}
}

/* ---- the game file's reports ---- */

int ord_game_report(ord_game *g, const char *side, int turn, int xml, struct ord_buf *out)
{
	struct ord_report_opts o = { .side = side, .turn = turn, .xml = xml };

	return ord_game_report_opts(g, &o, out);
}

int ord_game_lang(ord_game *g, const char *lang, const char **out)
{
	return ord_report_lang(g->rs, lang, out);
}

int ord_game_report_opts(ord_game *g, const struct ord_report_opts *o, struct ord_buf *out)
{
	return ord_game_report_both(g, o, o->xml ? NULL : out, o->xml ? out : NULL);
}

/* The pending hook of the game file's report: the sealed sheets attached
 * to the ctx, and the module's check of their execution. */
static int game_pending(void *ud, struct ord_ctx *ctx, struct ord_diag *d)
{
	struct ord_game *g = ud;
	int err;

	if (!g->rs->check_execution)
		return 0;
	if ((err = ord_game_attach_sheets(g, ctx, ctx->turn, NULL)) != 0)
		return err;
	g->rs->check_execution(ctx, d);
	ord_error_clear();
	return 0;
}

/* The game file's report (ord_game_report_both), its text handed to
 * piece as it is made when piece is not NULL. */
static int game_report(ord_game *g, const struct ord_report_opts *opts, struct ord_buf *text,
		       struct ord_buf *xml, int (*piece)(void *ud, const char *bytes, size_t n),
		       void *piece_ud)
{
	struct ord_report_src src;
	struct ord_store_turn t, cur;
	struct ord_record r;
	struct ord_ctx ctx;
	const char **sides;
	const char *lang;
	size_t i;
	int err, loaded = 0;

	memset(&src, 0, sizeof(src));
	sides = ord_xcalloc(g->nsides + 1, sizeof(*sides));
	for (i = 0; i < g->nsides; i++)
		sides[i] = g->sides[i].name;
	src.rs = g->rs;
	src.nt = g->notation;
	src.title = g->title;
	src.sides = sides;
	src.nsides = g->nsides;
	src.pending = game_pending;
	src.pending_ud = g;
	src.piece = piece;
	src.piece_ud = piece_ud;
	ord_record_init(&r);
	/* a usage error before any reading */
	if ((err = ord_report_lang(g->rs, opts->lang, &lang)) != 0 ||
	    (err = ord_report_side_check(&src, opts->side)) != 0)
		goto out_free;
	if ((err = ord_game_turn(g, &cur, 0)) != 0 || (err = ord_game_turn(g, &t, opts->turn)) != 0)
		goto out_free;
	/* each row read once: SQLite's cache would only hold the file (16
	 * MiB of a game of 100,000 units) */
	if ((err = ord_store_cache_for_scan(g->db, 1)) != 0)
		goto out_free;
	if ((err = ord_store_begin_read(g->db)) != 0) {
		ord_store_cache_for_scan(g->db, 0);
		goto out_free;
	}
	/* the sheets, rolls and results, and the events voided: not the log,
	 * nor the units' states and the events that stand, which the ctx
	 * holds (each unit's latest state, one row each) */
	if ((err = ord_store_record_load_parts(g->db, t.turn,
					       ORD_REC_SHEETS | ORD_REC_ROLLS | ORD_REC_RESULTS |
						       ORD_REC_VOIDS,
					       &r)) != 0)
		goto out;
	loaded = 1; /* ord_game_load_ctx inits ctx first */
	if ((err = ord_game_load_ctx(g, &ctx, t.turn, 0, "*", NULL)) != 0)
		goto out;
	src.turn = t.turn;
	src.state = t.state;
	src.phase = t.phase;
	src.r = &r;
	src.ctx = &ctx;
	err = ord_report_build(&src, opts, text, xml);
out:
	ord_store_end_read(g->db);
	ord_store_cache_for_scan(g->db, 0);
out_free:
	ord_record_release(&r);
	if (loaded)
		ord_ctx_release(&ctx);
	free(sides);
	return err;
}

int ord_game_report_both(ord_game *g, const struct ord_report_opts *opts, struct ord_buf *text,
			 struct ord_buf *xml)
{
	return game_report(g, opts, text, xml, NULL, NULL);
}

/* The report's text written to a file as it is made. */
struct report_file {
	int fd;
	const char *name; /* for messages */
	size_t len;       /* written so far */
};

static int report_piece(void *ud, const char *bytes, size_t n)
{
	struct report_file *f = ud;

	if (ord_fd_write(f->fd, bytes, n, ORD_FD_APPEND) < 0)
		return ord_error_set(ORD_ECANTWRITE, "cannot write '%s': %s", f->name, strerror(errno));
	f->len += n;
	return 0;
}

int ord_game_report_fd(ord_game *g, const struct ord_report_opts *opts, int fd, const char *name,
		       size_t *len)
{
	struct ord_buf text = ORD_BUF_INIT;
	struct report_file f = { fd, name, 0 };
	int err;

	*len = 0;
	err = game_report(g, opts, &text, NULL, report_piece, &f);
	ord_buf_release(&text);
	*len = f.len;
	return err;
}
