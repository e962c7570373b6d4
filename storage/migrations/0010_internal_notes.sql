-- The internal note of each work order as its history (GET
-- /api/workOrder/noteHistory) last said: every version, oldest first, with
-- who wrote it and when. Read when a work order is refreshed, when the
-- note changed (InternalNoteChanged, a colleague's edit through the hub)
-- and before an edit of ours is sent.
CREATE TABLE IF NOT EXISTS internal_notes (
    work_order_id INTEGER PRIMARY KEY,
    fetched_at    INTEGER NOT NULL,
    json          TEXT    NOT NULL   -- []api.NoteEntry
);
