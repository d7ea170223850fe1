/*
 * cmd_keygen.c - `orderly keygen FILE`: make an Ed25519 key pair for a
 * player (or a referee who keeps the game's key outside the game file):
 * the secret key in FILE (mode 0600), the public key in FILE.pub, and the
 * public key printed, to be put in the scenario as the side's pubkey.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_keys.h"

int cmd_keygen(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf pub = ORD_BUF_INIT, hex = ORD_BUF_INIT;
	struct ord_keypair kp;
	int rc;

	if ((rc = cli_options(cmd, &argc, argv, NULL)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing FILE (where the secret key goes)");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	if (!strcmp(argv[1], "-"))
		return cli_usage_error(cmd, "a secret key goes to a file, not to standard output");
	ord_buf_addf(&pub, "%s.pub", argv[1]);
	ord_keypair_generate(&kp);
	rc = ord_key_save(&kp, argv[1], pub.buf);
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	ord_buf_add_hex(&hex, kp.pk, sizeof(kp.pk));
	printf("public key: %s\n", hex.buf);
	printf("secret key: %s (keep it private: whoever holds it signs as you)\n", argv[1]);
	printf("public key file: %s\n", pub.buf);
	rc = CLI_OK;
out:
	memset(&kp, 0, sizeof(kp));
	ord_buf_release(&pub);
	ord_buf_release(&hex);
	return rc;
}
