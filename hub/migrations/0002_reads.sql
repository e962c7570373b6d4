-- The service's answers to the reads desktops make besides work orders
-- (messages, attachment lists, the invoice, the price list, invoice and
-- step attachment lists, customer settings), kept so desktops are answered
-- from here. Never a download link: those are fetched fresh every time.
CREATE SEQUENCE reads_version;

CREATE TABLE reads (
    kind          text        NOT NULL, -- the read's path, e.g. /api/messages
    key           text        NOT NULL, -- its keys: a work order id, "id/procedure/step", a customer id
    work_order_id bigint,               -- the work order whose writes and notifications refresh it
    customer_id   bigint,
    status        int         NOT NULL, -- 200, or a refusal the service repeats for these keys (400, 404)
    body          text        NOT NULL, -- the service's JSON
    -- From reads_version when its fetch began: a fetch that began earlier
    -- never overwrites what a later one stored.
    version       bigint      NOT NULL,
    -- A write or notification changed it and the refresh failed: the next
    -- desktop to ask fetches it again, and gets this one if it cannot.
    stale         boolean     NOT NULL DEFAULT false,
    fetched       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kind, key)
);
CREATE INDEX reads_work_order ON reads (work_order_id);
