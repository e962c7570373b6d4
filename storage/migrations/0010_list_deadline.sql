-- The list's deadline (api.deadlinesAhead): the SLA date the status still
-- has ahead (next_deadline) or, for finished work (checked out, verified),
-- the date its invoice must be submitted by while it still can be
-- (Invoice.SubmissionDeadline of an editable invoice). The invoice is not a
-- column of work_orders, so putInvoice keeps invoice_deadline beside it;
-- the sync's upsert names its columns and leaves this one alone. VIRTUAL:
-- ALTER TABLE cannot add a STORED column, and the index holds the values.
ALTER TABLE work_orders ADD COLUMN invoice_deadline INTEGER;

UPDATE work_orders SET invoice_deadline = (
    SELECT CAST(round((julianday(json_extract(i.json, '$.SubmissionDeadline')) - 2440587.5) * 86400000) AS INTEGER)
    FROM invoices i
    WHERE i.work_order_id = work_orders.id
      AND i.status NOT IN ('PendingVerification', 'Submitted', 'Authorized', 'Paid'))
WHERE id IN (SELECT work_order_id FROM invoices);

ALTER TABLE work_orders ADD COLUMN deadline INTEGER GENERATED ALWAYS AS (
    COALESCE(next_deadline, CASE WHEN status IN ('CheckedOut', 'Verified') THEN invoice_deadline END)) VIRTUAL;

-- The deadline sort (the default) and "needs attention" read the new
-- column, on the order the list sorts in (none last, as 0002 has it): an
-- index on the column alone left every list sorted by deadline to sort the
-- whole table, and "deadline < ?" is found through it only as
-- "(deadline IS NULL) = 0 AND deadline < ?" (attentionIdsSQL). A bulk
-- write a crash left unfinished would bring the old index back under the
-- same name.
DELETE FROM bulk_deferred_schema WHERE name = 'work_orders_deadline';
DROP INDEX IF EXISTS work_orders_deadline;
CREATE INDEX work_orders_deadline ON work_orders(deadline IS NULL, deadline);
