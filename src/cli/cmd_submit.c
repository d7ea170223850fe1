/*
 * cmd_submit.c - `orderly submit GAME --side SIDE [FILE|-]`: hand a side's
 * order sheet (the exact bytes of FILE or standard input) to the library,
 * which validates and stores it, and print the receipt the player keeps to
 * check later that the sheet was not changed after it was sealed.
 *
 * With --nonce and --signature (from `orderly sign`) the sheet is stored
 * with the player's own nonce, and his signature is checked: a side whose
 * key is in the scenario must submit so.  In a referee-less game a side may
 * instead hand in only its signed commitment (--commitment, --signature,
 * no sheet), and open it after the seal with `orderly open`.
 *
 * In a game with witnessed dice the sheet comes with the top of the side's
 * witness chain for the turn, which is of the sheet's nonce: --witness HEX
 * with --nonce HEX (as 'orderly sign --witness' printed them), or
 * --witness-key FILE to derive it here from the player's key file (with
 * the nonce drawn here, and printed for the player's links).  --check validates the sheet and prints orderly's reading and
 * every problem, storing nothing.
 *
 * --receipt-head FILE writes the receipt the game signs: a signed head of
 * the log entry that stores the sheet (its side, version and commitment),
 * which 'orderly verify --receipt FILE' checks; the commitment printed
 * alone is only the player's word (docs/threat-model.md, 21).  A game whose
 * key is kept outside its file signs it with --key FILE.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_keys.h"

static void print_receipt(const struct ord_receipt *r, const char *what)
{
	struct ord_buf hex = ORD_BUF_INIT;

	ord_buf_add_hex(&hex, r->commitment, sizeof(r->commitment));
	printf("%s: turn %d side %.*s version %d\n", what, r->turn, (int)sizeof(r->side), r->side,
	       r->version);
	printf("commitment: %s\n", hex.buf);
	ord_buf_release(&hex);
}

/* The sheet's warnings (ord_sheet_warnings: a heading naming another
 * turn), on standard error at their places: never a refusal. */
static void print_warnings(const char *name, const struct ord_diag *w, const char *after)
{
	struct ord_buf line = ORD_BUF_INIT;
	size_t i;

	for (i = 0; i < w->n; i++) {
		ord_buf_reset(&line);
		ord_diag_item_format(&line, &w->items[i]);
		cli_error("warning: %s:%u:%u: %s (%s)", name, w->items[i].line, w->items[i].col,
			  line.buf, after);
	}
	ord_buf_release(&line);
}

/* The receipt the game signs, written to path (threat model, 21). */
static int write_receipt_head(ord_game *g, const struct ord_receipt *r, const char *path)
{
	struct ord_buf b = ORD_BUF_INIT;
	struct ord_head h;
	int rc;

	if ((rc = ord_game_receipt_head(g, &h, r)) < 0)
		return cli_fail(rc);
	ord_receipt_head_format(&h, r, &b);
	rc = cli_write_output(path, b.buf, b.len);
	ord_buf_release(&b);
	if (!rc && strcmp(path, "-"))
		printf("receipt head: %s (the game's signature of the entry that stores this sheet and of its words: check it now, 'orderly verify --receipt %s --pubkey KEY', and keep it for 'orderly verify BUNDLE --receipt %s')\n",
		       path, path, path);
	return rc;
}

int cmd_submit(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf sheet = ORD_BUF_INIT, msgs = ORD_BUF_INIT;
	struct ord_receipt receipt;
	struct ord_diag diag, warnings;
	const char *side = NULL, *path = NULL, *nonce_s = NULL, *sig_s = NULL, *commit_s = NULL;
	const char *witness_s = NULL, *wkey_s = NULL, *rhead_s = NULL, *key_s = NULL;
	unsigned char nonce[32], sig[64], commitment[32], witness[32];
	struct ord_submit_opts so;
	struct ord_buf reading = ORD_BUF_INIT;
	ord_game *g = NULL;
	int check = 0, drawn = 0, rc;
	const struct cli_opt opts[] = {
		{ "side", &side, NULL },         { "nonce", &nonce_s, NULL },
		{ "signature", &sig_s, NULL },   { "commitment", &commit_s, NULL },
		{ "witness", &witness_s, NULL }, { "witness-key", &wkey_s, NULL },
		{ "check", NULL, &check },       { "receipt-head", &rhead_s, NULL },
		{ "key", &key_s, NULL },         { NULL, NULL, NULL },
	};

	ord_diag_init(&diag);
	ord_diag_init(&warnings);
	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		goto out;
	if (argc < 2) {
		rc = cli_usage_error(cmd, "missing GAME");
		goto out;
	}
	if (!side) {
		rc = cli_usage_error(cmd, "missing --side SIDE");
		goto out;
	}
	if (argc > 3) {
		rc = cli_usage_error(cmd, "unexpected argument '%s' (one sheet at a time)", argv[3]);
		goto out;
	}
	if (argc == 3)
		path = argv[2];
	if (commit_s && (path || nonce_s)) {
		rc = cli_usage_error(cmd,
				     "--commitment hands in a commitment alone: no sheet and no --nonce (they come with 'orderly open')");
		goto out;
	}
	if (commit_s && (witness_s || wkey_s)) {
		rc = cli_usage_error(cmd,
				     "--commitment binds no witness chain: a referee-less game has no witnessed dice");
		goto out;
	}
	if (witness_s && !nonce_s) {
		rc = cli_usage_error(cmd,
				     "--witness needs --nonce: the chain is of the sheet's nonce, as 'orderly sign --witness' printed them");
		goto out;
	}
	if (sig_s && !nonce_s && !commit_s) {
		rc = cli_usage_error(cmd,
				     "--signature needs --nonce (or --commitment), as 'orderly sign' printed them");
		goto out;
	}
	if (witness_s && wkey_s) {
		rc = cli_usage_error(cmd,
				     "--witness and --witness-key give the same thing: one of them");
		goto out;
	}
	if (key_s && !rhead_s) {
		rc = cli_usage_error(cmd,
				     "--key is the game's key, to sign the receipt head: give it with --receipt-head FILE");
		goto out;
	}
	if (check && (commit_s || nonce_s || sig_s || witness_s || wkey_s || rhead_s)) {
		rc = cli_usage_error(cmd,
				     "--check only reads the sheet: no --nonce, --signature, --commitment or witness");
		goto out;
	}
	if ((witness_s &&
	     (rc = cli_hex_option(cmd, "--witness", witness_s, witness, sizeof(witness))) != 0) ||
	    (nonce_s && (rc = cli_hex_option(cmd, "--nonce", nonce_s, nonce, sizeof(nonce))) != 0) ||
	    (sig_s && (rc = cli_hex_option(cmd, "--signature", sig_s, sig, sizeof(sig))) != 0) ||
	    (commit_s && (rc = cli_hex_option(cmd, "--commitment", commit_s, commitment,
					      sizeof(commitment))) != 0))
		goto out;
	/* the game first: a wrong GAME must not wait for a sheet on the terminal */
	if ((rc = cli_open_game(&g, argv[1])) != 0)
		goto out;
	/* the receipt head is signed after the sheet is stored: a key that is
	 * missing is said before */
	if (key_s) {
		struct ord_keypair gk;
		if ((rc = cli_load_key(key_s, &gk)) != 0)
			goto out;
		rc = ord_game_use_key(g, &gk);
		memset(&gk, 0, sizeof(gk));
		if (rc < 0) {
			rc = cli_fail(rc);
			goto out;
		}
	}
	if (rhead_s && !check && !ord_game_can_sign(g)) {
		rc = cli_usage_error(cmd,
				     "the key of '%s' is kept outside the game file: give it with --key FILE to sign the receipt head",
				     argv[1]);
		goto out;
	}
	/* the receipt head is written once the sheet is stored: a file it
	 * may not replace (the game's, a key's) is said before */
	if (rhead_s && !check && (rc = cli_output_allowed(rhead_s)) != 0)
		goto out;
	if (commit_s) {
		rc = ord_game_commit(g, &receipt, side, commitment, sig_s ? sig : NULL);
		if (rc < 0) {
			rc = cli_fail(rc);
			goto out;
		}
		print_receipt(&receipt, "receipt");
		printf("a commitment alone: open it with 'orderly open' once the turn is sealed\n");
		rc = rhead_s ? write_receipt_head(g, &receipt, rhead_s) : CLI_OK;
		goto out;
	}
	if ((rc = cli_read_input(&sheet, path, CLI_MAX_INPUT)) != 0)
		goto out;
	if (wkey_s) {
		struct ord_keypair kp;
		struct ord_game_status st;
		unsigned char gid[16];
		if ((rc = cli_load_key(wkey_s, &kp)) != 0)
			goto out;
		if ((rc = ord_game_status(g, &st)) < 0) {
			rc = cli_fail(rc);
			goto out;
		}
		ord_game_id(g, gid);
		/* the chain is of the sheet's nonce: drawn here when the
		 * player gave none */
		if (!nonce_s) {
			ord_nonce_draw(nonce);
			drawn = 1;
		}
		ord_witness_top(witness, &kp, gid, st.turn, side, nonce);
		memset(&kp, 0, sizeof(kp));
		witness_s = "";
	}
	if (check) {
		struct ord_game_status st;
		rc = ord_game_check_sheet(g, side, sheet.buf, sheet.len, &diag, &reading);
		rc = cli_report_check(rc, &diag, &reading, path, "submit it without --check");
		if (ord_game_status(g, &st) == 0 &&
		    ord_sheet_warnings(&warnings, sheet.buf, sheet.len, st.turn))
			print_warnings(cli_input_name(path), &warnings,
				       "a warning: a comment is the player's own");
		goto out;
	}
	if (wkey_s && rhead_s && (rc = cli_output_allowed(rhead_s)) != 0)
		goto out; /* the witness key, read since */
	memset(&so, 0, sizeof(so));
	so.nonce = nonce_s || drawn ? nonce : NULL;
	so.signature = sig_s ? sig : NULL;
	so.witness = witness_s ? witness : NULL;
	so.warnings = &warnings;
	rc = ord_game_submit_opts(g, &receipt, side, sheet.buf, sheet.len, &so, &diag);
	if (rc == ORD_EBADSHEET) {
		ord_diag_format(&diag, cli_input_name(path), &msgs);
		cli_print_lines(msgs.buf, 0);
		if (ord_diag_count(&diag))
			cli_error("sheet rejected: %zu problem(s)", ord_diag_count(&diag));
		else
			cli_fail(rc);
		rc = cli_exit_code(rc);
		goto out;
	}
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	print_receipt(&receipt, "receipt");
	print_warnings(cli_input_name(path), &warnings,
		       "stored as sent: a comment is the player's own");
	if (sig_s)
		printf("signature: checked against side %s's key\n", side);
	if (drawn) {
		/* drawn here: the player needs it for his links, on his machine */
		struct ord_buf hex = ORD_BUF_INIT;
		ord_buf_add_hex(&hex, nonce, sizeof(nonce));
		printf("nonce: %s (the player keeps it, secret until the exchange: 'orderly witness --link-for --nonce' takes it)\n",
		       hex.buf);
		ord_buf_release(&hex);
	}
	rc = rhead_s ? write_receipt_head(g, &receipt, rhead_s) : CLI_OK;
out:
	if (g)
		ord_game_free(g);
	ord_diag_release(&diag);
	ord_diag_release(&warnings);
	ord_buf_release(&sheet);
	ord_buf_release(&msgs);
	ord_buf_release(&reading);
	return rc;
}
