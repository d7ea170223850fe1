/* record.c - a turn's record: its life cycle and lookups (record.h). */
#include <stdlib.h>
#include <string.h>

#include "core/record.h"

void ord_record_init(struct ord_record *r)
{
	memset(r, 0, sizeof(*r));
}

void ord_record_fit(struct ord_record *r)
{
	ORD_REC_FIT(r->units);
	ORD_REC_FIT(r->entries);
	ORD_REC_FIT(r->commits);
	ORD_REC_FIT(r->sheets);
	ORD_REC_FIT(r->events);
	ORD_REC_FIT(r->rolls);
	ORD_REC_FIT(r->results);
	ORD_REC_FIT(r->states);
	ORD_REC_FIT(r->heads);
	ORD_REC_FIT(r->links);
	ORD_REC_FIT(r->previous);
}

void ord_record_release(struct ord_record *r)
{
	size_t i;

	free(r->title);
	free(r->scenario);
	free(r->tables);
	for (i = 0; i < r->units.n; i++) {
		free(r->units.v[i].id);
		free(r->units.v[i].state);
	}
	free(r->units.v);
	for (i = 0; i < r->entries.n; i++) {
		free(r->entries.v[i].kind);
		free(r->entries.v[i].body);
	}
	free(r->entries.v);
	for (i = 0; i < r->commits.n; i++)
		free(r->commits.v[i].side);
	free(r->commits.v);
	for (i = 0; i < r->sheets.n; i++) {
		free(r->sheets.v[i].side);
		free(r->sheets.v[i].source);
		free(r->sheets.v[i].bytes);
	}
	free(r->sheets.v);
	for (i = 0; i < r->events.n; i++) {
		free(r->events.v[i].phase);
		free(r->events.v[i].kind);
		free(r->events.v[i].args);
		free(r->events.v[i].override);
		free(r->events.v[i].checks);
		free(r->events.v[i].void_reason);
	}
	free(r->events.v);
	for (i = 0; i < r->rolls.n; i++) {
		free(r->rolls.v[i].phase);
		free(r->rolls.v[i].purpose);
	}
	free(r->rolls.v);
	for (i = 0; i < r->results.n; i++) {
		free(r->results.v[i].phase);
		free(r->results.v[i].unit);
		free(r->results.v[i].values);
		free(r->results.v[i].explanation);
		ord_kv_release(&r->results.v[i].texts);
	}
	free(r->results.v);
	for (i = 0; i < r->states.n; i++) {
		free(r->states.v[i].unit);
		free(r->states.v[i].attrs);
		free(r->states.v[i].value);
	}
	free(r->states.v);
	free(r->heads.v);
	for (i = 0; i < r->links.n; i++)
		free(r->links.v[i].side);
	free(r->links.v);
	for (i = 0; i < r->previous.n; i++) {
		free(r->previous.v[i].side);
		free(r->previous.v[i].bytes);
	}
	free(r->previous.v);
	ord_record_init(r);
}

struct ord_rec_entry *ord_record_entry(const struct ord_record *r, int64_t seq)
{
	size_t lo = 0, hi = r->entries.n;

	/* entries are read in seq order: a binary search, then a scan if a
	 * damaged record broke the order */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->entries.v[mid].seq < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->entries.n && r->entries.v[lo].seq == seq)
		return &r->entries.v[lo];
	for (lo = 0; lo < r->entries.n; lo++)
		if (r->entries.v[lo].seq == seq)
			return &r->entries.v[lo];
	return NULL;
}
