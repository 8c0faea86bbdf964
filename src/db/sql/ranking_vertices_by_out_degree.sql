-- Vertices of ranking $1 by out degree, largest first, ties by name; keyset after ($2, $3) when $2 is given.
SELECT vertex, page_rank, in_degree, out_degree, clustering, weak_component, strong_component FROM ranking_vertices
WHERE ranking_id = $1
  AND ($2::int IS NULL OR out_degree < $2::int OR (out_degree = $2::int AND vertex > $3::text COLLATE "C"))
ORDER BY out_degree DESC, vertex
LIMIT $4
