-- Stores a ranking with its parameters and summary, owned by key $6 (NULL when the service runs open).
INSERT INTO rankings (id, crawl_id, status, params, summary, owner) VALUES ($1, $2, $3, $4, $5, $6)
RETURNING id, created_at
