/*
 * fog.c - the fog of war (fog.h): which events and which units of the
 * other sides a side sees.  The reports and the pictures both ask here.
 */
#include <stdlib.h>
#include <string.h>

#include "core/fog.h"

int ord_fog_event_seen(const struct ord_ruleset *rs, struct ord_ctx *ctx, const struct ord_event *e,
		       const char *side)
{
	const struct ord_event_kind *ek = ord_ruleset_event_kind(rs, e->kind);
	const struct ord_key_spec *ks;

	if (!ek)
		return 0;
	for (ks = ek->keys; ks->name; ks++) {
		const struct ord_unit *u;
		if (ks->type != ORD_KEY_UNIT || !ord_kv_get(&e->kv, ks->name))
			continue;
		u = ord_ctx_find_unit(ctx, ord_kv_get(&e->kv, ks->name));
		if (u && !strcmp(u->side, side))
			return 1;
	}
	return 0;
}

int ord_fog_phase_index(const struct ord_ruleset *rs, const char *phase)
{
	size_t i;

	for (i = 0; phase && rs->phases[i]; i++)
		if (!strcmp(rs->phases[i], phase))
			return (int)i + 1;
	return 0;
}

void ord_fog_units_met(const struct ord_ruleset *rs, struct ord_ctx *ctx, const char *side,
		       int upto, int *met)
{
	size_t i;

	memset(met, 0, ctx->nunits * sizeof(*met));
	ord_ctx_events_compact(ctx);
	for (i = 0; i < ctx->nevents; i++) {
		const struct ord_event *e = &ctx->events[i];
		const struct ord_event_kind *ek;
		const struct ord_key_spec *ks;
		int p = ord_fog_phase_index(rs, e->phase);

		/* an event of a phase not resolved (or not drawn) has met
		 * nobody yet (fog.h) */
		if (!p || p > upto || !ord_fog_event_seen(rs, ctx, e, side))
			continue;
		ek = ord_ruleset_event_kind(rs, e->kind);
		for (ks = ek->keys; ks->name; ks++) {
			const struct ord_unit *u;
			size_t k;
			if (ks->type != ORD_KEY_UNIT || !ord_kv_get(&e->kv, ks->name))
				continue;
			u = ord_ctx_find_unit(ctx, ord_kv_get(&e->kv, ks->name));
			if (!u || !strcmp(u->side, side))
				continue;
			k = ord_ctx_unit_index(ctx, u);
			if (!met[k] || met[k] > p)
				met[k] = p;
		}
	}
}

int ord_fog_result_seen(const struct ord_ruleset *rs, struct ord_ctx *ctx, const char *unit,
			unsigned event_seq, const char *side)
{
	const struct ord_unit *u = ord_ctx_find_unit(ctx, unit);
	const struct ord_event *e;

	const struct ord_event_kind *ek;
	const struct ord_key_spec *ks;

	if (u && !strcmp(u->side, side))
		return 1;
	/* what its own units did: the result of an event whose actor (its
	 * first unit key: the unit that fired, attacked, moved) is one of
	 * them; not what an enemy that acted on it kept (its ammunition) */
	e = event_seq ? ord_ctx_event_by_seq(ctx, event_seq) : NULL;
	ek = e ? ord_ruleset_event_kind(rs, e->kind) : NULL;
	for (ks = ek ? ek->keys : NULL; ks && ks->name; ks++) {
		const char *v = ord_kv_get(&e->kv, ks->name);
		const struct ord_unit *actor;
		if (ks->type != ORD_KEY_UNIT || !v)
			continue;
		actor = ord_ctx_find_unit(ctx, v);
		return actor && !strcmp(actor->side, side);
	}
	return 0;
}

void ord_fog_result_shown(const struct ord_ruleset *rs, struct ord_ctx *ctx, const char *phase,
			  unsigned event_seq, const char *unit, const char *values,
			  const char *side, struct ord_buf *text)
{
	struct ord_result_view r;
	struct ord_buf out = ORD_BUF_INIT;
	struct ord_kv kv;

	if (!side || !ORD_RULESET_HAS(rs, 7) || !rs->show_result)
		return;
	ord_kv_init(&kv);
	if (ord_kv_parse(&kv, values ? values : ""))
		ord_error_clear(); /* a stored result's values are the core's own */
	r.phase = phase;
	r.event_seq = event_seq;
	r.unit = unit;
	r.values = &kv;
	r.explanation = text->buf ? text->buf : "";
	rs->show_result(ctx, &r, side, &out);
	if (out.len) {
		ord_buf_reset(text);
		ord_buf_add(text, out.buf, out.len);
	}
	ord_buf_release(&out);
	ord_kv_release(&kv);
}

unsigned *ord_fog_event_numbers(const struct ord_ruleset *rs, struct ord_ctx *ctx,
				const struct ord_record *r, const char *side, int upto, size_t *n,
				signed char *results_seen)
{
	unsigned *num, most = 0, next = 0, s;
	size_t i;

	ord_ctx_events_compact(ctx);
	for (i = 0; i < ctx->nevents; i++)
		if (ctx->events[i].seq > most)
			most = ctx->events[i].seq;
	for (i = 0; i < r->results.n; i++)
		if (r->results.v[i].event > 0 && (unsigned)r->results.v[i].event > most)
			most = (unsigned)r->results.v[i].event;
	num = ord_xcalloc((size_t)most + 1, sizeof(*num));
	for (i = 0; i < ctx->nevents; i++) {
		const struct ord_event *e = &ctx->events[i];
		if (ord_fog_phase_index(rs, e->phase) <= upto &&
		    (!side || ord_fog_event_seen(rs, ctx, e, side)))
			num[e->seq] = 1;
	}
	for (i = 0; i < r->results.n; i++) {
		const struct ord_rec_result *res = &r->results.v[i];
		int seen = -1;
		if (res->event > 0 && ord_fog_phase_index(rs, res->phase) <= upto) {
			seen = !side ||
			       ord_fog_result_seen(rs, ctx, res->unit, (unsigned)res->event, side);
			if (seen)
				num[res->event] = 1;
		}
		if (results_seen)
			results_seen[i] = (signed char)seen;
	}
	for (s = 1; s <= most; s++)
		if (num[s])
			num[s] = side ? ++next : s;
	*n = (size_t)most + 1;
	return num;
}
