#!/usr/bin/env bash
# test_bundle.sh - signed turn bundles through the orderly command, as a
# referee and his players use them: the referee keeps the game's key in his
# own file; blue signs its sheets with `orderly sign`; the seal and the
# exchange hand out signed heads; the turn is exported, and a player checks
# it offline with one command (exit 0), while every kind of change to the
# bundle, and a history rewritten after a signed head, exits 1.
#
# Environment (CTest sets it): ORDERLY, SRC.
set -euo pipefail

ORDERLY=${ORDERLY:?set ORDERLY to the orderly binary}
SRC=${SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
FIX=$SRC/tests/fixtures/bundle
TMP=$(mktemp -d "${TMPDIR:-/tmp}/orderly-bundle.XXXXXX")
trap 'rm -rf -- "$TMP"' EXIT
cd "$TMP"

fail() {
	printf 'FAIL: test_bundle: %s\n' "$*" >&2
	[[ -z "${RC+x}" ]] || printf -- '--- status %s, stdout:\n%s\n--- stderr:\n%s\n' "$RC" "$OUT" "$ERR" >&2
	exit 1
}
run() {
	RC=0
	"$@" >.out 2>.err || RC=$?
	OUT=$(cat .out)
	ERR=$(cat .err)
}
# resolve_rest GAME: every phase left of the turn, each by its name
# (resolve --phase, the guard) and --empty: the phases the test leaves
# empty, it means empty
resolve_rest() {
	local p
	while p=$("$ORDERLY" info "$1" | sed -n 's/^phase: *\([^ ]*\) (.*/\1/p') && [[ -n "$p" ]]; do
		expect 0 resolve "$1" --phase "$p" --empty
	done
}
expect() {  # expect STATUS ARGS...: run orderly ARGS, fail unless it exits STATUS
	local want=$1
	shift
	run "$ORDERLY" "$@"
	[[ "$RC" == "$want" ]] || fail "'orderly $*' exited $RC, expected $want"
}
# chunked STATUS ARGS...: expect, and the same output when the replay is
# handed a phase's rows and the units' states one at a time
# (ORDERLY_ROWS_CHUNK=1: every row crosses the edge of a run read again)
chunked() {
	local out
	expect "$@"
	out=$OUT
	ORDERLY_ROWS_CHUNK=1 expect "$@"
	[[ "$OUT" == "$out" ]] || fail "'orderly ${*:2}' with ORDERLY_ROWS_CHUNK=1 says:
$OUT
not:
$out"
}
has() { [[ "$1" == *"$2"* ]] || fail "expected '$2' in:
$1"; }
hasnt() { [[ "$1" != *"$2"* ]] || fail "did not expect '$2' in:
$1"; }
field() { sed -n "s/^$1: //p" <<<"$2" | head -1; }

# ------------------------------------------------------------ the game
expect 0 keygen referee.key
has "$OUT" "public key: "
REFKEY=$(field "public key" "$OUT")
[[ -f referee.key.pub ]] || fail "keygen wrote no public key file"
[[ "$(stat -c %a referee.key)" == 600 ]] || fail "the secret key file is not private (mode $(stat -c %a referee.key))"
expect 65 keygen referee.key
has "$ERR" "already exists"
expect 0 keygen blue.key
BLUEKEY=$(field "public key" "$OUT")
sed "s/@BLUE@/$BLUEKEY/" "$FIX/scenario.xml" >scenario.xml

# a head written over the key it is signed with would lose the game's only
# key: refused, nothing made, the key as it was (and so for a player's key)
KEYSUM=$(sha256sum referee.key blue.key)
expect 73 new g.orderly --scenario scenario.xml --key referee.key --head referee.key
has "$ERR" "cannot write 'referee.key': it is this command's key file (give another file's path)"
[[ ! -e g.orderly ]] || fail "new made the game though its head was refused"
expect 0 new g.orderly --scenario scenario.xml --key referee.key --head open.head
has "$OUT" "created g.orderly: battalion, 2 sides, 6 units"
has "$OUT" "signed head: open.head"
has "$(cat open.head)" "at: open"
has "$ERR" "the game's public key is $REFKEY"
expect 0 info g.orderly
has "$OUT" "key:       $REFKEY"
has "$OUT" "blue         $BLUEKEY"
# the next step says the key must be given (it is not in the file)
has "$OUT" "give it with --key FILE"
GID=$(awk '/^game id:/ {print $3}' <<<"$OUT")
SC=$(awk '/^seed commitment:/ {print $3}' <<<"$OUT")
[[ ${#GID} == 32 ]] || fail "no game id in info"
[[ ${#SC} == 64 ]] || fail "no seed commitment in info"
has "$(cat open.head)" "seed-commitment: $SC"

# blue signs on his own machine, with no game file: the head he was handed
# gives the game, the turn and its seed commitment, checked against the key
expect 65 sign --head open.head --pubkey "$BLUEKEY" --side blue --key blue.key "$FIX/blue-1.txt"
has "$ERR" "not signed by the game's key you gave"
expect 0 sign --head open.head --pubkey "$REFKEY" --side blue --key blue.key "$FIX/blue-1.txt"
SIGNED=$OUT
NONCE=$(field nonce "$SIGNED")
COMMIT=$(field commitment "$SIGNED")
SIG=$(field signature "$SIGNED")
[[ ${#NONCE} == 64 && ${#COMMIT} == 64 && ${#SIG} == 128 ]] || fail "sign printed: $SIGNED"

# an unsigned or badly signed sheet of blue is refused
expect 65 submit g.orderly --side blue "$FIX/blue-1.txt"
has "$ERR" "an unsigned sheet is refused"
expect 0 sign --game-id "$GID" --turn 2 --seed-commitment "$SC" --side blue --key blue.key "$FIX/blue-1.txt"
expect 65 submit g.orderly --side blue --nonce "$(field nonce "$OUT")" --signature "$(field signature "$OUT")" "$FIX/blue-1.txt"
has "$ERR" "the signature is not side blue's"
expect 65 submit g.orderly --side blue --nonce "$NONCE" --signature "$SIG" "$FIX/blue-2.txt"
expect 64 submit g.orderly --side blue --signature "$SIG" "$FIX/blue-1.txt"
expect 64 submit g.orderly --side blue --nonce xyz --signature "$SIG" "$FIX/blue-1.txt"
expect 0 submit g.orderly --side blue --nonce "$NONCE" --signature "$SIG" "$FIX/blue-1.txt"
has "$OUT" "commitment: $COMMIT"
has "$OUT" "signature: checked"
# red has no key: plain submissions, two versions
expect 0 submit g.orderly --side red "$FIX/red-1.txt"
RED1=$(field commitment "$OUT")
expect 0 submit g.orderly --side red "$FIX/red-1b.txt"
RED2=$(field commitment "$OUT")
cp g.orderly before-seal.orderly

# the game's key is in the referee's file, not in the game file
expect 64 seal g.orderly
has "$ERR" "--key FILE"
GSUM=$(sha256sum g.orderly)
expect 73 seal g.orderly --key referee.key --head referee.key
has "$ERR" "it is this command's key file"
expect 73 seal g.orderly --key referee.key --head ./g.orderly
has "$ERR" "it is this command's game file"
ln -s referee.key key-link
expect 73 seal g.orderly --key referee.key --head key-link
has "$ERR" "it is this command's key file"
rm key-link
[[ "$(sha256sum referee.key blue.key)" == "$KEYSUM" ]] || fail "a key file changed"
[[ "$(sha256sum g.orderly)" == "$GSUM" ]] || fail "the game changed under a refused seal"
expect 0 seal g.orderly --key referee.key --head seal.head
has "$OUT" "signed head: seal.head"
has "$(cat seal.head)" "orderly signed head v2"
has "$(cat seal.head)" "key: $REFKEY"

expect 0 event g.orderly move unit=B1 distance=2
expect 0 resolve g.orderly
expect 0 event g.orderly fire unit=R1 target=B1 range=5
expect 0 event g.orderly artillery unit=B2 target=R1 range=10
resolve_rest g.orderly
expect 65 export g.orderly --turn 1 --key referee.key
has "$ERR" "only an exchanged turn can be exported"
expect 0 exchange g.orderly --key referee.key --head exchange.head
expect 0 audit g.orderly --head seal.head --head exchange.head
has "$OUT" "clean"
has "$OUT" "the head you kept of turn 1's seal"

# turn 2's opening is signed by turn 1's exchange head: the message says so
expect 64 head g.orderly --at open --turn 2
has "$ERR" "give --at exchange --turn 1"
expect 0 head g.orderly --at exchange --turn 1 -o open-2.head
cmp -s open-2.head exchange.head || fail "the head of turn 1's exchange written again differs"

# ------------------------------------------------------------ export
expect 64 export g.orderly --turn 1
has "$ERR" "--key FILE"
expect 64 export g.orderly
expect 65 export g.orderly --turn 2 --key referee.key
expect 64 export g.orderly --turn 9 --key referee.key
expect 0 export g.orderly --turn 1 --key referee.key -o turn1.xml
[[ -s turn1.xml ]] || fail "no bundle written"
expect 0 export g.orderly --turn 1 --key referee.key
[[ "$OUT" == "$(cat turn1.xml)" ]] || fail "export to stdout differs from export to a file"

# ------------------------------------------------------------ a player verifies, in one command
expect 0 verify turn1.xml --pubkey "$REFKEY" --receipt "$COMMIT"
has "$OUT" "ok: signature by the game's key"
has "$OUT" "the sheet of blue, version 1, is here unchanged and was the one sealed"
has "$OUT" "verified: every check holds"
hasnt "$OUT" "FAILED"
expect 0 verify turn1.xml --pubkey referee.key.pub --receipt "$COMMIT" --receipt "$RED2" --head seal.head --head exchange.head
has "$OUT" "matches; nothing up to it was rewritten"
has "$OUT" "no --head of turn 1's opening (open-1.head): nothing shows the turn was not opened again"
chunked 0 verify turn1.xml --pubkey referee.key.pub --receipt "$COMMIT" --receipt "$RED2" --head open.head --head seal.head --head exchange.head
has "$OUT" "and this turn continues from it"
hasnt "$OUT" "no --pubkey"
hasnt "$OUT" "no --head"
hasnt "$OUT" "no --receipt"
expect 0 verify turn1.xml
has "$OUT" "against the bundle's own key"
# what was not given is said not checked, after the verdict
has "$OUT" "not checked:"
has "$OUT" "no --pubkey: the signature ties the bundle to no key you know"
has "$OUT" "no --head: nothing ties this history to what the referee signed before"
has "$OUT" "no --receipt: your sheet was not checked"
has "$OUT" "no --scenario or --tables: the game's own scenario and tables were not held against the files you were given"
has "$OUT" "compare the head of turn 1's exchange with the other players'"
# the exchange head's hash whole, every digit to compare: the referee
# chooses both histories he hands out, and two that share the 16 digits
# verify gave take him a birthday search of about 2^32 hashes (attack 42)
has "$OUT" "(entry $(sed -n 's/^entry: //p' exchange.head), hash $(sed -n 's/^hash: //p' exchange.head)), every digit (or the head files, with diff): another hash means another history was shown to you"
# the order of the events chooses no dice in a game made now (its rolls
# are keyed by what their events name: test_dice_by_events)
[[ "$OUT" != *"the order of the referee's events"* ]] || fail "verify says the order of the events of a game made now was not checked"
# red kept the receipt of the version it replaced: present, but not sealed
expect 1 verify turn1.xml --pubkey "$REFKEY" --receipt "$RED1"
has "$OUT" "version 2 was sealed instead"
# a head file changed on the player's disk is named, and not used
perl -pe 's/^(signature: )(.)/$1.($2 eq "0" ? "1" : "0")/e' seal.head >damaged.head
expect 65 verify turn1.xml --pubkey "$REFKEY" --head damaged.head
has "$ERR" "damaged.head: the head's signature does not hold against the key it names"
# line endings changed by a mail program
sed 's/$/\r/' turn1.xml >crlf.xml
expect 1 verify crlf.xml --pubkey "$REFKEY"
has "$OUT" "the bundle's line endings were changed in transit"
tr -d '\r' <crlf.xml >fixed.xml
expect 0 verify fixed.xml --pubkey "$REFKEY"
# another key
expect 1 verify turn1.xml --pubkey "$BLUEKEY"
has "$OUT" "not with the game's key"

# ------------------------------------------------------------ the game's scenario and tables
# the replay proves the results follow from the game's own tables: what
# they are is said beside the built-in ones, or the files the player gives
expect 0 verify turn1.xml --pubkey "$REFKEY"
has "$OUT" "ok: tables: the game's rules tables are this orderly's built-in battalion tables"
cp "$SRC/rulesets/battalion/tables.xml" tables.xml
expect 0 verify turn1.xml --pubkey "$REFKEY" --scenario scenario.xml --tables tables.xml
has "$OUT" "ok: tables: the game's rules tables are tables.xml, as you gave them"
has "$OUT" "ok: scenario: the game's is scenario.xml, as you gave it"
hasnt "$OUT" "not held against the files you were given"
# a copy that differs only in its spacing: not the game's, but every table agrees
sed 's/^  </   </' tables.xml >spaced.xml
expect 1 verify turn1.xml --pubkey "$REFKEY" --tables spaced.xml
has "$OUT" "FAILED: the game's rules tables are not spaced.xml, which you gave, byte for byte: every table agrees with it"
# a die changed is a table that differs (the table's attributes count, not its rows alone)
sed 's/die="20"/die="10"/' tables.xml >die.xml
cmp -s die.xml tables.xml && fail "no die=\"20\" in the tables (fix the test)"
expect 1 verify turn1.xml --pubkey "$REFKEY" --tables die.xml
has "$OUT" "FAILED: the game's rules tables are not die.xml, which you gave (the table"
expect 1 verify turn1.xml --pubkey "$REFKEY" --scenario "$SRC/tests/fixtures/e2e/scenario.xml"
has "$OUT" "FAILED: the game's scenario is not $SRC/tests/fixtures/e2e/scenario.xml, which you gave"
# a referee who made the game with artillery of his own (6 dead, not 2)
sed 's|<band shot="ball" from="0" to="12" dead="2" hit="5"/>|<band shot="ball" from="0" to="12" dead="6" hit="5"/>|' \
	"$SRC/rulesets/battalion/tables.xml" >evil-tables.xml
cmp -s evil-tables.xml "$SRC/rulesets/battalion/tables.xml" && fail "the evil tables are not changed"
# the note names the number changed, by its row and line, with both values
BALL=$(grep -n '<band shot="ball" from="0" to="12" dead="6"' evil-tables.xml | cut -d: -f1)
E=$SRC/tests/fixtures/e2e
expect 0 new evil.orderly --scenario "$E/scenario.xml" --tables evil-tables.xml --key referee.key
expect 0 submit evil.orderly --side red "$E/red-1.txt"
expect 0 submit evil.orderly --side blue "$E/blue-1.txt"
expect 0 seal evil.orderly --key referee.key
resolve_rest evil.orderly
expect 0 exchange evil.orderly --key referee.key
expect 0 export evil.orderly --turn 1 --key referee.key -o evil.xml
expect 0 verify evil.xml --pubkey "$REFKEY"
has "$OUT" "note: the game's rules tables are not this orderly's built-in battalion tables (the table artillery; of its other tables, artillery row 7 (line $BALL): dead is 6 where the built-in has 2): its results are checked against the game's own"
expect 1 verify evil.xml --pubkey "$REFKEY" --tables tables.xml
has "$OUT" "FAILED: the game's rules tables are not tables.xml, which you gave (the table artillery; of its other tables, artillery row 7 (line $BALL): dead is 6 where tables.xml has 2)"
expect 0 verify evil.xml --pubkey "$REFKEY" --tables evil-tables.xml
expect 0 audit evil.orderly
has "$OUT" "note: the game's rules tables are not this orderly's built-in battalion tables (the table artillery; of its other tables, artillery row 7 (line $BALL): dead is 6 where the built-in has 2)"
# a referee who made the game with a check switched off (0) and one left
# out: the note names each, with the built-in's value
perl -0777 -pe 's/<param name="gun_shot_checked" value="1"/<param name="gun_shot_checked" value="0"/; s/<param name="position_distance_checked".*?\/>\n//s' \
	"$SRC/rulesets/battalion/tables.xml" >weak-tables.xml
cmp -s weak-tables.xml "$SRC/rulesets/battalion/tables.xml" && fail "the weak tables are not changed"
expect 0 new weak.orderly --scenario "$E/scenario.xml" --tables weak-tables.xml --key referee.key
expect 0 audit weak.orderly
has "$OUT" "note: the game's rules tables are not this orderly's built-in battalion tables (the table checks; of its parameters, gun_shot_checked is 0 where the built-in has 1, position_distance_checked is left out where the built-in has 1): its results are checked against the game's own"

# ------------------------------------------------------------ every kind of change is caught
tamper() {  # tamper NAME PERL-SUBSTITUTION EXPECTED-TEXT
	perl -0777 -pe "$2" turn1.xml >"$1.xml"
	cmp -s turn1.xml "$1.xml" && fail "$1: the change changed nothing"
	chunked 1 verify "$1.xml" --pubkey "$REFKEY" --receipt "$COMMIT"
	has "$OUT" "FAILED"
	has "$OUT" "$3"
}
tamper sheet 's/(<sheet side="blue"[^>]*>)(.)/$1.($2 eq "A" ? "B" : "A")/e' "the signature does not hold"
tamper nonce 's/( nonce=")(.)/$1.($2 eq "0" ? "1" : "0")/e' "the signature does not hold"
tamper commitment 's/(<sheet [^>]* commitment=")(.)/$1.($2 eq "0" ? "1" : "0")/e' "the signature does not hold"
tamper seed 's/(<seed>)(.)/$1.($2 eq "0" ? "1" : "0")/e' "the signature does not hold"
tamper loghash 's/(<entry seq="5"[^>]* hash=")(.)/$1.($2 eq "0" ? "1" : "0")/e' "the signature does not hold"
tamper roll 's/(<roll [^>]* value=")(\d)/$1.($2 eq "1" ? "2" : "1")/e' "the signature does not hold"
tamper result 's/(<explanation>)(.)/$1.($2 eq "a" ? "b" : "a")/e' "the signature does not hold"
tamper signature 's/(<signature>)(.)/$1.($2 eq "0" ? "1" : "0")/e' "the signature does not hold"
tamper appended 's/$/<!-- more -->\n/' "the signature is not the last element"
# the untouched bundle still verifies: no false alarm
chunked 0 verify turn1.xml --pubkey "$REFKEY" --receipt "$COMMIT"
# the knob set wrong is told at once, not taken as its default
for bad in 0 1048577 abc 1k ""; do
	ORDERLY_ROWS_CHUNK=$bad expect 64 verify turn1.xml --pubkey "$REFKEY" --receipt "$COMMIT"
	has "$ERR" "ORDERLY_ROWS_CHUNK is '$bad': expected a number from 1 to 1048576"
	[[ -z "$OUT" ]] || fail "verify printed a verdict with ORDERLY_ROWS_CHUNK=$bad: $OUT"
done
ORDERLY_ROWS_CHUNK=1048576 expect 0 verify turn1.xml --pubkey "$REFKEY" --receipt "$COMMIT"
# and from what is no regular file, read once (a red team's finding: a pipe
# was opened again to read the rows again, and a FIFO waited for a writer)
run sh -c "cat turn1.xml | '$ORDERLY' verify /dev/stdin"
[[ "$RC" == 0 ]] || fail "verify of a pipe as /dev/stdin exited $RC: $ERR"
mkfifo bundle.fifo
cat turn1.xml >bundle.fifo &
run timeout 60 "$ORDERLY" verify bundle.fifo
[[ "$RC" == 0 ]] || fail "verify of a FIFO exited $RC: $ERR"
wait

# ------------------------------------------------------------ unreadable bundles, usage
perl -0777 -pe 's/\?>\n/?>\n<!DOCTYPE bundle [<!ENTITY x "y">]>\n/' turn1.xml >doctype.xml
expect 65 verify doctype.xml
has "$ERR" "DOCTYPE"
printf '<bundle/>' >empty.xml
expect 65 verify empty.xml
# A bundle past the size from which verify lets the pages it has read go
# (12 MB of comments after its title), refused as it is from standard
# input (which keeps every byte): cut short inside its rows (the parser
# names the element and line from a scan from the start, made again from
# the bytes read back), and broken in its rows (what the refusal says of
# the whole bytes, read back).
big() {
	perl -0777 -pe 's{(</title>\n)}{$1 . ("  <!-- " . ("x" x 50) . " -->\n") x 200000}e' turn1.xml >"$1"
}
big big-cut.xml
truncate -s -2000 big-cut.xml
big big-broken.xml
perl -0777 -pi -e 's{(<state [^>]*>)}{$1<}' big-broken.xml
for f in big-cut.xml big-broken.xml; do
	expect 65 verify "$f"
	from_file=$ERR
	run "$ORDERLY" verify - <"$f"
	[[ "$RC" == 65 && "${ERR//<stdin>/$f}" == "$from_file" ]] ||
		fail "$f: verify of the file says '$from_file', from standard input (exit $RC) '$ERR'"
done
has "$from_file" "big-broken.xml"
# A value its datatype takes but not of the form orderly writes (a count
# with a leading zero: the schema says positiveInteger, the reader the
# form), far into the rows of such a bundle: refused as the bundle's form,
# exit 65, naming the value's line and column, from the file as from
# standard input.
big big-value.xml
perl -0777 -pi -e 's{<state log="}{<state log="0}' big-value.xml
line=$(grep -n -m1 '<state log="0' big-value.xml | cut -d: -f1)
log=$(grep -o -m1 '<state log="0[0-9]*"' big-value.xml | sed 's/.*log="//; s/"//')
expect 65 verify big-value.xml
[[ "$ERR" == *"big-value.xml does not have the form of a bundle: it was changed or damaged (big-value.xml:$line:15: <state> log '$log' is not valid (expected a count: 1 to 18 digits, the first not 0))" ]] ||
	fail "verify of big-value.xml: $ERR"
[[ -z "$OUT" ]] || fail "verify of big-value.xml printed a verdict: $OUT"
from_file=$ERR
run "$ORDERLY" verify - <big-value.xml
[[ "$RC" == 65 && "${ERR//<stdin>/big-value.xml}" == "$from_file" ]] ||
	fail "big-value.xml: verify of the file says '$from_file', from standard input (exit $RC) '$ERR'"
expect 66 verify missing.xml
expect 64 verify
expect 64 verify turn1.xml --receipt 12ab
expect 64 verify turn1.xml --frobnicate
expect 64 verify turn1.xml --pubkey nosuchkey

# ------------------------------------------------------------ a history rewritten after a signed head
# The host restores the copy he made before the seal, gives red another
# sheet and replays the turn: the file is consistent again, the chain
# recomputed, the heads re-signed; only the heads the players kept show it.
cp before-seal.orderly g.orderly
expect 0 submit g.orderly --side red "$FIX/red-1.txt"
expect 0 seal g.orderly --key referee.key
expect 0 event g.orderly move unit=B1 distance=2
expect 0 resolve g.orderly
resolve_rest g.orderly
expect 0 exchange g.orderly --key referee.key
expect 0 audit g.orderly
has "$OUT" "clean"
expect 1 audit g.orderly --head seal.head
has "$OUT" "the history up to it was rewritten"
expect 1 audit g.orderly --head exchange.head
expect 0 export g.orderly --turn 1 --key referee.key -o rewritten.xml
expect 0 verify rewritten.xml --pubkey "$REFKEY" --receipt "$COMMIT"
expect 1 verify rewritten.xml --pubkey "$REFKEY" --receipt "$COMMIT" --head seal.head
has "$OUT" "the history up to it was rewritten"
# and red's receipt of the sheet it last sent is no longer the sealed one
expect 1 verify rewritten.xml --pubkey "$REFKEY" --receipt "$RED2"
has "$OUT" "version 3 was sealed instead"

# ------------------------------------------------------------ a bundle over 16 MiB
# verify reads a bundle as a stream, of up to 2 GiB: a bundle over the
# 16 MiB every other input is held to (here a sheet of 12.5 MB of
# comments, base64 in the bundle) is exported with no note and verified
# (before the stream it was refused by its size, and export said it could
# not be verified).
D=$SRC/rulesets/battalion/examples
expect 0 new big.orderly --scenario "$D/scenario.xml"
{
	cat "$D/demo/turn1-french.txt"
	head -c 12500000 /dev/zero | tr '\0' 'x' | fold -w 99 | sed 's/^/# /'
} >big-french.txt
expect 0 submit big.orderly --side french big-french.txt
expect 0 submit big.orderly --side allied "$D/demo/turn1-allied.txt"
expect 0 seal big.orderly
resolve_rest big.orderly
expect 0 exchange big.orderly
expect 0 export big.orderly --turn 1 -o big.xml
[ -z "$ERR" ] || fail "export of a bundle over 16 MiB said: $ERR"
[ "$(stat -c %s big.xml)" -gt $((16 * 1024 * 1024)) ] || fail "big.xml is not over 16 MiB"
expect 0 info big.orderly
BIGKEY=$(sed -n 's/^key: *//p' <<<"$OUT")
expect 0 verify big.xml --pubkey "$BIGKEY"
has "$OUT" "verified: every check holds"

# ------------------------------------------------------------ a game with fixed dice says so
# The referee gives every die of a fixed-dice game (a test game, 'new
# --fixed-dice'): every check can hold and prove nothing of its dice.  Its
# heads, its bundle, verify and audit say so plainly, and sign and export
# warn (red-team finding 4: verify said "every check holds" with a note).
expect 0 new fixed.orderly --scenario "$D/scenario.xml" --fixed-dice --head fixed-open.head
[[ "$(sed -n 2p fixed-open.head)" == "# FIXED DICE: a test game made with 'orderly new --fixed-dice'." ]] ||
	fail "the open head of a fixed-dice game does not say so first: $(cat fixed-open.head)"
has "$(cat fixed-open.head)" "# ('orderly sign --head FILE'), but the dice are not drawn from it."
hasnt "$(cat open.head)" "FIXED DICE"
expect 0 sign --head fixed-open.head --side french --key blue.key "$D/demo/turn1-french.txt"
[[ "$ERR" == "orderly: warning: 'fixed-open.head' is the head of a fixed-dice game (made with 'orderly new --fixed-dice'): the referee chooses every die, none is drawn from the seed your sheet commits to, so its rolls prove nothing" ]] ||
	fail "sign with a fixed-dice game's head warns: $ERR"
expect 0 sign --head open.head --pubkey "$REFKEY" --side blue --key blue.key "$FIX/blue-1.txt"
[[ -z "$ERR" ]] || fail "sign with a head of drawn dice warns: $ERR"
expect 0 submit fixed.orderly --side french "$D/demo/turn1-french.txt" --receipt-head fixed-receipt.head
[[ "$(sed -n 3p fixed-receipt.head)" == "# FIXED DICE: a test game made with 'orderly new --fixed-dice'." ]] ||
	fail "the receipt of a fixed-dice game does not say so: $(cat fixed-receipt.head)"
expect 0 submit fixed.orderly --side allied "$D/demo/turn1-allied.txt"
expect 0 seal fixed.orderly
resolve_rest fixed.orderly
expect 0 exchange fixed.orderly
expect 0 export fixed.orderly --turn 1 -o fixed.xml
[[ "$ERR" == "orderly: warning: 'fixed.orderly' is a fixed-dice game (made with 'orderly new --fixed-dice'): the bundle signed says its dice were chosen by the referee, not drawn, and verify says so" ]] ||
	fail "export of a fixed-dice game warns: $ERR"
[[ "$(sed -n 2p fixed.xml)" == *' referee="yes" dice="fixed">' ]] || fail "the bundle's root: $(sed -n 2p fixed.xml)"
hasnt "$(sed -n 2p turn1.xml)" "dice="
FIXEDKEY=$(field "key" "$("$ORDERLY" info fixed.orderly)" | sed 's/^ *//')
expect 0 verify fixed.xml --pubkey "$FIXEDKEY" --receipt fixed-receipt.head --head fixed-open.head
[[ "$(head -1 <<<"$OUT")" == "bundle 'fixed.xml': game "*", turn 1, ruleset battalion, refereed, fixed dice (the referee chose every die; none was drawn)" ]] ||
	fail "verify's first line: $(head -1 <<<"$OUT")"
grep -qx "verified: every check holds, but the dice were fixed, not drawn: the referee chose every die (a game made with 'new --fixed-dice')" <<<"$OUT" ||
	fail "verify's verdict of a fixed-dice game: $OUT"
hasnt "$OUT" "
verified: every check holds
"
[[ "$(sed -n '/^not checked:$/,$p' <<<"$OUT" | sed -n 2,3p)" == "  no --scenario or --tables: the game's own scenario and tables were not held against the files you were given (the results follow from the game's own)
  the dice: a fixed-dice game (made with 'new --fixed-dice'): the referee chose every die and none was drawn from the sealed seed, so nothing shows a roll was not chosen to suit him" ]] ||
	fail "verify's not checked of a fixed-dice game: $OUT"
# a game whose dice are drawn: none of it
hasnt "$("$ORDERLY" verify big.xml 2>&1)" "fixed"
expect 0 audit fixed.orderly
[[ "$(tail -1 <<<"$OUT")" == "clean: no sheet, log entry, roll or result has changed since it was written, and every phase is what the rules give; but the dice were fixed, not drawn: the referee chose every die (a game made with 'new --fixed-dice')" ]] ||
	fail "audit's verdict of a fixed-dice game: $(tail -1 <<<"$OUT")"
expect 0 audit big.orderly
[[ "$(tail -1 <<<"$OUT")" == "clean: no sheet, log entry, roll or result has changed since it was written, and every phase is what the rules give" ]] ||
	fail "audit's verdict of a game of drawn dice: $(tail -1 <<<"$OUT")"

echo "test_bundle: ok"
