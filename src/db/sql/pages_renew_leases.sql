-- Extends worker $2's leases on its in-flight pages $1 (and the host slots it still holds) by $3 seconds:
-- a page waiting for the body budget or a slow server is not retaken as a dead worker's.
WITH renewed AS (
  UPDATE pages SET leased_until = now() + make_interval(secs => $3)
  WHERE id = ANY($1::bigint[]) AND leased_by = $2 AND type = 'FRONTIER'
  RETURNING site_id
)
UPDATE host_slots hs SET leased_until = now() + make_interval(secs => $3)
FROM (SELECT DISTINCT site_id FROM renewed) r
WHERE hs.site_id = r.site_id AND hs.leased_by = $2 AND hs.leased_until IS NOT NULL
