-- Ends a running crawl once, keeping its timing percentiles (crawl_totals' scan, run once here instead of at
-- status reads); later calls by other runners change nothing.
UPDATE crawls
SET status = $2, error = $3, finished_at = now(),
    timings = (
      SELECT to_jsonb(t) FROM (
        SELECT
          percentile_cont(0.5) WITHIN GROUP (ORDER BY load_ms) AS load_p50,
          percentile_cont(0.95) WITHIN GROUP (ORDER BY load_ms) AS load_p95,
          percentile_cont(0.5) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM (fetched_at - queued_at)) * 1000) AS wait_p50,
          percentile_cont(0.95) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM (fetched_at - queued_at)) * 1000) AS wait_p95,
          max(fetched_at) AS last_fetched_at
        FROM pages WHERE crawl_id = $1 AND load_ms IS NOT NULL
      ) t
    )
WHERE id = $1 AND status IN ('queued', 'running')
