-- 016_mail_pass_pending.sql: a passphrase check still running is told from
-- a wrong passphrase (judge.c J12).  Until 015 every row counted as wrong,
-- so mail-in processes that checked right passphrases at once filled the
-- count and the next mail was refused as if guessed (a test of twelve at
-- once: three of eight mails of the referee's own refused).  A row is
-- written pending before its check, made wrong (0) when the check fails and
-- taken away when it holds; a pending row older than the judge's limit is a
-- check that never finished, and counts as wrong.  Rows of 015 were wrong.
ALTER TABLE mail_pass_fail ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
