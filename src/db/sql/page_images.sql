-- The images one page shows.
SELECT url, alt FROM images WHERE page_id = $1 ORDER BY id
