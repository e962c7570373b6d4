-- The work orders whose searched text may have changed, in commit order:
-- putRows, the one writer of work_orders rows, adds the ids it wrote in the
-- same transaction. The window's in-memory search index (search_index.go)
-- reads what is new since it last looked, so it follows every write, this
-- process's or another's, without a trigger on each row. Only the newest
-- entries are kept (searchChangesKept); an index that fell further behind
-- is built again.
CREATE TABLE IF NOT EXISTS search_changes (
    seq INTEGER PRIMARY KEY,
    id  INTEGER NOT NULL
);
