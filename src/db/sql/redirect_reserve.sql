-- Reserves redirect target $3 of crawl $1 for the fetch of page $2: a new URL becomes a DUPLICATE of page $2
-- (it will never be fetched again); a URL still waiting unleased in the frontier is taken over the same way.
-- Returns reserved = false and the existing page when the URL was already fetched or is in flight elsewhere.
WITH inserted AS (
  INSERT INTO pages (crawl_id, site_id, url, canonical_url, depth, type, duplicate_of, discovered_from, fetched_at)
  VALUES ($1, $4, $3, $3, $5, 'DUPLICATE', $2, $2, now())
  ON CONFLICT (crawl_id, canonical_url) DO NOTHING
  RETURNING id
),
taken_over AS (
  UPDATE pages SET type = 'DUPLICATE', duplicate_of = $2, fetched_at = now(), error = 'reached by redirect'
  WHERE crawl_id = $1 AND canonical_url = $3 AND type = 'FRONTIER'
    AND (leased_until IS NULL OR leased_until < now()) AND NOT EXISTS (SELECT 1 FROM inserted)
  RETURNING id
)
SELECT true AS reserved, id FROM inserted
UNION ALL
SELECT true AS reserved, id FROM taken_over
UNION ALL
SELECT false AS reserved, id FROM pages
WHERE crawl_id = $1 AND canonical_url = $3 AND NOT EXISTS (SELECT 1 FROM inserted) AND NOT EXISTS (SELECT 1 FROM taken_over)
LIMIT 1
