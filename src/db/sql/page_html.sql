-- The stored body of one page (gzip).
SELECT html_gzip FROM page_contents WHERE page_id = $1
