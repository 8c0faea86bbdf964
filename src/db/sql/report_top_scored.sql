-- The $2 best-scored pages of crawl $1 (ties in discovery order).
SELECT id, url, title, score
FROM pages
WHERE crawl_id = $1 AND score IS NOT NULL
ORDER BY score DESC, id
LIMIT $2
