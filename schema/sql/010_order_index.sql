-- 010_order_index.sql: what checking one event reads, found by index
-- instead of by loading the whole game (issue 15).  Each unit's sealed
-- order, parsed once at the seal, and the units each event names.  Both
-- are derived from the log's rows: the audit's replay checks every event
-- again from the sheets themselves and compares what the checks said.
CREATE TABLE sealed_order (
	turn  INTEGER NOT NULL REFERENCES turn(turn),
	uid   TEXT NOT NULL,        -- the unit's scenario id
	body  TEXT NOT NULL,        -- the parsed order (ord_order_serialize)
	PRIMARY KEY (turn, uid)
) WITHOUT ROWID;
CREATE TABLE event_unit (
	turn  INTEGER NOT NULL,
	uid   TEXT NOT NULL,        -- a unit the event names in a unit key
	seq   INTEGER NOT NULL,     -- the event's number in its turn
	PRIMARY KEY (turn, uid, seq)
) WITHOUT ROWID;
-- the turns sealed since: their orders and every event of them indexed
CREATE TABLE order_index (turn INTEGER PRIMARY KEY REFERENCES turn(turn));
