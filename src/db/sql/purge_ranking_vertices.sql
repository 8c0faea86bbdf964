-- Deletes up to $2 of ranking $1's vertices; returns how many went.
WITH gone AS (
  DELETE FROM ranking_vertices
  WHERE ranking_id = $1 AND vertex IN (SELECT vertex FROM ranking_vertices WHERE ranking_id = $1 LIMIT $2)
  RETURNING 1
)
SELECT count(*)::int AS n FROM gone
