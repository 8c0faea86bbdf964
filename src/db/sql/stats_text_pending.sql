-- Pages of crawl $1 after page id $2 whose text is not counted yet, in id order (keyset): pages whose main text
-- was read as they were fetched (HTML pages, documents) or copied from the earlier page (a recrawl's 304 pages,
-- body_of: page_record_change.sql), with that text; HTML pages whose text was not read, with the first $5
-- bytes of their stored body (raw, or gzip for rows written before raw bodies: the text is read from the
-- body's first bytes only). At most $3 pages, and no more than $4 bytes of bodies or texts beyond the first
-- page, so a batch of huge pages is not read into the worker at once. octet_length reads a stored value's
-- size without its bytes; substring reads and decompresses only the slice it returns.
SELECT id, type, content_type, html, html_gzip, main_text
FROM (
  SELECT p.id, p.type, p.content_type,
         CASE WHEN p.type = 'HTML' AND c.main_text IS NULL THEN substring(c.html FROM 1 FOR $5) END AS html,
         CASE WHEN p.type = 'HTML' AND c.main_text IS NULL THEN substring(c.html_gzip FROM 1 FOR $5) END
           AS html_gzip,
         c.main_text,
         sum(coalesce(octet_length(c.main_text), least(octet_length(coalesce(c.html, c.html_gzip)), $5)))
           OVER (ORDER BY p.id)
           - coalesce(octet_length(c.main_text), least(octet_length(coalesce(c.html, c.html_gzip)), $5))
           AS bytes_before
  FROM page_contents c
  JOIN pages p ON p.id = c.page_id
  WHERE p.crawl_id = $1 AND p.id > $2
    AND c.text_extracted_at IS NULL AND (c.html IS NOT NULL OR c.html_gzip IS NOT NULL OR c.main_text IS NOT NULL)
    AND ((p.type = 'HTML' AND (c.html IS NOT NULL OR c.html_gzip IS NOT NULL))
         OR ((p.type = 'BINARY' OR p.body_of IS NOT NULL) AND c.main_text IS NOT NULL))
  ORDER BY p.id
  LIMIT $3
) batch
WHERE bytes_before = 0 OR bytes_before < $4
ORDER BY id
