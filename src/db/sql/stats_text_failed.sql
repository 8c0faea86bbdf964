-- Crawl $1's pages the text job could not count, with the reason, in id order, at most $2.
SELECT c.page_id, c.text_error
FROM page_contents c JOIN pages p ON p.id = c.page_id
WHERE p.crawl_id = $1 AND c.text_error IS NOT NULL
ORDER BY c.page_id
LIMIT $2
