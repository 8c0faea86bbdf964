-- Writes the outcomes of several fetched pages of one crawl in one statement, as page_complete.sql writes
-- one: each page's metadata row and score, body, response, images, document record and links, its lease
-- ended, its page budget given back when it was never requested, and its results counted. One statement
-- for a batch spares the per-statement costs that dominate a page's write (a commit and its WAL flush, the
-- executor's start, the counters' statement triggers) when pages finish faster than a write takes.
-- Relevant pages become results in the batch's order (the order the runner finished them) while the crawl
-- has room below maxResults, exactly as if they had been written one by one. Parameters are arrays with
-- one element per page, in the batch's order (db/crawl-store.ts PageWriteBatch builds them), except the
-- crawl id, the flattened images and links, which name their page by its position (1-based), and the bodies,
-- which travel as one binary value each ($15, $31; a bytea[] is sent as hex text, which costs the worker and
-- the server more than the bodies' compression ever did) cut by their lengths ($34, $35):
--   $1  page ids                        $15 bodies, raw, one after another in page order (bytea)
--   $2  page types                      $16 pages never requested: give their page budget back
--   $3  HTTP statuses                   $17 image → page position   $18 image URLs   $19 image alt texts
--   $4  content types                   $20 documents' data types   $21 content types   $22 bytes
--   $5  body bytes                      $23 relevance scores
--   $6  bodies truncated                $24 relevant: may count as one more result
--   $7  body sha256 (hex)               $25 link → page position    $26 link URLs   $27 link anchors
--   $8  load times, ms                  $28 crawl id
--   $9  fetched at                      $29 links and images not kept (JSON text)
--   $10 final URLs after redirects      $30 response headers for a WARC export (JSON text)
--   $11 titles                          $31 response bodies that are not the HTML body, raw, one after another
--   $12 errors                          $32 main texts read as fetched (documents', HTML pages')
--   $13 redirects (JSON text)           $33 link target page ids where known (null: $26 holds the URL)
--   $14 pages they duplicate            $34 each page's body length in $15 (null: not stored)
--                                       $35 each page's response body length in $31 (null: none)
WITH input AS (
  SELECT i.*, count(*) FILTER (WHERE i.relevant) OVER (ORDER BY i.ord) AS relevant_rank,
         (coalesce(sum(i.html_bytes) OVER (ORDER BY i.ord), 0) - coalesce(i.html_bytes, 0))::int AS html_offset,
         (coalesce(sum(i.response_bytes) OVER (ORDER BY i.ord), 0) - coalesce(i.response_bytes, 0))::int
           AS response_offset
  FROM unnest(
    $1::bigint[], $2::text[], $3::int[], $4::text[], $5::int[], $6::boolean[], $7::text[], $8::int[],
    $9::timestamptz[], $10::text[], $11::text[], $12::text[], $13::text[], $14::bigint[], $34::int[],
    $16::boolean[], $20::text[], $21::text[], $22::bigint[], $23::float8[], $24::boolean[], $29::text[],
    $30::text[], $35::int[], $32::text[]
  ) WITH ORDINALITY AS i(
    id, type, status, content_type, bytes, truncated, sha256, load_ms, fetched_at, final_url, title, error,
    redirects, duplicate_of, html_bytes, unrequested, data_type, data_content_type, data_bytes, score, relevant,
    skipped, response_headers, response_bytes, main_text, ord
  )
),
crawl AS (
  SELECT coalesce((request ->> 'maxResults')::int, 2147483647) - relevant_pages AS room
  FROM crawls WHERE id = $28 AND true = ANY ($24::boolean[])
  FOR NO KEY UPDATE
),
done AS (
  UPDATE pages p
  SET type = i.type, status = i.status, content_type = i.content_type, bytes = i.bytes, truncated = i.truncated,
      sha256 = i.sha256, load_ms = i.load_ms, fetched_at = i.fetched_at, final_url = i.final_url, title = i.title,
      error = i.error, redirects = i.redirects::jsonb, duplicate_of = i.duplicate_of, score = i.score,
      result = coalesce(i.relevant AND i.relevant_rank <= (SELECT room FROM crawl), false),
      skipped = i.skipped::jsonb, leased_until = NULL, leased_by = NULL
  FROM input i
  WHERE p.id = i.id
  RETURNING p.id, p.result, i.ord
),
body AS (
  INSERT INTO page_contents (page_id, html, main_text)
  SELECT i.id, substring($15::bytea FROM i.html_offset + 1 FOR i.html_bytes), i.main_text
  FROM input i JOIN done d ON d.ord = i.ord WHERE i.html_bytes IS NOT NULL
  ON CONFLICT (page_id) DO UPDATE SET html = EXCLUDED.html, html_gzip = NULL,
    main_text = CASE WHEN page_contents.text_extracted_at IS NULL THEN EXCLUDED.main_text
                     ELSE page_contents.main_text END
),
response AS (
  INSERT INTO page_responses (page_id, headers, body)
  SELECT i.id, i.response_headers::jsonb,
         CASE WHEN i.response_bytes IS NOT NULL
           THEN substring($31::bytea FROM i.response_offset + 1 FOR i.response_bytes) END
  FROM input i JOIN done d ON d.ord = i.ord WHERE i.response_headers IS NOT NULL
  ON CONFLICT (page_id) DO UPDATE SET headers = EXCLUDED.headers, body = EXCLUDED.body, body_gzip = NULL
),
shown AS (
  INSERT INTO images (page_id, url, alt)
  SELECT d.id, m.url, m.alt
  FROM unnest($17::int[], $18::text[], $19::text[]) AS m(ord, url, alt) JOIN done d ON d.ord = m.ord
  ON CONFLICT (page_id, url) DO NOTHING
),
-- Each page's links are one page_links row; a target whose id the store knows comes with it ($33), any other
-- is probed by the crawl's unique (crawl_id, canonical_url) key one link at a time, as in page_complete.sql
-- (LIMIT 1 keeps the LATERAL subquery from being flattened into a join planned on stale statistics).
linked AS (
  INSERT INTO page_links (page_id, to_pages, anchors)
  SELECT d.id, array_agg(t.to_page ORDER BY t.to_page), array_agg(t.anchor ORDER BY t.to_page)
  FROM (
    SELECT DISTINCT ON (l.ord, p.id) l.ord, p.id AS to_page, l.anchor
    FROM unnest($25::int[], $26::text[], $27::text[], $33::bigint[])
      WITH ORDINALITY AS l(ord, url, anchor, known_id, n)
    CROSS JOIN LATERAL (
      SELECT l.known_id AS id WHERE l.known_id IS NOT NULL
      UNION ALL
      (SELECT id FROM pages WHERE l.known_id IS NULL AND crawl_id = $28 AND canonical_url = l.url LIMIT 1)
    ) AS p
    ORDER BY l.ord, p.id, l.n
  ) AS t
  JOIN done d ON d.ord = t.ord
  WHERE t.to_page <> d.id
  GROUP BY d.id
  ON CONFLICT (page_id) DO NOTHING
),
document AS (
  INSERT INTO page_data (page_id, data_type, content_type, bytes)
  SELECT i.id, i.data_type, i.data_content_type, i.data_bytes
  FROM input i JOIN done d ON d.ord = i.ord WHERE i.data_type IS NOT NULL
  ON CONFLICT (page_id) DO NOTHING
),
document_text AS (
  INSERT INTO page_contents (page_id, main_text)
  SELECT i.id, i.main_text FROM input i JOIN done d ON d.ord = i.ord
  WHERE i.main_text IS NOT NULL AND i.html_bytes IS NULL
  ON CONFLICT (page_id) DO UPDATE SET main_text = EXCLUDED.main_text, text_extracted_at = NULL
)
UPDATE crawls
SET claimed_pages = greatest(claimed_pages - (SELECT count(*) FROM input i JOIN done d ON d.ord = i.ord WHERE i.unrequested), 0),
    relevant_pages = relevant_pages + (SELECT count(*) FROM done WHERE result)
WHERE id = $28 AND (true = ANY ($16::boolean[]) OR true = ANY ($24::boolean[]))
