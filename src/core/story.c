/*
 * story.c - the steps of a game a picture draws (ruleset.h,
 * ord_ctx_nsteps): for each step (a turn's start, or the end of one of its
 * phases) the state of each unit the viewer saw then.  picture.c fills
 * it, after the fog of war has chosen the units; a state shared by several
 * steps is kept once.
 */
#include <stdlib.h>
#include <string.h>

#include "core/ctx.h"

struct ord_ctx_story {
	size_t nsteps, salloc;
	int *turn;
	char **phase;
	const struct ord_kv **state; /* nsteps x nunits, row by row; NULL: not seen */
	size_t nunits;
	struct ord_kv **kept; /* the lists the steps point to */
	size_t nkept, kalloc;
};

void ord_ctx_story_free(struct ord_ctx_story *st)
{
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nsteps; i++)
		free(st->phase[i]);
	for (i = 0; i < st->nkept; i++) {
		ord_kv_release(st->kept[i]);
		free(st->kept[i]);
	}
	free(st->kept);
	free(st->turn);
	free(st->phase);
	free(st->state);
	free(st);
}

size_t ord_ctx_story_step(struct ord_ctx *ctx, int turn, const char *phase)
{
	struct ord_ctx_story *st = ctx->story;

	if (!st) {
		st = ctx->story = ord_xcalloc(1, sizeof(*st));
		st->nunits = ctx->nunits;
	}
	if (st->nsteps == st->salloc) {
		st->salloc = st->salloc ? 2 * st->salloc : 16;
		st->turn = ord_xrealloc(st->turn, st->salloc * sizeof(*st->turn));
		st->phase = ord_xrealloc(st->phase, st->salloc * sizeof(*st->phase));
		st->state = ord_xrealloc(st->state, st->salloc * (st->nunits + 1) * sizeof(*st->state));
	}
	st->turn[st->nsteps] = turn;
	st->phase[st->nsteps] = ord_strdup(phase ? phase : "");
	memset(&st->state[st->nsteps * st->nunits], 0, st->nunits * sizeof(*st->state));
	return st->nsteps++;
}

struct ord_kv *ord_ctx_story_keep(struct ord_ctx *ctx, const char *state)
{
	struct ord_ctx_story *st = ctx->story;
	struct ord_kv *kv = ord_xmalloc(sizeof(*kv));

	if (!st) {
		st = ctx->story = ord_xcalloc(1, sizeof(*st));
		st->nunits = ctx->nunits;
	}
	ord_kv_init(kv);
	if (state)
		ord_kv_parse(kv, state);
	if (st->nkept == st->kalloc) {
		st->kalloc = st->kalloc ? 2 * st->kalloc : 64;
		st->kept = ord_xrealloc(st->kept, st->kalloc * sizeof(*st->kept));
	}
	st->kept[st->nkept++] = kv;
	return kv;
}

void ord_ctx_story_set(struct ord_ctx *ctx, size_t s, size_t i, const struct ord_kv *kv)
{
	struct ord_ctx_story *st = ctx->story;

	if (st && s < st->nsteps && i < st->nunits)
		st->state[s * st->nunits + i] = kv;
}

size_t ord_ctx_nsteps(struct ord_ctx *ctx)
{
	return ctx->story ? ctx->story->nsteps : 0;
}

int ord_ctx_step(struct ord_ctx *ctx, size_t i, int *turn, const char **phase)
{
	if (i >= ord_ctx_nsteps(ctx))
		return ord_error_set(ORD_ENOTFOUND, "no step %zu (there are %zu)", i,
				     ord_ctx_nsteps(ctx));
	if (turn)
		*turn = ctx->story->turn[i];
	if (phase)
		*phase = ctx->story->phase[i];
	return 0;
}

const struct ord_kv *ord_ctx_step_state(struct ord_ctx *ctx, size_t i, const struct ord_unit *u)
{
	struct ord_ctx_story *st = ctx->story;
	size_t k = ord_ctx_unit_index(ctx, u);

	if (!st || i >= st->nsteps || k >= st->nunits)
		return NULL;
	return st->state[i * st->nunits + k];
}
