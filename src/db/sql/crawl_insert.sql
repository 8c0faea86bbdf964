-- Creates a crawl in status queued, owned by key $5 (NULL when the service runs open), recrawling crawl $6 (NULL: none).
INSERT INTO crawls (id, request, strategy, status, max_pages, owner, recrawl_of) VALUES ($1, $2, $3, 'queued', $4, $5, $6)
RETURNING id, status, created_at
