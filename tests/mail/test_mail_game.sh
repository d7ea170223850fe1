#!/usr/bin/env bash
# test_mail_game.sh - a whole three-turn game by mail through a real MTA
# (exim4, unprivileged, 127.0.0.1; mail injected over SMTP with swaks):
# two players and a referee; a sheet with errors corrected by a second
# mail; CHECK and STATUS; a late player reminded, warned and held by the
# auto-seal at the deadline (the test clock of a fixed-dice game); the
# referee resolving and exchanging by mail; the signed heads, each side's
# report and the bundles arriving in the players' maildirs, and each player
# running the verify command of his bundle mail with the receipt of his
# receipt mail, and with --report to rebuild the report he was mailed.
set -euo pipefail
# shellcheck source=tests/mail/lib.sh
source "$(dirname "$0")/lib.sh"
need_sqlite3

G=$GAMES/crossroads.orderly

body_of() {
	mime "$(last_mail "$1" "$2")" body
}

deadline() {
	sqlu "SELECT deadline FROM turn ORDER BY turn DESC LIMIT 1"
}

tick_at() {
	ORDERLY_TEST_NOW=$1 as_user "$ORDERLY" tick "$GAMES" --sendmail "$SENDMAIL" >>"$TMP/tick.out" 2>>"$TMP/tick.err"
	deliver
}

# ------------------------------------------------------------------ setup
ordu new "$G" --scenario "$MAILSRC/data/scenario.xml" --fixed-dice >/dev/null 2>&1
printf 'blue shako and sabre\n' | ordu register "$G" --side blue --passphrase-file - >/dev/null
printf 'red coat at dawn\n' | ordu register "$G" --side red --passphrase-file - >/dev/null
printf 'umpire of the table\n' | ordu register "$G" --referee --passphrase-file - >/dev/null
run ordu info "$G"
expect_line "$OUT" '^schedule: +every 48h at 18:00 in Europe/Copenhagen grace 1h remind 24h,2h autoseal on$'
expect_line "$OUT" '^deadline: +[0-9-]{10}T[0-9]{2}:00:00Z$'
D1=$(deadline)
[[ $D1 -gt $(date +%s) ]] || fail "turn 1's deadline $D1 is not in the future"
expect_eq "$(sqlu "SELECT count(*) FROM log WHERE kind IN ('mail-address','mail-passphrase','schedule','mail-config')")" 8 "logged registrations"
# the addresses are the judge's table's: the scenario the game keeps and
# its log (both in every bundle) hold none of the players' or the referee's
expect_eq "$(sqlu "SELECT count(*) FROM game_scenario WHERE CAST(scenario AS TEXT) LIKE '%@club.test%'")" 0 "addresses in the kept scenario"
expect_eq "$(sqlu "SELECT count(*) FROM game_scenario WHERE CAST(scenario AS TEXT) LIKE '%orderly@judge.test%'")" 1 "the judge's address in the kept scenario"
expect_eq "$(sqlu "SELECT count(*) FROM log WHERE body LIKE '%@club.test%'")" 0 "addresses in the log"
expect_eq "$(sqlu "SELECT body FROM log WHERE kind = 'mail-address' AND body LIKE 'side=blue%'")" \
	"side=blue
address-hash=$(python3 -c 'import hashlib,sys; print(hashlib.blake2b(b"blue@club.test", digest_size=32, key=bytes.fromhex(sys.argv[1])).hexdigest())' "$(sqlu "SELECT hex(address_salt) FROM mail_party WHERE party = 'blue'")")" "blue's address as its hash"
# keyed with a secret of the judge's, not with the game's id every bundle
# shows (a player could try the club's addresses against that); register
# prints the key for the judge to hand to the address's owner
expect_eq "$(sqlu "SELECT length(address_salt) FROM mail_party WHERE party = 'blue'")" 32 "the key's length"
expect_eq "$(sqlu "SELECT count(*) FROM log WHERE body LIKE '%' || lower(hex((SELECT address_salt FROM mail_party WHERE party = 'blue'))) || '%'")" 0 "the key in the log"
[[ "$(sqlu "SELECT address_salt != (SELECT address_salt FROM mail_party WHERE party = 'red') FROM mail_party WHERE party = 'blue'")" == 1 ]] ||
	fail "two addresses hashed with the same key"
key_line=$(ordu register "$G" --side blue)
expect_in "$key_line" "address hash key $(sqlu "SELECT lower(hex(address_salt)) FROM mail_party WHERE party = 'blue'") (the log shows"

# ----------------------------------------------------------------- turn 1
# blue: a greeting, a quoted-printable arrow would be fine too; one bad code
mail_from blue "Orders turn 1" <<'EOF'
Hi umpire,

here they are.

Passphrase: blue shako and sabre

ORDERS
B1 ↑ 1/2
B2 Fb @R1
B3 → FXy
END

Cheers,
--
Blue
EOF
body=$(body_of blue "orders NOT accepted")
expect_in "$body" "Line numbers count in your ORDERS block"
expect_line "$body" "^line 3, col 6: unit 'B3': unknown code 'FXy'"
expect_in "$body" "    B3 → FXy"
expect_eq "$(sqlu "SELECT count(*) FROM sheet")" 0 "sheets after a rejected mail"
expect_eq "$(sqlu "SELECT count(*) FROM log WHERE kind = 'reject'")" 0 "a rejected sheet logs nothing"
# every side was handed the signed head of turn 1's opening, with the seed
# commitment its receipt will bind
sc1=$(ordu info "$G" | sed -n 's/^seed commitment: \([0-9a-f]*\).*/\1/p')
body=$(body_of blue "turn open")
expect_in "$body" "Turn 1 is open"
expect_in "$body" "orderly signed head v2"
expect_in "$body" "seed-commitment: $sc1"
# ... and the sign command checks that head against the game's own key
gkey=$(ordu info "$G" | awk '/^key:/ {print $2}')
[[ ${#gkey} == 64 ]] || fail "no game key in info"
expect_in "$(body_of red "turn open")" "orderly sign --head crossroads-open-1.head --pubkey $gkey --side red"


# the corrected sheet, top-posted above the quoted rejection
mail_from blue "Re: [crossroads] orders NOT accepted" <<'EOF'
Corrected, sorry.
Passphrase: blue shako and sabre
ORDERS
# Blue, turn 3 (last turn's heading, not mended)
B1 ↑ 1/2
B2 Fb @R1
B3 → 1/2
END

On Monday the judge wrote:
> line 3, col 6: unit 'B3': unknown code 'FXy'
> B3 → FXy
EOF
body=$(body_of blue "receipt: turn 1")
expect_line "$body" '^receipt: +turn 1 side blue version 1$'
BLUE_R1=$(sed -n 's/^commitment: *//p' <<<"$body")
expect_eq "$BLUE_R1" "$(sqlu "SELECT lower(hex(commitment)) FROM sheet WHERE turn = 1")" "blue's receipt"
expect_in "$body" "B3: → 1/2"
# a heading naming another turn: the library's warning, at the mail's line
# of the word, the sheet stored all the same
expect_line "$body" "^Warning: line 1, col 9: the sheet's heading says 'turn 3', but the game is at turn 1: is it the sheet of another turn\\?$"
expect_in "$body" "(stored as sent: a comment is your own; line numbers count in your ORDERS block"
expect_eq "$(mime "$(last_mail blue "receipt: turn 1")" header:In-Reply-To)" "<blue-2@club.test>" "In-Reply-To"
expect_eq "$(mime "$(last_mail blue "receipt: turn 1")" header:Auto-Submitted)" "auto-replied" "Auto-Submitted"
expect_eq "$(mime "$(last_mail blue "receipt: turn 1")" header:X-Orderly-Game)" "crossroads" "X-Orderly-Game"

# red checks a sheet (nothing stored), then asks for the status
mail_from red "CHECK" <<'EOF'
Passphrase: red coat at dawn
CHECK
R1 ↑ 1/4 @B1
R9 → 1/2
END
EOF
body=$(body_of red "check: problems found")
expect_line "$body" "^line 2, col 1: unknown unit 'R9'"
expect_in "$body" "R1: ↑ 1/4 @B1"
expect_eq "$(sqlu "SELECT count(*) FROM sheet")" 1 "sheets after a CHECK"
expect_not_in "$body" "Warning"
# a CHECK of a sheet headed with another turn: the warning, nothing stored
mail_from red "CHECK" <<'EOF'
Passphrase: red coat at dawn
CHECK
# Red, træk 2
R1 ↑ 1/4 @B1
END
EOF
body=$(body_of red "check: no problems")
expect_line "$body" "^Warning: line 1, col 8: the sheet's heading says 'træk 2', but the game is at turn 1"
expect_in "$body" "(a warning only: a comment is your own; line numbers count in your ORDERS block"
expect_eq "$(sqlu "SELECT count(*) FROM sheet")" 1 "sheets after a CHECK"
mail_from red "STATUS" <<'EOF'
Passphrase: red coat at dawn
EOF
body=$(body_of red "status: turn 1")
expect_line "$body" '^  blue +received$'
expect_line "$body" '^  red +none yet$'
expect_not_in "$body" "B2"

# the clock: a reminder a day before, to red only; a late notice at the
# announced deadline; the auto-seal when the hour's grace has run out
ANN1=$((D1 - 3600))
tick_at $((ANN1 - 86400 + 60))
body=$(body_of red "reminder: orders due")
expect_in "$body" "no orders of yours for turn 1"
expect_eq "$(for f in $(mails blue); do mime "$f" subject; done | grep -c reminder || true)" 0 "reminders to blue"
tick_at $((ANN1 - 86400 + 120))
expect_eq "$(for f in $(mails red); do mime "$f" subject; done | grep -c reminder)" 1 "reminders to red (once)"
tick_at $((ANN1 + 60))
expect_in "$(body_of red "your orders are late")" "still taken until"
tick_at $((D1 + 60))
expect_in "$(cat "$TMP/tick.out")" "crossroads: turn 1 sealed at its deadline"
expect_eq "$(sqlu "SELECT state FROM turn WHERE turn = 1")" sealed "turn 1"
expect_eq "$(sqlu "SELECT source FROM sheet JOIN side ON side.id = side_id WHERE side.name = 'red'")" hold "red's sheet"
body=$(body_of red "your orders were not received (NMR)")
expect_in "$body" "every unit holds"
expect_in "$body" "orderly signed head v2"
expect_in "$(body_of blue "turn sealed")" "Turn 1 is sealed"
expect_in "$(body_of referee "turn sealed")" "The NMR policy stood in for: red"

# the referee resolves the five phases and exchanges, by mail: he records
# no event, and says each phase goes empty (EMPTY; the phase named is the
# guard that it is the one he means)
referee_turn() {
	mail_from referee "turn $1" <<'EOF'
Passphrase: umpire of the table
RESOLVE movement EMPTY
RESOLVE fire EMPTY
RESOLVE fire-morale EMPTY
RESOLVE melee EMPTY
RESOLVE melee-morale EMPTY
EXCHANGE
EOF
	body=$(body_of referee "referee: done")
	expect_in "$body" "every phase of turn $1 is resolved"
	expect_in "$body" "exchanged: the next turn is open"
}
referee_turn 1
sc2=$(ordu info "$G" | sed -n 's/^seed commitment: \([0-9a-f]*\).*/\1/p')
body=$(body_of blue "turn open")
expect_in "$body" "Turn 2 is open"
expect_in "$body" "seed-commitment: $sc2"

expect_in "$(body_of blue "turn report")" "Every phase of turn 1 is resolved"
expect_in "$(body_of red "turn report")" "Every phase of turn 1 is resolved"

# each player runs the command of his bundle mail, in a directory of the
# attachments of his mails (oldest first: a later copy would overwrite the
# one he kept), filled from his own mails: the receipt of his receipt mail,
# the game's key of the mail of turn 1's opening
verify_bundle() {
	local who=$1 turn=$2 receipt=$3 f f2 a dir cmd key
	f=$(last_mail "$who" "turn bundle")
	dir=$TMP/verify-$who-$turn
	mkdir -p "$dir"
	for f2 in $(mails "$who"); do
		for a in $(mime "$f2" attachments); do
			mime "$f2" "attach:$a" >"$dir/$a"
		done
	done
	[[ -s "$dir/crossroads-turn-$turn.xml" ]] || fail "$who: no crossroads-turn-$turn.xml attached"
	[[ -s "$dir/crossroads-open-$turn.head" ]] || fail "$who: no crossroads-open-$turn.head was mailed"
	# the heads he kept are not mailed again under their names
	expect_not_in "$(mime "$f" attachments)" "seal-$turn.head"
	# no bundle hands a player the others' (or the referee's) address
	if grep -q '@club\.test' "$dir"/*; then
		fail "$who: the bundle of turn $turn shows a mail address: $(grep -o '[a-z]*@club\.test' "$dir"/* | sort -u | tr '\n' ' ')"
	fi
	cmd=$(mime "$f" body | sed -n '/^    orderly verify/,/^$/p' | sed 's/\\$//' | tr -d '\n')
	[[ -n "$cmd" ]] || fail "$who: no verify command in the bundle mail"
	# RECEIPT only to a side that sent orders: one the NMR policy stood
	# in for holds no receipt, and is told how to verify without one
	if [[ -n "$receipt" ]]; then
		expect_in "$cmd" "--receipt RECEIPT"
		expect_not_in "$(mime "$f" body)" "No orders of yours were received"
	else
		expect_not_in "$cmd" "--receipt RECEIPT"
		expect_in "$(mime "$f" body)" "No orders of yours were received for turn $turn, so the command has no
--receipt RECEIPT: the head of the seal signed for your side (below)
holds the seal to the NMR policy's sheet."
		expect_not_in "$(mime "$f" body)" "RECEIPT: the receipt file"
	fi
	expect_in "$cmd" "--pubkey GAME-KEY"
	# the head of the seal signed for his side, which his seal mail
	# attached: verify holds the seal to the sheet it states
	[[ -s "$dir/crossroads-sealed-$turn-$who.head" ]] || fail "$who: no crossroads-sealed-$turn-$who.head was mailed"
	expect_in "$cmd" "--receipt crossroads-sealed-$turn-$who.head"
	expect_in "$(mime "$f" body)" "crossroads-sealed-$turn-$who.head came with it too: the sheet the seal took for your side,"
	# RECEIPT is the file the game signed, the commitment only his word
	if [[ -n "$receipt" ]]; then
		expect_in "$(mime "$f" body)" "RECEIPT: the receipt file the receipt mail of the last orders you
sent for turn $turn attached, crossroads-receipt-$turn-$who-V.head, which the game
signed (its commitment works too, but is only your word"
	fi
	# no witnessed dice: no record of close heads answered
	expect_not_in "$cmd" "--record"
	# the head of the opening (the previous exchange's) ties this turn to
	# what the referee signed before
	expect_in "$cmd" "--head crossroads-open-$turn.head"
	key=$(opening_key "$who")
	expect_eq "$key" "$gkey" "$who: the game's key of the mail of turn 1's opening"
	cmd=${cmd/GAME-KEY/$key}
	if [[ -n "$receipt" ]]; then
		cmd=${cmd/RECEIPT/$receipt}
	fi
	cmd=${cmd/orderly verify/\"\$ORDERLY\" verify}
	(cd "$dir" && eval "$cmd") >"$dir/out" 2>&1 || fail "$who: '$cmd' failed: $(cat "$dir/out")"
	if [[ $turn -gt 1 ]]; then
		expect_in "$(cat "$dir/out")" "the head you kept of turn $((turn - 1))'s exchange"
	fi
	expect_in "$(cat "$dir/out")" "and this turn continues from it"
	expect_in "$(cat "$dir/out")" "receipt crossroads-sealed-$turn-$who.head (signed by the game's key, entry"
	if [[ -n "$receipt" ]]; then
		expect_in "$(cat "$dir/out")" "receipt $receipt: the sheet of $who, version"
		expect_in "$(cat "$dir/out")" "was the one sealed"
	fi
	# the report mailed when the last phase was resolved, rebuilt from the
	# bundle with the option the mail names: the same, word for word
	expect_in "$(mime "$f" body)" "    --report $who --resolved"
	(cd "$dir" && eval "$cmd --report $who --resolved") >"$dir/report" 2>"$dir/report.err" ||
		fail "$who: '$cmd --report $who --resolved' failed: $(cat "$dir/report.err")"
	expect_in "$(cat "$dir/report.err")" "verified: every check holds"
	expect_eq "$(cat "$dir/report")" "$(body_of "$who" "turn report" | sed '1,2d')" \
		"$who: the report of turn $turn rebuilt from the bundle, against the one mailed"
	expect_in "$(cat "$dir/report")" "turn $turn (resolved), report for $who"
	# and byte for byte the file the report mail attached, with the one
	# diff command the bundle mail gives
	expect_in "$(mime "$f" body)" "    --report $who --resolved | diff crossroads-report-$turn-$who.txt -"
	cmp -s "$dir/report" "$dir/crossroads-report-$turn-$who.txt" ||
		fail "$who: crossroads-report-$turn-$who.txt is not what '$cmd --report $who --resolved' prints"
}
verify_bundle blue 1 "$BLUE_R1"
verify_bundle red 1 ""

# ------------------------------------------------------------- turns 2, 3
D2=$(deadline)
expect_eq "$D2" $((D1 + 2 * 86400)) "turn 2's deadline (the rhythm of the schedule)"
for turn in 2 3; do
	mail_from blue "orders" <<'EOF'
Passphrase: blue shako and sabre
ORDERS
B1 ↑ 1/2
END
EOF
	BLUE_R=$(body_of blue "receipt: turn $turn" | sed -n 's/^commitment: *//p')
	mail_from red "orders" <<'EOF'
Passphrase: red coat at dawn

R1 ↑ 1/4 @B1
R2 → 1/2
EOF
	RED_R=$(body_of red "receipt: turn $turn" | sed -n 's/^commitment: *//p')
	[[ -n "$RED_R" ]] || fail "no receipt for red in turn $turn"
	if [[ $turn == 2 ]]; then
		mail_from referee "SEAL" <<'EOF'
Passphrase: umpire of the table
EOF
		expect_in "$(body_of referee "referee: done")" "sealed"
	else
		tick_at $(($(deadline) + 60))
	fi
	expect_eq "$(sqlu "SELECT state FROM turn WHERE turn = $turn")" sealed "turn $turn"
	referee_turn $turn
	verify_bundle blue $turn "$BLUE_R"
	verify_bundle red $turn "$RED_R"
done

expect_eq "$(sqlu "SELECT count(*) FROM turn")" 4 "turns"
expect_eq "$(sqlu "SELECT count(*) FROM mail_sent WHERE sent IS NULL")" 0 "unsent mail"
expect_eq "$(sqlu "SELECT count(*) FROM mail_inbox WHERE state != 'done'")" 0 "unprocessed mail"
run ordu audit "$G"
[[ $RC == 0 ]] || fail "audit: $OUT $ERR"
note "three turns by mail: $(mail_count blue) mails to blue, $(mail_count red) to red, $(mail_count referee) to the referee"
