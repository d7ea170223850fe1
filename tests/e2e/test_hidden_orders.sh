#!/usr/bin/env bash
# test_hidden_orders.sh - a player's words in his orders reach every
# reader (threat model, attack 43): a Krigsspil split names its new
# companies freely (`OD @"1. Komp" @"2. Komp"`), and what an order says is
# printed by `orderly report` (the referee's terminal from the submit on,
# every side's after the exchange), the judge's report mails, the web page
# and a player's `verify --report`.  The submit and `orderly check` refuse
# an order whose words hold a character a reader does not see or that
# turns what he reads (a right-to-left override U+202E, a C1 control
# U+009B that a terminal may take for an escape), naming its line, column
# and character, nothing stored; a comment holding one is taken (no report
# shows a comment).  A sheet stored so anyway (an orderly before this one,
# or a referee's own build: mounted here with the sqlite3 shell and
# ord_forge recommit) is read, sealed and verified as it is, and every
# report shows the character escaped (\u202e), never acted on.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_sqlite3
need_forge
KS=$SRC/rulesets/krigsspil/examples
cd "$TMP"
G=ks.orderly
RLO=$(printf '\xe2\x80\xae')
CSI=$(printf '\xc2\x9b')
UNIT='Slesvigske Jægerkorps'

expect_exit 0 ord new "$G" --scenario "$KS/scenario.xml" --tables "$KS/map.xml"
sheets() { sql "$G" "SELECT count(*) FROM sheet"; }

# ---- the submit refuses an order whose words hold a right-to-left override
printf '%s: OD @"1. Komp%s ynapmoK .2 :ebavl" @"3. Komp"\n' "$UNIT" "$RLO" >rlo.txt
expect_exit 65 ord submit "$G" --side danske rlo.txt
expect_in "$ERR" "rlo.txt:1:27: unit '$UNIT': its target '1. Komp\\u202e ynapmoK .2 :ebavl' holds the unseen character U+202E at character 8 (expected characters a reader sees"
expect_in "$ERR" "sheet rejected: 1 problem"
expect_not_in "$ERR" "$RLO"
expect_eq "$(sheets)" 0 "sheets after a refused sheet"

# ... and a C1 control (CSI, ESC [ to a terminal that acts on C1 controls)
printf '%s: OD @"1. Komp" @"x%s2J%s31m"\n' "$UNIT" "$CSI" "$CSI" >csi.txt
expect_exit 65 ord submit "$G" --side danske csi.txt
expect_in "$ERR" "csi.txt:1:38: unit '$UNIT': its target 'x\\u009b2J\\u009b31m' holds the unseen character U+009B at character 2"
expect_not_in "$ERR" "$CSI"
expect_eq "$(sheets)" 0 "sheets after a refused sheet"

# ... a unit written with one (a name of a game made before could hold it)
printf '1. Komp%s: H\n' "$RLO" >unit.txt
expect_exit 65 ord submit "$G" --side danske unit.txt
expect_in "$ERR" "unit.txt:1:1: unit '1. Komp\\u202e': the unit as written holds the unseen character U+202E at character 8"

# the player's own check says so before he hands it in, nothing stored
expect_exit 65 ord check rlo.txt --scenario "$KS/scenario.xml" --tables "$KS/map.xml"
expect_in "$ERR" "rlo.txt:1:27: unit '$UNIT': its target '1. Komp\\u202e ynapmoK .2 :ebavl' holds the unseen character U+202E"
expect_in "$OUT" "not accepted (see its problems): $UNIT: OD @\"1. Komp\\u202e ynapmoK .2 :ebavl\""
expect_not_in "$OUT" "$RLO"

# ---- a comment may hold one: it is no order, and no report shows it
printf '%s: OD @"1. Komp" @"2. Komp"   # %snote\n' "$UNIT" "$RLO" >honest.txt
expect_exit 0 ord submit "$G" --side danske honest.txt
expect_eq "$(sheets)" 1 "sheets after the honest sheet"
expect_exit 0 ord report "$G" --referee
expect_in "$OUT" "$UNIT: OD @\"1. Komp\" @\"2. Komp\""
expect_not_in "$OUT" "$RLO"

# ---- stored anyway, in a game made before the refusal (an orderly of
# then, whose game logs no made=): its creation and opening made so, the
# chain made again; then the sheet's bytes edited, committed again with
# its nonce, the chain made again
strip_made() {
	unmark "$1"
	sql "$1" "UPDATE log SET body = replace(body, 'made=2026-12-07' || char(10), '') WHERE kind IN ('create', 'open')"
	[[ "$(sql "$1" "SELECT count(*) FROM log WHERE body LIKE '%made=%'")" == 0 ]] ||
		fail "the log of '$1' still says made= (fix the test)"
	"$FORGE" rechain "$1" || fail "ord_forge rechain $1"
}
# made= is the referee's word, but turn 1's opening is dated (it is made
# with the game): one dated since made= came that logs none is named
TODAY=$(date -u +%Y-%m-%d)
unsaid() {
	printf "note: the game's first opening (entry 3), made with the game, is dated %s, on or after 2026-12-07, since when orderly logs made= at a game's creation and in every opening, but it logs no made=: the game was made by another build" "$1"
}
OLDGAME="an orderly before 2026-12-07 took such an order (turn 1's opening, entry 3, logs no made=), as a referee's own build still can; every report shows such a character escaped, never acted on (threat model, attack 43)"
FORGED="the game was made by an orderly of 2026-12-07 or later (turn 1's opening, entry 3, logs made=2026-12-07), which refuses such an order as it is handed in: it was stored by other means"
WORDS="the sheet of danske, version 1, that the seal sealed holds an order whose words a reader does not see as they are (line 1:27: unit '$UNIT': its target '1. Komp\\u202e ynapmoK .2 :ebavl' holds the unseen character U+202E at character 8 (expected characters a reader sees"
RLO_SQL="UPDATE sheet SET bytes = CAST(replace(CAST(bytes AS TEXT), '\"1. Komp\"', '\"1. Komp' || char(0x202e) || ' ynapmoK .2 :ebavl\"') AS BLOB)"
strip_made "$G"
sql "$G" "$RLO_SQL"
"$FORGE" recommit "$G" danske 1 || fail "ord_forge recommit"
expect_exit 0 ord audit "$G"
# the referee's report shows the override escaped, on his terminal too
expect_exit 0 ord report "$G" --referee
expect_in "$OUT" "$UNIT: OD @\"1. Komp\\u202e ynapmoK .2 :ebavl\" @\"2. Komp\""
expect_not_in "$OUT" "$RLO"
# and its XML keeps the text whole, the override a character reference
expect_exit 0 ord report "$G" --referee --xml
expect_in "$OUT" "<order line=\"1\">$UNIT: OD @&quot;1. Komp&#x202E; ynapmoK .2 :ebavl&quot; @&quot;2. Komp&quot;</order>"
expect_not_in "$OUT" "$RLO"

# sealed, played and exchanged as it is: the rules take it, and so does
# every check (the refusal is the submit's), the audit and verify noting
# the sheet's words as an old game's; each side's report and the
# player's verify --report show it escaped
expect_exit 0 ord seal "$G" --force
expect_exit 0 ord audit "$G"
expect_in "$OUT" "note: $WORDS"
expect_in "$OUT" "$OLDGAME"
expect_not_in "$OUT" "$RLO"
resolve_rest "$G"
expect_exit 0 ord exchange "$G" --head exchange-1.head
expect_exit 0 ord report "$G" --side allierede --turn 1
expect_in "$OUT" "$UNIT: OD @\"1. Komp\\u202e ynapmoK .2 :ebavl\""
expect_not_in "$OUT" "$RLO"
expect_exit 0 ord export "$G" --turn 1 -o turn-1.xml
KEY=$(ord info "$G" | sed -n 's/^key: *//p')
expect_exit 0 ord verify turn-1.xml --pubkey "$KEY" --head exchange-1.head --report allierede
expect_in "$ERR" "verified: every check holds"
expect_in "$ERR" "note: $WORDS"
expect_in "$ERR" "$OLDGAME"
# a game made today that logs no made= is one the verifier names
expect_in "$ERR" "$(unsaid "$TODAY")"
expect_in "$OUT" "$UNIT: OD @\"1. Komp\\u202e ynapmoK .2 :ebavl\""
expect_not_in "$OUT" "$RLO"
expect_not_in "$ERR" "$RLO"

# ---- a fire at an object (a game without a map aims at any) named with
# an override and a C1 control, stored so: the referee's list of the
# orders no event carries out yet (info's, the report's) shows them
# escaped, and the report's XML keeps them as character references
F=fire.orderly
expect_exit 0 ord new "$F" --scenario "$KS/scenario.xml"
printf 'Fodbatteri Gerstenberg: AS SF @"Gaard" 1\n' >fire.txt
expect_exit 0 ord submit "$F" --side danske fire.txt
sql "$F" "UPDATE sheet SET bytes = CAST(replace(CAST(bytes AS TEXT), '\"Gaard\"', '\"Gaard' || char(0x202e) || char(0x9b) || '2J\"') AS BLOB)"
"$FORGE" recommit "$F" danske 1 || fail "ord_forge recommit $F"
expect_exit 0 ord seal "$F" --force
resolve_rest "$F" 3 # on to the fire phase
PENDING="  A1: ordered to fire ('artilleriskydning') at Gaard\\u202e\\u009b2J but no fire (artilleri) was recorded"
expect_exit 0 ord info "$F" --lang en
expect_in "$OUT" "pending:   orders no event of the turn carries out so far:
$PENDING"
expect_not_in "$OUT" "$RLO"
expect_not_in "$OUT" "$CSI"
# in Danish (info's default for a Krigsspil game) the target is shown so too
expect_exit 0 ord info "$F"
expect_in "$OUT" "  A1: beordret til at skyde ('artilleriskydning') mod Gaard\\u202e\\u009b2J, men ingen skydning (artilleri) er registreret"
expect_not_in "$OUT" "$RLO"
expect_not_in "$OUT" "$CSI"
expect_exit 0 ord report "$F" --referee --lang en
expect_in "$OUT" "orders no event of the turn carries out so far:
$PENDING"
expect_in "$OUT" "  Fodbatteri Gerstenberg: AS SF @Gaard\\u202e\\u009b2J 1"
expect_not_in "$OUT" "$RLO"
expect_not_in "$OUT" "$CSI"
expect_exit 0 ord report "$F" --referee --xml
expect_in "$OUT" "<order line=\"1\">Fodbatteri Gerstenberg: AS SF @Gaard&#x202E;&#x9B;2J 1</order>"
expect_in "$OUT" ">ordered to fire (&apos;artilleriskydning&apos;) at Gaard&#x202E;&#x9B;2J but no fire (artilleri) was recorded</pending>"
expect_not_in "$OUT" "$RLO"
expect_not_in "$OUT" "$CSI"
# the character references read back as the characters: nothing is lost
if command -v xmllint >/dev/null 2>&1; then
	printf '%s\n' "$OUT" >report.xml
	expect_exit 0 xmllint --noout report.xml
	expect_in "$(xmllint --xpath 'string(//order)' report.xml)" "@Gaard$RLO${CSI}2J 1"
fi

# ---- the same in a game made since (made=2026-12-07 in its creation and
# every opening): only a build that skips the submit's refusal stores
# such a sheet, and the audit and every player's verify fail it
N=new.orderly
expect_exit 0 ord new "$N" --scenario "$KS/scenario.xml" --tables "$KS/map.xml"
expect_exit 0 ord submit "$N" --side danske honest.txt
sql "$N" "$RLO_SQL"
"$FORGE" recommit "$N" danske 1 || fail "ord_forge recommit $N"
expect_exit 0 ord seal "$N" --force
expect_exit 1 ord audit "$N"
expect_in "$OUT" "BROKEN: $WORDS"
expect_in "$OUT" "$FORGED"
resolve_rest "$N"
expect_exit 0 ord exchange "$N" --head new-exchange-1.head
# the referee's own orderly refuses to sign its bundle; his build signs it
expect_exit 65 ord export "$N" --turn 1 -o new-1.xml
expect_in "$ERR" "FAILED: $WORDS"
"$FORGE" export "$N" 1 new-1.xml || fail "ord_forge export $N"
NKEY=$(ord info "$N" | sed -n 's/^key: *//p')
expect_exit 1 ord verify new-1.xml --pubkey "$NKEY" --head new-exchange-1.head
expect_in "$OUT" "FAILED: $WORDS"
expect_in "$OUT" "$FORGED"
expect_line "$OUT" "^1 check FAILED"
# ---- made= taken out of a game made today (the referee hands out the
# head of the stripped opening): the audit names the date, and the game
# is an old one only in the notes
M=made.orderly
expect_exit 0 ord new "$M" --scenario "$KS/scenario.xml" --tables "$KS/map.xml"
strip_made "$M"
expect_exit 0 ord audit "$M"
expect_in "$OUT" "$(unsaid "$TODAY")"
# an honest old game, made before made= came, is not named
OLD=old.orderly
expect_exit 0 ord new "$OLD" --scenario "$KS/scenario.xml" --tables "$KS/map.xml"
sql "$OLD" "UPDATE log SET at = 1796472000" # 2026-12-05 12:00 UTC
strip_made "$OLD"
expect_exit 0 ord audit "$OLD"
expect_not_in "$OUT" "made by another build"
expect_not_in "$OUT" "BROKEN"
# ... and a player's verify of turn 1's bundle says the same of each,
# offline: the game made today that logs no made= noted, and verified (it
# is checked as an old game, not failed); the old game not named
# played_out GAME: turn 1 sealed with nobody's sheets, resolved,
# exchanged (its head GAME.head) and exported (GAME-1.xml); its key in KEY
played_out() {
	expect_exit 0 ord seal "$1" --force
	resolve_rest "$1"
	expect_exit 0 ord exchange "$1" --head "$1.head"
	expect_exit 0 ord export "$1" --turn 1 -o "$1-1.xml"
	KEY=$(ord info "$1" | sed -n 's/^key: *//p')
}
played_out "$M"
expect_exit 0 ord verify "$M-1.xml" --pubkey "$KEY" --head "$M.head"
expect_line "$OUT" "^verified: every check holds$"
expect_in "$OUT" "  $(unsaid "$TODAY")"
expect_not_in "$OUT$ERR" "FAILED"
played_out "$OLD"
expect_exit 0 ord verify "$OLD-1.xml" --pubkey "$KEY" --head "$OLD.head"
expect_line "$OUT" "^verified: every check holds$"
expect_not_in "$OUT$ERR" "made by another build"

# ---- a made= no orderly writes: a day before made= came (the game would
# pass for an old one), a day no calendar has (read by the date reader of
# every time, when.c: February's 29th of a year not leap, April's 31st),
# or junk: the audit fails it, the game refuses it
for bad in 2000-01-01 2026-12-06 2026-13-07 2027-02-29 2027-02-30 2027-04-31 ABCDEFGHIJ; do
	rm -f bad.orderly*
	expect_exit 0 ord new bad.orderly --scenario "$KS/scenario.xml" --tables "$KS/map.xml"
	sql bad.orderly "UPDATE log SET body = replace(body, 'made=2026-12-07', 'made=$bad') WHERE kind IN ('create', 'open')"
	"$FORGE" rechain bad.orderly || fail "ord_forge rechain bad.orderly"
	expect_exit 1 ord audit bad.orderly
	expect_in "$OUT" "BROKEN: the creation (entry 1): the entry's made=$bad is not a date of 2026-12-07 or later (expected YYYY-MM-DD)"
	expect_in "$OUT" "BROKEN: the opening entry 3: the entry's made=$bad is not a date of 2026-12-07 or later"
	printf '%s: H\n' "$UNIT" >hold.txt
	expect_exit 65 ord submit bad.orderly --side danske hold.txt
	expect_eq "$(sql bad.orderly "SELECT count(*) FROM sheet")" 0 "sheets of a game with made=$bad"
done
# ... and a leap year's February 29th is a day
rm -f leap.orderly*
expect_exit 0 ord new leap.orderly --scenario "$KS/scenario.xml" --tables "$KS/map.xml"
sql leap.orderly "UPDATE log SET body = replace(body, 'made=2026-12-07', 'made=2028-02-29') WHERE kind IN ('create', 'open')"
"$FORGE" rechain leap.orderly || fail "ord_forge rechain leap.orderly"
expect_exit 0 ord audit leap.orderly
expect_not_in "$OUT" "BROKEN"
note "ok"
