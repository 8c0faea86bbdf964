-- One ranking row; when $2 is true, only if it belongs to key $3 (NULL: made while the service ran open).
SELECT id, crawl_id, status, params, summary, graph, error, created_at FROM rankings
WHERE id = $1 AND (NOT $2::boolean OR owner = $3::uuid OR ($3::uuid IS NULL AND owner IS NULL))
