-- The first $2 requested pages of crawl $1 in discovery order, with the links and images found on each.
SELECT p.id, p.url, p.title, p.status, p.type, p.bytes, p.load_ms, p.score,
       (SELECT count(*) FROM links WHERE from_page = p.id)::int AS links,
       (SELECT count(*) FROM images WHERE page_id = p.id)::int AS images
FROM pages p
WHERE p.crawl_id = $1 AND p.type NOT IN ('FRONTIER', 'DISALLOWED')
ORDER BY p.id
LIMIT $2
