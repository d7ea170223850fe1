/*
 * fog.c - the fog of war (fog.h): which events and which units of the
 * other sides a side sees.  The reports and the pictures both ask here.
 */
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

void ord_fog_units_seen(const struct ord_ruleset *rs, struct ord_ctx *ctx, const char *side, char *seen)
{
	size_t i;

	for (i = 0; i < ctx->nevents; i++) {
		const struct ord_event *e = &ctx->events[i];
		const struct ord_event_kind *ek;
		const struct ord_key_spec *ks;

		if (!ord_fog_event_seen(rs, ctx, e, side))
			continue;
		ek = ord_ruleset_event_kind(rs, e->kind);
		for (ks = ek->keys; ks->name; ks++) {
			const struct ord_unit *u;
			if (ks->type != ORD_KEY_UNIT || !ord_kv_get(&e->kv, ks->name))
				continue;
			u = ord_ctx_find_unit(ctx, ord_kv_get(&e->kv, ks->name));
			if (u && strcmp(u->side, side))
				seen[ord_ctx_unit_index(ctx, u)] = 1;
		}
	}
}
