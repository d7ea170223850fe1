/*
 * cmd_register.c - `orderly register GAME --side SIDE|--referee
 * [--address ADDR] [--passphrase-file FILE] [--pgp-key FILE]` and the
 * judge's own settings `[--judge ADDR] [--replies-per-hour N]
 * [--passphrase-tries N]`: who may act
 * by mail and with what proof (docs/pbem.md).  Each change is logged in
 * the game's hash chain; a passphrase is stored only as a crypto_pwhash
 * hash (its file's first line; '-' reads standard input).  Without a
 * change it prints what is registered.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "mail/mail.h"

static void show(ord_game *g, const char *side)
{
	struct ord_mail_party p;

	if (ord_mail_party(g, side, &p) != 0)
		return;
	printf("%-12s address %s; proofs:%s%s%s%s%s\n", side ? side : "(referee)",
	       *p.address ? p.address : "none", p.has_passphrase ? " passphrase" : "",
	       *p.pgp_fpr ? " openpgp " : "", p.pgp_fpr, p.has_sign_key ? " ed25519-key" : "",
	       !p.has_passphrase && !*p.pgp_fpr && !p.has_sign_key ? " none" : "");
	if (*p.address_key)
		printf("             address hash key %s (the log shows the address only as its "
		       "hash with this key: give it to the address's owner to check it)\n",
		       p.address_key);
}

int cmd_register(const struct cli_cmd *cmd, int argc, char **argv)
{
	const char *side = NULL, *address = NULL, *passfile = NULL, *pgpfile = NULL, *judge = NULL,
		   *per_hour_s = NULL, *tries_s = NULL;
	struct ord_buf pass = ORD_BUF_INIT, key = ORD_BUF_INIT, jb = ORD_BUF_INIT;
	ord_game *g = NULL;
	int referee = 0, per_hour = 0, tries = 0, rc, changed = 0, ph, pt = 0;
	size_t i;
	const struct cli_opt opts[] = {
		{ "side", &side, NULL },
		{ "referee", NULL, &referee },
		{ "address", &address, NULL },
		{ "passphrase-file", &passfile, NULL },
		{ "pgp-key", &pgpfile, NULL },
		{ "judge", &judge, NULL },
		{ "replies-per-hour", &per_hour_s, NULL },
		{ "passphrase-tries", &tries_s, NULL },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	if (side && referee)
		return cli_usage_error(cmd, "--side and --referee name two parties: one at a time");
	if ((address || passfile || pgpfile) && !side && !referee)
		return cli_usage_error(cmd,
				       "missing --side SIDE or --referee (whose address or proof)");
	if ((rc = cli_parse_positive(cmd, "--replies-per-hour", per_hour_s, &per_hour)) != 0 ||
	    (rc = cli_parse_positive(cmd, "--passphrase-tries", tries_s, &tries)) != 0)
		return rc;
	if (passfile) {
		if ((rc = cli_read_input(&pass, passfile, 4096)) != 0)
			goto out;
		pass.len = strcspn(pass.buf, "\r\n");
		pass.buf[pass.len] = '\0';
	}
	if (pgpfile && (rc = cli_read_input(&key, pgpfile, 1 << 20)) != 0)
		goto out;
	if ((rc = cli_open_game(&g, argv[1])) != 0)
		goto out;
	if (judge || per_hour) {
		if ((rc = ord_mail_set_config(g, judge, per_hour)) != 0)
			goto fail;
		changed = 1;
	}
	if (tries) {
		if ((rc = ord_mail_set_pass_tries(g, tries)) != 0)
			goto fail;
		changed = 1;
	}
	if (address) {
		if ((rc = ord_mail_register(g, side, !strcmp(address, "none") ? "" : address)) != 0)
			goto fail;
		changed = 1;
	}
	if (passfile) {
		int64_t until = 0;

		/* a suspension of the old one's proofs by mail ends with it */
		if (ord_mail_pass_suspended(g, side, &until, NULL) != 0)
			until = 0;
		ord_error_clear();
		if ((rc = ord_mail_set_passphrase(g, side, pass.buf)) != 0)
			goto fail;
		if (until > 0) {
			struct ord_buf t = ORD_BUF_INIT;
			ord_when_format(&t, until, NULL);
			printf("the passphrase proofs by mail of %s, suspended until %s after wrong "
			       "passphrases, are checked again from now: the new passphrase ends the "
			       "suspension (logged, mail-unsuspended)\n",
			       side ? side : "the referee", t.buf);
			ord_buf_release(&t);
		}
		changed = 1;
	}
	if (pgpfile) {
		char fpr[128];
		mail_init();
		rc = mail_pgp_fingerprint(key.buf, fpr, sizeof(fpr));
		mail_shutdown();
		if (rc) {
			cli_error("'%s' holds no OpenPGP public key that GnuPG can read", pgpfile);
			rc = CLI_DATAERR;
			goto out;
		}
		if ((rc = ord_mail_set_pgp(g, side, key.buf, fpr)) != 0)
			goto fail;
		changed = 1;
	}
	ord_mail_config(g, &jb, &ph);
	ord_mail_pass_tries(g, &pt);
	if (!changed || side || referee)
		printf("judge        %s; replies per hour: %d; wrong passphrases an hour: %d\n",
		       *jb.buf ? jb.buf : "(not set)", ph, pt);
	if (side || referee) {
		show(g, side);
	} else {
		show(g, NULL);
		for (i = 0; i < ord_game_nsides(g); i++)
			show(g, ord_game_side_name(g, i));
	}
	rc = CLI_OK;
	goto out;
fail:
	rc = cli_fail(rc);
out:
	if (g)
		ord_game_free(g);
	if (pass.len)
		sodium_memzero(pass.buf, pass.len);
	ord_buf_release(&pass);
	ord_buf_release(&key);
	ord_buf_release(&jb);
	return rc;
}
