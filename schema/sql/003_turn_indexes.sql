-- 003_turn_indexes.sql: rolls and results found by turn.
-- A turn's report (its results; the referee's, its rolls too) and the
-- audit's recomputation of each turn's dice select them by turn; without
-- these indexes each of those reads every roll or result of the whole game,
-- so a report got slower with every turn played and an audit of T turns
-- read the roll table T times.  See docs/benchmarks.md.

CREATE INDEX roll_turn ON roll(turn);
CREATE INDEX result_turn ON result(turn);
