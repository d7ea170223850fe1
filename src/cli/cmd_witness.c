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
 *   orderly witness --link-for --head FILE --pubkey KEY --side SIDE --key FILE
 *                   --nonce HEX --phase N [--turn N] [--game-id ID] [--opening FILE]
 *       the player, on his own machine: the link of phase N of the chain
 *       of his sheet (its nonce, as 'orderly sign --witness' printed it;
 *       "none" for a sheet signed by an orderly before chains were of
 *       their sheet's nonce), given only against the signed head of phase
 *       N's close (its turn and game are the link's), under the game's
 *       key; with the head of the turn's opening he kept, only a close
 *       signed after it
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_keys.h"

#define WITNESS_LINKS 64 /* the links of a chain (ORD_WITNESS_LINKS in core/crypto.h) */

static int close_phase(ord_game *g, void *ud)
{
	(void)ud;
	return ord_game_close_phase(g, NULL);
}

/*
 * The link is a function of the player's secret, his sheet's nonce, the
 * game, the turn, the side and the phase only: whatever head he names, it
 * is the same link.
 * So the head is what tells him it is time: a close head that states
 * phase N, of the game and turn asked for, signed by the game's key.  With
 * a head of any other kind, phase or key, the referee could have the link
 * before the phase's events are fixed, and choose them knowing its dice.
 */
static int check_close_head(const struct cli_cmd *cmd, const char *path, const struct ord_head *h,
			    const char *pub_s, int phase, const char *turn_s, const char *gid_s)
{
	struct ord_buf have = ORD_BUF_INIT, want = ORD_BUF_INIT;
	unsigned char pk[32], gid[16];
	int rc, turn;

	if ((rc = ord_pubkey_parse(pk, pub_s)) < 0)
		return rc == ORD_ENOTFOUND ? cli_usage_error(cmd, "%s", ord_error_last())
					   : cli_fail(rc);
	if (strcmp(h->at, "close")) {
		cli_error("'%s' is a head at '%s', not at a phase's close: a link is revealed only against the signed head of its phase's close",
			  path, h->at);
		return CLI_DATAERR;
	}
	if (memcmp(pk, h->key, 32)) {
		ord_buf_add_hex(&have, h->key, 32);
		cli_error("'%s' is signed by key %s, not by the game's key you gave: do not reveal a link for it",
			  path, have.buf);
		ord_buf_release(&have);
		return CLI_DATAERR;
	}
	if (ord_head_check(h)) {
		cli_error("'%s': its signature does not hold (altered or forged): do not reveal a link for it",
			  path);
		return CLI_DATAERR;
	}
	if (!h->phase) {
		cli_error("'%s' states no phase (a close head of an earlier orderly): it cannot show that phase %d's events are closed",
			  path, phase);
		return CLI_DATAERR;
	}
	if (h->phase != phase) {
		cli_error("'%s' is the head of phase %d's close, not of phase %d's: the link of phase %d is revealed only once phase %d's events are closed",
			  path, h->phase, phase, phase, phase);
		return CLI_DATAERR;
	}
	if (turn_s) {
		if ((rc = cli_parse_positive(cmd, "--turn", turn_s, &turn)) != 0)
			return rc;
		if (h->turn != turn) {
			cli_error("'%s' is a head of turn %d, not of turn %d", path, h->turn, turn);
			return CLI_DATAERR;
		}
	}
	if (gid_s) {
		if ((rc = cli_hex_option(cmd, "--game-id", gid_s, gid, sizeof(gid))) != 0)
			return rc;
		if (memcmp(gid, h->game_id, 16)) {
			ord_buf_add_hex(&have, h->game_id, 16);
			ord_buf_add_hex(&want, gid, 16);
			cli_error("'%s' is a head of game %s, not of game %s", path, have.buf,
				  want.buf);
			ord_buf_release(&have);
			ord_buf_release(&want);
			return CLI_DATAERR;
		}
	}
	return 0;
}

/*
 * The close head signs an entry after the opening of the turn it names, as
 * the head of that opening the player kept shows (the game's opening head
 * for turn 1, the previous turn's exchange head after): a close head dated
 * into a later turn over an earlier close of the same phase (a second
 * red-team finding) signs an entry before it.
 */
static int check_after_opening(const char *path, const struct ord_head *h, const char *open_path)
{
	struct ord_head o;
	int rc, opens;

	if ((rc = cli_load_head(open_path, &o)) != 0)
		return rc;
	opens = !strcmp(o.at, "open") ? 1 : !strcmp(o.at, "exchange") ? o.turn + 1 : 0;
	if (!opens) {
		cli_error("'%s' is a head at '%s', not of a turn's opening (the game's opening head, or the exchange head before the turn)",
			  open_path, o.at);
		return CLI_DATAERR;
	}
	if (memcmp(o.key, h->key, 32) || memcmp(o.game_id, h->game_id, 16) || ord_head_check(&o)) {
		cli_error("'%s' is not a head of this game signed by its key", open_path);
		return CLI_DATAERR;
	}
	if (opens != h->turn) {
		cli_error("'%s' signs the opening of turn %d, but '%s' says it is of turn %d: give the head of turn %d's opening",
			  open_path, opens, path, h->turn, h->turn);
		return CLI_DATAERR;
	}
	if (h->seq <= o.seq) {
		cli_error("'%s' says it closes a phase of turn %d, but signs entry %lld, which comes before that turn's opening (entry %lld): a close head dated into a later turn; do not reveal a link for it",
			  path, h->turn, (long long)h->seq, (long long)o.seq);
		return CLI_DATAERR;
	}
	return 0;
}

static int link_for(const struct cli_cmd *cmd, int argc, const char *head, const char *pub_s,
		    const char *side, const char *key, const char *phase_s, const char *turn_s,
		    const char *gid_s, const char *opening, const char *nonce_s)
{
	struct ord_keypair kp;
	struct ord_head h;
	struct ord_buf gid = ORD_BUF_INIT;
	unsigned char link[32], nonce[32];
	int phase, rc, old = 0;

	if (argc > 1)
		return cli_usage_error(cmd,
				       "--link-for needs no GAME: it runs on the player's machine");
	if (!head || !side || !key || !phase_s)
		return cli_usage_error(cmd,
				       "--link-for needs --head FILE (the signed head of phase N's close), --pubkey KEY, --side, --key and --phase N");
	if (!pub_s)
		return cli_usage_error(cmd,
				       "--link-for needs --pubkey KEY (the game's public key, from its start): the close head must be the game's");
	if (!nonce_s)
		return cli_usage_error(cmd,
				       "--link-for needs --nonce HEX: the nonce 'orderly sign --witness' printed with your sheet (its chain is that sheet's own), or --nonce none for a sheet signed by an orderly before 2026-12-03");
	if (!strcmp(nonce_s, "none"))
		old = 1;
	else if ((rc = cli_hex_option(cmd, "--nonce", nonce_s, nonce, sizeof(nonce))) != 0)
		return rc;
	if ((rc = cli_parse_positive(cmd, "--phase", phase_s, &phase)) != 0)
		return rc;
	if (phase > WITNESS_LINKS)
		return cli_usage_error(cmd, "--phase %d: a witness chain has %d links", phase,
				       WITNESS_LINKS);
	if ((rc = cli_load_head(head, &h)) != 0 ||
	    (rc = check_close_head(cmd, head, &h, pub_s, phase, turn_s, gid_s)) != 0 ||
	    (opening && (rc = check_after_opening(head, &h, opening)) != 0))
		return rc;
	if ((rc = cli_load_key(key, &kp)) != 0)
		return rc;
	ord_witness_link(link, &kp, h.game_id, h.turn, side, old ? NULL : nonce, phase);
	memset(&kp, 0, sizeof(kp));
	ord_buf_add_hex(&gid, h.game_id, 16);
	printf("# the link of %s for phase %d of turn %d of game %s\n", side, phase, h.turn, gid.buf);
	ord_buf_reset(&gid);
	ord_buf_add_hex(&gid, link, 32);
	printf("link: %s\n", gid.buf);
	/* the line a mail judge takes (docs/pbem.md), ready to paste */
	printf("# to the mail judge, on a line of its own: LINK %d %s\n", phase, gid.buf);
	ord_buf_release(&gid);
	return CLI_OK;
}

int cmd_witness(const struct cli_cmd *cmd, int argc, char **argv)
{
	const char *side = NULL, *link_s = NULL, *key = NULL, *head = NULL, *phase_s = NULL;
	const char *pub_s = NULL, *turn_s = NULL, *gid_s = NULL, *opening = NULL, *nonce_s = NULL;
	struct ord_keypair kp;
	unsigned char link[32];
	ord_game *g = NULL;
	int do_close = 0, link_for_ = 0, rc;
	const struct cli_opt opts[] = {
		{ "close", NULL, &do_close },  { "side", &side, NULL },
		{ "link", &link_s, NULL },     { "key", &key, NULL },
		{ "head", &head, NULL },       { "link-for", NULL, &link_for_ },
		{ "phase", &phase_s, NULL },   { "pubkey", &pub_s, NULL },
		{ "turn", &turn_s, NULL },     { "game-id", &gid_s, NULL },
		{ "opening", &opening, NULL }, { "nonce", &nonce_s, NULL },
		{ NULL, NULL, NULL },
	};

	memset(&kp, 0, sizeof(kp));
	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (link_for_)
		return link_for(cmd, argc, head, pub_s, side, key, phase_s, turn_s, gid_s, opening,
				nonce_s);
	if (phase_s || pub_s || turn_s || gid_s || opening || nonce_s)
		return cli_usage_error(cmd,
				       "--phase, --pubkey, --turn, --game-id, --opening and --nonce are for --link-for");
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
		if ((rc = cli_load_key(key, &kp)) != 0)
			goto out;
		/* of the nonce of the side's sheet, which the game holds */
		rc = ord_game_witness_key(g, side, &kp);
	} else {
		rc = ord_game_witness(g, side, link);
	}
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
