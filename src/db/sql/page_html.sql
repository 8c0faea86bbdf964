-- The stored body of one page: raw (html), or gzip (html_gzip) for rows written before raw bodies.
SELECT html, html_gzip FROM page_contents WHERE page_id = $1
