-- Crawls, newest first, keyset-paginated on (created_at, id); when $4 is true, only those of key $5 (NULL: open).
-- Each with how it ended (error, warnings) and its pages by type and HTTP status, summed over its writers'
-- counters as crawl_status.sql sums them.
SELECT c.id, c.request, c.status, c.created_at, c.finished_at, c.owner, c.error, c.warnings,
       coalesce(k.counts, '[]'::jsonb) AS counts
FROM crawls c
LEFT JOIN LATERAL (
  SELECT jsonb_agg(jsonb_build_object('type', kind, 'status', nullif(status, -1), 'n', n))
           FILTER (WHERE n <> 0) AS counts
  FROM (
    SELECT kind, status, sum(n) AS n FROM crawl_counters
    WHERE crawl_id = c.id AND kind NOT IN ('links', 'images', 'documents')
    GROUP BY kind, status
  ) summed
) k ON true
WHERE ($1::timestamptz IS NULL OR (c.created_at, c.id) < ($1::timestamptz, $2::uuid))
  AND (NOT $4::boolean OR c.owner = $5::uuid OR ($5::uuid IS NULL AND c.owner IS NULL))
ORDER BY c.created_at DESC, c.id DESC
LIMIT $3
