-- Keeps a finished crawl's storage ($2) so later status reads do not measure it again.
UPDATE crawls SET storage = $2 WHERE id = $1 AND status IN ('completed', 'failed', 'cancelled')
