#!/usr/bin/env bash
# test_migrate.sh - a game file of the previous format (schema 9: the
# scenario in the game's row, no index of the sealed orders) is migrated
# when it is opened, mid-turn, and plays on: its sealed turn is checked by
# loading the game, the next turn by the index, and the audit is clean.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need_sqlite3
BFIX=$SRC/tests/fixtures/bundle
cd "$TMP"
unkeyed_scenario scenario.xml

expect_exit 0 ord new g.game --scenario scenario.xml
expect_exit 0 ord submit g.game --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord submit g.game --side red "$BFIX/red-1b.txt"
expect_exit 0 ord seal g.game
scenario_sha=$(sql g.game "SELECT hex(scenario) FROM game_scenario" | sha256sum)

# the file as the previous orderly left it
sql g.game "UPDATE game SET scenario = (SELECT scenario FROM game_scenario);
	DROP TABLE game_scenario; DROP TABLE sealed_order; DROP TABLE event_unit;
	DROP TABLE order_index; DROP INDEX log_kind; ALTER TABLE mail_party DROP COLUMN address_salt;
	PRAGMA user_version = 9;" >/dev/null
expect_eq "$(sql g.game "SELECT hex(scenario) FROM game" | sha256sum)" "$scenario_sha" "the old row"

# opened: migrated, the scenario in its own row and the same bytes
expect_exit 0 ord info g.game
expect_in "$OUT" "turn:      1 (sealed"
expect_eq "$(sql g.game "PRAGMA user_version")" 13 "the schema after the open"
expect_eq "$(sql g.game "SELECT hex(scenario) FROM game_scenario" | sha256sum)" "$scenario_sha" \
	"the scenario after the migration"
expect_eq "$(sql g.game "SELECT length(scenario) FROM game")" 0 "the game row's scenario"
# the turn sealed before it has no index: its events load the game
expect_eq "$(sql g.game "SELECT count(*) FROM order_index")" 0 "turns indexed"
expect_exit 65 ord event g.game move unit=R1 distance=4
expect_in "$ERR" "its order allows 1.5\""
expect_exit 0 ord event g.game move unit=B1 distance=2
for _ in 1 2 3 4 5; do expect_exit 0 ord resolve g.game; done
expect_exit 0 ord exchange g.game
# the next turn is sealed with its index
expect_exit 0 ord submit g.game --side blue "$BFIX/blue-1.txt"
expect_exit 0 ord submit g.game --side red "$BFIX/red-1b.txt"
expect_exit 0 ord seal g.game
expect_eq "$(sql g.game "SELECT group_concat(turn) FROM order_index")" 2 "turns indexed"
expect_exit 65 ord event g.game move unit=R1 distance=4
expect_in "$ERR" "its order allows 1.5\""
expect_exit 0 ord audit g.game
expect_in "$OUT" "clean"
expect_in "$OUT" "the game id, its ruleset, NMR policy, dice, referee, scenario, tables and key are the ones logged"
note "ok"
