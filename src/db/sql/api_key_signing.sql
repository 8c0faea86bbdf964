-- The key $1 (an id) with the hash its signed links are keyed with, revoked or not; none for a malformed id.
SELECT id, is_admin, revoked_at, key_hash FROM api_keys WHERE id::text = $1
