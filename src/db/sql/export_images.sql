-- The images of pages $1 (a batch of an export).
SELECT page_id, url, alt FROM images WHERE page_id = ANY($1::bigint[]) ORDER BY page_id, id
