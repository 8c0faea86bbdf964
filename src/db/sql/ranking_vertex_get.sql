-- One vertex of ranking $1 by name.
SELECT vertex, page_rank, in_degree, out_degree, clustering, weak_component, strong_component FROM ranking_vertices WHERE ranking_id = $1 AND vertex = $2
