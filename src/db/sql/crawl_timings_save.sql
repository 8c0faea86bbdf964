-- Keeps a finished crawl's timing percentiles ($2) so later status reads do not scan its pages again.
UPDATE crawls SET timings = $2 WHERE id = $1 AND status IN ('completed', 'failed', 'cancelled')
