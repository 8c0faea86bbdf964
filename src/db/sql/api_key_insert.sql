-- Stores a new API key by its hash (the key itself is shown once and never stored).
INSERT INTO api_keys (id, name, key_hash, prefix, is_admin) VALUES ($1, $2, $3, $4, $5)
RETURNING id, name, prefix, is_admin, created_at, revoked_at
