-- Queues discovered URLs of crawl $1 while the crawl holds fewer than $8 pages (the topic crawl's graph holds
-- the first max_discovered pages, docs/reference.md#strategies), in document order. Run with the crawl row locked by an
-- earlier statement of the same transaction (crawl_lock.sql): under READ COMMITTED this statement's snapshot
-- then sees every page other runners queued, so concurrent runners cannot overshoot the cap. Not counted:
-- pages robots.txt forbids (a vertex only if it may be crawled) and redirect targets reached inside another
-- page's fetch (graph_vertices_declare.sql counts neither).
WITH room AS (
  SELECT greatest($8::int - (
    SELECT count(*) FROM pages
    WHERE crawl_id = $1 AND type <> 'DISALLOWED'
      AND NOT (type = 'DUPLICATE' AND status IS NULL AND duplicate_of IS NOT NULL)
  ), 0) AS n
)
INSERT INTO pages (crawl_id, site_id, url, canonical_url, depth, priority, discovered_from, type, error, fetched_at)
SELECT $1, c.site_id, c.url, c.url, c.depth, c.priority, $2,
       CASE WHEN c.disallowed IS NULL THEN 'FRONTIER' ELSE 'DISALLOWED' END, c.disallowed,
       CASE WHEN c.disallowed IS NULL THEN NULL ELSE now() END
FROM (
  -- new URLs; the k-th one that may be crawled goes in while k fits in the room
  SELECT u.*, row_number() OVER (PARTITION BY u.disallowed IS NULL ORDER BY u.n) AS k
  FROM unnest($3::text[], $4::bigint[], $5::int[], $6::float8[], $7::text[])
    WITH ORDINALITY AS u(url, site_id, depth, priority, disallowed, n)
  WHERE NOT EXISTS (SELECT 1 FROM pages p WHERE p.crawl_id = $1 AND p.canonical_url = u.url)
) c, room
WHERE room.n > 0 AND (c.disallowed IS NOT NULL OR c.k <= room.n)
ORDER BY c.n
ON CONFLICT (crawl_id, canonical_url) DO NOTHING
RETURNING id, url, type, error
