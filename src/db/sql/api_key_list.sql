-- Every API key, newest first (hashes stay in the database).
SELECT id, name, prefix, is_admin, created_at, revoked_at, max_running_crawls, max_pages_per_month, max_stored_bytes FROM api_keys ORDER BY created_at DESC, id DESC
