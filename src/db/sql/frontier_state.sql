-- Whether crawl $1 still has work: pages waiting, pages in flight, and when the next host slot frees up.
SELECT
  EXISTS (SELECT 1 FROM pages WHERE crawl_id = $1 AND type = 'FRONTIER' AND (leased_until IS NULL OR leased_until < now())) AS waiting,
  EXISTS (SELECT 1 FROM pages WHERE crawl_id = $1 AND type = 'FRONTIER' AND leased_until >= now()) AS in_flight,
  (SELECT EXTRACT(EPOCH FROM (min(hs.next_fetch_at) - now())) * 1000
     FROM host_slots hs JOIN sites s ON s.id = hs.site_id
     WHERE s.crawl_id = $1 AND (hs.leased_until IS NULL OR hs.leased_until < now())) AS retry_in_ms
