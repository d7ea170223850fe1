-- 001_init.sql: the first schema of an orderly game file.
-- One game = one file.  Every row that matters is tied to an entry of the
-- hash-chained log (log_seq), so that `orderly audit` can recompute it.

CREATE TABLE game (
	id          INTEGER PRIMARY KEY CHECK (id = 1),
	game_id     BLOB NOT NULL CHECK (length(game_id) = 16),  -- random, binds commitments to this game
	ruleset     TEXT NOT NULL,
	title       TEXT NOT NULL,
	nmr         TEXT NOT NULL CHECK (nmr IN ('hold', 'repeat', 'wait')),
	fixed_dice  INTEGER NOT NULL DEFAULT 0,                  -- 1: a test game, dice given to resolve
	scenario    BLOB NOT NULL,                               -- the scenario file as received
	tables      BLOB,                                        -- the tables in force (NULL: none)
	created     INTEGER NOT NULL,                            -- unix seconds
	head_seq    INTEGER NOT NULL DEFAULT 0,                  -- last log entry
	head_hash   BLOB                                         -- and its hash
);

CREATE TABLE side (
	id      INTEGER PRIMARY KEY,
	name    TEXT NOT NULL UNIQUE,                            -- the side's id in the scenario
	title   TEXT NOT NULL,
	pubkey  BLOB                                             -- a player's Ed25519 key, or NULL
);

CREATE TABLE unit (
	id       INTEGER PRIMARY KEY,
	uid      TEXT NOT NULL UNIQUE,                           -- the unit's id in the scenario
	name     TEXT NOT NULL,
	side_id  INTEGER NOT NULL REFERENCES side(id),
	attrs    TEXT NOT NULL                                   -- key=value lines
);

CREATE TABLE log (
	seq   INTEGER PRIMARY KEY,                               -- 1, 2, 3 ... without gaps
	turn  INTEGER NOT NULL,
	kind  TEXT NOT NULL,
	body  TEXT NOT NULL,                                     -- canonical key=value lines
	at    INTEGER NOT NULL,                                  -- unix seconds (informative, hashed)
	prev  BLOB NOT NULL CHECK (length(prev) = 32),
	hash  BLOB NOT NULL CHECK (length(hash) = 32)
);

CREATE TABLE turn (
	turn             INTEGER PRIMARY KEY,
	state            TEXT NOT NULL CHECK (state IN ('open', 'sealed', 'resolved', 'exchanged')),
	phase            INTEGER NOT NULL DEFAULT 0,             -- phases resolved so far
	deadline         INTEGER,                                -- unix seconds, NULL: none
	seed             BLOB NOT NULL CHECK (length(seed) = 32),-- secret until the exchange
	seed_commitment  BLOB NOT NULL CHECK (length(seed_commitment) = 32),
	dice_key         BLOB,                                   -- fixed at the seal
	log_seq          INTEGER NOT NULL REFERENCES log(seq)
);

CREATE TABLE sheet (
	id          INTEGER PRIMARY KEY,
	turn        INTEGER NOT NULL REFERENCES turn(turn),
	side_id     INTEGER NOT NULL REFERENCES side(id),
	version     INTEGER NOT NULL,
	source      TEXT NOT NULL CHECK (source IN ('submitted', 'hold', 'repeat')),
	bytes       BLOB NOT NULL,                               -- exactly as received
	nonce       BLOB NOT NULL CHECK (length(nonce) = 32),    -- secret until the exchange
	commitment  BLOB NOT NULL CHECK (length(commitment) = 32),
	log_seq     INTEGER NOT NULL REFERENCES log(seq),
	UNIQUE (turn, side_id, version)
);

CREATE TABLE event (
	id        INTEGER PRIMARY KEY,
	turn      INTEGER NOT NULL REFERENCES turn(turn),
	seq       INTEGER NOT NULL,                              -- 1-based within the turn
	phase     TEXT NOT NULL,
	kind      TEXT NOT NULL,
	args      TEXT NOT NULL,                                 -- checked key=value lines
	override  TEXT,                                          -- the referee's reason, or NULL
	checks    TEXT NOT NULL DEFAULT '',                      -- what the checks found
	log_seq   INTEGER NOT NULL REFERENCES log(seq),
	UNIQUE (turn, seq)
);

CREATE TABLE roll (
	id         INTEGER PRIMARY KEY,
	turn       INTEGER NOT NULL REFERENCES turn(turn),
	phase      TEXT NOT NULL,
	event_seq  INTEGER NOT NULL,
	purpose    TEXT NOT NULL,
	idx        INTEGER NOT NULL,
	sides      INTEGER NOT NULL,
	value      INTEGER NOT NULL,
	fixed      INTEGER NOT NULL DEFAULT 0,
	log_seq    INTEGER NOT NULL REFERENCES log(seq) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE result (
	id           INTEGER PRIMARY KEY,
	turn         INTEGER NOT NULL REFERENCES turn(turn),
	phase        TEXT NOT NULL,
	event_seq    INTEGER NOT NULL,
	unit         TEXT NOT NULL,                              -- unit id, '' for none
	vals         TEXT NOT NULL,                              -- key=value lines
	explanation  TEXT NOT NULL,
	log_seq      INTEGER NOT NULL REFERENCES log(seq) DEFERRABLE INITIALLY DEFERRED
);

-- A unit's state after each change: (turn, phase) = (0, 0) is the start;
-- the state at any point is the latest row at or before it.
CREATE TABLE unit_state (
	unit_id  INTEGER NOT NULL REFERENCES unit(id),
	turn     INTEGER NOT NULL,
	phase    INTEGER NOT NULL,
	state    TEXT NOT NULL,
	log_seq  INTEGER NOT NULL REFERENCES log(seq) DEFERRABLE INITIALLY DEFERRED,
	PRIMARY KEY (unit_id, turn, phase)
) WITHOUT ROWID;

CREATE INDEX sheet_log ON sheet(log_seq);
CREATE INDEX event_log ON event(log_seq);
CREATE INDEX roll_log ON roll(log_seq);
CREATE INDEX result_log ON result(log_seq);
CREATE INDEX unit_state_log ON unit_state(log_seq);
