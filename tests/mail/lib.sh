# shellcheck shell=bash
# tests/mail/lib.sh - the mail judge's tests through a real MTA.  Source it
# after `set -euo pipefail`; it sources tests/e2e/lib.sh (TMP, ord, run,
# expect_*), then starts exim4 unprivileged on a free port of 127.0.0.1
# with tests/mail/exim.conf.in, and stops it when the test exits.
#
# As root, the MTA and every orderly command run as 'nobody' (setpriv), so
# that the test is the same for root and for anybody else.
#
# What it gives a test, beyond lib.sh:
#   $MTA_DIR, $GAMES       the MTA's directory; the games directory (mail-in's --games)
#   $MAILSRC               a copy of tests/mail/data and the scripts the MTA's user runs
#   as_user CMD...         run CMD as the MTA's user
#   ordu ARGS...           orderly as the MTA's user
#   send FROM TO FILE      inject a message over SMTP with swaks (FILE: headers and body)
#   send_raw FILE          inject FILE as it is (its From: and To: used for the envelope)
#   deliver                deliver everything queued (exim -qff in the foreground)
#   flush                  orderly mail-out of every game, then deliver
#   mails PLAYER           the files of PLAYER's maildir (new/), oldest first
#   mail_count PLAYER      how many
#   mime FILE PART         a decoded part of a mail: body | subject | header:NAME | attach:NAME
#   new_signed_game GAME   a game of data/scenario.xml whose side red signs its sheets
#                          ($TMP/red.key), the head of its opening in $TMP/open-1.head

source "$(dirname "${BASH_SOURCE[0]}")/../e2e/lib.sh"
TEST_NAME=$(basename "$0" .sh)

for tool in exim4 swaks python3; do
	if ! command -v "$tool" >/dev/null 2>&1 && [[ ! -x /usr/sbin/$tool ]]; then
		note "SKIP: $tool is not installed (scripts/deps installs it)"
		exit 0
	fi
done
EXIM=$(command -v exim4 || echo /usr/sbin/exim4)
ORDERLY=$(realpath "$ORDERLY")

RUNAS=()
if [[ $(id -u) -eq 0 ]]; then
	# the system's tools: root's PATH may name shims 'nobody' cannot run
	RUNAS=(setpriv --reuid=65534 --regid=65534 --clear-groups env PATH=/usr/bin:/bin:/usr/sbin:/sbin)
	chown 65534:65534 "$TMP"
	MTA_USER=nobody
	MTA_GROUP=$(getent group 65534 | cut -d: -f1)
else
	MTA_USER=$(id -un)
	MTA_GROUP=$(id -gn)
fi
chmod 0755 "$TMP"
# what the MTA's user runs or reads lives under $TMP: a clone may be in a
# directory 'nobody' cannot enter (root's home)
MAILSRC=$TMP/mailsrc
mkdir -p "$TMP/bin" "$MAILSRC"
cp "$ORDERLY" "$TMP/bin/orderly"
# and the parts it loads from beside it (src/cli/plugins.c)
cp "$(dirname "$ORDERLY")"/orderly-*.so "$TMP/bin/"
ORDERLY=$TMP/bin/orderly
cp -r "$SRC/tests/mail/data" "$SRC/tests/mail/pgp_mail.py" "$MAILSRC/"
chmod -R a+rX "$TMP/bin" "$MAILSRC"

as_user() {
	"${RUNAS[@]}" "$@"
}

ordu() {
	as_user "$ORDERLY" "$@"
}

MTA_DIR=$TMP/mta
GAMES=$TMP/games
as_user mkdir -p "$MTA_DIR/spool" "$MTA_DIR/log" "$GAMES"
# the players who have a mailbox here (exim.conf.in, router players)
for p in blue red referee mallory; do
	as_user mkdir -p "$MTA_DIR/maildir/$p"
done
MTA_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
sed -e "s|@DIR@|$MTA_DIR|g" -e "s|@PORT@|$MTA_PORT|g" -e "s|@USER@|$MTA_USER|g" \
	-e "s|@GROUP@|$MTA_GROUP|g" "$SRC/tests/mail/exim.conf.in" | as_user tee "$MTA_DIR/exim.conf" >/dev/null
# mail-in as the pipe runs it: extra environment from mail-in.env (the kill
# test sets pause points there); a process killed by a signal is "try later"
as_user tee "$MTA_DIR/mail-in.sh" >/dev/null <<SH
[ -f "$MTA_DIR/mail-in.env" ] && . "$MTA_DIR/mail-in.env"
"$ORDERLY" mail-in --games "$GAMES"
rc=\$?
[ \$rc -gt 128 ] && exit 75
exit \$rc
SH
as_user touch "$MTA_DIR/mail-in.env"
SENDMAIL="$EXIM -C $MTA_DIR/exim.conf -t -i"

mta_stop() {
	if [[ -f "$MTA_DIR/exim.pid" ]]; then
		kill "$(cat "$MTA_DIR/exim.pid")" 2>/dev/null || true
	fi
}
# KEEP_TMP=1 keeps the directory (the MTA's logs, the games, the maildirs)
mta_cleanup() {
	mta_stop
	if [[ -n "${KEEP_TMP:-}" ]]; then
		echo "kept $TMP" >&2
	else
		cleanup
	fi
}
trap mta_cleanup EXIT

as_user "$EXIM" -C "$MTA_DIR/exim.conf" -bd 2>>"$MTA_DIR/daemon.err" ||
	fail "exim did not start (see $MTA_DIR/log/paniclog)"
for _ in $(seq 50); do
	[[ -s "$MTA_DIR/exim.pid" ]] && break
	sleep 0.1
done
[[ -s "$MTA_DIR/exim.pid" ]] || fail "exim wrote no pid file"

send_raw() {
	local from to
	from=$(tr -d '\r' <"$1" | sed -n 's/^From:.*<\(.*\)>.*/\1/p; s/^From: *\([^ <]*@[^ >]*\) *$/\1/p' | head -1)
	to=$(tr -d '\r' <"$1" | sed -n 's/^To:.*<\(.*\)>.*/\1/p; s/^To: *\([^ <]*@[^ >]*\) *$/\1/p' | head -1)
	[[ -n "$from" ]] || from=nobody@club.test
	as_user swaks --server 127.0.0.1 --port "$MTA_PORT" --from "$from" --to "$to" \
		--data "@$1" >"$MTA_DIR/swaks.out" 2>&1 ||
		fail "swaks could not send $1: $(tail -5 "$MTA_DIR/swaks.out")"
}

deliver() {
	as_user "$EXIM" -C "$MTA_DIR/exim.conf" -qff 2>>"$MTA_DIR/deliver.err"
}

flush() {
	ordu mail-out "$GAMES" --sendmail "$SENDMAIL" >/dev/null 2>>"$MTA_DIR/mail-out.err"
	deliver
}

mails() {
	local d=$MTA_DIR/maildir/$1/new
	[[ -d "$d" ]] || return 0
	ls -1tr "$d" | sed "s|^|$d/|"
}

mail_count() {
	mails "$1" | wc -l
}

mime() {
	python3 "$SRC/tests/mail/mime.py" "$@"
}

# sqlu SQL [GAME]: SQL on the game file ($G unless given), as the judge's user
sqlu() {
	as_user sqlite3 -batch -bail "${2:-$G}" "$1"
}

# last_mail PLAYER TEXT: the file of PLAYER's newest mail whose subject has TEXT
last_mail() {
	local f
	for f in $(mails "$1" | tac); do
		if [[ "$(mime "$f" subject)" == *"$2"* ]]; then
			echo "$f"
			return 0
		fi
	done
	fail "no mail to $1 with '$2' in its subject; they have: $(for f in $(mails "$1"); do mime "$f" subject; done)"
}

# mail_from WHO [SUBJECT]: a plain text mail from WHO (blue, red, referee)
# to the game $G (Subject "orders" unless given), its body on stdin, sent,
# delivered and processed; its Message-ID is <WHO-N@club.test>, N counting
# the mails sent so far
mail_n=0
mail_from() {
	local who=$1 subject=${2:-orders} f
	mail_n=$((mail_n + 1))
	f=$TMP/msg-$mail_n.eml
	{
		printf 'From: %s <%s@club.test>\nTo: orderly+%s@judge.test\n' "$who" "$who" "$(basename "$G" .orderly)"
		printf 'Subject: %s\nMessage-ID: <%s-%d@club.test>\n' "$subject" "$who" "$mail_n"
		printf 'Date: %s\nMIME-Version: 1.0\n' "$(date -R)"
		printf 'Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n'
		cat
	} >"$f"
	send_raw "$f"
	deliver
	flush
}

# opening_key PLAYER: the game's public key as the mail of turn 1's opening
# gave PLAYER (his own evidence of it, for verify)
opening_key() {
	local f
	for f in $(mails "$1"); do
		if [[ "$(mime "$f" subject)" == *"turn open"* ]]; then
			mime "$f" body | sed -n '/^The game.s public key/,/^ *[0-9a-f]\{64\}$/p' | tail -1 | tr -d ' '
			return 0
		fi
	done
	fail "no mail of a turn's opening to $1"
}

new_signed_game() {
	local pub
	ordu keygen "$TMP/red.key" >/dev/null 2>&1
	pub=$(sed -n 's/^public: //p' "$TMP/red.key.pub")
	sed "s|<side id=\"red\" name=\"Red Army\" email=\"red@club.test\"/>|<side id=\"red\" name=\"Red Army\" email=\"red@club.test\" pubkey=\"$pub\"/>|" \
		"$MAILSRC/data/scenario.xml" >"$TMP/scenario-signed.xml"
	chmod a+r "$TMP/scenario-signed.xml" "$TMP/red.key"
	ordu new "$1" --scenario "$TMP/scenario-signed.xml" >/dev/null 2>&1
	# the player signs against the head of turn 1's opening he was handed
	ordu head "$1" --at open >"$TMP/open-1.head"
	chmod a+r "$TMP/open-1.head"
}
