-- Writes the outcome of fetching a page and ends its lease, in one statement: the metadata row with its
-- relevance score, the body (raw), the images it shows, its binary-document record, the page budget back
-- for a page never requested, a relevant page as one more result while the crawl has fewer than its
-- maxResults (the crawl row is locked for that, and only then: results are counted in the order pages are
-- recorded, exactly, whatever runs in parallel), and its links to the pages of the crawl they name. Those
-- pages were queued before this statement (queuing is idempotent), so a crash between the two only means
-- the page is leased again and redone. Parameters (db/crawl-store.ts completePage passes them in order):
--   $1  page id                         $15 body, raw (bytea; null: not stored)
--   $2  page type (HTML, BINARY, …)     $16 page never requested: give its page budget back (boolean)
--   $3  HTTP status (null: none)        $17 image URLs (text[])
--   $4  content type                    $18 image alt texts (text[], same order as $17)
--   $5  body bytes                      $19 binary document's data type (null: not a document)
--   $6  body truncated (boolean)        $20 binary document's content type
--   $7  body sha256 (hex)               $21 binary document's bytes
--   $8  load time, ms                   $22 relevance score (null: not scored)
--   $9  fetched at (timestamptz)        $23 relevant (boolean): may count as one more result
--   $10 final URL after redirects       $24 link target URLs, canonical (text[])
--   $11 title                           $25 link anchors (text[], same order as $24)
--   $12 error, when the fetch failed     $26 crawl id
--   $13 redirects (JSON, null: none)    $27 links and images it could not keep (JSON; null: none)
--   $14 page it duplicates (page id)    $28 response headers for a WARC export (JSON [[name, value]]; null: not kept)
--                                       $29 response body that is not the HTML body, raw (bytea; null: none)
--                                       $30 main text read as fetched (null: none)
--                                       $31 link target page ids where known (bigint[], same order as $24;
--                                           null: $24 holds the URL to look up)
WITH crawl AS (
  SELECT relevant_pages < coalesce((request ->> 'maxResults')::int, 2147483647) AS room
  FROM crawls WHERE $23::boolean AND id = $26
  FOR NO KEY UPDATE
),
done AS (
  UPDATE pages
  SET type = $2, status = $3, content_type = $4, bytes = $5, truncated = $6, sha256 = $7, load_ms = $8,
      fetched_at = $9, final_url = $10, title = $11, error = $12, redirects = $13, duplicate_of = $14,
      score = $22, result = coalesce((SELECT room FROM crawl), false), skipped = $27, leased_until = NULL, leased_by = NULL
  WHERE id = $1
  RETURNING id, crawl_id, result
),
body AS (
  INSERT INTO page_contents (page_id, html, main_text)
  SELECT id, $15, $30 FROM done WHERE $15::bytea IS NOT NULL
  ON CONFLICT (page_id) DO UPDATE SET html = EXCLUDED.html, html_gzip = NULL,
    main_text = CASE WHEN page_contents.text_extracted_at IS NULL THEN EXCLUDED.main_text
                     ELSE page_contents.main_text END
),
response AS (
  INSERT INTO page_responses (page_id, headers, body)
  SELECT id, $28::jsonb, $29::bytea FROM done WHERE $28::jsonb IS NOT NULL
  ON CONFLICT (page_id) DO UPDATE SET headers = EXCLUDED.headers, body = EXCLUDED.body, body_gzip = NULL
),
shown AS (
  INSERT INTO images (page_id, url, alt)
  SELECT done.id, i.url, i.alt FROM done, unnest($17::text[], $18::text[]) AS i(url, alt)
  ON CONFLICT (page_id, url) DO NOTHING
),
-- A page's links are one page_links row (migrations/0033), the first anchor kept for a target linked twice.
-- A target whose id the store knows comes with it ($31); any other is looked up by the crawl's unique
-- (crawl_id, canonical_url) key, one probe per link. Planned as a join, with a fast-growing table's stale
-- statistics, that lookup becomes a scan of every page of the crawl hash-joined to the links, for every page
-- written: quadratic in the crawl's size. LIMIT 1 keeps the LATERAL subquery from being flattened back into
-- that join.
linked AS (
  INSERT INTO page_links (page_id, to_pages, anchors)
  SELECT done.id, array_agg(t.to_page ORDER BY t.to_page), array_agg(t.anchor ORDER BY t.to_page)
  FROM done
  CROSS JOIN LATERAL (
    SELECT DISTINCT ON (p.id) p.id AS to_page, l.anchor
    FROM unnest($24::text[], $25::text[], $31::bigint[]) WITH ORDINALITY AS l(url, anchor, known_id, n)
    CROSS JOIN LATERAL (
      SELECT l.known_id AS id WHERE l.known_id IS NOT NULL
      UNION ALL
      (SELECT id FROM pages WHERE l.known_id IS NULL AND crawl_id = $26 AND canonical_url = l.url LIMIT 1)
    ) AS p
    WHERE p.id <> done.id
    ORDER BY p.id, l.n
  ) AS t
  GROUP BY done.id
  ON CONFLICT (page_id) DO NOTHING
),
document AS (
  INSERT INTO page_data (page_id, data_type, content_type, bytes)
  SELECT id, $19, $20, $21 FROM done WHERE $19::text IS NOT NULL
  ON CONFLICT (page_id) DO NOTHING
),
-- A document's text waits for the text job as an HTML body does (text_extracted_at null), already read.
document_text AS (
  INSERT INTO page_contents (page_id, main_text)
  SELECT id, $30 FROM done WHERE $30::text IS NOT NULL AND $15::bytea IS NULL
  ON CONFLICT (page_id) DO UPDATE SET main_text = EXCLUDED.main_text, text_extracted_at = NULL
)
UPDATE crawls
SET claimed_pages = greatest(claimed_pages - CASE WHEN $16::boolean THEN 1 ELSE 0 END, 0),
    relevant_pages = relevant_pages + CASE WHEN (SELECT result FROM done) THEN 1 ELSE 0 END
WHERE ($16::boolean OR $23::boolean) AND id = (SELECT crawl_id FROM done)
