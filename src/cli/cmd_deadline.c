/*
 * cmd_deadline.c - `orderly deadline GAME WHEN|none [--past]`: set or clear the
 * deadline of the current turn.  WHEN takes every form of a time orderly
 * reads (src/core/when.c): 2026-12-01T18:00:00Z, 2026-12-01T18:00+01:00,
 * 2026-12-01T18:00 Europe/Copenhagen, or from now: +90m, +48h, +2d.  A time
 * already past is refused (yesterday's date typed by mistake made the turn
 * late at once, and told every side by mail), unless --past says it is
 * meant: then it is taken with a warning (the turn may then be sealed).
 * The next turns' deadlines follow from the game's schedule (`orderly
 * schedule`).
 *
 * WHEN is the deadline the players are told (docs/pbem.md); the schedule's
 * grace follows it, as it follows a deadline the schedule sets: the core
 * keeps the end of the grace, until which sheets are taken (schedule.c S3).
 *
 * Every side told of the turn by mail is mailed the change, queued in the
 * change's transaction (the hook) and sent by the next tick, as the mail
 * judge's DEADLINE does: the game keeps no history of its deadlines a
 * tick could compare, so the change is mailed where it is made.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "mail/mail.h"

/* What the change did: the deadline the game keeps (the grace's end) and
 * the sides mailed. */
struct told {
	int64_t stored;
	size_t sides;
};

/* The change mailed, in its transaction. */
static int deadline_hook(void *ud, ord_game *g, const struct ord_change *c)
{
	struct told *t = ud;

	if (c->kind != ORD_CHANGE_DEADLINE)
		return 0;
	t->stored = c->deadline;
	return mail_deadline_change(g, c, &t->sides);
}

int cmd_deadline(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf stamp = ORD_BUF_INIT;
	struct told told = { 0, 0 };
	ord_game *g = NULL;
	int64_t when = 0, now, grace = 0;
	int rc, past = 0;
	const struct cli_opt opts[] = {
		{ "past", NULL, &past },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc < 3)
		return cli_usage_error(cmd, "missing WHEN (or none)");
	if (argc > 3)
		return cli_usage_error(cmd,
				       "unexpected argument '%s' (a time with a zone name is one argument: quote it)",
				       argv[3]);
	/* "bad time 'X' (expected ...)" reads better here as a bad deadline */
	if (strcmp(argv[2], "none") && ord_when_parse_as(&when, argv[2], 0, "deadline") != 0)
		return cli_usage_error(cmd, "%s", ord_error_last());
	if ((rc = cli_open_game(&g, argv[1])) != 0)
		goto out;
	now = ord_game_now(g);
	if (strcmp(argv[2], "none")) {
		ord_when_parse(&when, argv[2], now);
		if (when <= now && !past) {
			struct ord_buf at = ORD_BUF_INIT;
			ord_when_format(&stamp, when, NULL);
			ord_when_format(&at, now, NULL);
			rc = cli_usage_error(cmd,
					     "the deadline %s is not after now (%s): nothing set (give --past to close the turn's orders at a time already past)",
					     stamp.buf, at.buf);
			ord_buf_release(&at);
			goto out;
		}
	}
	ord_game_set_hook(g, deadline_hook, &told);
	mail_init(); /* the mails are composed with GMime */
	rc = ord_game_set_told_deadline(g, when);
	mail_shutdown();
	ord_game_set_hook(g, NULL, NULL);
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	/* the grace the change added, read from the change itself (the
	 * schedule read again could be another's by now) */
	grace = when ? told.stored - when : 0;
	if (when) {
		ord_when_format(&stamp, when, NULL);
		printf("deadline: %s\n", stamp.buf);
		if (grace) {
			ord_buf_reset(&stamp);
			ord_when_format(&stamp, when + grace, NULL);
			printf("sheets taken until: %s (the schedule's grace)\n", stamp.buf);
		}
		if (when + grace <= now)
			cli_error("note: this deadline has passed already: no more sheets are taken, and 'orderly seal' seals the turn without --force");
		else if (when <= now)
			cli_error("note: this deadline has passed already: sheets are taken until the grace ends");
	} else {
		printf("deadline cleared\n");
	}
	if (told.sides)
		cli_error("note: %zu side%s told of the turn by mail %s mailed the change at the next tick",
			  told.sides, told.sides == 1 ? "" : "s", told.sides == 1 ? "is" : "are");
	rc = CLI_OK;
out:
	if (g)
		ord_game_free(g);
	ord_buf_release(&stamp);
	return rc;
}
