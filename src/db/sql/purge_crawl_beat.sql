-- A purge job reports on crawl $1 between batches, so the orphan sweeper leaves it to that job.
UPDATE crawls SET heartbeat_at = now() WHERE id = $1 AND status = 'purging'
