-- The links the earlier crawl recorded for recrawl page $2 of crawl $1 (its previous page's page_links row):
-- each target's canonical URL and anchor, in the row's order.
SELECT t.canonical_url AS url, l.anchor
FROM pages p
JOIN page_links pl ON pl.page_id = p.previous_page
CROSS JOIN LATERAL unnest(pl.to_pages, pl.anchors) WITH ORDINALITY AS l(to_page, anchor, n)
JOIN pages t ON t.id = l.to_page
WHERE p.crawl_id = $1 AND p.id = $2
ORDER BY l.n
