-- What PostgreSQL spent per page written that it need not (pg_stat_statements over a crawl of realistic pages).
--
-- A page's links and images are written by the statement that records the page (page_complete.sql), with ids
-- it has just read from pages in that statement, and pages are only ever deleted with their crawl. Their
-- foreign keys cost one row trigger per link per end (about 200 checks for a page of 100 links), a large
-- share of PostgreSQL's cost of storing a realistic page's links. One statement-level trigger keeps what the
-- cascades kept: a deleted page takes its links (both ways) and its images along.
ALTER TABLE links DROP CONSTRAINT links_from_page_fkey;
ALTER TABLE links DROP CONSTRAINT links_to_page_fkey;
ALTER TABLE images DROP CONSTRAINT images_page_id_fkey;

CREATE FUNCTION pages_deleted_take_found() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM links WHERE from_page IN (SELECT id FROM old_rows);
  DELETE FROM links WHERE to_page IN (SELECT id FROM old_rows);
  DELETE FROM images WHERE page_id IN (SELECT id FROM old_rows);
  RETURN NULL;
END $$;

CREATE TRIGGER pages_deleted_take_found AFTER DELETE ON pages
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION pages_deleted_take_found();

-- The counters of a page's links, images and documents found each row's crawl by joining the new rows to
-- pages, which the planner, blind to a transition table's size, could make a scan of the crawl's pages for
-- every page written, growing with the crawl. The rows of one statement belong to a few pages: each page's
-- crawl is now looked up once, by its key.
CREATE OR REPLACE FUNCTION crawl_counters_found() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO crawl_counters (crawl_id, kind, status, writer, n)
  SELECT (SELECT p.crawl_id FROM pages p WHERE p.id = r.page_id), TG_ARGV[0], -1, pg_backend_pid(), sum(r.n)
  FROM (SELECT page_id, count(*) AS n FROM new_rows GROUP BY page_id) r
  GROUP BY 1
  ON CONFLICT (crawl_id, kind, status, writer) DO UPDATE SET n = crawl_counters.n + excluded.n;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION crawl_counters_links() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO crawl_counters (crawl_id, kind, status, writer, n)
  SELECT (SELECT p.crawl_id FROM pages p WHERE p.id = r.from_page), 'links', -1, pg_backend_pid(), sum(r.n)
  FROM (SELECT from_page, count(*) AS n FROM new_rows GROUP BY from_page) r
  GROUP BY 1
  ON CONFLICT (crawl_id, kind, status, writer) DO UPDATE SET n = crawl_counters.n + excluded.n;
  RETURN NULL;
END $$;

-- Where several indexes of pages lead with crawl_id and the statistics cannot tell them apart (a crawl the
-- last ANALYZE did not see: one row expected whatever the index), the planner keeps the first index it
-- considers, and it considers the newest first. Page writes probe each link's target by (crawl_id,
-- canonical_url); planned on pages_by_crawl_score (migration 0021) that probe read every page of the crawl,
-- one link at a time. Rebuilt here, the unique key is the newest such index again, so it wins those ties;
-- test/integration/page-table-plans.test.ts fails when a later index takes its place.
CREATE UNIQUE INDEX pages_crawl_url ON pages (crawl_id, canonical_url);
ALTER TABLE pages
  DROP CONSTRAINT pages_crawl_id_canonical_url_key,
  ADD CONSTRAINT pages_crawl_id_canonical_url_key UNIQUE USING INDEX pages_crawl_url;
