-- A runner shutting down: frees every frontier page and politeness slot runner $2 still leases in crawl $1.
WITH pages_freed AS (
  UPDATE pages SET leased_until = NULL, leased_by = NULL
  WHERE crawl_id = $1 AND type = 'FRONTIER' AND leased_by = $2
)
UPDATE host_slots hs SET leased_until = NULL, leased_by = NULL
FROM sites s WHERE s.id = hs.site_id AND s.crawl_id = $1 AND hs.leased_by = $2
