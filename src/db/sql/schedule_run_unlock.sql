-- Gives back schedule $1's run lock.
SELECT pg_advisory_unlock(hashtext('trawl.schedule.' || $1))
