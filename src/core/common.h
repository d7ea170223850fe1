/*
 * common.h - small pieces the parts of liborderly share: embedded resources,
 * hex, reading files.  Internal (not installed); what modules and
 * front-ends may use too (key/value lists, parsing numbers, allocation) is
 * in orderly.h.
 */
#ifndef ORD_COMMON_H
#define ORD_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include "orderly.h"

/* How the process's malloc is to hand out and give back memory, set once
 * by a program before it works (main; the benchmark's harness): large
 * blocks given back when freed (glibc; elsewhere nothing). */
void ord_malloc_tune(void);

/* Resources embedded at build time (cmake/embed.cmake). */
struct ord_resource {
	const char *name;          /* path relative to the source tree */
	const unsigned char *data; /* NUL-terminated */
	size_t len;                /* without the NUL */
};
extern const struct ord_resource ord_resources[];
const struct ord_resource *ord_resource_find(const char *name);
/* Where `cmake --install` puts a copy of resource name (ORD_DATADIR, e.g.
 * /usr/local/share/orderly/rulesets/battalion/tables.xml): what messages
 * about a built-in resource name, so that a user can open it.  The string
 * lives until the next call in the thread. */
const char *ord_resource_installed(const char *name);
/* The name messages give rs's built-in tables: their installed copy
 * (ord_resource_installed) where there is one, else "the built-in NAME
 * tables" (a binary not installed has no copy there to name).  The string
 * lives until the next call in the thread. */
struct ord_ruleset;
const char *ord_ruleset_tables_name(const struct ord_ruleset *rs);

/* A date alone, YYYY-MM-DD, read as when.c reads a time's (W3: 1970 to
 * 9999, a day its month has): its midnight UTC in unix seconds; else
 * ORD_EUSAGE saying what was expected.  A game's made= (canon.c). */
int ord_date_parse(int64_t *out, const char *text);

/* Read a whole regular file (max_len bytes at most).  Errors: ORD_ENOFILE
 * (missing), ORD_EBADDATA (a directory, too large). *out is NUL-terminated. */
int ord_read_file(char **out, size_t *len, const char *path, size_t max_len);

/* The first of n positions whose key(ud, i), ascending, is not below
 * want (n when none is): the halving search of the log's entries, a
 * phase's events and the entries a player's heads sign. */
size_t ord_lower_bound(size_t n, int64_t want, int64_t (*key)(const void *ud, size_t i),
		       const void *ud);
/* Hex encode (out has 2*len+1 bytes) and decode (returns bytes or -1). */
void ord_hex(char *out, const unsigned char *p, size_t len);
/* v in decimal as "%ld" writes it, into out (at least 21 bytes);
 * returns its length.  Every state and result holds numbers: no printf. */
size_t ord_fmt_long(char *out, long v);
int ord_unhex(unsigned char *out, size_t max, const char *hex);
/* A hash of the len bytes at s, eight at a time, for a table to find a
 * text it holds by (kv.c's texts, the audit's opening states): not a
 * digest, and no defence against texts made to collide. */
uint64_t ord_hash64(const void *s, size_t len);

/* Mark kv, packed as ord_kv_parse makes a list, as held: ord_kv_held is
 * then 1 until the list is changed through any kv function (a key set to
 * another value or deleted unpacks it; released, parsed or copied anew it
 * is another list, unmarked).  What a context uses to pass by, without
 * serialising it, a unit's state that no phase touched (kv.c). */
void ord_kv_hold(struct ord_kv *kv);
int ord_kv_held(const struct ord_kv *kv);
/* kv made packed again from what it holds now, and held, when its text
 * reads back as the same list (serialised, in buf, is ord_kv_serialize's
 * of it); else left as it is.  A pointer to one of its strings is then
 * stale. */
void ord_kv_repack(struct ord_kv *kv, const struct ord_buf *serialised);

/*
 * A pool of shared lists: units of one kind have the same attributes, and
 * most units the same state, so a context or a scenario of 100,000 units
 * holds each different list once (kv.c).  A list the pool shares is packed
 * and held; its first change (ord_kv_set, ord_kv_del) gives it an item
 * array of its own as any packed list, its strings staying valid, and its
 * release gives the block back.  Every list a pool shares is released
 * before the pool; a pool is one thread's.
 */
struct ord_kv_shared;
struct ord_kv_pool_text;
struct ord_kv_pool {
	struct ord_kv_shared **slots; /* open addressing by the lists' hash */
	size_t cap, n;                /* slots (a power of two), blocks in them */
	/* the texts of lists parsed, each with the block it made, so that the
	 * same text again is found without a parse (kv.c pool_find_text):
	 * a few hundred short ones at most, forgotten when blocks are freed */
	struct ord_kv_pool_text *texts; /* TEXT_SLOTS slots, NULL until the first */
	size_t ntexts;                  /* slots in use */
	unsigned gen;                   /* counts the times blocks may have been freed */
};
void ord_kv_pool_init(struct ord_kv_pool *pool);
void ord_kv_pool_release(struct ord_kv_pool *pool);
/* ord_kv_parse of text into kv, empty, as a list the pool shares (into a
 * list that is not empty: ord_kv_parse). */
int ord_kv_pool_parse(struct ord_kv_pool *pool, struct ord_kv *kv, const char *text);
/* ord_kv_repack, the list shared by the pool. */
void ord_kv_pool_repack(struct ord_kv_pool *pool, struct ord_kv *kv, const struct ord_buf *serialised);
/* Free the blocks no list holds any more (a phase's states changed). */
void ord_kv_pool_sweep(struct ord_kv_pool *pool);
/* The 16 bytes a list the pool shares (kv as ord_kv_pool_parse or
 * ord_kv_pool_repack left it, unchanged since) keeps for its user to note
 * what is made of its items alone, once for every list that shares them:
 * *memo points at them.  1: noted before; 0: not yet, and counted as noted
 * from now (the caller writes them now); -1: kv is no list a pool shares
 * (*memo NULL).  One pool's lists are noted one way: a context's states, by
 * the digest of their serialised text (ctx.c state_hash). */
int ord_kv_shared_memo(const struct ord_kv *kv, unsigned char **memo);
/* The block of a list the pool shares, kv unchanged since (as for
 * ord_kv_shared_memo), or NULL: its items stay as they are as long as
 * pool's gen does not change (a block no list holds is freed only by a
 * rehash, a sweep or the pool's release, each of which counts in gen), so
 * a value found in them may be noted by the block's address and gen. */
const void *ord_kv_shared_block(const struct ord_kv *kv);
/* kv, empty, made to hold the list like holds, which a pool shares (like
 * unchanged since, as for ord_kv_shared_memo): one list more holds its
 * block, as if kv had been parsed from like's text into the pool. */
void ord_kv_share(struct ord_kv *kv, const struct ord_kv *like);

/*
 * An arena of strings freed together: a record's rows (record.c), the
 * results of a phase (ctx.c).  Hundreds of thousands of short strings,
 * one malloc each, cost as much again in malloc's headers and rounding;
 * here they are copied one after the other into blocks of up to 64 KiB
 * (a string too long for a block gets one of its own).  A string lives
 * until ord_arena_release, which leaves the arena empty and usable.
 */
struct ord_arena_block;
struct ord_arena {
	struct ord_arena_block *head; /* the block being filled, then the others */
	size_t next;                  /* the size of the next block (they grow to 64 KiB) */
};
#define ORD_ARENA_INIT  \
	{               \
		NULL, 0 \
	}
void ord_arena_init(struct ord_arena *a);
void ord_arena_release(struct ord_arena *a);
/* A copy of the len bytes at s and a NUL, in a. */
char *ord_arena_strn(struct ord_arena *a, const char *s, size_t len);
/* ord_arena_strn of a string; NULL for NULL. */
char *ord_arena_str(struct ord_arena *a, const char *s);
/* n bytes (at least 1) in a, not set: what ord_arena_strn takes for a
 * string of n - 1 bytes (several strings in one, a unit's). */
char *ord_arena_alloc(struct ord_arena *a, size_t n);

/* The len bytes of the file open at fd, from its start, handed to fn in
 * pieces of at most 64 KiB (off: where the piece begins); a read
 * interrupted is tried again.  A file that cannot be read, or ends before
 * len, is an error "what: cannot read its file: ..."; fn's error stops
 * the reading and is returned. */
int ord_fd_pieces(int fd, size_t len, const char *what,
		  int (*fn)(void *ud, const char *piece, size_t n, size_t off), void *ud);
/* The len bytes at buf written to fd whole (at offset off when off is
 * not ORD_FD_APPEND, else where the file stands), a write interrupted
 * tried again: 0, or -1 with errno (ENOSPC for a write that took none). */
#define ORD_FD_APPEND ((size_t)-1)
int ord_fd_write(int fd, const void *buf, size_t len, size_t off);
/* Up to len bytes of fd from offset off into buf, a read interrupted
 * tried again, *got how many (fewer at the file's end): 0, or -1 with
 * errno. */
int ord_fd_pread(int fd, void *buf, size_t len, size_t off, size_t *got);

/*
 * What the last error is besides its code and its words, for the
 * library's own callers to read instead of its message (ORD_ERRMARK_*,
 * or-ed).  Each ord_error_set or clear takes them back: a caller that
 * sets the error again from the message ("%s", ord_error_last()) marks it
 * again with what it read first.
 */
/* xmlsafe refused what orderly refuses in any XML (too large, not UTF-8,
 * a DOCTYPE, an entity, XInclude, a tag of more than ORD_XML_MAX_ATTRS
 * attributes, markup longer than ORD_XML_MAX_MARKUP, elements nested
 * deeper than ORD_XML_MAX_DEPTH) before the document's own form was read */
#define ORD_ERRMARK_ANY_XML 1u
/* Add marks to the last error. */
void ord_error_mark(unsigned marks);
/* The last error's marks (0: none). */
unsigned ord_error_marks(void);

/* strerror(e) with a lowercase first letter, as every message of orderly is
 * (a thread-local buffer, valid until the next call in this thread). */
const char *ord_strerror(int e);

#endif
