#!/usr/bin/env bash
# test_plugins.sh - the parts of orderly on libraries most commands never
# use are shared objects the binary loads when a command first needs one
# (src/cli/plugins.c): orderly-png.so (librsvg, cairo), orderly-mime.so
# (GMime, GPGME), orderly-web.so (libmicrohttpd).  The binary links none of
# their libraries; a turn played (new, submit, seal, event, resolve, report,
# exchange, audit) loads none of them; a PNG loads the pictures' part alone,
# a mail command the mail's; a copy of the binary without its parts says
# which part it lacks (exit 69) and leaves the game file as it was, and
# one beside a part of another build refuses it.
set -euo pipefail
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"

command -v readelf >/dev/null || fail "readelf is not installed (binutils: scripts/deps)"
HEAVY='librsvg|libcairo|libgmime|libgpgme|libmicrohttpd|libgnutls|libglib|libgobject|libpango'

# the binary names none of their libraries
needed=$(LC_ALL=C readelf -d "$ORDERLY" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
[[ -n "$needed" ]] || fail "readelf lists no library the binary needs"
if grep -E "^($HEAVY)" <<<"$needed"; then
	fail "the binary links the libraries above"
fi

# loaded CMD...: the shared objects the loader opened for the command, one
# a line, by the name it opened (LD_DEBUG=files)
loaded() {
	LD_DEBUG=files "$@" 2>&1 >/dev/null | sed -n 's/^ *[0-9]*:[[:space:]]*file=\([^ ]*\) \[0\];  \(needed\|dynamically loaded\) by .*/\1/p' | sort -u
}

# `orderly version` says where each part is, and loads none
BIN_DIR=$(cd "$(dirname "$ORDERLY")" && pwd -P)
run ord version
expect_eq "$RC" 0 "orderly version"
for part in orderly-png.so orderly-mime.so orderly-web.so; do
	expect_in "$OUT" "part $part: $BIN_DIR/$part"
done
objs=$(loaded "$ORDERLY" version)
if grep -E "orderly-(png|mime|web)\\.so" <<<"$objs"; then
	fail "orderly version loaded the parts above"
fi

S=$SRC/rulesets/battalion/examples
D=$S/demo
G=$TMP/b.game
# each command of a turn, as a list of its words; none loads a heavy library
turn=(
	"new $G --scenario $S/scenario.xml"
	"submit $G --side french $D/turn1-french.txt"
	"submit $G --side allied $D/turn1-allied.txt"
	"seal $G"
	"resolve $G --phase movement --empty"
	"report $G --side french"
	"audit $G"
)
for c in "${turn[@]}"; do
	read -r -a words <<<"$c"
	objs=$(loaded "$ORDERLY" "${words[@]}")
	grep -q '^libsqlite3' <<<"$objs" || fail "LD_DEBUG lists no libsqlite3 for '$c': $objs"
	if grep -E "^($HEAVY)|orderly-(png|mime|web)\\.so" <<<"$objs"; then
		fail "'orderly $c' loaded the objects above"
	fi
done
expect_exit 0 ord audit "$G"

# a PNG loads the pictures' part, and no other
objs=$(loaded "$ORDERLY" chart "$G" --referee -o "$TMP/c.png")
[[ "$(head -c 4 "$TMP/c.png" | od -An -tx1 | tr -d ' \n')" == 89504e47 ]] || fail "no PNG was made"
grep -q '/orderly-png\.so$' <<<"$objs" || fail "the chart as PNG loaded no orderly-png.so: $objs"
grep -q '^librsvg' <<<"$objs" || fail "the chart as PNG loaded no librsvg: $objs"
if grep -E "orderly-(mime|web)\\.so|^libgmime|^libmicrohttpd" <<<"$objs"; then
	fail "the chart loaded the objects above"
fi
# as SVG, nothing
objs=$(loaded "$ORDERLY" chart "$G" --referee -o "$TMP/c.svg")
if grep -E "orderly-(png|mime|web)\\.so|^librsvg" <<<"$objs"; then
	fail "the chart as SVG loaded the objects above"
fi

# a mail command loads the mail's part (a deadline's notices are mails)
G2=$TMP/open.game
expect_exit 0 ord new "$G2" --scenario "$S/scenario.xml"
objs=$(loaded "$ORDERLY" deadline "$G2" "+3d")
grep -q '/orderly-mime\.so$' <<<"$objs" || fail "deadline loaded no orderly-mime.so: $objs"
grep -q '^libgmime' <<<"$objs" || fail "deadline loaded no GMime: $objs"
if grep -E "orderly-(png|web)\\.so|^librsvg|^libmicrohttpd" <<<"$objs"; then
	fail "deadline loaded the objects above"
fi

# a copy of the binary without its parts: the command that needs one says
# which and where it looked, exit 69, the game file unchanged; the others
# work.  (Skipped when an installed orderly's parts are where the copy
# looks last.)
mkdir "$TMP/alone"
cp "$ORDERLY" "$TMP/alone/orderly"
run "$TMP/alone/orderly" chart "$G" --referee -o "$TMP/alone/c.png"
last=$(sed -n "s/^orderly: the pictures' part (\(.*\)) cannot be loaded: .*/\1/p" <<<"$ERR")
if [[ -n "$last" && -e "$last" ]]; then
	note "skipped the copy alone: $last is installed"
else
	expect_eq "$RC" 69 "a PNG by a copy of the binary without its parts"
	expect_in "$ERR" "orderly: the pictures' part ("
	expect_in "$ERR" "/orderly-png.so) cannot be loaded: "
	[[ ! -e "$TMP/alone/c.png" ]] || fail "a PNG file was written"
	before=$(sha256sum <"$G2")
	run "$TMP/alone/orderly" deadline "$G2" "+5d"
	expect_eq "$RC" 69 "deadline by a copy of the binary without its parts"
	expect_in "$ERR" "orderly: the mail's part ("
	expect_eq "$(sha256sum <"$G2")" "$before" "the game file after the refused deadline"
	run "$TMP/alone/orderly" audit "$G"
	expect_eq "$RC" 0 "an audit by the copy alone"
	run "$TMP/alone/orderly" version
	expect_eq "$RC" 0 "orderly version of the copy alone"
	expect_in "$OUT" "part orderly-png.so: not installed (looked for beside the binary, in ../lib/orderly from it, and at $last)"
fi

# a part of another build beside the binary (its build's identity changed
# in a copy): refused, exit 69, nothing written
mkdir "$TMP/other"
cp "$ORDERLY" "$TMP/other/orderly"
cp "$BIN_DIR/orderly-png.so" "$TMP/other/orderly-png.so"
# the identity: the string of 16 hex digits both files carry
id=$(comm -12 <(strings -n 16 "$ORDERLY" | grep -xE '[0-9a-f]{16}' | sort -u) \
	<(strings -n 16 "$TMP/other/orderly-png.so" | grep -xE '[0-9a-f]{16}' | sort -u) | head -n 1) || true
[[ -n "$id" ]] || fail "no build identity of 16 hex digits in orderly-png.so"
other=$(tr 0-9a-f 1-9a-f0 <<<"$id")
perl -0pi -e "s/$id/$other/g" "$TMP/other/orderly-png.so"
run "$TMP/other/orderly" chart "$G" --referee -o "$TMP/other/c.png"
expect_eq "$RC" 69 "a PNG with a part of another build"
expect_eq "$ERR" "orderly: the pictures' part ($TMP/other/orderly-png.so) cannot be loaded: it is of another build of orderly (build $other, this binary's $id): install the binary and its parts together" "a part of another build"
[[ ! -e "$TMP/other/c.png" ]] || fail "a PNG file was written with a part of another build"
note "ok"
