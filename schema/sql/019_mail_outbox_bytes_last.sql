-- 019_mail_outbox_bytes_last.sql: the outbox's bytes its last column, and
-- whether a mail was sent in a table of its own (issue 15: peak memory).
-- SQLite leaves a zeroblob unmade only as a record's last column, and an
-- UPDATE writes the whole record again: with the bytes before queued and
-- sent, queueing a mail of a file (zeroblob, then incremental blob I/O)
-- made the zeros of the whole mail in memory, and marking it sent
-- rewrote the row, its bytes too (a bundle mail of 100,000 units is
-- about 200 MB).  Now the bytes are written a piece at a time into a
-- zeroblob at the row's end, and the mark is a row of mail_sent, which
-- never touches them.  Every mail has its row in mail_sent, NULL while
-- unsent, so the unsent are found by a partial index as before.
--
-- The old rows are copied with zeros of their bytes' length here;
-- store.c copies the bytes after this file, a piece at a time, and
-- 020_mail_outbox_old.sql drops the old table.
DROP INDEX mail_outbox_unsent;
ALTER TABLE mail_outbox RENAME TO mail_outbox_old;
CREATE TABLE mail_outbox (
	id          INTEGER PRIMARY KEY,
	key         TEXT UNIQUE,                     -- kind/turn/side of a mail sent once, or NULL
	message_id  TEXT NOT NULL UNIQUE,            -- kept on every re-send
	rcpt        TEXT NOT NULL,
	queued      INTEGER NOT NULL,                -- unix seconds
	bytes       BLOB NOT NULL                    -- the whole message, RFC 5322: last (above)
);
CREATE TABLE mail_sent (
	id    INTEGER PRIMARY KEY REFERENCES mail_outbox(id),
	sent  INTEGER                                -- unix seconds, NULL while unsent
);
CREATE INDEX mail_sent_unsent ON mail_sent(id) WHERE sent IS NULL;
-- length() of a blob is read from its row's header, not its pages; a
-- mail queued by hand as text (the sqlite3 shell's 'Subject: ...') has
-- its length in characters, so its bytes are counted as a blob's (it is
-- copied as its bytes are: the blob I/O reads a text so)
INSERT INTO mail_outbox(id, key, message_id, rcpt, queued, bytes)
	SELECT id, key, message_id, rcpt, queued,
		zeroblob(CASE typeof(bytes) WHEN 'blob' THEN length(bytes) ELSE length(CAST(bytes AS BLOB)) END)
	FROM mail_outbox_old;
INSERT INTO mail_sent(id, sent) SELECT id, sent FROM mail_outbox_old;
