-- The full JSON record (1-3 KB) moves beside work_orders, one row each, so the
-- table the list and search read stays narrow: a 50,000-row list then reads
-- a few MB instead of tens, and row lookups touch far fewer pages.
CREATE TABLE work_order_json (
    id   INTEGER PRIMARY KEY REFERENCES work_orders(id) ON DELETE CASCADE,
    json TEXT NOT NULL
);
INSERT INTO work_order_json(id, json) SELECT id, json FROM work_orders;
ALTER TABLE work_orders DROP COLUMN json;

-- The list never ranks matches, so FTS5 need not keep per-document sizes.
-- (columnsize is fixed at creation: the index is recreated and rebuilt.)
DROP TABLE work_orders_fts;
CREATE VIRTUAL TABLE work_orders_fts USING fts5(
    number, customer_name, site, address, description,
    content='work_orders', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2',
    prefix='2', columnsize=0
);
INSERT INTO work_orders_fts(work_orders_fts) VALUES ('rebuild');

-- Dated columns sort with "none" last, so their indexes are on that order.
DROP INDEX work_orders_scheduled;
DROP INDEX work_orders_deadline;
CREATE INDEX work_orders_scheduled ON work_orders(scheduled_start IS NULL, scheduled_start);
CREATE INDEX work_orders_deadline ON work_orders(next_deadline IS NULL, next_deadline);

-- A big sync (the first one above all) writes its rows with the index
-- switched off and rebuilds it once at the end: FTS5 flushes and merges its
-- index at every commit, which made indexing cost more than the whole
-- download, while a rebuild of 10,000 rows takes under a tenth of a second.
-- A row here means "the index is being rebuilt after a bulk write"; Open
-- finishes the job if the app died first.
CREATE TABLE fts_deferred (since INTEGER NOT NULL);

DROP TRIGGER work_orders_fts_insert;
DROP TRIGGER work_orders_fts_delete;
DROP TRIGGER work_orders_fts_update;

CREATE TRIGGER work_orders_fts_insert AFTER INSERT ON work_orders
WHEN NOT EXISTS (SELECT 1 FROM fts_deferred)
BEGIN
    INSERT INTO work_orders_fts(rowid, number, customer_name, site, address, description)
    VALUES (new.id, new.number, new.customer_name, new.site, new.address, new.description);
END;

CREATE TRIGGER work_orders_fts_delete AFTER DELETE ON work_orders
WHEN NOT EXISTS (SELECT 1 FROM fts_deferred)
BEGIN
    INSERT INTO work_orders_fts(work_orders_fts, rowid, number, customer_name, site, address, description)
    VALUES ('delete', old.id, old.number, old.customer_name, old.site, old.address, old.description);
END;

CREATE TRIGGER work_orders_fts_update AFTER UPDATE ON work_orders
WHEN (old.number IS NOT new.number OR old.customer_name IS NOT new.customer_name
  OR old.site IS NOT new.site OR old.address IS NOT new.address
  OR old.description IS NOT new.description)
  AND NOT EXISTS (SELECT 1 FROM fts_deferred)
BEGIN
    INSERT INTO work_orders_fts(work_orders_fts, rowid, number, customer_name, site, address, description)
    VALUES ('delete', old.id, old.number, old.customer_name, old.site, old.address, old.description);
    INSERT INTO work_orders_fts(rowid, number, customer_name, site, address, description)
    VALUES (new.id, new.number, new.customer_name, new.site, new.address, new.description);
END;
