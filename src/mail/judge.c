/*
 * judge.c - `orderly mail-in`: one message from the MTA.
 *
 *   1. decode it (decode.c) and find the game: the +GAME of the address it
 *      was sent to, or a Game: line;
 *   2. store it raw in the game's inbox, unique by Message-ID, before
 *      anything else (a message answered already is not answered again);
 *   3. find who sent it: the registered address of a side or the referee
 *      AND a proof (OpenPGP/MIME signature by the registered key over a
 *      text that names the game on a Game: line, the
 *      registered passphrase, or for orders the side's Ed25519 signature
 *      from `orderly sign`, for a CHECK its draft signature from `orderly
 *      sign --draft`);
 *   4. do the command; every reply is queued in the outbox and the message
 *      marked processed in the same transaction as the change it made (the
 *      change hook) or, when nothing changed, in one of its own.
 *
 * Exit codes for the MTA: 0 done (the message is stored); 75 try again
 * later (the game is locked, the disk full: nothing was lost, since the
 * message was not taken); 67 no such game (the MTA bounces it with our
 * words); 65 a message that is not one.
 *
 * Decisions:
 *  J1. A reply goes only to the registered address of the party the From:
 *      names, never to an unverified address: a mail from an unknown address
 *      is stored and not answered; a forged From: without the proof changes
 *      nothing and its reply goes to the real player, who learns of it.
 *  J2. A message from the referee may hold several commands, each its own
 *      change; the inbox keeps the number of the last one done, so the MTA's
 *      retry after a crash goes on after it and never repeats one.
 *  J3. HELP needs no proof: its reply holds nothing of the game.
 *  J4. A mail that reaches no game is kept in DIR/unrouted (so it is not
 *      lost) and refused with 67, unless it is a bounce or automatic.
 *  J5. A CHECK mail carrying the lines of `orderly sign` is refused, not
 *      checked, whatever else proves it: a sheet signed by the side's key
 *      is one the player commits to, and neither the Subject nor the CHECK
 *      line is signed, so the same lines sent with ORDERS (by whoever saw
 *      the mail, the judge too) would submit it, with his own valid
 *      signature: he could not show that he only wanted it checked.  So
 *      the signature lines never prove a CHECK either.  The refused mail's
 *      nonce is said in its inbox result ("(nonce HEX)"), and an ORDERS
 *      mail with those lines again is refused.  A draft is signed with
 *      `orderly sign --draft`: its "draft-signature:" line is a signature
 *      under another name (ord_draft_sign), which proves a CHECK and
 *      nothing else: with ORDERS it proves nothing, and no submit, the
 *      referee's by hand included, takes it as the sheet's signature.
 *      What is left is the player's own slip: a sheet signed for orders
 *      and sent with CHECK is refused, and its signature still signs it
 *      (the reply says so; the receipt of any submit always goes).
 *  J6. A LINK (a side's witness link, witnessed dice) needs the side's
 *      registered address, as every mail does, but no passphrase, OpenPGP
 *      signature or signed lines: the link is its own proof.  It is taken
 *      only when hashing it P times gives the top of the chain the side's
 *      sealed sheet committed to (ord_game_witness), which only the holder
 *      of the side's key file can compute; anything else is refused and
 *      changes nothing, and its reply goes to the registered address (J1),
 *      so a forged LINK tells the player of the forgery.  The true link
 *      sent by someone who saw it does only what the player asked: it fits
 *      that side, turn and phase alone, and is taken once.  A proof the mail
 *      does carry must hold, as for any mail.  The reply to a link taken
 *      always goes (as a receipt does); so does a refusal in mail that
 *      carries a proof that holds (J8); one without counts among the
 *      replies to mail not proven, since anyone can write one.
 *  J7. A player's mail is one command.  One that holds an ORDERS or CHECK
 *      block and a LINK (a line, or the Subject), a LINK and another
 *      command (STATUS, REPORT, HELP), two LINK lines, two blocks, or
 *      another command (HELP too) before or after a block, is refused
 *      whole and changes nothing: the block, or the link, would otherwise
 *      be dropped without a word while the player believes them
 *      delivered.  So is a mail of two sheets (two attached files, a block
 *      and a file), a block with no END, and a text with a NUL byte (D6:
 *      the sheet is what he wrote or it is refused, never a part of it).
 *      An attached file beside a text is read as a text is (B1), and an
 *      ORDERS or CHECK block in it is a command like one in the text:
 *      beside a command line of the text ("STATUS", "Status of my
 *      orders?", HELP, LINK; an empty block of the other kind) or another
 *      command in the file, the mail is refused whole (the STATUS was
 *      answered and the file never read); where the text has no command
 *      line, the block's is the mail's, the Subject's yielding to it as
 *      to a block in the text (B5: "Re: Help with my orders" over the
 *      sheet sends it, and a CHECK block in the file is checked, not
 *      stored as ORDERS, the default it used to take).  A player's old
 *      mail saved as a .txt file and attached is not told from a sheet:
 *      its unquoted block is one, refused beside another command rather
 *      than guessed away; a forwarded message is not read at all (D1).
 *      An OpenPGP/MIME signature over the whole mail covers the file as
 *      it covers the text (decode.c reads only the signed part), so the
 *      file's block is the mail's command, signed, read as in an
 *      unsigned mail: a signed text with no command line beside it is no
 *      longer refused as "no command in what you signed".
 *  J8. Replies per hour (a loop with another robot, a flood through us)
 *      are counted in three budgets of the registered address, so that
 *      mail in a player's name cannot silence the answers to his own (a
 *      red team's find: 30 forged mails used up his replies, and his
 *      proven CHECK, and a LINK of his with a typo, went unanswered).
 *      Mail with a proof that holds (a passphrase, OpenPGP, the lines of
 *      `orderly sign`) has replies-per-hour replies of its own, and the
 *      answer to its ORDERS (a receipt or a refusal) and to its LINK
 *      always goes, as does a LINK taken.  The notice that a mail was not
 *      proven his goes at most MAIL_NOTICES_PER_HOUR times an hour: he
 *      learns of the forgery, and a forger cannot mail him through us.
 *      Every other reply to mail not proven (HELP, a refusal before the
 *      proof is read, a refused LINK with no proof beside it) has
 *      replies-per-hour of its own.
 *  J9. A mail nobody answers (from an address not registered in the
 *      game, a loop or bounce, one that reaches no game) is kept cut: its
 *      headers (up to MAIL_UNANSWERED_HEAD) and the first
 *      MAIL_UNANSWERED_BODY bytes of its body, an X-Orderly-Kept line
 *      saying so.  It was kept whole, up to the MTA's limit, and strangers
 *      could fill the disk with mail nobody reads; what is kept is enough
 *      for the referee to see who wrote and what (a sheet is a few KiB),
 *      and a mail to no game is bounced whole to its sender by the MTA.
 *      How many such mails come an hour is left to the MTA's limits.
 *      A mail from a registered address that no proof of which held (a
 *      forged From:, a wrong passphrase, HELP, a refusal before the proof
 *      was read) is kept cut the same way once it is answered, in the
 *      transaction that marks it done ("the mail not proven"): it was kept
 *      whole, and a forger who knew a player's address grew the game file
 *      by 5 MB a mail (a red team's find).  It is stored whole first, as
 *      every mail is (step 2: nothing lost before it is answered), and the
 *      pages it took are reused by the next.  A LINK recorded is kept
 *      whole: the link proved it.
 *  J10. Without a block, the text of a player's mail is his sheet, and a
 *      line that begins with a command word is a command ("Report back if
 *      anything is wrong" is REPORT, "Help appreciated" HELP, "Status of
 *      the game?" STATUS), as is a command in the Subject ("Re: status").
 *      Such a mail that also holds order lines is refused whole, nothing
 *      stored and the command not done: the sheet was dropped unsaid, and
 *      a STATUS answered then told of his older sheet as "received".  An
 *      order line is one that begins with a unit of the game, any side's,
 *      as a sheet names it: its id or its name, as the first word or
 *      before a ':' ("B1 ↑ 1/4", "Blue Hussars: Fb"), whether or not the
 *      rest is right; a greeting, a question or a signature begins with
 *      no unit, so a STATUS mail with them is still a STATUS.  The words
 *      a unit is read from are the notations' (hieroglyph, ordre), looked
 *      up among the game's units: the lines are not parsed, so that the
 *      rule holds when the turn takes no sheet (sealed) too.
 *  J11. A referee's mail of commands is those commands and his proof:
 *      a line that is neither (a word misspelt, "SHEDULE every 24h") was
 *      text, passed over, and the reply said "done" with the schedule
 *      unchanged.  Such a line gets the mail refused before its first
 *      command, nothing done, the line named ("stopped at a problem", as
 *      a command refused stops there); quoted lines and the signature
 *      are not read, as in any mail.
 *  J12. Wrong passphrases are counted per party (a side, the referee) in
 *      the game file (mail_pass_fail), and past the game's passphrase
 *      tries (ORD_MAIL_PASS_TRIES, 5, or `register --passphrase-tries`)
 *      within an hour, the party's passphrases are not checked until an
 *      hour after the last: a mail that only its passphrase would prove
 *      is refused without the Argon2 check, its inbox result saying
 *      "passphrase proofs of SIDE are suspended until ...".  Anyone who
 *      knows a player's address could forge his From: and guess without
 *      end, each guess checked (a red team: 40 in 22 s, and the right one
 *      stored orders as blue; the passphrase is the web login too), and
 *      the notices of J8 went silent after two.  A check is counted
 *      before it runs, in a transaction of its own, and forgotten when
 *      the passphrase was right: mail-in processes running at once (the
 *      MTA runs one a mail) are counted together, and a check that never
 *      finished counts as wrong.  The player and the referee are told
 *      once a suspension, whatever the budgets of J8, with each mail
 *      counted (its inbox number, time, From: and Return-Path:).  Only
 *      the passphrase is suspended: an OpenPGP/MIME signature by the
 *      party's key, and a side's lines of `orderly sign` (`--draft` for
 *      a CHECK), prove as ever, also in a mail that carries a passphrase
 *      beside them, so a forger cannot lock the player out ("sign your
 *      orders, or wait until ...").  The count is of the party, not of
 *      the sender: the envelope of a forged mail says nothing certain.
 *      A check running is counted apart from a wrong one (schema 16):
 *      while the checks running would make the tries were they wrong,
 *      a mail waits for them (pass_try, at most PASS_WAIT_MS), so that
 *      right passphrases sent at once are each checked; until then eight
 *      of the referee's own sent at once had three refused as suspended.
 *      A side with no other proof (no key of its own, no OpenPGP key) is
 *      kept out of mail meanwhile, by whoever sent the wrong ones (attack
 *      37): the suspension is logged when it begins (mail-suspended, in
 *      game_mail.c), the verifier notes it at a seal that stood in for
 *      the side, and its notice says so rather than "sign your orders".
 *      A new passphrase registered ends the suspension at once (the
 *      wrong ones were guesses of the old one), logged too
 *      (mail-unsuspended), and the notice says so.
 *  J13. ORDERS are late by the time our MTA received the mail (its
 *      topmost Received: line, D11), not the time mail-in reads it: a
 *      mail the MTA kept queued (the game locked by a tick or another
 *      mail-in, exit 75 and a retry) that came in time was refused as
 *      late, though the player sent it in time.  The sender's Date: is
 *      never read for it.  The core dates the sheet's entry at that time
 *      or at the log's last entry if later (a deadline set, a turn
 *      opened, after the mail came), never after now, and takes it only
 *      if that is not after the deadline (ord_submit_opts.received), so
 *      every verify holds it to the deadline as any sheet; a turn sealed
 *      meanwhile takes no sheet, whenever it came (the tick's auto-seal
 *      at the end of the grace).  A CHECK, STATUS and the rest answer at
 *      the time they are read.  A date older than MAIL_QUEUE_DAYS is not
 *      believed (no MTA keeps a mail so long: exim gives up after 4 days,
 *      Postfix after 5), nor one ahead of now.
 */

/* J13: the longest an MTA keeps a mail queued, in days */
#define MAIL_QUEUE_DAYS 7
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/common.h"
#include "core/lookalike.h"
#include "mail/mail.h"

struct judge {
	ord_game *g;
	struct mail_msg *m;
	struct mail_body *b;
	int64_t inbox_id;
	int step;         /* the referee's command being done (J2) */
	const char *side; /* the acting side; NULL for the referee */
	int referee;
	char rcpt[256];       /* his registered address */
	struct ord_buf reply; /* the reply's body */
	struct ord_buf subject;
	struct ord_buf result;          /* one line for the inbox */
	struct ord_buf reading;         /* orderly's reading of the sheet */
	struct ord_reading_marks marks; /* its lines of no accepted order */
	int64_t pgp_taken;              /* when its OpenPGP signature was made, once proven */
	char game[128];                 /* the game's name, as in its address */
	char why[512];                  /* why it is not proven, when made up here */
	int sheet_answer;               /* a receipt or a rejection: not rate-limited */
	int proven;                     /* a proof held: a passphrase, OpenPGP, signed lines (J8) */
	int notice;                     /* the reply says the mail was not proven (J8) */
	/* the reply's text goes on with the text_len bytes of the file open
	 * at text_fd (< 0: none): a REPORT's report, written there as it is
	 * made and mailed from it, as tick's turn reports are */
	int text_fd;
	size_t text_len;
	/* the signed head the reply carries (a receipt's, a link's), if any */
	struct mail_attach att;
	struct ord_buf att_text, att_name;
	size_t natt;
	int deadline_set;           /* a DEADLINE or SCHEDULE command is changing it */
	size_t deadline_told;       /* the sides mailed the change */
	int deadline_turn;          /* the turn whose deadline it changed */
	int64_t deadline_kept;      /* the deadline the game keeps now (the grace's end) */
	int quiet;                  /* no reply (rate limit, loop) */
	int answered;               /* the message is marked processed */
	struct ord_diag *warnings;  /* the sheet's warnings its receipt says (ORDERS) */
	const struct ord_buf *kept; /* the message as stored: cut when not proven (J9) */
	int64_t pass_until;         /* the party's passphrases not checked until then (J12) */
	int pass_wrong;             /* its passphrase was checked, and wrong (J12) */
	int pass_waited;            /* not checked: others' checks ran all the wait (J12) */
};

/* ---- replies ---- */

/*
 * Whether a reply may go now (J8): *ok 1, the reply counted in the
 * sender's budget it falls in, or 0 with the inbox's note of why not.
 * The budgets are rows of mail_rate under their own keys: the address
 * (proven mail), "unproven:" and "notice:" before it.
 */
static int reply_budget(struct judge *j, int per_hour, int *ok)
{
	char key[sizeof(j->rcpt) + 16];
	int n = per_hour > 0 ? per_hour : 30, err;
	const char *used = "replies per hour used up";

	*ok = 1;
	/* the answer to a sheet, stored or refused, and to a LINK taken, or
	 * refused in proven mail, always goes: the player must learn what
	 * will be sealed and whether his link is in */
	if (j->sheet_answer || (j->proven && !j->referee && j->b && j->b->cmd == CMD_LINK))
		return 0;
	if (j->notice) {
		snprintf(key, sizeof(key), "notice:%s", j->rcpt);
		n = n < MAIL_NOTICES_PER_HOUR ? n : MAIL_NOTICES_PER_HOUR;
		used = "notices per hour of mail not proven used up";
	} else if (!j->proven) {
		snprintf(key, sizeof(key), "unproven:%s", j->rcpt);
		used = "replies per hour to mail not proven used up";
	} else {
		snprintf(key, sizeof(key), "%s", j->rcpt);
	}
	if ((err = ord_mail_rate(j->g, key, n, ok)) != 0)
		return err;
	if (!*ok)
		ord_buf_addf(&j->result, " (no reply: %s)", used);
	return 0;
}

static void when(ord_game *g, struct ord_buf *out, int64_t t);
static void kept_cut(struct ord_buf *kept, const char *why);

/*
 * J12: the party's passphrases are not checked (wrong ones came, past the
 * game's tries): the player and the referee are told once a suspension,
 * the mail that caused it listed, whatever the budgets of J8 (a forger
 * who sends thirty gets them one mail each).
 */
static int pass_notice(struct judge *j)
{
	struct ord_buf who = ORD_BUF_INIT, body = ORD_BUF_INIT, key = ORD_BUF_INIT,
		       until_s = ORD_BUF_INIT, subj = ORD_BUF_INIT, deadline_s = ORD_BUF_INIT;
	const char *party = j->side ? j->side : "the referee";
	struct ord_mail_party mp;
	struct ord_game_status ti;
	int64_t until = 0;
	int err, tries = 0, mp_ok, late = 0;

	if ((err = ord_mail_pass_suspended(j->g, j->side, &until, &who)) != 0 || !until ||
	    (err = ord_mail_pass_tries(j->g, &tries)) != 0)
		goto out;
	when(j->g, &until_s, until);
	/* what else proves the party (J12): none, and the passphrase's
	 * suspension shuts it out of mail (attack 37) */
	mp_ok = ord_mail_party(j->g, j->side, &mp) == 0;
	ord_error_clear();
	/* a side with no sheet in, whose turn takes sheets until before
	 * the suspension ends */
	if (j->side && ord_game_status(j->g, &ti) == 0 && !strcmp(ti.state, "open") &&
	    ti.deadline && ti.deadline < until) {
		int version = 0;
		char source[16] = "";
		unsigned char c[32];
		if (ord_game_side_sheet(j->g, ti.turn, j->side, &version, source, c) == 0 &&
		    (!version || strcmp(source, "submitted"))) {
			late = 1;
			when(j->g, &deadline_s, ti.deadline);
		}
	}
	ord_error_clear();
	ord_buf_addf(&subj, "passphrases of %s not checked until %s", party, until_s.buf);
	ord_buf_addf(&body,
		     "Wrong passphrases for %s came by mail, %d within an hour, the most\n"
		     "orderly checks (or checks that never finished):\n\n",
		     party, tries);
	{
		const char *p = who.buf;
		while (p && *p) {
			size_t n = strcspn(p, "\n");
			ord_buf_addf(&body, "  %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
	}
	ord_buf_addf(&body,
		     "\nEach was sent from %s's registered address, or in its name: anyone\n"
		     "who knows the address can write it on a mail and guess the passphrase.\n"
		     "So until %s a passphrase of %s is not\n"
		     "checked: a mail that only a passphrase would prove is refused, its\n"
		     "passphrase unread, whoever sent it.\n\n",
		     party, until_s.buf, party);
	if (!mp_ok || *mp.pgp_fpr || mp.has_sign_key)
		ord_buf_addf(&body,
			     "Sign your orders, or wait until %s. A mail signed\n"
			     "with the registered OpenPGP key (OpenPGP/MIME, a line 'Game: %s'),\n"
			     "orders with the three lines of 'orderly sign' and a CHECK with those of\n"
			     "'orderly sign --draft' are taken as ever: nobody can lock %s out by\n"
			     "sending wrong passphrases.\n\n",
			     until_s.buf, j->game, party);
	else if (!j->side)
		ord_buf_addf(&body,
			     "The referee has no other proof registered (no OpenPGP key), so until\n"
			     "then no command of his is taken by mail: whoever sent the wrong\n"
			     "passphrases can keep him out, %d mails an hour. The command line\n"
			     "takes them as ever ('orderly seal', 'orderly deadline' ...), and\n"
			     "'orderly register GAME --referee --pgp-key FILE' registers a key.\n\n",
			     tries);
	else
		ord_buf_addf(&body,
			     "%s has no other proof registered (no OpenPGP key%s),\n"
			     "so until then no mail of %s's that needs a proof is taken: whoever\n"
			     "sent the wrong passphrases can keep it out, %d mails an hour. The\n"
			     "referee can register an OpenPGP key for it ('orderly register\n"
			     "--pgp-key') or a new passphrase, which ends the suspension, and\n"
			     "move the deadline to give it time (DEADLINE). The game's log keeps\n"
			     "the suspension: every audit and verify of a turn sealed with the\n"
			     "NMR policy standing in for %s says it was suspended.\n\n",
			     party, ", no key of its own in the scenario", party, tries, party);
	if (late)
		ord_buf_addf(&body,
			     "%s has no sheet in for turn %d, and its sheets are taken until\n"
			     "%s, before the suspension ends.\n\n",
			     party, ti.turn, deadline_s.buf);
	ord_buf_adds(&body,
		     "If the wrong passphrases were not yours, someone is guessing it; the\n"
		     "referee sees each mail in the game's inbox (its Received: lines), and\n"
		     "a passphrase registered anew ('orderly register --passphrase-file') is\n"
		     "one the guesses so far did not try: it ends the suspension at once,\n"
		     "since they were guesses of the old one. It is the web page's login too.\n");
	ord_buf_addf(&key, "pass-suspended/%s/%lld", j->side ? j->side : "", (long long)until);
	if (j->side && (err = mail_queue_to(j->g, j->side, key.buf, subj.buf, body.buf, NULL, NULL,
					    NULL, 0)) != 0)
		goto out;
	ord_buf_adds(&key, "/referee");
	err = mail_queue_to(j->g, NULL, key.buf, subj.buf, body.buf, NULL, NULL, NULL, 0);
out:
	ord_buf_release(&who);
	ord_buf_release(&body);
	ord_buf_release(&key);
	ord_buf_release(&until_s);
	ord_buf_release(&subj);
	ord_buf_release(&deadline_s);
	return err;
}

/* J9: a mail no proof of which held is kept cut, as a stranger's is: its
 * headers, the start of its body and its size, in the transaction that
 * marks it done; a forged From: stored whole let anyone who knows a
 * player's address grow the game file by the MTA's limit a mail. */
static int keep_cut(struct judge *j)
{
	struct ord_buf cut = ORD_BUF_INIT;
	int err = 0;

	if (!j->kept || j->proven)
		return 0;
	/* a link proves itself (J6): the mail of a link recorded is kept */
	if (!j->referee && j->b && j->b->cmd == CMD_LINK && j->sheet_answer)
		return 0;
	ord_buf_add(&cut, j->kept->buf, j->kept->len);
	kept_cut(&cut, "the mail not proven");
	if (cut.len < j->kept->len)
		err = ord_mail_inbox_cut(j->g, j->inbox_id, cut.buf, cut.len);
	ord_buf_release(&cut);
	return err;
}

static int queue_reply(struct judge *j)
{
	struct ord_buf body = ORD_BUF_INIT;
	int per_hour = 30, ok = 1, err = 0;

	/* an attached file that is not text was not read (D9): said first,
	 * whatever the answer (the notice of a mail not proven his aside) */
	if (j->m->unread && !j->notice) {
		ord_buf_addf(&body,
			     "Your attachment%s %s %s not read: send plain text in the body or a\n"
			     ".txt file.%s\n\n",
			     j->m->nunread > 1 ? "s" : "", j->m->unread,
			     j->m->nunread > 1 ? "were" : "was",
			     j->m->nunread > 5 ? " (and more attachments not read)" : "");
	}
	ord_buf_add(&body, j->reply.buf, j->reply.len);
	if (!j->quiet && *j->rcpt) {
		ord_mail_config(j->g, NULL, &per_hour);
		if ((err = reply_budget(j, per_hour, &ok)) != 0)
			goto out;
		if (ok && (err = mail_queue_mail(j->g, j->rcpt, NULL, j->subject.buf, body.buf, j->text_fd,
						 j->text_len, j->m->message_id, j->m->references,
						 j->natt ? &j->att : NULL, j->natt)) != 0)
			goto out;
	}
	/* the signature is taken with the answer: a mail the MTA gives again
	 * before it was answered is no mail sent again */
	if (j->pgp_taken > 0 && (err = ord_mail_set_pgp_last(j->g, j->side, j->pgp_taken)) != 0)
		goto out;
	if ((j->pass_wrong || j->pass_until) && (err = pass_notice(j)) != 0)
		goto out;
	if ((err = keep_cut(j)) != 0)
		goto out;
	err = ord_mail_inbox_done(j->g, j->inbox_id, j->result.buf);
	if (!err)
		j->answered = 1;
out:
	ord_buf_release(&body);
	return err;
}

static int reply_tx(void *ud, ord_game *g)
{
	struct judge *j = ud;
	int64_t next;
	int err;

	(void)g;
	if ((err = mail_notices(j->g, ord_game_now(j->g), &next)) != 0)
		return err;
	return queue_reply(j);
}

/* Answer without a change: the reply and the mark in one transaction. */
static int answer(struct judge *j)
{
	return ord_game_transact(j->g, reply_tx, j);
}

/* Answer a mail refused as it stands, changing nothing: subject, reply and
 * the inbox's note of it. */
static int refuse(struct judge *j, const char *subject, const char *reply, const char *result)
{
	ord_buf_adds(&j->subject, subject);
	ord_buf_adds(&j->reply, reply);
	ord_buf_adds(&j->result, result);
	return answer(j);
}

static void when(ord_game *g, struct ord_buf *out, int64_t t)
{
	struct ord_schedule s;

	if (ord_game_schedule(g, &s) == 0 && strcmp(s.zone, "UTC")) {
		ord_when_format(out, t, s.zone);
		ord_buf_adds(out, ", ");
	}
	ord_error_clear();
	ord_when_format(out, t, NULL);
}

void mail_quote_at(struct ord_buf *out, const char *line, size_t len, unsigned col)
{
	const unsigned char *p = (const unsigned char *)line, *e = p + len;
	struct ord_buf pad = ORD_BUF_INIT;
	unsigned n = 0, w, under = 0;
	size_t k;

	/* each character as the reports show it (ord_buf_add_name_char: an
	 * override or a zero-width space escaped, \u202e, never acted on by
	 * the reader's program; a byte that is no UTF-8 as \xff), at most
	 * MAIL_QUOTE_MAX of them, cut between two.  col counts characters as
	 * the sheet reader does (every byte but a continuation byte begins
	 * one; a stray continuation byte is at the column after the
	 * characters before it, where the reader names it); under each before
	 * it as many blanks as it is shown wide (ord_char_columns: a
	 * combining mark none, a CJK character two, an escape its length), a
	 * tab kept and a tab under it */
	ord_buf_adds(out, "    ");
	while (p < e) {
		int begins = (*p & 0xC0) != 0x80;
		if (begins && n + 1 > MAIL_QUOTE_MAX)
			break;
		if (n + 1 == col)
			under = 1;
		n += begins;
		if (*p == '\t') {
			ord_buf_addch(out, '\t');
			k = 1;
			w = 0;
			if (!under)
				ord_buf_addch(&pad, '\t');
		} else {
			k = ord_buf_add_name_char(out, p, e, &w);
		}
		for (; !under && w; w--)
			ord_buf_addch(&pad, ' ');
		p += k;
	}
	ord_buf_addch(out, '\n');
	/* a column just past the line's end (a word missing there) too */
	if (col && col <= n + (p == e))
		ord_buf_addf(out, "    %s^\n", pad.len ? pad.buf : "");
	ord_buf_release(&pad);
}

/* A problem (or a warning, before which `before` is written) at the
 * player's line, the line quoted with a caret under its column. */
static void put_item(struct judge *j, const struct ord_diag_item *it, const char *before)
{
	const char *sheet = j->b->sheet.buf;
	unsigned line = it->line;
	unsigned shown = line && line <= j->b->nlines ? j->b->lines[line - 1] : line;
	struct ord_buf msg = ORD_BUF_INIT;

	ord_buf_adds(&j->reply, before);
	if (line)
		ord_buf_addf(&j->reply, "line %u, col %u: ", shown, it->col);
	/* the unit as he wrote it and the message, which may quote his
	 * words, shown as the quote below shows them: a character a reader
	 * does not see or that turns what he reads escaped (attack 43), as
	 * the command line escapes every line of a message */
	if (*it->unit && !ord_diag_names_unit(it)) {
		ord_buf_adds(&j->reply, "unit ");
		ord_buf_add_name_quoted(&j->reply, it->unit, MAIL_QUOTE_MAX);
		ord_buf_adds(&j->reply, ": ");
	}
	ord_diag_item_format(&msg, it);
	ord_buf_add_name_line(&j->reply, msg.len ? msg.buf : "");
	ord_buf_release(&msg);
	ord_buf_addch(&j->reply, '\n');
	if (line && line <= j->b->nlines) {
		/* the line as he wrote it, and a caret under the column */
		const char *p = sheet;
		unsigned k;
		for (k = 1; k < line && p; k++) {
			p = strchr(p, '\n');
			p = p ? p + 1 : NULL;
		}
		if (p)
			mail_quote_at(&j->reply, p, strcspn(p, "\n"), it->col);
	}
}

/* The sheet's warnings (ord_sheet_warnings), after its receipt or its
 * check's answer: a sheet of another turn is taken as sent. */
static void put_warnings(struct judge *j, const struct ord_diag *w, const char *taken)
{
	size_t i;

	if (!w || !w->n)
		return;
	ord_buf_addch(&j->reply, '\n');
	for (i = 0; i < w->n; i++)
		put_item(j, &w->items[i], "Warning: ");
	ord_buf_addf(&j->reply, "(%s: a comment is your own; line numbers count in %s)\n", taken,
		     j->b->where);
}

/* The sheet's problems in the player's lines, each with its line quoted. */
static void put_problems(struct judge *j, const struct ord_diag *d)
{
	size_t i;

	ord_buf_addf(&j->reply, "Line numbers count in %s.\n", j->b->where);
	/* B2: without a block every line is the sheet, a greeting too;
	 * the lines it holds are not guessed at */
	if (!j->b->block)
		ord_buf_adds(&j->reply,
			     "It has no line ORDERS, so every line of it is read as an order:\n"
			     "a greeting, a thanks, your name or 'Sent from my iPhone' too (not\n"
			     "Passphrase: and the like, quoted lines, or the signature below a\n"
			     "line '-- '). Put the orders between a line ORDERS and a line END\n"
			     "and nothing else is read.\n");
	ord_buf_addch(&j->reply, '\n');
	for (i = 0; i < d->n; i++)
		put_item(j, &d->items[i], "");
	if (d->more)
		ord_buf_addf(&j->reply, "%zu more problem%s not listed\n", d->more,
			     d->more == 1 ? "" : "s");
}

static void put_reading(struct judge *j)
{
	if (!j->reading.len)
		return;
	ord_buf_adds(&j->reply,
		     "\norderly's reading of your sheet (one order a line, as it understands it):\n\n");
	{
		const char *p = j->reading.buf;
		size_t k = 0;
		while (*p) {
			size_t n = strcspn(p, "\n"), at = (size_t)(p - j->reading.buf);
			const struct ord_reading_mark *m = NULL;

			while (k < j->marks.n && j->marks.items[k].at < at)
				k++;
			if (k < j->marks.n && j->marks.items[k].at == at)
				m = &j->marks.items[k];
			/* a line the reading names (its marks) counts as the
			 * problems do: in the player's mail, not in the sheet
			 * taken from it */
			if (m && m->line >= 1 && m->line <= j->b->nlines && m->words <= at + n)
				ord_buf_addf(&j->reply, "    # line %u %.*s\n",
					     j->b->lines[m->line - 1], (int)(at + n - m->words),
					     j->reading.buf + m->words);
			else
				ord_buf_addf(&j->reply, "    %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
	}
}

/* The schedule's grace (0 when none or unreadable). */
static int64_t grace_of(ord_game *g)
{
	struct ord_schedule s;

	if (ord_game_schedule(g, &s) != 0) {
		ord_error_clear();
		return 0;
	}
	return s.grace;
}

/*
 * The deadline as the player was told it (docs/pbem.md): the time before
 * the schedule's grace, and when the grace ends; the game keeps the end.
 */
static void put_deadline(struct judge *j)
{
	struct ord_game_status ti;
	int64_t grace = grace_of(j->g);

	if (ord_game_status(j->g, &ti) != 0 || !ti.deadline) {
		ord_error_clear();
		ord_buf_adds(&j->reply, "deadline:   none set\n");
		return;
	}
	ord_buf_adds(&j->reply, "deadline:   ");
	when(j->g, &j->reply, ti.deadline - grace);
	ord_buf_addch(&j->reply, '\n');
	/* the grace is offered only while it is ahead */
	if (grace && ord_game_now(j->g) <= ti.deadline) {
		ord_buf_adds(&j->reply, "            sheets are still taken in the grace, until ");
		when(j->g, &j->reply, ti.deadline);
		ord_buf_addch(&j->reply, '\n');
	} else if (grace) {
		ord_buf_adds(&j->reply, "            its grace ended at ");
		when(j->g, &j->reply, ti.deadline);
		ord_buf_addch(&j->reply, '\n');
	}
}

/* Which sheet of the player's side counts for turn, after a refusal: a
 * refused correction leaves his last version standing, and he must know
 * it (the one of his last receipt).  0, or the store's error. */
static int put_standing(struct judge *j, int turn, int open)
{
	unsigned char c[32];
	char source[16], hex[65];
	int version, err;

	if ((err = ord_game_side_sheet(j->g, turn, j->side, &version, source, c)) != 0)
		return err;
	mail_hex(hex, c, 32);
	if (version && !strcmp(source, "submitted"))
		ord_buf_addf(&j->reply,
			     "Your version %d (commitment %.16s..., the one of your last receipt)\n"
			     "%s.\n",
			     version, hex,
			     open ? "stands: it is the sheet that will be sealed unless you send another"
				  : "stands: it is your sheet of the turn");
	else if (version)
		ord_buf_addf(&j->reply,
			     "Your side had no sheet of turn %d: the NMR policy stood in.\n", turn);
	else
		ord_buf_addf(&j->reply, "You have no sheet for turn %d%s.\n", turn, open ? " yet" : "");
	return 0;
}

/* Where each side's link of the phase stands: whether it is in, never
 * anything of it.  0, or the store's error. */
static int put_links(struct judge *j, int phase)
{
	size_t i;
	int p, closed, err;

	ord_buf_addf(&j->reply, "links of phase %d:\n", phase);
	for (i = 0; i < ord_game_nsides(j->g); i++) {
		const char *side = ord_game_side_name(j->g, i);
		enum ord_link_state st;

		if ((err = ord_game_link_state(j->g, side, &p, &closed, &st)) != 0)
			return err;
		ord_buf_addf(&j->reply, "  %-12s %s%s\n", side,
			     st == ORD_LINK_REVEALED ? "recorded"
			     : st == ORD_LINK_AWAITED
				     ? "awaited"
				     : "none owed (a stand-in sheet with no chain: the referee's stands in)",
			     j->side && !strcmp(side, j->side) ? " (yours)" : "");
	}
	return 0;
}

/* The reply carries h, a head the game signs for this player alone (a
 * receipt, a link recorded: threat model, 21 and 22), as name. */
static void attach_signed(struct judge *j, const struct ord_head *h, const struct ord_receipt *r)
{
	ord_buf_reset(&j->att_text);
	if (r)
		ord_receipt_head_format(h, r, &j->att_text);
	else
		ord_head_format(h, &j->att_text);
	j->att.filename = j->att_name.buf;
	j->att.type = "text/plain";
	j->att.data = j->att_text.buf;
	j->att.len = j->att_text.len;
	j->natt = 1;
}

/* A side's link was recorded (cmd_link): its reply, in the change's
 * transaction. */
static int link_taken(struct judge *j, const struct ord_change *c)
{
	int phase, closed, err;

	if ((err = ord_game_link_state(j->g, NULL, &phase, &closed, NULL)) != 0)
		return err;
	j->sheet_answer = 1; /* J6: the answer to a link taken always goes */
	ord_buf_reset(&j->subject);
	ord_buf_addf(&j->subject, "link recorded: turn %d, phase %d, %s", c->turn, phase, c->side);
	ord_buf_reset(&j->reply);
	ord_buf_addf(&j->reply,
		     "Your side's witness link for phase %d ('%s') of turn %d is recorded: it\n"
		     "leads to the chain your sheet committed to.\n\n",
		     phase, c->phase, c->turn);
	{
		struct ord_head h;
		ord_buf_reset(&j->att_name);
		ord_game_file_name(j->g, 1, &j->att_name, c->side, "link-%d-%d-%s.head", c->turn,
				   phase, c->side);
		if ((err = ord_game_link_head(j->g, &h, c->turn, c->side, phase)) == 0) {
			attach_signed(j, &h, NULL);
			ord_buf_addf(&j->reply,
				     "The game's signed head of the entry that records it is attached\n"
				     "(%s): keep it. It proves your link was in the log before the\n"
				     "phase was resolved: 'orderly verify BUNDLE --head %s' fails if the\n"
				     "phase was resolved on a history without it (your side stood in for).\n\n",
				     j->att_name.buf, j->att_name.buf);
		} else if (err == ORD_EUSAGE) {
			/* the game's key is kept outside its file */
			ord_error_clear();
			ord_buf_addf(&j->reply,
				     "No signed head of it is attached: the game's key is not in the\n"
				     "judge's file. Ask the referee for it ('orderly head GAME --at link\n"
				     "--side %s --phase %d --key KEY').\n\n",
				     c->side, phase);
		} else {
			return err;
		}
	}
	if ((err = put_links(j, phase)) != 0)
		return err;
	ord_buf_adds(&j->reply,
		     "\nOnce every link is in, the referee resolves the phase: its dice come\n"
		     "from the turn's dice key, the events closed and every side's link.\n");
	ord_buf_reset(&j->result);
	ord_buf_addf(&j->result, "link of %s recorded: turn %d phase %d", c->side, c->turn, phase);
	return queue_reply(j);
}

/* ---- the change hook ---- */

static int hook(void *ud, ord_game *g, const struct ord_change *c)
{
	struct judge *j = ud;
	int64_t next;
	int err;

	/* before the notices: a side not told of the turn yet is told the
	 * new deadline by the mail of its opening */
	if (c->kind == ORD_CHANGE_DEADLINE && j->deadline_set) {
		j->deadline_turn = c->turn;
		j->deadline_kept = c->deadline;
		if ((err = mail_deadline_change(g, c, &j->deadline_told)) != 0)
			return err;
	}
	if ((err = mail_notices(g, ord_game_now(g), &next)) != 0)
		return err;
	switch (c->kind) {
	case ORD_CHANGE_SUBMIT: {
		char hex[65];
		j->sheet_answer = 1;
		mail_hex(hex, c->receipt->commitment, 32);
		ord_buf_reset(&j->subject);
		ord_buf_addf(&j->subject, "receipt: turn %d, %s, version %d", c->turn, c->side,
			     c->receipt->version);
		ord_buf_reset(&j->reply);
		ord_buf_addf(&j->reply,
			     "Your orders for turn %d are stored: this is your receipt.\n\n"
			     "receipt:    turn %d side %s version %d\n"
			     "commitment: %s\n",
			     c->turn, c->turn, c->side, c->receipt->version, hex);
		put_warnings(j, j->warnings, "stored as sent");
		put_deadline(j);
		{
			struct ord_head h;
			ord_buf_reset(&j->att_name);
			ord_game_file_name(g, 1, &j->att_name, c->side, "receipt-%d-%s-%d.head",
					   c->turn, c->side, c->receipt->version);
			if ((err = ord_game_receipt_head(g, &h, c->receipt)) == 0) {
				attach_signed(j, &h, c->receipt);
				ord_buf_addf(&j->reply,
					     "\nKeep the attached receipt %s: the game's signature of the\n"
					     "entry that stores this sheet and of its commitment (the one above;\n"
					     "if you signed the sheet, check that it is the one 'orderly sign'\n"
					     "gave you). After the exchange, 'orderly verify' with --receipt %s\n"
					     "proves that this very sheet was the one sealed (the commitment\n"
					     "alone is only your word). Check it now: 'orderly verify --receipt\n"
					     "%s --pubkey KEY' says whose sheet and which version\n"
					     "the game signed it for.\n"
					     "A new mail with ORDERS replaces this version until the deadline.\n",
					     j->att_name.buf, j->att_name.buf, j->att_name.buf);
			} else if (err == ORD_EUSAGE) {
				/* the game's key is kept outside its file */
				ord_error_clear();
				ord_buf_addf(&j->reply,
					     "\nKeep the commitment: after the exchange, 'orderly verify' with\n"
					     "--receipt %s checks that this very sheet was the one\n"
					     "sealed. No receipt signed by the game is attached: its key is not\n"
					     "in the judge's file. A new mail with ORDERS replaces this version\n"
					     "until the deadline.\n",
					     hex);
			} else {
				return err;
			}
		}
		put_reading(j);
		ord_buf_reset(&j->result);
		ord_buf_addf(&j->result, "orders of %s stored: turn %d version %d", c->side,
			     c->turn, c->receipt->version);
		return queue_reply(j);
	}
	case ORD_CHANGE_WITNESS:
		if (!j->referee && j->b->cmd == CMD_LINK)
			return link_taken(j, c);
		/* fall through */
	default:
		/* the referee's changes: the notices are queued; note the step */
		if (j->referee)
			return ord_mail_inbox_step(g, j->inbox_id, j->step);
		return 0;
	}
}

/* ---- commands ---- */

static int cmd_help(struct judge *j)
{
	ord_buf_adds(&j->subject, "help");
	ord_buf_addf(&j->reply,
		     "orderly, the judge of the game '%s', reads mail sent to this address.\n\n"
		     "Orders: write them between a line ORDERS and a line END, one order a\n"
		     "line as on paper; put your passphrase on a line 'Passphrase: ...'\n"
		     "(or sign the whole mail, a file attached with it, with your registered\n"
		     "OpenPGP key, a line 'Game: %s' in its text, or paste the three lines\n"
		     "'orderly sign' printed). The orders may come in an attached .txt file\n"
		     "instead, read as your text is.\n"
		     "A new sheet replaces the last one until the deadline. Quoted lines\n"
		     "('>') and your signature are ignored.\n\n"
		     "Commands, on a line of their own or as the subject:\n"
		     "  ORDERS ... END   submit orders (also the default for a plain mail)\n"
		     "  CHECK ... END    check orders: every problem, nothing stored (its proof\n"
		     "                   as for orders, but the lines 'orderly sign --draft'\n"
		     "                   prints, never those of 'orderly sign')\n"
		     "  STATUS           turn, deadline, which sides have sent orders\n"
		     "  REPORT [TURN]    your side's report\n"
		     "  LINK [P] HEX     witnessed dice: your side's link for phase P, once\n"
		     "                   the referee has closed it (the 64 hexadecimal digits\n"
		     "                   'orderly witness --link-for' prints); no passphrase\n"
		     "                   needed, the link is checked against your chain\n"
		     "  HELP             this text\n"
		     "The referee also: SEAL [FORCE], EVENT KIND key=value..., CLOSE (witnessed\n"
		     "dice), RESOLVE [PHASE] [EMPTY] [dice=N,N,...] [STAND-IN], EXCHANGE, DEADLINE\n"
		     "WHEN|none (DEADLINE WHEN PAST for a time already past), SCHEDULE TEXT.\n",
		     ord_game_name(j->g), j->game);
	ord_buf_adds(&j->result, "help sent");
	return answer(j);
}

static int cmd_status(struct judge *j)
{
	struct ord_game_status ti;
	struct ord_schedule s;
	size_t i;
	int err;

	if ((err = ord_game_status(j->g, &ti)) != 0)
		return err;
	ord_buf_addf(&j->subject, "status: turn %d (%s)", ti.turn, ti.state);
	ord_buf_addf(&j->reply, "game:       %s\nturn:       %d (%s)\n", ord_game_name(j->g),
		     ti.turn, ti.state);
	if (*ti.phase)
		ord_buf_addf(&j->reply, "phase:      %s (%d of %d resolved)\n", ti.phase,
			     ti.phases_resolved, ti.nphases);
	put_deadline(j);
	if (ti.deadline && !strcmp(ti.state, "open") && ord_game_now(j->g) > ti.deadline)
		ord_buf_adds(&j->reply,
			     "            (passed, and its grace: the turn is about to be sealed)\n");
	else if (ti.deadline && !strcmp(ti.state, "open") &&
		 ord_game_now(j->g) > ti.deadline - grace_of(j->g))
		ord_buf_adds(&j->reply,
			     "            (passed: orders are late, still taken in the grace)\n");
	if (ord_game_schedule(j->g, &s) == 0 && s.every) {
		ord_buf_adds(&j->reply, "schedule:   ");
		ord_schedule_format(&s, &j->reply);
		ord_buf_addch(&j->reply, '\n');
	}
	ord_buf_adds(&j->reply, "orders:\n");
	for (i = 0; i < ord_game_nsides(j->g); i++) {
		const char *side = ord_game_side_name(j->g, i);
		unsigned char c[32];
		char source[16];
		int version;

		if ((err = ord_game_side_sheet(j->g, ti.turn, side, &version, source, c)) != 0)
			return err;
		/* never anything of another side's sheet: whether it has one */
		ord_buf_addf(&j->reply, "  %-12s %s\n", side,
			     !version                       ? "none yet"
			     : !strcmp(source, "submitted") ? "received"
							    : "none: NMR policy applied");
	}
	if (ti.witnessed && !strcmp(ti.state, "sealed")) {
		int phase, closed;
		if ((err = ord_game_link_state(j->g, NULL, &phase, &closed, NULL)) != 0) {
			if (err != ORD_ESTATE)
				return err;
			ord_error_clear();
		} else if (!closed) {
			ord_buf_addf(&j->reply,
				     "links:      phase %d's events are not closed yet\n", phase);
		} else if ((err = put_links(j, phase)) != 0) {
			return err;
		}
	}
	ord_buf_adds(&j->result, "status sent");
	return answer(j);
}

/* The side's report (the referee's: every side's), written into a file
 * as it is made and mailed from it (ord_game_report_fd, as tick mails a
 * turn's reports): a side's report of 100,000 units is 11.6 MB, which the
 * reply held in memory, then GMime several times over. */
static int cmd_report(struct judge *j)
{
	struct ord_report_opts o = { .side = j->side };
	struct ord_buf what = ORD_BUF_INIT;
	long turn = 0;
	size_t len = 0;
	int err, fd;

	if (j->b->args && *j->b->args && (ord_parse_long(j->b->args, &turn) || turn < 1)) {
		ord_buf_addf(&j->subject, "report: not understood");
		ord_buf_addf(&j->reply, "REPORT takes a turn number (1 or more), not '%s'.\n",
			     j->b->args);
		ord_buf_adds(&j->result, "bad REPORT");
		return answer(j);
	}
	if ((fd = ord_game_temp_fd(j->g)) < 0)
		return fd;
	ord_buf_addf(&what, "the temporary file of %s's report", j->side ? j->side : "the referee");
	o.turn = (int)turn;
	err = ord_game_report_fd(j->g, &o, fd, what.buf, &len);
	ord_buf_release(&what);
	if (err == ORD_ECANTWRITE) {
		/* the disk, not the report: the message is given again */
		close(fd);
		return err;
	}
	if (err) {
		ord_buf_addf(&j->subject, "report: none");
		ord_buf_addf(&j->reply, "No report: %s.\n", ord_error_last());
		ord_buf_adds(&j->result, "no report");
	} else {
		ord_buf_addf(&j->subject, "report%s%.0ld", turn ? ": turn " : "", turn);
		j->text_fd = fd;
		j->text_len = len;
		ord_buf_adds(&j->result, "report sent");
	}
	err = answer(j);
	j->text_fd = -1;
	close(fd);
	return err;
}

/* The side's key signs the sheet (draft: its draft signature, J5): the
 * variant of the text that it signs. */
static int signed_variant(struct judge *j, const unsigned char pk[32], struct ord_buf v[3],
			  size_t *which, int draft)
{
	struct ord_game_status ti;
	struct ord_sheet_binding b;
	unsigned char c[32];
	size_t i;

	if (!j->b->have_nonce || !(draft ? j->b->have_draft_signature : j->b->have_signature) ||
	    ord_game_status(j->g, &ti) != 0)
		return 0;
	memset(&b, 0, sizeof(b));
	ord_game_id(j->g, b.game_id);
	b.turn = ti.turn;
	b.side = j->side;
	memcpy(b.seed_commitment, ti.seed_commitment, 32);
	if (j->b->have_witness && !draft)
		memcpy(b.witness, j->b->witness, 32);
	for (i = 0; i < 3; i++) {
		ord_commit_sheet(c, &b, j->b->nonce, v[i].buf, v[i].len);
		if (draft ? ord_draft_sig_check(pk, j->b->draft_signature, b.game_id, ti.turn,
						j->side, c) == 0
			  : ord_sheet_sig_check(pk, j->b->signature, b.game_id, ti.turn, j->side,
						c) == 0) {
			*which = i;
			return 1;
		}
	}
	return 0;
}

static int cmd_orders(struct judge *j, int check_only)
{
	struct ord_game_status ti;
	struct ord_diag diag, warnings;
	struct ord_buf v[3];
	unsigned char pk[32];
	size_t which = 0, i;
	int err, has_key;
	int64_t now = ord_game_now(j->g), came = now;

	ord_diag_init(&diag);
	ord_diag_init(&warnings);
	/* J13: ORDERS are judged late by when our MTA received the mail
	 * (its Received: line), not when it is read: a mail it kept queued
	 * past the deadline came in time (the core dates it so, and holds
	 * it to the log's last time) */
	if (!check_only && j->m->received > 0 && j->m->received < now &&
	    j->m->received >= now - MAIL_QUEUE_DAYS * 86400)
		came = j->m->received;
	/* every answer to a proven sheet always goes, whatever used up the
	 * sender's replies: its receipt and any refusal (closed, empty, too
	 * long, not valid); a CHECK's answer counts as any reply does */
	j->sheet_answer = !check_only;
	mail_body_variants(j->b, v);
	if ((err = ord_game_status(j->g, &ti)) != 0)
		goto out;
	has_key = ord_game_side_pubkey(j->g, j->side, pk) == 0;
	ord_error_clear();
	if (strcmp(ti.state, "open") || (ti.deadline && came > ti.deadline)) {
		ord_buf_addf(&j->subject, "orders NOT accepted: turn %d is closed", ti.turn);
		ord_buf_addf(&j->reply, "Turn %d takes no more orders: %s. Nothing was stored.\n",
			     ti.turn,
			     strcmp(ti.state, "open")
				     ? "it is sealed"
				     : "its deadline and the grace after it have passed");
		if ((err = put_standing(j, ti.turn, 0)) != 0)
			goto out;
		put_deadline(j);
		ord_buf_adds(&j->result, "orders refused: turn closed");
		err = answer(j);
		goto out;
	}
	if (!j->b->sheet.len || j->b->sheet.len > MAIL_MAX_TEXT) {
		ord_buf_addf(&j->subject, "orders NOT accepted: %s",
			     j->b->sheet.len ? "too long" : "no orders found");
		ord_buf_addf(&j->reply,
			     j->b->sheet.len
				     ? "Your sheet is longer than %zu bytes; orderly does not read it.\n"
				     : "No orders were found in your mail. Write them between a line ORDERS\n"
				       "and a line END, one order a line (send HELP for more).\n",
			     MAIL_MAX_TEXT);
		if (!check_only && (err = put_standing(j, ti.turn, 1)) != 0)
			goto out;
		ord_buf_adds(&j->result, "no orders found");
		err = answer(j);
		goto out;
	}
	if (has_key && signed_variant(j, pk, v, &which, check_only)) {
		/* the player's exact signed bytes */
	}
	ord_game_check_sheet_marked(j->g, j->side, v[which].buf, v[which].len, &diag, &j->reading,
				    &j->marks);
	ord_error_clear();
	if (check_only) {
		ord_buf_addf(&j->subject, "check: %s", diag.n ? "problems found" : "no problems");
		if (diag.n) {
			ord_buf_addf(&j->reply, "Checked, nothing stored: %zu problem%s.\n",
				     ord_diag_count(&diag), ord_diag_count(&diag) == 1 ? "" : "s");
			put_problems(j, &diag);
		} else {
			ord_buf_adds(&j->reply,
				     "Checked, nothing stored: no problems. Send it with ORDERS to submit it.\n");
		}
		ord_sheet_warnings(&warnings, v[which].buf, v[which].len, ti.turn);
		put_warnings(j, &warnings, "a warning only");
		put_reading(j);
		put_deadline(j);
		ord_buf_addf(&j->result, "checked: %zu problem(s)", ord_diag_count(&diag));
		err = answer(j);
		goto out;
	}
	ord_diag_release(&diag);
	ord_diag_init(&diag);
	{
		struct ord_submit_opts so = { 0 };
		int stored = 0;
		so.received = came < now ? came : 0;
		if (j->b->have_nonce) {
			/* the nonce 'orderly sign' printed, taken for a side
			 * without a key too: the game commits to the sheet with
			 * it, so the receipt states the commitment sign printed
			 * and witness --link-for --receipt holds it to his chain
			 * (threat model 26).  A signed sheet stored already,
			 * mailed again (by anyone who holds a copy): its refusal
			 * counts in the sender's replies, as the receipt of it
			 * went out (a red team's find: 40 copies got 41 replies) */
			if (ord_game_nonce_stored(j->g, j->side, j->b->nonce, &stored) == 0 && stored)
				j->sheet_answer = 0;
			ord_error_clear();
			so.nonce = j->b->nonce;
			if (has_key && j->b->have_signature)
				so.signature = j->b->signature;
		}
		if (j->b->have_witness)
			so.witness = j->b->witness;
		so.warnings = j->warnings = &warnings;
		if (j->b->witness_line && !j->b->have_witness)
			/* not taken for no line (the core's "needs the top of its
			 * witness chain" to a player who sent it) */
			err = ord_error_set(ORD_EBADDATA, "%s", j->b->unreadable);
		else
			err = ord_game_submit_opts(j->g, NULL, j->side, v[which].buf, v[which].len,
						   &so, &diag);
		j->warnings = NULL;
	}
	if (j->answered) {
		/* the receipt went out in the change's transaction */
		err = 0;
	} else if (err == ORD_EBADSHEET) {
		/* refused: nothing of it stored; the problems, each at its line */
		char message[256];
		snprintf(message, sizeof(message), "%s", ord_error_last());
		ord_buf_addf(&j->subject, "orders NOT accepted: turn %d, %s", ti.turn, j->side);
		ord_buf_addf(&j->reply,
			     "Your orders for turn %d were NOT accepted; nothing of them is stored.\n"
			     "%s.\n",
			     ti.turn, message);
		if ((err = put_standing(j, ti.turn, 1)) != 0)
			goto out;
		ord_buf_addch(&j->reply, '\n');
		if (diag.n)
			put_problems(j, &diag);
		put_reading(j);
		ord_buf_adds(&j->reply,
			     "\nSend the whole sheet again, corrected, between a line ORDERS and a line END.\n");
		put_deadline(j);
		ord_buf_addf(&j->result, "orders of %s rejected: %s", j->side, message);
		err = answer(j);
	} else if (err == ORD_ESEALED || err == ORD_ESTATE || err == ORD_EUSAGE ||
		   err == ORD_EBADSHEET || err == ORD_EBADDATA || err == ORD_ENOTFOUND ||
		   err == ORD_ELIMIT) {
		ord_buf_addf(&j->subject, "orders NOT accepted");
		char message[256];
		snprintf(message, sizeof(message), "%s", ord_error_last());
		ord_buf_addf(&j->reply, "Your orders were not accepted: %s.\nNothing was stored.\n",
			     message);
		ord_buf_addf(&j->result, "orders refused: %s", message);
		if ((err = put_standing(j, ti.turn, 1)) == 0)
			err = answer(j);
	}
out:
	for (i = 0; i < 3; i++)
		ord_buf_release(&v[i]);
	ord_diag_release(&diag);
	ord_diag_release(&warnings);
	return err;
}

/* A refused link: nothing of the game changed, the reason said. */
static int link_refused(struct judge *j, const char *why, const char *advice)
{
	ord_buf_adds(&j->subject, "link NOT recorded");
	ord_buf_addf(&j->reply, "Your link was NOT recorded: %s.\nNothing was changed.\n", why);
	if (advice)
		ord_buf_addf(&j->reply, "\n%s", advice);
	ord_buf_addf(&j->result, "link of %s refused: %s", j->side, why);
	return answer(j);
}

/* LINK [[phase] P] HEX: the side's witness link for the phase closed (B6,
 * J6), recorded as `orderly witness GAME --side SIDE --link HEX` does. */
static int cmd_link(struct judge *j)
{
	struct ord_game_status ti;
	struct ord_buf why = ORD_BUF_INIT;
	enum ord_link_state st;
	unsigned char link[32];
	int asked, phase, closed, err;

	if (mail_link_parse(j->b->args, &asked, link, &why) != 0) {
		err = link_refused(j, why.buf,
				   "Send the line the mail of the phase's close gives, on a line of its own:\n\n"
				   "    LINK P HEX\n\n"
				   "P being the phase, HEX the 64 hexadecimal digits 'orderly witness\n"
				   "--link-for' printed after 'link:'.\n");
		goto out;
	}
	if ((err = ord_game_status(j->g, &ti)) != 0)
		goto out;
	if (!ti.witnessed) {
		ord_buf_addf(&why, "the game '%s' does not have witnessed dice: it takes no link",
			     ord_game_name(j->g));
		err = link_refused(j, why.buf, NULL);
		goto out;
	}
	err = ord_game_link_state(j->g, j->side, &phase, &closed, &st);
	if (err == ORD_ESTATE || err == ORD_EBADDATA) {
		int open = !strcmp(ti.state, "open");
		if (open)
			ord_buf_addf(&why,
				     "no phase of turn %d is closed: the turn is not sealed yet, and a link is revealed only once the referee has closed a phase's events",
				     ti.turn);
		else if (err == ORD_ESTATE)
			ord_buf_addf(&why, "no phase of turn %d awaits a link: every phase is resolved",
				     ti.turn);
		else
			ord_buf_adds(&why, ord_error_last());
		err = link_refused(j, why.buf,
				   open ? "When the referee closes a phase, the judge mails you its signed\n"
					  "head with the command that gives your link against it.\n"
					: NULL);
		goto out;
	}
	if (err)
		goto out;
	if (asked && asked != phase) {
		ord_buf_addf(&why,
			     "it names phase %d, but the phase whose links are awaited is phase %d ('%s') of turn %d",
			     asked, phase, ti.phase, ti.turn);
		err = link_refused(j, why.buf,
				   closed ? "Compute the link of that phase against its close head (--phase and\n"
					    "--head of the phase's close mail).\n"
					  : NULL);
		goto out;
	}
	if (!closed) {
		ord_buf_addf(&why,
			     "the events of phase %d ('%s') of turn %d are not closed yet: a link is revealed only after them",
			     phase, ti.phase, ti.turn);
		err = link_refused(j, why.buf,
				   "When the referee closes the phase, the judge mails you its signed\n"
				   "head with the command that gives your link against it.\n");
		goto out;
	}
	if (st == ORD_LINK_REVEALED) {
		ord_buf_addf(&why,
			     "your side's link for phase %d ('%s') of turn %d is recorded already",
			     phase, ti.phase, ti.turn);
		err = link_refused(j, why.buf, NULL);
		goto out;
	}
	if (st == ORD_LINK_NONE) {
		ord_buf_addf(&why,
			     "your side's sealed sheet of turn %d is a stand-in with no witness chain: the referee's chain stands in for it, and no link of yours is taken",
			     ti.turn);
		err = link_refused(j, why.buf, NULL);
		goto out;
	}
	err = ord_game_witness(j->g, j->side, link);
	if (!err && j->answered) {
		/* taken: the reply went out in the change's transaction */
	} else if (err == ORD_EBADDATA || err == ORD_ESTATE || err == ORD_ENOTFOUND) {
		ord_buf_adds(&why, ord_error_last());
		err = link_refused(j, why.buf,
				   err == ORD_EBADDATA
					   ? "Run the command of the phase's close mail again with your own key file\n"
					     "and side, and copy the whole link it prints after 'link:'.\n"
					   : NULL);
	}
out:
	ord_buf_release(&why);
	return err;
}

/* ---- the referee's commands (J2) ---- */

static int split_args(const char *s, char ***argv, int *argc)
{
	char *copy = ord_strdup(s), *tok, *save = NULL;

	*argc = 0;
	*argv = NULL;
	for (tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		*argv = ord_xrealloc(*argv, ((size_t)*argc + 2) * sizeof(**argv));
		(*argv)[(*argc)++] = ord_strdup(tok);
		(*argv)[*argc] = NULL;
	}
	free(copy);
	return 0;
}

static void free_args(char **argv, int argc)
{
	int i;

	for (i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

/* s without one pair of double quotes around it, straight or typographic
 * (a time copied from docs/pbem.md, "2026-12-07T18:00 Europe/Copenhagen",
 * which a mail program may have made curly), and the white space around
 * it and inside them: a new string. */
static char *unquoted(const char *s)
{
	static const struct {
		const char *open, *close;
	} pairs[] = { { "\"", "\"" }, { "\xe2\x80\x9c", "\xe2\x80\x9d" } };
	const char *e;
	size_t i, lo, lc;
	char *out;

	while (*s == ' ' || *s == '\t')
		s++;
	for (e = s + strlen(s); e > s && (e[-1] == ' ' || e[-1] == '\t');)
		e--;
	for (i = 0; i < ORD_ARRAY_SIZE(pairs); i++) {
		lo = strlen(pairs[i].open);
		lc = strlen(pairs[i].close);
		if ((size_t)(e - s) >= lo + lc && !strncmp(s, pairs[i].open, lo) &&
		    !strncmp(e - lc, pairs[i].close, lc)) {
			for (s += lo, e -= lc; s < e && (*s == ' ' || *s == '\t');)
				s++;
			while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
				e--;
			break;
		}
	}
	out = ord_xmalloc((size_t)(e - s) + 1);
	memcpy(out, s, (size_t)(e - s));
	out[e - s] = '\0';
	return out;
}

/* DEADLINE's argument: the time, unquoted, less a last word PAST (any
 * case), which says a time not after now is meant (*past 1); a new
 * string.  "PAST" alone leaves no time. */
static char *deadline_arg(const char *s, int *past)
{
	const char *e = s + strlen(s);
	char *cut, *out;

	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	*past = e - s >= 4 && !strncasecmp(e - 4, "past", 4) &&
		(e - s == 4 || e[-5] == ' ' || e[-5] == '\t');
	if (*past)
		e -= 4;
	cut = ord_xmalloc((size_t)(e - s) + 1);
	memcpy(cut, s, (size_t)(e - s));
	cut[e - s] = '\0';
	out = unquoted(cut);
	free(cut);
	return out;
}

/* dice=N,N,... of a fixed-dice game: how many, 0 when a word is not a
 * whole number from 1 to 100 or there are more than max */
static size_t resolve_dice(const char *s, int *dice, size_t max)
{
	size_t n = 0;

	while (*s) {
		char *e;
		long v = strtol(s, &e, 10);
		if (e == s || v < 1 || v > 100 || n == max || (*e && *e != ','))
			return 0;
		dice[n++] = (int)v;
		s = *e ? e + 1 : e;
		if (*e && !*s)
			return 0; /* a comma at the end */
	}
	return n;
}

/* The first word of s written as key=value, or NULL. */
static const char *key_word(const char *s)
{
	const char *w = s;

	while (*w) {
		const char *p = w;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		if (p > w && *p == '=' && !isdigit((unsigned char)*w))
			return w;
		w += strcspn(w, " \t");
		w += strspn(w, " \t");
	}
	return NULL;
}

/* Where "override=" starts a word of s, or NULL. */
static const char *override_at(const char *s)
{
	const char *p = s;

	while ((p = strstr(p, "override=")) != NULL) {
		if (p == s || p[-1] == ' ' || p[-1] == '\t')
			return p;
		p++;
	}
	return NULL;
}

static int referee_one(struct judge *j, const struct mail_cmdline *c, struct ord_buf *said)
{
	struct ord_diag diag;
	struct ord_buf out = ORD_BUF_INIT;
	char **argv = NULL;
	int argc = 0, err = 0, i;

	ord_diag_init(&diag);
	split_args(c->args ? c->args : "", &argv, &argc);
	switch (c->cmd) {
	case CMD_SEAL:
		err = ord_game_seal(j->g, argc > 0 && !strcasecmp(argv[0], "force"));
		if (!err)
			ord_buf_adds(said, "sealed\n");
		break;
	case CMD_EVENT: {
		/* override= takes the rest of the line: the reason is words */
		const char *ov = override_at(c->args ? c->args : "");
		char *reason = NULL, *head = NULL;
		const char *kv;
		char **ev = argv;
		int n = argc;
		if (ov) {
			head = ord_xmalloc((size_t)(ov - c->args) + 1);
			memcpy(head, c->args, (size_t)(ov - c->args));
			head[ov - c->args] = '\0';
			split_args(head, &ev, &n);
			reason = ord_strdup(ov + 9);
			while (*reason && isspace((unsigned char)reason[strlen(reason) - 1]))
				reason[strlen(reason) - 1] = '\0';
		}
		if (n < 1)
			err = ord_error_set(ORD_EUSAGE, "EVENT needs a kind and key=value arguments");
		else if (reason && (kv = key_word(reason)) != NULL)
			err = ord_error_set(ORD_EUSAGE,
					    "override= takes the rest of the line as its reason, and '%.*s' in it is written as an argument: put the event's arguments before override=",
					    (int)strcspn(kv, " \t"), kv);
		else
			err = ord_game_event(j->g, ev[0], n - 1, ev + 1, reason, &diag);
		if (!err && reason)
			ord_buf_addf(said, "event %s recorded, by the override '%s'\n", ev[0], reason);
		else if (!err)
			ord_buf_addf(said, "event %s recorded\n", ev[0]);
		if (ev != argv)
			free_args(ev, n);
		free(head);
		free(reason);
		break;
	}
	case CMD_RESOLVE: {
		struct ord_resolve_opts o;
		int dice[1000];
		size_t nd = 0, waiting = 0, unrevealed = 0;
		memset(&o, 0, sizeof(o));
		for (i = 0; i < argc && !err; i++) {
			if (!strncmp(argv[i], "dice=", 5)) {
				if (nd || !(nd = resolve_dice(argv[i] + 5, dice, 1000)))
					err = ord_error_set(ORD_EUSAGE,
							    "%s: expected one dice=N,N,... of whole numbers from 1 to 100, at most 1000 of them",
							    argv[i]);
			} else if (!strcasecmp(argv[i], "stand-in")) {
				o.stand_in = 1;
			} else if (!strcasecmp(argv[i], "empty")) {
				/* as resolve --empty: the phase has no events and
				 * goes empty; the phase's name is a guard only
				 * (red-team finding 9) */
				o.empty = 1;
			} else if (o.phase) {
				err = ord_error_set(ORD_EUSAGE,
						    "RESOLVE [PHASE] [EMPTY] [dice=N,N,...] [STAND-IN]: '%s' after the phase '%s'",
						    argv[i], o.phase);
			} else {
				o.phase = argv[i];
			}
		}
		if (err)
			break;
		o.dice = nd ? dice : NULL;
		o.ndice = nd;
		o.waiting = &waiting;
		o.unrevealed = &unrevealed;
		err = ord_game_resolve_opts(j->g, &o, &out);
		if (!err)
			ord_buf_add(said, out.buf, out.len);
		else if (unrevealed) {
			/* the core's words are the command line's */
			char *why = ord_strdup(ord_error_last());
			ord_error_set(err, "%s; by mail: RESOLVE STAND-IN", why);
			free(why);
		} else if (waiting) {
			/* an empty phase while sealed orders wait for an event
			 * of it: by mail the word is EMPTY, as --empty on the
			 * command line, to resolve it empty */
			char *why = ord_strdup(ord_error_last());
			struct ord_game_status st;
			ord_error_clear();
			if (ord_game_status(j->g, &st) == 0)
				ord_error_set(err,
					      "%s; by mail: EVENT lines first, or RESOLVE %s EMPTY",
					      why, st.phase);
			else
				ord_error_set(err, "%s", why);
			free(why);
		}
		break;
	}
	case CMD_CLOSE: {
		/* alone on its line (body.c): it takes nothing */
		int phase = 0, closed = 0;
		err = ord_game_close_phase(j->g, NULL);
		if (!err && ord_game_link_state(j->g, NULL, &phase, &closed, NULL) == 0)
			ord_buf_addf(said,
				     "closed: phase %d, no more events of it; every side is mailed the close's head, and its link is awaited\n",
				     phase);
		else if (!err)
			ord_buf_adds(said, "closed\n");
		break;
	}
	case CMD_EXCHANGE:
		err = ord_game_exchange(j->g);
		if (!err)
			ord_buf_adds(said, "exchanged: the next turn is open\n");
		break;
	case CMD_DEADLINE: {
		int64_t when = 0, now = ord_game_now(j->g);
		int past = 0;
		char *arg = deadline_arg(c->args ? c->args : "", &past);
		if (!*arg || (strcmp(arg, "none") && ord_when_parse(&when, arg, now) != 0)) {
			if (!*arg)
				ord_error_set(ORD_EUSAGE, "DEADLINE needs a time or none");
			free(arg);
			err = ORD_EUSAGE;
			break;
		}
		free(arg);
		/* a time not after now is refused unless PAST says it is
		 * meant, as `orderly deadline` asks for --past: yesterday's
		 * date typed by mistake made the turn late at once, and told
		 * every side so by mail */
		if (when && when <= now && !past) {
			struct ord_buf at = ORD_BUF_INIT, was = ORD_BUF_INIT;
			ord_when_format(&at, when, NULL);
			ord_when_format(&was, now, NULL);
			err = ord_error_set(ORD_EUSAGE,
					    "the deadline %s is not after now (%s): nothing set; to close the turn's orders at a time already past, send DEADLINE %s PAST",
					    at.buf, was.buf, at.buf);
			ord_buf_release(&at);
			ord_buf_release(&was);
			break;
		}
		/* WHEN is the deadline; the game keeps the end of its grace,
		 * as `orderly deadline` does; the sides told of the turn are
		 * mailed the change, in its transaction (the hook, which
		 * keeps the turn it changed: no status read outside it) */
		j->deadline_set = 1;
		j->deadline_told = 0;
		j->deadline_kept = 0;
		err = ord_game_set_told_deadline(j->g, when);
		j->deadline_set = 0;
		if (!err) {
			ord_buf_adds(said, "deadline: ");
			if (when)
				ord_when_format(said, when, NULL);
			else
				ord_buf_adds(said, "none");
			ord_buf_addch(said, '\n');
			/* the grace's end the change kept, read from the
			 * change itself, as `orderly deadline` notes it */
			if (when && j->deadline_kept <= now)
				ord_buf_adds(said, "  this deadline has passed already: no more sheets are "
						   "taken, and SEAL seals the turn without FORCE\n");
			else if (when && when <= now)
				ord_buf_adds(said, "  this deadline has passed already: sheets are taken "
						   "until the grace ends\n");
			if (j->deadline_told)
				ord_buf_addf(said,
					     "  the side%s told of turn %d %s mailed the change (%zu mail%s)\n",
					     j->deadline_told == 1 ? "" : "s", j->deadline_turn,
					     j->deadline_told == 1 ? "is" : "are", j->deadline_told,
					     j->deadline_told == 1 ? "" : "s");
			else
				ord_buf_adds(said, "  no side was told of the turn yet: the mail of its "
						   "opening will state this deadline\n");
		}
		break;
	}
	case CMD_SCHEDULE: {
		struct ord_schedule s;
		if ((err = ord_schedule_parse(&s, c->args ? c->args : "")) != 0)
			break;
		/* a grace changed moves the end of the open turn's: the sides
		 * told of the turn are mailed it, as a DEADLINE's change */
		j->deadline_set = 1;
		j->deadline_told = 0;
		err = ord_game_set_schedule(j->g, &s);
		j->deadline_set = 0;
		if (!err) {
			ord_buf_adds(said, "schedule: ");
			ord_schedule_format(&s, said);
			ord_buf_addch(said, '\n');
			if (j->deadline_told)
				ord_buf_addf(said,
					     "  the grace of turn %d changed: the side%s told of it %s "
					     "mailed the change (%zu mail%s)\n",
					     j->deadline_turn, j->deadline_told == 1 ? "" : "s",
					     j->deadline_told == 1 ? "is" : "are", j->deadline_told,
					     j->deadline_told == 1 ? "" : "s");
		}
		break;
	}
	default: err = ord_error_set(ORD_EUSAGE, "not a referee's command"); break;
	}
	if (err) {
		ord_buf_addf(said, "%s %s: %s\n", mail_cmd_name(c->cmd), c->args ? c->args : "",
			     ord_error_last());
		for (i = 0; (size_t)i < diag.n; i++)
			ord_buf_addf(said, "  %s%s%s\n", *diag.items[i].unit ? diag.items[i].unit : "",
				     *diag.items[i].unit ? ": " : "", diag.items[i].msg);
	}
	free_args(argv, argc);
	ord_diag_release(&diag);
	ord_buf_release(&out);
	return err;
}

/* J7: 1, with what a player's mail holds said in out, when it is more
 * than one command (the subject's counts when it is a LINK: "or as the
 * Subject"; any other yields to the body's, B5). */
static int mixed_commands(const struct mail_body *b, struct ord_buf *out)
{
	const char *other = NULL;
	size_t i, links = 0;
	int subject_link = b->subject_cmd == CMD_LINK;

	/* a block's command, when there is one, is the first in cmds (a
	 * command before it is b->cmd), and a second block's line is noted
	 * as extra_block, not listed */
	if (b->block && b->cmd != CMD_ORDERS && b->cmd != CMD_CHECK && b->cmd != CMD_LINK) {
		ord_buf_addf(out, "a %s line and, after it, a block", mail_cmd_name(b->cmd));
		return 1;
	}
	for (i = 0; i < b->ncmds; i++) {
		if (b->cmds[i].cmd == CMD_LINK)
			links++;
		else if (!other && !(b->block && i == 0))
			other = mail_cmd_name(b->cmds[i].cmd);
	}
	if (b->extra_block)
		ord_buf_adds(out, "two ORDERS or CHECK blocks");
	else if (b->block && (links || subject_link))
		ord_buf_addf(out, "an ORDERS block and a LINK %s", links ? "line" : "in the Subject");
	else if (b->block && other)
		ord_buf_addf(out, "%s %s block and, after it, a %s line",
			     b->cmd == CMD_CHECK ? "a" : "an", mail_cmd_name(b->cmd), other);
	else if (links > 1)
		ord_buf_addf(out, "%zu LINK lines", links);
	else if ((links || subject_link) && other)
		ord_buf_addf(out, "a LINK %s and a %s line", links ? "line" : "in the Subject", other);
	else
		return 0;
	return 1;
}

/* The units the lines of a sheet begin with (J10), looked for among the
 * game's: each line's first word (up to a blank or ':') and the words
 * before its first ':', either of which the sheet may read as the unit. */
struct line_units {
	const struct mail_body *b;
	const char **start;  /* each sheet line's first character but blanks */
	const char **word;   /* the end of its first word */
	const char **colon;  /* the end of what comes before its first ':', or NULL */
	unsigned char *unit; /* 1: that line begins with a unit of the game */
};

static int same_unit(const char *id, const char *name, const char *s, const char *e)
{
	size_t n = (size_t)(e - s);

	return n && ((strlen(id) == n && !memcmp(id, s, n)) ||
		     (name && strlen(name) == n && !strncasecmp(name, s, n)));
}

static int line_unit_fn(void *ud, const char *id, const char *name, const char *side)
{
	struct line_units *u = ud;
	size_t i;

	(void)side;
	for (i = 0; i < u->b->nlines; i++)
		if (!u->unit[i] && (same_unit(id, name, u->start[i], u->word[i]) ||
				    (u->colon[i] && same_unit(id, name, u->start[i], u->colon[i]))))
			u->unit[i] = 1;
	return 0;
}

/*
 * J10: the order lines of a sheet read from a text with no block: those
 * that begin with a unit of the game (any side's) as the sheet reads a
 * unit, its id ("B1 ↑ 1/4") or its name before a ':' ("Blue Hussars: Fb"),
 * whether or not the rest of the line is right.  A greeting, a signature
 * or a question begins with no unit.  *first: the first one's index in
 * the sheet (valid when *n), *n how many; 0, or the store's error.
 */
static int order_lines(struct judge *j, size_t *first, size_t *n)
{
	const struct mail_body *b = j->b;
	struct line_units u;
	const char *p = b->sheet.buf;
	size_t i;
	int err;

	*first = 0;
	*n = 0;
	if (!b->nlines)
		return 0;
	u.b = b;
	u.start = ord_xmalloc(b->nlines * sizeof(*u.start));
	u.word = ord_xmalloc(b->nlines * sizeof(*u.word));
	u.colon = ord_xmalloc(b->nlines * sizeof(*u.colon));
	u.unit = ord_xcalloc(b->nlines, 1);
	for (i = 0; i < b->nlines; i++) {
		const char *e = p + strcspn(p, "\n"), *c;

		while (p < e && isspace((unsigned char)*p))
			p++;
		u.start[i] = p;
		u.word[i] = p + strcspn(p, " \t:\n");
		if ((c = memchr(p, ':', (size_t)(e - p))) != NULL)
			while (c > p && isspace((unsigned char)c[-1]))
				c--;
		u.colon[i] = c;
		p = *e ? e + 1 : e;
	}
	err = ord_game_units(j->g, line_unit_fn, &u);
	for (i = 0; !err && i < b->nlines; i++)
		if (u.unit[i] && !(*n)++)
			*first = i;
	free(u.start);
	free(u.word);
	free(u.colon);
	free(u.unit);
	return err;
}

/* Line no (1-based) of text as written, up to 60 bytes and "..." */
static void text_line(const char *text, unsigned no, struct ord_buf *out)
{
	const char *p = text ? text : "", *nl;
	size_t len;

	while (--no && (nl = strchr(p, '\n')) != NULL)
		p = nl + 1;
	len = strcspn(p, "\n");
	while (len && isspace((unsigned char)p[len - 1]))
		len--;
	if (len > 60) {
		/* not inside a character */
		for (len = 60; len && ((unsigned char)p[len] & 0xc0) == 0x80;)
			len--;
		ord_buf_addf(out, "%.*s...", (int)len, p);
	} else {
		ord_buf_add(out, p, len);
	}
}

/* J10: 1, said in out, when a player's text with no block holds order
 * lines beside a command that is not ORDERS or CHECK (a line, or the
 * Subject's); 0 when not; the store's error. */
static int orders_beside_command(struct judge *j, const char *text, struct ord_buf *out)
{
	const struct mail_body *b = j->b;
	size_t first, n;
	int err;

	if (b->block || b->cmd == CMD_ORDERS || b->cmd == CMD_CHECK || !b->sheet.len)
		return 0;
	if ((err = order_lines(j, &first, &n)) != 0)
		return err;
	if (!n)
		return 0;
	ord_buf_addf(out, "order lines (line %u, '", b->lines[first]);
	text_line(text, b->lines[first], out);
	if (n > 1)
		ord_buf_addf(out, "', and %zu more) ", n - 1);
	else
		ord_buf_adds(out, "') ");
	if (b->ncmds && b->cmds[0].line && !b->cmd_from_subject) {
		ord_buf_addf(out, "and the command %s on line %u ('", mail_cmd_name(b->cmds[0].cmd),
			     b->cmds[0].line);
		text_line(text, b->cmds[0].line, out);
		ord_buf_adds(out, "')");
	} else {
		ord_buf_addf(out, "and the command %s in the Subject ('%.60s')",
			     mail_cmd_name(b->cmd), j->m->subject);
	}
	return 1;
}

/* The command of b's ORDERS or CHECK block, or -1 when it has none. */
static int block_cmd(const struct mail_body *b)
{
	size_t i;

	for (i = 0; b->block && i < b->ncmds; i++)
		if (b->cmds[i].cmd == CMD_ORDERS || b->cmds[i].cmd == CMD_CHECK)
			return (int)b->cmds[i].cmd;
	return -1;
}

static const char *article(int cmd)
{
	return cmd == CMD_ORDERS || cmd == CMD_EVENT || cmd == CMD_EXCHANGE ? "an" : "a";
}

/* J7, D2: the attached file of a mail that has a text too, read as a
 * text is (B1).  It is the sheet when the text's command is ORDERS or
 * CHECK with no line of its own (the default, the Subject's, or a block
 * with no line).  An ORDERS or CHECK block in it is a command of the
 * mail, never passed by: where the text has no command line it is the
 * mail's, the Subject's command yielding to it as to a block in the text
 * (B5); beside a command line of the text (STATUS, REPORT, HELP, LINK,
 * or a block with no line of the other kind), or another command in the
 * file itself, the mail is more than one command: 1, said in mixed. */
static int attached_file(struct mail_body *b, const char *file, int *sheet_attached,
			 struct ord_buf *mixed)
{
	struct mail_body a;
	struct ord_buf said = ORD_BUF_INIT;
	int fcmd, is_mixed = 1, the_files;

	mail_body_init(&a);
	mail_body_parse(&a, NULL, file);
	fcmd = block_cmd(&a);
	/* the text has no command line: the file's block is the mail's */
	the_files = fcmd >= 0 && b->cmd_from_subject;
	if (fcmd >= 0 && mixed_commands(&a, &said))
		ord_buf_addf(mixed, "%s in the attached file", said.buf);
	else if (fcmd >= 0 && !b->cmd_from_subject && !b->block)
		ord_buf_addf(mixed, "%s %s line and %s %s block in the attached file", article(b->cmd),
			     mail_cmd_name(b->cmd), article(fcmd), mail_cmd_name(fcmd));
	else if (fcmd >= 0 && b->block && !b->sheet.len && b->cmd != (enum mail_cmd)fcmd &&
		 (b->cmd == CMD_ORDERS || b->cmd == CMD_CHECK))
		ord_buf_addf(mixed,
			     "%s %s block with no line in it and %s %s block in the attached file",
			     article(b->cmd), mail_cmd_name(b->cmd), article(fcmd),
			     mail_cmd_name(fcmd));
	else
		is_mixed = 0;
	if (the_files) {
		/* the file's commands are the mail's: written by the player, in
		 * what an OpenPGP/MIME signature over the whole mail covers,
		 * so no longer the Subject's or the default */
		struct mail_cmdline *cmds = b->cmds;
		size_t ncmds = b->ncmds;
		char *args = b->args;

		b->cmd = a.cmd;
		b->explicit_cmd = 1;
		b->args = a.args;
		b->cmds = a.cmds;
		b->ncmds = a.ncmds;
		b->extra_block = a.extra_block;
		b->cmd_from_subject = 0;
		a.args = args;
		a.cmds = cmds;
		a.ncmds = ncmds;
	}
	if (the_files ||
	    ((!b->block || !b->sheet.len) && (b->cmd == CMD_ORDERS || b->cmd == CMD_CHECK))) {
		/* the sheet is the file's, its proof lines the text's (the
		 * text an OpenPGP signature covers may hold only the command,
		 * in a block with no line) */
		ord_buf_reset(&b->sheet);
		ord_buf_add(&b->sheet, a.sheet.buf, a.sheet.len);
		free(b->lines);
		b->lines = a.lines;
		b->nlines = a.nlines;
		a.lines = NULL;
		free(b->where);
		b->where = ord_strdup("the attached file");
		*sheet_attached = 1;
		b->block = a.block;
		b->unterminated = a.unterminated;
		b->block_line = a.block_line;
	}
	ord_buf_release(&said);
	mail_body_release(&a);
	return is_mixed;
}

/* J11: the lines of a referee's mail that are neither a command nor a
 * proof line (a word misspelt: "SHEDULE every 24h"), said in said, up
 * to ten of them; how many. */
static size_t referee_unread(const struct mail_body *b, struct ord_buf *said)
{
	const char *p = b->sheet.buf;
	size_t i, n = 0;

	for (i = 0; i < b->nlines && *p; i++) {
		size_t len = strcspn(p, "\n"), k = strspn(p, " \t");

		if (k < len && n++ < 10)
			ord_buf_addf(said, "line %u not understood: '%.*s%s'\n", b->lines[i],
				     (int)(len > 70 ? 70 : len), p, len > 70 ? "..." : "");
		p += len + (p[len] == '\n');
	}
	if (n > 10)
		ord_buf_addf(said, "%zu more lines not understood\n", n - 10);
	return n;
}

static int cmd_referee(struct judge *j, int done_steps)
{
	struct ord_buf said = ORD_BUF_INIT;
	size_t i;
	int err = 0, failed = 0;

	/* a line not understood: nothing is done, not the commands before
	 * it either (J11); a mail with steps done before (a crash) goes on */
	if (!done_steps && referee_unread(j->b, &said)) {
		ord_buf_adds(&said,
			     "stopped before the first command: none of this mail's commands was done.\n"
			     "A referee's mail is his commands, one a line (SEAL, EVENT, CLOSE,\n"
			     "RESOLVE, EXCHANGE, DEADLINE, SCHEDULE, STATUS, REPORT), and his\n"
			     "proof; correct the line and send the whole mail again.\n");
		ord_buf_adds(&j->subject, "referee: stopped at a problem");
		ord_buf_add(&j->reply, said.buf, said.len);
		ord_buf_adds(&j->result,
			     "referee commands: stopped (a line not understood), none done");
		err = answer(j);
		goto out;
	}
	for (i = 0; i < j->b->ncmds; i++) {
		const struct mail_cmdline *c = &j->b->cmds[i];

		j->step = (int)i + 1;
		if (j->step <= done_steps) {
			ord_buf_addf(&said, "%s %s: done before (a message delivered again)\n",
				     mail_cmd_name(c->cmd), c->args ? c->args : "");
			continue;
		}
		ord_error_clear();
		err = referee_one(j, c, &said);
		if (err && err != ORD_EUSAGE && err != ORD_ESTATE && err != ORD_ESEALED &&
		    err != ORD_ECHECK && err != ORD_ENOTFOUND && err != ORD_EBADDATA &&
		    err != ORD_EBADSHEET)
			goto out; /* the store failed: let the MTA try again */
		if (err) {
			failed = 1;
			ord_buf_adds(&said,
				     "stopped here: the commands after this one were not done\n");
			break;
		}
	}
	ord_buf_addf(&j->subject, "referee: %s", failed ? "stopped at a problem" : "done");
	ord_buf_add(&j->reply, said.buf, said.len);
	ord_buf_addf(&j->result, "referee commands: %s", failed ? "stopped" : "done");
	err = answer(j);
out:
	ord_buf_release(&said);
	return err;
}

/* ---- who sent it ---- */

/* Where a mail says it came from, for the count of passphrases (J12): its
 * From: and the envelope sender the MTA wrote (Return-Path:), as written,
 * on one line. */
static void mail_sender(const struct mail_msg *m, const char *raw, size_t len, struct ord_buf *out)
{
	size_t i = 0, start;

	ord_buf_addf(out, "From: %.200s", m->from_header ? m->from_header : "");
	while (i < len) {
		size_t l = 0;
		while (i + l < len && raw[i + l] != '\n')
			l++;
		if (l == 0 || (l == 1 && raw[i] == '\r'))
			break; /* the headers' end */
		if (l > 12 && !strncasecmp(raw + i, "Return-Path:", 12)) {
			ord_buf_addf(out, "; Return-Path: %.*s", (int)(l - 12 > 200 ? 200 : l - 12),
				     raw + i + 12);
			break;
		}
		i += l + 1;
	}
	/* one line: no control character of the mail in the notice */
	for (start = 0; start < out->len; start++)
		if ((unsigned char)out->buf[start] < 0x20)
			out->buf[start] = ' ';
}

/* 1 proven, 0 not (*why says why), -1 the store failed. */

/* ord_mail_pass_try, and while others' checks running make the tries
 * (J12: guesses sent at once are checked no more than the tries) waiting
 * for them to end, a tenth of a second at a time: right passphrases sent
 * at once each get checked.  Past PASS_WAIT_MS j->pass_until stays -1. */
#define PASS_WAIT_MS 30000
static int pass_wait_ms(void)
{
	/* the tests' shorter wait (ORDERLY_TEST_PASS_WAIT_MS, as
	 * ORDERLY_TEST_PAUSE_IN_TX in store.c) */
	const char *t = getenv("ORDERLY_TEST_PASS_WAIT_MS");

	return t && *t ? atoi(t) : PASS_WAIT_MS;
}

static int pass_try(struct judge *j, const char *sender)
{
	int waited, err, most = pass_wait_ms();

	for (waited = 0;; waited += 100) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		if ((err = ord_mail_pass_try(j->g, j->side, j->inbox_id, sender, &j->pass_until)) != 0 ||
		    j->pass_until >= 0 || waited >= most)
			break;
		nanosleep(&ts, NULL);
	}
	return err;
}

static int prove(struct judge *j, const char *raw, size_t len, const char **why)
{
	struct ord_buf key = ORD_BUF_INIT;
	unsigned char pk[32];
	int err;

	*why = NULL;
	if (j->m->pgp) {
		if (ord_mail_pgp_key(j->g, j->side, &key) == 0) {
			int64_t last = 0;
			mail_msg_verify_pgp(j->m, raw, len, key.buf);
			ord_buf_release(&key);
			if (j->m->pgp == 1 && (err = ord_mail_pgp_last(j->g, j->side, &last)) != 0)
				return -1;
			/* a signature proves who wrote the mail, not that he sent it
			 * now: one not later than the last taken is a mail sent again
			 * (by whoever saw it), which would undo his later orders */
			if (j->m->pgp == 1 && j->m->pgp_created > 0 && j->m->pgp_created <= last) {
				*why = "its OpenPGP signature is no later than that of your last signed mail orderly "
				       "took: a mail sent again, by you or by someone who saw it (to send it again, "
				       "sign it anew)";
				return 0;
			}
			/* nor for which game: the same mail readdressed to another
			 * game he plays in would be taken there too (the text's
			 * Game: line, as of any mail: an attached file's is not
			 * read, J7) */
			if (j->m->pgp == 1 && (!j->b->game || strcasecmp(j->b->game, j->game))) {
				snprintf(j->why, sizeof(j->why),
					 "an OpenPGP-signed mail names its game on a line 'Game: %.64s' of what is signed%s%s%.64s%s: the signature says who wrote it, not for which game, and a copy readdressed to another game would be taken there too",
					 j->game,
					 !j->b->game && j->m->text && j->m->attachment
						 ? ", in its text (not in the attached file)"
						 : "",
					 j->b->game ? " (this one names '" : "",
					 j->b->game ? j->b->game : "", j->b->game ? "')" : "");
				*why = j->why;
				return 0;
			}
			if (j->m->pgp == 1) {
				j->pgp_taken = j->m->pgp_created;
				j->proven = 1;
				return 1;
			}
			*why = j->m->pgp_why ? j->m->pgp_why : "the OpenPGP signature does not hold";
			return 0;
		}
		ord_error_clear();
		ord_buf_release(&key);
	}
	if (j->b->passphrase) {
		char hash[ORD_PASS_HASH_MAX];
		struct ord_buf sender = ORD_BUF_INIT;

		if ((err = ord_mail_passphrase_hash(j->g, j->side, hash)) == ORD_ENOTFOUND) {
			ord_error_clear();
			*why = "no passphrase is registered for you";
			return 0;
		}
		if (err)
			return -1;
		/* counted before it is checked, so that mail-in processes
		 * running at once are counted together (J12) */
		mail_sender(j->m, raw, len, &sender);
		err = pass_try(j, sender.buf);
		ord_buf_release(&sender);
		if (!err && !j->pass_until) {
			err = ord_mail_passphrase_verify(hash, j->b->passphrase);
			sodium_memzero(hash, sizeof(hash));
			ord_error_clear();
			if (!err)
				return ord_mail_pass_right(j->g, j->side, j->inbox_id)
					       ? -1
					       : (j->proven = 1);
			if (ord_mail_pass_wrong(j->g, j->side, j->inbox_id))
				return -1;
			j->pass_wrong = 1;
			*why = "the passphrase is wrong";
			return 0;
		}
		sodium_memzero(hash, sizeof(hash));
		if (err)
			return -1;
		if (j->pass_until < 0) {
			/* not checked: a signature of the side still proves
			 * (below), as when suspended */
			j->pass_until = 0;
			j->pass_waited = 1;
			snprintf(j->why, sizeof(j->why),
				 "other mails' passphrases of %s were being checked all the %d s this "
				 "one waited, as many as the wrong ones orderly checks in an hour, so "
				 "yours was not checked; sign your orders (OpenPGP, or the lines of "
				 "'orderly sign'), or send it again",
				 j->side ? j->side : "the referee", pass_wait_ms() / 1000);
		} else {
			/* not checked: a signature of the side still proves (below) */
			struct ord_buf t = ORD_BUF_INIT;
			when(j->g, &t, j->pass_until);
			snprintf(j->why, sizeof(j->why),
				 "passphrase proofs of %s are suspended until %s after wrong passphrases, "
				 "so yours was not checked; sign your orders (OpenPGP, or the lines of "
				 "'orderly sign'), or wait until then",
				 j->side ? j->side : "the referee", t.buf);
			ord_buf_release(&t);
		}
	}
	/* a link proves itself (J6): the chain check in cmd_link */
	if (!j->referee && j->b->cmd == CMD_LINK)
		return 1;
	/* orders signed with the side's key prove themselves (the core checks
	 * them), and a draft signed to be checked its CHECK, nothing else (J5:
	 * a CHECK with a sheet's signature lines was refused before) */
	if (!j->referee && ord_game_side_pubkey(j->g, j->side, pk) == 0 && j->b->have_nonce &&
	    ((j->b->cmd == CMD_ORDERS && j->b->have_signature) ||
	     (j->b->cmd == CMD_CHECK && j->b->have_draft_signature))) {
		struct ord_buf v[3];
		size_t which, i;
		int draft = j->b->cmd == CMD_CHECK, ok;

		mail_body_variants(j->b, v);
		ok = signed_variant(j, pk, v, &which, draft);
		for (i = 0; i < 3; i++)
			ord_buf_release(&v[i]);
		if (ok)
			return j->proven = 1;
		*why = draft ? "the lines of 'orderly sign --draft' do not sign this sheet with your "
			       "side's key"
			     : "the signature lines do not sign this sheet with your side's key";
		return 0;
	}
	/* a line of `orderly sign` that is there but cannot be read (cut
	 * short, wrapped by a mailer) is said to be, not taken for no line */
	if (!j->referee && j->b->unreadable) {
		*why = j->b->unreadable;
		return 0;
	}
	if (j->pass_until || j->pass_waited) {
		*why = j->why;
		return 0;
	}
	if (!j->referee && j->b->have_draft_signature && j->b->cmd != CMD_CHECK) {
		*why = "the lines of 'orderly sign --draft' sign a draft to be checked (CHECK), never "
		       "orders: sign the sheet you submit with 'orderly sign', without --draft";
		return 0;
	}
	ord_error_clear();
	/* a signature over a part of the mail proves nothing of the rest
	 * (a file attached beside it, D8): the player signed, so say so */
	*why = j->m->pgp_part
		       ? "its OpenPGP signature covers only a part of the mail, and what is beside that part (an attached file) is not signed: orderly takes an OpenPGP/MIME signature over the whole mail, the attached file inside what is signed (or a line 'Passphrase: ...')"
		       : "it carries no proof: a line 'Passphrase: ...', an OpenPGP/MIME signature by your registered key, or the lines of 'orderly sign'";
	return 0;
}

/* ---- the message ---- */

static int game_path(struct ord_buf *path, const char *dir, const char *name)
{
	const char *p;

	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
			return -1;
	if (!*name || strlen(name) > 64)
		return -1;
	ord_buf_addf(path, "%s/%s.orderly", dir ? dir : ".", name);
	return 0;
}

/* ---- what is kept of a message ---- */

/*
 * The judge keeps a passphrase only as a hash (docs/pbem.md): a copy of the
 * game file must not hand it out, nor the referee's web login that uses it.
 * What the judge keeps of a message (the inbox, unrouted/) is decided by
 * reading the copy it would keep every way it can be read (mail_msg_texts),
 * looking for the values of every line "Passphrase: VALUE" the message
 * holds anywhere, read any of those ways: the proof, a quoted line, an HTML
 * part, an attachment, a forwarded message.  Each is secret, whether it is
 * anyone's passphrase or not (only its hash could tell).
 *
 *   1. the bytes as received, every passphrase line's value made
 *      "(removed)" (quoted lines too); else, when a trace is left (the
 *      line was encoded, wrapped, in HTML, or the value is elsewhere),
 *   2. the headers, a note saying why, and the plain text (and the .txt
 *      attachment) with those values removed; else
 *   3. the headers and the note alone.
 *
 * A trace, in any form of the copy: a passphrase line with a value; a line
 * that is the end of a value (the rest of a line wrapped by a
 * quoted-printable soft break or format=flowed); a value of
 * KEPT_SEARCHED bytes or more anywhere.
 */
#define KEPT_SECRETS 32 /* more distinct values: the headers alone (3.) */
#define KEPT_SEARCHED 8 /* the shortest passphrase `register` takes */
#define KEPT_REMOVED "(removed)"

struct secrets {
	char *v[KEPT_SECRETS];
	size_t n;
	int over;  /* more than KEPT_SECRETS values */
	int trace; /* found by has_trace_fn */
};

/* Does the line [s, e) read "Passphrase: VALUE", or look like it
 * (mail_passphrase_line, loose: quoted, after a UTF-8 byte-order mark,
 * which a text's first line has in the bytes as sent, decode.c's D10,
 * the key marked bold or italic or 'Pass phrase', the safety net of a
 * line the proof did not take)?  1 with where its key and colon end, and
 * the value trimmed in [*vs, *ve). */
static int passphrase_value(const char *s, const char *e, const char **key_end, const char **vs,
			    const char **ve)
{
	return mail_passphrase_line(s, e, 1, key_end, vs, ve);
}

static int is_removed(const char *s, const char *e)
{
	return e - s == (ptrdiff_t)strlen(KEPT_REMOVED) && !memcmp(s, KEPT_REMOVED, (size_t)(e - s));
}

static void collect_fn(void *ud, const char *t, size_t n)
{
	struct secrets *s = ud;
	const char *p = t, *end = t + n;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
		const char *key_end, *vs, *ve;
		size_t i;

		if (passphrase_value(p, e, &key_end, &vs, &ve) && ve > vs && !is_removed(vs, ve)) {
			for (i = 0; i < s->n; i++)
				if (strlen(s->v[i]) == (size_t)(ve - vs) &&
				    !memcmp(s->v[i], vs, (size_t)(ve - vs)))
					break;
			if (i < s->n)
				; /* known */
			else if (s->n == KEPT_SECRETS)
				s->over = 1;
			else {
				char *v = ord_xmalloc((size_t)(ve - vs) + 1);
				memcpy(v, vs, (size_t)(ve - vs));
				v[ve - vs] = '\0';
				s->v[s->n++] = v;
			}
		}
		p = nl ? nl + 1 : end;
	}
}

static void secrets_release(struct secrets *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		sodium_memzero(s->v[i], strlen(s->v[i]));
		free(s->v[i]);
	}
	memset(s, 0, sizeof(*s));
}

/* Where a value of KEPT_SEARCHED bytes or more starts at t[0..n), the one
 * found in *which; NULL when none. */
/* The first place in [t, t + n) of pat (lp bytes), or NULL: Knuth, Morris
 * and Pratt's search, linear in n + lp whatever the bytes (a search that
 * compared the value at each place was n times lp: a mail of a long value
 * and a long run of its first letter took seconds). */
static const char *find_linear(const char *t, size_t n, const char *pat, size_t lp)
{
	size_t *fail, i, k = 0;
	const char *at = NULL;

	if (lp == 0 || lp > n)
		return NULL;
	fail = ord_xmalloc(lp * sizeof(*fail));
	fail[0] = 0;
	for (i = 1; i < lp; i++) {
		while (k && pat[i] != pat[k])
			k = fail[k - 1];
		if (pat[i] == pat[k])
			k++;
		fail[i] = k;
	}
	for (i = 0, k = 0; i < n; i++) {
		while (k && t[i] != pat[k])
			k = fail[k - 1];
		if (t[i] == pat[k] && ++k == lp) {
			at = t + i + 1 - lp;
			break;
		}
	}
	free(fail);
	return at;
}

static const char *find_value(const struct secrets *s, const char *t, size_t n, size_t *which)
{
	const char *best = NULL, *at;
	size_t i, limit;

	for (i = 0; i < s->n; i++) {
		size_t lv = strlen(s->v[i]);

		if (lv < KEPT_SEARCHED)
			continue;
		/* the first of any value: one starting before the best so far */
		limit = best && (size_t)(best - t) + lv - 1 < n ? (size_t)(best - t) + lv - 1 : n;
		at = find_linear(t, limit, s->v[i], lv);
		if (at && (!best || at < best)) {
			best = at;
			*which = i;
		}
	}
	return best;
}

static int has_trace(const struct secrets *s, const char *t, size_t n)
{
	const char *p = t, *end = t + n;
	size_t i;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
		const char *key_end, *vs, *ve, *ls = p, *le = e;

		if (passphrase_value(p, e, &key_end, &vs, &ve) && ve > vs && !is_removed(vs, ve))
			return 1;
		/* the end of a value, wrapped onto a line of its own */
		while (ls < le && (*ls == ' ' || *ls == '\t' || *ls == '>'))
			ls++;
		while (le > ls && isspace((unsigned char)le[-1]))
			le--;
		for (i = 0; le - ls >= 3 && i < s->n; i++) {
			size_t lv = strlen(s->v[i]), ll = (size_t)(le - ls);
			if (ll <= lv && !memcmp(s->v[i] + lv - ll, ls, ll))
				return 1;
		}
		p = nl ? nl + 1 : end;
	}
	return find_value(s, t, n, &i) != NULL;
}

static void has_trace_fn(void *ud, const char *t, size_t n)
{
	struct secrets *s = ud;

	if (!s->trace)
		s->trace = has_trace(s, t, n);
}

/* Does any form of the copy hold a trace of a value? */
static int kept_has_trace(struct secrets *s, const struct ord_buf *kept)
{
	s->trace = 0;
	mail_msg_texts(kept->buf, kept->len, has_trace_fn, s);
	return s->trace;
}

/* 1. the bytes as received, every passphrase line's value removed */
static void kept_blanked(const char *raw, size_t len, struct ord_buf *out)
{
	const char *p = raw, *end = raw + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
		const char *cr = e > p && e[-1] == '\r' ? e - 1 : e, *key_end, *vs, *ve;
		if (passphrase_value(p, cr, &key_end, &vs, &ve)) {
			ord_buf_add(out, p, (size_t)(key_end - p));
			ord_buf_adds(out, " " KEPT_REMOVED);
			ord_buf_add(out, cr, (size_t)(e - cr));
		} else {
			ord_buf_add(out, p, (size_t)(e - p));
		}
		if (nl)
			ord_buf_addch(out, '\n');
		p = nl ? nl + 1 : end;
	}
}

/* A decoded text, each passphrase line's value removed, and each value of
 * KEPT_SEARCHED bytes or more wherever it is. */
static void add_scrubbed(struct ord_buf *out, const struct secrets *s, const char *text)
{
	while (*text) {
		size_t n = strcspn(text, "\n"), which;
		const char *key_end, *vs, *ve, *p = text, *e = text + n, *at;

		if (passphrase_value(p, e, &key_end, &vs, &ve)) {
			ord_buf_add(out, p, (size_t)(key_end - p));
			ord_buf_adds(out, " " KEPT_REMOVED);
		} else {
			/* each value's next place, looked for again only once the
			 * line is taken past it (looking for every value again after
			 * each one removed was quadratic in a line of many) */
			const char *next[KEPT_SECRETS];
			size_t i;
			for (i = 0; i < s->n; i++)
				next[i] = strlen(s->v[i]) < KEPT_SEARCHED
						  ? NULL
						  : find_linear(p, (size_t)(e - p), s->v[i],
								strlen(s->v[i]));
			for (;;) {
				for (at = NULL, which = 0, i = 0; i < s->n; i++)
					if (next[i] && (!at || next[i] < at)) {
						at = next[i];
						which = i;
					}
				if (!at)
					break;
				ord_buf_add(out, p, (size_t)(at - p));
				ord_buf_adds(out, KEPT_REMOVED);
				p = at + strlen(s->v[which]);
				for (i = 0; i < s->n; i++)
					if (next[i] && next[i] < p)
						next[i] = find_linear(p, (size_t)(e - p), s->v[i],
								      strlen(s->v[i]));
			}
			ord_buf_add(out, p, (size_t)(e - p));
		}
		ord_buf_addch(out, '\n');
		text += n + (text[n] == '\n');
	}
}

/* 2. (with_text) and 3.: the headers but those of the MIME structure, and
 * any that holds a trace (a Subject that does says so), then a note, and
 * with_text the plain text and the .txt attachment, scrubbed. */
static void kept_plain(const char *raw, size_t len, const struct mail_msg *m,
		       const struct secrets *s, int with_text, struct ord_buf *out)
{
	const char *p = raw, *end = raw + len;
	/* once, not for every Subject: field (a mail of thousands of them) */
	int subject_trace = has_trace(s, m->subject, strlen(m->subject));

	while (p < end && *p != '\n' && *p != '\r') {
		const char *f = p; /* one field, with the lines that go on with it */
		int mime, subject;
		do {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			p = nl ? nl + 1 : end;
		} while (p < end && (*p == ' ' || *p == '\t'));
		mime = !strncasecmp(f, "content-", 8) || !strncasecmp(f, "mime-version:", 13) ||
		       !strncasecmp(f, "x-orderly-kept:", 15);
		subject = !strncasecmp(f, "subject:", 8);
		if (mime)
			continue;
		{
			/* the field as written and decoded (an encoded word) */
			char *raw_f = ord_xmalloc((size_t)(p - f) + 1), *dec;
			int trace;
			memcpy(raw_f, f, (size_t)(p - f));
			raw_f[p - f] = '\0';
			dec = mail_header_decode(raw_f);
			trace = has_trace(s, f, (size_t)(p - f)) ||
				has_trace(s, dec, strlen(dec)) || (subject && subject_trace);
			free(dec);
			free(raw_f);
			if (subject && trace)
				ord_buf_adds(out, "Subject: (withheld: it held a passphrase)\n");
			else if (!trace)
				ord_buf_add(out, f, (size_t)(p - f));
		}
	}
	ord_buf_adds(out, "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
			  "Content-Transfer-Encoding: 8bit\n");
	if (!with_text) {
		ord_buf_adds(out, "X-Orderly-Kept: the headers only, the body held a passphrase\n\n"
				  "[orderly: the body of this mail is not kept: it held a passphrase\n"
				  "that could not be taken out of it.]\n");
		return;
	}
	ord_buf_adds(out, "X-Orderly-Kept: the plain text only, without its passphrase\n\n"
			  "[orderly: this is not the mail as received, which held a passphrase\n"
			  "where it could not be removed alone (an HTML part, an attachment, an\n"
			  "encoded or wrapped line): only its headers and plain text are kept,\n"
			  "each value of a Passphrase: line removed.]\n\n");
	if (m->text)
		add_scrubbed(out, s, m->text);
	if (m->attachment) {
		ord_buf_adds(out, m->text ? "\n[the attached file]\n" : "[the attached file]\n");
		add_scrubbed(out, s, m->attachment);
	}
	if (!m->text && !m->attachment)
		ord_buf_adds(out, "[no plain text in the mail]\n");
}

/* The message as the judge keeps it (the inbox, unrouted/): the first of
 * 1., 2., 3. above without a trace of a value. */
static void kept_bytes(const char *raw, size_t len, const struct mail_msg *m, struct ord_buf *out)
{
	struct secrets s;

	memset(&s, 0, sizeof(s));
	mail_msg_texts(raw, len, collect_fn, &s);
	if (!s.n && !s.over) {
		ord_buf_add(out, raw, len);
		return;
	}
	if (!s.over) {
		kept_blanked(raw, len, out);
		if (!kept_has_trace(&s, out))
			goto out;
		ord_buf_reset(out);
		kept_plain(raw, len, m, &s, 1, out);
		if (!kept_has_trace(&s, out))
			goto out;
		ord_buf_reset(out);
	}
	kept_plain(raw, len, m, &s, 0, out);
out:
	secrets_release(&s);
}

/*
 * J9: what is kept of a message nobody answers (a sender not registered,
 * a loop or bounce, a mail to no game): its headers (at most
 * MAIL_UNANSWERED_HEAD bytes) and the first MAIL_UNANSWERED_BODY bytes of
 * its body, a note among the headers saying how much was cut.  A
 * stranger's mail was kept whole, up to the MTA's limit, and never
 * answered: so strangers could fill the disk unseen.
 */
static void kept_cut(struct ord_buf *kept, const char *why)
{
	const char *p = kept->buf, *end = p + kept->len, *q;
	size_t head = kept->len, blank = 0, body = 0, cut, keep;
	struct ord_buf out = ORD_BUF_INIT;

	/* the headers end at the first blank line (LF or CRLF) */
	for (q = p; q < end; q++) {
		if (*q != '\n')
			continue;
		if (q + 1 < end && q[1] == '\n')
			blank = 1;
		else if (q + 2 < end && q[1] == '\r' && q[2] == '\n')
			blank = 2;
		if (blank) {
			head = (size_t)(q + 1 - p);
			break;
		}
	}
	if (blank)
		body = kept->len - head - blank;
	if (head <= MAIL_UNANSWERED_HEAD && body <= MAIL_UNANSWERED_BODY)
		return;
	cut = head;
	if (cut > MAIL_UNANSWERED_HEAD) {
		/* at the end of a line, within the limit */
		cut = MAIL_UNANSWERED_HEAD;
		while (cut > 0 && p[cut - 1] != '\n')
			cut--;
	}
	keep = body < MAIL_UNANSWERED_BODY ? body : MAIL_UNANSWERED_BODY;
	ord_buf_add(&out, p, cut);
	ord_buf_addf(&out, "X-Orderly-Kept: %s and the first %zu bytes of its body of %zu, %s\n\n",
		     cut < head ? "the first headers" : "the headers", keep, body, why);
	if (keep)
		ord_buf_add(&out, p + head + blank, keep);
	ord_buf_release(kept);
	*kept = out;
}

/* J4: keep a message that reaches no game; 0 when it is on disk. */
static int keep_unrouted(const char *dir, const struct mail_msg *m, const char *raw, size_t len)
{
	struct ord_buf path = ORD_BUF_INIT, tmp = ORD_BUF_INIT;
	unsigned char h[16];
	char hex[33];
	int fd, ok, err = -1;

	ord_buf_addf(&path, "%s/unrouted", dir ? dir : ".");
	if (mkdir(path.buf, 0700) < 0 && errno != EEXIST)
		goto out;
	crypto_generichash(h, sizeof(h), (const unsigned char *)m->message_id,
			   strlen(m->message_id), NULL, 0);
	mail_hex(hex, h, sizeof(h));
	ord_buf_addf(&tmp, "%s/.%s.%ld.tmp", path.buf, hex, (long)getpid());
	ord_buf_addf(&path, "/%s.eml", hex);
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		goto out;
	ok = ord_fd_write(fd, raw, len, ORD_FD_APPEND) == 0 && fsync(fd) == 0;
	if (close(fd) == 0 && ok && rename(tmp.buf, path.buf) == 0)
		err = 0; /* a failed write no longer leaves its descriptor open */
	else
		unlink(tmp.buf);
out:
	ord_buf_release(&path);
	ord_buf_release(&tmp);
	return err;
}

static int unrouted(const struct mail_in_opts *o, const struct mail_msg *m, const char *raw,
		    size_t len, const char *why, struct ord_buf *msg)
{
	struct ord_buf cut = ORD_BUF_INIT;
	int err;

	ord_buf_add(&cut, raw, len);
	kept_cut(&cut, "the mail not answered"); /* J9 */
	err = keep_unrouted(o->games, m, cut.buf, cut.len);
	ord_buf_release(&cut);
	if (err != 0) {
		ord_buf_addf(msg, "cannot keep a message that reaches no game (%s): try later", why);
		return MAIL_EX_TEMPFAIL;
	}
	if (m->loop) {
		ord_buf_addf(msg, "%s; kept in unrouted/, not answered (%s)", why, m->loop);
		return MAIL_EX_OK;
	}
	ord_buf_addf(msg,
		     "%s: send your mail to the judge's address with +GAME (orderly+GAME@...), or put a line 'Game: GAME' in it",
		     why);
	return MAIL_EX_NOUSER;
}

/* A store or library failure of ours: the MTA should try again later. */
static int tempfail(struct ord_buf *msg, const char *what)
{
	ord_buf_addf(msg, "%s: %s (will be retried)", what, ord_error_last());
	return MAIL_EX_TEMPFAIL;
}

int mail_in(const struct mail_in_opts *o, const char *raw, size_t len, struct ord_buf *msg)
{
	struct mail_msg m;
	struct mail_body b;
	struct judge j;
	struct ord_buf path = ORD_BUF_INIT, kept = ORD_BUF_INIT, mixed = ORD_BUF_INIT;
	char state[8] = "", side[64] = "";
	char nonce_said[7 + 64 + 1] = "(nonce "; /* "(nonce HEX" in an inbox result */
	int sheet_attached = 0;                  /* the sheet is the attachment, not the text */
	const char *name, *why;
	int64_t check_id = 0;
	int rc = MAIL_EX_OK, err, step = 0, count = 0, referee = 0, proven, is_mixed;
	int orders_beside = 0; /* is_mixed: order lines beside a command (J10) */

	memset(&j, 0, sizeof(j));
	j.text_fd = -1;
	ord_buf_init(&j.reply);
	ord_buf_init(&j.subject);
	ord_buf_init(&j.result);
	ord_buf_init(&j.reading);
	ord_buf_init(&j.att_text);
	ord_buf_init(&j.att_name);
	mail_body_init(&b);
	mail_msg_read(&m, raw, len, o->recipient);
	mail_body_parse(&b, m.subject, m.text ? m.text : m.attachment);
	/* the attached file beside a text: the sheet, and a command too
	 * when it holds a block (J7) */
	is_mixed = m.text && m.attachment && attached_file(&b, m.attachment, &sheet_attached, &mixed);
	/* a player's mail of more than one command, said in mixed (J7) */
	if (!is_mixed)
		is_mixed = mixed_commands(&b, &mixed);
	kept_bytes(raw, len, &m, &kept);
	/* 1. the game */
	if (o->game) {
		const char *base = strrchr(o->game, '/') ? strrchr(o->game, '/') + 1 : o->game;
		size_t n = strlen(base);
		if (n > 8 && !strcmp(base + n - 8, ".orderly"))
			n -= 8;
		snprintf(j.game, sizeof(j.game), "%.*s", (int)(n < 127 ? n : 127), base);
		ord_buf_adds(&path, o->game);
	} else {
		name = m.to_plus ? m.to_plus : b.game;
		if (name)
			snprintf(j.game, sizeof(j.game), "%s", name);
		if (!name) {
			rc = unrouted(o, &m, kept.buf, kept.len, "no game named", msg);
			goto out;
		}
		if (game_path(&path, o->games, name) != 0 || access(path.buf, F_OK) != 0) {
			char why_buf[128];
			snprintf(why_buf, sizeof(why_buf), "no game '%.64s' here", name);
			rc = unrouted(o, &m, kept.buf, kept.len, why_buf, msg);
			goto out;
		}
	}
	if ((err = ord_game_open(&j.g, path.buf)) != 0) {
		rc = err == ORD_ENOFILE ? unrouted(o, &m, kept.buf, kept.len, "no such game", msg)
					: tempfail(msg, "cannot open the game");
		goto out;
	}
	/* 2. stored before anything else; of a mail nobody answers (a
	 * stranger's, a loop's), its headers and the start of its body (J9) */
	if (m.loop || m.broken || !m.from ||
	    ord_mail_find(j.g, m.from, side, &referee, &count) == ORD_ENOTFOUND)
		kept_cut(&kept, "the mail not answered");
	ord_error_clear();
	if ((err = ord_mail_inbox_add(j.g, &j.inbox_id, state, &step, m.message_id, m.from_header,
				      kept.buf, kept.len)) != 0) {
		rc = tempfail(msg, "cannot store the message");
		goto out;
	}
	if (!strcmp(state, "done")) {
		ord_buf_addf(msg, "message <%s> was answered before: nothing to do", m.message_id);
		goto out;
	}
	j.m = &m;
	j.b = &b;
	j.kept = &kept;
	ord_game_set_hook(j.g, hook, &j);
	/* loops, bounces, our own mail: stored, never answered */
	if (m.loop || m.broken || !m.from) {
		j.quiet = 1;
		ord_buf_addf(&j.result, "not answered: %s",
			     m.loop     ? m.loop
			     : m.broken ? "not a readable message"
					: "no From: address");
		if ((err = answer(&j)) != 0)
			rc = tempfail(msg, "cannot mark the message");
		else
			ord_buf_add(msg, j.result.buf, j.result.len);
		goto out;
	}
	/* 3. who: the registered address (J1) */
	err = ord_mail_find(j.g, m.from, side, &referee, &count);
	if (err == ORD_ENOTFOUND) {
		j.quiet = 1;
		ord_buf_addf(&j.result, "not answered: %s is not registered in this game", m.from);
		if ((err = answer(&j)) != 0)
			rc = tempfail(msg, "cannot mark the message");
		else
			ord_buf_add(msg, j.result.buf, j.result.len);
		goto out;
	}
	if (err) {
		rc = tempfail(msg, "cannot read the registrations");
		goto out;
	}
	snprintf(j.rcpt, sizeof(j.rcpt), "%s", m.from);
	j.referee = referee;
	j.side = referee ? NULL : side;
	if (count > 1 && b.side) {
		/* one address for several sides: the Side: line picks one */
		struct ord_mail_party p;
		if (ord_mail_party(j.g, b.side, &p) == 0 && !strcmp(p.address, m.from)) {
			snprintf(side, sizeof(side), "%s", b.side);
			j.side = side;
			j.referee = 0;
		}
		ord_error_clear();
	}
	/* order lines beside a command that is not ORDERS or CHECK (J10):
	 * refused whole, below, as a mail of more than one command is */
	if (!j.referee && !is_mixed) {
		err = orders_beside_command(&j, m.text ? m.text : m.attachment, &mixed);
		if (err < 0) {
			rc = tempfail(msg, "cannot read the game's units");
			goto out;
		}
		orders_beside = err;
		is_mixed = orders_beside;
	}
	/* answered to any registered address, but not beside another command:
	 * that mail is refused whole, below (J7) */
	if (b.cmd == CMD_HELP && !is_mixed) {
		err = cmd_help(&j);
		goto done;
	}
	if (m.html_only) {
		err = refuse(&j, "please send plain text",
			     "Your mail has only an HTML part, and orderly reads plain text only.\n"
			     "Please send it again as plain text (in most mail programs: Format,\n"
			     "Plain Text), with your orders between a line ORDERS and a line END.\n"
			     "Nothing was changed.\n",
			     "HTML only: asked for plain text");
		goto done;
	}
	if (!m.text && !m.attachment) {
		err = refuse(&j, "could not read your mail",
			     "orderly found no plain text in your mail: its MIME structure is broken\n"
			     "or it has no text part. Please send it again as a plain text mail, with\n"
			     "your orders between a line ORDERS and a line END. Nothing was changed.\n",
			     "no readable text: asked again");
		goto done;
	}
	/* the sheet is what the player wrote or it is refused, never a part
	 * of it (D6): a NUL would have cut it; one sheet a mail (J7) */
	if (m.nul.n) {
		struct ord_buf said = ORD_BUF_INIT;
		ord_buf_addf(&said,
			     "Your mail holds a NUL byte (%s, line %u, column %u), a control\n"
			     "character no mail program writes: orderly reads a mail whole or not at\n"
			     "all, and does not guess where it was cut. Please send it again as plain\n"
			     "text. Nothing was changed.\n",
			     m.nul_in, m.nul.line, m.nul.col);
		err = refuse(&j, "NOT accepted: a NUL byte in your mail", said.buf,
			     "NUL byte in the text: refused");
		ord_buf_release(&said);
		goto done;
	}
	if ((b.cmd == CMD_ORDERS || b.cmd == CMD_CHECK) && m.ntexts) {
		err = refuse(&j, "NOT accepted: your text comes in parts",
			     "Your mail's text comes in more than one part (a picture or a file\n"
			     "between them?): orderly reads a sheet whole, and does not guess whether\n"
			     "your orders go on in the next part. Send them as one plain text.\n"
			     "Nothing was changed.\n",
			     "text in more than one part: refused");
		goto done;
	}
	if ((b.cmd == CMD_ORDERS || b.cmd == CMD_CHECK) &&
	    (m.nattachments > 1 || (m.attachment && m.text && b.block && !sheet_attached))) {
		err = refuse(&j, "NOT accepted: more than one sheet",
			     m.nattachments > 1
				     ? "Your mail has more than one attached text file: a mail is one sheet,\n"
				       "and orderly does not guess which you meant. Send one. Nothing was\n"
				       "changed.\n"
				     : "Your mail has an ORDERS block and an attached text file: a mail is one\n"
				       "sheet, and orderly does not guess which you meant. Send one. Nothing\n"
				       "was changed.\n",
			     "more than one sheet: refused");
		goto done;
	}
	if ((b.cmd == CMD_ORDERS || b.cmd == CMD_CHECK) && b.block && b.unterminated) {
		struct ord_buf said = ORD_BUF_INIT;
		ord_buf_addf(&said,
			     "Your mail has a line %s (%s, line %u) but no line END after the\n"
			     "last order: orderly takes a sheet only where it can see it end, so that\n"
			     "a mail cut short is not read as a shorter sheet. Put a line END after\n"
			     "your last order and send it again. Nothing was changed.\n",
			     mail_cmd_name(b.cmd),
			     sheet_attached ? "the attached file" : "your mail's text", b.block_line);
		err = refuse(&j, "NOT accepted: no END line", said.buf, "block without END: refused");
		ord_buf_release(&said);
		goto done;
	}
	/* a draft is not signed (J5): refused before any proof is looked at,
	 * its nonce said in the inbox's result line, where the lines sent
	 * again with ORDERS are found (below) */
	if (b.have_nonce)
		mail_hex(nonce_said + 7, b.nonce, 32);
	if (!j.referee && b.cmd == CMD_CHECK &&
	    (b.have_signature || (b.have_nonce && !b.draft_signature_line))) {
		struct ord_buf result = ORD_BUF_INIT;

		ord_buf_adds(&result, "CHECK with the lines of 'orderly sign': refused, not checked");
		if (b.have_nonce)
			ord_buf_addf(&result, " %s)", nonce_said);
		err = refuse(&j, "CHECK NOT done: a sheet to check is not signed",
			     "Your CHECK mail carries the lines of 'orderly sign'. orderly did not\n"
			     "check it, and nothing was stored.\n\n"
			     "A sheet signed with your side's key is a sheet you commit to: the\n"
			     "signature does not cover the word CHECK, so the same lines sent with\n"
			     "ORDERS, by anyone who saw this mail, would submit that sheet as yours,\n"
			     "and you could not show that you only wanted it checked. Sign only the\n"
			     "sheet you submit. To check a draft, send it with CHECK and your\n"
			     "passphrase (or your OpenPGP signature), without the signature lines,\n"
			     "or with the lines 'orderly sign --draft' prints: a draft's signature,\n"
			     "which no submit takes.\n\n"
			     "The signature in your mail still signs that sheet for this turn: if it\n"
			     "must not be played, send your orders with ORDERS (a newer sheet replaces\n"
			     "it), and watch for a receipt mail you did not ask for.\n",
			     result.buf);
		ord_buf_release(&result);
		goto done;
	}
	/* those lines sent again, with ORDERS: by anyone who saw the CHECK;
	 * an inbox that cannot be read takes the mail later, never passes it */
	if (!j.referee && b.cmd == CMD_ORDERS && b.have_nonce &&
	    ord_mail_inbox_said(j.g, nonce_said, j.inbox_id, &check_id) != 0) {
		rc = tempfail(msg, "cannot read the inbox");
		goto out;
	}
	if (check_id) {
		struct ord_buf result = ORD_BUF_INIT;

		ord_buf_addf(&result,
			     "ORDERS with the signature lines of the CHECK mail %lld: refused, nothing stored",
			     (long long)check_id);
		err = refuse(&j, "NOT accepted: these signature lines came with a CHECK",
			     "Your mail carries the lines of 'orderly sign' of a sheet that came\n"
			     "before with CHECK, which orderly refused as a draft. A sheet shown for\n"
			     "checking is not submitted by its signature lines: anyone who saw that\n"
			     "mail could send them. Nothing was changed.\n\n"
			     "To submit that sheet, sign it anew ('orderly sign' makes a new nonce)\n"
			     "and send it with ORDERS. If you did not send this mail, someone\n"
			     "resent your lines; the referee can see it in the game's inbox.\n",
			     result.buf);
		ord_buf_release(&result);
		goto done;
	}
	ord_error_clear();
	if ((proven = prove(&j, raw, len, &why)) < 0) {
		rc = tempfail(msg, "cannot read the registrations");
		goto out;
	}
	if (!proven) {
		j.notice = 1;
		ord_buf_adds(&j.subject, "NOT accepted: your mail could not be proven yours");
		ord_buf_addf(&j.reply,
			     "A mail from your address reached the game '%s', but orderly could not\n"
			     "prove it comes from you: %s.\nNothing was changed.\n\n"
			     "If you did not send it, someone used your address; the referee can\n"
			     "see it in the game's inbox.\n",
			     ord_game_name(j.g), why);
		ord_buf_addf(&j.result, "not proven (%s): nothing changed", why);
		err = answer(&j);
		goto done;
	}
	/* an OpenPGP signature proves what it covers: not the Subject, nor
	 * the default of a text with no command line, so that CHECK in the
	 * Subject, taken out on the way, would have made the draft his sheet.
	 * An ORDERS or CHECK block in the attached file is a command line he
	 * wrote (J7), and signed: the signature is over the whole mail, and
	 * decode.c reads only what it covers (the signed part) */
	if (m.pgp == 1 && b.cmd_from_subject) {
		err = refuse(&j, "NOT accepted: no command in what you signed",
			     "Your mail is signed with OpenPGP, but what you signed has no command\n"
			     "line: the Subject is not signed, and anyone on the way could change\n"
			     "it. Write ORDERS (or CHECK) on a line before your orders and END after\n"
			     "them, in the text you sign or in the attached file, or STATUS,\n"
			     "REPORT ... in the text, and send it again. Nothing was changed.\n",
			     "signed text with no command line: refused");
		goto done;
	}
	/* 4. the command */
	if (j.referee && b.ncmds && b.cmds[0].cmd >= CMD_SEAL) {
		err = cmd_referee(&j, step);
		goto done;
	}
	if (!j.referee && orders_beside) {
		struct ord_buf said = ORD_BUF_INIT;

		ord_buf_addf(&said,
			     "Your mail has %s:\n"
			     "send one or the other; nothing was stored, and the command was not done\n"
			     "(orderly does not guess whether you meant orders or the command).\n\n"
			     "A line that begins with a command word (STATUS, REPORT, HELP, LINK ...)\n"
			     "is that command, and so is a command in the Subject when the text has\n"
			     "none. Send your orders in a mail of their own, with no such line (a line\n"
			     "ORDERS before them and a line END after them shows where they are),\n"
			     "and the command in another.\n",
			     mixed.buf);
		err = refuse(&j, "NOT accepted: orders and a command", said.buf,
			     "order lines beside a command: refused, nothing stored");
		ord_buf_release(&said);
		goto done;
	}
	if (!j.referee && is_mixed) {
		struct ord_buf said = ORD_BUF_INIT;

		ord_buf_addf(&said,
			     "Your mail holds %s: a mail is one command, and orderly does not guess\n"
			     "which you meant. Send them in separate mails. Nothing was changed.\n",
			     mixed.buf);
		err = refuse(&j, "NOT accepted: more than one command", said.buf,
			     "more than one command: refused");
		ord_buf_release(&said);
		goto done;
	}
	switch (b.cmd) {
	case CMD_STATUS: err = cmd_status(&j); break;
	case CMD_REPORT: err = cmd_report(&j); break;
	case CMD_LINK:
		if (j.referee) {
			err = refuse(&j, "not understood",
				     "LINK is a side's: each player mails his own link. The referee records\n"
				     "one given him otherwise with 'orderly witness GAME --side SIDE --link HEX'.\n"
				     "Nothing was changed.\n",
				     "referee sent LINK: refused");
			break;
		}
		err = cmd_link(&j);
		break;
	case CMD_CHECK:
	case CMD_ORDERS:
		if (j.referee) {
			err = refuse(&j, "not understood",
				     "The referee's address sends commands (SEAL, EVENT, CLOSE, RESOLVE,\n"
				     "EXCHANGE, DEADLINE, SCHEDULE, STATUS, REPORT), not orders. Nothing was\n"
				     "changed.\n",
				     "referee sent orders: refused");
			break;
		}
		err = cmd_orders(&j, b.cmd == CMD_CHECK);
		break;
	default:
		ord_buf_addf(&j.subject, "not allowed: %s", mail_cmd_name(b.cmd));
		ord_buf_addf(&j.reply, "%s is the referee's command. Nothing was changed.\n",
			     mail_cmd_name(b.cmd));
		ord_buf_addf(&j.result, "%s refused: not the referee", mail_cmd_name(b.cmd));
		err = answer(&j);
		break;
	}
done:
	if (err) {
		rc = tempfail(msg, "cannot finish the message");
		goto out;
	}
	ord_buf_add(msg, j.result.buf, j.result.len);
out:
	if (j.g)
		ord_game_free(j.g);
	mail_msg_release(&m);
	mail_body_release(&b);
	ord_buf_release(&path);
	ord_buf_release(&kept);
	ord_buf_release(&mixed);
	ord_buf_release(&j.reply);
	ord_buf_release(&j.subject);
	ord_buf_release(&j.result);
	ord_buf_release(&j.reading);
	ord_reading_marks_release(&j.marks);
	ord_buf_release(&j.att_text);
	ord_buf_release(&j.att_name);
	return rc;
}
