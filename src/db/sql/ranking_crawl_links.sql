-- Edges of a crawl's link graph (as graph_edges counts them), or no row when there is no crawl $1.
SELECT (SELECT count(*) FROM links l JOIN pages p ON p.id = l.from_page
        WHERE p.crawl_id = $1 AND l.from_page <> l.to_page)::int AS links
FROM crawls WHERE id = $1
