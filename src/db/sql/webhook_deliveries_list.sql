-- Delivery attempts of crawl $1 after id $2, oldest first, with the event each one carried.
SELECT d.id, d.event_id, e.event, d.attempt, d.status, d.outcome, d.error, d.duration_ms, d.attempted_at
FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
WHERE d.crawl_id = $1 AND d.id > $2
ORDER BY d.id
LIMIT $3
