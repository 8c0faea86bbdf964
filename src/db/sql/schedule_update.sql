-- Replaces what a schedule runs and when (the caller has merged the fields given with the stored ones).
UPDATE schedules SET name = $2, request = $3, every_ms = $4, cron = $5, timezone = $6, updated_at = now()
WHERE id = $1
RETURNING id, name, request, every_ms, cron, timezone, owner, runs, skipped_runs, last_crawl_id, last_run_at,
          last_error, created_at, updated_at
