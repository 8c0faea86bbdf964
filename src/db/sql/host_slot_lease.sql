-- Leases one free politeness slot of site $1 to worker $2 for $3 seconds (a redirect hop to that host takes
-- its turn like any request, as claim_frontier.sql does), returning it; else returns slot NULL and how long
-- until an unleased slot's delay has passed (NULL when every slot is leased).
WITH free AS (
  SELECT hs.slot FROM host_slots hs JOIN sites s ON s.id = hs.site_id
  WHERE hs.site_id = $1 AND hs.next_fetch_at <= now()
    AND (hs.leased_until IS NULL OR hs.leased_until < now())
    AND (s.robots_fetched_at IS NOT NULL OR hs.slot = 0)
  ORDER BY hs.slot
  LIMIT 1
  FOR NO KEY UPDATE OF hs SKIP LOCKED
),
leased AS (
  UPDATE host_slots hs SET leased_until = now() + make_interval(secs => $3), leased_by = $2
  FROM free WHERE hs.site_id = $1 AND hs.slot = free.slot
  RETURNING hs.slot
)
SELECT (SELECT slot FROM leased) AS slot,
       (SELECT EXTRACT(EPOCH FROM (min(next_fetch_at) - now())) * 1000 FROM host_slots
        WHERE site_id = $1 AND (leased_until IS NULL OR leased_until < now())) AS retry_in_ms
