-- Crawl $1's HTML pages, its documents whose text was read, those of them whose text still waits for the text
-- job (a recrawl's 304 pages wait with the earlier page's text, as documents do), and those the text job could
-- not count.
SELECT
  (SELECT count(*) FROM pages WHERE crawl_id = $1 AND type = 'HTML')::int AS html_pages,
  (SELECT count(*) FROM page_contents c JOIN pages p ON p.id = c.page_id
   WHERE p.crawl_id = $1 AND p.type = 'BINARY' AND c.main_text IS NOT NULL)::int AS document_pages,
  (SELECT count(*) FROM page_contents c JOIN pages p ON p.id = c.page_id
   WHERE p.crawl_id = $1
     AND c.text_extracted_at IS NULL AND (c.html IS NOT NULL OR c.html_gzip IS NOT NULL OR c.main_text IS NOT NULL)
     AND ((p.type = 'HTML' AND (c.html IS NOT NULL OR c.html_gzip IS NOT NULL))
          OR ((p.type = 'BINARY' OR p.body_of IS NOT NULL) AND c.main_text IS NOT NULL)))::int AS pending_pages,
  (SELECT count(*) FROM page_contents c JOIN pages p ON p.id = c.page_id
   WHERE p.crawl_id = $1 AND c.text_error IS NOT NULL)::int AS failed_pages
