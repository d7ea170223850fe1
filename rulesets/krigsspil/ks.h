/*
 * ks.h - what the parts of the krigsspil module share: reading a unit's
 * attributes and state, its morale now, reading the ordre notation's
 * groups (orders/ordre/README.md "For the ruleset"), and the entry points
 * of validate.c and resolve.c.  Internal to rulesets/krigsspil/.
 *
 * Time is counted in half turns where the rules count it so: the half
 * turn h = 2 x turn + (0 first half, 1 second half).  A state that lasts
 * "½ træk efter" a change in turn T lasts through h = 2 (T + 1); "resten af
 * trækket" through h = 2 T + 1.
 */
#ifndef KS_H
#define KS_H

#include "rulesets/krigsspil/calc.h"
#include "ruleset.h"

extern const struct ord_event_kind ks_events[];

/* ---- units ---- */

struct ks_rules *ks_r(struct ord_ctx *ctx);
long ks_st(const struct ord_unit *u, const char *key);
double ks_st_num(const struct ord_unit *u, const char *key);
void ks_st_set(struct ord_unit *u, const char *key, long v);
void ks_st_set_num(struct ord_unit *u, const char *key, double v);
const char *ks_st_str(const struct ord_unit *u, const char *key); /* "" if absent */

const char *ks_art(const struct ord_unit *u);                         /* infanteri ... */
const char *ks_vaaben(struct ord_ctx *ctx, const struct ord_unit *u); /* infanteri kavaleri artilleri */
const char *ks_klasse(struct ord_ctx *ctx, const struct ord_unit *u); /* let middel tung kosak fod ... */
int ks_is(struct ord_ctx *ctx, const struct ord_unit *u, const char *vaaben);
const char *ks_form(const struct ord_unit *u);
int ks_closed(struct ord_ctx *ctx, const struct ord_unit *u, const char *formation);
int ks_british(const struct ord_unit *u);
/* Figures now (artillery: its crew, besaetning_figurer_pr_piece a piece). */
int ks_figures(struct ord_ctx *ctx, const struct ord_unit *u);
int ks_start_figures(struct ord_ctx *ctx, const struct ord_unit *u);
int ks_pieces(struct ord_ctx *ctx, const struct ord_unit *u);
/* Surrendered or removed: no longer in the game. */
int ks_gone(const struct ord_unit *u);

/* The unit's morale grade in half turn h (its state, the decimation floor,
 * cossacks in close order); why gets the reasons when not NULL. */
int ks_moral_at(struct ord_ctx *ctx, const struct ord_unit *u, int h, struct ks_text *why);
int ks_moral_now(struct ord_ctx *ctx, const struct ord_unit *u);
/* Make the unit at least `grade` until half turn `until` (0: until it is
 * reorganised); a better grade never replaces a worse one. */
void ks_set_moral(struct ord_ctx *ctx, struct ord_unit *u, int grade, int until, const char *why);
/* Men lost (killed and wounded) and given up as prisoners. */
void ks_take_men(struct ord_ctx *ctx, struct ord_unit *u, long men, long prisoners);

/* A morale reason word (moral_grund) in a language: "formationsændring"
 * is "change of formation" in English. */
const char *ks_reason(const char *why, const char *lang);
/* A formation's name in a language ("angrebskolonne", "attack column"). */
const char *ks_formation_name(struct ord_ctx *ctx, const struct ord_unit *u, const char *formation,
			      const char *lang);

/* The turn's half-turn index. */
int ks_half(struct ord_ctx *ctx, int second_half);

/* ---- orders ---- */

struct ks_group {
	const char *code;            /* march, stormmarch, ... (ORD_TOK_CODE value) */
	const struct ord_token *tok; /* the code token */
	size_t first, end;           /* tokens [first, end) */
	int after_change;            /* 1: after ordreaendring (the new order) */
};

#define KS_MAX_GROUPS 32
/* The groups of an order line, in order; returns how many (at most max). */
size_t ks_groups(const struct ord_order *o, struct ks_group *g, size_t max);
const char *ks_grp_arg(const struct ord_order *o, const struct ks_group *g, const char *slot);
const struct ord_token *ks_grp_tok(const struct ord_order *o, const struct ks_group *g,
				   enum ord_tok_kind kind);
/* Quarters of the turn the group takes (its fraction, or the default). */
int ks_grp_quarters(const struct ord_order *o, const struct ks_group *g);
/* The destination or aimed plate; 0 if the group has none. */
int ks_grp_hex(const struct ord_order *o, const struct ks_group *g, int *q, int *r);
/* The first group with this code, or NULL. */
const struct ks_group *ks_find(const struct ks_group *g, size_t n, const char *code);
/* The formation a FORM group orders, in the Skema's names (skyttekaede_taet ...). */
void ks_grp_formation(const struct ord_order *o, const struct ks_group *g, char *out, size_t n);
/* Does the unit's order this turn have the code (anywhere on the line)? */
int ks_ordered(struct ord_ctx *ctx, const struct ord_unit *u, const char *code);

/* ---- the slots ---- */

int ks_validate_sheet(struct ord_ctx *ctx, const struct ord_sheet *sheet, struct ord_diag *diag);
int ks_check_event(struct ord_ctx *ctx, const struct ord_event *ev, struct ord_diag *diag);
int ks_check_execution(struct ord_ctx *ctx, struct ord_diag *diag);
int ks_resolve_phase(struct ord_ctx *ctx, const char *phase);
/* The pictures (draw.c): the map of the table, the story chart. */
int ks_draw(struct ord_ctx *ctx, const char *viewer, struct ord_canvas *cv,
	    const struct ord_picture *what);

/* Stormmarch allowed this turn?  0, or a reason in why (English, for a
 * diagnostic) and the rule. */
int ks_stormmarch_refused(struct ord_ctx *ctx, const struct ord_unit *u, struct ord_buf *why);

/* Record a result with a bilingual explanation (marked provisional as
 * needed). */
void ks_result(struct ord_ctx *ctx, unsigned seq, const struct ord_unit *u,
	       const struct ord_kv *vals, struct ks_text *t);

#endif
