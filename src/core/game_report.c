/*
 * game_report.c - turn reports.  A side's report holds its own sheet, its
 * own units and their results, and what it could see of the enemy units it
 * met; other sides' sheets only after the exchange.  The referee's report
 * holds everything: sheets, events, overrides, rolls and results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"

static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? (const char *)s : "";
}

/* One sheet, canonically (and its commitment). */
static void put_sheet(struct ord_game *g, struct ord_buf *out, int xml, const char *side,
		      int version, const char *source, const unsigned char *commitment,
		      const char *bytes, size_t len)
{
	struct ord_sheet sheet;
	struct ord_diag diag;
	struct ord_buf line = ORD_BUF_INIT;
	size_t i;

	ord_sheet_init(&sheet);
	ord_diag_init(&diag);
	ord_game_parse_sheet(g, &sheet, bytes, len, &diag);
	if (xml) {
		ord_buf_adds(out, "  <sheet side=\"");
		ord_buf_add_xml(out, side);
		ord_buf_addf(out, "\" version=\"%d\" source=\"%s\" commitment=\"", version, source);
		ord_buf_add_hex(out, commitment, 32);
		ord_buf_adds(out, "\">\n");
	} else {
		ord_buf_addf(out, "sheet of %s (version %d, %s), commitment ", side, version, source);
		ord_buf_add_hex(out, commitment, 32);
		ord_buf_adds(out, ":\n");
	}
	for (i = 0; i < sheet.n; i++) {
		ord_buf_reset(&line);
		g->notation->format(&sheet.orders[i], &line);
		if (xml) {
			ord_buf_addf(out, "    <order line=\"%u\">", sheet.orders[i].line);
			ord_buf_add_xml(out, line.buf);
			ord_buf_adds(out, "</order>\n");
		} else {
			ord_buf_addf(out, "  %s\n", line.buf);
		}
	}
	if (!sheet.n && !xml)
		ord_buf_adds(out, "  (no orders)\n");
	if (xml)
		ord_buf_adds(out, "  </sheet>\n");
	ord_buf_release(&line);
	ord_sheet_release(&sheet);
	ord_diag_release(&diag);
}

static int put_sheets(struct ord_game *g, struct ord_buf *out, int xml, int turn, const char *only_side)
{
	sqlite3_stmt *st = NULL;
	int err, rc;

	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT side.name, sheet.version, sheet.source, sheet.commitment, sheet.bytes "
				     "FROM sheet JOIN side ON side.id = sheet.side_id WHERE sheet.turn = ?1 "
				     "AND sheet.version = (SELECT max(version) FROM sheet s2 WHERE s2.turn = ?1 "
				     "AND s2.side_id = sheet.side_id) AND (?2 IS NULL OR side.name = ?2) ORDER BY side.id")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	if (only_side)
		sqlite3_bind_text(st, 2, only_side, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		put_sheet(g, out, xml, col_text(st, 0), sqlite3_column_int(st, 1), col_text(st, 2),
			  sqlite3_column_blob(st, 3), sqlite3_column_blob(st, 4),
			  (size_t)sqlite3_column_bytes(st, 4));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return ord_store_error(g->db, "reading sheets");
	return 0;
}

static void put_unit(struct ord_game *g, struct ord_ctx *ctx, struct ord_buf *out, int xml,
		     const struct ord_unit *u, const char *viewer)
{
	struct ord_buf d = ORD_BUF_INIT;

	if (g->rs->describe_unit)
		g->rs->describe_unit(ctx, u, viewer, &d);
	else
		ord_kv_serialize(&u->state, &d);
	while (d.len && d.buf[d.len - 1] == '\n')
		d.buf[--d.len] = '\0';
	if (xml) {
		ord_buf_adds(out, "  <unit id=\"");
		ord_buf_add_xml(out, u->id);
		ord_buf_adds(out, "\" side=\"");
		ord_buf_add_xml(out, u->side);
		ord_buf_adds(out, "\">");
		ord_buf_add_xml(out, d.buf);
		ord_buf_adds(out, "</unit>\n");
	} else {
		ord_buf_addf(out, "  %s\n", d.buf);
	}
	ord_buf_release(&d);
}

/* Units of other sides named in events that involve one of side's units. */
static void mark_seen(struct ord_game *g, struct ord_ctx *ctx, const char *side, char *seen)
{
	size_t i, j;

	for (i = 0; i < ctx->nevents; i++) {
		const struct ord_event *e = &ctx->events[i];
		const struct ord_event_kind *ek = ord_ruleset_event_kind(g->rs, e->kind);
		const struct ord_key_spec *ks;
		int involved = 0;

		if (!ek)
			continue;
		for (ks = ek->keys; ks->name; ks++) {
			const struct ord_unit *u;
			if (ks->type != ORD_KEY_UNIT || !ord_kv_get(&e->kv, ks->name))
				continue;
			u = ord_ctx_find_unit(ctx, ord_kv_get(&e->kv, ks->name));
			if (u && !strcmp(u->side, side))
				involved = 1;
		}
		if (!involved)
			continue;
		for (ks = ek->keys; ks->name; ks++) {
			const struct ord_unit *u;
			if (ks->type != ORD_KEY_UNIT || !ord_kv_get(&e->kv, ks->name))
				continue;
			u = ord_ctx_find_unit(ctx, ord_kv_get(&e->kv, ks->name));
			if (u && strcmp(u->side, side))
				seen[ord_ctx_unit_index(ctx, u)] = 1;
		}
	}
	(void)j;
}

static int put_results(struct ord_game *g, struct ord_ctx *ctx, struct ord_buf *out, int xml,
		       int turn, const char *side)
{
	sqlite3_stmt *st = NULL;
	int err, rc, n = 0;

	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT phase, event_seq, unit, explanation, vals FROM result WHERE turn = ? ORDER BY id")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const struct ord_unit *u = ord_ctx_find_unit(ctx, col_text(st, 2));
		if (side && (!u || strcmp(u->side, side)))
			continue;
		if (!xml && !n++)
			ord_buf_adds(out, side ? "results for your units:\n" : "results:\n");
		if (xml) {
			ord_buf_addf(out, "  <result phase=\"%s\" event=\"%d\" unit=\"",
				     col_text(st, 0), sqlite3_column_int(st, 1));
			ord_buf_add_xml(out, col_text(st, 2));
			ord_buf_adds(out, "\">");
			ord_buf_add_xml(out, col_text(st, 3));
			ord_buf_adds(out, "</result>\n");
		} else {
			ord_buf_addf(out, "  [%s #%d] %s: %s\n", col_text(st, 0),
				     sqlite3_column_int(st, 1), col_text(st, 2), col_text(st, 3));
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return ord_store_error(g->db, "reading results");
	return 0;
}

static int put_referee_extras(struct ord_game *g, struct ord_ctx *ctx, struct ord_buf *out, int xml,
			      int turn)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int err, rc;

	if (!xml && ctx->nevents)
		ord_buf_adds(out, "events:\n");
	for (i = 0; i < ctx->nevents; i++) {
		const struct ord_event *e = &ctx->events[i];
		struct ord_buf a = ORD_BUF_INIT;
		size_t k;

		for (k = 0; k < e->kv.n; k++)
			ord_buf_addf(&a, " %s=%s", e->kv.items[k].key, e->kv.items[k].value);
		if (xml) {
			ord_buf_addf(out, "  <event seq=\"%u\" phase=\"%s\" kind=\"%s\"", e->seq,
				     e->phase, e->kind);
			if (e->override) {
				ord_buf_adds(out, " override=\"");
				ord_buf_add_xml(out, e->override);
				ord_buf_adds(out, "\" checks=\"");
				ord_buf_add_xml(out, e->check);
				ord_buf_adds(out, "\"");
			}
			ord_buf_adds(out, ">");
			ord_buf_add_xml(out, a.buf + (a.len ? 1 : 0));
			ord_buf_adds(out, "</event>\n");
		} else {
			ord_buf_addf(out, "  #%u %s %s%s\n", e->seq, e->phase, e->kind, a.buf);
			if (e->override)
				ord_buf_addf(out,
					     "     OVERRIDE by the referee: %s (checks said: %s)\n",
					     e->override, e->check);
		}
		ord_buf_release(&a);
	}
	if ((err = ord_store_prepare(g->db, &st,
				     "SELECT phase, event_seq, purpose, idx, sides, value, fixed FROM roll WHERE turn = ? ORDER BY id")) !=
	    0)
		return err;
	sqlite3_bind_int(st, 1, turn);
	i = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (xml) {
			ord_buf_addf(out,
				     "  <roll phase=\"%s\" event=\"%d\" purpose=\"%s\" index=\"%d\" sides=\"%d\" fixed=\"%s\">%d</roll>\n",
				     col_text(st, 0), sqlite3_column_int(st, 1), col_text(st, 2),
				     sqlite3_column_int(st, 3), sqlite3_column_int(st, 4),
				     sqlite3_column_int(st, 6) ? "yes" : "no",
				     sqlite3_column_int(st, 5));
		} else {
			if (!i++)
				ord_buf_adds(out, "rolls:\n");
			ord_buf_addf(out, "  [%s #%d] %s #%d: d%d = %d%s\n", col_text(st, 0),
				     sqlite3_column_int(st, 1), col_text(st, 2),
				     sqlite3_column_int(st, 3), sqlite3_column_int(st, 4),
				     sqlite3_column_int(st, 5),
				     sqlite3_column_int(st, 6) ? " (fixed)" : "");
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return ord_store_error(g->db, "reading rolls");
	return 0;
}

int ord_game_report(ord_game *g, const char *side, int turn, int xml, struct ord_buf *out)
{
	struct ord_turn t, cur;
	struct ord_ctx ctx;
	char *seen = NULL;
	size_t i;
	int err, revealed, loaded = 0;

	if (side && !ord_game_side_by_name(g, side)) {
		struct ord_buf l = ORD_BUF_INIT;
		ord_game_side_list(g, &l);
		err = ord_error_set(ORD_ENOTFOUND, "unknown side '%s' (expected one of %s)", side,
				    l.buf);
		ord_buf_release(&l);
		return err;
	}
	if ((err = ord_game_turn(g, &cur, 0)) != 0 || (err = ord_game_turn(g, &t, turn)) != 0)
		return err;
	revealed = !strcmp(t.state, "exchanged");
	if ((err = ord_game_load_ctx(g, &ctx, t.turn, 0, "*")) != 0)
		goto out;
	loaded = 1;
	if (xml) {
		ord_buf_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<report game=\"");
		ord_buf_add_xml(out, g->title);
		ord_buf_addf(out, "\" turn=\"%d\" state=\"%s\"", t.turn, t.state);
		if (side) {
			ord_buf_adds(out, " side=\"");
			ord_buf_add_xml(out, side);
			ord_buf_adds(out, "\"");
		}
		ord_buf_adds(out, ">\n");
	} else {
		ord_buf_addf(out, "%s: turn %d (%s), report for %s\n", g->title, t.turn, t.state,
			     side ? side : "the referee");
		if (side && !revealed)
			ord_buf_adds(out, "the other sides' sheets stay secret until the exchange\n");
	}
	/* sheets: a side sees its own; everybody's once the turn is exchanged */
	if ((err = put_sheets(g, out, xml, t.turn, side && !revealed ? side : NULL)) != 0)
		goto out;
	if (!xml)
		ord_buf_adds(out, side ? "your units:\n" : "units:\n");
	for (i = 0; i < ctx.nunits; i++)
		if (!side || !strcmp(ctx.units[i].side, side))
			put_unit(g, &ctx, out, xml, &ctx.units[i], side);
	if (side) {
		seen = ord_xcalloc(ctx.nunits + 1, 1);
		mark_seen(g, &ctx, side, seen);
		int nseen = 0;
		for (i = 0; i < ctx.nunits; i++) {
			if (!seen[i])
				continue;
			if (!xml && !nseen++)
				ord_buf_adds(out, "enemy units met this turn:\n");
			put_unit(g, &ctx, out, xml, &ctx.units[i], side);
		}
	} else if ((err = put_referee_extras(g, &ctx, out, xml, t.turn)) != 0) {
		goto out;
	}
	if ((err = put_results(g, &ctx, out, xml, t.turn, side)) != 0)
		goto out;
	if (xml)
		ord_buf_adds(out, "</report>\n");
out:
	free(seen);
	if (loaded)
		ord_ctx_release(&ctx);
	return err;
}
