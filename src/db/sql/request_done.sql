-- After a request ends: frees the page's politeness slot (the host may be asked again after $3 ms) and, for
-- an HTML body ($4 = its SHA-256, else NULL), registers the hash for crawl $5 and page $6, returning the
-- page that holds it (the first page of the crawl with that body; $6 itself when it is new).
WITH slot AS (
  UPDATE host_slots
  SET leased_until = NULL, leased_by = NULL, next_fetch_at = now() + make_interval(secs => $3::float8 / 1000)
  WHERE site_id = $1 AND slot = $2
),
inserted AS (
  INSERT INTO content_hashes (crawl_id, sha256, page_id)
  SELECT $5, $4, $6 WHERE $4::text IS NOT NULL
  ON CONFLICT (crawl_id, sha256) DO NOTHING
  RETURNING page_id
)
SELECT page_id FROM inserted
UNION ALL
SELECT page_id FROM content_hashes WHERE $4::text IS NOT NULL AND crawl_id = $5 AND sha256 = $4
LIMIT 1
