-- Stores a batch of per-vertex results of ranking $1 (parallel arrays: names, PageRank, in- and out-degree,
-- clustering coefficient, weak and strong component).
INSERT INTO ranking_vertices
  (ranking_id, vertex, page_rank, in_degree, out_degree, clustering, weak_component, strong_component)
SELECT $1, v.vertex, v.page_rank, v.in_degree, v.out_degree, v.clustering, v.weak_component, v.strong_component
FROM unnest($2::text[], $3::float8[], $4::int[], $5::int[], $6::float8[], $7::int[], $8::int[])
  AS v (vertex, page_rank, in_degree, out_degree, clustering, weak_component, strong_component)
