#!/usr/bin/env bash
# test_lookalike_names.sh - names a player tells apart (threat model,
# attack 41): `orderly new` refuses a scenario whose title, side or unit
# names hold a character a reader does not see (a zero-width space, a
# bidirectional override) or a blank at an end, or whose sides or units
# have names or ids that look alike (a Cyrillic letter for a Latin one,
# '1' for 'l'), every problem named, exit 65, no game made; and a game made
# before, which may hold such names, reads as it did, its reports showing
# an unseen character escaped (\u202e), never acting on the terminal.
set -euo pipefail
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"

cd "$TMP"
G=new.orderly
S=$FIX/scenario.xml

# refused SCENARIO EXPECTED...: `orderly new` exits 65, says every EXPECTED
# text and leaves no game file behind
refused() {
	local scenario=$1 want
	shift
	expect_exit 65 ord new "$G" --scenario "$scenario"
	for want in "$@"; do
		expect_in "$ERR" "$want"
	done
	expect_not_in "$OUT" "created"
	expect_no_game "$G"
}

# the fixture as it is is a game
expect_exit 0 ord new plain.orderly --scenario "$S"

# red's riflemen named as blue's hussars are, with a no-break space after
# (a blank at the end, and the same name to a reader)
sed 's/name="Red Rifles"/name="Blue Hussars\&#xA0;"/' "$S" >nbsp.xml
refused nbsp.xml \
	"nbsp.xml:13:23: unit 'R2': its name 'Blue Hussars"$'\u00a0'"' ends with the blank U+00A0 (expected no blank at either end" \
	"nbsp.xml:13:23: the name of unit 'R2' ('Blue Hussars"$'\u00a0'"') looks like the name of unit 'B3' ('Blue Hussars') on line 11: a player cannot tell them apart"

# a zero-width space after it: the character named, escaped, at its place
sed 's/name="1st Red Foot"/name="1st Blue Foot\&#x200B;"/' "$S" >zwsp.xml
refused zwsp.xml \
	"zwsp.xml:12:23: unit 'R1': its name '1st Blue Foot\u200b' holds the unseen character U+200B at character 14 (expected characters a player sees" \
	"zwsp.xml:12:23: the name of unit 'R1' ('1st Blue Foot\u200b') looks like the name of unit 'B1' ('1st Blue Foot') on line 9"

# a Cyrillic 'Н' for the Latin 'H', all else alike
sed 's/name="Red Cuirassiers"/name="Blue \&#x41D;ussars"/' "$S" >cyrillic.xml
refused cyrillic.xml \
	"cyrillic.xml:14:23: the name of unit 'R3' ('Blue Нussars') looks like the name of unit 'B3' ('Blue Hussars') on line 11: a player cannot tell them apart (expected units' names and ids that differ in more than case, blanks, unseen characters and letters drawn alike: Greek and Cyrillic ones as Latin, fullwidth forms, 0 and O, 1, I and l)"

# a name that reads as another unit's id: a Cyrillic 'В' before the 1
sed 's/name="Red Cuirassiers"/name="\&#x412;1"/' "$S" >as-id.xml
refused as-id.xml \
	"as-id.xml:14:23: the name of unit 'R3' ('В1') looks like the id of unit 'B1' on line 9"

# two ids a font draws alike, B1 and Bl
sed 's/id="R3"/id="Bl"/' "$S" >ids.xml
refused ids.xml "ids.xml:14:13: the id of unit 'Bl' looks like the id of unit 'B1' on line 9"

# a side named with a bidirectional override, and a side named as the
# other side's id
sed 's/name="Red Army"/name="\&#x202E;ymrA deR"/' "$S" >rlo.xml
refused rlo.xml "rlo.xml:8: side 'red': its name '\u202eymrA deR' holds the unseen character U+202E at character 1"
sed 's/name="Red Army"/name="Blue"/' "$S" >side-as-id.xml
refused side-as-id.xml \
	"side-as-id.xml:8: the name of side 'red' ('Blue') looks like the id of side 'blue' on line 7: a player cannot tell them apart (expected sides' names and ids"

# the title too
sed 's|<title>Crossroads (NMR hold)</title>|<title>Crossroads\&#x2066; (NMR hold)</title>|' "$S" >title.xml
refused title.xml "title.xml: the title 'Crossroads\u2066 (NMR hold)' holds the unseen character U+2066 at character 11"

# every name noted once, in `new`'s words less its reason, a note and
# not a failure (attack 41): the audit's with the game's units, before
# its turns, a bundle's verify's with its signature
names_noted() {
	local ind=$1 text=$2 lead
	lead="${ind}note: the game's scenario names sides or units in ways a player cannot tell apart, which an orderly before 2026-12-07 made a game of (and a referee's own build still can): a unit may pass for another side's, a line of a report read otherwise (threat model, attack 41):"
	expect_eq "$(grep -c "attack 41" <<<"$text")" 1 "the notes' lead, once"
	expect_eq "$(grep -A4 -F "$lead" <<<"$text")" "$lead
${ind}note: the game's scenario: the title 'Crossroads\\u200b (old)' holds the unseen character U+200B at character 11
${ind}note: the game's scenario:13: unit 'R2': its name 'Blue Hussars"$'\u00a0'"' ends with the blank U+00A0
${ind}note: the game's scenario:13: the name of unit 'R2' ('Blue Hussars"$'\u00a0'"') looks like the name of unit 'B3' ('Blue Hussars') on line 11: a player cannot tell them apart
${ind}note: the game's scenario:14: unit 'R3': its name '\\u202esreissariuC deR' holds the unseen character U+202E at character 1" \
		"the notes of the names"
	expect_eq "$(grep -c "the game's scenario" <<<"$text")" 5 "the notes, once each"
	expect_not_in "$text" $'\u202e'
	expect_not_in "$text" $'\u200b'
}

# ---------------------------------------------------- a game made before
# tests/fixtures/e2e/old-lookalike.sql: made by an orderly before `new`
# refused them, its title holding a zero-width space, red's cuirassiers
# named with a right-to-left override (a terminal shows the rest of their
# line backwards), red's riflemen as blue's hussars with a no-break space
# after; turn 1 exchanged.  It is read as it is: its audit is clean, and
# its reports show the unseen characters escaped.
need_sqlite3
sql old.game ".read $FIX/old-lookalike.sql" >/dev/null
expect_exit 0 ord audit old.game
expect_in "$OUT" "clean"
expect_line "$OUT" "^  ok: units: 2 sides and 6 units"
names_noted "  " "$OUT"
# (an honest game has none)
expect_exit 0 ord audit plain.orderly
expect_not_in "$OUT" "attack 41"
expect_not_in "$OUT" "the game's scenario"
# info, on the referee's terminal, as the report shows it
expect_exit 0 ord info old.game
expect_line "$OUT" '^game: +Crossroads\\u200b \(old\)$'
expect_not_in "$OUT" $'\u200b'
expect_exit 0 ord report old.game --side red --turn 1
expect_line "$OUT" '^Crossroads\\u200b \(old\): turn 1 \(exchanged\), report for red$'
expect_line "$OUT" "^  R3 \\\\u202esreissariuC deR \\(red, heavy_cavalry\\): 8 figures"
expect_in "$OUT" "  R2 Blue Hussars"$'\u00a0'" (red, skirmishers)"
expect_not_in "$OUT" $'\u202e'
expect_not_in "$OUT" $'\u200b'
# the chart draws them escaped too (its labels, tips and title; the
# old game has no positions for a map)
expect_exit 0 ord chart old.game --referee -o old-map.svg
grep -q 'u202esreissariuC deR' old-map.svg || fail "the chart does not draw R3's name escaped"
grep -q 'Crossroads\\u200b (old)' old-map.svg || fail "the chart's title is not escaped"
! grep -q $'\u202e' old-map.svg || fail "the chart draws a right-to-left override"
! grep -q $'\u200b' old-map.svg || fail "the chart draws a zero-width space"
# the player's own report of the bundle, on his machine, alike
expect_exit 0 ord export old.game --turn 1
printf '%s\n' "$OUT" >old-turn-1.xml
expect_exit 0 ord verify old-turn-1.xml
expect_in "$OUT" "verified: every check holds"
names_noted "  " "$OUT"
expect_exit 0 ord verify old-turn-1.xml --report red
names_noted "  " "$ERR"
expect_line "$OUT" "^  R3 \\\\u202esreissariuC deR \\(red, heavy_cavalry\\): 8 figures"
expect_not_in "$OUT" $'\u202e'
note "ok"
