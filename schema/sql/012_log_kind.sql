-- 012_log_kind.sql: the last log entry of a kind (the turn's opening, which
-- every open of the game compares its settings with) found by index, not
-- by walking back over every event of the turn (issue 15).
CREATE INDEX log_kind ON log(kind);
