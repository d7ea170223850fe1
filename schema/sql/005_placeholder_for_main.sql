-- 005_placeholder_for_main.sql: an empty migration on branch `mail` only.
-- main's own 005 (written concurrently) replaces this file at the merge:
-- delete this one then, or migrations 005 would be two files.
SELECT 1;
