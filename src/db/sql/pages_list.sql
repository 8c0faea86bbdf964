-- Pages of crawl $1 in id order after id $2, filtered by type $3, status $4, origin host $5, minimum score
-- $7, being a result $8 and a recrawl's change class $9; $6 rows. Served by pages_by_crawl (crawl_id, id),
-- pages_by_crawl_type, pages_by_crawl_status (migrations/0021) and pages_by_crawl_change (migrations/0045).
-- the page record as the pages API shows it (page_records, migrations/0023)
SELECT p.*
FROM page_records p
WHERE p.crawl_id = $1
  AND p.id > $2::bigint
  AND ($3::text IS NULL OR p.type = $3)
  AND ($4::int IS NULL OR p.status = $4)
  AND ($5::text IS NULL OR p.site_id IN (SELECT id FROM sites WHERE crawl_id = $1 AND split_part(origin, '://', 2) = $5))
  AND ($7::float8 IS NULL OR p.score >= $7)
  AND ($8::boolean IS NULL OR p.result = $8)
  AND ($9::text IS NULL OR p.change = $9)
ORDER BY p.id
LIMIT $6
