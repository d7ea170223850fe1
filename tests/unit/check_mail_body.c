/*
 * check_mail_body.c - the mail judge's reading of what a player wrote
 * (src/mail/body.c) as far as the witness link goes: a LINK line is a
 * command in the body and in the Subject (B5, B6), not inside an ORDERS
 * block, and its arguments are read by mail_link_parse, which takes
 * "[[phase] P] [link:] HEX" and refuses anything else with its reason.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

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

Suite *ord_test_suite(void)
{
	Suite *s = suite_create("mail_body");
	TCase *tc = tcase_create("link");

	tcase_add_test(tc, test_link_in_body);
	tcase_add_test(tc, test_link_parse);
	tcase_add_test(tc, test_more_than_one_command);
	suite_add_tcase(s, tc);
	return s;
}
