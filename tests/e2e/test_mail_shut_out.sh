#!/usr/bin/env bash
# test_mail_shut_out.sh - attack 37 (docs/threat-model.md): a side whose
# only proof by mail is its passphrase, shut out of a turn by wrong
# passphrases anyone who knows its address can send.  Five forged mails
# in blue's name suspend blue's passphrase proofs for an hour (J12); blue's
# own orders, with the right passphrase, are then refused unchecked; the
# deadline passes, the turn is sealed with the NMR policy standing in for
# blue.  The audit and the bundle's verify said only that the NMR policy
# stood in for blue, as for a side that missed its time: now the judge
# logs the suspension (mail-suspended) and both note it, with its times;
# red, held too but never suspended, is not named.  A new passphrase
# ends a suspension (mail-unsuspended): the note holds it to the time it
# ran.  A suspension begun in turn 1 that runs into turn 2 is logged again
# as turn 2 opens, and noted at turn 2's seal (it was not).  Mails go
# straight to `orderly mail-in`, no MTA; the real clock (the log's).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_sqlite3
cd "$TMP"
mkdir games
G=games/cross.orderly
# the mail tests' scenario without its schedule: no grace after the deadline
sed '/<schedule /d' "$SRC/tests/mail/data/scenario.xml" >scenario.xml
ord new "$G" --scenario scenario.xml >/dev/null 2>&1
printf 'blue shako and sabre\n' | ord register "$G" --side blue --passphrase-file - >/dev/null

# mail_blue ID PASSPHRASE: blue's address on orders with that passphrase
mail_blue() {
	printf 'From: Blue <blue@club.test>\nTo: orderly+cross@judge.test\nSubject: orders\nMessage-ID: <%s@club.test>\nContent-Type: text/plain; charset=utf-8\n\nPassphrase: %s\nORDERS\nB1 ↑ 1/2\nEND\n' \
		"$1" "$2" | ord mail-in --games games >/dev/null 2>&1
}
result() {
	sql "$G" "SELECT result FROM mail_inbox WHERE message_id = '$1'"
}

for i in 1 2 3 4 5; do
	mail_blue "guess-$i" "guess number $i"
	expect_eq "$(result "guess-$i@club.test")" \
		"not proven (the passphrase is wrong): nothing changed$([[ $i -gt 2 ]] && echo ' (no reply: notices per hour of mail not proven used up)')" \
		"guess $i's result"
done
# the fifth began the suspension: logged once, with its end
expect_eq "$(sql "$G" "SELECT count(*) FROM log WHERE kind = 'mail-suspended'")" 1 "suspensions logged"
until_logged=$(sql "$G" "SELECT body FROM log WHERE kind = 'mail-suspended'")
expect_in "$until_logged" "side=blue"
expect_in "$until_logged" "wrong=5"
# the player's own orders, the right passphrase: refused unchecked
mail_blue right "blue shako and sabre"
expect_in "$(result right@club.test)" "not proven (passphrase proofs of blue are suspended until "
expect_eq "$(sql "$G" "SELECT count(*) FROM sheet")" 0 "sheets stored"
# the referee's notice says blue has no other proof
notice=$(sql "$G" "SELECT CAST(bytes AS TEXT) FROM mail_outbox WHERE rcpt = 'referee@club.test' AND CAST(bytes AS TEXT) LIKE '%not checked until%'")
expect_in "$notice" "blue has no other proof registered"

# the deadline passes, sealed unforced: the NMR policy stands in for both
expect_exit 0 ord deadline "$G" "$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%SZ)"
# (a game made since, made=, seals unforced from the deadline's second
# second on: threat model, attack 36)
sleep 4
expect_exit 0 ord seal "$G"
resolve_rest "$G"
expect_exit 0 ord exchange "$G"

run ord audit "$G"
expect_eq "$RC" 0 "the audit's exit"
seal_seq=$(sql "$G" "SELECT seq FROM log WHERE kind = 'seal'")
susp_seq=$(sql "$G" "SELECT seq FROM log WHERE kind = 'mail-suspended'")
expect_in "$OUT" "seal: entry $seal_seq seals the latest sheet of each of the 2 sides; the NMR policy stood in for blue, red"
expect_line "$OUT" "^    note: seal: blue, whose units took the NMR policy's orders, had its passphrase proofs by mail suspended \\(entry $susp_seq\\) from [0-9T:-]+Z until [0-9T:-]+Z, past the deadline of [0-9T:-]+Z, after wrong passphrases that anyone who knows its address can send: it may have been shut out of this turn, not missed its time$"
expect_not_in "$OUT" "seal: red, whose units"
audit_note=$(grep "note: seal: blue, whose" <<<"$OUT" | sed 's/^ *//')

expect_exit 0 ord export "$G" --turn 1 --output turn-1.xml
run ord verify turn-1.xml
expect_eq "$RC" 0 "verify's exit"
expect_in "$OUT" "$audit_note"
expect_not_in "$OUT" "seal: red, whose units"

# when the suspension ended: less than an hour before the deadline, noted
# as such; more than an hour before, not noted (the side had its time).
# A fixed-dice game's clock (ORDERLY_TEST_NOW) is the judge's: the guesses
# come hours before the real time, the deadline just after it, and the
# seal (the real clock) just after that.
shut_out_at() {
	local g=games/$1.orderly ago=$2 i
	ord new "$g" --scenario scenario.xml --fixed-dice >/dev/null 2>&1
	printf 'blue shako and sabre\n' | ord register "$g" --side blue --passphrase-file - >/dev/null
	for i in 1 2 3 4 5; do
		printf 'From: Blue <blue@club.test>\nTo: orderly+%s@judge.test\nSubject: orders\nMessage-ID: <%s-%d@club.test>\nContent-Type: text/plain; charset=utf-8\n\nPassphrase: guess number %d\nORDERS\nB1 ↑ 1/2\nEND\n' \
			"$1" "$1" "$i" "$i" | ORDERLY_TEST_NOW=$(($(date +%s) - ago)) ord mail-in --games games >/dev/null 2>&1
	done
	expect_eq "$(sql "$g" "SELECT count(*) FROM log WHERE kind = 'mail-suspended'")" 1 "$1: suspensions logged"
	ORDERLY_TEST_NOW=$(($(date +%s) - ago)) expect_exit 0 ord deadline "$g" "$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%SZ)"
}
shut_out_at soon 5400
shut_out_at long 9000

# a new passphrase ends the suspension (the guesses were of the old one),
# logged (mail-unsuspended): the note holds it to the time it ran.
# utc T: T as the note writes it
utc() {
	date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ
}
# lifted NAME AGO LIFT: guesses AGO seconds ago, the new passphrase LIFT
# seconds ago (the judge's clock), the deadline in two seconds (logged in
# deadline_NAME)
lifted() {
	local g=games/$1.orderly base i
	base=$(date +%s)
	ord new "$g" --scenario scenario.xml --fixed-dice >/dev/null 2>&1
	printf 'blue shako and sabre\n' | ord register "$g" --side blue --passphrase-file - >/dev/null
	for i in 1 2 3 4 5; do
		printf 'From: Blue <blue@club.test>\nTo: orderly+%s@judge.test\nSubject: orders\nMessage-ID: <%s-%d@club.test>\nContent-Type: text/plain; charset=utf-8\n\nPassphrase: guess number %d\nORDERS\nB1 ↑ 1/2\nEND\n' \
			"$1" "$1" "$i" "$i" | ORDERLY_TEST_NOW=$((base - $2)) ord mail-in --games games >/dev/null 2>&1
	done
	run bash -c "printf 'blue busby and lance\n' | ORDERLY_TEST_NOW=$((base - $3)) \"\$ORDERLY\" register $g --side blue --passphrase-file -"
	expect_eq "$RC" 0 "$1: register's exit"
	expect_in "$OUT" "the passphrase proofs by mail of blue, suspended until $(utc $((base - $2 + 3600))) after wrong passphrases, are checked again from now: the new passphrase ends the suspension (logged, mail-unsuspended)"
	expect_eq "$(sql "$g" "SELECT body FROM log WHERE kind = 'mail-unsuspended'")" \
		"$(printf 'side=blue\nuntil=%d\nended=%d' $((base - $2 + 3600)) $((base - $3)))" "$1: the end logged"
	eval "base_$1=$base"
	eval "deadline_$1=$(($(date +%s) + 2))"
	expect_exit 0 ord deadline "$g" "$(utc $((deadline_$1)))"
}
# ended 23 minutes after it began, more than an hour before the deadline:
# not noted (unlifted, it ran until half an hour before and was)
lifted early 5400 4000
# ended 100 s after it began, half an hour before the deadline: noted
lifted late 1800 1700

# a suspension begun in turn 1 that runs into turn 2, past turn 2's
# deadline: logged again when turn 2 opened (carried=1), noted at its seal
g=games/carried.orderly
base_carried=$(date +%s)
ord new "$g" --scenario scenario.xml --fixed-dice >/dev/null 2>&1
printf 'blue shako and sabre\n' | ord register "$g" --side blue --passphrase-file - >/dev/null
for i in 1 2 3 4 5; do
	printf 'From: Blue <blue@club.test>\nTo: orderly+carried@judge.test\nSubject: orders\nMessage-ID: <carried-%d@club.test>\nContent-Type: text/plain; charset=utf-8\n\nPassphrase: guess number %d\nORDERS\nB1 ↑ 1/2\nEND\n' \
		"$i" "$i" | ORDERLY_TEST_NOW=$((base_carried - 1800)) ord mail-in --games games >/dev/null 2>&1
done
expect_exit 0 ord seal "$g" --force
resolve_rest "$g"
expect_exit 0 ord exchange "$g"
expect_eq "$(sql "$g" "SELECT turn || ': ' || replace(body, char(10), ' ') FROM log WHERE kind = 'mail-suspended' ORDER BY seq")" \
	"$(printf '1: side=blue until=%d wrong=5 \n2: side=blue until=%d wrong=5 carried=1 ' $((base_carried + 1800)) $((base_carried + 1800)))" \
	"carried: the suspension logged in turn 1 and again as turn 2 opened"
expect_eq "$(sql "$g" "SELECT group_concat(kind, ' ') FROM (SELECT kind FROM log WHERE turn = 2 ORDER BY seq)")" \
	"open mail-suspended" "carried: turn 2's log"
deadline_carried=$(($(date +%s) + 2))
expect_exit 0 ord deadline "$g" "$(utc $deadline_carried)"

# past the deadline's second second, from which the seal stands in
sleep 4
for g in soon long early late carried; do
	expect_exit 0 ord seal "games/$g.orderly"
done
run ord audit games/soon.orderly
expect_eq "$RC" 0 "the audit's exit (ended half an hour before)"
expect_line "$OUT" "^    note: seal: blue, whose units took the NMR policy's orders, had its passphrase proofs by mail suspended \\(entry [0-9]+\\) from [0-9T:-]+Z until [0-9T:-]+Z, less than an hour before the deadline of [0-9T:-]+Z, after wrong passphrases"
run ord audit games/long.orderly
expect_eq "$RC" 0 "the audit's exit (ended an hour and a half before)"
expect_in "$OUT" "the NMR policy stood in for blue, red"
expect_not_in "$OUT" "passphrase proofs by mail suspended"

run ord audit games/early.orderly
expect_eq "$RC" 0 "the audit's exit (lifted more than an hour before)"
expect_in "$OUT" "the NMR policy stood in for blue, red"
expect_not_in "$OUT" "passphrase proofs by mail suspended"
run ord audit games/late.orderly
expect_eq "$RC" 0 "the audit's exit (lifted half an hour before)"
susp_seq=$(sql games/late.orderly "SELECT seq FROM log WHERE kind = 'mail-suspended'")
lift_seq=$(sql games/late.orderly "SELECT seq FROM log WHERE kind = 'mail-unsuspended'")
expect_in "$OUT" "note: seal: blue, whose units took the NMR policy's orders, had its passphrase proofs by mail suspended (entry $susp_seq) from $(utc $((base_late - 1800))) until $(utc $((base_late - 1700))) (a new passphrase ended it, entry $lift_seq), less than an hour before the deadline of $(utc $deadline_late), after wrong passphrases that anyone who knows its address can send: it may have been shut out of this turn, not missed its time"

g=games/carried.orderly
run ord audit "$g" --turn 2
expect_eq "$RC" 0 "the audit's exit (carried)"
susp_seq=$(sql "$g" "SELECT seq FROM log WHERE kind = 'mail-suspended' AND turn = 2")
carried_note="note: seal: blue, whose units took the NMR policy's orders, had its passphrase proofs by mail suspended (entry $susp_seq) from $(utc $((base_carried - 1800))) until $(utc $((base_carried + 1800))), past the deadline of $(utc $deadline_carried), after wrong passphrases that anyone who knows its address can send: it may have been shut out of this turn, not missed its time"
expect_in "$OUT" "$carried_note"
expect_not_in "$OUT" "seal: red, whose units"
resolve_rest "$g"
expect_exit 0 ord exchange "$g"
expect_exit 0 ord export "$g" --turn 2 --output carried-2.xml
run ord verify carried-2.xml
expect_eq "$RC" 0 "verify's exit (carried)"
expect_in "$OUT" "$carried_note"
