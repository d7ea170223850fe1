-- 015_mail_pass_fail.sql: the passphrases mail-in checks per party, so that
-- anyone who knows a player's address cannot guess his passphrase by mail
-- without end (judge.c J12).  A row is written before the passphrase of a
-- mail is checked (so that mail-in processes running at once are counted
-- together) and taken away when it was the right one: what is left is a
-- wrong passphrase, or a check that never finished.  Past pass_tries of
-- them in an hour the party's passphrases are not checked for an hour
-- after the last one.
CREATE TABLE mail_pass_fail (
	party     TEXT NOT NULL,                     -- a side's name, '' for the referee
	at        INTEGER NOT NULL,                  -- unix seconds (the game's clock)
	inbox_id  INTEGER NOT NULL,                  -- the mail whose passphrase it was
	sender    TEXT NOT NULL                      -- its From: and Return-Path: as written
);
CREATE INDEX mail_pass_fail_party ON mail_pass_fail(party, at);
-- wrong passphrases of a party an hour before its passphrases are not
-- checked (register --passphrase-tries); 0: the judge's default
ALTER TABLE mail_config ADD COLUMN pass_tries INTEGER NOT NULL DEFAULT 0;
