-- Of pages $1, whose main text was just stored, the recrawl pages classed changed and not compared yet (as
-- they were recorded: page_record_change*.sql) whose earlier page has its main text stored too (counted by the
-- earlier crawl's text job or not): both texts, to compare (textChanged, similarity).
SELECT p.id AS page_id, c.main_text, ec.main_text AS earlier_text
FROM pages p
JOIN page_contents c ON c.page_id = p.id
JOIN pages e ON e.id = p.previous_page
JOIN page_contents ec ON ec.page_id = coalesce(e.body_of, e.id)
WHERE p.id = ANY($1::bigint[]) AND p.change = 'changed' AND p.text_changed IS NULL
  AND c.main_text IS NOT NULL AND ec.main_text IS NOT NULL
