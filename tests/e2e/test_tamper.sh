#!/usr/bin/env bash
# test_tamper.sh - `orderly audit` finds every kind of change made to a game
# file behind orderly's back.  A game with one whole turn (two versions of a
# sheet, events, a roll, results, unit states, an exchange) is tampered with
# the sqlite3 shell, each case on a fresh copy: audit must exit 1 and name
# what broke; the untouched game must stay clean.
set -euo pipefail
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
need_sqlite3

cd "$TMP"
BASE=base.orderly

# ------------------------------------------------------------- the game
expect_exit 0 ord new "$BASE" --scenario "$FIX/scenario.xml"
expect_exit 0 ord submit "$BASE" --side blue "$FIX/blue-1.txt"
expect_exit 0 ord submit "$BASE" --side blue "$FIX/blue-1b.txt"
expect_exit 0 ord submit "$BASE" --side red "$FIX/red-1.txt"
expect_exit 0 ord seal "$BASE"
# B1 in column, ordered a quarter move: 2"
expect_exit 0 ord event "$BASE" move unit=B1 distance=2
expect_exit 0 ord resolve "$BASE" --phase movement
expect_exit 0 ord event "$BASE" fire unit=R1 target=B1 range=5
expect_exit 0 ord resolve "$BASE" --phase fire
expect_exit 0 ord resolve "$BASE" --phase fire-morale --empty
expect_exit 0 ord resolve "$BASE" --phase melee --empty
expect_exit 0 ord resolve "$BASE" --phase melee-morale --empty
expect_exit 0 ord exchange "$BASE"

# the game holds something of every kind the cases below change
for q in "sheet WHERE version = 2" "event" "roll" "result" "unit_state WHERE turn = 1" "turn WHERE turn = 2"; do
	[[ "$(sql "$BASE" "SELECT count(*) FROM $q")" -ge 1 ]] || fail "the base game has no row in $q"
done
expect_exit 0 ord audit "$BASE"
expect_in "$OUT" "clean"
base_sha=$(sha "$BASE")
base_dump=$(sqlite3 "$BASE" .dump | sha256sum)

seq_of() {  # the log entry of KIND [and a condition]
	sql "$BASE" "SELECT seq FROM log WHERE kind = '$1' ${2:-} ORDER BY seq LIMIT 1"
}
SEAL=$(seq_of seal)
LAST=$(sql "$BASE" "SELECT max(seq) FROM log")
FIRE_RESOLVE=$(seq_of resolve "AND body LIKE '%phase=fire' || char(10) || '%'")
BLUE_V1=$(seq_of sheet "AND body LIKE 'side=blue' || char(10) || 'version=1' || char(10) || '%'")
[[ -n "$SEAL" && -n "$LAST" && -n "$FIRE_RESOLVE" && -n "$BLUE_V1" ]] || fail "log entries not found"

# tamper NAME SQL EXPECTED...: change a copy of the game with SQL; audit must
# exit 1 and print every EXPECTED text.
tamper() {
	local name=$1 query=$2 game want
	shift 2
	game=$name.orderly
	cp "$BASE" "$game"
	sql "$game" "$query" >/dev/null || fail "$name: the sqlite3 shell refused: $query"
	[[ "$(sqlite3 "$game" .dump | sha256sum)" != "$base_dump" ]] ||
		fail "$name: the tampering changed nothing (fix the test): $query"
	expect_exit 1 ord audit "$game"
	for want in "$@"; do
		[[ "$OUT" == *"$want"* ]] || fail "$name: audit does not say '$want':
$OUT"
	done
	expect_line "$OUT" '^ +BROKEN: '
	expect_line "$OUT" '^[0-9]+ problems? found$'
	expect_not_in "$OUT" "clean"
	expect_in "$ERR" "found"
	# the same findings when the replay is handed the rows one at a time
	local out=$OUT
	ORDERLY_ROWS_CHUNK=1 expect_exit 1 ord audit "$game"
	expect_eq "$OUT" "$out" "$name, the rows read one at a time"
}

RED="side_id = (SELECT id FROM side WHERE name = 'red')"
BLUE="side_id = (SELECT id FROM side WHERE name = 'blue')"

tamper sheet-bytes \
	"UPDATE sheet SET bytes = CAST(replace(CAST(bytes AS TEXT), '@B1', '@B2') AS BLOB) WHERE turn = 1 AND $RED" \
	"the sheet of red, version 1: its bytes, nonce and the turn's seed commitment do not give its commitment"
tamper sheet-bytes-old-version \
	"UPDATE sheet SET bytes = CAST(replace(CAST(bytes AS TEXT), '1/2', '3/4') AS BLOB) WHERE version = 1 AND $BLUE" \
	"the sheet of blue, version 1: its bytes, nonce and the turn's seed commitment do not give its commitment"
tamper sheet-deleted \
	"DELETE FROM sheet WHERE version = 1 AND $BLUE" \
	"the sheet of blue, version 1, of turn 1, is missing (log entry $BLUE_V1 records it: deleted or left out)"
tamper commitment \
	"UPDATE sheet SET commitment = randomblob(32) WHERE turn = 1 AND $RED" \
	"the sheet of red, version 1: differs from what was logged in entry"
tamper log-body \
	"UPDATE log SET body = replace(body, 'forced=0', 'forced=1') WHERE kind = 'seal'" \
	"log entry $SEAL (seal, turn 1): its content does not match its hash (edited)"
# an entry deleted is named as missing, where the numbers jump, once: not
# its follower as changed, nor the head as past the log's end (it read "the
# log ends at entry 70 but the game's head is entry 70")
tamper log-deleted-middle \
	"DELETE FROM log WHERE seq = $SEAL" \
	"log entry $SEAL is missing (deleted): the log jumps from entry $((SEAL - 1)) to $((SEAL + 1))"
expect_eq "$(grep -c "log entry $SEAL is missing" <<<"$OUT")" 2 "the gap said at the game's log and at turn 1's"
expect_not_in "$OUT" "the game's head is entry"
expect_not_in "$OUT" "log entry $((SEAL + 1)) ("
tamper log-deleted-last \
	"DELETE FROM log WHERE seq = $LAST" \
	"the log ends at entry $((LAST - 1)), but the game's head is entry $LAST: entry $LAST was removed from the end"
# the careful forger also moves the head back: the open turn still points at it
tamper log-deleted-last-head-moved \
	"DELETE FROM log WHERE seq = $LAST;
	 UPDATE log_head SET seq = $LAST - 1, hash = (SELECT hash FROM log WHERE seq = $LAST - 1)" \
	"the log does not start with the opening of turn 2"
tamper event-args \
	"UPDATE event SET args = replace(args, 'range=5', 'range=2') WHERE kind = 'fire'" \
	"event #2 (fire): differs from what was logged"
# the same range changed in the event's row and in the log entry that
# records it, alike: the row and the entry agree, so only the entry's hash
# (the chain) finds it; the replay's difference is said to follow from it.
# An exact 6" for 5": the same figures lost, the same morale dice
FIRE_EVENT=$(seq_of event "AND body LIKE '%' || char(10) || 'kind=fire' || char(10) || '%'")
[[ -n "$FIRE_EVENT" ]] || fail "the fire event's log entry not found"
tamper event-and-log \
	"UPDATE event SET args = replace(args, 'range=5', 'range=6') WHERE kind = 'fire';
	 UPDATE log SET body = replace(body, 'arg.range=5', 'arg.range=6') WHERE seq = $FIRE_EVENT"
expect_line "$OUT" "^  BROKEN: log entry $FIRE_EVENT \(event, turn 1\): its content does not match its hash \(edited\)$"
expect_line "$OUT" "^    BROKEN: log entry $FIRE_EVENT \(event, turn 1\): its content and the entry before it do not give its hash \(changed\)$"
expect_in "$OUT" "
    BROKEN (may follow from entry $FIRE_EVENT): phase fire: the result for B1 is recorded as \"fired on by R1 (musket, 5\"): 24 firers × 25% = 6, +3 target in column, −1.5 firer moved, −1.5 target moved = 6\", but the rules give \"fired on by R1 (musket, 6\"): 24 firers × 25% = 6, +3 target in column, −1.5 firer moved, −1.5 target moved = 6\"
"
expect_line "$OUT" '^3 problems found$'
expect_eq "$ERR" "orderly: 3 problems found" "the audit's standard error"
# the row and its entry agree: no difference between them is reported
expect_not_in "$OUT" "differs from what was logged"
# the turn's bundle: export refuses to sign it (its own verifier fails
# it); signed afresh from the changed file all the same, by a build
# without that check (ord_forge export), verify refuses it too
expect_exit 65 ord export event-and-log.orderly --turn 1 -o event-and-log.xml
expect_line "$ERR" "^  FAILED: log entry $FIRE_EVENT \(event, turn 1\): its content and the entry before it do not give its hash \(changed\)$"
[[ ! -e event-and-log.xml ]] || fail "a refused export wrote its file"
need_forge
"$FORGE" export event-and-log.orderly 1 event-and-log.xml || fail "ord_forge export event-and-log.orderly"
expect_exit 1 ord verify event-and-log.xml
expect_line "$OUT" "^  FAILED: log entry $FIRE_EVENT \(event, turn 1\): its content and the entry before it do not give its hash \(changed\)$"
expect_line "$OUT" "^2 checks FAILED: log entry $FIRE_EVENT was changed, and 1 of the failures may only follow from it$"
expect_eq "$ERR" "orderly: 2 checks failed" "verify's standard error"
# a deleted event is named first, before the replay's differences that
# follow from it (it was named last, after six of them), and they are
# labelled so
MOVE_EVENT=$(seq_of event "AND body LIKE '%' || char(10) || 'kind=move' || char(10) || '%'")
tamper event-deleted \
	"DELETE FROM event WHERE kind = 'move'" \
	"event #1 (move) of turn 1, phase movement, is missing (log entry $MOVE_EVENT records it: deleted or left out)"
expect_line "$(grep -m1 BROKEN <<<"$OUT")" "^    BROKEN: event #1 \(move\) of turn 1, phase movement, is missing"
expect_in "$OUT" "BROKEN (may follow from the missing row of entry $MOVE_EVENT): "
expect_not_in "$OUT" "what it records is missing"
tamper roll-value \
	"UPDATE roll SET value = value % 6 + 1" \
	"the dice were chosen" \
	"log entry" "were changed after they were written"
tamper result \
	"UPDATE result SET vals = replace(vals, 'casualties=', 'casualties=1') WHERE phase = 'fire'" \
	"log entry $FIRE_RESOLVE (phase fire) were changed after they were written" \
	"but the rules give"
tamper result-inserted \
	"INSERT INTO result(turn, phase, event_seq, unit, vals, explanation, log_seq)
	 VALUES (1, 'melee', 0, 'R1', 'casualties=5', 'slipped in', $SEAL)" \
	"1 result row belongs to no log entry (inserted)"
# two rolls of no phase, the later entry's written first: the first in the
# log's order is named, as a GROUP BY of the entries gave them (the rolls
# are now counted as they come, a run of one entry at a time, and the runs
# put in the entries' order)
tamper rolls-inserted-backwards \
	"INSERT INTO roll(turn, phase, event_seq, purpose, idx, sides, value, fixed, log_seq)
	 VALUES (1, 'melee', 0, 'slipped', 1, 6, 4, 1, $SEAL);
	 INSERT INTO roll(turn, phase, event_seq, purpose, idx, sides, value, fixed, log_seq)
	 VALUES (1, 'melee', 0, 'slipped', 2, 6, 4, 1, $BLUE_V1)" \
	"a roll of turn 1 belongs to no resolved phase (entry $BLUE_V1)" \
	"2 roll rows belong to no log entry (inserted)"
tamper unit-state \
	"UPDATE unit_state SET state = replace(state, 'figures=', 'figures=1') WHERE turn = 1" \
	"were changed after they were written" \
	"by the rules, but its recorded state has figures=1"
tamper unit-state-initial \
	"UPDATE unit_state SET state = replace(state, 'formation=column', 'formation=square') WHERE turn = 0" \
	"the units' states as the game began are not the ones logged" \
	"began the game as"
tamper unit-current \
	"UPDATE unit_current SET state = replace(state, 'figures=', 'figures=1') WHERE unit_id = 2" \
	"1 unit's current state (unit_current) is not the last state recorded for it"
tamper unit-attrs \
	"UPDATE unit SET attrs = replace(attrs, 'class=A', 'class=E') WHERE uid = 'R3'" \
	"unit 'R3' is not the scenario's unit"
tamper seed-swapped \
	"CREATE TEMP TABLE seeds AS SELECT turn, seed FROM turn;
	 UPDATE turn SET seed = (SELECT seed FROM seeds WHERE seeds.turn = 3 - turn.turn) WHERE turn IN (1, 2)" \
	"the dice seed does not match the commitment logged when turn 1 opened" \
	"the dice seed does not match the commitment logged when turn 2 opened"
tamper scenario \
	"UPDATE game_scenario SET scenario = CAST(replace(CAST(scenario AS TEXT), 'Red Army', 'Red Horde') AS BLOB)" \
	"the game file's scenario is not the one logged when the game was made"

# what the game's behaviour depends on, changed in its live rows
tamper fixed-dice \
	"UPDATE game SET fixed_dice = 1" \
	"the game file's fixed dice is not the one logged when the game was made"
tamper nmr \
	"UPDATE game SET nmr = 'repeat'" \
	"the game file's NMR policy is not the one logged when the game was made"
tamper unit-side \
	"UPDATE unit SET side_id = (SELECT id FROM side WHERE name = 'blue') WHERE uid = 'R1'" \
	"unit 'R1' belongs to side 'blue' in the game file, but to 'red' in the scenario"
tamper turn-row \
	"UPDATE turn SET state = 'sealed', phase = 3 WHERE turn = 1" \
	"the turn's row says sealed with 3 phases resolved, but the log shows it exchanged with 5"
tamper head-deleted \
	"DELETE FROM head WHERE at = 'seal'" \
	"the signed head of the seal (entry $SEAL) is missing"

# a die of 0 sides must be reported, not divide by zero
tamper roll-sides-zero \
	"UPDATE roll SET sides = 0" \
	"were changed after they were written"

# refused_at_open NAME SQL MESSAGE: a copy of the game whose schema SQL
# changed is refused at open, before the audit reads a row, saying
# MESSAGE (what differs from the schema the migrations make), exit 65,
# and left as it was.
refused_at_open() {
	local game=$1.orderly before
	cp "$BASE" "$game"
	sql "$game" "$2" >/dev/null || fail "$1: the sqlite3 shell refused: $2"
	before=$(sha "$game")
	expect_exit 65 ord audit "$game"
	expect_eq "$ERR" "orderly: '$game' is a damaged game file ($3); restore it from a copy" "$1"
	expect_eq "$(sha "$game")" "$before" "the bytes of $game"
}

# a forged row stored so that its phase's lookup passes it by: the table
# rebuilt with log_seq untyped, the row's log_seq the text of the fire
# phase's entry (the audit reads a phase's rows by their entry; it compares
# what it read with what the file holds for the entry: a red team's find).
# The untyped column is now refused at open, as every column declared
# otherwise than the migrations declare it; the audit's comparison stays
# behind it, which no game file that opens can reach this way.
untyped() {  # TABLE COLUMNS: the table again, log_seq without a type
	printf 'PRAGMA foreign_keys = OFF; BEGIN;
CREATE TABLE x_new (%s, log_seq NOT NULL);
INSERT INTO x_new SELECT * FROM %s; DROP TABLE %s; ALTER TABLE x_new RENAME TO %s;
CREATE INDEX %s_log ON %s(log_seq); CREATE INDEX %s_turn ON %s(turn);' \
		"$2" "$1" "$1" "$1" "$1" "$1" "$1" "$1"
}
refused_at_open result-log-as-text \
	"$(untyped result 'id INTEGER PRIMARY KEY, turn INTEGER NOT NULL, phase TEXT NOT NULL, event_seq INTEGER NOT NULL, unit TEXT NOT NULL, vals TEXT NOT NULL, explanation TEXT NOT NULL')
	INSERT INTO result(turn, phase, event_seq, unit, vals, explanation, log_seq)
	VALUES (1, 'fire', 2, 'R1', 'routed=1', 'R1 is routed and flees the field', '$FIRE_RESOLVE'); COMMIT;" \
	"its table 'result' declares its column 'log_seq' 'NOT NULL', where the game's schema declares it 'INTEGER NOT NULL'"
refused_at_open roll-log-as-text \
	"$(untyped roll 'id INTEGER PRIMARY KEY, turn INTEGER NOT NULL, phase TEXT NOT NULL, event_seq INTEGER NOT NULL, purpose TEXT NOT NULL, idx INTEGER NOT NULL, sides INTEGER NOT NULL, value INTEGER NOT NULL, fixed INTEGER NOT NULL DEFAULT 0')
	INSERT INTO roll(turn, phase, event_seq, purpose, idx, sides, value, fixed, log_seq)
	VALUES (1, 'fire', 2, 'fire R1', 9, 6, 6, 0, '$FIRE_RESOLVE'); COMMIT;" \
	"its table 'roll' declares its column 'log_seq' 'NOT NULL', where the game's schema declares it 'INTEGER NOT NULL'"
# the scenario's row rebuilt apart from its rowid: the turn's check and the
# replay read the one row (a red team's find: the hash was of rowid 1); its
# id no longer the rowid, it is refused at open too
refused_at_open scenario-rowid \
	"PRAGMA foreign_keys = OFF; BEGIN;
	CREATE TABLE s_new (id INTEGER NOT NULL, scenario BLOB NOT NULL);
	INSERT INTO s_new(rowid, id, scenario) VALUES (2, 1,
		replace((SELECT scenario FROM game_scenario), 'figures=\"24\"', 'figures=\"30\"'));
	INSERT INTO s_new(rowid, id, scenario) VALUES (1, 2, (SELECT scenario FROM game_scenario));
	DROP TABLE game_scenario; ALTER TABLE s_new RENAME TO game_scenario; COMMIT;" \
	"its table 'game_scenario' declares its column 'id' 'INTEGER NOT NULL', where the game's schema declares it 'INTEGER PRIMARY KEY'"

# A phase whose replay stops still has its rows counted against what the
# file holds for its entry (a red team's find: the replay compares the
# rows as they come, and a stopped one compared none).  The rules' fire
# example as a fixed-dice game (tests/e2e/cases/battalion/fire-example.case);
# a melee roll given another turn's number, and one die more given.
# the case's scenario, as it stands there
sed -n '/^\[scenario\]$/,/^\[/p' "$SRC/tests/e2e/cases/battalion/fire-example.case" | sed '1d;$d' >fixed.xml
printf 'B1 @R1\n' >fixed-blue.txt
printf 'R1 \342\206\221 C\n' >fixed-red.txt
expect_exit 0 ord new fixed.orderly --scenario fixed.xml --fixed-dice
expect_exit 0 ord submit fixed.orderly --side blue fixed-blue.txt
expect_exit 0 ord submit fixed.orderly --side red fixed-red.txt
expect_exit 0 ord seal fixed.orderly
expect_exit 0 ord event fixed.orderly move unit=R1 distance=10 charge=yes contact=B1
expect_exit 0 ord resolve fixed.orderly --phase movement
expect_exit 0 ord event fixed.orderly fire unit=B1 target=R1 range=3
expect_exit 0 ord resolve fixed.orderly --phase fire
expect_exit 0 ord resolve fixed.orderly --phase fire-morale --empty
expect_exit 0 ord event fixed.orderly melee a=R1 b=B1
expect_exit 0 ord resolve fixed.orderly --phase melee --dice 3,2
expect_exit 0 ord resolve fixed.orderly --phase melee-morale --empty --dice 1
expect_exit 0 ord audit fixed.orderly
expect_in "$OUT" "clean"
MELEE=$(sql fixed.orderly "SELECT seq FROM log WHERE kind = 'resolve' AND body LIKE '%phase=melee' || char(10) || '%'")
sql fixed.orderly "UPDATE roll SET turn = 2 WHERE id = (SELECT max(id) FROM roll WHERE log_seq = $MELEE);
	INSERT INTO roll(turn, phase, event_seq, purpose, idx, sides, value, fixed, log_seq)
	VALUES (1, 'melee', 1, 'melee b', 1, 6, 4, 1, $MELEE)" >/dev/null
expect_exit 1 ord audit fixed.orderly
expect_in "$OUT" "the replay stops"
expect_in "$OUT" "the game file holds 2 rolls of log entry $MELEE, but 3 of them are found by it"

# damaged NAME SQL WHAT AUDIT-SAYS [SUBMIT]: a damaged game refuses to be
# changed, and nothing is written; reading it still works, and the audit
# says what. (An event, a void, a close, a witness link and a submit, which
# cost one event or one sheet whatever the game's size, do not read the
# scenario: SUBMIT=taken says so; the next seal, resolve, exchange or
# deadline refuses it, before any opening.)
damaged() {
	local game=$1.orderly sql_change=$2 what=$3 audit_says=$4 submit=${5:-refused} sum c cmds
	cp "$BASE" "$game"
	sql "$game" "$sql_change" >/dev/null
	sum=$(sha "$game")
	[[ "$sum" != "$base_sha" ]] || fail "$1: the change changed nothing (fix the test)"
	cmds=("seal $game --force" "deadline $game +1h")
	[[ "$submit" == taken ]] || cmds+=("submit $game --side blue $FIX/blue-1.txt")
	for c in "${cmds[@]}"; do
		# shellcheck disable=SC2086
		expect_exit 65 ord $c
		expect_eq "$ERR" "orderly: '$game' is a damaged game file: $what (changed outside orderly: 'orderly audit' says what; restore it from a copy)" "${c%% *} of $1"
	done
	expect_eq "$(sha "$game")" "$sum" "$1, after the changes refused"
	[[ ! -e "$game-wal" ]] || fail "$1: a write-ahead log was left beside the game"
	expect_exit 0 ord info "$game"
	expect_exit 1 ord audit "$game"
	expect_in "$OUT" "$audit_says"
	if [[ "$submit" == taken ]]; then
		# the sheet is taken (it is checked against the units' rows), and
		# the seal after it still refuses the game, nothing written (B2's
		# order only: B1 may have failed its morale under the real dice)
		printf 'B2 Fb @R1\n' >b2-only.txt
		expect_exit 0 ord submit "$game" --side blue b2-only.txt
		sum=$(sha "$game")
		expect_exit 65 ord seal "$game" --force
		expect_eq "$ERR" "orderly: '$game' is a damaged game file: $what (changed outside orderly: 'orderly audit' says what; restore it from a copy)" "seal after a submit of $1"
		expect_eq "$(sha "$game")" "$sum" "$1, after the seal refused"
	fi
}
# a scenario that is not the one its log states (a byte flipped) is found
# before the first change, as changed tables are at open
damaged scenario-flip \
	"UPDATE game_scenario SET scenario = CAST(replace(CAST(scenario AS TEXT), 'Red Army', 'Red Arny') AS BLOB)" \
	"its scenario is not the one its log states" \
	"the game file's scenario is not the one logged when the game was made" taken
# the same for tables that are not the ones its log states (a label
# changed: they still load): exit 65 as for the scenario
damaged tables-flip \
	"UPDATE game SET tables = replace(tables, 'a tray is removed', 'a tray is taken')" \
	"its tables are not the ones its log states" \
	"the game file's tables is not the one"
# R1's 24 figures made 48 in TABLE (unit_current or unit_state) of FILE
r1_doubled() {
	sql "$1" "UPDATE $2 SET state = replace(state, 'figures=24', 'figures=48')
		WHERE unit_id = (SELECT id FROM unit WHERE uid = 'R1')" >/dev/null
}
# ord CMD FILE refused (exit 65) as a changed current state, FILE untouched
stale_refused() {
	local cmd=$1 f=$2 before
	before=$(sha "$f")
	expect_exit 65 ord "$cmd" "$f"
	expect_eq "$ERR" "orderly: '$f': 1 unit's current state (unit_current) is not the last state recorded for it: it was changed outside orderly ('orderly audit' says where); nothing was done" "a $cmd of a changed current state"
	expect_eq "$(sha "$f")" "$before" "the game whose current state changed, after the $cmd refused"
}
# a unit's current state made stronger in the file (24 figures made 48):
# the seal, the next phase and the exchange are refused as a damaged game
# file (exit 65), nothing written (it was resolved from it, and only an
# audit said so: red-team finding).  In the first phase the states are
# held to the ones the turn's opening digests, which finds it too when its
# last state row was changed alike (a second red-team review); in a later
# phase, to the last state rows.
expect_exit 0 ord new current.orderly --scenario "$FIX/scenario.xml"
expect_exit 0 ord submit current.orderly --side blue "$FIX/blue-1.txt"
expect_exit 0 ord submit current.orderly --side red "$FIX/red-1.txt"
cp current.orderly unsealed.orderly
r1_doubled unsealed.orderly unit_current
stale_refused seal unsealed.orderly
expect_exit 0 ord seal current.orderly
for both in 0 1; do
	cp current.orderly first.orderly
	r1_doubled first.orderly unit_current
	[[ $both == 0 ]] || r1_doubled first.orderly unit_state
	first_sha=$(sha first.orderly)
	expect_exit 65 ord resolve first.orderly
	expect_line "$ERR" "^orderly: 'first.orderly': the units' states are not the ones turn 1's opening \(entry [0-9]+\) digests: they were changed outside orderly"
	expect_eq "$(sha first.orderly)" "$first_sha" "the game whose states changed, after the first phase refused"
done
expect_exit 0 ord resolve current.orderly --phase "$(phase_of current.orderly)" --empty
# the exchange too, once every phase is resolved
cp current.orderly resolved.orderly
for phase in fire fire-morale melee melee-morale; do
	expect_exit 0 ord resolve resolved.orderly --phase $phase --empty
done
sql resolved.orderly "UPDATE unit_current SET state = replace(state, 'figures=', 'figures=1')
	WHERE unit_id = (SELECT id FROM unit WHERE uid = 'R1')" >/dev/null
stale_refused exchange resolved.orderly
r1_doubled current.orderly unit_current
stale_refused resolve current.orderly
expect_exit 1 ord audit current.orderly
expect_in "$OUT" "1 unit's current state (unit_current) is not the last state recorded for it"
# a row a phase wrote, changed before the next phase or the exchange,
# with the current state alike (so that the two agree): the next phase and
# the exchange hold the rows the turn's last resolve entry vouches for to
# its digest, and refuse them as a damaged game file (exit 65), nothing
# written (only the audit found it).  A fixed-dice game, so that the last
# phase writes the same states every run.
expect_exit 0 ord new later.orderly --scenario "$FIX/scenario.xml" --fixed-dice
expect_exit 0 ord submit later.orderly --side blue "$FIX/blue-1.txt"
expect_exit 0 ord submit later.orderly --side red "$FIX/red-1.txt"
expect_exit 0 ord seal later.orderly
expect_exit 0 ord event later.orderly move unit=B1 distance=2
expect_exit 0 ord resolve later.orderly --phase movement
MOVE_RESOLVE=$(sql later.orderly "SELECT max(seq) FROM log WHERE kind = 'resolve'")
# rows_refused CMD FILE SQL PHASE WHAT: CMD of FILE changed with SQL is
# refused naming PHASE and WHAT differs; FILE untouched; the audit finds it
rows_refused() {
	local cmd=$1 f=$2 change=$3 phase=$4 what=$5 before
	sql "$f" "$change" >/dev/null
	before=$(sha "$f")
	expect_exit 65 ord "$cmd" "$f"
	expect_eq "$ERR" "orderly: '$f': the rows phase $phase of turn 1 wrote are not the ones its resolve entry (entry $6) digests: $what; they were changed outside orderly ('orderly audit' says where); nothing was done" "a $cmd after a changed row of phase $phase"
	expect_eq "$(sha "$f")" "$before" "the game whose row of phase $phase changed, after the $cmd refused"
	[[ ! -e "$f-wal" ]] || fail "$f: a write-ahead log was left beside the game"
	expect_exit 1 ord audit "$f"
	expect_in "$OUT" "were changed after they were written"
}
# state_change UNIT PHASE FROM TO: the SQL that changes FROM to TO in
# UNIT's state row of PHASE of turn 1 and in its current state, as one
# who edits the file keeps the two alike
state_change() {
	local rows="WHERE unit_id = (SELECT id FROM unit WHERE uid = '$1')"
	echo "UPDATE unit_state SET state = replace(state, '$3', '$4') $rows AND turn = 1 AND phase = $2;
	      UPDATE unit_current SET state = replace(state, '$3', '$4') $rows"
}
# B1's state row of phase 1 (24 figures made 48) and its current state
B1_PHASE1="WHERE unit_id = (SELECT id FROM unit WHERE uid = 'B1')"
[[ "$(sql later.orderly "SELECT count(*) FROM unit_state $B1_PHASE1 AND turn = 1 AND phase = 1 AND log_seq = $MOVE_RESOLVE AND state LIKE '%figures=24%'")" == 1 ]] ||
	fail "the movement phase wrote no state of B1 with 24 figures (fix the test)"
cp later.orderly phase2.orderly
rows_refused resolve phase2.orderly "$(state_change B1 1 figures=24 figures=48)" \
	"1 (movement)" "its 0 rolls, 1 result and 1 unit state give another digest" "$MOVE_RESOLVE"
# a result of it dropped: the numbers differ
cp later.orderly dropped.orderly
rows_refused resolve dropped.orderly "DELETE FROM result WHERE log_seq = $MOVE_RESOLVE" \
	"1 (movement)" "it digests 0 rolls, 1 result and 1 unit state, the file holds 0, 0 and 1" "$MOVE_RESOLVE"
# the last phase's rows, before the exchange: R1 loses a melee and its
# morale (dice 3,2 and 1), which writes its state in melee-morale
for phase in fire fire-morale; do
	expect_exit 0 ord resolve later.orderly --phase $phase --empty
done
expect_exit 0 ord event later.orderly melee a=B1 b=R1 --override "they met"
expect_exit 0 ord resolve later.orderly --phase melee --dice 3,2
expect_exit 0 ord resolve later.orderly --phase melee-morale --empty --dice 1
LAST_RESOLVE=$(sql later.orderly "SELECT max(seq) FROM log WHERE kind = 'resolve'")
R1_ROWS="WHERE unit_id = (SELECT id FROM unit WHERE uid = 'R1')"
[[ "$(sql later.orderly "SELECT count(*) FROM unit_state $R1_ROWS AND turn = 1 AND phase = 5 AND log_seq = $LAST_RESOLVE")" == 1 ]] ||
	fail "the melee-morale phase wrote no state of R1 (fix the test)"
cp later.orderly exchange.orderly
rows_refused exchange exchange.orderly "$(state_change R1 5 figures= figures=1)" \
	"5 (melee-morale)" "its 1 roll, 2 results and 2 unit states give another digest" "$LAST_RESOLVE"
# untouched, the game goes on
expect_exit 0 ord exchange later.orderly
expect_exit 0 ord audit later.orderly
expect_in "$OUT" "clean"
# a schema changed in the file (a byte of CREATE TABLE result flipped): it
# is refused at open, naming the file and the column (it was exit 70,
# "database: ...", no file named; then "database: no such column" from the
# first statement that used it, after a change that did not)
cp "$BASE" schema-flip.orderly
sql schema-flip.orderly "PRAGMA writable_schema = ON;
	UPDATE sqlite_schema SET sql = replace(sql, 'explanation', 'explanatiox') WHERE name = 'result'" >/dev/null
before=$(sha schema-flip.orderly)
for c in "audit schema-flip.orderly" "report schema-flip.orderly --referee --turn 1"; do
	# shellcheck disable=SC2086
	expect_exit 65 ord $c
	expect_eq "$ERR" "orderly: 'schema-flip.orderly' is a damaged game file (its table 'result' has no column 'explanation'); restore it from a copy" "$c"
done
expect_eq "$(sha schema-flip.orderly)" "$before" "the bytes of schema-flip.orderly"
# ... and so it is before any phase is resolved, and a change that does
# not use the column is not made
expect_exit 0 ord new unresolved.orderly --scenario "$FIX/scenario.xml"
sql unresolved.orderly "PRAGMA writable_schema = ON;
	UPDATE sqlite_schema SET sql = replace(sql, 'value ', 'valux ') WHERE name = 'roll'" >/dev/null
before=$(sha unresolved.orderly)
expect_exit 65 ord audit unresolved.orderly
expect_eq "$ERR" "orderly: 'unresolved.orderly' is a damaged game file (its table 'roll' has no column 'value'); restore it from a copy" "audit"
expect_exit 65 ord submit unresolved.orderly --side blue "$FIX/blue-1.txt"
expect_eq "$ERR" "orderly: 'unresolved.orderly' is a damaged game file (its table 'roll' has no column 'value'); restore it from a copy" "submit"
expect_eq "$(sha unresolved.orderly)" "$before" "the bytes of unresolved.orderly"

# a forged roster: turn 1's opening digests other units (units_root) and
# turn 2's other sides (sides_root), the chain recomputed and every head
# re-signed with the game's key (tests/e2e/forge.c), as a referee would
# who edited a unit's row and the opening's root alike so that every
# change took it: the audit, and a player's verify of the bundle,
# recompute them from the scenario
need_forge
OPEN1=$(seq_of open "AND turn = 1")
OPEN2=$(seq_of open "AND turn = 2")
ZEROS=$(printf '0%.0s' {1..64})
cp "$BASE" roots.orderly
sql roots.orderly "UPDATE log SET body = replace(body,
		'units_root=' || substr(body, instr(body, 'units_root=') + 11, 64), 'units_root=$ZEROS')
	WHERE seq = $OPEN1;
	UPDATE log SET body = replace(body,
		'sides_root=' || substr(body, instr(body, 'sides_root=') + 11, 64), 'sides_root=$ZEROS')
	WHERE seq = $OPEN2" >/dev/null
"$FORGE" rechain roots.orderly || fail "ord_forge rechain roots.orderly"
UNITS_FORGED="the units (their ids, sides, names and attributes) turn 1's opening (entry $OPEN1) digests, units_root=$ZEROS, are not the scenario's"
SIDES_FORGED="the sides (their names, titles and keys) turn 2's opening (entry $OPEN2) digests, sides_root=$ZEROS, are not the scenario's"
expect_exit 1 ord audit roots.orderly
expect_in "$OUT" "$UNITS_FORGED"
expect_in "$OUT" "$SIDES_FORGED"
expect_not_in "$OUT" "does not match its hash"
expect_exit 65 ord export roots.orderly --turn 1 -o roots-1.xml
expect_in "$ERR" "
  FAILED: $UNITS_FORGED"
"$FORGE" export roots.orderly 1 roots-1.xml || fail "ord_forge export roots.orderly"
PUBKEY=$(ord info roots.orderly | awk '/^key:/ {print $2}')
expect_exit 1 ord verify roots-1.xml --pubkey "$PUBKEY"
expect_in "$OUT" "$UNITS_FORGED"
# the next turn's opening, which its bundle ends with: the roster turn 2
# is played with, before turn 2's bundle is made
expect_in "$OUT" "$SIDES_FORGED"

# the untouched game: still clean, and never written to by the cases
expect_exit 0 ord audit "$BASE"
expect_in "$OUT" "clean"
expect_eq "$(sha "$BASE")" "$base_sha" "the base game's bytes"

note "ok"
