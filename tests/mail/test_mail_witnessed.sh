#!/usr/bin/env bash
# test_mail_witnessed.sh - witnessed dice by mail through a real MTA: when
# the referee closes a phase (from the command line; tick mails it), every
# side is mailed the close's signed head with the command that gives his
# link against it, since a player who lacks it cannot tell it is time to
# reveal, and it alone shows that the referee, once he held the links, did
# not record the phase's events again in another order and close it anew
# (red-team finding 14: the judge mailed no close head, and the bundle
# mail's command verified without any).  Each player computes his links
# from his mails, the referee records them, and the bundle mail's command,
# with the heads he kept, leaves no close unchecked.
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

ordu new "$G" --scenario "$MAILSRC/data/scenario.xml" --witnessed >/dev/null 2>&1
printf 'blue shako and sabre\n' | ordu register "$G" --side blue --passphrase-file - >/dev/null
printf 'red coat at dawn\n' | ordu register "$G" --side red --passphrase-file - >/dev/null
tick
gkey=$(ordu info "$G" | awk '/^key:/ {print $2}')
declare -A PASS=([blue]="blue shako and sabre" [red]="red coat at dawn")
declare -A SHEET=([blue]="B1 ↑ 1/2" [red]="R1 ↑ 1/4")
declare -A RECEIPT
for who in blue red; do
	keep $who
	"$ORDERLY" keygen "$TMP/$who/$who.key" >/dev/null
	printf '%s\n' "${SHEET[$who]}" >"$TMP/$who/sheet.txt"
	top=$(cd "$TMP/$who" && "$ORDERLY" sign --head open-1.head --pubkey "$(opening_key $who)" \
		--side $who --key $who.key --witness sheet.txt | sed -n 's/^witness: *//p')
	[[ ${#top} == 64 ]] || fail "$who: sign --witness gave no chain top"
	mail_from $who <<EOF
Passphrase: ${PASS[$who]}
witness: $top
ORDERS
${SHEET[$who]}
END
EOF
	RECEIPT[$who]=$(mime "$(last_mail $who "receipt: turn 1")" body | sed -n 's/^commitment: *//p')
	[[ ${#RECEIPT[$who]} == 64 ]] || fail "no receipt for $who"
done
ordu seal "$G" >/dev/null
tick

for p in 1 2 3 4 5; do
	[[ $p != 1 ]] || ordu event "$G" move unit=B1 distance=2 >/dev/null
	ordu witness "$G" --close >/dev/null
	tick
	tick # a second look mails nothing again
	for who in blue red; do
		expect_eq "$(count $who "phase closed")" $p "$who's mails of a phase's close after phase $p's"
		f=$(last_mail $who "phase closed")
		body=$(mime "$f" body)
		expect_in "$body" "Phase $p of turn 1 is closed"
		expect_eq "$(mime "$f" attachments)" "close-1-$p.head" "$who: the attachment of phase $p's close"
		expect_eq "$(mime "$f" attach:close-1-$p.head)" "$(ordu head "$G" --at close --turn 1 --phase $p)" \
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
		cmd=${cmd/orderly witness/\"\$ORDERLY\" witness}
		link=$(cd "$TMP/$who" && eval "$cmd" | sed -n 's/^link: //p')
		[[ ${#link} == 64 ]] || fail "$who: '$cmd' gave no link"
		ordu witness "$G" --side $who --link "$link" >/dev/null
	done
	ordu resolve "$G" >/dev/null
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
		expect_in "$cmd" "--head close-1-$p.head"
	done
	# the heads he kept are not mailed again under their names
	expect_not_in "$(mime "$f" attachments)" "close-1-"
	expect_in "$(mime "$f" body)" "close-1-P.head came with the mail of phase P's close"
	cmd=${cmd/GAME-KEY/$(opening_key $who)}
	cmd=${cmd/RECEIPT/${RECEIPT[$who]}}
	cmd=${cmd/orderly verify/\"\$ORDERLY\" verify}
	out=$(cd "$TMP/$who" && eval "$cmd" 2>&1) || fail "$who: '$cmd' failed: $out"
	expect_in "$out" "verified: every check holds"
	expect_in "$out" "the head you kept of turn 1's close"
	expect_not_in "$out" "close of phase"
	expect_not_in "$out" "no --head"
done
# turn 2 played through from the command line before the next look: a
# close head mailed after the exchange would prove nothing, so none is
ordu seal "$G" --force >/dev/null
for p in 1 2 3 4 5; do
	ordu witness "$G" --close >/dev/null
	ordu resolve "$G" --stand-in >/dev/null
done
ordu exchange "$G" >/dev/null
tick
expect_eq "$(count blue "phase closed")" 5 "blue's mails of a phase's close after turn 2"
expect_eq "$(count blue "turn bundle")" 2 "blue's bundle mails"
cmd=$(mime "$(last_mail blue "turn bundle")" body | sed -n '/^    orderly verify/,/^$/p')
expect_not_in "$cmd" "close-2-"
note "every side is mailed each phase's close head, and verifies with them"
