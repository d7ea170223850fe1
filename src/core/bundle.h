/*
 * bundle.h - the turn bundle: one XML document (schema/bundle.rng) holding
 * everything needed to check an exchanged turn offline, signed by the
 * game's key: a turn's record (core/record.h), so that `orderly verify`
 * hands it to the same verifier `orderly audit` runs over the game file.
 *
 * The signature: Ed25519 by the game's key over ord_sig_bundle_msg of every
 * byte of the document before "<signature>"; the document must then end
 * with exactly ORD_BUNDLE_SIG_OPEN, 128 hex digits, ORD_BUNDLE_SIG_CLOSE.
 * So every byte that the parser reads, but the signature's own digits, is
 * signed, and nothing can follow it.
 *
 * Free text (log entry bodies, event arguments, results, unit states) is
 * written as escaped character data when it is valid XML text without CR
 * or control characters (so a player can read it), else as base64 with
 * enc="base64".  Sheets are always base64: their exact bytes matter.
 */
#ifndef ORD_BUNDLE_H
#define ORD_BUNDLE_H

#include "core/common.h"

#define ORD_BUNDLE_FORMAT "2"
/* The largest bundle verify reads: 2 GiB less a byte, the most libxml2
 * reads from memory (its length is an int); about 1.4 million units at
 * 1.5 KB a unit.  The bundle is read as a stream (ord_xml_stream_open), so
 * its memory is its bytes and its record, not a tree of it. */
#define ORD_BUNDLE_MAX_BYTES ((size_t)2 * 1024 * 1024 * 1024 - 1)
/* For tests only: the largest bundle ord_game_export writes (0: back to
 * ORD_BUNDLE_MAX_BYTES), so that its refusals are seen without 2 GiB of
 * sheets. */
void ord_export_set_max_bytes(size_t n);
/* For tests only (tests/e2e/forge.c, the unit suites): ord_game_export
 * without the verifier's check of the bundle it made, as an orderly before
 * 2026-12-06 wrote it, or a dishonest referee's own build writes whatever
 * his file holds: so that the tests of `verify` have bundles of changed
 * game files to verify.  No command of the orderly binary calls it. */
struct ord_game;
int ord_game_export_unchecked(struct ord_game *g, int turn, struct ord_buf *out);
/* The domain of ord_bundle_state's hash. */
#define ORD_BUNDLE_STATE_TAG "orderly-bundle-state-v1"
/* The bundle of turn written passes times over, in one read transaction
 * (the same rows each time), its bytes handed to flush a piece of at most
 * 64 KiB at a time with the pass's number (0 first) as they are made,
 * never held whole (ord_store_record_stream): unsigned, the document up to
 * its signature.  After export's own checks (the turn exchanged, the key
 * at hand, the sheets not too large); 0, or the first error, flush's own
 * among them.  ord_game_export_fd writes one pass to its file;
 * ord_game_export_state hashes the second, knowing from the first the
 * length both hashes put first. */
int ord_game_export_passes(struct ord_game *g, int turn, int passes,
			   int (*flush)(void *ud, int pass, const char *bytes, size_t n), void *ud);
#define ORD_BUNDLE_SIG_OPEN "<signature>"
#define ORD_BUNDLE_SIG_CLOSE "</signature>\n</bundle>\n"

/* 1 when len bytes can be XML character data as they are. */
int ord_bundle_text_ok(const char *s, size_t len);
/* Append ` name="value"` (value must be ord_bundle_text_ok; tabs and
 * newlines become character references).  Returns 0 or ORD_EBADDATA. */
int ord_bundle_attr(struct ord_buf *out, const char *name, const char *value);
/* Append `<name ATTRS[ enc="base64"]>CONTENT</name>\n` after indent spaces;
 * attrs is already formatted (may be ""), base64 forces the encoding. */
void ord_bundle_elem(struct ord_buf *out, int indent, const char *name, const char *attrs,
		     const void *bytes, size_t len, int base64);
/* Sign a document that ends just before its signature element; appends
 * the signature element and the end of the document. */
void ord_bundle_sign(struct ord_buf *doc, const unsigned char sk[64]);

struct ord_record;
/* Write a turn's record (core/record.h) as a bundle signed with sk. */
int ord_bundle_write(struct ord_buf *out, const struct ord_record *r, const unsigned char sk[64]);

/* The same bundle written a part at a time (export to a file: the rows
 * of a turn as ord_store_record_stream hands them on, never held whole).
 * begin writes the document's start from head (a record with all but its
 * rows, and of its log the first entry: ord_store_record_head); rows the
 * rows a record holds, each table's after those given before, in the
 * bundle's order (its parts in that order across the calls); end closes
 * what is open.  The bytes go to out; with a flush, out is handed to it
 * each time it holds 64 KiB and at the end, and emptied.  Unsigned: the
 * caller signs the bytes (ord_bundle_sign, or ord_sig_bundle_msg of them
 * as a file holds them), then appends ORD_BUNDLE_SIG_OPEN, the signature
 * in hex and ORD_BUNDLE_SIG_CLOSE.  0, or the first error (a value that
 * cannot be written, flush's own); release in any case. */
struct ord_bundle_writer {
	struct ord_buf *out;
	int (*flush)(void *ud, const char *bytes, size_t len);
	void *ud;
	int stage;
	unsigned char prev[32];
	struct ord_buf a, body;
};
int ord_bundle_writer_begin(struct ord_bundle_writer *w, struct ord_buf *out,
			    const struct ord_record *head,
			    int (*flush)(void *ud, const char *bytes, size_t len), void *ud);
int ord_bundle_writer_rows(struct ord_bundle_writer *w, const struct ord_record *r);
int ord_bundle_writer_end(struct ord_bundle_writer *w);
void ord_bundle_writer_release(struct ord_bundle_writer *w);

/* The bundle's len bytes read into r (initialised) as the verifier reads
 * them, every row kept, nothing checked but the form: 0 or the reader's
 * error (a test looks at what the record holds). */
int ord_bundle_read_record(const char *bytes, size_t len, const char *name, struct ord_record *r);

/* ord_bundle_verify_file read in pieces of piece bytes (0: the default,
 * 64 KiB), with between(ud, 1) called between the file's first read and
 * its second, and between(ud, 2) after the second, before the replay
 * reads its rows again (a test changes the file there). */
int ord_bundle_verify_file_in(int fd, size_t len, const char *name,
			      const struct ord_verify_opts *opts, struct ord_buf *out, size_t piece,
			      void (*between)(void *ud, int read), void *ud);

#endif
