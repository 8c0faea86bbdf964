-- Deletes crawl $1's next $3 pages after page id $2, with what hangs on them (bodies, responses, screenshots,
-- documents by cascade; links and images by the statement trigger of migration 0033); returns how many went
-- and the last id, where the next batch starts. The ids are read first (an InitPlan) and deleted by the
-- primary key, whatever the statistics say of the crawl.
WITH gone AS (
  DELETE FROM pages
  WHERE id = ANY (ARRAY(SELECT id FROM pages WHERE crawl_id = $1 AND id > $2 ORDER BY id LIMIT $3))
  RETURNING id
)
SELECT count(*)::int AS n, max(id) AS last_id FROM gone
