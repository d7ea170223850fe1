/*
 * fuzz_event.c - the battalion rules' events (fuzz_event.h) on the example
 * scenario of Quatre Bras with the demo's turn-2 sheets.
 */
#include "fuzz_event.h"

static const struct fuzz_event_game battalion = {
	"battalion",
	"rulesets/battalion/examples/scenario.xml",
	NULL,
	2,
	{ "french", "allied" },
	{ "rulesets/battalion/examples/demo/turn2-french.txt",
	  "rulesets/battalion/examples/demo/turn2-allied.txt" },
};

FUZZ_EVENT_TARGET(battalion)
