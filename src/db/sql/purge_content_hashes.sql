-- Deletes up to $2 of crawl $1's body hashes; returns how many went. The batch's rows are found first (an
-- InitPlan) and deleted by their tuple ids: a join or filter against the crawl's rows, planned with a purging
-- crawl's stale statistics, could read every remaining row of the crawl for each batch. Nothing updates these
-- rows, so a tuple id read here still names its row.
WITH gone AS (
  DELETE FROM content_hashes
  WHERE ctid = ANY (ARRAY(SELECT ctid FROM content_hashes WHERE crawl_id = $1 LIMIT $2))
  RETURNING 1
)
SELECT count(*)::int AS n FROM gone
