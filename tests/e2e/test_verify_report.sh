#!/usr/bin/env bash
# test_verify_report.sh - `orderly verify BUNDLE --report SIDE`: a player
# rebuilds his turn report from the signed bundle, and it is byte for byte
# what `orderly report GAME --side SIDE --turn N` prints from the game file,
# so a report the referee sent that says something else shows.  Both demo
# games (each played by its examples/demo/play with real dice), every turn,
# every side and the referee, text and XML, each language of the Krigsspil;
# a game with an event voided and one overridden; the report as it read
# before the exchange (--resolved); a side that met an enemy; a bad side
# name; and a bundle that fails a check prints no report.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

play_demo battalion "$TMP/b.game"
play_demo krigsspil "$TMP/k.game"

# same BUNDLE WANT WHO [OPTION...]: verify BUNDLE --report WHO OPTION...
# prints the file WANT exactly on standard output, and what it checked (all
# of it holding) on standard error
same() {
	local bundle=$1 want=$2 who=$3
	shift 3
	run ord verify "$bundle" --report "$who" "$@"
	[[ "$RC" == 0 ]] || fail "verify $bundle --report $who $* exited $RC"
	cmp -s "$TMP/.out" "$want" ||
		fail "verify $bundle --report $who $*: not the game file's report:
$(diff "$want" "$TMP/.out" | head -20)"
	expect_in "$ERR" "verified: every check holds"
}

# check GAME TURN WHO [OPTION...]: the game file's report of TURN for WHO
# (a side, or referee) against the one rebuilt from the turn's bundle
check() {
	local game=$1 turn=$2 who=$3 a
	shift 3
	if [[ "$who" == referee ]]; then a=(--referee); else a=(--side "$who"); fi
	ord report "$game" "${a[@]}" --turn "$turn" "$@" >"$TMP/want" ||
		fail "report $game ${a[*]} --turn $turn $* failed"
	[[ -s "$TMP/want" ]] || fail "report $game ${a[*]} --turn $turn $* is empty"
	same "$game-$turn.xml" "$TMP/want" "$who" "$@"
}

# ------------------------------------------------------------ battalion
for turn in 1 2 3; do
	expect_exit 0 ord export "$TMP/b.game" --turn "$turn" -o "$TMP/b.game-$turn.xml"
	for who in french allied referee; do
		check "$TMP/b.game" "$turn" "$who"
		check "$TMP/b.game" "$turn" "$who" --xml
	done
done
# the fog of war is the game file's: the French met enemy units in turn 2
# (their fire, the melee), and the report rebuilt lists them
ord verify "$TMP/b.game-2.xml" --report french >"$TMP/fr2" 2>/dev/null
expect_in "$(cat "$TMP/fr2")" "enemy units met this turn:"
expect_line "$(sed -n '/^enemy units met/,/^results/p' "$TMP/fr2")" '^  A[0-9]+ .*\(allied, '
expect_not_in "$(sed -n '/^your units:/,/^enemy units met/p' "$TMP/fr2")" "(allied, "
# a side's report is not the referee's: no rolls, no other side's figures
expect_not_in "$(cat "$TMP/fr2")" "rolls:"

# ------------------------------------------------------------ krigsspil
for turn in 1 2; do
	expect_exit 0 ord export "$TMP/k.game" --turn "$turn" -o "$TMP/k.game-$turn.xml"
	for who in danske allierede referee; do
		check "$TMP/k.game" "$turn" "$who"
		check "$TMP/k.game" "$turn" "$who" --xml
		check "$TMP/k.game" "$turn" "$who" --lang en
	done
	check "$TMP/k.game" "$turn" referee --lang all
done
ord verify "$TMP/k.game-2.xml" --report danske >"$TMP/da2" 2>/dev/null
expect_in "$(cat "$TMP/da2")" "fjendtlige enheder mødt i dette træk:"
expect_in "$(cat "$TMP/da2")" "resultater for dine enheder og deres handlinger:"
run ord verify "$TMP/k.game-2.xml" --report danske --lang xx
expect_eq "$RC" 64 "a language the ruleset does not write"
expect_in "$ERR" "language 'xx' (the krigsspil ruleset writes da, en, or all)"
expect_eq "$OUT" "" "the report of a language refused"

# ------------------------------------- a voided event, an overridden one
# and the report the mail judge mails when the last phase is resolved,
# before the exchange (--resolved: the side's own sheet only)
E=$SRC/rulesets/battalion/examples
G=$TMP/v.game
ord new "$G" --scenario "$E/scenario.xml" >/dev/null 2>&1
ord submit "$G" --side french "$E/demo/turn1-french.txt" >/dev/null
ord submit "$G" --side allied "$E/demo/turn1-allied.txt" >/dev/null
ord seal "$G" >/dev/null 2>&1
ord event "$G" move unit=F1 distance=5 >/dev/null
ord event "$G" move unit=F2 distance=40 --override "the umpire let it pass" >/dev/null 2>&1
ord resolve "$G" >/dev/null 2>&1
ord event "$G" fire unit=A5 target=F1 range=11 >/dev/null
ord event "$G" --void 3 --reason "recorded for the wrong battalion" >/dev/null 2>&1
ord event "$G" artillery unit=A9 target=F2 range=14 >/dev/null
for _ in 1 2 3 4; do ord resolve "$G" >/dev/null 2>&1; done
for who in french allied referee; do
	if [[ "$who" == referee ]]; then a=(--referee); else a=(--side "$who"); fi
	ord report "$G" "${a[@]}" >"$TMP/resolved-$who"
done
expect_in "$(cat "$TMP/resolved-french")" "turn 1 (resolved), report for french"
ord exchange "$G" >/dev/null 2>&1
expect_exit 0 ord export "$G" --turn 1 -o "$G-1.xml"
for who in french allied referee; do
	check "$G" 1 "$who"
	same "$G-1.xml" "$TMP/resolved-$who" "$who" --resolved
done
run ord verify "$G-1.xml" --report referee
expect_in "$OUT" "OVERRIDE by the referee: the umpire let it pass"
# the void stands in the referee's list of voids, with his number and
# reason, and not among his events
expect_in "$OUT" "events the referee voided (they count for nothing):
  #3 fire fire unit=A5 target=F1 range=11 enfilade=no target_in_woods=no firer_in_woods=no hill=no, voided: recorded for the wrong battalion"
expect_not_in "$OUT" "#3 fire fire unit=A5 target=F1 range=11 enfilade=no target_in_woods=no firer_in_woods=no hill=no
"
# the French, whose F1 it named, read it once the turn is exchanged,
# without a number; the allies' A5 fired, so theirs lists it too
run ord verify "$G-1.xml" --report french
expect_in "$OUT" "  [fire] fire unit=A5 target=F1 range=11 enfilade=no target_in_woods=no firer_in_woods=no hill=no, voided: recorded for the wrong battalion"
run ord verify "$G-1.xml" --report allied
expect_in "$OUT" "  [fire] fire unit=A5 target=F1 range=11"
# the fire voided met nobody: A5 is not an enemy the French met
expect_not_in "$(cat "$TMP/resolved-french")" "  A5 "
run ord verify "$G-1.xml" --report french --resolved
expect_in "$OUT" "the other sides' sheets stay secret until the exchange"
expect_not_in "$OUT" "sheet of allied"
run ord verify "$G-1.xml" --report french
expect_in "$OUT" "sheet of allied"

# ------------------------------------------------------------ bad input
run ord verify "$TMP/b.game-1.xml" --report prussians
expect_eq "$RC" 64 "an unknown side"
expect_in "$ERR" "unknown side 'prussians' (expected one of french, allied)"
expect_eq "$OUT" "" "the output for an unknown side"
for opt in --xml --resolved "--lang en"; do
	# shellcheck disable=SC2086
	run ord verify "$TMP/b.game-1.xml" $opt
	expect_eq "$RC" 64 "verify $opt without --report"
	expect_in "$ERR" "${opt%% *} is an option of --report SIDE"
done
run ord verify "$TMP/b.game-1.xml" --report
expect_eq "$RC" 64 "--report without a side"

# a bundle that fails a check prints its findings and no report: its record
# is not the turn as it was played; the findings go to standard error, as
# the checks of a bundle that verifies do: standard output is the report's
sed 's/distance=5/distance=6/' "$G-1.xml" >"$TMP/changed.xml"
cmp -s "$G-1.xml" "$TMP/changed.xml" && fail "the bundle was not changed"
run ord verify "$TMP/changed.xml" --report french
expect_eq "$RC" 1 "a changed bundle"
expect_eq "$OUT" "" "the standard output of a --report of a changed bundle"
expect_in "$ERR" "FAILED"
expect_in "$ERR" "no report: the bundle does not verify"

note "ok"
