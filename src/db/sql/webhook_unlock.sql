-- Gives back crawl $1's webhook delivery lock.
SELECT pg_advisory_unlock(hashtext('trawl.webhook.' || $1))
