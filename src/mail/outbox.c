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

static int pipe_to(const char *cmd, const char *bytes, size_t len)
{
	FILE *p = popen(cmd, "w");
	size_t off = 0;
	int st;

	if (!p)
		return -1;
	while (off < len) {
		size_t n = fwrite(bytes + off, 1, len - off, p);
		if (n == 0)
			break;
		off += n;
	}
	st = pclose(p);
	return off == len && st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
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
		err = ord_mail_outbox_next(g, after, &o);
		if (err) {
			ord_buf_release(&o.bytes);
			if (err == ORD_ENOTFOUND) {
				ord_error_clear();
				return 0;
			}
			return err;
		}
		after = o.id;
		if (pipe_to(sendmail, o.bytes.buf, o.bytes.len) != 0) {
			(*failed)++;
			ord_buf_addf(msg, "%s: mail <%s> to %s: '%s' failed; it stays queued\n",
				     ord_game_name(g), o.message_id, o.rcpt, sendmail);
		} else if ((err = ord_mail_outbox_sent(g, o.id)) != 0) {
			ord_buf_release(&o.bytes);
			return err;
		} else {
			(*sent)++;
		}
		ord_buf_release(&o.bytes);
	}
}
