/*
 * cli.h - what the subcommands of the `orderly` command share: the command
 * table's entry, exit statuses, option parsing, reading inputs, printing
 * errors.  Only src/cli prints and chooses exit statuses; the library
 * (orderly.h) never does.
 */
#ifndef ORD_CLI_H
#define ORD_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "orderly.h"

/* The parts of the binary it loads when a command first needs one
 * (plugins.c): a line for each, where it is or that it is missing. */
void cli_plugins_where(FILE *out);

/* Exit statuses (sysexits). */
enum cli_exit {
	CLI_OK = 0,       /* success */
	CLI_PROBLEMS = 1, /* audit found problems */
	CLI_USAGE = 64,   /* EX_USAGE: the command was used wrongly */
	CLI_DATAERR = 65, /* EX_DATAERR: bad input data, refused in this state */
	CLI_NOINPUT = 66, /* EX_NOINPUT: an input file is missing or unreadable */
	CLI_LIMIT = 69, /* EX_UNAVAILABLE: past a limit (ORD_ELIMIT): a turn's versions, bytes, a bundle's size */
	CLI_UNAVAILABLE = 69, /* EX_UNAVAILABLE: a part of orderly is not installed (plugins.c) */
	CLI_SOFTWARE = 70,    /* EX_SOFTWARE: internal error */
	CLI_CANTCREAT = 73,   /* EX_CANTCREAT: a file may not be created or written */
};

/* Returned by cli_options() when the command should go on. */
#define CLI_CONTINUE (-1)

/* The largest order sheet or event file accepted. */
#define CLI_MAX_INPUT ((size_t)16 * 1024 * 1024)

/* The largest number of dice --dice accepts, and the largest face. */
#define CLI_MAX_DICE 1000
#define CLI_MAX_FACE 100

/* One subcommand: an entry of the table in main.c. */
struct cli_cmd {
	const char *name;    /* "submit" */
	const char *usage;   /* arguments after the name: "GAME --side SIDE [FILE|-]" */
	const char *summary; /* one line for `orderly help` */
	int (*fn)(const struct cli_cmd *cmd, int argc, char **argv); /* argv[0] is the name */
};

/* A long option of a subcommand; a table of them ends with a NULL name. */
struct cli_opt {
	const char *name;   /* without the dashes: "side" for --side */
	const char **value; /* option taking a value: where it goes (set NULL first) */
	int *flag;          /* option without a value: set to 1 when given */
};

/* The command table (main.c). */
const struct cli_cmd *cli_find_cmd(const char *name);
void cli_list_cmds(FILE *fp);

/*
 * Parse the options of argv[1..*argc): --name VALUE, --name=VALUE, --flag,
 * "--" ending options, and --help/-h.  Options may come anywhere; the other
 * arguments are moved to argv[1..] in order and *argc becomes 1 + their
 * number.  Returns CLI_CONTINUE, or the exit status to return at once:
 * CLI_OK after printing the usage for --help, CLI_USAGE after an error
 * (unknown option, missing value, value given to a flag, option repeated).
 */
int cli_options(const struct cli_cmd *cmd, int *argc, char **argv, const struct cli_opt *opts);

/* "usage: orderly NAME USAGE" and the summary. */
void cli_print_usage(FILE *fp, const struct cli_cmd *cmd);
/* The usage, and the command's description and options from the man page. */
void cli_print_help(FILE *fp, const struct cli_cmd *cmd);

/* Print "orderly: MESSAGE" to stderr. */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;
/* Print "orderly: MESSAGE" and the command's usage line; returns CLI_USAGE. */
int cli_usage_error(const struct cli_cmd *cmd, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* The exit status for a library return code: the one place they are mapped. */
int cli_exit_code(int code);
/* Print the library's last error message for code; returns cli_exit_code(code). */
int cli_fail(int code);

/* Files this run reads that no output of it may replace (an -o, --head
 * or --receipt-head naming one is refused, cli_keys.c): the game file
 * (game 1: SQLite's journal, -wal and -shm beside it too), a key file. */
void cli_protect_file(const char *path, int game);

/* Open an existing game file; prints the error and returns its exit status, or 0. */
int cli_open_game(ord_game **out, const char *path);
/* The same for a command that only reads the game: a file the user may
 * not write is opened read-only (ORD_OPEN_READONLY). */
int cli_open_game_readonly(ord_game **out, const char *path);

/*
 * Read a whole input: the file path, or standard input when path is NULL or
 * "-".  At most max bytes; the exact bytes are kept (out may hold NULs).
 * Prints the error and returns its exit status (CLI_NOINPUT: missing or
 * unreadable; CLI_DATAERR: a directory, too large), or 0.
 */
int cli_read_input(struct ord_buf *out, const char *path, size_t max);

/* How an input is named in messages: the path, or "<stdin>". */
const char *cli_input_name(const char *path);
/* The entries of command name in the man page's COMMANDS section, as
 * plain text appended to out; the number of entries found. */
int cli_manual_section(const char *name, struct ord_buf *out);
/* Print what a check of the sheet read from path found (rc of
 * ord_game_check_sheet): orderly's reading on stdout under "orderly reads:"
 * (a line not understood marked there as a '#' comment), every problem at
 * its line on stderr, or that it has none (then hint, what to do next); the
 * exit status. */
int cli_report_check(int rc, const struct ord_diag *diag, const struct ord_buf *reading,
		     const char *path, const char *hint);

/* Parse --dice "N,N,...": positive integers <= CLI_MAX_FACE, at most
 * CLI_MAX_DICE.  *dice is malloc'd (caller frees).  spec NULL gives no dice.
 * Returns 0, or CLI_USAGE after naming the bad item. */
int cli_parse_dice(const struct cli_cmd *cmd, const char *spec, int **dice, size_t *ndice);

/* Parse a positive integer option value (--turn N); *out untouched when
 * s is NULL.  Returns 0, or CLI_USAGE naming the option and the value. */
int cli_parse_positive(const struct cli_cmd *cmd, const char *option, const char *s, int *out);

/* Check that each of argv[0..argc) is key=value with a non-empty key;
 * returns 0 or CLI_USAGE naming the first that is not. */
int cli_check_keyvalues(const struct cli_cmd *cmd, int argc, char *const *argv);

/* Write b to stdout, adding a final newline when b is not empty and lacks one. */
void cli_print_buf(const struct ord_buf *b);

/* Print each line of text to stderr, prefixed by "orderly: " when prefixed. */
void cli_print_lines(const char *text, int prefixed);

#endif
