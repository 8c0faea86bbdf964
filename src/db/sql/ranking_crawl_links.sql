-- Edges of a crawl's link graph, about as graph_edges_declare.sql counts them (an upper bound: links to pages
-- robots.txt forbids are left out, links to a redirect target are not merged), or no row when there is no
-- crawl $1.
SELECT (SELECT count(*) FROM links l JOIN pages p ON p.id = l.from_page JOIN pages q ON q.id = l.to_page
        WHERE p.crawl_id = $1 AND l.from_page <> l.to_page AND q.type <> 'DISALLOWED')::int AS links
FROM crawls WHERE id = $1
