-- 011_scenario_apart.sql: the scenario file in a row of its own.  It
-- lists every unit (12 MB at 100,000 units), and a column in the game's
-- row put it in the way of every read of the game's settings: opening a
-- game read and hashed it each time.  Now it is read where it is used
-- (a bundle, the audit, the opening of the next turn) (issue 15).
CREATE TABLE game_scenario (
	id        INTEGER PRIMARY KEY CHECK (id = 1),
	scenario  BLOB NOT NULL                                  -- the scenario file as received
);
INSERT INTO game_scenario(id, scenario) SELECT 1, scenario FROM game;
UPDATE game SET scenario = X'';
