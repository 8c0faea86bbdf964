-- Edges of a crawl's link graph (no self-loops, no duplicates: links has one row per page pair).
SELECT l.from_page, l.to_page FROM links l JOIN pages p ON p.id = l.from_page
WHERE p.crawl_id = $1 AND l.from_page <> l.to_page
ORDER BY l.from_page, l.to_page
