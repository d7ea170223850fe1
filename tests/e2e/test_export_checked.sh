#!/usr/bin/env bash
# test_export_checked.sh - `orderly export` does not sign a bundle its own
# verifier refuses.  A game file changed outside orderly after the turn was
# played (a result row edited with the sqlite3 shell after the exchange, by
# a co-referee, say) was exported and signed by the referee's key as it
# was, and only the players' `verify` said so (docs/threat-model.md, attack
# 32).  Now the export checks the bundle it made with the verifier `verify`
# runs and refuses it as a damaged game file (exit 65): nothing on standard
# output, no file written, the verifier's findings each on a line; a note
# of the verifier (fixed dice) refuses nothing; the untouched game exports
# as before, byte for byte what the export without the check writes.
set -euo pipefail
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
need_sqlite3
need_forge

cd "$TMP"

# play GAME [NEW-OPTION...]: turn 1 played to its exchange, B1 moved 2
play() {
	local game=$1
	shift
	expect_exit 0 ord new "$game" --scenario "$FIX/scenario.xml" "$@"
	expect_exit 0 ord submit "$game" --side blue "$FIX/blue-1.txt"
	expect_exit 0 ord submit "$game" --side red "$FIX/red-1.txt"
	expect_exit 0 ord seal "$game"
	expect_exit 0 ord event "$game" move unit=B1 distance=2
	expect_exit 0 ord resolve "$game" --phase movement
	resolve_rest "$game"
	expect_exit 0 ord exchange "$game"
}

play g.orderly

# ---------------------------------------------------- the game untouched
expect_exit 0 ord export g.orderly --turn 1 -o good.xml
expect_eq "$OUT" "" "export -o's standard output"
expect_eq "$ERR" "" "export's standard error"
expect_exit 0 ord export g.orderly --turn 1
[[ "$OUT" == "$(cat good.xml)" ]] || fail "export to standard output differs from export to a file"
# the check changes no byte of it: the export of an orderly without it
"$FORGE" export g.orderly 1 unchecked.xml
cmp good.xml unchecked.xml || fail "the checked export differs from the unchecked one"
expect_exit 0 ord verify good.xml
expect_in "$OUT" "verified: every check holds"

# ----------------------------------- a result row changed after the exchange
cp g.orderly t.orderly
sql t.orderly "UPDATE result SET vals = replace(vals, 'distance=2', 'distance=3') WHERE unit = 'B1' AND phase = 'movement'"
cmp -s g.orderly t.orderly && fail "the change changed nothing (fix the test)"
cp t.orderly t.before
MOVE=$(sql t.orderly "SELECT log_seq FROM result WHERE unit = 'B1' AND phase = 'movement'")
WANT="orderly: 't.orderly': the bundle of turn 1 is not written: 'orderly verify' would refuse it (2 checks FAILED):
  FAILED: phase movement: the result for B1 is recorded with distance=3, but the rules give distance=2 ('moved 2\" over open ground')
  FAILED: the rolls, results or unit states of log entry $MOVE (phase movement) were changed after they were written
the game file was changed outside orderly since the turn was played ('orderly audit t.orderly --turn 1' shows where); restore it from a copy made before the change; nothing was signed or written"
expect_exit 65 ord export t.orderly --turn 1 -o t.xml
expect_eq "$ERR" "$WANT" "the refusal"
expect_eq "$OUT" "" "a refused export's standard output"
[[ ! -e t.xml ]] || fail "a refused export wrote its file"
compgen -G "t.xml.tmp-*" >/dev/null && fail "a refused export left its temporary file"
# a refusal over a bundle written before leaves it as it was
echo "an older bundle" >kept.xml
expect_exit 65 ord export t.orderly --turn 1 -o kept.xml
expect_eq "$ERR" "$WANT" "the refusal over a file there before"
[[ "$(cat kept.xml)" == "an older bundle" ]] || fail "a refused export changed the file it would replace"
compgen -G "kept.xml.tmp-*" >/dev/null && fail "a refused export left its temporary file"
expect_exit 65 ord export t.orderly --turn 1
expect_eq "$OUT" "" "a refused export's standard output"
expect_eq "$ERR" "$WANT" "the refusal to standard output"
cmp t.orderly t.before || fail "a refused export changed the game file"
# the audit it names says the same
expect_exit 1 ord audit t.orderly --turn 1
expect_in "$OUT" "BROKEN: phase movement: the result for B1 is recorded with distance=3, but the rules give distance=2"
# the file put back: the same bundle as before
sql t.orderly "UPDATE result SET vals = replace(vals, 'distance=3', 'distance=2') WHERE unit = 'B1' AND phase = 'movement'"
expect_exit 0 ord export t.orderly --turn 1 -o t.xml
cmp t.xml good.xml || fail "the file put back exports another bundle"

# the event's log entry edited: its hash no longer holds, and the event
# row differs from it (a failure that may follow from the first)
cp g.orderly e.orderly
EVENT=$(sql e.orderly "SELECT log_seq FROM event WHERE seq = 1")
sql e.orderly "UPDATE log SET body = replace(body, 'distance=2', 'distance=3') WHERE seq = $EVENT"
cmp -s g.orderly e.orderly && fail "the change changed nothing (fix the test)"
expect_exit 65 ord export e.orderly --turn 1 -o e.xml
expect_eq "$ERR" "orderly: 'e.orderly': the bundle of turn 1 is not written: 'orderly verify' would refuse it (2 checks FAILED: log entry $EVENT was changed, and 1 of the failures may only follow from it):
  FAILED: log entry $EVENT (event, turn 1): its content and the entry before it do not give its hash (changed)
  FAILED (may follow from entry $EVENT): event #1 (move): differs from what was logged in entry $EVENT
the game file was changed outside orderly since the turn was played ('orderly audit e.orderly --turn 1' shows where); restore it from a copy made before the change; nothing was signed or written" \
	"the refusal of a changed log entry"
[[ ! -e e.xml ]] || fail "a refused export wrote its file"

# -------------------------- a long refusal: its first lines, and how many more
# every entry of the turn changed: fifteen findings, more than a message
# holds; the lines it has room for, in the verifier's order, then the
# count of the others, which the audit lists
cp g.orderly m.orderly
sql m.orderly "UPDATE log SET body = body || 'x=1' || char(10) WHERE turn = 1"
WANT="orderly: 'm.orderly': the bundle of turn 1 is not written: 'orderly verify' would refuse it (15 checks FAILED: log entry 3 was changed, and 4 of the failures may only follow from it):"
while IFS="|" read -r seq kind; do
	WANT+=$'\n'"  FAILED: log entry $seq ($kind, turn 1): its content and the entry before it do not give its hash (changed)"
done < <(sql m.orderly "SELECT seq, kind FROM log WHERE turn = 1 ORDER BY seq")
for side in blue red; do
	WANT+=$'\n'"  FAILED (may follow from entry 3): the sheet of $side, version 1: differs from what was logged in entry $(sql m.orderly "SELECT log_seq FROM sheet WHERE side_id = (SELECT id FROM side WHERE name = '$side')")"
done
WANT+=$'\n'"  (2 more not shown)
the game file was changed outside orderly since the turn was played ('orderly audit m.orderly --turn 1' shows where); restore it from a copy made before the change; nothing was signed or written"
expect_exit 65 ord export m.orderly --turn 1 -o m.xml
expect_eq "$ERR" "$WANT" "a refusal longer than a message holds"
[[ ! -e m.xml ]] || fail "a refused export wrote its file"
# the audit the message names lists them all
expect_exit 1 ord audit m.orderly --turn 1
expect_in "$OUT" "BROKEN: log entry 13 (exchange, turn 1): its content and the entry before it do not give its hash (changed)"

# -------------------------------------- a note of the verifier refuses nothing
# a fixed-dice game: verify says the dice were chosen, not drawn (a note,
# and "not checked"), and the export warns as before
play fixed.orderly --fixed-dice
expect_exit 0 ord export fixed.orderly --turn 1 -o fixed.xml
expect_in "$ERR" "warning: 'fixed.orderly' is a fixed-dice game"
expect_exit 0 ord verify fixed.xml
expect_in "$OUT" "verified: every check holds, but the dice were fixed, not drawn"

# ------------------------------ to a file: written as made, put in place last
# the bundle goes into a file beside FILE as it is made (never held whole
# in memory: docs/benchmarks.md, the thirty-eighth session), and FILE is
# only ever the whole bundle, verified: an export killed while it writes
# (the test-only pause point "export", at each piece written) leaves
# nothing at FILE, and a FILE there before as it was
PAUSE=$TMP/pause
: >"$PAUSE"
for before in none old; do
	rm -f k.xml k.xml.tmp-*
	[[ $before == old ]] && echo "an older bundle" >k.xml
	ORDERLY_TEST_PAUSE_IN_TX=$PAUSE ORDERLY_TEST_PAUSE_AT=1 \
		"$ORDERLY" export g.orderly --turn 1 -o k.xml >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 1 2000); do
		grep -q "^$pid export 1$" "$PAUSE" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.01
	done
	grep -q "^$pid export 1$" "$PAUSE" || fail "the export did not pause at its first piece written (it ran to its end: no bundle written as it is made)"
	[[ -e k.xml.tmp-$pid ]] || fail "the export is not written beside its file (k.xml.tmp-$pid)"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null || true
	if [[ $before == none ]]; then
		[[ ! -e k.xml ]] || fail "an export killed as it wrote left a bundle at its file"
	else
		[[ "$(cat k.xml)" == "an older bundle" ]] || fail "an export killed as it wrote changed the file it would replace"
	fi
	# run again, it writes the whole bundle (the killed one's file beside
	# it is in nobody's way)
	expect_exit 0 ord export g.orderly --turn 1 -o k.xml
	cmp k.xml good.xml || fail "the export after a killed one differs"
	# the killed one's file is left while it is fresh (another machine's
	# orderly may be writing it on a shared disk), and removed, said, by
	# the next output once its process is gone and it has lain ten minutes;
	# one of a process still running is left however old
	[[ -e k.xml.tmp-$pid ]] || fail "a fresh file of a killed export was removed"
	touch -d '11 minutes ago' "k.xml.tmp-$pid"
	echo "a running one" >"k.xml.tmp-$$"
	touch -d '1 hour ago' "k.xml.tmp-$$"
	expect_exit 0 ord export g.orderly --turn 1 -o k.xml
	expect_in "$ERR" "orderly: removed './k.xml.tmp-$pid', left by an output that did not finish (process $pid, no longer running)"
	[[ ! -e k.xml.tmp-$pid ]] || fail "the file of a killed export was left"
	[[ "$(cat "k.xml.tmp-$$")" == "a running one" ]] || fail "the file of a running process was removed"
	rm -f "k.xml.tmp-$$"
	cmp k.xml good.xml || fail "the export after the sweep differs"
done

# the export signs the bytes it reads back from its file, each piece held
# to the hash of what it wrote: a file that reads back shorter than it was
# written (cut meanwhile: an LD_PRELOAD shim's pread finds it ending after
# 4096 bytes), or whose read fails there, is refused as changed, nothing
# signed, and nothing is put at FILE
SHORT=${SHORT:-$BUILD/tests/libord_short_read.so}
[[ -f "$SHORT" ]] || fail "no short-read shim at '$SHORT' (set SHORT)"
for how in cut eio; do
	rm -f s.xml s.xml.tmp-*
	run env ORD_SHORT_READ=s.xml.tmp- ORD_SHORT_READ_AT=4096 \
		ORD_SHORT_READ_EIO=$([[ $how == eio ]] && echo 1) LD_PRELOAD="$SHORT" \
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
		"$ORDERLY" export g.orderly --turn 1 -o s.xml
	expect_eq "$RC" 73 "the export's exit, its file read back ${how}"
	expect_line "$ERR" "^orderly: 's\.xml' changed while the bundle was written to it \(4096 of its [0-9]+ bytes read back, the rest could not be read\): nothing was signed$"
	[[ ! -e s.xml ]] || fail "a bundle read back ${how} was put at its file"
done

note "ok"
