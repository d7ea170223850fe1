/*
 * cmd_export.c - `orderly export GAME --turn N [-o FILE] [--key FILE]`:
 * write an exchanged turn as a bundle signed by the game's key, to FILE or
 * standard output.  Refused for a turn not yet exchanged: its nonces and
 * dice seed are still secret.  To FILE the bundle is written as it is
 * made into a file beside it, never held whole, and put in FILE once
 * verified (ord_game_export_fd); to standard output it is made in memory.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_keys.h"

int cmd_export(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf out = ORD_BUF_INIT;
	struct cli_output o;
	const char *turn_s = NULL, *output = NULL, *key = NULL;
	struct ord_keypair kp;
	ord_game *g = NULL;
	int turn = 0, rc;
	const struct cli_opt opts[] = {
		{ "turn", &turn_s, NULL },
		{ "output", &output, NULL },
		{ "key", &key, NULL },
		{ NULL, NULL, NULL },
	};

	memset(&kp, 0, sizeof(kp));
	memset(&o, 0, sizeof(o));
	o.fd = -1;
	cli_long_option(argc, argv, "-o", "--output");
	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	if (!turn_s)
		return cli_usage_error(cmd, "missing --turn N (an exchanged turn)");
	if ((rc = cli_parse_positive(cmd, "--turn", turn_s, &turn)) != 0)
		return rc;
	if (key && (rc = cli_load_key(key, &kp)) != 0)
		return rc;
	if ((rc = cli_open_game_readonly(&g, argv[1])) != 0)
		goto out;
	if (key && (rc = ord_game_use_key(g, &kp)) < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	if (cli_output_open(output, &o) == 0) {
		/* to a file: written as it is made, verified from the file,
		 * and put in place only then */
		size_t len;
		rc = ord_game_export_fd(g, turn, o.fd, output, &len);
		if (rc < 0) {
			rc = cli_fail(rc);
			goto out;
		}
		rc = cli_output_close(&o, 1);
	} else {
		rc = ord_game_export(g, turn, &out);
		if (rc < 0) {
			rc = cli_fail(rc);
			goto out;
		}
		rc = cli_write_output(output, out.buf, out.len);
	}
	{
		struct ord_game_status st;
		/* the bundle says so (dice="fixed"), and verify: the referee
		 * signs dice he chose (red-team finding 4) */
		if (rc != CLI_OK || ord_game_status(g, &st) != 0)
			ord_error_clear();
		else if (st.fixed_dice)
			cli_error("warning: '%s' is a fixed-dice game (made with 'orderly new --fixed-dice'): the bundle signed says its dice were chosen by the referee, not drawn, and verify says so",
				  argv[1]);
	}
out:
	cli_output_close(&o, 0);
	memset(&kp, 0, sizeof(kp));
	if (g)
		ord_game_free(g);
	ord_buf_release(&out);
	return rc;
}
