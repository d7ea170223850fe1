#!/usr/bin/env bash
# test_scenario_errors.sh - `orderly new` refuses missing, malformed, invalid
# and hostile scenario files and creates no game file; every command refuses
# a file that is not an orderly game, or a game of a newer schema, and leaves
# it byte-identical.
set -euo pipefail
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"

cd "$TMP"
G=new.orderly

# new_refused CODE SCENARIO EXPECTED...: `orderly new` exits CODE, says every
# EXPECTED text and leaves no game file behind.
new_refused() {
	local code=$1 scenario=$2 want
	shift 2
	expect_exit "$code" ord new "$G" --scenario "$scenario"
	for want in "$@"; do
		expect_in "$ERR" "$want"
	done
	expect_not_in "$OUT" "created"
	expect_no_game "$G"
}

# ------------------------------------------------------------ bad scenarios
new_refused 66 "$TMP/no-such-scenario.xml" "no-such-scenario.xml"
mkdir a-directory.xml
new_refused 65 a-directory.xml "a-directory.xml" "directory"

F=$FIX
new_refused 65 "$F/bad-malformed.xml" "$F/bad-malformed.xml:9:12: "
new_refused 65 "$F/bad-schema.xml" "$F/bad-schema.xml:6: " "sometimes" "expected hold, repeat or wait"
new_refused 65 "$F/bad-schema-order.xml" "$F/bad-schema-order.xml:7: " "<side> after <unit>" "expected"
new_refused 65 "$F/bad-kind.xml" "$F/bad-kind.xml:8:56: " "'dragoons'" "'kind'" \
	"expected one of line_infantry light_infantry skirmishers light_cavalry heavy_cavalry foot_artillery horse_artillery"
# every unit at fault, a line each, the first after "orderly: " (a
# message of several lines was put on one, with "\n" between them)
sed 's/kind="line_infantry"/kind="bogus"/g' "$FIX/scenario.xml" >two-bad.xml
expect_exit 65 ord new two-bad.orderly --scenario two-bad.xml
expect_line "$ERR" "^orderly: two-bad.xml:9:56: unit 'B1': 'bogus' is not valid for 'kind'"
expect_line "$ERR" "^two-bad.xml:12:54: unit 'R1': 'bogus' is not valid for 'kind'"
expect_not_in "$ERR" '\n'
new_refused 65 "$F/bad-duplicate-unit.xml" "$F/bad-duplicate-unit.xml:9:13: " "'B1'" "already used on line 7"
new_refused 65 "$F/bad-unknown-side.xml" "$F/bad-unknown-side.xml:9:44: " "'green'" "expected one of blue red"
# a Krigsspil unit the rules refuse: at the value of the attribute at fault
# (the module names it, ord_diag_add_attr)
KS=$SRC/rulesets/krigsspil/examples
sed 's/formation="svaerm_tynd" spredt="yes" x="180"/formation="karre" spredt="yes" x="180"/' \
	"$KS/scenario.xml" >ks-bad-formation.xml
grep -q 'formation="karre" spredt="yes" x="180"' ks-bad-formation.xml || fail "the Krigsspil fixture did not change"
new_refused 65 ks-bad-formation.xml "ks-bad-formation.xml:76:44: unit 'L5': formation 'karre' is not for kosakker (kosakker) (11)"
# a Krigsspil unit's words are read as its sheets read theirs (case, æ ø
# å é, the short forms and two words: the ordre notation's word_key and
# word_value) and kept as the list writes them; a word that is none is
# refused at its place with the nearest, and no game is made
sed -e '/id="D2"/,/\/>/s/formation="angrebskolonne"/formation="AK"/' \
	-e '/id="D3"/,/\/>/s/formation="skyttekaede_tynd"/formation="Skyttekæde tynd"/' \
	-e '/id="D7"/,/\/>/s/formation="marchkolonne"/formation="MARCHKOLONNE"/' \
	-e '/id="D8"/,/\/>/s/formation="bataillonsmasse"/formation="bataljonsmasse"/' \
	-e '/id="D4"/,/\/>/s/formation="skyttekaede_taet"/formation="skk"/' \
	"$KS/scenario.xml" >ks-words.xml
grep -q 'formation="AK"' ks-words.xml && grep -q 'formation="Skyttekæde tynd"' ks-words.xml &&
	grep -q 'formation="skk"' ks-words.xml || fail "the Krigsspil fixture did not change"
expect_exit 0 ord new ks-words.orderly --scenario ks-words.xml --tables "$KS/map.xml"
# (a chain of no density, skk, is dense: 11, in doubt the densest formation)
for u in D2:angrebskolonne D3:skyttekaede_tynd D4:skyttekaede_taet D7:marchkolonne D8:bataillonsmasse; do
	expect_eq "$(sql ks-words.orderly "SELECT attrs FROM unit WHERE uid = '${u%%:*}'" |
		sed -n 's/^formation=//p')" "${u#*:}" "unit ${u%%:*}'s formation, as the list writes it"
done
# the seal holds the units to the scenario its log states, read again
expect_exit 0 ord submit ks-words.orderly --side danske "$KS/demo/turn1-danske.txt"
expect_exit 0 ord submit ks-words.orderly --side allierede "$KS/demo/turn1-allierede.txt"
expect_exit 0 ord seal ks-words.orderly
expect_exit 0 ord audit ks-words.orderly
expect_in "$OUT" "clean"
sed -e '/id="D2"/,/\/>/s/formation="angrebskolonne"/formation="angrebskolone"/' \
	-e '/id="D7"/,/\/>/s/formation="marchkolonne"/formation="tæt skk"/' \
	"$KS/scenario.xml" >ks-bad-words.xml
expect_exit 65 ord new ks-bad-words.orderly --scenario ks-bad-words.xml
expect_line "$ERR" "^orderly: ks-bad-words.xml:31:44: unit 'D2': 'angrebskolone' is not valid for 'formation' \\(expected one of linie angrebskolonne marchkolonne karre bataillonsmasse hob soutien skyttekaede_taet skyttekaede_tynd svaerm_taet svaerm_tynd\\): did you mean 'angrebskolonne'\\?$"
expect_line "$ERR" "^ks-bad-words.xml:44:44: unit 'D7': 'tæt skk' is not valid for 'formation' \\(expected one of linie angrebskolonne marchkolonne karre bataillonsmasse hob soutien skyttekaede_taet skyttekaede_tynd svaerm_taet svaerm_tynd\\)$"
expect_no_game ks-bad-words.orderly
# an attribute the unit does not give: at the unit's element, its line
# and column (not the line alone)
sed '/id="A2"/,/\/>/s/kanoner="4" //' "$KS/scenario.xml" >ks-no-guns.xml
grep -q 'kanoner="4" kaliber="3"' ks-no-guns.xml && fail "the Krigsspil fixture did not change"
new_refused 65 ks-no-guns.xml "ks-no-guns.xml:59:3: unit 'A2': a battery needs kanoner"
# a battalion unit's formation is one its kind may have: a battalion is
# in no gun's order (it moved and fired as a line), a gun is limbered or
# unlimbered (a column made it limbered), cavalry is in squadron, or in a
# battalion's formation read as squadron (D28), never a gun's: the message
# names the formations the scenario takes for it
sed -e '/id="R1"/s/formation="line"/formation="limbered"/' \
	-e '/id="R3"/s/kind="heavy_cavalry" formation="column"/kind="horse_artillery" formation="column"/' \
	-e '/id="B3"/s/formation="column"/formation="unlimbered"/' "$FIX/scenario.xml" >bad-formations.xml
new_refused 65 bad-formations.xml \
	"bad-formations.xml:12:80: unit 'R1': formation 'limbered' is not for line_infantry (expected one of line column square skirmish misc) (tables 'formations' and 'movement' of " \
	"bad-formations.xml:14:85: unit 'R3': formation 'column' is not for horse_artillery (expected one of limbered unlimbered)" \
	"bad-formations.xml:11:81: unit 'B3': formation 'unlimbered' is not for light_cavalry (expected squadron, or one of line column square skirmish misc, each read as squadron) (table 'kinds' of "
# squadron is cavalry's alone (since rules revision 2026-12-05.2; it was
# no word of the scenario's): a battalion has no move in it, a gun is
# limbered or unlimbered
sed -e '/id="R1"/s/formation="line"/formation="squadron"/' \
	-e '/id="R3"/s/kind="heavy_cavalry" formation="column"/kind="horse_artillery" formation="squadron"/' \
	"$FIX/scenario.xml" >bad-squadron.xml
new_refused 65 bad-squadron.xml \
	"bad-squadron.xml:12:80: unit 'R1': formation 'squadron' is not for line_infantry (expected one of line column square skirmish misc) (tables 'formations' and 'movement' of " \
	"bad-squadron.xml:14:85: unit 'R3': formation 'squadron' is not for horse_artillery (expected one of limbered unlimbered)"
# and each formation it names is one the scenario takes for the cavalry,
# its own squadron too
for f in squadron line column square skirmish misc; do
	sed -e "/id=\"B3\"/s/formation=\"column\"/formation=\"$f\"/" "$FIX/scenario.xml" >cav-$f.xml
	expect_exit 0 ord new cav-$f.orderly --scenario cav-$f.xml
done

# Tables that cannot play the scenario: a row the phases read for a unit
# (a move in a formation its orders may give it, the zones of its weapon),
# left out of a club's tables, is refused when the game is made, at the
# unit's attribute that calls for it, not in the turn that reads it; the
# shipped tables play the shipped scenarios
BAT=$SRC/rulesets/battalion
grep -v 'formation="square" reg="4"' "$BAT/tables.xml" >no-square.xml
expect_exit 65 ord new "$G" --scenario "$BAT/examples/scenario.xml" --tables no-square.xml
expect_in "$ERR" "$BAT/examples/scenario.xml:26:55: unit 'F1': no movement for light_infantry in square, a formation its orders may give it (FSq) (table 'movement' of no-square.xml)"
expect_in "$ERR" "$BAT/examples/scenario.xml:41:95: unit 'A3': no movement for line_infantry in square (table 'movement' of no-square.xml)"
# the line whole: the problem's rule ends it (ord_diag_item_format)
grep -qxF -- "$BAT/examples/scenario.xml:41:95: unit 'A3': no movement for line_infantry in square (table 'movement' of no-square.xml)" <<<"$ERR" ||
	fail "the line of A3's problem: $ERR"
expect_no_game "$G"
grep -v 'vaaben="riffel"' "$SRC/rulesets/krigsspil/skema.xml" >no-rifles.xml
expect_exit 65 ord new "$G" --scenario "$KS/scenario.xml" --tables no-rifles.xml
expect_in "$ERR" "$KS/scenario.xml:33:83: unit 'D3': no zones for riffel, the weapon it fires with (table 'skudzoner' of no-rifles.xml)"
expect_no_game "$G"
expect_exit 0 ord new "$G" --scenario "$BAT/examples/scenario.xml" --tables "$BAT/tables.xml"
rm -f "$G"
# a Krigsspil scenario that places its units, made with no map (a Skema,
# or nothing): the game is made, as the README allows, but nothing would
# be checked against the ground, and `new` said nothing of it; now a
# warning names the scenario, what goes unchecked and how to give the map
# (create_notes).  With the map, none; a battalion game, none
nomap="warning: '$KS/scenario.xml' places 30 units (x=, y=) but the game has no map: nothing is checked against the ground (terrain, heights, obstacles and cover on a move or a fire, the plates an order names, the way to a plate)"
expect_exit 0 ord new "$G" --scenario "$KS/scenario.xml" --tables "$SRC/rulesets/krigsspil/skema.xml"
expect_in "$OUT" "created $G: krigsspil, 2 sides, 30 units"
expect_in "$ERR" "$nomap"
# the way to the map, not a command line: the slot does not know the
# referee's other options (--no-referee, --witnessed, --key, his Skema),
# and a command spelt out without them made another game
expect_in "$ERR" "make the game again with the same 'orderly new' command and options, the map given as --tables MAP.xml (a Skema of your own goes at the map's end, in its <tables>)"
expect_not_in "$ERR" "orderly new GAME"
expect_exit 0 ord info "$G"
rm -f "$G"
expect_exit 0 ord new "$G" --scenario "$KS/scenario.xml"
expect_in "$ERR" "$nomap"
expect_exit 0 ord info "$G"
rm -f "$G"
expect_exit 0 ord new "$G" --scenario "$KS/scenario.xml" --tables "$KS/map.xml"
expect_in "$OUT" "created $G: krigsspil, 2 sides, 30 units"
expect_not_in "$ERR" "warning"
expect_not_in "$ERR" "no map"
rm -f "$G"
expect_exit 0 ord new "$G" --scenario "$BAT/examples/scenario.xml"
expect_not_in "$ERR" "warning"
rm -f "$G"

# Hostile XML.  Each fixture is a valid scenario apart from its DOCTYPE (the
# positive control below proves it), so a parser that expanded the entities
# or loaded the DTD would create a game.
for h in billion-laughs:3 xxe:3 external-dtd:4; do
	name=${h%%:*} line=${h##*:}
	file=$F/hostile-$name.xml
	new_refused 65 "$file" "$file:$line: " "DOCTYPE"
	expect_not_in "$ERR" "root:"
	expect_not_in "$ERR" "DTD-LOADED-3c9e"
	expect_not_in "$ERR" "lollol"
	sed -E -e '/<!DOCTYPE.*>$/d' -e '/<!DOCTYPE/,/^\]>/d' -e 's/&[a-z0-9]+;/Defanged/' "$file" >"defanged-$name.xml"
	expect_exit 0 ord new "defanged-$name.orderly" --scenario "defanged-$name.xml"
done

# an existing file is never overwritten
expect_exit 0 ord new game.orderly --scenario "$FIX/scenario.xml"
expect_exit 0 ord submit game.orderly --side red "$FIX/red-1.txt"
game_sha=$(sha game.orderly)
expect_exit 65 ord new game.orderly --scenario "$FIX/scenario-wait.xml"
expect_in "$ERR" "already exists"
expect_eq "$(sha game.orderly)" "$game_sha" "an existing game after 'new' on it"

# nor is a game made through a symbolic link, to a file or to nothing (the
# game would be made where the link points, a place nobody named)
ln -s "$PWD/elsewhere.orderly" dangling.orderly
expect_exit 65 ord new dangling.orderly --scenario "$FIX/scenario.xml"
expect_in "$ERR" "'dangling.orderly' is a symbolic link to '$PWD/elsewhere.orderly', which does not exist"
[ ! -e elsewhere.orderly ] || fail "'new' through a dangling link made the file it points to"
ln -s game.orderly link.orderly
expect_exit 65 ord new link.orderly --scenario "$FIX/scenario.xml"
expect_in "$ERR" "'link.orderly' already exists"
expect_eq "$(sha game.orderly)" "$game_sha" "a game after 'new' on a link to it"

# ------------------------------------------------------- not orderly games
# refused FILE EXPECTED: every command that opens a game refuses FILE with
# exit 65 and EXPECTED, and leaves it byte-identical.
refused() {
	local file=$1 want=$2 before args
	local -a cmds=(
		"info"
		"info --xml"
		"report --referee"
		"report --side red"
		"audit"
		"submit --side red $FIX/red-1.txt"
		"seal --force"
		"deadline +24h"
		"event move unit=R1 distance=1"
		"resolve"
		"exchange"
	)
	before=$(sha "$file")
	for args in "${cmds[@]}"; do
		# shellcheck disable=SC2086 # split the command's words
		set -- $args
		expect_exit 65 ord "$1" "$file" "${@:2}"
		expect_in "$ERR" "$want"
		expect_eq "$(sha "$file")" "$before" "'$file' after 'orderly $args'"
	done
}

if command -v sqlite3 >/dev/null 2>&1; then
	sqlite3 other.db 'CREATE TABLE t(x); INSERT INTO t VALUES (42)'
	refused other.db "not an orderly game"
	for f in other.db-wal other.db-shm other.db-journal; do
		[[ ! -e "$f" ]] || fail "'$f' was left behind"
	done
	expect_eq "$(sqlite3 other.db 'SELECT x FROM t')" 42 "the other program's data"

	# a game of a newer schema
	cp game.orderly newer.orderly
	sqlite3 newer.orderly 'PRAGMA user_version = 99'
	[[ ! -e newer.orderly-wal ]] || fail "the sqlite3 shell left a WAL behind"
	refused newer.orderly "newer"
	# refused from its header, read as bytes before any SQLite connection
	# (store.c's inspect), so nothing is made beside it
	for f in newer.orderly-wal newer.orderly-shm newer.orderly-journal; do
		[[ ! -e "$f" ]] || fail "'$f' was left behind by a refused newer game"
	done
	expect_eq "$(sqlite3 newer.orderly 'PRAGMA user_version')" 99 "user_version of the newer game"
else
	note "SKIP (sqlite3 shell missing): the non-game SQLite and newer-schema cases"
fi

printf 'this is not a game\n' >notes.txt
refused notes.txt "not an orderly game"
: >empty.orderly
refused empty.orderly "not an orderly game"

expect_exit 66 ord info no-such.orderly
expect_no_game no-such.orderly

note "ok"
