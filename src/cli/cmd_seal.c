/*
 * cmd_seal.c - `orderly seal GAME [--force] [--key FILE] [--head FILE]`:
 * close the orders of the turn.  Without --force the library seals only
 * when every side has submitted (or committed) or the deadline has passed;
 * --force is the referee sealing early.  The game's key signs the head of
 * the log; --head writes that signed head to FILE, to hand to every side.
 * --key gives the game's key when the referee keeps it outside the file.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_keys.h"

int cmd_seal(const struct cli_cmd *cmd, int argc, char **argv)
{
	const char *key = NULL, *head = NULL;
	struct ord_keypair kp;
	ord_game *g = NULL;
	int force = 0, rc;
	const struct cli_opt opts[] = {
		{ "force", NULL, &force },
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
	rc = ord_game_seal(g, force);
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	printf("sealed %s%s\n", argv[1], force ? " (forced by the referee)" : "");
	if (head) {
		if ((rc = cli_write_head(g, 0, "seal", head)) != 0)
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
