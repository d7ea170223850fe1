/*
 * report.c - a battalion unit as a side sees it in its turn report: its
 * own units in full, the enemy's as they stand on the table (trays,
 * formation, morale), the referee everything.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/battalion/bat.h"

/* ---- reports ---- */

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

int bat_describe_unit(struct ord_ctx *ctx, const struct ord_unit *u, const char *viewer,
		      struct ord_buf *out)
{
	long fpt = bat_ip(ctx, "figures_per_tray");
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
	} else if (!bat_is_arm(ctx, u, "infantry")) {
		/* a squadron's or a gun's figures stand apart on the table */
		ord_buf_addf(out, "%ld figure%s, %s, morale ", fig, fig == 1 ? "" : "s",
			     bat_formation(ctx, u));
		morale_words(ctx, u, out);
		if (bat_st(ctx, u, "silenced"))
			ord_buf_adds(out, ", silenced");
	} else {
		/* what the enemy sees on the table: trays and formation, not figures */
		long trays = fpt > 0 ? (fig + fpt - 1) / fpt : fig;
		ord_buf_addf(out, "about %ld tray%s, %s, morale ", trays, trays == 1 ? "" : "s",
			     bat_formation(ctx, u));
		morale_words(ctx, u, out);
		if (bat_st(ctx, u, "silenced"))
			ord_buf_adds(out, ", silenced");
	}
	if (bat_melee_with(ctx, u))
		ord_buf_addf(out, ", in melee with %s", bat_melee_with(ctx, u));
	return 0;
}
