/*
 * cli_keys.h - what the commands about keys, signatures and bundles share
 * (keygen, sign, open, export, verify, and the key and head options of
 * new, submit, seal, exchange and audit): options that may be repeated,
 * hex values, key and head files, writing an output file.
 */
#ifndef ORD_CLI_KEYS_H
#define ORD_CLI_KEYS_H

#include "cli/cli.h"

/*
 * Take every "--name VALUE" and "--name=VALUE" out of argv[1..*argc)
 * (before "--"), appending the values to *vals (malloc'd array, caller
 * frees) and closing up argv.  A value may list several, comma-separated.
 * Returns 0, or CLI_USAGE when a --name has no value.
 */
int cli_take_repeated(const struct cli_cmd *cmd, int *argc, char **argv, const char *name,
		      const char ***vals, size_t *n);
/* Rewrite a short option ("-o") into its long form ("--output") in argv. */
void cli_long_option(int argc, char **argv, const char *short_opt, const char *long_opt);

/* Exactly n bytes as 2n hex digits; CLI_USAGE naming the option otherwise. */
int cli_hex_option(const struct cli_cmd *cmd, const char *option, const char *s, unsigned char *out,
		   size_t n);
/* Read a secret key file; prints the error, returns its exit status or 0. */
int cli_load_key(const char *path, struct ord_keypair *kp);
/* Read and parse a signed head file; prints the error, returns status or 0. */
int cli_load_head(const char *path, struct ord_head *h);
/* The close heads a witness record keeps (`witness --link-for`, KEY.links),
 * each line's head holding what the line says and its signature, into
 * *heads (free it), and the links the lines say were given against them
 * into *given (free it; a line of a record written before 2026-12-05 says
 * none); a line that does not is refused, naming the file and the line
 * (CLI_DATAERR). */
int cli_witness_record_heads(const char *path, struct ord_head **heads, size_t *n,
			     struct ord_witness_given **given, size_t *ngiven);
/* Write the bytes to path (through a temporary file and a rename), or to
 * standard output when path is NULL or "-".  Prints the error, returns
 * its exit status or 0. */
int cli_write_output(const char *path, const char *bytes, size_t len);
/* An output written into its file as it is made (export's bundle): a new
 * temporary file beside path's target (cli_write_output's), open for
 * reading and writing, put in its place by cli_output_close.  -1, said
 * nothing, when path is standard output or cannot be written (the caller
 * then makes the output in memory and cli_write_output says why, after
 * what making it says). */
struct cli_output {
	const char *path;
	char *tmp;
	char *target;
	int fd;
};
int cli_output_open(const char *path, struct cli_output *o);
/* keep: closed and renamed into place (the file synced by its writer),
 * else removed.  Prints the error, returns its exit status or 0. */
int cli_output_close(struct cli_output *o, int keep);
/* 0 when cli_write_output could write to path, else its exit status,
 * said: for an output written after the change it follows, asked before
 * the change (a file this run reads, a directory). */
int cli_output_allowed(const char *path);
/* Write the stored signed head of turn's at to path ('orderly head'); a close
 * head: of phase when phase > 0, else the turn's latest. */
int cli_write_head(ord_game *g, int turn, const char *at, int phase, const char *path);

/*
 * --head FILE of the commands that sign a head (new, seal, exchange,
 * witness --close): the hook stages the head in a file beside FILE inside
 * the change's transaction, so a head that cannot be written rolls the
 * change back; once the change is committed, finish moves it into place
 * (or prints it for "-"), else removes it.
 */
struct cli_head_out {
	const char *path;    /* FILE, "-", or NULL for none */
	char *tmp;           /* the staged file */
	char *target;        /* the file it replaces (a link's, followed) */
	struct ord_buf text; /* the head, as written */
	int staged;
	int turn;
	char at[16];
	struct ord_buf held;     /* a seal: the sides the NMR policy stood in for */
	struct ord_buf held_why; /* a seal: why 'repeat' held a side or units of it */
};
void cli_head_out_init(struct cli_head_out *h, const char *path);
int cli_head_hook(void *ud, ord_game *g, const struct ord_change *c);
int cli_head_out_finish(struct cli_head_out *h, int committed, const char *game);
/* What seal, exchange and witness --close share: open game (with the key
 * file, when the referee keeps it outside), make the change with --head
 * staged as above, print done and move the head into place.  Returns the
 * exit status. */
int cli_signed_change(const char *game, const char *key, const char *head,
		      int (*change)(ord_game *g, void *ud), void *ud, const char *done);

#endif
