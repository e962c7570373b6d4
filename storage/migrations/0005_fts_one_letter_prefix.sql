-- Two- and three-letter prefix indexes tripled the cost of building the
-- search index (a first sync builds it once, at the end, while the user
-- waits) and made search as you type no faster: FTS5 merges the terms under
-- a two-letter prefix quickly. One-letter prefixes stay, since merging every
-- term under "s" is what would be slow.
DROP TABLE work_orders_fts;
CREATE VIRTUAL TABLE work_orders_fts USING fts5(
    number, customer_name, site, address, description,
    content='work_orders', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2',
    prefix='1', columnsize=0
);
INSERT INTO work_orders_fts(work_orders_fts) VALUES ('rebuild');
