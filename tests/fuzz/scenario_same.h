/*
 * scenario_same.h - is a scenario read as a stream the one read as a tree
 * (core/scenario.h: ord_scenario_load against ord_scenario_load_tree)?
 * The fuzz target and check_scenario hold the stream to the tree with it.
 */
#ifndef ORD_TEST_SCENARIO_SAME_H
#define ORD_TEST_SCENARIO_SAME_H

#include <stdio.h>
#include <string.h>

#include "core/scenario.h"

static int scenario_str_same(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* 0 when a and b are the same in every field, the units' attributes
 * included, and with places set their lines, columns and attributes'
 * places (a logged read keeps none: ord_scenario_load_logged); else 1,
 * with what differs in why. */
static int scenario_differs_in(const struct ord_scenario *a, const struct ord_scenario *b,
			       int places, char *why, size_t n)
{
	size_t i, j;

	if (!scenario_str_same(a->title, b->title) ||
	    !scenario_str_same(a->description, b->description) ||
	    !scenario_str_same(a->ruleset, b->ruleset) || !scenario_str_same(a->nmr, b->nmr) ||
	    a->deadline != b->deadline || a->schedule.every != b->schedule.every ||
	    a->schedule.at != b->schedule.at || strcmp(a->schedule.zone, b->schedule.zone) ||
	    a->schedule.grace != b->schedule.grace || a->schedule.nremind != b->schedule.nremind ||
	    memcmp(a->schedule.remind, b->schedule.remind, sizeof(a->schedule.remind)) ||
	    a->schedule.autoseal != b->schedule.autoseal ||
	    !scenario_str_same(a->mail_address, b->mail_address) ||
	    !scenario_str_same(a->referee_email, b->referee_email) ||
	    a->replies_per_hour != b->replies_per_hour || a->nsides != b->nsides ||
	    a->nunits != b->nunits)
		return snprintf(why, n, "the scenarios differ in a setting or a count"), 1;
	for (i = 0; i < a->nsides; i++) {
		const struct ord_scenario_side *x = &a->sides[i], *y = &b->sides[i];
		if (!scenario_str_same(x->id, y->id) || !scenario_str_same(x->name, y->name) ||
		    !scenario_str_same(x->pubkey, y->pubkey) ||
		    !scenario_str_same(x->email, y->email) || (places && x->line != y->line))
			return snprintf(why, n, "side %zu differs", i + 1), 1;
	}
	for (i = 0; i < a->nunits; i++) {
		const struct ord_scenario_unit *x = &a->units[i], *y = &b->units[i];
		if (!scenario_str_same(x->id, y->id) || !scenario_str_same(x->name, y->name) ||
		    !scenario_str_same(x->side, y->side) || x->attrs.n != y->attrs.n ||
		    (places && (x->line != y->line || x->col != y->col || x->npos != y->npos)))
			return snprintf(why, n, "unit %zu (%s) differs", i + 1, x->id), 1;
		for (j = 0; j < x->attrs.n; j++)
			if (strcmp(x->attrs.items[j].key, y->attrs.items[j].key) ||
			    strcmp(x->attrs.items[j].value, y->attrs.items[j].value))
				return snprintf(why, n, "unit %s's attribute %zu differs", x->id,
						j + 1),
				       1;
		for (j = 0; places && j < x->npos; j++)
			if (strcmp(x->pos[j].attr, y->pos[j].attr) ||
			    x->pos[j].line != y->pos[j].line || x->pos[j].col != y->pos[j].col ||
			    x->pos[j].value_line != y->pos[j].value_line ||
			    x->pos[j].value_col != y->pos[j].value_col)
				return snprintf(why, n, "unit %s's attribute %s is placed otherwise",
						x->id, x->pos[j].attr),
				       1;
	}
	return 0;
}

/* scenario_differs_in with the places. */
static int scenario_differs(const struct ord_scenario *a, const struct ord_scenario *b, char *why,
			    size_t n)
{
	return scenario_differs_in(a, b, 1, why, n);
}

#endif
