-- Rankings, newest first, keyset-paginated on (created_at, id), without their top lists (a summary of each);
-- when $4 is true, only those of key $5 (NULL: made while the service ran open).
SELECT id, crawl_id, status, created_at, owner,
       (summary ->> 'vertices')::int AS vertices,
       (summary ->> 'edges')::int AS edges,
       (summary ->> 'iterations')::int AS iterations,
       error ->> 'detail' AS error
FROM rankings
WHERE ($1::timestamptz IS NULL OR (created_at, id) < ($1::timestamptz, $2::uuid))
  AND (NOT $4::boolean OR owner = $5::uuid OR ($5::uuid IS NULL AND owner IS NULL))
ORDER BY created_at DESC, id DESC
LIMIT $3
