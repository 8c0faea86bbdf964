-- INVALID pages of crawl $1 by HTTP status; pages with no status (network faults) by their error.
SELECT status, CASE WHEN status IS NULL THEN coalesce(error, 'unknown') END AS error, count(*)::int AS pages
FROM pages
WHERE crawl_id = $1 AND type = 'INVALID'
GROUP BY 1, 2
ORDER BY pages DESC, status NULLS LAST, error
