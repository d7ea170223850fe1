-- 007_result_text.sql: a result written in several languages keeps each
-- apart, one row per language in the module's order (pos 0 is the module's
-- own, the same text as result.explanation); a result in one language has
-- no rows.  A front-end shows the language its reader asks for without
-- cutting a string.
CREATE TABLE result_text (
	result  INTEGER NOT NULL REFERENCES result(id),
	pos     INTEGER NOT NULL,
	lang    TEXT NOT NULL,
	text    TEXT NOT NULL,
	PRIMARY KEY (result, pos),
	UNIQUE (result, lang)
) WITHOUT ROWID;
