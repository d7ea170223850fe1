#!/usr/bin/env bash
# test_concurrency.sh - eight orderly processes on one game at once: four
# submit sheets (two per side, each resubmitting), two read (info, report),
# two audit, all started together and looping.  Passes when:
#   - every command exits 0, and no "busy" or "locked" message reaches a
#     user (writers wait for each other: busy_timeout, BEGIN IMMEDIATE);
#   - every receipt printed names exactly one stored sheet, and no sheet
#     was stored without one (none lost, none duplicated);
#   - each side's versions are 1..n with no gap and no repeat;
#   - the audit of the game afterwards is clean.
#
# Shown to catch a planted fault: built with -DORD_STORE_BUSY_TIMEOUT_MS=0
# (no waiting for another writer) it fails with "database is locked"
# (tests/fuzz/README.md, "Reliability gates").
#
# Environment: ORDERLY, SRC; CONC_ROUNDS (iterations per process, default 12).
set -euo pipefail

SRC=${SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
ORDERLY=${ORDERLY:-$SRC/build/orderly}
ROUNDS=${CONC_ROUNDS:-12}
NAME=test_concurrency

fail() {
	echo "FAIL: $NAME: $*" >&2
	exit 1
}
[ -x "$ORDERLY" ] || fail "no orderly binary at '$ORDERLY' (set ORDERLY)"
if ! command -v sqlite3 >/dev/null; then
	echo "$NAME: SKIP: the sqlite3 shell is not installed (scripts/deps installs it)"
	exit 0
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/orderly-conc.XXXXXX")
trap 'rm -rf -- "$TMP"' EXIT
GAME=$TMP/conc.game
DEMO=$SRC/rulesets/battalion/examples/demo
"$ORDERLY" new "$GAME" --scenario "$SRC/rulesets/battalion/examples/scenario.xml" >/dev/null ||
	fail "cannot create the game"

# worker N KIND: loop ROUNDS times; each command's status and output logged
worker() {
	local n=$1 kind=$2 i rc side sheet
	for ((i = 1; i <= ROUNDS; i++)); do
		rc=0
		case $kind in
		submit)
			if [ $((n % 2)) = 0 ]; then side=french; else side=allied; fi
			# the demo's sheets of turns 1 and 2, which are valid in
			# its turn 1 (turn 3's fires a gun turn 2 unlimbers)
			sheet=$DEMO/turn$(( (i + n) % 2 + 1 ))-$side.txt
			"$ORDERLY" submit "$GAME" --side $side "$sheet" >"$TMP/out.$n.$i" 2>"$TMP/err.$n.$i" || rc=$?
			;;
		info) "$ORDERLY" info "$GAME" >"$TMP/out.$n.$i" 2>"$TMP/err.$n.$i" || rc=$? ;;
		report) "$ORDERLY" report "$GAME" --referee >"$TMP/out.$n.$i" 2>"$TMP/err.$n.$i" || rc=$? ;;
		audit) "$ORDERLY" audit "$GAME" >"$TMP/out.$n.$i" 2>"$TMP/err.$n.$i" || rc=$? ;;
		esac
		echo "$kind $rc" >"$TMP/rc.$n.$i"
	done
}

kinds=(submit submit submit submit info report audit audit)
pids=()
for n in 0 1 2 3 4 5 6 7; do
	worker $n "${kinds[$n]}" &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done

bad=0
for f in "$TMP"/rc.*; do
	read -r kind rc <"$f"
	suffix=${f#"$TMP"/rc.}
	if [ "$rc" != 0 ]; then
		echo "$NAME: '$kind' (worker.round $suffix) exited $rc: $(cat "$TMP/err.$suffix")" >&2
		bad=$((bad + 1))
	fi
	if grep -Eiq 'busy|locked' "$TMP/err.$suffix" "$TMP/out.$suffix"; then
		echo "$NAME: '$kind' (worker.round $suffix) showed a user: $(grep -Eih 'busy|locked' "$TMP/err.$suffix" "$TMP/out.$suffix")" >&2
		bad=$((bad + 1))
	fi
done
[ $bad = 0 ] || fail "$bad command(s) failed or showed busy/locked errors"

runs=$(ls "$TMP"/rc.* | wc -l)
[ "$runs" = $((8 * ROUNDS)) ] || fail "$runs commands ran, expected $((8 * ROUNDS))"
cat "$TMP"/out.* | sed -n 's/^commitment: \([0-9a-f]\{64\}\)$/\1/p' | sort >"$TMP/receipts"
nreceipts=$(wc -l <"$TMP/receipts")
[ "$nreceipts" = $((4 * ROUNDS)) ] || fail "$nreceipts receipts printed, expected $((4 * ROUNDS))"
[ -z "$(uniq -d "$TMP/receipts")" ] || fail "the same receipt printed twice"
sqlite3 -batch "$GAME" "SELECT lower(hex(commitment)) FROM sheet ORDER BY 1" >"$TMP/stored"
if ! diff -u "$TMP/receipts" "$TMP/stored" >"$TMP/diff"; then
	fail "the stored sheets and the printed receipts differ (- printed, + stored):
$(cat "$TMP/diff")"
fi
gaps=$(sqlite3 -batch "$GAME" "SELECT side_id, count(*), count(DISTINCT version), min(version), max(version) FROM sheet GROUP BY turn, side_id HAVING count(*) != max(version) OR count(DISTINCT version) != count(*) OR min(version) != 1")
[ -z "$gaps" ] || fail "sheet versions with gaps or repeats (side, count, distinct, min, max): $gaps"
out=$("$ORDERLY" audit "$GAME" 2>&1) || fail "audit afterwards is not clean:
$out"
echo "$NAME: 8 processes x $ROUNDS rounds: $nreceipts sheets submitted concurrently, each stored once; $((4 * ROUNDS)) reads and audits; no busy or locked error"
