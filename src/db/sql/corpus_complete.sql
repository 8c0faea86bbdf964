-- A build finished: its counts and last progress; only a running corpus completes.
UPDATE corpora
SET status = 'completed', document_count = $2, term_count = $3, progress = $4, finished_at = now()
WHERE id = $1 AND status = 'running'
