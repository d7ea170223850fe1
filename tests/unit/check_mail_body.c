/*
 * check_mail_body.c - the mail judge's reading of what a player wrote
 * (src/mail/body.c) as far as the witness link goes: a LINK line is a
 * command in the body and in the Subject (B5, B6), not inside an ORDERS
 * block, and its arguments are read by mail_link_parse, which takes
 * "[[phase] P] [link:] HEX" and refuses anything else with its reason.
 *
 * And the judge itself (src/mail/judge.c, notices.c) without an MTA:
 * mail_in fed a message for a game file of tests/mail/data/scenario.xml
 * made in a temporary directory (a fixed-dice game, so that its clock is
 * ORDERLY_TEST_NOW), the reply read back from the game's outbox and
 * decoded as a player's mail program would; the clock's notices by
 * mail_notices, as tick queues them, their attachments read by GMime.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gmime/gmime.h>
#include <sqlite3.h>

#include "core/game.h" /* the game's connection: what SQLite wrote */
#include "mail/mail.h"

#define HEX "00112233445566778899aabbccddeeff00112233445566778899AABBCCDDEEFF"

static void parse(struct mail_body *b, const char *subject, const char *text)
{
	mail_body_init(b);
	mail_body_parse(b, subject, text);
}

START_TEST(test_link_in_body)
{
	struct mail_body b;

	parse(&b, "Re: [game] phase closed", "Hello,\n\nLINK 2 " HEX "\n\n-- \nAnna\n");
	ck_assert_int_eq(b.cmd, CMD_LINK);
	ck_assert(b.explicit_cmd);
	ck_assert_str_eq(b.args, "2 " HEX);
	ck_assert_str_eq(mail_cmd_name(b.cmd), "LINK");
	mail_body_release(&b);
	/* in the Subject, and in any case */
	parse(&b, "Re: link " HEX, "Regards\n");
	ck_assert_int_eq(b.cmd, CMD_LINK);
	ck_assert_str_eq(b.args, HEX);
	mail_body_release(&b);
	/* a command line in the body wins over the Subject's (B5) */
	parse(&b, "STATUS", "LINK " HEX "\n");
	ck_assert_int_eq(b.cmd, CMD_LINK);
	mail_body_release(&b);
	/* malformed, still a LINK: answered as a link, never read as orders */
	parse(&b, NULL, "LINK 2 0123\n");
	ck_assert_int_eq(b.cmd, CMD_LINK);
	ck_assert_str_eq(b.args, "2 0123");
	mail_body_release(&b);
	/* a quoted LINK is the judge's own mail, not a command */
	parse(&b, NULL, "> LINK 2 HEX\n");
	ck_assert(!b.explicit_cmd);
	mail_body_release(&b);
	/* inside an ORDERS block a line is an order */
	parse(&b, NULL, "ORDERS\nLINK 2 " HEX "\nEND\n");
	ck_assert_int_eq(b.cmd, CMD_ORDERS);
	ck_assert_uint_eq(b.ncmds, 1);
	ck_assert_str_eq(b.sheet.buf, "LINK 2 " HEX "\n");
	mail_body_release(&b);
}
END_TEST

/* What the judge needs to refuse a mail of more than one command (J7):
 * the Subject's command, a second block, the commands after a block */
START_TEST(test_more_than_one_command)
{
	struct mail_body b;

	parse(&b, "LINK 1 " HEX, "CHECK\nB1 hold\nEND\n");
	ck_assert_int_eq(b.subject_cmd, CMD_LINK);
	ck_assert_int_eq(b.cmd, CMD_CHECK);
	ck_assert(b.block);
	mail_body_release(&b);
	parse(&b, "Re: [game] orders", "ORDERS\nB1 hold\nEND\n");
	ck_assert_int_eq(b.subject_cmd, -1);
	ck_assert(!b.extra_block);
	mail_body_release(&b);
	/* a correction sent as a second block: the first is the sheet, the
	 * second is noted */
	parse(&b, NULL, "ORDERS\nB1 hold\nEND\nSorry:\nORDERS\nB1 retire\nEND\n");
	ck_assert(b.extra_block);
	ck_assert_str_eq(b.sheet.buf, "B1 hold\n");
	mail_body_release(&b);
	/* CLOSE and EXCHANGE take nothing: with words after them, a line of
	 * text (a greeting beside a block is no second command) */
	parse(&b, NULL, "ORDERS\nB1 hold\nEND\nClose call last turn!\n");
	ck_assert_uint_eq(b.ncmds, 1);
	ck_assert_int_eq(b.cmd, CMD_ORDERS);
	mail_body_release(&b);
	parse(&b, NULL, "Passphrase: x\nCLOSE\n");
	ck_assert_uint_eq(b.ncmds, 1);
	ck_assert_int_eq(b.cmd, CMD_CLOSE);
	mail_body_release(&b);
	/* ORDERS and CHECK start a block alone on their line: with words
	 * after them, a greeting above or below one is text, no second
	 * command ("Orders for turn 3 below") */
	parse(&b, NULL, "Orders for turn 3 below.\nORDERS\nB1 hold\nEND\nCheck them, please!\n");
	ck_assert_uint_eq(b.ncmds, 1);
	ck_assert_int_eq(b.cmd, CMD_ORDERS);
	ck_assert(!b.extra_block);
	ck_assert_str_eq(b.sheet.buf, "B1 hold\n");
	mail_body_release(&b);
	/* the mail replied to, below Outlook's line, is not read: its block
	 * is no second sheet, and a STATUS above it is the command alone
	 * (the line was compared with one byte more than it has, so it
	 * was found only as the text's very last line) */
	parse(&b, NULL,
	      "ORDERS\nB1 hold\nEND\n\n-----Original Message-----\nFrom: Blue\n"
	      "ORDERS\nB2 hold\nEND\n");
	ck_assert_str_eq(b.sheet.buf, "B1 hold\n");
	ck_assert(!b.extra_block);
	mail_body_release(&b);
	parse(&b, NULL,
	      "Passphrase: x\nSTATUS please\n\n-----Original Message-----\nFrom: Blue\n"
	      "ORDERS\nB2 hold\nEND\n");
	ck_assert_uint_eq(b.ncmds, 1);
	ck_assert_int_eq(b.cmd, CMD_STATUS);
	ck_assert(!b.block);
	mail_body_release(&b);
	/* and below Outlook's other header: a line of underscores, From: */
	parse(&b, NULL,
	      "Passphrase: x\nSTATUS please\n\n________________________________\n"
	      "From: Blue <blue@club.test>\nSent: Monday\n\nORDERS\nB2 hold\nEND\n");
	ck_assert_uint_eq(b.ncmds, 1);
	ck_assert_int_eq(b.cmd, CMD_STATUS);
	ck_assert(!b.block);
	mail_body_release(&b);
	/* a line of underscores alone is text */
	parse(&b, NULL, "ORDERS\nB1 hold\nEND\n________________________________\nthanks\n");
	ck_assert_str_eq(b.sheet.buf, "B1 hold\n");
	mail_body_release(&b);
	/* a command after the block is listed after it */
	parse(&b, NULL, "ORDERS\nB1 hold\nEND\nSTATUS\n");
	ck_assert_uint_eq(b.ncmds, 2);
	ck_assert_int_eq(b.cmds[0].cmd, CMD_ORDERS);
	ck_assert_int_eq(b.cmds[1].cmd, CMD_STATUS);
	ck_assert(!b.extra_block);
	mail_body_release(&b);
}
END_TEST

START_TEST(test_link_parse)
{
	static const struct {
		const char *args;
		int phase; /* -1: refused */
		const char *why;
	} cases[] = {
		{ HEX, 0, NULL },
		{ "2 " HEX, 2, NULL },
		{ "  phase\t3   " HEX "  ", 3, NULL },
		{ "Phase 4 link: " HEX, 4, NULL },
		{ "link: " HEX, 0, NULL },
		{ "64 " HEX, 64, NULL },
		{ "", -1, "LINK needs your link" },
		{ "phase", -1, "LINK needs your link" },
		{ "2", -1,
		  "'2' is not a link: a link is 64 hexadecimal digits (0-9, a-f), this is 1 character" },
		{ "0 " HEX, -1, "'0' is not a phase number (1 to 64)" },
		{ "65 " HEX, -1, "'65' is not a phase number" },
		{ "two " HEX, -1, "'two' is not a phase number" },
		{ "2 " HEX "0", -1, "this is 65 characters" },
		{ "2 " HEX " thanks", -1, "unexpected 'thanks' after the link" },
		{ HEX " " HEX, -1, "unexpected '" },
		{ "2 3 " HEX, -1, "'3' is not a link" },
		{ "2 00112233445566778899aabbccddeeff00112233445566778899aabbccddeefg", -1,
		  "this is 64 characters, not all of them hexadecimal digits" },
		{ "a b c d e f", -1, "unexpected 'f' after the link" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ord_buf why = ORD_BUF_INIT;
		unsigned char link[32], want[32];
		int phase = -7, rc = mail_link_parse(cases[i].args, &phase, link, &why);

		if (cases[i].phase < 0) {
			ck_assert_msg(rc == -1, "'%s' taken", cases[i].args);
			ck_assert_msg(why.len && strstr(why.buf, cases[i].why), "'%s': said '%s'",
				      cases[i].args, why.len ? why.buf : "");
		} else {
			ck_assert_msg(rc == 0, "'%s' refused: %s", cases[i].args,
				      why.buf ? why.buf : "");
			ck_assert_int_eq(phase, cases[i].phase);
			ck_assert_int_eq(mail_unhex(want, sizeof(want), HEX), 32);
			ck_assert(!memcmp(link, want, 32));
		}
		ord_buf_release(&why);
	}
}
END_TEST

/* B4: the blanks around a Passphrase: line's value are not the
 * passphrase: a tab, and the Unicode spaces a mail program or a phone
 * puts for a space (a no-break space U+00A0, a narrow one U+202F, an em
 * space U+2003, an ideographic space U+3000; the core's whole set,
 * ord_utf8_blank_at), and a blank before the colon; inside the value they
 * are left as written */
START_TEST(test_passphrase_blanks)
{
	static const char *const lines[] = {
		"Passphrase:\tblue shako and sabre\n",
		"Passphrase:\xc2\xa0"
		"blue shako and sabre\n",
		"Passphrase: \xc2\xa0\xc2\xa0"
		"blue shako and sabre\xc2\xa0\n",
		"Passphrase:\xe2\x80\xaf"
		"blue shako and sabre\xe2\x80\xaf\t\n",
		"Passphrase:\xe2\x80\x83"
		"blue shako and sabre\xe3\x80\x80\n",
		"\xc2\xa0Passphrase: blue shako and sabre\n",
		/* French typography's space before the colon, a no-break one */
		"Passphrase : blue shako and sabre\n",
		"Passphrase\xc2\xa0: blue shako and sabre\n",
		"Passphrase\t:\tblue shako and sabre\n",
		/* the core's blanks (ord_utf8_blank_at), which `register`
		 * refuses at a passphrase's ends: a zero-width space, a line
		 * separator, a form feed */
		"Passphrase:\xe2\x80\x8b"
		"blue shako and sabre\xe2\x80\x8b\n",
		"Passphrase: blue shako and sabre\xe2\x80\xa8\n",
		"Passphrase:\fblue shako and sabre\f\n",
	};
	struct mail_body b;
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(lines); i++) {
		parse(&b, NULL, lines[i]);
		ck_assert_msg(b.passphrase != NULL, "not read: '%s'", lines[i]);
		ck_assert_str_eq(b.passphrase, "blue shako and sabre");
		ck_assert_uint_eq(b.sheet.len, 0);
		mail_body_release(&b);
	}
	parse(&b, NULL, "Passphrase: blue\xc2\xa0shako\n");
	ck_assert_str_eq(b.passphrase, "blue\xc2\xa0shako");
	mail_body_release(&b);
}
END_TEST

/* B4: an HTML mail's text part writes a bold or italic key with its
 * marks (*Passphrase:* from <b>Passphrase:</b>, **Passphrase:**,
 * _Passphrase:_, the colon inside the marks or after them): still the
 * key; marks that do not close around the key are no passphrase line */
START_TEST(test_passphrase_marked)
{
	static const char *const lines[] = {
		"*Passphrase:* blue shako and sabre\n",  "**Passphrase:** blue shako and sabre\n",
		"_Passphrase:_ blue shako and sabre\n",  "__Passphrase:__\tblue shako and sabre\n",
		"*Passphrase*: blue shako and sabre\n",  "**PASSPHRASE** : blue shako and sabre\n",
		" *passphrase:*blue shako and sabre \n",
	};
	static const char *const not_one[] = {
		"*Passphrase: blue shako and sabre\n",
		"*Passphrase:_ blue shako and sabre\n",
		"**Passphrase:* blue shako and sabre\n",
	};
	struct mail_body b;
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(lines); i++) {
		parse(&b, NULL, lines[i]);
		ck_assert_msg(b.passphrase != NULL, "not read: '%s'", lines[i]);
		ck_assert_str_eq(b.passphrase, "blue shako and sabre");
		ck_assert_uint_eq(b.sheet.len, 0);
		mail_body_release(&b);
	}
	for (i = 0; i < ORD_ARRAY_SIZE(not_one); i++) {
		parse(&b, NULL, not_one[i]);
		ck_assert_msg(b.passphrase == NULL, "read: '%s'", not_one[i]);
		mail_body_release(&b);
	}
	/* the judge keeps the value of none of them (loose) */
	for (i = 0; i < ORD_ARRAY_SIZE(lines) + ORD_ARRAY_SIZE(not_one); i++) {
		const char *l = i < ORD_ARRAY_SIZE(lines) ? lines[i]
							  : not_one[i - ORD_ARRAY_SIZE(lines)];
		const char *key_end, *vs, *ve;

		ck_assert_msg(mail_passphrase_line(l, l + strlen(l) - 1, 1, &key_end, &vs, &ve),
			      "'%s' not looked at", l);
		ck_assert_int_eq((int)(ve - vs), (int)strlen("blue shako and sabre"));
		ck_assert(!memcmp(vs, "blue shako and sabre", (size_t)(ve - vs)));
	}
	/* the other keys alike */
	parse(&b, NULL, "*Game:* cross\n**Side:** blue\n*Passphrase:* x\nORDERS\nB1 hold\nEND\n");
	ck_assert_str_eq(b.game, "cross");
	ck_assert_str_eq(b.side, "blue");
	ck_assert_str_eq(b.sheet.buf, "B1 hold\n");
	mail_body_release(&b);
}
END_TEST

/* B2: the block's lines as a person writes them: 'Orders:' (any case,
 * CHECK too) starts it and 'End.' ends it, alone on their lines; with
 * words after them they are text, as ORDERS and END are (a unit's
 * order line, 'Orders: B1 hold', or 'END. B2' inside a block) */
START_TEST(test_block_lines_as_written)
{
	static const struct {
		const char *text, *sheet;
		enum mail_cmd cmd;
	} cases[] = {
		{ "Hi,\nOrders:\nB1 hold\nEnd.\nThanks\n", "B1 hold\n", CMD_ORDERS },
		{ "ORDERS:\nB1 hold\nB2 hold\nEND.\n", "B1 hold\nB2 hold\n", CMD_ORDERS },
		{ "orders:  \n B1 hold\n  end. \n", " B1 hold\n", CMD_ORDERS },
		{ "ORDERS\nB1 hold\nEnd.\n", "B1 hold\n", CMD_ORDERS },
		{ "Check:\nB1 hold\nEND\n", "B1 hold\n", CMD_CHECK },
		{ "ORDERS\nB1 hold\nEND. B2 hold\nEND\n", "B1 hold\nEND. B2 hold\n", CMD_ORDERS },
		{ "Orders:\nB1 hold\nOrders:\nEND.\n", "B1 hold\nOrders:\n", CMD_ORDERS },
	};
	struct mail_body b;
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(cases); i++) {
		parse(&b, NULL, cases[i].text);
		ck_assert_msg(b.block && !b.unterminated, "no block in '%s'", cases[i].text);
		ck_assert_int_eq(b.cmd, cases[i].cmd);
		ck_assert_str_eq(b.sheet.buf, cases[i].sheet);
		mail_body_release(&b);
	}
	/* the line after 'Orders:' is line 1 */
	parse(&b, NULL, "Hi,\n\nOrders:\nB1 hold\nEND.\n");
	ck_assert_uint_eq(b.block_line, 3);
	ck_assert_uint_eq(b.nlines, 1);
	ck_assert_uint_eq(b.lines[0], 1);
	mail_body_release(&b);
	/* words after the colon: a unit's order line, no block */
	parse(&b, NULL, "Orders: B1 hold\nEnd.\n");
	ck_assert(!b.block);
	ck_assert_str_eq(b.sheet.buf, "Orders: B1 hold\nEnd.\n");
	mail_body_release(&b);
	/* a second block after one, as with ORDERS */
	parse(&b, NULL, "ORDERS\nB1 hold\nEND\nOrders:\nB1 retire\nEnd.\n");
	ck_assert(b.extra_block);
	ck_assert_str_eq(b.sheet.buf, "B1 hold\n");
	mail_body_release(&b);
	/* a block that 'End' with a colon, or 'End!', does not close */
	parse(&b, NULL, "Orders:\nB1 hold\nEnd:\n");
	ck_assert(b.unterminated);
	mail_body_release(&b);
}
END_TEST

/* The name of a file the judge mails: the game's name, folded to a safe
 * portable file name, before the file's own (docs/pbem.md). */
START_TEST(test_file_name)
{
	static const struct {
		const char *game, *want;
	} cases[] = {
		{ "austerlitz", "austerlitz-report-3-red.txt" },
		{ "Slaget ved Dybbøl 1864", "Slaget_ved_Dybboel_1864-report-3-red.txt" },
		{ "Æblerød/Århus", "Aebleroed_Aarhus-report-3-red.txt" },
		{ "ÆØÅ æøå", "AeOeAa_aeoeaa-report-3-red.txt" },
		{ "Île-de-France, Straße", "Ile-de-France_Strasse-report-3-red.txt" },
		{ "a/b\\c:d", "a_b_c_d-report-3-red.txt" },
		{ "../../etc/passwd", "etc_passwd-report-3-red.txt" },
		{ "-rf .", "rf-report-3-red.txt" },
		{ "v1.2_x", "v1.2_x-report-3-red.txt" },
		{ "日本の戦い", "game-report-3-red.txt" },
		{ "a\xff\xfe"
		  "b",
		  "a_b-report-3-red.txt" },
		{ "x \xc3", "x-report-3-red.txt" },
		{ "", "game-report-3-red.txt" },
		{ "///", "game-report-3-red.txt" },
		{ "...", "game-report-3-red.txt" },
		/* cut to 32 */
		{ "abcdefghijklmnopqrstuvwxyz0123456789",
		  "abcdefghijklmnopqrstuvwxyz012345-report-3-red.txt" },
		{ "abcdefghijklmnopqrstuvwxyz01234 6789",
		  "abcdefghijklmnopqrstuvwxyz01234-report-3-red.txt" },
	};
	struct ord_buf b = ORD_BUF_INIT;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ord_buf_reset(&b);
		ord_file_name(&b, cases[i].game, "red", "report-%d-%s.txt", 3, "red");
		ck_assert_msg(!strcmp(b.buf, cases[i].want), "'%s': '%s', not '%s'", cases[i].game,
			      b.buf, cases[i].want);
	}
	ord_buf_release(&b);
}
END_TEST

/* A side's id of 32 characters (the longest a scenario takes) beside a
 * long game's name: the whole within 72, the game's name kept whole (two
 * games of one folder apart), the side's id cut to its start, a '.' and a
 * hash of the whole id, the same in every file of the side, and two sides
 * alike to their 24th character apart. */
START_TEST(test_file_name_long_side)
{
	static const char game[] = "abcdefghijklmnopqrstuvwxyz0123456789",
			  side[] = "abcdefghijklmnopqrstuvwxyz_12345",
			  other[] = "abcdefghijklmnopqrstuvwxyz_54321";
	struct ord_buf b = ORD_BUF_INIT, c = ORD_BUF_INIT;

	ord_file_name(&b, game, side, "report-%d-%s-exchanged.txt", 12, side);
	ck_assert_str_eq(b.buf, "abcdefghijklmnopqrstuvwxyz012345-report-12-abcdefgh.7e8c40-"
				"exchanged.txt");
	ck_assert_uint_le(b.len, 72);
	ord_file_name(&c, game, other, "report-%d-%s-exchanged.txt", 12, other);
	ck_assert_str_eq(c.buf, "abcdefghijklmnopqrstuvwxyz012345-report-12-abcdefgh.6ceb38-"
				"exchanged.txt");
	ord_buf_reset(&b);
	ord_file_name(&b, game, side, "receipt-%d-%s-%d.head", 3, side, 2);
	ck_assert_str_eq(b.buf, "abcdefghijklmnopqrstuvwxyz012345-receipt-3-abcdefgh.7e8c40-2.head");
	ord_buf_reset(&b);
	ord_file_name(&b, game, side, "link-%d-%d-%s.head", 3, 4, side);
	ck_assert_str_eq(b.buf, "abcdefghijklmnopqrstuvwxyz012345-link-3-4-abcdefgh.7e8c40.head");
	/* a game's name of 8: the side's id whole, room for it in any file */
	ord_buf_reset(&b);
	ord_file_name(&b, "austerlz", side, "report-%d-%s-exchanged.txt", 9999, side);
	ck_assert_str_eq(b.buf, "austerlz-report-9999-abcdefghijklmnopqrstuvwxyz_12345-exchanged.txt");
	/* a game's name of 20: the side's id cut to what every file has room for */
	ord_buf_reset(&b);
	ord_file_name(&b, "abcdefghijklmnopqrst", side, "sealed-%d-%s.head", 1, side);
	ck_assert_str_eq(b.buf, "abcdefghijklmnopqrst-sealed-1-abcdefghijklmnopqr.7e8c40.head");
	/* a turn of 4 digits: the game's name cut after the side's id */
	ord_buf_reset(&b);
	ord_file_name(&b, game, side, "report-%d-%s-exchanged.txt", 1234, side);
	ck_assert_str_eq(b.buf, "abcdefghijklmnopqrstuvwxyz0123-report-1234-abcdefgh.7e8c40-"
				"exchanged.txt");
	ck_assert_uint_eq(b.len, 72);
	/* a name without the side's id is not cut */
	ord_buf_reset(&b);
	ord_file_name(&b, game, NULL, "report-%d-%s-exchanged.txt", 12, side);
	ck_assert_str_eq(b.buf, "abcdefghijklmno-report-12-abcdefghijklmnopqrstuvwxyz_12345-"
				"exchanged.txt");
	ord_buf_release(&b);
	ord_buf_release(&c);
}
END_TEST

/* mail_quote_at: the caret under a problem's column, which every message
 * counts in characters, sits under that character as a reader sees it,
 * not as many columns on as the bytes before it (an æ is two, a ↑
 * three: the caret sat one column right of its place for each æ, two for
 * each ↑). */
static char *quoted(const char *line, unsigned col)
{
	struct ord_buf b = ORD_BUF_INIT;

	mail_quote_at(&b, line, strlen(line), col);
	return ord_buf_detach(&b, NULL);
}

#define ck_assert_quoted(line, col, want)         \
	do {                                      \
		char *q_ = quoted((line), (col)); \
		ck_assert_str_eq(q_, (want));     \
		free(q_);                         \
	} while (0)

START_TEST(test_caret_under_character)
{
	struct ord_buf big = ORD_BUF_INIT, want = ORD_BUF_INIT;
	char *q;
	int i;

	/* a Krigsspil sheet: 'QQ' at column 32 after an æ, a ↑ and a ½ */
	ck_assert_quoted("Slesvigske Jægerkorps: M ↑ ½ S QQ", 32,
			 "    Slesvigske Jægerkorps: M ↑ ½ S QQ\n"
			 "                                   ^\n");
	ck_assert_quoted("Sjællandske Rytterrgt.: XYZ", 25,
			 "    Sjællandske Rytterrgt.: XYZ\n"
			 "                            ^\n");
	/* and ø, å in the first column: nothing before the caret */
	ck_assert_quoted("ø å", 3, "    ø å\n      ^\n");
	/* a battalion sheet: '@' at column 10 after a ↑, and after → */
	ck_assert_quoted("B1 ↑ 1/4 @X9", 10, "    B1 ↑ 1/4 @X9\n             ^\n");
	ck_assert_quoted("B3 → ← @R9", 8, "    B3 → ← @R9\n           ^\n");
	/* a word missing at the end of the line: just past its end */
	ck_assert_quoted("B1 ↑", 5, "    B1 ↑\n        ^\n");
	ck_assert_quoted("B1 ↑", 6, "    B1 ↑\n");
	ck_assert_quoted("B1 ↑", 0, "    B1 ↑\n");
	/* an NFD é (e and U+0301, two characters the reader counts) is one
	 * column, a tab a tab; a byte that is no UTF-8 is shown as the
	 * reports show it, \xff (four columns), a stray continuation byte too
	 * though it begins no character */
	ck_assert_quoted("Le\xcc\x81ger → @X9", 10, "    Le\xcc\x81ger → @X9\n            ^\n");
	ck_assert_quoted("B1\t↑ @X9", 6, "    B1\t↑ @X9\n      \t  ^\n");
	ck_assert_quoted("B1 \xff @X9", 6, "    B1 \\xff @X9\n            ^\n");
	ck_assert_quoted("B1 ↑\x80 @X9", 6, "    B1 ↑\\x80 @X9\n             ^\n");
	/* the caret under a stray continuation byte the reader names, at the
	 * column after the characters before it */
	ck_assert_quoted("B1 ↑ \xbe", 6, "    B1 ↑ \\xbe\n         ^\n");
	ck_assert_quoted("B1 ↑\x80 @X9", 5, "    B1 ↑\\x80 @X9\n        ^\n");
	/* a wide character (East Asian Width W or F: CJK, Hangul, the
	 * fullwidth forms, an emoji) is two columns, whatever the locale */
	ck_assert_quoted("漢字 XYZ", 4, "    漢字 XYZ\n         ^\n");
	ck_assert_quoted("Ｂ1 @X9", 4, "    Ｂ1 @X9\n        ^\n");
	ck_assert_quoted("B1 \xf0\x9f\x8f\x87 @X9", 6, "    B1 \xf0\x9f\x8f\x87 @X9\n          ^\n");
	ck_assert_quoted("한 @X9", 3, "    한 @X9\n       ^\n");
	/* a mark of any script drawn on the character before it (Unicode's
	 * Mn and Me: a Thai vowel sign, a Devanagari virama) is no column,
	 * and so are the Hangul jamo a syllable is spelled of after its
	 * first consonant (two columns for the three) */
	ck_assert_quoted("\u0e01\u0e31 @X9", 4, "    \u0e01\u0e31 @X9\n      ^\n");
	ck_assert_quoted("\u0915\u094d\u0937 @X9", 5, "    \u0915\u094d\u0937 @X9\n       ^\n");
	ck_assert_quoted("\u1112\u1161\u11ab @X9", 5, "    \u1112\u1161\u11ab @X9\n       ^\n");
	/* under the wide character itself: the caret at its first column */
	ck_assert_quoted("B1 漢 @X9", 4, "    B1 漢 @X9\n       ^\n");
	/* a character a reader does not see or that turns what he reads (a
	 * right-to-left override, a zero-width space, a C1 control, the BOM)
	 * is quoted escaped as the reports show it, never as it is, and the
	 * caret is under the column after its escape; a variation selector
	 * (an emoji's form) is none */
	ck_assert_quoted("B1 \xe2\x80\xae@X9 ↑", 5, "    B1 \\u202e@X9 ↑\n             ^\n");
	ck_assert_quoted("B1\xe2\x80\x8b @X9", 5, "    B1\\u200b @X9\n             ^\n");
	ck_assert_quoted("B1 \xc2\x9b"
			 "2J @X9",
			 8, "    B1 \\u009b2J @X9\n                ^\n");
	ck_assert_quoted("\xef\xbb\xbf"
			 "B1 @X9",
			 5, "    \\ufeffB1 @X9\n             ^\n");
	ck_assert_quoted("\xe2\x98\xba\xef\xb8\x8f @X9", 4,
			 "    \xe2\x98\xba\xef\xb8\x8f @X9\n      ^\n");
	/* the escape before the column is counted, the one at it not */
	ck_assert_quoted("B1 \xe2\x80\xae", 4, "    B1 \\u202e\n       ^\n");
	ck_assert_quoted("B1 \xe2\x80\xae", 5, "    B1 \\u202e\n             ^\n");
	/* a long line is cut after MAIL_QUOTE_MAX characters, between two */
	for (i = 0; i < MAIL_QUOTE_MAX + 50; i++)
		ord_buf_adds(&big, "å");
	q = quoted(big.buf, MAIL_QUOTE_MAX);
	ord_buf_adds(&want, "    ");
	ord_buf_add(&want, big.buf, 2 * MAIL_QUOTE_MAX);
	ord_buf_adds(&want, "\n    ");
	for (i = 1; i < MAIL_QUOTE_MAX; i++)
		ord_buf_addch(&want, ' ');
	ord_buf_adds(&want, "^\n");
	ck_assert_str_eq(q, want.buf);
	free(q);
	q = quoted(big.buf, MAIL_QUOTE_MAX + 1);
	ck_assert_uint_eq(strlen(q), 4 + 2 * MAIL_QUOTE_MAX + 1);
	free(q);
	ord_buf_release(&big);
	ord_buf_release(&want);
}
END_TEST

/* ---- the judge, fed directly ---- */

#define SCENARIO ORD_SOURCE_DIR "/tests/mail/data/scenario.xml"
#define BLUE_PASS "Passphrase: blue shako and sabre\n"
#define REF_PASS "Passphrase: umpire of the table\n"
/* 2030-12-09T12:00Z: turn 1's deadline is 2030-12-10 18:00 Copenhagen */
#define T0 1923048000LL

static char jdir[1024], jgame[1200];
static int jmsgs;

static void set_now(long long t)
{
	char v[32];

	snprintf(v, sizeof(v), "%lld", t);
	setenv("ORDERLY_TEST_NOW", v, 1);
}

static void judge_setup(void)
{
	struct ord_create_opts co;
	ord_game *g;

	snprintf(jdir, sizeof(jdir), "%s/check_mail.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(jdir));
	snprintf(jgame, sizeof(jgame), "%s/cross.orderly", jdir);
	set_now(T0);
	memset(&co, 0, sizeof(co));
	co.fixed_dice = 1;
	ck_assert_msg(ord_game_create(&g, jgame, SCENARIO, &co) == 0, "%s", ord_error_last());
	ck_assert_int_eq(ord_mail_set_passphrase(g, "blue", "blue shako and sabre"), 0);
	ck_assert_int_eq(ord_mail_set_passphrase(g, NULL, "umpire of the table"), 0);
	ord_game_free(g);
	mail_init();
	jmsgs = 0;
}

static void judge_teardown(void)
{
	char cmd[1100];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", jdir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Mail from FROM (blue, red, referee) with subject and body to the game:
 * mail_in's result line. */
static char *mail_to_judge(const char *from, const char *subject, const char *extra_headers,
			   const char *body)
{
	struct mail_in_opts o = { .games = jdir, .game = jgame };
	struct ord_buf raw = ORD_BUF_INIT, msg = ORD_BUF_INIT;
	int rc;

	ord_buf_addf(&raw,
		     "From: %s <%s@club.test>\nTo: orderly+cross@judge.test\n"
		     "Message-ID: <check-%d@club.test>\nSubject: %s\n%s\n%s",
		     from, from, ++jmsgs, subject, extra_headers ? extra_headers : "", body);
	rc = mail_in(&o, raw.buf, raw.len, &msg);
	ck_assert_msg(rc == 0, "mail_in exited %d: %s", rc, msg.buf ? msg.buf : "");
	ord_buf_release(&raw);
	return ord_buf_detach(&msg, NULL);
}

/* The queued mails from the after-th on (0: every one), each decoded
 * "To: RCPT\nSubject: SUBJECT\n\nTEXT", joined by a line "====". */
static char *outbox_after(size_t after, size_t *count)
{
	struct ord_buf all = ORD_BUF_INIT;
	struct ord_mail_out out;
	ord_game *g;
	int64_t id = 0;
	size_t n = 0;

	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	memset(&out, 0, sizeof(out));
	ord_buf_init(&out.bytes);
	while (ord_mail_outbox_next(g, id, &out) == 0) {
		struct mail_msg m;

		id = out.id;
		if (n++ >= after) {
			mail_msg_read(&m, out.bytes.buf, out.bytes.len, NULL);
			ord_buf_addf(&all, "%sTo: %s\nSubject: %s\n\n%s", all.len ? "====\n" : "",
				     out.rcpt, m.subject,
				     m.text         ? m.text
				     : m.attachment ? m.attachment
						    : "");
			mail_msg_release(&m);
		}
		ord_buf_reset(&out.bytes);
	}
	ord_error_clear();
	ord_buf_release(&out.bytes);
	ord_game_free(g);
	if (count)
		*count = n - (n < after ? n : after);
	if (!all.len)
		ord_buf_adds(&all, "");
	return ord_buf_detach(&all, NULL);
}

static size_t outbox_count(void)
{
	size_t n;
	free(outbox_after(0, &n));
	return n;
}

/* The newest queued mail, decoded. */
static char *last_reply(void)
{
	size_t n = outbox_count();

	return outbox_after(n ? n - 1 : 0, NULL);
}

static int sheets_of(const char *side)
{
	struct ord_game_status ti;
	unsigned char c[32];
	char source[16];
	ord_game *g;
	int version = 0;

	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	ck_assert_int_eq(ord_game_status(g, &ti), 0);
	ck_assert_int_eq(ord_game_side_sheet(g, ti.turn, side, &version, source, c), 0);
	ord_game_free(g);
	return version;
}

#define ck_assert_in(hay, needle) \
	ck_assert_msg(strstr((hay), (needle)) != NULL, "'%s' not in:\n%s", (needle), (hay))
#define ck_assert_not_in(hay, needle) \
	ck_assert_msg(strstr((hay), (needle)) == NULL, "'%s' in:\n%s", (needle), (hay))

/* J10: order lines beside a command word (a line or the Subject), with no
 * block, get the mail refused whole, saying both; a STATUS with a
 * greeting is still a STATUS. */
START_TEST(test_orders_beside_command)
{
	static const struct {
		const char *subject, *body, *said;
	} cases[] = {
		{ "orders", BLUE_PASS "B1 ↑ 1/4\nB2 Fb @R1\nReport back if anything is wrong, thanks\n",
		  "order lines (line 2, 'B1 ↑ 1/4', and 1 more) and the command REPORT on line 4 "
		  "('Report back if anything is wrong, thanks')" },
		{ "orders", BLUE_PASS "B1 ↑ 1/4\nB2 Fb @R1\nHelp appreciated\n",
		  "and the command HELP on line 4 ('Help appreciated')" },
		{ "orders", BLUE_PASS "Status of the game?\nB1 ↑ 1/4\nB2 Fb @R1\n",
		  "order lines (line 3, 'B1 ↑ 1/4', and 1 more) and the command STATUS on line 2" },
		{ "Re: status", BLUE_PASS "B1 ↑ 1/4\nB2 Fb @R1\n",
		  "and the command STATUS in the Subject ('Re: status')" },
		/* a unit by its name before ':', an order that is wrong, another side's */
		{ "orders", BLUE_PASS "Blue Hussars: Fb\nREPORT\n",
		  "order lines (line 2, 'Blue Hussars: Fb') and the command REPORT on line 3" },
		{ "orders", BLUE_PASS "STATUS\nR1 hold\n", "order lines (line 3, 'R1 hold')" },
	};
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(cases); i++) {
		char *res = mail_to_judge("blue", cases[i].subject, NULL, cases[i].body), *r;

		r = last_reply();
		ck_assert_in(res, "order lines beside a command: refused, nothing stored");
		ck_assert_in(r, "Subject: [cross] NOT accepted: orders and a command");
		ck_assert_in(r, cases[i].said);
		ck_assert_in(r, "send one or the other; nothing was stored");
		ck_assert_int_eq(sheets_of("blue"), 0);
		free(res);
		free(r);
	}
	/* a greeting, a question and a signature begin with no unit */
	{
		char *res = mail_to_judge("blue", "hello", NULL,
					  "Hi referee,\n" BLUE_PASS
					  "STATUS please\nIs red in yet? Thanks,\nAnna\n"),
		     *r = last_reply();
		ck_assert_in(res, "status sent");
		ck_assert_in(r, "Subject: [cross] status: turn 1 (open)");
		free(res);
		free(r);
	}
	/* the orders alone are taken, and a STATUS then says so */
	{
		char *res = mail_to_judge("blue", "orders", NULL, BLUE_PASS "B1 ↑ 1/4\nB2 Fb @R1\n");
		ck_assert_in(res, "orders of blue stored: turn 1 version 1");
		free(res);
	}
}
END_TEST

/* B2: without a block every line of the text is an order, a greeting
 * and a mail program's footer too: the sheet is refused, and the reply
 * says why and to put the orders between ORDERS and END; with a block
 * they are not read. */
START_TEST(test_no_block_every_line_an_order)
{
	static const char said[] = "It has no line ORDERS, so every line of it is read as an order:";
	char *res = mail_to_judge("blue", "orders", NULL,
				  "Hi,\n\n" BLUE_PASS
				  "B1 ↑ 1/4\n\nThanks\nAnna\n\nSent from my iPhone\n"),
	     *r = last_reply();

	ck_assert_in(res, "orders of blue rejected");
	ck_assert_in(r, "Line numbers count in the text of your mail.\n");
	ck_assert_in(r, said);
	ck_assert_in(r, "Put the orders between a line ORDERS and a line END\n"
			"and nothing else is read.\n");
	ck_assert_in(r, "line 9, col 6: unit 'Sent'");
	ck_assert_int_eq(sheets_of("blue"), 0);
	free(res);
	free(r);
	/* a wrong order in a block: not said */
	res = mail_to_judge("blue", "orders", NULL, BLUE_PASS "Hi,\nORDERS\nB1 flies\nEND\nAnna\n");
	r = last_reply();
	ck_assert_in(res, "orders of blue rejected");
	ck_assert_not_in(r, said);
	free(res);
	free(r);
	res = mail_to_judge("blue", "orders", NULL,
			    "Hi,\n" BLUE_PASS
			    "ORDERS\nB1 ↑ 1/4\nEND\nThanks\n\nSent from my iPhone\n");
	ck_assert_in(res, "orders of blue stored: turn 1 version 1");
	free(res);
}
END_TEST

static int64_t deadline_now(void)
{
	struct ord_game_status ti;
	ord_game *g;

	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	ck_assert_int_eq(ord_game_status(g, &ti), 0);
	ord_game_free(g);
	return ti.deadline;
}

/* J11: a referee's line that is no command (a word misspelt) stops his
 * mail before its first command, the line named; nothing is done. */
START_TEST(test_referee_line_not_understood)
{
	int64_t before = deadline_now();
	char *res = mail_to_judge("referee", "cmds", NULL,
				  REF_PASS "DEADLINE +24h\n"
					   "SHEDULE every 24h at 20:00 in Europe/Copenhagen\n"),
	     *r = last_reply();

	ck_assert_in(res, "referee commands: stopped (a line not understood), none done");
	ck_assert_in(r, "Subject: [cross] referee: stopped at a problem");
	ck_assert_in(r, "line 3 not understood: 'SHEDULE every 24h at 20:00 in Europe/Copenhagen'");
	ck_assert_in(r, "none of this mail's commands was done");
	ck_assert_not_in(r, "deadline:");
	ck_assert_int_eq(deadline_now(), before);
	free(res);
	free(r);
	/* the commands alone are done; quoted lines and the signature are
	 * not read */
	res = mail_to_judge("referee", "cmds", NULL,
			    "> SHEDULE, from the mail replied to\n" REF_PASS
			    "DEADLINE +24h\n\n-- \nthe umpire\n");
	r = last_reply();
	ck_assert_in(r, "Subject: [cross] referee: done");
	ck_assert_int_eq(deadline_now(), T0 + 24 * 3600 + 3600);
	free(res);
	free(r);
}
END_TEST

/* The current phase of the judge's game (a copy). */
static char *phase_now(void)
{
	struct ord_game_status st;
	ord_game *g;
	char *p;

	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	ck_assert_int_eq(ord_game_status(g, &st), 0);
	p = strdup(st.phase);
	ord_game_free(g);
	return p;
}

/* The reply to a refused sheet gives orderly's reading of it, its lines of
 * no accepted order numbered as the problems are, by the line of the mail
 * (the reading's marks, ord_game_check_sheet_marked), not of the sheet
 * taken from it. */
START_TEST(test_reading_lines_of_the_mail)
{
	char *res, *r;

	res = mail_to_judge("blue", "orders", NULL,
			    BLUE_PASS "ORDERS\nB1 \xe2\x86\x91 1/4\n> a quoted line\nB2 Qz\nB9 "
				      "\xe2\x86\x91 1/2\nEND\n");
	r = last_reply();
	ck_assert_in(r, "orderly's reading of your sheet");
	ck_assert_in(r, "\n    B1: \xe2\x86\x91 1/4\n"
			"    # line 3 not understood (see its problems)\n"
			"    # line 4 not accepted (see its problems): B9: \xe2\x86\x91 1/2\n");
	/* the problems count so too (the quoted line is no line of the sheet) */
	ck_assert_in(r, "line 3, col 4: unit 'B2': unknown code 'Qz'");
	/* a problem's rule after its message, as every front-end writes it */
	ck_assert_in(r, "line 4, col 1: unknown unit 'B9': did you mean 'B1' (1st Blue Foot)? "
			"(orders)\n    B9 \xe2\x86\x91 1/2\n");
	free(res);
	free(r);
}
END_TEST

/* RESOLVE PHASE by mail names the phase as a guard only (red-team finding
 * 9): an empty phase while a sealed order waits for an event of it is
 * refused, the reply saying RESOLVE PHASE EMPTY, nothing done; EMPTY (as
 * resolve --empty) resolves it empty. */
START_TEST(test_resolve_empty_by_mail)
{
	char *res, *r, *p;

	res = mail_to_judge("blue", "orders", NULL, BLUE_PASS "B1 \xe2\x86\x91 1/4\nB2 Fb @R1\n");
	ck_assert_in(res, "orders of blue stored: turn 1 version 1");
	free(res);
	res = mail_to_judge("referee", "cmds", NULL, REF_PASS "SEAL FORCE\n");
	ck_assert_in(res, "referee commands: done");
	free(res);
	res = mail_to_judge("referee", "cmds", NULL, REF_PASS "RESOLVE movement\n");
	r = last_reply();
	ck_assert_in(res, "referee commands: stopped");
	ck_assert_in(r, "Subject: [cross] referee: stopped at a problem");
	ck_assert_in(r, "phase movement has no events, but 1 unit waits for one in it, by its sealed "
			"order or the rules (unit B1: move); record them with `orderly event`, or add "
			"--empty to resolve it empty: `orderly resolve ");
	ck_assert_in(r, " --phase movement --empty`; by mail: EVENT lines first, or RESOLVE movement "
			"EMPTY");
	ck_assert_str_eq(p = phase_now(), "movement");
	free(p);
	free(res);
	free(r);
	/* EMPTY, in any case, after the phase or alone */
	res = mail_to_judge("referee", "cmds", NULL, REF_PASS "RESOLVE movement empty\n");
	r = last_reply();
	ck_assert_in(res, "referee commands: done");
	ck_assert_in(r, "turn 1, phase movement: 0 events, 0 rolls");
	ck_assert_str_eq(p = phase_now(), "fire");
	free(p);
	free(res);
	free(r);
	res = mail_to_judge("referee", "cmds", NULL, REF_PASS "RESOLVE EMPTY\n");
	r = last_reply();
	ck_assert_in(res, "referee commands: done");
	ck_assert_in(r, "turn 1, phase fire: 0 events, 0 rolls");
	ck_assert_str_eq(p = phase_now(), "fire-morale");
	free(p);
	free(res);
	free(r);
}
END_TEST

/* DEADLINE by mail takes a time in the quotes docs/pbem.md writes it in,
 * straight or made curly by a mail program; a time that is no time is
 * still refused, quoted or not, and the deadline stays. */
START_TEST(test_deadline_quoted)
{
	/* 2030-12-11T18:00 in Copenhagen is 17:00Z; the game keeps the end
	 * of the grace of 1h */
	const int64_t dec11 = T0 + 2 * 86400 + 5 * 3600;
	char *res, *r;

	res = mail_to_judge("referee", "cmds", NULL,
			    REF_PASS "DEADLINE \"2030-12-11T18:00 Europe/Copenhagen\"\n");
	ck_assert_in(res, "referee commands: done");
	ck_assert_int_eq(deadline_now(), dec11 + 3600);
	free(res);
	res = mail_to_judge("referee", "cmds", NULL,
			    REF_PASS "DEADLINE \xe2\x80\x9c"
				     "2030-12-12T18:00 "
				     "Europe/Copenhagen\xe2\x80\x9d\n");
	ck_assert_in(res, "referee commands: done");
	ck_assert_int_eq(deadline_now(), dec11 + 86400 + 3600);
	free(res);
	res = mail_to_judge("referee", "cmds", NULL, REF_PASS "DEADLINE \"soon\"\n");
	r = last_reply();
	ck_assert_in(r, "'soon'");
	ck_assert_int_eq(deadline_now(), dec11 + 86400 + 3600);
	free(res);
	free(r);
}
END_TEST

/* DEADLINE by mail with a time not after now is refused, nothing set,
 * the reply saying how to confirm it (DEADLINE WHEN PAST), as `orderly
 * deadline` asks for --past; with PAST it is set, the reply saying it
 * has passed. */
START_TEST(test_deadline_past_confirmed)
{
	int64_t before = deadline_now();
	char *res, *r;

	res = mail_to_judge("referee", "cmds", NULL, REF_PASS "DEADLINE 2030-12-08T18:00Z\n");
	r = last_reply();
	ck_assert_in(res, "referee commands: stopped");
	ck_assert_in(r, "Subject: [cross] referee: stopped at a problem");
	ck_assert_in(r, "the deadline 2030-12-08T18:00:00Z is not after now (2030-12-09T12:00:00Z): "
			"nothing set; to close the turn's orders at a time already past, send "
			"DEADLINE 2030-12-08T18:00:00Z PAST");
	ck_assert_int_eq(deadline_now(), before);
	free(res);
	free(r);
	/* now itself is not after now */
	res = mail_to_judge("referee", "cmds", NULL, REF_PASS "DEADLINE +0m\n");
	ck_assert_in(res, "referee commands: stopped");
	ck_assert_int_eq(deadline_now(), before);
	free(res);
	/* PAST alone is no time */
	res = mail_to_judge("referee", "cmds", NULL, REF_PASS "DEADLINE PAST\n");
	r = last_reply();
	ck_assert_in(r, "DEADLINE needs a time or none");
	ck_assert_int_eq(deadline_now(), before);
	free(res);
	free(r);
	/* confirmed: set, quoted or not, in any case */
	res = mail_to_judge("referee", "cmds", NULL,
			    REF_PASS "DEADLINE \"2030-12-08T19:00 Europe/Copenhagen\" past\n");
	r = last_reply();
	ck_assert_in(res, "referee commands: done");
	ck_assert_in(r, "deadline: 2030-12-08T18:00:00Z\n"
			"  this deadline has passed already: no more sheets are taken, and SEAL "
			"seals the turn without FORCE\n");
	ck_assert_int_eq(deadline_now(), T0 - 18 * 3600 + 3600);
	free(res);
	free(r);
	/* within the grace: said so */
	res = mail_to_judge("referee", "cmds", NULL, REF_PASS "DEADLINE 2030-12-09T11:30Z PAST\n");
	r = last_reply();
	ck_assert_in(r, "deadline: 2030-12-09T11:30:00Z\n"
			"  this deadline has passed already: sheets are taken until the grace ends\n");
	ck_assert_int_eq(deadline_now(), T0 - 1800 + 3600);
	free(res);
	free(r);
	/* a time to come needs no PAST, and takes one */
	res = mail_to_judge("referee", "cmds", NULL, REF_PASS "DEADLINE +24h PAST\n");
	r = last_reply();
	ck_assert_in(res, "referee commands: done");
	ck_assert_not_in(r, "has passed already");
	ck_assert_int_eq(deadline_now(), T0 + 24 * 3600 + 3600);
	free(res);
	free(r);
}
END_TEST

/* A Received: line dated t, as an MTA writes it. */
static void received_at(char *out, size_t n, const char *by, time_t t)
{
	struct tm tm;
	char date[64];

	gmtime_r(&t, &tm);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S +0000", &tm);
	snprintf(out, n, "Received: from club.test by %s with esmtp;\n\t%s\n", by, date);
}

/* J13: ORDERS are late by when our MTA received the mail (its topmost
 * Received: line), not when the judge reads it: a mail it kept queued
 * past the deadline that came in time is taken, its entry dated when it
 * came, and the audit holds it to the deadline as any sheet.  A line
 * below the MTA's, and the Date:, are the sender's and not read; a mail
 * with no Received: is judged when it is read.  (The core's clock is the
 * real one: the test clock is set to it.) */
START_TEST(test_orders_late_by_arrival)
{
	time_t real = time(NULL);
	char top[200], below[200], date[200], hdrs[700];
	struct ord_buf out = ORD_BUF_INIT;
	ord_game *g;
	char *res;

	set_now(real);
	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	ck_assert_msg(ord_game_set_deadline(g, real + 2) == 0, "%s", ord_error_last());
	ord_game_free(g);
	sleep(4);
	set_now(time(NULL));
	/* came late: the lines below ours and the Date: say otherwise */
	received_at(top, sizeof(top), "judge.test", real + 3);
	received_at(below, sizeof(below), "judge.test", real);
	received_at(date, sizeof(date), "x", real);
	snprintf(hdrs, sizeof(hdrs), "%s%sDate:%s", top, below, strchr(date, ';') + 1);
	res = mail_to_judge("blue", "orders", hdrs, BLUE_PASS "ORDERS\nB1 ↑ 1/4\nEND\n");
	ck_assert_in(res, "orders refused: turn closed");
	ck_assert_int_eq(sheets_of("blue"), 0);
	free(res);
	/* no Received: judged now */
	res = mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/4\nEND\n");
	ck_assert_in(res, "orders refused: turn closed");
	ck_assert_int_eq(sheets_of("blue"), 0);
	free(res);
	/* came in the deadline's last second, read two seconds after it */
	received_at(top, sizeof(top), "judge.test", real + 2);
	res = mail_to_judge("blue", "orders", top, BLUE_PASS "ORDERS\nB1 ↑ 1/4\nEND\n");
	ck_assert_in(res, "orders of blue stored: turn 1 version 1");
	ck_assert_int_eq(sheets_of("blue"), 1);
	free(res);
	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	ck_assert_msg(ord_game_audit(g, 0, &out) == 0, "%s", out.buf ? out.buf : "");
	ck_assert_not_in(out.buf, "after the deadline");
	ord_game_free(g);
	ord_buf_release(&out);
}
END_TEST

static int notices_tx(void *ud, ord_game *g)
{
	int64_t next;

	return mail_notices(g, *(const int64_t *)ud, &next);
}

/* What tick queues at time now (its notices, not its mail-out) */
static void tick_at(int64_t now)
{
	ord_game *g;

	set_now(now);
	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	ck_assert_msg(ord_game_transact(g, notices_tx, &now) == 0, "%s", ord_error_last());
	ord_game_free(g);
}

/* How many times needle is in hay. */
static size_t count_in(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)) != NULL; hay++)
		n++;
	return n;
}

/* The deadline set as `orderly deadline GAME WHEN` sets it (the game
 * keeps the end of the grace, 1h here). */
static void set_deadline(int64_t when)
{
	ord_game *g;

	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	ck_assert_msg(ord_game_set_deadline(g, when + 3600) == 0, "%s", ord_error_last());
	ord_game_free(g);
}

/* Reminders 24h and 2h before: a deadline set 90 minutes ahead makes both
 * due at once, and the side is mailed one, the 2h one; no second at the
 * next tick. */
START_TEST(test_one_reminder_at_once)
{
	size_t before;
	char *out;

	tick_at(T0);
	before = outbox_count();
	set_deadline(T0 + 90 * 60);
	tick_at(T0 + 60);
	tick_at(T0 + 120);
	out = outbox_after(before, NULL);
	ck_assert_uint_eq(count_in(out, "To: red@club.test\nSubject: [cross] reminder: orders due"), 1);
	ck_assert_uint_eq(count_in(out, "To: blue@club.test\nSubject: [cross] reminder: orders due"),
			  1);
	free(out);
	{
		ord_game *g;
		ck_assert_int_eq(ord_game_open(&g, jgame), 0);
		ck_assert(ord_mail_queued(g, "remind/1/7200/red"));
		ck_assert(!ord_mail_queued(g, "remind/1/86400/red"));
		ord_game_free(g);
	}
}
END_TEST

/* Whether a queued mail names a file is read from its bytes a piece at a
 * time (64 KiB, never the whole mail): the name is found wherever it lies,
 * across a piece's end too, and a name the mail does not hold, or holds
 * cut by its end, is not.  So is the first mail that names one
 * (ord_mail_first_naming), which gives the name and what follows it. */
START_TEST(test_queued_naming_in_pieces)
{
	static const size_t at[] = { 0, 65536 - 5, 65536 - 1, 65536, 2 * 65536 - 13, 200000 - 14 };
	char *bytes = malloc(200000), key[64], mid[64], name[16];
	struct ord_buf first = ORD_BUF_INIT;
	ord_game *g;
	size_t i, want;
	int queued, found;

	ck_assert_ptr_nonnull(bytes);
	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	for (i = 0; i <= sizeof(at) / sizeof(at[0]); i++) {
		/* a name of 14 bytes each mail's own: the first mail holding
		 * it is this one */
		snprintf(name, sizeof(name), "filename=%c.txt", (int)('a' + i));
		memset(bytes, 'f', 200000);
		if (i < sizeof(at) / sizeof(at[0]))
			memcpy(bytes + at[i], name, strlen(name));
		else /* cut by the mail's end */
			memcpy(bytes + 200000 - 5, name, 5);
		snprintf(key, sizeof(key), "test/naming/%zu", i);
		snprintf(mid, sizeof(mid), "naming-%zu@club.test", i);
		ck_assert_msg(ord_mail_queue(g, &queued, key, mid, "blue@club.test", bytes, 200000) == 0,
			      "%s", ord_error_last());
		ck_assert_int_eq(queued, 1);
		ck_assert(ord_mail_queued(g, key));
		ck_assert_msg(ord_mail_queued_naming(g, key, name) == (i < sizeof(at) / sizeof(at[0])),
			      "the name at %zu", i < sizeof(at) / sizeof(at[0]) ? at[i] : 0);
		ck_assert(!ord_mail_queued_naming(g, key, "filename=y.txt"));
		ck_assert(!ord_mail_queued_naming(g, "test/naming/none", name));
		/* the first mail naming it, from the name on: the name and
		 * a header's line after it at most, read a piece at a time */
		ord_buf_reset(&first);
		ck_assert_int_eq(ord_mail_first_naming(g, name, &first, &found), 0);
		ck_assert_int_eq(found, i < sizeof(at) / sizeof(at[0]));
		if (!found)
			continue;
		want = 200000 - at[i] < 14 + 998 ? 200000 - at[i] : 14 + 998;
		ck_assert_uint_eq(first.len, want);
		ck_assert(!memcmp(first.buf, name, 14));
		ck_assert(!memcmp(first.buf + 14, bytes + at[i] + 14, want - 14));
	}
	ord_buf_reset(&first);
	ck_assert_int_eq(ord_mail_first_naming(g, "filename=z.txt", &first, &found), 0);
	ck_assert(!found && !first.len);
	ord_game_free(g);
	ord_buf_release(&first);
	free(bytes);
}
END_TEST

/* A tick in the deadline's own second (the end of the grace) seals
 * nothing, since a sheet is still taken in it, but leaves the game due
 * when the next tick seals it: next_due was 0 and the game never looked
 * at again.  The game is made since (made=), so that is the deadline's
 * second second (ord_game_seal_from, threat model attack 36): a tick in
 * its next second seals nothing either. */
START_TEST(test_tick_in_deadline_second)
{
	struct ord_buf msg = ORD_BUF_INIT;
	int64_t deadline = deadline_now(), next = -1;
	size_t unsent = 9;
	int notable = 9;

	set_now(deadline);
	ck_assert_msg(mail_tick_game(jgame, "sh -c 'cat >/dev/null'", &next, &unsent, &notable,
				     &msg) == 0,
		      "%s", ord_error_last());
	ck_assert_not_in(msg.len ? msg.buf : "", "sealed");
	ck_assert_int_eq(notable, 0); /* a quiet tick prints nothing of it */
	ck_assert_int_eq(next, deadline + 2);
	ord_buf_reset(&msg);
	set_now(deadline + 1);
	ck_assert_msg(mail_tick_game(jgame, "sh -c 'cat >/dev/null'", &next, &unsent, &notable,
				     &msg) == 0,
		      "%s", ord_error_last());
	ck_assert_not_in(msg.len ? msg.buf : "", "sealed");
	ck_assert_int_eq(notable, 0);
	ord_buf_reset(&msg);
	set_now(deadline + 2);
	ck_assert_msg(mail_tick_game(jgame, "sh -c 'cat >/dev/null'", &next, &unsent, &notable,
				     &msg) == 0,
		      "%s", ord_error_last());
	ck_assert_in(msg.buf, "turn 1 sealed at its deadline");
	ck_assert_int_eq(notable, 1); /* the seal: a quiet tick prints it */
	ck_assert_uint_eq(unsent, 0);
	ord_buf_release(&msg);
}
END_TEST

/* A mail sendmail does not take stays queued and is counted, for tick
 * to exit 75 (as mail-out does): it exited 0, and a unit whose sendmail
 * never worked looked well to systemd. */
START_TEST(test_tick_counts_unsent)
{
	struct ord_buf msg = ORD_BUF_INIT;
	int64_t next;
	size_t unsent = 0, queued;
	int notable = 0;

	tick_at(T0);
	queued = outbox_count();
	ck_assert_uint_gt(queued, 0);
	ck_assert_msg(mail_tick_game(jgame, "exit 1", &next, &unsent, &notable, &msg) == 0, "%s",
		      ord_error_last());
	ck_assert_uint_eq(unsent, queued);
	ck_assert_in(msg.buf, "failed; it stays queued");
	ck_assert_int_eq(notable, 1); /* a quiet tick prints what failed */
	ord_buf_reset(&msg);
	ck_assert_msg(mail_tick_game(jgame, "cat >/dev/null", &next, &unsent, &notable, &msg) == 0,
		      "%s", ord_error_last());
	ck_assert_uint_eq(unsent, 0);
	/* the mails sent: said when verbose only */
	ck_assert_in(msg.buf, "sent");
	ck_assert_int_eq(notable, 0);
	ord_buf_release(&msg);
}
END_TEST

/* A changed deadline is mailed to every side told of the turn, once per
 * change, from the referee's DEADLINE mail and from `orderly deadline`;
 * his reply says so; a tick after it mails nothing again. */
START_TEST(test_deadline_change_told)
{
	size_t before, n;
	char *res, *out, cmd[6000];

	tick_at(T0);
	free(mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/4\nEND\n"));
	before = outbox_count();
	res = mail_to_judge("referee", "cmds", NULL, REF_PASS "DEADLINE +3h\n");
	out = outbox_after(before, &n);
	ck_assert_in(out, "deadline: 2030-12-09T15:00:00Z\n"
			  "  the sides told of turn 1 are mailed the change (2 mails)");
	ck_assert_uint_eq(count_in(out, "Subject: [cross] deadline changed: turn 1"), 2);
	ck_assert_in(out,
		     "To: blue@club.test\nSubject: [cross] deadline changed: turn 1\n\n"
		     "The deadline of turn 1 changed\n"
		     "  from 2030-12-11 18:00 Europe/Copenhagen (UTC+01:00), 2030-12-11T17:00:00Z\n"
		     "  to   2030-12-09 16:00 Europe/Copenhagen (UTC+01:00), 2030-12-09T15:00:00Z.\n"
		     "(Sheets are still taken in the grace of 1h, until "
		     "2030-12-09 17:00 Europe/Copenhagen (UTC+01:00), 2030-12-09T16:00:00Z.)\n"
		     "\nYour orders are in (version 1");
	ck_assert_in(out, "To: red@club.test\nSubject: [cross] deadline changed: turn 1\n");
	ck_assert_in(out, "No orders of yours have been received yet");
	free(res);
	free(out);
	/* once: the clock's next look mails no change again */
	before = outbox_count();
	tick_at(T0 + 60);
	out = outbox_after(before, NULL);
	ck_assert_not_in(out, "deadline changed");
	free(out);
	/* from the command line, the same, sent by the next tick */
	before = outbox_count();
	snprintf(cmd, sizeof(cmd),
		 "ORDERLY_TEST_NOW=%lld '%s/orderly' deadline '%s' +5h >'%s/out' 2>'%s/err'",
		 T0 + 120, ORD_BINARY_DIR, jgame, jdir, jdir);
	ck_assert_int_eq(system(cmd), 0);
	out = outbox_after(before, &n);
	ck_assert_uint_eq(count_in(out, "Subject: [cross] deadline changed: turn 1"), 2);
	ck_assert_in(out,
		     "  from 2030-12-09 16:00 Europe/Copenhagen (UTC+01:00), 2030-12-09T15:00:00Z\n"
		     "  to   2030-12-09 18:02 Europe/Copenhagen (UTC+01:00), 2030-12-09T17:02:00Z.\n");
	free(out);
	tick_at(T0 + 180);
	out = outbox_after(before, NULL);
	ck_assert_uint_eq(count_in(out, "Subject: [cross] deadline changed: turn 1"), 2);
	free(out);
}
END_TEST

/* A refused sheet says which sheet of the side stands (or that there is
 * none); the refusal of a late sheet offers the grace only while it is
 * ahead. */
/* The judge's answer to a refused sheet quotes each problem's line with
 * the caret under the column its message says, in characters: a battalion
 * sheet's ↑ before the problem, and (a Krigsspil game by mail, made from
 * the example scenario with addresses) a sheet's æ, ↑ and ½. */
START_TEST(test_refusal_caret_in_characters)
{
	struct ord_buf xml = ORD_BUF_INIT, to = ORD_BUF_INIT;
	struct ord_create_opts co;
	char scen[1200], buf[4096], cmd[4000];
	const char *at;
	char *res, *r;
	ord_game *g;
	FILE *f;
	size_t n;

	res = mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/4 @X9\nEND\n");
	r = last_reply();
	ck_assert_in(r, "line 1, col 10: unit 'B1': unknown target unit 'X9'");
	ck_assert_in(r, "\n    B1 ↑ 1/4 @X9\n             ^\n");
	free(res);
	free(r);
	/* a reply whose every character Latin-1 holds goes out as the UTF-8
	 * it says it is (GMime had made it Latin-1 under the label utf-8) */
	res = mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 H @Jæger\nEND\n");
	r = last_reply();
	ck_assert_in(r, "line 1, col 4: unit 'B1': unknown code 'H'");
	ck_assert_in(r, "\n    B1 H @Jæger\n       ^\n");
	free(res);
	free(r);

	ck_assert_ptr_nonnull(
		f = fopen(ORD_SOURCE_DIR "/rulesets/krigsspil/examples/scenario.xml", "r"));
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		ord_buf_add(&xml, buf, n);
	fclose(f);
	ck_assert_ptr_nonnull(at = strstr(xml.buf, "<side id=\"danske\""));
	ord_buf_add(&to, xml.buf, (size_t)(at - xml.buf));
	ord_buf_adds(&to, "<mail address=\"orderly@judge.test\" referee=\"referee@club.test\"/>\n"
			  "  <side id=\"danske\" email=\"danske@club.test\"");
	ord_buf_adds(&to, at + strlen("<side id=\"danske\""));
	snprintf(scen, sizeof(scen), "%s/krigsspil.xml", jdir);
	ck_assert_ptr_nonnull(f = fopen(scen, "w"));
	ck_assert_uint_eq(fwrite(to.buf, 1, to.len, f), to.len);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "rm -f '%s' '%s-wal' '%s-shm'", jgame, jgame, jgame);
	ck_assert_int_eq(system(cmd), 0);
	memset(&co, 0, sizeof(co));
	co.fixed_dice = 1;
	co.tables_path = ORD_SOURCE_DIR "/rulesets/krigsspil/examples/map.xml";
	ck_assert_msg(ord_game_create(&g, jgame, scen, &co) == 0, "%s", ord_error_last());
	ck_assert_int_eq(ord_mail_set_passphrase(g, "danske", "hvid kokarde"), 0);
	ord_game_free(g);
	res = mail_to_judge("danske", "ordrer", NULL,
			    "Passphrase: hvid kokarde\nORDERS\n# træk 1, højre fløj\n"
			    "Slesvigske Jægerkorps: M ↑ ½ S QQ\nSjællandske Rytterrgt.: XYZ\nEND\n");
	r = last_reply();
	ck_assert_in(r, "were NOT accepted");
	ck_assert_in(r, "line 2, col 32: unit 'Slesvigske Jægerkorps': unknown symbol 'QQ'");
	ck_assert_in(r, "\n    Slesvigske Jægerkorps: M ↑ ½ S QQ\n"
			"                                   ^\n");
	ck_assert_in(r, "line 3, col 25: unit 'Sjællandske Rytterrgt.': unknown symbol 'XYZ'");
	ck_assert_in(r, "\n    Sjællandske Rytterrgt.: XYZ\n"
			"                            ^\n");
	free(res);
	free(r);
	/* an order whose words hold a right-to-left override (attack 43):
	 * refused, and the line quoted back with the override escaped as the
	 * reports show it, never as it is (it would turn the rest of the
	 * line in the player's mail reader), and so the unit he wrote with
	 * one */
	res = mail_to_judge("danske", "ordrer", NULL,
			    "Passphrase: hvid kokarde\nORDERS\n"
			    "Slesvigske Jægerkorps: OD @\"1. Komp\xe2\x80\xae ynapmoK .2\" @\"3. Komp\"\n"
			    "1. Komp\xe2\x80\xae: H\nEND\n");
	r = last_reply();
	ck_assert_in(r, "were NOT accepted");
	ck_assert_in(r, "line 1, col 27: unit 'Slesvigske Jægerkorps': its target '1. Komp\\u202e "
			"ynapmoK .2' holds the unseen character U+202E at character 8");
	ck_assert_in(r, "\n    Slesvigske Jægerkorps: OD @\"1. Komp\\u202e ynapmoK .2\" @\"3. Komp\"\n"
			"                              ^\n");
	ck_assert_in(r, "line 2, col 1: unit '1. Komp\\u202e': the unit as written holds the unseen "
			"character U+202E at character 8");
	ck_assert_in(r, "\n    1. Komp\\u202e: H\n    ^\n");
	ck_assert_in(r, "line 2, col 1: unknown unit '1. Komp\\u202e': expected one of side danske's units");
	ck_assert_not_in(r, "\xe2\x80\xae");
	free(res);
	free(r);
	ord_buf_release(&xml);
	ord_buf_release(&to);
}
END_TEST

START_TEST(test_refusal_says_what_stands)
{
	unsigned char c[32];
	char source[16], hex[65], want[200];
	int64_t end = deadline_now();
	int version;
	char *res, *r;
	ord_game *g;

	res = mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/4 @X9\nEND\n");
	r = last_reply();
	ck_assert_in(r, "Your orders for turn 1 were NOT accepted; nothing of them is stored.\n");
	ck_assert_in(r, "You have no sheet for turn 1 yet.\n");
	free(res);
	free(r);
	free(mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/4\nEND\n"));
	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	ck_assert_int_eq(ord_game_side_sheet(g, 1, "blue", &version, source, c), 0);
	ord_game_free(g);
	ck_assert_int_eq(version, 1);
	mail_hex(hex, c, 32);
	snprintf(want, sizeof(want),
		 "Your version 1 (commitment %.16s..., the one of your last receipt)\n"
		 "stands: it is the sheet that will be sealed unless you send another.\n",
		 hex);
	res = mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/4 @X9\nEND\n");
	r = last_reply();
	ck_assert_in(r, "were NOT accepted; nothing of them is stored.\n");
	ck_assert_in(r, want);
	free(res);
	free(r);
	/* in the grace: offered */
	set_now(end - 60);
	res = mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/4 @X9\nEND\n");
	r = last_reply();
	ck_assert_in(r, "sheets are still taken in the grace, until");
	free(res);
	free(r);
	/* past it: not offered, and the standing sheet said */
	set_now(end + 60);
	res = mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/2\nEND\n");
	r = last_reply();
	ck_assert_in(r, "Turn 1 takes no more orders: its deadline and the grace after it have passed");
	ck_assert_not_in(r, "still taken");
	ck_assert_in(r, "its grace ended at");
	ck_assert_in(r, "Your version 1 (commitment");
	free(res);
	free(r);
}
END_TEST

/* D9: an attached file that is not text is not read, and the reply says
 * so, by its name, above whatever else it says. */
START_TEST(test_attachment_not_read)
{
	static const char mixed[] = "MIME-Version: 1.0\n"
				    "Content-Type: multipart/mixed; boundary=\"b1\"\n";
	static const char body[] = "--b1\n"
				   "Content-Type: text/plain; charset=utf-8\n\n" BLUE_PASS
				   "Orders attached.\n"
				   "--b1\n"
				   "Content-Type: application/vnd.openxmlformats-officedocument.wordprocessingml.document;"
				   " name=\"orders.docx\"\n"
				   "Content-Disposition: attachment; filename=\"orders.docx\"\n"
				   "Content-Transfer-Encoding: base64\n\n"
				   "UEsDBBQABgAIAAAAIQA=\n"
				   "--b1--\n";
	static const char txt[] = "--b1\n"
				  "Content-Type: text/plain; charset=utf-8\n\n" BLUE_PASS
				  "Orders attached.\n"
				  "--b1\n"
				  "Content-Type: text/plain; name=\"orders.txt\"\n"
				  "Content-Disposition: attachment; filename=\"orders.txt\"\n\n"
				  "B1 ↑ 1/4\n"
				  "--b1--\n";
	char *res = mail_to_judge("blue", "orders", mixed, body), *r = last_reply();

	ck_assert_in(r, "\n\nYour attachment orders.docx was not read: send plain text in the body "
			"or a\n.txt file.\n\n");
	ck_assert_in(r, "unit 'Orders': unknown code 'attached.'");
	ck_assert_int_eq(sheets_of("blue"), 0);
	free(res);
	free(r);
	/* a .txt file is read, and nothing is said of it */
	res = mail_to_judge("blue", "orders", mixed, txt);
	r = last_reply();
	ck_assert_in(res, "orders of blue stored");
	ck_assert_not_in(r, "not read");
	free(res);
	free(r);
}
END_TEST

/* How many of the inbox's copies hold text. */
static int inbox_holding(const char *text)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int n = 0;

	ck_assert_int_eq(sqlite3_open(jgame, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db,
					    "SELECT count(*) FROM mail_inbox_raw "
					    "WHERE instr(CAST(raw AS TEXT), ?) > 0",
					    -1, &st, NULL),
			 SQLITE_OK);
	sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

/* A UTF-8 byte-order mark (Notepad's) at the start of a .txt file or of
 * the mail's text is no part of its first line: the file's ORDERS starts
 * the block, the text's Passphrase: is the proof, and its value is not
 * kept in the game file. */
START_TEST(test_byte_order_mark)
{
	static const char mixed[] = "MIME-Version: 1.0\n"
				    "Content-Type: multipart/mixed; boundary=\"b1\"\n";
	static const char txt[] = "--b1\n"
				  "Content-Type: text/plain; charset=utf-8\n\n" BLUE_PASS
				  "my sheet is attached (saved with Notepad)\n"
				  "--b1\n"
				  "Content-Type: text/plain; charset=utf-8; name=\"orders.txt\"\n"
				  "Content-Disposition: attachment; filename=\"orders.txt\"\n\n"
				  "\xef\xbb\xbfORDERS\nB1 ↑ 1/4\nEND\n"
				  "--b1--\n";
	char *res = mail_to_judge("blue", "orders", mixed, txt);

	ck_assert_in(res, "orders of blue stored: turn 1 version 1");
	free(res);
	res = mail_to_judge("blue", "orders", NULL,
			    "\xef\xbb\xbf" BLUE_PASS "ORDERS\nB1 ↑ 1/4\nB2 Fb @R1\nEND\n");
	ck_assert_in(res, "orders of blue stored: turn 1 version 2");
	free(res);
	ck_assert_int_eq(inbox_holding("shako and sabre"), 0);
}
END_TEST

/* B4: a right passphrase after a no-break space or a tab is right, as the
 * mail programs send it: in UTF-8, in Latin-1 and quoted-printable (=A0,
 * =C2=A0): it was checked with the space and counted as a wrong one,
 * and five of them in an hour suspended the side's passphrase (here the
 * sixth would be refused unchecked).  Its value is not kept. */
START_TEST(test_passphrase_after_unicode_space)
{
	static const char qp[] = "MIME-Version: 1.0\n"
				 "Content-Transfer-Encoding: quoted-printable\n"
				 "Content-Type: text/plain; charset=";
	static const struct {
		const char *headers, *body;
	} cases[] = {
		{ NULL, "Passphrase:\xc2\xa0"
			"blue shako and sabre\nSTATUS\n" },
		{ NULL, "Passphrase:\tblue shako and sabre\t\nSTATUS\n" },
		{ NULL, "Passphrase:\xe2\x80\xaf"
			"blue shako and sabre\xc2\xa0\nSTATUS\n" },
		{ "iso-8859-1\n", "Passphrase:=A0blue shako and sabre=A0\nSTATUS\n" },
		{ "utf-8\n", "Passphrase:=C2=A0blue shako and sabre\nSTATUS\n" },
		{ "windows-1252\n", "Passphrase: =A0blue shako and sabre\nSTATUS\n" },
	};
	size_t i;

	for (i = 0; i < ORD_ARRAY_SIZE(cases); i++) {
		struct ord_buf h = ORD_BUF_INIT;
		char *res;

		if (cases[i].headers)
			ord_buf_addf(&h, "%s%s", qp, cases[i].headers);
		res = mail_to_judge("blue", "status", h.buf, cases[i].body);
		ck_assert_msg(strstr(res, "status sent") != NULL, "case %zu: %s", i, res);
		free(res);
		ord_buf_release(&h);
	}
	ck_assert_int_eq(inbox_holding("shako and sabre"), 0);
}
END_TEST

/* B4: an HTML mail's bold or italic key, as its text part writes it, is
 * the passphrase line: the sheet is stored, and no inbox copy keeps the
 * value (the line was refused as an order, and kept whole).  A line that
 * only looks like one is no proof, but its value is not kept either: a
 * bold around the whole line, 'Pass phrase', an '=' for the colon. */
START_TEST(test_passphrase_marked_kept_out)
{
	static const char *const proven[] = {
		"*Passphrase:* blue shako and sabre\n",
		"**Passphrase:** blue shako and sabre\n",
		"_Passphrase:_ blue shako and sabre\n",
	};
	static const char *const looks[] = {
		"*Passphrase: blue shako and sabre*\n",
		"Pass phrase: blue shako and sabre\n",
		"> **Pass-Phrase** = blue shako and sabre\n",
	};
	size_t i;
	char *res, want[64];

	for (i = 0; i < ORD_ARRAY_SIZE(proven); i++) {
		struct ord_buf body = ORD_BUF_INIT;

		ord_buf_addf(&body, "Hello,\n\n%sORDERS\nB1 ↑ 1/4\nEND\n", proven[i]);
		res = mail_to_judge("blue", "orders", NULL, body.buf);
		snprintf(want, sizeof(want), "orders of blue stored: turn 1 version %zu", i + 1);
		ck_assert_msg(strstr(res, want) != NULL, "'%s': %s", proven[i], res);
		free(res);
		ord_buf_release(&body);
	}
	ck_assert_int_eq(inbox_holding("shako and sabre"), 0);
	for (i = 0; i < ORD_ARRAY_SIZE(looks); i++) {
		struct ord_buf body = ORD_BUF_INIT;

		ord_buf_addf(&body, "%sSTATUS\n", looks[i]);
		res = mail_to_judge("blue", "status", NULL, body.buf);
		ck_assert_msg(strstr(res, "it carries no proof") != NULL, "'%s': %s", looks[i], res);
		free(res);
		ord_buf_release(&body);
		ck_assert_msg(inbox_holding("shako and sabre") == 0, "'%s' kept", looks[i]);
	}
}
END_TEST

/* B2: a sheet between 'Orders:' and 'End.' is stored, the text around
 * it not read */
START_TEST(test_block_lines_as_written_stored)
{
	char *res = mail_to_judge("blue", "turn 1", NULL,
				  "Dear referee,\n\n" BLUE_PASS
				  "Orders:\nB1 ↑ 1/4\nB2 Fb @R1\nEnd.\n\nBest regards,\nAnna\n");

	ck_assert_in(res, "orders of blue stored: turn 1 version 1");
	free(res);
	res = mail_to_judge("blue", "turn 1", NULL, BLUE_PASS "CHECK:\nB1 ↑ 1/4\nEND.\nAnna\n");
	ck_assert_in(res, "checked: 0 problem(s)");
	free(res);
}
END_TEST

/* The game made again from the test scenario with blue's public key in it
 * (kp), so that blue may sign his orders with `orderly sign`'s lines. */
static void judge_with_blue_key(struct ord_keypair *kp)
{
	struct ord_buf sc = ORD_BUF_INIT, path = ORD_BUF_INIT;
	struct ord_create_opts co;
	char pk[65], cmd[4000];
	FILE *f;
	ord_game *g;
	size_t n;
	char *at;

	ord_keypair_generate(kp);
	mail_hex(pk, kp->pk, 32);
	f = fopen(SCENARIO, "r");
	ck_assert_ptr_nonnull(f);
	{
		char chunk[4096];
		while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			ord_buf_add(&sc, chunk, n);
	}
	fclose(f);
	at = strstr(sc.buf, "email=\"blue@club.test\"");
	ck_assert_ptr_nonnull(at);
	ord_buf_addf(&path, "%s/keyed.xml", jdir);
	f = fopen(path.buf, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%.*s pubkey=\"%s\" %s", (int)(at - sc.buf), sc.buf, pk, at);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "rm -f '%s' '%s-wal' '%s-shm'", jgame, jgame, jgame);
	ck_assert_int_eq(system(cmd), 0);
	memset(&co, 0, sizeof(co));
	co.fixed_dice = 1;
	ck_assert_msg(ord_game_create(&g, jgame, path.buf, &co) == 0, "%s", ord_error_last());
	ck_assert_int_eq(ord_mail_set_passphrase(g, "blue", "blue shako and sabre"), 0);
	ck_assert_int_eq(ord_mail_set_passphrase(g, NULL, "umpire of the table"), 0);
	ord_game_free(g);
	ord_buf_release(&sc);
	ord_buf_release(&path);
}

/* The three lines of `orderly sign` for blue's sheet (its text as the
 * ORDERS block holds it), then the block. */
static void signed_orders(struct ord_buf *out, const struct ord_keypair *kp, const char *sheet)
{
	struct ord_game_status ti;
	struct ord_sheet_binding b;
	struct ord_signed_sheet ss;
	char hex[129];
	ord_game *g;

	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	ck_assert_int_eq(ord_game_status(g, &ti), 0);
	memset(&b, 0, sizeof(b));
	ord_game_id(g, b.game_id);
	b.turn = ti.turn;
	b.side = "blue";
	memcpy(b.seed_commitment, ti.seed_commitment, 32);
	ord_game_free(g);
	ord_sheet_sign(&ss, &b, sheet, strlen(sheet), kp);
	mail_hex(hex, ss.nonce, 32);
	ord_buf_addf(out, "nonce: %s\n", hex);
	mail_hex(hex, ss.commitment, 32);
	ord_buf_addf(out, "commitment: %s\n", hex);
	mail_hex(hex, ss.signature, 64);
	ord_buf_addf(out, "signature: %s\nORDERS\n%sEND\n", hex, sheet);
}

/* J12: wrong passphrases by mail, past the game's tries in an hour, stop
 * the party's passphrases being checked for the hour after the last one:
 * the right one is refused unchecked, the player and the referee are told
 * once, a mail signed with the side's key is still taken, and an hour
 * later the passphrase proves again.  (A red team guessed 40 passphrases
 * in 22 s, each checked, and the right one stored orders as blue.) */
/* Checks running are counted apart from wrong ones (schema 016): while
 * the checks under way would make the tries were they wrong, no other
 * begins (-1: wait); one found right makes room, wrong ones suspend, and
 * a check pending ORD_MAIL_PASS_STALE seconds never finished: it counts
 * as wrong.  (Until 016 every check under way counted as wrong, and eight
 * right passphrases of the referee sent at once had three refused.) */
START_TEST(test_passphrase_checks_running)
{
	ord_game *g;
	int64_t until = 1, id;

	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	for (id = 1; id <= ORD_MAIL_PASS_TRIES; id++) {
		ck_assert_int_eq(ord_mail_pass_try(g, "blue", id, "x", &until), 0);
		ck_assert_int_eq(until, 0);
	}
	ck_assert_int_eq(ord_mail_pass_try(g, "blue", 100, "x", &until), 0);
	ck_assert_int_eq(until, -1);
	/* another party is counted apart */
	ck_assert_int_eq(ord_mail_pass_try(g, NULL, 101, "x", &until), 0);
	ck_assert_int_eq(until, 0);
	ck_assert_int_eq(ord_mail_pass_right(g, NULL, 101), 0);
	/* one right: room for one more */
	ck_assert_int_eq(ord_mail_pass_right(g, "blue", 1), 0);
	ck_assert_int_eq(ord_mail_pass_try(g, "blue", 100, "x", &until), 0);
	ck_assert_int_eq(until, 0);
	/* four wrong and one running: still waiting, not suspended */
	for (id = 2; id <= ORD_MAIL_PASS_TRIES; id++)
		ck_assert_int_eq(ord_mail_pass_wrong(g, "blue", id), 0);
	ck_assert_int_eq(ord_mail_pass_try(g, "blue", 102, "x", &until), 0);
	ck_assert_int_eq(until, -1);
	/* the fifth wrong: suspended an hour after the last */
	ck_assert_int_eq(ord_mail_pass_wrong(g, "blue", 100), 0);
	ck_assert_int_eq(ord_mail_pass_try(g, "blue", 102, "x", &until), 0);
	ck_assert_int_eq(until, T0 + ORD_MAIL_PASS_WINDOW);
	ord_game_free(g);
	/* a check that never finished counts as wrong once stale */
	set_now(T0 + ORD_MAIL_PASS_WINDOW + 1);
	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	for (id = 200; id < 200 + ORD_MAIL_PASS_TRIES; id++)
		ck_assert_int_eq(ord_mail_pass_try(g, "blue", id, "x", &until), 0);
	ck_assert_int_eq(ord_mail_pass_try(g, "blue", 300, "x", &until), 0);
	ck_assert_int_eq(until, -1);
	ord_game_free(g);
	set_now(T0 + ORD_MAIL_PASS_WINDOW + 1 + ORD_MAIL_PASS_STALE);
	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	ck_assert_int_eq(ord_mail_pass_try(g, "blue", 300, "x", &until), 0);
	ck_assert_int_eq(until, T0 + 2 * ORD_MAIL_PASS_WINDOW + 1);
	ord_game_free(g);
}
END_TEST

/* A mail whose passphrase waited its whole time for others' checks (as
 * many running as the tries) is not checked, but a signature of the side
 * still proves it, as when suspended (the review's find: it was refused
 * before its signature was looked at); and a mail run again after a
 * crash waits for no check of its own. */
START_TEST(test_passphrase_wait_then_signature)
{
	struct ord_keypair kp;
	struct ord_buf body = ORD_BUF_INIT;
	int64_t until = 1, id;
	ord_game *g;
	char *res;

	judge_with_blue_key(&kp);
	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	for (id = 1001; id < 1001 + ORD_MAIL_PASS_TRIES; id++)
		ck_assert_int_eq(ord_mail_pass_try(g, "blue", id, "x", &until), 0);
	/* the last one's own row does not hold it back */
	ck_assert_int_eq(ord_mail_pass_try(g, "blue", id - 1, "x", &until), 0);
	ck_assert_int_eq(until, 0);
	ord_game_free(g);
	setenv("ORDERLY_TEST_PASS_WAIT_MS", "300", 1);
	res = mail_to_judge("blue", "status", NULL, BLUE_PASS "STATUS\n");
	ck_assert_in(res, "were being checked all the 0 s this one waited");
	ck_assert_in(res, "so yours was not checked; sign your orders");
	free(res);
	ord_buf_adds(&body, BLUE_PASS);
	signed_orders(&body, &kp, "B1 ↑ 1/2\n");
	res = mail_to_judge("blue", "orders", NULL, body.buf);
	ck_assert_in(res, "orders of blue stored: turn 1 version 1");
	free(res);
	unsetenv("ORDERLY_TEST_PASS_WAIT_MS");
	ord_buf_release(&body);
}
END_TEST

START_TEST(test_passphrase_guesses_suspended)
{
	struct ord_keypair kp;
	struct ord_buf body = ORD_BUF_INIT;
	size_t before, n;
	char *res, *out;
	int i;

	judge_with_blue_key(&kp);
	before = outbox_count();
	for (i = 1; i <= ORD_MAIL_PASS_TRIES; i++) {
		char guess[64];
		snprintf(guess, sizeof(guess), "Passphrase: guess %d\nSTATUS\n", i);
		res = mail_to_judge("blue", "status", NULL, guess);
		ck_assert_in(res, "not proven (the passphrase is wrong)");
		free(res);
	}
	/* the right one now: refused, not checked */
	res = mail_to_judge("blue", "status", NULL, BLUE_PASS "STATUS\n");
	ck_assert_in(res, "not proven (passphrase proofs of blue are suspended until ");
	ck_assert_in(res, "so yours was not checked; sign your orders");
	ck_assert_in(res, "): nothing changed");
	free(res);
	res = mail_to_judge("blue", "status", NULL, "Passphrase: guess 99\nSTATUS\n");
	ck_assert_in(res, "passphrase proofs of blue are suspended");
	free(res);
	/* told once each, the player and the referee, with the mails */
	out = outbox_after(before, &n);
	ck_assert_uint_eq(count_in(out, "Subject: [cross] passphrases of blue not checked until"), 2);
	ck_assert_in(out, "To: blue@club.test\nSubject: [cross] passphrases of blue not checked until");
	ck_assert_in(out,
		     "To: referee@club.test\nSubject: [cross] passphrases of blue not checked until");
	ck_assert_in(out, "Sign your orders, or wait until");
	ck_assert_in(out, "at 2030-12-09T12:00:00Z: From: blue <blue@club.test>");
	ck_assert_uint_eq(count_in(out, "\n  mail "), 2 * ORD_MAIL_PASS_TRIES);
	free(out);
	/* the lines of `orderly sign` still prove his orders, with a
	 * passphrase line beside them or not */
	signed_orders(&body, &kp, "B1 ↑ 1/4\n");
	res = mail_to_judge("blue", "orders", NULL, body.buf);
	ck_assert_in(res, "orders of blue stored: turn 1 version 1");
	free(res);
	ord_buf_reset(&body);
	ord_buf_adds(&body, BLUE_PASS);
	signed_orders(&body, &kp, "B1 ↑ 1/2\n");
	res = mail_to_judge("blue", "orders", NULL, body.buf);
	ck_assert_in(res, "orders of blue stored: turn 1 version 2");
	free(res);
	ord_buf_release(&body);
	/* the referee's own passphrase is his: checked */
	res = mail_to_judge("referee", "status", NULL, REF_PASS "STATUS\n");
	ck_assert_in(res, "status sent");
	free(res);
	/* an hour after the last wrong one, checked again */
	set_now(T0 + ORD_MAIL_PASS_WINDOW - 1);
	res = mail_to_judge("blue", "status", NULL, BLUE_PASS "STATUS\n");
	ck_assert_in(res, "suspended");
	free(res);
	set_now(T0 + ORD_MAIL_PASS_WINDOW + 1);
	res = mail_to_judge("blue", "status", NULL, BLUE_PASS "STATUS\n");
	ck_assert_in(res, "status sent");
	free(res);
	/* a right one is not counted: tries - 1 wrong and a right one, then
	 * one wrong more, and the right one still works */
	for (i = 1; i < ORD_MAIL_PASS_TRIES; i++) {
		res = mail_to_judge("blue", "status", NULL, "Passphrase: again\nSTATUS\n");
		ck_assert_in(res, "the passphrase is wrong");
		free(res);
		res = mail_to_judge("blue", "status", NULL, BLUE_PASS "STATUS\n");
		ck_assert_in(res, "status sent");
		free(res);
	}
	out = outbox_after(before, &n);
	ck_assert_uint_eq(count_in(out, "passphrases of blue not checked until"), 2);
	free(out);
}
END_TEST

/* Attack 35: a side whose only proof by mail is its passphrase (no key
 * of its own in the scenario, no OpenPGP key) is kept out by the wrong
 * passphrases anyone who knows its address can send.  The notice said
 * "sign your orders ... nobody can lock blue out", which it cannot: it
 * now says that nothing of blue's is taken until the suspension ends, what
 * the referee can do, and, half an hour before the turn's sheets close,
 * that blue has no sheet in and the sheets close before then. */
START_TEST(test_passphrase_suspended_no_other_proof)
{
	/* turn 1's sheets are taken until 2030-12-11T18:00Z (its deadline
	 * 18:00 Copenhagen, the schedule's, and its hour of grace) */
	const int64_t closes = 1923242400LL;
	size_t before, n;
	char *res, *out;
	int i;

	set_now(closes - 1800);
	before = outbox_count();
	for (i = 1; i <= ORD_MAIL_PASS_TRIES; i++) {
		char guess[64];
		snprintf(guess, sizeof(guess), "Passphrase: guess %d\nORDERS\nB1 ↑ 1/2\nEND\n", i);
		res = mail_to_judge("blue", "orders", NULL, guess);
		ck_assert_in(res, "not proven (the passphrase is wrong)");
		free(res);
	}
	/* the player's own, the right passphrase: refused unchecked */
	res = mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/2\nEND\n");
	ck_assert_in(res, "not proven (passphrase proofs of blue are suspended until ");
	free(res);
	ck_assert_int_eq(sheets_of("blue"), 0);
	out = outbox_after(before, &n);
	ck_assert_uint_eq(count_in(out, "Subject: [cross] passphrases of blue not checked until"), 2);
	ck_assert_not_in(out, "Sign your orders");
	ck_assert_not_in(out, "nobody can lock");
	ck_assert_uint_eq(count_in(out,
				   "\n\nblue has no other proof registered (no OpenPGP key, no key of its own in the scenario),\n"
				   "so until then no mail of blue's that needs a proof is taken: whoever\n"
				   "sent the wrong passphrases can keep it out, 5 mails an hour. The\n"
				   "referee can register an OpenPGP key for it ('orderly register\n"
				   "--pgp-key') or a new passphrase, which ends the suspension, and\n"
				   "move the deadline to give it time (DEADLINE). The game's log keeps\n"
				   "the suspension: every audit and verify of a turn sealed with the\n"
				   "NMR policy standing in for blue says it was suspended.\n\n"
				   "blue has no sheet in for turn 1, and its sheets are taken until\n"),
			  2);
	ck_assert_uint_eq(count_in(out,
				   "taken until\n2030-12-11 19:00 Europe/Copenhagen (UTC+01:00), "
				   "2030-12-11T18:00:00Z, before the suspension ends.\n\nIf the wrong passphrases"),
			  2);
	/* the suspension begins before they close and ends after */
	ck_assert_uint_eq(count_in(out, "not checked until 2030-12-11 19:30 Europe/Copenhagen"), 2);
	free(out);
	/* the referee's, who has the command line */
	before = outbox_count();
	for (i = 1; i <= ORD_MAIL_PASS_TRIES; i++) {
		char guess[64];
		snprintf(guess, sizeof(guess), "Passphrase: guess %d\nSTATUS\n", i);
		res = mail_to_judge("referee", "status", NULL, guess);
		ck_assert_in(res, "not proven (the passphrase is wrong)");
		free(res);
	}
	out = outbox_after(before, &n);
	ck_assert_uint_eq(count_in(out, "Subject: [cross] passphrases of the referee not checked"), 1);
	ck_assert_in(out, "\n\nThe referee has no other proof registered (no OpenPGP key), so until\n"
			  "then no command of his is taken by mail: whoever sent the wrong\n"
			  "passphrases can keep him out, 5 mails an hour. The command line\n"
			  "takes them as ever ('orderly seal', 'orderly deadline' ...), and\n"
			  "'orderly register GAME --referee --pgp-key FILE' registers a key.\n\n"
			  "If the wrong passphrases");
	ck_assert_not_in(out, "Sign your orders");
	free(out);
}
END_TEST

/* The bodies of the game's log entries of kind, each after "#SEQ\n". */
static char *log_bodies(const char *kind)
{
	struct ord_buf out = ORD_BUF_INIT;
	sqlite3 *db;
	sqlite3_stmt *st;

	ck_assert_int_eq(sqlite3_open(jgame, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT seq, body FROM log WHERE kind = ? ORDER BY seq",
					    -1, &st, NULL),
			 SQLITE_OK);
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW)
		ord_buf_addf(&out, "#%lld\n%s", (long long)sqlite3_column_int64(st, 0),
			     (const char *)sqlite3_column_text(st, 1));
	sqlite3_finalize(st);
	sqlite3_close(db);
	ord_buf_adds(&out, "");
	return ord_buf_detach(&out, NULL);
}

/* Attack 37: a new passphrase registered for a suspended side ends the
 * suspension at once (the wrong ones were guesses of the old one),
 * logged (mail-unsuspended, with the end it was to have and the time it
 * ended), so that the verifier's note holds it to the time it ran; the
 * new passphrase is taken by mail at once, and the count of wrong ones
 * begins again.  The notice says a new passphrase ends it. */
START_TEST(test_passphrase_new_ends_suspension)
{
	const int64_t closes = 1923242400LL;
	char want[200], *res, *logged, *out;
	ord_game *g;
	int i;

	set_now(closes - 1800);
	for (i = 1; i <= ORD_MAIL_PASS_TRIES; i++) {
		char guess[64];
		snprintf(guess, sizeof(guess), "Passphrase: guess %d\nORDERS\nB1 ↑ 1/2\nEND\n", i);
		free(mail_to_judge("blue", "orders", NULL, guess));
	}
	res = mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/2\nEND\n");
	ck_assert_in(res, "not proven (passphrase proofs of blue are suspended until ");
	free(res);
	out = outbox_after(0, NULL);
	ck_assert_uint_eq(count_in(out, "--pgp-key') or a new passphrase, which ends the suspension, and\n"
					"move the deadline to give it time (DEADLINE)."),
			  2);
	ck_assert_uint_eq(count_in(out, "one the guesses so far did not try: it ends the suspension at once,\n"
					"since they were guesses of the old one."),
			  2);
	free(out);
	logged = log_bodies("mail-unsuspended");
	ck_assert_str_eq(logged, "");
	free(logged);
	/* the referee registers a new one a hundred seconds later */
	set_now(closes - 1700);
	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	ck_assert_int_eq(ord_mail_set_passphrase(g, "blue", "blue busby and lance"), 0);
	ord_game_free(g);
	logged = log_bodies("mail-unsuspended");
	snprintf(want, sizeof(want), "side=blue\nuntil=%lld\nended=%lld\n",
		 (long long)(closes - 1800 + ORD_MAIL_PASS_WINDOW), (long long)(closes - 1700));
	ck_assert_in(logged, want);
	ck_assert_uint_eq(count_in(logged, "#"), 1);
	free(logged);
	/* taken at once */
	res = mail_to_judge("blue", "orders", NULL,
			    "Passphrase: blue busby and lance\nORDERS\nB1 ↑ 1/2\nEND\n");
	ck_assert_in(res, "orders of blue stored");
	free(res);
	ck_assert_int_eq(sheets_of("blue"), 1);
	/* the count begins again: four wrong ones suspend nothing */
	for (i = 1; i < ORD_MAIL_PASS_TRIES; i++) {
		res = mail_to_judge("blue", "check", NULL,
				    "Passphrase: guess again\nCHECK\nB1 ↑ 1/2\nEND\n");
		ck_assert_in(res, "not proven (the passphrase is wrong)");
		free(res);
	}
	res = mail_to_judge("blue", "check", NULL,
			    "Passphrase: blue busby and lance\nCHECK\nB1 ↑ 1/2\nEND\n");
	ck_assert_not_in(res, "suspended");
	ck_assert_not_in(res, "not proven");
	free(res);
	/* a passphrase registered while none is suspended logs nothing */
	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	ck_assert_int_eq(ord_mail_set_passphrase(g, NULL, "umpire of the table, again"), 0);
	ord_game_free(g);
	logged = log_bodies("mail-unsuspended");
	ck_assert_uint_eq(count_in(logged, "#"), 1);
	free(logged);
}
END_TEST

/* The game made again with co (its passphrases as judge_setup sets them). */
static void judge_remake(const struct ord_create_opts *co)
{
	char cmd[4000];
	ord_game *g;

	snprintf(cmd, sizeof(cmd), "rm -f '%s' '%s-wal' '%s-shm'", jgame, jgame, jgame);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_msg(ord_game_create(&g, jgame, SCENARIO, co) == 0, "%s", ord_error_last());
	ck_assert_int_eq(ord_mail_set_passphrase(g, "blue", "blue shako and sabre"), 0);
	ck_assert_int_eq(ord_mail_set_passphrase(g, NULL, "umpire of the table"), 0);
	ord_game_free(g);
}

/* RESOLVE by mail in a witnessed game whose sides have not revealed their
 * links: the refusal says the mail's way (RESOLVE STAND-IN) after the
 * command line's, from what the resolve says of it (ord_resolve_opts
 * unrevealed), not from its words; a refusal for anything else (the
 * events not closed) says nothing of it. */
START_TEST(test_resolve_stand_in_by_mail)
{
	struct ord_resolve_opts o;
	struct ord_create_opts co;
	struct ord_buf out = ORD_BUF_INIT;
	size_t unrevealed = 9;
	char *res, *r;
	ord_game *g;

	memset(&co, 0, sizeof(co));
	co.witnessed = 1;
	judge_remake(&co);
	res = mail_to_judge("referee", "cmds", NULL, REF_PASS "SEAL FORCE\n");
	ck_assert_in(res, "referee commands: done");
	free(res);
	/* not closed: refused, the words of the close alone */
	res = mail_to_judge("referee", "cmds", NULL, REF_PASS "RESOLVE\n");
	r = last_reply();
	ck_assert_in(res, "referee commands: stopped");
	ck_assert_in(r, "close the events of phase 'movement' first");
	ck_assert_not_in(r, "STAND-IN");
	free(res);
	free(r);
	/* a refusal whose words hold "--stand-in" (the phase named so) is
	 * none for links not revealed: the mail's way is not added */
	res = mail_to_judge("referee", "cmds", NULL, REF_PASS "RESOLVE --stand-in\n");
	r = last_reply();
	ck_assert_in(res, "referee commands: stopped");
	ck_assert_in(r, "RESOLVE --stand-in: unknown phase '--stand-in' (expected one of movement, "
			"fire, fire-morale, melee, melee-morale)\nstopped here");
	ck_assert_not_in(r, "by mail: RESOLVE STAND-IN");
	free(res);
	free(r);
	res = mail_to_judge("referee", "cmds", NULL, REF_PASS "CLOSE\n");
	ck_assert_in(res, "referee commands: done");
	free(res);
	res = mail_to_judge("referee", "cmds", NULL, REF_PASS "RESOLVE\n");
	r = last_reply();
	ck_assert_in(res, "referee commands: stopped");
	ck_assert_in(r, "resolve with --stand-in and the referee's chain stands in (the audit says "
			"so); by mail: RESOLVE STAND-IN");
	free(res);
	free(r);
	/* what the judge reads: the sides the referee's chain would stand in for */
	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	memset(&o, 0, sizeof(o));
	o.unrevealed = &unrevealed;
	ck_assert_int_eq(ord_game_resolve_opts(g, &o, &out), ORD_ESTATE);
	ck_assert_uint_eq(unrevealed, 2);
	o.stand_in = 1;
	o.empty = 1;
	ck_assert_msg(ord_game_resolve_opts(g, &o, &out) == 0, "%s", ord_error_last());
	ck_assert_uint_eq(unrevealed, 0);
	ord_game_free(g);
	ord_buf_release(&out);
}
END_TEST

struct attachments {
	struct ord_buf names; /* every attachment's file name, one a line */
	const char *want;     /* the one whose text is kept */
	struct ord_buf text;
	struct ord_buf *plain; /* when set: the mail's text part's bytes as
				  sent, its transfer encoding undone, not
				  its charset */
};

/* The content of part obj, its transfer encoding undone, in out. */
static void part_bytes(GMimeObject *obj, struct ord_buf *out)
{
	GMimeDataWrapper *content = g_mime_part_get_content(GMIME_PART(obj));
	GMimeStream *mem = g_mime_stream_mem_new();
	GByteArray *arr;

	if (content)
		g_mime_data_wrapper_write_to_stream(content, mem);
	arr = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	ord_buf_reset(out);
	ord_buf_add(out, (const char *)arr->data, arr->len);
	g_object_unref(mem);
}

static void attachment_of(GMimeObject *parent, GMimeObject *obj, gpointer ud)
{
	struct attachments *a = ud;
	const char *name;
	GMimeDataWrapper *content;
	GMimeStream *mem;
	GByteArray *arr;

	(void)parent;
	if (!GMIME_IS_PART(obj))
		return;
	if (!(name = g_mime_part_get_filename(GMIME_PART(obj)))) {
		if (a->plain && GMIME_IS_TEXT_PART(obj))
			part_bytes(obj, a->plain);
		return;
	}
	ord_buf_addf(&a->names, "%s\n", name);
	if (strcmp(name, a->want) || !(content = g_mime_part_get_content(GMIME_PART(obj))))
		return;
	mem = g_mime_stream_mem_new();
	g_mime_data_wrapper_write_to_stream(content, mem);
	arr = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	ord_buf_reset(&a->text);
	ord_buf_add(&a->text, (const char *)arr->data, arr->len);
	g_object_unref(mem);
}

/* The newest queued mail to rcpt whose Subject holds subject: its text
 * in body, its attachments' names in a->names and the text of the one
 * named a->want in a->text.  Fails the test when there is none. */
static void newest_mail(const char *rcpt, const char *subject, struct ord_buf *body,
			struct attachments *a)
{
	struct ord_mail_out out;
	struct ord_buf raw = ORD_BUF_INIT;
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeMessage *msg;
	ord_game *g;
	int64_t id = 0;

	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	memset(&out, 0, sizeof(out));
	ord_buf_init(&out.bytes);
	ord_buf_reset(body);
	while (ord_mail_outbox_next(g, id, &out) == 0) {
		struct mail_msg m;

		id = out.id;
		mail_msg_read(&m, out.bytes.buf, out.bytes.len, NULL);
		if (!strcmp(out.rcpt, rcpt) && strstr(m.subject, subject)) {
			ord_buf_reset(&raw);
			ord_buf_add(&raw, out.bytes.buf, out.bytes.len);
			ord_buf_reset(body);
			ord_buf_adds(body, m.text ? m.text : "");
		}
		mail_msg_release(&m);
		ord_buf_reset(&out.bytes);
	}
	ord_error_clear();
	ord_buf_release(&out.bytes);
	ord_game_free(g);
	ck_assert_msg(raw.len, "no mail to %s with '%s' in its Subject", rcpt, subject);
	ord_buf_reset(&a->names);
	ord_buf_reset(&a->text);
	stream = g_mime_stream_mem_new_with_buffer(raw.buf, raw.len);
	parser = g_mime_parser_new_with_stream(stream);
	msg = g_mime_parser_construct_message(parser, NULL);
	ck_assert_ptr_nonnull(msg);
	g_mime_message_foreach(msg, attachment_of, a);
	g_object_unref(msg);
	g_object_unref(parser);
	g_object_unref(stream);
	ord_buf_release(&raw);
}

/* The commitment of side's last sheet of turn 1, and the game's key. */
static void side_commitment(const char *side, unsigned char c[32], unsigned char pk[32])
{
	char source[16];
	int version;
	ord_game *g;

	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	ck_assert_int_eq(ord_game_side_sheet(g, 1, side, &version, source, c), 0);
	ck_assert_int_ge(version, 1);
	ck_assert_int_eq(ord_game_pubkey(g, pk), 0);
	ord_game_free(g);
}

/* Text a parsed as the head of turn 1's seal for a side, at "sealed",
 * signed by the game's key pk, stating commitment c. */
static void assert_sealed_head(const struct ord_buf *text, const unsigned char c[32],
			       const unsigned char pk[32])
{
	struct ord_head h;

	ck_assert_msg(text->len && ord_head_parse(&h, text->buf, text->len, "sealed.head") == 0,
		      "not a head: %s\n%s", ord_error_last(), text->len ? text->buf : "");
	ck_assert_str_eq(h.at, "sealed");
	ck_assert_int_eq(h.turn, 1);
	ck_assert(h.has_commitment);
	ck_assert(!memcmp(h.commitment, c, 32));
	ck_assert(!memcmp(h.key, pk, 32));
	ck_assert_int_eq(ord_head_check(&h), 0);
}

/* Seal turn 1 now, forced (red sends nothing), with kp when the game's
 * key is kept outside its file. */
static void seal_now(const struct ord_keypair *kp)
{
	ord_game *g;

	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	if (kp)
		ck_assert_int_eq(ord_game_use_key(g, kp), 0);
	ck_assert_msg(ord_game_seal(g, 1) == 0, "%s", ord_error_last());
	ord_game_free(g);
}

/* Threat model 26: each side's seal mail carries the head of the seal the
 * game signs for that side alone, sealed-T-SIDE.head, stating the sheet
 * the seal took for it (a receipt shows only the sheet stored), and says
 * what it is; the referee's carries the seal's head alone; a second look
 * mails nothing again. */
START_TEST(test_seal_mail_sealed_head)
{
	struct attachments a = { ORD_BUF_INIT, "cross-sealed-1-blue.head", ORD_BUF_INIT, NULL };
	struct ord_buf body = ORD_BUF_INIT;
	unsigned char blue[32], red[32], pk[32];
	char hex[65], want[400];
	size_t n;

	tick_at(T0);
	free(mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/4\nEND\n"));
	seal_now(NULL);
	tick_at(T0 + 60);
	side_commitment("blue", blue, pk);
	side_commitment("red", red, pk);
	newest_mail("blue@club.test", "turn sealed", &body, &a);
	ck_assert_str_eq(a.names.buf, "cross-seal-1.head\ncross-sealed-1-blue.head\n");
	assert_sealed_head(&a.text, blue, pk);
	ck_assert_in(a.text.buf, "# turn 1, side blue, version 1, commitment ");
	mail_hex(hex, blue, 32);
	snprintf(want, sizeof(want),
		 "The head of the seal the game signed for your side is attached too\n"
		 "(cross-sealed-1-blue.head): the sheet the seal took for your side, signed,\n"
		 "    version 1, commitment %s\n"
		 "Keep it. Check now that this commitment is the one of your last\n"
		 "receipt",
		 hex);
	ck_assert_in(body.buf, want);
	ck_assert_in(body.buf, "'orderly verify BUNDLE --receipt cross-sealed-1-blue.head'\n"
			       "holds the seal to it.\n");
	ck_assert_not_in(body.buf, "orderly witness");
	/* red's own, the NMR policy's sheet; not blue's */
	a.want = "cross-sealed-1-red.head";
	newest_mail("red@club.test", "turn sealed: your orders were not received (NMR)", &body, &a);
	ck_assert_str_eq(a.names.buf, "cross-seal-1.head\ncross-sealed-1-red.head\n");
	assert_sealed_head(&a.text, red, pk);
	ck_assert(memcmp(red, blue, 32));
	ck_assert_in(body.buf, "Keep it. It is the NMR policy's sheet (below).\n");
	ck_assert_not_in(body.buf, "sealed-1-blue.head");
	/* the referee's: the seal's head alone */
	a.want = "cross-seal-1.head";
	newest_mail("referee@club.test", "turn sealed", &body, &a);
	ck_assert_str_eq(a.names.buf, "cross-seal-1.head\n");
	n = outbox_count();
	tick_at(T0 + 120);
	ck_assert_uint_eq(outbox_count(), n);
	ord_buf_release(&body);
	ord_buf_release(&a.names);
	ord_buf_release(&a.text);
}
END_TEST

/* Every phase of turn 1 resolved (no events), and the turn exchanged
 * when exchange. */
static void resolve_all(int exchange)
{
	struct ord_game_status ti;
	struct ord_buf out = ORD_BUF_INIT;
	ord_game *g;

	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	for (;;) {
		ck_assert_int_eq(ord_game_status(g, &ti), 0);
		if (!strcmp(ti.state, "resolved"))
			break;
		ord_buf_reset(&out);
		{
			/* named, and meant empty (resolve --phase --empty) */
			struct ord_resolve_opts o = { .phase = ti.phase, .empty = 1 };
			ck_assert_msg(ord_game_resolve_opts(g, &o, &out) == 0, "resolve: %s",
				      ord_error_last());
		}
	}
	if (exchange)
		ck_assert_msg(ord_game_exchange(g) == 0, "exchange: %s", ord_error_last());
	ord_game_free(g);
	ord_buf_release(&out);
}

/* The referee's bundle mail says of the seal's head what is true: his
 * seal mail brought it, so it is not attached, and the mail does not say
 * it is (it said both). */
START_TEST(test_referee_bundle_seal_head)
{
	struct attachments a = { ORD_BUF_INIT, "cross-seal-1.head", ORD_BUF_INIT, NULL };
	struct ord_buf body = ORD_BUF_INIT;

	tick_at(T0);
	free(mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/4\nEND\n"));
	seal_now(NULL);
	tick_at(T0 + 60);
	newest_mail("referee@club.test", "turn sealed", &body, &a);
	ck_assert_str_eq(a.names.buf, "cross-seal-1.head\n");
	resolve_all(1);
	tick_at(T0 + 120);
	newest_mail("referee@club.test", "turn bundle", &body, &a);
	ck_assert_not_in(a.names.buf, "seal-1.head");
	ck_assert_in(body.buf, "cross-seal-1.head came with the mail of the turn's seal.\n");
	ck_assert_not_in(body.buf, "seal-1.head is attached");
	ord_buf_release(&body);
	ord_buf_release(&a.names);
	ord_buf_release(&a.text);
}
END_TEST

/* Run sql on the judge's game file, as the sqlite3 shell would. */
static void judge_sql(const char *sql)
{
	sqlite3 *db;

	ck_assert_int_eq(sqlite3_open(jgame, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_changes(db), 1);
	sqlite3_close(db);
}

/* A bundle the game's verifier refuses (the seal's log entry changed with
 * the sqlite3 shell after the exchange) is mailed to no player: the
 * referee is mailed the refusal, once, and the bundle goes out at the
 * first tick after the file is put back. */
START_TEST(test_bundle_refused_told_referee)
{
	struct attachments a = { ORD_BUF_INIT, "cross-turn-1.xml", ORD_BUF_INIT, NULL };
	struct ord_buf body = ORD_BUF_INIT;
	char *all;

	tick_at(T0);
	free(mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/4\nEND\n"));
	seal_now(NULL);
	tick_at(T0 + 60);
	resolve_all(1);
	judge_sql("UPDATE log SET at = at + 1 WHERE kind = 'seal' AND turn = 1");
	tick_at(T0 + 120);
	tick_at(T0 + 180);
	all = outbox_after(0, NULL);
	ck_assert_not_in(all, "turn bundle");
	ck_assert_uint_eq(count_in(all, "Subject: [cross] bundle not sent: the game file was changed\n"),
			  1);
	free(all);
	newest_mail("referee@club.test", "bundle not sent", &body, &a);
	ck_assert_in(body.buf, "The bundle of turn 1 was not mailed to the players: the game's own\n"
			       "check of it before it is signed failed, so nothing was signed.\n\n");
	ck_assert_in(body.buf,
		     "/cross.orderly': the bundle of turn 1 is not written: 'orderly verify' would refuse it (");
	ck_assert_in(body.buf, "\n  FAILED: log entry ");
	ck_assert_in(body.buf,
		     " (seal, turn 1): its content and the entry before it do not give its hash (changed)\n");
	ck_assert_in(body.buf, "It is mailed at the next mail or tick once the game file holds the\n"
			       "turn as it was played again. Until the file changes, it is not made\n"
			       "or checked again.\n");
	/* put back: mailed, the bundle attached byte for byte export's of
	 * the turn (the judge makes it into a file, and the mail too) */
	judge_sql("UPDATE log SET at = at - 1 WHERE kind = 'seal' AND turn = 1");
	tick_at(T0 + 240);
	a.want = "cross-turn-1.xml";
	newest_mail("blue@club.test", "turn bundle", &body, &a);
	ck_assert_in(a.names.buf, "cross-turn-1.xml\n");
	{
		struct ord_buf exported = ORD_BUF_INIT;
		ord_game *g;

		ck_assert_int_eq(ord_game_open(&g, jgame), 0);
		ck_assert_msg(ord_game_export(g, 1, &exported) == 0, "%s", ord_error_last());
		ord_game_free(g);
		ck_assert_uint_gt(exported.len, 1000);
		ck_assert_uint_eq(a.text.len, exported.len);
		ck_assert_msg(!memcmp(a.text.buf, exported.buf, exported.len),
			      "the bundle mailed is not export's");
		ord_buf_release(&exported);
	}
	all = outbox_after(0, NULL);
	ck_assert_uint_eq(count_in(all, "bundle not sent"), 1);
	free(all);
	ord_buf_release(&body);
	ord_buf_release(&a.names);
	ord_buf_release(&a.text);
}
END_TEST

/* The state of the game file's bundle of turn 1 (ord_game_export_state). */
static void export_state(unsigned char state[32])
{
	ord_game *g;

	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	ck_assert_msg(ord_game_export_state(g, 1, state) == 0, "%s", ord_error_last());
	ord_game_free(g);
}

/* The state the bundle of turn 1 is kept refused for: 1, or 0 when none. */
static int refused_state(unsigned char state[32])
{
	ord_game *g;
	int found = 0;

	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	ck_assert_int_eq(ord_mail_bundle_refused(g, 1, state, &found), 0);
	ord_game_free(g);
	return found;
}

static void set_refused(const unsigned char *state)
{
	ord_game *g;

	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	ck_assert_int_eq(ord_mail_set_bundle_refused(g, 1, state), 0);
	ord_game_free(g);
}

/* A bundle the check refused is kept refused with the state of the game
 * file it was refused for (ord_game_export_state), and a mail or tick
 * does not make and check it again while the file stays so (it did at
 * every one): a refusal kept for the file as it is holds the bundle back
 * unmade.  A file changed again is made and checked again, refused, kept
 * with its new state, the referee not told again; made and mailed, the
 * refusal is forgotten. */
START_TEST(test_bundle_refused_kept)
{
	unsigned char honest[32], s1[32], s2[32], kept[32];
	char *all;

	tick_at(T0);
	free(mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/4\nEND\n"));
	seal_now(NULL);
	tick_at(T0 + 60);
	resolve_all(1);
	export_state(honest);
	judge_sql("UPDATE log SET at = at + 1 WHERE kind = 'seal' AND turn = 1");
	export_state(s1);
	ck_assert(memcmp(s1, honest, 32) != 0);
	ck_assert(!refused_state(kept));
	tick_at(T0 + 120);
	ck_assert(refused_state(kept));
	ck_assert(memcmp(kept, s1, 32) == 0);
	tick_at(T0 + 180);
	ck_assert(refused_state(kept));
	ck_assert(memcmp(kept, s1, 32) == 0);
	/* changed again: checked again, still refused, told once */
	judge_sql("UPDATE log SET at = at + 1 WHERE kind = 'seal' AND turn = 1");
	export_state(s2);
	ck_assert(memcmp(s2, s1, 32) != 0);
	tick_at(T0 + 240);
	ck_assert(refused_state(kept));
	ck_assert(memcmp(kept, s2, 32) == 0);
	/* put back, with a refusal kept for the file as it is now: the tick
	 * takes it and makes nothing (a bundle made would pass its check,
	 * and be mailed) */
	judge_sql("UPDATE log SET at = at - 2 WHERE kind = 'seal' AND turn = 1");
	set_refused(honest);
	tick_at(T0 + 300);
	all = outbox_after(0, NULL);
	ck_assert_not_in(all, "turn bundle");
	ck_assert_uint_eq(count_in(all, "Subject: [cross] bundle not sent: the game file was changed\n"),
			  1);
	free(all);
	/* the refusal kept for another state (as it was before the file was
	 * put back): made, checked, mailed, and the refusal forgotten */
	set_refused(s2);
	tick_at(T0 + 360);
	all = outbox_after(0, NULL);
	ck_assert_uint_eq(count_in(all, "Subject: [cross] turn bundle"), 3);
	ck_assert_uint_eq(count_in(all, "bundle not sent"), 1);
	free(all);
	ck_assert(!refused_state(kept));
}
END_TEST

/* The report mail attaches the report as a file, the text below the
 * mail's first two lines, and the bundle mail's one diff command names
 * that file and the verify option that prints it: --resolved when the
 * report was mailed before the exchange, none when a tick came only
 * after it (the report then reads as exchanged). */
START_TEST(test_report_file_and_diff)
{
	struct attachments a = { ORD_BUF_INIT, "cross-report-1-blue.txt", ORD_BUF_INIT, NULL };
	struct ord_buf body = ORD_BUF_INIT;
	int late;

	for (late = 0; late <= 1; late++) {
		const char *line;

		if (late) {
			judge_teardown();
			judge_setup();
			a.want = "cross-report-1-blue-exchanged.txt";
		}
		tick_at(T0);
		seal_now(NULL);
		tick_at(T0 + 60);
		resolve_all(late);
		tick_at(T0 + 120);
		newest_mail("blue@club.test", "turn report", &body, &a);
		ck_assert_str_eq(a.names.buf, late ? "cross-report-1-blue-exchanged.txt\n"
						   : "cross-report-1-blue.txt\n");
		line = strstr(body.buf, "\n\n");
		ck_assert_ptr_nonnull(line);
		ck_assert_str_eq(line + 2, a.text.buf);
		ck_assert_in(a.text.buf, late ? "turn 1 (exchanged), report for blue"
					      : "turn 1 (resolved), report for blue");
		if (!late) {
			resolve_all(1);
			tick_at(T0 + 180);
		}
		newest_mail("blue@club.test", "turn bundle", &body, &a);
		ck_assert_in(body.buf, late ? "command above with\n    --report blue | diff "
					      "cross-report-1-blue-exchanged.txt -\n"
					    : "command above with\n    --report blue --resolved | diff "
					      "cross-report-1-blue.txt -\n");
		ck_assert_not_in(body.buf, "word for word");
	}
	ord_buf_release(&body);
	ord_buf_release(&a.names);
	ord_buf_release(&a.text);
}
END_TEST

/* The mail tests' game made anew with 3,000 units of Blue's more, named
 * with Latin-1 letters alone beyond ASCII, Blue's passphrase the mail
 * tests', turn 1 resolved and its reports mailed: Blue's report of turn
 * 1 (406 KB) in want. */
static void large_report_game(struct ord_buf *want)
{
	struct ord_buf scen = ORD_BUF_INIT;
	struct ord_create_opts co;
	char path[1200], cmd[4000];
	ord_game *g;
	FILE *f;
	int i;

	ord_buf_adds(&scen, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			    "<scenario ruleset=\"battalion\">\n  <title>Crossroads by mail</title>\n"
			    "  <nmr policy=\"hold\"/>\n"
			    "  <mail address=\"orderly@judge.test\" referee=\"referee@club.test\"/>\n"
			    "  <side id=\"blue\" name=\"Blue Army\" email=\"blue@club.test\"/>\n"
			    "  <side id=\"red\" name=\"Red Army\" email=\"red@club.test\"/>\n");
	for (i = 1; i <= 3000; i++)
		ord_buf_addf(&scen,
			     "  <unit id=\"B%d\" name=\"Æblerød fodfolk nr. %d\" side=\"blue\" "
			     "kind=\"line_infantry\" formation=\"column\" figures=\"24\" class=\"C\" "
			     "weapon=\"musket\"/>\n",
			     i, i);
	ord_buf_adds(&scen, "  <unit id=\"R1\" name=\"1st Red Foot\" side=\"red\" kind=\"line_infantry\" "
			    "formation=\"line\" figures=\"24\" class=\"C\" weapon=\"musket\"/>\n"
			    "</scenario>\n");
	snprintf(path, sizeof(path), "%s/large.xml", jdir);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	ck_assert_uint_eq(fwrite(scen.buf, 1, scen.len, f), scen.len);
	ck_assert_int_eq(fclose(f), 0);
	snprintf(cmd, sizeof(cmd), "rm -f '%s' '%s-wal' '%s-shm'", jgame, jgame, jgame);
	ck_assert_int_eq(system(cmd), 0);
	memset(&co, 0, sizeof(co));
	co.fixed_dice = 1;
	ck_assert_msg(ord_game_create(&g, jgame, path, &co) == 0, "%s", ord_error_last());
	ck_assert_int_eq(ord_mail_set_passphrase(g, "blue", "blue shako and sabre"), 0);
	ord_game_free(g);

	tick_at(T0);
	seal_now(NULL);
	tick_at(T0 + 60);
	resolve_all(0);
	tick_at(T0 + 120);
	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	ck_assert_msg(ord_game_report(g, "blue", 1, 0, want) == 0, "%s", ord_error_last());
	ord_game_free(g);
	/* pieces: more than three, and Latin-1 letters alone beyond ASCII */
	ck_assert_uint_gt(want->len, 3 * 64 * 1024);
	ck_assert_in(want->buf, "Æblerød fodfolk nr. 2999");
	for (i = 0; (size_t)i < want->len; i++)
		ck_assert((unsigned char)want->buf[i] < 0x80 || (unsigned char)want->buf[i] == 0xC3 ||
			  ((unsigned char)want->buf[i] & 0xC0) == 0x80);
	ord_buf_release(&scen);
}

/* A turn report of some 200 KiB, made into a file a piece at a time
 * (ord_game_report_fd, 64 KiB pieces) and mailed from it: the mail's text
 * below its first two lines and the attached file are each byte for byte
 * the report ord_game_report holds in memory, and the text is labelled
 * and written UTF-8.  The units' names are Latin-1 letters alone (æ, ø,
 * Æ): GMime's set_text wrote such a text as ISO-8859-1 bytes under the
 * label utf-8, which a mail reader showed as '?' (and this text's
 * decoding as U+FFFD). */
START_TEST(test_report_mail_in_pieces)
{
	struct ord_buf body = ORD_BUF_INIT, want = ORD_BUF_INIT, plain = ORD_BUF_INIT;
	struct attachments a = { ORD_BUF_INIT, "cross-report-1-blue.txt", ORD_BUF_INIT, &plain };
	const char *line;

	large_report_game(&want);
	newest_mail("blue@club.test", "turn report", &body, &a);
	ck_assert_str_eq(a.names.buf, "cross-report-1-blue.txt\n");
	ck_assert_uint_eq(a.text.len, want.len);
	ck_assert(!memcmp(a.text.buf, want.buf, want.len));
	line = strstr(body.buf, "\n\n");
	ck_assert_ptr_nonnull(line);
	ck_assert_uint_eq(strlen(line + 2), want.len);
	ck_assert(!memcmp(line + 2, want.buf, want.len));
	/* the bytes sent are these, as UTF-8: not read as Latin-1 when they
	 * are no UTF-8, as the judge reads a player's text */
	ck_assert_uint_eq(plain.len, (size_t)(line + 2 - body.buf) + want.len);
	ck_assert(!memcmp(plain.buf + plain.len - want.len, want.buf, want.len));
	ord_buf_release(&body);
	ord_buf_release(&want);
	ord_buf_release(&plain);
	ord_buf_release(&a.names);
	ord_buf_release(&a.text);
}
END_TEST

/* The judge's answer to REPORT, a report of 406 KB made into a file a
 * piece at a time and mailed from it as tick's turn reports are
 * (ord_game_report_fd, mail_queue_mail): the reply's text is what the
 * judge says first (here that an attachment was not read) followed by
 * the report byte for byte as ord_game_report holds it, sent as those
 * UTF-8 bytes, nothing attached; a REPORT of a turn with no report still
 * says why, and the inbox notes both. */
START_TEST(test_report_reply_in_pieces)
{
	static const char mixed[] = "MIME-Version: 1.0\n"
				    "Content-Type: multipart/mixed; boundary=\"b1\"\n";
	static const char said[] = "Your attachment orders.docx was not read: send plain text in the "
				   "body or a\n.txt file.\n\n";
	struct ord_buf body = ORD_BUF_INIT, want = ORD_BUF_INIT, plain = ORD_BUF_INIT,
		       text = ORD_BUF_INIT;
	struct attachments a = { ORD_BUF_INIT, "", ORD_BUF_INIT, &plain };
	size_t before;
	char *res, *r;

	large_report_game(&want);
	ord_buf_adds(&text, "--b1\n"
			    "Content-Type: text/plain; charset=utf-8\n\n" BLUE_PASS "REPORT 1\n"
			    "--b1\n"
			    "Content-Type: application/msword; name=\"orders.docx\"\n"
			    "Content-Disposition: attachment; filename=\"orders.docx\"\n"
			    "Content-Transfer-Encoding: base64\n\n"
			    "UEsDBBQABgAIAAAAIQA=\n"
			    "--b1--\n");
	before = outbox_count();
	res = mail_to_judge("blue", "report", mixed, text.buf);
	ck_assert_in(res, "report sent");
	ck_assert_uint_eq(outbox_count(), before + 1);
	newest_mail("blue@club.test", "report: turn 1", &body, &a);
	ck_assert_str_eq(a.names.buf, "");
	ck_assert_uint_eq(body.len, strlen(said) + want.len);
	ck_assert(!memcmp(body.buf, said, strlen(said)));
	ck_assert(!memcmp(body.buf + strlen(said), want.buf, want.len));
	ck_assert_uint_eq(plain.len, strlen(said) + want.len);
	ck_assert(!memcmp(plain.buf + strlen(said), want.buf, want.len));
	free(res);
	/* no report of a turn not begun: said, in memory as before */
	res = mail_to_judge("blue", "report", NULL, BLUE_PASS "REPORT 9\n");
	ck_assert_in(res, "no report");
	r = last_reply();
	ck_assert_in(r, "Subject: [cross] report: none\n\nNo report: ");
	free(res);
	free(r);
	ord_buf_release(&body);
	ord_buf_release(&want);
	ord_buf_release(&plain);
	ord_buf_release(&text);
	ord_buf_release(&a.names);
	ord_buf_release(&a.text);
}
END_TEST

/* Witnessed dice: the seal mail says to give the sealed head to witness
 * --link-for, and the close mail's command names it as --receipt, filled
 * in (cross-sealed-1-blue.head), with why: a receipt shows the sheet stored,
 * not the one sealed.  A game whose key is kept outside its file: no
 * sealed head is signed, the seal mail goes out with the seal's head
 * alone and the close mail's command asks for the RECEIPT as before.  A
 * seal mail an earlier orderly queued, which attached none: that side's
 * close mail asks for the RECEIPT, the other's names its sealed head.
 * Mails of the opening and the seal an orderly before game-named files
 * queued: the close mail names open-1.head and sealed-1-blue.head, as
 * they came. */
START_TEST(test_close_mail_names_sealed_head)
{
	struct attachments a = { ORD_BUF_INIT, "cross-sealed-1-blue.head", ORD_BUF_INIT, NULL };
	struct ord_buf body = ORD_BUF_INIT;
	struct ord_create_opts co;
	struct ord_keypair kp;
	const char *sheet = "B1 ↑ 1/4\n";
	int variant;

	ord_keypair_generate(&kp);
	for (variant = 0; variant <= 3; variant++) {
		int keyless = variant == 1, older = variant == 2, upgraded = variant == 3;
		struct ord_submit_opts so;
		struct ord_receipt r;
		struct ord_diag diag;
		struct ord_head ch;
		unsigned char top[32], pk[32];
		ord_game *g;

		memset(&co, 0, sizeof(co));
		co.witnessed = 1; /* no fixed dice: the referee would choose them */
		co.key = keyless ? &kp : NULL;
		judge_remake(&co);
		tick_at(T0);
		memset(top, 0x5a, sizeof(top));
		memset(&so, 0, sizeof(so));
		so.witness = top;
		ord_diag_init(&diag);
		ck_assert_int_eq(ord_game_open(&g, jgame), 0);
		if (keyless)
			ck_assert_int_eq(ord_game_use_key(g, &kp), 0);
		if (ord_game_submit_opts(g, &r, "blue", sheet, strlen(sheet), &so, &diag) != 0) {
			struct ord_buf d = ORD_BUF_INIT;
			ord_diag_format(&diag, "sheet", &d);
			ck_abort_msg("%s: %s", ord_error_last(), d.buf);
		}
		ord_game_free(g);
		ord_diag_release(&diag);
		seal_now(keyless ? &kp : NULL);
		if (older) {
			/* blue's seal mail as an orderly before sealed heads
			 * composed it: no word of the file */
			sqlite3 *db;
			tick_at(T0 + 30); /* the seal's mail is composed */
			ck_assert_int_eq(sqlite3_open(jgame, &db), SQLITE_OK);
			ck_assert_int_eq(sqlite3_exec(db,
						      "UPDATE mail_outbox SET bytes = CAST(replace(CAST(bytes AS TEXT), "
						      "'cross-sealed-1-blue.head', 'x') AS BLOB) WHERE key = 'seal/1/blue'",
						      NULL, NULL, NULL),
					 SQLITE_OK);
			ck_assert_int_eq(sqlite3_changes(db), 1);
			sqlite3_close(db);
		}
		if (upgraded) {
			/* the mails of the opening and the seal as an orderly
			 * before game-named files composed them */
			sqlite3 *db;
			tick_at(T0 + 30);
			ck_assert_int_eq(sqlite3_open(jgame, &db), SQLITE_OK);
			ck_assert_int_eq(sqlite3_exec(db,
						      "UPDATE mail_outbox SET bytes = CAST(replace(CAST(bytes AS TEXT), "
						      "'cross-', '') AS BLOB)",
						      NULL, NULL, NULL),
					 SQLITE_OK);
			sqlite3_close(db);
		}
		ck_assert_int_eq(ord_game_open(&g, jgame), 0);
		if (keyless)
			ck_assert_int_eq(ord_game_use_key(g, &kp), 0);
		ck_assert_msg(ord_game_close_phase(g, &ch) == 0, "%s", ord_error_last());
		ord_game_free(g);
		tick_at(T0 + 60);
		newest_mail("blue@club.test", "turn sealed", &body, &a);
		if (keyless) {
			ck_assert_str_eq(a.names.buf, "cross-seal-1.head\n");
			ck_assert_not_in(body.buf, "sealed-1-blue.head");
		} else if (!older && !upgraded) {
			side_commitment("blue", top, pk);
			ck_assert(!memcmp(top, r.commitment, 32));
			assert_sealed_head(&a.text, r.commitment, pk);
			ck_assert_in(body.buf,
				     "Give it to 'orderly witness --link-for' as --receipt cross-sealed-1-blue.head,\n"
				     "with --commitment, before you reveal a link: it gives none when\n"
				     "the seal took another sheet");
		}
		newest_mail("blue@club.test", "phase closed", &body, &a);
		if (keyless || older) {
			ck_assert_in(body.buf, "        --receipt RECEIPT --commitment COMMITMENT\n\n");
			ck_assert_in(body.buf,
				     "RECEIPT: the receipt file the receipt mail of the last "
				     "orders you sent\nfor turn 1 attached (cross-receipt-1-blue-V.head)");
			ck_assert_not_in(body.buf, "sealed-1-blue.head");
			if (older) {
				newest_mail("red@club.test", "phase closed", &body, &a);
				ck_assert_in(body.buf,
					     "--receipt cross-sealed-1-red.head --commitment COMMITMENT\n");
			}
			continue;
		}
		if (upgraded) {
			/* each file as the mail that brought it named it */
			ck_assert_in(body.buf,
				     "    orderly witness --link-for --head cross-close-1-1.head");
			ck_assert_in(body.buf,
				     "        --phase 1 --turn 1 --opening open-1.head \\\n"
				     "        --receipt sealed-1-blue.head --commitment COMMITMENT\n\n");
			ck_assert_in(body.buf,
				     "\nsealed-1-blue.head: the head of the seal the game signed");
			ck_assert_not_in(body.buf, "cross-open");
			ck_assert_not_in(body.buf, "cross-sealed");
			newest_mail("red@club.test", "phase closed", &body, &a);
			ck_assert_in(body.buf, "--receipt sealed-1-red.head --commitment COMMITMENT\n");
			continue;
		}
		ck_assert_in(body.buf,
			     "        --phase 1 --turn 1 --opening cross-open-1.head \\\n"
			     "        --receipt cross-sealed-1-blue.head --commitment COMMITMENT\n\n");
		ck_assert_in(body.buf,
			     "cross-sealed-1-blue.head: the head of the seal the game signed for your side,\n"
			     "which the mail of the turn's seal attached (lost, the referee signs\n"
			     "it again: 'orderly head GAME --at sealed --side blue'): it states\n"
			     "the sheet the seal took for you, where a receipt shows only a sheet\n"
			     "the game stored");
		ck_assert_not_in(body.buf, "RECEIPT");
		/* red's names red's own */
		newest_mail("red@club.test", "phase closed", &body, &a);
		ck_assert_in(body.buf, "--receipt cross-sealed-1-red.head --commitment COMMITMENT\n");
	}
	ord_buf_release(&body);
	ord_buf_release(&a.names);
	ord_buf_release(&a.text);
}
END_TEST

/* Every file the judge mails is named after the game, sanitized: a game
 * file "Slaget ved Dybbøl 1864.orderly" (mail-in --game, tick) mails
 * Slaget_ved_Dybboel_1864-receipt-1-blue-1.head, and its mails name the
 * files so. */
START_TEST(test_files_named_after_odd_game)
{
	struct attachments a = { ORD_BUF_INIT, "", ORD_BUF_INIT, NULL };
	struct ord_buf body = ORD_BUF_INIT;
	struct ord_create_opts co;
	char *res;

	snprintf(jgame, sizeof(jgame), "%s/Slaget ved Dybbøl 1864.orderly", jdir);
	memset(&co, 0, sizeof(co));
	co.fixed_dice = 1;
	judge_remake(&co);
	tick_at(T0);
	newest_mail("blue@club.test", "turn open", &body, &a);
	ck_assert_str_eq(a.names.buf, "Slaget_ved_Dybboel_1864-open-1.head\n");
	ck_assert_in(body.buf, "The signed head of the turn's opening is attached "
			       "(Slaget_ved_Dybboel_1864-open-1.head) and below.\n");
	ck_assert_in(body.buf, "    orderly sign --head Slaget_ved_Dybboel_1864-open-1.head --pubkey ");
	res = mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/4\nEND\n");
	ck_assert_in(res, "orders of blue stored");
	free(res);
	newest_mail("blue@club.test", "receipt", &body, &a);
	ck_assert_str_eq(a.names.buf, "Slaget_ved_Dybboel_1864-receipt-1-blue-1.head\n");
	ck_assert_in(body.buf,
		     "Keep the attached receipt Slaget_ved_Dybboel_1864-receipt-1-blue-1.head:");
	seal_now(NULL);
	tick_at(T0 + 60);
	newest_mail("blue@club.test", "turn sealed", &body, &a);
	ck_assert_str_eq(a.names.buf, "Slaget_ved_Dybboel_1864-seal-1.head\n"
				      "Slaget_ved_Dybboel_1864-sealed-1-blue.head\n");
	resolve_all(1);
	tick_at(T0 + 120);
	newest_mail("blue@club.test", "turn report", &body, &a);
	ck_assert_str_eq(a.names.buf, "Slaget_ved_Dybboel_1864-report-1-blue-exchanged.txt\n");
	newest_mail("blue@club.test", "turn bundle", &body, &a);
	ck_assert_str_eq(a.names.buf, "Slaget_ved_Dybboel_1864-turn-1.xml\n"
				      "Slaget_ved_Dybboel_1864-exchange-1.head\n");
	ck_assert_in(body.buf,
		     "    orderly verify Slaget_ved_Dybboel_1864-turn-1.xml --pubkey GAME-KEY --receipt "
		     "RECEIPT \\\n"
		     "        --receipt Slaget_ved_Dybboel_1864-sealed-1-blue.head \\\n"
		     "        --head Slaget_ved_Dybboel_1864-open-1.head \\\n"
		     "        --head Slaget_ved_Dybboel_1864-seal-1.head \\\n"
		     "        --head Slaget_ved_Dybboel_1864-exchange-1.head\n");
	ck_assert_in(body.buf,
		     "--report blue | diff Slaget_ved_Dybboel_1864-report-1-blue-exchanged.txt -\n");
	ck_assert_in(body.buf,
		     "sent for turn 1 attached, Slaget_ved_Dybboel_1864-receipt-1-blue-V.head,");
	ord_buf_release(&body);
	ord_buf_release(&a.names);
	ord_buf_release(&a.text);
}
END_TEST

/* A side's id of 32 (the longest a scenario takes) in a game whose name
 * is cut to 31: its seal mail's heads keep the game's name whole and cut
 * the side's id (ord_file_name), and the mail's words name the file so. */
START_TEST(test_files_named_long_side)
{
	static const char side[] = "red_regiment_of_the_line_abcdefg";
	struct attachments a = { ORD_BUF_INIT, "", ORD_BUF_INIT, NULL };
	struct ord_buf body = ORD_BUF_INIT, xml = ORD_BUF_INIT, to = ORD_BUF_INIT;
	struct ord_create_opts co;
	char scen[1200], buf[4096];
	const char *p, *q;
	ord_game *g;
	FILE *f;
	size_t n;

	ck_assert_ptr_nonnull(f = fopen(SCENARIO, "r"));
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		ord_buf_add(&xml, buf, n);
	fclose(f);
	/* every "red" of an attribute made the long id */
	for (p = xml.buf; (q = strstr(p, "\"red\"")) != NULL; p = q + 5) {
		ord_buf_add(&to, p, (size_t)(q - p));
		ord_buf_addf(&to, "\"%s\"", side);
	}
	ord_buf_adds(&to, p);
	snprintf(scen, sizeof(scen), "%s/long-side.xml", jdir);
	ck_assert_ptr_nonnull(f = fopen(scen, "w"));
	ck_assert_uint_eq(fwrite(to.buf, 1, to.len, f), to.len);
	fclose(f);
	snprintf(jgame, sizeof(jgame), "%s/The Peninsular Campaign of 1812, north.orderly", jdir);
	memset(&co, 0, sizeof(co));
	co.fixed_dice = 1;
	ck_assert_msg(ord_game_create(&g, jgame, scen, &co) == 0, "%s", ord_error_last());
	ord_game_free(g);
	tick_at(T0);
	seal_now(NULL);
	tick_at(T0 + 60);
	newest_mail("red@club.test", "turn sealed", &body, &a);
	ck_assert_str_eq(a.names.buf,
			 "The_Peninsular_Campaign_of_1812-seal-1.head\n"
			 "The_Peninsular_Campaign_of_1812-sealed-1-red_regi.213b2c.head\n");
	ck_assert_in(body.buf, "The_Peninsular_Campaign_of_1812-sealed-1-red_regi.213b2c.head");
	ck_assert_not_in(body.buf, "-sealed-1-red_regiment");
	ord_buf_release(&body);
	ord_buf_release(&xml);
	ord_buf_release(&to);
	ord_buf_release(&a.names);
	ord_buf_release(&a.text);
}
END_TEST

/* A game upgraded while it runs: the mails an orderly before game-named
 * files queued (open-1.head, receipt-1-blue-1.head, seal-1.head,
 * sealed-1-blue.head, report-1-blue.txt) are not queued again under the
 * new names (a mail is queued once by its kind, turn and side, whatever it
 * attaches), and the game keeps their names to its end (the game file
 * keeps how they begin, read from its outbox when it was not kept): the
 * bundle mail's files and command, the next turn's opening, and the
 * receipt of a sheet sent after the upgrade, as the game's earlier
 * receipts were named. */
START_TEST(test_files_named_before_upgrade)
{
	struct attachments a = { ORD_BUF_INIT, "", ORD_BUF_INIT, NULL };
	struct ord_buf body = ORD_BUF_INIT;
	sqlite3 *db;
	size_t n;
	char *res;

	tick_at(T0);
	free(mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/4\nEND\n"));
	seal_now(NULL);
	tick_at(T0 + 60);
	resolve_all(0);
	tick_at(T0 + 120);
	newest_mail("blue@club.test", "turn report", &body, &a);
	ck_assert_str_eq(a.names.buf, "cross-report-1-blue.txt\n");
	/* every mail so far as the earlier orderly composed it, which kept
	 * no name for the game's files */
	ck_assert_int_eq(sqlite3_open(jgame, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db,
				      "UPDATE mail_outbox SET bytes = CAST(replace(CAST(bytes AS TEXT), "
				      "'cross-', '') AS BLOB) WHERE instr(bytes, CAST('cross-' AS BLOB))",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	ck_assert_int_eq(sqlite3_changes(db), 8); /* 2 open, 1 receipt, 3 seal, 2 report */
	ck_assert_int_eq(sqlite3_exec(db, "UPDATE mail_config SET files = NULL", NULL, NULL, NULL),
			 SQLITE_OK);
	ck_assert_int_eq(sqlite3_changes(db), 1);
	sqlite3_close(db);
	newest_mail("blue@club.test", "receipt", &body, &a);
	ck_assert_str_eq(a.names.buf, "receipt-1-blue-1.head\n");
	newest_mail("blue@club.test", "turn sealed", &body, &a);
	ck_assert_str_eq(a.names.buf, "seal-1.head\nsealed-1-blue.head\n");
	n = outbox_count();
	tick_at(T0 + 150); /* the upgraded orderly's look: nothing again */
	ck_assert_uint_eq(outbox_count(), n);
	resolve_all(1);
	tick_at(T0 + 180);
	/* the bundles, and turn 2's openings, under the game's names */
	ck_assert_uint_eq(outbox_count(), n + 5);
	newest_mail("blue@club.test", "turn open", &body, &a);
	ck_assert_str_eq(a.names.buf, "open-2.head\n");
	newest_mail("blue@club.test", "turn bundle", &body, &a);
	ck_assert_str_eq(a.names.buf, "turn-1.xml\nexchange-1.head\n");
	ck_assert_in(body.buf, "    orderly verify turn-1.xml --pubkey GAME-KEY --receipt RECEIPT \\\n"
			       "        --receipt sealed-1-blue.head \\\n"
			       "        --head open-1.head \\\n"
			       "        --head seal-1.head \\\n"
			       "        --head exchange-1.head\n");
	ck_assert_in(body.buf, "open-1.head came with the mail of the turn's opening.\n"
			       "seal-1.head came with the mail of the turn's seal.\n"
			       "sealed-1-blue.head came with it too:");
	ck_assert_in(body.buf, "exchange-1.head is attached.\n");
	ck_assert_in(body.buf, "--report blue --resolved | diff report-1-blue.txt -\n");
	ck_assert_in(body.buf, "sent for turn 1 attached, receipt-1-blue-V.head, which the game\n");
	ck_assert_not_in(body.buf, "cross-");
	/* a sheet of turn 2: its receipt named as the game's first was */
	res = mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/4\nEND\n");
	ck_assert_in(res, "orders of blue stored: turn 2 version 1");
	free(res);
	newest_mail("blue@club.test", "receipt", &body, &a);
	ck_assert_str_eq(a.names.buf, "receipt-2-blue-1.head\n");
	ck_assert_in(body.buf, "Keep the attached receipt receipt-2-blue-1.head: the game's signature");
	ck_assert_in(body.buf, "'orderly verify' with --receipt receipt-2-blue-1.head\n");
	ck_assert_not_in(body.buf, "cross-");
	ord_buf_release(&body);
	ord_buf_release(&a.names);
	ord_buf_release(&a.text);
}
END_TEST

/* A game file renamed while the game runs (cross.orderly to
 * Slaget ved Dybbøl.orderly): the mails' subjects follow the file, the
 * files keep the names the game began with (cross-...), so that the
 * player's folder and filters hold the game under one name and every mail
 * names the files he has; a game renamed before the name was kept reads
 * it from the first file its outbox names. */
START_TEST(test_files_named_when_renamed)
{
	struct attachments a = { ORD_BUF_INIT, "", ORD_BUF_INIT, NULL };
	struct ord_buf body = ORD_BUF_INIT;
	char cmd[8000], old[1200];
	sqlite3 *db;
	char *res;

	tick_at(T0);
	free(mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/4\nEND\n"));
	newest_mail("blue@club.test", "receipt", &body, &a);
	ck_assert_str_eq(a.names.buf, "cross-receipt-1-blue-1.head\n");
	/* the file renamed, the name kept taken away: as a game renamed
	 * before it was kept */
	snprintf(old, sizeof(old), "%s", jgame);
	snprintf(jgame, sizeof(jgame), "%s/Slaget ved Dybbøl.orderly", jdir);
	snprintf(cmd, sizeof(cmd),
		 "mv '%s' '%s' && for x in -wal -shm; do [ ! -e '%s'$x ] || mv '%s'$x '%s'$x; done",
		 old, jgame, old, old, jgame);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(sqlite3_open(jgame, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "UPDATE mail_config SET files = NULL", NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	res = mail_to_judge("blue", "orders", NULL, BLUE_PASS "ORDERS\nB1 ↑ 1/2\nEND\n");
	ck_assert_in(res, "orders of blue stored: turn 1 version 2");
	free(res);
	newest_mail("blue@club.test", "[Slaget ved Dybbøl] receipt", &body, &a);
	ck_assert_str_eq(a.names.buf, "cross-receipt-1-blue-2.head\n");
	ck_assert_in(body.buf, "Keep the attached receipt cross-receipt-1-blue-2.head:");
	ck_assert_int_eq(sqlite3_open(jgame, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "UPDATE mail_config SET files = files WHERE files = 'cross'",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	ck_assert_int_eq(sqlite3_changes(db), 1); /* kept anew as it was */
	sqlite3_close(db);
	/* renamed again once the name is kept */
	snprintf(old, sizeof(old), "%s", jgame);
	snprintf(jgame, sizeof(jgame), "%s/later.orderly", jdir);
	snprintf(cmd, sizeof(cmd),
		 "mv '%s' '%s' && for x in -wal -shm; do [ ! -e '%s'$x ] || mv '%s'$x '%s'$x; done",
		 old, jgame, old, old, jgame);
	ck_assert_int_eq(system(cmd), 0);
	seal_now(NULL);
	tick_at(T0 + 60);
	newest_mail("blue@club.test", "[later] turn sealed", &body, &a);
	ck_assert_str_eq(a.names.buf, "cross-seal-1.head\ncross-sealed-1-blue.head\n");
	resolve_all(1);
	tick_at(T0 + 120);
	newest_mail("blue@club.test", "[later] turn bundle", &body, &a);
	ck_assert_str_eq(a.names.buf, "cross-turn-1.xml\ncross-exchange-1.head\n");
	ck_assert_in(body.buf,
		     "    orderly verify cross-turn-1.xml --pubkey GAME-KEY --receipt RECEIPT \\\n"
		     "        --receipt cross-sealed-1-blue.head \\\n"
		     "        --head cross-open-1.head \\\n"
		     "        --head cross-seal-1.head \\\n"
		     "        --head cross-exchange-1.head\n");
	ck_assert_in(body.buf,
		     "sent for turn 1 attached, cross-receipt-1-blue-V.head, which the game\n");
	ck_assert_not_in(body.buf, "later-");
	ck_assert_not_in(body.buf, "Slaget");
	newest_mail("blue@club.test", "[later] turn open", &body, &a);
	ck_assert_str_eq(a.names.buf, "cross-open-2.head\n");
	ord_buf_release(&body);
	ord_buf_release(&a.names);
	ord_buf_release(&a.text);
}
END_TEST

/* J9: a mail from a registered address whose proof does not hold is kept
 * as a stranger's is, its headers and the first 16 KiB of its body with
 * its size, not whole (a forged From: on 5 MB grew the game file by 5 MB a
 * mail); a proven one is kept whole. */
/* The pages the game's connection has written (to its write-ahead log)
 * since the last call. */
static int pages_written(ord_game *g)
{
	int cur = 0, hi = 0;

	ck_assert_int_eq(sqlite3_db_status(g->db, SQLITE_DBSTATUS_CACHE_WRITE, &cur, &hi, 1),
			 SQLITE_OK);
	return cur;
}

struct inbox_mark {
	int64_t id;
	int step; /* 0: the answer (done) */
};

static int inbox_mark_tx(void *ud, ord_game *g)
{
	const struct inbox_mark *m = ud;

	return m->step ? ord_mail_inbox_step(g, m->id, m->step)
		       : ord_mail_inbox_done(g, m->id, "status sent");
}

/* Inbox mail id: are its bytes kept those of want?  Its state and result
 * as "STATE RESULT" in row. */
static int inbox_row(int64_t id, const struct ord_buf *want, char *row, size_t n)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int same;

	ck_assert_int_eq(sqlite3_open(jgame, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db,
					    "SELECT r.raw, i.state, i.result FROM mail_inbox i "
					    "JOIN mail_inbox_raw r ON r.id = i.id WHERE i.id = ?",
					    -1, &st, NULL),
			 SQLITE_OK);
	sqlite3_bind_int64(st, 1, id);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	same = (size_t)sqlite3_column_bytes(st, 0) == want->len &&
	       !memcmp(sqlite3_column_blob(st, 0), want->buf, want->len);
	snprintf(row, n, "%s %s", (const char *)sqlite3_column_text(st, 1),
		 (const char *)sqlite3_column_text(st, 2));
	sqlite3_finalize(st);
	sqlite3_close(db);
	return same;
}

/* What the inbox writes (issue 15, 021_mail_inbox_raw.sql): a mail's bytes
 * are a row of their own, written as it comes in; the step a referee's
 * mail has come to and its answer change the mail's small row alone.
 * SQLite writes 64 pages and more as a mail of 256 KiB is stored, and a
 * few for each change of its state; until schema 21 each change wrote the
 * mail's bytes again (130 pages, measured on the old layout). */
START_TEST(test_inbox_answer_writes_small_row)
{
	struct ord_buf raw = ORD_BUF_INIT;
	struct inbox_mark m = { 0, 0 };
	char state[8], row[128];
	ord_game *g;
	int i, step = -1, pages;

	ord_buf_adds(&raw, "From: Blue <blue@club.test>\nMessage-ID: <big@club.test>\n\n");
	for (i = 0; i < 4096; i++)
		ord_buf_addf(&raw, "%063d\n", i);
	ck_assert_int_eq(ord_game_open(&g, jgame), 0);
	pages_written(g);
	ck_assert_msg(ord_mail_inbox_add(g, &m.id, state, &step, "big@club.test",
					 "Blue <blue@club.test>", raw.buf, raw.len) == 0,
		      "%s", ord_error_last());
	ck_assert_str_eq(state, "new");
	ck_assert_int_eq(step, 0);
	pages = pages_written(g);
	ck_assert_msg(pages >= 64, "storing a mail of 256 KiB wrote %d pages", pages);
	ck_assert(inbox_row(m.id, &raw, row, sizeof(row)));
	ck_assert_str_eq(row, "new ");
	/* a step, then the answer: each a transaction of its own, as mail-in
	 * makes them */
	for (m.step = 2; m.step >= 0; m.step -= 2) {
		ck_assert_msg(ord_game_transact(g, inbox_mark_tx, &m) == 0, "%s", ord_error_last());
		pages = pages_written(g);
		ck_assert_msg(pages > 0 && pages <= 4, "marking the mail (step %d) wrote %d pages",
			      m.step, pages);
		ck_assert(inbox_row(m.id, &raw, row, sizeof(row)));
		ck_assert_str_eq(row, m.step ? "new step=2" : "done status sent");
	}
	/* stored again by the MTA, it is the mail answered */
	ck_assert_int_eq(ord_mail_inbox_add(g, &m.id, state, &step, "big@club.test",
					    "Blue <blue@club.test>", raw.buf, raw.len),
			 0);
	ck_assert_str_eq(state, "done");
	ord_game_free(g);
	ord_buf_release(&raw);
}
END_TEST

START_TEST(test_forged_mail_kept_cut)
{
	struct ord_buf big = ORD_BUF_INIT;
	sqlite3 *db;
	sqlite3_stmt *st;
	struct stat sb;
	char *res;
	int i;

	for (i = 0; i < 16384; i++) /* 1 MiB */
		ord_buf_addf(&big, "%063d\n", i);
	for (i = 0; i < 3; i++) {
		res = mail_to_judge("blue", "status", NULL, big.buf);
		ck_assert_in(res, "not proven (it carries no proof");
		free(res);
	}
	res = mail_to_judge("blue", "status", NULL,
			    "Passphrase: a guess\n"
			    "STATUS\n");
	free(res);
	ord_buf_reset(&big);
	ord_buf_adds(&big, "Passphrase: a guess\n");
	for (i = 0; i < 16384; i++)
		ord_buf_addf(&big, "%063d\n", i);
	res = mail_to_judge("blue", "status", NULL, big.buf);
	ck_assert_in(res, "the passphrase is wrong");
	free(res);
	ck_assert_int_eq(sqlite3_open(jgame, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db,
					    "SELECT length(raw), CAST(raw AS TEXT) FROM mail_inbox "
					    "JOIN mail_inbox_raw USING (id) WHERE message_id LIKE 'check-%' ORDER BY id",
					    -1, &st, NULL),
			 SQLITE_OK);
	i = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *raw = (const char *)sqlite3_column_text(st, 1);
		i++;
		ck_assert_msg(sqlite3_column_int(st, 0) <= 16384 + 1024,
			      "mail %d kept: %d bytes: %.300s", i, sqlite3_column_int(st, 0), raw);
		if (i <= 3)
			ck_assert_msg(strstr(raw, "\nX-Orderly-Kept: the headers and the first 16384 bytes "
						  "of its body of 1048576, the mail not proven\n\n"
						  "000000") != NULL,
				      "mail %d kept: %.400s", i, raw);
		else if (i == 5)
			ck_assert_msg(strstr(raw, "the mail not proven\n") != NULL,
				      "mail %d kept: %.400s", i, raw);
	}
	ck_assert_int_eq(i, 5);
	sqlite3_finalize(st);
	sqlite3_close(db);
	/* the game file, its log included, holds no megabyte a mail */
	ck_assert_int_eq(stat(jgame, &sb), 0);
	ck_assert_int_lt(sb.st_size, 3 * 1024 * 1024);
	ord_buf_release(&big);
}
END_TEST

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("mail_body");
	TCase *tc = tcase_create("link");
	TCase *judge = tcase_create("judge");

	tcase_add_test(tc, test_link_in_body);
	tcase_add_test(tc, test_link_parse);
	tcase_add_test(tc, test_more_than_one_command);
	tcase_add_test(tc, test_passphrase_blanks);
	tcase_add_test(tc, test_passphrase_marked);
	tcase_add_test(tc, test_block_lines_as_written);
	tcase_add_test(tc, test_file_name);
	tcase_add_test(tc, test_file_name_long_side);
	tcase_add_test(tc, test_caret_under_character);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(judge, judge_setup, judge_teardown);
	tcase_set_timeout(judge, 300); /* three 1 MiB mails under ASan beside other tests: 120 s ran out once */
	tcase_add_test(judge, test_orders_beside_command);
	tcase_add_test(judge, test_no_block_every_line_an_order);
	tcase_add_test(judge, test_referee_line_not_understood);
	tcase_add_test(judge, test_deadline_quoted);
	tcase_add_test(judge, test_resolve_empty_by_mail);
	tcase_add_test(judge, test_reading_lines_of_the_mail);
	tcase_add_test(judge, test_resolve_stand_in_by_mail);
	tcase_add_test(judge, test_deadline_past_confirmed);
	tcase_add_test(judge, test_orders_late_by_arrival);
	tcase_add_test(judge, test_one_reminder_at_once);
	tcase_add_test(judge, test_deadline_change_told);
	tcase_add_test(judge, test_tick_in_deadline_second);
	tcase_add_test(judge, test_tick_counts_unsent);
	tcase_add_test(judge, test_queued_naming_in_pieces);
	tcase_add_test(judge, test_refusal_says_what_stands);
	tcase_add_test(judge, test_refusal_caret_in_characters);
	tcase_add_test(judge, test_attachment_not_read);
	tcase_add_test(judge, test_byte_order_mark);
	tcase_add_test(judge, test_passphrase_after_unicode_space);
	tcase_add_test(judge, test_passphrase_marked_kept_out);
	tcase_add_test(judge, test_block_lines_as_written_stored);
	tcase_add_test(judge, test_passphrase_checks_running);
	tcase_add_test(judge, test_passphrase_wait_then_signature);
	tcase_add_test(judge, test_passphrase_guesses_suspended);
	tcase_add_test(judge, test_passphrase_suspended_no_other_proof);
	tcase_add_test(judge, test_passphrase_new_ends_suspension);
	tcase_add_test(judge, test_forged_mail_kept_cut);
	tcase_add_test(judge, test_inbox_answer_writes_small_row);
	tcase_add_test(judge, test_seal_mail_sealed_head);
	tcase_add_test(judge, test_close_mail_names_sealed_head);
	tcase_add_test(judge, test_referee_bundle_seal_head);
	tcase_add_test(judge, test_bundle_refused_told_referee);
	tcase_add_test(judge, test_bundle_refused_kept);
	tcase_add_test(judge, test_report_file_and_diff);
	tcase_add_test(judge, test_report_mail_in_pieces);
	tcase_add_test(judge, test_report_reply_in_pieces);
	tcase_add_test(judge, test_files_named_after_odd_game);
	tcase_add_test(judge, test_files_named_long_side);
	tcase_add_test(judge, test_files_named_before_upgrade);
	tcase_add_test(judge, test_files_named_when_renamed);
	suite_add_tcase(s, judge);
	return s;
}
