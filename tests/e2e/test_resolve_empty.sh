#!/usr/bin/env bash
# test_resolve_empty.sh - a resolve typed twice by mistake skips no phase:
# a phase with no event while sealed orders wait for an event of it is
# refused (exit 65, the game file unchanged, the units and kinds named)
# unless the referee says it is meant to go empty (resolve --empty); a
# phase with an event is never refused so; both built-in rulesets, and the
# audit of a turn with a phase resolved empty stays clean.  --phase NAME is
# a script's guard only (red-team finding 9): before, it also said the
# phase goes empty; a script that relied on it is now refused, told to add
# --empty, its game file unchanged.
set -euo pipefail
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"

cd "$TMP"
BD=$SRC/rulesets/battalion/examples
KD=$SRC/rulesets/krigsspil/examples

# ---------------------------------------------------------------- battalion
G=qb.game
expect_exit 0 ord new "$G" --scenario "$BD/scenario.xml"
expect_exit 0 ord submit "$G" --side french "$BD/demo/turn1-french.txt"
expect_exit 0 ord submit "$G" --side allied "$BD/demo/turn1-allied.txt"
expect_exit 0 ord seal "$G"
# movement: one move recorded of the several ordered; a phase with an
# event is resolved, the orders left undone only noted
expect_exit 0 ord event "$G" move unit=F1 distance=5
expect_exit 0 ord resolve "$G"
expect_in "$OUT" "turn 1, phase movement: 1 event, 0 rolls"
expect_in "$ERR" "note: "
# the same resolve again: fire has no event, and F8, A5, A9 were ordered to fire
info_before=$(ord info "$G")
sha_before=$(sha "$G")
expect_exit 65 ord resolve "$G"
expect_line "$ERR" "^orderly: phase fire has no events, but 3 units wait for one in it, by their sealed orders or the rules \\(unit F8: artillery, unit A5: fire, unit A9: artillery\\); record them with \`orderly event\`, or add --empty to resolve it empty: \`orderly resolve $G --phase fire --empty\`$"
expect_eq "$OUT" "" "a refused resolve prints no results"
expect_eq "$(sha "$G")" "$sha_before" "the game file after the refusal"
expect_eq "$(ord info "$G")" "$info_before" "orderly info after the refusal"
expect_exit 0 ord info "$G"
expect_in "$OUT" "fire"
# the phase named is a guard, not the word that it goes empty (red-team
# finding 9): a script's "the current phase must be fire" is refused as
# the bare resolve is, told to add --empty, the game file unchanged
expect_exit 65 ord resolve "$G" --phase fire
expect_line "$ERR" "^orderly: phase fire has no events, but 3 units wait for one in it, by their sealed orders or the rules \\(unit F8: artillery, unit A5: fire, unit A9: artillery\\); record them with \`orderly event\`, or add --empty to resolve it empty: \`orderly resolve $G --phase fire --empty\`$"
expect_eq "$OUT" "" "a resolve refused with --phase prints no results"
expect_eq "$(sha "$G")" "$sha_before" "the game file after the refusal with --phase"
# the guard still refuses another phase, --empty or not
expect_exit 65 ord resolve "$G" --phase melee --empty
expect_line "$ERR" "^orderly: the current phase of turn 1 is 'fire', not 'melee'$"
expect_eq "$(sha "$G")" "$sha_before" "the game file after --empty for another phase"
# --empty is the referee's word that it goes empty
expect_exit 0 ord resolve "$G" --phase fire --empty
expect_in "$OUT" "turn 1, phase fire: 0 events, 0 rolls"
# fire-morale and the melee phases: no order waits for an event of them
expect_exit 0 ord resolve "$G"
expect_in "$OUT" "phase fire-morale"
expect_exit 0 ord resolve "$G"
expect_in "$OUT" "phase melee:"
expect_exit 0 ord resolve "$G"
expect_in "$OUT" "every phase of turn 1 is resolved"
expect_exit 0 ord exchange "$G"
expect_exit 0 ord audit "$G"

# a phase with an event is not refused, though other orders of it wait
G2=qb2.game
expect_exit 0 ord new "$G2" --scenario "$BD/scenario.xml"
expect_exit 0 ord submit "$G2" --side french "$BD/demo/turn1-french.txt"
expect_exit 0 ord submit "$G2" --side allied "$BD/demo/turn1-allied.txt"
expect_exit 0 ord seal "$G2"
# movement empty, F1..F9 ordered to move: refused, then said empty
# (--empty, without --phase)
expect_exit 65 ord resolve "$G2"
expect_in "$ERR" "phase movement has no events, but 7 units wait for one in it, by their sealed orders or the rules (unit F1: move, unit F2: move, unit F3: move, and 4 more)"
expect_exit 0 ord resolve "$G2" --empty
expect_in "$OUT" "turn 1, phase movement: 0 events, 0 rolls"
# --empty given for a phase that has an event changes nothing: it is resolved
expect_exit 0 ord event "$G2" fire unit=A5 target=F1 range=11
expect_exit 0 ord resolve "$G2" --empty
expect_in "$OUT" "turn 1, phase fire: 1 event"

# ---------------------------------------------------------------- krigsspil
K=ks.game
expect_exit 0 ord new "$K" --scenario "$KD/scenario.xml" --tables "$KD/map.xml"
expect_exit 0 ord submit "$K" --side danske "$KD/demo/turn1-danske.txt"
expect_exit 0 ord submit "$K" --side allierede "$KD/demo/turn1-allierede.txt"
expect_exit 0 ord seal "$K"
# no order waits for a reorganisation or a declared attack: both go empty
expect_exit 0 ord resolve "$K"
expect_in "$OUT" "phase reorganisering: 0 events"
expect_exit 0 ord resolve "$K"
expect_in "$OUT" "phase angrebserklaering: 0 events"
# the peaceful moves: refused empty, the moves ordered named
sha_before=$(sha "$K")
expect_exit 65 ord resolve "$K"
expect_in "$ERR" "phase fredelige-flytninger has no events, but "
expect_in "$ERR" "(unit D3: flyt"
expect_eq "$(sha "$K")" "$sha_before" "the Krigsspil game file after the refusal"
expect_exit 0 ord event "$K" flyt unit=D3 x=90 y=68
expect_exit 0 ord resolve "$K"
expect_in "$OUT" "phase fredelige-flytninger: 1 event"
# again by mistake: the fire ordered is not skipped
info_before=$(ord info "$K")
sha_before=$(sha "$K")
expect_exit 65 ord resolve "$K"
expect_line "$ERR" "^orderly: phase skydninger has no events, but 5 units wait for one in it, by their sealed orders or the rules \\(unit D3: skyd, unit A1: artilleri, unit A3: artilleri, and 2 more\\); record them with \`orderly event\`, or add --empty to resolve it empty: \`orderly resolve $K --phase skydninger --empty\`$"
expect_eq "$(sha "$K")" "$sha_before" "the Krigsspil game file after the second refusal"
expect_eq "$(ord info "$K")" "$info_before" "the Krigsspil info after the refusal"
# --phase names another phase: refused as before, not resolved empty
expect_exit 65 ord resolve "$K" --phase angrebshandlinger
expect_in "$ERR" "the current phase of turn 1 is 'skydninger', not 'angrebshandlinger'"
expect_exit 65 ord resolve "$K" --phase skydninger
expect_in "$ERR" "or add --empty to resolve it empty: \`orderly resolve $K --phase skydninger --empty\`"
expect_eq "$(sha "$K")" "$sha_before" "the Krigsspil game file after the refusal with --phase"
expect_exit 0 ord resolve "$K" --phase skydninger --empty
expect_in "$OUT" "phase skydninger: 0 events, 0 rolls"
expect_exit 0 ord resolve "$K" --phase angrebshandlinger --empty
expect_exit 0 ord exchange "$K"
# the replay holds the phases resolved empty: nothing of the
# refusals is logged
expect_exit 0 ord audit "$K"
expect_in "$OUT" "clean"

# ------------------------------------------- what the rules owe (battalion)
# A unit the rules move back, and a melee that goes on, hold an empty
# phase as an order does, though the units have no order on their sheets
# (the referee's list names both): a resolve typed twice skipped them.
cat >owed.xml <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<scenario ruleset="battalion">
  <title>Owed</title>
  <side id="blue" name="Blue"/>
  <side id="red" name="Red"/>
  <unit id="B1" name="1st Foot" side="blue" kind="line_infantry" formation="line" figures="24"/>
  <unit id="B2" name="2nd Foot" side="blue" kind="line_infantry" formation="line" figures="24"/>
  <unit id="R1" name="1er Ligne" side="red" kind="line_infantry" formation="column" figures="24"/>
  <unit id="R2" name="2e Ligne" side="red" kind="line_infantry" formation="line" figures="24"/>
</scenario>
XML
printf 'B1 @R1\n' >owed-blue1.txt
printf 'R1 \xe2\x86\x91 1/2\nR2 \xe2\x86\x91 1/2\n' >owed-red1.txt
printf '# hold\n' >owed-none.txt
O=owed.game
expect_exit 0 ord new "$O" --scenario owed.xml --fixed-dice
expect_exit 0 ord submit "$O" --side blue owed-blue1.txt
expect_exit 0 ord submit "$O" --side red owed-red1.txt
expect_exit 0 ord seal "$O"
expect_exit 0 ord event "$O" move unit=R1 distance=4
expect_exit 0 ord event "$O" move unit=R2 distance=3 contact=B2
expect_exit 0 ord resolve "$O"
# R1: 24 x 50% = 12 +6 column -3 moved = 15 figures: d6 1 routs it
expect_exit 0 ord event "$O" fire unit=B1 target=R1 range=3
expect_exit 0 ord resolve "$O"
expect_exit 0 ord resolve "$O" --dice 1
expect_in "$OUT" "R1: fire morale: d6 1"
expect_in "$OUT" ": rout"
# R2 72 x (d6 2 +1 in motion), B2 72 x d6 3: a tie, the melee goes on
expect_exit 0 ord event "$O" melee a=R2 b=B2
expect_exit 0 ord resolve "$O" --dice 2,3
expect_in "$OUT" "a tie, no winner"
expect_exit 0 ord resolve "$O" --phase melee-morale --empty
expect_in "$OUT" "continues next turn"
expect_exit 0 ord exchange "$O"
# turn 2: no unit has an order; R1 owes its move back, R2 and B2 their melee
expect_exit 0 ord submit "$O" --side blue owed-none.txt
expect_exit 0 ord submit "$O" --side red owed-none.txt
expect_exit 0 ord seal "$O"
sha_before=$(sha "$O")
expect_exit 65 ord resolve "$O"
expect_line "$ERR" "^orderly: phase movement has no events, but 1 unit waits for one in it, by its sealed order or the rules \\(unit R1: move\\); record them with \`orderly event\`, or add --empty to resolve it empty: \`orderly resolve $O --phase movement --empty\`$"
expect_eq "$(sha "$O")" "$sha_before" "the game file after the refusal of the move owed"
expect_exit 0 ord event "$O" move unit=R1 distance=6
expect_exit 0 ord resolve "$O"
expect_exit 0 ord resolve "$O" --phase fire --empty
expect_exit 0 ord resolve "$O"
expect_in "$OUT" "phase fire-morale"
sha_before=$(sha "$O")
expect_exit 65 ord resolve "$O"
expect_in "$ERR" "phase melee has no events, but 1 unit waits for one in it, by its sealed order or the rules (unit "
expect_in "$ERR" ": melee); record them with"
expect_eq "$(sha "$O")" "$sha_before" "the game file after the refusal of the melee owed"
# said empty, it goes empty: the melee ends, as the referee means
expect_exit 0 ord resolve "$O" --phase melee --empty
expect_in "$OUT" "has ended (no melee recorded this turn)"
expect_exit 0 ord resolve "$O" --phase melee-morale --empty
expect_exit 0 ord exchange "$O"
expect_exit 0 ord audit "$O"
expect_in "$OUT" "clean"

# ------------------------------------------- what the rules owe (Krigsspil)
# A unit driven into U by the fire owes its half turn's retreat in the
# attacks (6.5, K27: retraete), though its sheet orders nothing: an empty
# angrebshandlinger is refused as for an order, not ended with the unit
# standing where it broke.
cat >ks-owed.xml <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<scenario ruleset="krigsspil">
  <title>Retræte skyldes</title>
  <side id="danske" name="Danske"/>
  <side id="allierede" name="Allierede"/>
  <unit id="D2" name="Oldenborgske 2/" side="danske" art="infanteri" nation="dansk" figurer="20" formation="linie" x="100" y="0"/>
  <unit id="L2" name="Legion 2/" side="allierede" art="infanteri" nation="tysk" figurer="18" formation="linie" x="100" y="30"/>
</scenario>
XML
printf 'D2 S @L2 1\n' >ks-owed-danske.txt
printf '# ingen ordrer\n' >ks-owed-allierede.txt
KO=ks-owed.game
expect_exit 0 ord new "$KO" --scenario ks-owed.xml --fixed-dice
expect_exit 0 ord submit "$KO" --side danske ks-owed-danske.txt
expect_exit 0 ord submit "$KO" --side allierede ks-owed-allierede.txt
expect_exit 0 ord seal "$KO"
expect_exit 0 ord resolve "$KO"
expect_exit 0 ord resolve "$KO"
expect_exit 0 ord resolve "$KO"
expect_exit 0 ord event "$KO" skyd unit=D2 maal=L2 zone=I
expect_exit 0 ord resolve "$KO" --dice 4,4,4
expect_in "$OUT" "L2: beskudt af D2: 60 mand tabt, 16 figurer tilbage; moral OR → U (uorden); skal retirere et halvt træk"
# no event, and L2 has no order: its retreat owed holds the phase
sha_before=$(sha "$KO")
expect_exit 65 ord resolve "$KO"
expect_line "$ERR" "^orderly: phase angrebshandlinger has no events, but 1 unit waits for one in it, by its sealed order or the rules \\(unit L2: retraete\\); record them with \`orderly event\`, or add --empty to resolve it empty: \`orderly resolve $KO --phase angrebshandlinger --empty\`$"
expect_eq "$OUT" "" "a refused resolve prints no results"
expect_eq "$(sha "$KO")" "$sha_before" "the game file after the refusal of the retreat owed"
# recorded, the phase resolves and carries it out
expect_exit 0 ord event "$KO" retraete unit=L2 x=100 y=40
expect_exit 0 ord resolve "$KO"
expect_in "$OUT" "L2: retirerer et halvt træk (6.5): 10 cm til x=100 y=40"
expect_exit 0 ord exchange "$KO"
expect_exit 0 ord audit "$KO"
expect_in "$OUT" "clean"
