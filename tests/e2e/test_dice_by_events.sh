#!/usr/bin/env bash
# test_dice_by_events.sh - in a game made now, a roll of an event is keyed
# by what the event names (its kind, its units, how many standing events
# before it name the same), not by its number: a referee who records the
# same events in another order, voids one and records it again unchanged,
# or writes a melee as a=A1 b=F2 instead of a=F2 b=A1, draws the same dice
# for every unit (docs/threat-model.md, "The dice"); the audit replays them
# so and finds every game clean; and the game's entries say so, where the
# entries of the games made before do not (their dice keep their numbers).
set -euo pipefail
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"

cd "$TMP"
BD=$SRC/rulesets/battalion/examples

# the rolls a resolve printed, each unit's line, in the units' order
results() {
	grep -v '^turn \|^next phase' <<<"$1" | sort
}

G=qb.game
expect_exit 0 ord new "$G" --scenario "$BD/scenario.xml"
expect_exit 0 ord submit "$G" --side french "$BD/demo/turn1-french.txt"
expect_exit 0 ord submit "$G" --side allied "$BD/demo/turn1-allied.txt"
expect_exit 0 ord seal "$G"
for e in "move unit=F1 distance=5" "move unit=F2 distance=4" "move unit=F3 distance=3.5" \
	"move unit=F6 distance=7" "move unit=F9 distance=12" "form unit=A4 formation=line" \
	"move unit=A7 distance=3"; do
	# shellcheck disable=SC2086 # the event's words
	expect_exit 0 ord event "$G" $e
done
expect_exit 0 ord resolve "$G"

# the fire phase three ways
FIRES=("fire unit=A5 target=F1 range=11" "artillery unit=A9 target=F2 range=14"
	"artillery unit=F8 target=A1 range=22")
cp "$G" in-order.game
cp "$G" reversed.game
cp "$G" voided.game
for e in "${FIRES[@]}"; do
	# shellcheck disable=SC2086
	expect_exit 0 ord event in-order.game $e
done
for ((i = ${#FIRES[@]} - 1; i >= 0; i--)); do
	# shellcheck disable=SC2086
	expect_exit 0 ord event reversed.game ${FIRES[i]}
done
# the last recorded (#10), voided, and recorded again as it was (#11)
for e in "${FIRES[@]}"; do
	# shellcheck disable=SC2086
	expect_exit 0 ord event voided.game $e
done
expect_exit 0 ord event voided.game --void 10 --reason "range measured again"
# shellcheck disable=SC2086
expect_exit 0 ord event voided.game ${FIRES[2]}
expect_exit 0 ord resolve in-order.game
expect_in "$OUT" "turn 1, phase fire: 3 events, "
want=$(results "$OUT")
expect_in "$want" "F1: fired on by A5"
expect_in "$want" "A1: fired on by gun F8"
expect_exit 0 ord resolve reversed.game
expect_eq "$(results "$OUT")" "$want" "the fire resolved with its events in reverse order"
expect_exit 0 ord resolve voided.game
expect_eq "$(results "$OUT")" "$want" "the fire resolved with an event voided and recorded again"
for g in in-order reversed voided; do
	expect_exit 0 ord audit "$g.game"
	expect_in "$OUT" "clean"
done
# a melee written either way round: each unit keeps its die
G=in-order.game
expect_exit 0 ord resolve "$G" --phase fire-morale --empty
expect_exit 0 ord resolve "$G" --phase melee --empty
expect_exit 0 ord resolve "$G" --phase melee-morale --empty
rest=$(phase_of "$G")
[[ -z "$rest" ]] || resolve_rest "$G"
expect_exit 0 ord exchange "$G"
# the game's entries say its dice are keyed by events
expect_exit 0 ord export "$G" --turn 1 -o turn1.xml
expect_in "$(cat turn1.xml)" "dice=events"
grep -v '^F1' "$BD/demo/turn2-french.txt" >fr2.txt
expect_exit 0 ord submit "$G" --side french fr2.txt
expect_exit 0 ord submit "$G" --side allied "$BD/demo/turn2-allied.txt"
expect_exit 0 ord seal "$G"
expect_exit 0 ord event "$G" move unit=F2 distance=5 charge=yes contact=A1
expect_exit 0 ord resolve "$G"
expect_exit 0 ord resolve "$G" --phase fire --empty
expect_exit 0 ord resolve "$G" --phase fire-morale --empty
cp "$G" ab.game
cp "$G" ba.game
expect_exit 0 ord event ab.game melee a=A1 b=F2
expect_exit 0 ord resolve ab.game
ab=$OUT
expect_exit 0 ord event ba.game melee a=F2 b=A1
expect_exit 0 ord resolve ba.game
ba=$OUT
die_of() { # the die of unit $2 in the melee line $1
	grep -o "$2's [^;]*" <<<"$1" | grep -o 'd6 [0-9]'
}
expect_line "$(die_of "$ab" A1)" '^d6 [1-6]$'
expect_eq "$(die_of "$ba" A1)" "$(die_of "$ab" A1)" "A1's die in the melee written a=F2 b=A1"
expect_eq "$(die_of "$ba" F2)" "$(die_of "$ab" F2)" "F2's die in the melee written a=F2 b=A1"
for g in ab ba; do
	expect_exit 0 ord audit "$g.game"
	expect_in "$OUT" "clean"
done
