#!/usr/bin/env bash
# run_cases.sh - the one driver of the case files: whole games of every
# ruleset played through the orderly binary, one data file per case
# (tests/e2e/cases/<ruleset>/*.case), in the manner of curl's tests/data
# and jq's jq.test: a bug found in a real game becomes one more file, not
# more shell.  CTest runs it on each directory of tests/e2e/cases (so a new
# ruleset's directory is a new test), and with --must-fail on
# tests/e2e/cases-must-fail, cases broken on purpose, to show that a broken
# expectation makes a case fail.
#
# usage: run_cases.sh [--must-fail] CASE-OR-DIRECTORY...
#        (a directory: every *.case in it, in name order)
# env:   ORDERLY  the binary (default: orderly on PATH)
#        SRC      the source root (default: two levels above this script)
#        KEEP=1   keep each case's directory (the game file) for a post-mortem
# out:   TAP: "ok N - NAME" or "not ok N - NAME" with the failures under it;
#        exit 0 when every case passed (with --must-fail: when every case
#        failed, and as it says it must)
#
# THE CASE FORMAT
#
# A case is a sequence of sections.  A section starts with a line "[NAME ARGS]"
# and runs to the next such line.  Lines before the first section are
# comments, and so are blank lines and lines starting with '#' in every
# section but a sheet or an events file, where '#' is the notation's own
# comment.  The sections run in order, in a fresh directory, against one
# game file created with --fixed-dice (so `resolve` takes the dice given).
# A case must have at least one expectation ([expect...]).
#
# Commands (each may end its ARGS with exit=N: the command must exit with N
# instead of 0; the output, stdout and stderr, of the last command is what
# [expect] checks):
#
#   [map]                 the body is the game's rules document, e.g. a
#                         Krigsspil hex map (schema/krigsspil-map.rng); it is
#                         given to `orderly new` as --tables, so it must come
#                         before [scenario]
#   [tables-before FILE PARAM...]
#                         the rules of a game made before the switches
#                         PARAM...: FILE (from the source root, e.g.
#                         rulesets/krigsspil/skema.xml) with those
#                         parameters taken out is the game's rules
#                         document, or after a [map] the map's own Skema
#                         (put before its </map>); before [scenario]
#   [scenario]            the body is the scenario XML (its ruleset= names
#                         the ruleset); `orderly new GAME --scenario FILE
#                         --fixed-dice [--tables MAP]`
#   [sheet SIDE]          the body is SIDE's order sheet; `orderly submit`
#   [seal ARGS...]        `orderly seal GAME ARGS...` (e.g. --force)
#   [event]               each line "KIND key=value..." is one
#                         `orderly event GAME KIND key=value...` (words split
#                         on blanks; no quoting); outputs joined
#   [events]              the body is an event file for `orderly event GAME
#                         --file` (one invocation; "double quotes" allowed)
#   [override REASON...]  like [event], each line with --override "REASON..."
#                         (an exit=N at its end is no word of the reason)
#   [resolve PHASE [DICE]] `orderly resolve GAME --phase PHASE --empty
#                         [--dice DICE]`: a case names each phase it
#                         resolves, and one it records no event in goes
#                         empty as it says (--empty; --phase alone said so
#                         before red-team finding 9, and is now the guard
#                         only); DICE is N,N,... in the order the ruleset
#                         asks for them (below)
#   [exchange]            `orderly exchange GAME`
#   [info]                `orderly info GAME` (the referee's view of the turn)
#   [calc]                each line "RULESET WHAT key=value... [--dice N,N]
#                         [--xml]" is one `orderly calc`; outputs joined
#   [play SCRIPT]         `bash SCRIPT ORDERLY GAME` with SCRIPT relative to
#                         the source root: an example game's script, e.g.
#                         rulesets/krigsspil/examples/demo/play (real dice)
#
# Expectations (each body line is a fixed string, leading and trailing blanks
# trimmed, that must occur in the output; a line starting with '!' must not):
#
#   [expect]                               the last command's output
#   [expect-report SIDE [turn=N] [lang=L]] `orderly report GAME --side SIDE
#                                          [--turn N] [--lang L]`; SIDE
#                                          "referee" is --referee
#   [expect-audit N]                       `orderly audit GAME` must exit N
#
# A case of --must-fail names, in a comment line before its first section,
#   # fails with: TEXT
# a fixed string that the driver's report of its failure must contain, so
# that it fails for the reason it was written for.
#
# The dice of a phase, in the order each ruleset asks for them:
#   battalion: fire — one d6 per artillery event in range, in event order;
#     fire-morale — one die per unit that tests, in scenario order (d6, or
#     d20 for `test chart=d20`); melee — the d6 of a then of b, per melee
#     event; melee-morale — one d6 per unit that tests, in scenario order,
#     then for each pursuit the d6 of the cavalry and of the infantry.
#   krigsspil (rulesets/krigsspil/README.md "Dice"): skydninger — 3d6 per
#     skyd and artilleri event in event order (then, for a limber destroyed,
#     1d6 and 3d6 per unit within 20 cm, two for the battery itself);
#     angrebshandlinger — 3d6 per forsvarsild event, then per naerkamp event
#     the attacker's 3d6, the defender's 3d6, 1d6 for each British cavalry
#     unit not yet out of control, and 1d6 more when a British unit beat its
#     enemy into U or FU.  The other phases roll nothing.
# A phase given more or fewer dice than it asks for fails.
set -u

ORDERLY=${ORDERLY:-orderly}
SRC=${SRC:-$(cd "$(dirname "$0")/../.." && pwd)}

# ---- per-case state ----
case_name=
case_dir=
case_failed=0
case_expects=0
last_out=
last_rc=0

fail() {
	# fail LINE MESSAGE...: one failure of the current case
	local line=$1
	shift
	printf '#   %s:%s: %s\n' "$case_name" "$line" "$*"
	case_failed=1
}

# run LINE EXPECTED_RC CMD...: run a command, keep its output, check its status
run() {
	local line=$1 want=$2
	shift 2
	last_out=$("$@" 2>&1)
	last_rc=$?
	if [ "$last_rc" != "$want" ]; then
		fail "$line" "exit $last_rc, expected $want: ${*#"$ORDERLY "}"
		printf '%s\n' "$last_out" | sed 's/^/#     | /' | head -60
		return 1
	fi
	return 0
}

# chunked LINE CMD...: the command (an audit, a verify) gives what it just
# gave when the replay is handed a phase's rows one at a time
# (ORDERLY_ROWS_CHUNK=1), not 1,024: every row crosses a chunk's edge
chunked() {
	local line=$1 out rc
	shift
	out=$(ORDERLY_ROWS_CHUNK=1 "$ORDERLY" "$@" 2>&1)
	rc=$?
	if [ "$rc" != "$last_rc" ] || [ "$out" != "$last_out" ]; then
		fail "$line" "with ORDERLY_ROWS_CHUNK=1, exit $rc (not $last_rc) or another output: ${*}"
		diff <(printf '%s\n' "$last_out") <(printf '%s\n' "$out") | sed 's/^/#     | /' | head -20
		return 1
	fi
	return 0
}

# expect LINE OUTPUT BODY: every body line must (or with '!', must not) occur
expect() {
	local line=$1 out=$2 body=$3 l needle n=0
	case_expects=$((case_expects + 1))
	while IFS= read -r l; do
		n=$((n + 1))
		l="${l#"${l%%[![:space:]]*}"}"
		l="${l%"${l##*[![:space:]]}"}"
		case "$l" in
		'' | '#'*) continue ;;
		'!'*)
			needle=${l#!}
			if printf '%s\n' "$out" | grep -qF -- "$needle"; then
				fail "$((line + n))" "unexpected: $needle"
			fi
			;;
		*)
			if ! printf '%s\n' "$out" | grep -qF -- "$l"; then
				fail "$((line + n))" "missing: $l"
			fi
			;;
		esac
	done <<<"$body"
	if [ "$case_failed" = 1 ]; then
		printf '%s\n' "$out" | sed 's/^/#     | /' | head -120
		return 1
	fi
	return 0
}

# Split "ARGS exit=N" into $sec_args and $sec_exit.
split_exit() {
	local a
	sec_args=()
	sec_exit=0
	for a in $1; do
		case "$a" in
		exit=*) sec_exit=${a#exit=} ;;
		*) sec_args+=("$a") ;;
		esac
	done
}

# Body lines that are commands: not blank, not comments.
command_lines() {
	printf '%s\n' "$1" | grep -v -e '^[[:space:]]*$' -e '^[[:space:]]*#' || true
}

# each LINE NAME ARGS BODY: one orderly command per command line of BODY
# (NAME is `event` or `calc`), their outputs joined
each() {
	local line=$1 name=$2 args=$3 body=$4 game="$case_dir/game" l all=
	local -a words
	# (no =~ here: the caller's BASH_REMATCH is read after this returns)
	if [ "$name" = override ]; then
		case "$args" in
		*" exit="[0-9]*) args=${args% exit=*} ;;
		esac
	fi
	while IFS= read -r l; do
		read -ra words <<<"$l"
		case "$name" in
		calc) run "$line" "$sec_exit" "$ORDERLY" calc "${words[@]}" || return 1 ;;
		override)
			run "$line" "$sec_exit" "$ORDERLY" event "$game" "${words[@]}" --override "$args" ||
				return 1
			;;
		*) run "$line" "$sec_exit" "$ORDERLY" event "$game" "${words[@]}" || return 1 ;;
		esac
		all+="$last_out"$'\n'
	done < <(command_lines "$body")
	last_out=$all
}

# tables_before LINE: [tables-before FILE PARAM...] (its words in
# sec_args) into $case_dir/map.xml, the rules document `new` is given
tables_before() {
	local line=$1 f="$SRC/${sec_args[0]:-}" p
	local t="$case_dir/tables-before.xml"
	if [ ! -f "$f" ] || [ "${#sec_args[@]}" -lt 2 ]; then
		fail "$line" "[tables-before FILE PARAM...]: no file '${sec_args[0]:-}' in the source, or no parameter named"
		return 1
	fi
	cp "$f" "$t"
	for p in "${sec_args[@]:1}"; do
		if ! grep -q "<param name=\"$p\"" "$t"; then
			fail "$line" "'${sec_args[0]}' has no parameter '$p'"
			return 1
		fi
		# from the line its <param starts on through the one its /> ends on
		awk -v p="<param name=\"$p\"" '!skip && index($0, p) { skip = 1 }
			skip { if (index($0, "/>")) skip = 0; next }
			{ print }' "$t" >"$t.new" && mv "$t.new" "$t"
	done
	if [ -f "$case_dir/map.xml" ]; then
		{
			sed '/<\/map>/,$d' "$case_dir/map.xml"
			sed '1,/<tables/{/<tables/!d}' "$t"
			echo '</map>'
		} >"$t.map" && mv "$t.map" "$case_dir/map.xml"
	else
		mv "$t" "$case_dir/map.xml"
	fi
}

# section NAME ARGS LINE BODY: run one section; 1 stops the case
section() {
	local name=$1 args=$2 line=$3 body=$4 game="$case_dir/game" f a
	local -a opts
	split_exit "$args"
	case "$name" in
	map)
		printf '%s\n' "$body" | grep -v '^[[:space:]]*#' >"$case_dir/map.xml"
		;;
	tables-before)
		tables_before "$line" || return 1
		;;
	scenario)
		printf '%s\n' "$body" | grep -v '^[[:space:]]*#' >"$case_dir/scenario.xml"
		opts=(--scenario "$case_dir/scenario.xml" --fixed-dice)
		[ -f "$case_dir/map.xml" ] && opts+=(--tables "$case_dir/map.xml")
		run "$line" "$sec_exit" "$ORDERLY" new "$game" "${opts[@]}"
		;;
	sheet)
		f="$case_dir/sheet-${sec_args[0]:-}-$line.txt"
		printf '%s\n' "$body" >"$f"
		run "$line" "$sec_exit" "$ORDERLY" submit "$game" --side "${sec_args[0]:-}" "$f"
		;;
	seal)
		run "$line" "$sec_exit" "$ORDERLY" seal "$game" "${sec_args[@]}"
		;;
	event | override | calc)
		each "$line" "$name" "$args" "$body"
		;;
	events)
		f="$case_dir/events-$line.txt"
		printf '%s\n' "$body" >"$f"
		run "$line" "$sec_exit" "$ORDERLY" event "$game" --file "$f"
		;;
	resolve)
		opts=(--phase "${sec_args[0]:-}" --empty)
		[ "${#sec_args[@]}" -ge 2 ] && opts+=(--dice "${sec_args[1]}")
		run "$line" "$sec_exit" "$ORDERLY" resolve "$game" "${opts[@]}"
		;;
	exchange)
		run "$line" "$sec_exit" "$ORDERLY" exchange "$game"
		;;
	info)
		run "$line" "$sec_exit" "$ORDERLY" info "$game"
		;;
	play)
		run "$line" "$sec_exit" bash "$SRC/${sec_args[0]:-}" "$(command -v "$ORDERLY" || echo "$ORDERLY")" \
			"$case_dir/game"
		;;
	expect)
		expect "$line" "$last_out" "$body"
		;;
	expect-report)
		if [ "${sec_args[0]:-}" = referee ]; then
			opts=(--referee)
		else
			opts=(--side "${sec_args[0]:-}")
		fi
		for a in "${sec_args[@]:1}"; do
			case "$a" in
			turn=*) opts+=(--turn "${a#turn=}") ;;
			lang=*) opts+=(--lang "${a#lang=}") ;;
			*)
				fail "$line" "unknown argument '$a' of [expect-report] (expected turn=N or lang=L)"
				return 1
				;;
			esac
		done
		run "$line" 0 "$ORDERLY" report "$game" "${opts[@]}" &&
			expect "$line" "$last_out" "$body"
		;;
	expect-audit)
		run "$line" "${sec_args[0]:-0}" "$ORDERLY" audit "$game" &&
			expect "$line" "$last_out" "$body" &&
			chunked "$line" audit "$game"
		;;
	*)
		fail "$line" "unknown section [$name]"
		return 1
		;;
	esac
}

# run_case FILE: run one case, print its failures; 1 if it failed
run_case() {
	local file=$1 lineno=0 l name= args= start=0 body=
	case_name=${file#"$SRC/"}
	case_dir=$(mktemp -d "${TMPDIR:-/tmp}/orderly-case.XXXXXX")
	case_failed=0
	case_expects=0
	last_out=
	while IFS= read -r l || [ -n "$l" ]; do
		lineno=$((lineno + 1))
		if [[ "$l" =~ ^\[([a-z-]+)([[:space:]]+([^]]*))?\][[:space:]]*$ ]]; then
			if [ -n "$name" ]; then
				section "$name" "$args" "$start" "$body" || break
			fi
			name=${BASH_REMATCH[1]}
			args=${BASH_REMATCH[3]}
			start=$lineno
			body=
			continue
		fi
		[ -n "$name" ] || continue
		if [ -z "$body" ]; then
			body=$l
		else
			body+=$'\n'"$l"
		fi
	done <"$file"
	if [ "$case_failed" = 0 ] && [ -n "$name" ]; then
		section "$name" "$args" "$start" "$body"
	fi
	if [ "$case_failed" = 0 ] && [ "$case_expects" = 0 ]; then
		fail "$lineno" "the case checks nothing (expected an [expect], [expect-report] or [expect-audit])"
	fi
	if [ "${KEEP:-0}" = 1 ]; then
		echo "# kept $case_dir"
	else
		rm -rf "$case_dir"
	fi
	[ "$case_failed" = 0 ]
}

must_fail=0
if [ "${1:-}" = --must-fail ]; then
	must_fail=1
	shift
fi
[ "$#" -gt 0 ] || {
	echo "usage: run_cases.sh [--must-fail] CASE-OR-DIRECTORY..." >&2
	exit 64
}
files=()
for a in "$@"; do
	if [ -d "$a" ]; then
		files+=("$a"/*.case)
	else
		files+=("$a")
	fi
done

ncases=0
nfailed=0
for f in "${files[@]}"; do
	ncases=$((ncases + 1))
	if [ ! -f "$f" ]; then
		echo "not ok $ncases - no case file '$f'"
		nfailed=$((nfailed + 1))
		continue
	fi
	if [ "$must_fail" = 0 ]; then
		if run_case "$f"; then
			echo "ok $ncases - ${f#"$SRC/"}"
		else
			echo "not ok $ncases - ${f#"$SRC/"}"
			nfailed=$((nfailed + 1))
		fi
		continue
	fi
	# a case broken on purpose must fail, and for its own reason
	want=$(sed -n 's/^# fails with: //p;/^\[/q' "$f" | head -1)
	report=$(run_case "$f")
	rc=$?
	if [ -z "$want" ]; then
		echo "not ok $ncases - ${f#"$SRC/"}: no '# fails with: TEXT' line before its first section"
		nfailed=$((nfailed + 1))
	elif [ "$rc" = 0 ]; then
		echo "not ok $ncases - ${f#"$SRC/"} passed, but it is broken on purpose: the driver missed '$want'"
		nfailed=$((nfailed + 1))
	elif ! printf '%s\n' "$report" | grep -qF -- "$want"; then
		echo "not ok $ncases - ${f#"$SRC/"} failed, but not with '$want':"
		printf '%s\n' "$report"
		nfailed=$((nfailed + 1))
	else
		echo "ok $ncases - ${f#"$SRC/"} fails as it must ($want)"
	fi
done
echo "1..$ncases"
[ "$nfailed" = 0 ] || {
	echo "# $nfailed of $ncases case(s) failed"
	exit 1
}
exit 0
