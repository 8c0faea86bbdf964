-- Locks the row of crawl $1 until the transaction ends (NO KEY UPDATE, as claim_frontier.sql takes it): the
-- capped enqueues of a crawl take turns, and each one's next statement counts from a snapshot taken after.
SELECT id FROM crawls WHERE id = $1 FOR NO KEY UPDATE
