-- Running crawls no runner has reported on for $1 seconds (their jobs were lost: a flushed queue, every
-- worker gone): takes them over by refreshing the heartbeat, so only one sweeper re-queues each.
UPDATE crawls SET heartbeat_at = now()
WHERE status = 'running' AND coalesce(heartbeat_at, started_at, created_at) < now() - make_interval(secs => $1)
RETURNING id, coalesce((request ->> 'workers')::int, 1) AS workers
