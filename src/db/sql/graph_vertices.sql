-- Vertices of a crawl's link graph: every page that is an end of a link, plus every fetched HTML page.
SELECT p.id, p.url FROM pages p
WHERE p.crawl_id = $1
  AND (p.type = 'HTML' OR EXISTS (SELECT 1 FROM links l WHERE l.from_page = p.id OR l.to_page = p.id))
ORDER BY p.id
