-- The quotas of key $1 (no row: no such key).
SELECT max_running_crawls, max_pages_per_month, max_stored_bytes FROM api_keys WHERE id = $1
