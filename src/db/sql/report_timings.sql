-- Load time and queue wait (fetched − queued) of crawl $1's fetched pages, in ms: mean, median, p95 and max
-- (percentile_cont, the status endpoint's rule).
WITH fetched AS (
  SELECT load_ms, EXTRACT(EPOCH FROM (fetched_at - queued_at)) * 1000 AS wait_ms
  FROM pages WHERE crawl_id = $1 AND load_ms IS NOT NULL
)
SELECT avg(load_ms)::float8 AS load_mean,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY load_ms) AS load_p50,
       percentile_cont(0.95) WITHIN GROUP (ORDER BY load_ms) AS load_p95,
       max(load_ms)::float8 AS load_max,
       avg(wait_ms)::float8 AS wait_mean,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY wait_ms) AS wait_p50,
       percentile_cont(0.95) WITHIN GROUP (ORDER BY wait_ms) AS wait_p95,
       max(wait_ms)::float8 AS wait_max
FROM fetched
