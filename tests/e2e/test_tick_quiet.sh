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
# and a game made before made= (its creation and opening written so, the
# chain made again): tick seals it from the second after the end of the
# grace, the game made since from the second second (threat model, 36)
O="$GAMES/made before.orderly"
need_sqlite3
need_forge
for g in "$G" "$O"; do
	ord new "$g" --scenario "$SRC/tests/mail/data/scenario.xml" --fixed-dice >/dev/null 2>&1
	printf 'blue shako and sabre\n' | ord register "$g" --side blue --passphrase-file - >/dev/null
	expect_exit 0 ord deadline "$g" 2030-12-10T18:00Z
done
unmark "$O"
sql "$O" "UPDATE log SET body = replace(body, 'made=2026-12-07' || char(10), '') WHERE kind IN ('create', 'open')"
[[ "$(sql "$O" "SELECT count(*) FROM log WHERE body LIKE '%made=%'")" == 0 ]] ||
	fail "the log of '$O' still says made= (fix the test)"
"$FORGE" rechain "$O" || fail "ord_forge rechain"
expect_in "$(sql "$G" "SELECT body FROM log WHERE kind = 'create'")" "made=2026-12-07"
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
# two guards keep a game made since open in the grace's next second: its
# clock's wake-up (the deadline's second second, notices.c), before which
# tick does not open a game it has looked at, and tick's own condition of
# the seal.  "sealed or failed" was looked at before, so its wake-up alone
# keeps it; a game no tick has looked at before that second (put in the
# directory then) is opened, and only the seal's condition keeps it
L="$GAMES/looked at late.orderly"
ord new "$L" --scenario "$SRC/tests/mail/data/scenario.xml" --fixed-dice >/dev/null 2>&1
printf 'blue shako and sabre\n' | ord register "$L" --side blue --passphrase-file - >/dev/null
expect_exit 0 ord deadline "$L" 2030-12-10T18:00Z
expect_eq "$(sql "$L" "SELECT seen_seq FROM mail_config")" 0 "what tick has seen of the late game"
# past the grace: the seal is said, the game by its name; in the grace's
# next second only the game made before is sealed, and info tells the one
# made since when its seal stands in
tick_at 2030-12-10T19:00:01Z
expect_line "$OUT" '^made before: turn 1 sealed at its deadline$'
expect_not_in "$OUT" "sealed or failed"
expect_not_in "$OUT" "looked at late"
expect_eq "$(sql "$L" "SELECT count(*) FROM log WHERE kind = 'seal'")" 0 "seals of the game looked at late"
[[ "$(sql "$L" "SELECT seen_seq FROM mail_config")" != 0 ]] || fail "tick did not look at the late game"
# ... and leaves it due the second after, when it seals it
expect_eq "$(sql "$L" "SELECT next_due FROM mail_config")" "$(date -d 2030-12-10T19:00:02Z +%s)" "the late game's wake-up"
ORDERLY_TEST_NOW=$(date -d 2030-12-10T19:00:01Z +%s) run ord info "$G"
expect_in "$OUT" "next:      seal: the deadline has passed; from the next second the NMR policy 'hold' stands in for"
expect_eq "$(sql "$G" "SELECT count(*) FROM log WHERE kind = 'seal'")" 0 "seals of the game made since"
tick_at 2030-12-10T19:00:02Z
expect_line "$OUT" '^sealed or failed: turn 1 sealed at its deadline$'
expect_line "$OUT" '^looked at late: turn 1 sealed at its deadline$'
expect_exit 0 ord audit "$G"
expect_exit 0 ord audit "$O"
expect_exit 0 ord audit "$L"
