#!/usr/bin/env bash
# test_mail_kill.sh - kill -9 of mail-in in the middle of a mail, through
# the real MTA: the pipe reports the kill as "try again" (75), exim keeps
# the message and delivers it again, and the game ends with exactly one
# version of the sheet, the message stored once, and one receipt.  Two
# places are hit: inside the transaction that stores the raw message, and
# inside the transaction of the submission and its receipt (the store's
# test pause points, ORDERLY_TEST_PAUSE_IN_TX).
set -euo pipefail
# shellcheck source=tests/mail/lib.sh
source "$(dirname "$0")/lib.sh"
need_sqlite3

G=$GAMES/kill.orderly
ordu new "$G" --scenario "$MAILSRC/data/scenario.xml" >/dev/null 2>&1
printf 'blue shako and sabre\n' | ordu register "$G" --side blue --passphrase-file - >/dev/null
# the sides' "turn open" mails (the head of the opening) go out first
ordu tick "$GAMES" --sendmail "$SENDMAIL" >/dev/null
deliver

n=0
for at in 2 8; do
	n=$((n + 1))
	f=$TMP/kill-$n.eml
	cat >"$f" <<EOF
From: Blue <blue@club.test>
To: orderly+kill@judge.test
Subject: orders $n
Message-ID: <kill-$n@club.test>
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 8bit

Passphrase: blue shako and sabre
ORDERS
B1 ↑ 1/$((2 * n))
END
EOF
	pause=$MTA_DIR/pause-$n
	as_user touch "$pause"
	printf 'export ORDERLY_TEST_PAUSE_IN_TX=%s ORDERLY_TEST_PAUSE_AT=%s\n' "$pause" "$at" |
		as_user tee "$MTA_DIR/mail-in.env" >/dev/null
	send_raw "$f"
	deliver &
	runner=$!
	for _ in $(seq 300); do
		[[ -s "$pause" ]] && break
		sleep 0.1
	done
	[[ -s "$pause" ]] || fail "mail-in never reached pause point $at"
	read -r pid point num <"$pause"
	note "kill -9 of mail-in at its pause point $num ($point)"
	kill -9 "$pid"
	wait "$runner" || true
	expect_eq "$(as_user "$EXIM" -C "$MTA_DIR/exim.conf" -bpc 2>/dev/null)" 1 "messages the MTA keeps after the kill"
	expect_eq "$(sqlu "SELECT count(*) FROM sheet WHERE turn = 1 AND version = $n")" 0 "sheet version $n after the kill"

	# the MTA tries again, with nothing in the way now
	as_user truncate -s 0 "$MTA_DIR/mail-in.env"
	deliver
	flush
	expect_eq "$(as_user "$EXIM" -C "$MTA_DIR/exim.conf" -bpc 2>/dev/null)" 0 "messages left in the MTA's queue"
	expect_eq "$(sqlu "SELECT count(*) FROM sheet WHERE turn = 1")" $n "versions of the sheet"
	expect_eq "$(sqlu "SELECT count(*) FROM mail_inbox WHERE message_id = 'kill-$n@club.test'")" 1 "stored copies of message $n"
	expect_eq "$(sqlu "SELECT state FROM mail_inbox WHERE message_id = 'kill-$n@club.test'")" done "message $n"
	receipts=0
	for m in $(mails blue); do
		[[ "$(mime "$m" subject)" == *"receipt: turn 1, blue, version $n"* ]] && receipts=$((receipts + 1))
	done
	expect_eq "$receipts" 1 "receipts of version $n in blue's maildir"
done

# the same message delivered once more (a resend, a second MX) is answered once
send_raw "$TMP/kill-2.eml"
deliver
flush
expect_eq "$(sqlu "SELECT count(*) FROM sheet WHERE turn = 1")" 2 "versions after a re-delivery"
expect_eq "$(mail_count blue)" 3 "mails to blue after a re-delivery (turn open, two receipts)"
run ordu audit "$G"
[[ $RC == 0 ]] || fail "audit: $OUT $ERR"
