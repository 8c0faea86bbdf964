-- After cancellation: frees every lease of the crawl so its FRONTIER rows read as not fetched.
WITH pages_freed AS (
  UPDATE pages SET leased_until = NULL, leased_by = NULL WHERE crawl_id = $1 AND leased_until IS NOT NULL
)
UPDATE host_slots hs SET leased_until = NULL, leased_by = NULL
FROM sites s WHERE s.id = hs.site_id AND s.crawl_id = $1 AND hs.leased_until IS NOT NULL
