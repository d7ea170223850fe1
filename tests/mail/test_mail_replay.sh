#!/usr/bin/env bash
# test_mail_replay.sh - what a review found that someone who sees a player's
# mail could do, through the real MTA: send his signed orders again after
# he sent newer ones (OpenPGP/MIME, and the lines of `orderly sign`), use
# up his replies with forged mail so that his receipt or his own STATUS
# never comes, or read his passphrase
# in a copy of the game file (the inbox, unrouted/); and REPORT -1.
set -euo pipefail
# shellcheck source=tests/mail/lib.sh
source "$(dirname "$0")/lib.sh"
need_sqlite3

G=$GAMES/replay.orderly
ordu new "$G" --scenario "$MAILSRC/data/scenario.xml" >/dev/null 2>&1
printf 'blue shako and sabre\n' | ordu register "$G" --side blue --passphrase-file - >/dev/null
ordu tick "$GAMES" --sendmail "$SENDMAIL" >/dev/null
deliver

sheets() {
	sqlu "SELECT count(*) FROM sheet WHERE side_id = (SELECT id FROM side WHERE name = '${1:-blue}')" "${2:-$G}"
}
# every subject of PLAYER's mails, one a line (the order of mails delivered
# in one second is not sure)
subjects() {
	local f
	for f in $(mails "$1"); do mime "$f" subject; done
}
# the body of PLAYER's mail whose subject has TEXT
body_with() {
	local f
	for f in $(mails "$1"); do
		if [[ "$(mime "$f" subject)" == *"$2"* ]]; then
			mime "$f" body
			return 0
		fi
	done
	fail "no mail to $1 with '$2' in its subject; they have: $(subjects "$1")"
}
send_and_flush() {
	send_raw "$1"
	deliver
	flush
}

# --------------------------------------------- the passphrase is not kept
cat >"$TMP/plain.eml" <<'EOF'
From: Blue <blue@club.test>
To: orderly+replay@judge.test
Subject: orders
Message-ID: <replay-plain@club.test>
Content-Type: text/plain; charset=utf-8

Passphrase: blue shako and sabre
ORDERS
B1 ↑ 1/2
END
> Passphrase: blue shako and sabre
EOF
send_and_flush "$TMP/plain.eml"
expect_in "$(subjects blue)" "receipt: turn 1, blue, version 1"
# the receipt names the deadline the players were told, then the grace's
# end, which the game keeps (the schedule: 18:00 Copenhagen, an hour's grace)
body=$(body_with blue "receipt: turn 1, blue, version 1")
end=$(sqlu "SELECT deadline FROM turn WHERE turn = 1")
expect_line "$body" "^deadline:   .*$(date -u -d "@$((end - 3600))" +%Y-%m-%dT%H:%M)"
expect_line "$body" "^            sheets are still taken in the grace, until .*$(date -u -d "@$end" +%Y-%m-%dT%H:%M)"
run ordu info "$G"
expect_line "$OUT" "^deadline:  $(date -u -d "@$((end - 3600))" +%Y-%m-%dT%H:%M:%SZ)$"
expect_line "$OUT" "^           sheets are still taken in the grace, until $(date -u -d "@$end" +%Y-%m-%dT%H:%M:%SZ)$"
raw=$(sqlu "SELECT CAST(raw AS TEXT) FROM mail_inbox JOIN mail_inbox_raw USING (id) WHERE message_id = 'replay-plain@club.test'")
expect_not_in "$raw" "shako"
expect_in "$raw" "Passphrase: (removed)"
expect_in "$raw" "> Passphrase: (removed)"
expect_in "$raw" "B1 ↑ 1/2"

# quoted-printable: the line is not in the bytes as written; the text is kept
printf 'blå shako\n' | ordu register "$G" --side blue --passphrase-file - >/dev/null
cat >"$TMP/qp.eml" <<'EOF'
From: Blue <blue@club.test>
To: orderly+replay@judge.test
Subject: orders
Message-ID: <replay-qp@club.test>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: quoted-printable

Passphr=
ase: bl=C3=A5 shako
ORDERS
B1 =E2=86=91 1/4
END
EOF
send_and_flush "$TMP/qp.eml"
expect_in "$(subjects blue)" "receipt: turn 1, blue, version 2"
raw=$(sqlu "SELECT CAST(raw AS TEXT) FROM mail_inbox JOIN mail_inbox_raw USING (id) WHERE message_id = 'replay-qp@club.test'")
expect_not_in "$raw" "shako"
expect_in "$raw" "X-Orderly-Kept: the plain text only, without its passphrase"
expect_in "$raw" "B1 ↑ 1/4"
expect_in "$raw" "Message-ID: <replay-qp@club.test>"

# a mail to no game is kept in unrouted/, without it too
sed -e 's/orderly+replay@/orderly+nosuchgame@/' -e 's/replay-plain@/replay-nogame@/' \
	"$TMP/plain.eml" >"$TMP/nogame.eml"
send_raw "$TMP/nogame.eml"
deliver
kept=$(as_user cat "$GAMES"/unrouted/*.eml)
expect_not_in "$kept" "shako"
expect_in "$kept" "Passphrase: (removed)"

# ------------- forged mails use up none of his replies (judge.c J8): the
# notice of a mail not proven his goes at most once here (twice an hour,
# fewer at a smaller replies-per-hour); his own STATUS, proven, is answered
# and his receipt comes
ordu register "$G" --replies-per-hour 1 >/dev/null
deliver # the bounce of the mail to no game, before the count
before=$(mail_count blue)
for k in 1 2 3; do
	cat >"$TMP/forged-$k.eml" <<EOF
From: Blue <blue@club.test>
To: orderly+replay@judge.test
Subject: STATUS
Message-ID: <replay-forged-$k@club.test>

a forger's mail, without the proof
EOF
	send_and_flush "$TMP/forged-$k.eml"
done
expect_in "$(sqlu "SELECT result FROM mail_inbox WHERE message_id = 'replay-forged-2@club.test'")" \
	"(no reply: notices per hour of mail not proven used up)"
expect_eq "$(mail_count blue)" $((before + 1)) "mails to blue after three forged ones"
cat >"$TMP/own-status.eml" <<EOF
From: Blue <blue@club.test>
To: orderly+replay@judge.test
Subject: STATUS
Message-ID: <replay-own-status@club.test>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 8bit

Passphrase: blå shako
EOF
send_and_flush "$TMP/own-status.eml"
expect_eq "$(mail_count blue)" $((before + 2)) "mails to blue after his own STATUS"
expect_not_in "$(sqlu "SELECT result FROM mail_inbox WHERE message_id = 'replay-own-status@club.test'")" "no reply"
before=$(mail_count blue)
sed -e 's/replay-qp@/replay-after-limit@/' -e 's/B1 =E2=86=91 1\/4/B1 =E2=86=91 3\/4/' "$TMP/qp.eml" >"$TMP/after-limit.eml"
send_and_flush "$TMP/after-limit.eml"
expect_eq "$(mail_count blue)" $((before + 1)) "mails to blue after the replies were used up"
expect_in "$(subjects blue)" "receipt: turn 1, blue, version 3"
ordu register "$G" --replies-per-hour 30 >/dev/null

# ------------------------------------------------------ REPORT below turn 1
cat >"$TMP/report.eml" <<'EOF'
From: Blue <blue@club.test>
To: orderly+replay@judge.test
Subject: REPORT -1
Message-ID: <replay-report@club.test>

Passphrase: blå shako
EOF
send_and_flush "$TMP/report.eml"
expect_in "$(body_with blue "report: not understood")" "REPORT takes a turn number (1 or more), not '-1'"

# ------------------------------------------- OpenPGP/MIME, sent again
if command -v gpg >/dev/null 2>&1; then
	as_user mkdir -p -m 0700 "$TMP/gpg-red"
	# the key made before the signatures, by gpg's clock set back
	now=$(date +%s)
	echo "faked-system-time $((now - 1000))!" | as_user tee "$TMP/gpg-red/gpg.conf" >/dev/null
	as_user gpg --homedir "$TMP/gpg-red" --batch --passphrase '' --quick-gen-key \
		"red <red@club.test>" ed25519 sign never 2>/dev/null
	as_user gpg --homedir "$TMP/gpg-red" --armor --export red@club.test >"$TMP/red.asc"
	ordu register "$G" --side red --pgp-key "$TMP/red.asc" >/dev/null
	# two mails signed ten seconds apart (gpg's clock set for each), each
	# naming its game in what is signed; a third names none
	for v in 1 2 3 4; do
		{
			[[ $v == 3 ]] || printf 'Game: replay\n'
			if [[ $v == 4 ]]; then
				printf 'R1 ↑ 1/4\n' # no command: the Subject's is not signed
			else
				printf 'ORDERS\nR1 ↑ %s\nEND\n' "$([[ $v == 1 ]] && echo 1/4 || echo 1/2)"
			fi
		} >"$TMP/red-$v.txt"
		echo "faked-system-time $((now - 100 + 10 * v))!" | as_user tee "$TMP/gpg-red/gpg.conf" >/dev/null
		as_user python3 "$MAILSRC/pgp_mail.py" "$TMP/gpg-red" "Red <red@club.test>" \
			orderly+replay@judge.test "replay-pgp-$v@club.test" "$TMP/red-$v.txt" >"$TMP/pgp-$v.eml"
	done
	send_and_flush "$TMP/pgp-1.eml"
	expect_in "$(subjects red)" "[replay] receipt: turn 1, red, version 1"
	send_and_flush "$TMP/pgp-2.eml"
	expect_in "$(subjects red)" "[replay] receipt: turn 1, red, version 2"
	# the first mail again, as whoever saw it would send it: a new Message-ID
	sed 's/replay-pgp-1@/replay-pgp-1-again@/' "$TMP/pgp-1.eml" >"$TMP/pgp-1-again.eml"
	send_and_flush "$TMP/pgp-1-again.eml"
	expect_eq "$(sheets red)" 2 "red's sheets after his first signed mail came again"
	expect_in "$(body_with red "[replay] NOT accepted: your mail could not be proven yours")" \
		"no later than that of your last signed mail"
	expect_in "$(sqlu "SELECT CAST(bytes AS TEXT) FROM sheet WHERE version = (SELECT max(version) FROM sheet WHERE side_id = 2) AND side_id = 2")" "R1 ↑ 1/2"
	# a signature says who wrote a mail, not for which game: the same mail
	# readdressed to another game red plays in with the same key is refused
	# there, as one that names no game is here
	O=$GAMES/other.orderly
	ordu new "$O" --scenario "$MAILSRC/data/scenario.xml" >/dev/null 2>&1
	ordu register "$O" --side red --pgp-key "$TMP/red.asc" >/dev/null
	sed -e 's/orderly+replay@/orderly+other@/' -e 's/replay-pgp-2@/other-pgp-2@/' "$TMP/pgp-2.eml" >"$TMP/pgp-2-other.eml"
	send_and_flush "$TMP/pgp-2-other.eml"
	expect_eq "$(sqlu "SELECT count(*) FROM sheet" "$O")" 0 "sheets of another game after red's signed mail readdressed to it"
	expect_in "$(body_with red "[other] NOT accepted: your mail could not be proven yours")" \
		"an OpenPGP-signed mail names its game on a line 'Game: other' of what is signed (this one names 'replay')"
	send_and_flush "$TMP/pgp-3.eml"
	expect_eq "$(sheets red)" 2 "red's sheets after a signed mail that names no game"
	expect_in "$(mime "$(mails red | tail -1)" subject)" "[replay] NOT accepted: your mail could not be proven yours"
	expect_in "$(mime "$(mails red | tail -1)" body)" \
		"an OpenPGP-signed mail names its game on a line 'Game: replay' of what is signed: the signature says who wrote it, not for which game"
	send_and_flush "$TMP/pgp-4.eml"
	expect_eq "$(sheets red)" 2 "red's sheets after a signed mail with no command line"
	expect_in "$(mime "$(mails red | tail -1)" subject)" "[replay] NOT accepted: no command in what you signed"
	expect_in "$(mime "$(mails red | tail -1)" body)" "the Subject is not signed"

else
	note "SKIP OpenPGP: gpg is not installed"
fi

# ------------------------------------ the lines of `orderly sign`, sent again
S=$GAMES/signed.orderly
new_signed_game "$S"
flush # its "turn open" mails first
for v in 1 2; do
	printf 'R1 ↑ %s\n' "$([[ $v == 1 ]] && echo 1/4 || echo 1/2)" >"$TMP/sheet-$v.txt"
	chmod a+r "$TMP/sheet-$v.txt"
	signed=$(ordu sign --head "$TMP/open-1.head" --side red --key "$TMP/red.key" "$TMP/sheet-$v.txt")
	cat >"$TMP/signed-$v.eml" <<EOF
From: Red <red@club.test>
To: orderly+signed@judge.test
Subject: orders
Message-ID: <signed-$v@club.test>
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 8bit

$signed

ORDERS
$(cat "$TMP/sheet-$v.txt")
END
EOF
	send_and_flush "$TMP/signed-$v.eml"
	expect_in "$(subjects red)" "[signed] receipt: turn 1, red, version $v"
done
sed 's/signed-1@/signed-1-again@/' "$TMP/signed-1.eml" >"$TMP/signed-1-again.eml"
send_and_flush "$TMP/signed-1-again.eml"
expect_eq "$(sheets red "$S")" 2 "red's sheets after his first signed sheet came again"
expect_in "$(body_with red "[signed] orders NOT accepted")" "is version 1 of side red's sheet of turn 1, stored already"
# copies of it sent again and again (by anyone who holds one) are answered
# within red's replies an hour, not each: the refusal of a signed sheet
# stored already counts as a reply (a second red team's find: 40 copies
# got 41 replies)
ordu register "$S" --replies-per-hour 1 >/dev/null
before=$(mail_count red)
for n in 2 3 4; do
	sed "s/signed-1@/signed-1-again-$n@/" "$TMP/signed-1.eml" >"$TMP/signed-1-again-$n.eml"
	send_and_flush "$TMP/signed-1-again-$n.eml"
done
expect_eq "$(mail_count red)" "$before" "replies to red after three more copies of his signed sheet"
expect_in "$(sqlu "SELECT result FROM mail_inbox WHERE message_id = 'signed-1-again-4@club.test'" "$S")" \
	"(no reply: replies per hour used up)"
expect_eq "$(sheets red "$S")" 2 "red's sheets after the copies"
ordu register "$S" --replies-per-hour 30 >/dev/null

# ------------------- a CHECK is not signed: its lines would submit the sheet
# Neither the Subject nor a CHECK line is signed: the lines of `orderly
# sign` in a CHECK mail, sent again with ORDERS, would submit the draft
# with the player's own signature.  The judge refuses them, as proof or not.
printf 'R1 ↑ 3/4\n' >"$TMP/draft.txt"
chmod a+r "$TMP/draft.txt"
signed=$(ordu sign --head "$TMP/open-1.head" --side red --key "$TMP/red.key" "$TMP/draft.txt")
k=0
for how in subject line; do
	k=$((k + 1))
	{
		printf 'From: Red <red@club.test>\nTo: orderly+signed@judge.test\n'
		if [[ $how == subject ]]; then printf 'Subject: CHECK\n'; else printf 'Subject: a draft\n'; fi
		printf 'Message-ID: <signed-check-%d@club.test>\n' "$k"
		printf 'Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n'
		printf '%s\n\n' "$signed"
		if [[ $how == line ]]; then printf 'CHECK\n'; fi
		cat "$TMP/draft.txt"
		if [[ $how == line ]]; then printf 'END\n'; fi
	} >"$TMP/signed-check-$k.eml"
	before=$(mail_count red)
	send_and_flush "$TMP/signed-check-$k.eml"
	expect_eq "$(mail_count red)" $((before + 1)) "replies to red's signed CHECK ($how)"
	expect_not_in "$(subjects red)" "[signed] check: "
	expect_eq "$(sheets red "$S")" 2 "red's sheets after a signed CHECK ($how)"
	expect_in "$(sqlu "SELECT result FROM mail_inbox WHERE message_id = 'signed-check-$k@club.test'" "$S")" \
		"refused, not checked"
done
body=$(body_with red "[signed] CHECK NOT done: a sheet to check is not signed")
expect_in "$body" "would submit that sheet as yours"
expect_in "$body" "Sign only the"
# and those lines sent again with ORDERS (by whoever saw the CHECK) are
# refused too: the nonce the CHECK carried is in the inbox's result line
{
	printf 'From: Red <red@club.test>\nTo: orderly+signed@judge.test\n'
	printf 'Subject: orders\nMessage-ID: <signed-check-as-orders@club.test>\n'
	printf 'Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n'
	printf '%s\n\nORDERS\n' "$signed"
	cat "$TMP/draft.txt"
	printf 'END\n'
} >"$TMP/signed-check-as-orders.eml"
send_and_flush "$TMP/signed-check-as-orders.eml"
expect_eq "$(sheets red "$S")" 2 "red's sheets after the CHECK's lines came with ORDERS"
expect_in "$(body_with red "[signed] NOT accepted: these signature lines came with a CHECK")" \
	"sign it anew"
expect_in "$(sqlu "SELECT result FROM mail_inbox WHERE message_id = 'signed-check-as-orders@club.test'" "$S")" \
	"ORDERS with the signature lines of the CHECK mail"

# ------------------- a draft signed as a draft ('orderly sign --draft')
# Its draft-signature line is a signature under another name: it proves
# the CHECK (checked, nothing stored), proves nothing with ORDERS, and is
# no sheet's signature when submitted by hand (the referee's, say).
drafted=$(ordu sign --draft --head "$TMP/open-1.head" --side red --key "$TMP/red.key" "$TMP/draft.txt")
expect_in "$drafted" "draft-signature: "
[[ $drafted != *$'\nsignature: '* ]] || fail "sign --draft printed a sheet's signature line: $drafted"
for cmd in CHECK ORDERS; do
	{
		printf 'From: Red <red@club.test>\nTo: orderly+signed@judge.test\n'
		printf 'Subject: a draft\nMessage-ID: <signed-draft-%s@club.test>\n' "$cmd"
		printf 'Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n'
		printf '%s\n\n%s\n' "$drafted" "$cmd"
		cat "$TMP/draft.txt"
		printf 'END\n'
	} >"$TMP/signed-draft-$cmd.eml"
	before=$(mail_count red)
	send_and_flush "$TMP/signed-draft-$cmd.eml"
	expect_eq "$(mail_count red)" $((before + 1)) "replies to red's draft signed as one ($cmd)"
	expect_eq "$(sheets red "$S")" 2 "red's sheets after his draft signed as one ($cmd)"
done
expect_in "$(sqlu "SELECT result FROM mail_inbox WHERE message_id = 'signed-draft-CHECK@club.test'" "$S")" \
	"checked: 0 problem(s)"
expect_in "$(body_with red "[signed] check: no problems")" "Checked, nothing stored: no problems."
expect_in "$(sqlu "SELECT result FROM mail_inbox WHERE message_id = 'signed-draft-ORDERS@club.test'" "$S")" \
	"not proven (the lines of 'orderly sign --draft' sign a draft to be checked (CHECK), never orders"
nonce=$(sed -n 's/^nonce: //p' <<<"$drafted")
sig=$(sed -n 's/^draft-signature: //p' <<<"$drafted")
run ordu submit "$S" --side red "$TMP/draft.txt" --nonce "$nonce" --signature "$sig"
[[ $RC == 65 ]] || fail "the draft's signature submitted by hand: exit $RC, expected 65: $ERR"
expect_in "$ERR" "signature"
expect_eq "$(sheets red "$S")" 2 "red's sheets after his draft's signature was submitted by hand"
# a draft-signature line that does not sign the draft proves no CHECK
{
	printf 'From: Red <red@club.test>\nTo: orderly+signed@judge.test\n'
	printf 'Subject: CHECK\nMessage-ID: <signed-draft-changed@club.test>\n'
	printf 'Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n'
	printf '%s\n\nR1 ↑ 1/4\n' "$drafted"
} >"$TMP/signed-draft-changed.eml"
send_and_flush "$TMP/signed-draft-changed.eml"
expect_in "$(sqlu "SELECT result FROM mail_inbox WHERE message_id = 'signed-draft-changed@club.test'" "$S")" \
	"not proven (the lines of 'orderly sign --draft' do not sign this sheet with your side's key)"
# a draft-signature line cut short is said to be, not taken for no line
{
	printf 'From: Red <red@club.test>\nTo: orderly+signed@judge.test\n'
	printf 'Subject: CHECK\nMessage-ID: <signed-draft-short@club.test>\n'
	printf 'Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n'
	printf '%s\n\n' "$(sed 's/^\(draft-signature: .\{100\}\).*/\1/' <<<"$drafted")"
	cat "$TMP/draft.txt"
} >"$TMP/signed-draft-short.eml"
send_and_flush "$TMP/signed-draft-short.eml"
expect_in "$(sqlu "SELECT result FROM mail_inbox WHERE message_id = 'signed-draft-short@club.test'" "$S")" \
	"not proven (its line 'draft-signature:' is not the 128 hexadecimal digits 'orderly sign --draft' prints)"
# and so is a sheet's signature or nonce line cut short with ORDERS
# (a mailer's wrap, say), where it was taken for no proof at all
for line in signature nonce; do
	fresh=$(ordu sign --head "$TMP/open-1.head" --side red --key "$TMP/red.key" "$TMP/draft.txt")
	{
		printf 'From: Red <red@club.test>\nTo: orderly+signed@judge.test\n'
		printf 'Subject: orders\nMessage-ID: <signed-short-%s@club.test>\n' "$line"
		printf 'Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n'
		printf '%s\n\nORDERS\n' "$(sed "s/^\($line: .\{40\}\).*/\1/" <<<"$fresh")"
		cat "$TMP/draft.txt"
		printf 'END\n'
	} >"$TMP/signed-short-$line.eml"
	send_and_flush "$TMP/signed-short-$line.eml"
	digits=128
	[[ $line == nonce ]] && digits=64
	expect_in "$(sqlu "SELECT result FROM mail_inbox WHERE message_id = 'signed-short-$line@club.test'" "$S")" \
		"not proven (its line '$line:' is not the $digits hexadecimal digits 'orderly sign' prints)"
	expect_eq "$(sheets red "$S")" 2 "red's sheets after his $line line came cut short"
done

for game in "$G" "$S"; do
	run ordu audit "$game"
	[[ $RC == 0 ]] || fail "audit of $game: $OUT $ERR"
done
note "a signed mail sent again is refused, receipts come past the reply limit, passphrases are not kept"
