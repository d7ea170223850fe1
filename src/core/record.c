/* record.c - a turn's record: its life cycle and lookups (record.h). */
#include <stdlib.h>
#include <string.h>
#include <sodium.h>

#include "core/canon.h"
#include "core/record.h"

void ord_record_init(struct ord_record *r)
{
	memset(r, 0, sizeof(*r));
	ord_arena_init(&r->strings);
}

char *ord_record_strn(struct ord_record *r, const char *s, size_t len)
{
	return ord_arena_strn(&r->strings, s, len);
}

char *ord_record_intern(struct ord_record *r, const char *s)
{
	size_t i;
	char *p;

	for (i = 0; i < r->ninterned; i++)
		if (r->interned[i][0] == s[0] && !strcmp(r->interned[i], s))
			return r->interned[i];
	p = ord_record_str(r, s);
	if (r->ninterned < ORD_REC_INTERNED)
		r->interned[r->ninterned++] = p;
	return p;
}

char *ord_record_str(struct ord_record *r, const char *s)
{
	return s ? ord_record_strn(r, s, strlen(s)) : NULL;
}

char *ord_record_take(struct ord_record *r, char *s)
{
	char *p = ord_record_str(r, s);

	free(s);
	return p;
}

struct seq_at {
	int64_t seq;
	size_t at;
};

/* By seq, then by position: the first of several with one seq first. */
static int seq_at_cmp(const void *a, const void *b)
{
	const struct seq_at *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq ? 1 : x->at < y->at ? -1 : x->at > y->at;
}

/* entry_order, when the entries are not in strictly increasing seq */
static void order_entries(struct ord_record *r)
{
	struct seq_at *v;
	size_t i, n = r->entries.n;

	free(r->entry_order);
	r->entry_order = NULL;
	r->nentry_order = 0;
	for (i = 1; i < n; i++)
		if (r->entries.v[i].seq <= r->entries.v[i - 1].seq)
			break;
	if (i >= n)
		return;
	v = ord_xmalloc(n * sizeof(*v));
	for (i = 0; i < n; i++) {
		v[i].seq = r->entries.v[i].seq;
		v[i].at = i;
	}
	qsort(v, n, sizeof(*v), seq_at_cmp);
	r->entry_order = ord_xmalloc(n * sizeof(*r->entry_order));
	for (i = 0; i < n; i++)
		r->entry_order[i] = v[i].at;
	r->nentry_order = n;
	free(v);
}

static int64_t event_log(const void *ud, size_t i)
{
	const struct ord_record *r = ud;

	return r->events.v[i].log;
}

void ord_record_by_log(struct ord_rec_by_log *idx, const struct ord_record *r)
{
	struct seq_at *v;
	size_t i, sorted = 1;

	idx->n = r->events.n;
	idx->v = ord_xmalloc((idx->n + 1) * sizeof(*idx->v));
	for (i = 0; i < idx->n; i++) {
		idx->v[i] = i;
		if (i && event_log(r, i) < event_log(r, i - 1))
			sorted = 0;
	}
	if (sorted)
		return;
	v = ord_xmalloc(idx->n * sizeof(*v));
	for (i = 0; i < idx->n; i++) {
		v[i].seq = event_log(r, i);
		v[i].at = i;
	}
	qsort(v, idx->n, sizeof(*v), seq_at_cmp);
	for (i = 0; i < idx->n; i++)
		idx->v[i] = v[i].at;
	free(v);
}

void ord_record_by_log_release(struct ord_rec_by_log *idx)
{
	free(idx->v);
	idx->v = NULL;
	idx->n = 0;
}

struct by_log_key {
	const struct ord_record *r;
	const struct ord_rec_by_log *idx;
};

static int64_t by_log_key(const void *ud, size_t k)
{
	const struct by_log_key *b = ud;

	return b->r->events.v[b->idx->v[k]].log;
}

static void canon_of(const struct ord_rec_event *ev, struct ord_buf *out)
{
	ord_buf_reset(out);
	ord_canon_event(out, ev->seq, ev->phase, ev->kind, ev->args ? ev->args : "", ev->override,
			ev->checks);
}

void ord_record_set_body(struct ord_record *r, struct ord_rec_entry *x, const char *body,
			 const struct ord_rec_by_log *idx, struct ord_buf *scratch)
{
	struct by_log_key key = { r, idx };
	size_t k;

	x->event = 0;
	if (idx && idx->n && !strcmp(x->kind, "event") &&
	    (k = ord_lower_bound(idx->n, x->seq, by_log_key, &key)) < idx->n &&
	    r->events.v[idx->v[k]].log == x->seq) {
		canon_of(&r->events.v[idx->v[k]], scratch);
		if (!strcmp(scratch->buf, body)) {
			x->body = NULL;
			x->event = (unsigned)idx->v[k] + 1;
			return;
		}
	}
	x->body = ord_record_str(r, body);
}

const char *ord_record_body(const struct ord_record *r, const struct ord_rec_entry *e,
			    struct ord_buf *scratch)
{
	if (e->body)
		return e->body;
	canon_of(&r->events.v[e->event - 1], scratch);
	return scratch->buf;
}

void ord_record_fit(struct ord_record *r)
{
	ORD_REC_FIT(r->units);
	ORD_REC_FIT(r->entries);
	order_entries(r);
	ORD_REC_FIT(r->commits);
	ORD_REC_FIT(r->sheets);
	ORD_REC_FIT(r->events);
	ORD_REC_FIT(r->rolls);
	ORD_REC_FIT(r->results);
	ORD_REC_FIT(r->states);
	ORD_REC_FIT(r->heads);
	ORD_REC_FIT(r->links);
	ORD_REC_FIT(r->previous);
	ORD_REC_FIT(r->groups);
}

void ord_record_release(struct ord_record *r)
{
	size_t i;

	free(r->title);
	free(r->scenario);
	free(r->tables);
	free(r->units.v);
	free(r->entries.v);
	free(r->entry_order);
	free(r->commits.v);
	for (i = 0; i < r->sheets.n; i++)
		free(r->sheets.v[i].bytes);
	free(r->sheets.v);
	free(r->events.v);
	free(r->rolls.v);
	for (i = 0; i < r->results.n; i++)
		ord_kv_release(&r->results.v[i].texts);
	free(r->results.v);
	free(r->states.v);
	free(r->heads.v);
	free(r->links.v);
	for (i = 0; i < r->previous.n; i++)
		free(r->previous.v[i].bytes);
	free(r->previous.v);
	free(r->groups.v);
	ord_arena_release(&r->strings);
	ord_record_init(r);
}

/* The seq of the k-th entry in seq order: the entries read in it, or
 * their order when a damaged record broke it (ord_record_fit). */
static int64_t entry_seq(const void *ud, size_t k)
{
	const struct ord_record *r = ud;

	return r->entries.v[r->entry_order ? r->entry_order[k] : k].seq;
}

struct ord_rec_entry *ord_record_entry(const struct ord_record *r, int64_t seq)
{
	size_t n = r->entry_order ? r->nentry_order : r->entries.n, at;

	at = ord_lower_bound(n, seq, entry_seq, r);
	if (at == n)
		return NULL;
	at = r->entry_order ? r->entry_order[at] : at;
	return at < r->entries.n && r->entries.v[at].seq == seq ? &r->entries.v[at] : NULL;
}

int ord_record_chunk_env(size_t *out)
{
	const char *s = getenv("ORDERLY_ROWS_CHUNK");
	long n;

	*out = 1024;
	if (!s)
		return 0;
	if (ord_parse_long(s, &n) || n < 1 || n > 1L << 20)
		return ord_error_set(ORD_EUSAGE,
				     "ORDERLY_ROWS_CHUNK is '%.40s': expected a number from 1 to 1048576 (or leave it unset: 1024)",
				     s);
	*out = (size_t)n;
	return 0;
}

size_t ord_record_chunk(void)
{
	size_t n;

	(void)ord_record_chunk_env(&n);
	return n;
}

int ord_record_rows_held(const struct ord_record *r, int64_t seq, const struct ord_rows_sink *sink)
{
	size_t k;
	int err = 0;

	for (k = 0; sink->roll && !err && k < r->rolls.n; k++)
		if (r->rolls.v[k].log == seq)
			err = sink->roll(sink->ud, &r->rolls.v[k]);
	for (k = 0; sink->result && !err && k < r->results.n; k++)
		if (r->results.v[k].log == seq)
			err = sink->result(sink->ud, &r->results.v[k]);
	for (k = 0; sink->state && !err && k < r->states.n; k++)
		if (r->states.v[k].log == seq)
			err = sink->state(sink->ud, &r->states.v[k]);
	return err;
}

int ord_record_rows_each(const struct ord_record *r, int64_t seq, const struct ord_rows_sink *sink)
{
	if (r->rows_each)
		return r->rows_each(r->rows_ud, seq, sink);
	return ord_record_rows_held(r, seq, sink);
}

size_t ord_record_nrolls(const struct ord_record *r)
{
	size_t i, n = r->rolls.n;

	for (i = 0; i < r->groups.n; i++)
		if (r->groups.v[i].table == ORD_REC_GROUP_ROLLS)
			n += r->groups.v[i].n;
	return n;
}

int ord_record_units(const struct ord_record *r,
		     int (*fn)(void *ud, const char *id, const char *state), void *ud)
{
	size_t i;
	int err;

	if (r->units_load)
		return r->units_load(r->rows_ud, r->turn, fn, ud);
	for (i = 0; i < r->units.n; i++)
		if ((err = fn(ud, r->units.v[i].id, r->units.v[i].state)) != 0)
			return err;
	return 0;
}

void ord_record_scenario_hash(const struct ord_record *r, unsigned char out[32])
{
	if (r->scenario_hashed && !r->scenario)
		memcpy(out, r->scenario_hash, 32);
	else
		crypto_generichash(out, 32, (const unsigned char *)(r->scenario ? r->scenario : ""),
				   r->scenario_len, NULL, 0);
}

int ord_record_scenario(const struct ord_record *r, const char **bytes, size_t *len, char **copy)
{
	int err;

	*copy = NULL;
	if (r->scenario || !r->scenario_load) {
		*bytes = r->scenario ? r->scenario : "";
		*len = r->scenario_len;
		return 0;
	}
	if ((err = r->scenario_load(r->rows_ud, copy, len)) != 0)
		return err;
	*bytes = *copy;
	return 0;
}

size_t ord_record_counted(const struct ord_record *r, int table, int64_t seq)
{
	size_t i, n = 0;

	for (i = 0; i < r->groups.n; i++)
		if (r->groups.v[i].table == table && r->groups.v[i].log == seq)
			n += r->groups.v[i].n;
	return n;
}
