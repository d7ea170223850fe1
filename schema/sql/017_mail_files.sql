-- 017_mail_files.sql: the name the files the judge mails of this game
-- begin with (docs/pbem.md, "The files the judge mails"), kept from the
-- first mail that named a file, so that they keep it for the whole game:
-- the game's name then, made a file name ('crossroads': crossroads-open-3.head),
-- or '' for a game an orderly before game-named files mailed (open-3.head).
-- NULL until the judge names a file; for a game mailed before this
-- column, the judge reads it from the names its outbox holds.  Not logged:
-- it is how files are named, and no proof rests on it.
ALTER TABLE mail_config ADD COLUMN files TEXT;
