#!/usr/bin/env bash
# test_mail_refusals.sh - mails the judge refuses whole rather than read in
# part (a red team's findings; mail-in fed directly, no MTA):
#   - a NUL byte in the text (it cut the sheet, and the rest got a receipt);
#   - an ORDERS block with no END line;
#   - two sheets in one mail: two attached files, or a block and a file;
#   - HELP before an ORDERS block (help was sent, the orders dropped, J7);
#   - a STATUS or HELP line beside an ORDERS block in an attached file (the
#     status was sent, the file never read, J7), and a CHECK block in an
#     attached file (stored as ORDERS);
#   - EVENT ... override=REASON with an argument after override= (it was
#     dropped, and the reason cut at its first word);
#   - an OpenPGP-signed mail readdressed to another game is covered by
#     tests/mail/test_mail_replay.sh;
# and a referee's SCHEDULE is done once when his mail is delivered again
# after a crash (J2; it made no change the judge saw, so it ran twice).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_sqlite3
cd "$TMP"
GAMES=$TMP/games
cross_game "$GAMES"
n=0
# mailin FROM HEADERS... < BODY: one message to the game, its result line
mailin() {
	local from=$1
	shift
	n=$((n + 1))
	{
		printf 'From: %s <%s@club.test>\nTo: orderly+cross@judge.test\n' "$from" "$from"
		printf 'Message-ID: <refusal-%d@club.test>\nDate: %s\n' $n "$(date -R)"
		printf '%s\n' "$@"
		printf '\n'
		cat
	} >msg-$n.eml
	run "$ORDERLY" mail-in --games "$GAMES" <msg-$n.eml
	[[ $RC == 0 ]] || fail "mail-in of message $n exited $RC: $ERR"
}
reply() { # the last reply's subject and body
	sql "$G" "SELECT CAST(bytes AS TEXT) FROM mail_outbox ORDER BY id DESC LIMIT 1"
}
sheets() { sql "$G" "SELECT count(*) FROM sheet"; }
PASS='Passphrase: blue shako and sabre'

# ---- a NUL byte, in base64 and in quoted-printable: refused, nothing stored
printf '%s\nORDERS\nB1 \xe2\x86\x91 1/2\n\0B2 Fb @R1\nB3 \xe2\x86\x92 1/2\nEND\n' "$PASS" | base64 >nul.b64
mailin blue 'Subject: orders' 'MIME-Version: 1.0' 'Content-Type: text/plain; charset=utf-8' \
	'Content-Transfer-Encoding: base64' <nul.b64
expect_in "$ERR" "NUL byte in the text: refused"
expect_in "$(reply)" "NOT accepted: a NUL byte in your mail"
expect_in "$(reply)" "Your mail holds a NUL byte (your mail's text, line 4, column 1)"
mailin blue 'Subject: orders' 'MIME-Version: 1.0' 'Content-Type: text/plain; charset=utf-8' \
	'Content-Transfer-Encoding: quoted-printable' <<EOF
$PASS
ORDERS
B1 =E2=86=91 1/2
=00B2 Fb @R1
END
EOF
expect_in "$ERR" "NUL byte in the text: refused"
expect_in "$(reply)" "(your mail's text, line 4, column 1)"
expect_eq "$(sheets)" 0 "sheets after mails with a NUL byte"

# ---- a block with no END: refused (a mail cut short would be a shorter sheet)
mailin blue 'Subject: orders' <<EOF
$PASS
ORDERS
B1 ↑ 1/2
EOF
expect_in "$ERR" "block without END: refused"
expect_in "$(reply)" "Your mail has a line ORDERS (your mail's text, line 2) but no line END"
expect_in "$(reply)" "Put a line END after"
expect_eq "$(sheets)" 0 "sheets after a block with no END"

# ---- two sheets in one mail
multipart() { # the text, then each attachment's body as name=TEXT
	local text=$1 a
	shift
	printf -- '--b\nContent-Type: text/plain; charset=utf-8\n\n%s\n' "$text"
	for a in "$@"; do
		printf -- '--b\nContent-Type: text/plain; charset=utf-8\nContent-Disposition: attachment; filename="%s"\n\n%s\n' \
			"${a%%=*}" "${a#*=}"
	done
	printf -- '--b--\n'
}
mailin blue 'Subject: orders' 'MIME-Version: 1.0' 'Content-Type: multipart/mixed; boundary="b"' \
	< <(multipart "$PASS" "a.txt=B1 ↑ 1/2" "b.txt=B2 Fb @R1")
expect_in "$ERR" "more than one sheet: refused"
expect_in "$(reply)" "more than one attached text file"
mailin blue 'Subject: orders' 'MIME-Version: 1.0' 'Content-Type: multipart/mixed; boundary="b"' \
	< <(multipart "$PASS
ORDERS
B1 ↑ 1/2
END" "b.txt=B2 Fb @R1")
expect_in "$ERR" "more than one sheet: refused"
expect_in "$(reply)" "an ORDERS block and an attached text file"
expect_eq "$(sheets)" 0 "sheets after mails of two sheets"
# one attached file is the sheet, as before
mailin blue 'Subject: orders' 'MIME-Version: 1.0' 'Content-Type: multipart/mixed; boundary="b"' \
	< <(multipart "$PASS" "a.txt=B1 ↑ 1/2")
expect_in "$ERR" "orders of blue stored"
expect_eq "$(sheets)" 1 "sheets after a mail of one attached sheet"

# the text in two parts (around a picture, as Apple Mail sends it): a
# sheet of two, refused; a blank part after it is nothing
inline() { # the text parts, a picture between each two
	local t first=1
	for t in "$@"; do
		((first)) || printf -- '--b\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=\n'
		first=0
		printf -- '--b\nContent-Type: text/plain; charset=utf-8\n\n%s\n' "$t"
	done
	printf -- '--b--\n'
}
mailin blue 'Subject: orders' 'MIME-Version: 1.0' 'Content-Type: multipart/mixed; boundary="b"' \
	< <(inline "$PASS
ORDERS
B1 ↑ 1/2
END" "ORDERS
B2 Fb @R1
END")
expect_in "$ERR" "text in more than one part: refused"
expect_in "$(reply)" "Your mail's text comes in more than one part"
expect_eq "$(sheets)" 1 "sheets after a text in two parts"
mailin blue 'Subject: orders' 'MIME-Version: 1.0' 'Content-Type: multipart/mixed; boundary="b"' \
	< <(inline "$PASS
ORDERS
B1 ↑ 1/4
END" " ")
expect_in "$ERR" "orders of blue stored"
# an empty block is the command for the attached sheet (a signed mail has
# its command in what is signed)
mailin blue 'Subject: orders' 'MIME-Version: 1.0' 'Content-Type: multipart/mixed; boundary="b"' \
	< <(multipart "$PASS
ORDERS
END" "a.txt=B1 → 1/2")
expect_in "$ERR" "orders of blue stored"
expect_eq "$(sql "$G" "SELECT CAST(bytes AS TEXT) FROM sheet ORDER BY version DESC LIMIT 1")" "B1 → 1/2" "the sheet of an empty block and a file"

# ---- HELP before a block: one command too many, refused whole (J7)
mailin blue 'Subject: orders' <<EOF
$PASS
HELP
ORDERS
B1 → 1/2
END
EOF
expect_in "$ERR" "more than one command: refused"
expect_eq "$(sheets)" 3 "sheets after HELP before a block"
mailin blue 'Subject: help' <<<"HELP"
expect_in "$ERR" "help sent"

# ---- an ORDERS or CHECK block in an attached file is a command too (J7):
# beside a STATUS (or HELP) line of the text, the STATUS was answered and
# the file never read, the player none the wiser; now refused whole, both
# named, nothing stored
ord register "$G" --replies-per-hour 100 >/dev/null
reply_subject() { reply | sed -n 's/^Subject: //p' | head -1; }
reply_first() { reply | sed '1,/^$/d' | head -1; }
attached() { # SUBJECT TEXT FILE: a mail of a text and one attached file
	mailin blue "Subject: $1" 'MIME-Version: 1.0' 'Content-Type: multipart/mixed; boundary="b"' \
		< <(multipart "$2" "orders.txt=$3")
}
refused_two() { # WHAT [SHEETS]: the mail was refused as more than one command, nothing stored
	expect_eq "$ERR" "orderly: more than one command: refused" "mail-in's line"
	expect_eq "$(reply_subject)" "[cross] NOT accepted: more than one command" "the reply's subject"
	expect_eq "$(reply_first)" "Your mail holds $1: a mail is one command, and orderly does not guess" \
		"the reply's first line"
	expect_in "$(reply)" "Send them in separate mails. Nothing was changed."
	expect_eq "$(sheets)" "${2:-3}" "sheets after a mail of $1"
}
attached orders "$PASS
STATUS" "ORDERS
B1 → 1/4
END"
refused_two "a STATUS line and an ORDERS block in the attached file"
attached orders "$PASS
Status of my orders?" "CHECK
B1 → 1/4
END"
refused_two "a STATUS line and a CHECK block in the attached file"
attached orders "$PASS
HELP" "ORDERS
B1 → 1/4
END"
refused_two "a HELP line and an ORDERS block in the attached file"
# within the file, as within a text: a command beside its block, two blocks
attached orders "$PASS" "HELP
ORDERS
B1 → 1/4
END"
refused_two "a HELP line and, after it, a block in the attached file"
attached orders "$PASS" "ORDERS
B1 → 1/4
END
ORDERS
B1 ↑ 1/4
END"
refused_two "two ORDERS or CHECK blocks in the attached file"
# an empty block in the text is the command for the file: not another one
attached orders "$PASS
ORDERS
END" "CHECK
B1 → 1/4
END"
refused_two "an ORDERS block with no line in it and a CHECK block in the attached file"
attached "LINK 1 $(printf '%064d' 0)" "$PASS" "ORDERS
B1 → 1/4
END"
refused_two "an ORDERS block and a LINK in the Subject"
# a player's old mail saved as a .txt file: its unquoted block is a
# sheet, not told from a new one, so refused beside STATUS (docs/pbem.md)
attached orders "$PASS
STATUS" "From: Blue Player <blue@club.test>
Subject: orders

$PASS
ORDERS
B1 ↑ 1/2
END"
refused_two "a STATUS line and an ORDERS block in the attached file"
# the mail below Outlook's line in it is not read, as in the text (B1)
attached orders "$PASS
STATUS" "Last turn's, for the record.
-----Original Message-----
From: Blue Player
ORDERS
B1 ↑ 1/2
END"
expect_eq "$ERR" "orderly: status sent" "STATUS beside a file of an old mail below Outlook's line"
# a forwarded mail is not read at all (D1)
mailin blue 'Subject: orders' 'MIME-Version: 1.0' 'Content-Type: multipart/mixed; boundary="b"' <<EOF
--b
Content-Type: text/plain; charset=utf-8

$PASS
STATUS
--b
Content-Type: message/rfc822
Content-Disposition: attachment; filename="last-turn.txt"

From: Blue Player <blue@club.test>
Subject: orders

ORDERS
B1 ↑ 1/2
END
--b--
EOF
expect_eq "$ERR" "orderly: status sent" "STATUS beside a forwarded mail"
# STATUS or HELP with no block anywhere is what it was: the file's lines
# are not read
attached orders "$PASS
STATUS" "B1 → 1/4"
expect_eq "$ERR" "orderly: status sent" "STATUS beside a file of orders without a block"
attached 'Re: Help with my orders' "$PASS" "B1 → 1/4"
expect_eq "$ERR" "orderly: help sent" "a Subject HELP, a file of orders without a block"
expect_eq "$(sheets)" 3 "sheets after STATUS and HELP without a block"
# the Subject's command yields to the file's block, as to a block in the
# text (B5): the sheet is sent; and a CHECK block in the file is checked,
# not stored as ORDERS (the default the text without a command gave it)
attached 'Re: Help with my orders' "$PASS" "ORDERS
B1 → 1/4
END"
expect_in "$ERR" "orders of blue stored: turn 1 version 4"
expect_eq "$(sql "$G" "SELECT CAST(bytes AS TEXT) FROM sheet ORDER BY version DESC LIMIT 1")" "B1 → 1/4" \
	"the sheet of a Subject HELP over a file's block"
attached orders "$PASS" "CHECK
B1 ↑ 1/2
END"
expect_in "$ERR" "checked: 0 problem(s)"
expect_eq "$(reply_subject)" "[cross] check: no problems" "the reply to a file's CHECK block"
expect_eq "$(sheets)" 4 "sheets after a file's CHECK block"

# ---- OpenPGP/MIME over a text and an attached file (Thunderbird and
# Evolution sign the whole multipart/mixed): the file is in what is signed,
# so its block is the mail's command as in an unsigned mail, and signed;
# it was refused as 'no command in what you signed'. A file beside the
# signed part is not signed: the mail is an unsigned one (decode.c's D8)
if command -v gpg >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	mkdir -m 0700 gpg-red
	# the key made before the signatures, by gpg's clock set back
	now=$(date +%s)
	echo "faked-system-time $((now - 1000))!" >gpg-red/gpg.conf
	gpg --homedir gpg-red --batch --passphrase '' --quick-gen-key 'red <red@club.test>' \
		ed25519 sign never 2>/dev/null
	gpg --homedir gpg-red --armor --export red@club.test >red.asc
	ord register "$G" --side red --pgp-key red.asc >/dev/null
	signed=0
	# pgp TEXT FILE [inside|outside]: red's mail of TEXT and FILE attached,
	# signed ten seconds after the one before (a signature no later than
	# the last one taken is a mail sent again)
	pgp() {
		signed=$((signed + 1))
		n=$((n + 1))
		printf '%s\n' "$1" >pgp-$n.txt
		printf '%s\n' "$2" >pgp-$n.file
		echo "faked-system-time $((now - 500 + 10 * signed))!" >gpg-red/gpg.conf
		python3 "$SRC/tests/mail/pgp_mail.py" gpg-red 'Red <red@club.test>' orderly+cross@judge.test \
			"refusal-$n@club.test" pgp-$n.txt pgp-$n.file "${3:-inside}" >msg-$n.eml 2>/dev/null
		run "$ORDERLY" mail-in --games "$GAMES" <msg-$n.eml
		[[ $RC == 0 ]] || fail "mail-in of message $n exited $RC: $ERR"
	}
	latest_sheet() { sql "$G" "SELECT CAST(bytes AS TEXT) FROM sheet ORDER BY id DESC LIMIT 1"; }
	# the block in the signed file is the command: stored, a receipt
	pgp "Game: cross
Here are my orders for this turn, in the attached file." "ORDERS
R1 ↑ 1/4
END"
	expect_eq "$ERR" "orderly: orders of red stored: turn 1 version 1" "a signed mail's block in its signed file"
	expect_eq "$(reply_subject)" "[cross] receipt: turn 1, red, version 1" "the reply to a signed file's block"
	expect_eq "$(sheets)" 5 "sheets after a signed file's block"
	expect_eq "$(latest_sheet)" "R1 ↑ 1/4" "the sheet of a signed file's block"
	# a CHECK block in the signed file is checked, not stored as ORDERS
	pgp "Game: cross" "CHECK
R1 ↑ 1/2
END"
	expect_eq "$ERR" "orderly: checked: 0 problem(s)" "a signed file's CHECK block"
	expect_eq "$(reply_subject)" "[cross] check: no problems" "the reply to a signed file's CHECK block"
	expect_eq "$(sheets)" 5 "sheets after a signed file's CHECK block"
	# two commands in what is signed are two, as in an unsigned mail
	pgp "Game: cross
STATUS" "ORDERS
R1 ↑ 1/2
END"
	refused_two "a STATUS line and an ORDERS block in the attached file" 5
	pgp "Game: cross" "HELP
ORDERS
R1 ↑ 1/2
END"
	refused_two "a HELP line and, after it, a block in the attached file" 5
	# no command line anywhere in what is signed: the default ORDERS is
	# not signed, so still refused
	pgp "Game: cross" "R1 ↑ 1/2"
	expect_eq "$ERR" "orderly: signed text with no command line: refused" "a signed file with no block"
	expect_eq "$(reply_subject)" "[cross] NOT accepted: no command in what you signed" \
		"the reply to a signed file with no block"
	expect_in "$(reply)" "them, in the text you sign or in the attached file, or STATUS,"
	# the game is named in the signed text, as any mail's Game: line is
	# read from its text: one in the attached file alone is not read
	pgp "Here are my orders." "Game: cross
ORDERS
R1 ↑ 1/2
END"
	expect_in "$(reply)" "an OpenPGP-signed mail names its game on a line 'Game: cross' of what is signed, in its text (not in the attached file): the signature says who wrote it"
	expect_eq "$(sheets)" 5 "sheets after a signed mail naming its game in the file alone"
	# the file beside the signed part (a multipart/mixed around it) is not
	# signed: the mail is not either, and has no proof
	pgp "Game: cross
Here are my orders, in the attached file." "ORDERS
R1 ↑ 1/2
END" outside
	expect_eq "$(reply_subject)" "[cross] NOT accepted: your mail could not be proven yours" \
		"the reply to a file beside the signed part"
	expect_in "$(reply)" "prove it comes from you: its OpenPGP signature covers only a part of the mail, and what is beside that part (an attached file) is not signed: orderly takes an OpenPGP/MIME signature over the whole mail, the attached file inside what is signed (or a line 'Passphrase: ...')."
	expect_eq "$(sheets)" 5 "sheets after a file beside the signed part"
	expect_eq "$(latest_sheet)" "R1 ↑ 1/4" "red's sheet after a file beside the signed part"
	# a text signed inline (cleartext) is no OpenPGP/MIME signature: as before
	printf 'Game: cross\nORDERS\nR1 ↑ 1/2\nEND\n' >inline.txt
	gpg --homedir gpg-red --batch --yes --clearsign --output inline.asc inline.txt 2>/dev/null
	mailin red 'Subject: orders' 'MIME-Version: 1.0' 'Content-Type: text/plain; charset=utf-8' <inline.asc
	# (its notice unsent: red had two this hour, judge.c J8)
	expect_eq "$ERR" "orderly: not proven (it carries no proof: a line 'Passphrase: ...', an OpenPGP/MIME signature by your registered key, or the lines of 'orderly sign'): nothing changed (no reply: notices per hour of mail not proven used up)" \
		"a text signed inline"
	expect_eq "$(sheets)" 5 "sheets after a text signed inline"
	gpgconf --homedir gpg-red --kill gpg-agent 2>/dev/null || true
else
	note "SKIP OpenPGP: gpg or python3 is not installed"
fi

# ---- EVENT with override=: the reason is the rest of the line, whole; an
# argument written after it is refused, not dropped
mailin referee 'Subject: cmds' <<EOF
Passphrase: umpire of the table
SEAL FORCE
EVENT move unit=R1 distance=9 override=measured twice on the table terrain=forest
EOF
expect_in "$(reply)" "'terrain=forest' in it is written as an argument: put the event's arguments before override="
expect_eq "$(sql "$G" "SELECT count(*) FROM event")" 0 "events after an argument after override="
mailin referee 'Subject: cmds' <<EOF
Passphrase: umpire of the table
EVENT move unit=R1 distance=9 terrain=forest override=measured twice on the table
EOF
expect_in "$(reply)" "event move recorded, by the override 'measured twice on the table'"
expect_eq "$(sql "$G" "SELECT override FROM event")" "measured twice on the table" "the override's reason"

# ---- SCHEDULE once, whatever point of the mail's next command a crash
# stops it at (the store's test pause points), when the MTA delivers it again
S=$GAMES/sched.orderly
ord new "$S" --scenario "$SRC/tests/mail/data/scenario.xml" >/dev/null 2>&1
printf 'umpire of the table\n' | ord register "$S" --referee --passphrase-file - >/dev/null
cp "$S" base.orderly
cat >sched.eml <<'EOF'
From: Ref <referee@club.test>
To: orderly+sched@judge.test
Subject: cmds
Message-ID: <sched-1@club.test>

Passphrase: umpire of the table
SCHEDULE every 24h at 20:00 in UTC grace 1h
SEAL FORCE
EOF
schedules() { sql "$S" "SELECT count(*) FROM log WHERE kind = 'schedule'"; }
base=$(schedules)
hit=0
for at in $(seq 1 40); do
	rm -f "$S" "$S-wal" "$S-shm"
	cp base.orderly "$S"
	: >pause
	ORDERLY_TEST_PAUSE_IN_TX=$TMP/pause ORDERLY_TEST_PAUSE_AT=$at \
		"$ORDERLY" mail-in --games "$GAMES" <sched.eml >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 400); do
		[[ -s pause ]] && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.05
	done
	if [[ ! -s pause ]]; then
		wait $pid || true
		break
	fi
	kill -9 $pid
	wait $pid 2>/dev/null || true
	# killed once SCHEDULE was in: delivered again, it is not done again
	if (($(schedules) > base)); then
		hit=1
		run "$ORDERLY" mail-in --games "$GAMES" <sched.eml
		expect_eq "$(schedules)" $((base + 1)) "schedule entries after the mail came again (killed at pause point $at)"
		expect_in "$(sql "$S" "SELECT CAST(bytes AS TEXT) FROM mail_outbox ORDER BY id DESC LIMIT 1")" \
			"done before (a message delivered again)"
		break
	fi
done
((hit)) || fail "no pause point was reached after SCHEDULE was done"
note "ok"
