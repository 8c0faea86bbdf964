-- The stored body of one page: raw (html), or gzip (html_gzip) for rows written before raw bodies; a page that
-- stored none of its own (a recrawl's 304) reads the body it points at (body_of, migrations/0045).
SELECT c.html, c.html_gzip
FROM pages p JOIN page_contents c ON c.page_id = coalesce(p.body_of, p.id)
WHERE p.id = $1
