#!/usr/bin/env bash
# test_mail_names.sh - the names of the files the judge mails, through the
# real MTA: each begins with the game's name (docs/pbem.md, "The files the
# judge mails"), so that a player in two games keeps both games' files in
# one folder.  A game file named "Slaget ved Dybbøl 1864" (mail-in --game,
# tick, mail-out) mails Slaget_ved_Dybboel_1864-open-1.head and the rest;
# its player sends his sheet back in a .txt file named as the judge names
# its files, which is read; and he verifies the bundle with the mail's
# command in the folder of every attachment he got.  A game whose mails of
# turn 1 an orderly before game-named files queued (open-1.head,
# seal-1.head, sealed-1-blue.head, report-1-blue.txt) and that an upgraded
# orderly carries on: nothing is mailed again under the new names, the
# game keeps the names it began with (its bundle, the next turn's opening
# and receipts named without the game's), and the bundle mail's command
# names each file as it came, and verifies.
set -euo pipefail
# shellcheck source=tests/mail/lib.sh
source "$(dirname "$0")/lib.sh"
need_sqlite3

tick() {
	ordu tick "$GAMES" --sendmail "$SENDMAIL" >/dev/null
	deliver
}

# keep WHO DIR: every attachment of WHO's mails, oldest first, in DIR
keep() {
	local f a
	mkdir -p "$2"
	for f in $(mails "$1"); do
		for a in $(mime "$f" attachments); do
			mime "$f" "attach:$a" >"$2/$a"
		done
	done
}

# sheet_mail FILE GAME-ADDRESS ATTACHMENT-NAME: blue's orders of turn 1 in
# an attached .txt file, the passphrase in the text beside it
sheet_mail() {
	cat >"$1" <<EOF
From: blue <blue@club.test>
To: $2
Subject: orders
Message-ID: <blue-$(basename "$1" .eml)@club.test>
Date: $(date -R)
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="b0"

--b0
Content-Type: text/plain; charset=utf-8

Passphrase: blue shako and sabre
Orders attached.

--b0
Content-Type: text/plain; charset=utf-8; name="$3"
Content-Disposition: attachment; filename="$3"

ORDERS
B1 ↑ 1/4
END

--b0--
EOF
}

# verify_bundle WHO DIR GAME PREFIX OPENING: the bundle mail's command of
# game GAME (its subject's name), filled from WHO's own files in DIR (his
# receipt, PREFIXreceipt-1-WHO-V.head) and the game's key of the body of
# the mail of turn 1's opening (the file OPENING), run in DIR; RC and OUT
verify_bundle() {
	local who=$1 dir=$2 game=$3 prefix=$4 opening=$5 f cmd receipt
	for f in $(mails "$who" | tac); do
		if [[ "$(mime "$f" subject)" == "[$game] turn bundle" ]]; then
			break
		fi
	done
	[[ "$(mime "$f" subject)" == "[$game] turn bundle" ]] || fail "no bundle mail of $game to $who"
	cmd=$(mime "$f" body | sed -n '/^    orderly verify/,/^$/p' | sed 's/\\$//' | tr -d '\n')
	[[ -n "$cmd" ]] || fail "$who: no verify command in the bundle mail of $game"
	CMD=$cmd
	receipt=$(cd "$dir" && ls "$prefix"receipt-1-"$who"-*.head | tail -1)
	cmd=${cmd/GAME-KEY/$(sed -n '/^The game.s public key/,/^ *[0-9a-f]\{64\}$/p' "$opening" | tail -1 | tr -d ' ')}
	cmd=${cmd/RECEIPT/$receipt}
	cmd=${cmd/orderly verify/\"\$ORDERLY\" verify}
	set +e
	(cd "$dir" && eval "$cmd") >"$dir/out" 2>&1
	RC=$?
	set -e
	OUT=$(cat "$dir/out")
}

# ------------------------------------ a game whose name is no file name
ODD="Slaget ved Dybbøl 1864"
O=$GAMES/$ODD.orderly
P=Slaget_ved_Dybboel_1864
ordu new "$O" --scenario "$MAILSRC/data/scenario.xml" --fixed-dice >/dev/null 2>&1
printf 'blue shako and sabre\n' | ordu register "$O" --side blue --passphrase-file - >/dev/null
tick
OPEN=$(last_mail blue "[$ODD] turn open")
expect_eq "$(mime "$OPEN" attachments)" "$P-open-1.head" "the odd game's opening mail's attachment"
expect_in "$(mime "$OPEN" body)" "The signed head of the turn's opening is attached ($P-open-1.head) and below."
expect_in "$(mime "$OPEN" body)" "    orderly sign --head $P-open-1.head --pubkey "
mime "$OPEN" body >"$TMP/odd-open.txt"

# the sheet back in a file named as the judge names its own: read
sheet_mail "$TMP/odd-sheet.eml" "orderly@judge.test" "$P-orders-1-blue.txt"
as_user "$ORDERLY" mail-in --game "$O" <"$TMP/odd-sheet.eml" >/dev/null
flush
R=$(last_mail blue "[$ODD] receipt: turn 1, blue, version 1")
expect_eq "$(mime "$R" attachments)" "$P-receipt-1-blue-1.head" "the odd game's receipt mail's attachment"
expect_in "$(mime "$R" body)" "Keep the attached receipt $P-receipt-1-blue-1.head: the game's signature of the"
expect_eq "$(sqlu "SELECT count(*) FROM sheet" "$O")" 1 "sheets stored from the attached file"

ordu seal "$O" --force >/dev/null
tick
S=$(last_mail blue "[$ODD] turn sealed")
expect_eq "$(mime "$S" attachments)" "$P-seal-1.head
$P-sealed-1-blue.head" "the odd game's seal mail's attachments"
for p in movement fire fire-morale melee melee-morale; do
	ordu resolve "$O" --phase "$p" --empty >/dev/null
done
tick
expect_eq "$(mime "$(last_mail blue "[$ODD] turn report")" attachments)" "$P-report-1-blue.txt" \
	"the odd game's report mail's attachment"
ordu exchange "$O" >/dev/null
tick
B=$(last_mail blue "[$ODD] turn bundle")
expect_eq "$(mime "$B" attachments)" "$P-turn-1.xml
$P-exchange-1.head" "the odd game's bundle mail's attachments"
expect_in "$(mime "$B" body)" "    orderly verify $P-turn-1.xml --pubkey GAME-KEY --receipt RECEIPT \\
        --receipt $P-sealed-1-blue.head \\
        --head $P-open-1.head \\
        --head $P-seal-1.head \\
        --head $P-exchange-1.head
"
expect_in "$(mime "$B" body)" "    --report blue --resolved | diff $P-report-1-blue.txt -"
keep blue "$TMP/odd"
verify_bundle blue "$TMP/odd" "$ODD" "$P-" "$TMP/odd-open.txt"
[[ $RC == 0 ]] || fail "blue's verify of the odd game's bundle failed: $CMD: $OUT"
expect_in "$OUT" "ok: receipt $P-receipt-1-blue-1.head (signed by the game's key"
expect_in "$OUT" "receipt $P-sealed-1-blue.head (signed by the game's key, entry"

# ---------------------- a game upgraded between the report and the bundle
G=$GAMES/upgrade.orderly
ordu new "$G" --scenario "$MAILSRC/data/scenario.xml" --fixed-dice >/dev/null 2>&1
printf 'blue shako and sabre\n' | ordu register "$G" --side blue --passphrase-file - >/dev/null
# the earlier orderly: its mails named the files alone (what this one
# queues, the game's name taken off the names, before they are sent)
as_earlier() {
	sqlu "UPDATE mail_outbox SET bytes = CAST(replace(CAST(bytes AS TEXT), 'upgrade-', '') AS BLOB) WHERE id IN (SELECT id FROM mail_sent WHERE sent IS NULL)"
	flush
}
ordu tick "$GAMES" --sendmail false >/dev/null || true
as_earlier
expect_eq "$(mime "$(last_mail blue "[upgrade] turn open")" attachments)" "open-1.head" "the earlier orderly's opening"
mime "$(last_mail blue "[upgrade] turn open")" body >"$TMP/up-open.txt"
sheet_mail "$TMP/up-sheet.eml" "orderly+upgrade@judge.test" "upgrade-orders-1-blue.txt"
send_raw "$TMP/up-sheet.eml"
deliver
as_earlier
expect_eq "$(mime "$(last_mail blue "[upgrade] receipt: turn 1")" attachments)" "receipt-1-blue-1.head" \
	"the earlier orderly's receipt"
ordu seal "$G" --force >/dev/null
for p in movement fire fire-morale melee melee-morale; do
	ordu resolve "$G" --phase "$p" --empty >/dev/null
done
ordu tick "$GAMES" --sendmail false >/dev/null || true
as_earlier
expect_eq "$(mime "$(last_mail blue "[upgrade] turn sealed")" attachments)" "seal-1.head
sealed-1-blue.head" "the earlier orderly's seal mail"
expect_eq "$(mime "$(last_mail blue "[upgrade] turn report")" attachments)" "report-1-blue.txt" \
	"the earlier orderly's report mail"
n=$(sqlu "SELECT count(*) FROM mail_outbox")
# the earlier orderly kept no name for the game's files
sqlu "UPDATE mail_config SET files = NULL"
# the upgraded orderly: nothing of the earlier one's again
tick
expect_eq "$(sqlu "SELECT count(*) FROM mail_outbox")" "$n" "mails queued again after the upgrade"
expect_eq "$(sqlu "SELECT count(*) FROM mail_outbox WHERE key IS NOT NULL GROUP BY key HAVING count(*) > 1")" "" \
	"a notice queued twice"
ordu exchange "$G" >/dev/null
tick
B=$(last_mail blue "[upgrade] turn bundle")
expect_eq "$(mime "$B" attachments)" "turn-1.xml
exchange-1.head" "the upgraded orderly's bundle mail's attachments"
expect_in "$(mime "$B" body)" "    orderly verify turn-1.xml --pubkey GAME-KEY --receipt RECEIPT \\
        --receipt sealed-1-blue.head \\
        --head open-1.head \\
        --head seal-1.head \\
        --head exchange-1.head
"
expect_in "$(mime "$B" body)" "    --report blue --resolved | diff report-1-blue.txt -"
expect_in "$(mime "$B" body)" "sent for turn 1 attached, receipt-1-blue-V.head, which the game"
expect_eq "$(mime "$(last_mail blue "[upgrade] turn open")" attachments)" "open-2.head" \
	"the upgraded orderly's opening of turn 2"
expect_eq "$(sqlu "SELECT files FROM mail_config")" "" "the name kept for the upgraded game's files"
keep blue "$TMP/up"
verify_bundle blue "$TMP/up" upgrade "" "$TMP/up-open.txt"
[[ $RC == 0 ]] || fail "blue's verify of the upgraded game's bundle failed: $CMD: $OUT"
expect_in "$OUT" "ok: receipt receipt-1-blue-1.head (signed by the game's key"
expect_in "$OUT" "receipt sealed-1-blue.head (signed by the game's key, entry"
# a sheet of turn 2: its receipt named as the game's receipts were
sheet_mail "$TMP/up-sheet2.eml" "orderly+upgrade@judge.test" "orders-2-blue.txt"
send_raw "$TMP/up-sheet2.eml"
deliver
flush
R=$(last_mail blue "[upgrade] receipt: turn 2")
expect_eq "$(mime "$R" attachments)" "receipt-2-blue-1.head" "the upgraded game's receipt of turn 2"
expect_in "$(mime "$R" body)" "Keep the attached receipt receipt-2-blue-1.head:"

# one folder of both games' files: none overwrites another
dups=$(for f in $(mails blue); do mime "$f" attachments; done | sort | uniq -d)
expect_eq "$dups" "" "files of the two games under the same name"
note "the files the judge mails are named after the game, and an upgraded game keeps the names it began with"
