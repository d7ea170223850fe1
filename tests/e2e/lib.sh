# shellcheck shell=bash
# tests/e2e/lib.sh - helpers shared by the end-to-end tests, which drive
# whole games through the orderly binary.  Source it after `set -euo pipefail`.
#
# Environment (CTest sets it): ORDERLY, the binary; SRC, the source root;
# BUILD, the build directory.  Run by hand:
#   ORDERLY=build/orderly SRC=. BUILD=build bash tests/e2e/test_turn_cycle.sh
#
# What it gives a test:
#   $TMP                       a fresh directory, removed when the test exits
#   $FIX                       tests/fixtures/e2e
#   ord ARGS...                run orderly
#   run CMD...                 run CMD, keep its status in RC, its standard
#                              output in OUT, its standard error in ERR
#   expect_exit CODE CMD...    run CMD and fail unless its status is CODE
#   expect_in TEXT NEEDLE      fail unless NEEDLE is in TEXT (a fixed string)
#   expect_not_in TEXT NEEDLE  fail if NEEDLE is in TEXT
#   expect_line TEXT REGEX     fail unless a line of TEXT matches the ERE
#   expect_eq GOT WANT [WHAT]  fail unless GOT is WANT
#   sql GAME QUERY             run QUERY on GAME with the sqlite3 shell
#   need_sqlite3               skip the test (exit 0) when sqlite3 is missing
#   unmark GAME                take the core marker (made_core=,
#                              made_rules=) out of GAME's log, as an
#                              orderly before it wrote it (no rechain)
#   play_demo RULESET GAME     play RULESET's demo game into GAME (its
#                              examples/demo/play, real dice; GAME.log)
#   resolve_rest GAME [N]      resolve the next N phases (all left), each
#                              named and meant empty (resolve --phase
#                              NAME --empty): the test records no event
#                              in them
#   note MSG / fail MSG        say something / stop the test with a failure

TEST_NAME=$(basename "${BASH_SOURCE[1]:-$0}" .sh)

fail() {
	printf 'FAIL: %s: %s\n' "$TEST_NAME" "$*" >&2
	if [[ -n "${RC+x}" ]]; then
		printf -- '--- last command (status %s) stdout:\n%s\n--- stderr:\n%s\n---\n' \
			"$RC" "${OUT-}" "${ERR-}" >&2
	fi
	exit 1
}

note() {
	printf '%s: %s\n' "$TEST_NAME" "$*"
}

SRC=${SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
BUILD=${BUILD:-$SRC/build}
ORDERLY=${ORDERLY:-$BUILD/orderly}
FIX=$SRC/tests/fixtures/e2e
[[ -x "$ORDERLY" ]] || fail "no orderly binary at '$ORDERLY' (set ORDERLY)"
[[ -d "$FIX" ]] || fail "no fixtures at '$FIX' (set SRC)"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/orderly-e2e.XXXXXX")
cleanup() {
	rm -rf -- "$TMP"
}
trap cleanup EXIT

ord() {
	"$ORDERLY" "$@"
}

play_demo() {
	"$SRC/rulesets/$1/examples/demo/play" "$ORDERLY" "$2" >"$2.log" 2>&1 ||
		fail "the $1 demo did not play: $(tail -5 "$2.log")"
}

run() {
	RC=0
	"$@" >"$TMP/.out" 2>"$TMP/.err" || RC=$?
	OUT=$(cat "$TMP/.out")
	ERR=$(cat "$TMP/.err")
}

expect_exit() {
	local want=$1
	shift
	run "$@"
	[[ "$RC" == "$want" ]] || fail "'$*' exited $RC, expected $want"
}

expect_in() {
	[[ "$1" == *"$2"* ]] || fail "expected '$2' in:
$1"
}

expect_not_in() {
	[[ "$1" != *"$2"* ]] || fail "did not expect '$2' in:
$1"
}

expect_line() {
	grep -Eq -- "$2" <<<"$1" || fail "expected a line matching /$2/ in:
$1"
}

expect_eq() {
	[[ "$1" == "$2" ]] || fail "${3:-value}: got '$1', expected '$2'"
}

# need_forge: FORGE, the test tool a dishonest referee's edits are made
# with (tests/e2e/forge.c), as CMake passes it or beside the binary
need_forge() {
	FORGE=${FORGE:-$BUILD/tests/ord_forge}
	[[ -x "$FORGE" ]] || fail "no forge tool at '$FORGE' (set FORGE)"
}

# field NAME TEXT: the value of TEXT's first line "NAME: value" (a head
# file's, a receipt's)
field() { sed -n "s/^$1: //p" <<<"$2" | head -1; }

# forge ARGS: the forge tool run, the test failed if it fails (need_forge)
forge() { "$FORGE" "$@" || fail "ord_forge $*"; }

# export_bundle GAME TURN FILE: TURN's bundle of GAME, signed by the game's
# key, in FILE, as the attacker's own build writes it: `orderly export`
# refuses to sign one its verifier fails (a game file changed outside
# orderly: exit 65, saying so, no file written), so the bundle of such a
# file is written by ord_forge's export without that check, for the
# players' verify to catch; an attack only a kept head or receipt shows
# is exported by orderly as it is (need_forge)
export_bundle() {
	rm -f -- "$3"
	run "$ORDERLY" export "$1" --turn "$2" -o "$3"
	if [[ $RC == 65 ]]; then
		[[ "$ERR" == "orderly: '$1': the bundle of turn $2 is not written: 'orderly verify' would refuse it ("*"FAILED"* ]] ||
			fail "export $1 --turn $2: refused, but not by its check of the bundle: $ERR"
		[[ ! -e "$3" ]] || fail "export $1 --turn $2: refused, but it wrote $3"
		forge export "$1" "$2" "$3"
	elif [[ $RC != 0 ]]; then
		fail "export $1 --turn $2 exited $RC"
	fi
}

need_sqlite3() {
	if ! command -v sqlite3 >/dev/null 2>&1; then
		note "SKIP: the sqlite3 shell is not installed (scripts/deps installs it)"
		exit 0
	fi
}

sql() {
	sqlite3 -batch -bail "$1" "$2"
}

# unmark GAME: the core marker (made_core=, made_rules=: the core and rules
# revisions the game was made with, canon.h) taken out of GAME's creation
# and openings, as an orderly before it logged them; made= stays, and the
# chain is not made again (the caller's forge does it)
unmark() {
	local created core rules
	created=$(sql "$1" "SELECT body FROM log WHERE kind = 'create'")
	core=$(sed -n 's/^made_core=//p' <<<"$created")
	rules=$(sed -n 's/^made_rules=//p' <<<"$created")
	[[ -n "$core" ]] || fail "the creation of '$1' logs no made_core= (fix the test)"
	sql "$1" "UPDATE log SET body = replace(replace(body, 'made_core=$core' || char(10), ''),
		'made_rules=$rules' || char(10), '') WHERE kind IN ('create', 'open')"
	[[ "$(sql "$1" "SELECT count(*) FROM log WHERE body LIKE '%made_core=%' OR body LIKE '%made_rules=%'")" == 0 ]] ||
		fail "the log of '$1' still says made_core= or made_rules= (fix the test)"
}

# SQL that puts a game's outbox back as an orderly before schema 19 kept
# it (schema/sql/008_mail.sql: the bytes before queued and sent, no
# mail_sent), its mails and their marks as they are: for a file of an
# older format made from one of now.
OLD_OUTBOX_SQL="CREATE TEMP TABLE outbox_rows AS
		SELECT o.id, o.key, o.message_id, o.rcpt, o.bytes, o.queued, s.sent
		FROM mail_outbox o JOIN mail_sent s ON s.id = o.id;
	DROP TABLE mail_sent; DROP TABLE mail_outbox;
	CREATE TABLE mail_outbox (
		id          INTEGER PRIMARY KEY,
		key         TEXT UNIQUE,
		message_id  TEXT NOT NULL UNIQUE,
		rcpt        TEXT NOT NULL,
		bytes       BLOB NOT NULL,
		queued      INTEGER NOT NULL,
		sent        INTEGER
	);
	CREATE INDEX mail_outbox_unsent ON mail_outbox(id) WHERE sent IS NULL;
	INSERT INTO mail_outbox SELECT * FROM outbox_rows; DROP TABLE outbox_rows;"

# SQL that puts a game's inbox back as an orderly before schema 21 kept it
# (schema/sql/008_mail.sql: each mail's bytes in its row, no
# mail_inbox_raw), its rows and bytes as they are.
OLD_INBOX_SQL="CREATE TEMP TABLE inbox_rows AS
		SELECT i.id, i.message_id, i.sender, i.received, r.raw, i.state, i.result, i.done
		FROM mail_inbox i JOIN mail_inbox_raw r ON r.id = i.id;
	DROP TABLE mail_inbox_raw; DROP TABLE mail_inbox;
	CREATE TABLE mail_inbox (
		id          INTEGER PRIMARY KEY,
		message_id  TEXT NOT NULL UNIQUE,
		sender      TEXT NOT NULL,
		received    INTEGER NOT NULL,
		raw         BLOB NOT NULL,
		state       TEXT NOT NULL DEFAULT 'new' CHECK (state IN ('new', 'done')),
		result      TEXT NOT NULL DEFAULT '',
		done        INTEGER
	);
	INSERT INTO mail_inbox SELECT * FROM inbox_rows; DROP TABLE inbox_rows;"

# The path and its SQLite companions: none may exist.
expect_no_game() {
	local f
	for f in "$1" "$1-wal" "$1-shm" "$1-journal"; do
		[[ ! -e "$f" ]] || fail "'$f' exists, but no game should have been created"
	done
}

sha() {
	sha256sum "$1" | cut -d' ' -f1
}

# The mail tests' game: DIR/cross.orderly (tests/mail/data/scenario.xml),
# blue's passphrase 'blue shako and sabre' and the referee's 'umpire of
# the table' registered.  Sets G to its path.
cross_game() {
	mkdir -p "$1"
	G=$1/cross.orderly
	ord new "$G" --scenario "$SRC/tests/mail/data/scenario.xml" >/dev/null 2>&1
	printf 'blue shako and sabre\n' | ord register "$G" --side blue --passphrase-file - >/dev/null
	printf 'umpire of the table\n' | ord register "$G" --referee --passphrase-file - >/dev/null
}

# The bundle fixture's scenario with no key for side blue (its sheets go in
# unsigned), written to $1.
unkeyed_scenario() {
	sed '/pubkey="@BLUE@"/s/ pubkey="@BLUE@"//' "$SRC/tests/fixtures/bundle/scenario.xml" >"$1"
}

# resolve_rest GAME [N]: resolve the turn's next N phases (every one left
# when N is not given) each by its name, as `orderly info` gives it, with
# --empty: a test stepping through phases it leaves empty means them so,
# and a phase with no event while sealed orders wait for one is refused
# without --empty (--phase is only the guard that it is the phase meant).
# phase_of GAME: the phase to resolve next, as `orderly info` gives it
# (for `resolve --phase "$(phase_of GAME)"`, the guard; add --empty when
# the test records no event in it while orders wait for one).
phase_of() {
	ord info "$1" | sed -n 's/^phase: *\([^ ]*\) (.*/\1/p'
}

resolve_rest() {
	local g=$1 n=${2:-99} i p
	for ((i = 0; i < n; i++)); do
		p=$(ord info "$g" | sed -n 's/^phase: *\([^ ]*\) (.*/\1/p')
		[[ -n "$p" ]] || break
		expect_exit 0 ord resolve "$g" --phase "$p" --empty
	done
}
