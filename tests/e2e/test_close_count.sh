#!/usr/bin/env bash
# test_close_count.sh - how many events the referee logged in a witnessed
# phase, read from the heads a player holds before the exchange (threat
# model, attack 49's leftover).  Every side is handed the seal's head and,
# before it reveals its link, the head of each phase's close, and after it
# the head of its link; a head stated and signed its log entry number, so
# the close's number less the seal's told every side how many events and
# voids the phase logged, the other side's hidden ones included.  Now a
# close head and a link head are of format v3: they sign the entry's hash
# with the game, turn, kind and phase, and no number (the hash, of an
# entry whose number it hashes and whose close logs the seed's blind,
# fixes which entry it is).  Two games from the same public inputs, whose
# first phase logs two events in one and four in the other, give close and
# link heads that differ only in the game's own id and key (fixed at its
# creation) and in what the secret seed keys (the hash, the signature over
# it).  After the exchange the bundle shows the entry, and verify and
# audit hold the head to it by its hash; a head with its hash, phase or
# turn changed, a number written into it, or the close of the phase made
# again on a copy (attack 14) still fails.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
BFIX=$SRC/tests/fixtures/bundle
cd "$TMP"
# a head with the lines that differ from game to game by what no phase
# logs (the game's id and key, drawn at its creation) or by what the
# secret seed keys (the hash the close's blind hides, its signature) masked
masked() { sed -E 's/^(game|key|hash|signature): .*/\1: -/' "$1"; }
unkeyed_scenario scenario.xml
expect_exit 0 ord keygen blue.key
expect_exit 0 ord keygen red.key
printf '# Red, turn 1\nR1 ↑ 1/4\nR2 → 1/4\nR3 ↑ 1/2\n' >red.txt

# Two games, the same scenario and sheets; phase 1 of game a logs two
# events (blue's move and red's R1), of game b four (R2 and R3 moved too).
for g in a b; do
	expect_exit 0 ord new $g.game --scenario scenario.xml --witnessed --head open-$g.head
	expect_exit 0 ord submit $g.game --side blue --witness-key blue.key "$BFIX/blue-1.txt"
	expect_exit 0 ord submit $g.game --side red --witness-key red.key red.txt
	expect_exit 0 ord seal $g.game --head seal-$g.head
	cp $g.game $g-sealed.game
	expect_exit 0 ord event $g.game move unit=B1 distance=2
	expect_exit 0 ord event $g.game move unit=R1 distance=1.5
	if [[ $g == b ]]; then
		expect_exit 0 ord event $g.game move unit=R2 distance=1
		expect_exit 0 ord event $g.game move unit=R3 distance=2
	fi
	expect_exit 0 ord witness $g.game --close --head close-$g.head
done
# the game files log the close at different numbers: two entries apart
ca=$(sql a.game "SELECT seq FROM log WHERE kind = 'close'")
cb=$(sql b.game "SELECT seq FROM log WHERE kind = 'close'")
expect_eq "$((cb - ca))" 2 "the closes' entry numbers in the two game files"
# the seal heads are alike: the same public inputs, up to the seal
expect_eq "$(field entry "$(cat seal-a.head)")" "$(field entry "$(cat seal-b.head)")" \
	"the seal heads' entry numbers"
# the close heads state no number, nothing that tells the two phases apart
for g in a b; do
	h=$(cat close-$g.head)
	expect_line "$h" '^orderly signed head v3$'
	expect_in "$h" "phase: 1"
	expect_not_in "$h" "entry:"
	[[ "$(field game "$h")" == "$(field game "$(cat open-$g.head)")" &&
	"$(field key "$h")" == "$(field key "$(cat open-$g.head)")" ]] ||
		fail "close-$g.head's game or key is not the one its game opened with"
done
[[ "$(masked close-a.head)" == "$(masked close-b.head)" ]] ||
	fail "the close heads of a phase of two events and of four differ in more than the game and the seed: $(diff <(masked close-a.head) <(masked close-b.head))"
expect_eq "$(wc -c <close-a.head)" "$(wc -c <close-b.head)" "the close heads' sizes"
[[ "$(field hash "$(cat close-a.head)")" != "$(field hash "$(cat close-b.head)")" ]] ||
	fail "the two closes have the same hash"

# blue's link, computed at home against the close head (and his opening
# head: no number to hold it to now), recorded; the link head he is
# handed for it states no number either
KEYA=$(ord info a.game | awk '/^key:/ {print $2}')
for g in a b; do
	NONCE=$(sql $g.game "SELECT lower(hex(nonce)) FROM sheet JOIN side ON side.id = sheet.side_id WHERE side.name = 'blue'")
	KEY=$(ord info $g.game | awk '/^key:/ {print $2}')
	expect_exit 0 ord witness --link-for --head close-$g.head --pubkey "$KEY" --side blue \
		--key blue.key --nonce "$NONCE" --phase 1 --opening open-$g.head --record rec-$g.links
	LINK=$(field link "$OUT")
	expect_line "$(cat rec-$g.links)" "^answered: game=[0-9a-f]{32} turn=1 phase=1 entry=none hash="
	expect_exit 0 ord witness $g.game --side blue --link "$LINK" --head link-$g.head
	expect_exit 0 ord witness $g.game --side red --key red.key
	expect_line "$(cat link-$g.head)" '^orderly signed head v3$'
	expect_not_in "$(cat link-$g.head)" "entry:"
done
[[ "$(masked link-a.head)" == "$(masked link-b.head)" ]] ||
	fail "the link heads differ in more than the game and the seed: $(diff <(masked link-a.head) <(masked link-b.head))"
# `head --at close` and `--at link` write the same files again
expect_exit 0 ord head a.game --at close --turn 1 --phase 1 -o again-close.head
cmp -s again-close.head close-a.head || fail "head --at close wrote another close head"
expect_exit 0 ord head a.game --at link --side blue --phase 1 -o again-link.head
cmp -s again-link.head link-a.head || fail "head --at link wrote another link head"

# the close made again on a copy taken at the seal, after the links are
# known (attack 14): a close head of the same game, key, turn and phase,
# of another hash; blue's record refuses it before any link goes out
expect_exit 0 ord event a-sealed.game move unit=B1 distance=1
expect_exit 0 ord witness a-sealed.game --close --head second.head
NONCE=$(sql a.game "SELECT lower(hex(nonce)) FROM sheet JOIN side ON side.id = sheet.side_id WHERE side.name = 'blue'")
expect_exit 65 ord witness --link-for --head second.head --pubkey "$KEYA" --side blue \
	--key blue.key --nonce "$NONCE" --phase 1 --record rec-a.links
expect_in "$ERR" "the game's key signed two different closes of phase 1 of turn 1 (hashes "
expect_not_in "$OUT" "link:"

# game a played to its exchange
expect_exit 0 ord resolve a.game
for _ in 1 2 3 4; do
	expect_exit 0 ord witness a.game --close
	expect_exit 0 ord witness a.game --side blue --key blue.key
	expect_exit 0 ord witness a.game --side red --key red.key
	expect_exit 0 ord resolve a.game --phase "$(phase_of a.game)" --empty
done
expect_exit 0 ord exchange a.game --head exchange-a.head
expect_exit 0 ord export a.game --turn 1 -o turn-1.xml
HEADS=(--head open-a.head --head seal-a.head --head close-a.head --head link-a.head --head exchange-a.head)
expect_exit 0 ord verify turn-1.xml --pubkey "$KEYA" "${HEADS[@]}" --record rec-a.links
expect_in "$OUT" "verified"
# the number is read from the bundle, by the hash the head signs
expect_in "$OUT" "the head you kept of turn 1's close (entry $ca): matches"
expect_in "$OUT" "the head you kept of turn 1's link (entry "
expect_in "$OUT" "your witness record keeps of turn 1's close (entry $ca): matches"
expect_exit 0 ord audit a.game --head close-a.head --head link-a.head
expect_in "$OUT" "the head you kept of turn 1's close (entry $ca): matches"
expect_in "$OUT" "clean"

# the link's entry logs the seed's blind: blue, who revealed first, knows
# every other field of it and the close's hash it chains from, and would
# find its number by trying each; the referee cannot write another blind
wseq=$(sql a.game "SELECT seq FROM log WHERE kind = 'witness' ORDER BY seq LIMIT 1")
wbody=$(sql a.game "SELECT body FROM log WHERE seq = $wseq")
expect_line "$wbody" '^blind=[0-9a-f]{64}$'
[[ -x "${FORGE:-}" ]] || fail "no ord_forge (set FORGE)"
wblind=$(sed -n 's/^blind=//p' <<<"$wbody")
cp a.game lblind.game
sql lblind.game "UPDATE log SET body = replace(body, 'blind=$wblind', 'blind=$(printf '%064d' 0)')
	WHERE seq = $wseq" >/dev/null
"$FORGE" rechain lblind.game || fail "ord_forge rechain"
run ord audit lblind.game
[[ $RC == 1 ]] || fail "audit of a link entry with a blind the seed does not give exited $RC"
expect_in "$OUT" "the witness link of blue for phase 1: differs from what was logged in entry $wseq (its blind is not the one the turn's seed gives"

# an entry of an orderly before logs no blind, and audits clean as before
cp a.game lold.game
sql lold.game "UPDATE log SET body = replace(body, 'blind=$wblind' || char(10), '')
	WHERE seq = $wseq" >/dev/null
"$FORGE" rechain lold.game || fail "ord_forge rechain"
expect_exit 0 ord audit lold.game
expect_in "$OUT" "clean"
# a close head of an earlier orderly, numbered (format v2, signed with the
# phase), verifies and audits as before
"$FORGE" sign-close a.game "$ca" 1 >v2-close.head || fail "ord_forge sign-close"
expect_line "$(cat v2-close.head)" "^entry: $ca\$"
expect_exit 0 ord verify turn-1.xml --pubkey "$KEYA" --head v2-close.head
expect_in "$OUT" "the head you kept of turn 1's close (entry $ca): matches"
expect_exit 0 ord audit a.game --head v2-close.head
expect_in "$OUT" "the head you kept of turn 1's close (entry $ca): matches"

# a second game made with a's id and a key of its own closes phase 1: blue's
# record, which answered a's close (a head of format v3, of no number),
# refuses it naming that close by its hash, not as "entry 0"
cp b.game same-id.game
sql same-id.game "ATTACH 'a.game' AS a; UPDATE main.game SET game_id = (SELECT game_id FROM a.game)" >/dev/null
"$FORGE" sign-close same-id.game "$cb" 1 >same-id.head || fail "ord_forge sign-close"
run ord witness --link-for --head same-id.head --pubkey "$(ord info same-id.game | awk '/^key:/ {print $2}')" \
	--side blue --key blue.key --nonce "$NONCE" --phase 1 --record rec-a.links
[[ $RC == 65 ]] || fail "the close of a second game of a's id exited $RC"
expect_in "$ERR" "you answered a close of phase 1 of turn 1 of game $(field game "$(cat close-a.head)") (hash $(field hash "$(cat close-a.head)" | cut -c1-16)...) signed by another key, "
expect_in "$ERR" ", than this one's (entry $cb): a second game made with this one's id"
expect_not_in "$OUT" "link:"

# the close made again: no entry of the bundle's history has its hash
run ord verify turn-1.xml --pubkey "$KEYA" --head second.head
[[ $RC == 1 ]] || fail "verify with the head of a close made again exited $RC"
expect_in "$OUT" "the head you kept of turn 1's close (hash "
expect_in "$OUT" "no entry of this turn's log (entries "
expect_in "$OUT" "has the hash it signs: the history up to it was rewritten"
run ord audit a.game --head second.head
[[ $RC == 1 ]] || fail "audit with the head of a close made again exited $RC"
expect_in "$OUT" "no 'close' entry of the log has the hash it signs: the history up to it was rewritten, or it signs an entry no head of the close signs (its phase's events recorded again after the links were revealed: attack 14)"

# tampered close heads fail: the hash changed (a digit of it), the phase
# or the turn changed: their signature does not hold
h=$(field hash "$(cat close-a.head)")
d=${h:0:1}
[[ $d == 0 ]] && r=1 || r=0
sed "s/^hash: $d/hash: $r/" close-a.head >hash.head
sed 's/^phase: 1$/phase: 2/' close-a.head >phase.head
sed 's/^turn: 1$/turn: 2/' close-a.head >turn.head
for t in hash phase turn; do
	run ord verify turn-1.xml --pubkey "$KEYA" --head $t.head
	[[ $RC == 65 ]] || fail "verify with a close head whose $t was changed exited $RC"
	expect_in "$ERR" "$t.head: the head's signature does not hold"
	run ord audit a.game --head $t.head
	[[ $RC == 1 ]] || fail "audit with a close head whose $t was changed exited $RC"
	expect_in "$OUT" "BROKEN: the head you kept of turn "
	expect_in "$OUT" "its signature does not hold"
done
# a number written into it: the file is refused, naming the line
sed "s/^hash: /entry: $ca\nhash: /" close-a.head >entry.head
run ord verify turn-1.xml --pubkey "$KEYA" --head entry.head
[[ $RC == 65 ]] || fail "verify with a number written into a close head of format v3 exited $RC"
expect_in "$ERR" "entry.head:"
expect_in "$ERR" "a head of format v3 states no 'entry'"
# the same fields under the first line of format v2, as an orderly before
# this one reads every head: refused, never taken without its number
sed 's/^orderly signed head v3$/orderly signed head v2/' close-a.head >v2.head
run ord verify turn-1.xml --pubkey "$KEYA" --head v2.head
[[ $RC == 65 ]] || fail "verify with a close head of format v3 labelled v2 exited $RC"
expect_in "$ERR" "'entry' is missing"
# its phase: a close's, a phase number, named by its line (one reading
# for heads of both formats)
pline=$(grep -n '^phase: ' close-a.head | cut -d: -f1)
sed 's/^phase: 1$/phase: 0/' close-a.head >phase0.head
sed 's/^at: close$/at: link/' close-a.head >linkphase.head
grep -v '^phase: ' close-a.head >nophase.head
sed 's/^phase: 1$/phase: 0/' v2-close.head >v2-phase0.head
for f in phase0 linkphase nophase v2-phase0; do
	run ord verify turn-1.xml --pubkey "$KEYA" --head $f.head
	[[ $RC == 65 ]] || fail "verify with $f.head exited $RC"
done
run ord verify turn-1.xml --head phase0.head
expect_in "$ERR" "phase0.head:$pline: 'phase' is not a phase number"
run ord verify turn-1.xml --head linkphase.head
expect_in "$ERR" "linkphase.head:$pline: a head of a link has no phase (only a phase's close has)"
run ord verify turn-1.xml --head nophase.head
expect_in "$ERR" "nophase.head: a close head of format v3 has no 'phase' (expected the phase it closes)"
run ord verify turn-1.xml --head v2-phase0.head
expect_in "$ERR" "v2-phase0.head:$(grep -n '^phase: ' v2-close.head | cut -d: -f1): 'phase' is not a phase number"
# and --link-for refuses a tampered close head before any link exists
expect_exit 65 ord witness --link-for --head hash.head --pubkey "$KEYA" --side blue \
	--key blue.key --nonce "$NONCE" --phase 1
expect_in "$ERR" "its signature does not hold"
note "ok"
