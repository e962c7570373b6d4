-- What the service held just before a write was first sent, that its
-- landed check compares against (outbox.Entry.Before): for a message or a
-- file, how many like it were there, so that one posted by another of the
-- company's systems earlier is never taken for the office's. NULL for the
-- kinds that need none, and for intents an older hub wrote: a write in
-- doubt that needs it and has none is answered 409 "outcome unknown".
ALTER TABLE intents ADD COLUMN IF NOT EXISTS landed_base text;
-- The landed checks no longer count the writes the service took.
DROP INDEX IF EXISTS intents_answered;
