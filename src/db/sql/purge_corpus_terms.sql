-- Deletes up to $2 of corpus $1's terms; returns how many went (by tuple id, as purge_content_hashes.sql
-- deletes: a deleted corpus is never written again).
WITH gone AS (
  DELETE FROM corpus_terms
  WHERE ctid = ANY (ARRAY(SELECT ctid FROM corpus_terms WHERE corpus_id = $1 LIMIT $2))
  RETURNING 1
)
SELECT count(*)::int AS n FROM gone
