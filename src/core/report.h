/*
 * report.h - the one builder of turn reports (game_report.c), whatever the
 * turn's source: the game file (ord_game_report_both) or a turn bundle that
 * verified (ord_bundle_verify_report, bundle.c).  What a report shows comes
 * from a turn's record (record.h: its sheets, events, rolls and results)
 * and a context holding every unit as it stands at the report's moment, so
 * that a player can rebuild the report the referee sent him from the bundle
 * and find it byte for byte the same, or not.
 */
#ifndef ORD_REPORT_H
#define ORD_REPORT_H

#include "core/ctx.h"
#include "core/record.h"
#include "store/store.h"

struct ord_report_words; /* a ruleset's words in a language (below) */

struct ord_report_opts;
struct ord_scenario;
struct ord_notation;

/* What one report is built from.  Nothing of it is freed by the builder. */
struct ord_report_src {
	const struct ord_ruleset *rs;
	const struct ord_notation *nt; /* reads the sheets */
	const char *title;
	const char *const *sides; /* the sides' names, in the game's order */
	size_t nsides;
	int turn;
	enum ord_turn_state state;
	int phase; /* phases resolved */
	/* the turn's sheets (every version), rolls and results: ORD_REC_SHEETS
	 * | ORD_REC_ROLLS | ORD_REC_RESULTS of ord_store_record_load_parts, or
	 * a bundle's whole record */
	const struct ord_record *r;
	/* every unit, indexed, as it stands at the report's moment (the end
	 * of the turn, or now), and the turn's standing events: the game
	 * file's (ord_game_load_ctx), or the record's (ord_report_ctx_of_record) */
	struct ord_ctx *ctx;
	/* the referee's report of a sealed turn: the orders no event carries
	 * out so far, as diagnostics into d (NULL: none to list) */
	int (*pending)(void *ud, struct ord_ctx *ctx, struct ord_diag *d);
	void *pending_ud;
	/* the text handed on as it is made, in pieces of ORD_REPORT_PIECE
	 * bytes or more (the last may be less), the buffer emptied after
	 * each, so that a report of 100,000 units (11.6 MB) is never whole
	 * in memory; a piece's error stops the report and is returned.  NULL:
	 * the text held whole in the buffer given */
	int (*piece)(void *ud, const char *bytes, size_t n);
	void *piece_ud;
};

/* The least a piece of a report's text handed on holds (piece above). */
#define ORD_REPORT_PIECE ((size_t)64 * 1024)

/* The language lang names for rs in *out (ord_game_lang). */
int ord_report_lang(const struct ord_ruleset *rs, const char *lang, const char **out);
/* One line of the referee's list of orders no event carries out yet (a
 * report's, info's): "  UNIT: WHAT", what an order says in it shown
 * escaped (a bidirectional override, a C1 control: attack 43). */
void ord_report_pending_line(struct ord_buf *out, const struct ord_diag_item *it,
			     const struct ord_report_words *w);
/* The words of a ruleset in a language (its words_resource: the core's
 * words a report and info are framed in, and the module's messages) as
 * the report reads them: loaded by ord_report_words_load (lang NULL or
 * "en": English, nothing read), freed by ord_report_words_free. */
int ord_report_words_load(struct ord_report_words **out, const struct ord_ruleset *rs,
			  const char *lang);
void ord_report_words_free(struct ord_report_words *w);
/* The core's word en (as the builder writes it, in English) in w's
 * language: en itself when w is NULL or does not give it. */
const char *ord_report_words_say(const struct ord_report_words *w, const char *en);
/* The message of it in w's language: its module's words for its id
 * (ord_diag_add_id) with its conversions filled, else it->msg. */
void ord_report_diag_said(struct ord_buf *out, const struct ord_report_words *w,
			  const struct ord_diag_item *it);
/* Read a ruleset's words document (its words_resource, ruleset.h: xml,
 * len bytes, name for messages) in lang as a report reads it: 0, or
 * ORD_EBADDATA naming the document and line.  said (unless NULL) gets
 * each of the report's English words and its words in lang as the report
 * writes them, "english|said\n" (said empty: the English stands), in the
 * builder's order, then each of msgs's (the ruleset's messages, NULL:
 * none) "id|said\n". */
int ord_report_words_check(const char *xml, size_t len, const char *name, const char *lang,
			   const struct ord_message *msgs, struct ord_buf *said);
/* ORD_ENOTFOUND naming the sides when side is not one of src's (NULL, the
 * referee, is); 0 otherwise. */
int ord_report_side_check(const struct ord_report_src *src, const char *side);
/* The report o asks for (o->turn is src's; o->xml is not looked at) as
 * text and as XML, either buffer NULL; it sets ctx's language.  ORD_EUSAGE
 * for a language rs does not write, ORD_ENOTFOUND for an unknown side. */
int ord_report_build(const struct ord_report_src *src, const struct ord_report_opts *o,
		     struct ord_buf *text, struct ord_buf *xml);
/* Fill ctx (ord_ctx_init'd, empty) from record r as its turn ended: each
 * unit of the scenario sc with the state r's turn opened with (r->units),
 * or the last of the turn's state rows (r->states), as the game file's
 * report reads each unit's latest; and r's events that stand.  upto >= 0:
 * as the turn stood once its phase upto was resolved (0: none), each
 * unit's last state of a phase up to it, and the events of those phases. */
void ord_report_ctx_of_record(struct ord_ctx *ctx, const struct ord_record *r,
			      const struct ord_scenario *sc, int upto);

#endif
