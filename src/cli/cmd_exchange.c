/*
 * cmd_exchange.c - `orderly exchange GAME [--key FILE] [--head FILE]`:
 * reveal the turn's sheets, nonces and dice seed to every side, and open
 * the next turn.  The game's key signs the head of the log as it stands at
 * the exchange; --head writes that signed head to FILE for every side.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_keys.h"

int cmd_exchange(const struct cli_cmd *cmd, int argc, char **argv)
{
	const char *key = NULL, *head = NULL;
	struct ord_keypair kp;
	ord_game *g = NULL;
	int rc;
	const struct cli_opt opts[] = {
		{ "key", &key, NULL },
		{ "head", &head, NULL },
		{ NULL, NULL, NULL },
	};

	memset(&kp, 0, sizeof(kp));
	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	if (key && (rc = cli_load_key(key, &kp)) != 0)
		return rc;
	if ((rc = cli_open_game(&g, argv[1])) != 0)
		goto out;
	if (key && (rc = ord_game_use_key(g, &kp)) < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	rc = ord_game_exchange(g);
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	printf("exchanged %s: sheets and dice seed revealed, next turn open\n", argv[1]);
	if (head) {
		rc = cli_write_head(g, 0, "exchange", head);
		if (rc)
			goto out;
		if (strcmp(head, "-"))
			printf("signed head: %s (hand it to every side)\n", head);
	}
	rc = CLI_OK;
out:
	memset(&kp, 0, sizeof(kp));
	if (g)
		ord_game_free(g);
	return rc;
}
