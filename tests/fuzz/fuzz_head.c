/*
 * fuzz_head.c - a signed head file (ord_head_parse), as a player's own tools
 * read what the host hands him: the opening, seal, close and exchange heads,
 * a receipt, the head of the seal stating his side's sheet ("sealed") and a
 * link head.  `orderly sign`, `witness --link-for` and `verify` read them
 * before anything is checked, so whoever sends the file chooses its bytes.
 *
 * Properties: a refusal is ORD_EBADDATA with a message that names the file;
 * an accepted head is of a kind the parser knows, states a commitment when
 * it is a receipt or a sealed head (and only then), a seed commitment when
 * it opens a turn, a phase only when it closes one, no entry number only
 * when it is of format v3 (a close head with its phase, or a link head); its printed form parses
 * again to the same head and prints the same (a fixed point), the receipt
 * form too (a receipt's or sealed head's words read back as written); the
 * signature check answers 0 or ORD_ETAMPERED, the same for the head read
 * back.
 */
#include <stddef.h>
#include <string.h>

#include "core/common.h"
#include "core/crypto.h"
#include "fuzz.h"
#include "orderly.h"

/* What a head states and the signature covers: the fields before the
 * words a receipt's comment says (attack 47), which the plain printed
 * form does not write. */
#define SIGNED offsetof(struct ord_head, words)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const kinds[] = { "open",    "seal",   "close", "exchange",
					     "receipt", "sealed", "link" };
	struct ord_buf once = ORD_BUF_INIT, twice = ORD_BUF_INIT, r = ORD_BUF_INIT;
	struct ord_receipt rc;
	struct ord_head h, back;
	size_t i;
	int err, sig;

	if (ord_crypto_init() != 0)
		abort();
	err = ord_head_parse(&h, (const char *)data, size, "head.txt");
	if (err) {
		fuzz_assert(err == ORD_EBADDATA, "a refusal is %d, not ORD_EBADDATA", err);
		fuzz_assert(strstr(ord_error_last(), "head.txt") != NULL,
			    "a refusal names no file: %s", ord_error_last());
		ord_error_clear();
		return 0;
	}
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(h.at, kinds[i]))
			break;
	fuzz_assert(i < sizeof(kinds) / sizeof(kinds[0]), "a head at '%s'", h.at);
	fuzz_assert(h.turn >= 1 && (h.unnumbered ? h.seq == 0 : h.seq >= 1),
		    "turn %d, entry %lld (unnumbered %d)", h.turn, (long long)h.seq, h.unnumbered);
	/* a head of format v3 is a close head with its phase, or a link head */
	fuzz_assert(!h.unnumbered || (!strcmp(h.at, "close") && h.phase > 0) || !strcmp(h.at, "link"),
		    "a head of format v3 at '%s', phase %d", h.at, h.phase);
	fuzz_assert(h.has_commitment == (!strcmp(h.at, "receipt") || !strcmp(h.at, "sealed")),
		    "a head at '%s' with has_commitment %d", h.at, h.has_commitment);
	fuzz_assert(h.has_seed_commitment == (!strcmp(h.at, "open") || !strcmp(h.at, "exchange")),
		    "a head at '%s' with has_seed_commitment %d", h.at, h.has_seed_commitment);
	fuzz_assert(!h.phase || !strcmp(h.at, "close"), "a head at '%s' with phase %d", h.at, h.phase);
	fuzz_assert(ord_head_next_turn(&h) == (!strcmp(h.at, "open")       ? 1
					       : !strcmp(h.at, "exchange") ? h.turn + 1
									   : 0),
		    "a head at '%s' of turn %d binds turn %d's sheets", h.at, h.turn,
		    ord_head_next_turn(&h));
	sig = ord_head_check(&h);
	fuzz_assert(sig == 0 || sig == ORD_ETAMPERED, "the signature check gave %d", sig);

	ord_head_format(&h, &once);
	err = ord_head_parse(&back, once.buf, once.len, "again");
	fuzz_assert(!err, "the printed head does not parse: %s\n%s", ord_error_last(), once.buf);
	fuzz_assert(!memcmp(&h, &back, SIGNED) && back.unnumbered == h.unnumbered,
		    "the printed head reads as another:\n%s", once.buf);
	ord_head_format(&back, &twice);
	fuzz_assert(once.len == twice.len && !memcmp(once.buf, twice.buf, once.len),
		    "printed twice, two texts");
	fuzz_assert(ord_head_check(&back) == sig, "the signature check differs read back");

	/* as a player keeps a receipt: the same head under a comment line */
	memset(&rc, 0, sizeof(rc));
	rc.turn = h.turn;
	rc.version = 1;
	snprintf(rc.side, sizeof(rc.side), "blue");
	memcpy(rc.commitment, h.commitment, 32);
	ord_receipt_head_format(&h, &rc, &r);
	err = ord_head_parse(&back, r.buf, r.len, "receipt");
	fuzz_assert(!err && !memcmp(&h, &back, SIGNED) && back.unnumbered == h.unnumbered,
		    "the receipt form reads as another:\n%s", r.buf);
	fuzz_assert(!h.has_commitment ||
			    (back.words == 1 && back.said.turn == rc.turn &&
			     back.said.version == rc.version && !strcmp(back.said.side, rc.side) &&
			     !memcmp(back.said.commitment, rc.commitment, 32) && !back.odd_line),
		    "the receipt form's words read as others (words %d, line %u):\n%s", back.words,
		    back.words_line, r.buf);
	ord_buf_release(&once);
	ord_buf_release(&twice);
	ord_buf_release(&r);
	return 0;
}
