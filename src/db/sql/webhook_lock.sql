-- Takes crawl $1's webhook delivery lock (session level) if no other connection holds it.
SELECT pg_try_advisory_lock(hashtext('trawl.webhook.' || $1)) AS ok
