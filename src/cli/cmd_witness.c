/*
 * cmd_witness.c - witnessed dice (docs/threat-model.md, "Witnessed dice"):
 *
 *   orderly witness GAME --close [--key FILE] [--head FILE]
 *       the referee: no more events for the current phase; the head signed
 *       over them goes to every side, who then reveal their links
 *   orderly witness GAME --side SIDE --link HEX | --key FILE
 *       record a side's link for the current phase (HEX as the player's
 *       own 'orderly witness --link-for' printed it, or derived here from
 *       his key file when he is at the table)
 *   orderly witness --link-for --head FILE --side SIDE --key FILE --phase N
 *       the player, on his own machine: the link of phase N of his chain,
 *       to hand in once he holds the head of that phase's close
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_keys.h"

static int close_phase(ord_game *g, void *ud)
{
	(void)ud;
	return ord_game_close_phase(g, NULL);
}

static void print_hex(const char *what, const unsigned char *p, size_t n)
{
	struct ord_buf b = ORD_BUF_INIT;

	ord_buf_add_hex(&b, p, n);
	printf("%s: %s\n", what, b.buf);
	ord_buf_release(&b);
}

int cmd_witness(const struct cli_cmd *cmd, int argc, char **argv)
{
	const char *side = NULL, *link_s = NULL, *key = NULL, *head = NULL, *phase_s = NULL;
	struct ord_keypair kp;
	unsigned char link[32];
	ord_game *g = NULL;
	int do_close = 0, link_for = 0, phase = 0, rc;
	const struct cli_opt opts[] = {
		{ "close", NULL, &do_close }, { "side", &side, NULL },
		{ "link", &link_s, NULL },    { "key", &key, NULL },
		{ "head", &head, NULL },      { "link-for", NULL, &link_for },
		{ "phase", &phase_s, NULL },  { NULL, NULL, NULL },
	};

	memset(&kp, 0, sizeof(kp));
	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (link_for) {
		struct ord_head h;
		if (argc > 1)
			return cli_usage_error(cmd,
					       "--link-for needs no GAME: it runs on the player's machine");
		if (!head || !side || !key || !phase_s)
			return cli_usage_error(cmd,
					       "--link-for needs --head FILE (of the turn's seal or a phase's close), --side, --key and --phase N");
		if ((rc = cli_parse_positive(cmd, "--phase", phase_s, &phase)) != 0 ||
		    (rc = cli_load_head(head, &h)) != 0 || (rc = cli_load_key(key, &kp)) != 0)
			return rc;
		if (phase > 64)
			return cli_usage_error(cmd, "--phase %d: a witness chain has 64 links", phase);
		ord_witness_link(link, &kp, h.game_id, h.turn, side, phase);
		memset(&kp, 0, sizeof(kp));
		print_hex("link", link, 32);
		return CLI_OK;
	}
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	if (do_close) {
		if (side || link_s)
			return cli_usage_error(cmd, "--close is the referee's: no --side or --link");
		return cli_signed_change(argv[1], key, head, close_phase, NULL,
					 "closed the phase's events: the sides reveal their witness links now");
	}
	if (!side)
		return cli_usage_error(cmd, "missing --side SIDE (or --close)");
	if (!!link_s == !!key)
		return cli_usage_error(cmd,
				       "give the side's link: --link HEX, or --key FILE (the player's key file)");
	if (link_s && (rc = cli_hex_option(cmd, "--link", link_s, link, 32)) != 0)
		return rc;
	if ((rc = cli_open_game(&g, argv[1])) != 0)
		return rc;
	if (key) {
		struct ord_game_status st;
		unsigned char gid[16];
		if ((rc = cli_load_key(key, &kp)) != 0)
			goto out;
		if ((rc = ord_game_status(g, &st)) < 0) {
			rc = cli_fail(rc);
			goto out;
		}
		ord_game_id(g, gid);
		ord_witness_link(link, &kp, gid, st.turn, side, st.phases_resolved + 1);
	}
	rc = ord_game_witness(g, side, link);
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	printf("witness link of %s recorded\n", side);
	rc = CLI_OK;
out:
	memset(&kp, 0, sizeof(kp));
	ord_game_free(g);
	return rc;
}
