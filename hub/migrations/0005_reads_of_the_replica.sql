-- The reads table holds answers about the replica only (a made-up id asked
-- by a desktop is not stored), and the sync's scans for stale answers and
-- customer settings due for a refresh read small partial indexes, not the
-- whole table every minute.
DELETE FROM reads r WHERE r.work_order_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM work_orders w WHERE w.id = r.work_order_id);
DELETE FROM reads r WHERE r.customer_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM work_orders w WHERE w.customer_id = r.customer_id);
DELETE FROM reads WHERE kind = '/api/procedure/step/attachments' AND status <> 200;
CREATE INDEX work_orders_customer ON work_orders (customer_id);
CREATE INDEX reads_stale ON reads (kind) WHERE stale;
CREATE INDEX reads_customers ON reads (fetched) WHERE customer_id IS NOT NULL;
