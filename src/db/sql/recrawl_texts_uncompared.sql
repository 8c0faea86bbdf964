-- Changed pages of recrawl $1 after page id $2 whose main text is counted and whose earlier main text is stored,
-- not compared yet (the text job stored the page's text before its class was recorded, or the earlier page's
-- text came later), with both texts; $3 rows in id order (pages_by_crawl_change, migrations/0045).
SELECT p.id AS page_id, c.main_text, ec.main_text AS earlier_text
FROM pages p
JOIN page_contents c ON c.page_id = p.id
JOIN pages e ON e.id = p.previous_page
JOIN page_contents ec ON ec.page_id = coalesce(e.body_of, e.id)
WHERE p.crawl_id = $1 AND p.change = 'changed' AND p.id > $2 AND p.text_changed IS NULL
  AND c.text_extracted_at IS NOT NULL AND c.main_text IS NOT NULL
  AND ec.main_text IS NOT NULL
ORDER BY p.id
LIMIT $3
