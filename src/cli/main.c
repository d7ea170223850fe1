/*
 * main.c - the `orderly` command: the table of subcommands and the
 * dispatch to them (git's commands[] in git.c, tmux's cmd_table[]).
 * Each subcommand lives in its own file, cmd_<name>.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "core/record.h"
#include "rulesets/builtin.h"

int cmd_new(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_info(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_submit(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_check(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_seal(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_event(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_resolve(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_exchange(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_deadline(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_report(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_audit(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_export(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_verify(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_keygen(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_sign(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_open(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_calc(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_rules(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_head(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_map(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_chart(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_witness(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_mail_in(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_mail_out(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_tick(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_register(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_schedule(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_serve(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_help(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_version(const struct cli_cmd *cmd, int argc, char **argv);

/* The subcommands, in the order of a turn; `orderly help` lists them so. */
static const struct cli_cmd commands[] = {
	{ "new",
	  "GAME --scenario FILE.xml [--ruleset NAME] [--tables FILE] [--fixed-dice] [--no-referee] [--witnessed] [--key FILE] [--head FILE]",
	  "create a game file from a scenario, with its signing key", cmd_new },
	{ "info", "GAME [--xml] [--lang L]", "show the turn, phase, deadline and who has submitted",
	  cmd_info },
	{ "submit",
	  "GAME --side SIDE [FILE|-] [--check] [--nonce HEX --signature HEX] [--witness HEX|--witness-key FILE] [--receipt-head FILE [--key GAMEKEY]] | GAME --side SIDE --commitment HEX --signature HEX [--receipt-head FILE]",
	  "validate and store a side's order sheet (or a commitment alone); print its receipt",
	  cmd_submit },
	{ "check", "SHEET|- --scenario FILE.xml [--side SIDE] [--tables FILE]",
	  "a player's check of his sheet with only the scenario: every problem, nothing stored",
	  cmd_check },
	{ "deadline", "GAME WHEN|none [--past]",
	  "set (2026-12-01T18:00Z, 2026-12-01T19:00+01:00, '2026-12-01T19:00 Europe/Copenhagen', +48h, +2d, +90m, +1w) or clear the turn's deadline",
	  cmd_deadline },
	{ "schedule",
	  "GAME [every 48h [at 18:00] [in ZONE] [grace 1h] [remind 24h,2h] [autoseal on|off] | none]",
	  "show or set the deadline rule that carries from turn to turn", cmd_schedule },
	{ "seal", "GAME [--force] [--key FILE] [--head FILE]",
	  "close the orders of the turn; sign the head of the log", cmd_seal },
	{ "open", "GAME --side SIDE --nonce HEX [--witness HEX] [FILE|-]",
	  "referee-less games: open a side's sealed commitment with its sheet", cmd_open },
	{ "event",
	  "GAME KIND key=value... | --file FILE [--override REASON] | GAME --void SEQ --reason REASON",
	  "record a referee event (or a file of them) for the current phase", cmd_event },
	{ "witness",
	  "GAME --close [--key FILE] [--head FILE] | GAME --side SIDE --link HEX|--key FILE [--head FILE] | --link-for --head FILE --pubkey KEY --side SIDE --key FILE --nonce HEX|none --phase N [--turn N] [--game-id ID] [--opening FILE] [--record FILE] [--receipt FILE --commitment HEX|--sheet FILE]",
	  "witnessed dice: close a phase's events; record or compute a side's witness link",
	  cmd_witness },
	{ "resolve", "GAME [--phase NAME] [--empty] [--dice N,N,...] [--stand-in] [--lang L]",
	  "resolve the current phase (--phase: check that it is NAME; --empty: it has no events, and goes empty) and print the results",
	  cmd_resolve },
	{ "exchange", "GAME [--key FILE] [--head FILE]",
	  "reveal the turn's sheets and dice seed; open the next turn", cmd_exchange },
	{ "report", "GAME --side SIDE|--referee [--turn N] [--xml] [--lang L]",
	  "print a side's (or the referee's) turn report", cmd_report },
	{ "map",
	  "GAME [--turn N] [--phase NAME|start] [--side SIDE|--referee] [--lang L] [-o FILE.svg|FILE.png] [--scale K]",
	  "draw the table after a phase as a side (or the referee) sees it: SVG or PNG", cmd_map },
	{ "chart", "GAME [--side SIDE|--referee] [--lang L] [-o FILE.svg|FILE.png] [--scale K]",
	  "draw the story of the game: each unit's strength, losses and morale", cmd_chart },
	{ "head",
	  "GAME --at open|seal|close|exchange [--turn N] [--phase N] [-o FILE] | --at receipt --side SIDE --version N [--key FILE] | --at sealed --side SIDE [--key FILE] | --at link --side SIDE --phase N [--key FILE]",
	  "write a signed head the game stored, a receipt, sealed or link head, again", cmd_head },
	{ "audit", "GAME [--turn N] [--head FILE]...",
	  "check the log, commitments, dice and heads, and replay every phase; exit 1 on problems",
	  cmd_audit },
	{ "export", "GAME --turn N [-o FILE] [--key FILE]",
	  "write an exchanged turn as a signed bundle", cmd_export },
	{ "verify",
	  "BUNDLE [--pubkey KEY] [--receipt FILE|HEX]... [--head FILE]... [--record FILE] [--scenario FILE] [--tables FILE] [--report SIDE|referee [--resolved|--phase NAME|start] [--xml] [--lang L] | --map SIDE|referee [--turn N] [--phase NAME|start] [--resolved] [--lang L] [-o FILE.svg|FILE.png] [--scale K]] | --receipt FILE... --pubkey KEY [--head FILE]... [--commitment HEX]",
	  "check a turn bundle offline; exit 1 on problems; --report: the turn report rebuilt from it; --map: the map; with no BUNDLE, whose sheet a receipt is for, when it comes",
	  cmd_verify },
	{ "keygen", "FILE", "make a key pair: the secret key in FILE, the public one in FILE.pub",
	  cmd_keygen },
	{ "sign",
	  "--head FILE [--pubkey KEY] | --game-id ID --turn N --seed-commitment HEX; --side SIDE --key FILE [--witness|--draft] [FILE|-]",
	  "a player's nonce, commitment and signature for his sheet (--draft: for a draft to check)",
	  cmd_sign },
	{ "register",
	  "GAME [--side SIDE|--referee] [--address ADDR] [--passphrase-file FILE|-] [--pgp-key FILE] [--judge ADDR] [--replies-per-hour N] [--passphrase-tries N]",
	  "play by mail: who may act by mail, with which proof; the judge's address", cmd_register },
	{ "mail-in", "[--games DIR] [--game FILE] [--recipient ADDR] < MESSAGE",
	  "the mail judge: read one message from the MTA, act on it, queue the reply", cmd_mail_in },
	{ "mail-out", "GAME|DIR... [--sendmail CMD]",
	  "hand queued mail to sendmail (default: /usr/sbin/sendmail -t -i)", cmd_mail_out },
	{ "tick", "DIR [--sendmail CMD] [--verbose]",
	  "for cron: reminders, late notices, seals at deadlines, queued mail of every game in DIR",
	  cmd_tick },
	{ "serve",
	  "DIR [--listen ADDR:PORT] [--tls-cert FILE --tls-key FILE] [--behind-proxy] [--threads N] [--per-address N]",
	  "the club's web page: every game of DIR in a browser (default 127.0.0.1:8080)", cmd_serve },
	{ "calc", "RULESET WHAT key=value... [--dice N,N,...] [--tables FILE] [--xml]",
	  "use a ruleset's tables as a calculator", cmd_calc },
	{ "rules", "RULESET [TABLE] [--tables FILE]", "print a ruleset's tables", cmd_rules },
	{ "help", "[COMMAND] | event [RULESET] [--lang L] | units [RULESET]",
	  "list the commands, show how to use one, a ruleset's event kinds or its unit attributes",
	  cmd_help },
	{ "version", "", "print the version of orderly", cmd_version },
};

const struct cli_cmd *cli_find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

void cli_list_cmds(FILE *fp)
{
	size_t i;

	fprintf(fp, "usage: orderly COMMAND [ARGS...]\n\n"
		    "orderly keeps a game of secret written orders in one file: each turn the\n"
		    "sides submit sheets, the referee seals, records events and resolves the\n"
		    "phases, then the sheets are exchanged and anybody can audit the turn.\n\n"
		    "commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(fp, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(fp, "\n'orderly help COMMAND' or 'orderly COMMAND --help' shows how to use one;\n"
		    "man orderly has the whole manual.\n");
}

/* stdout is where results go: a failed write must not look like success. */
static int finish(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno != EPIPE)
			cli_error("cannot write the output: %s", strerror(errno));
		if (status == CLI_OK)
			status = CLI_SOFTWARE;
	}
	return status;
}

int main(int argc, char **argv)
{
	const struct cli_cmd *cmd;

	ord_malloc_tune();
	if (argc < 2) {
		cli_list_cmds(stdout);
		return finish(CLI_USAGE);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cli_list_cmds(stdout);
		return finish(CLI_OK);
	}
	/* --version is `orderly version`, with the rulesets it names
	 * registered first */
	cmd = cli_find_cmd(strcmp(argv[1], "--version") ? argv[1] : "version");
	if (cmd && ord_builtin_register() != 0) {
		cli_error("%s", ord_error_last());
		return CLI_SOFTWARE;
	}
	if (!cmd) {
		if (argv[1][0] == '-')
			cli_error("unknown option '%s' (options come after the command)", argv[1]);
		else
			cli_error("unknown command '%s' (see 'orderly help')", argv[1]);
		return CLI_USAGE;
	}
	/* a tuning knob set wrong is told, not ignored: whatever the command,
	 * before it reads or changes anything */
	{
		size_t chunk;
		if (ord_record_chunk_env(&chunk)) {
			cli_error("%s", ord_error_last());
			return CLI_USAGE;
		}
	}
	return finish(cmd->fn(cmd, argc - 1, argv + 1));
}
