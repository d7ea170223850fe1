#!/usr/bin/env bash
# test_mail_passphrase.sh - the refusal of a late or empty sheet is queued
# whatever used up the player's replies per hour (docs/pbem.md: the answer
# to a sheet always goes).  Mails go straight to `orderly mail-in`, no MTA.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_sqlite3
cd "$TMP"
mkdir games
G=games/cross.orderly
ord new "$G" --scenario "$SRC/tests/mail/data/scenario.xml" >/dev/null 2>&1
printf 'blue shako and sabre\n' | ord register "$G" --side blue --passphrase-file - >/dev/null
printf 'umpire of the table\n' | ord register "$G" --referee --passphrase-file - >/dev/null

mailin() {
	ord mail-in --games games >/dev/null 2>&1
}
result() {
	sql "$G" "SELECT result FROM mail_inbox WHERE message_id = '$1'"
}

# ---- the refusal of a late sheet goes, whatever used up the replies
ord register "$G" --replies-per-hour 2 >/dev/null
printf 'From: Ref <referee@club.test>\nTo: orderly+cross@judge.test\nSubject: x\nMessage-ID: <seal@club.test>\n\nPassphrase: umpire of the table\nSEAL FORCE\n' | mailin
expect_eq "$(result seal@club.test)" "referee commands: done" "the referee's seal"
for i in 1 2 3; do
	printf 'From: Blue <blue@club.test>\nTo: orderly+cross@judge.test\nSubject: status\nMessage-ID: <forged-%s@club.test>\n\nPassphrase: a guess %s\n' "$i" "$i" | mailin
done
expect_in "$(result forged-3@club.test)" "(no reply: replies per hour used up)"
printf 'From: Blue <blue@club.test>\nTo: orderly+cross@judge.test\nSubject: orders\nMessage-ID: <late@club.test>\n\nPassphrase: blue shako and sabre\nORDERS\nB1 hold\nEND\n' | mailin
expect_eq "$(result late@club.test)" "orders refused: turn closed" "the late sheet"
reply=$(sql "$G" "SELECT CAST(bytes AS TEXT) FROM mail_outbox WHERE CAST(bytes AS TEXT) LIKE '%In-Reply-To: <late@club.test>%'")
expect_in "$reply" "orders NOT accepted: turn 1 is closed"
expect_in "$reply" "To: blue@club.test"
# an empty sheet's refusal too
printf 'From: Blue <blue@club.test>\nTo: orderly+cross@judge.test\nSubject: orders\nMessage-ID: <empty@club.test>\n\nPassphrase: blue shako and sabre\n' | mailin
expect_eq "$(sql "$G" "SELECT count(*) FROM mail_outbox WHERE CAST(bytes AS TEXT) LIKE '%In-Reply-To: <empty@club.test>%'")" 1 "replies to the empty sheet"
note "ok"
