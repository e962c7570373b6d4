-- Check-ins, pauses and check-outs queued before this version carry their
-- time, in UTC, in the summary ("Check in at 2026-11-22 14:05 UTC"); the
-- window now shows that time in local time from the request itself.
UPDATE outbox SET summary = CASE kind
        WHEN 'checkIn' THEN 'Check in'
        WHEN 'pause' THEN 'Pause'
        WHEN 'checkOut' THEN 'Check out'
    END
WHERE kind IN ('checkIn', 'pause', 'checkOut');
