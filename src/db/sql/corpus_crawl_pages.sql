-- The next batch of a crawl's documents for a corpus after page id $2, keyset on pages_by_crawl: HTML pages with
-- their stored body (raw in html, or gzip in html_gzip for rows written before raw bodies), and documents (BINARY) with the text read from them.
-- A page that stored no body of its own (a recrawl's 304) has the one it points at (body_of).
SELECT p.id, coalesce(p.final_url, p.url) AS url, p.content_type,
       CASE WHEN p.type = 'HTML' THEN c.html END AS html,
       CASE WHEN p.type = 'HTML' THEN c.html_gzip END AS html_gzip,
       CASE WHEN p.type = 'BINARY' THEN c.main_text END AS document_text
FROM pages p JOIN page_contents c ON c.page_id = coalesce(p.body_of, p.id)
WHERE p.crawl_id = $1 AND p.id > $2
  AND ((p.type = 'HTML' AND (c.html IS NOT NULL OR c.html_gzip IS NOT NULL)) OR (p.type = 'BINARY' AND c.main_text IS NOT NULL))
ORDER BY p.id
LIMIT $3
