-- HTML pages of crawl $1 after page id $2 whose stored body has no extracted text yet, in id order (keyset).
SELECT p.id, p.content_type, c.html_gzip
FROM page_contents c
JOIN pages p ON p.id = c.page_id
WHERE p.crawl_id = $1 AND p.id > $2 AND p.type = 'HTML'
  AND c.text_extracted_at IS NULL AND c.html_gzip IS NOT NULL
ORDER BY p.id
LIMIT $3
