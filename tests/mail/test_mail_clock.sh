#!/usr/bin/env bash
# test_mail_clock.sh - what the clock makes the judge say, through the real
# MTA (the test clock of a fixed-dice game): "the deadline" is one time
# everywhere, the one before the schedule's grace (docs/pbem.md): the time
# `orderly deadline WHEN` is given, the one the turn-open mail, the
# reminders, the late notice and `orderly schedule` name, each with the end
# of the grace; a turn opened and sealed between two ticks still gets its
# "turn open" mail, before the seal's; and the referee's SCHEDULE mail
# changes the grace (the open turn's end of grace moves with it), a
# player's is refused; the grace changed, by mail or by `orderly schedule`,
# lengthened or shortened, is mailed to the side told of the turn.
set -euo pipefail
# shellcheck source=tests/mail/lib.sh
source "$(dirname "$0")/lib.sh"
need_sqlite3

G=$GAMES/clock.orderly
tick_at() {
	ORDERLY_TEST_NOW=$(date -d "$1" +%s) as_user "$ORDERLY" tick "$GAMES" --sendmail "$SENDMAIL" \
		>>"$TMP/tick.out" 2>>"$TMP/tick.err"
	deliver
}
# the body of blue's newest mail whose subject has TEXT
body_of() {
	local f
	for f in $(mails blue | tac); do
		if [[ "$(mime "$f" subject)" == *"$1"* ]]; then
			mime "$f" body
			return 0
		fi
	done
	fail "no mail to blue with '$1' in its subject"
}

# the scenario: every 48h at 18:00 in Europe/Copenhagen, grace 1h, remind 24h,2h
ordu new "$G" --scenario "$MAILSRC/data/scenario.xml" --fixed-dice >/dev/null 2>&1
printf 'blue shako and sabre\n' | ordu register "$G" --side blue --passphrase-file - >/dev/null

# ------------------------------------------------- `orderly deadline WHEN`
run ordu deadline "$G" 2030-12-10T18:00Z
[[ $RC == 0 ]] || fail "deadline: $ERR"
expect_eq "$OUT" $'deadline: 2030-12-10T18:00:00Z\nsheets taken until: 2030-12-10T19:00:00Z (the schedule\'s grace)' "deadline's output"
# the core keeps the end of the grace (schedule.c S3)
expect_eq "$(sqlu "SELECT deadline FROM turn WHERE turn = 1")" "$(date -d 2030-12-10T19:00Z +%s)" "the turn's deadline row"
run ordu schedule "$G"
expect_line "$OUT" '^turn 1:   deadline 2030-12-10 19:00 Europe/Copenhagen \(UTC\+01:00\), sheets taken until 2030-12-10 20:00 Europe/Copenhagen \(UTC\+01:00\) \(grace\)$'

DL='2030-12-10 19:00 Europe/Copenhagen (UTC+01:00), 2030-12-10T18:00:00Z'
UNTIL='2030-12-10 20:00 Europe/Copenhagen (UTC+01:00), 2030-12-10T19:00:00Z'
# ------------------------------------------------- the turn-open mail
tick_at 2030-12-10T12:00Z
flush
BODY=$(body_of "turn open")
expect_in "$BODY" "Turn 1 is open: send your orders between a line ORDERS and a line END by the deadline, $DL
(sheets are still taken in the grace of 1h, until $UNTIL)."
# ------------------------------------------------- the reminder, 2h before
tick_at 2030-12-10T16:30Z
BODY=$(body_of "reminder: orders due")
expect_in "$BODY" "The deadline is $DL.
(Sheets are still taken in the grace of 1h, until $UNTIL.)"
# ------------------------------------------------- the late notice, at the deadline
before=$(mail_count blue)
tick_at 2030-12-10T17:59Z
expect_eq "$(mail_count blue)" "$before" "mails before the deadline"
tick_at 2030-12-10T18:00:01Z
BODY=$(body_of "your orders are late")
expect_in "$BODY" "The deadline of turn 1 ($DL) has passed"
expect_in "$BODY" "They are still taken until $UNTIL;"
# ... and the seal after the grace, from its second second (a game made
# since, made=: threat model, attack 36)
tick_at 2030-12-10T19:00:02Z
expect_in "$(body_of "turn sealed")" "Turn 1 is sealed"

# ------------------------------- a turn opened and sealed between two ticks
S=$GAMES/quick.orderly
ordu new "$S" --scenario "$MAILSRC/data/scenario.xml" --fixed-dice >/dev/null 2>&1
run ordu seal "$S" --force
[[ $RC == 0 ]] || fail "seal: $ERR"
tick_at 2030-12-01T12:00Z
# in the order they were queued (and so sent): the opening first
expect_eq "$(sqlu "SELECT key FROM mail_outbox WHERE rcpt = 'blue@club.test' ORDER BY id" "$S")" \
	"open/1/blue
seal/1/blue" "blue's mails of the quick turn, in order"
expect_eq "$(sqlu "SELECT count(*) FROM mail_sent WHERE sent IS NULL" "$S")" 0 "mails of the quick turn unsent"
for f in $(mails blue); do
	if [[ "$(mime "$f" subject)" == "[quick] turn open" ]]; then
		OPEN=$f
	fi
done
[[ -n "${OPEN:-}" ]] || fail "no '[quick] turn open' mail reached blue"
expect_in "$(mime "$OPEN" body)" "Turn 1 opened and is sealed already"
expect_eq "$(mime "$OPEN" attachments)" "quick-open-1.head" "the late turn-open mail's attachment"

# ------------------------------- the grace changed by the referee's mail
# SCHEDULE by mail as `orderly schedule` (tests/e2e/test_deadlines.sh): the
# open turn keeps its deadline, and the end of its grace moves with it
G=$GAMES/grace.orderly
ordu new "$G" --scenario "$MAILSRC/data/scenario.xml" --fixed-dice >/dev/null 2>&1
printf 'blue shako and sabre\n' | ordu register "$G" --side blue --passphrase-file - >/dev/null
printf 'umpire of the table\n' | ordu register "$G" --referee --passphrase-file - >/dev/null
run ordu deadline "$G" 2030-12-10T18:00Z
[[ $RC == 0 ]] || fail "deadline: $ERR"
expect_eq "$(sqlu "SELECT deadline FROM turn WHERE turn = 1")" "$(date -d 2030-12-10T19:00Z +%s)" "the end of the scenario's grace"
# blue is told of the turn (its opening's mail) before the grace changes
tick_at 2030-12-09T12:00Z
expect_in "$(body_of "[grace] turn open")" "(sheets are still taken in the grace of 1h, until $UNTIL)."
schedules() { sqlu "SELECT count(*) FROM log WHERE kind = 'schedule'"; }
before=$(schedules)
mail_from referee "grace" <<'EOF'
Passphrase: umpire of the table
SCHEDULE every 48h at 18:00 in Europe/Copenhagen grace 2h remind 24h,2h autoseal on
EOF
REPLY=$(last_mail referee "[grace] referee: done")
expect_eq "$(mime "$REPLY" body)" "schedule: every 48h at 18:00 in Europe/Copenhagen grace 2h remind 24h,2h autoseal on
  the grace of turn 1 changed: the sides told of it are mailed the change (2 mails)" "the referee's reply"
# the grace lengthened is mailed: the deadline stays, the end of the grace moves
flush
expect_eq "$(body_of "[grace] grace changed: turn 1, sheets taken until later")" "The referee changed the schedule's grace from 1h to 2h.
The deadline of turn 1 stays $DL;
sheets are now taken until 2030-12-10 21:00 Europe/Copenhagen (UTC+01:00), 2030-12-10T20:00:00Z
(until $UNTIL before the change).

No orders of yours have been received yet: send them between a
line ORDERS and a line END." "blue's mail of the grace lengthened"
expect_eq "$(schedules)" $((before + 1)) "schedules logged"
expect_eq "$(sqlu "SELECT deadline FROM turn WHERE turn = 1")" "$(date -d 2030-12-10T20:00Z +%s)" "the end of the new grace kept"
run ordu schedule "$G"
expect_line "$OUT" '^schedule: every 48h at 18:00 in Europe/Copenhagen grace 2h remind 24h,2h autoseal on$'
expect_line "$OUT" '^turn 1:   deadline 2030-12-10 19:00 Europe/Copenhagen \(UTC\+01:00\), sheets taken until 2030-12-10 21:00 Europe/Copenhagen \(UTC\+01:00\) \(grace\)$'
SCHEDULE_OUT=$OUT
# a player's SCHEDULE is refused, and changes nothing
mail_from blue "grace" <<'EOF'
Passphrase: blue shako and sabre
SCHEDULE every 48h at 18:00 in Europe/Copenhagen grace 3h remind 24h,2h autoseal on
EOF
REPLY=$(last_mail blue "[grace] not allowed: SCHEDULE")
expect_eq "$(mime "$REPLY" body)" "SCHEDULE is the referee's command. Nothing was changed." "the reply to blue's SCHEDULE"
expect_eq "$(schedules)" $((before + 1)) "schedules logged after blue's"
expect_eq "$(sqlu "SELECT deadline FROM turn WHERE turn = 1")" "$(date -d 2030-12-10T20:00Z +%s)" "the end of the grace after blue's SCHEDULE"
run ordu schedule "$G"
expect_eq "$OUT" "$SCHEDULE_OUT" "the schedule after blue's SCHEDULE"
# `orderly schedule` shortening the grace: mailed too (it was not: a player
# counting on the grace lost it unwarned), and the command says so
before=$(mail_count blue)
run ordu schedule "$G" every 48h at 18:00 in Europe/Copenhagen grace 30m remind 24h,2h autoseal on
[[ $RC == 0 ]] || fail "schedule: $ERR"
expect_in "$ERR" "note: the grace of turn 1 changed: 2 sides told of the turn by mail are mailed the change at the next tick"
expect_eq "$(sqlu "SELECT deadline FROM turn WHERE turn = 1")" "$(date -d 2030-12-10T18:30Z +%s)" "the end of the shortened grace"
flush
expect_eq "$(mail_count blue)" $((before + 1)) "blue's mails after the grace shortened"
expect_eq "$(body_of "[grace] grace changed: turn 1, sheets taken until earlier")" "The referee changed the schedule's grace from 2h to 30m.
The deadline of turn 1 stays $DL;
sheets are now taken until 2030-12-10 19:30 Europe/Copenhagen (UTC+01:00), 2030-12-10T18:30:00Z
(until 2030-12-10 21:00 Europe/Copenhagen (UTC+01:00), 2030-12-10T20:00:00Z before the change).

No orders of yours have been received yet: send them between a
line ORDERS and a line END." "blue's mail of the grace shortened"
# a schedule that leaves the grace as it is mails nothing
run ordu schedule "$G" every 72h at 18:00 in Europe/Copenhagen grace 30m remind 24h,2h autoseal on
[[ $RC == 0 ]] || fail "schedule: $ERR"
expect_not_in "$ERR" "mailed the change"
flush
expect_eq "$(mail_count blue)" $((before + 1)) "blue's mails after a schedule with the same grace"
