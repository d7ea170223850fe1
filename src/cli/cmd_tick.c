/*
 * cmd_tick.c - `orderly tick DIR [--sendmail CMD]`, for cron or a systemd
 * timer (docs/pbem.md): for every game file of DIR, send the reminders and
 * late notices that are due, seal a turn whose deadline has passed when
 * its schedule says auto-seal, queue what a change from the command line
 * calls for (heads, reports, bundles), and flush the outbox.  A game with
 * nothing due costs one query.  Exit 0; 75 when a mail sendmail did not
 * take stays queued (as mail-out), so that cron or systemd shows it; 70
 * after naming each game that failed (the others are done all the same).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "mail/mail.h"

const char *cli_sendmail(const char *opt);

int cmd_tick(const struct cli_cmd *cmd, int argc, char **argv)
{
	const char *sendmail = NULL;
	struct ord_buf msg = ORD_BUF_INIT, path = ORD_BUF_INIT;
	struct dirent *e;
	DIR *d;
	size_t games = 0, failed = 0, unsent = 0;
	int rc, verbose = 0;
	const struct cli_opt opts[] = {
		{ "sendmail", &sendmail, NULL },
		{ "verbose", NULL, &verbose },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing DIR");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s' (one directory)", argv[2]);
	sendmail = cli_sendmail(sendmail);
	if (!(d = opendir(argv[1]))) {
		cli_error("cannot read the directory '%s'", argv[1]);
		return CLI_NOINPUT;
	}
	mail_init();
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		int64_t next;
		size_t left = 0;
		int err, notable = 0;

		if (n <= 8 || strcmp(e->d_name + n - 8, ".orderly"))
			continue;
		games++;
		ord_buf_reset(&path);
		ord_buf_addf(&path, "%s/%s", argv[1], e->d_name);
		ord_buf_reset(&msg);
		err = mail_tick_game(path.buf, sendmail, &next, &left, &notable, &msg);
		unsent += left;
		if (err != 0) {
			failed++;
			cli_error("%s: %s", path.buf, ord_error_last());
			ord_error_clear();
		}
		if (msg.len && (verbose || notable))
			fputs(msg.buf, stdout);
	}
	closedir(d);
	mail_shutdown();
	if (verbose)
		printf("%zu game%s looked at\n", games, games == 1 ? "" : "s");
	ord_buf_release(&msg);
	ord_buf_release(&path);
	return failed ? CLI_SOFTWARE : unsent ? MAIL_EX_TEMPFAIL : CLI_OK;
}
