-- The origins of the pages crawl $1 fetched (a recrawl of it needs their site rows before queuing them).
SELECT DISTINCT s.origin
FROM sites s
WHERE s.crawl_id = $1
  AND EXISTS (SELECT 1 FROM pages p WHERE p.site_id = s.id AND p.type IN ('HTML', 'BINARY', 'DUPLICATE'))
