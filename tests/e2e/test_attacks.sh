#!/usr/bin/env bash
# test_attacks.sh - the honesty holes of issue 10, each mounted as a
# dishonest referee would: he holds the game file and its key, the sqlite3
# shell and the public source (tests/e2e/forge.c recomputes every hash and
# re-signs every head for him).  Each attack must be caught by what a
# player holds (his receipts, the heads he was handed, the bundle, the
# game's public key: `orderly verify`, `orderly audit --head`), and the
# untouched game must pass the same checks (no false alarm).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_sqlite3
need_forge
BFIX=$SRC/tests/fixtures/bundle
KS=$SRC/rulesets/krigsspil/examples
cd "$TMP"

# the unsigned bundle scenario: blue's key left out
unkeyed_scenario scenario.xml

# A battalion turn 1 with real dice, up to (not including) the seal; the
# referee's heads and the players' receipts are kept.
opened() {  # opened GAME
	expect_exit 0 ord new "$1" --scenario scenario.xml --head "$1.open.head"
	expect_exit 0 ord submit "$1" --side blue "$BFIX/blue-1.txt"
	BLUE=$(field commitment "$OUT")
	expect_exit 0 ord submit "$1" --side red "$BFIX/red-1b.txt"
	RED=$(field commitment "$OUT")
}
# ... sealed, every phase resolved, exchanged, exported
played() {  # played GAME
	expect_exit 0 ord seal "$1" --head "$1.seal.head"
	expect_exit 0 ord event "$1" move unit=B1 distance=2
	expect_exit 0 ord resolve "$1"
	expect_exit 0 ord event "$1" fire unit=R1 target=B1 range=5
	expect_exit 0 ord event "$1" artillery unit=B2 target=R1 range=10
	for _ in 1 2 3 4; do expect_exit 0 ord resolve "$1"; done
	expect_exit 0 ord exchange "$1" --head "$1.exchange.head"
	export_bundle "$1" 1 "$1.xml"
}
pubkey() { ord info "$1" | awk '/^key:/ {print $2}'; }
# what the player runs
player_verify() {  # player_verify GAME [more options]: the bundle with everything he holds
	local g=$1
	shift
	run ord verify "$g.xml" --pubkey "$(pubkey "$g")" --receipt "$BLUE" \
		--head "$g.open.head" --head "$g.seal.head" --head "$g.exchange.head" "$@"
}

# ------------------------------------------------------------ no false alarm
opened honest.game
played honest.game
player_verify honest.game
[[ $RC == 0 ]] || fail "the honest game's bundle does not verify"
expect_in "$OUT" "verified: every check holds"
expect_in "$OUT" "ok: replay: 5 phases replayed through ruleset battalion"
expect_exit 0 ord audit honest.game --head honest.game.open.head --head honest.game.seal.head --head honest.game.exchange.head
expect_in "$OUT" "clean"

# ------------------------------------------------------------ 1. the seed re-drawn after every sheet is in
# He waits for both sheets, draws a new seed, writes its commitment into the
# opening, commits every sheet again to it, re-chains the log, re-signs
# every head, then seals and plays the turn.
opened redraw.game
forge redraw-seed redraw.game 1
played redraw.game
expect_exit 0 ord audit redraw.game
expect_in "$OUT" "clean"   # consistent on its own...
player_verify redraw.game  # ...but not against what the players hold
[[ $RC == 1 ]] || fail "attack 1: verify exited $RC"
expect_in "$OUT" "receipt $BLUE: no sheet of turn 1 has this commitment"
expect_in "$OUT" "the head you kept of turn 1's open (entry 3): entry 3 does not have the hash that was signed"
expect_exit 1 ord audit redraw.game --head redraw.game.open.head
expect_in "$OUT" "no longer has the hash that was signed"
# and a sheet signed by its player for the first seed no longer passes
note "1: a re-drawn seed is caught by the receipts and the opening's head"

# ------------------------------------------------------------ 2. NMR grinding
# Red sends nothing; the referee seals copies of the game and keeps the one
# whose dice he likes.  Every copy now gives the same stand-in and dice key.
expect_exit 0 ord new nmr.game --scenario scenario.xml
expect_exit 0 ord submit nmr.game --side blue "$BFIX/blue-1.txt"
for i in 1 2 3; do
	cp nmr.game "try$i.game"
	expect_exit 0 ord seal "try$i.game" --force
	expect_in "$OUT" "no sheet from red: the NMR policy stood in"
	keys[$i]=$(sql "try$i.game" "SELECT hex(dice_key) FROM turn WHERE turn = 1")
	standin[$i]=$(sql "try$i.game" "SELECT hex(nonce) || hex(commitment) FROM sheet WHERE source <> 'submitted'")
done
[[ -n "${keys[1]}" && "${keys[1]}" == "${keys[2]}" && "${keys[2]}" == "${keys[3]}" ]] ||
	fail "attack 2: re-sealing copies gives other dice keys: ${keys[*]}"
[[ "${standin[1]}" == "${standin[2]}" && "${standin[2]}" == "${standin[3]}" ]] ||
	fail "attack 2: re-sealing copies gives other stand-ins"
# a stand-in whose nonce he draws himself (the old grind) is caught
cp try1.game grind.game
forge stand-in-nonce grind.game red 1
expect_exit 1 ord audit grind.game
expect_in "$OUT" "a stand-in (hold) whose nonce is not the one derived from the game, turn and side"
note "2: the NMR stand-in and the dice key are the same in every copy"

# ------------------------------------------------------------ 3. a phase skipped
opened skip.game
expect_exit 0 ord seal skip.game --head skip.game.seal.head
expect_exit 0 ord event skip.game move unit=B1 distance=2
expect_exit 0 ord resolve skip.game
expect_exit 0 ord event skip.game fire unit=R1 target=B1 range=5
expect_exit 0 ord resolve skip.game
# the turn row moved past fire-morale: orderly refuses to go on
cp skip.game row.game
sql row.game "UPDATE turn SET phase = phase + 1 WHERE turn = 1" >/dev/null
expect_exit 65 ord resolve row.game
expect_in "$ERR" "changed outside orderly"
expect_exit 1 ord audit row.game
expect_in "$OUT" "the turn's row says sealed with 3 phases resolved, but the log shows it sealed with 2"
# the careful forger logs fire-morale as resolved with nothing in it and
# plays on: B1 lost 6 of 24 figures and took no morale test
forge skip-phase skip.game
expect_exit 0 ord resolve skip.game
expect_exit 0 ord resolve skip.game
expect_exit 0 ord exchange skip.game --head skip.game.exchange.head
expect_exit 1 ord audit skip.game
expect_in "$OUT" "phase fire-morale: the rules give 1 results, but 0 are recorded"
export_bundle skip.game 1 skip.game.xml
expect_exit 1 ord verify skip.game.xml --pubkey "$(pubkey skip.game)"
expect_in "$OUT" "phase fire-morale: the rules roll 1 die, but 0 are recorded: missing [fire-morale #0 fire morale B1 #0 d6]"
note "3: a skipped phase is caught by the replay"

# ------------------------------------------------------------ 4. results falsified before the exchange head
# B1 loses 1 figure instead of 6: the result, the state it wrote, the
# phase's digest, the chain and every head are made to agree.
opened forged.game
played forged.game
FIRE=$(sql forged.game "SELECT seq FROM log WHERE kind = 'resolve' AND body LIKE '%phase=fire' || char(10) || '%'")
sql forged.game "UPDATE result SET vals = replace(vals, 'casualties=6', 'casualties=1'),
	explanation = replace(explanation, '6 dead', '1 dead') WHERE log_seq = $FIRE AND unit = 'B1';
	UPDATE unit_state SET state = replace(replace(state, 'figures=18', 'figures=23'), 'losses=6', 'losses=1')
	WHERE log_seq = $FIRE" >/dev/null
forge digest forged.game "$FIRE"
export_bundle forged.game 1 forged.game.xml
run ord verify forged.game.xml --pubkey "$(pubkey forged.game)" --receipt "$BLUE"
[[ $RC == 1 ]] || fail "attack 4: verify exited $RC:
$OUT"
expect_in "$OUT" "ok: signature by the game's key"
expect_in "$OUT" "ok: log: "
expect_in "$OUT" "phase fire: the result for B1 is recorded with casualties=1, but the rules give casualties=6 ("
expect_in "$OUT" "phase fire: unit B1 ends the phase with figures=18, losses=6, turn_losses=6 by the rules, but its recorded state has figures=23, losses=1, turn_losses=1"
expect_exit 1 ord audit forged.game
expect_in "$OUT" "but the rules give"
# resolved by this orderly's rules: no word of other rules
expect_not_in "$OUT" "was resolved by"
# The same falsified turn as an orderly before 2026-12-02 would have
# logged it (its resolve entries name no rules revision): the differences
# stand, and the audit says that the rules that resolved it are not named.
unrevise() {  # unrevise GAME: the resolve entries without the revisions, chained again
	sql "$1" "UPDATE log SET body = replace(replace(body, 'core_revision=$CORE' || char(10), ''),
		'rules_revision=$REV' || char(10), '') WHERE kind = 'resolve'" >/dev/null
	forge rechain "$1"
}
expect_exit 0 ord version
CORE=$(sed -n 's/^core revision //p' <<<"$OUT")
REV=$(sed -n 's/^battalion rules revision //p' <<<"$OUT")
[[ -n $CORE && -n $REV ]] || fail "orderly version names no revisions: $OUT"
[[ "$(sql forged.game "SELECT count(*) FROM log WHERE kind = 'resolve' AND body LIKE '%rules_revision=$REV%' AND body LIKE '%core_revision=$CORE%'")" == 5 ]] ||
	fail "the resolve entries do not name the rules revision"
cp forged.game old-forged.game
unrevise old-forged.game
expect_exit 1 ord audit old-forged.game
expect_in "$OUT" "but the rules give casualties=6"
expect_in "$OUT" "note: phase 2 (fire) was resolved by an orderly that names no rules revision (before 2026-12-02); this orderly replays it with battalion rules of $REV (core $CORE): a rule corrected between the two shows as a difference, which is no cheat by itself (the ruleset's README lists what each revision corrected); check this turn with the orderly it was played with"
expect_not_in "$OUT" "phase 1 (movement) was resolved by"
# the forged turn's entries made to name rules this orderly does not know
# (a red-team finding): the difference is not excused
for made in 2099-01-01.1 house-rules; do
	cp forged.game made-$made.game
	sql made-$made.game "UPDATE log SET body = replace(body, 'rules_revision=$REV', 'rules_revision=$made') WHERE kind = 'resolve'" >/dev/null
	forge rechain made-$made.game
	expect_exit 1 ord audit made-$made.game
	expect_in "$OUT" "but the rules give casualties=6"
	expect_in "$OUT" "note: phase 2 (fire) was resolved, its entry says, by battalion rules of $made (core $CORE), which this orderly (battalion rules of $REV, core $CORE) does not know: "
	expect_in "$OUT" "else the entry names rules that never were, and the difference stands"
	expect_not_in "$OUT" "no cheat by itself"
done
expect_in "$OUT" "does not know: it is not a revision (YYYY-MM-DD.N)"
# a later core alone (a code review's find), and a core without its rules
cp forged.game made-core.game
sql made-core.game "UPDATE log SET body = replace(body, 'core_revision=$CORE', 'core_revision=2099-01-01.1') WHERE kind = 'resolve'" >/dev/null
forge rechain made-core.game
expect_exit 1 ord audit made-core.game
expect_in "$OUT" "does not know: it is later than its own, or names a core without its rules"
expect_not_in "$OUT" "no cheat by itself"
cp forged.game made-norules.game
sql made-norules.game "UPDATE log SET body = replace(body, 'rules_revision=$REV' || char(10), '') WHERE kind = 'resolve'" >/dev/null
forge rechain made-norules.game
expect_exit 1 ord audit made-norules.game
expect_in "$OUT" "(core $CORE), which this orderly"
expect_not_in "$OUT" "no cheat by itself"
# the forged phase alone made to name an earlier revision: the turn's
# phases name other rules than each other, and nothing is excused
cp forged.game made-mixed.game
sql made-mixed.game "UPDATE log SET body = replace(body, 'rules_revision=$REV', 'rules_revision=2026-12-01.1') WHERE seq = $FIRE" >/dev/null
forge rechain made-mixed.game
expect_exit 1 ord audit made-mixed.game
expect_in "$OUT" "note: phase 2 (fire) was resolved by battalion rules of 2026-12-01.1 (core $CORE), but phase 1 of the same turn by battalion rules of $REV (core $CORE): the orderly was changed during the turn, or an entry rewritten before its head went out; a difference of the turn's replay is excused by neither"
expect_in "$OUT" "cannot excuse: the turn's phases name other rules than each other"
expect_not_in "$OUT" "no cheat by itself"
# an honest turn of that orderly: the same results, and said once
cp honest.game old-honest.game
unrevise old-honest.game
expect_exit 0 ord audit old-honest.game
expect_in "$OUT" "clean"
expect_in "$OUT" "note: phase 1 (movement) and the turn's later phases were resolved by an orderly that names no rules revision (before 2026-12-02); this orderly, with battalion rules of $REV (core $CORE), gives the same"
[[ $(grep -c 'rules revision' <<<"$OUT") == 1 ]] || fail "the other rules are named more than once:
$OUT"
# a forged roll: the gun's die
opened roll.game
played roll.game
sql roll.game "UPDATE roll SET value = value % 6 + 1 WHERE purpose = 'artillery to hit'" >/dev/null
forge digest roll.game "$(sql roll.game "SELECT log_seq FROM roll WHERE purpose = 'artillery to hit'")"
expect_exit 1 ord audit roll.game
expect_in "$OUT" "(the dice were chosen)"
# the digest a phase's entry logs of every unit's state as it left them
# (state_root, which the next phase and the exchange hold the game file
# to) made another and the chain made again: the replay's states are not
# those; a player's verify of the turn's bundle says so too
cp honest.game root.game
MOVED=$(sql root.game "SELECT min(seq) FROM log WHERE kind = 'resolve'")
sql root.game "UPDATE log SET body = substr(body, 1, instr(body, 'state_root=') + 10) || '$(printf '0%.0s' {1..64})' ||
	substr(body, instr(body, 'state_root=') + 75) WHERE seq = $MOVED" >/dev/null
[[ "$(sql root.game "SELECT count(*) FROM log WHERE seq = $MOVED AND body LIKE '%state_root=$(printf '0%.0s' {1..64})' || char(10) || '%'")" == 1 ]] ||
	fail "the movement phase's entry logs no state_root (fix the test)"
forge rechain root.game
expect_exit 1 ord audit root.game
expect_in "$OUT" "phase 1 (movement): the units' states the replay gives are not the ones its resolve entry (entry $MOVED) digests"
export_bundle root.game 1 root.game.xml
run ord verify root.game.xml --pubkey "$(pubkey root.game)"
[[ $RC == 1 ]] || fail "the bundle of a forged state_root: verify exited $RC:
$OUT"
expect_in "$OUT" "phase 1 (movement): the units' states the replay gives are not the ones its resolve entry (entry $MOVED) digests"
note "4: a falsified result, unit state, roll and states' digest are caught by the replay (battalion)"

# the same in the Krigsspil: turn 1 of its demo, real dice, fire and artillery
ks_turn() {  # ks_turn GAME
	expect_exit 0 ord new "$1" --scenario "$KS/scenario.xml" --tables "$KS/map.xml"
	expect_exit 0 ord submit "$1" --side danske "$KS/demo/turn1-danske.txt"
	expect_exit 0 ord submit "$1" --side allierede "$KS/demo/turn1-allierede.txt"
	expect_exit 0 ord seal "$1"
	expect_exit 0 ord resolve "$1"
	expect_exit 0 ord resolve "$1"
	expect_exit 0 ord event "$1" flyt unit=D3 x=90 y=68
	expect_exit 0 ord event "$1" flyt unit=L2 x=90 y=88
	expect_exit 0 ord resolve "$1"
	expect_exit 0 ord event "$1" skyd unit=D3 maal=L2 zone=II halv=yes
	expect_exit 0 ord event "$1" artilleri unit=A1 maal=L2 afstand=88
	expect_exit 0 ord resolve "$1"
	expect_exit 0 ord resolve "$1" --empty  # real dice: a unit the fire drove into U owes its retreat
	expect_exit 0 ord exchange "$1"
}
ks_turn ks.game
expect_exit 0 ord audit ks.game
expect_in "$OUT" "ok: replay: 5 phases replayed through ruleset krigsspil"
SKYD=$(sql ks.game "SELECT seq FROM log WHERE kind = 'resolve' AND body LIKE '%phase=skydninger%'")
[[ "$(sql ks.game "SELECT count(*) FROM result WHERE log_seq = $SKYD")" -ge 1 ]] || fail "the Krigsspil turn has no fire result"
[[ "$(sql ks.game "SELECT count(*) FROM result_text t JOIN result r ON r.id = t.result WHERE r.log_seq = $SKYD AND t.lang = 'en'")" -ge 1 ]] || fail "the Krigsspil fire results are not kept in English"
for what in result english state roll; do
	cp ks.game "ks-$what.game"
	case $what in
	english) sql "ks-$what.game" "UPDATE result_text SET text = text || ' (no loss)' WHERE lang = 'en' AND result = (SELECT min(id) FROM result WHERE log_seq = $SKYD)" ;;
	result) sql "ks-$what.game" "UPDATE result SET explanation = explanation || ' (no loss)' WHERE log_seq = $SKYD AND rowid = (SELECT min(rowid) FROM result WHERE log_seq = $SKYD)" ;;
	state) sql "ks-$what.game" "UPDATE unit_state SET state = replace(state, 'figurer=', 'figurer=1') WHERE log_seq = $SKYD AND unit_id = (SELECT min(unit_id) FROM unit_state WHERE log_seq = $SKYD)" ;;
	roll) sql "ks-$what.game" "UPDATE roll SET value = value % 6 + 1 WHERE log_seq = $SKYD AND rowid = (SELECT min(rowid) FROM roll WHERE log_seq = $SKYD)" ;;
	esac >/dev/null
	forge digest "ks-$what.game" "$SKYD"
	expect_exit 1 ord audit "ks-$what.game"
	case $what in
	result) expect_in "$OUT" "but the rules give" ;;
	english) expect_in "$OUT" "is recorded in en as '" && expect_in "$OUT" " (no loss)', but the rules give '" ;;
	state) expect_in "$OUT" "by the rules, but its recorded state has figurer=1" ;;
	roll) expect_in "$OUT" "(the dice were chosen)" ;;
	esac
done
note "4: a falsified result (in Danish or only in English), unit state and roll are caught by the replay (krigsspil)"
# the map has no Skema of its own: the game keeps the built-in one with it
# (threat model 12), after the map's own plates, before </map>
[[ "$(sql ks.game "SELECT instr(tables, '<tables ruleset=\"krigsspil\"') > instr(tables, '<plate') AND instr(tables, '</map>') > instr(tables, '</tables>') FROM game")" == 1 ]] ||
	fail "the Krigsspil game does not keep the Skema with its map"
note "12: a map without a Skema is kept with the built-in one"

# ------------------------------------------------------------ 5. settings in the live rows
opened rows.game
cp rows.game fixed.game
sql fixed.game "UPDATE game SET fixed_dice = 1" >/dev/null
expect_exit 65 ord seal fixed.game --force
expect_in "$ERR" "its fixed dice is not the one its log states"
expect_exit 1 ord audit fixed.game
expect_in "$OUT" "the game file's fixed dice is not the one logged when the game was made"
expect_not_in "$OUT" "a fixed-dice test game"
expect_exit 0 ord seal rows.game
cp rows.game dice.game
sql dice.game "UPDATE game SET fixed_dice = 1" >/dev/null
expect_exit 65 ord resolve dice.game --dice 6,6
for change in "nmr = 'repeat'|NMR policy" "ruleset = 'template'|ruleset" "refereeless = 1|referee"; do
	cp rows.game set.game
	sql set.game "UPDATE game SET ${change%%|*}" >/dev/null
	run ord audit set.game
	[[ $RC != 0 ]] || fail "attack 5: the audit passes a game whose ${change#*|} was changed"
done
cp rows.game side.game
sql side.game "UPDATE unit SET side_id = (SELECT id FROM side WHERE name = 'blue') WHERE uid = 'R1'" >/dev/null
expect_exit 1 ord audit side.game
expect_in "$OUT" "unit 'R1' belongs to side 'blue' in the game file, but to 'red' in the scenario"
note "5: the live rows are held against the log"

# ------------------------------------------------------------ 6. a head that cannot be written
opened heads.game
expect_exit 73 ord seal heads.game --head /no/such/dir/x.head
expect_exit 0 ord info heads.game
expect_in "$OUT" "turn:      1 (open)"
# a directory (or a device, a pipe) the head's rename would replace is
# known before the seal commits, not after it
mkdir -p a-dir.head
sum=$(sha256sum heads.game)
expect_exit 73 ord seal heads.game --head a-dir.head
expect_in "$ERR" "cannot write 'a-dir.head': it is a directory, not a file"
expect_in "$ERR" "the signed head cannot be written to 'a-dir.head', so nothing was changed"
expect_eq "$(sha256sum heads.game)" "$sum" "the game after a head that could not be written"
expect_exit 0 ord info heads.game
expect_in "$OUT" "turn:      1 (open)"
expect_exit 0 ord seal heads.game
expect_exit 0 ord head heads.game --at seal --turn 1 -o again.head
expect_in "$(cat again.head)" "at: seal"
expect_exit 0 ord audit heads.game --head again.head
expect_exit 0 ord head heads.game --at open -o open.head
expect_in "$(cat open.head)" "seed-commitment: "
# a receipt head into a directory that is not there: the sheet is not
# stored (it was, with exit 73, and a second try made version 2)
expect_exit 0 ord new rh.game --scenario scenario.xml
sum=$(sha256sum rh.game)
expect_exit 73 ord submit rh.game --side blue "$BFIX/blue-1.txt" --receipt-head /no/such/dir/b.receipt
expect_eq "$ERR" "orderly: cannot create '/no/such/dir/b.receipt': directory '/no/such/dir' does not exist" "a receipt head into a missing directory"
expect_not_in "$OUT" "receipt:"
expect_eq "$(sha256sum rh.game)" "$sum" "the game after a receipt head that could not be written"
expect_exit 0 ord submit rh.game --side blue "$BFIX/blue-1.txt" --receipt-head b.receipt
expect_in "$OUT" "receipt: turn 1 side blue version 1"
note "6: a head that cannot be written changes nothing; a stored head is written again"

# ------------------------------------------------------------ 7. a receipt whose sheet is only in the -wal file
# stop the submit at each of its pause points in turn (ORDERLY_TEST_PAUSE_IN_TX,
# src/store/store.c) until the one right after its checkpoint, before the
# receipt is printed, and kill it there
expect_exit 0 ord new wal2.game --scenario scenario.xml
at=1
while :; do
	: >pause.log
	ORDERLY_TEST_PAUSE_IN_TX="$TMP/pause.log" ORDERLY_TEST_PAUSE_AT=$at "$ORDERLY" submit wal2.game --side blue "$BFIX/blue-1.txt" >receipt.out 2>/dev/null &
	pid=$!
	for _ in $(seq 100); do [[ -s pause.log ]] && break; sleep 0.1; done
	[[ -s pause.log ]] || fail "attack 7: the submit passed no pause point $at"
	point=$(awk '{print $2}' pause.log)
	if [[ $point == checkpoint ]]; then
		kill -9 "$pid"
		wait "$pid" 2>/dev/null || true
		break
	fi
	kill -9 "$pid"
	wait "$pid" 2>/dev/null || true
	at=$((at + 1))
	[[ $at -lt 50 ]] || fail "attack 7: no checkpoint pause point"
done
[[ ! -s receipt.out ]] || fail "attack 7: a receipt was printed before the checkpoint"
# the game file alone, as the referee would mail it
cp wal2.game alone.game
expect_exit 0 ord info alone.game
expect_in "$OUT" "blue         submitted (version 1)"
note "7: the sheet is in the game file itself before its receipt is printed"

# ------------------------------------------------------------ 8. smaller holes
opened small.game
expect_exit 0 ord seal small.game
# an override's newline would make a field of its own in the entry: such
# a reason is refused (the log escapes it all the same, canon.c)
expect_exit 64 ord event small.game move unit=B1 distance=9 --override "$(printf 'x\nchecks=none')"
[[ "$(sql small.game "SELECT count(*) FROM log WHERE kind = 'event'")" == 0 ]] ||
	fail "attack 8: a refused override was logged"
expect_exit 0 ord event small.game move unit=B1 distance=9 --override "x checks=none"
BODY=$(sql small.game "SELECT body FROM log WHERE kind = 'event'")
[[ "$(grep -c '^checks=' <<<"$BODY")" == 1 ]] || fail "attack 8: the override made a field of its own:
$BODY"
expect_exit 0 ord audit small.game
# clean, but the verdict itself says the orders were overridden (a line of
# notes above a "clean" read as nothing amiss: red-team finding)
expect_in "$OUT" "every phase is what the rules give; but 1 event was recorded against the orders, by the referee's override (the notes above)"
# a rejected sheet: nothing of it in the game file (a draft's hash could
# be confirmed by guessing)
expect_exit 0 ord new reject.game --scenario scenario.xml
sha_before=$(sha256sum <reject.game)
printf 'B9 ↑ 1/2\n' >draft.txt
expect_exit 65 ord submit reject.game --side blue draft.txt
expect_eq "$(sha256sum <reject.game)" "$sha_before" "attack 8: the game file after a rejected draft"
# a head file too large for what a head is
head -c 70000 /dev/zero | tr '\0' 'x' >big.head
expect_exit 65 ord audit small.game --head big.head
expect_in "$ERR" "KiB"
expect_not_in "$ERR" "0 MiB"
note "8: values are escaped, rejected drafts leave no trace, sizes are said"

# ------------------------------------------------------------ 9. a setting changed for one turn
# After turn 1's exchange, before its head goes out, the referee opens turn 2
# under another NMR policy (red's silence then repeats its turn-1 orders),
# with dice he gives, or under other tables, and rewrites the live row to
# match; he re-chains, signs the exchange's head again and hands it out
# with the bundle.  He could put the setting back when turn 3 opens.
for change in "nmr=hold|nmr=repeat|nmr = 'repeat'|NMR policy" \
	"fixed_dice=0|fixed_dice=1|fixed_dice = 1|fixed dice"; do
	IFS='|' read -r from to row what <<<"$change"
	g=set-${from%%=*}.game
	opened "$g"
	played "$g"
	OPEN2=$(sql "$g" "SELECT seq FROM log WHERE kind = 'open' AND turn = 2")
	sql "$g" "UPDATE log SET body = replace(body, '$from', '$to') WHERE seq = $OPEN2;
		UPDATE game SET $row" >/dev/null
	forge rechain "$g"
	expect_exit 0 ord head "$g" --at exchange --turn 1 -o "$g.exchange.head"
	export_bundle "$g" 1 "$g.xml"
	player_verify "$g"
	[[ $RC == 1 ]] || fail "attack 9 ($what): the bundle verifies:
$OUT"
	expect_in "$OUT" "the opening of turn 2 (entry $OPEN2) changes the game's $what: a game keeps the settings it was made with"
	expect_exit 1 ord audit "$g"
	expect_in "$OUT" "turn 2's opening differs in its $what from the game's creation (entry 1)"
done
note "9: a turn opened under another NMR policy or with given dice is caught by the bundle before it"

# ------------------------------------------------------------ 10. a turn opened again
# After turn 1's exchange head is handed out, the referee logs a second
# opening of turn 2 after the one it signs (it could state other units'
# states) and plays turn 2 from it: the bundle of turn 2 chains from the
# first, which is all the head could check before.
opened reopen.game
played reopen.game
OPEN2=$(sql reopen.game "SELECT seq FROM log WHERE kind = 'open' AND turn = 2")
sql reopen.game "INSERT INTO log(seq, turn, kind, body, at, prev, hash)
	SELECT seq + 1, turn, kind, body, at, hash, hash FROM log WHERE seq = $OPEN2;
	UPDATE turn SET log_seq = $OPEN2 + 1 WHERE turn = 2" >/dev/null
forge rechain reopen.game
expect_exit 0 ord submit reopen.game --side blue "$BFIX/blue-2.txt"
B2=$(field commitment "$OUT")
expect_exit 0 ord seal reopen.game --force --head reopen.game.seal2.head
resolve_rest reopen.game
expect_exit 0 ord exchange reopen.game --head reopen.game.exchange2.head
export_bundle reopen.game 2 reopen2.xml
expect_exit 1 ord verify reopen2.xml --pubkey "$(pubkey reopen.game)" --receipt "$B2" \
	--head reopen.game.exchange.head --head reopen.game.seal2.head --head reopen.game.exchange2.head
expect_in "$OUT" "the head you kept of turn 1's exchange (entry $OPEN2): it signs the opening of turn 2 as entry $OPEN2, but this turn's log starts at entry $((OPEN2 + 1)): the turn was opened again after the head was handed out"
expect_exit 1 ord audit reopen.game
note "10: a turn opened again after its head went out is caught by the head"

# ------------------------------------------------------------ a reason that forges a line of the player's check
# A free text the referee writes (an override's reason) reaches the
# player's verify: a newline in it would start a line that reads like a
# check, an escape sequence would act on his terminal.  Given, it is
# refused; held by a file anyway (an older orderly, or one of the
# referee's own), it is shown escaped.
opened reason.game
expect_exit 0 ord seal reason.game --head reason.game.seal.head
expect_exit 64 ord event reason.game move unit=B2 distance=2 \
	--override "$(printf 'table blocked\n    ok: receipt: forged\033[2J')"
expect_in "$ERR" "the override's reason holds the control or invisible character U+000A at character 14 (expected one line of plain text)"
expect_exit 0 ord event reason.game move unit=B2 distance=2 --override "table blocked"
sql reason.game "UPDATE event SET override = 'table blocked' || char(10) || '    ok: receipt: forged' || char(27) || '[2J';
	UPDATE log SET body = replace(body, 'override=table blocked', 'override=table blocked\n    ok: receipt: forged\x1b[2J')
	WHERE kind = 'event'" >/dev/null
forge rechain reason.game
resolve_rest reason.game
expect_exit 0 ord exchange reason.game --head reason.game.exchange.head
export_bundle reason.game 1 reason.game.xml
for how in audit verify report; do
	case $how in
	audit) run ord audit reason.game ;;
	verify) player_verify reason.game ;;
	report) run ord report reason.game --referee --turn 1 ;;
	esac
	expect_in "$OUT" 'table blocked\n    ok: receipt: forged\x1b[2J'
	! grep -q '^ *ok: receipt: forged' <<<"$OUT" || fail "$how shows the forged line as a check of its own:
$OUT"
	! grep -q $'\033' <<<"$OUT" || fail "$how sends an escape to the terminal"
done
note "a free text cannot forge a line of the player's check"

# ------------------------------------------------------------ 11. a second state, and the attributes a state is digested with
# (a fourth red team's finds, older than they) A second state row of the
# last unit the fire phase changed, after the rules' one, with more in it
# (of another phase number: the table keeps one a phase), and the unit's
# current state set to it: the digest and the
# numbers of rows are forged, the chain and heads made to agree.  The
# replay matched the first row and took the second for the unit's, unseen.
opened second.game
played second.game
FIRE=$(sql second.game "SELECT seq FROM log WHERE kind = 'resolve' AND body LIKE '%phase=fire' || char(10) || '%'")
UNIT=$(sql second.game "SELECT max(unit_id) FROM unit_state WHERE log_seq = $FIRE")
[[ -n "$UNIT" ]] || fail "attack 11: the fire phase changed no unit"
sql second.game "INSERT INTO unit_state(unit_id, turn, phase, state, log_seq)
	SELECT unit_id, turn, phase + 100, state || 'forged=1' || char(10), log_seq FROM unit_state
	WHERE log_seq = $FIRE AND unit_id = $UNIT;
	UPDATE unit_current SET state = (SELECT state FROM unit_state WHERE log_seq = $FIRE
	AND unit_id = $UNIT ORDER BY phase DESC LIMIT 1) WHERE unit_id = $UNIT" >/dev/null
forge digest second.game "$FIRE"
expect_exit 1 ord audit second.game
expect_in "$OUT" "phase fire: a second state of unit"
expect_in "$OUT" "the rules give it one, recorded before it"
export_bundle second.game 1 second.game.xml
player_verify second.game
[[ $RC == 1 ]] || fail "attack 11: verify of a second state exited $RC:
$OUT"
expect_in "$OUT" "phase fire: a second state of unit"
# B1's attributes in the unit table (which a bundle's states carry, and
# the phase digests) made another class, every digest forged: the
# scenario the game keeps still says class=C
opened attrs.game
played attrs.game
sql attrs.game "UPDATE unit SET attrs = replace(attrs, 'class=C', 'class=A') WHERE uid = 'B1'" >/dev/null
for s in $(sql attrs.game "SELECT DISTINCT log_seq FROM unit_state us JOIN unit ON unit.id = us.unit_id WHERE unit.uid = 'B1' AND us.turn = 1"); do
	forge digest attrs.game "$s"
done
export_bundle attrs.game 1 attrs.game.xml
player_verify attrs.game
[[ $RC == 1 ]] || fail "attack 11: verify of changed attributes exited $RC:
$OUT"
expect_in "$OUT" "unit B1's state is recorded with the attributes ("
expect_in "$OUT" "class=A"
note "ok"

# ------------------------------------------------------------ 18. the sheet the next turn's opening names
# (a fifth red team's find) Turn 2's opening names the sheet each side
# sealed in turn 1 (last.SIDE): under the NMR policy "repeat" a silent
# side repeats it, and turn 2's bundle holds the sheet it carries to that
# name alone.  The referee edits it after the exchange, before the head
# goes out: "none" (the side then holds where it repeats), or the hash of
# a sheet he wrote (it repeats orders the side never gave).  Each turn's
# bundle verified clean on its own; turn 1's now holds the name to the
# sheet it sealed.
for forged in none aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa; do
	g=last-${forged:0:4}.game
	opened "$g"
	played "$g"
	OPEN2=$(sql "$g" "SELECT seq FROM log WHERE kind = 'open' AND turn = 2")
	sql "$g" "UPDATE log SET body = substr(body, 1, instr(body, 'last.red=') + 8) || '$forged' ||
		substr(body, instr(body, 'last.red=') + 9 + length(substr(body, instr(body, 'last.red=') + 9,
		instr(substr(body, instr(body, 'last.red=') + 9), char(10)) - 1))) WHERE seq = $OPEN2" >/dev/null
	expect_in "$(sql "$g" "SELECT body FROM log WHERE seq = $OPEN2")" "last.red=$forged"
	forge rechain "$g"
	expect_exit 0 ord head "$g" --at exchange --turn 1 -o "$g.exchange.head"
	export_bundle "$g" 1 "$g.xml"
	player_verify "$g"
	[[ $RC == 1 ]] || fail "attack 18 (last.red=$forged): the bundle verifies:
$OUT"
	if [[ $forged == none ]]; then
		expect_in "$OUT" "the opening of turn 2 (entry $OPEN2) says red sealed no sheet in turn 1, but it sealed version 1"
	else
		expect_in "$OUT" "the opening of turn 2 (entry $OPEN2) names another sheet than the one red sealed in turn 1 (version 1)"
	fi
	expect_exit 1 ord audit "$g"
	expect_in "$OUT" "the opening of turn 2 (entry $OPEN2)"
done
note "18: the next turn's opening names the sheets this turn sealed"

# ------------------------------------------------------------ 20. a void that leaves a later event against the orders
# (a fifth red team's find) Krigsspil, turn 2: K1 attacks L5; the melee
# K1 on L5 is recorded, then L5's flight (a unit that fought a melee may
# flee); then the melee is voided.  L5, in OR and in no melee, fled its
# attack, and every check held: each event was replayed against the events
# as they stood when it was recorded.  The game now refuses the void, and
# a forger who writes it anyway is named by audit and verify.
KD=$KS/demo
ks() { ord "$@" >/dev/null 2>&1 || fail "attack 20: orderly $* failed"; }
# a Krigsspil game up to turn 2's melees, K1's attack on L5 declared
to_melee() {  # to_melee GAME TABLES
	local g=$1 e
	ks new "$g" --scenario "$KS/scenario.xml" --tables "$2"
	ks submit "$g" --side danske "$KD/turn1-danske.txt"
	ks submit "$g" --side allierede "$KD/turn1-allierede.txt"
	ks seal "$g"
	ks resolve "$g"
	ks resolve "$g"
	for e in "flyt unit=D3 x=90 y=68" "formation unit=D8 formation=karre" "flyt unit=L2 x=90 y=88" \
		"formation unit=L1 formation=angrebskolonne" "flyt unit=L5 x=190 y=80"; do
		# shellcheck disable=SC2086
		ks event "$g" $e
	done
	ks resolve "$g"
	for e in "skyd unit=D3 maal=L2 zone=II halv=yes" "skyd unit=L2 maal=D3 zone=II halv=yes" \
		"artilleri unit=A1 maal=L2 afstand=88" "artilleri unit=A3 maal=L1 afstand=104" \
		"artilleri unit=L9 maal=D8 afstand=104"; do
		# shellcheck disable=SC2086
		ks event "$g" $e
	done
	ks resolve "$g"
	# the attacks of turn 1 go empty: with real dice the fire may have
	# driven a unit into U, whose half turn's retreat is owed then and
	# holds the phase (ks_order_events); this game's attacks are turn 2's
	ks resolve "$g" --empty
	ks exchange "$g"
	ks submit "$g" --side danske "$KD/turn2-danske.txt"
	ks submit "$g" --side allierede "$KD/turn2-allierede.txt"
	ks seal "$g"
	ks resolve "$g"
	ks event "$g" angreb unit=K1 maal=L5 stormmarch=yes
	ks resolve "$g"
	ks event "$g" flyt unit=L1 x=120 y=90
	ks resolve "$g"
	ks event "$g" artilleri unit=A1 maal=L1 afstand=90
	ks resolve "$g"
}
g=void.game
to_melee $g "$KS/map.xml"
cp $g void-override.game
expect_exit 65 ord event $g flugt unit=L5
expect_in "$ERR" "unit 'L5' is in OR, not FU: it does not flee (17 flugt)"
ks event $g naerkamp angriber=K1 forsvarer=L5
M=$(sql $g "SELECT seq FROM event WHERE kind = 'naerkamp' AND turn = 2")
cp $g void-alone.game
# a flight that cannot flee (a free one of a unit with a position comes
# after its retraete, flugt_position_kontrol, 2026-12-05.13)
ks event $g flugt unit=L5 blokeret=hindring
F=$(sql $g "SELECT seq FROM event WHERE kind = 'flugt' AND turn = 2")
before=$(sha256sum <$g)
expect_exit 65 ord event $g --void "$M" --reason "entered by mistake"
expect_in "$ERR" "voiding event #$M (naerkamp) would leave event #$F standing against the orders (flugt: unit 'L5': unit 'L5' is in OR, not FU: it does not flee (17 flugt)): void event #$F first, or record it again with --override"
[[ "$(sha256sum <$g)" == "$before" ]] || fail "attack 20: a refused void changed the game"
# the void alone (no flight after it) is taken; its entry, written into
# the game with the flight by a forger, the chain made to agree
ks event void-alone.game --void "$M" --reason "entered by mistake"
V=$(sql void-alone.game "SELECT seq FROM log WHERE kind = 'void'")
N=$(sql $g "SELECT max(seq) + 1 FROM log")
sql $g "ATTACH 'void-alone.game' AS p;
	INSERT INTO log(seq, turn, kind, body, at, prev, hash) SELECT $N, turn, kind, body, at, prev, hash FROM p.log WHERE seq = $V;
	UPDATE event SET void_log = $N, void_reason = 'entered by mistake' WHERE turn = 2 AND seq = $M" >/dev/null
forge rechain $g
ks resolve $g
ks exchange $g
export_bundle $g 2 $g.xml
run ord verify $g.xml --pubkey "$(pubkey $g)"
[[ $RC == 1 ]] || fail "attack 20: the bundle verifies:
$OUT"
expect_in "$OUT" "FAILED: turn 2 event #$F (flugt: unit 'L5': unit 'L5' is in OR, not FU: it does not flee (17 flugt)): breaks the orders once the events voided in its phase are taken out, and no override of the referee's answers it"
expect_exit 1 ord audit $g
expect_in "$OUT" "BROKEN: turn 2 event #$F (flugt"
# an override for a lesser problem does not answer the one a void makes
g=void-override.game
ks event $g naerkamp angriber=K1 forsvarer=L5
expect_exit 0 ord event $g flugt unit=L5 viger=ja --override "L5 gave way, as the referee saw it"
expect_in "$ERR" "af= and viger= are for blokeret=fjende"
expect_exit 65 ord event $g --void "$M" --reason "entered by mistake"
expect_in "$ERR" "would leave event #$F standing against the orders (flugt: unit 'L5': unit 'L5' is in OR, not FU: it does not flee (17 flugt), which its override did not answer)"
# a game whose Skema has not the switch void_recheck (made before it)
# voids and replays as it did
python3 - "$KS/map.xml" "$SRC/rulesets/krigsspil/skema.xml" >map-before.xml <<'PY'
import re, sys
m, sk = open(sys.argv[1]).read(), open(sys.argv[2]).read()
sk = re.sub(r'\s*<param name="void_recheck"[^>]*/>', '', sk[sk.index('<tables'):])
sys.stdout.write(m.replace('</map>', sk + '\n</map>'))
PY
g=void-before.game
to_melee $g map-before.xml
ks event $g naerkamp angriber=K1 forsvarer=L5
ks event $g flugt unit=L5 blokeret=hindring
expect_exit 0 ord event $g --void "$M" --reason "entered by mistake"
ks resolve $g
expect_exit 0 ord audit $g
note "20: a void that leaves a later event against the orders"

# ------------------------------------------------------------ 21. a receipt the player forged
# (a red team acting as a player) A bare commitment is 32 bytes anybody
# computes for a sheet of his own: after the exchange blue "signs" a sheet
# he never handed in with a throwaway key and shows its commitment as his
# last receipt; verify fails it as a sheet dropped, and nothing the honest
# referee held refuted it.  Now the receipt is the game's signed head of the
# entry that stores the sheet (submit --receipt-head): only what the game
# signed is evidence, and a bare commitment is said to be the player's word.
expect_exit 0 ord new rc.game --scenario scenario.xml --head rc.game.open.head
expect_exit 0 ord submit rc.game --side blue "$BFIX/blue-1.txt" --receipt-head blue-1.receipt
expect_in "$OUT" "receipt head: blue-1.receipt (the game's signature of the entry that stores this sheet"
BARE=$(field commitment "$OUT")
expect_line "$(cat blue-1.receipt)" "^# turn 1, side blue, version 1, commitment $BARE\$"
expect_line "$(cat blue-1.receipt)" "^at: receipt\$"
expect_exit 0 ord submit rc.game --side red "$BFIX/red-1b.txt"
played rc.game
RCKEY=$(pubkey rc.game)
expect_exit 0 ord verify rc.game.xml --pubkey "$RCKEY" --receipt blue-1.receipt
expect_in "$OUT" "ok: receipt blue-1.receipt (signed by the game's key, entry 4, commitment ${BARE:0:16}...): the sheet of blue, version 1, is here unchanged and was the one sealed"
expect_not_in "$OUT" "not checked:
  that the game gave your receipt"
# the forged one: a commitment of a sheet never handed in
expect_exit 0 ord keygen throwaway.key
printf 'B1 ↑ 1\n' >claimed.txt
expect_exit 0 ord sign --head rc.game.open.head --pubkey "$RCKEY" --side blue --key throwaway.key claimed.txt
FORGED=$(field commitment "$OUT")
expect_exit 1 ord verify rc.game.xml --pubkey "$RCKEY" --receipt "$FORGED"
expect_in "$OUT" "FAILED: receipt $FORGED: no sheet of turn 1 has this commitment"
expect_in "$OUT" "note: receipt $FORGED: a bare commitment: your word, not evidence the game gave it; the receipt head the game signed is evidence (--receipt FILE)"
# the true commitment alone still checks the sheet, said to be his word
expect_exit 0 ord verify rc.game.xml --pubkey "$RCKEY" --receipt "$BARE"
expect_in "$OUT" "ok: receipt $BARE: the sheet of blue, version 1, is here unchanged and was the one sealed"
expect_in "$OUT" "
  that the game gave your receipt: a bare commitment is your word (give the receipt head it signed: --receipt FILE)"
# a receipt head he made up: the key it names is not the game's; altered, it does not hold
sed "s/^key: .*/key: $(sed -n 's/^public: //p' throwaway.key)/" blue-1.receipt >other-key.receipt
expect_exit 1 ord verify rc.game.xml --pubkey "$RCKEY" --receipt other-key.receipt
expect_in "$OUT" "FAILED: receipt other-key.receipt: signed by key $(sed -n 's/^public: //p' throwaway.key), not by the game's key here: no receipt the game gave"
sed 's/^entry: 4$/entry: 5/' blue-1.receipt >moved.receipt
expect_exit 1 ord verify rc.game.xml --pubkey "$RCKEY" --receipt moved.receipt
expect_in "$OUT" "FAILED: receipt moved.receipt: its signature does not hold: the file was changed after the game signed it"
# files that are no receipt, named with what was expected
expect_exit 65 ord verify rc.game.xml --receipt rc.game.seal.head
expect_in "$ERR" "--receipt rc.game.seal.head: a signed head of turn 1's seal, not a receipt (at: receipt or sealed): give it with --head"
expect_exit 65 ord verify rc.game.xml --receipt claimed.txt
expect_in "$ERR" "--receipt claimed.txt: not a receipt: expected a receipt head the game signed ('orderly signed head v2', at: receipt or sealed; submit --receipt-head, head --at sealed, the receipt or seal mail's attachment) or a commitment of 64 hex digits (claimed.txt:1:"
expect_exit 0 ord new rc-other.game --scenario scenario.xml
expect_exit 0 ord submit rc-other.game --side blue "$BFIX/blue-1.txt" --receipt-head other-game.receipt
expect_exit 1 ord verify rc.game.xml --pubkey "$RCKEY" --receipt other-game.receipt
expect_in "$OUT" "FAILED: receipt other-game.receipt: a receipt of another game (game "
# and the referee's side of it: the sheet he put in blue's place (a copy
# made after blue's submit, blue's entry replaced) fails the receipt the
# game signed, which is evidence against him
expect_exit 0 ord new rc-swap.game --scenario scenario.xml --head rc-swap.game.open.head
cp rc-swap.game rc-swap-fork.game
expect_exit 0 ord submit rc-swap.game --side blue "$BFIX/blue-1.txt" --receipt-head swap.receipt
rm -f rc-swap.game rc-swap.game-wal rc-swap.game-shm
mv rc-swap-fork.game rc-swap.game
# the same bytes under the referee's nonce: another commitment, another entry
expect_exit 0 ord submit rc-swap.game --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord submit rc-swap.game --side red "$BFIX/red-1b.txt"
played rc-swap.game
expect_exit 1 ord verify rc-swap.game.xml --pubkey "$(pubkey rc-swap.game)" --receipt swap.receipt
SWAPC=$(sed -n 's/^commitment: //p' swap.receipt)
expect_in "$OUT" "FAILED: receipt swap.receipt (signed by the game's key, entry 4, commitment ${SWAPC:0:16}...): entry 4 does not have the hash that was signed: the history up to it was rewritten (the sheet the game signed as stored is not in it: dropped or replaced)"
# (a second red team, on the receipts) the game signs which sheet it
# receipts, not only an entry: a receipt of red's version 1 entry given
# for his version 2, which the referee never stored, states version 2's
# commitment (red compares it with his own when it comes) and fails; a
# receipt of blue's NMR stand-in fails; and a player who gives the
# receipts of both his versions is not told the first was replaced
expect_exit 0 ord new rv.game --scenario scenario.xml
expect_exit 0 ord submit rv.game --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord submit rv.game --side red "$BFIX/red-1.txt" --receipt-head rv-1.receipt
cp rv.game rv-honest.game
expect_exit 0 ord submit rv-honest.game --side red "$BFIX/red-1b.txt" --receipt-head rv-2.receipt
C1=$(sed -n 's/^commitment: //p' rv-1.receipt)
C2=$(sed -n 's/^commitment: //p' rv-2.receipt)
[[ $C1 != "$C2" && ${#C2} == 64 ]] || fail "21: two versions, one commitment"
forge sign-receipt rv.game "$(sed -n 's/^entry: //p' rv-1.receipt)" "$C2" >rv-2-forged.receipt
played rv.game
expect_exit 1 ord verify rv.game.xml --pubkey "$(pubkey rv.game)" --receipt rv-2-forged.receipt
expect_in "$OUT" "FAILED: receipt rv-2-forged.receipt (signed by the game's key, entry 5, commitment ${C2:0:16}...): entry 5 logs another sheet than the commitment the receipt states"
played rv-honest.game
expect_exit 0 ord verify rv-honest.game.xml --pubkey "$(pubkey rv-honest.game)" --receipt rv-1.receipt --receipt rv-2.receipt
expect_in "$OUT" "note: receipt rv-1.receipt (signed by the game's key, entry 5, commitment ${C1:0:16}...): the sheet of red, version 1, is here unchanged; version 2, whose receipt you gave too, was sealed"
expect_in "$OUT" "ok: receipt rv-2.receipt (signed by the game's key, entry 6, commitment ${C2:0:16}...): the sheet of red, version 2, is here unchanged and was the one sealed"
expect_exit 1 ord verify rv-honest.game.xml --pubkey "$(pubkey rv-honest.game)" --receipt rv-1.receipt
expect_in "$OUT" "FAILED: receipt rv-1.receipt (signed by the game's key, entry 5, commitment ${C1:0:16}...): the sheet of red, version 1, is here unchanged, but version 2 was sealed instead"
# a receipt lost is signed again, the same file (orderly head --at receipt)
expect_exit 0 ord head rv-honest.game --at receipt --side red --version 2 --turn 1 -o rv-2-again.receipt
expect_in "$OUT" "signed head: rv-2-again.receipt (hand it to red alone)"
cmp -s rv-2.receipt rv-2-again.receipt || fail "21: the receipt signed again is not the one given: $(diff rv-2.receipt rv-2-again.receipt)"
expect_exit 0 ord new rs.game --scenario scenario.xml
expect_exit 0 ord submit rs.game --side red "$BFIX/red-1.txt"
expect_exit 0 ord seal rs.game --force
HOLD=$(sqlite3 rs.game "SELECT seq FROM log WHERE kind = 'sheet' AND body LIKE 'side=blue%source=hold%'")
HOLDC=$(sqlite3 rs.game "SELECT body FROM log WHERE seq = $HOLD" | sed -n 's/^commitment=//p')
[[ ${#HOLDC} == 64 ]] || fail "21: no stand-in of blue logged (entry '$HOLD')"
forge sign-receipt rs.game "$HOLD" "$HOLDC" >rs-hold.receipt
resolve_rest rs.game
expect_exit 0 ord exchange rs.game
export_bundle rs.game 1 rs.game.xml
expect_exit 1 ord verify rs.game.xml --pubkey "$(pubkey rs.game)" --receipt rs-hold.receipt
expect_in "$OUT" "FAILED: receipt rs-hold.receipt (signed by the game's key, entry $HOLD, commitment ${HOLDC:0:16}...): entry $HOLD is the NMR policy's stand-in (hold), no sheet the side handed in: no receipt the game gives"
# a receipt head without its commitment is no receipt
grep -v '^commitment: ' rv-1.receipt >rv-none.receipt
expect_exit 65 ord verify rv.game.xml --receipt rv-none.receipt
expect_in "$ERR" "a receipt head has no 'commitment' (expected the sheet's, 64 hex digits)"
# a game whose key is kept outside its file signs the receipt with --key
expect_exit 0 ord keygen rc-ref.key
expect_exit 0 ord new rc-key.game --scenario scenario.xml --key rc-ref.key
expect_exit 64 ord submit rc-key.game --side blue "$BFIX/blue-1.txt" --receipt-head k.receipt
expect_in "$ERR" "the key of 'rc-key.game' is kept outside the game file: give it with --key FILE to sign the receipt head"
expect_exit 0 ord submit rc-key.game --side blue "$BFIX/blue-1.txt" --receipt-head k.receipt --key rc-ref.key
expect_in "$OUT" "version 1"
# and signs it again with --key, the same file; without it, refused
expect_exit 64 ord head rc-key.game --at receipt --side blue --version 1 -o k-again.receipt
expect_in "$ERR" "give it with --key FILE"
expect_exit 0 ord head rc-key.game --at receipt --side blue --version 1 --key rc-ref.key -o k-again.receipt
cmp -s k.receipt k-again.receipt || fail "the receipt signed again with --key is not the same file"
expect_exit 64 ord head rc-key.game --at seal --key rc-ref.key
expect_in "$ERR" "--key is for --at receipt, sealed or link"
note "21: a receipt the player forged"

# ------------------------------------------------------------ 22. a witness link withheld, then shown as "proof"
# (the same red team) Red sends no link of phase 1; the referee resolves
# with --stand-in; after the exchange red computes the link (it can be
# computed at any time from the close head) and shows it as the link the
# referee ignored.  It proves only that he can compute it.  Now the game
# signs the entry that records a link (witness --head, the mail judge's
# reply): a player whose link was in holds that head, and a resolve on a
# history without it fails his verify; one who holds none sent none.
expect_exit 0 ord keygen w-blue.key
expect_exit 0 ord keygen w-red.key
expect_exit 0 ord new wl.game --scenario scenario.xml --witnessed --head wl.open.head
WKEY=$(pubkey wl.game)
wsubmit() {  # wsubmit SIDE SHEET: signed with a witness chain; the nonce in NONCE_SIDE
	expect_exit 0 ord sign --head wl.open.head --pubkey "$WKEY" --side "$1" --key "w-$1.key" --witness "$2"
	local s=$OUT
	expect_exit 0 ord submit wl.game --side "$1" --witness "$(field witness "$s")" --nonce "$(field nonce "$s")" "$2"
	printf -v "NONCE_$1" '%s' "$(field nonce "$s")"
}
wrest() {  # wrest GAME: phases 2 to 5 closed, both links given, resolved
	local p
	for p in fire fire-morale melee melee-morale; do
		expect_exit 0 ord witness "$1" --close
		expect_exit 0 ord witness "$1" --side blue --key w-blue.key
		expect_exit 0 ord witness "$1" --side red --key w-red.key
		expect_exit 0 ord resolve "$1" --phase "$p" --empty
	done
}
wsubmit blue "$BFIX/blue-1.txt"
wsubmit red "$BFIX/red-1b.txt"
expect_exit 0 ord seal wl.game --head wl.seal.head
expect_exit 0 ord event wl.game move unit=B1 distance=2
expect_exit 0 ord witness wl.game --close --head wl.close-1.head
cp wl.game wl-fork.game
expect_exit 0 ord witness --link-for --head wl.close-1.head --pubkey "$WKEY" --side red --key w-red.key --nonce "$NONCE_red" --phase 1 --record red.links
RLINK=$(field link "$OUT")
expect_exit 0 ord witness wl.game --side red --link "$RLINK" --head red-link-1.head
expect_in "$OUT" "link head: red-link-1.head (hand it to red: the game's signature that the link of phase 1 is in the log before its resolve)"
expect_line "$(cat red-link-1.head)" "^at: link\$"
expect_exit 0 ord head wl.game --at link --side red --phase 1 -o red-link-1-again.head
cmp -s red-link-1.head red-link-1-again.head || fail "22: the link head signed again is not the one given"
# the honest referee: the resolve on the history red's head signs holds it
expect_exit 0 ord witness wl.game --side blue --key w-blue.key --head blue-link-1.head
expect_exit 0 ord resolve wl.game
wrest wl.game
expect_exit 0 ord exchange wl.game --head wl.exchange.head
export_bundle wl.game 1 wl.xml
expect_exit 0 ord verify wl.xml --pubkey "$WKEY" --head red-link-1.head --head wl.close-1.head
expect_in "$OUT" "ok: the head you kept of turn 1's link (entry "
expect_exit 0 ord audit wl.game --head red-link-1.head
expect_in "$OUT" "ok: the head you kept of turn 1's link (entry "
# the dishonest one: red's link recorded (red holds its head), the phase
# resolved on a copy without it, red stood in for
mv wl-fork.game wl2.game
expect_exit 0 ord resolve wl2.game --stand-in
wrest wl2.game
expect_exit 0 ord exchange wl2.game
export_bundle wl2.game 1 wl2.xml
expect_exit 1 ord verify wl2.xml --pubkey "$WKEY" --head red-link-1.head --head wl.close-1.head
# (a link head states no entry number: its hash names the entry, and none
# of the bundle's history has it)
expect_line "$OUT" "FAILED: the head you kept of turn 1's link \(hash [0-9a-f]{16}\.\.\.\): no entry of this turn's log \(entries [0-9]+ to [0-9]+\) has the hash it signs: the history up to it was rewritten \(the link the game signed as recorded is not in the history its phase was resolved on\)"
# and a player who withheld his link holds no such head: the link he
# computes after the exchange is no proof of when it was sent
note "22: a witness link withheld, then shown as proof"

# ------------------------------------------------------------ 23. a sheet logged under a version the side had used
# (a red team's find) Blue hands in version 1, then his correction,
# version 2.  Before the seal the referee logs version 1 again beside them:
# (a) under version 2, stored as the REAL 2.5, which SQLite's unique
# index keeps beside 2 and every reader takes for 2, and read first, so
# the seal took it for blue's latest and the player's receipt of version 2
# said "the one sealed"; (b) plainly as a version 3, sealed as his last.
# Each side's versions are 1, 2, 3 ... in the log, each once, and a sheet
# is handed in once; a receipt is held to its commitment, not its version.
relog() {  # relog GAME VERSION ROW-VERSION: blue's version 1 logged again
	sql "$1" "INSERT INTO log(seq, turn, kind, body, at, prev, hash)
		SELECT (SELECT max(seq) + 1 FROM log), 1, 'sheet', 'side=blue' || char(10) || 'version=$2' || char(10) ||
			'source=submitted' || char(10) || 'commitment=' || lower(hex(commitment)) || char(10),
			strftime('%s', 'now'), zeroblob(32), zeroblob(32)
		FROM sheet WHERE turn = 1 AND version = 1 AND side_id = (SELECT id FROM side WHERE name = 'blue');
		UPDATE sheet SET id = id + 100;
		INSERT INTO sheet(id, turn, side_id, version, source, bytes, nonce, commitment, log_seq)
		SELECT 1, turn, side_id, $3, source, bytes, nonce, commitment, (SELECT max(seq) FROM log)
		FROM sheet WHERE turn = 1 AND version = 1 AND side_id = (SELECT id FROM side WHERE name = 'blue')" >/dev/null
	forge rechain "$1"
}
printf '# Blue, turn 1, corrected\nB1: FLn\nB2 Fb @R1\n' >blue-corrected.txt
for how in real integer; do
	opened "relog-$how.game"
	expect_exit 0 ord submit "relog-$how.game" --side blue blue-corrected.txt
	BLUE=$(field commitment "$OUT")
	if [[ $how == real ]]; then relog "relog-$how.game" 2 2.5; else relog "relog-$how.game" 3 3; fi
	played "relog-$how.game"
	expect_exit 1 ord audit "relog-$how.game"
	if [[ $how == real ]]; then
		expect_line "$OUT" "the sheets of blue: entry [0-9]+ logs version 2 where version 3 comes next \(a version used twice, or one left out\)"
		player_verify "relog-$how.game"
		[[ $RC == 1 ]] || fail "the bundle of a version logged twice verifies"
		expect_in "$OUT" "is here unchanged, but another sheet under version 2 was sealed instead"
	else
		expect_line "$OUT" "the sheets of blue: entry [0-9]+ logs again the commitment of entry [0-9]+ \(version 1 as version 3; a sheet is handed in once\)"
	fi
done
# (c) a stand-in put before the one sheet blue handed in: the NMR
# policy's "hold", made on a copy of the game where blue sent nothing,
# logged as version 1 (stored as 1.5) and read first, the seal's held=
# made to say so
expect_exit 0 ord new standin.game --scenario scenario.xml --head standin.game.open.head
cp standin.game standin-copy.game
expect_exit 0 ord submit standin-copy.game --side red "$BFIX/red-1b.txt"
expect_exit 0 ord seal standin-copy.game --force
expect_exit 0 ord submit standin.game --side blue "$BFIX/blue-1.txt"
BLUE=$(field commitment "$OUT")
expect_exit 0 ord submit standin.game --side red "$BFIX/red-1b.txt"
sql standin.game "ATTACH 'standin-copy.game' AS c;
	INSERT INTO log(seq, turn, kind, body, at, prev, hash)
	SELECT (SELECT max(seq) + 1 FROM main.log), 1, 'sheet', 'side=blue' || char(10) || 'version=1' || char(10) ||
		'source=hold' || char(10) || 'commitment=' || lower(hex(s.commitment)) || char(10),
		strftime('%s', 'now'), zeroblob(32), zeroblob(32)
	FROM c.sheet s JOIN c.side d ON d.id = s.side_id WHERE d.name = 'blue' AND s.source = 'hold';
	UPDATE main.sheet SET id = id + 100;
	INSERT INTO main.sheet(id, turn, side_id, version, source, bytes, nonce, commitment, log_seq)
	SELECT 1, 1, (SELECT id FROM main.side WHERE name = 'blue'), 1.5, 'hold', s.bytes, s.nonce, s.commitment,
		(SELECT max(seq) FROM main.log)
	FROM c.sheet s JOIN c.side d ON d.id = s.side_id WHERE d.name = 'blue' AND s.source = 'hold'" >/dev/null
forge rechain standin.game
expect_exit 0 ord seal standin.game
sql standin.game "UPDATE log SET body = replace(body, 'held=' || char(10), 'held=blue' || char(10)) WHERE kind = 'seal'" >/dev/null
forge rechain standin.game
expect_exit 0 ord head standin.game --at seal --turn 1 -o standin.game.seal.head
expect_exit 0 ord resolve standin.game --phase movement --empty
expect_exit 0 ord event standin.game fire unit=R1 target=B1 range=5
resolve_rest standin.game
expect_exit 0 ord exchange standin.game --head standin.game.exchange.head
export_bundle standin.game 1 standin.game.xml
expect_exit 1 ord audit standin.game
expect_line "$OUT" "the sheets of blue: a stand-in \(hold, entry [0-9]+\) beside a sheet or commitment the side handed in"
player_verify standin.game
[[ $RC == 1 ]] || fail "the bundle of a stand-in put before blue's sheet verifies"
expect_in "$OUT" "is here unchanged, but another sheet under version 1 was sealed instead"
note "23: a sheet logged under a version used, a signed sheet logged again, a stand-in before a side's sheet"

# ------------------------------------------------------------ 24. the deadline moved in the turn's row
# The referee moves the row's deadline (what a submit, the mail judge and
# the seal obey) before the one he logged and announced, so that blue's
# sheet is refused unlogged and the turn seals without it as if blue had
# missed its time.  Then, careful, he seals forced and logs it unforced.
expect_exit 0 ord new dl.game --scenario scenario.xml --head dl.game.open.head
expect_exit 0 ord deadline dl.game "$(date -u -d '+2 days' +%FT%TZ)"
expect_exit 0 ord submit dl.game --side red "$BFIX/red-1b.txt"
RED=$(field commitment "$OUT")
cp dl.game dlrow.game
sql dlrow.game "UPDATE turn SET deadline = strftime('%s', 'now') - 60 WHERE turn = 1" >/dev/null
expect_exit 65 ord submit dlrow.game --side blue "$BFIX/blue-1.txt"
expect_in "$ERR" "its deadline of turn 1 is not the one its log states"
expect_exit 65 ord seal dlrow.game
expect_exit 1 ord audit dlrow.game
expect_in "$OUT" "the turn's row has the deadline"
expect_exit 0 ord seal dl.game --force
sql dl.game "UPDATE log SET body = replace(body, 'forced=1', 'forced=0') WHERE kind = 'seal'" >/dev/null
forge rechain dl.game
expect_exit 0 ord head dl.game --at seal --turn 1 -o dl.game.seal.head
resolve_rest dl.game
expect_exit 0 ord exchange dl.game --head dl.game.exchange.head
export_bundle dl.game 1 dl.game.xml
expect_exit 1 ord audit dl.game
expect_in "$OUT" "was not forced, yet the NMR policy stood in for 'blue' before the deadline"
run ord verify dl.game.xml --pubkey "$(pubkey dl.game)" --receipt "$RED" \
	--head dl.game.open.head --head dl.game.seal.head --head dl.game.exchange.head
[[ $RC == 1 ]] || fail "attack 24: the bundle of a seal logged unforced before the deadline verifies"
expect_in "$OUT" "was not forced, yet the NMR policy stood in for 'blue' before the deadline"
note "24: a deadline moved in the row stops the game; a seal before the deadline logged unforced is caught"

# ------------------------------------------------------------ 25. a sheet taken after the deadline
# The referee's orderly, changed to skip the check of the row against the
# log (24), takes blue's sheet after the deadline the log states and the
# players were told: made here by moving the logged deadline (and the
# row) back before blue's sheet, the log chained again.  Red, who kept his
# time, sees blue's late orders stand.
expect_exit 0 ord new late.game --scenario scenario.xml --head late.game.open.head
expect_exit 0 ord deadline late.game "$(date -u -d '+2 days' +%FT%TZ)"
expect_exit 0 ord submit late.game --side red "$BFIX/red-1b.txt"
RED=$(field commitment "$OUT")
expect_exit 0 ord submit late.game --side blue "$BFIX/blue-1.txt"
AT=$(sql late.game "SELECT at FROM log WHERE kind = 'sheet' AND body LIKE 'side=blue%'")
DL=$(sql late.game "SELECT deadline FROM turn WHERE turn = 1")
sql late.game "UPDATE log SET body = replace(body, 'deadline=$DL', 'deadline=$((AT - 60))') WHERE kind = 'deadline';
	UPDATE turn SET deadline = $((AT - 60)) WHERE turn = 1" >/dev/null
forge rechain late.game
expect_exit 0 ord seal late.game
expect_exit 0 ord head late.game --at seal --turn 1 -o late.game.seal.head
resolve_rest late.game
expect_exit 0 ord exchange late.game --head late.game.exchange.head
export_bundle late.game 1 late.game.xml
expect_exit 1 ord audit late.game
expect_line "$OUT" "the sheet of blue, version 1 \(entry [0-9]+, at $AT\) was taken after the deadline \($((AT - 60)), entry [0-9]+\): no side's orders are taken after their time"
run ord verify late.game.xml --pubkey "$(pubkey late.game)" --receipt "$RED" \
	--head late.game.open.head --head late.game.seal.head --head late.game.exchange.head
[[ $RC == 1 ]] || fail "attack 25: the bundle of a turn that took a sheet after its deadline verifies"
expect_in "$OUT" "the sheet of blue, version 1 (entry"
expect_in "$OUT" "was taken after the deadline"
# an orderly before 2026-12-05 could log a sheet taken in the deadline's
# last second one second after it: a note, not a failure
expect_exit 0 ord new edge.game --scenario scenario.xml
expect_exit 0 ord deadline edge.game "$(date -u -d '+2 days' +%FT%TZ)"
expect_exit 0 ord submit edge.game --side red "$BFIX/red-1b.txt"
AT=$(sql edge.game "SELECT at FROM log WHERE kind = 'sheet'")
DL=$(sql edge.game "SELECT deadline FROM turn WHERE turn = 1")
sql edge.game "UPDATE log SET body = replace(body, 'deadline=$DL', 'deadline=$((AT - 1))') WHERE kind = 'deadline';
	UPDATE turn SET deadline = $((AT - 1)) WHERE turn = 1" >/dev/null
forge rechain edge.game
expect_exit 0 ord audit edge.game
expect_in "$OUT" "note: the sheet of red (entry"
expect_in "$OUT" "is logged one second after the deadline"
# an honest game with a deadline: every sheet before it, said so
expect_exit 0 ord new ontime.game --scenario scenario.xml
expect_exit 0 ord deadline ontime.game "$(date -u -d '+2 days' +%FT%TZ)"
expect_exit 0 ord submit ontime.game --side red "$BFIX/red-1b.txt"
expect_exit 0 ord audit ontime.game
expect_in "$OUT" "each taken before the deadline logged before it"
note "25: a sheet taken after the logged deadline is caught by the audit and a player's verify"

# ------------------------------------------------------------ 30. a forced seal dated after the deadline
# Careful after 24, the referee who sealed forced before the deadline logs
# the seal unforced and dated just after the deadline, chained again
# (found by a red-team pass): (a) only the seal's time moved, so the log's
# times run back; (b) every entry after it moved too, into the future of
# the player who checks before the deadline has come.
hidden() {  # hidden GAME a|b
	expect_exit 0 ord new "$1" --scenario scenario.xml --head "$1.open.head"
	expect_exit 0 ord deadline "$1" "$(date -u -d '+2 days' +%FT%TZ)"
	expect_exit 0 ord submit "$1" --side red "$BFIX/red-1b.txt"
	RED=$(field commitment "$OUT")
	expect_exit 0 ord seal "$1" --force
	DL=$(sql "$1" "SELECT deadline FROM turn WHERE turn = 1")
	S=$(sql "$1" "SELECT seq FROM log WHERE kind = 'seal'")
	sql "$1" "UPDATE log SET at = $DL + 5, body = replace(body, 'forced=1', 'forced=0') WHERE seq = $S" >/dev/null
	forge rechain "$1"
	resolve_rest "$1"
	expect_exit 0 ord exchange "$1"
	if [[ $2 == b ]]; then
		sql "$1" "UPDATE log SET at = at + $DL + 10 - (SELECT min(at) FROM log WHERE seq > $S) WHERE seq > $S" >/dev/null
		forge rechain "$1"
	fi
	expect_exit 0 ord head "$1" --at seal --turn 1 -o "$1.seal.head"
	expect_exit 0 ord head "$1" --at exchange --turn 1 -o "$1.exchange.head"
	export_bundle "$1" 1 "$1.xml"
	run ord verify "$1.xml" --pubkey "$(pubkey "$1")" --receipt "$RED" \
		--head "$1.open.head" --head "$1.seal.head" --head "$1.exchange.head"
	[[ $RC == 1 ]] || fail "attack 30($2): the bundle of a forced seal dated after the deadline verifies"
	expect_line "$OUT" "FAILED: log entry $S \(seal\) is dated [-0-9T:]+Z, after this check's clock \([-0-9T:]+Z\): an entry dated in the future \(its time was changed\)"
	if [[ $2 == a ]]; then
		expect_line "$OUT" "FAILED: log entry $((S + 1)) \(resolve\) is dated [-0-9T:]+Z, before entry $S \(seal\) of [-0-9T:]+Z before it: the log's times run back"
	else
		expect_not_in "$OUT" "times run back"
	fi
	expect_exit 1 ord audit "$1"
	expect_in "$OUT" "an entry dated in the future"
}
hidden hida.game a
hidden hidb.game b
note "30: a forced seal logged unforced and dated after the deadline: the log's times run back, or lie in the future"

# ------------------------------------------------------------ 31. the deadline set to a time past
# Through the front door, with nothing edited: the referee (or a
# referee-less game's host) sets the deadline he announced two days ahead
# to a time already past, so that blue's sheet is refused, and seals
# unforced (found by a red-team pass).  Allowed, as a forced seal is (a
# referee may close the sheets now), and noted as one.
expect_exit 0 ord new past.game --scenario scenario.xml --head past.game.open.head
expect_exit 0 ord deadline past.game "$(date -u -d '+2 days' +%FT%TZ)"
expect_exit 0 ord submit past.game --side red "$BFIX/red-1b.txt"
RED=$(field commitment "$OUT")
expect_exit 0 ord deadline past.game 2020-01-01T00:00Z --past
expect_in "$ERR" "this deadline has passed already"
expect_exit 65 ord submit past.game --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord seal past.game --head past.game.seal.head
resolve_rest past.game
expect_exit 0 ord exchange past.game --head past.game.exchange.head
export_bundle past.game 1 past.game.xml
run ord verify past.game.xml --pubkey "$(pubkey past.game)" --receipt "$RED" \
	--head past.game.open.head --head past.game.seal.head --head past.game.exchange.head
[[ $RC == 0 ]] || fail "attack 31: a seal at a deadline set past fails verify"
expect_line "$OUT" "note: seal: the deadline it kept \(entry [0-9]+\) was set at [-0-9T:]+Z to 2020-01-01T00:00:00Z, a time already past, where the one before it gave until [-0-9T:]+Z: blue, still to commit, had no time left and took the NMR policy's orders, shut out of this turn as by a forced seal"
expect_exit 0 ord audit past.game
expect_in "$OUT" "note: seal: the deadline it kept"
# brought forward, to a time to come: noted, less time than given
expect_exit 0 ord new fwd.game --scenario scenario.xml
expect_exit 0 ord deadline fwd.game "$(date -u -d '+2 days' +%FT%TZ)"
expect_exit 0 ord submit fwd.game --side red "$BFIX/red-1b.txt"
# deadlines a few seconds off (a loaded machine takes a second or more
# to run a submit), waited out below
SOON=$(($(date +%s) + 6))
expect_exit 0 ord deadline fwd.game "$(date -u -d "@$SOON" +%FT%TZ)" --past
# a side that missed the one deadline it was given: no note
expect_exit 0 ord new missed.game --scenario scenario.xml
expect_exit 0 ord deadline missed.game "$(date -u -d "@$SOON" +%FT%TZ)" --past
expect_exit 0 ord submit missed.game --side red "$BFIX/red-1b.txt"
# every side in by a deadline kept: no note (44); brought forward with
# every side in, then sealed at it: noted as a seal before the time given
expect_exit 0 ord new intime.game --scenario scenario.xml
expect_exit 0 ord deadline intime.game "$(date -u -d "@$SOON" +%FT%TZ)" --past
expect_exit 0 ord submit intime.game --side red "$BFIX/red-1b.txt"
expect_exit 0 ord submit intime.game --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord new fwdall.game --scenario scenario.xml
expect_exit 0 ord deadline fwdall.game "$(date -u -d '+2 days' +%FT%TZ)"
expect_exit 0 ord submit fwdall.game --side red "$BFIX/red-1b.txt"
expect_exit 0 ord submit fwdall.game --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord deadline fwdall.game "$(date -u -d "@$SOON" +%FT%TZ)" --past
# the other way: the deadline set again once it had passed, a late
# sheet taken (the referee's extension; a side that kept its time sees
# the late sheet stand): said
expect_exit 0 ord new ext.game --scenario scenario.xml
expect_exit 0 ord deadline ext.game "$(date -u -d "@$SOON" +%FT%TZ)" --past
expect_exit 0 ord submit ext.game --side red "$BFIX/red-1b.txt"
# a game made since (made=) seals unforced from the deadline's second
# second on (attack 36)
while (($(date +%s) <= SOON + 1)); do sleep 0.2; done
expect_exit 0 ord seal fwd.game
expect_exit 0 ord seal missed.game
expect_exit 0 ord seal intime.game
expect_exit 0 ord audit intime.game
expect_not_in "$OUT" "note: seal:"
expect_exit 0 ord seal fwdall.game
expect_exit 0 ord audit fwdall.game
expect_line "$OUT" "note: seal: the deadline it kept \(entry [0-9]+\) was brought forward from [-0-9T:]+Z to [-0-9T:]+Z: every side had handed in, but none had the time it had been given to send another version; the referee chose when to seal"
expect_exit 0 ord audit missed.game
expect_in "$OUT" "the NMR policy stood in for blue"
expect_not_in "$OUT" "note: seal:"
expect_not_in "$OUT" "had passed"
expect_exit 65 ord submit ext.game --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord deadline ext.game "$(date -u -d '+2 days' +%FT%TZ)"
expect_exit 0 ord submit ext.game --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord audit ext.game
expect_line "$OUT" "note: the sheet of blue \(entry [0-9]+\) was taken after the deadline of [-0-9T:]+Z \(entry [0-9]+\) had passed: the deadline was set again after it \(entry [0-9]+\), and the turn took sheets again"
expect_not_in "$OUT" "the sheet of red (entry"
resolve_rest fwd.game
expect_exit 0 ord audit fwd.game
expect_line "$OUT" "note: seal: the deadline it kept \(entry [0-9]+\) was brought forward at [-0-9T:]+Z from [-0-9T:]+Z to [-0-9T:]+Z: blue, which had no sheet in by then, took the NMR policy's orders with less time than it had been given"
note "31: a deadline set past, or brought forward, to shut a side out, or set again to take a late sheet, is noted by verify and the audit"

# ------------------------------------------------------------ 35. an event refused whatever the override, written in by hand
# (found by the red team of the thirty-sixth session) An event that cannot
# happen (a fire at the firer's own side) is refused as it is recorded,
# --override or not, but the replay took one in the log for an override:
# the referee recorded B2's shot at R1 as its sheet orders, made it a shot
# at blue's own B1 with an override in the event's row and its log entry,
# the checks it breaks copied from the replay's words, and chained the log
# again before resolving the phase: B1 lost figures to its own gun, and
# the audit and verify said clean, "1 event was recorded against the
# orders, by the referee's override".
# own_goal GAME KIND FROM TO: GAME's event KIND made to say TO where it
# said FROM, with an override, its checks the replay's, chained again
own_goal() {
	local c
	sql "$1" "UPDATE event SET args = replace(args, '$3', '$4'), override = 'fired into its own in the smoke' WHERE kind = '$2';
		UPDATE log SET body = replace(body, 'arg.$3', 'arg.$4') || 'override=fired into its own in the smoke' || char(10)
		WHERE kind = 'event' AND body LIKE '%kind=$2' || char(10) || '%'" >/dev/null
	forge rechain "$1"
	run ord audit "$1"
	c=$(sed -n 's/.*what the event breaks differs; by the orders: \(.*\); by the log: nothing$/\1/p' <<<"$OUT")
	[[ -n $c ]] || fail "attack 35: the checks of the forged $2 are not in the audit:
$OUT"
	c=${c//\'/\'\'}
	sql "$1" "UPDATE event SET checks = '$c' WHERE kind = '$2';
		UPDATE log SET body = body || 'checks=$c' || char(10) WHERE kind = 'event' AND body LIKE '%kind=$2' || char(10) || '%'" >/dev/null
	forge rechain "$1"
}
own_fire() {  # own_fire GAME [TABLES]: a battalion turn, B2's shot made one at B1
	expect_exit 0 ord new "$1" --scenario scenario.xml --head "$1.open.head" ${2:+--tables "$2"}
	expect_exit 0 ord submit "$1" --side blue "$BFIX/blue-1.txt"
	BLUE=$(field commitment "$OUT")
	expect_exit 0 ord submit "$1" --side red "$BFIX/red-1b.txt"
	expect_exit 0 ord seal "$1" --head "$1.seal.head"
	expect_exit 0 ord event "$1" move unit=B1 distance=2
	expect_exit 0 ord resolve "$1"
	# the front door refuses it, override or not
	expect_exit 64 ord event "$1" artillery unit=B2 target=B1 range=10 --override "fired into its own in the smoke"
	expect_in "$ERR" "target 'B1' is a unit of the firer's own side (blue): fire is at the enemy; --override does not apply"
	expect_exit 0 ord event "$1" artillery unit=B2 target=R1 range=10
	own_goal "$1" artillery target=R1 target=B1
	resolve_rest "$1"
	expect_exit 0 ord exchange "$1" --head "$1.exchange.head"
	export_bundle "$1" 1 "$1.xml"
}
g=own.game
own_fire $g
ENTRY=$(sql $g "SELECT log_seq FROM event WHERE kind = 'artillery'")
[[ "$(sql $g "SELECT count(*) FROM result WHERE unit = 'B1' AND explanation LIKE 'fired on by gun B2%'")" == 1 ]] ||
	fail "attack 35: the forged shot at B1 was not resolved"
IMPOSSIBLE="turn 1 event #2 (artillery of B2, phase fire, entry $ENTRY): the rules refuse it whatever the override (target 'B1' is a unit of the firer's own side (blue): fire is at the enemy; --override does not apply: it overrules a check of a measure or of the situation on the table, not an event that cannot happen): no orderly records it, yet the log holds it with the override \"fired into its own in the smoke\", written there by other means (its row and entry changed)"
player_verify $g
[[ $RC == 1 ]] || fail "attack 35: the bundle of a forged shot at the firer's own side verifies:
$OUT"
expect_in "$OUT" "FAILED: $IMPOSSIBLE"
expect_not_in "$OUT" "recorded against the orders: override"
expect_exit 1 ord audit $g
expect_in "$OUT" "BROKEN: $IMPOSSIBLE"
expect_not_in "$OUT" "by the referee's override"
# a game made before the switch (its tables without impossible_replayed)
# may hold one an orderly of then recorded with an override: it replays
# so, as before
sed '/<param name="impossible_replayed"/,/\/>/d' "$SRC/rulesets/battalion/tables.xml" >tables-before.xml
! grep -q impossible_replayed tables-before.xml || fail "attack 35: the switch is still in tables-before.xml"
own_fire own-before.game tables-before.xml
expect_exit 0 ord audit own-before.game
expect_in "$OUT" "note: turn 1 event #2 (artillery): recorded against the orders: override \"fired into its own in the smoke\""
expect_in "$OUT" "but 1 event was recorded against the orders, by the referee's override"
# Krigsspil: D3's fire at L2 made one at D8, its own side; K24 resolves
# it to nothing, and the replay took it for an override as well
g=own-ks.game
ks35() { ord "$@" >/dev/null 2>&1 || fail "attack 35: orderly $* failed"; }
ks35 new $g --scenario "$KS/scenario.xml" --tables "$KS/map.xml"
ks35 submit $g --side danske "$KD/turn1-danske.txt"
ks35 submit $g --side allierede "$KD/turn1-allierede.txt"
ks35 seal $g
ks35 resolve $g
ks35 resolve $g
for e in "flyt unit=D3 x=90 y=68" "formation unit=D8 formation=karre" "flyt unit=L2 x=90 y=88" \
	"formation unit=L1 formation=angrebskolonne" "flyt unit=L5 x=190 y=80"; do
	# shellcheck disable=SC2086
	ks35 event $g $e
done
ks35 resolve $g
expect_exit 64 ord event $g skyd unit=D3 maal=D8 zone=II halv=yes --override "fired into its own in the smoke"
expect_in "$ERR" "unit 'D3': D8 is of its own side: fire is at the enemy (14); --override does not apply"
ks35 event $g skyd unit=D3 maal=L2 zone=II halv=yes
own_goal $g skyd maal=L2 maal=D8
ENTRY=$(sql $g "SELECT log_seq FROM event WHERE kind = 'skyd'")
SEQ=$(sql $g "SELECT seq FROM event WHERE kind = 'skyd'")
expect_exit 1 ord audit $g
expect_in "$OUT" "BROKEN: turn 1 event #$SEQ (skyd of D3, phase skydninger, entry $ENTRY): the rules refuse it whatever the override (unit 'D3': D8 is of its own side: fire is at the enemy (14); --override does not apply: it overrules a check of a measure or of the situation on the table, not an event that cannot happen): no orderly records it, yet the log holds it with the override \"fired into its own in the smoke\", written there by other means (its row and entry changed)"
expect_not_in "$OUT" "by the referee's override"
note "35: an event refused whatever the override, written into the log by hand, is refused by the replay"

# ------------------------------------------------------------ 36. a forced seal in the clock's slack
# (found by the red team of the thirty-sixth session; the sequel of 30)
# The log's times may run back ten minutes (CLOCK_SLACK, a clock set
# right): the referee sealed forced five minutes before the deadline, then
# logged the seal unforced and dated five seconds after it, chained again,
# and played the turn on.  The entries after the seal, dated before it
# within the slack, did not run back, and no entry lay in the future: the
# audit and verify said clean, the NMR policy standing in for blue as if
# it had missed its time.
g=slack.game
expect_exit 0 ord new $g --scenario scenario.xml --head $g.open.head
expect_exit 0 ord deadline $g "$(date -u -d '+5 minutes' +%FT%TZ)"
expect_exit 0 ord submit $g --side red "$BFIX/red-1b.txt"
RED=$(field commitment "$OUT")
expect_exit 0 ord seal $g --force
DL=$(sql $g "SELECT deadline FROM turn WHERE turn = 1")
S=$(sql $g "SELECT seq FROM log WHERE kind = 'seal'")
DLE=$(sql $g "SELECT max(seq) FROM log WHERE kind = 'deadline'")
sql $g "UPDATE log SET at = $DL + 5, body = replace(body, 'forced=1', 'forced=0') WHERE seq = $S" >/dev/null
forge rechain $g
expect_exit 0 ord head $g --at seal --turn 1 -o $g.seal.head
resolve_rest $g
expect_exit 0 ord exchange $g --head $g.exchange.head
export_bundle $g 1 $g.xml
AFTER=$(sql $g "SELECT at FROM log WHERE seq = $S + 1")
SLACK="the seal (entry $S) is dated $(date -u -d "@$((DL + 5))" +%FT%TZ), after the deadline ($(date -u -d "@$DL" +%FT%TZ), entry $DLE), but entry $((S + 1)) (resolve) after it is dated $(date -u -d "@$AFTER" +%FT%TZ), not after the deadline: the seal was made before its time and its time was changed (a seal before the deadline is forced; this one stood in for 'blue')"
run ord verify $g.xml --pubkey "$(pubkey $g)" --receipt "$RED" \
	--head $g.open.head --head $g.seal.head --head $g.exchange.head
[[ $RC == 1 ]] || fail "attack 36: the bundle of a seal forced in the clock's slack verifies:
$OUT"
expect_in "$OUT" "FAILED: $SLACK"
expect_not_in "$OUT" "times run back"
expect_not_in "$OUT" "dated in the future"
expect_exit 1 ord audit $g
expect_in "$OUT" "BROKEN: $SLACK"
# an honest game with a deadline (31's missed.game, sealed unforced once
# its deadline had passed) verifies; so does one whose clock stepped back
# a second just after a seal made in the deadline's second second, as a
# game made since (made=) seals unforced (NTP setting it right), its
# entries' times made so; and, in a game made before (no made=, the log
# made so and chained again), one stepped back a second after a seal in
# the deadline's next second, as such a game sealed
g=missed.game
S=$(sql $g "SELECT seq FROM log WHERE kind = 'seal'")
DL=$(sql $g "SELECT deadline FROM turn WHERE turn = 1")
expect_in "$(sql $g "SELECT body FROM log WHERE kind = 'create'")" "made=2026-12-07"
# strip_made GAME: its creation and openings as an orderly before made=
# wrote them (test_hidden_orders.sh)
strip_made() {
	unmark "$1"
	sql "$1" "UPDATE log SET body = replace(body, 'made=2026-12-07' || char(10), '') WHERE kind IN ('create', 'open')"
	[[ "$(sql "$1" "SELECT count(*) FROM log WHERE body LIKE '%made=%'")" == 0 ]] ||
		fail "the log of '$1' still says made= (fix the test)"
}
# step GAME SEAL AFTER: the seal dated DL + SEAL, the entry after it (a
# resolve) DL + AFTER, the chain made again
step() {
	expect_exit 0 ord resolve $1 --phase movement --empty
	sql $1 "UPDATE log SET at = $DL + $2 WHERE seq = $S; UPDATE log SET at = $DL + $3 WHERE seq = $S + 1" >/dev/null
	forge rechain $1
}
cp missed.game stepped.game
cp missed.game oldstep.game
cp missed.game ownsecond.game
cp missed.game oldslack.game
strip_made oldstep.game
strip_made oldslack.game
step stepped.game 2 1
step oldstep.game 1 0
for g in missed.game stepped.game oldstep.game; do
	expect_exit 0 ord head $g --at seal --turn 1 -o $g.seal.head
	resolve_rest $g
	expect_exit 0 ord exchange $g
	export_bundle $g 1 $g.xml
	run ord verify $g.xml --pubkey "$(pubkey $g)" --head $g.seal.head
	[[ $RC == 0 ]] || fail "attack 36: the honest $g fails verify:
$OUT"
	expect_in "$OUT" "the NMR policy stood in for blue"
	expect_not_in "$OUT" "made before its time"
	expect_exit 0 ord audit $g
done
# the one second CLOCK_STEP let pass (the forty-first session's
# NEEDSWORK): a seal forced in the deadline's own second, dated in its
# next, the resolve after it logged in the deadline's second.  In a game
# made since, an honest seal is never made in the deadline's next second
# (seal and tick wait for its second second), so no second is let pass:
# caught.  In a game made before, the same times are an honest seal with
# the clock stepped back a second: it verifies, as it always did.
step ownsecond.game 1 0
step oldslack.game 1 0
ONE="the seal (entry $S) is dated $(date -u -d "@$((DL + 1))" +%FT%TZ), after the deadline ($(date -u -d "@$DL" +%FT%TZ), entry $(sql missed.game "SELECT max(seq) FROM log WHERE kind = 'deadline' AND seq < $S")), but entry $((S + 1)) (resolve) after it is dated $(date -u -d "@$DL" +%FT%TZ), not after the deadline: the seal was made before its time and its time was changed (a seal before the deadline is forced; this one stood in for 'blue'); the game was made by an orderly of 2026-12-07 or later (made=), which seals so only from the deadline's second second on and lets no clock step back past it"
for g in ownsecond.game oldslack.game; do
	expect_exit 0 ord head $g --at seal --turn 1 -o $g.seal.head
	resolve_rest $g
	expect_exit 0 ord exchange $g
	export_bundle $g 1 $g.xml
	run ord verify $g.xml --pubkey "$(pubkey $g)" --head $g.seal.head
	if [[ $g == ownsecond.game ]]; then
		[[ $RC == 1 ]] || fail "attack 36: a seal forced in the deadline's own second verifies:
$OUT"
		expect_in "$OUT" "FAILED: $ONE"
		expect_exit 1 ord audit $g
		expect_in "$OUT" "BROKEN: $ONE"
	else
		[[ $RC == 0 ]] || fail "attack 36: the game made before fails verify:
$OUT"
		expect_not_in "$OUT" "made before its time"
		expect_exit 0 ord audit $g
	fi
done
note "36: a forced seal dated after the deadline within the clock's slack is caught by the entries after it; in a game made since, one forced in the deadline's own second too"

# ------------------------------------------------------------ 38. a check switched off, hidden among numbers written otherwise
# (found by the red team of the thirty-eighth session) A game's tables may
# be a club's: the audit and verify hold them against the built-in ones
# and named the parameters that differ, the first ten of them, "and N
# more" after.  The referee made a game whose tables switch
# impossible_replayed off (35's check, what a game made before it has),
# and wrote ten switches before it as 1.0, where the built-in has 1: the
# same number to the rules, ten differences to the list.  He mounted 35
# (B2's shot at R1 made one at blue's own B1, an override written in by
# hand): the audit was clean, "1 event was recorded against the orders,
# by the referee's override", and the note named ten switches "1.0 where
# the built-in has 1 and 1 more", never impossible_replayed.  Now numbers
# are compared by their value, and every difference is named.
perl -pe 'if (/<param name="(\w+)" value="1"/ && $1 ne "impossible_replayed" && $n < 10) { s/value="1"/value="1.0"/; $n++ } s/(<param name="impossible_replayed" value=)"1"/$1"0"/' \
	"$SRC/rulesets/battalion/tables.xml" >padded-tables.xml
[[ $(grep -c 'value="1.0"' padded-tables.xml) == 10 ]] || fail "attack 38: ten switches are not written 1.0"
grep -q '<param name="impossible_replayed" value="0"' padded-tables.xml || fail "attack 38: impossible_replayed is not 0"
own_fire own-padded.game padded-tables.xml
PADDED="the game's rules tables are not this orderly's built-in battalion tables \(the tables [a-z_, ]+; of its parameters, impossible_replayed is 0 where the built-in has 1\): its results are checked against the game's own"
player_verify own-padded.game
[[ $RC == 0 ]] || fail "attack 38: the game with the switch off fails verify:
$OUT"
expect_line "$OUT" "^  note: $PADDED"
expect_not_in "$OUT" " more)"
expect_not_in "$OUT" "1.0 where"
expect_exit 0 ord audit own-padded.game
expect_in "$OUT" "but 1 event was recorded against the orders, by the referee's override"
expect_line "$OUT" "^    note: $PADDED"
expect_not_in "$OUT" " more)"
# a chart's number is named by its table, row and line
sed 's|<band shot="ball" from="0" to="12" dead="2" hit="5"/>|<band shot="ball" from="0" to="12" dead="6" hit="5"/>|' \
	"$SRC/rulesets/battalion/tables.xml" >deadly-tables.xml
BALL=$(grep -n '<band shot="ball" from="0" to="12" dead="6"' deadly-tables.xml | cut -d: -f1)
[[ -n $BALL ]] || fail "attack 38: the ball band is not changed"
expect_exit 0 ord new deadly.game --scenario scenario.xml --tables deadly-tables.xml
expect_exit 0 ord audit deadly.game
expect_in "$OUT" "note: the game's rules tables are not this orderly's built-in battalion tables (the table artillery; of its other tables, artillery row 7 (line $BALL): dead is 6 where the built-in has 2): its results"
# and one a row added to its table does not hide: every row with no equal
# in the other is named whole
perl -pe 's|(<band shot="ball" from="24" to="36" dead="2" hit="2"/>)|$1\n    <band shot="ball" from="36" to="48" dead="1" hit="1"/>|' \
	deadly-tables.xml >longer-tables.xml
ADDED=$((BALL + 3))
expect_eq "$(sed -n "${ADDED}p" longer-tables.xml)" '    <band shot="ball" from="36" to="48" dead="1" hit="1"/>' "attack 38: the row added"
expect_exit 0 ord new longer.game --scenario scenario.xml --tables longer-tables.xml
expect_exit 0 ord audit longer.game
expect_in "$OUT" "note: the game's rules tables are not this orderly's built-in battalion tables (the table artillery; of its other tables, artillery has 10 rows where the built-in has 9, artillery row 7 (line $BALL), which the built-in has not: shot=ball from=0 to=12 dead=6 hit=5, artillery row 10 (line $ADDED), which the built-in has not: shot=ball from=36 to=48 dead=1 hit=1, artillery's row 7 of the built-in, which it has not: shot=ball from=0 to=12 dead=2 hit=5): its results"
# nor one its table's columns written in another order (the same to the
# rules, which read them by name)
sed 's|keys="shot" columns="dead hit"|keys="shot" columns="hit dead"|' deadly-tables.xml >laidout-tables.xml
cmp -s laidout-tables.xml deadly-tables.xml && fail "attack 38: the artillery's columns are not changed"
expect_exit 0 ord new laidout.game --scenario scenario.xml --tables laidout-tables.xml
expect_exit 0 ord audit laidout.game
expect_in "$OUT" "note: the game's rules tables are not this orderly's built-in battalion tables (the table artillery; of its other tables, artillery is laid out otherwise (its kind, die, keys, columns or labels), artillery row 7 (line $BALL), which the built-in has not: shot=ball from=0 to=12 dead=6 hit=5, artillery's row 7 of the built-in, which it has not: shot=ball from=0 to=12 dead=2 hit=5): its results"
note "38: every parameter and number a game's tables differ in is named, none hidden behind ten others"

# ------------------------------------------------------------ 39. a game made today with dice keyed by the events' order
# (found by the red team of the thirty-eighth session) Since 2026-12-06 a
# roll is keyed by what its event names, not its number (dice=events in
# the creation and every opening); a game made before keys it by the
# number, so the order in which the referee records a phase's events moves
# every later die.  His own build made a game without dice=events (here:
# the two lines taken out, the chain made again before open.head went
# out), and so he could record the phase's fire events in the order whose
# dice he liked: a copy sealed once, B2's shot recorded first or last.
# Both orders audited clean without a word of the dice, and verify said
# only, as of any game without witnessed dice, that nothing shows the
# events were not recorded again in another order.  Now the audit and
# verify say that this game's dice are keyed the way an orderly before
# 2026-12-06 keyed them, and what that lets the referee do.
g=order.game
expect_exit 0 ord new $g --scenario scenario.xml
sql $g "UPDATE log SET body = replace(body, char(10) || 'dice=events', '') WHERE seq IN (1, 3)" >/dev/null
forge rechain $g
expect_exit 0 ord head $g --at open -o $g.open.head
expect_exit 0 ord submit $g --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord submit $g --side red "$BFIX/red-1b.txt"
expect_exit 0 ord seal $g --head $g.seal.head
expect_exit 0 ord event $g move unit=B1 distance=2
expect_exit 0 ord resolve $g
cp $g order-b.game
expect_exit 0 ord event $g fire unit=R1 target=B1 range=5
expect_exit 0 ord event $g artillery unit=B2 target=R1 range=10
expect_exit 0 ord event order-b.game artillery unit=B2 target=R1 range=10
expect_exit 0 ord event order-b.game fire unit=R1 target=B1 range=5
ORDER="note: the game's dice are keyed by the events' numbers (turn 1's opening, entry 3, logs no dice=events), as an orderly before 2026-12-06 made a game: the order in which the referee records a phase's events, or an event he puts before another, moves every later die of the phase, so he could choose the dice by it and no check shows it; a game made since keys each die by what its event names"
for g in order.game order-b.game; do
	resolve_rest $g
	expect_exit 0 ord exchange $g --head $g.exchange.head
	# the gun's roll is keyed by its number: 3 in one order, 2 in the other
	expect_eq "$(sql $g "SELECT event_seq FROM roll WHERE turn = 1 AND purpose = 'artillery to hit'")" \
		"$([[ $g == order.game ]] && echo 3 || echo 2)" "attack 39: the gun's event in $g"
	expect_exit 0 ord audit $g
	expect_in "$OUT" "clean"
	expect_in "$OUT" "$ORDER"
done
export_bundle order.game 1 order.xml
run ord verify order.xml --pubkey "$(pubkey order.game)" --head order.game.open.head \
	--head order.game.seal.head --head order.game.exchange.head
[[ $RC == 0 ]] || fail "attack 39: the game verifies no more:
$OUT"
expect_in "$OUT" "$ORDER"
# a game made by this orderly says nothing of it
player_verify honest.game
expect_not_in "$OUT" "keyed by the events' numbers"
expect_exit 0 ord audit honest.game
expect_not_in "$OUT" "keyed by the events' numbers"
note "39: a game whose dice are keyed by the events' order is named so by the audit and verify"

# ------------------------------------------------------------ 40. a side held under the NMR policy 'wait'
# (found by the red team of the thirty-eighth session) Under 'wait' the
# turn waits for every side's sheet: no orderly seals it without one,
# forced or not, so no unit of a side that has not handed in takes the
# policy's orders.  A referee's own build sealed it once the deadline had
# passed with red held (the stand-in's text, nonce and the seal's held=red
# as 'hold' would make them): red's units stood for the turn, and the
# audit said clean, verify "the NMR policy stood in for red".
g=wait.game
W=$FIX/scenario-wait.xml
expect_exit 0 ord new $g --scenario "$W" --head $g.open.head
expect_exit 0 ord submit $g --side blue "$FIX/blue-1.txt"
expect_exit 0 ord deadline $g "$(date -u -d '-5 seconds' +%FT%TZ)" --past
expect_exit 65 ord seal $g
expect_eq "$ERR" "orderly: cannot seal turn 1: the NMR policy is 'wait' and red has not submitted" "attack 40: the seal under 'wait'"
forge seal-wait $g
expect_eq "$(sql $g "SELECT source FROM sheet WHERE turn = 1 AND side_id = (SELECT id FROM side WHERE name = 'red')")" hold \
	"attack 40: red's stand-in"
S=$(sql $g "SELECT seq FROM log WHERE kind = 'seal'")
expect_exit 0 ord head $g --at seal --turn 1 -o $g.seal.head
resolve_rest $g
expect_exit 0 ord exchange $g --head $g.exchange.head
export_bundle $g 1 $g.xml
WAITED="the seal (entry $S) stood in for 'red' with the NMR policy's hold, but the game's NMR policy is 'wait', which stands in for no side: the turn waits for every side's sheet, and no orderly seals it without one"
run ord verify $g.xml --pubkey "$(pubkey $g)" --head $g.open.head --head $g.seal.head --head $g.exchange.head
[[ $RC == 1 ]] || fail "attack 40: the bundle of a turn sealed without red under 'wait' verifies:
$OUT"
expect_in "$OUT" "FAILED: $WAITED"
expect_not_in "$OUT" "the NMR policy stood in for red"
expect_exit 1 ord audit $g
expect_in "$OUT" "BROKEN: $WAITED"
# an honest game under 'wait' is sealed once every side is in, and verifies
g=waited.game
expect_exit 0 ord new $g --scenario "$W"
expect_exit 0 ord submit $g --side blue "$FIX/blue-1.txt"
expect_exit 0 ord submit $g --side red "$FIX/red-1.txt"
expect_exit 0 ord seal $g
resolve_rest $g
expect_exit 0 ord exchange $g
export_bundle $g 1 $g.xml
expect_exit 0 ord verify $g.xml --pubkey "$(pubkey $g)"
expect_not_in "$OUT" "stood in"
expect_exit 0 ord audit $g
note "40: a turn sealed without a side under the NMR policy 'wait' is caught by the seal's check"

# ------------------------------------------------------------ 44. the sheets closed early, every side in
# (found by the red team of the fortieth session) `seal` needs no --force
# once every side has handed in: the referee, who holds the seed, works
# out the dice each time a version comes in and seals, two days before the
# deadline, at the versions whose dice he likes, leaving the sides none of
# the time they were given to send another.  The seal's entry logged
# nothing of it, and verify and the audit said only "seals the latest
# sheet of each of the 2 sides", as of a seal at the deadline.  Now noted.
g=early.game
expect_exit 0 ord new $g --scenario scenario.xml --head $g.open.head
expect_exit 0 ord deadline $g "$(date -u -d '+2 days' +%FT%TZ)"
expect_exit 0 ord submit $g --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord submit $g --side red "$BFIX/red-1b.txt"
expect_exit 0 ord seal $g
resolve_rest $g
expect_exit 0 ord exchange $g --head $g.exchange.head
export_bundle $g 1 $g.xml
expect_exit 0 ord verify $g.xml --pubkey "$(pubkey $g)" --head $g.open.head --head $g.exchange.head
expect_in "$OUT" "verified: every check holds"
expect_line "$OUT" "note: seal: the sheets were closed at [-0-9T:]+Z \(entry [0-9]+\), before the deadline of [-0-9T:]+Z \(entry [0-9]+\), every side having handed in: each could still have sent another version until then; the referee chose when to seal, and with it which versions the turn's dice key is made of"
expect_exit 0 ord audit $g
expect_in "$OUT" "note: seal: the sheets were closed at"
# forced, with no side missing: the same note beside its line
g=early-forced.game
expect_exit 0 ord new $g --scenario scenario.xml
expect_exit 0 ord deadline $g "$(date -u -d '+2 days' +%FT%TZ)"
expect_exit 0 ord submit $g --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord submit $g --side red "$BFIX/red-1b.txt"
expect_exit 0 ord seal $g --force
expect_exit 0 ord audit $g
expect_in "$OUT" "the seal forced by the referee before the deadline (no side was missing)"
expect_in "$OUT" "note: seal: the sheets were closed at"
# no deadline set: nothing was given, nothing is noted
g=early-none.game
expect_exit 0 ord new $g --scenario scenario.xml
expect_exit 0 ord submit $g --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord submit $g --side red "$BFIX/red-1b.txt"
expect_exit 0 ord seal $g
expect_exit 0 ord audit $g
expect_not_in "$OUT" "note: seal:"
note "44: the sheets closed before the deadline with every side in are noted"

# ------------------------------------------------------------ 45. a receipt of the next turn, and "verified"
# The referee puts a sheet of his own in blue's place (blue has no key:
# version 2, never blue's) and seals it, then hands out the turn's
# bundle only once turn 2 is open and blue has handed in its sheet: the
# receipt blue kept last, the one the guides tell him to give, is turn
# 2's.  verify noted that it checks nothing of turn 1 and said "verified:
# every check holds" with no word of his sheet among what it did not
# check, as if he had given his receipt of turn 1.
g=receipt-late.game
expect_exit 0 ord new $g --scenario scenario.xml --head $g.open.head
expect_exit 0 ord submit $g --side blue "$BFIX/blue-1.txt" --receipt-head $g.blue-1.receipt
expect_exit 0 ord submit $g --side red "$BFIX/red-1b.txt"
expect_exit 0 ord submit $g --side blue "$BFIX/blue-2.txt"
expect_exit 0 ord seal $g --head $g.seal.head
resolve_rest $g
expect_exit 0 ord exchange $g --head $g.exchange.head
expect_exit 0 ord submit $g --side blue "$BFIX/blue-2.txt" --receipt-head $g.blue-t2.receipt
export_bundle $g 1 $g.xml
expect_exit 0 ord verify $g.xml --pubkey "$(pubkey $g)" --receipt $g.blue-t2.receipt \
	--head $g.open.head --head $g.seal.head --head $g.exchange.head
expect_in "$OUT" "note: receipt $g.blue-t2.receipt: a receipt of turn 2, not of this bundle's turn 1"
expect_in "$OUT" "verified: every check holds
not checked:
  no --receipt of turn 1: your sheet was not checked ('$g.blue-t2.receipt' is a receipt of turn 2, which checks nothing of this turn: give this turn's, the receipt of the last sheet you handed in for turn 1)"
# given as well as turn 2's, turn 1's receipt is checked, and shows it
run ord verify $g.xml --pubkey "$(pubkey $g)" --receipt $g.blue-t2.receipt --receipt $g.blue-1.receipt \
	--head $g.open.head --head $g.seal.head --head $g.exchange.head
[[ $RC == 1 ]] || fail "45: verify with blue's receipt of turn 1 exited $RC"
expect_in "$OUT" "the sheet of blue, version 1, is here unchanged, but version 2 was sealed instead"
expect_not_in "$OUT" "no --receipt"
# a bare commitment of turn 1 beside turn 2's receipt: the word, not the head
expect_exit 1 ord verify $g.xml --pubkey "$(pubkey $g)" --receipt $g.blue-t2.receipt \
	--receipt "$(sed -n 's/^commitment: //p' $g.blue-1.receipt)" --head $g.open.head --head $g.exchange.head
expect_not_in "$OUT" "no --receipt of turn 1"
note "45: a receipt of another turn leaves the sheet named among what verify did not check"

# ------------------------------------------------------------ 47. a receipt of one sheet in the words of another
# A receipt's words, the line "# turn T, side S, version V, commitment C"
# under its first line, are what the player reads when it comes (the
# guides tell him to check its commitment then), and nothing signs them.
# The referee's own build takes blue's correction (version 2), stores
# nothing of it and hands blue his receipt of version 1 in the words of
# version 2, with the commitment version 2 would have had: the draft is
# sealed, and the correction never was.  verify said "ok: receipt ...:
# the sheet of blue, version 1, is here unchanged and was the one
# sealed", "verified: every check holds": only the "1" told.  So did red's
# receipt in blue's words (blue's sheet left out), and the head of the
# seal the game signs for red in blue's.
g=words.game
expect_exit 0 ord new $g --scenario scenario.xml --head $g.open.head
expect_exit 0 ord submit $g --side blue "$BFIX/blue-1.txt" --receipt-head $g.blue-1.receipt
expect_exit 0 ord submit $g --side red "$BFIX/red-1b.txt" --receipt-head $g.red-1.receipt
cp $g $g.copy
expect_exit 0 ord submit $g.copy --side blue "$BFIX/blue-2.txt"
C2=$(field commitment "$OUT")
C1=$(sed -n 's/^commitment: //p' $g.blue-1.receipt)
[[ -n "$C2" && "$C2" != "$C1" ]] || fail "47: no commitment of blue's version 2"
# the receipt blue is handed for his correction
sed "s/^# turn 1, side blue, version 1, commitment $C1\$/# turn 1, side blue, version 2, commitment $C2/" \
	$g.blue-1.receipt >$g.blue-2.receipt
grep -q "^# turn 1, side blue, version 2, commitment $C2\$" $g.blue-2.receipt || fail "47: the words were not changed"
sed "s/^# turn 1, side red, version 1, commitment .*/# turn 1, side blue, version 2, commitment $C2/" \
	$g.red-1.receipt >$g.red-as-blue.receipt
# blue's check when the receipt comes, with what he holds then: the game's
# key and the head of the game's opening (and, for a side with a key, the
# commitment 'orderly sign' gave him).  Since 2026-12-07 the game signs the
# words too: the receipt of version 1 in the words of version 2 is refused
# at once, with the signature line kept or taken out, where it was seen
# only in the bundle, after the draft had been played
SIGLINE=$(grep -n '^# words-signature: ' $g.blue-2.receipt | cut -d: -f1 || true)
at_submit() { run ord verify --receipt "$@" --pubkey "$(pubkey $g)" --head $g.open.head; }
at_submit $g.blue-2.receipt
[[ $RC == 1 ]] || fail "47: the relabelled receipt was not refused at the submit (exit $RC)"
expect_in "$OUT" "FAILED: receipt $g.blue-2.receipt:2: its words, '# turn 1, side blue, version 2, commitment ${C2:0:16}...', are not what the game signed (the signature of its words, line $SIGLINE, does not hold): a receipt in words the game did not give"
expect_not_in "$OUT" "this receipt is for"
# the same as an orderly before 2026-12-07 wrote receipts: no signature of
# their words (the line, and the three lines that say what it is for)
unsigned_words() { grep -v -e '^# words-signature: ' -e '^# The game signed the words of line 2 too' \
	-e "^# verify --receipt FILE --pubkey KEY' says now whose sheet" \
	-e '^# this receipt is for, before the exchange\.$' "$1"; }
unsigned_words $g.blue-2.receipt >$g.blue-2-old.receipt
unsigned_words $g.blue-1.receipt >$g.blue-1-old.receipt
[[ $(wc -l <$g.blue-1-old.receipt) == $(($(wc -l <$g.blue-1.receipt) - 4)) ]] ||
	fail "47: the receipt's words are not signed in four lines"
at_submit $g.blue-2-old.receipt
[[ $RC == 1 ]] || fail "47: the relabelled receipt without its words' signature was not refused at the submit (exit $RC)"
expect_in "$OUT" "FAILED: receipt $g.blue-2-old.receipt: its words are not signed (no line '# words-signature: ...': an orderly before core revision 2026-12-07.1 wrote it (orderly version says its own), or the line was taken out): the game signed only turn 1 and commitment ${C1:0:16}... (entry "
at_submit $g.red-as-blue.receipt
[[ $RC == 1 ]] || fail "47: red's receipt in blue's words was not refused at the submit (exit $RC)"
expect_in "$OUT" "are not what the game signed"
# the honest receipt: said plainly
at_submit $g.blue-1.receipt
[[ $RC == 0 ]] || fail "47: blue's own receipt failed the check at the submit (exit $RC)"
expect_in "$OUT" "ok: $g.blue-1.receipt: this receipt is for turn 1, side blue, version 1 of the sheet with commitment $C1 (entry "
expect_in "$OUT" "ok: receipt $g.blue-1.receipt: of the game and the turn $g.open.head opens, after its opening"
# a side with a key holds it to his own commitment: version 2's is not it
at_submit $g.blue-1.receipt --commitment "$C2"
[[ $RC == 1 ]] || fail "47: a receipt of another commitment passed --commitment (exit $RC)"
expect_in "$OUT" "FAILED: receipt $g.blue-1.receipt: the game signed commitment $C1, but yours is $C2"
# an honest receipt of an orderly before: its words cannot be held at the
# submit, but the commitment it signs can
at_submit $g.blue-1-old.receipt --commitment "$C1"
[[ $RC == 0 ]] || fail "47: an old receipt of the player's commitment failed (exit $RC)"
expect_in "$OUT" "note: receipt $g.blue-1-old.receipt: its words are not signed"
expect_in "$OUT" "but the commitment it signs is yours"
# against a key that is not the game's
expect_exit 0 ord keygen $g.other.key
run ord verify --receipt $g.blue-1.receipt --pubkey $g.other.key.pub
[[ $RC == 1 ]] || fail "47: a receipt checked against another key passed (exit $RC)"
expect_in "$OUT" "not by the game's key you gave"
expect_exit 0 ord seal $g --head $g.seal.head
expect_exit 0 ord head $g --at sealed --turn 1 --side red -o $g.red.sealed
sed "s/^# turn 1, side red, /# turn 1, side blue, /" $g.red.sealed >$g.red-as-blue.sealed
resolve_rest $g
expect_exit 0 ord exchange $g --head $g.exchange.head
export_bundle $g 1 $g.xml
words_verify() {  # words_verify RECEIPT: blue's verify with everything he holds
	run ord verify $g.xml --pubkey "$(pubkey $g)" --receipt "$1" \
		--head $g.open.head --head $g.seal.head --head $g.exchange.head
}
words_verify $g.blue-2.receipt
[[ $RC == 1 ]] || fail "47: the receipt of version 1 in the words of version 2 verified (exit $RC)"
expect_in "$OUT" "FAILED: receipt $g.blue-2.receipt:2: it says turn 1, side blue, version 2, commitment ${C2:0:16}..., but what the game signed is the sheet of blue, version 1 of turn 1 (commitment ${C1:0:16}...): a receipt of one sheet in the words of another (the signature of its words does not hold: they were changed after the game signed them)"
expect_not_in "$OUT" "verified: every check holds"
words_verify $g.blue-2-old.receipt
[[ $RC == 1 ]] || fail "47: the relabelled receipt without its words' signature verified (exit $RC)"
expect_in "$OUT" "FAILED: receipt $g.blue-2-old.receipt:2: it says turn 1, side blue, version 2, commitment ${C2:0:16}..., but what the game signed is the sheet of blue, version 1 of turn 1 (commitment ${C1:0:16}...): a receipt of one sheet in the words of another (its words are not signed)"
# an honest receipt of an orderly before: it verifies, with a note
words_verify $g.blue-1-old.receipt
[[ $RC == 0 ]] || fail "47: blue's own receipt as an orderly before wrote it exited $RC"
expect_in "$OUT" "note: receipt $g.blue-1-old.receipt: its words are not signed (no line '# words-signature: ...'"
words_verify $g.red-as-blue.receipt
[[ $RC == 1 ]] || fail "47: red's receipt in blue's words verified (exit $RC)"
expect_in "$OUT" "it says turn 1, side blue, version 2, commitment ${C2:0:16}..., but what the game signed is the sheet of red, version 1 of turn 1"
words_verify $g.red-as-blue.sealed
[[ $RC == 1 ]] || fail "47: the head of red's seal in blue's words verified (exit $RC)"
expect_in "$OUT" "FAILED: receipt $g.red-as-blue.sealed:2: it says turn 1, side blue, version 1,"
expect_in "$OUT" "but what the game signed is the sheet of red, version 1 of turn 1"
# given as a head he kept, the same
run ord verify $g.xml --pubkey "$(pubkey $g)" --receipt $g.blue-1.receipt \
	--head $g.open.head --head $g.seal.head --head $g.exchange.head --head $g.red-as-blue.sealed
[[ $RC == 1 ]] || fail "47: the head of red's seal in blue's words, given with --head, verified (exit $RC)"
expect_in "$OUT" "FAILED: receipt the head you kept of turn 1's sealed (entry "
expect_in "$OUT" ") (its line 2): it says turn 1, side blue, version 1,"
# words left out, or written otherwise: what they are is not read
grep -v '^# turn ' $g.blue-1.receipt >$g.blue-bare.receipt
words_verify $g.blue-bare.receipt
[[ $RC == 1 ]] || fail "47: a receipt without its words verified (exit $RC)"
expect_in "$OUT" "FAILED: receipt $g.blue-bare.receipt: it does not say whose sheet it is"
sed "s/^# turn 1, side blue, version 1, /# turn 1, side blue, version 2 (the correction), /" \
	$g.blue-1.receipt >$g.blue-said.receipt
words_verify $g.blue-said.receipt
[[ $RC == 1 ]] || fail "47: a receipt whose words do not read verified (exit $RC)"
expect_in "$OUT" "FAILED: receipt $g.blue-said.receipt:2: its words do not read as orderly writes them (expected one line '# turn 1, side blue, version 1, commitment $C1')"
# free words of the referee's beside them: named, as nothing signs them
sed '$a # blue: this is the receipt of your correction, version 2' $g.blue-1.receipt >$g.blue-more.receipt
words_verify $g.blue-more.receipt
[[ $RC == 0 ]] || fail "47: blue's own receipt of version 1 with a line added exited $RC"
expect_in "$OUT" "note: receipt $g.blue-more.receipt:$(wc -l <$g.blue-more.receipt): '# blue: this is the receipt of your correction, version 2' is no line this orderly writes in a receipt, and nothing signs it: the receipt proves the sheet of blue, version 1, whatever it says"
# no false alarm: the receipts as the game wrote them, with CRs as a mail
# may bring them
words_verify $g.blue-1.receipt
[[ $RC == 0 ]] || fail "47: blue's own receipt of version 1 exited $RC"
expect_not_in "$OUT" "FAILED"
expect_not_in "$OUT" "note: receipt"
sed 's/$/\r/' $g.red.sealed >$g.red-crlf.sealed
words_verify $g.red-crlf.sealed
[[ $RC == 0 ]] || fail "47: the head of red's seal, as the game signed it, exited $RC"
expect_not_in "$OUT" "FAILED"
expect_not_in "$OUT" "no line this orderly writes"
note "47: a receipt's words are held to the sheet the game signed"

# ------------------------------------------------------------ 48. a witnessed phase keyed by the referee's friend alone
# blue's player hands the referee his key file (or the referee plays blue).
# Red's link is not in: the referee stands in for red at once after the
# close, and phase 2's dice are keyed by blue's link and his own chain.
# On copies he closes the phase, derives blue's link from blue.key and
# resolves with the stand-in: each artillery range he tries shows its die
# before he records the real one.  Every check holds; red's verify said
# only that red revealed no link in time.  It now says what the phase's
# dice rest on, to red and to blue
g=w48
expect_exit 0 ord keygen $g.blue.key
expect_exit 0 ord keygen $g.red.key
expect_exit 0 ord new $g.game --scenario scenario.xml --witnessed --head $g.open.head
expect_exit 0 ord submit $g.game --side blue --witness-key $g.blue.key "$BFIX/blue-1.txt"
expect_exit 0 ord submit $g.game --side red --witness-key $g.red.key "$BFIX/red-1b.txt" --receipt-head $g.red.receipt
expect_exit 0 ord seal $g.game --head $g.seal.head
expect_exit 0 ord event $g.game move unit=B1 distance=2
expect_exit 0 ord witness $g.game --close
expect_exit 0 ord witness $g.game --side blue --key $g.blue.key
expect_exit 0 ord witness $g.game --side red --key $g.red.key
expect_exit 0 ord resolve $g.game --phase "$(phase_of $g.game)"
# the referee's trials: the die of each range, known before the events
try_range() {
	cp $g.game $g.try.game
	expect_exit 0 ord event $g.try.game fire unit=R1 target=B1 range=5
	expect_exit 0 ord event $g.try.game artillery unit=B2 target=R1 range="$1"
	expect_exit 0 ord witness $g.try.game --close
	expect_exit 0 ord witness $g.try.game --side blue --key $g.blue.key
	expect_exit 0 ord resolve $g.try.game --phase "$(phase_of $g.try.game)" --stand-in
	sed -n 's/.*ball at [0-9.]* in\.: \(d6 [0-9]\).*/\1/p' <<<"$OUT"
}
DIE10=$(try_range 10)
[[ "$DIE10" == "d6 "[1-6] ]] || fail "48: no die in the referee's trial: $DIE10"
expect_exit 0 ord event $g.game fire unit=R1 target=B1 range=5
expect_exit 0 ord event $g.game artillery unit=B2 target=R1 range=10
expect_exit 0 ord witness $g.game --close --head $g.close-2.head
expect_exit 0 ord witness $g.game --side blue --key $g.blue.key
expect_exit 0 ord resolve $g.game --phase "$(phase_of $g.game)" --stand-in
expect_in "$OUT" "ball at 10 in.: $DIE10,"
for _ in 3 4 5; do
	expect_exit 0 ord witness $g.game --close
	expect_exit 0 ord witness $g.game --side blue --key $g.blue.key
	expect_exit 0 ord witness $g.game --side red --key $g.red.key
	expect_exit 0 ord resolve $g.game --phase "$(phase_of $g.game)" --empty
done
expect_exit 0 ord exchange $g.game --head $g.exchange.head
export_bundle $g.game 1 $g.xml
expect_exit 0 ord verify $g.xml --pubkey "$(pubkey $g.game)" --receipt $g.red.receipt \
	--head $g.open.head --head $g.seal.head --head $g.close-2.head --head $g.exchange.head
expect_in "$OUT" "verified: every check holds"
expect_in "$OUT" "note: phase 2 (fire): only blue revealed a witness link, so its dice are keyed by its link and the referee's chain alone (the referee stood in for red at entry "
expect_in "$OUT" "to red they are no more than the word of blue and the referee together, who could know every die before the events were closed"
expect_in "$OUT" "note: phase 2 (fire): to blue, the link of red left out is a choice the referee had"
expect_exit 0 ord audit $g.game
expect_in "$OUT" "phase 2 (fire): only blue revealed a witness link"
note "48: a witnessed phase keyed by one side's link and the referee's chain is said so, to each side"

# ------------------------------------------------------------ verify with the heads of earlier turns

opened two.game
played two.game
expect_exit 0 ord submit two.game --side blue "$BFIX/blue-2.txt" --receipt-head two.blue-2.receipt
B2=$(field commitment "$OUT")
expect_exit 0 ord seal two.game --force
resolve_rest two.game
expect_exit 0 ord exchange two.game --head two.game.exchange2.head
export_bundle two.game 2 two2.xml
expect_exit 0 ord verify two2.xml --pubkey "$(pubkey two.game)" --receipt "$B2" \
	--head two.game.open.head --head two.game.seal.head --head two.game.exchange.head --head two.game.exchange2.head
expect_in "$OUT" "the head you kept of turn 1's exchange"
expect_in "$OUT" "this turn continues from it"
expect_in "$OUT" "is older than this turn's log"
# a receipt of another turn is the player's mix-up, as a head of another
# turn is: a note, and the turn it belongs to
export_bundle two.game 1 two1.xml
expect_exit 0 ord verify two1.xml --pubkey "$(pubkey two.game)" --receipt two.blue-2.receipt \
	--head two.game.open.head --head two.game.seal.head --head two.game.exchange.head
expect_in "$OUT" "note: receipt two.blue-2.receipt: a receipt of turn 2, not of this bundle's turn 1: nothing of it is checked here"
note "ok"
