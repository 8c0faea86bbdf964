-- Whether crawl $1 still has a webhook event to deliver (its purge waits for them, `purged` last).
SELECT EXISTS (SELECT 1 FROM webhook_events WHERE crawl_id = $1 AND state = 'pending') AS pending
