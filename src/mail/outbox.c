/*
 * outbox.c - `orderly mail-out`: hand every queued mail of a game to the
 * system's `sendmail -t -i` (a shell command, configurable) and mark it
 * sent.  A crash between the hand-over and the mark sends it again, with
 * the same bytes and so the same Message-ID: at least once, never lost.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "mail/mail.h"

/* A piece of the mail read from the outbox into the pipe. */
static int put_piece(void *ud, const void *bytes, size_t n)
{
	FILE *p = ud;

	return fwrite(bytes, 1, n, p) == n ? 0 : 1;
}

/* Mail id (len bytes) piped to cmd a piece at a time, never whole in
 * memory (a mail attaching a bundle is hundreds of MB at 100,000 units):
 * 0, 1 when cmd failed, or the error reading the outbox. */
static int pipe_to(ord_game *g, int64_t id, const char *cmd)
{
	FILE *p = popen(cmd, "w");
	int st, err;

	if (!p)
		return 1;
	err = ord_mail_outbox_read(g, id, put_piece, p);
	st = pclose(p);
	if (err < 0)
		return err; /* the outbox's own error (ORD_*), not the pipe's */
	return !err && st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}

int mail_out_game(ord_game *g, const char *sendmail, size_t *sent, size_t *failed, struct ord_buf *msg)
{
	struct ord_mail_out o;
	int64_t after = 0;
	int err;

	signal(SIGPIPE, SIG_IGN);
	for (;;) {
		memset(&o, 0, sizeof(o));
		ord_buf_init(&o.bytes);
		err = ord_mail_outbox_peek(g, after, &o, NULL);
		if (err) {
			if (err == ORD_ENOTFOUND) {
				ord_error_clear();
				return 0;
			}
			return err;
		}
		after = o.id;
		if ((err = pipe_to(g, o.id, sendmail)) < 0) {
			return err;
		} else if (err) {
			(*failed)++;
			ord_buf_addf(msg, "%s: mail <%s> to %s: '%s' failed; it stays queued\n",
				     ord_game_name(g), o.message_id, o.rcpt, sendmail);
		} else if ((err = ord_mail_outbox_sent(g, o.id)) != 0) {
			return err;
		} else {
			(*sent)++;
		}
	}
}
