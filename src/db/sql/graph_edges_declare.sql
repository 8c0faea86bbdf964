-- Edges of a crawl's link graph: no self-loops, no duplicates, only between vertices (graph_vertices_declare.sql). A
-- link to a redirect target reached inside another page's fetch goes to that page; links to pages robots.txt
-- forbids are not edges (a URL is a vertex only if it may be crawled, docs/reference.md#strategies). $2 true:
-- only between fetched pages (a topic crawl capped by pages fetched: nothing still in the frontier).
-- Declared as a cursor (graph_edges) in a read-only snapshot: the rows are fetched in batches (crawls-repo.ts).
DECLARE graph_edges NO SCROLL CURSOR FOR
SELECT DISTINCT l.from_page,
       CASE WHEN q.type = 'DUPLICATE' AND q.status IS NULL AND q.duplicate_of IS NOT NULL
            THEN q.duplicate_of ELSE q.id END AS to_page
FROM links l
JOIN pages p ON p.id = l.from_page
JOIN pages q ON q.id = l.to_page
WHERE p.crawl_id = $1 AND q.type <> 'DISALLOWED' AND NOT ($2::boolean AND q.type = 'FRONTIER')
  AND l.from_page <> CASE WHEN q.type = 'DUPLICATE' AND q.status IS NULL AND q.duplicate_of IS NOT NULL
                          THEN q.duplicate_of ELSE q.id END
ORDER BY 1, 2
