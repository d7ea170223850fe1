#!/usr/bin/env bash
# test_mail_witnessed.sh - witnessed dice by mail through a real MTA: when
# the referee closes a phase (from the command line; tick mails it), every
# side is mailed the close's signed head with the command that gives his
# link against it, since a player who lacks it cannot tell it is time to
# reveal, and it alone shows that the referee, once he held the links, did
# not record the phase's events again in another order and close it anew
# (red-team finding 14: the judge mailed no close head, and the bundle
# mail's command verified without any).  Each player computes his links
# from his mails and mails it back to the judge (LINK P HEX), who records
# it and tells the referee once every link of the phase is in; the bundle
# mail's command, with the heads he kept, leaves no close unchecked.  And
# the judge refuses, changing nothing: a link before the turn is sealed, or
# before the phase is closed, a link that is not the side's (another
# side's, a made-up one), a second link for the phase, one that names
# another phase, one not 64 hexadecimal digits, and LINK from the referee.
# In a game whose key is kept outside its file, a link is recorded with no
# head attached, and the reply says why.
set -euo pipefail
# shellcheck source=tests/mail/lib.sh
source "$(dirname "$0")/lib.sh"
need_sqlite3

G=$GAMES/witnessed.orderly
tick() {
	ordu tick "$GAMES" --sendmail "$SENDMAIL" >/dev/null
	deliver
}
# a player keeps every attachment of his mails, oldest first, in a folder
keep() {
	local f a
	mkdir -p "$TMP/$1"
	for f in $(mails "$1"); do
		for a in $(mime "$f" attachments); do
			mime "$f" "attach:$a" >"$TMP/$1/$a"
		done
	done
}
count() {
	local f n=0
	for f in $(mails "$1"); do
		[[ "$(mime "$f" subject)" != *"$2"* ]] || n=$((n + 1))
	done
	echo $n
}

# the game as the refusals must leave it: its log, its links, its turn
game_state() {
	sqlu "SELECT (SELECT count(*) FROM log), (SELECT count(*) FROM witness), (SELECT group_concat(state || '/' || phase) FROM turn)"
}
# refused WHO TEXT WHY...: WHO mails TEXT (its body); the reply says the
# link was not recorded, with every WHY, and the game is as it was
refused() {
	local who=$1 text=$2 before n body w
	shift 2
	before=$(game_state)
	n=$(count "$who" "link NOT recorded")
	mail_from "$who" "witness" <<<"$text"
	expect_eq "$(count "$who" "link NOT recorded")" $((n + 1)) "$who's refusals after '$text'"
	body=$(mime "$(last_mail "$who" "link NOT recorded")" body)
	for w in "$@"; do
		expect_in "$body" "$w"
	done
	expect_in "$body" "Nothing was changed."
	expect_eq "$(game_state)" "$before" "the game after $who's refused '$text'"
}
NOLINK=$(printf '%064d' 7)

ordu new "$G" --scenario "$MAILSRC/data/scenario.xml" --witnessed >/dev/null 2>&1
printf 'blue shako and sabre\n' | ordu register "$G" --side blue --passphrase-file - >/dev/null
printf 'red coat at dawn\n' | ordu register "$G" --side red --passphrase-file - >/dev/null
printf 'umpire of the day\n' | ordu register "$G" --referee --passphrase-file - >/dev/null
tick
# a link before any close: the turn is not even sealed
refused blue "LINK 1 $NOLINK" "no phase of turn 1 is closed: the turn is not sealed yet"
declare -A PASS=([blue]="blue shako and sabre" [red]="red coat at dawn")
declare -A SHEET=([blue]="B1 ↑ 1/2" [red]="R1 ↑ 1/4")
declare -A RECEIPT NONCE COMMIT
for who in blue red; do
	keep $who
	"$ORDERLY" keygen "$TMP/$who/$who.key" >/dev/null
	printf '%s\n' "${SHEET[$who]}" >"$TMP/$who/sheet.txt"
	signed=$(cd "$TMP/$who" && "$ORDERLY" sign --head witnessed-open-1.head --pubkey "$(opening_key $who)" \
		--side $who --key $who.key --witness sheet.txt)
	top=$(sed -n 's/^witness: *//p' <<<"$signed")
	NONCE[$who]=$(sed -n 's/^nonce: *//p' <<<"$signed")
	COMMIT[$who]=$(sed -n 's/^commitment: *//p' <<<"$signed")
	[[ ${#top} == 64 ]] || fail "$who: sign --witness gave no chain top"
	if [[ $who == blue ]]; then
		# a witness line cut short is said to be, not taken for no line
		mail_from $who <<EOF
Passphrase: ${PASS[$who]}
witness: ${top:0:40}
ORDERS
${SHEET[$who]}
END
EOF
		expect_in "$(mime "$(last_mail $who "orders NOT accepted")" body)" \
			"its line 'witness:' is not the 64 hexadecimal digits 'orderly sign --witness' prints"
	fi
	mail_from $who <<EOF
Passphrase: ${PASS[$who]}
witness: $top
nonce: ${NONCE[$who]}
ORDERS
${SHEET[$who]}
END
EOF
	RECEIPT[$who]=$(mime "$(last_mail $who "receipt: turn 1")" body | sed -n 's/^commitment: *//p')
	[[ ${#RECEIPT[$who]} == 64 ]] || fail "no receipt for $who"
	# the receipt the game signed (threat model, 21): a head of the
	# entry that stores the sheet, attached
	f=$(last_mail $who "receipt: turn 1")
	expect_eq "$(mime "$f" attachments)" "witnessed-receipt-1-$who-1.head" "$who: the receipt mail's attachment"
	expect_in "$(mime "$f" body)" "Keep the attached receipt witnessed-receipt-1-$who-1.head: the game's signature of the"
	expect_in "$(mime "$f" attach:witnessed-receipt-1-$who-1.head)" "
# turn 1, side $who, version 1, commitment ${RECEIPT[$who]}
"
	expect_in "$(mime "$f" attach:witnessed-receipt-1-$who-1.head)" "
at: receipt
"
done
ordu seal "$G" >/dev/null
tick
# the seal mail carries the head of the seal the game signs for the side
# alone (threat model 26), which states the sheet it took for him
for who in blue red; do
	f=$(last_mail $who "turn sealed")
	expect_eq "$(mime "$f" attachments)" "witnessed-seal-1.head
witnessed-sealed-1-$who.head" "$who: the seal mail's attachments"
	expect_in "$(mime "$f" attach:witnessed-sealed-1-$who.head)" "
at: sealed
"
	expect_in "$(mime "$f" attach:witnessed-sealed-1-$who.head)" "
commitment: ${COMMIT[$who]}
"
	expect_in "$(mime "$f" body)" "Give it to 'orderly witness --link-for' as --receipt witnessed-sealed-1-$who.head,"
done
# sealed, but phase 1's events are not closed
refused red "LINK $NOLINK" "the events of phase 1 ('movement') of turn 1 are not closed yet"

declare -A LINK
PHASES=(movement fire fire-morale melee melee-morale) # the battalion ruleset's
for p in 1 2 3 4 5; do
	[[ $p != 1 ]] || ordu event "$G" move unit=B1 distance=2 >/dev/null
	if ((p % 2)); then
		ordu witness "$G" --close >/dev/null
	else
		# the referee closes by mail as well
		mail_from referee "close" <<<"Passphrase: umpire of the day
CLOSE"
		expect_in "$(mime "$(last_mail referee "referee: done")" body)" \
			"closed: phase $p, no more events of it; every side is mailed the close's head, and its link is awaited"
	fi
	tick
	tick # a second look mails nothing again
	for who in blue red; do
		expect_eq "$(count $who "phase closed")" $p "$who's mails of a phase's close after phase $p's"
		f=$(last_mail $who "phase closed")
		body=$(mime "$f" body)
		expect_in "$body" "Phase $p of turn 1 is closed"
		expect_eq "$(mime "$f" attachments)" "witnessed-close-1-$p.head" "$who: the attachment of phase $p's close"
		expect_eq "$(mime "$f" attach:witnessed-close-1-$p.head)" "$(ordu head "$G" --at close --turn 1 --phase $p)" \
			"$who: the close head mailed is the game's of phase $p"
		# the command of the mail, filled from his own mails, gives his link
		cmd=$(sed -n '/^    orderly witness --link-for/,/^$/p' <<<"$body" | sed 's/\\$//' | tr -d '\n')
		[[ -n "$cmd" ]] || fail "$who: no --link-for command in the mail of phase $p's close"
		if grep -Eq '[0-9a-f]{64}' <<<"$cmd"; then
			fail "$who: the command holds a value from the judge's file: $cmd"
		fi
		keep $who
		cmd=${cmd/GAME-KEY/$(opening_key $who)}
		cmd=${cmd/YOUR.key/$who.key}
		cmd=${cmd/NONCE/${NONCE[$who]}}
		# the head of the seal signed for his side, which the seal
		# mail attached, held to the commitment sign printed him: the
		# receipt mail's commitment is the same (no other sheet was
		# put in his place)
		expect_eq "${RECEIPT[$who]}" "${COMMIT[$who]}" "$who: the receipt's commitment and sign's"
		expect_in "$cmd" "--receipt witnessed-sealed-1-$who.head --commitment COMMITMENT"
		expect_in "$body" "witnessed-sealed-1-$who.head: the head of the seal the game signed for your side,"
		[[ -s "$TMP/$who/witnessed-sealed-1-$who.head" ]] || fail "$who: no witnessed-sealed-1-$who.head kept from the seal mail"
		cmd=${cmd/COMMITMENT/${COMMIT[$who]}}
		cmd=${cmd/orderly witness/\"\$ORDERLY\" witness}
		out=$(cd "$TMP/$who" && eval "$cmd" 2>&1)
		expect_not_in "$out" "warning:"
		LINK[$who]=$(sed -n 's/^link: //p' <<<"$out")
		[[ ${#LINK[$who]} == 64 ]] || fail "$who: '$cmd' gave no link"
		# the line the mail says to send back
		expect_in "$body" "    LINK $p HEX"
	done
	if [[ $p == 1 ]]; then
		# a link from a side for another side: red's, from blue
		refused blue "LINK 1 ${LINK[red]}" "this is not side blue's link for phase 1 ('movement') of turn 1"
		refused blue "LINK $NOLINK" "it does not lead to the witness chain its sheet committed to"
		refused blue "LINK 2 ${LINK[blue]}" "it names phase 2, but the phase whose links are awaited is phase 1"
		refused blue "LINK 1 ${LINK[blue]:0:63}" "is not a link: a link is 64 hexadecimal digits (0-9, a-f), this is 63 characters"
		refused blue "LINK 1 ${LINK[blue]:0:63}g" "not all of them hexadecimal digits"
		refused blue "LINK" "LINK needs your link"
		# the referee records links from the command line, not by LINK
		before=$(game_state)
		mail_from referee "witness" <<<"Passphrase: umpire of the day
LINK ${LINK[blue]}"
		expect_in "$(mime "$(last_mail referee "not understood")" body)" "LINK is a side's"
		expect_eq "$(game_state)" "$before" "the game after the referee's LINK"
		# J7: a link and another command in one mail, either way round,
		# the link in the Subject or a line: refused whole, neither
		# dropped without a word
		mixed=("witness|LINK 1 ${LINK[blue]}
ORDERS
B1 ↑ 1/2
END|an ORDERS block and a LINK line"
			"witness|ORDERS
B1 ↑ 1/2
END
LINK 1 ${LINK[blue]}|an ORDERS block and a LINK line"
			"LINK 1 ${LINK[blue]}|CHECK
B1 ↑ 1/2
END|an ORDERS block and a LINK in the Subject"
			"witness|STATUS
LINK 1 ${LINK[blue]}|a LINK line and a STATUS line"
			"LINK 1 ${LINK[blue]}|REPORT|a LINK in the Subject and a REPORT line"
			"witness|LINK 1 ${LINK[blue]}
LINK 1 ${LINK[red]}|2 LINK lines"
			"witness|ORDERS
B1 ↑ 1/2
END
Sorry, a correction:
ORDERS
B1 ↑ 1/4
END|two ORDERS or CHECK blocks"
			"witness|ORDERS
B1 ↑ 1/2
END
STATUS|an ORDERS block and, after it, a STATUS line")
		for m in "${mixed[@]}"; do
			IFS='|' read -r -d '' subject text said <<<"$m" || true
			said=${said%$'\n'}
			before=$(game_state)
			n=$(count blue "more than one command")
			mail_from blue "$subject" <<<"Passphrase: ${PASS[blue]}
$text"
			expect_eq "$(count blue "more than one command")" $((n + 1)) "blue's mixed mail '$subject'"
			body=$(mime "$(last_mail blue "more than one command")" body)
			expect_in "$body" "Your mail holds $said: a mail is one command"
			expect_in "$body" "Send them in separate mails. Nothing was changed."
			expect_eq "$(game_state)" "$before" "the game after a mixed mail '$subject'"
		done
	fi
	for who in blue red; do
		# J6: no passphrase; the phase named (or not), in the body or the
		# subject, after a greeting, as 'link: HEX' pasted whole
		case $p in
		1) mail_from $who "Re: phase closed" <<<"LINK 1 ${LINK[$who]}" ;;
		2) mail_from $who "Re: phase closed" <<<"Passphrase: ${PASS[$who]}
LINK ${LINK[$who]}" ;;
		3) mail_from $who "LINK 3 ${LINK[$who]}" <<<"Regards" ;;
		4) mail_from $who "Re: phase closed" <<<"Here it is.
LINK phase 4 link: ${LINK[$who]}

-- 
$who" ;;
		*) mail_from $who "Re: phase closed" <<<"LINK 5 ${LINK[$who]}" ;;
		esac
		f=$(last_mail $who "link recorded: turn 1, phase $p, $who")
		body=$(mime "$f" body)
		expect_in "$body" "Your side's witness link for phase $p"
		# the game's head of the entry that records it (threat model, 22)
		expect_eq "$(mime "$f" attachments)" "witnessed-link-1-$p-$who.head" "$who: the link reply's attachment"
		expect_in "$body" "The game's signed head of the entry that records it is attached
(witnessed-link-1-$p-$who.head): keep it."
		expect_not_in "$body" "${LINK[blue]}"
		expect_not_in "$body" "${LINK[red]}"
		if [[ $who == blue ]]; then
			expect_in "$body" "blue         recorded (yours)"
			expect_in "$body" "red          awaited"
			expect_eq "$(count referee "links in")" $((p - 1)) "the referee's notices with red's link of phase $p awaited"
			# STATUS says whose links are in, and nothing of them
			mail_from red "STATUS" <<<"Passphrase: ${PASS[red]}"
			body=$(mime "$(last_mail red "status:")" body)
			expect_in "$body" "links of phase $p:"
			expect_in "$body" "blue         recorded"
			expect_in "$body" "red          awaited (yours)"
			expect_not_in "$body" "${LINK[blue]}"
		else
			expect_in "$body" "blue         recorded"
			expect_in "$body" "red          recorded (yours)"
		fi
	done
	expect_eq "$(sqlu "SELECT count(*) FROM witness WHERE turn = 1 AND idx = $p")" 2 "the links of phase $p"
	# the referee hears that the phase can be resolved, once
	tick
	expect_eq "$(count referee "links in")" $p "the referee's notices of the links in after phase $p's"
	expect_in "$(mime "$(last_mail referee "links in: turn 1, phase $p can be resolved")" body)" \
		"Every witness link of phase $p ('${PHASES[p - 1]}') of turn 1 is in: blue, red."
	# a second link for the same phase
	[[ $p != 2 ]] || refused red "LINK 2 ${LINK[red]}" "your side's link for phase 2 ('fire') of turn 1 is recorded already"
	ordu resolve "$G" --phase "${PHASES[p - 1]}" --empty >/dev/null
done
ordu exchange "$G" >/dev/null
tick
# the turn is exchanged: nothing more of its closes
expect_eq "$(count blue "phase closed")" 5 "blue's mails of a phase's close"

for who in blue red; do
	keep $who
	f=$(last_mail $who "turn bundle")
	cmd=$(mime "$f" body | sed -n '/^    orderly verify/,/^$/p' | sed 's/\\$//' | tr -d '\n')
	for p in 1 2 3 4 5; do
		expect_in "$cmd" "--head witnessed-close-1-$p.head"
	done
	# the heads he kept are not mailed again under their names
	expect_not_in "$(mime "$f" attachments)" "close-1-"
	expect_in "$(mime "$f" body)" "witnessed-close-1-P.head came with the mail of phase P's close"
	# and the record witness --link-for kept of the closes he answered,
	# which fails a close answered on a copy of the game
	expect_in "$cmd" "--record YOUR.key.links"
	expect_in "$(mime "$f" body)" "YOUR.key.links: the record 'orderly witness --link-for' kept beside
your key file of every close head you answered; with it verify fails
on a close you answered on a copy of the game"
	[[ -s "$TMP/$who/$who.key.links" ]] || fail "$who: witness --link-for kept no record beside his key"
	cmd=${cmd/GAME-KEY/$(opening_key $who)}
	cmd=${cmd/RECEIPT/witnessed-receipt-1-$who-1.head}
	cmd=${cmd/YOUR.key.links/$who.key.links}
	cmd=${cmd/orderly verify/\"\$ORDERLY\" verify}
	for p in 1 2 3 4 5; do
		cmd+=" --head witnessed-link-1-$p-$who.head"
	done
	out=$(cd "$TMP/$who" && eval "$cmd" 2>&1) || fail "$who: '$cmd' failed: $out"
	expect_in "$out" "verified: every check holds"
	expect_in "$out" "ok: receipt witnessed-receipt-1-$who-1.head (signed by the game's key, entry "
	expect_in "$out" "the head you kept of turn 1's link (entry "
	expect_in "$out" "the head you kept of turn 1's close"
	expect_in "$out" "the head your witness record keeps of turn 1's close"
	expect_not_in "$out" "close of phase"
	expect_not_in "$out" "no --head"
done
# turn 2 played through before the next look, the referee's chain
# standing in for the links nobody sent: a close head mailed after the
# exchange would prove nothing, so none is; by mail, RESOLVE STAND-IN
ordu seal "$G" --force >/dev/null
before=$(game_state)
mail_from referee "turn 2" <<<"Passphrase: umpire of the day
CLOSE now"
expect_in "$(mime "$(last_mail referee "not understood")" body)" "The referee's address sends commands"
expect_eq "$(game_state)" "$before" "the game after 'CLOSE now' (a command takes nothing after it)"
mail_from referee "resolve" <<<"Passphrase: umpire of the day
CLOSE
RESOLVE"
body=$(mime "$(last_mail referee "referee: stopped at a problem")" body)
expect_in "$body" "resolve with --stand-in and the referee's chain stands in (the audit says so); by mail: RESOLVE STAND-IN"
mail_from referee "resolve" <<<"Passphrase: umpire of the day
RESOLVE movement fire"
expect_in "$(mime "$(last_mail referee "referee: stopped at a problem")" body)" \
	"RESOLVE [PHASE] [EMPTY] [dice=N,N,...] [STAND-IN]: 'fire' after the phase 'movement'"
mail_from referee "resolve" <<<"Passphrase: umpire of the day
RESOLVE dice=4,x"
expect_in "$(mime "$(last_mail referee "referee: stopped at a problem")" body)" \
	"dice=4,x: expected one dice=N,N,... of whole numbers from 1 to 100"
mail_from referee "resolve" <<<"Passphrase: umpire of the day
RESOLVE movement stand-in
CLOSE
RESOLVE STAND-IN"
body=$(mime "$(last_mail referee "referee: done")" body)
expect_in "$body" "turn 2, phase movement: 0 events, 0 rolls
  (the referee's witness chain stood in for blue, red)
next phase: fire"
expect_in "$body" "closed: phase 2, no more events of it"
expect_in "$body" "turn 2, phase fire: 0 events"
for p in 3 4 5; do
	ordu witness "$G" --close >/dev/null
	ordu resolve "$G" --stand-in >/dev/null
done
ordu exchange "$G" >/dev/null
tick
expect_eq "$(sqlu "SELECT count(*) FROM log WHERE turn = 2 AND kind = 'resolve' AND body LIKE '%stood_in%'")" 5 "turn 2's resolves with the referee's chain standing in"
# the two closes made by mail were mailed at once, the three made from
# the command line not after the exchange
expect_eq "$(count blue "phase closed")" 7 "blue's mails of a phase's close after turn 2"
expect_eq "$(count blue "turn bundle")" 2 "blue's bundle mails"
cmd=$(mime "$(last_mail blue "turn bundle")" body | sed -n '/^    orderly verify/,/^$/p')
expect_in "$cmd" "--head witnessed-close-2-1.head"
expect_in "$cmd" "--head witnessed-close-2-2.head"
expect_not_in "$cmd" "close-2-3"
expect_in "$cmd" "--record YOUR.key.links"
# turn 3 sealed with no sheet: a stand-in has no chain and owes no link
ordu seal "$G" --force >/dev/null
ordu witness "$G" --close >/dev/null
refused blue "LINK 1 ${LINK[blue]}" "your side's sealed sheet of turn 3 is a stand-in with no witness chain"
# a game whose key is kept outside its file (new --key): the judge cannot
# sign the head of a link it records (threat model, 22); its reply says
# so, attaches nothing, and the link is recorded all the same.
# The reply names the command by which the referee, who holds the key,
# signs the head (run below).
G=$GAMES/keyed.orderly
K=$TMP/keyed
mkdir -p "$K"
ordu keygen "$TMP/keyed-referee.key" >/dev/null 2>&1
ordu new "$G" --scenario "$MAILSRC/data/scenario.xml" --witnessed --key "$TMP/keyed-referee.key" >/dev/null 2>&1
printf '%s\n' "${PASS[blue]}" | ordu register "$G" --side blue --passphrase-file - >/dev/null
ordu head "$G" --at open >"$K/open-1.head"
KEYED=$(ordu info "$G" | awk '/^key:/ {print $2}')
"$ORDERLY" keygen "$K/blue.key" >/dev/null
printf '%s\n' "${SHEET[blue]}" >"$K/sheet.txt"
signed=$(cd "$K" && "$ORDERLY" sign --head open-1.head --pubkey "$KEYED" --side blue --key blue.key --witness sheet.txt)
top=$(sed -n 's/^witness: *//p' <<<"$signed")
nonce=$(sed -n 's/^nonce: *//p' <<<"$signed")
mail_from blue <<EOF
Passphrase: ${PASS[blue]}
witness: $top
ORDERS
${SHEET[blue]}
END
EOF
f=$(last_mail blue "[keyed] receipt: turn 1, blue, version 1")
expect_in "$(mime "$f" body)" "No receipt signed by the game is attached: its key is not
in the judge's file."
expect_eq "$(mime "$f" attachments)" "" "the keyed game's receipt mail's attachments"
ordu seal "$G" --force --key "$TMP/keyed-referee.key" >/dev/null
ordu witness "$G" --close --key "$TMP/keyed-referee.key" >/dev/null
ordu head "$G" --at close --turn 1 --phase 1 >"$K/close-1-1.head"
link=$(cd "$K" && "$ORDERLY" witness --link-for --head close-1-1.head --pubkey "$KEYED" --side blue \
	--key blue.key --nonce "$nonce" --phase 1 | sed -n 's/^link: //p')
[[ ${#link} == 64 ]] || fail "blue: no link for the keyed game's phase 1"
mail_from blue "Re: phase closed" <<<"LINK 1 $link"
f=$(last_mail blue "[keyed] link recorded: turn 1, phase 1, blue")
expect_eq "$(mime "$f" attachments)" "" "the keyed game's link reply's attachments"
expect_eq "$(mime "$f" body)" "Your side's witness link for phase 1 ('movement') of turn 1 is recorded: it
leads to the chain your sheet committed to.

No signed head of it is attached: the game's key is not in the
judge's file. Ask the referee for it ('orderly head GAME --at link
--side blue --phase 1 --key KEY').

links of phase 1:
  blue         recorded (yours)
  red          none owed (a stand-in sheet with no chain: the referee's stands in)

Once every link is in, the referee resolves the phase: its dice come
from the turn's dice key, the events closed and every side's link." "the keyed game's link reply"
expect_eq "$(sqlu "SELECT lower(hex(link)) FROM witness WHERE turn = 1 AND idx = 1
	AND side_id = (SELECT id FROM side WHERE name = 'blue')")" "$link" "the keyed game's link recorded"
expect_eq "$(sqlu "SELECT count(*) FROM log WHERE kind = 'witness'")" 1 "the keyed game's witness entries"
# the command the reply names: refused without the key, signed with it,
# and the head holds the link the game recorded; the receipt alike
if ordu head "$G" --at link --side blue --phase 1 >"$K/link.head" 2>"$K/link.err"; then
	fail "the keyed game's link head signed without its key"
fi
expect_in "$(cat "$K/link.err")" "give it with --key FILE to sign the link"
ordu head "$G" --at link --side blue --phase 1 --key "$TMP/keyed-referee.key" >"$K/link.head"
expect_in "$(cat "$K/link.head")" "at: link"
expect_in "$(cat "$K/link.head")" "key: $KEYED"
# (states no entry number, which would tell the close's: its hash is the
# entry's)
expect_not_in "$(cat "$K/link.head")" "entry:"
expect_in "$(cat "$K/link.head")" "hash: $(sqlu "SELECT lower(hex(hash)) FROM log WHERE kind = 'witness'")"
ordu head "$G" --at receipt --side blue --version 1 --key "$TMP/keyed-referee.key" >"$K/receipt.head"
expect_in "$(cat "$K/receipt.head")" "at: receipt"
# a game without witnessed dice takes no link
G=$GAMES/plain.orderly
ordu new "$G" --scenario "$MAILSRC/data/scenario.xml" >/dev/null 2>&1
refused blue "LINK 1 ${LINK[blue]}" "the game 'plain' does not have witnessed dice: it takes no link"
note "every side is mailed each phase's close head, and verifies with them"
