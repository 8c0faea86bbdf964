-- Deletes up to $2 of ranking $1's vertices; returns how many went (by tuple id, as purge_content_hashes.sql
-- deletes: a ranking being deleted is never written again).
WITH gone AS (
  DELETE FROM ranking_vertices
  WHERE ctid = ANY (ARRAY(SELECT ctid FROM ranking_vertices WHERE ranking_id = $1 LIMIT $2))
  RETURNING 1
)
SELECT count(*)::int AS n FROM gone
