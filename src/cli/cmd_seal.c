/*
 * cmd_seal.c - `orderly seal GAME [--force] [--key FILE] [--head FILE]`:
 * close the orders of the turn.  Without --force the library seals only
 * when every side has submitted (or committed) or the deadline has passed;
 * --force is the referee sealing early (the host, in a referee-less game,
 * which verify names when it shut a side out).  The game's key signs the head of
 * the log; --head writes that signed head to FILE, to hand to every side
 * (written before the seal commits: a head that cannot be written changes
 * nothing).  --key gives the game's key when the referee keeps it outside
 * the file.  The sides the NMR policy stood in for are named, and why one
 * holds when the policy repeats (no sheet, or the first problem of it).
 * A witnessed game's seal says how to write each side's own head of it
 * (`head --at sealed`), which a side checks before it reveals a link.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli_keys.h"

/* Who forced the seal, as the line said once sealed ends: a host's is
 * the shorter, written in the referee's place. */
#define FORCED_REFEREE " (forced by the referee)"
#define FORCED_HOST " (forced by the host)"
_Static_assert(sizeof(FORCED_HOST) <= sizeof(FORCED_REFEREE), "the host's words fit in place");

struct seal_args {
	int force;
	int witnessed; /* set by the seal: the game's dice are witnessed */
	char *done;    /* the line said once sealed */
	size_t by;     /* where done says who forced it (with force) */
};

static int seal(ord_game *g, void *ud)
{
	struct seal_args *a = ud;
	struct ord_game_status st;
	int err = ord_game_seal(g, a->force);

	if (err)
		return err;
	if (ord_game_status(g, &st) == 0) {
		a->witnessed = st.witnessed;
		/* no referee: the host forced it (shorter, in place) */
		if (st.refereeless && a->force)
			memcpy(a->done + a->by, FORCED_HOST, sizeof(FORCED_HOST));
	}
	ord_error_clear(); /* only a line of advice is lost */
	return 0;
}

int cmd_seal(const struct cli_cmd *cmd, int argc, char **argv)
{
	const char *key = NULL, *head = NULL;
	struct ord_buf done = ORD_BUF_INIT;
	struct seal_args a = { 0, 0, NULL, 0 };
	int rc;
	const struct cli_opt opts[] = {
		{ "force", NULL, &a.force },
		{ "key", &key, NULL },
		{ "head", &head, NULL },
		{ NULL, NULL, NULL },
	};

	if ((rc = cli_options(cmd, &argc, argv, opts)) != CLI_CONTINUE)
		return rc;
	if (argc < 2)
		return cli_usage_error(cmd, "missing GAME");
	if (argc > 2)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[2]);
	ord_buf_addf(&done, "sealed %s", argv[1]);
	a.by = done.len;
	if (a.force)
		ord_buf_adds(&done, FORCED_REFEREE);
	a.done = done.buf;
	rc = cli_signed_change(argv[1], key, head, seal, &a, done.buf);
	ord_buf_release(&done);
	if (rc == CLI_OK && a.witnessed)
		printf("each side's own head of the seal: orderly head %s --at sealed --side SIDE%s -o FILE (hand it to that side before the first close: it shows the sheet sealed for it, and 'witness --link-for --receipt' takes it)\n",
		       argv[1], key ? " --key FILE" : "");
	return rc;
}
