-- Logs one HTTP attempt of delivering event $1 of crawl $2.
INSERT INTO webhook_deliveries (event_id, crawl_id, attempt, status, outcome, error, duration_ms)
VALUES ($1, $2, $3, $4, $5, $6, $7)
