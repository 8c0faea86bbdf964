-- Records the change classes of several recrawl pages of crawl $1 in one statement, as page_record_change.sql
-- records one: $2 page ids, $3 their change classes, $4 whether each was a 304 Not Modified (which stores no
-- body: body_of points at the page holding the earlier body, and the page takes the earlier main text, when
-- it is stored, still to be counted in this crawl's statistics), and $5, $6 how each changed page's main text
-- compares with the earlier one, where it was compared (text changed, similarity; null elsewhere).
WITH input AS (
  SELECT i.id, i.change, i.not_modified, i.text_changed, i.similarity
  FROM unnest($2::bigint[], $3::text[], $4::boolean[], $5::boolean[], $6::real[])
    AS i(id, change, not_modified, text_changed, similarity)
),
earlier AS (
  SELECT i.id, coalesce(e.body_of, e.id) AS body_page
  FROM input i
  JOIN pages p ON p.id = i.id AND p.crawl_id = $1
  JOIN pages e ON e.id = p.previous_page
  WHERE i.not_modified
),
recorded AS (
  UPDATE pages p SET change = i.change, body_of = (SELECT body_page FROM earlier WHERE earlier.id = i.id),
    text_changed = coalesce(i.text_changed, p.text_changed), similarity = coalesce(i.similarity, p.similarity)
  FROM input i
  WHERE p.crawl_id = $1 AND p.id = i.id
  RETURNING p.id
)
INSERT INTO page_contents (page_id, main_text, text_extracted_at)
SELECT recorded.id, c.main_text, NULL::timestamptz
FROM recorded
JOIN earlier ON earlier.id = recorded.id
JOIN page_contents c ON c.page_id = earlier.body_page
WHERE c.main_text IS NOT NULL
ON CONFLICT (page_id) DO NOTHING
