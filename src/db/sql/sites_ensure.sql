-- Creates the site rows (and their politeness slots 0..$3-1) of crawl $1 for origins $2 that have none yet,
-- returning the new rows; existing rows are read by sites_by_origin.sql.
WITH created AS (
  INSERT INTO sites (crawl_id, origin)
  SELECT $1, origin FROM unnest($2::text[]) AS origin ORDER BY origin
  ON CONFLICT (crawl_id, origin) DO NOTHING
  RETURNING id, origin
),
slots AS (
  INSERT INTO host_slots (site_id, slot)
  SELECT created.id, slot FROM created, generate_series(0, $3::int - 1) AS slot
)
SELECT id, origin FROM created
