-- 009_unit_current.sql: every unit's current state, kept as each phase
-- writes it, so that loading the game now reads one row per unit instead
-- of finding the latest of its history (unit_state stays the record, and
-- audit checks this table against it).
CREATE TABLE unit_current (
	unit_id  INTEGER PRIMARY KEY REFERENCES unit(id),
	state    TEXT NOT NULL
);
INSERT INTO unit_current(unit_id, state)
	SELECT unit_id, state FROM
		(SELECT unit_id, state, max(turn * 1048576 + phase) FROM unit_state GROUP BY unit_id);
-- a unit is looked up by its scenario id or, case-insensitively, its name
CREATE INDEX unit_name ON unit(name COLLATE NOCASE);
