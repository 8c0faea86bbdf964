-- Whether crawl $1 still has work: pages waiting, pages in flight, and when the next host slot frees up.
-- Waiting: the frontier's earliest lease (no lease counts as earliest) has run out; in flight: its latest has
-- not. Both are one step into pages_frontier_leases (migrations/0029), so an idle runner's poll costs the
-- same at any crawl size.
SELECT
  coalesce((SELECT coalesce(leased_until, '-infinity'::timestamptz) FROM pages
            WHERE crawl_id = $1 AND type = 'FRONTIER'
            ORDER BY coalesce(leased_until, '-infinity'::timestamptz) LIMIT 1) < now(), false) AS waiting,
  coalesce((SELECT coalesce(leased_until, '-infinity'::timestamptz) FROM pages
            WHERE crawl_id = $1 AND type = 'FRONTIER'
            ORDER BY coalesce(leased_until, '-infinity'::timestamptz) DESC LIMIT 1) >= now(), false) AS in_flight,
  (SELECT EXTRACT(EPOCH FROM (min(hs.next_fetch_at) - now())) * 1000
     FROM host_slots hs JOIN sites s ON s.id = hs.site_id
     WHERE s.crawl_id = $1 AND (hs.leased_until IS NULL OR hs.leased_until < now())) AS retry_in_ms
