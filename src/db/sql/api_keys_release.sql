-- Revokes every key not yet released and releases it, so that none holds the service closed (`trawl keys open`).
UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()), released_at = now() WHERE released_at IS NULL
RETURNING id, name, prefix, is_admin, created_at, revoked_at, max_running_crawls, max_pages_per_month, max_stored_bytes
