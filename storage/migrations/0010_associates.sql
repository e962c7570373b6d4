-- Associates (technicians and subcontractors) per branch, as GET
-- /api/associates last listed them; the branches the replica's work orders
-- belong to, and when each list was read (NULL: never).
CREATE TABLE IF NOT EXISTS associate_branches (
    branch_id  INTEGER PRIMARY KEY,
    fetched_at INTEGER
);

CREATE TABLE IF NOT EXISTS associates (
    branch_id INTEGER NOT NULL,
    id        INTEGER NOT NULL,
    name      TEXT    NOT NULL DEFAULT '',
    type      TEXT    NOT NULL DEFAULT '',
    position  INTEGER NOT NULL DEFAULT 0, -- the list's own order
    PRIMARY KEY (branch_id, id)
) WITHOUT ROWID;

-- Who each work order is assigned to, as its record says, kept beside the
-- record so the list can filter by it without reading the JSON. A work
-- order whose record lists nobody has one row with associate_id 0; one
-- whose record does not say (the field is a guess) has none: unknown.
CREATE TABLE IF NOT EXISTS work_order_associates (
    work_order_id INTEGER NOT NULL REFERENCES work_orders(id) ON DELETE CASCADE,
    associate_id  INTEGER NOT NULL,
    name          TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (work_order_id, associate_id)
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS work_order_associates_by_associate ON work_order_associates(associate_id);

-- Records stored before this version are read again by the next sync
-- (their LastUpdate and the sync's high-water mark are forgotten), so they
-- name their branch and associates.
UPDATE work_orders SET last_update = 0;
DELETE FROM settings WHERE key = 'sync.high_water';
