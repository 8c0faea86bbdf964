-- Marks a queued (or retaken running) ranking as running; no row when it already ended or does not exist.
UPDATE rankings SET status = 'running', updated_at = now()
WHERE id = $1 AND status IN ('queued', 'running')
RETURNING id, crawl_id, status, params, summary, error, created_at
