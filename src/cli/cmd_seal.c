/*
 * cmd_seal.c - `orderly seal GAME [--force] [--key FILE] [--head FILE]`:
 * close the orders of the turn.  Without --force the library seals only
 * when every side has submitted (or committed) or the deadline has passed;
 * --force is the referee sealing early.  The game's key signs the head of
 * the log; --head writes that signed head to FILE, to hand to every side
 * (written before the seal commits: a head that cannot be written changes
 * nothing).  --key gives the game's key when the referee keeps it outside
 * the file.  The sides the NMR policy stood in for are named, and why one
 * holds when the policy repeats (no sheet, or the first problem of it).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_keys.h"

static int seal(ord_game *g, void *ud)
{
	return ord_game_seal(g, *(int *)ud);
}

int cmd_seal(const struct cli_cmd *cmd, int argc, char **argv)
{
	const char *key = NULL, *head = NULL;
	struct ord_buf done = ORD_BUF_INIT;
	int force = 0, rc;
	const struct cli_opt opts[] = {
		{ "force", NULL, &force },
		{ "key", &key, NULL },
		{ "head", &head, NULL },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	ord_buf_addf(&done, "sealed %s%s", argv[1], force ? " (forced by the referee)" : "");
	rc = cli_signed_change(argv[1], key, head, seal, &force, done.buf);
	ord_buf_release(&done);
	return rc;
}
