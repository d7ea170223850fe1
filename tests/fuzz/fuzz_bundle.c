/*
 * fuzz_bundle.c - the offline verifier of turn bundles (ord_bundle_verify,
 * `orderly verify`): a bundle arrives by mail from a host nobody trusts.
 *
 * Each input is verified twice: as it is (so the signature check and the
 * refusals in front of it are fuzzed), and re-signed with the test key of
 * tests/fuzz/bundle-test.key (everything from the last "<signature>" on is
 * replaced by a fresh signature), so that the fuzzer reaches every check
 * behind the signature: the log chain, commitments, seed, dice, events,
 * results, heads.  The seeds are bundles exported from games made with
 * that key (tests/fuzz/README.md says how).  A test key, in git on purpose:
 * it signs nothing but fuzz inputs.
 *
 * Checks, besides ASan/UBSan: no external resource is ever loaded; the
 * result is 0, ORD_ETAMPERED or ORD_EBADDATA as orderly.h promises, and a
 * refusal or a finding says something.
 */
#include <string.h>

#include "fuzz.h"
#include "fuzz_xml_common.h"
#include "core/bundle.h"

#ifndef ORD_SOURCE_DIR
#error "ORD_SOURCE_DIR must name the source tree (the test key)"
#endif

static struct ord_keypair kp;
static int ready;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_xml_init();
	if (ord_key_load(&kp, ORD_SOURCE_DIR "/tests/fuzz/bundle-test.key"))
		fuzz_fail("cannot load the test key: %s", ord_error_last());
	ready = 1;
	return 0;
}

static void verify(const char *bytes, size_t len, const char *how)
{
	struct ord_verify_opts opts;
	struct ord_buf out = ORD_BUF_INIT;
	int rc;

	memset(&opts, 0, sizeof(opts));
	opts.pubkey = kp.pk;
	rc = ord_bundle_verify(bytes, len, "fuzz.xml", &opts, &out);
	fuzz_assert(rc == 0 || rc == ORD_ETAMPERED || rc == ORD_EBADDATA,
		    "verify (%s) returned %d: %s", how, rc, ord_error_last());
	fuzz_assert(rc == 0 || out.len || *ord_error_last(),
		    "verify (%s) returned %d and said nothing", how, rc);
	ord_buf_release(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ord_buf doc = ORD_BUF_INIT;
	const char *text = (const char *)data, *sig = NULL, *p;
	size_t keep;

	if (!ready)
		LLVMFuzzerInitialize(NULL, NULL);
	verify(text, size, "as it came");
	/* the last "<signature>", if any, and everything after it go */
	for (p = text; size >= 11 && p + 11 <= text + size; p++) {
		p = memchr(p, '<', (size_t)(text + size - p));
		if (!p || p + 11 > text + size)
			break;
		if (!memcmp(p, ORD_BUNDLE_SIG_OPEN, 11))
			sig = p;
	}
	keep = sig ? (size_t)(sig - text) : size;
	ord_buf_add(&doc, text, keep);
	ord_bundle_sign(&doc, kp.sk);
	verify(doc.buf, doc.len, "re-signed");
	ord_buf_release(&doc);
	return 0;
}
