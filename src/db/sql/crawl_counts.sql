-- Pages of a crawl by type and by status code, summed over its writers' counters (migrations/0016): as
-- cheap at 200,000 pages as at 10.
SELECT kind AS type, nullif(status, -1) AS status, sum(n)::int AS n
FROM crawl_counters
WHERE crawl_id = $1 AND kind NOT IN ('links', 'images', 'documents')
GROUP BY kind, status
HAVING sum(n) <> 0
