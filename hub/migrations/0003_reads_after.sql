-- A fetch of a stored read stores its answer only if it began after the
-- last write, notification or sync that changed its work order: otherwise a
-- fetch from before a write, stored after the write's refresh found nothing
-- to refresh, would be served as fresh for an hour. A work order new to the
-- replica starts with a mark of its own for the same reason.
ALTER TABLE work_orders ADD COLUMN reads_after bigint NOT NULL DEFAULT nextval('reads_version');
