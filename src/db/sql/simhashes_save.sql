-- Stores the simhashes of pages of crawl $1 ($2 page ids, $3 simhashes as 16 hex digits), each with its four
-- 16-bit bands (migrations/0050), high to low; a page stored before keeps its row.
INSERT INTO page_simhashes (page_id, crawl_id, simhash, band0, band1, band2, band3)
SELECT t.page_id, $1, h.v, ((h.v >> 48) & 65535)::int, ((h.v >> 32) & 65535)::int, ((h.v >> 16) & 65535)::int,
       (h.v & 65535)::int
FROM unnest($2::bigint[], $3::text[]) AS t (page_id, hex)
CROSS JOIN LATERAL (SELECT ('x' || t.hex)::bit(64)::bigint AS v) h
ON CONFLICT (page_id) DO NOTHING
