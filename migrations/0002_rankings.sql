-- Rankings: PageRank and degree analysis of an uploaded graph or of a crawl's link graph (docs/reference.md#pagerank).
-- The summary (top-k lists, Jaccard overlaps, iterations) is one jsonb document; per-vertex results are rows,
-- so GET /v1/rankings/:id/vertices pages through them by keyset.

CREATE TABLE rankings (
  id          uuid PRIMARY KEY,
  -- the crawl whose link graph was ranked; NULL for an uploaded graph
  crawl_id    uuid REFERENCES crawls (id) ON DELETE CASCADE,
  status      text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  params      jsonb NOT NULL,
  summary     jsonb,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rankings_crawl ON rankings (crawl_id) WHERE crawl_id IS NOT NULL;

-- vertex is COLLATE "C" so ties are ordered by code point, as topK orders them (not by locale).
CREATE TABLE ranking_vertices (
  ranking_id  uuid NOT NULL REFERENCES rankings (id) ON DELETE CASCADE,
  vertex      text COLLATE "C" NOT NULL,
  page_rank   float8 NOT NULL,
  in_degree   integer NOT NULL,
  out_degree  integer NOT NULL,
  PRIMARY KEY (ranking_id, vertex)
);
CREATE INDEX ranking_vertices_page_rank ON ranking_vertices (ranking_id, page_rank DESC, vertex);
CREATE INDEX ranking_vertices_in_degree ON ranking_vertices (ranking_id, in_degree DESC, vertex);
CREATE INDEX ranking_vertices_out_degree ON ranking_vertices (ranking_id, out_degree DESC, vertex);
