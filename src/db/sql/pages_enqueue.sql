-- Queues discovered URLs of crawl $1 as FRONTIER pages (or, with a reason in $7, records them DISALLOWED:
-- robots.txt already said no). A URL already known keeps its first priority and is
-- never queued again (the closed set of docs/reference.md#weighted-queue). Rows go in in URL order: two workers inserting
-- overlapping sets then lock them in the same order and cannot deadlock; ids (the FIFO tie-break) thus
-- follow discovery page by page, and URL order within one page's links.
INSERT INTO pages (crawl_id, site_id, url, canonical_url, depth, priority, discovered_from, type, error, fetched_at)
SELECT $1, u.site_id, u.url, u.url, u.depth, u.priority, $2,
       CASE WHEN u.disallowed IS NULL THEN 'FRONTIER' ELSE 'DISALLOWED' END, u.disallowed,
       CASE WHEN u.disallowed IS NULL THEN NULL ELSE now() END
FROM unnest($3::text[], $4::bigint[], $5::int[], $6::float8[], $7::text[])
  WITH ORDINALITY AS u(url, site_id, depth, priority, disallowed, n)
ORDER BY u.url
ON CONFLICT (crawl_id, canonical_url) DO NOTHING
RETURNING id, url, type, error
