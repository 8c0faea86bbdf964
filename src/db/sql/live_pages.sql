-- Fetched (non-frontier) pages of crawl $1 with id at least $2, in id order: the page events of a live stream.
SELECT id, url, type, status, content_type, bytes, load_ms, depth, score, title, fetched_at
FROM pages
WHERE crawl_id = $1 AND id >= $2 AND type <> 'FRONTIER'
ORDER BY id
LIMIT $3
