-- Records the answer of the request that holds (scope, key), to be replayed.
UPDATE idempotency_keys SET state = 'done', status_code = $3, headers = $4, response_body = $5
WHERE scope = $1 AND key = $2 AND state = 'in_progress'
