-- Revokes a key (a key revoked before keeps its first revocation time).
UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1
RETURNING id, name, prefix, is_admin, created_at, revoked_at, max_running_crawls, max_pages_per_month, max_stored_bytes
