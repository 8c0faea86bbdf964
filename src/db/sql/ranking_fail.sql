-- Marks ranking $1 failed with its error (problem fields); a completed ranking stays completed.
UPDATE rankings SET status = 'failed', error = $2, updated_at = now()
WHERE id = $1 AND status IN ('queued', 'running')
