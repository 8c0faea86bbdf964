-- request_done.sql for several requests of crawl $5 that ended while a statement was in flight, in one
-- statement: each frees its politeness slot (the host may be asked again after its delay) and registers its
-- HTML body's hash, the first of the batch (in the batch's order) holding a hash new to the crawl, exactly
-- as if they had been written one by one. Parameters are arrays with one element per request, in order
-- (db/crawl-store.ts requestDoneBatchValues builds them), except the crawl id:
--   $1 site ids (-1: no slot held)   $2 slots   $3 delays before the next request, ms
--   $4 body SHA-256 (hex; null: not an HTML body)   $5 crawl id   $6 page ids
-- Returns, per request in order (ord, 1-based), the page that holds its hash (null: no hash).
WITH input AS (
  SELECT * FROM unnest($1::bigint[], $2::int[], $3::float8[], $4::text[], $6::bigint[])
    WITH ORDINALITY AS i(site_id, slot, delay_ms, sha256, page_id, ord)
),
slot AS (
  UPDATE host_slots hs
  SET leased_until = NULL, leased_by = NULL, next_fetch_at = now() + make_interval(secs => i.delay_ms / 1000)
  FROM input i
  WHERE hs.site_id = i.site_id AND hs.slot = i.slot
),
inserted AS (
  INSERT INTO content_hashes (crawl_id, sha256, page_id)
  SELECT DISTINCT ON (sha256) $5, sha256, page_id FROM input WHERE sha256 IS NOT NULL ORDER BY sha256, ord
  ON CONFLICT (crawl_id, sha256) DO NOTHING
  RETURNING sha256, page_id
)
SELECT i.ord, coalesce(n.page_id, h.page_id) AS page_id
FROM input i
LEFT JOIN inserted n ON n.sha256 = i.sha256
LEFT JOIN content_hashes h ON i.sha256 IS NOT NULL AND h.crawl_id = $5 AND h.sha256 = i.sha256
ORDER BY i.ord
