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
/* Write the bytes to path (through a temporary file and a rename), or to
 * standard output when path is NULL or "-".  Prints the error, returns
 * its exit status or 0. */
int cli_write_output(const char *path, const char *bytes, size_t len);
/* Write the signed head of turn's seal or exchange to path (for --head). */
int cli_write_head(ord_game *g, int turn, const char *at, const char *path);

#endif
