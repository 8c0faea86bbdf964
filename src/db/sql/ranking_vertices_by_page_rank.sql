-- Vertices of ranking $1 by page rank, largest first, ties by name; keyset after ($2, $3) when $2 is given.
SELECT vertex, page_rank, in_degree, out_degree, clustering, weak_component, strong_component FROM ranking_vertices
WHERE ranking_id = $1
  AND ($2::float8 IS NULL OR page_rank < $2::float8 OR (page_rank = $2::float8 AND vertex > $3::text COLLATE "C"))
ORDER BY page_rank DESC, vertex
LIMIT $4
