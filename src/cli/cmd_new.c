/*
 * cmd_new.c - `orderly new GAME --scenario FILE.xml [--ruleset NAME]
 * [--tables FILE] [--fixed-dice] [--no-referee] [--witnessed] [--key FILE]
 * [--head FILE]`: create a game file from a scenario and say what it holds:
 * "created GAME: RULESET, N sides, M units"; on standard error, the game's
 * public key, which every player should keep to check what the game signs,
 * and a warning for each thing the ruleset says it will not do with the
 * game as made (create_notes: a Krigsspil scenario placed with no map).
 * --key FILE signs with the referee's own key (from `orderly keygen`), kept
 * out of the game file.  --head FILE writes the signed head of the game's
 * opening, which carries turn 1's seed commitment: hand it to every side
 * with the key, before anybody writes a sheet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_keys.h"

int cmd_new(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_create_opts co;
	struct ord_buf report = ORD_BUF_INIT, notes = ORD_BUF_INIT;
	struct ord_game_status st;
	const char *scenario = NULL, *ruleset = NULL, *tables = NULL, *key = NULL;
	ord_game *g = NULL;
	struct ord_keypair kp;
	unsigned char pk[32];
	struct cli_head_out ho;
	const char *head = NULL;
	int fixed_dice = 0, no_referee = 0, witnessed = 0, rc, frc;
	const struct cli_opt opts[] = {
		{ "scenario", &scenario, NULL },
		{ "ruleset", &ruleset, NULL },
		{ "tables", &tables, NULL },
		{ "fixed-dice", NULL, &fixed_dice },
		{ "no-referee", NULL, &no_referee },
		{ "witnessed", NULL, &witnessed },
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
	if (!scenario)
		return cli_usage_error(cmd, "missing --scenario FILE.xml");
	memset(&co, 0, sizeof(co)); /* fields appended later default to zero */
	co.ruleset = ruleset;
	co.tables_path = tables;
	co.fixed_dice = fixed_dice;
	co.refereeless = no_referee;
	co.witnessed = witnessed;
	cli_head_out_init(&ho, head);
	co.hook = cli_head_hook;
	co.hook_ud = &ho;
	co.notes = &notes;
	memset(&kp, 0, sizeof(kp));
	if (key) {
		if ((rc = cli_load_key(key, &kp)) != 0)
			return rc;
		co.key = &kp;
	}
	cli_protect_file(argv[1], 1);
	rc = ord_game_create(&g, argv[1], scenario, &co);
	memset(&kp, 0, sizeof(kp));
	if (rc < 0) {
		rc = cli_fail(rc);
		cli_head_out_finish(&ho, 0, argv[1]);
		goto out;
	}
	rc = ord_game_status(g, &st);
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	/* the contract's wording, plural even for one: tests read this line */
	printf("created %s: %s, %zu sides, %zu units\n", argv[1], st.ruleset, st.nsides, st.nunits);
	/* stdout keeps its one contract line; the key is a note to the
	 * referee, who passes it on (info shows it again) */
	if (ord_game_pubkey(g, pk) == 0) {
		ord_buf_reset(&report);
		ord_buf_add_hex(&report, pk, sizeof(pk));
		cli_error("the game's public key is %s: give it to every player (orderly info shows it)",
			  report.buf);
	}
	/* what the rules will not do with the game as made (a map not given) */
	if (notes.len) {
		char *line, *save = NULL;
		for (line = strtok_r(notes.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			cli_error("warning: %s", line);
	}
	if (no_referee)
		cli_error("no referee: each side hands in a signed commitment, then opens it after the seal");
	if (witnessed)
		cli_error("witnessed dice: each side sends its witness chain with its sheet and reveals a link per phase ('orderly witness')");
	frc = cli_head_out_finish(&ho, 1, argv[1]);
	rc = frc ? frc : CLI_OK;
out:
	if (g)
		ord_game_free(g);
	ord_buf_release(&report);
	ord_buf_release(&notes);
	return rc;
}
