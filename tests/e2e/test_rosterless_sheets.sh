#!/usr/bin/env bash
# test_rosterless_sheets.sh - a sheet the rules refuse is not played in a
# turn whose opening digests no roster either (attack 34 of
# docs/threat-model.md, found by the red team of the thirty-seventh
# session).  Since attacks 32 and 33 the verifier held every sealed sheet
# to the rules, but only in a turn whose opening logs the roster's roots
# (sides_root, units_root), as an orderly before 2026-12-06 did not: the
# roots are a line of the opening the referee writes, so one who wrote his
# openings without them, before any head went out (a build of his own, or
# the lines taken out and the chain made again), sealed a sheet the rules
# refuse, taken while a unit's row was changed, and the audit and every
# player's verify said clean.  Now the verifier checks every sealed sheet
# in every turn; in a turn opened without the roots it says why an
# orderly before them might have taken it.
set -euo pipefail
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
need_sqlite3
need_forge
BFIX=$SRC/tests/fixtures/bundle

cd "$TMP"
# play_out GAME HEAD: every phase resolved empty, then the exchange
play_out() {
	resolve_rest "$1"
	expect_exit 0 ord exchange "$1" --head "$2"
}
# TURN's opening (1 unless given) written without its sides_root and
# units_root lines, the chain made again (before any head of it is
# handed out)
rootless() {
	local open
	open=$(sql "$1" "SELECT seq FROM log WHERE kind = 'open' AND turn = ${2:-1}")
	sql "$1" "UPDATE log SET body = replace(body, substr(body, instr(body, 'sides_root='), 76), '') WHERE seq = $open;
		UPDATE log SET body = replace(body, substr(body, instr(body, 'units_root='), 76), '') WHERE seq = $open" >/dev/null
	[[ "$(sql "$1" "SELECT count(*) FROM log WHERE seq = $open AND (body LIKE '%sides_root=%' OR body LIKE '%units_root=%')")" == 0 ]] ||
		fail "the opening of '$1' still names the roster (fix the test)"
	"$FORGE" rechain "$1" || fail "ord_forge rechain $1"
}
# the game as an orderly before the roster's roots made it: no made= in
# its creation and openings (an orderly since 2026-12-07 says so), turn
# 1's opening without the roots
unrostered() {
	unmark "$1"
	sql "$1" "UPDATE log SET body = replace(body, 'made=2026-12-07' || char(10), '') WHERE kind IN ('create', 'open')"
	rootless "$1"
}
R1_KIND="UPDATE unit SET attrs = replace(attrs, 'kind=line_infantry', 'kind=skirmishers') WHERE uid = 'R1'"
R1_BACK="UPDATE unit SET attrs = replace(attrs, 'kind=skirmishers', 'kind=line_infantry') WHERE uid = 'R1'"
CHARGE="line 2:8: unit 'R1' cannot charge: charge: line_infantry in line may not charge (movement chart)"
WHY="turn 1's opening digests no roster (sides_root, units_root), as an orderly before 2026-12-06 opened its turns: one that read the rules otherwise may have taken it (check such a turn with the orderly it was played with), or the opening was written without them to escape this check"
SEALED="the sheet of red, version 1, that the seal sealed is refused by the rules against the units as the turn opened ($CHARGE): it was taken against other unit rows; $WHY"
OPENED="the sheet of red, version 1, opened after the seal, is refused by the rules against the units as the turn opened ($CHARGE): it was taken against other unit rows; $WHY"
# red's sheet orders R1, line infantry in line, to charge, which the
# movement chart refuses (a line may not charge)
printf '# Red, turn 1\nR1 \xe2\x86\x91 1 C\nR2 \xe2\x86\x92 1/2\n' >red.txt
expect_exit 0 ord keygen blue.key
BLUEKEY=$(field "public key" "$OUT")
expect_exit 0 ord keygen red.key
REDKEY=$(field "public key" "$OUT")

# ------------------------------------------------------------ refereed
# blue signs its sheets, red does not; the referee writes turn 1's
# opening without the roots, then takes red's sheet while R1's row says
# skirmishers (who may charge), and puts the row back before the seal,
# which holds the rows to the scenario in such a turn and checks no sheet
sed "s/@BLUE@/$BLUEKEY/" "$BFIX/scenario.xml" >scenario.xml
expect_exit 0 ord new ref.orderly --scenario scenario.xml
unrostered ref.orderly
expect_exit 0 ord head ref.orderly --at open -o open.head
PUBKEY=$(field key "$(cat open.head)")
expect_exit 0 ord sign --head open.head --side blue --key blue.key "$BFIX/blue-1.txt"
B=$OUT
expect_exit 0 ord submit ref.orderly --side blue --nonce "$(field nonce "$B")" --signature "$(field signature "$B")" "$BFIX/blue-1.txt"
expect_exit 65 ord submit ref.orderly --side red red.txt
expect_in "$ERR" "red.txt:2:8: unit 'R1' cannot charge: charge: line_infantry in line may not charge (movement chart)"
sql ref.orderly "$R1_KIND" >/dev/null
expect_exit 0 ord submit ref.orderly --side red red.txt
sql ref.orderly "$R1_BACK" >/dev/null
expect_exit 0 ord seal ref.orderly --head seal.head
play_out ref.orderly exchange.head
expect_exit 1 ord audit ref.orderly --head open.head --head seal.head --head exchange.head
expect_in "$OUT" "BROKEN: $SEALED"
expect_in "$OUT" "ok: the head you kept of turn 1's exchange (entry 13): matches; nothing up to it was rewritten"
# the referee's own orderly refuses to sign its bundle; his build without
# that check (ord_forge export) signs it, and the players' verify fails it
expect_exit 65 ord export ref.orderly --turn 1 -o ref-1.xml
expect_in "$ERR" "would refuse it (1 check FAILED):
  FAILED: $SEALED
"
[[ ! -e ref-1.xml ]] || fail "a refused export wrote its file"
"$FORGE" export ref.orderly 1 ref-1.xml || fail "ord_forge export ref.orderly"
expect_exit 1 ord verify ref-1.xml --pubkey "$PUBKEY" --head open.head --head seal.head --head exchange.head
expect_in "$OUT" "FAILED: $SEALED"
expect_line "$OUT" "^1 check FAILED"

# ------------------------------------------------------------ no referee
# red hosts: turn 1's opening without the roots, red's sheet opened while
# R1's row says skirmishers (such an opening holds no unit row), the row
# put back before the first phase (which checks no opened sheet then)
sed -e "s/@BLUE@/$BLUEKEY/" -e "s/@RED@/$REDKEY/" "$BFIX/scenario-refereeless.xml" >refless.xml
expect_exit 0 ord new host.orderly --scenario refless.xml --no-referee
unrostered host.orderly
expect_exit 0 ord head host.orderly --at open -o host-open.head
HOSTKEY=$(field key "$(cat host-open.head)")
expect_exit 0 ord sign --head host-open.head --side blue --key blue.key "$BFIX/blue-1.txt"
B=$OUT
expect_exit 0 ord sign --head host-open.head --side red --key red.key red.txt
R=$OUT
expect_exit 0 ord submit host.orderly --side blue --commitment "$(field commitment "$B")" --signature "$(field signature "$B")"
expect_exit 0 ord submit host.orderly --side red --commitment "$(field commitment "$R")" --signature "$(field signature "$R")"
expect_exit 0 ord seal host.orderly --head host-seal.head
expect_exit 0 ord open host.orderly --side blue --nonce "$(field nonce "$B")" "$BFIX/blue-1.txt"
expect_exit 65 ord open host.orderly --side red --nonce "$(field nonce "$R")" red.txt
expect_in "$ERR" "red.txt:2:8: unit 'R1' cannot charge: charge: line_infantry in line may not charge (movement chart)"
sql host.orderly "$R1_KIND" >/dev/null
expect_exit 0 ord open host.orderly --side red --nonce "$(field nonce "$R")" red.txt
sql host.orderly "$R1_BACK" >/dev/null
play_out host.orderly host-exchange.head
expect_exit 1 ord audit host.orderly --head host-open.head --head host-seal.head --head host-exchange.head
expect_in "$OUT" "BROKEN: $OPENED"
expect_exit 65 ord export host.orderly --turn 1 -o host-1.xml
expect_in "$ERR" "  FAILED: $OPENED"
"$FORGE" export host.orderly 1 host-1.xml || fail "ord_forge export host.orderly"
expect_exit 1 ord verify host-1.xml --pubkey "$HOSTKEY" --head host-open.head --head host-seal.head --head host-exchange.head
expect_in "$OUT" "FAILED: $OPENED"
expect_line "$OUT" "^1 check FAILED"

# ------------------------------------------------------------ untouched
# a turn opened without the roots whose sheets the rules take plays,
# audits and verifies clean: the check refuses only a refused sheet
printf '# Red, turn 1\nR1 \xe2\x86\x91 1/4 @B1\nR2 \xe2\x86\x92 1/2\n' >red-ok.txt
expect_exit 0 ord new ok.orderly --scenario scenario.xml
unrostered ok.orderly
expect_exit 0 ord head ok.orderly --at open -o ok-open.head
OKKEY=$(field key "$(cat ok-open.head)")
expect_exit 0 ord sign --head ok-open.head --side blue --key blue.key "$BFIX/blue-1.txt"
B=$OUT
expect_exit 0 ord submit ok.orderly --side blue --nonce "$(field nonce "$B")" --signature "$(field signature "$B")" "$BFIX/blue-1.txt"
expect_exit 0 ord submit ok.orderly --side red red-ok.txt
expect_exit 0 ord seal ok.orderly
play_out ok.orderly ok-exchange.head
expect_exit 0 ord audit ok.orderly
expect_in "$OUT" "clean"
expect_exit 0 ord export ok.orderly --turn 1 -o ok-1.xml
expect_exit 0 ord verify ok-1.xml --pubkey "$OKKEY" --head ok-open.head --head ok-exchange.head
expect_in "$OUT" "verified: every check holds"
# ------------------------------------------------------------ forged
# the game itself refuses an opening written without the roots where an
# orderly since them wrote them: in a game made since (made=2026-12-07 in
# its creation), turn 1's; in a game whose turn before opened with them
# (made by an orderly of 2026-12-06), a later turn's.  The submit, the
# seal, a resolve and the exchange read the turn's opening, and each
# refuses it, exit 65, nothing done; the audit and verify fail it.
expect_exit 0 ord new made.orderly --scenario scenario.xml
rootless made.orderly
expect_exit 65 ord submit made.orderly --side red red-ok.txt
MADE="turn 1's opening (log entry 3) logs no sides_root and units_root, but the game was made by an orderly of 2026-12-07 or later (its creation, log entry 1, logs made=2026-12-07), which logs the roster's roots in every opening; this one was written without them, and a seal would hold no sheet to the rules by them (threat model, attack 34)"
expect_in "$ERR" "orderly: 'made.orderly': $MADE: it was changed outside orderly"
expect_eq "$(sql made.orderly "SELECT count(*) FROM sheet")" 0 "sheets after a refused submit"
# ... the seal too (the sheets handed in before the opening was rewritten)
expect_exit 0 ord new made2.orderly --scenario scenario.xml
expect_exit 0 ord submit made2.orderly --side red red-ok.txt
rootless made2.orderly
expect_exit 65 ord seal made2.orderly --force
expect_in "$ERR" "turn 1's opening (log entry 3) logs no sides_root and units_root, but the game was made by an orderly of 2026-12-07 or later"
expect_in "$(ord info made2.orderly)" "turn:      1 (open)"
expect_exit 1 ord audit made2.orderly
expect_in "$OUT" "turn 1's opening (entry 3) logs neither of the roster's roots (sides_root, units_root), but the game was made by an orderly of 2026-12-07 or later (made=2026-12-07), which logs both in every opening: it was written without them, and its seal held no sheet to the rules by them (threat model, attack 34)"

# a game of 2026-12-06 (no made=, turn 1 opened with the roots), turn 2's
# opening written without them: its seal, resolve and exchange refuse
expect_exit 0 ord new dec6.orderly --scenario scenario.xml
unmark dec6.orderly
sql dec6.orderly "UPDATE log SET body = replace(body, 'made=2026-12-07' || char(10), '') WHERE kind IN ('create', 'open')"
"$FORGE" rechain dec6.orderly || fail "ord_forge rechain dec6.orderly"
expect_exit 0 ord submit dec6.orderly --side red red-ok.txt
expect_exit 0 ord seal dec6.orderly --force
play_out dec6.orderly dec6-exchange.head
expect_exit 0 ord submit dec6.orderly --side red red-ok.txt
cp dec6.orderly dec6-sealed.orderly
rootless dec6.orderly 2
DEC6="turn 2's opening (log entry 13) logs no sides_root and units_root, but turn 1's (log entry 3) logs both: an orderly that logs the roster's roots logs them in every opening after; this one was written without them"
expect_exit 65 ord seal dec6.orderly --force
expect_in "$ERR" "$DEC6"
# sealed first, then rewritten: the resolve refuses
expect_exit 0 ord seal dec6-sealed.orderly --force
rootless dec6-sealed.orderly 2
expect_exit 65 ord resolve dec6-sealed.orderly --empty
expect_in "$ERR" "$DEC6"
# the old game whose every opening has no roots plays on (ref.orderly,
# above, sealed and exchanged turn 1): its turn 2 seals
expect_exit 0 ord seal ref.orderly --force
note "ok"
