/*
 * cmd_schedule.c - `orderly schedule GAME [RULE...|none]`: show or set the
 * game's deadline rule, e.g. `every 48h at 18:00 in Europe/Copenhagen grace
 * 1h remind 24h,2h autoseal on`.  The next turn's deadline follows from it
 * (src/core/schedule.c); the open turn keeps its own (`orderly deadline`).
 * Logged in the game's hash chain.
 *
 * A grace changed moves the end of the open turn's grace (its deadline
 * stays): every side told of the turn by mail is mailed that, shortened
 * or lengthened, queued in the change's transaction (the hook) and sent
 * by the next tick, as `orderly deadline` mails a deadline changed.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "mail/mail.h"

/* The grace's change mailed, in its transaction: *ud the sides mailed. */
static int schedule_hook(void *ud, ord_game *g, const struct ord_change *c)
{
	size_t *told = ud, n = 0;
	int err;

	if (c->kind != ORD_CHANGE_DEADLINE)
		return 0;
	err = mail_deadline_change(g, c, &n);
	*told += n;
	return err;
}

int cmd_schedule(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf text = ORD_BUF_INIT, out = ORD_BUF_INIT;
	struct ord_schedule s;
	struct ord_game_status ti;
	ord_game *g = NULL;
	size_t told = 0;
	int rc, i;

	if ((rc = cli_options(cmd, &argc, argv, NULL)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	for (i = 2; i < argc; i++)
		ord_buf_addf(&text, "%s%s", i > 2 ? " " : "", argv[i]);
	if (argc > 2 && ord_schedule_parse(&s, text.buf) != 0) {
		rc = cli_usage_error(cmd, "%s", ord_error_last());
		goto out;
	}
	if ((rc = cli_open_game(&g, argv[1])) != 0)
		goto out;
	if (argc > 2) {
		ord_game_set_hook(g, schedule_hook, &told);
		mail_init(); /* the mails are composed with GMime */
		rc = ord_game_set_schedule(g, &s);
		mail_shutdown();
		ord_game_set_hook(g, NULL, NULL);
		if (rc != 0) {
			rc = cli_fail(rc);
			goto out;
		}
	}
	if ((rc = ord_game_schedule(g, &s)) != 0 || (rc = ord_game_status(g, &ti)) != 0) {
		rc = cli_fail(rc);
		goto out;
	}
	ord_schedule_format(&s, &out);
	printf("schedule: %s\n", out.buf);
	if (s.every) {
		int64_t next = 0;
		ord_buf_reset(&out);
		if (ti.deadline) {
			/* the core keeps the end of the grace (schedule.c S3) */
			ord_when_format(&out, ti.deadline - s.grace, s.zone);
			printf("turn %d:   deadline %s", ti.turn, out.buf);
			ord_buf_reset(&out);
			ord_when_format(&out, ti.deadline, s.zone);
			if (s.grace)
				printf(", sheets taken until %s (grace)\n", out.buf);
			else
				printf(" (sheets taken until then)\n");
		} else {
			printf("turn %d:   no deadline (set one with 'orderly deadline'; the next turn gets one from the schedule)\n",
			       ti.turn);
		}
		if (ti.deadline &&
		    ord_schedule_next(&s, ti.deadline - s.grace, ord_game_now(g), &next) == 0 && next) {
			ord_buf_reset(&out);
			ord_when_format(&out, next, s.zone);
			printf("next turn: deadline about %s if it opens now\n", out.buf);
		}
	}
	if (told)
		cli_error("note: the grace of turn %d changed: %zu side%s told of the turn by mail %s mailed the change at the next tick",
			  ti.turn, told, told == 1 ? "" : "s", told == 1 ? "is" : "are");
	rc = CLI_OK;
out:
	if (g)
		ord_game_free(g);
	ord_buf_release(&text);
	ord_buf_release(&out);
	return rc;
}
