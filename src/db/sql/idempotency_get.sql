-- The request that holds (scope, key): its hash, state and, when done, its answer.
SELECT request_hash, state, status_code, headers, response_body FROM idempotency_keys
WHERE scope = $1 AND key = $2 AND created_at >= now() - make_interval(hours => $3)
