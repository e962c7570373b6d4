-- A bulk write (a first sync above all) also drops the work_orders triggers
-- and sort indexes and rebuilds them once at the end: keeping ten indexes and
-- a trigger program in step row by row made the single writer, not the
-- network, set the pace of a first sync. Their definitions wait here,
-- written in the transaction that drops them, so that the rebuild (or Open,
-- after a crash) recreates exactly what was there.
CREATE TABLE bulk_deferred_schema (
    name TEXT PRIMARY KEY,
    type TEXT NOT NULL,   -- 'index' or 'trigger'
    sql  TEXT NOT NULL
);
