#!/usr/bin/env bash
# test_mail_queued.sh - a mail the MTA kept queued past the deadline is
# judged by when the MTA received it (judge.c J13), through the real MTA
# and the real clock (games without fixed dice): exim queues every mail
# (queue_only) and delivers it when the test says, so orders sent before
# the deadline reach mail-in after it, as a retry (the game locked) or a
# queue run late would have them.  blue's sheet, received in time, is
# taken and its entry dated then, so the audit holds it to the deadline;
# red's, received after the deadline, is refused whatever its Date: says;
# in a game sealed before the queue ran, a sheet received in time is
# refused: a sealed turn takes none.
set -euo pipefail
# shellcheck source=tests/mail/lib.sh
source "$(dirname "$0")/lib.sh"
need_sqlite3

A=$GAMES/queued.orderly
B=$GAMES/sealed.orderly
for g in "$A" "$B"; do
	ordu new "$g" --scenario "$MAILSRC/data/scenario.xml" >/dev/null 2>&1
	printf 'blue shako and sabre\n' | ordu register "$g" --side blue --passphrase-file - >/dev/null
	printf 'red coat at dawn\n' | ordu register "$g" --side red --passphrase-file - >/dev/null
	# no grace, no auto-seal: the deadline alone closes the sheets
	run ordu schedule "$g" none
	[[ $RC == 0 ]] || fail "schedule none: $ERR"
done
DL=$(($(date +%s) + 6))
for g in "$A" "$B"; do
	run ordu deadline "$g" "$(date -u -d "@$DL" +%Y-%m-%dT%H:%M:%SZ)"
	[[ $RC == 0 ]] || fail "deadline: $ERR"
done

# queue WHO GAME DATE: a mail of WHO's orders to GAME, sent (queued by the
# MTA, not delivered); its Date: header is DATE
n=0
queue() {
	local who=$1 game=$2 date=$3 pass order f
	n=$((n + 1))
	f=$TMP/queued-$n.eml
	if [[ $who == blue ]]; then
		pass='blue shako and sabre' order='B1 ↑ 1/4'
	else
		pass='red coat at dawn' order='R1 ↑ 1/4 @B1'
	fi
	printf 'From: %s <%s@club.test>\nTo: orderly+%s@judge.test\nSubject: orders\n' "$who" "$who" "$game" >"$f"
	printf 'Message-ID: <queued-%d@club.test>\nDate: %s\nMIME-Version: 1.0\n' "$n" "$date" >>"$f"
	printf 'Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n' >>"$f"
	printf 'Passphrase: %s\nORDERS\n%s\nEND\n' "$pass" "$order" >>"$f"
	send_raw "$f"
}

queue blue queued "$(date -R)"
queue blue sealed "$(date -R)"
# wait out the deadline, the mails still queued
while [[ $(date +%s) -le $((DL + 1)) ]]; do
	sleep 0.5
done
# red's, received after the deadline, claims in its Date: to be older
queue red queued "$(date -R -d "@$((DL - 60))")"
# the second game is sealed before the queue runs
run ordu seal "$B"
[[ $RC == 0 ]] || fail "seal: $ERR"

deliver
flush
[[ $(date +%s) -gt $DL ]] || fail "the mails were read before the deadline"
expect_eq "$(sqlu "SELECT count(*) FROM mail_inbox WHERE state = 'done'" "$A")" 2 "mails read in the first game"

# blue's, received in time, is taken and dated when it came
expect_in "$(mime "$(last_mail blue "receipt: turn 1, blue")" body)" "version 1"
expect_eq "$(sqlu "SELECT count(*) FROM sheet WHERE turn = 1" "$A")" 1 "sheets of the first game"
at=$(sqlu "SELECT at FROM log WHERE kind = 'sheet'" "$A")
[[ $at -le $DL ]] || fail "blue's sheet entry is dated $at, after the deadline $DL"
run ordu audit "$A"
[[ $RC == 0 ]] || fail "audit of the first game: $OUT $ERR"
expect_not_in "$OUT" "after the deadline"

# red's, received late, is refused, its Date: not read
expect_in "$(mime "$(last_mail red "orders NOT accepted: turn 1 is closed")" body)" \
	"Turn 1 takes no more orders: its deadline and the grace after it have passed. Nothing was stored."
expect_eq "$(sqlu "SELECT count(*) FROM sheet s JOIN side d ON d.id = s.side_id WHERE d.name = 'red'" "$A")" 0 "red's sheets"

# the sealed game takes no sheet, however early it came
expect_eq "$(sqlu "SELECT count(*) FROM sheet WHERE source = 'submitted'" "$B")" 0 "sheets submitted in the sealed game"
expect_in "$(sqlu "SELECT result FROM mail_inbox" "$B")" "orders refused: turn closed"
note "ok: $TEST_NAME"
