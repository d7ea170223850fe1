#!/usr/bin/env bash
# test_pictures.sh - `orderly map` and `orderly chart` through the binary on
# the two demo games (each played by its examples/demo/play with real dice):
# every picture for each side and the referee, as SVG and PNG; the same
# game gives the same bytes; what a side may not see is not in its picture;
# the battalion game, which records no positions, has a chart and no map.
# The fog by phase: no enemy unit before it was met, nor its path, nor an
# event not resolved yet; an enemy's fire on a side's unit labelled.
# (The pictures are checked as data, pixel by pixel, in check_pictures.)
set -euo pipefail
source "$(dirname "$0")/lib.sh"

play_demo krigsspil "$TMP/k.game"
play_demo battalion "$TMP/b.game"

svg_ok() { # FILE: a whole SVG document
	head -c 200 "$1" | grep -q '<svg xmlns="http://www.w3.org/2000/svg"' || fail "$1 is no SVG"
	tail -c 20 "$1" | grep -q '</svg>' || fail "$1 is cut short"
}
png_ok() { # FILE
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$1 is no PNG"
}

# krigsspil: the map of both turns for every viewer, and the chart
for who in referee side=danske side=allierede; do
	if [ "$who" = referee ]; then v=(--referee); else v=(--side "${who#side=}"); fi
	for turn in 1 2; do
		expect_exit 0 ord map "$TMP/k.game" --turn "$turn" "${v[@]}" -o "$TMP/k-$who-$turn.svg"
		svg_ok "$TMP/k-$who-$turn.svg"
	done
	expect_exit 0 ord map "$TMP/k.game" --turn 2 "${v[@]}" --lang da -o "$TMP/k-$who.png" --scale 1
	png_ok "$TMP/k-$who.png"
	expect_exit 0 ord chart "$TMP/k.game" "${v[@]}" -o "$TMP/kc-$who.svg"
	svg_ok "$TMP/kc-$who.svg"
done
# standard output, and a phase of a turn
run ord map "$TMP/k.game" --turn 1 --phase skydninger
expect_eq "$RC" 0 "map to standard output"
expect_in "$OUT" '<g id="units" class="layer">'
expect_in "$OUT" 'efter skydninger' # the ruleset's own language by default
run ord map "$TMP/k.game" --turn 1 --phase skydninger --lang en
expect_in "$OUT" 'after fire'
run ord map "$TMP/k.game" --lang fr
expect_eq "$RC" 64 "a language the ruleset does not write"
expect_in "$ERR" "the krigsspil ruleset writes da, en"
# the same game, the same bytes
ord map "$TMP/k.game" --turn 2 --side danske -o "$TMP/again.svg"
cmp -s "$TMP/k-side=danske-2.svg" "$TMP/again.svg" || fail "two maps of one game differ"
ord map "$TMP/k.game" --turn 2 --side danske --lang da -o "$TMP/again.png" --scale 1
cmp -s "$TMP/k-side=danske.png" "$TMP/again.png" || fail "two PNGs of one map differ"
# fog: the allied unit L14 (never met by a Dane) and its name are only in the referee's
grep -q 'id="unit-L14"' "$TMP/k-referee-2.svg" || fail "the referee's map lacks L14"
for f in "$TMP"/k-side=danske-*.svg "$TMP/kc-side=danske.svg"; do
	if grep -q 'unit-L14\|Bremen-Verden' "$f"; then fail "$f shows L14, which the Danes never met"; fi
done
# the phases before the fire of turn 1 (whose events name no unit of the
# other side) and the start of turn 2: no enemy unit on a side's map
for phase in "--turn 1 --phase start" "--turn 1 --phase fredelige-flytninger" "--turn 2 --phase start"; do
	# shellcheck disable=SC2086
	run ord map "$TMP/k.game" $phase --side allierede
	expect_eq "$RC" 0 "the allies' map ($phase)"
	expect_not_in "$OUT" 'data-side="danske"'
	# shellcheck disable=SC2086
	run ord map "$TMP/k.game" $phase --side danske
	expect_not_in "$OUT" 'data-side="allierede"'
done
# an enemy unit met is drawn where its side's report puts it, with no path:
# no move made from where it stood, no order line (which starts there)
f=$TMP/k-side=allierede-1.svg
grep -q 'id="unit-D3"' "$f" || fail "the allies' map of turn 1 lacks D3, which fired at L2"
grep -A1 'id="order-D3"' "$TMP/k-referee-1.svg" | grep -q 'class="moved"' ||
	fail "the referee's map of turn 1 lacks D3's move"
if grep -q 'id="order-[DAK]' "$f"; then fail "$f draws a Danish unit's path or order"; fi
if grep -q 'id="order-L' "$TMP/k-side=danske-1.svg"; then fail "the Danes' map draws an allied path or order"; fi
grep -A1 'id="order-L2"' "$f" | grep -q 'class="moved"' || fail "the allies' map lacks L2's own move"
# D3's fire at L2 is labelled on the allies' map too, as their report says
run ord map "$TMP/k.game" --turn 1 --phase skydninger --side allierede --lang en
expect_in "$OUT" "D3→L2: "

# battalion: the chart for every viewer; no positions, so no map
for who in referee french allied; do
	if [ "$who" = referee ]; then v=(--referee); else v=(--side "$who"); fi
	expect_exit 0 ord chart "$TMP/b.game" "${v[@]}" -o "$TMP/b-$who.svg"
	svg_ok "$TMP/b-$who.svg"
	expect_exit 0 ord chart "$TMP/b.game" "${v[@]}" -o "$TMP/b-$who.png" --scale 1
	png_ok "$TMP/b-$who.png"
	expect_exit 65 ord map "$TMP/b.game" "${v[@]}"
	expect_in "$ERR" "no unit of this game has a position"
done
n_ref=$(grep -c 'class="unit"' "$TMP/b-referee.svg")
n_fr=$(grep -c 'class="unit"' "$TMP/b-french.svg")
[ "$n_fr" -lt "$n_ref" ] || fail "the French chart shows every unit ($n_fr of $n_ref)"

# a shot that hits nobody is labelled as a miss, not "−0 men" (fixed dice:
# 3d6 = 3, zone III, round shot: 0 men a gun)
KS=$SRC/rulesets/krigsspil/examples
expect_exit 0 ord new "$TMP/miss.game" --scenario "$KS/scenario.xml" --tables "$KS/map.xml" --fixed-dice
expect_exit 0 ord submit "$TMP/miss.game" --side danske "$KS/demo/turn1-danske.txt"
expect_exit 0 ord submit "$TMP/miss.game" --side allierede "$KS/demo/turn1-allierede.txt"
expect_exit 0 ord seal "$TMP/miss.game"
resolve_rest "$TMP/miss.game" 3
expect_exit 0 ord event "$TMP/miss.game" artilleri unit=A1 maal=L2 afstand=88
expect_exit 0 ord resolve "$TMP/miss.game" --dice 1,1,1
expect_in "$OUT" "= 0 mand"
expect_exit 0 ord map "$TMP/miss.game" --lang en -o "$TMP/miss.svg"
expect_in "$(cat "$TMP/miss.svg")" "A1→L2: no loss"
expect_not_in "$(cat "$TMP/miss.svg")" "−0 men"
expect_exit 0 ord map "$TMP/miss.game" --lang da -o "$TMP/miss-da.svg"
expect_in "$(cat "$TMP/miss-da.svg")" "A1→L2: ingen tab"
# ... on the target's side's map as well
run ord map "$TMP/miss.game" --side allierede --lang en
expect_in "$OUT" "A1→L2: no loss"

# an event recorded for the phase not resolved yet (a melee, overridden)
# meets nobody: K3 is in none of the allies' report, map or chart until
# the phase is resolved
expect_exit 0 ord event "$TMP/miss.game" naerkamp angriber=K3 forsvarer=L12 --override "a test of the fog"
sees_k3() { # WANT: 1 or 0
	local what
	for what in report map chart; do
		run ord "$what" "$TMP/miss.game" --side allierede
		expect_eq "$RC" 0 "the allies' $what"
		if [ "$1" = 1 ]; then
			expect_line "$OUT" '(id="unit-K3"|^  K3 )'
		elif grep -Eq '(id="unit-K3"|^  K3 )' <<<"$OUT"; then
			fail "the allies' $what shows K3 before the melee is resolved"
		fi
	done
}
sees_k3 0
expect_exit 0 ord resolve "$TMP/miss.game" --dice 3,4,3,4,3,4
sees_k3 1
note "ok: maps and charts of both demo games for every viewer; a miss labelled as one; the fog by phase"
