-- One page of a crawl with its redirect hops, truncation flag and the links and images it could not keep.
SELECT p.id, p.url, p.canonical_url, p.final_url, p.type, p.status, p.content_type, p.bytes, p.depth, p.sha256,
       p.load_ms, p.queued_at, p.fetched_at, p.duplicate_of, p.discovered_from, p.title, p.error, p.redirects,
       p.truncated, p.score, p.result, p.skipped, p.priority,
       -- rendering (0019): how the page was read, and whether a screenshot is stored
       p.crawl_id, p.rendered, p.render_reason, p.fetch_ms, p.render_ms, p.render_note, p.navigated_from,
       EXISTS (SELECT 1 FROM page_screenshots s WHERE s.page_id = p.id) AS has_screenshot
FROM pages p WHERE p.crawl_id = $1 AND p.id = $2
