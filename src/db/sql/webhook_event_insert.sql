-- Records a webhook event of crawl $1 (once per crawl for lifecycle events; page and page.changed events as
-- often as they come); returns its id, or nothing when it was already there.
INSERT INTO webhook_events (crawl_id, event, data)
VALUES ($1, $2, $3)
ON CONFLICT (crawl_id, event) WHERE event NOT IN ('page', 'page.changed') DO NOTHING
RETURNING id
