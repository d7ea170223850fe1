/*
 * game_audit.c - `orderly audit`: the whole game file checked.
 *
 * Each turn's record goes through the one verifier (verify.c), the same
 * that checks a player's bundle: chain, cycle, seed, sheets, seal, heads,
 * dice, and the replay of every phase through the ruleset.  What only the
 * game file has is checked here: the chain from the game's creation to
 * the head, the creation and the units it began with, and the live rows
 * that the game's behaviour depends on (the game's settings, its sides and
 * units, each turn's row) against what the log says they are; rows no log
 * entry vouches for; and the signed heads the players kept.
 *
 * A host who rewrites the whole file and recomputes the whole chain leaves
 * it consistent; only a signed head kept by a player shows the rewrite.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/argcheck.h"
#include "core/crypto.h"
#include "core/game.h"
#include "core/scenario.h"
#include "core/verify.h"

/* A log entry a head the player kept signs, as the chain passed it. */
struct entry {
	int64_t seq;
	int found; /* the log has it */
	int turn;
	char *kind;
	unsigned char hash[32];
	int phase;  /* a close: the phase (1-based) it closes */
	char *body; /* a seal: its body, for the sealed heads that sign it */
};

struct audit {
	struct ord_game *g;
	struct ord_vout v;
	/* the log is checked as it is read, and only what the checks after
	 * it ask is kept: a long game's every entry was held to the end (a
	 * hundred thousand units' turn is as many entries, every turn) */
	int64_t nlog, last_seq;
	int create_first, units_second; /* entries 1 and 2 are of these kinds */
	int opened;                     /* "open" entries */
	struct entry *signed_at;        /* the entries the given heads sign, by seq */
	size_t nsigned;
	unsigned char prev[32];
	int64_t expect;
	int gaps; /* runs of entries missing from the log, said as it was read */
	int chain_ok;
	char *create_body, *units_body;
	struct ord_canon_config created; /* the settings logged at creation */
	int have_created;
	struct ord_verify_cache *cache; /* the scenario and tables, read once for every turn */
	size_t overrides;               /* events recorded against the orders, every turn's */
	/* the units' rows as turn 1 began, as check_units read them: turn
	 * 1's record is given them (its opening), where its replay read
	 * every unit's row again (ord_store_openings_each), in the same
	 * read transaction */
	int keep_began;                           /* turn 1 is checked */
	ORD_REC_ARRAY(struct ord_rec_unit) began; /* id and state, in unit order */
	struct ord_arena began_strings;           /* began's ids and states */
	int scenario_hashed; /* g->scenario_hash is of the scenario as this read has it */
	struct began_state *began_states; /* BEGAN_SLOTS, each different state once */
};

/* The units of a kind begin alike: a state kept is found by its hash in
 * these many slots, at most BEGAN_PROBE from its own, and kept once (a
 * state not found there is kept again: a file made to collide costs
 * memory, not time). */
#define BEGAN_SLOTS 4096
#define BEGAN_PROBE 8

struct began_state {
	const char *text; /* in began_strings; NULL: an empty slot */
	size_t len;
	uint64_t hash;
};

static int64_t signed_seq(const void *ud, size_t i)
{
	return ((const struct audit *)ud)->signed_at[i].seq;
}

/* The entry of seq among those the given heads sign, or NULL. */
static struct entry *signed_entry(struct audit *a, int64_t seq)
{
	size_t at = ord_lower_bound(a->nsigned, seq, signed_seq, a);

	return at < a->nsigned && a->signed_at[at].seq == seq ? &a->signed_at[at] : NULL;
}

static int entry_cmp(const void *p, const void *q)
{
	const struct entry *x = p, *y = q;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

static int take_entry(void *ud, const struct ord_rec_entry *e, const unsigned char prev[32])
{
	struct audit *a = ud;
	unsigned char h[32];
	struct entry *x;
	int gap = e->seq != a->expect;

	if (gap) {
		char jump[80];
		if (a->expect == 1)
			snprintf(jump, sizeof(jump), "the log starts at entry %lld", (long long)e->seq);
		else
			snprintf(jump, sizeof(jump), "the log jumps from entry %lld to %lld",
				 (long long)a->expect - 1, (long long)e->seq);
		if (e->seq == a->expect + 1)
			ord_vout_fail(&a->v, "log entry %lld is missing (deleted): %s",
				      (long long)a->expect, jump);
		else
			ord_vout_fail(&a->v, "log entries %lld to %lld are missing (deleted): %s",
				      (long long)a->expect, (long long)e->seq - 1, jump);
		a->gaps++;
	}
	a->expect = e->seq + 1;
	/* after a gap it chains from the entry missing, said above */
	if (!gap && memcmp(prev, a->prev, 32))
		ord_vout_fail(&a->v,
			      "log entry %lld (%s, turn %d): does not chain from the entry before it",
			      (long long)e->seq, e->kind, e->turn);
	ord_log_hash(h, prev, e->seq, e->turn, e->kind, e->body, e->at);
	if (memcmp(h, e->hash, 32))
		ord_vout_fail(&a->v,
			      "log entry %lld (%s, turn %d): its content does not match its hash (edited)",
			      (long long)e->seq, e->kind, e->turn);
	memcpy(a->prev, e->hash, 32);
	a->nlog++;
	a->last_seq = e->seq;
	if (a->nlog == 1)
		a->create_first = !strcmp(e->kind, "create");
	if (a->nlog == 2)
		a->units_second = !strcmp(e->kind, "units");
	a->opened += !strcmp(e->kind, "open");
	if ((x = signed_entry(a, e->seq)) != NULL && !x->found) {
		x->found = 1;
		x->turn = e->turn;
		x->kind = ord_strdup(e->kind);
		memcpy(x->hash, e->hash, 32);
		x->phase = 0;
		if (!strcmp(e->kind, "seal"))
			x->body = ord_strdup(e->body);
		if (!strcmp(e->kind, "close")) {
			char *index = ord_canon_get(e->body, "index");
			long v;
			if (index && !ord_parse_long(index, &v) && v > 0 && v <= ORD_WITNESS_LINKS)
				x->phase = (int)v;
			free(index);
		}
	}
	/* the first of each (a log rebuilt without its key may hold two) */
	if (e->seq == 1 && !a->create_body)
		a->create_body = ord_strdup(e->body);
	if (e->seq == 2 && !a->units_body)
		a->units_body = ord_strdup(e->body);
	return 0;
}

static int check_chain(struct audit *a)
{
	unsigned char hash[32];
	int64_t head;
	int err, bad = a->v.failures;

	memset(a->prev, 0, 32);
	a->expect = 1;
	if ((err = ord_store_log_head(a->g->db, &head, hash)) != 0) {
		if (err != ORD_ETAMPERED)
			return err;
		ord_vout_fail(&a->v, "the log's head is damaged");
		ord_error_clear();
		head = 0;
	}
	if ((err = ord_store_log_each(a->g->db, 1, INT64_MAX, take_entry, a)) != 0)
		return err;
	if (!head)
		ord_vout_fail(&a->v, "the log's head is missing (deleted)");
	else if (!a->nlog)
		ord_vout_fail(&a->v, "the log is empty, but the game's head is entry %lld (deleted)",
			      (long long)head);
	else if (head == a->last_seq + 1)
		ord_vout_fail(&a->v,
			      "the log ends at entry %lld, but the game's head is entry %lld: entry %lld was removed from the end",
			      (long long)a->last_seq, (long long)head, (long long)head);
	else if (head > a->last_seq)
		ord_vout_fail(&a->v,
			      "the log ends at entry %lld, but the game's head is entry %lld: entries %lld to %lld were removed from the end",
			      (long long)a->last_seq, (long long)head, (long long)a->last_seq + 1,
			      (long long)head);
	else if (head < a->last_seq)
		ord_vout_fail(&a->v,
			      "the game's head is entry %lld, but the log goes on to entry %lld: entries were added after the head, or the head was moved back",
			      (long long)head, (long long)a->last_seq);
	else if (head != a->nlog && !a->gaps)
		/* the missing entries were named as the log was read */
		ord_vout_fail(&a->v, "the log holds %lld entries, but its head is entry %lld",
			      (long long)a->nlog, (long long)head);
	else if (head != a->nlog)
		; /* said as the log was read (take_entry) */
	else if (memcmp(hash, a->prev, 32))
		ord_vout_fail(&a->v, "the game's head hash does not match the last log entry");
	if (a->v.failures == bad) {
		ord_vout_ok(&a->v, "log: %lld entries chain from the game's creation to its head",
			    (long long)a->nlog);
		/* every turn's entries are these rows: not hashed again */
		ord_verify_cache_chain_whole(a->cache);
	}
	return 0;
}

/* The creation: the protocol, the game, its config as the live game row has
 * it; the units it began with. */
static int check_create(struct audit *a)
{
	struct ord_canon_config cfg, live;
	char gid[33], *v;
	int bad = a->v.failures;

	if (!a->create_body || !a->nlog || !a->create_first) {
		ord_vout_fail(&a->v, "log entry 1 is not the game's creation");
		return 0;
	}
	v = ord_canon_get(a->create_body, "protocol");
	if (!v || strcmp(v, "2"))
		ord_vout_fail(&a->v, "the game was made with log protocol %s, not 2", v ? v : "1");
	free(v);
	ord_hex(gid, a->g->game_id, 16);
	v = ord_canon_get(a->create_body, "game_id");
	if (!v || strcmp(v, gid))
		ord_vout_fail(&a->v, "the game id does not match the one logged at creation");
	free(v);
	v = ord_canon_get(a->create_body, "title");
	if (!v || strcmp(v, a->g->title))
		ord_vout_fail(&a->v, "the game's title is not the one logged at creation");
	free(v);
	if (ord_canon_config_read(&cfg, a->create_body)) {
		ord_vout_fail(&a->v, "the creation (entry 1): %s", ord_error_last());
		ord_error_clear();
	} else {
		/* every turn's opening is compared with it (check_turn) */
		ord_canon_config_read(&a->created, a->create_body);
		a->have_created = 1;
		const char *diff;
		if (ord_game_config(a->g, &live)) {
			ord_vout_fail(&a->v, "the game's scenario cannot be read: %s",
				      ord_error_last());
			ord_error_clear();
		} else if ((diff = ord_canon_config_diff(&cfg, &live)) != NULL)
			ord_vout_fail(&a->v,
				      "the game file's %s is not the one logged when the game was made",
				      diff);
		ord_canon_config_release(&cfg);
	}
	if (a->v.failures == bad)
		ord_vout_ok(&a->v,
			    "creation: the game id, its ruleset, NMR policy, dice, referee, scenario, tables and key are the ones logged");
	/* every opening is held to it (check_turn): said once */
	if (a->have_created)
		ord_verify_cache_say_made(a->cache, &a->v, &a->created,
					  "in the creation (entry 1) and every opening");
	return 0;
}

struct units_check {
	struct audit *a;
	struct ord_digest d;
};

static void unit_differs(void *ud, const char *what)
{
	ord_vout_fail(&((struct units_check *)ud)->a->v, "%s", what);
}

static int digest_unit_row(void *ud, const struct ord_store_unit *u)
{
	struct units_check *c = ud;
	struct audit *a = c->a;
	struct ord_rec_unit *k;
	struct began_state *slot = NULL;
	uint64_t hash;
	size_t len, i;

	ord_digest_state(&c->d, u->uid, u->attrs, 0, 0, u->state);
	if (!a->keep_began)
		return 0;
	k = ORD_REC_ADD(a->began);
	/* a copy: a turn whose opening names another scenario has the
	 * cache's replaced, its ids freed, before the replay reads these */
	k->id = ord_arena_str(&a->began_strings, u->uid);
	len = strlen(u->state);
	hash = ord_hash64(u->state, len);
	for (i = 0; i < BEGAN_PROBE; i++) {
		slot = &a->began_states[(hash + i) % BEGAN_SLOTS];
		if (!slot->text ||
		    (slot->hash == hash && slot->len == len && !memcmp(slot->text, u->state, len)))
			break;
	}
	if (i < BEGAN_PROBE && slot->text) {
		k->state = (char *)slot->text;
		return 0;
	}
	k->state = ord_arena_strn(&a->began_strings, u->state, len);
	if (i < BEGAN_PROBE) {
		slot->text = k->state;
		slot->len = len;
		slot->hash = hash;
	}
	return 0;
}

/* Sides and units against the scenario (ord_game_rows_scenario, which a
 * seal holds them to as well); the initial states against the "units"
 * entry. */
static int check_units(struct audit *a)
{
	struct ord_store_game sg;
	struct ord_scenario sc;
	struct units_check c;
	struct ord_words_how words;
	unsigned char d[32], want[32];
	char *v;
	int err, bad = a->v.failures;

	ord_scenario_init(&sc);
	if ((err = ord_store_game_read(a->g->db, &sg, 1)) != 0)
		return err;
	/* these bytes' hash, once for the audit: the creation's check made
	 * it of the same row in this read (ord_game_config), and the cache
	 * and every turn's record take it */
	if (!a->g->have_scenario_hash) {
		crypto_generichash(a->g->scenario_hash, 32, (const unsigned char *)sg.scenario,
				   sg.scenario_len, NULL, 0);
		a->g->have_scenario_hash = 1;
	}
	a->scenario_hashed = 1;
	ord_words_how_of(&words, a->g->rs);
	if (ord_scenario_load_checked(&sc, sg.scenario, sg.scenario_len, "the game's scenario",
				      a->g->rs->unit_attrs, &words)) {
		ord_vout_fail(&a->v, "the game's scenario cannot be read: %s", ord_error_last());
		ord_error_clear();
		goto out;
	}
	ord_scenario_drop_positions(&sc);
	memset(&c, 0, sizeof(c));
	c.a = a;
	ord_digest_init(&c.d, ORD_PHASE_TAG);
	if (a->keep_began) {
		a->began.v = ord_xmalloc((sc.nunits ? sc.nunits : 1) * sizeof(*a->began.v));
		a->began.alloc = sc.nunits ? sc.nunits : 1;
		a->began_states = ord_xcalloc(BEGAN_SLOTS, sizeof(*a->began_states));
	}
	/* the states as turn 1 began, for the digest */
	if ((err = ord_game_rows_scenario(a->g, &sc, 1, unit_differs, digest_unit_row, &c)) != 0)
		goto out;
	ord_digest_final(&c.d, d);
	free(a->began_states); /* what is kept is in began */
	a->began_states = NULL;
	v = a->units_body ? ord_canon_get(a->units_body, "digest") : NULL;
	if (!v || strlen(v) != 64 || ord_unhex(want, 32, v) != 32 || memcmp(d, want, 32) ||
	    a->nlog < 2 || !a->units_second)
		ord_vout_fail(&a->v,
			      "the units' states as the game began are not the ones logged (entry 2)");
	free(v);
	if (a->v.failures == bad)
		ord_vout_ok(&a->v,
			    "units: %zu sides and %zu units are the scenario's, and began as logged",
			    sc.nsides, sc.nunits);
	/* read once: every turn's replay takes it from the cache */
	ord_verify_cache_keep_scenario(a->cache, a->g->rs, &sc, a->g->scenario_hash);
	/* its names a player cannot tell apart, once for the game */
	ord_verify_cache_note_names(a->cache, &a->v);
out:
	ord_scenario_release(&sc);
	ord_store_game_release(&sg);
	return err;
}

/* One turn: its record through the verifier, then its row against it. */
static int check_turn(struct audit *a, const struct ord_store_turn *t, int last)
{
	struct ord_record r;
	struct ord_verify_facts f;
	struct ord_vout v = { a->v.out, "    ", "BROKEN", 0, NULL };
	enum ord_turn_state want;
	int err;

	ord_buf_addf(a->v.out, "  turn %d:\n", t->turn);
	/* its rolls, results and states are read a phase at a time, as
	 * the replay comes to them */
	if ((err = a->scenario_hashed
			   ? ord_store_record_load_hashed(a->g->db, t->turn, a->g->scenario_hash, &r)
			   : ord_store_record_load_parts(a->g->db, t->turn, ORD_REC_AUDIT, &r)) != 0)
		return err;
	if (t->turn == 1 && a->began.n && r.units_load) {
		/* the opening's rows are those check_units read (the same
		 * query's rows, ord_store_openings_each): given, not read */
		r.units_load = NULL;
		r.units.v = a->began.v;
		r.units.n = r.units.alloc = a->began.n;
		memset(&a->began, 0, sizeof(a->began));
	}
	/* the heads a player kept are checked against the whole log below */
	err = ord_verify_record_cached(&r, NULL, &v, &f, a->cache);
	ord_record_release(&r);
	if (err) {
		ord_verify_facts_release(&f);
		return err;
	}
	/* a game keeps the settings it was made with: a turn opened with
	 * others (a policy, the dice, the tables changed for a turn or two
	 * and put back) is as bad as a live row that differs */
	if (f.have_config) {
		struct ord_canon_config live;
		const char *diff;
		if (a->have_created && (diff = ord_canon_config_diff(&a->created, &f.config)) != NULL)
			ord_vout_fail(&v, "turn %d's opening differs in its %s from the game's creation (entry 1)",
				      t->turn, diff);
		if (ord_game_config(a->g, &live) == 0 && last &&
		    (diff = ord_canon_config_diff(&f.config, &live)) != NULL)
			ord_vout_fail(&v, "the game file's %s is not the one turn %d was opened with",
				      diff, t->turn);
	}
	if (memcmp(t->seed_commitment, f.seed_commitment, 32))
		ord_vout_fail(&v, "the turn's row has another seed commitment than its opening logs");
	/* the deadline every front end obeys is the row's */
	{
		int64_t logged;
		if ((err = ord_game_logged_deadline(a->g, t->turn, &logged)) == ORD_ETAMPERED) {
			ord_vout_fail(&v, "%s", ord_error_last());
			ord_error_clear();
		} else if (err) {
			ord_verify_facts_release(&f);
			return err;
		} else if (logged != t->deadline) {
			ord_vout_fail(&v, "the turn's row has the deadline %lld, but its log's last deadline is %lld: the row was changed outside orderly",
				      (long long)t->deadline, (long long)logged);
		}
	}
	want = f.exchanged                                              ? ORD_TURN_EXCHANGED
	       : f.phases && (size_t)f.phases == ord_game_nphases(a->g) ? ORD_TURN_RESOLVED
	       : f.sealed                                               ? ORD_TURN_SEALED
									: ORD_TURN_OPEN;
	if (t->state != want || t->phase != f.phases)
		ord_vout_fail(&v, "the turn's row says %s with %d phase%s resolved, but the log shows it %s with %d: the row was changed outside orderly",
			      ord_turn_state_name(t->state), t->phase, t->phase == 1 ? "" : "s",
			      ord_turn_state_name(want), f.phases);
	if (f.have_dice_key && (!t->have_dice_key || memcmp(t->dice_key, f.dice_key, 32)))
		ord_vout_fail(&v,
			      "the dice key in the turn's row is not the one derived from its seed and the sealed sheets");
	a->v.failures += v.failures;
	a->overrides += f.overrides;
	ord_verify_facts_release(&f);
	if (t->turn == 1)
		ord_arena_release(&a->began_strings);
	return 0;
}

struct turns {
	struct audit *a;
	int only;
	int last;
	int seen;
};

static int each_turn(void *ud, const struct ord_store_turn *t)
{
	struct turns *x = ud;

	x->seen++;
	if (x->only && t->turn != x->only)
		return 0;
	return check_turn(x->a, t, t->turn == x->last);
}

static void orphan(void *ud, const char *table, int n)
{
	struct audit *a = ud;

	if (!strcmp(table, "head"))
		ord_vout_fail(&a->v,
			      "%d signed head%s of the game file sign%s no entry of its log as it is",
			      n, n == 1 ? "" : "s", n == 1 ? "s" : "");
	else
		ord_vout_fail(&a->v, "%d %s row%s belong%s to no log entry (%s)", n, table,
			      n == 1 ? "" : "s", n == 1 ? "s" : "",
			      a->gaps ? "inserted, or its entry is one of those missing from the log"
				      : "inserted");
}

static const char *hex_of(char out[65], const unsigned char p[32])
{
	ord_hex(out, p, 32);
	return out;
}

/* The heads a player kept, against the whole log. */
static void check_given_heads(struct audit *a, const struct ord_head *heads, size_t n)
{
	struct ord_buf what = ORD_BUF_INIT;
	char hex[65];
	size_t i;

	for (i = 0; i < n; i++) {
		const struct ord_head *h = &heads[i];
		const struct entry *e = h->seq ? signed_entry(a, h->seq) : NULL;

		ord_buf_reset(&what);
		if (h->unnumbered && !h->seq)
			ord_buf_addf(&what, "the head you kept of turn %d's %s (hash %.16s...)",
				     h->turn, h->at, hex_of(hex, h->hash));
		else
			ord_buf_addf(&what, "the head you kept of turn %d's %s (entry %lld)",
				     h->turn, h->at, (long long)h->seq);
		if (memcmp(h->game_id, a->g->game_id, 16)) {
			ord_vout_fail(&a->v, "%s: it is a head of another game", what.buf);
		} else if (memcmp(h->key, a->g->pk, 32)) {
			ord_hex(hex, h->key, 32);
			ord_vout_fail(&a->v,
				      "%s: signed by key %s, which is not the game's (the game's key was replaced)",
				      what.buf, hex);
		} else if (ord_head_check(h)) {
			ord_vout_fail(&a->v, "%s: its signature does not hold", what.buf);
		} else if (h->unnumbered && !h->seq) {
			/* looked for among the entries of the kind it signs
			 * (a link head's entry is a 'witness' one): one of
			 * another kind with the hash is no better */
			ord_vout_fail(&a->v,
				      "%s: no '%s' entry of the log has the hash it signs: the history up to it was rewritten, or it signs an entry no head of the %s signs%s",
				      what.buf, !strcmp(h->at, "link") ? "witness" : h->at, h->at,
				      !strcmp(h->at, "close")
					      ? " (its phase's events recorded again after the links were revealed: attack 14)"
					      : "");
		} else if (!e || !e->found) {
			ord_vout_fail(&a->v,
				      "%s: log entry %lld it signed is gone (the log was cut back)",
				      what.buf, (long long)h->seq);
		} else if (memcmp(e->hash, h->hash, 32)) {
			ord_vout_fail(&a->v,
				      "%s: log entry %lld no longer has the hash that was signed: the history up to it was rewritten",
				      what.buf, (long long)h->seq);
		} else if (!ord_head_signs_kind(h->at, e->kind)) {
			ord_vout_fail(&a->v,
				      "%s: entry %lld is a '%s' entry, not what a head of the %s signs",
				      what.buf, (long long)h->seq, e->kind, h->at);
		} else if (e->turn != (!strcmp(h->at, "open")       ? 1
				       : !strcmp(h->at, "exchange") ? h->turn + 1
								    : h->turn)) {
			/* a close head dated into a later turn over an earlier
			 * close gives a link of a phase not yet played */
			ord_vout_fail(&a->v, "%s: it says turn %d, but entry %lld is of turn %d%s",
				      what.buf, h->turn, (long long)h->seq, e->turn,
				      !strcmp(h->at, "close")
					      ? ": a link revealed against it was revealed for another turn's phase"
					      : "");
		} else if (!strcmp(h->at, "sealed") &&
			   (!e->body || !ord_canon_seal_takes(e->body, h->commitment))) {
			/* the commitment it states is what a sealed head says */
			ord_vout_fail(&a->v,
				      "%s: the game signed that its seal took the sheet of commitment %.16s..., but the seal took another sheet for every side: a false statement under the game's key",
				      what.buf, hex_of(hex, h->commitment));
		} else if (h->phase > 0 && e->phase != h->phase) {
			/* a link is revealed against the close head of its phase */
			ord_vout_fail(&a->v,
				      "%s: it says it closes phase %d, but entry %lld %s: a link revealed against it was revealed before its phase's events were closed",
				      what.buf, h->phase, (long long)h->seq,
				      e->phase ? "closes another phase" : "closes no phase");
		} else {
			ord_vout_ok(&a->v, "%s: matches; nothing up to it was rewritten", what.buf);
		}
	}
	ord_buf_release(&what);
}

static int audit(ord_game *g, int turn, const struct ord_head *heads, size_t nheads,
		 const char *name, struct ord_buf *out);

int ord_game_audit(ord_game *g, int turn, struct ord_buf *out)
{
	return audit(g, turn, NULL, 0, NULL, out);
}

int ord_game_audit_named(ord_game *g, int turn, const char *name, struct ord_buf *out)
{
	return audit(g, turn, NULL, 0, name, out);
}

int ord_game_audit_heads(ord_game *g, int turn, const struct ord_head *heads, size_t nheads,
			 struct ord_buf *out)
{
	return audit(g, turn, heads, nheads, NULL, out);
}

/* The audit, its first line naming the game by name (NULL: its path). */
static int audit(ord_game *g, int turn, const struct ord_head *heads, size_t nheads,
		 const char *name, struct ord_buf *out)
{
	struct audit a;
	struct turns x;
	struct ord_store_turn cur;
	struct ord_head *given = NULL; /* heads, v3's with the number of their entry */
	int64_t i;
	int err;

	memset(&a, 0, sizeof(a));
	a.g = g;
	a.v.out = out;
	a.v.indent = "  ";
	a.v.fail = "BROKEN";
	if (turn > 0 && (err = ord_game_turn(g, &cur, turn)) != 0)
		return err;
	ord_buf_addf(out, "audit of '%s':\n", name ? name : g->path);
	if ((err = ord_store_cache_for_scan(g->db, 1)) != 0)
		return err;
	if ((err = ord_store_begin_read(g->db)) != 0) {
		ord_store_cache_for_scan(g->db, 0);
		return err;
	}
	/* the scenario's hash made again in this read, of the bytes
	 * check_units reads (ord_game_config makes it when first asked) */
	g->have_scenario_hash = 0;
	a.cache = ord_verify_cache_new();
	/* the entries the player's heads sign, looked for as the log is read;
	 * a head of format v3 names its entry by its hash alone (attack 49's
	 * leftover), found here by the index of kinds */
	if (nheads) {
		size_t k;
		given = ord_xcalloc(nheads, sizeof(*given));
		for (k = 0; k < nheads; k++) {
			given[k] = heads[k];
			if (given[k].unnumbered &&
			    (err = ord_store_log_seq_of(g->db,
							!strcmp(given[k].at, "link") ? "witness"
										     : given[k].at,
							given[k].hash, &given[k].seq)) != 0 &&
			    err != ORD_ENOTFOUND)
				goto out;
		}
		err = 0;
		heads = given;
		a.signed_at = ord_xcalloc(nheads, sizeof(*a.signed_at));
		for (k = 0; k < nheads; k++)
			a.signed_at[k].seq = heads[k].seq;
		qsort(a.signed_at, nheads, sizeof(*a.signed_at), entry_cmp);
		a.nsigned = nheads;
	}
	a.keep_began = turn <= 1;
	if ((err = check_chain(&a)) != 0 || (err = check_create(&a)) != 0 ||
	    (err = check_units(&a)) != 0)
		goto out;
	if ((err = ord_game_turn(g, &cur, 0)) != 0)
		goto out;
	memset(&x, 0, sizeof(x));
	x.a = &a;
	x.only = turn > 0 ? turn : 0;
	x.last = cur.turn;
	if ((err = ord_store_turns_each(g->db, each_turn, &x)) != 0)
		goto out;
	/* a turn the log opened must have its row */
	{
		if (a.opened != x.seen)
			ord_vout_fail(&a.v,
				      "the log opens %d turn%s but the game file has %d turn row%s (rows deleted or added)",
				      a.opened, a.opened == 1 ? "" : "s", x.seen,
				      x.seen == 1 ? "" : "s");
	}
	if ((err = ord_store_orphans(g->db, orphan, &a)) != 0)
		goto out;
	{
		/* what the next phase will start from is the last state recorded */
		int stale;
		if ((err = ord_store_current_stale(g->db, &stale)) != 0)
			goto out;
		if (stale)
			ord_vout_fail(&a.v,
				      "%d unit%s current state (unit_current) %s not the last state recorded for %s",
				      stale, stale == 1 ? "'s" : "s'", stale == 1 ? "is" : "are",
				      stale == 1 ? "it" : "them");
	}
	check_given_heads(&a, heads, nheads);
	if (a.v.failures) {
		ord_buf_addf(out, "%d problem%s found\n", a.v.failures, a.v.failures == 1 ? "" : "s");
	} else {
		/* fixed dice as the creation logs them: no check reaches dice
		 * the referee gave (red-team finding 4) */
		int fixed = a.have_created ? a.created.fixed_dice : g->fixed_dice;

		ord_buf_adds(out,
			     "clean: no sheet, log entry, roll or result has changed since it was written, and every phase is what the rules give");
		if (fixed)
			ord_buf_adds(out,
				     "; but the dice were fixed, not drawn: the referee chose every die (a game made with 'new --fixed-dice')");
		if (a.overrides)
			ord_buf_addf(out,
				     "; %s %zu event%s %s recorded against the orders, by the referee's override (the notes above)",
				     fixed ? "and" : "but", a.overrides,
				     a.overrides == 1 ? "" : "s", a.overrides == 1 ? "was" : "were");
		ord_buf_addch(out, '\n');
	}
out:
	ord_store_end_read(g->db);
	ord_store_cache_for_scan(g->db, 0);
	for (i = 0; i < (int64_t)a.nsigned; i++) {
		free(a.signed_at[i].kind);
		free(a.signed_at[i].body);
	}
	free(a.signed_at);
	free(given);
	free(a.create_body);
	if (a.have_created)
		ord_canon_config_release(&a.created);
	free(a.units_body);
	free(a.began.v);
	free(a.began_states);
	ord_arena_release(&a.began_strings);
	ord_verify_cache_free(a.cache);
	if (err)
		return err;
	return a.v.failures ? ord_error_set(ORD_ETAMPERED, "%d problem%s found", a.v.failures,
					    a.v.failures == 1 ? "" : "s")
			    : 0;
}
