-- 008_mail.sql: the mail judge (issue 12, docs/pbem.md).
-- Who may act by mail and how he proves it, the schedule of deadlines,
-- every message received (raw, before it is processed), every message to
-- send (queued in the same transaction as the change that causes it), and
-- the count of replies per sender.  Registrations and the schedule are
-- also logged in the hash chain (kinds mail-address, mail-passphrase,
-- mail-pgp, mail-config, schedule), so that audit can check these rows.

CREATE TABLE mail_party (
	party      TEXT PRIMARY KEY,                 -- a side's name, '' for the referee
	address    TEXT,                             -- registered address, lowercase
	pass_hash  TEXT,                             -- crypto_pwhash_str of the passphrase
	pgp_key    BLOB,                             -- armored OpenPGP public key
	pgp_fpr    TEXT,                             -- its fingerprint, uppercase hex
	log_seq    INTEGER REFERENCES log(seq)       -- the last log entry about this row
);

CREATE TABLE mail_config (
	id         INTEGER PRIMARY KEY CHECK (id = 1),
	judge      TEXT NOT NULL DEFAULT '',         -- the judge's address (orderly@host)
	per_hour   INTEGER NOT NULL DEFAULT 30,      -- replies to one sender in an hour
	schedule   TEXT NOT NULL DEFAULT 'none',     -- ord_schedule_format text
	seen_seq   INTEGER NOT NULL DEFAULT 0,       -- log seq tick last looked at
	next_due   INTEGER NOT NULL DEFAULT 0        -- when tick must look again (0: not for time)
);
INSERT INTO mail_config(id) VALUES (1);

CREATE TABLE mail_inbox (
	id          INTEGER PRIMARY KEY,
	message_id  TEXT NOT NULL UNIQUE,            -- as received, or one made from the bytes
	sender      TEXT NOT NULL,                   -- From: as written
	received    INTEGER NOT NULL,                -- unix seconds
	raw         BLOB NOT NULL,                   -- the message exactly as the MTA gave it
	state       TEXT NOT NULL DEFAULT 'new' CHECK (state IN ('new', 'done')),
	result      TEXT NOT NULL DEFAULT '',        -- what was done, one line
	done        INTEGER                          -- unix seconds
);

CREATE TABLE mail_outbox (
	id          INTEGER PRIMARY KEY,
	key         TEXT UNIQUE,                     -- kind/turn/side of a mail sent once, or NULL
	message_id  TEXT NOT NULL UNIQUE,            -- kept on every re-send
	rcpt        TEXT NOT NULL,
	bytes       BLOB NOT NULL,                   -- the whole message, RFC 5322
	queued      INTEGER NOT NULL,
	sent        INTEGER                          -- unix seconds, NULL while unsent
);
CREATE INDEX mail_outbox_unsent ON mail_outbox(id) WHERE sent IS NULL;

CREATE TABLE mail_rate (
	address  TEXT NOT NULL,
	at       INTEGER NOT NULL                    -- unix seconds of a reply
);
CREATE INDEX mail_rate_address ON mail_rate(address, at);
