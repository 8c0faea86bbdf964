-- Pages of a crawl by type and by status code.
SELECT type, status, count(*)::int AS n FROM pages WHERE crawl_id = $1 GROUP BY type, status
