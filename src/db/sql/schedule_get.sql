-- One schedule; when $2 is true, only if it belongs to key $3 (NULL: made while the service ran open).
SELECT id, name, request, every_ms, cron, timezone, owner, runs, skipped_runs, last_crawl_id, last_run_at,
       last_error, created_at, updated_at
FROM schedules
WHERE id = $1 AND (NOT $2::boolean OR owner = $3::uuid OR ($3::uuid IS NULL AND owner IS NULL))
