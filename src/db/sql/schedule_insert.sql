-- Creates a schedule owned by key $7 (NULL when the service runs open).
INSERT INTO schedules (id, name, request, every_ms, cron, timezone, owner) VALUES ($1, $2, $3, $4, $5, $6, $7)
RETURNING id, name, request, every_ms, cron, timezone, owner, runs, skipped_runs, last_crawl_id, last_run_at,
          last_error, created_at, updated_at
