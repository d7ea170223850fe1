#!/usr/bin/env bash
# test_verify_map.sh - `orderly verify BUNDLE --map SIDE` and `--report SIDE
# --phase NAME`: a player rebuilds from the signed bundle the map and the
# report he was shown during the turn (the web page's: the turn as it stood
# after each phase, before the exchange, --resolved for the map) and after
# it, and finds them byte for byte the ones the game file gave, SVG and PNG;
# a map with one unit moved differs; a bundle that fails a check draws
# nothing.  Two turns of the Krigsspil demo (real dice), each side's
# picture and report taken from the game file just before each phase is
# resolved (the next phase's events already recorded, which met nobody
# yet), and once the last is.  The fog is the game file's: an enemy unit
# not met is not on a side's rebuilt map.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

KS=$SRC/rulesets/krigsspil/examples
G=$TMP/k.game
SNAP=$TMP/snap
mkdir -p "$SNAP"
SIDES="danske allierede"
PHASES=(start reorganisering angrebserklaering fredelige-flytninger skydninger angrebshandlinger)

# the demo's way of playing (examples/demo/play): an event the dice made
# impossible is refused and the game goes on
event() { "$ORDERLY" event "$G" "$@" >/dev/null 2>&1 || true; }
retreats() {
	local ev
	# shellcheck disable=SC2016 # the backquotes are the list's
	"$ORDERLY" info "$G" | { grep -o '`retraete [^`]*`' || true; } | tr -d '`' |
		while read -r ev; do
			# shellcheck disable=SC2086 # the event's words, as the list wrote them
			event $ev
		done
}
at() {
	"$ORDERLY" report "$G" --referee --lang en |
		sed -n "s/^  $1 .* x=\([-0-9.]*\) y=\([-0-9.]*\) .*/\1 \2/p" | head -n 1
}
# snap TURN K: what each side is shown now, K phases of TURN resolved: the
# web page's map of the turn (its last phase resolved) and report, and a PNG
snap() {
	local s
	for s in $SIDES; do
		ord map "$G" --side "$s" >"$SNAP/$1-$2-$s.svg" || fail "map --side $s ($1, $2)"
		ord report "$G" --side "$s" >"$SNAP/$1-$2-$s.txt" || fail "report --side $s ($1, $2)"
	done
	ord map "$G" --side danske -o "$SNAP/$1-$2-danske.png" --scale 1 || fail "map as PNG ($1, $2)"
}
# phase TURN K: snap, then resolve the turn's phase K+1
phase() {
	snap "$1" "$2"
	ord resolve "$G" >/dev/null 2>&1 || fail "resolve of turn $1's phase $(($2 + 1))"
}

ord new "$G" --scenario "$KS/scenario.xml" --tables "$KS/map.xml" >/dev/null 2>&1
ord submit "$G" --side danske "$KS/demo/turn1-danske.txt" >/dev/null
ord submit "$G" --side allierede "$KS/demo/turn1-allierede.txt" >/dev/null
ord seal "$G" >/dev/null 2>&1
phase 1 0
phase 1 1
event flyt unit=D3 x=90 y=68
event formation unit=D8 formation=karre
event flyt unit=L2 x=90 y=88
event formation unit=L1 formation=angrebskolonne
event flyt unit=L5 x=190 y=80
phase 1 2
event skyd unit=D3 maal=L2 zone=II halv=yes
event skyd unit=L2 maal=D3 zone=II halv=yes
event artilleri unit=A1 maal=L2 afstand=88
event artilleri unit=A3 maal=L1 afstand=104
event artilleri unit=L9 maal=D8 afstand=104
phase 1 3
retreats
phase 1 4
snap 1 5
ord exchange "$G" >/dev/null 2>&1

ord submit "$G" --side danske "$KS/demo/turn2-danske.txt" >/dev/null
ord submit "$G" --side allierede "$KS/demo/turn2-allierede.txt" >/dev/null
ord seal "$G" >/dev/null 2>&1
phase 2 0
event angreb unit=K1 maal=L5 stormmarch=yes
event stoette unit=K2 stoetter=K1 rolle=traefning afstand=20
event stoette unit=K4 stoetter=K1 rolle=nabo afstand=3
event reaktion unit=L5 reaktion=forsvar
phase 2 1
read -r x y < <(at L1)
event flyt unit=L1 x="$x" y="$(awk -v y="$y" 'BEGIN { print y - 12 }')"
phase 2 2
event artilleri unit=A1 maal=L1 afstand=90
event artilleri unit=L9 maal=D8 afstand=104
phase 2 3
event naerkamp angriber=K1 forsvarer=L5
retreats
phase 2 4
snap 2 5
ord exchange "$G" >/dev/null 2>&1
# the pictures shown during the turn are not the ones after it (the turn's
# state is in them, and the other side's orders once they are revealed):
# the rebuild must know which it draws
ord map "$G" --turn 2 --side danske >"$TMP/after.svg"
if cmp -s "$TMP/after.svg" "$SNAP/2-5-danske.svg"; then
	fail "the map after the exchange is the one shown before it: the test tells nothing"
fi

# same WANT CMD...: CMD exits 0, writes WANT exactly on standard output, and
# says on standard error that every check of the bundle holds
same() {
	local want=$1
	shift
	run "$@"
	[[ "$RC" == 0 ]] || fail "'$*' exited $RC"
	cmp -s "$TMP/.out" "$want" || fail "'$*': not what the game file gave ($want):
$(diff "$want" "$TMP/.out" | head -10)"
	expect_in "$ERR" "verified: every check holds"
}

for turn in 1 2; do
	B=$TMP/k-$turn.xml
	expect_exit 0 ord export "$G" --turn "$turn" -o "$B"
	for k in 0 1 2 3 4 5; do
		p=${PHASES[$k]}
		for s in $SIDES; do
			# during the turn, as the web page showed them
			same "$SNAP/$turn-$k-$s.svg" ord verify "$B" --map "$s" --phase "$p" --resolved
			same "$SNAP/$turn-$k-$s.txt" ord verify "$B" --report "$s" --phase "$p"
			# after the exchange, as `orderly map` draws them from the file
			ord map "$G" --turn "$turn" --side "$s" --phase "$p" >"$TMP/want.svg"
			same "$TMP/want.svg" ord verify "$B" --map "$s" --phase "$p"
		done
		ord map "$G" --turn "$turn" --referee --phase "$p" >"$TMP/want.svg"
		same "$TMP/want.svg" ord verify "$B" --map referee --phase "$p"
		# the PNG too: librsvg draws the same SVG to the same bytes
		expect_exit 0 ord verify "$B" --map danske --phase "$p" --resolved -o "$TMP/v.png" --scale 1
		cmp -s "$TMP/v.png" "$SNAP/$turn-$k-danske.png" ||
			fail "turn $turn, $p: the rebuilt PNG is not the one shown"
	done
	# no --phase: the last phase resolved, as `orderly map --turn N` draws it
	ord map "$G" --turn "$turn" --side allierede --lang en >"$TMP/want.svg"
	same "$TMP/want.svg" ord verify "$B" --map allierede --lang en
	same "$SNAP/$turn-5-allierede.svg" ord verify "$B" --map allierede --resolved
	# the report of the last phase is the one --resolved rebuilds
	same "$SNAP/$turn-5-danske.txt" ord verify "$B" --report danske --resolved
done

# the fog is the game file's: before turn 1's fire no event met an enemy;
# the allied L14 is never met by a Dane, but is on the referee's map
B=$TMP/k-1.xml
for p in start fredelige-flytninger; do
	run ord verify "$B" --map allierede --phase "$p" --resolved
	expect_in "$OUT" '<g id="units" class="layer">'
	expect_not_in "$OUT" 'data-side="danske"'
done
run ord verify "$B" --map allierede --phase skydninger
expect_in "$OUT" 'id="unit-D3"'
for turn in 1 2; do
	run ord verify "$TMP/k-$turn.xml" --map danske
	expect_in "$OUT" 'data-side="allierede"'
	expect_not_in "$OUT" 'id="unit-L14"'
	run ord verify "$TMP/k-$turn.xml" --map referee
	expect_in "$OUT" 'id="unit-L14"'
done
# a report during the turn leaves out what the next phase's events would
# tell: the Danes' report before the fire names no allied unit met
run ord verify "$B" --report danske --phase fredelige-flytninger
expect_in "$OUT" "træk 1 (forseglet), rapport til danske"
expect_not_in "$OUT" "fjendtlige enheder mødt i dette træk:"
run ord verify "$B" --report danske --phase skydninger
expect_in "$OUT" "fjendtlige enheder mødt i dette træk:"

# a map the referee changed: one allied unit moved on the Danes' map of
# turn 2 (its group drawn 10 units to the right) is not the one rebuilt
M=$SNAP/2-5-danske.svg
line=$(grep -n 'class="unit" transform="translate([0-9.]* [^>]*data-side="allierede"' "$M" |
	head -n 1 | cut -d: -f1)
[[ -n "$line" ]] || fail "no allied unit on the Danes' map of turn 2"
x=$(sed -n "${line}s/.*class=\"unit\" transform=\"translate(\([0-9.]*\) .*/\1/p" "$M")
nx=$(awk -v x="$x" 'BEGIN { printf "%.2f", x + 10 }')
sed "${line}s/class=\"unit\" transform=\"translate($x /class=\"unit\" transform=\"translate($nx /" \
	"$M" >"$TMP/moved.svg"
cmp -s "$M" "$TMP/moved.svg" && fail "the unit was not moved"
ord verify "$TMP/k-2.xml" --map danske --resolved -o "$TMP/rebuilt.svg" 2>/dev/null
cmp -s "$TMP/rebuilt.svg" "$M" || fail "the rebuilt map is not the one shown"
if cmp -s "$TMP/rebuilt.svg" "$TMP/moved.svg"; then fail "the moved unit went unseen"; fi

# a bundle that fails a check draws nothing: no file, nothing on standard
# output, the findings and the refusal on standard error
sed 's/afstand=90/afstand=91/' "$TMP/k-2.xml" >"$TMP/changed.xml"
cmp -s "$TMP/k-2.xml" "$TMP/changed.xml" && fail "the bundle was not changed"
run ord verify "$TMP/changed.xml" --map danske -o "$TMP/none.svg"
expect_eq "$RC" 1 "a changed bundle"
expect_in "$ERR" "FAILED"
expect_in "$ERR" "no map: the bundle does not verify"
[[ ! -e "$TMP/none.svg" ]] || fail "a changed bundle drew a map"
run ord verify "$TMP/changed.xml" --map danske
expect_eq "$RC" 1 "a changed bundle, to standard output"
expect_eq "$OUT" "" "the standard output of a --map of a changed bundle"
run ord verify "$TMP/changed.xml" --report danske --phase skydninger
expect_eq "$RC" 1 "a changed bundle's report of a phase"
expect_eq "$OUT" "" "the standard output of a --report --phase of a changed bundle"

# bad input: said, nothing drawn
run ord verify "$B" --map preussen
expect_eq "$RC" 64 "an unknown side"
expect_in "$ERR" "unknown side 'preussen' (expected one of danske, allierede)"
expect_eq "$OUT" "" "the map of an unknown side"
run ord verify "$B" --map danske --phase slag
expect_eq "$RC" 64 "an unknown phase"
expect_in "$ERR" "unknown phase 'slag' (expected start or one of"
run ord verify "$B" --map danske --turn 2
expect_eq "$RC" 64 "another turn"
expect_in "$ERR" "--turn 2: the bundle is of turn 1"
expect_eq "$OUT" "" "the map of another turn"
run ord verify "$B" --map danske --lang fr
expect_eq "$RC" 64 "a language the ruleset does not write"
expect_in "$ERR" "the krigsspil ruleset writes da, en"
run ord verify "$B" --map danske -o "$TMP/map.gif"
expect_eq "$RC" 64 "a picture that is no SVG or PNG"
expect_in "$ERR" "a picture is written as FILE.svg or FILE.png"
run ord verify "$B" --map danske --scale 2
expect_eq "$RC" 64 "--scale of an SVG"
run ord verify "$B" --map danske --xml
expect_eq "$RC" 64 "--xml of a map"
run ord verify "$B" --map danske --report danske
expect_eq "$RC" 64 "--map and --report"
run ord verify "$B" --phase skydninger
expect_eq "$RC" 64 "--phase alone"
expect_in "$ERR" "--phase is an option of --report SIDE or --map SIDE"
run ord verify "$B" --report danske --phase skydninger --resolved
expect_eq "$RC" 64 "--phase and --resolved of a report"
run ord verify "$B" --report referee --phase skydninger
expect_eq "$RC" 64 "the referee's report of a phase"
expect_in "$ERR" "a side's report as it read during the turn, not the referee's"
expect_eq "$OUT" "" "the referee's report of a phase"
# a ruleset that draws no map where its units have no positions
play_demo battalion "$TMP/b.game"
expect_exit 0 ord export "$TMP/b.game" --turn 1 -o "$TMP/b-1.xml"
run ord verify "$TMP/b-1.xml" --map french
expect_eq "$RC" 65 "a map of a game without positions"
expect_in "$ERR" "no unit of this game has a position"
expect_eq "$OUT" "" "the map of a game without positions"
# ... whose reports of a phase are rebuilt all the same
ord report "$TMP/b.game" --side french --turn 1 >/dev/null
run ord verify "$TMP/b-1.xml" --report french --phase fire
expect_eq "$RC" 0 "a battalion report of a phase"
expect_in "$OUT" "turn 1 (sealed), report for french"
note "ok: each side's map (SVG and PNG) and report as shown after each phase of two turns, and its maps after the exchange, rebuilt byte for byte from the bundle; a moved unit and a changed bundle show"
