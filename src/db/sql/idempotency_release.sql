-- Lets go of (scope, key) when its request saved no answer (a 5xx, a 429): a retry runs it anew.
DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND state = 'in_progress'
