-- Deletes corpus $1 when key $3 may see it (when $2); its terms go in batches after (purge_corpus_terms.sql).
-- Returns the id, or nothing when there was none to delete.
DELETE FROM corpora
WHERE id = $1 AND (NOT $2::boolean OR owner = $3::uuid OR ($3::uuid IS NULL AND owner IS NULL))
RETURNING id
