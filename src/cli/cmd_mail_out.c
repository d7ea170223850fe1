/*
 * cmd_mail_out.c - `orderly mail-out GAME|DIR... [--sendmail CMD]`: hand the
 * queued mail of each game (every *.orderly of a directory) to sendmail.
 * CMD is run by /bin/sh with the message on its standard input: by default
 * $ORDERLY_SENDMAIL, else "/usr/sbin/sendmail -t -i".  Exit 0 when every
 * mail went out, 75 when some stay queued for the next run.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "mail/mail.h"

const char *cli_sendmail(const char *opt)
{
	const char *env = getenv("ORDERLY_SENDMAIL");

	return opt ? opt : env && *env ? env : "/usr/sbin/sendmail -t -i";
}

static int out_one(const char *path, const char *sendmail, size_t *sent, size_t *failed)
{
	struct ord_buf msg = ORD_BUF_INIT;
	ord_game *g = NULL;
	int rc;

	if ((rc = cli_open_game(&g, path)) != 0)
		return rc;
	if ((rc = mail_out_game(g, sendmail, sent, failed, &msg)) != 0)
		rc = cli_fail(rc);
	if (msg.len)
		cli_print_lines(msg.buf, 1);
	ord_game_free(g);
	ord_buf_release(&msg);
	return rc;
}

int cmd_mail_out(const struct cli_cmd *cmd, int argc, char **argv)
{
	const char *sendmail = NULL;
	size_t sent = 0, failed = 0;
	int rc, i, worst = 0;
	const struct cli_opt opts[] = {
		{ "sendmail", &sendmail, NULL },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME or DIR");
	sendmail = cli_sendmail(sendmail);
	mail_init();
	for (i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *e;

			while (d && (e = readdir(d)) != NULL) {
				size_t n = strlen(e->d_name);
				struct ord_buf p = ORD_BUF_INIT;

				if (n <= 8 || strcmp(e->d_name + n - 8, ".orderly"))
					continue;
				ord_buf_addf(&p, "%s/%s", argv[i], e->d_name);
				if ((rc = out_one(p.buf, sendmail, &sent, &failed)) != 0)
					worst = rc;
				ord_buf_release(&p);
			}
			if (d)
				closedir(d);
		} else if ((rc = out_one(argv[i], sendmail, &sent, &failed)) != 0) {
			worst = rc;
		}
	}
	mail_shutdown();
	printf("%zu mail%s sent%s", sent, sent == 1 ? "" : "s", failed ? ", " : "\n");
	if (failed)
		printf("%zu left queued\n", failed);
	return worst ? worst : failed ? MAIL_EX_TEMPFAIL : CLI_OK;
}
