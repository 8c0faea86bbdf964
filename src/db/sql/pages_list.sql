-- Pages of crawl $1 in id order after id $2, filtered by type $3, status $4, origin host $5, minimum score
-- $7 and being a result $8; $6 rows. Served by pages_by_crawl (crawl_id, id), pages_by_crawl_type and
-- pages_by_crawl_status (migrations/0021).
SELECT p.id, p.url, p.canonical_url, p.final_url, p.type, p.status, p.content_type, p.bytes, p.depth, p.sha256,
       p.load_ms, p.queued_at, p.fetched_at, p.duplicate_of, p.discovered_from, p.title, p.error, p.score,
       p.result, p.priority,
       -- rendering (0019): how the page was read, and whether a screenshot is stored
       p.crawl_id, p.rendered, p.render_reason, p.fetch_ms, p.render_ms, p.render_note, p.navigated_from,
       EXISTS (SELECT 1 FROM page_screenshots s WHERE s.page_id = p.id) AS has_screenshot
FROM pages p
WHERE p.crawl_id = $1
  AND p.id > $2::bigint
  AND ($3::text IS NULL OR p.type = $3)
  AND ($4::int IS NULL OR p.status = $4)
  AND ($5::text IS NULL OR p.site_id IN (SELECT id FROM sites WHERE crawl_id = $1 AND split_part(origin, '://', 2) = $5))
  AND ($7::float8 IS NULL OR p.score >= $7)
  AND ($8::boolean IS NULL OR p.result = $8)
ORDER BY p.id
LIMIT $6
