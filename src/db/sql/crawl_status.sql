-- A crawl's status in one round trip: its row (when $2, only if key $3 may see it) and its pages by type
-- and HTTP status, links, images and documents summed over its writers' counters (migrations/0016); a recrawl's
-- pages by change class too (pages_by_crawl_change, migrations/0045), null for any other crawl; with
-- duplicates.near, its near-duplicate pages (page_simhashes_near, migrations/0050), null otherwise.
SELECT c.id, c.request, c.strategy, c.status, c.max_pages, c.error, c.problem, c.warnings, c.stop_reason, c.created_at, c.started_at, c.finished_at,
       c.owner, c.relevant_pages, c.timings, c.storage, c.schedule_id,
       coalesce(k.counts, '[]'::jsonb) AS counts,
       coalesce(k.links, 0)::int AS links,
       coalesce(k.images, 0)::int AS images,
       coalesce(k.documents, 0)::int AS documents,
       ch.changes,
       nd.near_duplicates
FROM crawls c
LEFT JOIN LATERAL (
  SELECT jsonb_agg(jsonb_build_object('type', kind, 'status', nullif(status, -1), 'n', n))
           FILTER (WHERE kind NOT IN ('links', 'images', 'documents') AND n <> 0) AS counts,
         sum(n) FILTER (WHERE kind = 'links') AS links,
         sum(n) FILTER (WHERE kind = 'images') AS images,
         sum(n) FILTER (WHERE kind = 'documents') AS documents
  FROM (
    SELECT kind, status, sum(n) AS n FROM crawl_counters WHERE crawl_id = c.id GROUP BY kind, status
  ) summed
) k ON true
LEFT JOIN LATERAL (
  SELECT coalesce(jsonb_object_agg(change, n), '{}'::jsonb) AS changes
  FROM (
    SELECT change, count(*)::int AS n FROM pages
    WHERE crawl_id = c.id AND change IS NOT NULL
    GROUP BY change
  ) by_class
  WHERE c.request -> 'recrawl' ->> 'of' IS NOT NULL
) ch ON true
LEFT JOIN LATERAL (
  SELECT count(*)::int AS near_duplicates FROM page_simhashes
  WHERE crawl_id = c.id AND near_duplicate_of IS NOT NULL
    AND (c.request -> 'duplicates' ->> 'near')::boolean
) nd ON (c.request -> 'duplicates' ->> 'near')::boolean
WHERE c.id = $1 AND (NOT $2::boolean OR c.owner = $3::uuid OR ($3::uuid IS NULL AND c.owner IS NULL))
