-- A crawl's load-time and queue-wait medians and p95 (percentile_cont) and its last fetch: a scan of its
-- fetched pages, so a finished crawl keeps them in crawls.timings (crawl_finish, or crawl_timings_save at a read).
SELECT
  percentile_cont(0.5) WITHIN GROUP (ORDER BY load_ms) AS load_p50,
  percentile_cont(0.95) WITHIN GROUP (ORDER BY load_ms) AS load_p95,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM (fetched_at - queued_at)) * 1000) AS wait_p50,
  percentile_cont(0.95) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM (fetched_at - queued_at)) * 1000) AS wait_p95,
  max(fetched_at) AS last_fetched_at
FROM pages WHERE crawl_id = $1 AND load_ms IS NOT NULL
