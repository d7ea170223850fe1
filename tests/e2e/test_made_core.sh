#!/usr/bin/env bash
# test_made_core.sh - the core revision a game was made with (threat
# model, attacks 39 and 43, "Rules corrected since a game was played").
# made= is a day, and two builds of one day read a game otherwise (ae6f373:
# a Krigsspil unit's name read as the notation reads its words); so a game
# logs, in its creation and every opening beside made=, the core revision
# and its module's rules revision it was made with (made_core=,
# made_rules=), and `info`, `audit` and `verify` say them.  The lines are
# the referee's to write, as made= is: mounted as a dishonest referee
# would, with the sqlite3 shell and ord_forge (the chain and every stored
# head made again), a marker taken out of an opening, or changed there,
# fails the bundle before it and the audit; one no orderly writes (a core
# before the marker, no revision, without made=) fails the audit and the
# game refuses the submit; one taken out of every entry before any head
# went out is noted, the game read by made='s day as before the marker.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_sqlite3
need_forge
BFIX=$SRC/tests/fixtures/bundle
cd "$TMP"

pubkey() { ord info "$1" | awk '/^key:/ {print $2}'; }
unkeyed_scenario scenario.xml

CORE=$(ord version | sed -n 's/^core revision //p')
RULES=$(ord version | sed -n 's/^battalion rules revision //p')
[[ -n "$CORE" && -n "$RULES" ]] || fail "orderly version names no core or battalion rules revision"
MADE="made: 2026-12-07, core revision $CORE, battalion rules of $RULES"
MARK="'made=2026-12-07' || char(10) || 'made_core=$CORE' || char(10) || 'made_rules=$RULES' || char(10)"

# played GAME: turn 1 sealed, every phase resolved, exchanged (turn 2
# opened), its exchange head in GAME.exchange.head
played() {
	expect_exit 0 ord new "$1" --scenario scenario.xml
	expect_exit 0 ord submit "$1" --side blue "$BFIX/blue-1.txt"
	expect_exit 0 ord submit "$1" --side red "$BFIX/red-1b.txt"
	expect_exit 0 ord seal "$1"
	expect_exit 0 ord event "$1" move unit=B1 distance=2
	expect_exit 0 ord resolve "$1"
	resolve_rest "$1"
	expect_exit 0 ord exchange "$1" --head "$1.exchange.head"
}
open_of() { sql "$1" "SELECT seq FROM log WHERE kind = 'open' AND turn = $2"; }

# ---- the game made logs it, beside made=, in its creation and every
# opening; info, the audit and a player's verify say it
played honest.game
for kind in create open; do
	[[ "$(sql honest.game "SELECT count(*) FROM log WHERE kind = '$kind' AND instr(body, $MARK) > 0")" == \
		"$(sql honest.game "SELECT count(*) FROM log WHERE kind = '$kind'")" ]] ||
		fail "not every '$kind' entry logs made=, made_core=$CORE and made_rules=$RULES"
done
expect_exit 0 ord info honest.game
expect_in "$OUT" "made:      2026-12-07, core revision $CORE, battalion rules of $RULES"
expect_exit 0 ord info honest.game --xml
expect_in "$OUT" " made=\"2026-12-07\" made-core=\"$CORE\" made-rules=\"$RULES\""
expect_exit 0 ord audit honest.game
expect_in "$OUT" "ok: $MADE, as logged in the creation (entry 1) and every opening"
expect_eq "$(grep -c 'ok: made:' <<<"$OUT")" 1 "the audit's lines saying what made the game"
export_bundle honest.game 1 honest.xml
expect_exit 0 ord verify honest.xml --pubkey "$(pubkey honest.game)" --head honest.game.exchange.head
expect_in "$OUT" "ok: $MADE, as logged in the opening of turn 1 (entry 3)"
expect_line "$OUT" "^verified: every check holds$"

# ---- taken out of turn 2's opening, or changed there, before the
# exchange's head went out (the chain and the head made again): the
# bundle of turn 1, whose exchange holds that opening, fails, and so does
# the audit, as a changed NMR policy or made= does (attack 9)
for change in "made_core=$CORE|made_core=2099-01-01.1|core revision" \
	"made_core|drop|core revision" \
	"made_rules=$RULES|made_rules=2026-12-01.1|rules revision"; do
	IFS='|' read -r from to what <<<"$change"
	g=turn2-$RANDOM.game
	cp honest.game "$g"
	OPEN2=$(open_of "$g" 2)
	if [[ "$to" == drop ]]; then
		sql "$g" "UPDATE log SET body = replace(body, 'made_core=$CORE' || char(10) || 'made_rules=$RULES' || char(10), '') WHERE seq = $OPEN2"
	else
		sql "$g" "UPDATE log SET body = replace(body, '$from', '$to') WHERE seq = $OPEN2"
	fi
	[[ "$(sql "$g" "SELECT body FROM log WHERE seq = $OPEN2")" != "$(sql honest.game "SELECT body FROM log WHERE seq = $OPEN2")" ]] ||
		fail "turn 2's opening of '$g' is unchanged (fix the test)"
	forge rechain "$g"
	expect_exit 0 ord head "$g" --at exchange --turn 1 -o "$g.exchange.head"
	export_bundle "$g" 1 "$g.xml"
	run ord verify "$g.xml" --pubkey "$(pubkey "$g")" --head "$g.exchange.head"
	expect_eq "$RC" 1 "verify of a bundle whose next opening changed the $what it was made with ($from -> $to)"
	expect_in "$OUT" "FAILED: the opening of turn 2 (entry $OPEN2) changes the game's $what it was made with: a game keeps the settings it was made with"
	expect_exit 1 ord audit "$g"
	expect_in "$OUT" "BROKEN: turn 2's opening differs in its $what it was made with from the game's creation (entry 1)"
done

# ---- taken out of every entry (the creation and turn 1's opening, the
# chain made again before any head went out): the game is one of an
# orderly of 2026-12-07 before the marker, read by made='s day (names as
# the notation reads its words, as every orderly since core 2026-12-07.1
# read it), which no check can tell from an honest one; the audit and a
# player's verify say so in a note, as of made= taken out (attack 43)
UNSAID="note: made: 2026-12-07, its core revision not logged (made=2026-12-07 and no made_core= logged in"
expect_exit 0 ord new unmarked.game --scenario scenario.xml
unmark unmarked.game
forge rechain unmarked.game
expect_exit 0 ord audit unmarked.game
expect_in "$OUT" "$UNSAID the creation (entry 1) and every opening): an orderly of 2026-12-07 before it was logged (core revision 2026-12-07.1 or earlier) made it, a build of the referee's own, or the line was taken out"
expect_not_in "$OUT" "ok: made:"
expect_exit 0 ord info unmarked.game
expect_in "$OUT" "made:      2026-12-07, core revision not logged (an orderly of that day before it logged one, core revision 2026-12-07.1 or earlier)"
expect_exit 0 ord seal unmarked.game --force
resolve_rest unmarked.game
expect_exit 0 ord exchange unmarked.game --head unmarked.head
# ... and the next opening, written by this orderly, logs none either
[[ "$(sql unmarked.game "SELECT count(*) FROM log WHERE body LIKE '%made_core=%'")" == 0 ]] ||
	fail "this orderly wrote a core marker into a game made before it"
expect_exit 0 ord export unmarked.game --turn 1 -o unmarked.xml
expect_exit 0 ord verify unmarked.xml --pubkey "$(pubkey unmarked.game)" --head unmarked.head
expect_in "$OUT" "$UNSAID the opening of turn 1 (entry 3))"
expect_line "$OUT" "^verified: every check holds$"

# ---- a marker no orderly writes, in the creation and every opening: a
# core before the marker came (which would read the game as an orderly of
# before ae6f373 did: names as written), one that is no revision, a
# rules revision that is none; the audit fails it, the game refuses the
# submit as for a damaged opening, nothing stored
for bad in "made_core=2026-12-06.1" "made_core=2026-12-07.0" "made_core=2026-12-07.1x" \
	"made_core=junk" "made_rules=next week"; do
	key=${bad%%=*}
	rm -f bad.game*
	expect_exit 0 ord new bad.game --scenario scenario.xml
	if [[ $key == made_core ]]; then
		sql bad.game "UPDATE log SET body = replace(body, 'made_core=$CORE', '$bad') WHERE kind IN ('create', 'open')"
		want="the entry's $bad is not a core revision of 2026-12-07.1 or later (expected YYYY-MM-DD.N): an orderly that logs it writes its own, 2026-12-07.1 or later, and a game made before logs none"
	else
		sql bad.game "UPDATE log SET body = replace(body, 'made_rules=$RULES', '$bad') WHERE kind IN ('create', 'open')"
		want="the entry's made_rules=(a value that is no revision) is not a rules revision (expected a word of at most 31 characters a reader sees, as a module names its revision)"
	fi
	forge rechain bad.game
	expect_exit 1 ord audit bad.game
	expect_in "$OUT" "BROKEN: the creation (entry 1): $want"
	expect_in "$OUT" "BROKEN: the opening entry 3: $want"
	expect_exit 65 ord submit bad.game --side blue "$BFIX/blue-1.txt"
	expect_in "$ERR" "its last turn opening is damaged"
	expect_eq "$(sql bad.game "SELECT count(*) FROM sheet")" 0 "sheets of a game with $bad"
done

# ---- added to an older game: one made before made= (its creation and
# openings logging neither made= nor the marker) given made_core= (and
# made_rules=) alone, or one made before the marker given made_rules=
# alone: no orderly logs one without the other; the audit fails it
expect_exit 0 ord new older.game --scenario scenario.xml
sql older.game "UPDATE log SET body = replace(body, 'made=2026-12-07' || char(10), '') WHERE kind IN ('create', 'open')"
forge rechain older.game
expect_exit 1 ord audit older.game
expect_in "$OUT" "BROKEN: the creation (entry 1): the entry's made_core=$CORE names the core revision the game was made with, but the entry logs no made=: an orderly that logs the one logs the other, and a game made before logs neither"
expect_exit 65 ord submit older.game --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord new rulesonly.game --scenario scenario.xml
sql rulesonly.game "UPDATE log SET body = replace(body, 'made_core=$CORE' || char(10), '') WHERE kind IN ('create', 'open')"
forge rechain rulesonly.game
expect_exit 1 ord audit rulesonly.game
expect_in "$OUT" "BROKEN: the creation (entry 1): the entry's made_rules=$RULES names the rules revision the game was made with, but the entry logs no made_core=: an orderly that logs the one logs the other"

# ---- a core later than this orderly's (a later orderly made it): read
# as made since every change this one knows, and noted
expect_exit 0 ord new later.game --scenario scenario.xml
sql later.game "UPDATE log SET body = replace(body, 'made_core=$CORE', 'made_core=2099-01-01.1') WHERE kind IN ('create', 'open')"
forge rechain later.game
expect_exit 0 ord audit later.game
expect_in "$OUT" "ok: made: 2026-12-07, core revision 2099-01-01.1, battalion rules of $RULES, as logged in the creation (entry 1) and every opening"
expect_in "$OUT" "note: the game was made by an orderly of core revision 2099-01-01.1, later than this one's ($CORE)"
note "ok"
