/*
 * cmd_verify.c - `orderly verify BUNDLE [--pubkey KEY] [--receipt FILE|HEX]...
 * [--head FILE]... [--record FILE] [--scenario FILE] [--tables FILE]
 * [--report SIDE|referee [--resolved|--phase NAME|start] [--xml] [--lang L]
 * | --map SIDE|referee [--turn N] [--phase NAME|start] [--resolved]
 * [--lang L] [-o FILE.svg|FILE.png] [--scale K]]`: check a turn
 * bundle offline, with no
 * game file: its signature (by the game's key when --pubkey gives it: 64
 * hex digits or a key file), the chain of its log entries, every
 * commitment, the seed, the dice, events, results, the signed heads, and
 * that the sheet of each
 * receipt is in it unchanged and was the one sealed (a receipt FILE: the
 * head the game signed of the entry that logs the sheet, its signature and
 * entry checked too, or the "sealed" head of the seal stating the sheet it
 * took for the side, the seal held to it; a bare commitment HEX: the
 * player's word); and that the game's
 * scenario and rules tables are the files given (else its tables beside
 * this orderly's built-in ones).
 *
 * --report: once every check holds, the side's turn report (or the
 * referee's) rebuilt from the bundle's record, byte for byte what `orderly
 * report GAME --side SIDE --turn N` prints from the game file, on standard
 * output; the findings go to standard error then.  --resolved: the report
 * as it read before the exchange, when the last phase was resolved (the
 * one the mail judge mails then); --phase: a side's report as it read once
 * that phase was resolved (the web page's during the turn).  A bundle
 * that fails a check prints no report.
 *
 * --map: once every check holds, the side's map (or the referee's) drawn
 * from the bundle's record, byte for byte what `orderly map GAME --turn N
 * --side SIDE` draws from the game file, by the same drawer
 * (core/picture.h), as SVG or PNG like `orderly map`; --resolved: as it
 * was drawn before the exchange, once its phase was resolved.  A bundle
 * that fails a check draws nothing.
 *
 * `orderly verify --receipt FILE... --pubkey KEY [--head FILE]...
 * [--commitment HEX]`, with no bundle: the player's check of a receipt
 * when it comes (threat model, 47): signed by the game's key, its words
 * ("turn T, side S, version V, commitment C") signed too, and said
 * plainly; with --commitment (what 'orderly sign' printed), the sheet the
 * game states is his; with the head of the game's or turn's opening he
 * kept, the receipt is of that game and after that opening.
 *
 * Exit 0 when every check holds; 1 with the list of what failed on
 * standard output; 64 usage (an unknown side); 65 a bundle that cannot be
 * read (not XML, entities, not a bundle) or a head file whose signature
 * does not hold against its own key; 66 a missing file.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/cli_keys.h"
#include "cli/cli_picture.h"
#include "core/bundle.h"

/* 1 when s is meant as a commitment: 64 hex digits, or hex digits that
 * name no file (a commitment cut short is said so, not a missing file). */
static int is_commitment(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]))
			return 0;
	return i == 64 || (i > 0 && access(s, F_OK) != 0);
}

/* What the bundle's own name begins with when it is the one the judge and
 * the web page give it, GAME-turn-N.xml (docs/pbem.md): "GAME-", with
 * which they name the game's heads too; else "" (a name of the
 * characters theirs are made of only).  In buf, of at least strlen(path)
 * + 1 bytes. */
static const char *bundle_head_prefix(const char *path, char *buf)
{
	const char *base = strrchr(path, '/'), *end;
	size_t len, i;

	base = base ? base + 1 : path;
	len = strlen(base);
	buf[0] = '\0';
	if (len < 4 || strcmp(base + len - 4, ".xml"))
		return buf;
	end = base + len - 4;
	if (end == base || !strchr("0123456789", end[-1]))
		return buf;
	while (end > base && strchr("0123456789", end[-1]))
		end--;
	if ((size_t)(end - base) < 7 || strncmp(end - 6, "-turn-", 6))
		return buf;
	len = (size_t)(end - 5 - base); /* up to its '-' */
	for (i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.",
			    base[i]))
			return buf;
	memcpy(buf, base, len);
	buf[len] = '\0';
	return buf;
}

/* A receipt file: a head the game signed at "receipt" or "sealed".  Prints the error
 * naming the file and what was expected; its exit status, or 0. */
static int load_receipt(const char *path, struct ord_head *h)
{
	struct ord_buf b = ORD_BUF_INIT;
	int rc;

	if ((rc = cli_read_input(&b, path, 65536)) != 0)
		goto out;
	if (ord_head_parse(h, b.buf, b.len, cli_input_name(path)) < 0) {
		cli_error("--receipt %s: not a receipt: expected a receipt head the game signed ('orderly signed head v2', at: receipt or sealed; submit --receipt-head, head --at sealed, the receipt or seal mail's attachment) or a commitment of 64 hex digits (%s)",
			  cli_input_name(path), ord_error_last());
		ord_error_clear();
		rc = CLI_DATAERR;
	} else if (strcmp(h->at, "receipt") && strcmp(h->at, "sealed")) {
		cli_error("--receipt %s: a signed head of turn %d's %s, not a receipt (at: receipt or sealed): give it with --head",
			  cli_input_name(path), h->turn, h->at);
		rc = CLI_DATAERR;
	}
out:
	ord_buf_release(&b);
	return rc;
}

/* With no bundle: each receipt file checked as it came (ord_receipt_check). */
static int receipts_alone(const struct cli_cmd *cmd, const struct ord_head *rcpt,
			  const char *const *rcpt_names, size_t nrcpt, size_t nbare,
			  const unsigned char pk[32], const char *commit_s,
			  const struct ord_head *heads, const char *const *head_paths, size_t nheads)
{
	struct ord_buf out = ORD_BUF_INIT;
	const char **names = NULL;
	unsigned char mine[32];
	int rc = 0, failed = 0;
	size_t i;

	if (nbare)
		return cli_usage_error(cmd,
				       "--receipt HEX: a bare commitment is checked against a bundle only (beside a receipt file, give it with --commitment)");
	if (commit_s && (rc = cli_hex_option(cmd, "--commitment", commit_s, mine, 32)) != 0)
		return rc;
	names = calloc(nheads + 1, sizeof(*names));
	if (!names)
		abort();
	for (i = 0; i < nheads; i++)
		names[i] = cli_input_name(head_paths[i]);
	for (i = 0; i < nrcpt; i++)
		if (ord_receipt_check(&rcpt[i], rcpt_names[i], pk, commit_s ? mine : NULL, heads,
				      names, nheads, &out))
			failed = 1;
	cli_print_buf(&out);
	free(names);
	ord_buf_release(&out);
	return failed ? CLI_PROBLEMS : CLI_OK;
}

int cmd_verify(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ord_buf bundle = ORD_BUF_INIT, out = ORD_BUF_INIT, report = ORD_BUF_INIT;
	struct stat bst;
	int bfd = -1;
	struct ord_buf scenario = ORD_BUF_INIT, tables = ORD_BUF_INIT;
	const char *pubkey_s = NULL, *scenario_s = NULL, *tables_s = NULL, *report_s = NULL;
	const char *lang = NULL, *record_s = NULL, *commit_s = NULL;
	const char *map_s = NULL, *phase = NULL, *turn_s = NULL, *output = NULL, *scale = NULL;
	struct ord_report_opts ro = { 0 };
	struct ord_map_opts mo = { 0 };
	struct ord_buf svg = ORD_BUF_INIT;
	struct ord_head *rheads = NULL;
	size_t nrheads = 0, ngiven = 0;
	struct ord_witness_given *given = NULL;
	const char **receipt_s = NULL, **head_paths = NULL;
	size_t nreceipts = 0, nheads = 0, i;
	unsigned char pk[32], (*receipts)[32] = NULL;
	struct ord_head *heads = NULL, *rcpt_heads = NULL;
	const char **rcpt_names = NULL;
	char *prefix = NULL;
	size_t nbare = 0, nrcpt = 0;
	struct ord_verify_opts vo;
	int rc, xml = 0, resolved = 0, turn = 0;
	const struct cli_opt opts[] = {
		{ "pubkey", &pubkey_s, NULL },
		{ "scenario", &scenario_s, NULL },
		{ "tables", &tables_s, NULL },
		{ "report", &report_s, NULL },
		{ "xml", NULL, &xml },
		{ "lang", &lang, NULL },
		{ "resolved", NULL, &resolved },
		{ "record", &record_s, NULL },
		{ "commitment", &commit_s, NULL },
		{ "map", &map_s, NULL },
		{ "phase", &phase, NULL },
		{ "turn", &turn_s, NULL },
		{ "output", &output, NULL },
		{ "scale", &scale, NULL },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_take_repeated(cmd, &argc, argv, "receipt", &receipt_s, &nreceipts)) != 0 ||
	    (rc = cli_take_repeated(cmd, &argc, argv, "head", &head_paths, &nheads)) != 0)
		goto out;
	cli_long_option(argc, argv, "-o", "--output");
	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		goto out;
	if (argc < 2 && !nreceipts) {
		rc = cli_usage_error(cmd, "missing BUNDLE");
		goto out;
	}
	if (argc < 2 && (!pubkey_s || scenario_s || tables_s || report_s || record_s || map_s)) {
		rc = cli_usage_error(cmd,
				     !pubkey_s ? "missing BUNDLE (a receipt is checked without one against the game's key: give --pubkey KEY)"
					       : "missing BUNDLE (--%s is an option of a bundle's verify; a receipt alone takes --pubkey, --head and --commitment)",
				     scenario_s ? "scenario"
				     : tables_s ? "tables"
				     : report_s ? "report"
				     : map_s    ? "map"
						: "record");
		goto out;
	}
	if (argc >= 2 && commit_s) {
		rc = cli_usage_error(cmd,
				     "--commitment is of a receipt checked without a bundle (with one, give the receipt with --receipt)");
		goto out;
	}
	if (argc > 2) {
		rc = cli_usage_error(cmd, "unexpected argument '%s' (one bundle at a time)", argv[2]);
		goto out;
	}
	if (report_s && map_s) {
		rc = cli_usage_error(cmd, "--report and --map exclude each other (one at a time)");
		goto out;
	}
	if (!report_s && !map_s && (xml || lang || resolved || phase)) {
		rc = cli_usage_error(cmd, "%s is an option of --report SIDE or --map SIDE",
				     xml     ? "--xml"
				     : lang  ? "--lang"
				     : phase ? "--phase"
					     : "--resolved");
		goto out;
	}
	if (!map_s && (turn_s || output || scale)) {
		rc = cli_usage_error(cmd, "%s is an option of --map SIDE",
				     turn_s   ? "--turn"
				     : output ? "-o"
					      : "--scale");
		goto out;
	}
	if (map_s && xml) {
		rc = cli_usage_error(cmd, "--xml is an option of --report SIDE (a map is SVG or PNG)");
		goto out;
	}
	if (report_s && phase && resolved) {
		rc = cli_usage_error(cmd,
				     "--phase and --resolved exclude each other: the report of a phase is as it read before the exchange");
		goto out;
	}
	if (map_s && ((rc = cli_parse_positive(cmd, "--turn", turn_s, &turn)) != 0 ||
		      (rc = cli_picture_args(cmd, output, scale)) != 0))
		goto out;
	receipts = calloc(nreceipts + 1, sizeof(*receipts));
	heads = calloc(nheads + 1, sizeof(*heads));
	rcpt_heads = calloc(nreceipts + 1, sizeof(*rcpt_heads));
	rcpt_names = calloc(nreceipts + 1, sizeof(*rcpt_names));
	if (!receipts || !heads || !rcpt_heads || !rcpt_names)
		abort();
	/* a receipt is a file the game signed, or a bare commitment (the
	 * player's word: threat model, 21) */
	for (i = 0; i < nreceipts; i++) {
		if (!is_commitment(receipt_s[i]) && strcmp(receipt_s[i], "-") &&
		    access(receipt_s[i], F_OK) != 0) {
			rc = cli_usage_error(cmd,
					     "--receipt: no such file '%s' (a receipt is the file the game gave you at the submit, or the commitment of 64 hexadecimal digits it printed)",
					     receipt_s[i]);
			goto out;
		}
		if (is_commitment(receipt_s[i])) {
			if ((rc = cli_hex_option(cmd, "--receipt", receipt_s[i], receipts[nbare++],
						 32)) != 0)
				goto out;
			continue;
		}
		if ((rc = load_receipt(receipt_s[i], &rcpt_heads[nrcpt])) != 0)
			goto out;
		rcpt_names[nrcpt++] = cli_input_name(receipt_s[i]);
	}
	if (pubkey_s) {
		rc = ord_pubkey_parse(pk, pubkey_s);
		if (rc == ORD_ENOTFOUND) {
			rc = cli_usage_error(cmd, "%s", ord_error_last());
			goto out;
		}
		if (rc < 0) {
			rc = cli_fail(rc);
			goto out;
		}
	}
	for (i = 0; i < nheads; i++) {
		if ((rc = cli_load_head(head_paths[i], &heads[i])) != 0)
			goto out;
		/* a head that does not hold against its own key shows nothing of
		 * the bundle: the file is what was changed or damaged */
		if (ord_head_check(&heads[i])) {
			ord_error_set(ORD_EBADDATA,
				      "%s: the head's signature does not hold against the key it names: the file was changed or damaged after it was signed (get a good copy, or leave it out)",
				      cli_input_name(head_paths[i]));
			rc = cli_fail(ORD_EBADDATA);
			goto out;
		}
	}
	if (argc < 2) {
		rc = receipts_alone(cmd, rcpt_heads, rcpt_names, nrcpt, nbare, pk, commit_s, heads,
				    head_paths, nheads);
		goto out;
	}
	if (record_s &&
	    (rc = cli_witness_record_heads(record_s, &rheads, &nrheads, &given, &ngiven)) != 0)
		goto out;
	/* a bundle is read as a stream (no tree of it), so of any size up to
	 * what libxml2 reads from memory, about 1.4 million units; its bytes
	 * in one read: mmap saved 0.08 s of the 10 s a 100,000-unit bundle
	 * takes, at the same peak memory (its pages are counted too), and a
	 * file cut short while mapped would kill the process (SIGBUS) */
	/* a regular file verified without a report is never held whole: it
	 * is read a piece at a time, twice (ord_bundle_verify_file) */
	/* (a FIFO is not opened to be looked at: its writer would take that
	 * open for the reader's and go) */
	if (!report_s && !map_s && strcmp(argv[1], "-") && stat(argv[1], &bst) == 0 &&
	    S_ISREG(bst.st_mode) &&
	    (bfd = open(argv[1], O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)) >= 0 &&
	    (fstat(bfd, &bst) != 0 || !S_ISREG(bst.st_mode) ||
	     (unsigned long long)bst.st_size > ORD_BUNDLE_MAX_BYTES)) {
		close(bfd);
		bfd = -1;
	}
	if ((bfd < 0 && (rc = cli_read_input(&bundle, argv[1], ORD_BUNDLE_MAX_BYTES)) != 0) ||
	    (scenario_s && (rc = cli_read_input(&scenario, scenario_s, CLI_MAX_INPUT)) != 0) ||
	    (tables_s && (rc = cli_read_input(&tables, tables_s, CLI_MAX_INPUT)) != 0))
		goto out;
	memset(&vo, 0, sizeof(vo));
	vo.pubkey = pubkey_s ? pk : NULL;
	vo.receipts = (const unsigned char(*)[32])receipts;
	vo.nreceipts = nbare;
	vo.receipt_heads = rcpt_heads;
	vo.receipt_names = rcpt_names;
	vo.nreceipt_heads = nrcpt;
	vo.heads = heads;
	vo.nheads = nheads;
	vo.record_heads = rheads;
	vo.nrecord_heads = nrheads;
	vo.given_links = given;
	vo.ngiven_links = ngiven;
	vo.record_name = record_s ? cli_input_name(record_s) : NULL;
	prefix = malloc(strlen(argv[1]) + 1);
	if (!prefix)
		abort();
	vo.head_prefix = bundle_head_prefix(argv[1], prefix);
	if (scenario_s) {
		vo.scenario = scenario.buf ? scenario.buf : "";
		vo.scenario_len = scenario.len;
		vo.scenario_name = cli_input_name(scenario_s);
	}
	if (tables_s) {
		vo.tables = tables.buf ? tables.buf : "";
		vo.tables_len = tables.len;
		vo.tables_name = cli_input_name(tables_s);
	}
	ro.side = report_s;
	ro.xml = xml;
	ro.lang = lang;
	ro.resolved = resolved;
	ro.phase = phase;
	mo.side = map_s;
	mo.turn = turn;
	mo.phase = phase;
	mo.lang = lang;
	mo.resolved = resolved;
	/* the bundle's bytes are let go once read: the replay holds its
	 * record; and a file's rows are read again phase by phase from the
	 * file, not held (a report is built from all of them) */
	if (map_s) {
		size_t blen;
		char *bytes = ord_buf_detach(&bundle, &blen);

		rc = ord_bundle_verify_map_take(bytes, blen, cli_input_name(argv[1]), &vo, &mo,
						&out, &svg);
	} else if (bfd >= 0) {
		rc = ord_bundle_verify_file(bfd, (size_t)bst.st_size, cli_input_name(argv[1]), &vo,
					    &out);
	} else {
		size_t blen;
		char *bytes = ord_buf_detach(&bundle, &blen);
		struct stat st;
		int fd = -1;
		/* a regular file only: a pipe or a FIFO is read once (and a
		 * FIFO opened again would wait for a writer that never comes) */
		if (!report_s && strcmp(argv[1], "-") &&
		    (fd = open(argv[1], O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)) >= 0 &&
		    (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
			close(fd);
			fd = -1;
		}
		rc = ord_bundle_verify_report_fd(bytes, blen, fd, cli_input_name(argv[1]), &vo,
						 report_s ? &ro : NULL, &out, &report);
		if (fd >= 0)
			close(fd);
	}
	if (rc == 0 && map_s) {
		/* the map alone on standard output (or in FILE), to compare
		 * with the one received; what was checked beside it */
		fputs(out.buf ? out.buf : "", stderr);
		rc = cli_write_picture(output, &svg, scale);
		goto out;
	} else if (rc == ORD_ETAMPERED && map_s) {
		fputs(out.buf ? out.buf : "", stderr);
		cli_error("no map: the bundle does not verify, so its record is not the turn as it was played");
	} else if (rc == 0 && report_s) {
		/* the report alone on standard output, to compare with the
		 * one received; what was checked beside it */
		fputs(out.buf ? out.buf : "", stderr);
		cli_print_buf(&report);
	} else if (rc == ORD_ETAMPERED && report_s) {
		/* standard output is the report's, even when there is none:
		 * `verify B --report S > mine.txt` gets no findings in it */
		fputs(out.buf ? out.buf : "", stderr);
		cli_error("no report: the bundle does not verify, so its record is not the turn as it was played");
	} else if (rc == 0 || rc == ORD_ETAMPERED) {
		cli_print_buf(&out);
	}
	if (rc < 0) {
		rc = cli_fail(rc);
		goto out;
	}
	rc = CLI_OK;
out:
	if (bfd >= 0)
		close(bfd);
	for (i = 0; i < nreceipts; i++)
		free((char *)receipt_s[i]);
	for (i = 0; i < nheads; i++)
		free((char *)head_paths[i]);
	free(receipt_s);
	free(head_paths);
	free(receipts);
	free(heads);
	free(rcpt_heads);
	free(rcpt_names);
	free(rheads);
	free(given);
	free(prefix);
	ord_buf_release(&bundle);
	ord_buf_release(&scenario);
	ord_buf_release(&tables);
	ord_buf_release(&out);
	ord_buf_release(&report);
	ord_buf_release(&svg);
	return rc;
}
