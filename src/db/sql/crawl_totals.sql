-- A crawl's load-time and queue-wait medians and p95 (percentile_cont) and its last fetch: a scan of its
-- fetched pages (the crawl_timing_percentiles view), so a finished crawl keeps them in crawls.timings
-- (crawl_finish, or crawl_timings_save at a read). One row, of nulls before its first fetch.
SELECT t.load_p50, t.load_p95, t.wait_p50, t.wait_p95, t.last_fetched_at
FROM (SELECT 1) AS one
LEFT JOIN crawl_timing_percentiles t ON t.crawl_id = $1
