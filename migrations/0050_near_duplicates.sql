-- Near-duplicates (docs/reference.md#near-duplicates): the 64-bit simhash of each HTML page's main text,
-- written by the text job as it stores the text, and the earliest page of the crawl whose simhash is within
-- the request's duplicates.maxDistance bits (when duplicates.near is on). A table apart from pages: it is
-- written once per page by the text job, and its four band indexes cost nothing to the crawl's page writes.
--
-- band0..band3 are the hash's four 16-bit pieces, high to low. Two hashes within 3 bits differ in at most
-- three pieces, so they share at least one exactly: a page's near-duplicates are among the pages sharing one
-- of its bands, each found through its index, never by a scan of the crawl.
CREATE TABLE page_simhashes (
  page_id           bigint PRIMARY KEY REFERENCES pages (id) ON DELETE CASCADE,
  crawl_id          uuid NOT NULL,
  simhash           bigint NOT NULL,
  band0             integer NOT NULL,
  band1             integer NOT NULL,
  band2             integer NOT NULL,
  band3             integer NOT NULL,
  -- the lowest-id page of the crawl within maxDistance bits, with a lower id than this one (null: none)
  near_duplicate_of bigint
);
CREATE INDEX page_simhashes_band0 ON page_simhashes (crawl_id, band0);
CREATE INDEX page_simhashes_band1 ON page_simhashes (crawl_id, band1);
CREATE INDEX page_simhashes_band2 ON page_simhashes (crawl_id, band2);
CREATE INDEX page_simhashes_band3 ON page_simhashes (crawl_id, band3);
-- The status's and the report's near-duplicate count.
CREATE INDEX page_simhashes_near ON page_simhashes (crawl_id) WHERE near_duplicate_of IS NOT NULL;

-- The page record as the pages API shows it, with its simhash (16 hex digits) and nearDuplicateOf (columns
-- appended: the view keeps its earlier columns in place).
CREATE OR REPLACE VIEW page_records AS
SELECT p.id, p.crawl_id, p.site_id, p.url, p.canonical_url, p.final_url, p.type, p.status, p.content_type,
       p.bytes, p.depth, p.sha256, p.load_ms, p.queued_at, p.fetched_at, p.duplicate_of, p.discovered_from,
       p.title, p.error, p.redirects, p.truncated, p.score, p.result, p.skipped, p.priority,
       p.rendered, p.render_reason, p.fetch_ms, p.render_ms, p.render_note, p.navigated_from,
       EXISTS (SELECT 1 FROM page_screenshots s WHERE s.page_id = p.id) AS has_screenshot,
       p.previous_page, p.body_of, p.change, p.text_changed, p.similarity,
       lpad(to_hex(h.simhash), 16, '0') AS simhash, h.near_duplicate_of
FROM pages p
LEFT JOIN page_simhashes h ON h.page_id = p.id;
