/*
 * report.c - a battalion unit as a side sees it in its turn report: its
 * own units in full, the enemy's as they stand on the table (trays,
 * formation, morale), the referee everything; and the results it reads
 * (bat_show_result): a fire's or a melee's words as the phase wrote them,
 * but an enemy battalion's figures, and the numbers worked out from them,
 * told as its trays.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/battalion/bat.h"

/* ---- reports ---- */

/* "about 5 trays": fig figures of a battalion as the enemy sees them. */
static void add_trays(struct ord_ctx *ctx, struct ord_buf *out, long fig)
{
	long fpt = bat_ip(ctx, "figures_per_tray");
	long trays = fpt > 0 ? (fig + fpt - 1) / fpt : fig;

	ord_buf_addf(out, "about %ld tray%s", trays, trays == 1 ? "" : "s");
}

static void morale_words(struct ord_ctx *ctx, const struct ord_unit *u, struct ord_buf *out)
{
	int turn = ord_ctx_turn(ctx);

	if (bat_st(ctx, u, "figures") <= 0)
		ord_buf_adds(out, "none: destroyed");
	else if (bat_routed(ctx, u))
		ord_buf_addf(out, "routed (to the rear until turn %ld)", bat_st(ctx, u, "rout_until"));
	else if (bat_retreating(ctx, u))
		ord_buf_adds(out, "retreating");
	else if (bat_st(ctx, u, "retreat_turn") == turn + 1)
		ord_buf_adds(out, "shaken: retreats next turn");
	else if (bat_dressing(ctx, u))
		ord_buf_addf(out, "dressing ranks (until turn %ld)", bat_st(ctx, u, "dress_until"));
	else
		ord_buf_adds(out, "good");
}

/* A unit whose figures viewer does not see: an enemy battalion (a
 * squadron's or a gun's figures stand apart on the table); the referee
 * (no viewer) sees every unit's. */
static int hidden(struct ord_ctx *ctx, const struct ord_unit *u, const char *viewer)
{
	return u && viewer && strcmp(u->side, viewer) && bat_is_arm(ctx, u, "infantry");
}

int bat_describe_unit(struct ord_ctx *ctx, const struct ord_unit *u, const char *viewer,
		      struct ord_buf *out)
{
	long fig = bat_st(ctx, u, "figures");

	ord_buf_addf(out, "%s %s (%s, %s): ", u->id, u->name, u->side, bat_kind(u));
	if (!viewer || !strcmp(viewer, u->side)) {
		if (bat_is_arm(ctx, u, "infantry"))
			ord_buf_addf(out,
				     "%ld figure%s (%ld lost: %ld tray%s removed, %ld carried), %s, morale ",
				     fig, fig == 1 ? "" : "s", bat_st(ctx, u, "losses"),
				     bat_st(ctx, u, "trays"), bat_st(ctx, u, "trays") == 1 ? "" : "s",
				     bat_st(ctx, u, "carried"), bat_formation(ctx, u));
		else /* trays are the battalions' ("BASICS OF INFANTRY") */
			ord_buf_addf(out, "%ld figure%s (%ld lost), %s, morale ", fig,
				     fig == 1 ? "" : "s", bat_st(ctx, u, "losses"),
				     bat_formation(ctx, u));
		morale_words(ctx, u, out);
		if (bat_st(ctx, u, "failed"))
			ord_buf_adds(out, ", has failed before");
		ord_buf_addf(out, ", class %s",
			     ord_state_has(ctx, u, "class") ? ord_state_str(ctx, u, "class") : "?");
		if (bat_st(ctx, u, "last_charge"))
			ord_buf_addf(out, ", last charged in turn %ld", bat_st(ctx, u, "last_charge"));
		if (bat_st(ctx, u, "hits"))
			ord_buf_addf(out, ", %ld artillery hit%s%s", bat_st(ctx, u, "hits"),
				     bat_st(ctx, u, "hits") == 1 ? "" : "s",
				     bat_st(ctx, u, "silenced") ? " (silenced)" : "");
	} else if (!hidden(ctx, u, viewer)) {
		/* a squadron's or a gun's figures stand apart on the table */
		ord_buf_addf(out, "%ld figure%s, %s, morale ", fig, fig == 1 ? "" : "s",
			     bat_formation(ctx, u));
		morale_words(ctx, u, out);
		if (bat_st(ctx, u, "silenced"))
			ord_buf_adds(out, ", silenced");
	} else {
		/* what the enemy sees on the table: trays and formation, not figures */
		add_trays(ctx, out, fig);
		ord_buf_addf(out, ", %s, morale ", bat_formation(ctx, u));
		morale_words(ctx, u, out);
		if (bat_st(ctx, u, "silenced"))
			ord_buf_adds(out, ", silenced");
	}
	if (bat_melee_with(ctx, u))
		ord_buf_addf(out, ", in melee with %s", bat_melee_with(ctx, u));
	return 0;
}

/* ---- results as a side reads them ---- */

/* Cut b back to its first len bytes. */
static void cut(struct ord_buf *b, size_t len)
{
	if (b->alloc && len < b->len) {
		b->len = len;
		b->buf[len] = '\0';
	}
}

/* The units a melee's words name, as they name them ("F2", or "A", "B2"
 * in a game whose tables do not name them, melee_names_units). */
struct melee_words {
	struct {
		const char *name;
		const struct ord_unit *u;
	} w[4];
	size_t n;
	int any;      /* one of them is hidden from the viewer */
	int blow;     /* the blow being told involves a hidden unit */
	int hide_all; /* it falls on one: its "(all 5 engaged)" is its figures */
};

static void melee_name(struct ord_ctx *ctx, struct melee_words *m, const char *name,
		       const struct ord_unit *u, const char *viewer)
{
	if (!u || m->n >= ORD_ARRAY_SIZE(m->w))
		return;
	m->w[m->n].name = name;
	m->w[m->n].u = u;
	m->n++;
	m->any |= hidden(ctx, u, viewer);
}

/* The unit named by the len bytes at s, or NULL. */
static const struct ord_unit *melee_unit(const struct melee_words *m, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (strlen(m->w[i].name) == len && !strncmp(s, m->w[i].name, len))
			return m->w[i].u;
	return NULL;
}

/* The unit a segment starts with ("F2's", "A:", "B2 4.5 × ...") and the
 * words after its name. */
static const struct ord_unit *melee_lead(const struct melee_words *m, const char *s, const char **rest)
{
	const struct ord_unit *best = NULL;
	size_t i, len = 0;

	for (i = 0; i < m->n; i++) {
		size_t l = strlen(m->w[i].name);
		if (l > len && !strncmp(s, m->w[i].name, l) && s[l] && strchr("': ", s[l]))
			best = m->w[i].u, len = l;
	}
	*rest = s + len;
	return best;
}

/* 1 when a team ("F2", "R2 and RH": the len bytes at s) holds a unit
 * hidden from viewer, 0 when it holds none; with outside, 1 when a unit
 * of the melee outside the team is hidden (the team's enemy). */
static int team_hides(struct ord_ctx *ctx, const struct melee_words *m, const char *s, size_t len,
		      const char *viewer, int outside)
{
	size_t i;
	int hid = 0;

	for (i = 0; i < m->n; i++) {
		const char *name = m->w[i].name, *p = s, *end = s + len;
		size_t l = strlen(name);
		int in = 0;
		/* its pieces: "X", "X and Y" */
		while (p < end) {
			const char *sep = strstr(p, " and ");
			const char *q = sep && sep < end ? sep : end;
			if ((size_t)(q - p) == l && !strncmp(p, name, l))
				in = 1;
			p = q < end ? q + 5 : end;
		}
		if (in != outside && hidden(ctx, m->w[i].u, viewer))
			hid = 1;
	}
	return hid;
}

/* The casualties a blow's words end with ("3 figures on F2", "3 (all 2
 * engaged) figures of B"): added to out, "(all 2 engaged)" without the
 * number when hide_all.  0 when seg ends otherwise. */
static int add_tail(struct ord_buf *out, const char *seg, int hide_all)
{
	const char *f = NULL, *p, *num, *all = NULL;

	for (p = strstr(seg, " figure"); p; p = strstr(p + 1, " figure"))
		f = p;
	if (!f)
		return 0;
	p = f;
	if (p > seg && p[-1] == ')') {
		const char *a = NULL, *q;
		for (q = strstr(seg, " (all "); q && q < p; q = strstr(q + 1, " (all "))
			a = q;
		if (!a)
			return 0;
		all = a;
		p = a;
	}
	for (num = p; num > seg && (isdigit((unsigned char)num[-1]) || num[-1] == '.'); num--)
		;
	if (num == p || (num > seg && num[-1] != ' '))
		return 0;
	if (all && hide_all) {
		ord_buf_add(out, num, (size_t)(all - num));
		ord_buf_adds(out, " (all engaged)");
		ord_buf_adds(out, f);
	} else {
		ord_buf_adds(out, num);
	}
	return 1;
}

/* Is the unit a blow's words end with ("... figures on F2") hidden? */
static int tail_hidden(struct ord_ctx *ctx, const struct melee_words *m, const char *seg,
		       const char *viewer)
{
	const char *sp = strrchr(seg, ' ');

	return sp && hidden(ctx, melee_unit(m, sp + 1, strlen(sp + 1)), viewer);
}

/* One side of the melee worked out ("F2's 24 line_infantry × 3 = 72 pts
 * × (d6 3, +1 column = 4) = 288", "B: 24 ..."), of a hidden unit: its
 * trays, kind and die, not its figures, points or score. */
static int add_hidden_side(struct ord_ctx *ctx, struct ord_buf *out, const char *seg, const char *rest)
{
	const char *p = rest + (rest[0] == '\'' ? 3 : 2), *kind, *kend, *die, *close = NULL, *q;
	char *end;
	long fig;

	if (strncmp(rest, "'s ", 3) && strncmp(rest, ": ", 2))
		return 0;
	if (!isdigit((unsigned char)*p))
		return 0;
	fig = strtol(p, &end, 10);
	if (*end != ' ')
		return 0;
	kind = end + 1;
	kend = strstr(kind, " × ");
	q = strstr(kind, ", broken");
	if (q && (!kend || q < kend))
		kend = q;
	if (!kend)
		return 0;
	die = strstr(kend, "(d");
	for (q = strstr(kend, ") = "); q; q = strstr(q + 1, ") = "))
		close = q;
	ord_buf_add(out, seg, (size_t)(p - seg));
	add_trays(ctx, out, fig);
	ord_buf_adds(out, " of ");
	ord_buf_add(out, kind, (size_t)(kend - kind));
	if (!strncmp(kend, ", broken: no melee value", 24))
		ord_buf_adds(out, ", broken: no melee value");
	if (die && close && close > die) {
		ord_buf_adds(out, " (");
		ord_buf_add(out, die + 1, (size_t)(close - die - 1));
		ord_buf_adds(out, ")");
	}
	return 1;
}

/* One segment of a melee's words ("; " apart) as viewer reads it: added
 * to out (0) or left out (1). */
static int melee_segment(struct ord_ctx *ctx, struct melee_words *m, const char *seg,
			 const char *viewer, struct ord_buf *out)
{
	const char *rest, *inf = strstr(seg, " inflict"), *tog = strstr(seg, " together ");
	const struct ord_unit *u = melee_lead(m, seg, &rest);
	size_t len = strlen(seg), at = out->len;

	if (!strcmp(seg, "a tie, no winner") ||
	    (len > 4 && (!strcmp(seg + len - 4, " win") || !strcmp(seg + len - 5, " wins")))) {
		ord_buf_adds(out, seg);
		return 0;
	}
	if (u &&
	    (!strncmp(rest, "'s share ", 9) || (rest[0] == ' ' && isdigit((unsigned char)rest[1])))) {
		/* a unit's share of a blow on two: its casualties alone */
		if (!m->blow)
			ord_buf_adds(out, seg);
		else if (!add_tail(out, seg, m->hide_all))
			return 1;
		return 0;
	}
	if (u && (!strncmp(rest, "'s ", 3) || !strncmp(rest, ": ", 2)) &&
	    isdigit((unsigned char)rest[rest[0] == '\'' ? 3 : 2])) {
		if (!hidden(ctx, u, viewer))
			ord_buf_adds(out, seg);
		else if (!add_hidden_side(ctx, out, seg, rest))
			return 1;
		return 0;
	}
	if (inf) {
		const char *verb = inf + 8, *pts = strstr(inf, " pts: ");
		int from = team_hides(ctx, m, seg, (size_t)(inf - seg), viewer, 0);
		int to = team_hides(ctx, m, seg, (size_t)(inf - seg), viewer, 1);
		m->blow = from || to;
		m->hide_all = to;
		if (!m->blow) {
			ord_buf_adds(out, seg);
			return 0;
		}
		if (*verb == 's')
			verb++;
		if (from) {
			/* the enemy's points are its figures: its blow by what it did */
			ord_buf_add(out, seg, (size_t)(verb - seg));
			ord_buf_adds(out, pts ? ": " : " ");
		} else if (pts) {
			/* ours shared between hidden units by their points: what each took */
			ord_buf_add(out, seg, (size_t)(pts + 6 - seg));
		} else {
			/* ours on one: as it was, but its "(all 5 engaged)" */
			m->hide_all = tail_hidden(ctx, m, seg, viewer);
			if (!m->hide_all || !strstr(seg, " (all ")) {
				ord_buf_adds(out, seg);
				return 0;
			}
			{
				const char *a = NULL, *q;
				for (q = strstr(seg, " (all "); q; q = strstr(q + 1, " (all "))
					a = q;
				for (q = a; q > seg && q[-1] != ' '; q--)
					;
				ord_buf_add(out, seg, (size_t)(q - seg));
			}
		}
		if (!add_tail(out, seg, m->hide_all)) {
			cut(out, at);
			ord_buf_add(out, seg, (size_t)(verb - seg));
		}
		return 0;
	}
	if (tog) {
		/* two units' points and score together: their figures */
		if (team_hides(ctx, m, seg, (size_t)(tog - seg), viewer, 0))
			return 1;
		ord_buf_adds(out, seg);
		return 0;
	}
	/* words this orderly does not know: their numbers may be figures */
	if (m->any && strpbrk(seg, "0123456789"))
		return 1;
	ord_buf_adds(out, seg);
	return 0;
}

/* A melee's or a pursuit's words (prefix, then what bat_melee wrote) as
 * viewer reads them. */
static void show_melee(struct ord_ctx *ctx, struct melee_words *m, const char *text,
		       const char *viewer, struct ord_buf *out)
{
	const char *why = strstr(text, ": "), *p;
	struct ord_buf seg = ORD_BUF_INIT;
	int n = 0;

	if (!why || !m->any)
		return;
	why += 2;
	ord_buf_add(out, text, (size_t)(why - text));
	for (p = why; *p;) {
		const char *q = strstr(p, "; ");
		size_t l = q ? (size_t)(q - p) : strlen(p), at = out->len;
		ord_buf_reset(&seg);
		ord_buf_add(&seg, p, l);
		if (n)
			ord_buf_adds(out, "; ");
		if (melee_segment(ctx, m, seg.buf, viewer, out))
			cut(out, at);
		else
			n++;
		p = q ? q + 2 : p + l;
	}
	ord_buf_release(&seg);
}

/* ": 14 casualties": a fire's casualties as the phase stored them. */
static void add_casualties(struct ord_buf *out, const struct ord_result_view *r)
{
	long cas = ord_kv_get_int(r->values, "casualties", 0);

	if (ord_kv_get(r->values, "casualties"))
		ord_buf_addf(out, ": %ld casualt%s", cas, cas == 1 ? "y" : "ies");
}

/* An enemy battalion's fire on one of viewer's units ("fired on by A1
 * (musket, 2"): 22 firers × 50% = 11, +5.5 target in column = 16.5 →
 * 17"): its trays firing, the modifiers by name and the casualties, not
 * the figures that fired nor the numbers worked out from them; words of
 * another shape, the casualties alone. */
static void show_fire(struct ord_ctx *ctx, const struct ord_result_view *r, const char *viewer,
		      struct ord_buf *out)
{
	const char *s = r->explanation, *by = ord_kv_get(r->values, "by"), *p, *pct, *stop;
	const char *body = strstr(s, "): ");
	char *end;
	long fig;

	/* the firer as the phase stored it (values' by=) */
	if (!by || !body || !hidden(ctx, ord_ctx_find_unit(ctx, by), viewer))
		return;
	body += 3;
	if (!strncmp(body, "enfiladed ", 10) && (p = strstr(body, "; ")) != NULL)
		body = p + 2;
	if (!strncmp(body, "no fire: ", 9) || !strncmp(body, "out of range: ", 14))
		return; /* no figures told */
	ord_buf_add(out, s, (size_t)(body - s));
	fig = strtol(body, &end, 10);
	pct = strstr(end, " × ");
	p = strstr(end, "% = ");
	if (!isdigit((unsigned char)*body) || strncmp(end, " firer", 6) || !pct || !p || pct > p) {
		/* words this orderly does not know: their numbers may be figures */
		cut(out, out->len - 2);
		add_casualties(out, r);
		return;
	}
	add_trays(ctx, out, fig);
	ord_buf_adds(out, " firing × ");
	ord_buf_add(out, pct + strlen(" × "), (size_t)(p - pct - strlen(" × ")));
	ord_buf_adds(out, "%");
	for (p += 4; isdigit((unsigned char)*p) || *p == '.'; p++)
		;
	stop = strstr(p, " (the skirmishers ");
	if (!stop)
		stop = p + strlen(p);
	/* the modifiers, ", +5.5 target in column": each by its sign and name */
	while (p < stop && !strncmp(p, ", ", 2) &&
	       (p[2] == '+' || !strncmp(p + 2, "−", 3) || !strncmp(p + 2, "×", 2))) {
		const char *item = p + 2, *sp = strchr(item, ' '), *next = NULL, *q, *eq;
		if (!sp || sp > stop)
			break;
		for (q = strstr(sp, ", "); q && q < stop; q = strstr(q + 1, ", "))
			if (q[2] == '+' || !strncmp(q + 2, "−", 3) || !strncmp(q + 2, "×", 2)) {
				next = q;
				break;
			}
		q = next ? next : stop;
		eq = strstr(sp, " = ");
		if (eq && eq < q)
			q = eq;
		ord_buf_adds(out, ", ");
		ord_buf_add(out, item, (size_t)(*item == '+' ? 1 : !strncmp(item, "−", 3) ? 3 : 2));
		ord_buf_add(out, sp, (size_t)(q - sp));
		p = next ? next : stop;
	}
	add_casualties(out, r);
	ord_buf_adds(out, stop);
}

/* The event numbered seq of those naming the unit id (the core's index
 * of a unit's events), or NULL. */
static const struct ord_event *unit_event(struct ord_ctx *ctx, const char *id, unsigned seq)
{
	const struct ord_unit *u = ord_ctx_find_unit(ctx, id);
	const struct ord_event *e;
	size_t i;

	for (i = 0; seq && (e = ord_ctx_unit_event(ctx, u, i)) != NULL; i++)
		if (e->seq == seq)
			return e;
	return NULL;
}

void bat_show_result(struct ord_ctx *ctx, const struct ord_result_view *r, const char *viewer,
		     struct ord_buf *out)
{
	const char *s = r->explanation;
	int named = bat_flag(ctx, "melee_names_units");
	struct melee_words m;

	memset(&m, 0, sizeof(m));
	if (!viewer)
		return;
	if (!strncmp(s, "fired on by ", 12) && strncmp(s, "fired on by gun ", 16)) {
		show_fire(ctx, r, viewer, out);
	} else if (!strncmp(s, "melee with ", 11)) {
		const struct ord_event *e = unit_event(ctx, r->unit, r->event_seq);
		static const char *const keys[] = { "a", "b", "a2", "b2" }, *const letters[] = {
			"A", "B", "A2", "B2"
		};
		size_t i;
		if (!e || strcmp(e->kind, "melee"))
			return;
		for (i = 0; i < 4; i++) {
			const struct ord_unit *u = bat_ev_unit(ctx, e, keys[i]);
			melee_name(ctx, &m, named && u ? u->id : letters[i], u, viewer);
		}
		show_melee(ctx, &m, s, viewer, out);
	} else if (!strncmp(s, "pursued by ", 11) || !strncmp(s, "pursues ", 8)) {
		/* the pursuer is side A, the pursued B */
		int by = !strncmp(s, "pursued by ", 11);
		const char *id = s + (by ? 11 : 8), *end = strstr(id, ": ");
		struct ord_buf other = ORD_BUF_INIT;
		const struct ord_unit *self = ord_ctx_find_unit(ctx, r->unit), *w, *u;
		if (!end || !self)
			return;
		ord_buf_add(&other, id, (size_t)(end - id));
		w = ord_ctx_find_unit(ctx, other.buf);
		u = by ? self : w;
		w = by ? w : self;
		if (w && u) {
			melee_name(ctx, &m, named ? w->id : "A", w, viewer);
			melee_name(ctx, &m, named ? u->id : "B", u, viewer);
		}
		show_melee(ctx, &m, s, viewer, out);
		ord_buf_release(&other);
	}
}
