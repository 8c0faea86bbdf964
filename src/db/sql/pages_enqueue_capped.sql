-- Queues discovered URLs of crawl $1 while the crawl has discovered fewer than $8 pages (the topic crawl's
-- graph holds the first max_discovered pages, MISSION-NOTES §2). The crawl row is locked so concurrent
-- runners cannot overshoot the cap, which also rules out lock cycles, so the page's document order is kept.
WITH crawl AS (SELECT id FROM crawls WHERE id = $1 FOR NO KEY UPDATE),
room AS (SELECT greatest($8::int - (SELECT count(*) FROM pages WHERE crawl_id = $1), 0) AS n)
INSERT INTO pages (crawl_id, site_id, url, canonical_url, depth, priority, discovered_from, type, error, fetched_at)
SELECT $1, u.site_id, u.url, u.url, u.depth, u.priority, $2,
       CASE WHEN u.disallowed IS NULL THEN 'FRONTIER' ELSE 'DISALLOWED' END, u.disallowed,
       CASE WHEN u.disallowed IS NULL THEN NULL ELSE now() END
FROM crawl, unnest($3::text[], $4::bigint[], $5::int[], $6::float8[], $7::text[])
  WITH ORDINALITY AS u(url, site_id, depth, priority, disallowed, n)
WHERE NOT EXISTS (SELECT 1 FROM pages p WHERE p.crawl_id = $1 AND p.canonical_url = u.url)
ORDER BY u.n
LIMIT (SELECT n FROM room)
ON CONFLICT (crawl_id, canonical_url) DO NOTHING
RETURNING id, url, type, error
