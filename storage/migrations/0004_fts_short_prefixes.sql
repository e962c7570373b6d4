-- Search as you type asks for one- and three-letter prefixes as often as
-- two-letter ones; FTS5 answers a prefix from its own index only for the
-- lengths listed here, and otherwise merges every term that starts with it.
DROP TABLE work_orders_fts;
CREATE VIRTUAL TABLE work_orders_fts USING fts5(
    number, customer_name, site, address, description,
    content='work_orders', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2',
    prefix='1 2 3', columnsize=0
);
INSERT INTO work_orders_fts(work_orders_fts) VALUES ('rebuild');
