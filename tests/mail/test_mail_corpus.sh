#!/usr/bin/env bash
# test_mail_corpus.sh - real-world mail shapes through the real MTA, each
# with the reply it must get (or none) and the change it may make to the
# game file (tests/mail/corpus.py writes them): quoted-printable, base64,
# Latin-1 and UTF-8 with æøå, multipart/alternative, HTML only, a .txt
# attachment, a top-posted reply, signatures, 1,000-character lines, a
# 20 MB mail, format=flowed, broken MIME, no From:, forged From: without the proof, a
# stranger, a mail loop, an auto-reply, a bounce, list mail, a Game: line,
# errors with their lines and columns, no orders, a byte that is not UTF-8
# (declared UTF-8, or windows-1252), a .txt sent as application/octet-stream,
# a .txt beside a STATUS line (refused whole) or under a Subject HELP;
# then the replies-per-hour limit, OpenPGP/MIME (a good signature, another
# key's, a text and an attached sheet signed together), orders signed with `orderly sign`, and a mail to no game (bounced,
# and kept).
set -euo pipefail
# shellcheck source=tests/mail/lib.sh
source "$(dirname "$0")/lib.sh"
need_sqlite3

G=$GAMES/corpus.orderly
ordu new "$G" --scenario "$MAILSRC/data/scenario.xml" >/dev/null 2>&1
printf 'blue shako and sabre\n' | ordu register "$G" --side blue --passphrase-file - >/dev/null
# the sides' "turn open" mails (the head of the opening) go out first
ordu tick "$GAMES" --sendmail "$SENDMAIL" >/dev/null
deliver
mkdir -p "$TMP/corpus"
python3 "$SRC/tests/mail/corpus.py" "$TMP/corpus" corpus
chmod -R a+r "$TMP/corpus"

sheets() {
	sqlu "SELECT count(*) FROM sheet"
}
latest_sheet() {
	sqlu "SELECT CAST(bytes AS TEXT) FROM sheet ORDER BY id DESC LIMIT 1"
}

# send FILE; expect a new mail to WHO whose subject has SUBJECT ("-": none to
# anybody) and the sheets to grow by DELTA
check() {
	local file=$TMP/corpus/$1 who=$2 subject=$3 delta=$4 before_s before_m after_m
	before_s=$(sheets)
	before_m=$(($(mail_count blue) + $(mail_count red) + $(mail_count mallory) + $(mail_count referee)))
	send_raw "$file"
	deliver
	flush
	expect_eq "$(sheets)" $((before_s + delta)) "$1: sheets"
	expect_eq "$(as_user "$EXIM" -C "$MTA_DIR/exim.conf" -bpc 2>/dev/null)" 0 "$1: messages left queued"
	expect_eq "$(sqlu "SELECT count(*) FROM mail_inbox WHERE message_id LIKE 'corpus-${1%%-*}-%'")" 1 "$1: stored"
	after_m=$(($(mail_count blue) + $(mail_count red) + $(mail_count mallory) + $(mail_count referee)))
	if [[ "$subject" == - ]]; then
		expect_eq "$after_m" "$before_m" "$1: mails sent (none expected)"
		return 0
	fi
	expect_eq "$after_m" $((before_m + 1)) "$1: mails sent"
	LAST=$(mails "$who" | tail -1)
	[[ -n "$LAST" ]] || fail "$1: no mail to $who"
	expect_in "$(mime "$LAST" subject)" "$subject"
	BODY=$(mime "$LAST" body)
}

v=0
receipt() {
	v=$((v + 1))
	check "$1" blue "receipt: turn 1, blue, version $v" 1
}

receipt 01-quoted-printable.eml
expect_in "$(latest_sheet)" "B1 ↑ 1/2"
receipt 02-base64.eml
receipt 03-latin1.eml
expect_in "$(latest_sheet)" "Blåbærgrød for æøå"
expect_in "$BODY" "B1: ↑ 3/4"
receipt 04-utf8-aeoa.eml
expect_in "$(latest_sheet)" "# æøå ÆØÅ"
receipt 05-alternative.eml
expect_not_in "$(latest_sheet)" "nonsense"
check 06-html-only.eml blue "please send plain text" 0
receipt 07-attachment.eml
expect_in "$BODY" "B2: Fb @R1"
receipt 08-top-posted.eml
expect_eq "$(latest_sheet)" $'B1 ↑ 1/4\nB2 Fb @R1' "the top-posted sheet"
receipt 09-signature.eml
expect_not_in "$(latest_sheet)" "Colonel"
receipt 10-long-lines.eml
[[ $(sqlu "SELECT max(length(bytes)) FROM sheet") -gt 1000 ]] || fail "the 1,000-character line was cut"
receipt 11-20mb.eml
[[ $(sqlu "SELECT max(length(raw)) FROM mail_inbox_raw") -gt 20000000 ]] || fail "the 20 MB mail was not stored whole"
check 12-broken-mime.eml blue "could not read your mail" 0
check 13-no-from.eml - - 0
expect_in "$(sqlu "SELECT result FROM mail_inbox WHERE message_id LIKE 'corpus-13-%'")" "no From:"
check 14-forged-no-proof.eml blue "could not be proven yours" 0
expect_in "$BODY" "it carries no proof"
check 15-forged-wrong-pass.eml blue "could not be proven yours" 0
expect_in "$BODY" "the passphrase is wrong"
check 16-stranger.eml - - 0
expect_in "$(sqlu "SELECT result FROM mail_inbox WHERE message_id LIKE 'corpus-16-%'")" "mallory@club.test is not registered"
check 17-loop.eml - - 0
check 18-auto-reply.eml - - 0
check 19-bounce.eml - - 0
check 20-list.eml - - 0
receipt 21-game-line.eml
check 22-errors.eml blue "orders NOT accepted" 0
expect_in "$BODY" "sheet rejected: 2 problems"
expect_line "$BODY" "^line 1, col [0-9]+: unit 'B1': "
expect_line "$BODY" "^line 2, col 4: unit 'B2': unknown code 'Fz'"
check 23-empty.eml blue "no orders found" 0
receipt 24-flowed.eml
expect_in "$(latest_sheet)" "# a long line that a mail client wraps at the space"
# a byte that is not UTF-8 reaches the sheet check, which names it (not dropped)
check 25-invalid-utf8.eml blue "orders NOT accepted" 0
expect_in "$BODY" "sheet rejected: 1 problem"
expect_line "$BODY" "^line 1, col 6: invalid UTF-8 byte 0xbe \\(expected UTF-8 text\\)$"
# quoted as the reports show it (\xbe), the caret under it
expect_line "$BODY" "^    B1 ↑ \\\\xbe$"
expect_line "$BODY" "^         \\^$"
check 26-cp1252-undefined.eml blue "orders NOT accepted" 0
expect_line "$BODY" "^line 2, col 11: invalid UTF-8 byte 0x81 \\(expected UTF-8 text\\)$"
expect_line "$BODY" "^    B1: ↑ 3/4$"
expect_eq "$(grep -c '^line ' <<<"$BODY")" 1 "problems of the windows-1252 sheet"
receipt 27-octet-txt.eml
expect_eq "$(latest_sheet)" $'B1 ↑ 1/2\nB2 Fb @R1' "the sheet of the application/octet-stream .txt"
check 28-status-and-attachment.eml blue "[corpus] NOT accepted: more than one command" 0
expect_eq "$(mime "$LAST" subject)" "[corpus] NOT accepted: more than one command" "28-status-and-attachment: the reply's subject"
expect_eq "$(head -1 <<<"$BODY")" \
	"Your mail holds a STATUS line and an ORDERS block in the attached file: a mail is one command, and orderly does not guess" \
	"28-status-and-attachment: the reply's first line"
expect_in "$(sqlu "SELECT result FROM mail_inbox WHERE message_id LIKE 'corpus-28-%'")" "more than one command: refused"
receipt 29-help-subject-attachment.eml
expect_eq "$(latest_sheet)" $'B1 ↑ 1/2\nB2 Fb @R1' "the sheet of a file under a Subject HELP"

# the replies one sender may get in an hour
ordu register "$G" --replies-per-hour 1 >/dev/null
cat >"$TMP/status.eml" <<'EOF'
From: Blue Player <blue@club.test>
To: orderly+corpus@judge.test
Subject: STATUS
Message-ID: <corpus-90-rate@club.test>

Passphrase: blue shako and sabre
EOF
before=$(mail_count blue)
send_raw "$TMP/status.eml"
deliver
flush
expect_eq "$(mail_count blue)" "$before" "replies past the hour's limit"
expect_in "$(sqlu "SELECT result FROM mail_inbox WHERE message_id = 'corpus-90-rate@club.test'")" "replies per hour used up"
ordu register "$G" --replies-per-hour 30 >/dev/null

# ------------------------------------------------------------- OpenPGP/MIME
if command -v gpg >/dev/null 2>&1; then
	for who in red mallory; do
		as_user mkdir -p -m 0700 "$TMP/gpg-$who"
		as_user gpg --homedir "$TMP/gpg-$who" --batch --passphrase '' --quick-gen-key \
			"$who <$who@club.test>" ed25519 sign never 2>/dev/null
	done
	as_user gpg --homedir "$TMP/gpg-red" --armor --export red@club.test >"$TMP/red.asc"
	run ordu register "$G" --side red --pgp-key "$TMP/red.asc"
	[[ $RC == 0 ]] || fail "register --pgp-key: $ERR"
	expect_in "$OUT" "openpgp"
	expect_eq "$(sqlu "SELECT count(*) FROM log WHERE kind = 'mail-pgp'")" 1 "logged OpenPGP keys"
	printf 'Game: corpus\nORDERS\nR1 ↑ 1/4 @B1\nEND\n' >"$TMP/red-orders.txt"
	for who in red mallory; do
		as_user python3 "$MAILSRC/pgp_mail.py" "$TMP/gpg-$who" "Red <red@club.test>" \
			orderly+corpus@judge.test "corpus-9$([[ $who == red ]] && echo 1 || echo 2)-pgp@club.test" \
			"$TMP/red-orders.txt" >"$TMP/pgp-$who.eml"
	done
	before=$(sheets)
	send_raw "$TMP/pgp-red.eml"
	deliver
	flush
	expect_eq "$(sheets)" $((before + 1)) "sheets after a good OpenPGP/MIME signature"
	expect_in "$(mime "$(mails red | tail -1)" subject)" "receipt: turn 1, red, version 1"
	send_raw "$TMP/pgp-mallory.eml"
	deliver
	flush
	expect_eq "$(sheets)" $((before + 1)) "sheets after another key's signature"
	expect_in "$(mime "$(mails red | tail -1)" subject)" "could not be proven yours"
	# Thunderbird's PGP/MIME: the whole multipart/mixed signed, a text with
	# no command line and the block in the attached file, which is signed
	printf 'Game: corpus\nHere are my orders, in the attached file.\n' >"$TMP/red-text.txt"
	printf 'ORDERS\nR1 ↑ 1/2\nEND\n' >"$TMP/red-file.txt"
	sleep 1 # a signature later than the last one taken, not a mail sent again
	as_user python3 "$MAILSRC/pgp_mail.py" "$TMP/gpg-red" "Red <red@club.test>" \
		orderly+corpus@judge.test corpus-93-pgp@club.test "$TMP/red-text.txt" "$TMP/red-file.txt" \
		>"$TMP/pgp-attached.eml"
	send_raw "$TMP/pgp-attached.eml"
	deliver
	flush
	expect_eq "$(sheets)" $((before + 2)) "sheets after a signed mail of a text and a file"
	expect_eq "$(mime "$(mails red | tail -1)" subject)" "[corpus] receipt: turn 1, red, version 2" \
		"the reply to a signed mail of a text and a file"
	expect_eq "$(latest_sheet)" "R1 ↑ 1/2" "the sheet of a signed mail's file"
else
	note "SKIP OpenPGP: gpg is not installed"
fi

# ----------------------------------------------- orders signed by `orderly sign`
S=$GAMES/signed.orderly
new_signed_game "$S"
printf 'R1 ↑ 1/4 @B1\nR2 → 1/2\n' >"$TMP/red-sheet.txt"
chmod a+r "$TMP/red-sheet.txt"
signed=$(ordu sign --head "$TMP/open-1.head" --side red --key "$TMP/red.key" "$TMP/red-sheet.txt")
commitment=$(sed -n 's/^commitment: //p' <<<"$signed")
for variant in good changed; do
	sheet=$(cat "$TMP/red-sheet.txt")
	[[ $variant == changed ]] && sheet=${sheet/1\/4/1\/2}
	cat >"$TMP/signed-$variant.eml" <<EOF
From: Red <red@club.test>
To: orderly+signed@judge.test
Subject: orders
Message-ID: <signed-$variant@club.test>
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 8bit

$signed

ORDERS
$sheet
END
EOF
	send_raw "$TMP/signed-$variant.eml"
	deliver
	flush
done
expect_eq "$(sqlu "SELECT count(*) FROM sheet" "$S")" 1 "sheets of the signed game"
expect_eq "$(sqlu "SELECT lower(hex(commitment)) FROM sheet" "$S")" "$commitment" "the stored commitment is the player's own"
subjects=$(for f in $(mails red); do mime "$f" subject; done)
expect_in "$subjects" "[signed] receipt: turn 1, red, version 1"
expect_in "$subjects" "[signed] NOT accepted: your mail could not be proven yours"

# --------------------------------------------------------- a mail to no game
cat >"$TMP/nogame.eml" <<'EOF'
From: Mallory <mallory@club.test>
To: orderly+nosuchgame@judge.test
Subject: orders
Message-ID: <nogame@club.test>

ORDERS
B1 ↑ 1/2
END
EOF
before=$(mail_count mallory)
send_raw "$TMP/nogame.eml"
deliver
deliver
expect_eq "$(mail_count mallory)" $((before + 1)) "bounces to the sender of a mail to no game"
expect_in "$(cat "$(mails mallory | tail -1)")" "no game 'nosuchgame' here"
[[ $(ls "$GAMES/unrouted" | wc -l) -ge 1 ]] || fail "the mail to no game was not kept"
run ordu audit "$G"
[[ $RC == 0 ]] || fail "audit: $OUT $ERR"
