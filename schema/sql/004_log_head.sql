-- 004_log_head.sql: the head of the log gets a row of its own.  It was kept
-- in the game row beside the scenario and the tables, so every log entry
-- rewrote (and first reread) those blobs: 178 ms per entry with the
-- scenario of a 100,000-unit game (docs/benchmarks.md).
CREATE TABLE log_head (
	id    INTEGER PRIMARY KEY CHECK (id = 1),
	seq   INTEGER NOT NULL,                                   -- last log entry
	hash  BLOB CHECK (hash IS NULL OR length(hash) = 32)      -- and its hash
);
INSERT INTO log_head(id, seq, hash) SELECT 1, head_seq, head_hash FROM game;
ALTER TABLE game DROP COLUMN head_seq;
ALTER TABLE game DROP COLUMN head_hash;
