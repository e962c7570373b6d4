-- A desktop's write, committed before the hub sends it to the service: its
-- intent. After a crash, a lost answer or a retry with its MessageId, the
-- hub finds it here and asks the service whether the write took effect
-- before sending it again (the service is not documented to drop a
-- repeated MessageId). Its audit rows and events are written from it.
CREATE TABLE intents (
    id          bigserial PRIMARY KEY,
    person_id   bigint      NOT NULL REFERENCES people (id),
    message_id  text        NOT NULL,
    method      text        NOT NULL,
    route       text        NOT NULL,  -- the path as routes match it (lower case)
    path        text        NOT NULL,  -- as the desktop sent it, for the audit
    kind        text        NOT NULL,  -- the outbox's action kind
    work_orders bigint[]    NOT NULL,
    -- The write as the landed checks read it (never a file's content).
    request     text        NOT NULL,
    -- sending: committed, maybe sent, no answer recorded (in doubt until
    --          the service is asked); answered: the service took it (status
    --          200, answer); refused: the service answered otherwise;
    --          unknown: in doubt, and nothing can tell (409 "outcome unknown");
    --          unsent: was in doubt, and the service said it did not take it.
    state       text        NOT NULL,
    status      int,
    answer      text,
    attempts    int         NOT NULL DEFAULT 1,
    created     timestamptz NOT NULL DEFAULT now(),
    updated     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (person_id, message_id, method, route)
);
-- The writes in doubt, for the sweep that settles those no desktop retries.
CREATE INDEX intents_sending ON intents (updated) WHERE state = 'sending';
-- What the landed checks count: the writes of a kind the service took, per work order.
CREATE INDEX intents_answered ON intents USING gin (work_orders) WHERE state = 'answered';
