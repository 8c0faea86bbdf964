-- Drops the per-vertex results of ranking $1 (a retried job stores them afresh).
DELETE FROM ranking_vertices WHERE ranking_id = $1
