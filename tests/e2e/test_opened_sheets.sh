#!/usr/bin/env bash
# test_opened_sheets.sh - a sheet the rules refuse is not played, however
# it came in (attack 33 of docs/threat-model.md, found by the red team of
# the thirty-sixth session).  In a game with no referee the host is a
# player: his sheet reaches the game only as a signed commitment, sealed
# blind, and is checked when he opens it after the seal, against the unit
# rows as they are.  He changed a unit's row (or its state) with the
# sqlite3 shell while he opened a sheet the rules refuse, and put it back:
# the sheet was opened, played, and the audit and every player's verify
# said clean: nothing checked it after its opening, and the verifier held
# a sealed sheet to the rules in a refereed game only (test_live_rows).
# Now the opening holds the unit rows to the roster the turn's opening
# digests, the first phase checks every opened sheet again against the
# units and states it holds, and the verifier checks every opened sheet
# against the units as the turn opened, the opening digesting the roster.
set -euo pipefail
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
need_sqlite3
need_forge
BFIX=$SRC/tests/fixtures/bundle

cd "$TMP"
R1_KIND="UPDATE unit SET attrs = replace(attrs, 'kind=line_infantry', 'kind=skirmishers') WHERE uid = 'R1'"
R1_BACK="UPDATE unit SET attrs = replace(attrs, 'kind=skirmishers', 'kind=line_infantry') WHERE uid = 'R1'"
R1_ID="(SELECT id FROM unit WHERE uid = 'R1')"
R1_COLUMN="UPDATE unit_current SET state = replace(state, 'formation=line', 'formation=column') WHERE unit_id = $R1_ID;
	UPDATE unit_state SET state = replace(state, 'formation=line', 'formation=column') WHERE unit_id = $R1_ID"
R1_LINE="UPDATE unit_current SET state = replace(state, 'formation=column', 'formation=line') WHERE unit_id = $R1_ID;
	UPDATE unit_state SET state = replace(state, 'formation=column', 'formation=line') WHERE unit_id = $R1_ID"
CHARGE="line 2:8: unit 'R1' cannot charge: charge: line_infantry in line may not charge (movement chart)"

# ------------------------------------------------------------ the game
# two players with their keys, no referee; red is the host.  His sheet
# orders R1, line infantry in line, to charge, which the movement chart
# refuses (a line may not charge)
expect_exit 0 ord keygen blue.key
BLUEKEY=$(field "public key" "$OUT")
expect_exit 0 ord keygen red.key
REDKEY=$(field "public key" "$OUT")
sed -e "s/@BLUE@/$BLUEKEY/" -e "s/@RED@/$REDKEY/" "$BFIX/scenario-refereeless.xml" >scenario.xml
expect_exit 0 ord new sealed.orderly --scenario scenario.xml --no-referee --head open.head
HOSTKEY=$(sed -n "s/.*the game's public key is \([0-9a-f]*\).*/\1/p" <<<"$ERR")
expect_exit 0 ord info sealed.orderly
GID=$(awk '/^game id:/ {print $3}' <<<"$OUT")
SC=$(awk '/^seed commitment:/ {print $3}' <<<"$OUT")
printf '# Red, turn 1\nR1 \xe2\x86\x91 1 C\nR2 \xe2\x86\x92 1/2\n' >red.txt
expect_exit 0 ord sign --game-id "$GID" --turn 1 --seed-commitment "$SC" --side blue --key blue.key "$BFIX/blue-1.txt"
B=$OUT
expect_exit 0 ord sign --game-id "$GID" --turn 1 --seed-commitment "$SC" --side red --key red.key red.txt
R=$OUT
expect_exit 0 ord submit sealed.orderly --side blue --commitment "$(field commitment "$B")" --signature "$(field signature "$B")"
expect_exit 0 ord submit sealed.orderly --side red --commitment "$(field commitment "$R")" --signature "$(field signature "$R")"
expect_exit 0 ord seal sealed.orderly --head seal.head
expect_exit 0 ord open sealed.orderly --side blue --nonce "$(field nonce "$B")" "$BFIX/blue-1.txt"
RED_NONCE=$(field nonce "$R")
open_red() { ord open "$1" --side red --nonce "$RED_NONCE" red.txt; }
# as the units stand, the opening refuses red's sheet (exit 65)
cp sealed.orderly plain.orderly
expect_exit 65 open_red plain.orderly
expect_in "$ERR" "red.txt:2:8: unit 'R1' cannot charge: charge: line_infantry in line may not charge (movement chart)"
cmp plain.orderly sealed.orderly || fail "the refused opening changed the game file"

# ------------------------------------------------------------ the opening
# R1 made skirmishers (who may charge) while red opens, to be put back
# after: the opening holds the unit rows to the roster first
cp sealed.orderly kind.orderly
sql kind.orderly "$R1_KIND" >/dev/null
cp kind.orderly kind.before
expect_exit 65 open_red kind.orderly
expect_eq "$ERR" "orderly: 'kind.orderly': unit 'R1' is not the scenario's unit 4 ('R1') as the game began: its attributes differ, the scenario's are 'kind=line_infantry\\nformation=line\\nfigures=24\\nclass=C\\nweapon=musket\\nquality=line\\n' (tables side and unit, against the roster turn 1's opening, log entry 3, digests): it was changed outside orderly ('orderly audit' says where); nothing was done" \
	"an opening against a unit row changed"
cmp kind.orderly kind.before || fail "the refused opening changed the game file"

# R1 put in column (which may charge) in its state, while red opens: the
# opening holds the rows, not the states; the first phase holds the
# states to the turn's opening, then checks every opened sheet again
cp sealed.orderly state.orderly
sql state.orderly "$R1_COLUMN" >/dev/null
expect_exit 0 open_red state.orderly
sql state.orderly "$R1_LINE" >/dev/null
cp state.orderly state.before
expect_exit 65 ord resolve state.orderly --phase movement --empty
expect_eq "$ERR" "orderly: 'state.orderly': the sheet of red, version 1, of turn 1 (table sheet), which its opening took, is refused by the rules against the units as the turn's opening digests them ($CHARGE): a unit's row was another while it was opened: it was changed outside orderly ('orderly audit' says where); nothing was done" \
	"a first phase with a sheet opened against a changed state"
cmp state.orderly state.before || fail "the refused resolve changed the game file"
expect_exit 1 ord audit state.orderly
expect_in "$OUT" "BROKEN: the sheet of red, version 1, opened after the seal, is refused by the rules against the units as the turn opened ($CHARGE): it was taken against other unit rows"

# ------------------------------------------------------------ the verifier
# an orderly without those checks: the opening made to digest the changed
# row (ord_forge units-root), red's sheet opened, the row put back and the
# opening as it was (its hash the one open.head and seal.head sign); each
# phase logged resolved (ord_forge skip-phase: no event, nothing happens),
# then exchanged.  The audit and the bundle's verify find the sheet
sql kind.orderly "$R1_KIND" >/dev/null
"$FORGE" units-root kind.orderly 1 || fail "ord_forge units-root kind.orderly 1"
expect_exit 0 open_red kind.orderly
sql kind.orderly "$R1_BACK" >/dev/null
"$FORGE" units-root kind.orderly 1 || fail "ord_forge units-root kind.orderly 1 (put back)"
for _ in 1 2 3 4 5; do
	"$FORGE" skip-phase kind.orderly || fail "ord_forge skip-phase kind.orderly"
done
expect_exit 0 ord exchange kind.orderly --head exchange.head
expect_exit 1 ord audit kind.orderly --head open.head --head seal.head --head exchange.head
expect_in "$OUT" "BROKEN: the sheet of red, version 1, opened after the seal, is refused by the rules against the units as the turn opened ($CHARGE): it was taken against other unit rows"
expect_in "$OUT" "ok: the head you kept of turn 1's seal (entry 6): matches; nothing up to it was rewritten"
# the host's orderly refuses to sign its bundle (its verifier fails it);
# his own build without that check (ord_forge export) signs it all the same
expect_exit 65 ord export kind.orderly --turn 1 -o turn1.xml
expect_in "$ERR" "would refuse it (1 check FAILED):
  FAILED: the sheet of red, version 1, opened after the seal, is refused by the rules against the units as the turn opened ($CHARGE): it was taken against other unit rows
"
[[ ! -e turn1.xml ]] || fail "a refused export wrote its file"
"$FORGE" export kind.orderly 1 turn1.xml || fail "ord_forge export kind.orderly"
expect_exit 1 ord verify turn1.xml --pubkey "$HOSTKEY" --head open.head --head seal.head --head exchange.head
expect_in "$OUT" "FAILED: the sheet of red, version 1, opened after the seal, is refused by the rules against the units as the turn opened ($CHARGE): it was taken against other unit rows"
expect_line "$OUT" "^1 check FAILED"

# ------------------------------------------------------------ untouched
# red opens a sheet the rules take; the game plays and audits clean
printf '# Red, turn 1\nR1 \xe2\x86\x91 1/4 @B1\nR2 \xe2\x86\x92 1/2\n' >red-ok.txt
expect_exit 0 ord new ok.orderly --scenario scenario.xml --no-referee
expect_exit 0 ord info ok.orderly
GID=$(awk '/^game id:/ {print $3}' <<<"$OUT")
SC=$(awk '/^seed commitment:/ {print $3}' <<<"$OUT")
expect_exit 0 ord sign --game-id "$GID" --turn 1 --seed-commitment "$SC" --side blue --key blue.key "$BFIX/blue-1.txt"
B=$OUT
expect_exit 0 ord sign --game-id "$GID" --turn 1 --seed-commitment "$SC" --side red --key red.key red-ok.txt
R=$OUT
expect_exit 0 ord submit ok.orderly --side blue --commitment "$(field commitment "$B")" --signature "$(field signature "$B")"
expect_exit 0 ord submit ok.orderly --side red --commitment "$(field commitment "$R")" --signature "$(field signature "$R")"
expect_exit 0 ord seal ok.orderly
expect_exit 0 ord open ok.orderly --side blue --nonce "$(field nonce "$B")" "$BFIX/blue-1.txt"
expect_exit 0 ord open ok.orderly --side red --nonce "$(field nonce "$R")" red-ok.txt
for _ in 1 2 3 4 5; do
	expect_exit 0 ord resolve ok.orderly --phase "$(phase_of ok.orderly)" --empty
done
expect_exit 0 ord exchange ok.orderly
expect_exit 0 ord audit ok.orderly
expect_in "$OUT" "clean"
note "ok"
