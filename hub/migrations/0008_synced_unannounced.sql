-- When an incremental sync stored a change to a work order (or a work
-- order new since the last sync) that no notification's event has told
-- desktops of yet: the customer's notification of it, arriving after the
-- sync, still makes an event, though its re-read finds the record as the
-- hub holds it. NULL once told, or when nothing is untold.
ALTER TABLE work_orders ADD COLUMN IF NOT EXISTS synced_unannounced timestamptz;
