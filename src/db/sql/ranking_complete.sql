-- Stores the summary and structure figures ($3) of ranking $1 and marks it completed.
UPDATE rankings SET status = 'completed', summary = $2, graph = $3, error = NULL, updated_at = now() WHERE id = $1
