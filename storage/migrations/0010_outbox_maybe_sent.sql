-- The outbox rows an attempt of which may have reached the service (its
-- answer was lost: a timeout, a cut connection, a crash mid-call). Only
-- those are reconciled with the service before they are sent again; an
-- attempt that never left this computer (the address not found, the
-- connection refused, no token) needs no such check. A table of its own,
-- so that the migration can run again over a replica that has it.
CREATE TABLE IF NOT EXISTS outbox_maybe_sent (
    outbox_id INTEGER PRIMARY KEY
);
-- A row already retried by an older version may have reached the service.
INSERT OR IGNORE INTO outbox_maybe_sent(outbox_id)
    SELECT id FROM outbox WHERE attempts > 0 AND state IN ('pending', 'sending');
