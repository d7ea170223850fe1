-- 020_mail_outbox_old.sql: the outbox of before 019, its rows and their
-- bytes copied (019_mail_outbox_bytes_last.sql, and store.c's step after
-- it), dropped.
DROP TABLE mail_outbox_old;
