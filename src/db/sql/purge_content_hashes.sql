-- Deletes up to $2 of crawl $1's body hashes; returns how many went.
WITH gone AS (
  DELETE FROM content_hashes
  WHERE crawl_id = $1 AND sha256 IN (SELECT sha256 FROM content_hashes WHERE crawl_id = $1 LIMIT $2)
  RETURNING 1
)
SELECT count(*)::int AS n FROM gone
