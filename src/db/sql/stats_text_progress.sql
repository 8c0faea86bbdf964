-- Crawl $1's HTML pages, those of them whose stored body still waits for text extraction, and those the text
-- job could not count.
SELECT
  (SELECT count(*) FROM pages WHERE crawl_id = $1 AND type = 'HTML')::int AS html_pages,
  (SELECT count(*) FROM page_contents c JOIN pages p ON p.id = c.page_id
   WHERE p.crawl_id = $1 AND p.type = 'HTML'
     AND c.text_extracted_at IS NULL AND c.html_gzip IS NOT NULL)::int AS pending_pages,
  (SELECT count(*) FROM page_contents c JOIN pages p ON p.id = c.page_id
   WHERE p.crawl_id = $1 AND c.text_error IS NOT NULL)::int AS failed_pages
