-- The stored bodies (raw in html, or gzip in html_gzip for rows written before raw bodies) and main texts of pages $1 (a batch of an export); $2 / $3 say which are wanted.
-- A page that stored no body of its own (a recrawl's 304) has the contents of the page it points at (body_of).
SELECT p.id AS page_id, CASE WHEN $2::boolean THEN c.html END AS html, CASE WHEN $2::boolean THEN c.html_gzip END AS html_gzip, CASE WHEN $3::boolean THEN c.main_text END AS main_text
FROM pages p JOIN page_contents c ON c.page_id = coalesce(p.body_of, p.id)
WHERE p.id = ANY($1::bigint[])
