-- Idempotency-Key of the POSTs that create jobs (Stripe's semantics): per scope (an API key id, or the
-- client IP while the service runs open) and key, the request's hash and, once answered, the first answer,
-- replayed for 24 hours. Expired rows are taken over by a new request with their key, or deleted lazily.
CREATE TABLE idempotency_keys (
  scope         text NOT NULL,
  key           text NOT NULL,
  request_hash  text NOT NULL,
  state         text NOT NULL CHECK (state IN ('in_progress', 'done')),
  status_code   integer,
  headers       jsonb,
  response_body text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
