-- Ends a running crawl once, keeping its timing percentiles (the crawl_timing_percentiles view, scanned once
-- here instead of at status reads); later calls by other runners change nothing.
UPDATE crawls
SET status = $2, error = $3, problem = $4, warnings = $5, finished_at = now(),
    timings = (
      SELECT to_jsonb(t) FROM (
        SELECT p.load_p50, p.load_p95, p.wait_p50, p.wait_p95, p.last_fetched_at
        FROM (SELECT 1) AS one
        LEFT JOIN crawl_timing_percentiles p ON p.crawl_id = $1
      ) t
    )
WHERE id = $1 AND status IN ('queued', 'running')
