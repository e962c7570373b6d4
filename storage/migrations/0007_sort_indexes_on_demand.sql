-- The sort indexes that serve only the list's sort by one column are made
-- the first time someone sorts by that column (Store.ensureSortIndex), not
-- here: a first sync builds every index there is, once, while the person
-- waits, and these six were over half of that for columns many people
-- never sort by. The deadline (the default sort, and "needs attention"),
-- status (filters and counts) and quote status ("needs attention") stay.
-- (Needs attention's invoice-over-NTE test may use the NTE index; at
-- 100,000 work orders it is no faster with it.)
DROP INDEX IF EXISTS work_orders_number;
DROP INDEX IF EXISTS work_orders_customer;
DROP INDEX IF EXISTS work_orders_site;
DROP INDEX IF EXISTS work_orders_nte;
DROP INDEX IF EXISTS work_orders_currency;
DROP INDEX IF EXISTS work_orders_scheduled;
-- A bulk write a crash left unfinished would otherwise bring them back.
DELETE FROM bulk_deferred_schema WHERE name IN ('work_orders_number', 'work_orders_customer',
    'work_orders_site', 'work_orders_nte', 'work_orders_currency', 'work_orders_scheduled');
