-- 002_keys.sql: signatures.  The game's own Ed25519 key (the referee's),
-- which signs the heads of the log and every exported turn bundle; the
-- players' signatures over their commitments; referee-less games, where a
-- side first sends only a signed commitment and opens it after the seal;
-- and the signed heads handed to the sides at each seal and exchange.
-- See docs/threat-model.md.

ALTER TABLE game ADD COLUMN referee_pubkey BLOB;        -- the game's Ed25519 public key (32 bytes)
ALTER TABLE game ADD COLUMN referee_seckey BLOB;        -- its secret key (64 bytes), NULL when the referee keeps it in a file
ALTER TABLE game ADD COLUMN refereeless INTEGER NOT NULL DEFAULT 0;  -- 1: sides commit first, open after the seal

ALTER TABLE sheet ADD COLUMN signature BLOB;            -- the side's signature over the commitment, or NULL

-- A side's signed commitment sent before its sheet (referee-less games).
-- The sheet row of the same (turn, side, version) appears when it is opened.
CREATE TABLE commitment (
	id          INTEGER PRIMARY KEY,
	turn        INTEGER NOT NULL REFERENCES turn(turn),
	side_id     INTEGER NOT NULL REFERENCES side(id),
	version     INTEGER NOT NULL,                        -- shares the numbering of the side's sheets
	commitment  BLOB NOT NULL CHECK (length(commitment) = 32),
	signature   BLOB NOT NULL CHECK (length(signature) = 64),
	log_seq     INTEGER NOT NULL REFERENCES log(seq),
	UNIQUE (turn, side_id, version)
);

-- The head of the log as signed at a seal or an exchange.  Not part of the
-- chain (a signature over an entry cannot be inside it); audit checks each
-- against the chain and the game's key.
CREATE TABLE head (
	seq        INTEGER PRIMARY KEY REFERENCES log(seq),  -- the entry signed
	turn       INTEGER NOT NULL,
	at         TEXT NOT NULL CHECK (at IN ('seal', 'exchange')),
	hash       BLOB NOT NULL CHECK (length(hash) = 32),
	signature  BLOB NOT NULL CHECK (length(signature) = 64)
);

CREATE INDEX commitment_log ON commitment(log_seq);
