-- Stores a new API key by its hash (the key itself is shown once and never stored), with its quotas.
INSERT INTO api_keys (id, name, key_hash, prefix, is_admin, max_running_crawls, max_pages_per_month, max_stored_bytes)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
RETURNING id, name, prefix, is_admin, created_at, revoked_at, max_running_crawls, max_pages_per_month, max_stored_bytes
