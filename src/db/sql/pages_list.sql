-- Pages of crawl $1 after cursor ($2 id, or ($7 score, $2 id) when sorted by score), filtered by type,
-- status, origin host, minimum score and being a result ($10); $8 = true sorts by score, best first
-- (unscored pages last).
SELECT p.id, p.url, p.canonical_url, p.final_url, p.type, p.status, p.content_type, p.bytes, p.depth, p.sha256,
       p.load_ms, p.queued_at, p.fetched_at, p.duplicate_of, p.discovered_from, p.title, p.error, p.score,
       p.result, p.priority,
       -- rendering (0019): how the page was read, and whether a screenshot is stored
       p.crawl_id, p.rendered, p.render_reason, p.fetch_ms, p.render_ms, p.render_note, p.navigated_from,
       EXISTS (SELECT 1 FROM page_screenshots s WHERE s.page_id = p.id) AS has_screenshot
FROM pages p
WHERE p.crawl_id = $1
  AND ($3::text IS NULL OR p.type = $3)
  AND ($4::int IS NULL OR p.status = $4)
  AND ($5::text IS NULL OR p.site_id IN (SELECT id FROM sites WHERE crawl_id = $1 AND split_part(origin, '://', 2) = $5))
  AND ($9::float8 IS NULL OR p.score >= $9)
  AND ($10::boolean IS NULL OR p.result = $10)
  AND CASE WHEN $8::boolean
        THEN ($7::float8 IS NULL AND $2::bigint = 0)
             OR (coalesce(p.score, -1), -p.id) < (coalesce($7::float8, -1), -$2::bigint)
        ELSE p.id > $2::bigint END
ORDER BY CASE WHEN $8::boolean THEN coalesce(p.score, -1) END DESC, CASE WHEN $8::boolean THEN -p.id END DESC, p.id
LIMIT $6
