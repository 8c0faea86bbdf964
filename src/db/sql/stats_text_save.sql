-- Stores the main text of pages not yet marked ($1 ids, $2 texts; a null text keeps the one stored as the page
-- was fetched, unwritten); returns the ids this statement marked.
UPDATE page_contents c SET main_text = coalesce(t.main_text, c.main_text), text_extracted_at = now()
FROM unnest($1::bigint[], $2::text[]) AS t (page_id, main_text)
WHERE c.page_id = t.page_id AND c.text_extracted_at IS NULL
RETURNING c.page_id
