-- Deletes ranking $1 (and its uploaded chunks) when key $3 may see it (when $2); its vertices go in batches
-- after (purge_ranking_vertices.sql). Returns the id, or nothing when there was none to delete.
DELETE FROM rankings
WHERE id = $1 AND (NOT $2::boolean OR owner = $3::uuid OR ($3::uuid IS NULL AND owner IS NULL))
RETURNING id
