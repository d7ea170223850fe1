/*
 * tick.c - `orderly tick DIR` for one game file: the notices the clock or
 * a change made from the command line calls for, the seal at the deadline
 * when the schedule says auto-seal, and the outbox.  A game with nothing to
 * do is seen from one query (ord_mail_due), without loading its ruleset, so
 * a directory of many games costs little more than reading their headers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mail/mail.h"

struct tick {
	int64_t now, next;
};

static int notices_tx(void *ud, ord_game *g)
{
	struct tick *t = ud;

	return mail_notices(g, t->now, &t->next);
}

static int seal_hook(void *ud, ord_game *g, const struct ord_change *c)
{
	struct tick *t = ud;

	(void)c;
	return mail_notices(g, t->now, &t->next);
}

int mail_tick_game(const char *path, const char *sendmail, int64_t *next, size_t *unsent,
		   int *notable, struct ord_buf *msg)
{
	const char *env = getenv("ORDERLY_TEST_NOW");
	int64_t real = (int64_t)time(NULL), cheap = real;
	struct ord_game_status ti;
	struct ord_schedule s;
	struct tick t = { 0, 0 };
	ord_game *g = NULL;
	size_t sent = 0, failed = 0;
	long v;
	int due = 1, err;

	*next = 0;
	*unsent = 0;
	*notable = 0;
	/* the cheap look: a test clock may be ahead (ord_game_now) */
	if (env && ord_parse_long(env, &v) == 0 && v > cheap)
		cheap = v;
	if ((err = ord_mail_due(path, cheap, &due)) != 0 || !due)
		return err;
	if ((err = ord_game_open(&g, path)) != 0)
		return err;
	t.now = ord_game_now(g);
	if ((err = ord_game_status(g, &ti)) != 0 || (err = ord_game_schedule(g, &s)) != 0)
		goto out;
	/* from the second after the deadline, in a game made since its second
	 * second (ord_game_seal_from) */
	if (!strcmp(ti.state, "open") && ti.deadline &&
	    t.now >= ord_game_seal_from(g, ti.deadline) && s.autoseal) {
		ord_game_set_hook(g, seal_hook, &t);
		/* past it by the real clock: an ordinary seal; by a test game's
		 * clock only: forced (and logged so) */
		err = ord_game_seal(g, real >= ord_game_seal_from(g, ti.deadline) ? 0 : 1);
		ord_game_set_hook(g, NULL, NULL);
		*notable = err == 0 || err == ORD_ESTATE;
		if (err == 0) {
			ord_buf_addf(msg, "%s: turn %d sealed at its deadline\n", ord_game_name(g),
				     ti.turn);
		} else if (err == ORD_ESTATE) {
			ord_buf_addf(msg, "%s: turn %d not sealed: %s\n", ord_game_name(g), ti.turn,
				     ord_error_last());
			ord_error_clear();
		} else {
			goto out;
		}
	}
	if ((err = ord_game_transact(g, notices_tx, &t)) != 0 ||
	    (err = mail_out_game(g, sendmail, &sent, &failed, msg)) != 0)
		goto out;
	if (sent)
		ord_buf_addf(msg, "%s: %zu mail%s sent\n", ord_game_name(g), sent,
			     sent == 1 ? "" : "s");
	/* unsent mail keeps the game due; otherwise the clock's next time */
	err = ord_mail_mark_seen(g, t.next);
	*next = t.next;
	*unsent = failed;
out:
	if (failed) /* said in msg, if the outbox stopped after too */
		*notable = 1;
	ord_game_free(g);
	return err;
}
