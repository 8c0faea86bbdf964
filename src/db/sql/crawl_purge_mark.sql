-- Marks crawl $1 for purging, whatever its status (a queued or running one stops: its runners see it is no
-- longer running); returns the status it had, or nothing when it was being purged already or does not exist.
UPDATE crawls c SET status = 'purging', finished_at = coalesce(c.finished_at, now()), heartbeat_at = now()
FROM (SELECT id, status FROM crawls WHERE id = $1 FOR UPDATE) before
WHERE c.id = before.id AND before.status <> 'purging'
RETURNING before.status AS previous
