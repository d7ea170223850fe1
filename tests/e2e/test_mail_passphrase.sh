#!/usr/bin/env bash
# test_mail_passphrase.sh - what the game's inbox keeps of a mail holds no
# passphrase, however the mail carries it: a plain line (its value removed,
# the rest as received), a quoted line in a mail proven otherwise or not at
# all, an HTML part (plain, base64, or the only part), a .txt attachment, a
# forwarded message, a line wrapped by a quoted-printable soft break or
# format=flowed.  Each kept copy is read back every way a mail reader can
# (every MIME part decoded) and must hold no piece of the passphrase.  And
# the refusal of a late sheet is queued whatever used up the player's
# replies per hour, and mail forged in his name uses up none of his.  Mails go straight to `orderly mail-in`, no MTA.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_sqlite3
command -v python3 >/dev/null 2>&1 || {
	note "SKIP: python3 is not installed"
	exit 0
}
cd "$TMP"
cross_game games

mailin() {
	ord mail-in --games games >/dev/null 2>&1
}
kept() {
	sql "$G" "SELECT CAST(raw AS TEXT) FROM mail_inbox JOIN mail_inbox_raw USING (id) WHERE message_id = '$1'"
}
result() {
	sql "$G" "SELECT result FROM mail_inbox WHERE message_id = '$1'"
}
# How many times NEEDLE is in the kept copy of message $1: in its bytes and
# in every MIME part decoded (base64, quoted-printable), as a reader sees it.
traces() {
	sql "$G" "SELECT hex(raw) FROM mail_inbox JOIN mail_inbox_raw USING (id) WHERE message_id = '$1'" | python3 -c '
import email, email.policy, sys
raw = bytes.fromhex(sys.stdin.read().strip())
needle = sys.argv[1].encode()
n = raw.count(needle)
for part in email.message_from_bytes(raw, policy=email.policy.compat32).walk():
    body = part.get_payload(decode=True)
    if body:
        n += body.count(needle)
print(n)' "$2"
}
# expect_clean ID NEEDLE...: no piece given is in the kept copy, any way read
expect_clean() {
	local id=$1 piece
	shift
	[[ -n "$(kept "$id")" ]] || fail "no kept copy of <$id>"
	for piece in "$@"; do
		expect_eq "$(traces "$id" "$piece")" 0 "'$piece' in the kept copy of <$id>"
	done
}

# ---- a plain mail: the value removed, everything else kept as received
cat >plain.eml <<'EOF'
From: Blue <blue@club.test>
To: orderly+cross@judge.test
Subject: status
Message-ID: <plain@club.test>
Content-Type: text/plain; charset=utf-8

Passphrase: blue shako and sabre
STATUS

On Monday I wrote:
> Passphrase: blue shako and sabre
EOF
mailin <plain.eml
expect_eq "$(result plain@club.test)" "status sent" "the plain mail's result"
expect_clean plain@club.test shako
expect_eq "$(kept plain@club.test)" "$(sed 's/^\(>\? \?Passphrase:\).*/\1 (removed)/' plain.eml)" \
	"the plain mail as kept"

# ---- 1. an HTML part beside the plain text: the plain text is kept
cat >alt.eml <<'EOF'
From: Blue <blue@club.test>
To: orderly+cross@judge.test
Subject: status
Message-ID: <alt@club.test>
MIME-Version: 1.0
Content-Type: multipart/alternative; boundary="b1"

--b1
Content-Type: text/plain; charset=utf-8

Passphrase: blue shako and sabre
STATUS
--b1
Content-Type: text/html; charset=utf-8

<html><body><div>Passphrase: blue shako and sabre</div><div>STATUS</div></body></html>
--b1--
EOF
mailin <alt.eml
expect_eq "$(result alt@club.test)" "status sent" "the mail with an HTML part"
expect_clean alt@club.test shako
k=$(kept alt@club.test)
expect_in "$k" "Message-ID: <alt@club.test>"
expect_in "$k" "X-Orderly-Kept: the plain text only, without its passphrase"
expect_in "$k" "held a passphrase"
expect_in "$k" $'\nPassphrase: (removed)\nSTATUS'
expect_not_in "$k" "text/html"

# the same, its HTML part in base64 (as Gmail sends non-ASCII)
{
	sed -e 's/<alt@/<alt64@/' -e '/^Content-Type: text\/html/q' alt.eml
	printf 'Content-Transfer-Encoding: base64\n\n'
	printf '<div>Passphrase: blue shako and sabre</div><div>STATUS</div>' | base64
	printf -- '--b1--\n'
} >alt64.eml
mailin <alt64.eml
expect_eq "$(result alt64@club.test)" "status sent" "the mail with a base64 HTML part"
expect_clean alt64@club.test shako
expect_in "$(kept alt64@club.test)" $'\nPassphrase: (removed)\nSTATUS'

# that part's boundary line missing: its base64 lines are plain text that
# still decodes to the passphrase: the headers alone are kept
sed -e 's/<alt64@/<pasted@/' -e '/^--b1$/{x;s/^/x/;/^xx$/{x;d};x}' alt64.eml >pasted.eml
expect_eq "$(grep -c '^--b1$' pasted.eml)" 1 "boundary lines left in the pasted mail"
mailin <pasted.eml
expect_eq "$(result pasted@club.test)" "status sent" "the mail with base64 pasted in"
expect_clean pasted@club.test shako
k=$(kept pasted@club.test)
expect_not_in "$k" "$(printf '<div>Passphrase: blue shako and sabre</div><div>STATUS</div>' | base64 | head -1)"
expect_in "$k" "X-Orderly-Kept: the headers only, the body held a passphrase"
expect_in "$k" "Message-ID: <pasted@club.test>"

# HTML alone (refused, asked for plain text): the body is not kept
printf 'From: Blue <blue@club.test>\nTo: orderly+cross@judge.test\nSubject: status\nMessage-ID: <html@club.test>\nMIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n<p>Passphrase: <b>blue shako</b> and sabre</p>\n<p>STATUS</p>\n' >html.eml
mailin <html.eml
expect_eq "$(result html@club.test)" "HTML only: asked for plain text" "the HTML-only mail"
expect_clean html@club.test shako sabre
expect_in "$(kept html@club.test)" "Message-ID: <html@club.test>"

# ---- 2. a quoted line in a mail without the line as its proof (not proven)
cat >quoted.eml <<'EOF'
From: Blue <blue@club.test>
To: orderly+cross@judge.test
Subject: Re: status
Message-ID: <quoted@club.test>

STATUS

On Monday I wrote:
>> Passphrase: blue shako and sabre
> STATUS
EOF
mailin <quoted.eml
expect_in "$(result quoted@club.test)" "not proven"
expect_clean quoted@club.test shako
expect_eq "$(kept quoted@club.test)" "$(sed 's/^>> Passphrase:.*/>> Passphrase: (removed)/' quoted.eml)" \
	"the quoted mail as kept"

# a passphrase line in a .txt attachment, and in a forwarded message
cat >attached.eml <<'EOF'
From: Blue <blue@club.test>
To: orderly+cross@judge.test
Subject: status
Message-ID: <attached@club.test>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="b2"

--b2
Content-Type: text/plain; charset=utf-8

STATUS
--b2
Content-Type: text/plain; charset=utf-8; name="notes.txt"
Content-Disposition: attachment; filename="notes.txt"
Content-Transfer-Encoding: base64

UGFzc3BocmFzZTogYmx1ZSBzaGFrbyBhbmQgc2FicmUKQjEgaG9sZAo=
--b2
Content-Type: message/rfc822

From: Blue <blue@club.test>
Subject: my old mail
Message-ID: <old@club.test>

Passphrase: blue shako and sabre
--b2--
EOF
mailin <attached.eml
expect_clean attached@club.test shako
k=$(kept attached@club.test)
expect_in "$k" "X-Orderly-Kept: the plain text only, without its passphrase"
expect_in "$k" $'[the attached file]\nPassphrase: (removed)\nB1 hold'

# ---- a passphrase that begins or ends with a blank could never be given
# (the judge and the web page take it less those): refused
printf ' correct horse battery staple\n' >blank-pass
expect_exit 64 ord register "$G" --side blue --passphrase-file blank-pass
expect_in "$ERR" "a passphrase may not begin or end with a blank"
printf 'correct horse battery staple\xc2\xa0\n' >blank-pass
expect_exit 64 ord register "$G" --side blue --passphrase-file blank-pass
expect_in "$ERR" "a passphrase may not begin or end with a blank"

# ---- 3. the line wrapped: a quoted-printable soft break, format=flowed
printf 'correct horse battery staple is my passphrase for the blue army\n' |
	ord register "$G" --side blue --passphrase-file - >/dev/null
cat >qp.eml <<'EOF'
From: Blue <blue@club.test>
To: orderly+cross@judge.test
Subject: status
Message-ID: <qp@club.test>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: quoted-printable

Passphrase: correct horse battery staple is my passphrase for the blu=
e army
STATUS
EOF
cat >flowed.eml <<'EOF'
From: Blue <blue@club.test>
To: orderly+cross@judge.test
Subject: status
Message-ID: <flowed@club.test>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8; format=flowed

Passphrase: correct horse battery staple is my passphrase for the 
blue army
STATUS
EOF
for id in qp flowed; do
	mailin <$id.eml
	expect_eq "$(result $id@club.test)" "status sent" "the $id mail"
	expect_clean $id@club.test "correct horse" "e army"
	expect_in "$(kept $id@club.test)" $'\nPassphrase: (removed)\nSTATUS'
done

# ---- an encoded word in any header (Outlook copies the Subject to a
# Thread-Topic): decoded, found, and the field not kept
enc=$(printf 'Passphrase: blue shako and sabre' | base64 -w0) # not his now: kept out all the same
printf 'From: Blue <blue@club.test>\nTo: orderly+cross@judge.test\nSubject: =?utf-8?b?%s?=\nThread-Topic: =?utf-8?b?%s?=\nMessage-ID: <topic@club.test>\nContent-Type: text/plain; charset=utf-8\n\nPassphrase: blue shako and sabre\nSTATUS\n' "$enc" "$enc" >topic.eml
mailin <topic.eml
expect_clean topic@club.test "$enc"
expect_not_in "$(kept topic@club.test)" "Thread-Topic"
expect_in "$(kept topic@club.test)" "Subject: (withheld: it held a passphrase)"

# ---- the refusal of a late sheet goes, whatever used up the replies
ord register "$G" --replies-per-hour 2 >/dev/null
printf 'From: Ref <referee@club.test>\nTo: orderly+cross@judge.test\nSubject: x\nMessage-ID: <seal@club.test>\n\nPassphrase: umpire of the table\nSEAL FORCE\n' | mailin
expect_eq "$(result seal@club.test)" "referee commands: done" "the referee's seal"
for i in 1 2 3; do
	printf 'From: Blue <blue@club.test>\nTo: orderly+cross@judge.test\nSubject: status\nMessage-ID: <forged-%s@club.test>\n\nPassphrase: a guess %s\n' "$i" "$i" | mailin
done
expect_in "$(result forged-3@club.test)" "(no reply: notices per hour of mail not proven used up)"
printf 'From: Blue <blue@club.test>\nTo: orderly+cross@judge.test\nSubject: orders\nMessage-ID: <late@club.test>\n\nPassphrase: correct horse battery staple is my passphrase for the blue army\nORDERS\nB1 hold\nEND\n' | mailin
expect_eq "$(result late@club.test)" "orders refused: turn closed" "the late sheet"
reply=$(sql "$G" "SELECT CAST(bytes AS TEXT) FROM mail_outbox WHERE CAST(bytes AS TEXT) LIKE '%In-Reply-To: <late@club.test>%'")
expect_in "$reply" "orders NOT accepted: turn 1 is closed"
expect_in "$reply" "To: blue@club.test"
# an empty sheet's refusal too
printf 'From: Blue <blue@club.test>\nTo: orderly+cross@judge.test\nSubject: orders\nMessage-ID: <empty@club.test>\n\nPassphrase: correct horse battery staple is my passphrase for the blue army\n' | mailin
expect_eq "$(sql "$G" "SELECT count(*) FROM mail_outbox WHERE CAST(bytes AS TEXT) LIKE '%In-Reply-To: <empty@club.test>%'")" 1 "replies to the empty sheet"

# ---- mail in a player's name cannot silence the answers to his own (J8;
# a red team's find: 30 forged mails used up blue's replies, and his own
# CHECK, and a refused LINK of his, went unanswered).  The notice that a
# mail was not proven his goes twice an hour; every other reply to mail
# not proven (HELP, a LINK with no proof) has replies-per-hour of its own,
# and so has his proven mail; the refusal of his proven LINK always goes.
ord register "$G" --replies-per-hour 3 >/dev/null
sql "$G" "DELETE FROM mail_rate" # an hour later
replies_to() {
	sql "$G" "SELECT count(*) FROM mail_outbox WHERE CAST(bytes AS TEXT) LIKE '%In-Reply-To: <$1>%'"
}
blue() { # ID BODY: a mail from blue's address
	printf 'From: Blue <blue@club.test>\nTo: orderly+cross@judge.test\nSubject: x\nMessage-ID: <%s@club.test>\n\n%s\n' "$1" "$2" | mailin
}
pass='Passphrase: correct horse battery staple is my passphrase for the blue army'
link="LINK 1 $(printf '%064d' 0)"
for i in 1 2 3 4 5 6; do blue "flood-$i" STATUS; done
expect_eq "$(replies_to flood-2@club.test)" 1 "replies to the second mail not proven"
expect_eq "$(result flood-3@club.test)" \
	"not proven (it carries no proof: a line 'Passphrase: ...', an OpenPGP/MIME signature by your registered key, or the lines of 'orderly sign'): nothing changed (no reply: notices per hour of mail not proven used up)" \
	"the third mail not proven"
expect_eq "$(replies_to flood-6@club.test)" 0 "replies to the sixth mail not proven"
for i in 1 2 3 4; do blue "help-$i" HELP; done
expect_eq "$(replies_to help-3@club.test)" 1 "replies to the third HELP"
expect_eq "$(result help-4@club.test)" "help sent (no reply: replies per hour to mail not proven used up)" "the fourth HELP"
blue link-bare "$link"
expect_in "$(result link-bare@club.test)" "link of blue refused: the game 'cross' does not have witnessed dice"
expect_in "$(result link-bare@club.test)" "(no reply: replies per hour to mail not proven used up)"
# his own, proven: three replies of their own, then a LINK's refusal always
for i in 1 2 3; do blue "own-$i" "$pass"$'\nSTATUS'; done
expect_eq "$(replies_to own-3@club.test)" 1 "replies to blue's own third STATUS"
expect_not_in "$(result own-3@club.test)" "no reply"
blue own-4 "$pass"$'\nSTATUS'
expect_eq "$(result own-4@club.test)" "status sent (no reply: replies per hour used up)" "blue's own fourth STATUS"
blue link-proven "$pass"$'\n'"$link"
expect_eq "$(result link-proven@club.test)" "link of blue refused: the game 'cross' does not have witnessed dice: it takes no link" \
	"blue's proven LINK"
expect_eq "$(replies_to link-proven@club.test)" 1 "replies to blue's proven LINK, his replies used up"

# ---- what is kept of a mail nobody answers (J9): a stranger's 100 KiB, its
# headers and the first 16 KiB of its body; a registered sender's the same
# when no proof of it held (a forged From:), whole when proven
big=$(awk 'BEGIN { for (i = 0; i < 1600; i++) printf "%063d\n", i }') # 100 KiB
printf 'From: Stranger <nobody@elsewhere.test>\nTo: orderly+cross@judge.test\nSubject: fill\nMessage-ID: <stranger@elsewhere.test>\n\n%s\n' "$big" | mailin
expect_eq "$(result stranger@elsewhere.test)" "not answered: nobody@elsewhere.test is not registered in this game" "the stranger's mail"
expect_in "$(kept stranger@elsewhere.test)" $'Subject: fill\nMessage-ID: <stranger@elsewhere.test>\nX-Orderly-Kept: the headers and the first 16384 bytes of its body of 102400, the mail not answered\n\n0000'
expect_eq "$(sql "$G" "SELECT length(raw) < 16384 + 300 FROM mail_inbox JOIN mail_inbox_raw USING (id) WHERE message_id = 'stranger@elsewhere.test'")" 1 "what is kept of the stranger's mail"
blue forged-big "$big"
expect_in "$(kept forged-big@club.test)" $'\nX-Orderly-Kept: the headers and the first 16384 bytes of its body of 102400, the mail not proven\n\n0000'
expect_eq "$(sql "$G" "SELECT length(raw) < 16384 + 300 FROM mail_inbox JOIN mail_inbox_raw USING (id) WHERE message_id = 'forged-big@club.test'")" 1 "what is kept of a forged mail from blue's address"
blue whole "$pass"$'\nSTATUS\n'"$big"
expect_eq "$(result whole@club.test)" "status sent (no reply: replies per hour used up)" "blue's own big STATUS"
expect_eq "$(sql "$G" "SELECT length(raw) > 102400 FROM mail_inbox JOIN mail_inbox_raw USING (id) WHERE message_id = 'whole@club.test'")" 1 "what is kept of blue's mail"
note "ok"
