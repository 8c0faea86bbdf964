-- A build gave up: the reason, and the progress when one is given.
UPDATE corpora SET status = 'failed', error = $2, progress = COALESCE($3, progress), finished_at = now()
WHERE id = $1 AND status IN ('queued', 'running')
