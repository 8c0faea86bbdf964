-- Pages of crawl $1 after page id $2 whose text is not counted yet, in id order (keyset): HTML pages with a
-- stored body (gzip), and documents whose text was read as they were fetched (main_text). At most $3 pages,
-- and no more than $4 bytes of bodies or texts beyond the first page, so a batch of huge pages is not read into
-- the worker at once. octet_length reads a stored value's size without its bytes.
SELECT id, type, content_type, html_gzip, main_text
FROM (
  SELECT p.id, p.type, p.content_type,
         CASE WHEN p.type = 'HTML' THEN c.html_gzip END AS html_gzip,
         CASE WHEN p.type = 'BINARY' THEN c.main_text END AS main_text,
         sum(coalesce(octet_length(c.html_gzip), octet_length(c.main_text))) OVER (ORDER BY p.id)
           - coalesce(octet_length(c.html_gzip), octet_length(c.main_text)) AS bytes_before
  FROM page_contents c
  JOIN pages p ON p.id = c.page_id
  WHERE p.crawl_id = $1 AND p.id > $2
    AND c.text_extracted_at IS NULL AND (c.html_gzip IS NOT NULL OR c.main_text IS NOT NULL)
    AND ((p.type = 'HTML' AND c.html_gzip IS NOT NULL) OR (p.type = 'BINARY' AND c.main_text IS NOT NULL))
  ORDER BY p.id
  LIMIT $3
) batch
WHERE bytes_before = 0 OR bytes_before < $4
ORDER BY id
