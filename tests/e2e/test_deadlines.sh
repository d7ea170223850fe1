#!/usr/bin/env bash
# test_deadlines.sh - issue 16, item 3: every place that takes a time takes
# the same forms (ISO 8601 with Z, an offset or a zone name; +90m, +48h,
# +2d); a deadline already past is said; `info` says when the deadline has
# passed; the deadline rule (the schedule) carries from turn to turn.
set -euo pipefail
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
need_sqlite3

cd "$TMP"
G=game.orderly
expect_exit 0 ord new "$G" --scenario "$FIX/scenario.xml"

# the forms of `deadline`
expect_exit 0 ord deadline "$G" 2030-12-07T18:00+01:00
expect_eq "$OUT" "deadline: 2030-12-07T17:00:00Z" "an offset"
expect_exit 0 ord deadline "$G" "2030-12-07T18:00 Europe/Copenhagen"
expect_eq "$OUT" "deadline: 2030-12-07T17:00:00Z" "a zone in winter"
expect_exit 0 ord deadline "$G" "2030-07-07T18:00 Europe/Copenhagen"
expect_eq "$OUT" "deadline: 2030-07-07T16:00:00Z" "a zone in summer"
expect_exit 0 ord deadline "$G" 2030-12-07T18:00:00Z
expect_eq "$OUT" "deadline: 2030-12-07T18:00:00Z" "UTC"
now=$(date +%s)
expect_exit 0 ord deadline "$G" +2d
t=$(sql "$G" "SELECT deadline FROM turn WHERE turn = 1")
[[ $((t - now)) -ge 172790 && $((t - now)) -le 172900 ]] || fail "+2d gave $((t - now)) seconds"
expect_exit 0 ord deadline "$G" +90m
expect_exit 64 ord deadline "$G" "2030-12-07T18:00 Mars/Olympus"
expect_in "$ERR" "unknown time zone 'Mars/Olympus'"
expect_exit 64 ord deadline "$G" 2030-12-07T18:00
expect_in "$ERR" "has no zone"
# a time the zone's clocks skip or show twice is refused, nothing set: it
# was read silently as an hour before or after (red team #11)
sum=$(cksum <"$G")
expect_exit 64 ord deadline "$G" "2030-03-31T02:30 Europe/Copenhagen"
expect_eq "$(head -n1 <<<"$ERR")" "orderly: 02:30 does not exist in Europe/Copenhagen on 2030-03-31: clocks go from 02:00 to 03:00 (expected a time the clocks there show, such as 03:00, or one with its UTC offset)" "a time in the gap"
expect_exit 64 ord deadline "$G" "2030-10-27T02:30 Europe/Copenhagen"
expect_eq "$(head -n1 <<<"$ERR")" "orderly: 02:30 happens twice in Europe/Copenhagen on 2030-10-27: clocks go back from 03:00 to 02:00 (expected its UTC offset to say which: 2030-10-27T02:30+02:00 is 2030-10-27T00:30:00Z, 2030-10-27T02:30+01:00 is 2030-10-27T01:30:00Z)" "a time shown twice"
expect_eq "$(cksum <"$G")" "$sum" "the game after times refused"
expect_exit 0 ord deadline "$G" 2030-10-27T02:30+01:00
expect_eq "$OUT" "deadline: 2030-10-27T01:30:00Z" "the second of the two, by its offset"

# a deadline already past is refused, nothing set (yesterday's date typed
# by mistake made the turn late at once) ...
before=$(sql "$G" "SELECT deadline FROM turn WHERE turn = 1")
expect_exit 64 ord deadline "$G" 2020-01-01T00:00Z
expect_line "$ERR" "^orderly: the deadline 2020-01-01T00:00:00Z is not after now \([-0-9T:]+Z\): nothing set \(give --past to close the turn's orders at a time already past\)"
expect_eq "$(sql "$G" "SELECT deadline FROM turn WHERE turn = 1")" "$before" "the deadline after a past one refused"
expect_exit 64 ord deadline "$G" "$(date -u -d '-1 day' +%FT%H:%M) Europe/Copenhagen"
expect_in "$ERR" "is not after now"
# ... and, with --past, meant: it is said, and info says it has passed
expect_exit 0 ord deadline "$G" 2020-01-01T00:00Z --past
expect_in "$ERR" "this deadline has passed already"
expect_exit 0 ord info "$G"
expect_in "$OUT" "the deadline has passed: no more sheets are taken"
expect_exit 0 ord info "$G" --xml
expect_in "$OUT" 'deadline-passed="yes"'

# the scenario takes the same forms, and a schedule carries the deadline on
sed -e 's|<nmr policy="hold"/>|<deadline>2030-12-07T18:00 Europe/Copenhagen</deadline>\n  <nmr policy="hold"/>\n  <schedule every="48h" at="18:00" zone="Europe/Copenhagen" autoseal="no"/>|' \
	"$FIX/scenario.xml" >sched.xml
# a scenario's deadline the clocks skip is refused by new, nothing made
sed -e 's|<nmr policy="hold"/>|<deadline>2030-03-31T02:30 Europe/Copenhagen</deadline>\n  <nmr policy="hold"/>|' \
	"$FIX/scenario.xml" >gap.xml
expect_exit 65 ord new gap.orderly --scenario gap.xml
expect_in "$ERR" "deadline '2030-03-31T02:30 Europe/Copenhagen': 02:30 does not exist in Europe/Copenhagen on 2030-03-31: clocks go from 02:00 to 03:00"
expect_no_game gap.orderly
S=sched.orderly
expect_exit 0 ord new "$S" --scenario sched.xml
expect_exit 0 ord info "$S"
expect_line "$OUT" '^deadline: +2030-12-07T17:00:00Z$'
expect_line "$OUT" '^schedule: +every 48h at 18:00 in Europe/Copenhagen grace 0 remind none autoseal off$'
expect_exit 0 ord submit "$S" --side blue "$FIX/blue-1.txt"
expect_exit 0 ord submit "$S" --side red "$FIX/red-1.txt"
expect_exit 0 ord seal "$S"
for p in movement fire fire-morale melee melee-morale; do
	expect_exit 0 ord resolve "$S" --phase "$p" --empty
done
expect_exit 0 ord exchange "$S"
expect_exit 0 ord info "$S"
expect_line "$OUT" '^turn: +2 \(open\)$'
expect_line "$OUT" '^deadline: +2030-12-09T17:00:00Z$'
expect_eq "$(sql "$S" "SELECT count(*) FROM log WHERE kind = 'deadline' AND turn = 2")" 1 "turn 2's deadline logged"

# the schedule is changed by command and logged
expect_exit 0 ord schedule "$S" every 24h at 20:00 in UTC remind 2h autoseal on
expect_line "$OUT" '^schedule: every 24h at 20:00 in UTC grace 0 remind 2h autoseal on$'
expect_exit 64 ord schedule "$S" every 24h at 25:00
expect_in "$ERR" "not a time of day"
expect_eq "$(sql "$S" "SELECT count(*) FROM log WHERE kind = 'schedule'")" 2 "schedules logged"
# a grace changed while a turn is open: the turn keeps the deadline it was
# given, and the end of its grace, which the game keeps, moves with it
expect_exit 0 ord schedule "$S" every 24h at 20:00 in UTC grace 90m remind 2h autoseal on
expect_line "$OUT" '^turn 2: +deadline 2030-12-09T17:00:00Z, sheets taken until 2030-12-09T18:30:00Z \(grace\)$'
expect_exit 0 ord info "$S"
expect_line "$OUT" '^deadline: +2030-12-09T17:00:00Z$'
expect_in "$OUT" "sheets are still taken in the grace, until 2030-12-09T18:30:00Z"
expect_eq "$(sql "$S" "SELECT deadline FROM turn WHERE turn = 2")" "$(date -d 2030-12-09T18:30Z +%s)" "the end of the grace kept"
expect_eq "$(sql "$S" "SELECT count(*) FROM log WHERE kind = 'deadline' AND turn = 2")" 2 "the moved end logged"
# the same schedule again moves nothing; without a grace the end is the deadline
expect_exit 0 ord schedule "$S" every 24h at 20:00 in UTC grace 90m remind 2h autoseal on
expect_eq "$(sql "$S" "SELECT count(*) FROM log WHERE kind = 'deadline' AND turn = 2")" 2 "an unchanged grace logs no deadline"
expect_exit 0 ord schedule "$S" every 24h at 20:00 in UTC remind 2h autoseal on
expect_line "$OUT" '^turn 2: +deadline 2030-12-09T17:00:00Z \(sheets taken until then\)$'
expect_eq "$(sql "$S" "SELECT deadline FROM turn WHERE turn = 2")" "$(date -d 2030-12-09T17:00Z +%s)" "the end of no grace"
expect_exit 0 ord audit "$S"

# a forced seal as verify tells it: "before the deadline" only when a
# deadline was set and had not passed (red-team finding 8: a game with no
# deadline read as sealed before it), and whether a side was missing
forced_seal() { # forced_seal GAME DEADLINE|"" SIDES...: seal --force with SIDES in, export, verify
	local g=$1 dl=$2 s
	shift 2
	expect_exit 0 ord new "$g" --scenario "$FIX/scenario.xml"
	for s in "$@"; do expect_exit 0 ord submit "$g" --side "$s" "$FIX/$s-1.txt"; done
	[[ -z "$dl" ]] || expect_exit 0 ord deadline "$g" "$dl" --past
	expect_exit 0 ord seal "$g" --force
	resolve_rest "$g"
	expect_exit 0 ord exchange "$g"
	expect_exit 0 ord export "$g" --turn 1 -o "$g.xml"
	expect_exit 0 ord verify "$g.xml"
}
forced_seal nodl.orderly "" blue
expect_line "$OUT" "^  ok: seal: entry [0-9]+ seals the latest sheet of each of the 2 sides; the NMR policy stood in for red, the seal forced by the referee with no deadline set$"
expect_not_in "$OUT" "before the deadline"
forced_seal nodl-all.orderly "" blue red
expect_line "$OUT" "^  ok: seal: entry [0-9]+ seals the latest sheet of each of the 2 sides, the seal forced by the referee with no deadline set \(no side was missing\)$"
forced_seal early.orderly +2d blue
expect_line "$OUT" "^  ok: seal: entry [0-9]+ seals the latest sheet of each of the 2 sides; the NMR policy stood in for red, the seal forced by the referee before the deadline$"
forced_seal late.orderly 2020-01-01T00:00Z blue
expect_line "$OUT" "^  ok: seal: entry [0-9]+ seals the latest sheet of each of the 2 sides; the NMR policy stood in for red, the seal forced by the referee after the deadline had passed$"

# in a game made since (made=), an unforced seal stands in for a side only
# from the deadline's second second on, by the real clock (threat model,
# attack 36: a seal forced in the deadline's own second and dated in its
# next cannot then pass for an honest one); in its next second it waits,
# nothing changed.  A game made before (no made=, its log made so and
# chained again) seals then, as before.  The seal is timed by the real
# clock: each try whose commands did not all run within one second is
# made again.
need_forge
strip_made() {
	unmark "$1"
	sql "$1" "UPDATE log SET body = replace(body, 'made=2026-12-07' || char(10), '') WHERE kind IN ('create', 'open')"
	[[ "$(sql "$1" "SELECT count(*) FROM log WHERE body LIKE '%made=%'")" == 0 ]] ||
		fail "the log of '$1' still says made= (fix the test)"
	"$FORGE" rechain "$1" || fail "ord_forge rechain $1"
}
# next_second GAME [old]: a game with blue in, its deadline the second
# before now, sealed unforced; 0 when all of it ran in one second (the
# seal in the deadline's next second), RC, OUT and ERR the seal's
next_second() {
	local g=$1 t0 t1
	rm -f "$g"
	expect_exit 0 ord new "$g" --scenario "$FIX/scenario.xml"
	[[ -z "${2:-}" ]] || strip_made "$g"
	expect_exit 0 ord submit "$g" --side blue "$FIX/blue-1.txt"
	t0=$(date +%s)
	expect_exit 0 ord deadline "$g" "$(date -u -d "@$((t0 - 1))" +%FT%TZ)" --past
	run ord seal "$g"
	t1=$(date +%s)
	((t1 == t0))
}
done_new= done_old=
for _ in 1 2 3 4 5 6 7 8; do
	[[ -n "$done_new" ]] || ! next_second since.orderly || {
		done_new=1
		expect_eq "$RC" 65 "the seal's exit in the deadline's next second, a game made since"
		expect_line "$ERR" "^orderly: cannot seal turn 1: waiting for red \("
		expect_eq "$(sql since.orderly "SELECT state FROM turn WHERE turn = 1")" open "the turn after the refused seal"
		expect_eq "$(sql since.orderly "SELECT count(*) FROM log WHERE kind = 'seal'")" 0 "seals logged"
	}
	[[ -n "$done_old" ]] || ! next_second before.orderly old || {
		done_old=1
		expect_eq "$RC" 0 "the seal's exit in the deadline's next second, a game made before"
	}
	[[ -z "$done_new" || -z "$done_old" ]] || break
done
[[ -n "$done_new" && -n "$done_old" ]] || fail "no try ran in one second (a loaded machine?): the seal in the deadline's next second untested"
# the second second on, the game made since seals unforced
while (($(date +%s) <= $(sql since.orderly "SELECT deadline FROM turn WHERE turn = 1") + 1)); do sleep 0.2; done
expect_exit 0 ord seal since.orderly
resolve_rest since.orderly
expect_exit 0 ord exchange since.orderly
expect_exit 0 ord audit since.orderly
expect_in "$OUT" "the NMR policy stood in for red"
expect_exit 0 ord audit before.orderly
