/*
 * cmd_mail_in.c - `orderly mail-in [--games DIR] [--game FILE]
 * [--recipient ADDR] < MESSAGE`: the mail judge's door, for an MTA's pipe,
 * a .forward, procmail or fetchmail's mda (docs/pbem.md).  One message on
 * standard input; exit 0 once it is stored and answered, 75 (EX_TEMPFAIL)
 * when it cannot be taken now (the MTA tries again), 67 when it reaches no
 * game (the MTA bounces it with the line printed).  The envelope recipient
 * comes from --recipient, else $ORIGINAL_RECIPIENT (Postfix) or $RECIPIENT
 * (exim), else from the headers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "mail/mail.h"

int cmd_mail_in(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf raw = ORD_BUF_INIT, msg = ORD_BUF_INIT;
	struct mail_in_opts o = { NULL, NULL, NULL };
	const char *games = NULL, *game = NULL, *rcpt = NULL;
	int rc;
	const struct cli_opt opts[] = {
		{ "games", &games, NULL },
		{ "game", &game, NULL },
		{ "recipient", &rcpt, NULL },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc > 1)
		return cli_usage_error(cmd,
				       "unexpected argument '%s' (the message comes on standard input)",
				       argv[1]);
	o.games = games ? games : getenv("ORDERLY_GAMES") ? getenv("ORDERLY_GAMES") : ".";
	o.game = game;
	o.recipient = rcpt                           ? rcpt
		      : getenv("ORIGINAL_RECIPIENT") ? getenv("ORIGINAL_RECIPIENT")
						     : getenv("RECIPIENT");
	for (;;) {
		ssize_t got;

		ord_buf_grow(&raw, 65536);
		got = read(0, raw.buf + raw.len, 65536);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			cli_error("cannot read the message: %s (try again later)", strerror(errno));
			rc = MAIL_EX_TEMPFAIL;
			goto out;
		}
		if (got == 0)
			break;
		raw.len += (size_t)got;
		raw.buf[raw.len] = '\0';
		if (raw.len > MAIL_MAX_BYTES) {
			cli_error("the message is larger than %zu MiB, more than orderly reads",
				  MAIL_MAX_BYTES >> 20);
			rc = MAIL_EX_DATAERR;
			goto out;
		}
	}
	mail_init();
	rc = mail_in(&o, raw.buf, raw.len, &msg);
	mail_shutdown();
	if (msg.len)
		cli_error("%s", msg.buf);
out:
	ord_buf_release(&raw);
	ord_buf_release(&msg);
	return rc;
}
