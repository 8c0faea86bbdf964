-- Takes schedule $1's run lock (session level) if no other connection holds it.
SELECT pg_try_advisory_lock(hashtext('trawl.schedule.' || $1)) AS ok
