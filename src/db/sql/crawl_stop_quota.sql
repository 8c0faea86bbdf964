-- Stops running crawl $1 as completed because its tenant reached a quota ($2 says which, kept as a warning);
-- its runners see it at their next claim and stop, keeping every page stored. Returns the id when this
-- statement stopped it.
UPDATE crawls SET status = 'completed', finished_at = now(), stop_reason = 'quota', warnings = warnings || $2::text
WHERE id = $1 AND status = 'running'
RETURNING id
