-- Keys named by id or by display prefix ($1 is text: a prefix is not a uuid).
SELECT id, name, prefix, is_admin, created_at, revoked_at FROM api_keys WHERE id::text = $1 OR prefix = $1
