/*
 * cmd_exchange.c - `orderly exchange GAME [--key FILE] [--head FILE]`:
 * reveal the turn's sheets, nonces and dice seed to every side, and open
 * the next turn.  The game's key signs the head of the log as it stands
 * after the next turn's opening, so the head every side is handed also
 * fixes the next turn's seed; --head writes it to FILE (before the
 * exchange commits: a head that cannot be written changes nothing).
 */
#include <stdio.h>

#include "cli/cli_keys.h"

static int exchange(ord_game *g, void *ud)
{
	(void)ud;
	return ord_game_exchange(g);
}

int cmd_exchange(const struct cli_cmd *cmd, int argc, char **argv)
{
	const char *key = NULL, *head = NULL;
	struct ord_buf done = ORD_BUF_INIT;
	int rc;
	const struct cli_opt opts[] = {
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
	ord_buf_addf(&done, "exchanged %s: sheets and dice seed revealed, next turn open", argv[1]);
	rc = cli_signed_change(argv[1], key, head, exchange, NULL, done.buf);
	ord_buf_release(&done);
	return rc;
}
