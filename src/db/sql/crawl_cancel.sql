-- Cancels a crawl that is still queued or running; returns nothing when it had already ended.
UPDATE crawls SET status = 'cancelled', finished_at = now() WHERE id = $1 AND status IN ('queued', 'running')
RETURNING id
