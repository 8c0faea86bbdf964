-- Links, images and binary documents found by a crawl, and its load-time and queue-wait medians and p95.
SELECT
  (SELECT count(*) FROM links l JOIN pages p ON p.id = l.from_page WHERE p.crawl_id = $1)::int AS links,
  (SELECT count(*) FROM images i JOIN pages p ON p.id = i.page_id WHERE p.crawl_id = $1)::int AS images,
  (SELECT count(*) FROM page_data d JOIN pages p ON p.id = d.page_id WHERE p.crawl_id = $1)::int AS documents,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY load_ms) AS load_p50,
  percentile_cont(0.95) WITHIN GROUP (ORDER BY load_ms) AS load_p95,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM (fetched_at - queued_at)) * 1000) AS wait_p50,
  percentile_cont(0.95) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM (fetched_at - queued_at)) * 1000) AS wait_p95,
  max(fetched_at) AS last_fetched_at
FROM pages WHERE crawl_id = $1 AND load_ms IS NOT NULL
