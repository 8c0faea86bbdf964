-- Changes key $1: its name when $2 is not null, and each quota whose "given" flag ($3, $5, $7) is true (a null
-- value removes the limit).
UPDATE api_keys
SET name = coalesce($2, name),
    max_running_crawls = CASE WHEN $3::boolean THEN $4::integer ELSE max_running_crawls END,
    max_pages_per_month = CASE WHEN $5::boolean THEN $6::bigint ELSE max_pages_per_month END,
    max_stored_bytes = CASE WHEN $7::boolean THEN $8::bigint ELSE max_stored_bytes END
WHERE id = $1
RETURNING id, name, prefix, is_admin, created_at, revoked_at, max_running_crawls, max_pages_per_month, max_stored_bytes
