-- One page of crawl $1 with its stored main text, or the first $3 bytes of its stored body (raw, or gzip for
-- rows written before raw bodies) when no text is stored yet (the text is read from its first bytes). A page
-- that stored no body of its own (a recrawl's 304) reads the one it points at (body_of).
SELECT p.type, p.content_type, c.main_text, c.text_extracted_at,
       CASE WHEN c.text_extracted_at IS NULL AND c.main_text IS NULL THEN substring(c.html FROM 1 FOR $3) END
         AS html,
       CASE WHEN c.text_extracted_at IS NULL AND c.main_text IS NULL THEN substring(c.html_gzip FROM 1 FOR $3) END
         AS html_gzip
FROM pages p LEFT JOIN page_contents c ON c.page_id = coalesce(p.body_of, p.id)
WHERE p.crawl_id = $1 AND p.id = $2
