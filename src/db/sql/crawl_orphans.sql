-- Crawls no runner (or purge job) has reported on for $1 seconds: running ones whose jobs were lost (a flushed
-- queue, every worker gone), queued ones that may never have had jobs (the enqueue after the insert failed),
-- and purging ones whose purge job was lost. Takes them over by refreshing the heartbeat, so only one sweeper
-- re-queues each per period.
UPDATE crawls SET heartbeat_at = now()
WHERE status IN ('queued', 'running', 'purging')
  AND coalesce(heartbeat_at, started_at, created_at) < now() - make_interval(secs => $1)
RETURNING id, status, coalesce((request ->> 'workers')::int, 1) AS workers
