-- Pages of recrawl $1 after page id $2 that the earlier crawl fetched and this one never reached (no change
-- class: left in the frontier when the page budget ran out or the crawl was cancelled, or now disallowed by
-- robots.txt), with the earlier page; $3 rows, in id order (pages_recrawl_unreached, migrations/0045).
SELECT r.id, r.url, r.type, r.error, e.id AS previous_page, e.crawl_id AS previous_crawl, e.type AS previous_type,
       e.status AS previous_status, e.fetched_at AS previous_fetched_at
FROM pages r
JOIN pages e ON e.id = r.previous_page
WHERE r.crawl_id = $1 AND r.id > $2 AND r.previous_page IS NOT NULL AND r.change IS NULL
ORDER BY r.id
LIMIT $3
