-- Keys named by id or by display prefix ($1 is text: a prefix is not a uuid).
SELECT id, name, prefix, is_admin, created_at, revoked_at, max_running_crawls, max_pages_per_month, max_stored_bytes FROM api_keys WHERE id::text = $1 OR prefix = $1
