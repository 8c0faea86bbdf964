-- Two things several statements read, written once as views (PostgreSQL flattens a simple view into the
-- statement, so its indexes and limits apply as if written out; a filter on a grouping column is pushed
-- into the grouped one).

-- A page as the pages API shows it: its record, how a crawl that renders read it, whether a screenshot is
-- stored (pages_list, pages_list_by_score, page_get).
CREATE VIEW page_records AS
SELECT p.id, p.crawl_id, p.site_id, p.url, p.canonical_url, p.final_url, p.type, p.status, p.content_type,
       p.bytes, p.depth, p.sha256, p.load_ms, p.queued_at, p.fetched_at, p.duplicate_of, p.discovered_from,
       p.title, p.error, p.redirects, p.truncated, p.score, p.result, p.skipped, p.priority,
       p.rendered, p.render_reason, p.fetch_ms, p.render_ms, p.render_note, p.navigated_from,
       EXISTS (SELECT 1 FROM page_screenshots s WHERE s.page_id = p.id) AS has_screenshot
FROM pages p;

-- A crawl's load-time and queue-wait medians and p95 (percentile_cont) and its last fetch, over its fetched
-- pages (crawl_totals for a running crawl's status, crawl_finish to keep them when it ends).
CREATE VIEW crawl_timing_percentiles AS
SELECT crawl_id,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY load_ms) AS load_p50,
       percentile_cont(0.95) WITHIN GROUP (ORDER BY load_ms) AS load_p95,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM (fetched_at - queued_at)) * 1000) AS wait_p50,
       percentile_cont(0.95) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM (fetched_at - queued_at)) * 1000) AS wait_p95,
       max(fetched_at) AS last_fetched_at
FROM pages WHERE load_ms IS NOT NULL
GROUP BY crawl_id;
