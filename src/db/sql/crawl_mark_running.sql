-- A runner started: queued → running (a crawl already running, finished or cancelled keeps its status).
UPDATE crawls SET status = 'running', started_at = coalesce(started_at, now()), heartbeat_at = now()
WHERE id = $1 AND status IN ('queued', 'running')
