-- 005_protocol2.sql: log protocol 2 (docs/threat-model.md, "What a player
-- holds").  Files of schema 4 or older were written with log protocol 1,
-- whose history cannot give these guarantees: they are refused unchanged
-- (src/store/store.c), so this migration only ever runs on a new file.

-- the protocol the game's log is written in, and witnessed dice (opt-in)
ALTER TABLE game ADD COLUMN protocol INTEGER NOT NULL DEFAULT 1;
ALTER TABLE game ADD COLUMN witnessed INTEGER NOT NULL DEFAULT 0;

-- witnessed games: the top of the side's witness chain, bound by the sheet's
-- commitment; the referee's own chain start for the turn (secret until the
-- exchange); each link a side reveals, per phase
ALTER TABLE sheet ADD COLUMN witness BLOB CHECK (witness IS NULL OR length(witness) = 32);
ALTER TABLE turn ADD COLUMN referee_witness BLOB
	CHECK (referee_witness IS NULL OR length(referee_witness) = 32);
CREATE TABLE witness (
	id       INTEGER PRIMARY KEY,
	turn     INTEGER NOT NULL REFERENCES turn(turn),
	idx      INTEGER NOT NULL,                          -- the phase, 1-based
	side_id  INTEGER NOT NULL REFERENCES side(id),
	link     BLOB NOT NULL CHECK (length(link) = 32),
	log_seq  INTEGER NOT NULL REFERENCES log(seq),
	UNIQUE (turn, idx, side_id)
);
CREATE INDEX witness_log ON witness(log_seq);

-- signed heads also at a game's opening and at the close of a phase's
-- events, and the seed commitment an opening or exchange head carries
CREATE TABLE head_v2 (
	seq              INTEGER PRIMARY KEY REFERENCES log(seq),
	turn             INTEGER NOT NULL,
	at               TEXT NOT NULL CHECK (at IN ('open', 'seal', 'close', 'exchange')),
	hash             BLOB NOT NULL CHECK (length(hash) = 32),
	seed_commitment  BLOB CHECK (seed_commitment IS NULL OR length(seed_commitment) = 32),
	signature        BLOB NOT NULL CHECK (length(signature) = 64)
);
INSERT INTO head_v2(seq, turn, at, hash, signature) SELECT seq, turn, at, hash, signature FROM head;
DROP TABLE head;
ALTER TABLE head_v2 RENAME TO head;

-- entries of a kind in a turn (the phases resolved, the close of a phase)
-- and a side's units are found without a scan
CREATE INDEX log_turn_kind ON log(turn, kind);
CREATE INDEX unit_side ON unit(side_id);
