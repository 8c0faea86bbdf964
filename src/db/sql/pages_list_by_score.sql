-- Pages of crawl $1 best score first (unscored last, ties in id order) after the cursor ($9 score, $2 id;
-- none when both are null/0), filtered as in pages_list.sql ($3 type, $4 status, $5 host, $7 minimum score,
-- $8 result, $10 change class); $6 rows. The order and the cursor are one ascending key, (-coalesce(score, -1), id), that
-- pages_by_crawl_score (migrations/0021) holds, so a page deep in the list is one index seek.
-- the page record as the pages API shows it (page_records, migrations/0023)
SELECT p.*
FROM page_records p
WHERE p.crawl_id = $1
  AND (($9::float8 IS NULL AND $2::bigint = 0)
       OR (-coalesce(p.score, -1), p.id) > (-coalesce($9::float8, -1), $2::bigint))
  AND ($3::text IS NULL OR p.type = $3)
  AND ($4::int IS NULL OR p.status = $4)
  AND ($5::text IS NULL OR p.site_id IN (SELECT id FROM sites WHERE crawl_id = $1 AND split_part(origin, '://', 2) = $5))
  -- the same bound on the index key, so the scan ends where the scores drop below it
  AND ($7::float8 IS NULL OR (p.score >= $7 AND -coalesce(p.score, -1) <= -$7::float8))
  AND ($8::boolean IS NULL OR p.result = $8)
  AND ($10::text IS NULL OR p.change = $10)
ORDER BY -coalesce(p.score, -1), p.id
LIMIT $6
