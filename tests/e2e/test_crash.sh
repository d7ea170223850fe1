#!/usr/bin/env bash
# test_crash.sh - crash consistency: SIGKILL orderly inside the transactions
# of submit, seal, event, resolve (and exchange), again and again, and after
# every kill check that the game file is whole:
#   - PRAGMA integrity_check says ok, PRAGMA foreign_key_check says nothing;
#   - `orderly audit` is clean (exit 0): the hash chain, every commitment,
#     every roll;
#   - every receipt orderly printed before the kill names a stored sheet;
#   - the interrupted command, run again, succeeds (nothing half-written is
#     in its way).
#
# The kill lands inside the transaction through the test-only pause points
# of src/store/store.c: with ORDERLY_TEST_PAUSE_IN_TX=FILE and
# ORDERLY_TEST_PAUSE_AT=N, orderly writes "PID POINT N" to FILE at its N-th
# point ("begin" after BEGIN IMMEDIATE, "write" at each row, "commit" before
# COMMIT) and waits there; this script then sends SIGKILL.  A command that
# ends before its N-th point just completed.
#
# Environment: ORDERLY (the binary), SRC (the source tree), CRASH_KILLS
# (kills to make, default 20: CTest), CRASH_SEED (for $RANDOM; printed so a
# failure can be replayed).  scripts/crash-loop runs it with 200 kills, and
# with --planted-fault against a build whose transactions do nothing
# (-DORD_STORE_TEST_NO_TX), where it must fail.
set -euo pipefail

SRC=${SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
ORDERLY=${ORDERLY:-$SRC/build/orderly}
KILLS=${CRASH_KILLS:-20}
SEED=${CRASH_SEED:-$$}
RANDOM=$SEED
NAME=test_crash

fail() {
	echo "FAIL: $NAME (seed $SEED): $*" >&2
	exit 1
}
[ -x "$ORDERLY" ] || fail "no orderly binary at '$ORDERLY' (set ORDERLY)"
if ! command -v sqlite3 >/dev/null; then
	echo "$NAME: SKIP: the sqlite3 shell is not installed (scripts/deps installs it)"
	exit 0
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/orderly-crash.XXXXXX")
trap 'rm -rf -- "$TMP"' EXIT
GAME=$TMP/crash.game
PAUSE=$TMP/pause
RECEIPTS=$TMP/receipts
: >"$PAUSE"
: >"$RECEIPTS"
DEMO=$SRC/rulesets/battalion/examples/demo
kills=0
steps=0
checks=0
refused=0
declare -A killed_in=() killed_at=()

"$ORDERLY" new "$GAME" --scenario "$SRC/rulesets/battalion/examples/scenario.xml" >/dev/null ||
	fail "cannot create the game"

# Everything that must hold after a kill.
check_game() {
	local what=$1 out
	checks=$((checks + 1))
	out=$(sqlite3 -batch "$GAME" "PRAGMA integrity_check" 2>&1) ||
		fail "after $what: sqlite3 cannot read the game: $out"
	[ "$out" = ok ] || fail "after $what: integrity_check: $out"
	out=$(sqlite3 -batch "$GAME" "PRAGMA foreign_key_check" 2>&1)
	[ -z "$out" ] || fail "after $what: foreign_key_check: $out"
	if ! out=$("$ORDERLY" audit "$GAME" 2>&1); then
		fail "after $what: audit is not clean:
$out"
	fi
	if [ -s "$RECEIPTS" ]; then
		local list missing
		list=$(sed "s/.*/x'&'/" "$RECEIPTS" | paste -sd, -)
		missing=$(sqlite3 -batch "$GAME" \
			"SELECT count(*) FROM (SELECT column1 AS c FROM (VALUES $(sed "s/.*/(x'&')/" "$RECEIPTS" | paste -sd, -))) r WHERE NOT EXISTS (SELECT 1 FROM sheet WHERE sheet.commitment = r.c)")
		[ "$missing" = 0 ] || fail "after $what: $missing receipt(s) printed before the kill have no stored sheet (of: $list)"
	fi
}

# Run orderly ARGS once, paused at point $1 (0: never); sets RC, KILLED.
attempt() {
	local at=$1 pid
	shift
	KILLED=0
	if [ "$at" -gt 0 ]; then
		ORDERLY_TEST_PAUSE_IN_TX=$PAUSE ORDERLY_TEST_PAUSE_AT=$at \
			"$ORDERLY" "$@" >"$TMP/out" 2>"$TMP/err" &
	else
		"$ORDERLY" "$@" >"$TMP/out" 2>"$TMP/err" &
	fi
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if grep -q "^$pid " "$PAUSE"; then
			kill -KILL "$pid"
			KILLED=1
			break
		fi
		sleep 0.005
	done
	RC=0
	wait "$pid" 2>/dev/null || RC=$?
	# a receipt printed is a promise, whatever happened next
	sed -n 's/^commitment: \([0-9a-f]\{64\}\)$/\1/p' "$TMP/out" >>"$RECEIPTS"
}

# One step of the game: killed at a random point while kills remain (and
# the dice say so), checked, and retried until it runs to its end.
# Exit 65 without a kill is a refusal by the rules (a routed unit, a sheet
# no longer valid), not a crash: the game goes on without that step.
step() {
	local maxpoint=$1 at point
	shift
	steps=$((steps + 1))
	while :; do
		at=0
		# every command is killed at least once (kills are kept for those
		# not killed yet); past that, three attempts in four are killed
		unkilled=0
		for c in submit seal event resolve; do
			[ -n "${killed_in[$c]:-}" ] || unkilled=$((unkilled + 1))
		done
		if [[ $1 =~ ^(submit|seal|event|resolve)$ ]] && [ -z "${killed_in[$1]:-}" ] &&
			[ $kills -lt "$KILLS" ]; then
			at=$((1 + RANDOM % 3)) # begin, a write or commit: every one has them
		elif [ $((kills + unkilled)) -lt "$KILLS" ] && [ $((RANDOM % 4)) -ne 0 ]; then
			at=$((1 + RANDOM % maxpoint))
		fi
		attempt "$at" "$@"
		if [ $KILLED = 1 ]; then
			kills=$((kills + 1))
			point=$(grep "^[0-9]* " "$PAUSE" | tail -n 1 | cut -d' ' -f2)
			killed_in[$1]=$((${killed_in[$1]:-0} + 1))
			killed_at[$point]=$((${killed_at[$point]:-0} + 1))
			check_game "kill $kills in '$1' at point $at ($point)"
			continue
		fi
		case $RC in
		0) return 0 ;;
		65) refused=$((refused + 1)); return 0 ;;
		*) fail "'orderly $*' exited $RC without a kill: $(cat "$TMP/err")" ;;
		esac
	done
}

R=(--override "crash test")
turn=0
while [ $kills -lt "$KILLS" ]; do
	turn=$((turn + 1))
	[ $turn -le 20 ] || fail "only $kills kills in 20 turns"
	n=$(( (turn - 1) % 3 + 1 ))
	step 6 submit "$GAME" --side french "$DEMO/turn$n-french.txt"
	step 6 submit "$GAME" --side allied "$DEMO/turn$n-allied.txt"
	step 6 submit "$GAME" --side french "$DEMO/turn$n-french.txt"
	step 12 seal "$GAME" --force
	step 8 event "$GAME" move unit=F1 distance=2 "${R[@]}"
	step 8 event "$GAME" form unit=A4 formation=line "${R[@]}"
	step 40 resolve "$GAME"
	step 8 event "$GAME" fire unit=A5 target=F1 range=11 "${R[@]}"
	step 8 event "$GAME" artillery unit=A9 target=F2 range=14 "${R[@]}"
	step 40 resolve "$GAME"
	step 40 resolve "$GAME"
	step 8 event "$GAME" melee a=F2 b=A1 "${R[@]}"
	step 40 resolve "$GAME"
	step 40 resolve "$GAME"
	step 8 exchange "$GAME"
done
check_game "the last step"
for c in submit seal event resolve; do
	[ -n "${killed_in[$c]:-}" ] || fail "no kill landed in '$c'"
done
sheets=$(sqlite3 -batch "$GAME" "SELECT count(*) FROM sheet")
echo "$NAME: $kills kills inside transactions over $steps steps ($turn turns, $sheets sheets, $(wc -l <"$RECEIPTS") receipts, $refused refused by the rules), $checks checks passed (seed $SEED)"
printf '%s: kills by command:' "$NAME"
for c in "${!killed_in[@]}"; do printf ' %s %s' "$c" "${killed_in[$c]}"; done
printf '; by point:'
for c in "${!killed_at[@]}"; do printf ' %s %s' "$c" "${killed_at[$c]}"; done
echo
