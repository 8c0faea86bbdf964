-- Vertices of a crawl's link graph: every fetched HTML page and every end of an edge (graph_edges.sql, the
-- same rules): neither pages robots.txt forbids nor redirect targets reached inside another page's fetch; $2
-- true: no page still in the frontier either.
WITH ends AS (
  SELECT l.from_page AS id,
         CASE WHEN q.type = 'DUPLICATE' AND q.status IS NULL AND q.duplicate_of IS NOT NULL
              THEN q.duplicate_of ELSE q.id END AS to_id
  FROM links l
  JOIN pages p ON p.id = l.from_page
  JOIN pages q ON q.id = l.to_page
  WHERE p.crawl_id = $1 AND q.type <> 'DISALLOWED' AND NOT ($2::boolean AND q.type = 'FRONTIER')
)
SELECT p.id, p.url FROM pages p
WHERE p.crawl_id = $1
  AND (p.type = 'HTML'
       OR p.id IN (SELECT id FROM ends WHERE id <> to_id)
       OR p.id IN (SELECT to_id FROM ends WHERE id <> to_id))
ORDER BY p.id
