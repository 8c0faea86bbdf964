-- Queues the pages earlier crawl $2 fetched (HTML, BINARY, DUPLICATE) as FRONTIER pages of its recrawl $1 at
-- priority $3, in the earlier crawl's order (ids follow it, and the frontier's tie-break is the id), each
-- remembering its earlier page (previous_page). A seed queued already keeps its row and gains its earlier page.
-- Revisits keep their earlier depth; the recrawl's scope and maxDepth govern what it discovers.
INSERT INTO pages AS p (crawl_id, site_id, url, canonical_url, depth, priority, previous_page)
SELECT $1, s.id, e.url, e.canonical_url, e.depth, $3, e.id
FROM pages e
JOIN sites es ON es.id = e.site_id
JOIN sites s ON s.crawl_id = $1 AND s.origin = es.origin
WHERE e.crawl_id = $2 AND e.type IN ('HTML', 'BINARY', 'DUPLICATE')
ORDER BY e.id
ON CONFLICT (crawl_id, canonical_url) DO UPDATE SET previous_page = EXCLUDED.previous_page
