-- Marks near-duplicates among pages of crawl $1 around pages $2 (their simhashes just stored): every pair of one
-- of them and a page of the crawl within $3 bits, found through the band indexes (a pair within 3 bits shares a
-- band exactly: migrations/0050), gives the later page (higher id) the earlier as near_duplicate_of, keeping the
-- lowest. Each of $2 meets all its pairs here; a page stored before keeps the lower of its mark and this one.
-- Run under the crawl's text counter lock (stats_words_lock.sql), so no two runs miss each other's hashes.
WITH batch AS (
  SELECT page_id, simhash, band0, band1, band2, band3 FROM page_simhashes WHERE page_id = ANY ($2::bigint[])
),
pairs AS (
  SELECT greatest(b.page_id, o.page_id) AS later, least(b.page_id, o.page_id) AS earlier
  FROM batch b
  CROSS JOIN LATERAL (
    SELECT page_id, simhash FROM page_simhashes WHERE crawl_id = $1 AND band0 = b.band0
    UNION
    SELECT page_id, simhash FROM page_simhashes WHERE crawl_id = $1 AND band1 = b.band1
    UNION
    SELECT page_id, simhash FROM page_simhashes WHERE crawl_id = $1 AND band2 = b.band2
    UNION
    SELECT page_id, simhash FROM page_simhashes WHERE crawl_id = $1 AND band3 = b.band3
  ) o
  WHERE o.page_id <> b.page_id AND bit_count((o.simhash # b.simhash)::bit(64)) <= $3
),
earliest AS (
  SELECT later, min(earlier) AS earlier FROM pairs GROUP BY later
)
UPDATE page_simhashes s SET near_duplicate_of = e.earlier
FROM earliest e
WHERE s.page_id = e.later AND (s.near_duplicate_of IS NULL OR s.near_duplicate_of > e.earlier)
