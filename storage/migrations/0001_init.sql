-- Replica of the service's work orders plus what the app itself owns
-- (outbox, events, settings). Times are INTEGER unix milliseconds (UTC) so
-- that comparisons and sorts are plain integer work; money stays TEXT decimal.

CREATE TABLE work_orders (
    id              INTEGER PRIMARY KEY,            -- WorkOrderId
    number          TEXT    NOT NULL DEFAULT '',
    status          TEXT    NOT NULL DEFAULT '',
    customer_id     INTEGER NOT NULL DEFAULT 0,
    customer_name   TEXT    NOT NULL DEFAULT '',
    site            TEXT    NOT NULL DEFAULT '',    -- ServiceLocation.SpaceName
    address         TEXT    NOT NULL DEFAULT '',    -- ServiceLocation.Address, one line
    currency        TEXT    NOT NULL DEFAULT '',
    nte_amount      TEXT    NOT NULL DEFAULT '0',   -- decimal text, never float
    quote_status    TEXT    NOT NULL DEFAULT '',
    scheduled_start INTEGER,
    acknowledge_by  INTEGER,
    on_site_by      INTEGER,
    due_date        INTEGER,
    last_update     INTEGER,                        -- nanoseconds: the sync's version stamp
    description     TEXT    NOT NULL DEFAULT '',
    json            TEXT    NOT NULL,               -- the full api.WorkOrder
    -- The one SLA date that still matters in this status; the list shows it
    -- and "needs attention" compares it with now, so it must be indexable.
    next_deadline   INTEGER GENERATED ALWAYS AS (
        CASE status
            WHEN 'New' THEN acknowledge_by
            WHEN 'Accepted' THEN on_site_by
            WHEN 'Paused' THEN on_site_by
            WHEN 'CheckedIn' THEN due_date
            WHEN 'OnHold' THEN due_date
            WHEN 'NeedsCompletionDetails' THEN due_date
        END) STORED
);

CREATE INDEX work_orders_number ON work_orders(number);
CREATE INDEX work_orders_customer ON work_orders(customer_name COLLATE NOCASE);
CREATE INDEX work_orders_site ON work_orders(site COLLATE NOCASE);
CREATE INDEX work_orders_status ON work_orders(status);
CREATE INDEX work_orders_nte ON work_orders(CAST(nte_amount AS REAL));
CREATE INDEX work_orders_currency ON work_orders(currency);
CREATE INDEX work_orders_quote_status ON work_orders(quote_status);
CREATE INDEX work_orders_scheduled ON work_orders(scheduled_start);
CREATE INDEX work_orders_deadline ON work_orders(next_deadline);

-- Full-text index over what people type to find a work order. External
-- content: the text lives once, in work_orders; triggers keep the index in step.
CREATE VIRTUAL TABLE work_orders_fts USING fts5(
    number, customer_name, site, address, description,
    content='work_orders', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2',
    prefix='1 2 3'
);

CREATE TRIGGER work_orders_fts_insert AFTER INSERT ON work_orders BEGIN
    INSERT INTO work_orders_fts(rowid, number, customer_name, site, address, description)
    VALUES (new.id, new.number, new.customer_name, new.site, new.address, new.description);
END;

CREATE TRIGGER work_orders_fts_delete AFTER DELETE ON work_orders BEGIN
    INSERT INTO work_orders_fts(work_orders_fts, rowid, number, customer_name, site, address, description)
    VALUES ('delete', old.id, old.number, old.customer_name, old.site, old.address, old.description);
END;

-- Re-syncs rewrite every row; only a change of indexed text touches the index.
CREATE TRIGGER work_orders_fts_update AFTER UPDATE ON work_orders
WHEN old.number IS NOT new.number OR old.customer_name IS NOT new.customer_name
  OR old.site IS NOT new.site OR old.address IS NOT new.address
  OR old.description IS NOT new.description
BEGIN
    INSERT INTO work_orders_fts(work_orders_fts, rowid, number, customer_name, site, address, description)
    VALUES ('delete', old.id, old.number, old.customer_name, old.site, old.address, old.description);
    INSERT INTO work_orders_fts(rowid, number, customer_name, site, address, description)
    VALUES (new.id, new.number, new.customer_name, new.site, new.address, new.description);
END;

CREATE TABLE price_lists (
    work_order_id INTEGER PRIMARY KEY,
    customer_id   INTEGER NOT NULL DEFAULT 0,
    fetched_at    INTEGER NOT NULL,
    json          TEXT    NOT NULL
);

CREATE TABLE invoices (
    work_order_id INTEGER PRIMARY KEY,
    status        TEXT    NOT NULL DEFAULT '',
    total         TEXT    NOT NULL DEFAULT '0',  -- decimal text, invoice currency
    currency      TEXT    NOT NULL DEFAULT '',
    fetched_at    INTEGER NOT NULL,
    json          TEXT    NOT NULL
);

-- Caches of per-work-order lists, replaced whole on each refresh.
CREATE TABLE messages (
    work_order_id INTEGER PRIMARY KEY,
    fetched_at    INTEGER NOT NULL,
    json          TEXT    NOT NULL
);

CREATE TABLE attachments (
    work_order_id INTEGER NOT NULL,
    kind          TEXT    NOT NULL,  -- 'workorder' or 'invoice'
    fetched_at    INTEGER NOT NULL,
    json          TEXT    NOT NULL,
    PRIMARY KEY (work_order_id, kind)
);

CREATE TABLE events (
    id            INTEGER PRIMARY KEY,
    message_id    TEXT    NOT NULL UNIQUE,
    work_order_id INTEGER NOT NULL,
    action        TEXT    NOT NULL,
    action_date   INTEGER,
    received_at   INTEGER NOT NULL,
    json          TEXT    NOT NULL
);
CREATE INDEX events_work_order ON events(work_order_id, id);

CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    kind            TEXT    NOT NULL,
    summary         TEXT    NOT NULL DEFAULT '',  -- what the person asked for, in words
    work_order_id   INTEGER NOT NULL,          -- first target; 0 never happens
    message_id      TEXT    NOT NULL UNIQUE,
    request         TEXT    NOT NULL,          -- JSON, fixed at enqueue
    spool_file      TEXT    NOT NULL DEFAULT '',
    state           TEXT    NOT NULL,          -- pending, sending, done, failed
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL DEFAULT 0,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    error           TEXT    NOT NULL DEFAULT '',
    error_code      INTEGER NOT NULL DEFAULT 0,
    result          TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX outbox_state ON outbox(state, id);

-- Which work orders a row acts on (a bulk row has several); per work order
-- rows are sent in id order, so this is what ordering is computed from.
CREATE TABLE outbox_targets (
    outbox_id     INTEGER NOT NULL REFERENCES outbox(id) ON DELETE CASCADE,
    work_order_id INTEGER NOT NULL,
    PRIMARY KEY (outbox_id, work_order_id)
);
CREATE INDEX outbox_targets_work_order ON outbox_targets(work_order_id, outbox_id);

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
