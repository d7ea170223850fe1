/*
 * cmd_audit.c - `orderly audit GAME [--turn N] [--head FILE]...`:
 * recompute the event chain, every commitment, signature and roll, print
 * the findings, and exit 1 when anything is broken (0 when the game is
 * clean).  Each --head is a signed head a player kept from a seal or an
 * exchange: audit also checks that the history up to it was not rewritten,
 * which the chain alone cannot show when the whole chain was recomputed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli_keys.h"

int cmd_audit(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf out = ORD_BUF_INIT;
	const char *turn_s = NULL;
	const char **head_paths = NULL;
	struct ord_head *heads = NULL;
	size_t nheads = 0, i;
	ord_game *g = NULL;
	int turn = 0, rc;
	const struct cli_opt opts[] = {
		{ "turn", &turn_s, NULL },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_take_repeated(cmd, &argc, argv, "head", &head_paths, &nheads)) != 0)
		goto out;
	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		goto out;
	if (argc < 2) {
		rc = cli_usage_error(cmd, "missing GAME");
		goto out;
	}
	if (argc > 2) {
		rc = cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
		goto out;
	}
	if ((rc = cli_parse_positive(cmd, "--turn", turn_s, &turn)) != 0)
		goto out;
	heads = calloc(nheads + 1, sizeof(*heads));
	if (!heads)
		abort();
	for (i = 0; i < nheads; i++)
		if ((rc = cli_load_head(head_paths[i], &heads[i])) != 0)
			goto out;
	if ((rc = cli_open_game_readonly(&g, argv[1])) != 0)
		goto out;
	rc = ord_game_audit_heads(g, turn, heads, nheads, &out);
	if (rc == 0 || rc == ORD_ETAMPERED)
		cli_print_buf(&out);
	if (rc < 0) {
		/* the findings are on stdout; stderr says only that there were some */
		rc = cli_fail(rc);
		goto out;
	}
	rc = CLI_OK;
out:
	if (g)
		ord_game_free(g);
	for (i = 0; i < nheads; i++)
		free((char *)head_paths[i]);
	free(head_paths);
	free(heads);
	ord_buf_release(&out);
	return rc;
}
