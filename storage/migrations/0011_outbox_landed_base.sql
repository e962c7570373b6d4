-- What the service held, just before a row was first sent, that its landed
-- check compares against (outbox.Entry.Before): for a message or a file,
-- how many like it were there, so that one someone else posted earlier is
-- never taken for ours when an answer is lost. A table of its own, so that
-- the migration can run again over a replica that has it; a row without
-- one (queued by an older version and in doubt) cannot be settled, and the
-- person decides.
CREATE TABLE IF NOT EXISTS outbox_landed_base (
    outbox_id INTEGER PRIMARY KEY,
    base      TEXT NOT NULL
);
