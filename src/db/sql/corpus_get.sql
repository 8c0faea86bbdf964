-- One corpus without its source (which may hold the uploaded documents); when $2 is true, only if it
-- belongs to key $3 (NULL: made while the service ran open).
SELECT id, name, status, document_count, term_count, progress, error, created_at, finished_at, text_settings,
       owner
FROM corpora WHERE id = $1 AND (NOT $2::boolean OR owner = $3::uuid OR ($3::uuid IS NULL AND owner IS NULL))
