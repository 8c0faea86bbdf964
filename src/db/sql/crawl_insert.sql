-- Creates a crawl in status queued, owned by key $5 (NULL when the service runs open), recrawling crawl $6 (NULL: none), run by schedule $7 (NULL: none).
INSERT INTO crawls (id, request, strategy, status, max_pages, owner, recrawl_of, schedule_id)
VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7)
RETURNING id, status, created_at
