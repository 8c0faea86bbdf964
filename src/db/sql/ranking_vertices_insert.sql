-- Stores a batch of per-vertex results of ranking $1 (parallel arrays: names, PageRank, in- and out-degree).
INSERT INTO ranking_vertices (ranking_id, vertex, page_rank, in_degree, out_degree)
SELECT $1, v.vertex, v.page_rank, v.in_degree, v.out_degree
FROM unnest($2::text[], $3::float8[], $4::int[], $5::int[]) AS v (vertex, page_rank, in_degree, out_degree)
