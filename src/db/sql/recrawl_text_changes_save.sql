-- Stores how changed recrawl pages $1 compare with their earlier main texts: $2 text changed, $3 similarity.
UPDATE pages p SET text_changed = t.text_changed, similarity = t.similarity
FROM unnest($1::bigint[], $2::boolean[], $3::real[]) AS t (page_id, text_changed, similarity)
WHERE p.id = t.page_id
