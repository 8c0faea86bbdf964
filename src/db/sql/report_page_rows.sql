-- The first $2 requested pages of crawl $1 in discovery order, with the links and images found on each: pages
-- fetched as the status counts them, so not a redirect's target reached inside another page's fetch (a
-- DUPLICATE without a status of its own).
SELECT p.id, p.url, p.title, p.status, p.type, p.bytes, p.load_ms, p.score,
       (SELECT count(*) FROM links WHERE from_page = p.id)::int AS links,
       (SELECT count(*) FROM images WHERE page_id = p.id)::int AS images
FROM pages p
WHERE p.crawl_id = $1 AND p.type NOT IN ('FRONTIER', 'DISALLOWED')
  AND NOT (p.type = 'DUPLICATE' AND p.status IS NULL)
ORDER BY p.id
LIMIT $2
