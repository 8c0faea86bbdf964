-- Creates a crawl in status queued, owned by key $5 (NULL when the service runs open).
INSERT INTO crawls (id, request, strategy, status, max_pages, owner) VALUES ($1, $2, $3, 'queued', $4, $5)
RETURNING id, status, created_at
