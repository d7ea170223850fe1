#!/usr/bin/env bash
# test_mail_swap.sh - a referee who puts another sheet in a player's place,
# through the real MTA: red (a side without a key) mails its orders and
# keeps the receipt; the referee submits another sheet for red from the
# command line, seals, resolves and exchanges.  The bundle mail must not
# hand red a command that says "ok" (the receipt of the sheet sealed, read
# from the referee's file), nor overwrite the heads red kept; the command as
# documented, filled from red's own mails, must catch the swap.  Blue, whose
# sheet was not touched, verifies the same way.
set -euo pipefail
# shellcheck source=tests/mail/lib.sh
source "$(dirname "$0")/lib.sh"
need_sqlite3

G=$GAMES/swap.orderly
ordu new "$G" --scenario "$MAILSRC/data/scenario.xml" >/dev/null 2>&1
printf 'blue shako and sabre\n' | ordu register "$G" --side blue --passphrase-file - >/dev/null
printf 'red coat at dawn\n' | ordu register "$G" --side red --passphrase-file - >/dev/null
ordu tick "$GAMES" --sendmail "$SENDMAIL" >/dev/null
deliver

mail_from red <<'EOF'
Passphrase: red coat at dawn
ORDERS
R1 ↑ 1/4 @B1
END
EOF
RED_R=$(mime "$(last_mail red "receipt: turn 1")" body | sed -n 's/^commitment: *//p')
[[ ${#RED_R} == 64 ]] || fail "no receipt for red"
mail_from blue <<'EOF'
Passphrase: blue shako and sabre
ORDERS
B1 ↑ 1/2
END
EOF
BLUE_R=$(mime "$(last_mail blue "receipt: turn 1")" body | sed -n 's/^commitment: *//p')

# the referee puts another sheet in red's place (version 2), seals,
# resolves and exchanges from the command line; tick mails it all
printf 'R1 → 1/2\n' >"$TMP/evil-red.txt"
chmod a+r "$TMP/evil-red.txt"
ordu submit "$G" --side red "$TMP/evil-red.txt" >/dev/null
EVIL=$(sqlu "SELECT lower(hex(commitment)) FROM sheet WHERE turn = 1 AND version = 2 AND side_id = (SELECT id FROM side WHERE name = 'red')")
[[ ${#EVIL} == 64 && $EVIL != "$RED_R" ]] || fail "the referee's sheet was not stored as version 2"
ordu seal "$G" >/dev/null
ordu tick "$GAMES" --sendmail "$SENDMAIL" >/dev/null
deliver
for p in movement fire fire-morale melee melee-morale; do
	ordu resolve "$G" --phase "$p" --empty >/dev/null
done
ordu exchange "$G" >/dev/null
ordu tick "$GAMES" --sendmail "$SENDMAIL" >/dev/null
deliver

# a player saves every attachment of his mails, oldest first, in one
# folder, and runs the bundle mail's command filled from his own mails
verify_own() {
	local who=$1 receipt=$2 dir=$TMP/verify-$1 f a cmd key bundle
	mkdir -p "$dir"
	for f in $(mails "$who"); do
		for a in $(mime "$f" attachments); do
			mime "$f" "attach:$a" >"$dir/$a"
		done
	done
	bundle=$(last_mail "$who" "turn bundle")
	# the heads he kept are not overwritten by copies of the judge's
	expect_not_in "$(mime "$bundle" attachments)" "seal-1.head"
	expect_not_in "$(mime "$bundle" attachments)" "open-1.head"
	expect_eq "$(cat "$dir/swap-seal-1.head")" "$(mime "$(last_mail "$who" "turn sealed")" attach:swap-seal-1.head)" "$who's swap-seal-1.head"
	cmd=$(mime "$bundle" body | sed -n '/^    orderly verify/,/^$/p' | sed 's/\\$//' | tr -d '\n')
	[[ -n "$cmd" ]] || fail "$who: no verify command in the bundle mail"
	# nothing in it that the player is to hold himself: no commitment, no key
	if grep -Eq '[0-9a-f]{64}' <<<"$cmd"; then
		fail "$who: the bundle's command holds a value from the judge's file: $cmd"
	fi
	expect_in "$cmd" "--receipt RECEIPT"
	expect_in "$cmd" "--pubkey GAME-KEY"
	expect_in "$cmd" "--head swap-open-1.head"
	expect_in "$cmd" "--head swap-seal-1.head"
	expect_in "$cmd" "--head swap-exchange-1.head"
	expect_not_in "$(mime "$bundle" body)" "as your receipt mail gave it"
	# the game's key from the mail of turn 1's opening
	key=$(opening_key "$who")
	[[ ${#key} == 64 ]] || fail "$who: the mail of turn 1's opening gives no game key"
	cmd=${cmd/GAME-KEY/$key}
	cmd=${cmd/RECEIPT/$receipt}
	cmd=${cmd/orderly verify/\"\$ORDERLY\" verify}
	set +e
	(cd "$dir" && eval "$cmd") >"$dir/out" 2>&1
	RC=$?
	set -e
	OUT=$(cat "$dir/out")
}

# red: the swap is caught with his own receipt
verify_own red "$RED_R"
[[ $RC != 0 ]] || fail "red's verify with his own receipt passed a swapped sheet: $OUT"
expect_in "$OUT" "receipt $RED_R: the sheet of red, version 1, is here unchanged, but version 2 was sealed instead"
# the mail lists what the judge's file holds, so that he sees the version he never sent
body=$(mime "$(last_mail red "turn bundle")" body)
expect_line "$body" "^    version 1  $RED_R  submitted$"
expect_line "$body" "^    version 2  $EVIL  submitted  \(sealed\)$"

# blue: untouched, verified
verify_own blue "$BLUE_R"
[[ $RC == 0 ]] || fail "blue's verify failed: $OUT"
expect_in "$OUT" "receipt $BLUE_R: the sheet of blue, version 1, is here unchanged and was the one sealed"
note "a sheet put in a player's place is caught by the bundle mail's command with his own receipt"
