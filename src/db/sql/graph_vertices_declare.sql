-- Vertices of a crawl's link graph: every fetched HTML page and every end of an edge (graph_edges_declare.sql,
-- the same rules): neither pages robots.txt forbids nor redirect targets reached inside another page's fetch; $2
-- true: no page still in the frontier either. The edges' ends are joined, not tested with `IN` under an OR:
-- PostgreSQL runs such a test as a subplan that rescans every end for every page once the ends outgrow
-- work_mem (quadratic in the crawl's size), where a join hashes them once.
-- Declared as a cursor (graph_vertices) in a read-only snapshot: the rows are fetched in batches (crawls-repo.ts).
DECLARE graph_vertices NO SCROLL CURSOR FOR
WITH ends AS (
  SELECT l.from_page AS id,
         CASE WHEN q.type = 'DUPLICATE' AND q.status IS NULL AND q.duplicate_of IS NOT NULL
              THEN q.duplicate_of ELSE q.id END AS to_id
  FROM links l
  JOIN pages p ON p.id = l.from_page
  JOIN pages q ON q.id = l.to_page
  WHERE p.crawl_id = $1 AND q.type <> 'DISALLOWED' AND NOT ($2::boolean AND q.type = 'FRONTIER')
),
edge_ends AS (
  SELECT id FROM ends WHERE id <> to_id
  UNION
  SELECT to_id FROM ends WHERE id <> to_id
)
SELECT p.id, p.url FROM pages p WHERE p.crawl_id = $1 AND p.type = 'HTML'
UNION
SELECT p.id, p.url FROM pages p JOIN edge_ends e ON e.id = p.id WHERE p.crawl_id = $1
ORDER BY id
