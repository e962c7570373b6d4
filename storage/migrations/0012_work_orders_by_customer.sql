-- Which customers the replica holds work orders of, read by every sync
-- (Store.customersOf): without an index that was a scan of every stored
-- work order, so a sync of 100 changes cost more the more the replica
-- held. With it the distinct customers are found by stepping from one to
-- the next, a few index seeks each.
CREATE INDEX IF NOT EXISTS work_orders_by_customer ON work_orders(customer_id);
-- Made now, it is not also among what an unfinished bulk write brings back.
DELETE FROM bulk_deferred_schema WHERE name = 'work_orders_by_customer';
