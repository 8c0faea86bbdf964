-- HTML pages of crawl $1 after page id $2 whose stored body has no extracted text yet, in id order (keyset):
-- at most $3 pages, and no more than $4 bytes of bodies (gzip) beyond the first page, so a batch of huge
-- pages is not read into the worker at once. octet_length reads a stored value's size without its bytes.
SELECT id, content_type, html_gzip
FROM (
  SELECT p.id, p.content_type, c.html_gzip,
         sum(octet_length(c.html_gzip)) OVER (ORDER BY p.id) - octet_length(c.html_gzip) AS bytes_before
  FROM page_contents c
  JOIN pages p ON p.id = c.page_id
  WHERE p.crawl_id = $1 AND p.id > $2 AND p.type = 'HTML'
    AND c.text_extracted_at IS NULL AND c.html_gzip IS NOT NULL
  ORDER BY p.id
  LIMIT $3
) batch
WHERE bytes_before = 0 OR bytes_before < $4
ORDER BY id
