#!/usr/bin/env bash
# test_live_rows.sh - a change of the game holds the live rows it acts on to
# what the log records before it acts.  A referee with the game file and the
# sqlite3 shell edits a row between two commands (the turn's seed or dice
# key, a sheet's bytes or its row, an event's arguments, a side's key, a
# unit's name); the next seal, event, resolve or exchange acted on the
# edited row and chained its entry over it, and only the audit said so
# afterwards (a red team's find); a unit row changed only while a sheet
# was submitted let the sheet order what the rules refuse.  Each is now refused as a damaged game
# file (exit 65), naming the row and what the log holds, the file left byte
# for byte as it was; the untouched game plays on.
set -euo pipefail
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
need_sqlite3
need_forge

cd "$TMP"

# refused NAME BASE SQL CMD MESSAGE: a copy of BASE changed with SQL; CMD
# (an orderly command, the game's path where GAME is) is refused, exit 65,
# saying MESSAGE (of the game NAME.orderly), and the file is as it was
# (SQL empty: BASE as it is)
refused() {
	local name=$1 base=$2 query=$3 cmd=$4 want=$5 game=$1.orderly
	cp "$base" "$game"
	if [[ -n "$query" ]]; then
		sql "$game" "$query" >/dev/null || fail "$name: the sqlite3 shell refused: $query"
		cmp -s "$base" "$game" && fail "$name: the change changed nothing (fix the test): $query"
	fi
	cp "$game" "$name.before"
	# shellcheck disable=SC2086
	expect_exit 65 ord ${cmd//GAME/$game}
	expect_eq "$ERR" "orderly: '$game': $want: it was changed outside orderly ('orderly audit' says where); nothing was done" "$name"
	cmp "$game" "$name.before" || fail "$name: the refused ${cmd%% *} changed the game file"
	[[ ! -e "$game-wal" ]] || fail "$name: a write-ahead log was left beside the game"
	# the audit finds it too
	expect_exit 1 ord audit "$game"
}

logged() {  # the log entry's body on one line, as a refusal shows it
	sql "$1" "SELECT replace(rtrim(body, char(10)), char(10), '; ') FROM log WHERE seq = $2"
}

# ------------------------------------------------------------- the game
expect_exit 0 ord new open.orderly --scenario "$FIX/scenario.xml"
expect_exit 0 ord submit open.orderly --side blue "$FIX/blue-1.txt"
expect_exit 0 ord submit open.orderly --side red "$FIX/red-1.txt"
OPEN=$(sql open.orderly "SELECT seq FROM log WHERE kind = 'open' AND turn = 1")
SC=$(sql open.orderly "SELECT lower(hex(seed_commitment)) FROM turn WHERE turn = 1")
RED_SHEET=$(sql open.orderly "SELECT log_seq FROM sheet WHERE side_id = (SELECT id FROM side WHERE name = 'red')")
RED_C=$(sql open.orderly "SELECT lower(hex(commitment)) FROM sheet WHERE log_seq = $RED_SHEET")
RED="side_id = (SELECT id FROM side WHERE name = 'red')"
EDIT_RED="UPDATE sheet SET bytes = CAST(replace(CAST(bytes AS TEXT), '@B1', '@B2') AS BLOB) WHERE $RED"

# -------------------------------------------------------------- the seal
# the seed drawn again in the turn's row, after the sheets were committed
refused seed-before-seal open.orderly "UPDATE turn SET seed = randomblob(32) WHERE turn = 1" "seal GAME" \
	"the dice seed in turn 1's row (table turn) does not match the commitment its opening (log entry $OPEN) logs, seed_commitment=$SC"
refused seed-commitment open.orderly "UPDATE turn SET seed_commitment = randomblob(32) WHERE turn = 1" "seal GAME" \
	"the seed commitment in turn 1's row (table turn) is not the one its opening (log entry $OPEN) logs, seed_commitment=$SC"
# ... and a sheet is not bound to it
refused seed-commitment-submit open.orderly "UPDATE turn SET seed_commitment = randomblob(32) WHERE turn = 1" \
	"submit GAME --side blue $FIX/blue-1b.txt" \
	"the seed commitment in turn 1's row (table turn) is not the one its opening (log entry $OPEN) logs, seed_commitment=$SC"
# a sheet's text changed after it was submitted (R1 fires on B2, not B1)
refused sheet-before-seal open.orderly "$EDIT_RED" "seal GAME" \
	"the sheet of red, version 1, of turn 1 (table sheet): its bytes, nonce and the turn's seed commitment do not give the commitment log entry $RED_SHEET records, commitment=$RED_C"
# what the opening digests of the roster (sides_root, units_root), which
# the scenario states: a unit renamed, a unit given to the other side
# (whose sheet may then order it), a side given a key
ROSTER="against the roster turn 1's opening, log entry $OPEN, digests"
refused unit-name open.orderly "UPDATE unit SET name = '2nd Red Foot' WHERE uid = 'R1'" "seal GAME" \
	"unit 'R1' is not the scenario's unit 4 ('R1') as the game began: its name is '2nd Red Foot', the scenario's '1st Red Foot' (tables side and unit, $ROSTER)"
refused unit-side open.orderly "UPDATE unit SET side_id = (SELECT id FROM side WHERE name = 'blue') WHERE uid = 'R1'" "seal GAME" \
	"unit 'R1' belongs to side 'blue' in the game file, but to 'red' in the scenario (tables side and unit, $ROSTER)"
refused side-key open.orderly "UPDATE side SET pubkey = randomblob(32) WHERE name = 'red'" "seal GAME" \
	"side 'red' has a key in the game file, but none in the scenario (tables side and unit, $ROSTER)"
# a side's key swapped for the referee's while he submits a sheet he signed
# for it (to be put back before the seal): the submit does not take it
expect_exit 0 ord keygen blue.key
BLUEKEY=$(sed -n 's/^public key: //p' <<<"$OUT")
expect_exit 0 ord keygen forger.key
FORGER=$(sed -n 's/^public key: //p' <<<"$OUT")
sed "s/<side id=\"blue\" name=\"Blue Army\"/& pubkey=\"$BLUEKEY\"/" "$FIX/scenario.xml" >keyed.xml
expect_exit 0 ord new keyed.orderly --scenario keyed.xml --head open.head
expect_exit 0 ord sign --head open.head --side blue --key forger.key "$FIX/blue-1.txt"
NONCE=$(sed -n 's/^nonce: //p' <<<"$OUT")
SIG=$(sed -n 's/^signature: //p' <<<"$OUT")
KOPEN=$(sql keyed.orderly "SELECT seq FROM log WHERE kind = 'open' AND turn = 1")
SWAP="UPDATE side SET pubkey = X'$FORGER' WHERE name = 'blue'"
SWAPPED="side 'blue' has another key in the game file than in the scenario, $BLUEKEY (tables side and unit, against the roster turn 1's opening, log entry $KOPEN, digests)"
refused side-key-submit keyed.orderly "$SWAP" \
	"submit GAME --side blue --nonce $NONCE --signature $SIG $FIX/blue-1.txt" "$SWAPPED"
# the key left swapped: the seal does not take it either
expect_exit 0 ord submit keyed.orderly --side red "$FIX/red-1.txt"
refused side-key-swapped keyed.orderly "$SWAP" "seal GAME" "$SWAPPED"
# a game opened before the roster's digests (its opening's sides_root and
# units_root taken out, and the made= of an orderly since 2026-12-07 from
# its creation and opening, the chain made again): the submit takes the sheet
# signed while the key was swapped; put back, the seal finds that the
# sheet is not signed by the side's key
expect_exit 0 ord new unrostered.orderly --scenario keyed.xml --head unrostered.head
expect_exit 0 ord sign --head unrostered.head --side blue --key forger.key "$FIX/blue-1.txt"
NONCE=$(sed -n 's/^nonce: //p' <<<"$OUT")
SIG=$(sed -n 's/^signature: //p' <<<"$OUT")
UOPEN=$(sql unrostered.orderly "SELECT seq FROM log WHERE kind = 'open' AND turn = 1")
unmark unrostered.orderly
sql unrostered.orderly "UPDATE log SET body = replace(body, 'made=2026-12-07' || char(10), '') WHERE kind IN ('create', 'open');
	UPDATE log SET body = replace(body, substr(body, instr(body, 'sides_root='), 76), '') WHERE seq = $UOPEN;
	UPDATE log SET body = replace(body, substr(body, instr(body, 'units_root='), 76), '') WHERE seq = $UOPEN" >/dev/null
[[ "$(sql unrostered.orderly "SELECT count(*) FROM log WHERE seq = $UOPEN AND (body LIKE '%sides_root=%' OR body LIKE '%units_root=%')")" == 0 ]] ||
	fail "the opening still names the roster (fix the test)"
"$FORGE" rechain unrostered.orderly || fail "ord_forge rechain unrostered.orderly"
sql unrostered.orderly "$SWAP" >/dev/null
expect_exit 0 ord submit unrostered.orderly --side blue --nonce "$NONCE" --signature "$SIG" "$FIX/blue-1.txt"
sql unrostered.orderly "UPDATE side SET pubkey = X'$BLUEKEY' WHERE name = 'blue'" >/dev/null
expect_exit 0 ord submit unrostered.orderly --side red "$FIX/red-1.txt"
refused forged-sheet unrostered.orderly "" "seal GAME" \
	"the sheet of blue, version 1, of turn 1 (table sheet): its signature is not side blue's over its commitment (side blue's key as table side holds it)"

# a unit given to another side while a sheet was submitted, and put back:
# red orders blue's hussars, which its submit took against the changed
# row (a submit holds no unit row to the log); the seal checks every last
# sheet again against the units it holds, and refuses
B3_RED="UPDATE unit SET side_id = (SELECT id FROM side WHERE name = 'red') WHERE uid = 'B3'"
B3_BLUE="UPDATE unit SET side_id = (SELECT id FROM side WHERE name = 'blue') WHERE uid = 'B3'"
printf '# Red, turn 1\nR1 \xe2\x86\x91 1/4 @B1\nR2 \xe2\x86\x92 1/2\nB3 \xe2\x86\x92 1/2\n' >red-b3.txt
expect_exit 0 ord new b3.orderly --scenario "$FIX/scenario.xml"
expect_exit 0 ord submit b3.orderly --side blue "$FIX/blue-1.txt"
expect_exit 65 ord submit b3.orderly --side red red-b3.txt
expect_in "$ERR" "red-b3.txt:4:1: unit 'B3' belongs to side blue, not red"
sql b3.orderly "$B3_RED" >/dev/null
expect_exit 0 ord submit b3.orderly --side red red-b3.txt
sql b3.orderly "$B3_BLUE" >/dev/null
cp b3.orderly b3.before
expect_exit 65 ord seal b3.orderly
expect_eq "$ERR" "orderly: 'b3.orderly': the sheet of red, version 1, of turn 1 (table sheet), which its submit took, is refused by the rules against the units as the turn's opening digests them (line 4:1: unit 'B3' belongs to side blue, not red (orders)): a unit's row was another while it was submitted: it was changed outside orderly ('orderly audit' says where); nothing was done" "a sheet taken against a unit of another side"
cmp b3.orderly b3.before || fail "the refused seal changed the game file"
# an orderly without that check seals it, the opening made to digest the
# changed rows (ord_forge units-root): the audit's replay checks the
# sealed sheets again against the units as the turn opened
sql b3.orderly "$B3_RED" >/dev/null
"$FORGE" units-root b3.orderly 1 || fail "ord_forge units-root b3.orderly 1"
expect_exit 0 ord seal b3.orderly
[[ "$(sql b3.orderly "SELECT body LIKE '%sheets_checked=1%' FROM log WHERE kind = 'seal'")" == 1 ]] ||
	fail "the seal's entry does not say it checked the sheets"
sql b3.orderly "$B3_BLUE" >/dev/null
expect_exit 1 ord audit b3.orderly
expect_in "$OUT" "BROKEN: the sheet of red, version 1, that the seal sealed is refused by the rules against the units as the turn opened (line 4:1: unit 'B3' belongs to side blue, not red (orders)): it was taken against other unit rows"
# the same seal without its claim (the chain rebuilt without
# sheets_checked=1): the replay checks the sheets of a turn whose opening
# digests the units whatever the seal says
sql b3.orderly "UPDATE log SET body = replace(body, 'sheets_checked=1' || char(10), '') WHERE kind = 'seal'" >/dev/null
[[ "$(sql b3.orderly "SELECT body LIKE '%sheets_checked%' FROM log WHERE kind = 'seal'")" == 0 ]] ||
	fail "the forged seal still says it checked the sheets"
"$FORGE" rechain b3.orderly || fail "ord_forge rechain b3.orderly"
expect_exit 1 ord audit b3.orderly
expect_in "$OUT" "BROKEN: the sheet of red, version 1, that the seal sealed is refused by the rules against the units as the turn opened (line 4:1: unit 'B3' belongs to side blue, not red (orders)): it was taken against other unit rows"

# the seal checks every side's sheet in one context of every unit, which
# finds a unit as the side's own context of a submit does: a unit renamed
# while a sheet was submitted, and named back, is a word of no unit, said
# as a submit says it now (its hint among every unit of the game)
RENAMED="UPDATE unit SET name = 'Red Cuirassier' WHERE uid = 'R3'"
NAMED_BACK="UPDATE unit SET name = 'Red Cuirassiers' WHERE uid = 'R3'"
printf '# Red, turn 1\nR1 \xe2\x86\x91 1/4 @B1\nRed Cuirassier: \xe2\x86\x92 1/2\n' >red-renamed.txt
expect_exit 0 ord new renamed.orderly --scenario "$FIX/scenario.xml"
expect_exit 0 ord submit renamed.orderly --side blue "$FIX/blue-1.txt"
sql renamed.orderly "$RENAMED" >/dev/null
expect_exit 0 ord submit renamed.orderly --side red red-renamed.txt
sql renamed.orderly "$NAMED_BACK" >/dev/null
expect_exit 65 ord submit renamed.orderly --side red red-renamed.txt --check
expect_in "$ERR" "red-renamed.txt:3:1: unknown unit 'Red Cuirassier': did you mean 'R3' (Red Cuirassiers)?"
cp renamed.orderly renamed.before
expect_exit 65 ord seal renamed.orderly
expect_eq "$ERR" "orderly: 'renamed.orderly': the sheet of red, version 1, of turn 1 (table sheet), which its submit took, is refused by the rules against the units as the turn's opening digests them (line 3:1: unknown unit 'Red Cuirassier': did you mean 'R3' (Red Cuirassiers)? (orders)): a unit's row was another while it was submitted: it was changed outside orderly ('orderly audit' says where); nothing was done" "a sheet naming a unit by a name it had only while submitted"
cmp renamed.orderly renamed.before || fail "the refused seal changed the game file"

# a game whose words name two units (a name that is another unit's id,
# as a scenario could have before it was refused; its opening made to
# digest it): a side's own context finds its own unit by the word, as
# red's submit took "B1" for its rifles, and the seal checks that side's
# sheet in such a context again, not in the context of every unit, where
# "B1" is blue's line: it seals
TWICE="UPDATE unit SET name = 'B1' WHERE uid = 'R2'"
printf '# Red, turn 1\nR1 \xe2\x86\x91 1/4\nB1 \xe2\x86\x92 1/2\n' >red-twice.txt
expect_exit 0 ord new twice.orderly --scenario "$FIX/scenario.xml"
sql twice.orderly "$TWICE" >/dev/null
"$FORGE" units-root twice.orderly 1 || fail "ord_forge units-root twice.orderly 1"
expect_exit 0 ord submit twice.orderly --side blue "$FIX/blue-1.txt"
expect_exit 0 ord submit twice.orderly --side red red-twice.txt
expect_exit 0 ord seal twice.orderly
[[ "$(sql twice.orderly "SELECT body LIKE '%sheets_checked=1%' FROM log WHERE kind = 'seal'")" == 1 ]] ||
	fail "the seal's entry does not say it checked the sheets"

# untouched, it seals, and its entry says it checked the sheets
cp open.orderly sealed.orderly
expect_exit 0 ord seal sealed.orderly
SEAL=$(sql sealed.orderly "SELECT seq FROM log WHERE kind = 'seal'")
[[ "$(sql sealed.orderly "SELECT body LIKE '%sheets_checked=1%' FROM log WHERE seq = $SEAL")" == 1 ]] ||
	fail "the seal's entry does not say it checked the sheets"

# ----------------------------------------------------- events and resolve
# a sealed sheet's text changed after the seal: the phase would play the
# edited orders
refused sheet-after-seal sealed.orderly "$EDIT_RED" "resolve GAME --phase movement" \
	"the sheet of red, version 1, of turn 1 (table sheet): its bytes, nonce and the turn's seed commitment do not give the commitment log entry $RED_SHEET records, commitment=$RED_C"
# its row's commitment made to agree with its new bytes: the row is not its entry
refused sheet-row sealed.orderly "UPDATE sheet SET commitment = randomblob(32) WHERE $RED" \
	"resolve GAME --phase movement" \
	"the sheet of red, version 1, of turn 1 (table sheet) differs from what log entry $RED_SHEET records of it: $(logged sealed.orderly "$RED_SHEET")"
# a version slipped in after the seal, as the side's latest
refused sheet-version sealed.orderly "UPDATE sheet SET version = 2 WHERE $RED" \
	"resolve GAME --phase movement" \
	"the sheet of red, version 2, of turn 1 (table sheet) differs from what log entry $RED_SHEET records of it: $(logged sealed.orderly "$RED_SHEET")"
refused seed-after-seal sealed.orderly "UPDATE turn SET seed = randomblob(32) WHERE turn = 1" \
	"resolve GAME --phase movement" \
	"the dice seed in turn 1's row (table turn) does not match the commitment its opening (log entry $OPEN) logs, seed_commitment=$SC"
KEY=$(sql sealed.orderly "SELECT lower(hex(dice_key)) FROM turn WHERE turn = 1")
refused dice-key sealed.orderly "UPDATE turn SET dice_key = randomblob(32) WHERE turn = 1" \
	"resolve GAME --phase movement" \
	"the dice key in turn 1's row (table turn) is not the one its seed and the sheets the seal (log entry $SEAL) names give, $KEY"

# an event's arguments changed before its phase is resolved
cp sealed.orderly moved.orderly
expect_exit 0 ord event moved.orderly move unit=B1 distance=2
MOVE=$(sql moved.orderly "SELECT log_seq FROM event WHERE seq = 1")
EDIT_MOVE="UPDATE event SET args = replace(args, 'distance=2', 'distance=9') WHERE seq = 1"
refused event-args moved.orderly "$EDIT_MOVE" "resolve GAME --phase movement" \
	"event #1 of turn 1 (table event) differs from what log entry $MOVE records of it: seq=1; phase=movement; kind=move; arg.unit=B1; arg.distance=2; arg.terrain=open; arg.charge=no"
# ... and an event checked with it is refused: B1's events are read to
# check another of B1's
refused event-args-event moved.orderly "$EDIT_MOVE" "event GAME move unit=B1 distance=1" \
	"event #1 of turn 1 (table event) differs from what log entry $MOVE records of it: seq=1; phase=movement; kind=move; arg.unit=B1; arg.distance=2; arg.terrain=open; arg.charge=no"
# an event that names no unit of it reads nothing of it (the audit finds
# the edit; recording R1's move does not)
cp moved.orderly other.orderly
sql other.orderly "$EDIT_MOVE" >/dev/null
expect_exit 0 ord event other.orderly move unit=R1 distance=1
# the event's log entry edited with it, its hash not made again
refused event-and-entry moved.orderly \
	"$EDIT_MOVE; UPDATE log SET body = replace(body, 'arg.distance=2', 'arg.distance=9') WHERE seq = $MOVE" \
	"resolve GAME --phase movement" \
	"log entry $MOVE, which records event #1 of turn 1 (table event), does not match its hash (edited)"

# a unit's attributes changed after the seal: the phase would play B1 as
# a class A battalion (only the audit's replay said so)
B1_ATTRS="'kind=line_infantry\\nformation=column\\nfigures=24\\nclass=C\\nweapon=musket\\nquality=line\\n'"
refused unit-attrs-after-seal moved.orderly "UPDATE unit SET attrs = replace(attrs, 'class=C', 'class=A') WHERE uid = 'B1'" \
	"resolve GAME --phase movement" \
	"unit 'B1' is not the scenario's unit 1 ('B1') as the game began: its attributes differ, the scenario's are $B1_ATTRS (tables side and unit, $ROSTER)"
# a unit renamed between two seals (and put back before the next, which
# finds nothing): the sheets of the turn are played against its rows
refused unit-name-after-seal moved.orderly "UPDATE unit SET name = '2nd Red Foot' WHERE uid = 'R1'" \
	"resolve GAME --phase movement" \
	"unit 'R1' is not the scenario's unit 4 ('R1') as the game began: its name is '2nd Red Foot', the scenario's '1st Red Foot' (tables side and unit, $ROSTER)"
# ... put back, the phase is played
sql unit-name-after-seal.orderly "UPDATE unit SET name = '1st Red Foot' WHERE uid = 'R1'" >/dev/null
expect_exit 0 ord resolve unit-name-after-seal.orderly --phase movement
# a side's title changed: the sides' digest, at every change that reads the
# turn's opening
refused side-title-after-seal moved.orderly "UPDATE side SET title = 'Reds' WHERE name = 'red'" \
	"resolve GAME --phase movement" \
	"side 'red' is not the scenario's side 'red' (tables side and unit, $ROSTER)"

# the event voided in its row, no void logged: the phase skipped it
refused event-void-row moved.orderly "UPDATE event SET void_log = log_seq, void_reason = 'gone' WHERE seq = 1" \
	"resolve GAME --phase movement" \
	"the void of event #1 of turn 1 (table event) points at log entry $MOVE, which is a event entry of turn 1"

# untouched, the turn plays to its end
cp moved.orderly played.orderly
expect_exit 0 ord resolve played.orderly --phase movement
expect_in "$OUT" "B1: moved 2\""

# a unit no phase of the turn has changed yet (the gun B2: 10 figures made
# 40), its last state row and its current state alike, so that the two
# agree: the next phase is held to every unit's state as the phase before
# left them, which its resolve entry digests (state_root); the fire was
# resolved from the edited gun until then
B2_ROWS="WHERE unit_id = (SELECT id FROM unit WHERE uid = 'B2')"
GUN40="UPDATE unit_state SET state = replace(state, 'figures=10', 'figures=40') $B2_ROWS;
	UPDATE unit_current SET state = replace(state, 'figures=10', 'figures=40') $B2_ROWS"
# states_refused NAME BASE CMD PHASE: BASE with the gun edited; CMD is
# refused naming the last phase resolved (PHASE), the file as it was
states_refused() {
	local name=$1 game=$1.orderly entry
	cp "$2" "$game"
	sql "$game" "$GUN40" >/dev/null
	entry=$(sql "$game" "SELECT max(seq) FROM log WHERE kind = 'resolve'")
	cp "$game" "$name.before"
	# shellcheck disable=SC2086
	expect_exit 65 ord ${3//GAME/$game}
	expect_eq "$ERR" "orderly: '$game': the units' states are not the ones phase $4 of turn 1 left them in, as its resolve entry (entry $entry) digests them: they were changed outside orderly ('orderly audit' says where); nothing was done" "$name"
	cmp "$game" "$name.before" || fail "$name: the refused ${3%% *} changed the game file"
	expect_exit 1 ord audit "$game"
}
states_refused state-later-phase played.orderly "resolve GAME --phase fire --empty" "1 (movement)"
for phase in fire fire-morale melee melee-morale; do
	expect_exit 0 ord resolve played.orderly --phase $phase --empty
done
# ... and the exchange, which would open the next turn from them
states_refused state-at-exchange played.orderly "exchange GAME" "5 (melee-morale)"

# ------------------------------------------------------------ the exchange
# the seed it would reveal, changed after the last phase
refused seed-at-exchange played.orderly "UPDATE turn SET seed = randomblob(32) WHERE turn = 1" "exchange GAME" \
	"the dice seed in turn 1's row (table turn) does not match the commitment its opening (log entry $OPEN) logs, seed_commitment=$SC"
# the sheet the next turn's opening names (a "repeat" repeats it)
refused sheet-at-exchange played.orderly "$EDIT_RED" "exchange GAME" \
	"the sheet of red, version 1, of turn 1 (table sheet): its bytes, nonce and the turn's seed commitment do not give the commitment log entry $RED_SHEET records, commitment=$RED_C"

# a unit's attributes (or its name), changed after the last phase: the
# next turn's opening would digest them
refused unit-attrs-at-exchange played.orderly "UPDATE unit SET attrs = replace(attrs, 'class=C', 'class=A') WHERE uid = 'B1'" \
	"exchange GAME" \
	"unit 'B1' is not the scenario's unit 1 ('B1') as the game began: its attributes differ, the scenario's are $B1_ATTRS (tables side and unit, $ROSTER)"
refused unit-name-at-exchange played.orderly "UPDATE unit SET name = 'Reds' WHERE uid = 'R1'" \
	"exchange GAME" \
	"unit 'R1' is not the scenario's unit 4 ('R1') as the game began: its name is 'Reds', the scenario's '1st Red Foot' (tables side and unit, $ROSTER)"

expect_exit 0 ord exchange played.orderly
expect_exit 0 ord audit played.orderly
expect_in "$OUT" "clean"

note "ok"
