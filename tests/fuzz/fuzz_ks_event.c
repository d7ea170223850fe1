/*
 * fuzz_ks_event.c - the Krigsspil's events (fuzz_event.h) on the example
 * hex map and scenario, with a sheet for each side that gives an order of
 * every kind its events check (tests/fuzz/sheets/ks-*.txt: march with
 * fire, løb, attack, support, defence and counterattack, retreat,
 * formation, wheel, turn, resupply, artillery fire, limbering, readying,
 * ammunition change, prolonge, rest, merge).
 */
#include "fuzz_event.h"

static const struct fuzz_event_game krigsspil = {
	"krigsspil",
	"rulesets/krigsspil/examples/scenario.xml",
	"rulesets/krigsspil/examples/map.xml",
	1,
	{ "danske", "allierede" },
	{ "tests/fuzz/sheets/ks-danske.txt", "tests/fuzz/sheets/ks-allierede.txt" },
};

FUZZ_EVENT_TARGET(krigsspil)
