#!/usr/bin/env bash
# test_referee_day.sh - what a new club referee met in a day's play (the
# hday session): each part a place where the tool surprised him, now said
# plainly.  --help in the man page's own letters; `help event` with the
# event command's usage; an event recorded with the number --void takes;
# a battalion charge's contact that no melee event fights holds the melee
# phase; an arrow typed "->" named as the arrow meant; a sheet headed with
# another turn warned of; `info` after an exchange naming the bundle.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$TMP"

# ---- --help renders the man page's special characters, as man does
# (before: "skyttekde\tt", "KARR", "Blue [u041D]ussars")
run ord new --help
expect_eq "$RC" 0 "new --help"
expect_in "$OUT" '"skyttekæde tæt"'
expect_in "$OUT" 'formation="KARRÉ"'
expect_in "$OUT" "('Blue Нussars')"
expect_not_in "$OUT" "skyttekde"
expect_not_in "$OUT" "[u041D]"
run ord event --help
expect_in "$OUT" "with æ ø å ä ö é or ae oe"

# ---- help event gives the event command's usage first, with --void
run ord help event battalion
expect_eq "$RC" 0 "help event battalion"
expect_line "$(head -n 1 <<<"$OUT")" "^usage: orderly event GAME KIND key=value\\.\\.\\. .*--void SEQ --reason REASON$"
expect_in "$OUT" "'orderly event --help' describes its options (--file, --override, --void)"
expect_in "$OUT" "Events of the battalion ruleset"

note "ok"
