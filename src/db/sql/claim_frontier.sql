-- Leases up to $3 frontier pages of crawl $1 to worker $2 for $4 seconds, in one statement: the crawl row is
-- locked (so the page budget, max_pages, is shared exactly across workers), then one page per free
-- politeness slot is taken, best priority first, then first queued (docs/reference.md#weighted-queue). A slot is free when
-- its host's delay has passed and no live lease holds it; until a host's robots.txt is known only its slot 0
-- may be used. Pages leased for the first time are counted against the budget (a page retaken after a
-- crash is not counted twice). Always returns one row with the crawl's status; page columns are null when
-- nothing was leased. A focused crawl that has its max_results relevant pages has no budget left.
-- A page whose lease ran out (its worker died) is a suspect: it comes first and alone (the runner processes
-- it with nothing else in flight), outside the budget it was counted in, and its lease_expiries grows by one.
-- A site offers at most $3 candidates, since no more can be chosen: each candidate is locked, and a lock
-- is a write (a dirtied page and a WAL record).
-- Locks are NO KEY UPDATE, the strength the UPDATEs below take anyway: FOR UPDATE would also block the
-- foreign-key checks (FOR KEY SHARE) of other workers' page and link inserts against these rows.
WITH crawl AS (
  SELECT status,
         CASE WHEN relevant_pages >= (request ->> 'maxResults')::int THEN 0
              ELSE greatest(max_pages - claimed_pages, 0) END AS budget
  FROM crawls WHERE id = $1 FOR NO KEY UPDATE
),
-- The first $3 open slots of each host are all a claim can use; only those are locked.
open_slots AS (
  SELECT hs.site_id, hs.slot, row_number() OVER (PARTITION BY hs.site_id ORDER BY hs.slot) AS n
  FROM host_slots hs
  JOIN sites s ON s.id = hs.site_id
  WHERE s.crawl_id = $1
    AND (SELECT status FROM crawl) = 'running'
    AND hs.next_fetch_at <= now()
    AND (hs.leased_until IS NULL OR hs.leased_until < now())
    AND (s.robots_fetched_at IS NOT NULL OR hs.slot = 0)
),
free_slots AS (
  SELECT hs.site_id, hs.slot
  FROM host_slots hs
  JOIN open_slots o ON o.site_id = hs.site_id AND o.slot = hs.slot
  WHERE o.n <= $3
    AND hs.next_fetch_at <= now()
    AND (hs.leased_until IS NULL OR hs.leased_until < now())
  FOR NO KEY UPDATE OF hs SKIP LOCKED
),
free_by_site AS (
  SELECT site_id, array_agg(slot ORDER BY slot) AS slots FROM free_slots GROUP BY site_id
),
candidates AS (
  SELECT f.site_id, f.slots, p.id, p.priority, p.suspect,
         row_number() OVER (PARTITION BY f.site_id ORDER BY p.priority DESC, p.id) AS rank_in_site
  FROM free_by_site f
  CROSS JOIN LATERAL (
    SELECT id, priority, leased_until IS NOT NULL AS suspect FROM pages
    WHERE site_id = f.site_id AND type = 'FRONTIER' AND (leased_until IS NULL OR leased_until < now())
    ORDER BY priority DESC, id
    LIMIT least(cardinality(f.slots), $3)
    FOR NO KEY UPDATE SKIP LOCKED
  ) p
),
chosen AS (
  SELECT site_id, slots[rank_in_site] AS slot, id, suspect FROM candidates
  ORDER BY suspect DESC, priority DESC, id
  LIMIT CASE WHEN $3 > 0 AND EXISTS (SELECT 1 FROM candidates WHERE suspect) THEN 1
             ELSE least($3, (SELECT budget FROM crawl)) END
),
leased_slots AS (
  UPDATE host_slots hs
  SET leased_until = now() + make_interval(secs => $4), leased_by = $2
  FROM chosen c
  WHERE hs.site_id = c.site_id AND hs.slot = c.slot
),
leased AS (
  UPDATE pages p
  SET leased_until = now() + make_interval(secs => $4), leased_by = $2, attempts = p.attempts + 1,
      lease_expiries = p.lease_expiries + c.suspect::int
  FROM chosen c, sites s
  WHERE p.id = c.id AND s.id = c.site_id
  RETURNING p.id, p.url, p.depth, p.priority, p.site_id, s.origin, c.slot, p.queued_at, p.attempts, c.suspect,
            p.lease_expiries
),
counted AS (
  UPDATE crawls SET claimed_pages = claimed_pages + (SELECT count(*) FROM leased WHERE attempts = 1)
  WHERE id = $1 AND EXISTS (SELECT 1 FROM leased WHERE attempts = 1)
)
SELECT crawl.status AS crawl_status, crawl.budget, leased.*
FROM crawl LEFT JOIN leased ON true
