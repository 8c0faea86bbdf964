-- Queues discovered URLs of crawl $1 as pages_enqueue.sql does (FRONTIER, or DISALLOWED with a reason in $7;
-- the closed set: a URL known to the crawl is never queued twice), but a URL still waiting in the frontier
-- takes the link's priority when that is higher: it holds the best weight any fetched page gave it, whichever
-- page happened to find it first (a topic crawl capped by pages fetched, docs/reference.md#topic-weights). It
-- keeps its id, so among equal priorities it keeps its place. A fetched or refused page is left as it is.
-- Rows go in in URL order, so two workers lock overlapping sets in the same order and cannot deadlock; a
-- batch names each URL once (DO UPDATE may touch a row only once per statement). Raised rows are returned
-- too, as FRONTIER.
INSERT INTO pages (crawl_id, site_id, url, canonical_url, depth, priority, discovered_from, type, error, fetched_at)
SELECT $1, u.site_id, u.url, u.url, u.depth, u.priority, $2,
       CASE WHEN u.disallowed IS NULL THEN 'FRONTIER' ELSE 'DISALLOWED' END, u.disallowed,
       CASE WHEN u.disallowed IS NULL THEN NULL ELSE now() END
FROM unnest($3::text[], $4::bigint[], $5::int[], $6::float8[], $7::text[])
  WITH ORDINALITY AS u(url, site_id, depth, priority, disallowed, n)
ORDER BY u.url
ON CONFLICT (crawl_id, canonical_url) DO UPDATE SET priority = EXCLUDED.priority
  WHERE pages.type = 'FRONTIER' AND pages.priority < EXCLUDED.priority
RETURNING id, url, type, error
