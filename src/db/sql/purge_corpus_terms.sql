-- Deletes up to $2 of corpus $1's terms; returns how many went.
WITH gone AS (
  DELETE FROM corpus_terms
  WHERE corpus_id = $1 AND term IN (SELECT term FROM corpus_terms WHERE corpus_id = $1 LIMIT $2)
  RETURNING 1
)
SELECT count(*)::int AS n FROM gone
