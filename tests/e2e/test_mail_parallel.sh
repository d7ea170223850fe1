#!/usr/bin/env bash
# test_mail_parallel.sh - mail-in processes at once share one count of a
# party's wrong passphrases (threat model 28, J12): twelve guesses handed to
# twelve `orderly mail-in` processes started together are checked five
# times (register --passphrase-tries, the default), each of the other seven
# refused unchecked, and the player and the referee are told once each.  A
# count kept in each process, or read and written in two transactions,
# lets every guess through.  Then proven mail from many processes at once:
# every sheet stored, each version once.  Mails go straight to
# `orderly mail-in`, no MTA.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_sqlite3
cd "$TMP"
cross_game games

result() {
	sql "$G" "SELECT result FROM mail_inbox WHERE message_id = '$1'"
}
# guess N: a mail from blue's address with a wrong passphrase, as its own
# mail-in process
guess() {
	printf 'From: Blue <blue@club.test>\nTo: orderly+cross@judge.test\nSubject: status\nMessage-ID: <guess-%s@club.test>\n\nPassphrase: guess number %s\nSTATUS\n' "$1" "$1" |
		ord mail-in --games games >/dev/null 2>&1
}

pids=()
for i in $(seq 1 12); do
	guess "$i" &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || fail "a mail-in process failed"; done

wrong=$(sql "$G" "SELECT count(*) FROM mail_inbox WHERE message_id LIKE 'guess-%' AND result LIKE 'not proven (the passphrase is wrong)%'")
held=$(sql "$G" "SELECT count(*) FROM mail_inbox WHERE message_id LIKE 'guess-%' AND result LIKE 'not proven (passphrase proofs of blue are suspended until %'")
expect_eq "$wrong" 5 "guesses checked by twelve processes at once"
expect_eq "$held" 7 "guesses refused unchecked"
expect_eq "$(sql "$G" "SELECT count(*) FROM mail_inbox WHERE message_id LIKE 'guess-%'")" 12 "guesses in the inbox"
expect_eq "$(sql "$G" "SELECT count(*) FROM mail_pass_fail WHERE party = 'blue'")" 5 "wrong passphrases counted"
# told once each, with the five mails counted
notices=$(sql "$G" "SELECT rcpt FROM mail_outbox WHERE CAST(bytes AS TEXT) LIKE '%Subject: [cross] passphrases of blue not checked until%' ORDER BY rcpt")
expect_eq "$notices" $'blue@club.test\nreferee@club.test' "the suspension's notices"
# the right one now: not checked
printf 'From: Blue <blue@club.test>\nTo: orderly+cross@judge.test\nSubject: status\nMessage-ID: <right@club.test>\n\nPassphrase: blue shako and sabre\nSTATUS\n' |
	ord mail-in --games games >/dev/null 2>&1
expect_in "$(result right@club.test)" "not proven (passphrase proofs of blue are suspended until "

# ---- proven mail at once: the referee's passphrase is his own; eight
# STATUS mails of his in eight processes are each answered, once
pids=()
for i in $(seq 1 8); do
	printf 'From: Ref <referee@club.test>\nTo: orderly+cross@judge.test\nSubject: status\nMessage-ID: <ref-%s@club.test>\n\nPassphrase: umpire of the table\nSTATUS\n' "$i" |
		ord mail-in --games games >/dev/null 2>&1 &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || fail "a mail-in process failed"; done
expect_eq "$(sql "$G" "SELECT count(*) FROM mail_inbox WHERE message_id LIKE 'ref-%' AND result = 'status sent'")" 8 \
	"the referee's mails answered (right passphrases checked at once wait for each other, none refused)"
expect_eq "$(sql "$G" "SELECT count(*) FROM mail_pass_fail WHERE party <> 'blue'")" 0 "the referee's right passphrases counted"
expect_eq "$(sql "$G" "SELECT count(*) FROM mail_pass_fail WHERE pending")" 0 "checks left pending"
ord audit "$G" >/dev/null || fail "the audit after mail at once"
note "ok"
