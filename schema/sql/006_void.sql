-- 006_void.sql: a recorded event can be voided (with a reason) before its
-- phase is resolved, and recorded again: the log stays append-only (a
-- "void" entry names the event), the event row keeps what voided it, and
-- audit lists every voided event.
ALTER TABLE event ADD COLUMN void_log INTEGER REFERENCES log(seq);  -- the "void" entry, or NULL
ALTER TABLE event ADD COLUMN void_reason TEXT;                      -- the referee's reason
CREATE INDEX event_phase ON event(turn, phase, seq);
