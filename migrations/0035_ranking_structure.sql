-- Rankings: the link graph's structure figures (docs/reference.md#graph-structure). The figures are one jsonb
-- document beside the summary; each vertex gains its clustering coefficient and its weak and strong component.
-- NULL on rankings stored before the figures were computed.

ALTER TABLE rankings ADD COLUMN graph jsonb;

ALTER TABLE ranking_vertices
  ADD COLUMN clustering float8,
  ADD COLUMN weak_component integer,
  ADD COLUMN strong_component integer;
