/*
 * cmd_head.c - `orderly head GAME --turn N --at open|seal|close|exchange
 * [--phase N] [-o FILE]`: write a signed head the game stored, again: for
 * a referee who forgot --head, lost the file, or must send it to a player
 * who joined late.  Without --turn, the latest head of that kind; a close
 * head of a phase other than the turn's last closed one with --phase.
 *
 * `--at receipt --side S --version V` and `--at link --side S --phase P`
 * sign again a receipt or a link head (threat model, 21 and 22), and
 * `--at sealed --side S` signs the head of the seal stating the commitment
 * it took for side S (threat model 26), which
 * the game does not store: Ed25519 signs the same entry the same way, so
 * a player who lost his gets the same file.  --turn defaults to the
 * game's current turn.  Both are signed now: a game whose key is kept
 * outside its file (`new --key`) needs --key FILE for them, as export
 * does (its stored heads need none).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_keys.h"

/* A receipt, sealed or link head signed again (version: the receipt's). */
static int write_signed_again(ord_game *g, int turn, const char *at, const char *side, int version,
			      int phase, const char *out)
{
	struct ord_buf b = ORD_BUF_INIT;
	struct ord_game_status st;
	struct ord_receipt r;
	struct ord_head h;
	int err;

	if (!turn) {
		if ((err = ord_game_status(g, &st)) != 0)
			return cli_fail(err);
		turn = st.turn;
	}
	memset(&r, 0, sizeof(r));
	r.turn = turn;
	r.version = version;
	snprintf(r.side, sizeof(r.side), "%s", side);
	if (!strcmp(at, "receipt")) {
		if ((err = ord_game_receipt_head_again(g, &h, &r)) != 0)
			return cli_fail(err);
		ord_receipt_head_format(&h, &r, &b);
	} else if (!strcmp(at, "sealed")) {
		if ((err = ord_game_sealed_head(g, &h, &r)) != 0)
			return cli_fail(err);
		ord_receipt_head_format(&h, &r, &b);
	} else {
		if ((err = ord_game_link_head(g, &h, turn, side, phase)) != 0)
			return cli_fail(err);
		ord_head_format(&h, &b);
	}
	err = cli_write_output(out, b.buf, b.len);
	ord_buf_release(&b);
	return err;
}

int cmd_head(const struct cli_cmd *cmd, int argc, char **argv)
{
	const char *turn_s = NULL, *at = NULL, *out = NULL, *phase_s = NULL, *side = NULL;
	const char *version_s = NULL, *key = NULL;
	struct ord_keypair kp;
	ord_game *g = NULL;
	int turn = 0, phase = 0, version = 0, again, rc;
	const struct cli_opt opts[] = {
		{ "turn", &turn_s, NULL }, { "phase", &phase_s, NULL },
		{ "at", &at, NULL },       { "output", &out, NULL },
		{ "side", &side, NULL },   { "version", &version_s, NULL },
		{ "key", &key, NULL },     { NULL, NULL, NULL },
	};

	cli_long_option(argc, argv, "-o", "--output");
	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	if (!at)
		return cli_usage_error(cmd,
				       "missing --at open|seal|close|exchange|receipt|sealed|link");
	if (strcmp(at, "open") && strcmp(at, "seal") && strcmp(at, "close") && strcmp(at, "exchange") &&
	    strcmp(at, "receipt") && strcmp(at, "sealed") && strcmp(at, "link"))
		return cli_usage_error(cmd,
				       "--at '%s' (expected open, seal, close, exchange, receipt, sealed or link)",
				       at);
	again = !strcmp(at, "receipt") || !strcmp(at, "sealed") || !strcmp(at, "link");
	if (turn_s && (rc = cli_parse_positive(cmd, "--turn", turn_s, &turn)) != 0)
		return rc;
	if (phase_s && strcmp(at, "close") && strcmp(at, "link"))
		return cli_usage_error(cmd,
				       "--phase is for --at close or link (a phase's close has a head each)");
	if (phase_s && (rc = cli_parse_positive(cmd, "--phase", phase_s, &phase)) != 0)
		return rc;
	if (!again && (side || version_s))
		return cli_usage_error(cmd,
				       "--side and --version are for --at receipt, sealed or link");
	if (!again && key)
		return cli_usage_error(cmd,
				       "--key is for --at receipt, sealed or link (signed now; the game's stored heads are signed already)");
	if (again && !side)
		return cli_usage_error(cmd, "--at %s needs --side SIDE", at);
	if (!strcmp(at, "receipt") && !version_s)
		return cli_usage_error(cmd, "--at receipt needs --version N (the receipt's)");
	if (!strcmp(at, "sealed") && version_s)
		return cli_usage_error(cmd,
				       "--at sealed takes no --version: it states the version the seal took");
	if (!strcmp(at, "link") && (version_s || !phase_s))
		return cli_usage_error(cmd, "--at link needs --phase N, not --version");
	if (version_s && (rc = cli_parse_positive(cmd, "--version", version_s, &version)) != 0)
		return rc;
	/* a turn after the first opens at the exchange before it, whose head
	 * signs its opening: the mail judge sends it as open-N.head */
	if (!strcmp(at, "open") && turn > 1)
		return cli_usage_error(cmd,
				       "--at open --turn %d: only the game's opening has a head of its own; turn %d's opening is signed by the head of turn %d's exchange (the mail's open-%d.head): give --at exchange --turn %d",
				       turn, turn, turn - 1, turn, turn - 1);
	memset(&kp, 0, sizeof(kp));
	if (key && (rc = cli_load_key(key, &kp)) != 0)
		return rc;
	if ((rc = cli_open_game_readonly(&g, argv[1])) != 0) {
		memset(&kp, 0, sizeof(kp));
		return rc;
	}
	if (key && (rc = ord_game_use_key(g, &kp)) < 0) {
		memset(&kp, 0, sizeof(kp));
		ord_game_free(g);
		return cli_fail(rc);
	}
	memset(&kp, 0, sizeof(kp));
	if (again) {
		rc = write_signed_again(g, turn, at, side, version, phase, out);
		if (!rc && out && strcmp(out, "-"))
			printf("signed head: %s (hand it to %s alone)\n", out, side);
	} else {
		rc = cli_write_head(g, turn, at, phase, out);
		if (!rc && out && strcmp(out, "-"))
			printf("signed head: %s (hand it to every side)\n", out);
	}
	ord_game_free(g);
	return rc;
}
