-- Claims (scope, key) for a request with this hash, taking over a row older than $4 hours or one left in
-- progress for 5 minutes (its process died mid-request); no row when the key is held.
INSERT INTO idempotency_keys (scope, key, request_hash, state) VALUES ($1, $2, $3, 'in_progress')
ON CONFLICT (scope, key) DO UPDATE
  SET request_hash = EXCLUDED.request_hash, state = 'in_progress', status_code = NULL, headers = NULL,
      response_body = NULL, created_at = now()
  WHERE idempotency_keys.created_at < now() - make_interval(hours => $4)
     OR (idempotency_keys.state = 'in_progress' AND idempotency_keys.created_at < now() - interval '5 minutes')
RETURNING key
