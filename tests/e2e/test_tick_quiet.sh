#!/usr/bin/env bash
# test_tick_quiet.sh - what a quiet `orderly tick` (no --verbose, as cron
# runs it) prints: only what the judge says is notable (mail_tick_game:
# a seal at the deadline, done or refused, or a mail sendmail did not
# take), whatever words the game's name holds.  A game named "sealed or
# failed" sends its mails in silence, and its seal at the deadline (its
# grace past) is said.  No MTA: sendmail is a command that takes the mail.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$TMP"
GAMES=$TMP/games
mkdir -p "$GAMES"
G="$GAMES/sealed or failed.orderly"
ord new "$G" --scenario "$SRC/tests/mail/data/scenario.xml" --fixed-dice >/dev/null 2>&1
printf 'blue shako and sabre\n' | ord register "$G" --side blue --passphrase-file - >/dev/null
expect_exit 0 ord deadline "$G" 2030-12-10T18:00Z
tick_at() {
	ORDERLY_TEST_NOW=$(date -d "$1" +%s) run ord tick "$GAMES" --sendmail "cat >/dev/null"
	[[ "$RC" == 0 ]] || fail "tick at $1 exited $RC"
}

# the turn's mails sent, before the deadline and in its grace: nothing to
# say (the name's "sealed" and "failed" are no seal and no failure)
for at in 2030-12-09T12:00Z 2030-12-10T18:00:01Z; do
	tick_at "$at"
	expect_eq "$OUT" "" "a quiet tick's output at $at"
	expect_eq "$ERR" "" "a quiet tick's errors at $at"
done
# past the grace: the seal is said, the game by its name
tick_at 2030-12-10T19:00:01Z
expect_line "$OUT" '^sealed or failed: turn 1 sealed at its deadline$'
