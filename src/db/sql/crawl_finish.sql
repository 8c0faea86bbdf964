-- Ends a running crawl once; later calls by other runners change nothing.
UPDATE crawls SET status = $2, error = $3, finished_at = now() WHERE id = $1 AND status IN ('queued', 'running')
