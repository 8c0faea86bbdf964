-- Deletes keys older than $1 hours (lazily, now and then).
DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)
