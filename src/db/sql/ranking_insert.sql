-- Stores a ranking with its parameters, summary and structure figures ($7), owned by key $6 (NULL when the
-- service runs open).
INSERT INTO rankings (id, crawl_id, status, params, summary, owner, graph) VALUES ($1, $2, $3, $4, $5, $6, $7)
RETURNING id, created_at
