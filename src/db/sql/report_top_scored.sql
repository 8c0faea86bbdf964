-- The $2 best-scored pages of crawl $1 (ties in discovery order), in pages_by_crawl_score's order.
SELECT id, url, title, score
FROM pages
WHERE crawl_id = $1 AND score IS NOT NULL
ORDER BY -coalesce(score, -1), id
LIMIT $2
