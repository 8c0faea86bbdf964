-- Stores the summary of ranking $1 and marks it completed.
UPDATE rankings SET status = 'completed', summary = $2, error = NULL, updated_at = now() WHERE id = $1
