#!/usr/bin/env bash
# test_events.sh - a referee's events: a file of them is checked whole and
# recorded in one transaction, or not at all (every problem at its line); a
# wrong event is voided with a reason before its phase is resolved and
# recorded again, the log staying append-only; audit and verify list the
# void, and replay the phase without it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_sqlite3
BFIX=$SRC/tests/fixtures/bundle
cd "$TMP"
unkeyed_scenario scenario.xml
entries() { sql "$1" "SELECT count(*) FROM log"; }

expect_exit 0 ord new g.game --scenario scenario.xml
expect_exit 0 ord submit g.game --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord submit g.game --side red "$BFIX/red-1b.txt"
expect_exit 0 ord seal g.game

# ---- a file with problems on two lines: nothing recorded, both named
cat >moves.txt <<'EOF'
# movement, turn 1
move unit=B1 distance=2
move unit=R1 distance=1
move unit=R9 distance=1
move unit=R2 distance=9 frobnicate=1
move unit=R2 distanse=9
EOF
before=$(entries g.game)
expect_exit 65 ord event g.game --file moves.txt
expect_in "$ERR" "moves.txt:4:"
expect_in "$ERR" "unknown unit 'R9'"
expect_in "$ERR" "moves.txt:5:"
expect_in "$ERR" "unknown key 'frobnicate'"
expect_in "$ERR" "unknown key 'distanse' (expected one of unit distance"
expect_in "$ERR" "did you mean 'distance'?"
expect_in "$ERR" "nothing recorded; fix the file and run it again"
expect_eq "$(entries g.game)" "$before" "log entries after a refused file"
expect_eq "$(sql g.game "SELECT count(*) FROM event")" 0 "events after a refused file"
# a line that disagrees with the orders refuses the whole file too
cat >moves.txt <<'EOF'
move unit=B1 distance=2
move unit=R1 distance=9
EOF
expect_exit 65 ord event g.game --file moves.txt
expect_in "$ERR" "moves.txt:2:"
expect_eq "$(sql g.game "SELECT count(*) FROM event")" 0 "events after a file against the orders"

# ---- every problem of every line, the words' own at their column (from 1,
# in characters), the others at their line; the last line counts every
# refused line; and the game file is left exactly as it was
snapshot() { printf '%s %s\n' "$(sha g.game)" "$(sql g.game .dump | sha256sum)"; }
before=$(snapshot)
cat >moves.txt <<'EOF'
move unit=B1 distance=2
move unit=R1 distance=9
move unit=R3 distance="3.5
fire unit=B2 target=R1 range=11
bogus
unit=R2 distance=1 x
  move  unit=R2 ‘é’ distance=1 =3
EOF
expect_exit 65 ord event g.game --file moves.txt
expect_not_in "$ERR" ":0:"
expect_line "$ERR" "^moves.txt:2:1: (unit 'R1': )?unit 'R1' moved 9\" but its order allows 1.5\" "
expect_eq "$(grep -v '^moves.txt:2:1: ' <<<"$ERR")" "moves.txt:3:14: unterminated \" quote
moves.txt:4:1: event 'fire' belongs to phase 'fire'; the current phase is 'movement'
moves.txt:5:1: unknown event 'bogus' for ruleset battalion (expected one of move form limber unlimber fire artillery test exempt melee halt)
moves.txt:6:1: missing KIND before 'unit=R2'
moves.txt:6:20: 'x' is not key=value
moves.txt:7:17: '‘é’' is not key=value
moves.txt:7:32: '=3' is not key=value
orderly: moves.txt: 6 of 7 events refused (5 for their arguments, 1 disagrees with the sealed orders): nothing recorded; fix the file and run it again" \
	"every problem of every line"
expect_eq "$(snapshot)" "$before" "the game after a refused file"
# a byte order mark at the start (Notepad writes one) is skipped: not part
# of the first word, nor of the columns
printf '\xef\xbb\xbfmove unit=B1 x\n' >bom.txt
expect_exit 65 ord event g.game --file bom.txt
expect_eq "$ERR" "bom.txt:1:14: 'x' is not key=value
orderly: bom.txt: 1 of 1 event refused for its arguments: nothing recorded; fix the file and run it again" \
	"a BOM before a bad line"
# one line of no known kind keeps its line, at its kind's column, and the
# kind meant when it is mistyped (a word far from every kind gets no hint:
# 'bogus' above)
printf '  mvoe unit=B1 distance=2\n' >one.txt
expect_exit 65 ord event g.game --file one.txt
expect_in "$ERR" "one.txt:1:3: unknown event 'mvoe' for ruleset battalion"
expect_line "$ERR" "^one.txt:1:3: unknown event 'mvoe' .*\\(expected one of .*\\): did you mean 'move'\\?$"
# the same on the command line, of another phase's kind
expect_exit 64 ord event g.game fier unit=B2 target=R1 range=3
expect_line "$ERR" "^orderly: unknown event 'fier' for ruleset battalion \\(expected one of .*\\): did you mean 'fire'\\?$"
# only the orders refuse lines: the count of them, and the hint a single
# event gets
cat >moves.txt <<'EOF'
move unit=B1 distance=2
move unit=R1 distance=9
move unit=R2 distance=9
EOF
expect_exit 65 ord event g.game --file moves.txt
expect_in "$ERR" "
orderly: moves.txt: 2 of 3 events disagree with the sealed orders: nothing recorded; --override \"reason\" records them anyway, or fix the file and run it again"
# with an argument problem too: every refused line counted, and no hint,
# since --override would not record the file
cat >moves.txt <<'EOF'
move unit=B1 distance=2
move unit=R1 distance=9
move unit=R2 distance=abc
EOF
expect_exit 65 ord event g.game --file moves.txt
expect_in "$ERR" "
moves.txt:3:14: 'abc' is not valid for 'distance' (expected a number from 0 to 200)
orderly: moves.txt: 2 of 3 events refused (1 for its arguments, 1 disagrees with the sealed orders): nothing recorded; fix the file and run it again"
expect_not_in "$ERR" "--override"
expect_exit 65 ord event g.game --file moves.txt --override "measured twice"
expect_in "$ERR" "orderly: moves.txt: 2 of 3 events refused (1 for its arguments, 1 disagrees with the sealed orders): nothing recorded"
# each argument's problem at its word's column (a tab and a UTF-8 letter
# before it count one each), a key missing at its event's first word
printf '\tmove unit=B1 distance=2 terrain=route\nmove unit=R1 distance=9 # é\n  move unit=Rx distance=1\nmove distance=1\nmove unit=R1 distance=1 bogus=é z=1\n' >cols.txt
expect_exit 65 ord event g.game --file cols.txt
expect_in "$ERR" "cols.txt:1:26: 'route' is not valid for 'terrain' (expected one of open road forest)"
expect_in "$ERR" "cols.txt:3:8: unit: unknown unit 'Rx'"
expect_in "$ERR" "cols.txt:4:1: missing key 'unit'"
expect_in "$ERR" "cols.txt:5:25: unknown key 'bogus'"
expect_in "$ERR" "cols.txt:5:33: unknown key 'z'"
# a reason of blanks is no reason: refused like an empty one
expect_exit 64 ord event g.game move unit=R1 distance=9 --override "  	 "
expect_in "$ERR" "orderly: option '--override' needs a value (the reason, not only blanks)"
expect_exit 64 ord event g.game --file moves.txt --override " "
expect_in "$ERR" "orderly: option '--override' needs a value (the reason, not only blanks)"
expect_exit 64 ord event g.game --void 1 --reason "   "
expect_in "$ERR" "orderly: option '--reason' needs a value (the reason, not only blanks)"
expect_eq "$(snapshot)" "$before" "the game after the refused files and reasons"

# ---- a file of thousands of refused lines (one event pasted over and over):
# the first problems listed, then how many more; every line still counted,
# the one refused for its words after them too; nothing recorded.  Each line
# disagrees with the orders and with every earlier move of R1, which took
# minutes and gigabytes to check and list before (the figures are in the
# commit, not timed here).
for _ in $(seq 3000); do echo "move unit=R1 distance=9"; done >many.txt
echo "move unit=R2 x" >>many.txt
expect_exit 65 ord event g.game --file many.txt
expect_eq "$(grep -c '^many.txt:[0-9]*:[0-9]*: ' <<<"$ERR")" 50 "problems listed"
expect_line "$(sed -n 1p <<<"$ERR")" "^many.txt:1:1: unit 'R1' moved 9\" but its order allows 1.5\" "
expect_line "$ERR" '^many.txt: \.\.\. and [0-9]+ more problems \(the first 50 are listed\)$'
n=$(sed -n 's/^many.txt: \.\.\. and \([0-9]*\) more.*/\1/p' <<<"$ERR")
[ "$n" -ge 2951 ] || fail "only $n more problems counted: each of 3001 lines has one at least"
expect_eq "$(tail -n 1 <<<"$ERR")" "orderly: many.txt: 3001 of 3001 events refused (1 for its arguments, 3000 disagree with the sealed orders): nothing recorded; fix the file and run it again" "every refused line counted"
expect_eq "$(wc -l <<<"$ERR")" 52 "lines printed"
expect_eq "$(snapshot)" "$before" "the game after a file of thousands of refused lines"
# one line of a hundred thousand words: read once, not once a word
{
	printf 'move unit=R1 distance=1'
	for _ in $(seq 20000); do printf ' terrain=open terrain=open terrain=open terrain=open terrain=open'; done
	echo
} >long.txt
expect_exit 65 ord event g.game --file long.txt
expect_in "$ERR" "long.txt:1:38: key 'terrain' given twice"
expect_line "$ERR" '^long.txt: \.\.\. and 99949 more problems \(the first 50 are listed\)$'
expect_eq "$(snapshot)" "$before" "the game after a line of a hundred thousand words"

# a file pasted from a word processor: its curly double quotes are quotes,
# its Unicode blanks (no-break U+00A0, em space U+2003) blanks, as on a
# sheet; a column counts a blank of two or three bytes as one character
printf 'move\xc2\xa0unit=R1\xe2\x80\x83x\xc2\xa0\n' >pasted.txt
printf 'move unit=“R1 distance=1\n' >>pasted.txt
printf 'move unit=«R1» distance=«1\n' >>pasted.txt
expect_exit 65 ord event g.game --file pasted.txt
expect_eq "$ERR" "pasted.txt:1:14: 'x' is not key=value
pasted.txt:2:6: unterminated “ quote (expected a closing ” or \")
pasted.txt:3:16: unterminated « quote (expected a closing » or \")
orderly: pasted.txt: 3 of 3 events refused for their arguments: nothing recorded; fix the file and run it again" \
	"a pasted file's problems at their columns"
expect_eq "$(snapshot)" "$before" "the game after a refused pasted file"

# fixed: every line in one go (and a byte order mark is no problem), as a
# word processor writes it: a name in curly quotes, no-break spaces
printf '\xef\xbb\xbf' >moves.txt
printf 'move unit=“1st Blue Foot” distance=2\xc2\xa0\n' >>moves.txt
printf 'move\xc2\xa0unit=„R1“\xe2\x80\x83distance=”1”\xc2\xa0\xc2\xa0# ‘as measured’\n' >>moves.txt
expect_exit 0 ord event g.game --file moves.txt
expect_in "$OUT" "recorded 2 event(s) from moves.txt (#1 to #2)"
expect_eq "$(sql g.game "SELECT count(*) FROM event")" 2 "events after the fixed file"
expect_eq "$(sql g.game "SELECT replace(args, char(10), ' ') FROM event ORDER BY seq")" \
	"unit=B1 distance=2 terrain=open charge=no 
unit=R1 distance=1 terrain=open charge=no " "the events of the pasted file"

# ---- a wrong measurement voided and recorded again
expect_exit 0 ord event g.game move unit=R2 distance=1
expect_exit 64 ord event g.game --void 3
expect_in "$ERR" "--void SEQ needs --reason"
expect_exit 64 ord event g.game --void 9 --reason "typo"
expect_in "$ERR" "turn 1 has no event #9"
expect_exit 0 ord event g.game --void 3 --reason "measured from the wrong base: 2 inches"
expect_in "$OUT" "voided event #3"
expect_exit 65 ord event g.game --void 3 --reason "again"
expect_in "$ERR" "voided already"
# the voided event no longer counts: the unit can be recorded again
expect_exit 0 ord event g.game move unit=R2 distance=2
expect_exit 0 ord resolve g.game
expect_exit 65 ord event g.game --void 1 --reason "too late"
expect_in "$ERR" "which is resolved"
resolve_rest g.game 4
expect_exit 0 ord exchange g.game
expect_exit 0 ord audit g.game
expect_in "$OUT" "clean"
expect_in "$OUT" 'turn 1 event #3 (move) was voided before its phase was resolved: "measured from the wrong base: 2 inches"'
# the replay moved R2 by the event that stands
expect_eq "$(sql g.game "SELECT count(*) FROM log WHERE kind = 'void'")" 1 "void entries"
expect_exit 0 ord export g.game --turn 1 -o t1.xml
expect_exit 0 ord verify t1.xml
expect_in "$OUT" "was voided before its phase was resolved"
# a void entry deleted from the file: the event it voided stands again in
# the replay, and the row's void has no entry
cp g.game bad.game
sql bad.game "UPDATE event SET void_log = NULL, void_reason = NULL WHERE seq = 3" >/dev/null
expect_exit 1 ord audit bad.game
expect_in "$OUT" "BROKEN: the void of event #3 of turn 1 is missing (log entry 10 records it: deleted or left out)"

# ---- one event reads what it names: the sealed orders indexed at the seal
expect_exit 0 ord new i.game --scenario scenario.xml
expect_exit 0 ord submit i.game --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord submit i.game --side red "$BFIX/red-1b.txt"
expect_exit 0 ord seal i.game
# every order of both sheets, each under its unit
expect_eq "$(sql i.game "SELECT count(*) FROM sealed_order WHERE turn = 1")" 5 "orders indexed"
expect_eq "$(sql i.game "SELECT turn FROM order_index")" 1 "turns indexed"
expect_exit 0 ord event i.game move unit=B1 distance=2
expect_eq "$(sql i.game "SELECT uid || ' #' || seq FROM event_unit")" "B1 #1" "the units of event 1"
# a check that needs an earlier event of the unit finds it by the index
expect_exit 65 ord event i.game move unit=B1 distance=1
expect_in "$ERR" "unit 'B1' already moved this turn (event #1)"
# a refused file names the events of its own lines by their line, never by
# a number no event was recorded under (#2 here); one recorded before it
# keeps its number
printf 'move unit=R1 distance=1\nmove unit=B1 distance=1\nmove unit=R1 distance=1.5\n' >twice.txt
expect_exit 65 ord event i.game --file twice.txt
expect_in "$ERR" "twice.txt:2:1: unit 'B1' already moved this turn (event #1)"
expect_in "$ERR" "twice.txt:3:1: unit 'R1' already moved this turn (the event of line 1)"
expect_not_in "$ERR" "#2"
# refused with --override too (a line's words are wrong)
printf 'move unit=R2 x\n' >>twice.txt
expect_exit 65 ord event i.game --file twice.txt --override "as measured"
expect_in "$ERR" "twice.txt:3:1: unit 'R1' already moved this turn (the event of line 1)"
expect_not_in "$ERR" "#2"
# the events a problem names are the ones the checks name (ord_diag_item
# refs), not words that read so: a unit the file calls "event #2" (the
# number its line 1 would have been recorded under) is said as written
printf 'move unit=R1 distance=1\nmove unit="event #2" distance=1\n' >named.txt
expect_exit 65 ord event i.game --file named.txt
expect_line "$ERR" "^named\.txt:2:6: unit: unknown unit 'event #2': expected a unit of the game: side blue's 'B1' to 'B3'; side red's 'R1' to 'R3'$"
expect_not_in "$ERR" "event of line"
expect_exit 0 ord event i.game move unit=B1 distance=1 --override "a second bound, as agreed"
# an override records no event twice: the same command again (the shell's
# history), or a file run a second time, is refused and records nothing
before=$(entries i.game)
expect_exit 64 ord event i.game move unit=B1 distance=1 --override "a second bound, as agreed"
expect_in "$ERR" "it repeats event #2 exactly, recorded already: an event is recorded once, and an override records no repeat (void #2 first to record it anew)"
expect_in "$ERR" "orderly: event 'move' repeats one recorded already: not recorded again"
# a number is compared by its value, a yes/no by its answer, not as written:
# distance=1.0 is the distance=1 of event #2, charge=false its charge=no
expect_exit 64 ord event i.game move unit=B1 distance=1.0 charge=false --override "a second bound, as agreed"
expect_in "$ERR" "it repeats event #2 exactly, recorded already"
printf 'move unit=R1 distance=1.5\nmove unit=R1 distance=01.50\n' >again.txt
expect_exit 65 ord event i.game --file again.txt --override "as measured"
expect_in "$ERR" "again.txt:2:1: it repeats line 1 exactly"
printf 'move unit=B1 distance=2\nmove unit=B1 distance=3\nmove unit=B1 distance=3\n' >again.txt
expect_exit 65 ord event i.game --file again.txt
expect_in "$ERR" "again.txt:1:1: it repeats event #1 exactly, recorded already"
expect_in "$ERR" "again.txt:3:1: it repeats line 2 exactly"
expect_eq "$(tail -n 1 <<<"$ERR")" "orderly: again.txt: 2 of 3 events repeat exactly one recorded already or a line before them (was the file recorded before?): nothing recorded; fix the file and run it again" "a file run again"
expect_not_in "$ERR" "--override"
expect_exit 65 ord event i.game --file again.txt --override "as measured"
expect_in "$ERR" "2 of 3 events repeat exactly"
expect_eq "$(entries i.game)" "$before" "log entries after the repeats"
# a unit no lookup finds: the message still says which was meant
expect_exit 64 ord event i.game move unit=R11 distance=1
expect_in "$ERR" "did you mean 'R1'"
# the index is derived: an order changed in it lets an event through that
# the sheet forbids, and the audit's replay from the sheets says so
cp i.game forged.game
sql forged.game "UPDATE sealed_order SET body = replace(body, 't 2 1 ', 't 2 4 ') WHERE uid = 'R1'" >/dev/null
expect_exit 65 ord event i.game move unit=R1 distance=4
expect_in "$ERR" "unit 'R1' moved 4\" but its order allows 1.5\""
expect_exit 0 ord event forged.game move unit=R1 distance=4
resolve_rest forged.game 5
expect_exit 0 ord exchange forged.game
expect_exit 1 ord audit forged.game
expect_in "$OUT" "what the event breaks differs; by the orders: unit 'R1': unit 'R1' moved 4\" but its order allows 1.5\""
expect_in "$OUT" "; by the log: nothing"
# an index that cannot give an order (the file was changed): the event is
# checked from the sheets themselves, as if there were no index
cp i.game damaged.game
sql damaged.game "UPDATE sealed_order SET body = 'nonsense' WHERE uid = 'R2'" >/dev/null
expect_exit 65 ord event damaged.game move unit=R2 distance=4
expect_in "$ERR" "unit 'R2' moved 4\" but its order allows 2\""
expect_exit 0 ord event damaged.game move unit=R2 distance=1
expect_eq "$(sql damaged.game "SELECT count(*) FROM event WHERE args LIKE '%unit=R2%'")" 1 "R2's events"
# the same turn played honestly is clean, the override and all
resolve_rest i.game 5
# a side's report says which event the referee recorded against the
# checks, and why, once the turn is exchanged: not before (the checks
# could tell of another side's sheet)
expect_exit 0 ord report i.game --side blue --turn 1
expect_not_in "$OUT" "against the checks"
expect_exit 0 ord exchange i.game
expect_exit 0 ord report i.game --side blue --turn 1
expect_in "$OUT" "events the referee recorded against the checks:"
expect_line "$OUT" "^  #2: a second bound, as agreed \(the checks said: .*already moved this turn \(event #1\)"
# the report a player rebuilds from the bundle says it too, word for word
want=$(ord report i.game --side blue --turn 1)
expect_exit 0 ord export i.game --turn 1 -o i1.xml
expect_exit 0 ord verify i1.xml --report blue
expect_eq "$OUT" "$want" "blue's report rebuilt from the bundle, the override and all"
expect_exit 0 ord report i.game --side blue --turn 1 --xml
expect_line "$OUT" "^  <override event=\"[0-9]+\" checks=\"[^\"]*already moved this turn[^\"]*\">a second bound, as agreed</override>$"
expect_exit 0 ord audit i.game
expect_in "$OUT" "clean"

# ---- a phase resolved with orders no event carries out: resolved all
# the same when it has an event, or when the referee names it (an empty
# phase while orders wait for an event of it is refused unnamed:
# test_resolve_empty.sh), and said after it (the referee's report lists
# them while the turn is sealed, the audit once it is exchanged)
expect_exit 0 ord new p.game --scenario "$FIX/scenario.xml"
printf 'B2 Fb @R1\n' >p-blue.txt
printf 'R1 ^N 1/2\n' >p-red.txt
expect_exit 0 ord submit p.game --side blue p-blue.txt
expect_exit 0 ord submit p.game --side red p-red.txt
expect_exit 0 ord seal p.game
expect_exit 0 ord event p.game move unit=R1 distance=1
expect_exit 0 ord resolve p.game
expect_in "$OUT" "turn 1, phase movement: 1 event"
expect_in "$ERR" "note: 1 order no event of the turn carries out so far (orderly report --referee lists them)"
expect_exit 65 ord resolve p.game
expect_in "$ERR" "phase fire has no events, but 1 unit waits for one in it, by its sealed order or the rules (unit B2: artillery)"
expect_exit 0 ord resolve p.game --phase fire --empty
expect_in "$OUT" "turn 1, phase fire: 0 events"
expect_in "$ERR" "note: 1 order no event of the turn carries out so far (orderly report --referee lists them)"
expect_exit 0 ord report p.game --referee
expect_in "$OUT" "B2: ordered to fire (Fb) at R1 but no artillery fire was recorded"
resolve_rest p.game 2
expect_exit 0 ord resolve p.game
expect_in "$ERR" "note: 1 order no event of the turn carries out so far (orderly audit lists them once the turn is exchanged)"
expect_exit 0 ord exchange p.game
expect_exit 0 ord audit p.game
expect_in "$OUT" "execution: turn 1: unit 'B2': ordered to fire (Fb) at R1 but no artillery fire was recorded"
# every order carried out: no note
expect_exit 0 ord new q.game --scenario "$FIX/scenario.xml"
expect_exit 0 ord submit q.game --side blue p-blue.txt
expect_exit 0 ord submit q.game --side red p-red.txt
expect_exit 0 ord seal q.game
expect_exit 0 ord event q.game move unit=R1 distance=1
expect_exit 0 ord resolve q.game
expect_exit 0 ord event q.game artillery unit=B2 target=R1 range=10
expect_exit 0 ord resolve q.game
expect_not_in "$ERR" "note:"

# what a referee may record, from the rulesets' own declarations
run ord help event battalion
expect_eq "$RC" 0 "help event battalion"
expect_in "$OUT" "phase fire:"
expect_in "$OUT" "  fire unit=.. target=.. range=.. [firers=..]"
expect_in "$OUT" "      range          a number from 0 to 500; required"
expect_not_in "$OUT" "krigsspil"
run ord help event
expect_in "$OUT" "Events of the battalion ruleset"
expect_in "$OUT" "Events of the krigsspil ruleset"
expect_in "$OUT" "  skyd unit=.. maal=.."
# a Krigsspil event's help is in Danish, the ruleset's first language
# (event_help), in English with --lang en; battalion's is English only
run ord help event krigsspil
expect_eq "$RC" 0 "help event krigsspil"
expect_line "$OUT" "^      forsvareren angiver sin reaktion$"
expect_line "$OUT" "^      naar_stoette   one of ja nej; optional: spredt orden der trækker sig tilbage: når den støtteafstand til en egen sluttet enhed eller soutien \\(6\\.3\\)$"
expect_not_in "$OUT" "the defender states its reaction"
run ord help event krigsspil --lang en
expect_eq "$RC" 0 "help event krigsspil --lang en"
expect_line "$OUT" "^      the defender states its reaction$"
expect_line "$OUT" "^      naar_stoette   one of ja nej; optional: open order retreating: does it reach support distance of an own close unit or soutien \\(6\\.3\\)$"
run ord help event battalion --lang da
expect_eq "$RC" 64 "help event battalion --lang da"
expect_line "$ERR" "^orderly: ruleset 'battalion' has no help in 'da' \\(expected en\\)$"
# --version is `orderly version`, the rules revisions and all
run ord version
expect_eq "$RC" 0 "version"
version=$OUT
expect_in "$version" "battalion rules revision "
expect_in "$version" "krigsspil rules revision "
run ord --version
expect_eq "$RC" 0 "--version"
expect_eq "$OUT" "$version" "--version"
# COMMAND --help describes every option, in the man page's words
run ord resolve --help
expect_eq "$RC" 0 "resolve --help"
expect_line "$OUT" "^usage: orderly resolve GAME "
expect_line "$OUT" "^    --phase NAME$"
expect_in "$OUT" "Refuse unless the current phase is NAME; a guard in scripts, and only"
expect_line "$OUT" "^    --empty$"
expect_in "$OUT" "The phase has no event and is meant to go empty: resolve it though"
expect_line "$OUT" "^    --stand-in$"
expect_line "$OUT" "^    --lang L$"
run ord mail-in --help
expect_in "$OUT" "orderly mail-in"
expect_not_in "$OUT" '\-'
# and what a scenario's units take, with the defaults a unit gets silently
run ord help units battalion
expect_eq "$RC" 0 "help units battalion"
expect_in "$OUT" "  class          one of A B C D E; default C: morale class"
expect_in "$OUT" "  weapon         one of musket rifle none; default musket"
expect_in "$OUT" "  figures        an integer from 1 to 10000; required"
# ---- a key the game fills (a spec with no default) is stored filled, as
# it was when the spec gave the default: a move's charge= by its sheet's C
# (battalion charge_moves_checked), a fire's halv= by its sheet's time
# (Krigsspil skydetid_kontrol), and "no" in a game made before the check,
# as an orderly of then writes it (else its audit says the event's
# arguments are "not in the form it writes them")
printf 'B1 ↑ 1/2\nB3 ↑ C\n' >charge-blue.txt
printf 'R1 ↑ 1/4\n' >charge-red.txt
sed '/name="charge_moves_checked"/,/\/>/d' "$SRC/rulesets/battalion/tables.xml" >before-charge.xml
grep -q charge_moves_checked before-charge.xml && fail "the tables of a game made before still switch the check on"
for g in before now; do
	tables=()
	[[ $g == before ]] && tables=(--tables before-charge.xml)
	expect_exit 0 ord new charge-$g.game --scenario scenario.xml "${tables[@]}"
	expect_exit 0 ord submit charge-$g.game --side blue charge-blue.txt
	expect_exit 0 ord submit charge-$g.game --side red charge-red.txt
	expect_exit 0 ord seal charge-$g.game
	expect_exit 0 ord event charge-$g.game move unit=B3 distance=14 contact=R1
	expect_exit 0 ord event charge-$g.game move unit=B1 distance=4 charge=no
	expect_exit 0 ord event charge-$g.game move unit=R1 distance=1.5
	expect_exit 0 ord audit charge-$g.game
done
args() { sql "$1" "SELECT replace(args, char(10), ' ') FROM event WHERE kind = '${3:-move}' AND args LIKE 'unit=$2' || char(10) || '%'"; }
expect_eq "$(args charge-before.game B3)" "unit=B3 distance=14 contact=R1 terrain=open charge=no " \
	"a charge ordered, in a game made before the sheet's C was its charge"
expect_eq "$(args charge-before.game R1)" "unit=R1 distance=1.5 terrain=open charge=no " \
	"a move, in a game made before"
expect_eq "$(args charge-now.game B3)" "unit=B3 distance=14 contact=R1 terrain=open charge=yes " \
	"a charge ordered"
expect_eq "$(args charge-now.game R1)" "unit=R1 distance=1.5 terrain=open charge=no " "a move"
expect_eq "$(args charge-now.game B1)" "unit=B1 distance=4 charge=no terrain=open " \
	"a charge= given, where it was given"
# Krigsspil: D3's sheet fires for half a turn ("S @... ½")
KS=$SRC/rulesets/krigsspil/examples
{
	sed '/<\/map>/,$d' "$KS/map.xml"
	sed -e '1,/<tables/{/<tables/!d}' -e '/name="skydetid_kontrol"/,/\/>/d' \
		"$SRC/rulesets/krigsspil/skema.xml"
	echo '</map>'
} >before-halv.xml
grep -q skydetid_kontrol before-halv.xml && fail "the Skema of a game made before still switches the check on"
for g in before now; do
	map=before-halv.xml
	[[ $g == now ]] && map=$KS/map.xml
	expect_exit 0 ord new halv-$g.game --scenario "$KS/scenario.xml" --tables "$map"
	expect_exit 0 ord submit halv-$g.game --side danske "$KS/demo/turn1-danske.txt"
	expect_exit 0 ord submit halv-$g.game --side allierede "$KS/demo/turn1-allierede.txt"
	expect_exit 0 ord seal halv-$g.game
	for p in 1 2; do expect_exit 0 ord resolve halv-$g.game; done
	expect_exit 0 ord event halv-$g.game flyt unit=D3 x=90 y=68
	expect_exit 0 ord resolve halv-$g.game
	expect_exit 0 ord event halv-$g.game skyd unit=D3 maal=L2 zone=II
	expect_exit 0 ord event halv-$g.game artilleri unit=A1 maal=L2 afstand=88
	expect_exit 0 ord audit halv-$g.game
done
expect_eq "$(args halv-before.game D3 skyd)" "unit=D3 maal=L2 zone=II halv=no " \
	"a fire, in a game made before its sheet gave its time"
expect_eq "$(args halv-now.game D3 skyd)" "unit=D3 maal=L2 zone=II halv=yes " "a fire for half a turn"
expect_eq "$(args halv-now.game A1 artilleri)" "unit=A1 maal=L2 afstand=88 halv=no koordineret=no " \
	"a fire for a whole turn, halv= where its default stood"
# Krigsspil: an event's words take the sheet's spellings (case, æ ø å, é:
# the ordre notation's word_key) and are stored as the key's spec writes
# them, as a unit named is stored by its id; a word that is none is told
# the nearest, at its column in a file, the game file unchanged
expect_exit 0 ord new ord-ks.game --scenario "$KS/scenario.xml" --tables "$KS/map.xml"
expect_exit 0 ord submit ord-ks.game --side danske "$KS/demo/turn1-danske.txt"
expect_exit 0 ord submit ord-ks.game --side allierede "$KS/demo/turn1-allierede.txt"
expect_exit 0 ord seal ord-ks.game
for p in 1 2; do expect_exit 0 ord resolve ord-ks.game; done
sha_before=$(sha ord-ks.game)
expect_exit 64 ord event ord-ks.game formation unit=D8 formation=karee
expect_line "$ERR" "^orderly: 'karee' is not valid for 'formation' \\(expected one of linie angrebskolonne marchkolonne karre bataillonsmasse hob soutien skyttekaede_taet skyttekaede_tynd svaerm_taet svaerm_tynd\\): did you mean 'karre'\\?$"
printf 'flyt unit=D3 x=90 y=68\nformation unit=D8 formation=KARÉ\n' >ord-ks.txt
expect_exit 65 ord event ord-ks.game --file ord-ks.txt
expect_in "$ERR" "ord-ks.txt:2:19: 'KARÉ' is not valid for 'formation' (expected one of "
expect_in "$ERR" "svaerm_tynd): did you mean 'karre'?"
expect_eq "$(sha ord-ks.game)" "$sha_before" "the game file after the refused words"
cp ord-ks.game ord-ks-short.game
expect_exit 0 ord event ord-ks.game formation unit=D8 formation=KARRÉ
expect_eq "$(args ord-ks.game D8 formation)" "unit=D8 formation=karre " "the sheet's spelling, stored as the spec's"
# and what the sheet takes for the same word: its short forms (FORM kar,
# FORM ak), its words of two (FORM skyttekæde tæt), stored as the list
# writes them; what the sheet reads as no word of the list is refused as
# any wrong word, the game file unchanged
sha_short=$(sha ord-ks-short.game)
# a misspelt short form: the nearest of the sheet's spellings, with its word
expect_exit 64 ord event ord-ks-short.game formation unit=D8 formation=kra
expect_line "$ERR" "^orderly: 'kra' is not valid for 'formation' \\(expected one of linie angrebskolonne marchkolonne karre bataillonsmasse hob soutien skyttekaede_taet skyttekaede_tynd svaerm_taet svaerm_tynd\\): did you mean 'kar' \\(karre\\)\\?$"
expect_exit 64 ord event ord-ks-short.game formation unit=D8 "formation=tæt skyttekæde"
expect_line "$ERR" "^orderly: 'tæt skyttekæde' is not valid for 'formation' \\(expected one of linie angrebskolonne marchkolonne karre bataillonsmasse hob soutien skyttekaede_taet skyttekaede_tynd svaerm_taet svaerm_tynd\\)$"
expect_eq "$(sha ord-ks-short.game)" "$sha_short" "the game file after the refused words"
expect_exit 0 ord event ord-ks-short.game formation unit=D8 formation=kar
expect_eq "$(args ord-ks-short.game D8 formation)" "unit=D8 formation=karre " "the sheet's short form, stored as the spec's"
expect_exit 0 ord event ord-ks-short.game formation unit=L1 formation=AK
expect_eq "$(args ord-ks-short.game L1 formation)" "unit=L1 formation=angrebskolonne " "the sheet's short form AK"
expect_exit 65 ord event ord-ks-short.game formation unit=D3 "formation=skyttekæde tæt"
expect_line "$ERR" "^orderly: unit 'D3' formed tæt skyttekæde but its sheet orders no 'FORM tæt skyttekæde' \\(4\\.3\\)$"
expect_exit 0 ord event ord-ks-short.game formation unit=D3 "formation=skyttekæde tæt" --override "ordered by word of mouth"
expect_eq "$(args ord-ks-short.game D3 formation)" "unit=D3 formation=skyttekaede_taet " "the sheet's two words"
expect_exit 0 ord audit ord-ks-short.game
expect_in "$OUT" "clean"
# a chain of no density is dense, as the sheet reads FORM skk (11: in
# doubt, the densest formation): D3's sheet orders FORM skk, and the event
# formation=skk carries it out, stored as the list writes it
sed 's/^Slesvigske Jægerkorps:.*/Slesvigske Jægerkorps:       FORM skk/' "$KS/demo/turn1-danske.txt" >skk-danske.txt
grep -q 'FORM skk$' skk-danske.txt || fail "the sheet did not change"
expect_exit 0 ord new ord-ks-skk.game --scenario "$KS/scenario.xml" --tables "$KS/map.xml"
expect_exit 0 ord submit ord-ks-skk.game --side danske skk-danske.txt
expect_exit 0 ord submit ord-ks-skk.game --side allierede "$KS/demo/turn1-allierede.txt"
expect_exit 0 ord seal ord-ks-skk.game
for p in 1 2; do expect_exit 0 ord resolve ord-ks-skk.game; done
expect_exit 0 ord event ord-ks-skk.game formation unit=D3 formation=skk
expect_eq "$(args ord-ks-skk.game D3 formation)" "unit=D3 formation=skyttekaede_taet " "a chain of no density, dense"
expect_exit 65 ord event ord-ks-skk.game formation unit=D8 formation=SKK
expect_line "$ERR" "^orderly: unit 'D8' formed tæt skyttekæde but its sheet orders no 'FORM tæt skyttekæde' \\(4\\.3\\)$"
expect_exit 0 ord audit ord-ks-skk.game
expect_in "$OUT" "clean"
# the share of the turn a unit moved as the sheet writes its fraction
# (D3's M ↑ ½), stored as the list writes it; 1½ is no share of a turn
expect_exit 64 ord event ord-ks.game flyt unit=D3 x=90 y=68 tid=1½
expect_line "$ERR" "^orderly: '1½' is not valid for 'tid' \\(expected one of 1/4 1/2 3/4 1\\)$"
expect_exit 0 ord event ord-ks.game flyt unit=D3 x=90 y=68 tid=½
expect_eq "$(args ord-ks.game D3 flyt)" "unit=D3 x=90 y=68 tid=1/2 stormmarch=no loeb=no retraete=no maade=vending vej=no drej_cm=0 " "tid=½, stored as the list writes it"
expect_exit 0 ord resolve ord-ks.game --phase fredelige-flytninger
expect_exit 0 ord audit ord-ks.game
expect_in "$OUT" "clean"

# ---- an override voided since counts for nothing: the audit says so, and
# counts only those that stand
expect_exit 0 ord new v.game --scenario scenario.xml
expect_exit 0 ord submit v.game --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord submit v.game --side red "$BFIX/red-1b.txt"
expect_exit 0 ord seal v.game
expect_exit 0 ord event v.game move unit=B1 distance=2
expect_exit 0 ord event v.game move unit=B1 distance=1 --override "a second bound"
expect_exit 0 ord event v.game --void 2 --reason "there was none"
resolve_rest v.game 5
expect_exit 0 ord exchange v.game
expect_exit 0 ord audit v.game
expect_in "$OUT" "event #2 (move): recorded against the orders: override \"a second bound\"; the checks said: "
expect_in "$OUT" "(voided since: it does not count)"
expect_not_in "$OUT" "by the referee's override"
expect_exit 0 ord export v.game --turn 1 -o v1.xml
expect_exit 0 ord verify v1.xml
expect_in "$OUT" "(voided since: it does not count)"
expect_not_in "$OUT" "by the referee's override"

# ---- a unit is named by at most 64 events of a phase (ORD_EVENTS_PER_UNIT),
# even by an override: a Krigsspil defender attacked and reacting over and
# over made every check, resolve and replay of the phase quadratic in them
# (4,000 such events: a 1.8 MB bundle verified in 2.7 s and 309 MB)
cat >mange.xml <<'X'
<?xml version="1.0" encoding="UTF-8"?>
<scenario ruleset="krigsspil">
  <title>Mange</title>
  <side id="danske" name="Danske"/>
  <side id="allierede" name="Allierede"/>
  <unit id="D1" name="Oldenborgske 1/" side="danske" art="infanteri" nation="dansk" figurer="20" formation="linie"/>
X
for k in $(seq 32); do
	echo "  <unit id=\"L$k\" name=\"Legion $k/\" side=\"allierede\" art=\"infanteri\" nation=\"tysk\" figurer=\"18\" formation=\"linie\"/>"
done >>mange.xml
echo "</scenario>" >>mange.xml
printf 'D1 H\n' >mange-d.txt
for k in $(seq 32); do echo "L$k A @D1"; done >mange-a.txt
expect_exit 0 ord new m.game --scenario mange.xml --fixed-dice
expect_exit 0 ord submit m.game --side danske mange-d.txt
expect_exit 0 ord submit m.game --side allierede mange-a.txt
expect_exit 0 ord seal m.game
expect_exit 0 ord resolve m.game --phase reorganisering --empty
# each a unit of its own: an override records no event twice
for k in $(seq 32); do
	echo "angreb unit=L$k maal=D1"
	echo "reaktion unit=D1 reaktion=forsvar mod=L$k"
done >mange.txt
expect_exit 0 ord event m.game --file mange.txt --override "as agreed"
before=$(entries m.game)
expect_exit 64 ord event m.game reaktion unit=D1 reaktion=forsvar mod=L1 --override "once more"
expect_in "$ERR" "unit 'D1' is named by 64 events of phase 'angrebserklaering' already, the most a phase takes (void one first)"
echo "reaktion unit=D1 reaktion=forsvar mod=L1" >one-more.txt
expect_exit 65 ord event m.game --file one-more.txt --override "once more"
expect_in "$ERR" "one-more.txt:1:1: unit 'D1' is named by 64 events"
expect_eq "$(entries m.game)" "$before" "log entries after a 65th event of D1"
# a voided one makes room for one more
expect_exit 0 ord event m.game --void 64 --reason "said twice"
expect_exit 0 ord event m.game reaktion unit=D1 reaktion=forsvar mod=L32 --override "once more"
expect_exit 0 ord resolve m.game
resolve_rest m.game 3
expect_exit 0 ord exchange m.game
expect_exit 0 ord audit m.game
expect_in "$OUT" "clean"
expect_exit 0 ord export m.game --turn 1 -o m1.xml
# a bundle with a 65th: the replay refuses it as the game does
awk '/<event seq="65"/ { e = 1 } e { blk = blk $0 "\n" } { print }
	e && /<\/event>/ { e = 0; sub(/seq="65"/, "seq=\"66\"", blk); printf "%s", blk }' m1.xml >m1-more.xml
expect_eq "$(grep -c '<event seq="66"' m1-more.xml)" 1 "the 65th event of D1 in the bundle"
expect_exit 1 ord verify m1-more.xml
expect_in "$OUT" "event #66 (reaktion): names unit 'D1', which 64 events of its phase name already: the game refuses one more"
# ---- a repeat the checks let through is recorded: a second halt of the
# same cavalry says again what the first said, and no rule refuses it (the
# refusal of an exact repeat is for one the checks refuse, which only an
# override would record)
expect_exit 0 ord new h.game --scenario scenario.xml
expect_exit 0 ord submit h.game --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord submit h.game --side red "$BFIX/red-1b.txt"
expect_exit 0 ord seal h.game
expect_exit 0 ord resolve h.game --phase movement --empty
expect_exit 0 ord resolve h.game --phase fire --empty
expect_exit 0 ord resolve h.game --phase fire-morale --empty
expect_exit 0 ord resolve h.game --phase melee --empty
expect_exit 0 ord event h.game halt unit=B3
expect_exit 0 ord event h.game halt unit=B3
expect_eq "$ERR" "" "a repeat the checks let through"
expect_eq "$(sql h.game "SELECT count(*) FROM event WHERE kind = 'halt' AND override IS NULL")" 2 "halts recorded"
expect_exit 0 ord resolve h.game --phase melee-morale --empty
expect_exit 0 ord exchange h.game
expect_exit 0 ord audit h.game
expect_in "$OUT" "clean"

# ---- an event that cannot happen is refused, --override or not (red team
# #7): a kind that cannot do the event's (a line battalion's roundshot,
# cavalry's musketry, a gun's musketry, a battalion limbering), a fire or a
# melee at itself or at its own side; the override is for a measure or a
# situation the checks doubt, and the game file is left as it was
NO='; --override does not apply: it overrules a check of a measure or of the situation on the table, not an event that cannot happen'
expect_exit 0 ord new x.game --scenario scenario.xml
expect_exit 0 ord submit x.game --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord submit x.game --side red "$BFIX/red-1b.txt"
expect_exit 0 ord seal x.game
expect_exit 64 ord event x.game limber unit=B1 --override "the referee says so"
expect_in "$ERR" "orderly: unit 'B1' is line_infantry, not artillery: only a gun limbers$NO"
expect_exit 0 ord resolve x.game --phase movement --empty
x_sha=$(sha x.game)
expect_exit 64 ord event x.game artillery unit=R1 target=B1 range=5 shot=ball --override "the referee says so"
expect_in "$ERR" "orderly: unit 'R1' is line_infantry, not artillery: 'artillery' is a gun's fire (a unit's is 'fire')$NO"
expect_exit 64 ord event x.game fire unit=B3 target=R1 range=2 --override "carbines"
expect_in "$ERR" "orderly: unit 'B3' is light_cavalry: the rules give small-arms fire to infantry only (D26)$NO"
expect_exit 64 ord event x.game fire unit=B2 target=R1 range=5 --override "the referee says so"
expect_in "$ERR" "orderly: unit 'B2' is foot_artillery: a gun's fire is the event 'artillery'$NO"
expect_exit 64 ord event x.game fire unit=R1 target=R1 range=0 --override "the referee says so"
expect_in "$ERR" "orderly: unit 'R1' cannot fire at itself$NO"
expect_exit 64 ord event x.game fire unit=R1 target=R2 range=3 --override "the referee says so"
expect_in "$ERR" "orderly: target 'R2' is a unit of the firer's own side (red): fire is at the enemy$NO"
# a file of them: every line refused, at its line, nothing recorded
printf 'artillery unit=B2 target=B1 range=5\nfire unit=R1 target=B1 range=5\n' >own.txt
expect_exit 65 ord event x.game --file own.txt --override "the referee says so"
expect_in "$ERR" "own.txt:1:1: target 'B1' is a unit of the firer's own side (blue): fire is at the enemy$NO"
expect_not_in "$ERR" "own.txt:2"
expect_eq "$(sha x.game)" "$x_sha" "the game after impossible events refused"
# an override still records what is the referee's to judge (the range)
expect_exit 0 ord event x.game fire unit=R1 target=B1 range=30 --override "measured again: in range"
expect_in "$ERR" "recorded although it disagrees with the orders"
resolve_rest x.game 2
x_sha=$(sha x.game)
expect_exit 64 ord event x.game melee a=R1 b=R3 --override "the referee says so"
expect_in "$ERR" "orderly: 'R1' and 'R3' are of the same side (red): a melee is against the enemy$NO"
expect_exit 64 ord event x.game melee a=B1 b=B1 --override "the referee says so"
expect_in "$ERR" "orderly: 'B1' cannot fight a melee with itself$NO"
expect_eq "$(sha x.game)" "$x_sha" "the game after impossible melees refused"
note "ok"
