-- Marks pages $1 (not yet marked) as done without text or words, for reason $2; returns the ids it marked.
UPDATE page_contents SET main_text = NULL, text_extracted_at = now(), text_error = $2
WHERE page_id = ANY($1::bigint[]) AND text_extracted_at IS NULL
RETURNING page_id
