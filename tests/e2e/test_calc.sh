#!/usr/bin/env bash
# test_calc.sh - `orderly calc` from the command line: without WHAT it
# lists the ruleset's calculations; and the man page's calc entry (which
# `orderly calc --help` prints) names every calculation of every built-in
# ruleset and every key each takes, as the calculator itself lists them
# when refusing a key it does not take.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$TMP"

run ord calc --help
expect_eq "$RC" 0 "calc --help"
help=$OUT
for r in battalion krigsspil; do
	expect_exit 64 ord calc "$r"
	expect_line "$ERR" "^orderly: missing WHAT, the calculation \(expected one of [a-z0-9 ]+\)$"
	expect_line "$ERR" "^usage: orderly calc RULESET WHAT "
	calcs=$(sed -n 's/.*(expected one of \([a-z0-9 ]*\)).*/\1/p' <<<"$ERR")
	[[ -n "$calcs" ]] || fail "no calculations listed for $r"
	for w in $calcs; do
		expect_line "$help" "^    $w$"
		# the keys it takes, before the modifier flags of the tables
		expect_exit 64 ord calc "$r" "$w" no_such_key=1
		expect_in "$ERR" "$w: unknown key 'no_such_key' (expected "
		keys=$(sed -n "s/.*unknown key 'no_such_key' (expected \([a-z0-9_ ]*\)[,)].*/\1/p" <<<"$ERR")
		[[ -n "$keys" ]] || fail "no keys listed for $r $w"
		for k in $keys; do
			grep -Eq "(^|[^a-z0-9_])$k([^a-z0-9_]|$)" <<<"$help" ||
				fail "the man page's calc entry does not name key '$k' of $r $w"
		done
	done
done
# the battalion keys the man page left out, and the key fire cannot do without
for k in enfilade target_in_woods firer_in_woods firer_on_hill a_hill a_routed pursuit \
	a2_kind b2_figures routed_recently; do
	expect_in "$help" "$k"
done
expect_exit 64 ord calc battalion fire firers=24 weapon=musket range=3
expect_in "$ERR" "target_formation: missing"
# a Krigsspil calculation's words are read as the sheets read theirs (case,
# æ ø å é, the short forms and two words): the same answer as the list's
# word; a word that is none is told the nearest
expect_exit 0 ord calc krigsspil move art=infanteri formation=karre afstand=10
want=$OUT
for f in KARRÉ Karré kar; do
	expect_exit 0 ord calc krigsspil move art=INFANTERI "formation=$f" afstand=10
	expect_eq "$OUT" "$want" "move in formation=$f"
done
expect_exit 0 ord calc krigsspil move art=infanteri formation=skyttekaede_tynd afstand=10
want=$OUT
expect_exit 0 ord calc krigsspil move art=infanteri "formation=skyttekæde tynd" afstand=10
expect_eq "$OUT" "$want" "move in formation=\"skyttekæde tynd\""
expect_exit 64 ord calc krigsspil move art=infanteri formation=karee afstand=10
expect_line "$ERR" "^orderly: formation: unknown 'karee' \\(expected one of linie angrebskolonne marchkolonne karre bataillonsmasse hob soutien skyttekaede_taet skyttekaede_tynd svaerm_taet svaerm_tynd\\): did you mean 'karre'\\?$"
expect_exit 64 ord calc krigsspil move art=infanteri formation=kra afstand=10
expect_line "$ERR" "^orderly: formation: unknown 'kra' \\(expected one of .*\\): did you mean 'kar' \\(karre\\)\\?$"
expect_exit 64 ord calc krigsspil move art=infantri afstand=10
expect_line "$ERR" "^orderly: art: unknown 'infantri' \\(expected one of .*\\): did you mean 'infanteri'\\?$"
