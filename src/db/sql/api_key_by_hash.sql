-- The key whose SHA-256 is $1, revoked or not.
SELECT id, is_admin, revoked_at FROM api_keys WHERE key_hash = $1
