/*
 * notices.c - what every player receives without asking (issue 12, item 6):
  * when a turn opens, the signed head of its opening (its seed commitment);
 * at the seal, the signed head, and to each side the head of the seal
 * signed for it alone (the sheet the seal took for it, sealed-T-SIDE.head,
 * which his links and verify are held to) and an NMR notice when its
 * orders were held or repeated; with witnessed dice, at each phase's
 * close, its signed head (he reveals his link against it, and keeps it:
 * it alone shows the phase was not closed again once the links were
 * known), and to
 * the referee, when every side's link of the phase is in; after
 * the last phase, his own side's report; at
 * the exchange, the turn bundle with the exchange's head and the
 * `orderly verify` command, to be run with the receipt, the game's key and
 * the heads he kept from the earlier mails, and with --report to check the
 * report mailed him (bundle_tx); before the deadline, reminders (the
 * nearest alone when several are due at once); at it, a late notice; when
 * the deadline or the grace of the open turn is changed, the change
 * (mail_deadline_notices, mail_deadline_change).
 *
 * mail_notices looks at the game as it is and queues whatever is due and
 * not queued yet (each mail has a key: kind/turn/side).  The judge calls it
 * inside the transaction of each change it makes, so the mail commits with
 * the change; tick calls it too, which catches changes made from the
 * command line (which sets no hook) and the clock's reminders.
 *
  * The bundles too are queued inside the exchange's transaction: the export
 * reads in a savepoint of it (ord_store_begin_read).
 */
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mail/mail.h"

void mail_judge_from(ord_game *g, struct ord_buf *out)
{
	struct ord_buf judge = ORD_BUF_INIT;
	char host[256] = "localhost";
	const char *at;

	ord_mail_config(g, &judge, NULL);
	at = strchr(judge.buf, '@');
	if (at) {
		ord_buf_addf(out, "%.*s+%s%s", (int)(at - judge.buf), judge.buf, ord_game_name(g), at);
	} else {
		if (gethostname(host, sizeof(host) - 1) != 0)
			snprintf(host, sizeof(host), "localhost");
		ord_buf_addf(out, "orderly+%s@%s", ord_game_name(g), host);
	}
	ord_buf_release(&judge);
}

int mail_queue_mail(ord_game *g, const char *rcpt, const char *key, const char *subject,
		    const char *body, int text_fd, size_t text_len, const char *in_reply_to,
		    const char *references, const struct mail_attach *att, size_t natt)
{
	struct ord_buf from = ORD_BUF_INIT, subj = ORD_BUF_INIT;
	struct mail_out out;
	size_t i, held = strlen(body);
	int err, queued;

	mail_judge_from(g, &from);
	ord_buf_addf(&subj, "[%s] %s", ord_game_name(g), subject);
	for (i = 0; i < natt && !att[i].in_file; i++)
		held += att[i].len;
	if (text_fd >= 0 || i < natt || held > MAIL_IN_MEMORY) {
		/* an attachment in a file (a bundle), a text that goes on in
		 * a file (a turn report, in the body and attached: 28 MB at
		 * 100,000 units), or a large mail: composed into a file of
		 * its own and copied into the outbox a piece at a time (a
		 * bundle of 100,000 units is 156 MB), where in memory the
		 * mail was held three times over as it was queued (GMime's
		 * stream, its copy, SQLite's record) */
		int fd = ord_game_temp_fd(g);

		if (fd < 0) {
			err = fd;
		} else if (mail_compose_file(&out, fd, from.buf, rcpt, subj.buf, body, text_fd,
					     text_len, in_reply_to, references, ord_game_name(g),
					     att, natt) != 0) {
			err = ord_error_set(ORD_ECANTWRITE, "cannot write the mail to %s: %s", rcpt,
					    strerror(errno));
			mail_out_release(&out);
		} else {
			err = ord_mail_queue_fd(g, &queued, key, out.message_id, rcpt, fd,
						out.file_len);
			mail_out_release(&out);
		}
		if (fd >= 0)
			close(fd);
	} else {
		mail_compose(&out, from.buf, rcpt, subj.buf, body, in_reply_to, references,
			     ord_game_name(g), att, natt);
		err = ord_mail_queue(g, &queued, key, out.message_id, rcpt, out.bytes.buf,
				     out.bytes.len);
		mail_out_release(&out);
	}
	ord_buf_release(&from);
	ord_buf_release(&subj);
	return err;
}

/* mail_queue_to of a mail whose text goes on after body with the
 * text_len bytes of the file open at text_fd (< 0: none). */
static int queue_to(ord_game *g, const char *side, const char *key, const char *subject,
		    const char *body, int text_fd, size_t text_len, const char *in_reply_to,
		    const char *references, const struct mail_attach *att, size_t natt)
{
	struct ord_mail_party p;
	int err;

	if ((err = ord_mail_party(g, side, &p)) != 0)
		return err;
	if (!*p.address || (key && ord_mail_queued(g, key)))
		return 0;
	return mail_queue_mail(g, p.address, key, subject, body, text_fd, text_len, in_reply_to,
			       references, att, natt);
}

int mail_queue_to(ord_game *g, const char *side, const char *key, const char *subject,
		  const char *body, const char *in_reply_to, const char *references,
		  const struct mail_attach *att, size_t natt)
{
	return queue_to(g, side, key, subject, body, -1, 0, in_reply_to, references, att, natt);
}

/* The name of a file this judge mails of game g (ord_game_file_name:
 * the name kept for the game's files, kept from this mail on; side: the
 * side's id fmt names, or NULL). */
static void file_name(ord_game *g, struct ord_buf *out, const char *side, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void file_name(ord_game *g, struct ord_buf *out, const char *side, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ord_game_file_namev(g, 1, out, side, fmt, ap);
	va_end(ap);
}

/*
 * The name under which the mail queued as key attached a file, in out
 * (cleared first): 1 the name kept for the game's files (file_name), 2
 * fmt's own, the name an orderly before game-named files gave it (a game
 * whose first mails it queued keeps those names, but one that ran on an
 * orderly before the names were kept may have both: the player keeps each
 * file under the name it came with, and the later mails name that); 0 when
 * the mail names neither or none is queued, out the kept name.  The kept
 * name is looked for first: the older name is the end of it.
 */
static int kept_name(ord_game *g, const char *key, struct ord_buf *out, const char *side,
		     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int kept_name(ord_game *g, const char *key, struct ord_buf *out, const char *side,
		     const char *fmt, ...)
{
	struct ord_buf old = ORD_BUF_INIT;
	va_list ap;
	int found = 0;

	ord_buf_reset(out);
	va_start(ap, fmt);
	ord_buf_vaddf(&old, fmt, ap);
	va_end(ap);
	file_name(g, out, side, "%s", old.buf);
	if (ord_mail_queued_naming(g, key, out->buf)) {
		found = 1;
	} else if (ord_mail_queued_naming(g, key, old.buf)) {
		ord_buf_reset(out);
		ord_buf_add(out, old.buf, old.len);
		found = 2;
	}
	ord_buf_release(&old);
	return found;
}

/* Signed head h as a mail's attachment: its text in text (cleared first),
 * named name; what the mails of an opening, a seal and a phase's close
 * carry, besides the text in their bodies. */
static void attach_head(struct mail_attach *att, const struct ord_head *h, struct ord_buf *text,
			const struct ord_buf *name)
{
	ord_buf_reset(text);
	ord_head_format(h, text);
	att->filename = name->buf;
	att->type = "text/plain";
	att->data = text->buf;
	att->len = text->len;
	att->in_file = 0;
	att->fd = -1;
}

/* The game's public key in hex, as the mails give it for comparison. */
static int game_key_hex(ord_game *g, char pkhex[65])
{
	unsigned char pk[32];
	int err;

	if ((err = ord_game_pubkey(g, pk)) == 0)
		mail_hex(pkhex, pk, 32);
	return err;
}

/* A time as the game's players read it: in the schedule's zone, and UTC. */
static void when(ord_game *g, struct ord_buf *out, int64_t t)
{
	struct ord_schedule s;

	if (ord_game_schedule(g, &s) == 0 && strcmp(s.zone, "UTC")) {
		ord_when_format(out, t, s.zone);
		ord_buf_adds(out, ", ");
	}
	ord_when_format(out, t, NULL);
}

/* "by the deadline, T" of a turn whose sheets are taken until `until` (the
 * core's deadline, schedule.c S3): the deadline players are told is the
 * one before the grace, and the grace is said with the time it ends. */
static void by_deadline(ord_game *g, struct ord_buf *out, int64_t until)
{
	struct ord_schedule s;

	if (ord_game_schedule(g, &s) != 0) {
		ord_error_clear();
		s.grace = 0;
	}
	ord_buf_adds(out, " by the deadline, ");
	when(g, out, until - s.grace);
	if (s.grace) {
		ord_buf_adds(out, "\n(sheets are still taken in the grace of ");
		ord_duration_format(out, s.grace);
		ord_buf_adds(out, ", until ");
		when(g, out, until);
		ord_buf_adds(out, ")");
	}
}

/* Turn t is open: every side gets the signed head of its opening (turn 1's
 * own, else the exchange's of the turn before, which signs this opening):
 * it carries the seed commitment every receipt of the turn binds, so a
 * player holds it, signed, before he writes his sheet; a side with a key
 * signs against it.  A turn opened and sealed between two looks (a tick
 * after a seal from the web or the command line) gets it late, just
 * before the seal's mail: open 0, and only to a side whose seal mail is
 * not queued yet (an older game's turns are not mailed again). */
static int open_notices(ord_game *g, int t, int64_t deadline, int open)
{
	struct ord_head h;
	struct ord_buf head = ORD_BUF_INIT, body = ORD_BUF_INIT, key = ORD_BUF_INIT,
		       name = ORD_BUF_INIT, dl = ORD_BUF_INIT;
	struct mail_attach att;
	char pkhex[65];
	size_t i;
	int err;

	if ((err = t > 1 ? ord_game_head(g, &h, t - 1, "exchange")
			 : ord_game_head(g, &h, 1, "open")) != 0) {
		/* the referee keeps the game's key in a file: no head yet */
		ord_error_clear();
		return 0;
	}
	/* the sign command checks the head against the game's key, not only
	 * against the key the head names itself */
	if ((err = game_key_hex(g, pkhex)) != 0)
		return err;
	file_name(g, &name, NULL, "open-%d.head", t);
	attach_head(&att, &h, &head, &name);
	if (deadline)
		by_deadline(g, &dl, deadline);
	for (i = 0; i < ord_game_nsides(g); i++) {
		const char *side = ord_game_side_name(g, i);

		if (!open) {
			ord_buf_reset(&key);
			ord_buf_addf(&key, "seal/%d/%s", t, side);
			if (ord_mail_queued(g, key.buf))
				continue;
		}
		ord_buf_reset(&body);
		if (open)
			ord_buf_addf(&body,
				     "Turn %d is open: send your orders between a line ORDERS and a line END%s.\n\n"
				     "The signed head of the turn's opening is attached (%s) and below.\n"
				     "It carries the turn's seed commitment, which the receipt of your\n"
				     "sheet binds: the dice of this turn cannot be drawn again once your\n"
				     "orders are in. Keep it. If your side signs its orders:\n\n"
				     "    orderly sign --head %s --pubkey %s --side %s --key YOUR.key SHEET.txt\n\n"
				     "%s%s\n\n%s",
				     t, dl.buf, name.buf, name.buf, pkhex, side,
				     t == 1 ? "The game's public key (keep it: every turn's bundle is checked with\n"
					      "it, and the judge's later mails are no evidence of it):\n    "
					    : "The game's public key (compare it with the one of the mail of turn 1's\n"
					      "opening):\n    ",
				     pkhex, head.buf);
		else
			ord_buf_addf(&body,
				     "Turn %d opened and is sealed already: this mail of its opening\n"
				     "comes late, before the one of its seal.\n\n"
				     "The signed head of the turn's opening is attached (%s) and below.\n"
				     "It carries the turn's seed commitment, which the receipt of a sheet\n"
				     "binds. Keep it.\n\n"
				     "The game's public key%s:\n    %s\n\n%s",
				     t, name.buf,
				     t == 1 ? " (keep it: every turn's bundle is checked with it)"
					    : " (compare it with the one of the mail of turn 1's opening)",
				     pkhex, head.buf);
		ord_buf_reset(&key);
		ord_buf_addf(&key, "open/%d/%s", t, side);
		if ((err = mail_queue_to(g, side, key.buf, "turn open", body.buf, NULL, NULL, &att,
					 1)) != 0)
			break;
	}
	ord_buf_release(&head);
	ord_buf_release(&body);
	ord_buf_release(&key);
	ord_buf_release(&name);
	ord_buf_release(&dl);
	return err;
}

/* The head of turn t's seal the game signs for side (at "sealed": the
 * commitment the seal took for it, threat model 26), as the player keeps
 * it, in text (cleared first), the version and commitment it states in
 * *version and commitment: 1 when signed, 0 when there is none to hand
 * out (a game whose key is kept outside its file signs none here; a seal
 * of a game made before it names no side's sheet), as the seal's head is
 * skipped; < 0 on an error. */
static int sealed_head(ord_game *g, int t, const char *side, struct ord_buf *text, int *version,
		       unsigned char commitment[32])
{
	struct ord_receipt r;
	struct ord_head h;
	int err;

	ord_buf_reset(text);
	memset(&r, 0, sizeof(r));
	r.turn = t;
	snprintf(r.side, sizeof(r.side), "%s", side);
	if ((err = ord_game_sealed_head(g, &h, &r)) == ORD_EUSAGE || err == ORD_ENOTFOUND) {
		ord_error_clear();
		return 0;
	}
	if (err)
		return err;
	ord_receipt_head_format(&h, &r, text);
	*version = r.version;
	memcpy(commitment, h.commitment, 32);
	return 1;
}

/* Turn t is sealed: every side gets the seal's signed head and the head of
 * the seal the game signs for his side alone (sealed-T-SIDE.head), which
 * states the sheet the seal took for him: a receipt shows only the sheet
 * stored, and a later version stored in his name would pass it. */
static int seal_notices(ord_game *g, int t, int witnessed)
{
	struct ord_head h;
	struct ord_buf head = ORD_BUF_INIT, body = ORD_BUF_INIT, key = ORD_BUF_INIT,
		       held = ORD_BUF_INIT, name = ORD_BUF_INIT, sealed = ORD_BUF_INIT,
		       sname = ORD_BUF_INIT;
	struct mail_attach att[2];
	size_t i;
	int err;

	if ((err = ord_game_head(g, &h, t, "seal")) != 0) {
		/* a game made before heads: nothing to hand out */
		ord_error_clear();
		return 0;
	}
	file_name(g, &name, NULL, "seal-%d.head", t);
	attach_head(&att[0], &h, &head, &name);
	for (i = 0; i < ord_game_nsides(g); i++) {
		const char *side = ord_game_side_name(g, i);
		unsigned char c[32], sc[32];
		char source[16], schex[65];
		int version, sversion = 0, have_sealed;

		if ((err = ord_game_side_sheet(g, t, side, &version, source, c)) != 0)
			goto out;
		if (strcmp(source, "submitted"))
			ord_buf_addf(&held, "%s%s (%s)", held.len ? ", " : "", side, source);
		ord_buf_reset(&key);
		ord_buf_addf(&key, "seal/%d/%s", t, side);
		if (ord_mail_queued(g, key.buf))
			continue; /* nothing signed for a mail not sent again */
		if ((have_sealed = sealed_head(g, t, side, &sealed, &sversion, sc)) < 0) {
			err = have_sealed;
			goto out;
		}
		ord_buf_reset(&body);
		ord_buf_addf(&body,
			     "Turn %d is sealed: no sheet can change now.\n\n"
			     "The signed head of the game's log at the seal is attached (%s)\n"
			     "and below. Keep it: with it you can later prove that nothing\n"
			     "sealed was rewritten ('orderly verify BUNDLE --head %s').\n\n",
			     t, name.buf, name.buf);
		if (have_sealed) {
			ord_buf_reset(&sname);
			file_name(g, &sname, side, "sealed-%d-%s.head", t, side);
			att[1] = (struct mail_attach){ sname.buf,  "text/plain",
						       sealed.buf, sealed.len,
						       0,          -1 };
			mail_hex(schex, sc, 32);
			ord_buf_addf(&body,
				     "The head of the seal the game signed for your side is attached too\n"
				     "(%s): the sheet the seal took for your side, signed,\n"
				     "    version %d, commitment %s\n"
				     "Keep it.%s",
				     sname.buf, sversion, schex,
				     strcmp(source, "submitted")
					     ? " It is the NMR policy's sheet (below).\n"
					     : " Check now that this commitment is the one of your last\n"
					       "receipt (the one 'orderly sign' gave you, if you signed): another\n"
					       "means the seal took another sheet in your place.\n");
			if (witnessed && !strcmp(source, "submitted"))
				ord_buf_addf(&body,
					     "Give it to 'orderly witness --link-for' as --receipt %s,\n"
					     "with --commitment, before you reveal a link: it gives none when\n"
					     "the seal took another sheet (the mail of each phase's close says\n"
					     "how).\n",
					     sname.buf);
			ord_buf_addf(&body,
				     "After the exchange, 'orderly verify BUNDLE --receipt %s'\n"
				     "holds the seal to it.\n\n",
				     sname.buf);
		}
		ord_buf_add(&body, head.buf, head.len);
		if (strcmp(source, "submitted"))
			ord_buf_addf(&body,
				     "\nNo orders of yours were received for turn %d: the game's NMR\n"
				     "policy applied, and your side's orders are '%s' (%s).\n",
				     t, source,
				     !strcmp(source, "hold") ? "every unit holds"
							     : "last turn's orders again");
		if ((err = mail_queue_to(g, side, key.buf,
					 strcmp(source, "submitted")
						 ? "turn sealed: your orders were not received (NMR)"
						 : "turn sealed",
					 body.buf, NULL, NULL, att, have_sealed ? 2 : 1)) != 0)
			goto out;
	}
	ord_buf_reset(&body);
	ord_buf_addf(&body, "Turn %d is sealed.\n%s%s%s\n\n%s", t,
		     held.len ? "The NMR policy stood in for: " : "Every side sent its orders.",
		     held.buf, held.len ? "." : "", head.buf);
	ord_buf_reset(&key);
	ord_buf_addf(&key, "seal/%d/", t);
	err = mail_queue_to(g, NULL, key.buf, "turn sealed", body.buf, NULL, NULL, att, 1);
out:
	ord_buf_release(&head);
	ord_buf_release(&body);
	ord_buf_release(&key);
	ord_buf_release(&held);
	ord_buf_release(&name);
	ord_buf_release(&sealed);
	ord_buf_release(&sname);
	return err;
}

/* Phase p of turn t is closed (witnessed dice): every side gets the close's
 * signed head, which tells him it is time to reveal his link and is the
 * only proof that the referee, once he held every link, did not record the
 * phase's events again and close it anew (the seal's head signs the log
 * before them, the exchange's whatever stands in their place).  Mailed
 * while the turn is not exchanged: after it, a head mailed for the first
 * time proves nothing of what was signed at the close. */
static int close_notices(ord_game *g, int t, int nphases)
{
	struct ord_head h;
	struct ord_buf head = ORD_BUF_INIT, body = ORD_BUF_INIT, key = ORD_BUF_INIT,
		       name = ORD_BUF_INIT, receipt = ORD_BUF_INIT, seal_key = ORD_BUF_INIT,
		       opening = ORD_BUF_INIT, receipt_file = ORD_BUF_INIT;
	struct mail_attach att;
	char pkhex[65];
	size_t i;
	int p, err = 0;

	for (p = 1; p <= nphases; p++) {
		for (i = 0; i < ord_game_nsides(g); i++) {
			struct ord_mail_party party;

			ord_buf_reset(&key);
			ord_buf_addf(&key, "close/%d/%d/%s", t, p, ord_game_side_name(g, i));
			if (ord_mail_party(g, ord_game_side_name(g, i), &party) == 0 &&
			    *party.address && !ord_mail_queued(g, key.buf))
				break;
		}
		ord_error_clear();
		if (i == ord_game_nsides(g))
			continue; /* mailed to every side with an address */
		if (ord_game_head_close(g, &h, t, p) != 0) {
			/* not closed yet, nor the phases after it */
			ord_error_clear();
			break;
		}
		if ((err = game_key_hex(g, pkhex)) != 0)
			break;
		ord_buf_reset(&name);
		file_name(g, &name, NULL, "close-%d-%d.head", t, p);
		attach_head(&att, &h, &head, &name);
		for (i = 0; i < ord_game_nsides(g); i++) {
			const char *side = ord_game_side_name(g, i);
			struct ord_receipt sr;
			struct ord_head sh;
			int sealed;

			ord_buf_reset(&key);
			ord_buf_addf(&key, "close/%d/%d/%s", t, p, side);
			if (ord_mail_queued(g, key.buf))
				continue;
			/* the head of the seal signed for his side, which the
			 * seal's mail attached (seal_notices), when the judge
			 * can sign it; else the receipt, as before it */
			memset(&sr, 0, sizeof(sr));
			sr.turn = t;
			snprintf(sr.side, sizeof(sr.side), "%s", side);
			if ((err = ord_game_sealed_head(g, &sh, &sr)) != 0 && err != ORD_EUSAGE &&
			    err != ORD_ENOTFOUND)
				goto out;
			ord_error_clear();
			sealed = err == 0;
			err = 0;
			/* named only when his seal mail attached it (one an
			 * earlier orderly queued did not), as it named it */
			ord_buf_reset(&seal_key);
			ord_buf_addf(&seal_key, "seal/%d/%s", t, side);
			if (sealed &&
			    !kept_name(g, seal_key.buf, &receipt, side, "sealed-%d-%s.head", t, side))
				sealed = 0;
			if (!sealed) {
				ord_buf_reset(&receipt);
				ord_buf_adds(&receipt, "RECEIPT");
			}
			/* the opening's head, as his mail of it named it */
			ord_buf_reset(&seal_key);
			ord_buf_addf(&seal_key, "open/%d/%s", t, side);
			kept_name(g, seal_key.buf, &opening, NULL, "open-%d.head", t);
			ord_buf_reset(&receipt_file);
			file_name(g, &receipt_file, side, "receipt-%d-%s-V.head", t, side);
			ord_buf_reset(&body);
			ord_buf_addf(&body,
				     "Phase %d of turn %d is closed: no event of it can be recorded now.\n\n"
				     "The signed head of the game's log at the close is attached (%s)\n"
				     "and below. Keep it: it alone shows that the phase's events were not\n"
				     "recorded again, to choose the dice, once the links were revealed\n"
				     "('orderly verify BUNDLE --head %s').\n\n"
				     "Your side's link for the phase, on your own machine, with the head of\n"
				     "the turn's opening you kept:\n\n"
				     "    orderly witness --link-for --head %s --pubkey GAME-KEY \\\n"
				     "        --side %s --key YOUR.key --nonce NONCE \\\n"
				     "        --phase %d --turn %d --opening %s \\\n"
				     "        --receipt %s --commitment COMMITMENT\n\n"
				     "GAME-KEY: the game's public key, as the mail of turn 1's opening gave\n"
				     "it (for comparison only, the judge's file says %s).\n"
				     "NONCE: the nonce 'orderly sign --witness' printed with your sheet of\n"
				     "this turn (your chain is that sheet's own: keep what it printed).\n",
				     p, t, name.buf, name.buf, name.buf, side, p, t, opening.buf,
				     receipt.buf, pkhex);
			if (sealed)
				ord_buf_addf(&body,
					     "%s: the head of the seal the game signed for your side,\n"
					     "which the mail of the turn's seal attached (lost, the referee signs\n"
					     "it again: 'orderly head GAME --at sealed --side %s'): it states\n"
					     "the sheet the seal took for you, where a receipt shows only a sheet\n"
					     "the game stored (a later version stored in your name would pass it).\n"
					     "COMMITMENT: the commitment 'orderly sign --witness' printed with the\n"
					     "last orders you sent for turn %d: no link is given when the seal\n"
					     "took your side's sheet under another commitment, a witness chain\n"
					     "other than yours (without the two it warns, and gives it; given\n"
					     "the receipt of those orders, %s, instead, it\n"
					     "warns that a receipt cannot show the sheet sealed).\n",
					     receipt.buf, side, t, receipt_file.buf);
			else
				ord_buf_addf(&body,
					     "RECEIPT: the receipt file the receipt mail of the last orders you sent\n"
					     "for turn %d attached (%s), and COMMITMENT the\n"
					     "commitment 'orderly sign --witness' printed with those orders: no link\n"
					     "is given when the game stored your sheet under another commitment, a\n"
					     "witness chain other than yours (without the two it warns, and gives\n"
					     "it).\n",
					     t, receipt_file.buf);
			ord_buf_addf(&body,
				     "The command keeps every close head it answers in YOUR.key.links and\n"
				     "refuses a second, different close of the same phase: keep that file.\n\n"
				     "Then reply to this mail with the link it prints, on a line of its own:\n\n"
				     "    LINK %d HEX\n\n"
				     "HEX being the 64 hexadecimal digits it printed after 'link:'. No\n"
				     "passphrase is needed: the judge takes the link only if it leads to the\n"
				     "witness chain your sheet committed to.\n\n%s",
				     p, head.buf);
			if ((err = mail_queue_to(g, side, key.buf, "phase closed", body.buf, NULL,
						 NULL, &att, 1)) != 0)
				goto out;
		}
	}
out:
	ord_buf_release(&head);
	ord_buf_release(&body);
	ord_buf_release(&key);
	ord_buf_release(&name);
	ord_buf_release(&receipt);
	ord_buf_release(&seal_key);
	ord_buf_release(&opening);
	ord_buf_release(&receipt_file);
	return err;
}

/* Witnessed dice: the referee is told once every side's link for the
 * current phase is in (at least one revealed, none awaited), so that he
 * can resolve it; a link taken by mail or recorded from the command line
 * alike.  Nothing once the phase is resolved. */
static int links_notices(ord_game *g, int t)
{
	struct ord_buf body = ORD_BUF_INIT, key = ORD_BUF_INIT, in = ORD_BUF_INIT, none = ORD_BUF_INIT;
	struct ord_game_status ti;
	size_t i;
	int phase, closed, err;

	if ((err = ord_game_status(g, &ti)) != 0)
		return err;
	if ((err = ord_game_link_state(g, NULL, &phase, &closed, NULL)) != 0) {
		ord_error_clear();
		return 0; /* no phase awaits links */
	}
	ord_buf_addf(&key, "links/%d/%d", t, phase);
	if (!closed || ord_mail_queued(g, key.buf))
		goto out;
	for (i = 0; i < ord_game_nsides(g); i++) {
		const char *side = ord_game_side_name(g, i);
		enum ord_link_state st;

		if ((err = ord_game_link_state(g, side, &phase, &closed, &st)) != 0)
			goto out;
		if (st == ORD_LINK_AWAITED)
			goto out;
		ord_buf_addf(st == ORD_LINK_REVEALED ? &in : &none, "%s%s",
			     (st == ORD_LINK_REVEALED ? in.len : none.len) ? ", " : "", side);
	}
	if (!in.len)
		goto out; /* nothing came in: every side's a stand-in */
	ord_buf_addf(&body, "Every witness link of phase %d ('%s') of turn %d is in: %s.\n", phase,
		     ti.phase, t, in.buf);
	if (none.len)
		ord_buf_addf(&body,
			     "%s sealed a stand-in with no witness chain: the referee's chain stands\n"
			     "in (from the command line, 'orderly resolve GAME --stand-in').\n",
			     none.buf);
	ord_buf_addf(&body,
		     "\nThe phase can be resolved now (RESOLVE by mail, or 'orderly resolve GAME').\n");
	ord_buf_reset(&in);
	ord_buf_addf(&in, "links in: turn %d, phase %d can be resolved", t, phase);
	err = mail_queue_to(g, NULL, key.buf, in.buf, body.buf, NULL, NULL, NULL, 0);
out:
	ord_buf_release(&body);
	ord_buf_release(&key);
	ord_buf_release(&in);
	ord_buf_release(&none);
	return err;
}

/* The memory the turn's units were held in, freed, given back to the
 * system before what comes next (the next side's report, the bundle's
 * export): glibc keeps a freed heap's pages (and maps a block of 128 KiB
 * or more alone: ord_malloc_tune, which main sets for every command). */
static void release_freed(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

/* The report is attached too, as the file `verify --report SIDE
 * --resolved` prints byte for byte, which the bundle mail tells the
 * player to diff against it: the text above it is the mail's, not the
 * report's.  Mailed only after the exchange (no tick between the last
 * phase and the exchange), the report reads as exchanged, every side's
 * sheet in it, as `verify --report SIDE` prints it: its file is named
 * so, and the bundle mail gives that command (report_compare).
 *
 * Each report is written into a file of its own as it is made (11.6 MB
 * at 100,000 units), the turn's units let go once it is written, and the
 * mail composed from the file: the text in memory, then in the mail's
 * body and attachment while GMime wrote them, put tick 1,127 B a unit
 * over its base at 100,000 units (issue 15 asks at most 1 KiB). */
static int report_notices(ord_game *g, int t, int exchanged)
{
	struct ord_report_opts o = { .turn = t };
	struct ord_buf body = ORD_BUF_INIT, key = ORD_BUF_INIT, name = ORD_BUF_INIT,
		       what = ORD_BUF_INIT;
	struct mail_attach att;
	size_t i, len;
	int err = 0, fd = -1;

	for (i = 0; i < ord_game_nsides(g); i++) {
		const char *side = ord_game_side_name(g, i);
		struct ord_mail_party p;

		ord_buf_reset(&key);
		ord_buf_addf(&key, "report/%d/%s", t, side);
		if (ord_mail_queued(g, key.buf))
			continue;
		/* no report made for a side without an address */
		if ((err = ord_mail_party(g, side, &p)) != 0)
			break;
		if (!*p.address)
			continue;
		ord_buf_reset(&body);
		ord_buf_reset(&name);
		ord_buf_reset(&what);
		if ((fd = ord_game_temp_fd(g)) < 0) {
			err = fd;
			break;
		}
		ord_buf_addf(&what, "the temporary file of %s's report of turn %d", side, t);
		o.side = side;
		if ((err = ord_game_report_fd(g, &o, fd, what.buf, &len)) != 0)
			break;
		file_name(g, &name, side, "report-%d-%s%s.txt", t, side, exchanged ? "-exchanged" : "");
		ord_buf_addf(&body,
			     "Every phase of turn %d is resolved. Your side's report (attached too, %s):\n"
			     "\n",
			     t, name.buf);
		att = (struct mail_attach){ name.buf, "text/plain", NULL, len, 1, fd };
		if ((err = queue_to(g, side, key.buf, "turn report", body.buf, fd, len, NULL, NULL,
				    &att, 1)) != 0)
			break;
		close(fd);
		fd = -1;
		release_freed();
	}
	if (fd >= 0)
		close(fd);
	ord_buf_release(&body);
	ord_buf_release(&key);
	ord_buf_release(&name);
	ord_buf_release(&what);
	return err;
}

/* The bundle mail's words on checking the report mailed to side, true of
 * the file that mail attached (report_notices): one diff command. */
static void report_compare(ord_game *g, struct ord_buf *body, int t, const char *side)
{
	struct ord_buf key = ORD_BUF_INIT, name = ORD_BUF_INIT;
	const char *opt = " --resolved";

	ord_buf_addf(&key, "report/%d/%s", t, side);
	/* the game's names before an earlier orderly's (kept_name): its
	 * report-T-SIDE.txt is the end of the game's exchanged one's */
	file_name(g, &name, side, "report-%d-%s.txt", t, side);
	if (!ord_mail_queued_naming(g, key.buf, name.buf)) {
		if (kept_name(g, key.buf, &name, side, "report-%d-%s-exchanged.txt", t, side) == 1)
			opt = "";
		else if (!kept_name(g, key.buf, &name, side, "report-%d-%s.txt", t, side)) {
			if (kept_name(g, key.buf, &name, side, "report-%d-%s-exchanged.txt", t, side))
				opt = "";
			else
				ord_buf_reset(&name); /* an earlier orderly's mail: no file */
		}
	}
	/* no second line "    orderly verify": the command is the one above */
	ord_buf_adds(body, "\nThe turn report this judge mailed you is checked the same way: the\n"
			   "command above with\n");
	if (name.len)
		ord_buf_addf(body,
			     "    --report %s%s | diff %s -\n"
			     "added prints nothing when the report it rebuilds from the bundle is\n"
			     "byte for byte the file %s the report mail attached.\n",
			     side, opt, name.buf, name.buf);
	else
		ord_buf_addf(body,
			     "    --report %s%s\n"
			     "added prints it rebuilt from the bundle, which must be word for word\n"
			     "the report you got below the mail's first line and the blank line\n"
			     "after it.\n",
			     side, opt);
	if (*opt)
		ord_buf_adds(body, "(Leave --resolved out for a report of the turn as exchanged, with\n"
				   "every side's sheet.)\n");
	ord_buf_release(&key);
	ord_buf_release(&name);
}

struct bundle {
	int turn;
	int nclose; /* witnessed dice: the phases, whose close heads were mailed */
	int fd;     /* the bundle, made into a file (ord_game_temp_fd), or -1 */
	size_t len; /* its bytes */
	struct ord_buf seal, exch, names[3];
	char pkhex[65];
};

/* The versions of a side's sheet of turn t the game file holds, one a
 * line, the last marked sealed: for comparison with the player's own
 * receipts (a version he never sent shows here). */
static int put_versions(ord_game *g, struct ord_buf *body, int t, const char *side, int last)
{
	unsigned char c[32];
	char source[16], chex[65];
	int v, err;

	for (v = 1; v <= last; v++) {
		if ((err = ord_game_side_sheet_version(g, t, side, v, source, c)) == ORD_ENOTFOUND) {
			/* a version not kept: say so rather than skip it */
			ord_error_clear();
			ord_buf_addf(body, "    version %d  (not in the game file)\n", v);
			continue;
		}
		if (err)
			return err;
		mail_hex(chex, c, 32);
		ord_buf_addf(body, "    version %d  %s  %s%s\n", v, chex, source,
			     v == last ? "  (sealed)" : "");
	}
	return 0;
}

/*
 * Queue the bundle mails of b->turn (inside a transaction).
 *
 * The command it gives takes nothing from the game file that the player
 * holds himself: a judge that put another sheet in a side's place would
 * write the commitment of that sheet as the receipt, and the game's key
 * and the heads from the same file, and the command would say "ok".  So
 * the receipt and the game's key are placeholders the player fills from
 * his own mails (the last receipt mail of the turn; the mail of turn 1's
 * opening), and the heads are the copies he kept: the seal's head is not
 * attached again under the name it came with, which would overwrite his
 * copy when he saves the attachments.  What the judge's file holds (the
 * key, each version of his side's sheet) is listed for comparison only.
 */
static int bundle_tx(struct bundle *bd, ord_game *g)
{
	struct ord_buf body = ORD_BUF_INIT, key = ORD_BUF_INIT, kept = ORD_BUF_INIT,
		       judge_seal = ORD_BUF_INIT, sealed = ORD_BUF_INIT, opening = ORD_BUF_INIT,
		       seal = ORD_BUF_INIT, close = ORD_BUF_INIT, receipt = ORD_BUF_INIT;
	struct mail_attach att[3];
	size_t i, natt;
	int t = bd->turn, err = 0, p, nkept = 0, close_old = 0;

	file_name(g, &judge_seal, NULL, "seal-%d.judge-copy.head", t);
	for (i = 0; i <= ord_game_nsides(g); i++) {
		const char *side = i < ord_game_nsides(g) ? ord_game_side_name(g, i) : NULL;
		const char *seal_name;
		unsigned char c[32];
		char source[16] = "";
		int version = 0, kept_open, kept_seal, kept_sealed, sent;

		ord_buf_reset(&key);
		ord_buf_addf(&key, "bundle/%d/%s", t, side ? side : "");
		if (ord_mail_queued(g, key.buf))
			continue;
		if (side && (err = ord_game_side_sheet(g, t, side, &version, source, c)) != 0)
			goto out;
		ord_buf_reset(&receipt);
		if (side)
			file_name(g, &receipt, side, "receipt-%d-%s-V.head", t, side);
		/* the heads of the turn's opening (the previous exchange's for
		 * t > 1) and of its seal, kept from their mails: only the kept
		 * copies are the player's own evidence */
		ord_buf_reset(&kept);
		ord_buf_addf(&kept, "open/%d/%s", t, side ? side : "");
		kept_open = side && ord_mail_queued(g, kept.buf);
		/* each under the name its mail gave it (kept_name) */
		kept_name(g, kept.buf, &opening, NULL, "open-%d.head", t);
		ord_buf_reset(&kept);
		ord_buf_addf(&kept, "seal/%d/%s", t, side ? side : "");
		kept_seal = bd->seal.len && ord_mail_queued(g, kept.buf);
		kept_name(g, kept.buf, &seal, NULL, "seal-%d.head", t);
		seal_name = seal.buf;
		/* the head of the seal signed for his side, which his seal
		 * mail attached (one an earlier orderly queued did not) */
		kept_sealed = side && kept_seal &&
			      kept_name(g, kept.buf, &sealed, side, "sealed-%d-%s.head", t, side);
		natt = 0;
		att[natt++] = (struct mail_attach){
			bd->names[0].buf, "application/xml", NULL, bd->len, 1, bd->fd
		};
		if (bd->seal.len && !kept_seal) {
			/* never mailed the seal's head: the judge's copy, named so */
			seal_name = judge_seal.buf;
			att[natt++] = (struct mail_attach){
				seal_name, "text/plain", bd->seal.buf, bd->seal.len, 0, -1
			};
		}
		if (bd->exch.len)
			att[natt++] = (struct mail_attach){
				bd->names[2].buf, "text/plain", bd->exch.buf, bd->exch.len, 0, -1
			};
		ord_buf_reset(&body);
		ord_buf_addf(&body,
			     "Turn %d is exchanged: every side's sheet, the dice seed and the\n"
			     "whole log of the turn are in the attached bundle %s, signed\n"
			     "by the game's key.\n\n"
			     "Check it on your own machine, in the folder where you keep the heads,\n"
			     "with what you kept yourself, not with what this mail says: a judge\n"
			     "that put another sheet in your place would write this mail too.\n\n",
			     t, bd->names[0].buf);
		/* a side whose sheet the NMR policy gave (or none) sent no
		 * orders the game took this turn, and holds no receipt */
		sent = side && version && !strcmp(source, "submitted");
		ord_buf_addf(&body, "    orderly verify %s --pubkey GAME-KEY", bd->names[0].buf);
		if (sent)
			ord_buf_adds(&body, " --receipt RECEIPT");
		if (kept_sealed)
			ord_buf_addf(&body, " \\\n        --receipt %s", sealed.buf);
		if (kept_open)
			ord_buf_addf(&body, " \\\n        --head %s", opening.buf);
		if (bd->seal.len)
			ord_buf_addf(&body, " \\\n        --head %s", seal_name);
		for (p = 1, nkept = 0; side && p <= bd->nclose; p++) {
			ord_buf_reset(&kept);
			ord_buf_addf(&kept, "close/%d/%d/%s", t, p, side);
			if (ord_mail_queued(g, kept.buf)) {
				close_old = kept_name(g, kept.buf, &close, NULL, "close-%d-%d.head",
						      t, p) == 2;
				ord_buf_addf(&body, " \\\n        --head %s", close.buf);
				nkept++;
			}
		}
		if (bd->exch.len)
			ord_buf_addf(&body, " \\\n        --head %s", bd->names[2].buf);
		/* witnessed dice: the close heads the player answered, which
		 * witness --link-for kept, fail a close answered on a copy of
		 * the game even when no mail of the true close reached him */
		if (side && bd->nclose)
			ord_buf_adds(&body, " \\\n        --record YOUR.key.links");
		ord_buf_adds(&body, "\n\n");
		ord_buf_adds(&body, side ? "GAME-KEY: the game's public key, as the mail of turn 1's opening\n"
					   "gave it.\n"
					 : "GAME-KEY: the game's public key, as you keep it.\n");
		if (side && !sent)
			ord_buf_addf(&body,
				     "No orders of yours were received for turn %d, so the command has no\n"
				     "--receipt RECEIPT: %s\n"
				     "If you did send orders and hold a receipt mail for them, add\n"
				     "--receipt with its file, %s: verify fails then,\n"
				     "which shows another sheet was put in your place.\n",
				     t,
				     kept_sealed
					     ? "the head of the seal signed for your side (below)\n"
					       "holds the seal to the NMR policy's sheet."
					     : "there is no receipt of yours to hold the seal to.",
				     receipt.buf);
		if (sent)
			ord_buf_addf(&body,
				     "RECEIPT: the receipt file the receipt mail of the last orders you\n"
				     "sent for turn %d attached, %s, which the game\n"
				     "signed (its commitment works too, but is only your word; leave\n"
				     "--receipt out if you sent none): not of a receipt mail for orders\n"
				     "you did not send, which would be another sheet's.\n",
				     t, receipt.buf);
		if (kept_open)
			ord_buf_addf(&body, "%s came with the mail of the turn's opening.\n",
				     opening.buf);
		if (bd->seal.len && kept_seal)
			ord_buf_addf(&body, "%s came with the mail of the turn's seal.\n", seal_name);
		if (kept_sealed)
			ord_buf_addf(&body,
				     "%s came with it too: the sheet the seal took for your side,\n"
				     "as the game signed it; verify holds the seal to it.\n",
				     sealed.buf);
		else if (bd->seal.len && !kept_seal) /* the referee's: kept, no sealed head */
			ord_buf_addf(&body,
				     "%s is attached: the judge's copy of the seal's head, since\n"
				     "no mail of the seal reached you; it is no evidence of its own.\n",
				     seal_name);
		if (nkept) {
			ord_buf_reset(&close);
			if (close_old)
				ord_buf_addf(&close, "close-%d-P.head", t);
			else
				file_name(g, &close, NULL, "close-%d-P.head", t);
			ord_buf_addf(&body,
				     "%s came with the mail of phase P's close; a phase\n"
				     "whose close head you lack is named by verify as not checked.\n",
				     close.buf);
		}
		if (bd->exch.len)
			ord_buf_addf(&body, "%s is attached.\n", bd->names[2].buf);
		if (side && bd->nclose)
			ord_buf_adds(&body,
				     "YOUR.key.links: the record 'orderly witness --link-for' kept beside\n"
				     "your key file of every close head you answered; with it verify fails\n"
				     "on a close you answered on a copy of the game (leave --record out if\n"
				     "you answered no close of this game).\n");
		/* the report mailed is not signed: the bundle's record is */
		if (side)
			report_compare(g, &body, t, side);
		ord_buf_addf(&body,
			     "\nFor comparison only, what the judge's file says: the game's key is\n"
			     "    %s\n",
			     bd->pkhex);
		if (side && version) {
			ord_buf_addf(&body,
				     "and it holds these versions of your side's sheet of turn %d:\n",
				     t);
			if ((err = put_versions(g, &body, t, side, version)) != 0)
				goto out;
			ord_buf_adds(&body,
				     "A version you never sent, or a sealed one that is not the one of\n"
				     "your last receipt, means another sheet was put in your place:\n"
				     "verify with your own receipt fails then.\n");
			if (strcmp(source, "submitted"))
				ord_buf_adds(&body,
					     "The NMR policy stood in for your side: if you sent orders\n"
					     "and had a receipt for them, verify with it fails.\n");
		} else if (side) {
			ord_buf_addf(&body, "and it holds no sheet of your side for turn %d.\n", t);
		}
		if ((err = mail_queue_to(g, side, key.buf, "turn bundle", body.buf, NULL, NULL, att,
					 natt)) != 0)
			goto out;
	}
out:
	ord_buf_release(&body);
	ord_buf_release(&key);
	ord_buf_release(&kept);
	ord_buf_release(&judge_seal);
	ord_buf_release(&sealed);
	ord_buf_release(&opening);
	ord_buf_release(&seal);
	ord_buf_release(&close);
	ord_buf_release(&receipt);
	return err;
}

/* 1 when a party with an address has no bundle mail of turn t yet. */
static int bundle_missing(ord_game *g, int t)
{
	struct ord_buf key = ORD_BUF_INIT;
	size_t i;
	int missing = 0;

	for (i = 0; !missing && i <= ord_game_nsides(g); i++) {
		const char *side = i < ord_game_nsides(g) ? ord_game_side_name(g, i) : NULL;
		struct ord_mail_party p;

		if (ord_mail_party(g, side, &p) != 0 || !*p.address)
			continue;
		ord_buf_reset(&key);
		ord_buf_addf(&key, "bundle/%d/%s", t, side ? side : "");
		missing = !ord_mail_queued(g, key.buf);
	}
	ord_error_clear();
	ord_buf_release(&key);
	return missing;
}

/* The referee told, once, that turn t's bundle was refused by the check
 * of what it signs (ord_game_export's refusal, the last error). */
static int bundle_refused(ord_game *g, int t)
{
	struct ord_buf key = ORD_BUF_INIT, body = ORD_BUF_INIT;
	int err;

	ord_buf_addf(&body,
		     "The bundle of turn %d was not mailed to the players: the game's own\n"
		     "check of it before it is signed failed, so nothing was signed.\n\n"
		     "%s\n\n"
		     "It is mailed at the next mail or tick once the game file holds the\n"
		     "turn as it was played again. Until the file changes, it is not made\n"
		     "or checked again.\n",
		     t, ord_error_last());
	ord_error_clear();
	ord_buf_addf(&key, "bundle-refused/%d", t);
	err = mail_queue_to(g, NULL, key.buf, "bundle not sent: the game file was changed",
			    body.buf, NULL, NULL, NULL, 0);
	ord_buf_release(&key);
	ord_buf_release(&body);
	return err;
}

/* Queue the bundle mails of exchanged turn t that are not queued yet
 * (inside the change's transaction: the export reads what it wrote).  A
 * bundle the check refused is kept refused with the state of the file it
 * was refused for (ord_game_export_state), and not made and checked again
 * until that changes: it was, at every mail and tick. */
static int bundle_notices(ord_game *g, int t)
{
	struct bundle bd;
	struct ord_game_status st;
	struct ord_head h;
	unsigned char state[32], refused[32];
	size_t k;
	int err, was_refused = 0, have_state = 0;

	if (!bundle_missing(g, t))
		return 0;
	memset(&bd, 0, sizeof(bd));
	bd.turn = t;
	bd.fd = -1;
	ord_buf_init(&bd.seal);
	ord_buf_init(&bd.exch);
	for (k = 0; k < 3; k++)
		ord_buf_init(&bd.names[k]);
	if ((err = ord_mail_bundle_refused(g, t, refused, &was_refused)) != 0)
		goto out;
	/* refused for the file as it is: nothing to make again (the state
	 * is made without the check, a seventh of the work); one that
	 * cannot be made is made below, to say why */
	if (was_refused && ord_game_export_state(g, t, state) == 0) {
		if (!memcmp(state, refused, sizeof(state)))
			goto out;
		have_state = 1;
	}
	ord_error_clear();
	/* made into a file, never whole in memory, and attached from it */
	if ((bd.fd = ord_game_temp_fd(g)) < 0) {
		err = bd.fd;
		goto out;
	}
	ord_buf_addf(&bd.names[0], "the temporary file of turn %d's bundle", t);
	err = ord_game_export_fd(g, t, bd.fd, bd.names[0].buf, &bd.len);
	ord_buf_reset(&bd.names[0]);
	if (err == ORD_EUSAGE) {
		/* the referee keeps the game's key in a file: he mails bundles himself */
		ord_error_clear();
		err = 0;
		goto out;
	}
	if (err == ORD_EBADDATA) {
		/* the verifier refused the bundle the game file gives (changed
		 * outside orderly): nothing is signed or mailed to the players,
		 * the referee is told once, and the export is tried again at
		 * the first mail or tick after the file changed, so that the
		 * file restored sends it */
		if ((err = bundle_refused(g, t)) != 0)
			goto out;
		if (!have_state && (err = ord_game_export_state(g, t, state)) != 0)
			goto out;
		err = ord_mail_set_bundle_refused(g, t, state);
		goto out;
	}
	/* made and checked: whatever was refused before is not */
	if (!err && was_refused)
		err = ord_mail_set_bundle_refused(g, t, NULL);
	if (err || (err = game_key_hex(g, bd.pkhex)) != 0)
		goto out;
	if (ord_game_head(g, &h, t, "seal") == 0)
		ord_head_format(&h, &bd.seal);
	if (ord_game_head(g, &h, t, "exchange") == 0)
		ord_head_format(&h, &bd.exch);
	ord_error_clear();
	file_name(g, &bd.names[0], NULL, "turn-%d.xml", t);
	file_name(g, &bd.names[1], NULL, "seal-%d.head", t);
	file_name(g, &bd.names[2], NULL, "exchange-%d.head", t);
	if ((err = ord_game_status(g, &st)) != 0)
		goto out;
	bd.nclose = st.witnessed ? st.nphases : 0;
	err = bundle_tx(&bd, g);
out:
	for (k = 0; k < 3; k++)
		ord_buf_release(&bd.names[k]);
	if (bd.fd >= 0)
		close(bd.fd);
	ord_buf_release(&bd.seal);
	ord_buf_release(&bd.exch);
	return err;
}

/* A changed deadline is mailed from the change's own transaction, by the
 * front-end that makes it (the judge's DEADLINE and SCHEDULE, `orderly
 * deadline` and `orderly schedule`, the web page's deadline form through
 * the composer `orderly serve` gives its server, src/web/server.c W19),
 * not by mail_notices: the game keeps its deadlines' history only in its
 * log, which no front-end reads, so a later look could not say what it
 * was changed from.
 *
 * A schedule changes the open turn only through its grace (the deadline
 * told stays, the end of the grace moves with it: game_mail.c); that is
 * mailed whether the grace is shortened (a player who counted on it must
 * know) or lengthened (the same words, and no player is left to guess
 * which grace stands).  What else a schedule changes (the rhythm, the
 * reminders) concerns the next turn, whose opening mail states its
 * deadline, and is not mailed.  from_grace: the grace before the change
 * (the schedule's, unchanged, for a deadline set). */
static int deadline_mails(ord_game *g, int turn, int64_t from, int64_t from_grace, int64_t to,
			  int grace_changed, size_t *told)
{
	struct ord_schedule s;
	struct ord_buf body = ORD_BUF_INIT, key = ORD_BUF_INIT, subject = ORD_BUF_INIT;
	size_t i;
	int err = 0;

	*told = 0;
	if (ord_game_schedule(g, &s) != 0) {
		ord_error_clear();
		s.grace = 0;
	}
	if (from == to)
		return 0;
	if (grace_changed)
		ord_buf_addf(&subject, "grace changed: turn %d, sheets taken until %s", turn,
			     to < from ? "earlier" : "later");
	else
		ord_buf_addf(&subject, "deadline changed: turn %d", turn);
	for (i = 0; i < ord_game_nsides(g); i++) {
		const char *side = ord_game_side_name(g, i);
		struct ord_mail_party p;
		unsigned char c[32];
		char source[16];
		int version;

		/* a side not told of the turn yet learns the deadline from the
		 * mail of its opening, which states the new one */
		ord_buf_reset(&key);
		ord_buf_addf(&key, "open/%d/%s", turn, side);
		if (!ord_mail_queued(g, key.buf) || ord_mail_party(g, side, &p) != 0 || !*p.address) {
			ord_error_clear();
			continue;
		}
		if ((err = ord_game_side_sheet(g, turn, side, &version, source, c)) != 0)
			goto out;
		ord_buf_reset(&body);
		if (grace_changed) {
			/* the told deadline stays: only the grace's end moved */
			ord_buf_adds(&body, "The referee changed the schedule's grace from ");
			if (from_grace)
				ord_duration_format(&body, from_grace);
			else
				ord_buf_adds(&body, "none");
			ord_buf_adds(&body, " to ");
			if (s.grace)
				ord_duration_format(&body, s.grace);
			else
				ord_buf_adds(&body, "none");
			ord_buf_addf(&body, ".\nThe deadline of turn %d stays ", turn);
			when(g, &body, to - s.grace);
			ord_buf_adds(&body, ";\nsheets are now taken until ");
			when(g, &body, to);
			ord_buf_adds(&body, "\n(until ");
			when(g, &body, from);
			ord_buf_adds(&body, " before the change).\n");
		} else {
			ord_buf_addf(&body, "The deadline of turn %d changed\n  from ", turn);
			if (from)
				when(g, &body, from - from_grace);
			else
				ord_buf_adds(&body, "none");
			ord_buf_adds(&body, "\n  to   ");
			if (to) {
				when(g, &body, to - s.grace);
				ord_buf_adds(&body, ".\n");
				if (s.grace) {
					ord_buf_adds(&body, "(Sheets are still taken in the grace of ");
					ord_duration_format(&body, s.grace);
					ord_buf_adds(&body, ", until ");
					when(g, &body, to);
					ord_buf_adds(&body, ".)\n");
				}
			} else {
				ord_buf_adds(&body,
					     "none: the turn is open until the referee seals it.\n");
			}
		}
		if (version)
			ord_buf_addf(&body,
				     "\nYour orders are in (version %d, the last receipt you were mailed):\n"
				     "they stand. A new mail with ORDERS replaces them until the deadline.\n",
				     version);
		else
			ord_buf_adds(&body, "\nNo orders of yours have been received yet: send them between a\n"
					    "line ORDERS and a line END.\n");
		/* every change once: queued in the change's own transaction */
		if ((err = mail_queue_to(g, side, NULL, subject.buf, body.buf, NULL, NULL, NULL, 0)) != 0)
			goto out;
		(*told)++;
	}
out:
	ord_buf_release(&body);
	ord_buf_release(&key);
	ord_buf_release(&subject);
	return err;
}

int mail_deadline_notices(ord_game *g, int turn, int64_t from, int64_t to, size_t *told)
{
	struct ord_schedule s;

	if (ord_game_schedule(g, &s) != 0) {
		ord_error_clear();
		s.grace = 0;
	}
	return deadline_mails(g, turn, from, s.grace, to, 0, told);
}

int mail_deadline_change(ord_game *g, const struct ord_change *c, size_t *told)
{
	*told = 0;
	if (c->kind != ORD_CHANGE_DEADLINE)
		return 0;
	if (!c->grace_changed)
		return mail_deadline_notices(g, c->turn, c->deadline_from, c->deadline, told);
	return deadline_mails(g, c->turn, c->deadline_from, c->grace_from, c->deadline, 1, told);
}

static void due_at(int64_t *next, int64_t t, int64_t now)
{
	if (t > now && (!*next || t < *next))
		*next = t;
}

/* Reminders and late notices of the open turn. */
static int clock_notices(ord_game *g, const struct ord_game_status *ti, int64_t now, int64_t *next)
{
	struct ord_schedule s;
	struct ord_buf body = ORD_BUF_INIT, key = ORD_BUF_INIT, dl = ORD_BUF_INIT, grace = ORD_BUF_INIT;
	int64_t announced;
	ptrdiff_t latest;
	size_t i, r;
	int err;

	if (!ti->deadline || (err = ord_game_schedule(g, &s)) != 0)
		return 0;
	announced = ti->deadline - s.grace;
	when(g, &dl, announced);
	if (s.grace) {
		ord_buf_adds(&grace, "(Sheets are still taken in the grace of ");
		ord_duration_format(&grace, s.grace);
		ord_buf_adds(&grace, ", until ");
		when(g, &grace, ti->deadline);
		ord_buf_adds(&grace, ".)\n");
	}
	for (r = 0; r < s.nremind; r++)
		due_at(next, announced - s.remind[r], now);
	if (s.grace)
		due_at(next, announced, now);
	/* a sheet is taken in the deadline's own second (turn_open_check),
	 * so tick seals from the second after it, in a game made since from
	 * the second second (ord_game_seal_from): that is the wake-up, and a
	 * tick before it still has one ahead */
	due_at(next, ord_game_seal_from(g, ti->deadline), now);
	for (i = 0; i < ord_game_nsides(g); i++) {
		const char *side = ord_game_side_name(g, i);
		unsigned char c[32];
		char source[16];
		int version;

		if ((err = ord_game_side_sheet(g, ti->turn, side, &version, source, c)) != 0)
			goto out;
		if (version || now >= ti->deadline)
			continue;
		if (s.grace && now >= announced) {
			ord_buf_reset(&key);
			ord_buf_addf(&key, "late/%d/%s", ti->turn, side);
			ord_buf_reset(&body);
			ord_buf_addf(&body,
				     "The deadline of turn %d (%s) has passed and no orders of yours\n"
				     "have been received. They are still taken until ",
				     ti->turn, dl.buf);
			when(g, &body, ti->deadline);
			ord_buf_addf(&body,
				     ";\nafter that the turn is sealed and the NMR policy stands in for\n"
				     "your side. Send them now: a mail with ORDERS ... END.\n");
			if ((err = mail_queue_to(g, side, key.buf, "your orders are late", body.buf,
						 NULL, NULL, NULL, 0)) != 0)
				goto out;
			continue;
		}
		/* the latest reminder due, alone: when several are due at once
		 * (a deadline brought nearer, a tick missed) the player gets
		 * one mail, not the same words twice */
		for (latest = -1, r = 0; r < s.nremind; r++) {
			int64_t at = announced - s.remind[r];
			if (now >= at && now < announced &&
			    (latest < 0 || at > announced - s.remind[latest]))
				latest = (ptrdiff_t)r;
		}
		if (latest >= 0) {
			ord_buf_reset(&key);
			ord_buf_addf(&key, "remind/%d/%lld/%s", ti->turn,
				     (long long)s.remind[latest], side);
			ord_buf_reset(&body);
			ord_buf_addf(&body,
				     "A reminder: no orders of yours for turn %d have been received yet.\n"
				     "The deadline is %s.\n%s\n"
				     "Send them in a mail to this address, between a line ORDERS and a\n"
				     "line END (CHECK instead of ORDERS only checks them).\n",
				     ti->turn, dl.buf, grace.buf);
			if ((err = mail_queue_to(g, side, key.buf, "reminder: orders due", body.buf,
						 NULL, NULL, NULL, 0)) != 0)
				goto out;
		}
	}
	err = 0;
out:
	ord_buf_release(&body);
	ord_buf_release(&key);
	ord_buf_release(&dl);
	ord_buf_release(&grace);
	return err;
}

int mail_notices(ord_game *g, int64_t now, int64_t *next)
{
	struct ord_game_status ti;
	int t, err;

	*next = 0;
	if ((err = ord_game_status(g, &ti)) != 0)
		return err;
	/* the turn before the current one was exchanged; this one as it is */
	for (t = ti.turn > 1 ? ti.turn - 1 : 1; t <= ti.turn; t++) {
		int sealed = t < ti.turn || strcmp(ti.state, "open");
		int resolved = t < ti.turn || !strcmp(ti.state, "resolved") ||
			       !strcmp(ti.state, "exchanged");
		int exchanged = t < ti.turn || !strcmp(ti.state, "exchanged");

		/* in order: the opening (late, when it was missed), then the rest */
		if ((err = open_notices(g, t, sealed ? 0 : ti.deadline, !sealed)) != 0)
			return err;
		if (sealed && (err = seal_notices(g, t, ti.witnessed)) != 0)
			return err;
		if (sealed && !exchanged && ti.witnessed && (err = close_notices(g, t, ti.nphases)) != 0)
			return err;
		if (t == ti.turn && sealed && !resolved && ti.witnessed &&
		    (err = links_notices(g, t)) != 0)
			return err;
		if (resolved && (err = report_notices(g, t, exchanged)) != 0)
			return err;
		if (exchanged && (err = bundle_notices(g, t)) != 0)
			return err;
	}
	if (strcmp(ti.state, "open"))
		return 0;
	return clock_notices(g, &ti, now, next);
}
