#!/usr/bin/env bash
# test_krigsspil.sh - whole Krigsspil games played through the orderly
# binary, one data file per case (tests/e2e/krigsspil/*.case), in the same
# case format as test_battalion_cases.sh (curl's tests/data, jq.test): a bug
# found in a real game becomes one more file, not more shell.
#
# usage: test_krigsspil.sh [CASE...]     (default: every krigsspil/*.case,
#                                        then the example demo)
# env:   ORDERLY  the binary (default: orderly on PATH)
#        SRC      the source root (default: two levels above this script)
#        KEEP=1   keep each case's directory (the game file) for a post-mortem
#
# THE CASE FORMAT
#
# A case is a sequence of sections.  A section starts with a line "[NAME ARGS]"
# and runs to the next such line; lines before the first section, and blank
# lines and lines starting with '#' in every section but a sheet (where '#'
# is the notation's own comment), are comments.  The
# sections run in order, in a fresh directory, against one game file created
# with --fixed-dice (so `resolve` takes the dice given).
#
# Commands (each may end its ARGS with exit=N: the command must exit with N
# instead of 0; the output of the last command is what [expect] checks):
#
#   [map]                 the body is the hex map (schema/krigsspil-map.rng);
#                         it becomes the game's rules document (--tables);
#                         must come before [scenario]
#   [scenario]            the body is the scenario XML; `orderly new`
#   [sheet SIDE]          the body is SIDE's ordreseddel; `orderly submit`
#   [seal]                `orderly seal`
#   [event]               each line "KIND key=value..." is one `orderly event`
#                         (words split on blanks; no quoting)
#   [override REASON...]  like [event], each line with --override "REASON..."
#   [resolve PHASE [DICE]] `orderly resolve GAME --phase PHASE [--dice DICE]`
#   [exchange]            `orderly exchange`
#   [calc]                each line "krigsspil WHAT key=value... [--dice N,N]
#                         [--xml]" is one `orderly calc`; outputs joined
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
# The dice of a phase, in the order the module asks for them
# (rulesets/krigsspil/README.md "Dice"): skydninger — 3d6 per skyd and
# artilleri event in event order (then, for a limber destroyed, 1d6 and 3d6
# per unit within 20 cm, two for the battery itself); angrebshandlinger —
# 3d6 per forsvarsild event,
# then per naerkamp event the attacker's 3d6, the defender's 3d6, 1d6 for
# each British cavalry unit not yet out of control, and 1d6 more when a
# British unit beat its enemy into U or FU.  The other phases roll nothing.
set -u

ORDERLY=${ORDERLY:-orderly}
SRC=${SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
CASES_DIR="$SRC/tests/e2e/krigsspil"

ncases=0
nfailed=0

case_name=
case_dir=
case_failed=0
last_out=
last_rc=0

fail() {
	local line=$1
	shift
	printf '#   %s:%s: %s\n' "$case_name" "$line" "$*"
	case_failed=1
}

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

expect() {
	local line=$1 out=$2 body=$3 l needle n=0
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

command_lines() {
	printf '%s\n' "$1" | grep -v -e '^[[:space:]]*$' -e '^[[:space:]]*#' || true
}

section() {
	local name=$1 args=$2 line=$3 body=$4 game="$case_dir/game" l f a
	local -a words opts
	split_exit "$args"
	case "$name" in
	map)
		printf '%s\n' "$body" | grep -v '^[[:space:]]*#' >"$case_dir/map.xml"
		;;
	scenario)
		printf '%s\n' "$body" | grep -v '^[[:space:]]*#' >"$case_dir/scenario.xml"
		opts=(--scenario "$case_dir/scenario.xml" --fixed-dice)
		[ -f "$case_dir/map.xml" ] && opts+=(--tables "$case_dir/map.xml")
		run "$line" "$sec_exit" "$ORDERLY" new "$game" "${opts[@]}"
		;;
	sheet)
		f="$case_dir/sheet-${sec_args[0]}-$line.txt"
		printf '%s\n' "$body" >"$f"
		run "$line" "$sec_exit" "$ORDERLY" submit "$game" --side "${sec_args[0]}" "$f"
		;;
	seal)
		run "$line" "$sec_exit" "$ORDERLY" seal "$game" "${sec_args[@]}"
		;;
	event | override)
		local all=
		while IFS= read -r l; do
			read -ra words <<<"$l"
			if [ "$name" = override ]; then
				run "$line" "$sec_exit" "$ORDERLY" event "$game" "${words[@]}" --override "$args" || return 1
			else
				run "$line" "$sec_exit" "$ORDERLY" event "$game" "${words[@]}" || return 1
			fi
			all+="$last_out"$'\n'
		done < <(command_lines "$body")
		last_out=$all
		;;
	resolve)
		if [ "${#sec_args[@]}" -ge 2 ]; then
			run "$line" "$sec_exit" "$ORDERLY" resolve "$game" --phase "${sec_args[0]}" --dice "${sec_args[1]}"
		else
			run "$line" "$sec_exit" "$ORDERLY" resolve "$game" --phase "${sec_args[0]}"
		fi
		;;
	exchange)
		run "$line" "$sec_exit" "$ORDERLY" exchange "$game"
		;;
	calc)
		local all=
		while IFS= read -r l; do
			read -ra words <<<"$l"
			run "$line" "$sec_exit" "$ORDERLY" calc "${words[@]}" || return 1
			all+="$last_out"$'\n'
		done < <(command_lines "$body")
		last_out=$all
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
			esac
		done
		run "$line" 0 "$ORDERLY" report "$game" "${opts[@]}" &&
			expect "$line" "$last_out" "$body"
		;;
	expect-audit)
		run "$line" "${sec_args[0]:-0}" "$ORDERLY" audit "$game" &&
			expect "$line" "$last_out" "$body"
		;;
	*)
		fail "$line" "unknown section [$name]"
		return 1
		;;
	esac
}

run_case() {
	local file=$1 lineno=0 l name= args= start=0 body= header
	case_name=$(basename "$file" .case)
	case_dir=$(mktemp -d "${TMPDIR:-/tmp}/orderly-ks.XXXXXX")
	case_failed=0
	last_out=
	ncases=$((ncases + 1))
	while IFS= read -r l || [ -n "$l" ]; do
		lineno=$((lineno + 1))
		if [[ "$l" =~ ^\[([a-z-]+)([[:space:]]+([^]]*))?\][[:space:]]*$ ]]; then
			header=("${BASH_REMATCH[1]}" "${BASH_REMATCH[3]}")
			if [ -n "$name" ]; then
				section "$name" "$args" "$start" "$body" || break
			fi
			name=${header[0]}
			args=${header[1]}
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
	if [ "$case_failed" = 0 ]; then
		echo "ok $ncases - $case_name"
	else
		echo "not ok $ncases - $case_name"
		nfailed=$((nfailed + 1))
	fi
	if [ "${KEEP:-0}" = 1 ]; then
		echo "# kept $case_dir"
	else
		rm -rf "$case_dir"
	fi
}

# The example demo (rulesets/krigsspil/examples/demo/play): two turns on the
# example map with real dice must play through and audit clean.
run_demo() {
	local dir bin out rc
	ncases=$((ncases + 1))
	dir=$(mktemp -d "${TMPDIR:-/tmp}/orderly-ks-demo.XXXXXX")
	bin=$(command -v "$ORDERLY" || echo "$ORDERLY")
	out=$(bash "$SRC/rulesets/krigsspil/examples/demo/play" "$bin" "$dir/demo.game" 2>&1)
	rc=$?
	if [ "$rc" = 0 ] && printf '%s\n' "$out" | grep -qF 'clean: no sheet' &&
		printf '%s\n' "$out" | grep -qF 'kort: Sehested 1813' &&
		printf '%s\n' "$out" | grep -qF 'results for your units:'; then
		echo "ok $ncases - demo"
	else
		echo "not ok $ncases - demo (exit $rc)"
		printf '%s\n' "$out" | sed 's/^/#     | /' | tail -40
		nfailed=$((nfailed + 1))
	fi
	rm -rf "$dir"
}

if [ "$#" -gt 0 ]; then
	files=("$@")
else
	files=("$CASES_DIR"/*.case)
fi
for f in "${files[@]}"; do
	[ -f "$f" ] || { echo "not ok - no case file '$f'"; nfailed=$((nfailed + 1)); continue; }
	run_case "$f"
done
[ "$#" -gt 0 ] || run_demo
echo "1..$ncases"
[ "$nfailed" = 0 ] || { echo "# $nfailed of $ncases case(s) failed"; exit 1; }
exit 0
