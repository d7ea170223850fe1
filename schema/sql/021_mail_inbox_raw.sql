-- 021_mail_inbox_raw.sql: each mail's bytes in a table of their own, and
-- the inbox's row small (issue 15).  The inbox kept a mail whole in its
-- row, and SQLite's UPDATE reads a record whole and writes it again: each
-- change of a mail's row (its state, result and time when it is answered,
-- the step a referee's mail of several changes has come to) read and
-- wrote its bytes, so a mail was written at least twice (100 mails of 20
-- KiB marked done wrote 7.1 MB, 3.5 times their bytes).  Now a mail's
-- bytes are a row of mail_inbox_raw, written once as it comes in (and
-- once more, cut, when no proof of it held: judge.c J9), and what changes
-- is mail_inbox's row alone.  Every mail has a row in each.
--
-- The old rows are copied, their bytes as they were (a text the sqlite3
-- shell stored stays a text): an INSERT ... SELECT holds one mail at a
-- time, at most what mail-in takes (32 MiB) and holds whole as it reads it.
ALTER TABLE mail_inbox RENAME TO mail_inbox_old;
CREATE TABLE mail_inbox (
	id          INTEGER PRIMARY KEY,
	message_id  TEXT NOT NULL UNIQUE,            -- as received, or one made from the bytes
	sender      TEXT NOT NULL,                   -- From: as written
	received    INTEGER NOT NULL,                -- unix seconds
	state       TEXT NOT NULL DEFAULT 'new' CHECK (state IN ('new', 'done')),
	result      TEXT NOT NULL DEFAULT '',        -- what was done, one line
	done        INTEGER                          -- unix seconds
);
CREATE TABLE mail_inbox_raw (
	id   INTEGER PRIMARY KEY REFERENCES mail_inbox(id),
	raw  BLOB NOT NULL                           -- the message as the MTA gave it (but J9, a
	                                             -- passphrase's value: docs/pbem.md)
);
INSERT INTO mail_inbox(id, message_id, sender, received, state, result, done)
	SELECT id, message_id, sender, received, state, result, done FROM mail_inbox_old;
INSERT INTO mail_inbox_raw(id, raw) SELECT id, raw FROM mail_inbox_old ORDER BY id;
DROP TABLE mail_inbox_old;
