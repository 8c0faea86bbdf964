-- The stored bodies (raw in html, or gzip in html_gzip for rows written before raw bodies) and main texts of pages $1 (a batch of an export); $2 / $3 say which are wanted.
SELECT page_id, CASE WHEN $2::boolean THEN html END AS html, CASE WHEN $2::boolean THEN html_gzip END AS html_gzip, CASE WHEN $3::boolean THEN main_text END AS main_text
FROM page_contents WHERE page_id = ANY($1::bigint[])
