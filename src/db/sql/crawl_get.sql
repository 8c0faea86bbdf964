-- One crawl row; when $2 is true, only if it belongs to key $3 (NULL: made while the service ran open).
SELECT id, request, strategy, status, max_pages, error, problem, warnings, stop_reason, created_at, started_at, finished_at, owner, relevant_pages,
       timings, schedule_id
FROM crawls
WHERE id = $1 AND (NOT $2::boolean OR owner = $3::uuid OR ($3::uuid IS NULL AND owner IS NULL))
