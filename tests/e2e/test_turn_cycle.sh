#!/usr/bin/env bash
# test_turn_cycle.sh - whole turns through the orderly binary: create, info,
# submit with receipts, resubmit (every version kept), rejected sheets,
# secrecy before the exchange, seal, the five battalion phases, exchange,
# audit; the NMR policies hold, repeat and wait; a deadline that has passed.
set -euo pipefail
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
need_sqlite3

cd "$TMP"
cp "$FIX"/*.txt .
PHASES=(movement fire fire-morale melee melee-morale)
CANARY='CANARY-7f3a'

# The single value a query on GAME returns.
count() {
	sql "$1" "$2"
}

# The stored sheet of SIDE, TURN, VERSION: COLUMN (lowercase hex for blobs).
sheet_col() {
	sql "$1" "SELECT lower(hex($5)) FROM sheet JOIN side ON side.id = sheet.side_id
		WHERE side.name = '$2' AND sheet.turn = $3 AND sheet.version = $4"
}

hexdump_file() {
	od -An -v -tx1 "$1" | tr -d ' \n'
}

resolve_all() {
	local g=$1 turn=$2 p
	for p in "${PHASES[@]}"; do
		expect_exit 0 ord resolve "$g" --phase "$p" --empty
		expect_in "$OUT" "turn $turn, phase $p: 0 events, 0 rolls"
	done
	expect_in "$OUT" "every phase of turn $turn is resolved"
}

# ---------------------------------------------------------------- one turn
G=game.orderly
expect_exit 0 ord new "$G" --scenario "$FIX/scenario.xml"
expect_eq "$OUT" "created $G: battalion, 2 sides, 6 units" "new"

expect_exit 0 ord info "$G"
expect_line "$OUT" '^turn: +1 \(open\)$'
expect_line "$OUT" '^deadline: +none$'
expect_line "$OUT" '^nmr: +hold$'
expect_line "$OUT" '^  blue +not submitted$'
expect_line "$OUT" '^  red +not submitted$'

# submit: from a file and from standard input; the receipt is the stored commitment
expect_exit 0 ord submit "$G" --side blue blue-1.txt
expect_line "$OUT" '^receipt: turn 1 side blue version 1$'
expect_line "$OUT" '^commitment: [0-9a-f]{64}$'
blue_v1=$(sed -n 's/^commitment: //p' <<<"$OUT")
expect_eq "$blue_v1" "$(sheet_col "$G" blue 1 1 commitment)" "receipt of blue v1 vs stored commitment"
expect_eq "$(sheet_col "$G" blue 1 1 bytes)" "$(hexdump_file blue-1.txt)" "stored bytes of blue v1"

expect_exit 0 ord submit "$G" --side red - <red-1.txt
expect_line "$OUT" '^receipt: turn 1 side red version 1$'
expect_line "$OUT" '^commitment: [0-9a-f]{64}$'
red_v1=$(sed -n 's/^commitment: //p' <<<"$OUT")
expect_eq "$red_v1" "$(sheet_col "$G" red 1 1 commitment)" "receipt of red v1 vs stored commitment"
expect_eq "$(sheet_col "$G" red 1 1 bytes)" "$(hexdump_file red-1.txt)" "stored bytes of red v1 (stdin)"

expect_exit 0 ord info "$G"
expect_line "$OUT" '^  blue +submitted \(version 1\)$'
expect_line "$OUT" '^  red +submitted \(version 1\)$'
expect_not_in "$OUT" "$CANARY"
expect_not_in "$OUT" "B2: Fb @R1"

# rejected sheets: line:col messages, nothing stored, the game file as it was
sheets_before=$(sql "$G" "SELECT group_concat(id || ':' || version || ':' || hex(commitment)) FROM sheet")
sha_before=$(sha256sum <"$G")
expect_exit 65 ord submit "$G" --side red bad-code.txt
expect_line "$ERR" "^bad-code\\.txt:3:6: unit 'R2': unknown code 'FXy' \\(expected one of FLn FCol FSk FSq C Fb Fs Fg UL L\\)$"
expect_in "$ERR" "sheet rejected: 1 problem"
expect_exit 65 ord submit "$G" --side red - <bad-unit.txt
expect_line "$ERR" "^<stdin>:3:1: unknown unit 'Z9'"
expect_line "$ERR" "^<stdin>:4:1: unit 'B1' belongs to side blue, not red"
expect_in "$ERR" "sheet rejected: 2 problem"
expect_eq "$(sql "$G" "SELECT group_concat(id || ':' || version || ':' || hex(commitment)) FROM sheet")" \
	"$sheets_before" "sheet table after rejected sheets"
expect_eq "$(count "$G" "SELECT count(*) FROM sheet")" 2 "sheets after rejections"
expect_eq "$(sha256sum <"$G")" "$sha_before" "the game file after rejected sheets"
expect_exit 0 ord info "$G"
expect_line "$OUT" '^  red +submitted \(version 1\)$'

# resubmission: version 2 replaces version 1 in the reports; both are kept
expect_exit 0 ord submit "$G" --side blue blue-1b.txt
expect_line "$OUT" '^receipt: turn 1 side blue version 2$'
blue_v2=$(sed -n 's/^commitment: //p' <<<"$OUT")
[[ "$blue_v2" =~ ^[0-9a-f]{64}$ ]] || fail "bad commitment '$blue_v2'"
[[ "$blue_v2" != "$blue_v1" ]] || fail "version 2 has the commitment of version 1"
expect_eq "$blue_v2" "$(sheet_col "$G" blue 1 2 commitment)" "receipt of blue v2 vs stored commitment"
expect_eq "$(count "$G" "SELECT count(*) FROM sheet")" 3 "sheets after the resubmission"
expect_eq "$(sheet_col "$G" blue 1 1 bytes)" "$(hexdump_file blue-1.txt)" "blue v1 kept as received"
expect_eq "$(sheet_col "$G" blue 1 2 bytes)" "$(hexdump_file blue-1b.txt)" "blue v2 stored as received"
expect_exit 0 ord report "$G" --referee
expect_in "$OUT" "sheet of blue (version 2, submitted), commitment $blue_v2:"
expect_line "$OUT" '^  B1: ↗ 1/4$'
expect_line "$OUT" '^  B3: ↖ 1$'
expect_not_in "$OUT" "B2: Fb @R1"
expect_in "$OUT" "sheet of red (version 1, submitted), commitment $red_v1:"
expect_line "$OUT" '^  R1: ↑ 1/4 @B1$'
expect_exit 0 ord info "$G"
expect_line "$OUT" '^  blue +submitted \(version 2\)$'

# Secrecy: nothing red can read shows blue's sheet (its canary comment or its
# orders) before the exchange.  Positive controls: the canary is stored, and
# red's report does show red's own sheet.
expect_secret() {
	local stage=$1 all="" args secret
	local -a cmds=(
		"info"
		"info --xml"
		"report --side red"
		"report --side red --xml"
		"report --side red --turn 1"
		"report --side red --turn 1 --xml"
		"audit"
		"audit --turn 1"
	)
	[[ "$(count "$G" "SELECT count(*) FROM sheet WHERE instr(CAST(bytes AS TEXT), '$CANARY')")" -ge 1 ]] ||
		fail "$stage: the canary is not in the stored sheets (the check below would prove nothing)"
	for args in "${cmds[@]}"; do
		# shellcheck disable=SC2086 # split the command's words
		expect_exit 0 ord $args "$G"
		all+="$OUT$ERR"
		expect_not_in "$OUT$ERR" "$CANARY"
		for secret in "B1: ↗ 1/4" "B3: ↖ 1" "B1: ↑ 1/2" "B2: Fb @R1" "sheet of blue" '<sheet side="blue"'; do
			[[ "$OUT$ERR" != *"$secret"* ]] ||
				fail "$stage: 'orderly $args' shows blue's '$secret' to red before the exchange"
		done
	done
	expect_in "$all" "R1: ↑ 1/4 @B1"
	expect_in "$all" '<sheet side="red"'
	# blue sees its own sheet
	expect_exit 0 ord report "$G" --side blue
	expect_in "$OUT" "B3: ↖ 1"
	expect_not_in "$OUT" "R1: ↑ 1/4 @B1"
}
expect_secret "open turn"

# seal; then no more sheets
expect_exit 0 ord seal "$G"
expect_in "$OUT" "sealed $G"
expect_exit 0 ord info "$G"
expect_line "$OUT" '^turn: +1 \(sealed\)$'
expect_line "$OUT" '^phase: +movement \(0 of 5 resolved\)$'
expect_exit 65 ord submit "$G" --side blue blue-1.txt
expect_in "$ERR" "sealed"
expect_exit 65 ord submit "$G" --side red - <red-1.txt
expect_in "$ERR" "sealed"
expect_eq "$(count "$G" "SELECT count(*) FROM sheet")" 3 "sheets after submitting to a sealed turn"
expect_exit 65 ord seal "$G"
expect_in "$ERR" "already sealed"
expect_secret "sealed turn"

# the phases, in their order only; no exchange before the last
expect_exit 65 ord resolve "$G" --phase fire
expect_in "$ERR" "'movement'"
# a phase is named by its id or as the rules write it (case, spaces);
# a name that is no phase is a usage error naming the phases
expect_exit 65 ord resolve "$G" --phase "Fire Morale"
expect_eq "$ERR" "orderly: the current phase of turn 1 is 'movement', not 'fire-morale'" "a phase named as written"
expect_exit 64 ord resolve "$G" --phase nonsense
expect_eq "$ERR" "orderly: unknown phase 'nonsense' (expected one of movement, fire, fire-morale, melee, melee-morale)" "an unknown phase"
expect_exit 65 ord exchange "$G"
resolve_all "$G" 1
expect_exit 65 ord resolve "$G"
expect_exit 0 ord info "$G"
expect_line "$OUT" '^turn: +1 \(resolved\)$'
expect_secret "resolved turn"

# exchange: turn 2 opens, turn 1's sheets are visible to every side
expect_exit 0 ord exchange "$G"
expect_exit 0 ord info "$G"
expect_line "$OUT" '^turn: +2 \(open\)$'
expect_line "$OUT" '^  blue +not submitted$'
expect_line "$OUT" '^  red +not submitted$'
expect_exit 0 ord report "$G" --side red --turn 1
expect_in "$OUT" "sheet of blue (version 2, submitted), commitment $blue_v2:"
expect_line "$OUT" '^  B1: ↗ 1/4$'
expect_line "$OUT" '^  B3: ↖ 1$'
expect_line "$OUT" '^  R1: ↑ 1/4 @B1$'
expect_exit 0 ord report "$G" --side red --turn 1 --xml
expect_in "$OUT" "<sheet side=\"blue\" version=\"2\" source=\"submitted\" commitment=\"$blue_v2\">"
expect_in "$OUT" '<order line="3">B3: ↖ 1</order>'
# the current turn's report of red holds no sheet of blue
expect_exit 0 ord report "$G" --side red
expect_not_in "$OUT" "sheet of blue"

expect_exit 0 ord audit "$G"
expect_in "$OUT" "clean"
expect_exit 0 ord audit "$G" --turn 1
expect_in "$OUT" "clean"

# ---------------------------------------------------------------- NMR hold
H=hold.orderly
expect_exit 0 ord new "$H" --scenario "$FIX/scenario.xml"
expect_exit 0 ord submit "$H" --side red red-1.txt
expect_exit 65 ord seal "$H"
expect_in "$ERR" "waiting for blue"
expect_exit 0 ord info "$H"
expect_line "$OUT" '^turn: +1 \(open\)$'
expect_eq "$(count "$H" "SELECT count(*) FROM sheet")" 1 "sheets after a refused seal"
expect_exit 0 ord seal "$H" --force
expect_in "$OUT" "forced"
# the referee forced it (a game with no referee says the host: test_refereeless)
expect_line "$OUT" '^sealed hold\.orderly \(forced by the referee\)$'
expect_exit 0 ord info "$H"
expect_line "$OUT" '^turn: +1 \(sealed\)$'
expect_line "$OUT" "^  blue +no sheet: NMR policy 'hold' applied$"
expect_line "$OUT" '^  red +submitted \(version 1\)$'
expect_exit 0 ord report "$H" --referee
expect_in "$OUT" "sheet of blue (version 1, hold)"
expect_exit 0 ord report "$H" --side blue
expect_in "$OUT" "(no orders)"
resolve_all "$H" 1
expect_exit 0 ord exchange "$H"
expect_exit 0 ord audit "$H"
expect_in "$OUT" "clean"

# -------------------------------------------------------------- NMR repeat
P=repeat.orderly
expect_exit 0 ord new "$P" --scenario "$FIX/scenario-repeat.xml"
expect_exit 0 ord info "$P"
expect_line "$OUT" '^nmr: +repeat$'
# turn 1: red is missing and has no earlier sheet to repeat: it holds
expect_exit 0 ord submit "$P" --side blue blue-1b.txt
expect_exit 0 ord seal "$P" --force
expect_in "$OUT" "red holds: turn 1 has no turn before it to repeat"
expect_exit 0 ord info "$P"
expect_line "$OUT" "^  red +no sheet: NMR policy 'hold' applied$"
resolve_all "$P" 1
expect_exit 0 ord exchange "$P"
# turn 2: blue is missing and repeats its turn 1 sheet
expect_exit 0 ord submit "$P" --side red red-1.txt
expect_line "$OUT" '^receipt: turn 2 side red version 1$'
expect_exit 65 ord seal "$P"
expect_exit 0 ord seal "$P" --force
expect_not_in "$OUT" "holds"
expect_exit 0 ord info "$P"
expect_line "$OUT" "^  blue +no sheet: NMR policy 'repeat' applied$"
resolve_all "$P" 2
expect_exit 0 ord exchange "$P"
expect_exit 0 ord report "$P" --referee --turn 2
expect_in "$OUT" "sheet of blue (version 1, repeat)"
expect_line "$OUT" '^  B1: ↗ 1/4$'
expect_line "$OUT" '^  B3: ↖ 1$'
expect_eq "$(sheet_col "$P" blue 2 1 bytes)" "$(hexdump_file blue-1b.txt)" "repeated sheet's bytes"
expect_exit 0 ord report "$P" --side red --turn 2
expect_line "$OUT" '^  B3: ↖ 1$'
expect_exit 0 ord audit "$P"
expect_in "$OUT" "clean"

# a sheet no longer valid is not repeated: the side holds, and the seal
# says so with the first problem of that sheet
P=repeat-invalid.orderly
expect_exit 0 ord new "$P" --scenario "$FIX/scenario-repeat.xml"
printf 'B1 FSq\n' >blue-square.txt
expect_exit 0 ord submit "$P" --side blue blue-square.txt
expect_exit 0 ord submit "$P" --side red red-1.txt
expect_exit 0 ord seal "$P"
expect_exit 0 ord event "$P" form unit=B1 formation=square
for p in "${PHASES[@]}"; do expect_exit 0 ord resolve "$P" --phase "$p" --empty; done
expect_exit 0 ord exchange "$P"
expect_exit 0 ord submit "$P" --side red red-1.txt
expect_exit 0 ord seal "$P" --force
expect_in "$OUT" "no sheet from blue: the NMR policy stood in"
expect_in "$OUT" "blue holds: its sheet of turn 1 is not valid now: sheet line 1, col 4: unit 'B1' is already in square: FSq changes nothing"
# the line whole: the problem's rule after its message
grep -qxF -- "blue holds: its sheet of turn 1 is not valid now: sheet line 1, col 4: unit 'B1' is already in square: FSq changes nothing (a formation change costs the unit −1/4 of its fire this turn) (order codes)" <<<"$OUT" ||
	fail "the seal's line of blue's stand-in: $OUT"
expect_exit 0 ord info "$P"
expect_line "$OUT" "^  blue +no sheet: NMR policy 'hold' applied$"

# a sheet with an order no longer valid is repeated but for that order: its
# unit holds, the others carry out their orders again; the seal names the
# unit and why, the stand-in keeps the order as a comment, and the audit
# (which decides the stand-in again) is clean
P=repeat-part.orderly
expect_exit 0 ord new "$P" --scenario "$FIX/scenario-repeat.xml"
printf 'B1 FSq\nB3 ↖ 1\n' >blue-square-flank.txt
expect_exit 0 ord submit "$P" --side blue blue-square-flank.txt
expect_exit 0 ord submit "$P" --side red red-1.txt
expect_exit 0 ord seal "$P"
expect_exit 0 ord event "$P" form unit=B1 formation=square
for p in "${PHASES[@]}"; do expect_exit 0 ord resolve "$P" --phase "$p" --empty; done
expect_exit 0 ord exchange "$P"
expect_exit 0 ord submit "$P" --side red red-1.txt
expect_exit 0 ord seal "$P" --force
expect_line "$OUT" "^blue repeats its sheet of turn 1 but B1 holds: sheet line 1, col 4: unit 'B1' is already in square: FSq changes nothing"
grep -qxF -- "blue repeats its sheet of turn 1 but B1 holds: sheet line 1, col 4: unit 'B1' is already in square: FSq changes nothing (a formation change costs the unit −1/4 of its fire this turn) (order codes)" <<<"$OUT" ||
	fail "the seal's line of blue's repeat: $OUT"
expect_not_in "$OUT" "blue holds"
expect_exit 0 ord info "$P"
expect_line "$OUT" "^  blue +no sheet: NMR policy 'repeat' applied$"
expect_eq "$(sql "$P" "SELECT CAST(bytes AS TEXT) FROM sheet WHERE turn = 2 AND side_id = 1")" \
	"# held (not valid now): B1 FSq
B3 ↖ 1
# no orders received from blue for turn 2: NMR policy repeat, its sheet of turn 1 repeated but 1 order not valid now, whose unit holds" \
	"the stand-in repeating one order of two"
resolve_all "$P" 2
expect_exit 0 ord exchange "$P"
expect_exit 0 ord report "$P" --referee --turn 2
expect_in "$OUT" "sheet of blue (version 1, repeat)"
expect_line "$OUT" '^  B3: ↖ 1$'
expect_not_in "$OUT" "B1: FSq"
expect_exit 0 ord audit "$P"
expect_in "$OUT" "clean"

# ---------------------------------------------------------------- NMR wait
W=wait.orderly
expect_exit 0 ord new "$W" --scenario "$FIX/scenario-wait.xml"
expect_exit 0 ord submit "$W" --side red red-1.txt
expect_exit 65 ord seal "$W" --force
expect_in "$ERR" "'wait'"
expect_exit 65 ord seal "$W"
expect_exit 0 ord info "$W"
expect_line "$OUT" '^turn: +1 \(open\)$'
expect_line "$OUT" '^  blue +not submitted$'
expect_eq "$(count "$W" "SELECT count(*) FROM sheet")" 1 "sheets after a refused forced seal"
expect_exit 0 ord submit "$W" --side blue blue-1.txt
expect_exit 0 ord seal "$W"
expect_exit 0 ord info "$W"
expect_line "$OUT" '^turn: +1 \(sealed\)$'

# ---------------------------------------------------------------- deadline
D=deadline.orderly
expect_exit 0 ord new "$D" --scenario "$FIX/scenario.xml"
expect_exit 0 ord submit "$D" --side red red-1.txt
# a deadline to come changes nothing yet
expect_exit 0 ord deadline "$D" +48h
expect_line "$OUT" '^deadline: [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$'
expect_exit 65 ord seal "$D"
expect_in "$ERR" "waiting for blue"
# a deadline that has passed: no more sheets, and seal needs no --force
expect_exit 0 ord deadline "$D" 2020-01-01T00:00:00Z --past
expect_eq "$OUT" "deadline: 2020-01-01T00:00:00Z" "deadline"
expect_exit 0 ord info "$D"
expect_line "$OUT" '^deadline: +2020-01-01T00:00:00Z$'
expect_exit 65 ord submit "$D" --side blue blue-1.txt
expect_in "$ERR" "deadline"
expect_exit 65 ord submit "$D" --side red blue-1b.txt
expect_in "$ERR" "deadline"
expect_eq "$(count "$D" "SELECT count(*) FROM sheet")" 1 "sheets after the deadline"
expect_exit 0 ord seal "$D"
expect_exit 0 ord info "$D"
expect_line "$OUT" '^turn: +1 \(sealed\)$'
expect_line "$OUT" "^  blue +no sheet: NMR policy 'hold' applied$"
expect_exit 65 ord deadline "$D" none
expect_exit 0 ord audit "$D"

# a player with only the scenario checks his sheet before he sends it;
# the game made for it is gone afterwards
mkdir -p checktmp
TMPDIR=$PWD/checktmp run ord check "$FIX/red-1.txt" --scenario "$FIX/scenario.xml" --side red
[[ -z "$(ls -A checktmp)" ]] || fail "orderly check left files behind: $(ls -A checktmp)"
expect_eq "$RC" 0 "check of a good sheet"
expect_in "$OUT" "sheet checked: no problems; nothing was stored"
# orderly's reading is output: on stdout under its header, not as errors
expect_line "$OUT" "^orderly reads:$"
expect_line "$OUT" "^  R1: ↑ 1/4 @B1$"
expect_not_in "$ERR" "R1: ↑"
# without --side, the side is the one whose units the sheet names
# (DESIGN's `check SHEET --scenario FILE`); units of two sides need it
expect_exit 0 ord check "$FIX/red-1.txt" --scenario "$FIX/scenario.xml"
expect_line "$OUT" "^  side: red \(the side of the units it names\)$"
expect_line "$OUT" "^  R1: ↑ 1/4 @B1$"
cat "$FIX/red-1.txt" "$FIX/blue-1.txt" >two-sides.txt
expect_exit 64 ord check two-sides.txt --scenario "$FIX/scenario.xml"
expect_eq "$ERR" "orderly: the sheet names units of the sides red, blue: give --side SIDE" "a sheet of two sides' units"
# a sheet pasted from a PDF names its unit with é as e and U+0301: its side
# is found as the game finds the unit
cat >accents.xml <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<scenario ruleset="battalion">
  <title>Accents</title>
  <side id="blue" name="Blue"/>
  <side id="red" name="Red"/>
  <unit id="B5" name="2e Léger" side="blue" kind="light_infantry" formation="column" figures="24"/>
  <unit id="R3" name="Régiment Étranger" side="red" kind="line_infantry" formation="line" figures="24"/>
</scenario>
XML
printf '2e Le\xcc\x81ger: \xe2\x86\x91 1/2\n' >decomposed.txt
expect_exit 0 ord check decomposed.txt --scenario accents.xml
expect_line "$OUT" "^  side: blue \(the side of the units it names\)$"
# a line not understood is shown in its place, as a comment; the problems
# stay on stderr
printf 'R1 ↑ 1/4\nR2 → FXy\n' >garbled.txt
run ord check garbled.txt --scenario "$FIX/scenario.xml" --side red
expect_eq "$RC" 65 "check of a sheet with a syntax error"
expect_line "$OUT" "^  R1: ↑ 1/4$"
expect_line "$OUT" "^  # line 2 not understood \\(see its problems\\)$"
expect_line "$ERR" "^garbled.txt:2:6: unit 'R2': unknown code 'FXy'"
expect_not_in "$ERR" "orderly reads"
# an order read but refused by the rules (no unit R9) is a comment too,
# with the order: it showed as if accepted
printf 'R1 ↑ 1/4\nR9 ↑ 1/2\n' >refused.txt
run ord check refused.txt --scenario "$FIX/scenario.xml" --side red
expect_eq "$RC" 65 "check of a sheet with an unknown unit"
expect_line "$OUT" "^  R1: ↑ 1/4$"
expect_line "$OUT" "^  # line 2 not accepted \\(see its problems\\): R9: ↑ 1/2$"
run ord check "$FIX/bad-unit.txt" --scenario "$FIX/scenario.xml" --side red
expect_eq "$RC" 65 "check of a sheet with two problems"
expect_line "$ERR" "bad-unit.txt:3:1: unknown unit 'Z9'"
expect_line "$ERR" "bad-unit.txt:4:1: unit 'B1' belongs to side blue, not red"
expect_in "$ERR" "sheet checked: 2 problem(s); nothing was stored"
# a unit written a letter off is named: one round trip less
printf 'R1 ↑ 1/4\nR21 ↑ 1/4\n' >typo.txt
run ord check typo.txt --scenario "$FIX/scenario.xml" --side red
expect_line "$ERR" "typo.txt:2:1: unknown unit 'R21': did you mean 'R1' \\(1st Red Foot\\)\\?"
# and so is a unit of the game the side's sheet does not name right, which
# a submit's check does not load (it loads the side's units and the ones
# the sheet names): the hint looks at every unit of the game, on the
# error's path only; nothing is stored
expect_exit 0 ord new typo.orderly --scenario "$FIX/scenario.xml"
printf 'R1 ↑ 1/4 @B33\n' >typo-target.txt
expect_exit 65 ord submit typo.orderly --side red typo-target.txt
expect_in "$ERR" "unknown target unit 'B33': did you mean 'B3' (Blue Hussars)?"
expect_eq "$(sql typo.orderly "SELECT count(*) FROM sheet")" 0 "sheets after a refused one"
KS=$SRC/rulesets/krigsspil/examples
expect_exit 0 ord new typo-ks.orderly --scenario "$KS/scenario.xml" --tables "$KS/map.xml"
printf 'Slesvigske Jægerkorps: A @"Luetzow Jaeger"\n' >typo-ks.txt
expect_exit 65 ord submit typo-ks.orderly --side danske typo-ks.txt
expect_in "$ERR" "unknown unit 'Luetzow Jaeger' for 'A': did you mean 'L4' (Luetzow Jaegere)?"

# a sheet of the other rules: the game's notation refuses it a word at a
# time and looks no unit up, so the first problem says which notation the
# sheet is in and which the game expects, at the first refused line and
# column; nothing is stored, submit or check, with --side or without
BD=$SRC/rulesets/battalion/examples
expect_exit 0 ord new other.orderly --scenario "$BD/scenario.xml"
sha_before=$(sha other.orderly)
expect_exit 65 ord submit other.orderly --side french "$KS/demo/turn1-danske.txt"
first=$(grep -m1 . <<<"$ERR")
expect_eq "$first" "$KS/demo/turn1-danske.txt:2:30: the sheet is in the ordre notation of ruleset krigsspil (every line of it reads so), but the game's ruleset is battalion: expected its hieroglyph notation (the problems below say what each word should be); was the sheet meant for another game?" \
	"a Krigsspil sheet's first problem in a battalion game"
expect_line "$ERR" "turn1-danske.txt:2:30: unit 'Slesvigske Jægerkorps': unknown code 'M'"
expect_in "$ERR" "orderly: sheet rejected: 11 problem(s)"
expect_eq "$(sha other.orderly)" "$sha_before" "the battalion game after the other rules' sheet"
sha_before=$(sha typo-ks.orderly)
expect_exit 65 ord submit typo-ks.orderly --side danske "$BD/demo/turn1-french.txt"
expect_eq "$(grep -m1 . <<<"$ERR")" "$BD/demo/turn1-french.txt:2:5: the sheet is in the hieroglyph notation of ruleset battalion (every line of it reads so), but the game's ruleset is krigsspil: expected its ordre notation (the problems below say what each word should be); was the sheet meant for another game?" \
	"a battalion sheet's first problem in a Krigsspil game"
expect_eq "$(sha typo-ks.orderly)" "$sha_before" "the Krigsspil game after the other rules' sheet"
# orderly check without --side: no unit is found, and that is why
run ord check "$KS/demo/turn1-danske.txt" --scenario "$BD/scenario.xml"
expect_eq "$RC" 65 "check of a Krigsspil sheet against a battalion scenario"
expect_line "$ERR" "^.*turn1-danske.txt:2:30: the sheet is in the ordre notation of ruleset krigsspil "
expect_not_in "$ERR" "give --side"
# a sheet of the game's rules with a slip is told nothing of the kind
expect_exit 65 ord submit other.orderly --side french garbled.txt
expect_not_in "$ERR" "notation of ruleset"
# nor is a sheet that names no unit of the scenario, in neither notation
printf 'X9 Q\n' >neither.txt
expect_exit 64 ord check neither.txt --scenario "$BD/scenario.xml"
expect_eq "$ERR" "orderly: the sheet names no unit of the scenario: give --side SIDE" "a sheet of no notation and no unit"

note "ok"
