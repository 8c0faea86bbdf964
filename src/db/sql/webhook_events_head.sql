-- The pending events of crawl $1 in delivery order: lifecycle-ending events (and `purged`, the last of all)
-- after every page batch, then by id.
SELECT id, event, data, attempts, next_attempt_at <= now() AS due, created_at
FROM webhook_events
WHERE crawl_id = $1 AND state = 'pending'
ORDER BY (event IN ('completed', 'failed', 'cancelled', 'purged')), id
LIMIT $2
