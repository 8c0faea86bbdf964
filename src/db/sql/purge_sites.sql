-- Deletes up to $2 of crawl $1's sites with their politeness slots; returns how many went (ids read first, as
-- purge_pages.sql reads them).
WITH gone AS (
  DELETE FROM sites WHERE id = ANY (ARRAY(SELECT id FROM sites WHERE crawl_id = $1 LIMIT $2))
  RETURNING 1
)
SELECT count(*)::int AS n FROM gone
