-- The next batch of a crawl's stored HTML bodies (gzip) after page id $2, keyset on pages_by_crawl.
SELECT p.id, coalesce(p.final_url, p.url) AS url, p.content_type, c.html_gzip
FROM pages p JOIN page_contents c ON c.page_id = p.id
WHERE p.crawl_id = $1 AND p.id > $2 AND p.type = 'HTML' AND c.html_gzip IS NOT NULL
ORDER BY p.id
LIMIT $3
