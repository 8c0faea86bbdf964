-- Deletes purging crawl $1's row, taking what is left by cascade (webhook events and deliveries, counters,
-- word statistics, and any page a runner still wrote as it stopped). Returns the id when it went.
DELETE FROM crawls WHERE id = $1 AND status = 'purging' RETURNING id
