-- Schedules, newest first, keyset-paginated on (created_at, id); when $4 is true, only those of key $5 (NULL: open).
SELECT id, name, request, every_ms, cron, timezone, owner, runs, skipped_runs, last_crawl_id, last_run_at,
       last_error, created_at, updated_at
FROM schedules
WHERE ($1::timestamptz IS NULL OR (created_at, id) < ($1::timestamptz, $2::uuid))
  AND (NOT $4::boolean OR owner = $5::uuid OR ($5::uuid IS NULL AND owner IS NULL))
ORDER BY created_at DESC, id DESC
LIMIT $3
