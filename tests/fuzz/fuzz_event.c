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

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_event_setup(&battalion);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_event_setup(&battalion);
	return fuzz_events(data, size);
}
