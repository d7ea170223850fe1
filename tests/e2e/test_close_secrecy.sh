#!/usr/bin/env bash
# test_close_secrecy.sh - what a player learns of the other side's events
# from the head of a witnessed phase's close, before the exchange (threat
# model, attack 49).  The close head is handed to every side before it
# reveals its link; it signs the hash of the close's log entry, which
# chains from the seal's (whose head he holds too) over every event the
# referee recorded in the phase.  An event's entry says nothing secret
# (its kind and arguments, its number, the second it was logged), so a
# player who guesses the events, logs them in a game of his own made from
# the public scenario, and chains their entries from the seal's hash at
# the seconds between the two heads, found the one the head signs: red's
# move, which met no blue unit and which blue's report hides until the
# exchange.  Now the close logs a blind drawn from the turn's seed (secret
# until the exchange), so no guess gives the hash; the verifier holds the
# blind to the seed once it is revealed, and a blind the seed does not
# give fails; a close of an orderly before, which logs none, audits clean
# as before.  The number of entries between the two heads, which the
# heads' entry numbers gave, is no longer said: a close head states none
# (test_close_count.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_sqlite3
[[ -x "${FORGE:-}" ]] || fail "no ord_forge (set FORGE)"
BFIX=$SRC/tests/fixtures/bundle
cd "$TMP"
unkeyed_scenario scenario.xml
expect_exit 0 ord keygen blue.key
expect_exit 0 ord keygen red.key
# red's real orders: blue never sees them before the exchange
printf '# Red, turn 1\nR1 ↑ 1/4\nR2 → 1/4\nR3 ↑ 1/2\n' >red.txt

# The referee's witnessed game: blue holds the seal and close heads.
expect_exit 0 ord new w.game --scenario scenario.xml --witnessed --head open.head
expect_exit 0 ord submit w.game --side blue --witness-key blue.key "$BFIX/blue-1.txt"
expect_exit 0 ord submit w.game --side red --witness-key red.key red.txt
FROM=$(date +%s)
expect_exit 0 ord seal w.game --head seal.head
expect_exit 0 ord event w.game move unit=B1 distance=2
expect_exit 0 ord event w.game move unit=R1 distance=1.5
expect_exit 0 ord witness w.game --close --head close-1.head
TO=$(date +%s)
expect_in "$(cat close-1.head)" "at: close"

# Blue's guesses, each logged in a game of his own from the scenario: his
# own move as his sheet has it, red's R1 at each distance a line's quarter
# move may be.  His red sheet is one that lets every guess through.
printf '# Red as blue guesses it\nR1 ↑ 1/2\n' >red-guess.txt
expect_exit 0 ord new base.game --scenario scenario.xml --witnessed
expect_exit 0 ord submit base.game --side blue --witness-key blue.key "$BFIX/blue-1.txt"
expect_exit 0 ord submit base.game --side red --witness-key red.key red-guess.txt
expect_exit 0 ord seal base.game
matched=()
for d in 0.5 1 1.5 2 2.5; do
	cp base.game "guess-$d.game"
	expect_exit 0 ord event "guess-$d.game" move unit=B1 distance=2
	expect_exit 0 ord event "guess-$d.game" move unit=R1 distance="$d"
	expect_exit 0 ord witness "guess-$d.game" --close
	run "$FORGE" guess-close "guess-$d.game" seal.head close-1.head "$FROM" "$TO"
	[[ $RC == 0 || $RC == 1 ]] || fail "ord_forge guess-close exited $RC"
	# the close head states no entry number (test_close_count.sh): the
	# player guesses how many entries the referee logged too
	expect_in "$OUT" "the close head states no entry number: tried as 3 entries after the seal head's (entry 6)"
	[[ $RC == 0 ]] && matched+=("$d")
done
# the true move is the one a close head without a blind gives away
expect_eq "${matched[*]-}" "" "the guesses of red's move the close head confirms"

# and the phase's results hide R1's move from blue until the exchange
expect_exit 0 ord witness w.game --side blue --key blue.key
expect_exit 0 ord witness w.game --side red --key red.key
expect_exit 0 ord resolve w.game
expect_exit 0 ord report w.game --side blue
expect_not_in "$OUT" "R1 1st Red Foot"
expect_not_in "$OUT" "moved 1.5"

# The blind is the seed's: the referee cannot write another (a free value
# in the entry every close head signs).  Made another and the chain and
# heads signed again, the audit and a player's verify fail.
close_seq=$(sql w.game "SELECT seq FROM log WHERE kind = 'close'")
body=$(sql w.game "SELECT body FROM log WHERE seq = $close_seq")
expect_line "$body" '^blind=[0-9a-f]{64}$'
blind=$(sed -n 's/^blind=//p' <<<"$body")
cp w.game blind.game
sql blind.game "UPDATE log SET body = replace(body, 'blind=$blind', 'blind=$(printf '%064d' 0)')
	WHERE seq = $close_seq" >/dev/null
"$FORGE" rechain blind.game || fail "ord_forge rechain"
run ord audit blind.game
[[ $RC == 1 ]] || fail "audit of a close with a blind the seed does not give exited $RC"
expect_in "$OUT" "phase 1 (movement): its close (entry $close_seq) logs a blind that is not the one the turn's seed gives"
# a close of an orderly before the blind logs none: such a game audits
# clean as before (the blind's line taken out, the chain made again)
cp w.game old.game
sql old.game "UPDATE log SET body = replace(body, 'blind=$blind' || char(10), '')
	WHERE seq = $close_seq" >/dev/null
expect_not_in "$(sql old.game "SELECT body FROM log WHERE seq = $close_seq")" "blind="
"$FORGE" rechain old.game || fail "ord_forge rechain"
expect_exit 0 ord audit old.game
expect_in "$OUT" "clean"
# the honest game, played on, audits and verifies clean
for _ in 1 2 3 4; do
	expect_exit 0 ord witness w.game --close
	expect_exit 0 ord witness w.game --side blue --key blue.key
	expect_exit 0 ord witness w.game --side red --key red.key
	expect_exit 0 ord resolve w.game --phase "$(phase_of w.game)" --empty
done
expect_exit 0 ord exchange w.game --head exchange.head
expect_exit 0 ord audit w.game
expect_in "$OUT" "clean"
expect_exit 0 ord export w.game --turn 1 -o turn-1.xml
KEY=$(ord info w.game | awk '/^key:/ {print $2}')
expect_exit 0 ord verify turn-1.xml --pubkey "$KEY" --head open.head --head seal.head \
	--head close-1.head --head exchange.head
expect_in "$OUT" "verified"
note "ok"
