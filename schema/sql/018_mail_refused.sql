-- 018_mail_refused.sql: the bundles the mail judge's own check refused
-- (notices.c: the game file changed outside orderly since the turn was
-- played), each with the state of the file it was refused for
-- (ord_game_export_state: a hash of the bundle as the file gives it,
-- made without the check), so that a mail or tick does not make and
-- check it again while the file stays as it was: a refused export was
-- made and checked at every mail and tick (at 100,000 units 18 s each,
-- under the game's lock).  Its row goes when the bundle is mailed.  Not
-- logged: no proof rests on it.
CREATE TABLE mail_refused (
	turn   INTEGER PRIMARY KEY,                          -- the turn whose bundle was refused
	state  BLOB NOT NULL CHECK (length(state) = 32)      -- the file's state it was refused for
);
