#!/usr/bin/env bash
# test_readonly.sh - a game file its reader may not write (an archived copy,
# what a player was mailed, a read-only directory) is read by every command
# that only reads (info, report, audit, export, head, map, chart), which
# change nothing, to it or beside it; the commands that change a game say
# the file may not be written (exit 73), as `new` does for a directory that
# does not exist; a -wal file beside a read-only game is read, or the game
# refused, never ignored; and a file with a table dropped, or a column or an
# index changed by hand, is damaged (65) and left as it was.
#
# As root, who may write any file, the readers run as 'nobody' (setpriv,
# runuser or su): the test fails rather than pass without a reader the
# permissions stop, and checks first that this reader may not write.
set -euo pipefail
# shellcheck source=tests/e2e/lib.sh
source "$(dirname "$0")/lib.sh"
need_sqlite3

# the read-only directories below are made writable again to be removed
trap 'chmod -R u+w "$TMP" 2>/dev/null; cleanup' EXIT
cd "$TMP"
DEMO=$SRC/rulesets/battalion/examples/demo

# ---------------------------------------------------------------- the reader
# as_reader CMD...: run CMD as a user the files' permissions apply to.
if [[ $(id -u) -eq 0 ]]; then
	if command -v setpriv >/dev/null 2>&1 &&
		setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
		as_reader() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; }
	elif command -v runuser >/dev/null 2>&1 && runuser -u nobody -- true 2>/dev/null; then
		as_reader() { runuser -u nobody -- "$@"; }
	else
		fail "running as root, and neither setpriv nor runuser can run a command as 'nobody': the read-only path cannot be tested (root may write any file)"
	fi
	# the reader runs a copy of the binary, with copies of the inputs,
	# in a directory it may enter (the build and source trees may be
	# root's own)
	chmod 755 "$TMP"
	mkdir bin
	cp "$ORDERLY" bin/orderly
	# and the parts it loads from beside it (src/cli/plugins.c)
	cp "$(dirname "$ORDERLY")"/orderly-*.so bin/
	chmod 755 bin/orderly bin/orderly-*.so
	ORDERLY=$TMP/bin/orderly
	if [[ -n "${LSAN_OPTIONS:-}" ]]; then
		cp "$SRC/tests/lsan.supp" lsan.supp
		chmod 644 lsan.supp
		export LSAN_OPTIONS=${LSAN_OPTIONS//$SRC\/tests\/lsan.supp/$TMP/lsan.supp}
	fi
	note "running as root: the reader is 'nobody'"
else
	as_reader() { "$@"; }
fi
rd() {
	as_reader "$ORDERLY" "$@"
}

# ---------------------------------------------------------------- a game, one turn played
cp "$DEMO"/../scenario.xml "$DEMO"/turn1-*.txt .
chmod 644 ./*.xml ./*.txt
expect_exit 0 ord new g.game --scenario scenario.xml
expect_exit 0 ord submit g.game --side french turn1-french.txt
expect_exit 0 ord submit g.game --side allied turn1-allied.txt
expect_exit 0 ord seal g.game
expect_exit 0 ord event g.game move unit=F1 distance=5 x=10 y=12
resolve_rest g.game 5
expect_exit 0 ord exchange g.game
expect_exit 0 ord submit g.game --side french turn1-french.txt
for f in g.game-wal g.game-shm; do [[ ! -e $f ]] || fail "'$f' left after the turn"; done

# a read-only file, in a directory the reader may write
mkdir -m 777 rofile
cp g.game rofile/g.game
chmod a-w rofile/g.game
# a file the reader may write, in a directory it may not
mkdir rodir
cp g.game rodir/g.game
chmod 666 rodir/g.game
chmod 555 rodir
# the reader's own directory, for the files it writes
mkdir -m 777 out

# the reader may not write either: else nothing below is tested
as_reader test -r rofile/g.game || fail "the reader cannot read rofile/g.game"
if as_reader sh -c ': >>rofile/g.game' 2>/dev/null; then
	fail "the reader may write rofile/g.game: the read-only path is not exercised"
fi
if as_reader sh -c ': >rodir/probe' 2>/dev/null; then
	fail "the reader may write in rodir: the read-only path is not exercised"
fi

# ---------------------------------------------------------------- the commands that read
for game in rofile/g.game rodir/g.game; do
	dir=$(dirname "$game")
	before=$(sha "$game")
	listing=$(ls -la --time-style=+ "$dir")

	run rd info "$game"
	[[ $RC == 0 ]] || fail "info $game exited $RC"
	expect_line "$OUT" '^turn: +2 \(open\)$'
	run rd report "$game" --referee
	[[ $RC == 0 ]] || fail "report --referee $game exited $RC"
	expect_in "$OUT" "F1"
	run rd report "$game" --side french --turn 1
	[[ $RC == 0 ]] || fail "report --side french $game exited $RC"
	run rd audit "$game"
	[[ $RC == 0 ]] || fail "audit $game exited $RC"
	run rd export "$game" --turn 1 -o out/bundle.xml
	[[ $RC == 0 ]] || fail "export $game exited $RC"
	run rd verify out/bundle.xml
	[[ $RC == 0 ]] || fail "verify of the bundle exported from $game exited $RC"
	run rd head "$game" --at seal --turn 1 -o out/head.txt
	[[ $RC == 0 ]] || fail "head $game exited $RC"
	run rd map "$game" --turn 1 --referee -o out/map.svg
	[[ $RC == 0 ]] || fail "map $game exited $RC"
	run rd chart "$game" --referee -o out/chart.svg
	[[ $RC == 0 ]] || fail "chart $game exited $RC"
	rm -f out/*

	# the commands that change a game: refused, clearly, as a user's error
	run rd submit "$game" --side allied turn1-allied.txt
	[[ $RC == 73 ]] || fail "submit to $game exited $RC, expected 73"
	if [[ $game == rofile/* ]]; then
		expect_eq "$ERR" "orderly: cannot change game '$game': the file may not be written (permission denied); it can be read, not played" "submit to a read-only file"
	else
		expect_eq "$ERR" "orderly: cannot change game '$game': its directory 'rodir' may not be written (permission denied), and SQLite makes the game's -wal and -shm files there; it can be read, not played" "submit in a read-only directory"
	fi
	run rd seal "$game"
	[[ $RC == 73 ]] || fail "seal of $game exited $RC, expected 73"

	expect_eq "$(sha "$game")" "$before" "the bytes of $game after the reading commands"
	expect_eq "$(ls -la --time-style=+ "$dir")" "$listing" "the files beside $game"
done

# ---------------------------------------------------------------- a -wal file beside it
# A change committed to the -wal file only (the game's sqlite3 connection
# still open while the three files are copied): the table dropped there
# is missing for a reader that reads the log, present for one that
# ignores it.
mkdir walcopy
cp g.game w.game
sqlite3 -batch w.game "PRAGMA wal_autocheckpoint = 0" "DROP TABLE witness" \
	".shell cp w.game w.game-wal w.game-shm walcopy/" >/dev/null
[[ -s walcopy/w.game-wal ]] || fail "no -wal file copied"
# the control: the file alone still has the table
expect_eq "$(sqlite3 "file:walcopy/w.game?immutable=1" \
	"SELECT count(*) FROM sqlite_schema WHERE name = 'witness'")" 1 "the table in the file itself"
# read-only, with its -shm: the log is read
chmod a-w walcopy/w.game walcopy/w.game-wal walcopy/w.game-shm
chmod 555 walcopy
run rd info walcopy/w.game
[[ $RC == 65 ]] || fail "info on a read-only game with a -wal exited $RC, expected 65"
expect_eq "$ERR" "orderly: 'walcopy/w.game' is a damaged game file (its table 'witness' is missing); restore it from a copy" "a -wal read"
# without its -shm, in a directory the reader may not write: refused
chmod 755 walcopy
rm walcopy/w.game-shm
chmod 555 walcopy
before=$(sha walcopy/w.game)
run rd info walcopy/w.game
[[ $RC == 66 ]] || fail "info on a read-only game with an unreadable -wal exited $RC, expected 66"
expect_in "$ERR" "orderly: cannot read game 'walcopy/w.game': its write-ahead log 'walcopy/w.game-wal' holds changes not yet in the file, which SQLite cannot read without writing beside it"
expect_eq "$(sha walcopy/w.game)" "$before" "the bytes of a game refused for its -wal"
[[ ! -e walcopy/w.game-shm ]] || fail "a -shm file made beside a refused game"

# ---------------------------------------------------------------- an older format, read-only
schema=$(sql g.game "PRAGMA user_version")
mkdir -m 777 old
cp g.game old/g.game
sql old/g.game "UPDATE game SET scenario = (SELECT scenario FROM game_scenario);
	DROP TABLE game_scenario; DROP TABLE sealed_order; DROP TABLE event_unit;
	DROP TABLE order_index; DROP INDEX log_kind; ALTER TABLE mail_party DROP COLUMN address_salt; ALTER TABLE mail_party DROP COLUMN pgp_last;
	DROP TABLE mail_pass_fail; ALTER TABLE mail_config DROP COLUMN pass_tries; ALTER TABLE mail_config DROP COLUMN files;
	DROP TABLE mail_refused; $OLD_OUTBOX_SQL $OLD_INBOX_SQL
	PRAGMA user_version = 9;" >/dev/null
chmod a-w old/g.game
before=$(sha old/g.game)
run rd audit old/g.game
[[ $RC == 65 ]] || fail "audit of a read-only game of schema 9 exited $RC, expected 65"
expect_eq "$ERR" "orderly: 'old/g.game' is of an older format (schema 9; this orderly's is $schema), brought up to date when it is first opened with write access; it may not be written here (it is left as it was)" "an older format, read-only"
expect_eq "$(sha old/g.game)" "$before" "the bytes of the old game"
expect_eq "$(ls old)" "g.game" "the files beside the old game"

# ---------------------------------------------------------------- new in a missing directory
expect_exit 73 ord new /nonexistent-orderly-dir/sub/x.game --scenario scenario.xml
expect_eq "$ERR" "orderly: cannot create '/nonexistent-orderly-dir/sub/x.game': directory '/nonexistent-orderly-dir/sub' does not exist" "new in a missing directory"
run rd new rodir/n.game --scenario scenario.xml
[[ $RC == 73 ]] || fail "new in a read-only directory exited $RC, expected 73"
expect_eq "$ERR" "orderly: cannot create 'rodir/n.game': directory 'rodir' may not be written (permission denied)" "new in a read-only directory"

# ---------------------------------------------------------------- where an output goes
# -o writes a file: into a missing directory it is refused as a file that
# may not be created (73, not 66, which is for input); a link is followed,
# not replaced; a directory or a pipe is refused, not renamed over
expect_exit 73 ord head g.game --at open -o /nonexistent-orderly-dir/h.head
expect_in "$ERR" "cannot create '/nonexistent-orderly-dir/h.head'"
echo keep >target.head
ln -s target.head link.head
expect_exit 0 ord head g.game --at open -o link.head
[[ -L link.head ]] || fail "-o replaced the link it was given"
expect_in "$(cat target.head)" "at: open"
mkfifo pipe.head
expect_exit 73 ord head g.game --at open -o pipe.head
expect_eq "$ERR" "orderly: cannot write 'pipe.head': it is a pipe, not a file (give a file's path; without -o the output goes to standard output)" "-o onto a pipe"
[[ -p pipe.head ]] || fail "-o replaced the pipe it was given"
ln -s nowhere/at/all dangling.head
expect_exit 73 ord head g.game --at open -o dangling.head
expect_in "$ERR" "cannot write 'dangling.head': it is a link to a file that cannot be reached"

# ---------------------------------------------------------------- a dropped table
cp g.game d.game
sql d.game "DROP TABLE roll" >/dev/null
before=$(sha d.game)
for c in info audit "report --referee"; do
	# shellcheck disable=SC2086
	expect_exit 65 ord $c d.game
	expect_eq "$ERR" "orderly: 'd.game' is a damaged game file (its table 'roll' is missing); restore it from a copy" "$c on a game without its table roll"
done
expect_eq "$(sha d.game)" "$before" "the bytes of the damaged game"

# ---------------------------------------------------------------- a column changed by hand
# a column renamed, dropped or added, an index dropped: refused at open,
# each with what differs from the schema the migrations make, before a
# command that would not use the column writes anything
schema_changed() {  # NAME SQL MESSAGE
	local want="orderly: '$1.game' is a damaged game file ($3); restore it from a copy"
	cp g.game "$1.game"
	sql "$1.game" "$2" >/dev/null
	before=$(sha "$1.game")
	expect_exit 65 ord info "$1.game"
	expect_eq "$ERR" "$want" "info on $1.game"
	expect_exit 65 ord audit "$1.game"
	expect_eq "$ERR" "$want" "audit on $1.game"
	expect_exit 65 ord deadline "$1.game" +2h
	expect_eq "$ERR" "$want" "deadline on $1.game"
	# and read-only, by a reader who may not write it
	chmod a-w "$1.game"
	run rd info "$1.game"
	[[ $RC == 65 ]] || fail "info on a read-only $1.game exited $RC, expected 65"
	expect_eq "$ERR" "$want" "a read-only $1.game"
	expect_eq "$(sha "$1.game")" "$before" "the bytes of $1.game"
}
schema_changed renamed "ALTER TABLE unit RENAME COLUMN attrs TO attributes" \
	"its table 'unit' has no column 'attrs'"
# the same in a file taken out of its write-ahead log: refused before the
# journal mode is set back, which writes the file's header (a red team's
# find on the check)
schema_changed journaled "PRAGMA journal_mode = DELETE; ALTER TABLE unit RENAME COLUMN attrs TO attributes" \
	"its table 'unit' has no column 'attrs'"
schema_changed dropped "ALTER TABLE event DROP COLUMN void_reason" \
	"its table 'event' has no column 'void_reason'"
schema_changed added "ALTER TABLE unit ADD COLUMN note TEXT" \
	"its table 'unit' has a column 'note', which the game's schema does not give it"
schema_changed unindexed "DROP INDEX log_kind" "its index 'log_kind' is missing"
schema_changed repointed "PRAGMA writable_schema = ON;
	UPDATE sqlite_schema SET sql = replace(sql, 'REFERENCES log(seq) DEFERRABLE', 'REFERENCES turn(turn) DEFERRABLE')
	WHERE name = 'roll'; PRAGMA writable_schema = RESET" \
	"its table 'roll' has its column 'log_seq' REFERENCES turn(turn), where the game's schema has it REFERENCES log(seq)"
# a trigger written into sqlite_schema by hand, named as SQLite's own
# objects are (which the text compared first leaves out, for its tables)
schema_changed triggered "PRAGMA writable_schema = ON;
	INSERT INTO sqlite_schema(type, name, tbl_name, rootpage, sql) VALUES ('trigger', 'sqlite_t', 'log', 0,
		'CREATE TRIGGER sqlite_t AFTER INSERT ON log BEGIN UPDATE log_head SET seq = seq; END');
	PRAGMA writable_schema = RESET" \
	"its table 'log' has a trigger 'sqlite_t', which the game's schema does not make"
# a file whose statements differ from the migrations' only in what SQLite
# makes nothing of (a comment, as in a file made by an orderly whose
# migration was worded otherwise) is the same schema, and opens
cp g.game commented.game
sql commented.game "PRAGMA writable_schema = ON;
	UPDATE sqlite_schema SET sql = replace(sql, '-- unit id', '-- the unit''s id') WHERE name = 'result';
	PRAGMA writable_schema = RESET" >/dev/null
[[ "$(sql commented.game "SELECT sql FROM sqlite_schema WHERE name = 'result'")" == *"the unit's id"* ]] ||
	fail "the comment of table result was not changed (fix the test)"
expect_exit 0 ord audit commented.game
expect_in "$OUT" "clean"
# and the game it was copied from is whole
expect_exit 0 ord audit g.game

# ---------------------------------------------------------------- a game whose schema is in its log
# A game made while a reader held its log (a server's page listing the
# games, read-only) keeps everything, its schema too, in the -wal until a
# checkpoint: the file's header still says no schema.  It was refused for
# good as "an incomplete orderly game file"; SQLite reads it, and so does
# orderly now.  made_in_log SRC DEST [SQL]: DEST with SRC's pages (or, with
# SQL, only that) written while a reader held the log.
made_in_log() {
	python3 - "$@" <<'PY'
import sqlite3, sys
src, dest = sys.argv[1], sys.argv[2]
s = sqlite3.connect(src)
w = sqlite3.connect(dest, isolation_level=None)
w.execute("PRAGMA application_id=%d" % s.execute("PRAGMA application_id").fetchone()[0])
w.execute("PRAGMA journal_mode=WAL")
r = sqlite3.connect("file:%s?mode=ro" % dest, uri=True)
r.execute("SELECT count(*) FROM sqlite_schema").fetchone()
if len(sys.argv) > 3:
    w.execute(sys.argv[3])
else:
    s.backup(w)
w.close(); r.close(); s.close()
PY
}
if command -v python3 >/dev/null 2>&1; then
	made_in_log g.game inlog.game
	[[ -s inlog.game-wal ]] || fail "the game's pages are not in its log (fix the test)"
	[[ "$(od -An -tu1 -j60 -N4 inlog.game | tr -d ' ')" == 0000 ]] ||
		fail "the header of inlog.game states a schema (fix the test)"
	expect_exit 0 ord info inlog.game
	expect_in "$OUT" "ruleset:   battalion"
	expect_exit 0 ord audit inlog.game
	expect_in "$OUT" "clean"
	# a log that holds no schema either: incomplete, as a file without one
	made_in_log g.game nothing.game "CREATE TABLE t(a)"
	expect_exit 65 ord info nothing.game
	expect_in "$ERR" "'nothing.game' is an incomplete orderly game file (no schema)"
	rm -f nothing.game-wal nothing.game-shm
	expect_exit 65 ord info nothing.game
	expect_in "$ERR" "'nothing.game' is an incomplete orderly game file (no schema)"
else
	note "SKIP: python3 is not installed (a game whose schema is in its log)"
fi

note "ok"
