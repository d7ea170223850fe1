#!/usr/bin/env bash
# test_refereeless.sh - a game with no referee, through the orderly
# command: two players with their own keys; each hands the host only a
# signed commitment; the seal waits for both; each then opens his sheet
# with its nonce; the phases and the exchange wait for both openings; the
# bundle verifies.  And every way of breaking the protocol is refused:
# an unsigned commitment, one signed by the other player or for another
# turn, opening before every side has committed or before the seal,
# opening with a wrong nonce or a changed sheet, opening twice, sheets
# after the seal, phases and exchange before the openings.  With
# witnessed dice the host's chain stands in for no side's link, and a
# bundle in which it did (forged) fails verify and the audit.
#
# Environment (CTest sets it): ORDERLY, SRC, FORGE (tests/e2e/forge.c).
set -euo pipefail

ORDERLY=${ORDERLY:?set ORDERLY to the orderly binary}
SRC=${SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FIX=$SRC/tests/fixtures/bundle
TMP=$(mktemp -d "${TMPDIR:-/tmp}/orderly-refereeless.XXXXXX")
trap 'rm -rf -- "$TMP"' EXIT
cd "$TMP"

fail() {
	printf 'FAIL: test_refereeless: %s\n' "$*" >&2
	[[ -z "${RC+x}" ]] || printf -- '--- status %s, stdout:\n%s\n--- stderr:\n%s\n' "$RC" "$OUT" "$ERR" >&2
	exit 1
}
run() {
	RC=0
	"$@" >.out 2>.err || RC=$?
	OUT=$(cat .out)
	ERR=$(cat .err)
}
expect() {
	local want=$1
	shift
	run "$ORDERLY" "$@"
	[[ "$RC" == "$want" ]] || fail "'orderly $*' exited $RC, expected $want"
}
# the phase to resolve next (resolve --phase, the guard; with --empty a
# phase left with no event while orders wait for one is meant so)
phase_of() { "$ORDERLY" info "$1" | sed -n 's/^phase: *\([^ ]*\) (.*/\1/p'; }
has() { [[ "$1" == *"$2"* ]] || fail "expected '$2' in:
$1"; }
field() { sed -n "s/^$1: //p" <<<"$2" | head -1; }

# ------------------------------------------------------------ two players, their keys, the game
expect 0 keygen blue.key
BLUEKEY=$(field "public key" "$OUT")
expect 0 keygen red.key
REDKEY=$(field "public key" "$OUT")
sed -e "s/@BLUE@/$BLUEKEY/" -e "s/@RED@/$REDKEY/" "$FIX/scenario-refereeless.xml" >scenario.xml
# a referee-less game needs every side's key
sed "s/@BLUE@/$BLUEKEY/" "$FIX/scenario.xml" >half.xml
expect 65 new half.orderly --scenario half.xml --no-referee
has "$ERR" "side 'red' has no pubkey"
expect 64 new fixed.orderly --scenario scenario.xml --no-referee --fixed-dice
expect 0 new g.orderly --scenario scenario.xml --no-referee
has "$ERR" "no referee"
HOSTKEY=$(sed -n "s/.*the game's public key is \([0-9a-f]*\).*/\1/p" <<<"$ERR")
expect 0 info g.orderly
has "$OUT" "referee:   none"
has "$OUT" "next:      the signed commitments of blue, red (submit --commitment), then seal"
GID=$(awk '/^game id:/ {print $3}' <<<"$OUT")
SC=$(awk '/^seed commitment:/ {print $3}' <<<"$OUT")

# each player signs on his own machine
expect 0 sign --game-id "$GID" --turn 1 --seed-commitment "$SC" --side blue --key blue.key "$FIX/blue-1.txt"
B=$OUT
expect 0 sign --game-id "$GID" --turn 1 --seed-commitment "$SC" --side red --key red.key "$FIX/red-1.txt"
R=$OUT
expect 0 sign --game-id "$GID" --turn 2 --seed-commitment "$SC" --side red --key red.key "$FIX/red-1.txt"
R_TURN2=$OUT
expect 0 sign --game-id "$GID" --turn 1 --seed-commitment "$SC" --side blue --key red.key "$FIX/blue-1.txt"
B_BY_RED=$OUT

# ------------------------------------------------------------ commitments
# unsigned, signed by the other player, signed for another turn: refused
expect 65 submit g.orderly --side blue --commitment "$(field commitment "$B")"
has "$ERR" "an unsigned commitment is refused"
expect 65 submit g.orderly --side blue --commitment "$(field commitment "$B_BY_RED")" --signature "$(field signature "$B_BY_RED")"
has "$ERR" "the signature is not side blue's"
expect 65 submit g.orderly --side red --commitment "$(field commitment "$R_TURN2")" --signature "$(field signature "$R_TURN2")"
expect 65 submit g.orderly --side red --commitment "$(field commitment "$B")" --signature "$(field signature "$B")"
expect 64 submit g.orderly --side blue --commitment "$(field commitment "$B")" --signature "$(field signature "$B")" "$FIX/blue-1.txt"
# blue commits
expect 0 submit g.orderly --side blue --commitment "$(field commitment "$B")" --signature "$(field signature "$B")"
has "$OUT" "commitment: $(field commitment "$B")"
has "$OUT" "open it with 'orderly open'"
# opening before every side has committed, sealing too early: refused
expect 65 open g.orderly --side blue --nonce "$(field nonce "$B")" "$FIX/blue-1.txt"
has "$ERR" "cannot open before every side has committed"
has "$ERR" "waiting for the commitment of red"
expect 65 seal g.orderly
has "$ERR" "waiting for the commitment of red"
# red commits; before the seal nobody opens
expect 0 submit g.orderly --side red --commitment "$(field commitment "$R")" --signature "$(field signature "$R")"
expect 65 open g.orderly --side blue --nonce "$(field nonce "$B")" "$FIX/blue-1.txt"
has "$ERR" "seal it first"
expect 0 info g.orderly
has "$OUT" "blue         committed, not opened (version 1)"
# the host has no sheet at all so far
if command -v sqlite3 >/dev/null 2>&1; then
	[[ "$(sqlite3 g.orderly 'SELECT count(*) FROM sheet')" == 0 ]] || fail "the host holds a sheet before the seal"
fi
expect 0 audit g.orderly
expect 0 seal g.orderly --head seal.head
expect 65 submit g.orderly --side red --commitment "$(field commitment "$R")" --signature "$(field signature "$R")"
has "$ERR" "sealed"

# ------------------------------------------------------------ openings
expect 65 resolve g.orderly
has "$ERR" "waiting for blue, red to open their sheet"
expect 65 event g.orderly move unit=B1 distance=2
expect 65 exchange g.orderly
has "$ERR" "cannot exchange turn 1: waiting for blue, red to open their sheet"
# a wrong nonce, a changed sheet, the other side's sheet: refused
expect 65 open g.orderly --side blue --nonce "$(field nonce "$R")" "$FIX/blue-1.txt"
has "$ERR" "do not give the commitment blue sealed"
expect 65 open g.orderly --side blue --nonce "$(field nonce "$B")" "$FIX/blue-2.txt"
has "$ERR" "do not give the commitment blue sealed"
expect 65 open g.orderly --side red --nonce "$(field nonce "$B")" "$FIX/blue-1.txt"
expect 64 open g.orderly --side blue "$FIX/blue-1.txt"
expect 0 open g.orderly --side blue --nonce "$(field nonce "$B")" "$FIX/blue-1.txt"
has "$OUT" "opened: turn 1 side blue version 1"
expect 65 open g.orderly --side blue --nonce "$(field nonce "$B")" "$FIX/blue-1.txt"
has "$ERR" "opened already"
expect 65 resolve g.orderly
has "$ERR" "waiting for red to open its sheet"
expect 0 open g.orderly --side red --nonce "$(field nonce "$R")" "$FIX/red-1.txt"

# ------------------------------------------------------------ the turn, the exchange, the bundle
expect 0 event g.orderly move unit=B1 distance=2
expect 0 resolve g.orderly --phase "$(phase_of g.orderly)"
expect 0 event g.orderly fire unit=R1 target=B1 range=5
expect 0 event g.orderly artillery unit=B2 target=R1 range=10
for _ in 1 2 3 4; do expect 0 resolve g.orderly --phase "$(phase_of g.orderly)" --empty; done
expect 0 exchange g.orderly --head exchange.head
expect 0 audit g.orderly --head seal.head --head exchange.head
has "$OUT" "commitments: 2 signed commitments checked"
has "$OUT" "clean"
expect 0 export g.orderly --turn 1 -o turn1.xml
expect 0 verify turn1.xml --pubkey "$HOSTKEY" --receipt "$(field commitment "$B")" --receipt "$(field commitment "$R")" --head seal.head --head exchange.head
has "$OUT" "no referee"
has "$OUT" "recomputed from the seed and the sealed commitments and nonces"
has "$OUT" "the sheet of blue, version 1, is here unchanged and was the one sealed"
has "$OUT" "the sheet of red, version 1, is here unchanged and was the one sealed"
has "$OUT" "verified: every check holds"
# a commitment's signature changed in the bundle is caught
perl -0777 -pe 's/(<commitment [^>]* signature=")(.)/$1.($2 eq "0" ? "1" : "0")/e' turn1.xml >bad.xml
expect 1 verify bad.xml --pubkey "$HOSTKEY"

# ------------------------------------------------------------ turn 2: a side that never commits
expect 0 info g.orderly
SC2=$(awk '/^seed commitment:/ {print $3}' <<<"$OUT")
expect 0 sign --game-id "$GID" --turn 2 --seed-commitment "$SC2" --side blue --key blue.key "$FIX/blue-2.txt"
B2=$OUT
expect 0 submit g.orderly --side blue --commitment "$(field commitment "$B2")" --signature "$(field signature "$B2")"
expect 65 seal g.orderly
# forced: red's units hold (the NMR policy), blue still opens its own;
# there is no referee: the host forced it, and every check of the turn
# says that red was shut out of it; a file whose name holds the words
# "by the referee)" keeps its name whole in the line, which says who
# forced the seal at its end (by where it wrote it, not by the words)
W="g (by the referee).orderly"
for f in g.orderly*; do mv -- "$f" "$W${f#g.orderly}"; done
expect 0 seal "$W" --force
has "$OUT" "sealed $W (forced by the host)"
grep -qxF "sealed $W (forced by the host)" <<<"$OUT" || fail "the seal's line: $OUT"
for f in "$W"*; do mv -- "$f" "g.orderly${f#"$W"}"; done
has "$OUT" "no sheet from red: the NMR policy stood in"
expect 0 info g.orderly
has "$OUT" "red          opened (version 1): NMR policy applied"
# the phases wait for blue's opening; info says so
has "$OUT" "next:      blue to open their sheets (open)"
expect 65 resolve g.orderly
expect 0 open g.orderly --side blue --nonce "$(field nonce "$B2")" "$FIX/blue-2.txt"
for _ in 1 2 3 4 5; do expect 0 resolve g.orderly --phase "$(phase_of g.orderly)" --empty; done
expect 0 exchange g.orderly
expect 0 export g.orderly --turn 2 -o turn2.xml
expect 0 verify turn2.xml --pubkey "$HOSTKEY" --receipt "$(field commitment "$B2")" --head exchange.head
has "$OUT" "the head you kept of turn 1's exchange"
# no deadline was set: the seal is not said to come before one (red-team
# finding 8)
grep -Eqx "  ok: seal: entry [0-9]+ seals the latest sheet of each of the 2 sides; the NMR policy stood in for red, the seal forced by the host with no deadline set" <<<"$OUT" ||
	fail "verify's seal line of a forced seal with no deadline: $OUT"
grep -qx "  note: seal: the host sealed with no deadline set, without the commitment of red, whose units took the NMR policy's orders: a side still to commit was shut out of this turn, if it had not said it would send none" <<<"$OUT" ||
	fail "verify's note of a forced seal with no deadline: $OUT"
[[ "$OUT" != *"before the deadline"* ]] || fail "a seal with no deadline set is said to come before it: $OUT"
expect 0 audit g.orderly
has "$OUT$ERR" "the host sealed with no deadline set, without the commitment of red"

# ------------------------------------------------------------ witnessed dice: the host may be a player
# Each commitment binds its side's witness chain; the opening gives the
# top; each phase's dice need every side's link, revealed once its events
# are closed: the host, opening the sheets, knows no die before he
# records the events (a red team's find: without it a host who is a
# player chose his dice by the events' order).
expect 0 new w.orderly --scenario scenario.xml --no-referee --witnessed --head w-open.head
has "$ERR" "witnessed dice"
WKEY=$(sed -n "s/.*the game's public key is \([0-9a-f]*\).*/\1/p" <<<"$ERR")
expect 0 info w.orderly
WGID=$(awk '/^game id:/ {print $3}' <<<"$OUT")
WSC=$(awk '/^seed commitment:/ {print $3}' <<<"$OUT")
expect 0 sign --game-id "$WGID" --turn 1 --seed-commitment "$WSC" --side blue --key blue.key --witness "$FIX/blue-1.txt"
WB=$OUT
[[ ${#WB} -gt 0 && -n "$(field witness "$WB")" ]] || fail "sign --witness printed no top: $WB"
expect 0 sign --game-id "$WGID" --turn 1 --seed-commitment "$WSC" --side red --key red.key --witness "$FIX/red-1.txt"
WR=$OUT
expect 0 submit w.orderly --side blue --commitment "$(field commitment "$WB")" --signature "$(field signature "$WB")"
expect 0 submit w.orderly --side red --commitment "$(field commitment "$WR")" --signature "$(field signature "$WR")"
expect 0 seal w.orderly --head w-seal.head
# the opening needs the top its commitment binds: not none, not another
expect 65 open w.orderly --side blue --nonce "$(field nonce "$WB")" "$FIX/blue-1.txt"
has "$ERR" "are witnessed: the opening of blue's sheet needs the top of its witness chain"
expect 65 open w.orderly --side blue --nonce "$(field nonce "$WB")" --witness "$(field witness "$WR")" "$FIX/blue-1.txt"
has "$ERR" "this sheet and nonce and witness top do not give the commitment blue sealed"
expect 64 open g.orderly --side blue --nonce "$(field nonce "$WB")" --witness "$(field witness "$WB")" "$FIX/blue-1.txt"
has "$ERR" "are not witnessed"
expect 0 open w.orderly --side blue --nonce "$(field nonce "$WB")" --witness "$(field witness "$WB")" "$FIX/blue-1.txt"
expect 0 open w.orderly --side red --nonce "$(field nonce "$WR")" --witness "$(field witness "$WR")" "$FIX/red-1.txt"
expect 0 event w.orderly move unit=B1 distance=2
expect 65 resolve w.orderly
has "$ERR" "close the events of phase 'movement' first"
for p in 1 2 3 4 5; do
	if [[ $p == 2 ]]; then
		expect 0 event w.orderly fire unit=R1 target=B1 range=5
		expect 0 event w.orderly artillery unit=B2 target=R1 range=10
	fi
	expect 0 witness w.orderly --close --head w-close-$p.head
	expect 65 resolve w.orderly
	has "$ERR" "blue has not revealed its witness link for phase"
	# the host's chain, in his file, stands in for no side here
	expect 65 resolve w.orderly --stand-in
	has "$ERR" "in a game with no referee the host's chain does not stand in for a side's"
	for s in blue red; do
		n=$([[ $s == blue ]] && field nonce "$WB" || field nonce "$WR")
		expect 0 witness --link-for --head w-close-$p.head --pubkey "$WKEY" --side $s --key $s.key \
			--nonce "$n" --phase $p --record $s.links
		expect 0 witness w.orderly --side $s --link "$(field link "$OUT")"
	done
	expect 0 resolve w.orderly --phase "$(phase_of w.orderly)" --empty
	[[ "$OUT" != *"stood in"* ]] || fail "a side's link stood in: $OUT"
done
expect 0 exchange w.orderly --head w-exchange.head
expect 0 audit w.orderly --head w-seal.head --head w-exchange.head
has "$OUT" "clean"
expect 0 export w.orderly --turn 1 -o w1.xml
expect 0 verify w1.xml --pubkey "$WKEY" --receipt "$(field commitment "$WB")" --head w-open.head --head w-seal.head \
	--head w-close-1.head --head w-close-2.head --head w-close-3.head --head w-close-4.head --head w-close-5.head \
	--head w-exchange.head --record blue.links
has "$OUT" "witness links: the 5 links you gave for blue (blue.links) are of the chain the sealed sheet commits to, and the ones its dice used"
has "$OUT" "verified: every check holds"

# ------------------------------------------------------------ witnessed dice: a side shut out, the host's chain for it
# The host (blue) seals forced before red has committed (a red team's
# find): red's sealed sheet is the NMR policy's, with no chain, and the
# host's chain stands in for its link in every phase, so that he knew
# every die before the events.  Allowed (a side that never commits would
# stall the game), and said so: not as red's failure to reveal its link.
expect 0 new s.orderly --scenario scenario.xml --no-referee --witnessed --head s-open.head
SKEY=$(sed -n "s/.*the game's public key is \([0-9a-f]*\).*/\1/p" <<<"$ERR")
expect 0 sign --head s-open.head --pubkey "$SKEY" --side blue --key blue.key --witness "$FIX/blue-1.txt"
SB=$OUT
expect 0 submit s.orderly --side blue --commitment "$(field commitment "$SB")" --signature "$(field signature "$SB")"
expect 0 seal s.orderly --force --head s-seal.head
expect 0 open s.orderly --side blue --nonce "$(field nonce "$SB")" --witness "$(field witness "$SB")" "$FIX/blue-1.txt"
for p in 1 2 3 4 5; do
	expect 0 witness s.orderly --close --head s-close-$p.head
	expect 0 witness --link-for --head s-close-$p.head --pubkey "$SKEY" --side blue --key blue.key \
		--nonce "$(field nonce "$SB")" --phase $p --record s-blue.links
	expect 0 witness s.orderly --side blue --link "$(field link "$OUT")"
	expect 0 resolve s.orderly --phase "$(phase_of s.orderly)" --empty --stand-in
done
expect 0 exchange s.orderly --head s-exchange.head
expect 0 export s.orderly --turn 1 -o s1.xml
expect 0 verify s1.xml --pubkey "$SKEY" --head s-open.head --head s-seal.head --head s-exchange.head
has "$OUT" "note: seal: the host sealed with no deadline set, without the commitment of red"
has "$OUT" "note: phase 1 (movement): red had no witness chain to reveal a link of (its sealed sheet committed to none: the NMR policy's stand-in, or a sheet without one): the host's stood in (his own chain, committed at the seal); the host knows his chain: the phase's dice were known to him before its events, but for another side's link"
[[ "$OUT" != *"red revealed no witness link"* ]] || fail "red, shut out, is said to have revealed no link in time: $OUT"

# ------------------------------------------------------------ the host's chain stood in for a side: forged
# resolve refuses it (above); a host who builds orderly without that
# refusal (ord_forge stand-in-resolve) resolves phase 1 with his own chain
# standing in for red, whose sheet committed to a chain of its own: his
# chain is in his file, so he knew the phase's dice before its events.
# Every head is genuine and every link he recorded holds; the bundle fails
# verify, and the audit, on that alone.
FORGE=${FORGE:?set FORGE to the ord_forge binary}
expect 0 new h.orderly --scenario scenario.xml --no-referee --witnessed --head h-open.head
HKEY=$(sed -n "s/.*the game's public key is \([0-9a-f]*\).*/\1/p" <<<"$ERR")
expect 0 info h.orderly
HGID=$(awk '/^game id:/ {print $3}' <<<"$OUT")
HSC=$(awk '/^seed commitment:/ {print $3}' <<<"$OUT")
expect 0 sign --game-id "$HGID" --turn 1 --seed-commitment "$HSC" --side blue --key blue.key --witness "$FIX/blue-1.txt"
HB=$OUT
expect 0 sign --game-id "$HGID" --turn 1 --seed-commitment "$HSC" --side red --key red.key --witness "$FIX/red-1.txt"
HR=$OUT
expect 0 submit h.orderly --side blue --commitment "$(field commitment "$HB")" --signature "$(field signature "$HB")"
expect 0 submit h.orderly --side red --commitment "$(field commitment "$HR")" --signature "$(field signature "$HR")"
expect 0 seal h.orderly --head h-seal.head
expect 0 open h.orderly --side blue --nonce "$(field nonce "$HB")" --witness "$(field witness "$HB")" "$FIX/blue-1.txt"
expect 0 open h.orderly --side red --nonce "$(field nonce "$HR")" --witness "$(field witness "$HR")" "$FIX/red-1.txt"
expect 0 event h.orderly move unit=B1 distance=2
for p in 1 2 3 4 5; do
	expect 0 witness h.orderly --close --head h-close-$p.head
	for s in blue red; do
		[[ $p == 1 && $s == red ]] && continue # red's link of phase 1 never comes
		n=$([[ $s == blue ]] && field nonce "$HB" || field nonce "$HR")
		expect 0 witness --link-for --head h-close-$p.head --pubkey "$HKEY" --side $s --key $s.key \
			--nonce "$n" --phase $p --record h-$s.links
		expect 0 witness h.orderly --side $s --link "$(field link "$OUT")"
	done
	if [[ $p == 1 ]]; then
		# red withholds its link: the game stalls, and info says on whom
		expect 0 info h.orderly
		has "$OUT" "links:     phase 1 (movement), its events closed: blue revealed, red awaited"
		has "$OUT" "next:      the events of phase movement are closed: waiting for the link of red (witness), then resolve; with no referee nothing stands in for a side's link: the game waits on red"
		[[ "$OUT" != *"--stand-in"* ]] || fail "info offers a stand-in that resolve refuses: $OUT"
		expect 0 info h.orderly --xml
		has "$OUT" 'committed="yes" opened="yes" link="revealed"/>'
		has "$OUT" 'committed="yes" opened="yes" link="awaited"/>'
		expect 65 resolve h.orderly --stand-in
		"$FORGE" stand-in-resolve h.orderly >/dev/null || fail "ord_forge stand-in-resolve"
	else
		expect 0 resolve h.orderly --phase "$(phase_of h.orderly)" --empty
	fi
done
expect 0 exchange h.orderly --head h-exchange.head
HOSTCHAIN="phase 1 (movement): the host's witness chain stood in for red, whose sheet committed to a chain of its own: in a game with no referee the host knows his chain, so he knew the phase's dice before its events"
# the host's orderly refuses to sign it: its verifier fails it
expect 65 export h.orderly --turn 1 -o h1.xml
[[ "$ERR" == *"would refuse it (1 check FAILED):
  FAILED: $HOSTCHAIN
"* ]] || fail "the export's refusal: $ERR"
[[ ! -e h1.xml ]] || fail "a refused export wrote its file"
# his own build without the check signs it all the same
"$FORGE" export h.orderly 1 h1.xml || fail "ord_forge export h.orderly"
expect 1 verify h1.xml --pubkey "$HKEY" --receipt "$(field commitment "$HR")" --head h-open.head --head h-seal.head \
	--head h-close-1.head --head h-close-2.head --head h-close-3.head --head h-close-4.head --head h-close-5.head \
	--head h-exchange.head --record h-red.links
has "$OUT" "FAILED: $HOSTCHAIN"
# that alone: the phase replays with the key the host's chain gave, and
# the phases after it are checked (their links are not called missing)
has "$OUT" "1 check FAILED"
[[ "$OUT" != *"cannot be replayed"* && "$OUT" != *"is missing"* ]] || fail "verify said more than the host's chain: $OUT"
expect 1 audit h.orderly
has "$OUT" "BROKEN: $HOSTCHAIN"
has "$OUT" "1 problem found"
echo "test_refereeless: ok"
