-- Ends one delivery attempt of events $1 (a page batch may merge several): new state, attempts, when to try next.
UPDATE webhook_events
SET state = $2, attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => $3::double precision / 1000)
WHERE id = ANY ($1::bigint[])
