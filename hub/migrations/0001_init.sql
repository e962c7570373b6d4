-- The hub's shared state. Work orders keep the service's JSON as text (read
-- back byte for byte) plus the columns a search filters on.
CREATE TABLE work_orders (
    id             bigint PRIMARY KEY,
    number         text        NOT NULL,
    status         text        NOT NULL,
    customer_id    bigint      NOT NULL,
    created        timestamptz,
    last_update    timestamptz NOT NULL,
    acknowledge_by timestamptz,
    on_site_by     timestamptz,
    due_date       timestamptz,
    basic          text        NOT NULL, -- the search answer's item
    doc            text        NOT NULL  -- the full work order
);
CREATE INDEX work_orders_last_update ON work_orders (last_update, id);
CREATE INDEX work_orders_number ON work_orders (lower(number));

-- Staff accounts: the secret is kept only as a bcrypt hash.
CREATE TABLE people (
    id          bigserial PRIMARY KEY,
    name        text        NOT NULL UNIQUE,
    client_id   text        NOT NULL UNIQUE,
    secret_hash text        NOT NULL,
    disabled    boolean     NOT NULL DEFAULT false,
    created     timestamptz NOT NULL DEFAULT now()
);

-- Access tokens handed to desktops, kept as SHA-256 digests.
CREATE TABLE tokens (
    digest    bytea PRIMARY KEY,
    person_id bigint      NOT NULL REFERENCES people (id),
    expires   timestamptz NOT NULL
);
CREATE INDEX tokens_expires ON tokens (expires);

-- Every verified notification of the service and every action forwarded for
-- a person; id is the Server-Sent Events id.
CREATE TABLE events (
    id            bigserial PRIMARY KEY,
    message_id    text        NOT NULL,
    action        text        NOT NULL,
    work_order_id bigint      NOT NULL,
    received      timestamptz NOT NULL DEFAULT now(),
    body          text        NOT NULL,
    UNIQUE (message_id, action, work_order_id)
);

-- Who did what through the hub, and what the service answered.
CREATE TABLE audit (
    id            bigserial PRIMARY KEY,
    at            timestamptz NOT NULL DEFAULT now(),
    person_id     bigint      NOT NULL REFERENCES people (id),
    work_order_id bigint,
    method        text        NOT NULL,
    path          text        NOT NULL,
    message_id    text        NOT NULL,
    status        int         NOT NULL,
    answer        text        NOT NULL
);
CREATE INDEX audit_work_order ON audit (work_order_id, id);

-- Event streams open now, on any instance; an instance refreshes seen while
-- its stream lives, so rows of a dead instance age out.
CREATE TABLE streams (
    id        bigserial PRIMARY KEY,
    instance  text        NOT NULL,
    person_id bigint      NOT NULL REFERENCES people (id),
    opened    timestamptz NOT NULL DEFAULT now(),
    seen      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sync_state (
    key   text PRIMARY KEY,
    value text NOT NULL
);
