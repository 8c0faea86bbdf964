-- The first $3 pages of recrawl $1 of change class $2: text changes first, the least alike first (a changed
-- page's text compared by the text job), then in discovery order (pages_by_crawl_change, migrations/0045).
SELECT id, url, final_url, title, status, error, text_changed, similarity
FROM pages
WHERE crawl_id = $1 AND change = $2
ORDER BY text_changed DESC NULLS LAST, similarity NULLS LAST, id
LIMIT $3
