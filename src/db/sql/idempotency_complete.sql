-- Records the answer of the request that holds (scope, key), to be replayed, and its fingerprint when $6 gives
-- the one known only once its body was read.
UPDATE idempotency_keys
SET state = 'done', status_code = $3, headers = $4, response_body = $5, request_hash = COALESCE($6, request_hash)
WHERE scope = $1 AND key = $2 AND state = 'in_progress'
