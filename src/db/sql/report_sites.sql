-- Hosts of crawl $1 with at least one page requested.
SELECT count(DISTINCT site_id)::int AS sites FROM pages WHERE crawl_id = $1 AND load_ms IS NOT NULL
