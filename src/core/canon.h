/*
 * canon.h - the canonical text of the log entries that vouch for a row:
 * written by game_turn.c when the row is stored, rebuilt by the audit from
 * the game file and by `verify` from a bundle.  One function per kind, so
 * that the three can never disagree on a byte.
 */
#ifndef ORD_CANON_H
#define ORD_CANON_H

#include "core/common.h"

/* "open": a turn opens and its seed is committed. */
void ord_canon_open(struct ord_buf *out, int turn, const unsigned char seed_commitment[32]);
/* "exchange": the turn's seed revealed. */
void ord_canon_exchange(struct ord_buf *out, int turn, const unsigned char seed[32]);
/* "sheet": a sheet stored (signature NULL when unsigned). */
void ord_canon_sheet(struct ord_buf *out, const char *side, int version, const char *source,
		     const unsigned char commitment[32], const unsigned char *signature);
/* "commit": a referee-less side's signed commitment, before its sheet. */
void ord_canon_commit(struct ord_buf *out, const char *side, int version,
		      const unsigned char commitment[32], const unsigned char signature[64]);
/* "opening": the sheet of a commitment, opened after the seal. */
void ord_canon_opening(struct ord_buf *out, const char *side, int version,
		       const unsigned char commitment[32]);
/* "event": a referee event (override NULL when none). */
void ord_canon_event(struct ord_buf *out, unsigned seq, const char *phase, const char *kind,
		     const char *args, const char *override, const char *checks);

/* The value of key in a key=value body (malloc'd), or NULL. */
char *ord_canon_get(const char *body, const char *key);

#endif
