#!/usr/bin/env bash
# test_migrate.sh - a game file of the previous format (schema 9: the
# scenario in the game's row, no index of the sealed orders) is migrated
# when it is opened, mid-turn, and plays on: its sealed turn is checked by
# loading the game, the next turn by the index, and the audit is clean.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_sqlite3
BFIX=$SRC/tests/fixtures/bundle
declare -A melee_out
cd "$TMP"
unkeyed_scenario scenario.xml

expect_exit 0 ord new g.game --scenario scenario.xml
expect_exit 0 ord submit g.game --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord submit g.game --side red "$BFIX/red-1b.txt"
expect_exit 0 ord seal g.game
scenario_sha=$(sql g.game "SELECT hex(scenario) FROM game_scenario" | sha256sum)

# the file as the previous orderly left it
sql g.game "UPDATE game SET scenario = (SELECT scenario FROM game_scenario);
	DROP TABLE game_scenario; DROP TABLE sealed_order; DROP TABLE event_unit;
	DROP TABLE order_index; DROP INDEX log_kind; ALTER TABLE mail_party DROP COLUMN address_salt; ALTER TABLE mail_party DROP COLUMN pgp_last;
	DROP TABLE mail_pass_fail; ALTER TABLE mail_config DROP COLUMN pass_tries; ALTER TABLE mail_config DROP COLUMN files;
	DROP TABLE mail_refused; $OLD_OUTBOX_SQL $OLD_INBOX_SQL
	PRAGMA user_version = 9;" >/dev/null
expect_eq "$(sql g.game "SELECT hex(scenario) FROM game" | sha256sum)" "$scenario_sha" "the old row"

# a copy whose schema was changed by hand (a column renamed) is refused as
# damaged, its migration rolled back: the file left as it was, of schema 9
cp g.game renamed.game
sql renamed.game "ALTER TABLE unit RENAME COLUMN attrs TO attributes" >/dev/null
before=$(sha renamed.game)
expect_exit 65 ord info renamed.game
expect_eq "$ERR" "orderly: 'renamed.game' is a damaged game file (its table 'unit' has no column 'attrs'); restore it from a copy" "an old file changed by hand"
expect_eq "$(sha renamed.game)" "$before" "the bytes of the old file changed by hand"
expect_eq "$(sql renamed.game "PRAGMA user_version")" 9 "the schema of the old file changed by hand"

# opened: migrated, the scenario in its own row and the same bytes
expect_exit 0 ord info g.game
expect_in "$OUT" "turn:      1 (sealed"
expect_eq "$(sql g.game "PRAGMA user_version")" 21 "the schema after the open"
expect_eq "$(sql g.game "SELECT hex(scenario) FROM game_scenario" | sha256sum)" "$scenario_sha" \
	"the scenario after the migration"
expect_eq "$(sql g.game "SELECT length(scenario) FROM game")" 0 "the game row's scenario"
# the turn sealed before it has no index: its events load the game
expect_eq "$(sql g.game "SELECT count(*) FROM order_index")" 0 "turns indexed"
expect_exit 65 ord event g.game move unit=R1 distance=4
expect_in "$ERR" "its order allows 1.5\""
expect_exit 0 ord event g.game move unit=B1 distance=2
resolve_rest g.game 5
expect_exit 0 ord exchange g.game
# the next turn is sealed with its index
expect_exit 0 ord submit g.game --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord submit g.game --side red "$BFIX/red-1b.txt"
expect_exit 0 ord seal g.game
expect_eq "$(sql g.game "SELECT group_concat(turn) FROM order_index")" 2 "turns indexed"
expect_exit 65 ord event g.game move unit=R1 distance=4
expect_in "$ERR" "its order allows 1.5\""
expect_exit 0 ord audit g.game
expect_in "$OUT" "clean"
expect_in "$OUT" "the game id, its ruleset, NMR policy, dice, referee, scenario, tables and key are the ones logged"

# A Krigsspil game whose Skema has no limbers' numbers (as a game made
# before those rules keeps it) opens and plays without those rules: a
# battery's fire keeps no ammunition state, and the audit is clean.
KS=$SRC/rulesets/krigsspil/examples
sed '/<param name="prods_fri_cm"/,/label="længere borte forlænges ammunitionsskiftet/d' \
	"$SRC/rulesets/krigsspil/skema.xml" >skema-before-limbers.xml
! grep -q 'prods_fri_cm\|ammoskift_pr_cm' skema-before-limbers.xml || fail "the limbers' numbers are still in the Skema"
expect_exit 0 ord new ks.game --scenario "$KS/scenario.xml" --tables skema-before-limbers.xml
expect_exit 0 ord submit ks.game --side danske "$KS/demo/turn1-danske.txt"
expect_exit 0 ord submit ks.game --side allierede "$KS/demo/turn1-allierede.txt"
expect_exit 0 ord seal ks.game
resolve_rest ks.game 3
expect_exit 0 ord event ks.game artilleri unit=A1 maal=L2 afstand=88 prods_cm=30
expect_exit 0 ord resolve ks.game
expect_eq "$(sql ks.game "SELECT count(*) FROM unit_state WHERE state LIKE '%ammo_ved_kanonerne%'")" 0 \
	"ammunition states kept without the rule"
expect_exit 0 ord audit ks.game
expect_in "$OUT" "clean"

# A battalion game made before the kinds had a formation of their own (D27,
# D28: skirmishers in skirmish order, cavalry in squadron) keeps tables
# without it: it opens and plays on as it was made, its cavalry in the
# column the scenario gave it, and the audit is clean.
# (nor an enfiladed label, which came later)
sed -e 's/labels="arm formation enfiladed"/labels="arm"/' \
	-e '/<chart name="kinds"/,/<\/chart>/s/ formation="[^"]*"//' \
	-e '/<chart name="kinds"/,/<\/chart>/s/ enfiladed="[^"]*"//' \
	-e '/<row formation="squadron"/,/note=/d' "$SRC/rulesets/battalion/tables.xml" >tables-before-kinds.xml
! grep -q 'formation="squadron"\|labels="arm formation\|enfiladed=' tables-before-kinds.xml || fail "the kinds' formations are still in the tables"
BAT=$SRC/rulesets/battalion/examples
expect_exit 0 ord new bat.game --scenario "$BAT/scenario.xml" --tables tables-before-kinds.xml
expect_exit 0 ord submit bat.game --side french "$BAT/demo/turn1-french.txt"
expect_exit 0 ord submit bat.game --side allied "$BAT/demo/turn1-allied.txt"
expect_exit 0 ord seal bat.game
resolve_rest bat.game 5
expect_exit 0 ord report bat.game --referee
expect_not_in "$OUT" "squadron"
expect_exit 0 ord audit bat.game
expect_in "$OUT" "clean"

# A battalion game made before a melee's result named its units keeps
# tables without melee_names_units, and the words it was played with: the
# sides as A and B, the result once for each unit, no loss line after it.
# The replay compares a result's words, not only its values, so a game
# recorded with them audits clean only if the rules still give them.
sed '/<param name="melee_names_units"/,/label="a melee.s result names its units"\/>/d' \
	"$SRC/rulesets/battalion/tables.xml" >tables-before-names.xml
! grep -q 'melee_names_units' tables-before-names.xml || fail "melee_names_units is still in the tables"
cat >melee.xml <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<scenario ruleset="battalion">
  <title>A melee of a game made before</title>
  <side id="blue" name="Blue"/>
  <side id="red" name="Red"/>
  <unit id="B1" name="Side B" side="blue" kind="line_infantry" formation="line" figures="24"/>
  <unit id="A1" name="Side A" side="red" kind="line_infantry" formation="line" figures="32"/>
</scenario>
XML
printf '# stands\n' >stands.txt
printf 'A1 ↑ 1/4\n' >presses.txt # into B1, which it touches: a move of 0"
for t in before-names now; do
	if [ "$t" = now ]; then tables=(); else tables=(--tables tables-before-names.xml); fi
	expect_exit 0 ord new "melee-$t.game" --scenario melee.xml --fixed-dice "${tables[@]}"
	expect_exit 0 ord submit "melee-$t.game" --side blue stands.txt
	expect_exit 0 ord submit "melee-$t.game" --side red presses.txt
	expect_exit 0 ord seal "melee-$t.game"
	expect_exit 0 ord event "melee-$t.game" move unit=A1 distance=0 contact=B1
	resolve_rest "melee-$t.game" 3
	expect_exit 0 ord event "melee-$t.game" melee a=A1 b=B1
	expect_exit 0 ord resolve "melee-$t.game" --dice 3,5
	melee_out[$t]=$OUT
	expect_exit 0 ord resolve "melee-$t.game" --dice 6
	expect_exit 0 ord exchange "melee-$t.game"
	expect_exit 0 ord audit "melee-$t.game" --turn 1
	expect_in "$OUT" "clean"
done
expect_in "${melee_out[before-names]}" "A1: melee with B1: A: 32 line_infantry × 3 = 96 pts × (d6 3) = 288; B: 24 line_infantry × 3 = 72 pts × (d6 5) = 360; B wins; B inflicts 72/6 = 12 pts / 3 = 4 figures of A; A inflicts 96/12 = 8 pts / 3 = 2.67 → 3 figures of B"
expect_in "${melee_out[before-names]}" "B1: melee with A1: A: 32 line_infantry"
expect_not_in "${melee_out[before-names]}" "to melee"
# the same melee in a game made now: the units by name, once, and the losses
expect_in "${melee_out[now]}" "B1: melee with A1: A1's 32 line_infantry × 3 = 96 pts × (d6 3) = 288; B1's 24 line_infantry × 3 = 72 pts × (d6 5) = 360; B1 wins; B1 inflicts 72/6 = 12 pts / 3 = 4 figures on A1; A1 inflicts 96/12 = 8 pts / 3 = 2.67 → 3 figures on B1"
expect_not_in "${melee_out[now]}" "A1: melee with"
expect_in "${melee_out[now]}" "A1: loses 4 figures to melee: 28 left"
expect_in "${melee_out[now]}" "B1: loses 3 figures to melee: 21 left"

# A battalion game made before the checks of the table `checks` keeps
# tables without them, and lets through what it let through then: a
# formation change to the formation a unit has, a shot beyond its reach;
# its audit replays the events through the checks and is clean.  A game
# made now refuses both.
sed '/<params name="checks"/,/<\/params>/d' "$SRC/rulesets/battalion/tables.xml" >tables-before-checks.xml
! grep -q '_checked' tables-before-checks.xml || fail "the checks are still in the tables"
cat >checks.xml <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<scenario ruleset="battalion">
  <title>Checks of a game made before</title>
  <side id="blue" name="Blue"/>
  <side id="red" name="Red"/>
  <unit id="B1" name="Blue Column" side="blue" kind="line_infantry" formation="column" figures="24"/>
  <unit id="G1" name="Blue Guns" side="blue" kind="foot_artillery" formation="unlimbered" figures="10" weapon="none"/>
  <unit id="R1" name="Red Line" side="red" kind="line_infantry" formation="line" figures="24"/>
</scenario>
XML
printf 'B1 FCol\nG1 Fg @R1\n' >checks-blue.txt
expect_exit 0 ord new checks-now.game --scenario checks.xml
expect_exit 65 ord submit checks-now.game --side blue checks-blue.txt
expect_in "$ERR" "unit 'B1' is already in column: FCol changes nothing"
expect_exit 0 ord new checks-before.game --scenario checks.xml --tables tables-before-checks.xml
expect_exit 0 ord submit checks-before.game --side blue checks-blue.txt
expect_exit 0 ord submit checks-before.game --side red stands.txt
expect_exit 0 ord seal checks-before.game
expect_exit 0 ord event checks-before.game form unit=B1 formation=column
expect_exit 0 ord resolve checks-before.game
expect_exit 0 ord event checks-before.game artillery unit=G1 target=R1 range=14
expect_exit 0 ord resolve checks-before.game
expect_in "$OUT" "out of range: grape at 14 in."
resolve_rest checks-before.game 3
expect_exit 0 ord exchange checks-before.game
expect_exit 0 ord audit checks-before.game
expect_in "$OUT" "clean"

# A game made before the NMR policy repeat repeated each order still valid
# (its log names no nmr_repeat: tests/fixtures/e2e/old-repeat.sql) keeps
# repeating a sheet whole or not at all: blue's sheet of turn 1 has an
# order no longer valid (B1 is in square), so blue holds for the whole
# turn as it did then, and the audit that replays the seal is clean.
sql old-repeat.game ".read $FIX/old-repeat.sql" >/dev/null
# its turn 1 rolled six dice by the orderly that made it, three by their
# events' numbers (the gun's, the melee's two): each is made again so
# (its log names no dice=events), and the audit is clean; keyed by what
# the events name, the gun's and the melee's would fall otherwise
expect_eq "$(sql old-repeat.game "SELECT count(*) FROM roll WHERE turn = 1")" 6 "the old game's rolls"
expect_exit 0 ord audit old-repeat.game
expect_in "$OUT" "ok: dice: 6 rolls recomputed from the seed and the sealed commitments"
expect_in "$OUT" "clean"
# and the audit says how its settings differ from a game made now (what
# a referee's own build could make a game today with: attack 39)
expect_in "$OUT" "    note: the game's dice are keyed by the events' numbers (turn 1's opening, entry 3, logs no dice=events), as an orderly before 2026-12-06 made a game: "
expect_in "$OUT" "    note: the NMR policy repeats a side's last sheet whole or not at all (turn 1's opening, entry 3, logs no nmr_repeat=orders), as an orderly before 2026-12-06 made a game: a side that sends nothing holds every unit when one order of its last sheet is no longer valid; a game made since repeats the orders still valid"
expect_exit 0 ord export old-repeat.game --turn 1 -o old-repeat-1.xml
expect_exit 0 ord verify old-repeat-1.xml
expect_in "$OUT" "  the order of the referee's events: in a game without witnessed dice"
# its openings log no roster digests (sides_root, units_root): its seal
# holds the side and unit rows to the scenario, as the orderly before
# them did, and says so
expect_eq "$(sql old-repeat.game "SELECT count(*) FROM log WHERE kind = 'open' AND (body LIKE '%sides_root=%' OR body LIKE '%units_root=%')")" 0 \
	"the old game's openings with a roster root"
cp old-repeat.game old-renamed.game
sql old-renamed.game "UPDATE unit SET name = 'Reds' WHERE uid = 'R1'" >/dev/null
expect_exit 65 ord seal old-renamed.game --force
expect_eq "$ERR" "orderly: 'old-renamed.game': unit 'R1' is not the scenario's unit 4 ('R1') as the game began: its name is 'Reds', the scenario's '1st Red Foot' (tables side and unit, against the scenario the log states): it was changed outside orderly ('orderly audit' says where); nothing was done" \
	"the seal of an old game's renamed unit"
expect_exit 0 ord seal old-repeat.game --force
expect_in "$OUT" "blue holds: its sheet of turn 1 is not valid now: sheet line 1, col 4: unit 'B1' is already in square"
expect_not_in "$OUT" "repeats its sheet"
expect_eq "$(sql old-repeat.game "SELECT source FROM sheet WHERE turn = 2 AND side_id = 1")" hold \
	"the stand-in of an old game"
# its dice keep their events' numbers (its log names no dice=events): a
# fire rolled and replayed so, clean
resolve_rest old-repeat.game 1
expect_exit 0 ord event old-repeat.game fire unit=R1 target=B1 range=3 --override "a test of an old game's dice"
resolve_rest old-repeat.game 4
expect_exit 0 ord exchange old-repeat.game
# the opening this orderly writes digests the roster, which the audit
# recomputes from the scenario
expect_eq "$(sql old-repeat.game "SELECT count(*) FROM log WHERE kind = 'open' AND turn = 3 AND body LIKE '%sides_root=%' AND body LIKE '%units_root=%'")" 1 \
	"the roster digests of the old game's next opening"
expect_exit 0 ord audit old-repeat.game
expect_in "$OUT" "clean"
expect_eq "$(sql old-repeat.game "SELECT count(*) FROM roll WHERE turn = 2")" 1 "the rolls of the old game's turn 2"

# A game whose kept tables lack a number its ruleset now needs is refused
# plainly, and left as it is.
sql ks.game "UPDATE game SET tables = replace(tables, 'name=\"genforsyning_traek\"', 'name=\"genforsyning_traek_old\"')" >/dev/null
ks_sha=$(sha ks.game)
expect_exit 65 ord info ks.game
expect_in "$ERR" "no parameter 'genforsyning_traek'"
expect_in "$ERR" "this orderly's ruleset 'krigsspil' cannot play the game by the tables it keeps"
expect_eq "$(sha ks.game)" "$ks_sha" "a game refused for its tables"

# A game whose outbox an orderly before schema 19 kept (the bytes before
# queued and sent, the mark sent in the mail's row): migrated, its mails,
# sent and unsent, keep their rows, bytes and marks, each mail's bytes
# copied a piece at a time (a bundle mail of this game is more than the
# 64 KiB piece); mail-out then sends the unsent ones as they were queued,
# byte for byte, and marks them sent.
python3 "$SRC/tests/bench/gen.py" --units 60 --sides 2 --out big >/dev/null
mkdir mailed
M=mailed/big.orderly
expect_exit 0 ord new "$M" --scenario big/scenario.xml
expect_exit 0 ord register "$M" --referee --address referee@club.test --judge orderly@judge.test
for s in s1 s2; do
	expect_exit 0 ord register "$M" --side $s --address $s@club.test
	expect_exit 0 ord submit "$M" --side $s "big/sheets/$s.txt"
done
expect_exit 0 ord seal "$M"
for p in movement fire fire-morale melee melee-morale; do
	if [[ -s "big/events/$p.txt" ]]; then expect_exit 0 ord event "$M" --file "big/events/$p.txt"; fi
	expect_exit 0 ord resolve "$M"
done
expect_exit 0 ord exchange "$M"
expect_exit 75 ord tick mailed --sendmail false
sql "$M" "UPDATE mail_sent SET sent = 1765000000 + id WHERE id % 3 = 0" >/dev/null
outbox_rows="SELECT o.id, o.key, o.message_id, o.rcpt, o.queued, s.sent, length(o.bytes), hex(sha3(o.bytes))
	FROM mail_outbox o JOIN mail_sent s ON s.id = o.id ORDER BY o.id"
rows=$(sql "$M" "$outbox_rows")
expect_eq "$(sql "$M" "SELECT count(*) > 10 AND max(length(bytes)) > 65536 FROM mail_outbox")" 1 \
	"mails queued, one of them longer than a piece"
sql "$M" "$OLD_OUTBOX_SQL $OLD_INBOX_SQL PRAGMA user_version = 18;" >/dev/null
expect_eq "$(sql "$M" "SELECT id, key, message_id, rcpt, queued, sent, length(bytes), hex(sha3(bytes))
	FROM mail_outbox ORDER BY id")" "$rows" "the old outbox's rows"
expect_exit 0 ord info "$M"
expect_eq "$(sql "$M" "PRAGMA user_version")" 21 "the schema of the old outbox's game after the open"
expect_eq "$(sql "$M" "$outbox_rows")" "$rows" "the outbox's rows after the migration"
expect_eq "$(sql "$M" "SELECT count(*) FROM sqlite_schema WHERE name LIKE 'mail_outbox_old%'")" 0 \
	"the old outbox after the migration"
mkdir sent
cat >sendmail.sh <<'SH'
#!/bin/sh
exec cat >"sent/$(printf %03d "$(ls sent | wc -l)")"
SH
chmod +x sendmail.sh
unsent=$(sql "$M" "SELECT id FROM mail_sent WHERE sent IS NULL ORDER BY id")
expect_exit 0 ord mail-out "$M" --sendmail ./sendmail.sh
expect_eq "$(sql "$M" "SELECT count(*) FROM mail_sent WHERE sent IS NULL")" 0 "unsent mails after mail-out"
expect_eq "$(sql "$M" "SELECT count(*) FROM mail_sent WHERE id % 3 = 0 AND sent <> 1765000000 + id")" 0 \
	"the marks of the mails sent before, after mail-out"
k=0
for id in $unsent; do
	f=sent/$(printf %03d $k)
	sql "$M" "SELECT writefile('queued.$id', bytes) FROM mail_outbox WHERE id = $id" >/dev/null
	cmp -s "$f" "queued.$id" || fail "mail $id: mail-out sent other bytes than were queued ($f)"
	k=$((k + 1))
done
expect_eq "$(ls sent | wc -l)" "$k" "the mails mail-out sent"
expect_exit 0 ord audit "$M"
expect_in "$OUT" "clean"
# an old outbox a mail was queued in by hand, with the sqlite3 shell: its
# bytes a text (length() counts its characters, 2 fewer than its bytes
# here) are migrated as its bytes; a number where the bytes belong is
# refused, naming the mail, nothing migrated
for v in text number; do
	H=hand-$v.game
	expect_exit 0 ord new "$H" --scenario "$KS/scenario.xml"
	if [[ $v == text ]]; then mail="'Subject: Jægerkorps' || char(10) || char(10) || 'ø' || char(10)"; else mail=5; fi
	sql "$H" "$OLD_OUTBOX_SQL $OLD_INBOX_SQL INSERT INTO mail_outbox(id, key, message_id, rcpt, bytes, queued, sent)
		VALUES (1, NULL, '<hand@club.test>', 'a@club.test', $mail, 1765000000, NULL);
		PRAGMA user_version = 18;" >/dev/null
	if [[ $v == text ]]; then
		expect_exit 0 ord info "$H"
		expect_eq "$(sql "$H" "PRAGMA user_version")" 21 "the schema of the hand-queued outbox's game"
		expect_eq "$(sql "$H" "SELECT typeof(bytes), length(bytes), hex(bytes) FROM mail_outbox")" \
			"blob|25|$(printf 'Subject: J\xc3\xa6gerkorps\n\n\xc3\xb8\n' | od -An -tx1 | tr -d ' \n' | tr a-f A-F)" \
			"the hand-queued mail's bytes after the migration"
	else
		expect_exit 65 ord info "$H"
		expect_in "$ERR" "'$PWD/$H': moving the outbox's mails to their new table: mail 1 holds an integer where its bytes belong (expected the message, a blob or text)"
		expect_eq "$(sql "$H" "PRAGMA user_version")" 18 "the schema of a refused outbox's game"
	fi
done

# A game whose inbox an orderly before schema 21 kept (each mail whole in
# its row, which every change of the mail's state or result wrote again):
# migrated on open, every mail keeps its row and its bytes, byte for byte
# and of the same type (a blob as mail-in stores one, a text the sqlite3
# shell stored, an empty one, one of 100 KiB, a stranger's and a forged
# one cut: J9, attack 29), and the judge goes on with them: a mail
# answered before is not answered again, one stored and never answered
# (mail-in killed) is answered now, the lines of `orderly sign` refused
# with a CHECK before are refused with ORDERS after (the CHECK's nonce is
# in its result line: attack 13), and a new mail's bytes go to a row of
# their own; the audit is clean.
mkdir inboxed
I=inboxed/inbox.orderly
expect_exit 0 ord keygen red.key
pub=$(sed -n 's/^public: //p' red.key.pub)
sed "s|email=\"red@club.test\"/>|email=\"red@club.test\" pubkey=\"$pub\"/>|" \
	"$SRC/tests/mail/data/scenario.xml" >inbox-scenario.xml
expect_exit 0 ord new "$I" --scenario inbox-scenario.xml
printf 'blue shako and sabre\n' | ord register "$I" --side blue --passphrase-file - >/dev/null
ord head "$I" --at open >open-1.head
# inbox_mail ID FROM BODY: a mail to the game, written to ID.eml
inbox_mail() {
	printf 'From: %s\nTo: orderly+inbox@judge.test\nSubject: mail\nMessage-ID: <%s@club.test>\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n%s\n' \
		"$2" "$1" "$3" >"$1.eml"
}
inbox_result() {
	sql "$I" "SELECT result FROM mail_inbox WHERE message_id = '$1@club.test'"
}
big=$(awk 'BEGIN { for (i = 0; i < 1600; i++) printf "%063d\n", i }') # 100 KiB
pass='Passphrase: blue shako and sabre'
inbox_mail whole 'Blue <blue@club.test>' "$pass"$'\nSTATUS\n'"$big"
inbox_mail forged 'Blue <blue@club.test>' "STATUS"$'\n'"$big"
inbox_mail stranger 'Nobody <nobody@elsewhere.test>' "$big"
inbox_mail wrong 'Blue <blue@club.test>' $'Passphrase: a guess\nSTATUS'
printf 'R1 ↑ 3/4\n' >draft.txt
signed=$(ord sign --head open-1.head --side red --key red.key draft.txt)
inbox_mail check 'Red <red@club.test>' "$signed"$'\n\nCHECK\n'"$(cat draft.txt)"$'\nEND'
inbox_mail check-as-orders 'Red <red@club.test>' "$signed"$'\n\nORDERS\n'"$(cat draft.txt)"$'\nEND'
inbox_mail killed 'Blue <blue@club.test>' "$pass"$'\nSTATUS'
for m in whole forged stranger wrong check; do
	expect_exit 0 ord mail-in --games inboxed <"$m.eml"
done
expect_eq "$(inbox_result whole)" "status sent" "the 100 KiB mail's result"
expect_in "$(inbox_result check)" "refused, not checked"
expect_in "$(inbox_result check)" "(nonce "
expect_eq "$(sql "$I" "SELECT count(*) FROM mail_inbox JOIN mail_inbox_raw USING (id)
	WHERE message_id IN ('forged@club.test', 'stranger@club.test') AND length(raw) < 16384 + 300")" 2 \
	"the mails kept cut"
inbox_new="SELECT i.id, i.message_id, i.sender, i.received, i.state, i.result, i.done, typeof(r.raw),
	length(CAST(r.raw AS BLOB)), hex(sha3(r.raw)) FROM mail_inbox i JOIN mail_inbox_raw r ON r.id = i.id ORDER BY i.id"
inbox_old="SELECT id, message_id, sender, received, state, result, done, typeof(raw),
	length(CAST(raw AS BLOB)), hex(sha3(raw)) FROM mail_inbox ORDER BY id"
rows=$(sql "$I" "$inbox_new")
# as the orderly before kept it, and two mails stored as the sqlite3 shell
# stores them: one never answered (a text), one empty
sql "$I" "$OLD_INBOX_SQL PRAGMA user_version = 20;" >/dev/null
expect_eq "$(sql "$I" "$inbox_old")" "$rows" "the old inbox's rows"
sql "$I" "INSERT INTO mail_inbox(message_id, sender, received, raw) VALUES
		('killed@club.test', 'Blue <blue@club.test>', 1765000000, CAST(readfile('killed.eml') AS TEXT)),
		('empty@club.test', 'nobody', 1765000001, X'');
	UPDATE mail_inbox SET state = 'done', result = 'not answered: empty', done = 1765000002
	WHERE message_id = 'empty@club.test'" >/dev/null
rows=$(sql "$I" "$inbox_old")
expect_in "$rows" "|killed@club.test|Blue <blue@club.test>|1765000000|new||"
expect_in "$rows" "|text|"
expect_eq "$(sql "$I" "SELECT count(*) FROM mail_inbox WHERE length(raw) > 102400")" 1 \
	"the old inbox's mails kept whole in their rows"
expect_exit 0 ord info "$I"
expect_eq "$(sql "$I" "PRAGMA user_version")" 21 "the schema of the old inbox's game after the open"
expect_eq "$(sql "$I" "$inbox_new")" "$rows" "the inbox's rows and bytes after the migration"
expect_eq "$(sql "$I" "SELECT (SELECT count(*) FROM mail_inbox) = (SELECT count(*) FROM mail_inbox_raw)")" 1 \
	"a row of bytes for every mail"
expect_eq "$(sql "$I" "SELECT count(*) FROM sqlite_schema WHERE name LIKE 'mail_inbox_old%'")" 0 \
	"the old inbox after the migration"
# the judge goes on
expect_exit 0 ord mail-in --games inboxed <whole.eml
expect_in "$ERR" "message <whole@club.test> was answered before: nothing to do"
expect_exit 0 ord mail-in --games inboxed <killed.eml
expect_eq "$(inbox_result killed)" "status sent" "the mail never answered, after the migration"
expect_exit 0 ord mail-in --games inboxed <check-as-orders.eml
expect_in "$(inbox_result check-as-orders)" "ORDERS with the signature lines of the CHECK mail"
expect_eq "$(sql "$I" "SELECT count(*) FROM sheet")" 0 "sheets after the CHECK's lines came with ORDERS"
expect_eq "$(sql "$I" "SELECT state, typeof(raw), hex(sha3(raw)) = hex(sha3(CAST(readfile('killed.eml') AS TEXT)))
	FROM mail_inbox JOIN mail_inbox_raw USING (id) WHERE message_id = 'killed@club.test'")" "done|text|1" \
	"the mail never answered, its bytes as stored"
expect_eq "$(sql "$I" "SELECT CAST(raw AS TEXT) = CAST(readfile('check-as-orders.eml') AS TEXT)
	FROM mail_inbox JOIN mail_inbox_raw USING (id) WHERE message_id = 'check-as-orders@club.test'")" 1 \
	"a new mail's bytes in a row of their own"
expect_exit 0 ord audit "$I"
expect_in "$OUT" "clean"
note "ok"
