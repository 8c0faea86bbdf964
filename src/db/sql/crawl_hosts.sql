-- Per-host view of crawl $1: pages by type, requests, load times, robots.txt status and politeness delay.
SELECT s.origin,
       s.robots_status,
       s.robots_error,
       s.crawl_delay_ms,
       count(p.id)::int AS pages,
       count(p.id) FILTER (WHERE p.type = 'HTML')::int AS html,
       count(p.id) FILTER (WHERE p.type = 'BINARY')::int AS binary,
       count(p.id) FILTER (WHERE p.type = 'DUPLICATE')::int AS duplicate,
       count(p.id) FILTER (WHERE p.type = 'INVALID')::int AS invalid,
       count(p.id) FILTER (WHERE p.type = 'DISALLOWED')::int AS disallowed,
       count(p.id) FILTER (WHERE p.type = 'FRONTIER')::int AS frontier,
       count(p.id) FILTER (WHERE p.load_ms IS NOT NULL)::int AS requests,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY p.load_ms) AS load_p50,
       percentile_cont(0.95) WITHIN GROUP (ORDER BY p.load_ms) AS load_p95,
       min(p.fetched_at) AS first_fetched_at,
       max(p.fetched_at) AS last_fetched_at
FROM sites s
LEFT JOIN pages p ON p.site_id = s.id
WHERE s.crawl_id = $1
GROUP BY s.id
ORDER BY count(p.id) DESC, s.origin
LIMIT $2
