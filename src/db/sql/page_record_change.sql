-- Records the change class $3 of recrawl page $2 of crawl $1. With $4 (a 304 Not Modified) the page stores no
-- body: body_of points at the page holding the earlier body, and takes the earlier page's main text when it is
-- stored (a stored main text is final: read as the page was fetched, or by the text job), as a document's
-- text waits for the text job: already read, its words still to be counted in this crawl's statistics
-- (stats_text_pending.sql), whether or not the earlier crawl's text job has counted them in its own. $5 and $6,
-- when not null, are how a changed page's main text compares with the earlier one (text changed, similarity).
WITH earlier AS (
  SELECT coalesce(e.body_of, e.id) AS body_page
  FROM pages p JOIN pages e ON e.id = p.previous_page
  WHERE $4::boolean AND p.crawl_id = $1 AND p.id = $2
),
recorded AS (
  UPDATE pages SET change = $3, body_of = (SELECT body_page FROM earlier),
    text_changed = coalesce($5::boolean, text_changed), similarity = coalesce($6::real, similarity)
  WHERE crawl_id = $1 AND id = $2
  RETURNING id
)
INSERT INTO page_contents (page_id, main_text, text_extracted_at)
SELECT recorded.id, c.main_text, NULL::timestamptz
FROM recorded, earlier JOIN page_contents c ON c.page_id = earlier.body_page
WHERE c.main_text IS NOT NULL
ON CONFLICT (page_id) DO NOTHING
