-- Downloaded images of crawl $1 whose bytes are an earlier page's: DUPLICATE pages found by their body's SHA-256
-- (a copy found by its URL has no hash) and served as image/*. They are among the crawl's DUPLICATE pages too.
SELECT count(*)::int AS duplicates
FROM pages
WHERE crawl_id = $1 AND type = 'DUPLICATE' AND sha256 IS NOT NULL AND content_type ILIKE 'image/%'
