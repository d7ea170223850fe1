#!/usr/bin/env bash
# test_template.sh - the template ruleset (rulesets/template/) as the
# external module it is: ord_ruleset_template.so, found through
# ORDERLY_RULESET_PATH and linking nothing of orderly, plays a whole turn
# (sheets, seal, events, resolve, reports, exchange, a clean audit), with
# fixed dice for the exact results and with real dice for the audit's
# recomputation; its calculator and tables answer; its checks refuse what
# the sheets did not order.  A module of an interface older than any this
# orderly accepts is refused (ORD_EVERSION, exit 65), and without the path
# the template is not found: it is not built in.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

MODULES=$BUILD/modules
[[ -f "$MODULES/ord_ruleset_template.so" ]] || fail "no $MODULES/ord_ruleset_template.so (build the target ord_ruleset_template)"
SCEN=$SRC/rulesets/template/scenario.xml
cd "$TMP"
printf '# blue: the foot advances, the horse attacks R1\nB1 ↑\nB2 @R1\n' >blue.txt
printf 'R1 ↑ @B2\n' >red.txt

# ---- not built in: only found through the path
unset ORDERLY_RULESET_PATH
expect_exit 64 ord calc template hit kind=foot
expect_in "$ERR" "unknown ruleset 'template'"
export ORDERLY_RULESET_PATH=/nonexistent:$MODULES

# ---- the calculator and the tables
expect_exit 0 ord calc template hit kind=horse target_moved=yes --dice 4
expect_eq "$OUT" "losses 1 (d6 4, +1 horse attacks, −1 target moved = 4: 1 loss)" "calc"
expect_exit 0 ord calc template hit kind=foot --xml
expect_line "$OUT" '^  <die name="hit" sides="6" rolled="yes">[1-6]</die>$'
expect_in "$OUT" '<calc ruleset="template" what="hit">'
expect_exit 0 ord calc template hit kind=foot
expect_line "$OUT" '^dice rolled: hit d6 = [1-6]$'
expect_exit 64 ord calc template hit kind=camel
expect_in "$ERR" "kind: unknown 'camel' (expected one of foot horse)"
expect_exit 64 ord calc template hit kind=foot --dice 1,2
expect_in "$ERR" "dice: 2 given, hit uses 1"
expect_exit 0 ord rules template
expect_in "$OUT" "hit_modifiers — Adjustments to the hit die"
expect_in "$OUT" "hits — Losses from the adjusted die [d6]"
expect_exit 0 ord rules template kinds
expect_line "$OUT" '^  horse +12 +horse$'

# a club's own tables: horse attacks at +2
sed 's/value="1" label="horse attacks"/value="2" label="horse attacks"/' \
	"$SRC/rulesets/template/tables.xml" >club.xml
expect_exit 0 ord calc template hit kind=horse --dice 4 --tables club.xml
expect_eq "$OUT" "losses 2 (d6 4, +2 horse attacks = 6: 2 losses)" "calc with a club's tables"

# ---- a whole turn with fixed dice
G=fixed.orderly
expect_exit 0 ord new "$G" --scenario "$SCEN" --fixed-dice
expect_eq "$OUT" "created $G: template, 2 sides, 4 units" "new"
# the module's own tables are copied into the game, as a built-in module's
# are: its replay never depends on a later version of the module
[[ "$(sqlite3 "$G" "SELECT CAST(tables AS TEXT) FROM game")" == "$(cat "$SRC/rulesets/template/tables.xml")" ]] ||
	fail "the template's tables are not in the game file"
expect_exit 0 ord submit "$G" --side blue blue.txt
expect_exit 0 ord submit "$G" --side red red.txt
expect_exit 0 ord seal "$G"
expect_exit 0 ord event "$G" move unit=B1 distance=5
# the module's checks: a foot moves at most 6", a hit must be ordered
expect_exit 65 ord event "$G" move unit=R1 distance=8
expect_in "$ERR" "unit 'R1' moved 8\" but a foot moves at most 6\" (kinds)"
expect_exit 0 ord event "$G" move unit=R1 distance=4
expect_exit 0 ord resolve "$G"
expect_in "$OUT" '  B1: moved 5"'
expect_in "$OUT" "next phase: combat"
expect_exit 65 ord event "$G" hit unit=B1 target=R2
expect_in "$ERR" "unit 'B1' hit 'R2' but its sheet names no target (orders)"
expect_exit 0 ord event "$G" hit unit=B2 target=R1
expect_exit 0 ord event "$G" hit unit=R1 target=B2
# too few, too many or impossible dice are refused, naming the roll
expect_exit 64 ord resolve "$G" --dice 4
expect_in "$ERR" "this fixed-dice game needs more dice: roll 2 of phase 'combat' is a d6 ("
expect_in "$ERR" ", event #"
expect_in "$ERR" "), and 1 was given (--dice gives one face per roll, in the order the phase rolls)"
expect_exit 64 ord resolve "$G" --dice 4,6,1
expect_in "$ERR" "3 dice given but phase 'combat' rolls 2: --dice gives one face per roll"
expect_exit 64 ord resolve "$G" --dice 4,7
expect_in "$ERR" "fixed die 7 cannot be roll 2 of phase 'combat', a d6 ("
expect_exit 0 ord resolve "$G" --dice 4,6

expect_in "$OUT" "  R1: hit by B2: d6 4, +1 horse attacks, −1 target moved = 4: 1 loss, strength 9 left"
expect_in "$OUT" "  B2: hit by R1: d6 6: 2 losses, strength 4 left"
expect_in "$OUT" "every phase of turn 1 is resolved"
# fog of war: blue sees its own strength, not red's
expect_exit 0 ord report "$G" --side blue
expect_in "$OUT" "B2 Blue Horse (blue, horse): strength 4"
expect_in "$OUT" "R1 Red Foot (red, foot), moved this turn"
expect_not_in "$OUT" "R1 Red Foot (red, foot): strength"
# ... but it sees what its own unit's hit did (issue 16, item 9), and not
# red's results of red's own actions
expect_in "$OUT" "R1: hit by B2: d6 4"
expect_not_in "$OUT" "R1: moved"
expect_exit 0 ord exchange "$G"
expect_exit 0 ord audit "$G"
expect_in "$OUT" "clean:"

# ---- a whole turn with real dice: the audit recomputes every roll
G=real.orderly
expect_exit 0 ord new "$G" --scenario "$SCEN"
expect_exit 0 ord submit "$G" --side blue blue.txt
expect_exit 0 ord submit "$G" --side red red.txt
expect_exit 0 ord seal "$G"
expect_exit 0 ord event "$G" move unit=B1 distance=6
expect_exit 0 ord event "$G" move unit=R1 distance=2
expect_exit 0 ord resolve "$G"
expect_exit 0 ord event "$G" hit unit=B2 target=R1
expect_exit 0 ord event "$G" hit unit=R1 target=B2
expect_exit 0 ord resolve "$G"
expect_line "$OUT" '^  R1: hit by B2: d6 [1-6], .*strength [0-9]+ left$'
expect_exit 0 ord exchange "$G"
expect_exit 0 ord audit "$G"
expect_line "$OUT" '^    ok: dice: 2 rolls recomputed from the seed and the sealed commitments'
expect_in "$OUT" 'ok: replay: 2 phases replayed through ruleset template'
expect_in "$OUT" "clean:"
# the state the module keeps is checked against what it declares
expect_exit 0 ord report "$G" --referee
expect_line "$OUT" '^  B2 Blue Horse \(blue, horse\): strength [0-9]+$'

# ---- a module built against an interface too old is refused
export ORDERLY_RULESET_PATH=$BUILD/tests/modules-old
[[ -f "$ORDERLY_RULESET_PATH/ord_ruleset_old.so" ]] || fail "no ord_ruleset_old.so in $ORDERLY_RULESET_PATH"
expect_exit 65 ord calc old anything
expect_in "$ERR" "has interface version 0, older than 1, the oldest this orderly accepts"
expect_exit 65 ord rules old
expect_in "$ERR" "interface version 0"

note "ok"
