-- Recrawls (docs/guide.md#recrawls, docs/reference.md#change-classes): a crawl that revisits an earlier one's
-- pages, asking each with the earlier validators (ETag, Last-Modified), and classifies every page it fetches.
ALTER TABLE crawls ADD COLUMN recrawl_of uuid REFERENCES crawls (id) ON DELETE SET NULL;

-- previous_page: the earlier crawl's page of the same URL (null: a page the earlier crawl never fetched).
-- body_of: the page whose stored body this one is (a 304 Not Modified stores no body of its own); every
-- reader of bodies reads coalesce(body_of, id). change: new | unchanged | changed | gone, set when the page is
-- recorded (null: not a recrawl, or not reached yet). text_changed and similarity compare the two main texts
-- of a changed page and are set by the text job once both texts exist.
ALTER TABLE pages ADD COLUMN previous_page bigint REFERENCES pages (id) ON DELETE SET NULL;
ALTER TABLE pages ADD COLUMN body_of bigint REFERENCES pages (id) ON DELETE SET NULL;
ALTER TABLE pages ADD COLUMN change text CHECK (change IN ('new', 'unchanged', 'changed', 'gone'));
ALTER TABLE pages ADD COLUMN text_changed boolean;
ALTER TABLE pages ADD COLUMN similarity real;

-- ?change= of the pages list, and the status's change counts, read by crawl and class.
CREATE INDEX pages_by_crawl_change ON pages (crawl_id, change, id) WHERE change IS NOT NULL;
-- Earlier pages this crawl never reached (GET /v1/crawls/:id/changes/missing): they keep no change class.
CREATE INDEX pages_recrawl_unreached ON pages (crawl_id, id) WHERE previous_page IS NOT NULL AND change IS NULL;
-- Deleting an earlier crawl sets these references null: each needs an index to find its referrers.
CREATE INDEX pages_previous_page ON pages (previous_page) WHERE previous_page IS NOT NULL;
CREATE INDEX pages_body_of ON pages (body_of) WHERE body_of IS NOT NULL;

-- The page record as the pages API shows it, with its change class (columns appended: the view keeps its
-- earlier columns in place).
CREATE OR REPLACE VIEW page_records AS
SELECT p.id, p.crawl_id, p.site_id, p.url, p.canonical_url, p.final_url, p.type, p.status, p.content_type,
       p.bytes, p.depth, p.sha256, p.load_ms, p.queued_at, p.fetched_at, p.duplicate_of, p.discovered_from,
       p.title, p.error, p.redirects, p.truncated, p.score, p.result, p.skipped, p.priority,
       p.rendered, p.render_reason, p.fetch_ms, p.render_ms, p.render_note, p.navigated_from,
       EXISTS (SELECT 1 FROM page_screenshots s WHERE s.page_id = p.id) AS has_screenshot,
       p.previous_page, p.body_of, p.change, p.text_changed, p.similarity
FROM pages p;
