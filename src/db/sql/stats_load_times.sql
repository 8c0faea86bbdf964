-- Load time and queue wait (fetched − queued) in ms of every page of crawl $1 that was fetched.
SELECT load_ms, EXTRACT(EPOCH FROM (fetched_at - queued_at)) * 1000 AS wait_ms
FROM pages WHERE crawl_id = $1 AND load_ms IS NOT NULL
