-- A crawl's status counts kept as the crawl writes, so reading them costs the same at 1,000 pages and at
-- 200,000 (counting pages, links and images on every read of GET /v1/crawls/:id scans the whole crawl).
-- Statement-level triggers with transition tables keep them: whatever statement inserts or changes pages (an
-- enqueue, a page write, a poison page, a redirect target), links, images or documents, its rows are counted
-- in one upsert per group, so no writer can forget to and the counts never drift.
-- One row per writing connection (`writer` = pg_backend_pid()): runners on separate connections add to
-- separate rows instead of queueing on one row lock; a read sums them. Rows of dead backends stay (they
-- still hold their counts). Pages, links, images and documents are only ever deleted with their crawl.

CREATE TABLE crawl_counters (
  crawl_id  uuid NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
  -- a page type, or 'links' / 'images' / 'documents' for what the pages hold
  kind      text NOT NULL,
  -- the pages' HTTP status; -1 for none (and for links, images, documents)
  status    integer NOT NULL,
  writer    integer NOT NULL,
  n         bigint NOT NULL,
  PRIMARY KEY (crawl_id, kind, status, writer)
);

CREATE FUNCTION crawl_counters_pages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO crawl_counters (crawl_id, kind, status, writer, n)
    SELECT crawl_id, type, coalesce(status, -1), pg_backend_pid(), count(*) FROM new_rows GROUP BY 1, 2, 3
    ON CONFLICT (crawl_id, kind, status, writer) DO UPDATE SET n = crawl_counters.n + excluded.n;
  ELSE
    -- an update moves a page from its old (type, status) to its new one; rows that kept both add 0
    INSERT INTO crawl_counters (crawl_id, kind, status, writer, n)
    SELECT crawl_id, kind, status, pg_backend_pid(), sum(n) FROM (
      SELECT crawl_id, type AS kind, coalesce(status, -1) AS status, 1 AS n FROM new_rows
      UNION ALL
      SELECT crawl_id, type, coalesce(status, -1), -1 FROM old_rows
    ) moved
    GROUP BY 1, 2, 3
    HAVING sum(n) <> 0
    ON CONFLICT (crawl_id, kind, status, writer) DO UPDATE SET n = crawl_counters.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER crawl_counters_pages_insert AFTER INSERT ON pages
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crawl_counters_pages();
CREATE TRIGGER crawl_counters_pages_update AFTER UPDATE ON pages
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crawl_counters_pages();

-- Links, images and documents belong to a page; their crawl is the page's.
CREATE FUNCTION crawl_counters_found() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO crawl_counters (crawl_id, kind, status, writer, n)
  SELECT p.crawl_id, TG_ARGV[0], -1, pg_backend_pid(), count(*)
  FROM new_rows r JOIN pages p ON p.id = r.page_id
  GROUP BY 1
  ON CONFLICT (crawl_id, kind, status, writer) DO UPDATE SET n = crawl_counters.n + excluded.n;
  RETURN NULL;
END $$;

-- links name their page from_page: a view of the transition table under the common name
CREATE FUNCTION crawl_counters_links() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO crawl_counters (crawl_id, kind, status, writer, n)
  SELECT p.crawl_id, 'links', -1, pg_backend_pid(), count(*)
  FROM new_rows r JOIN pages p ON p.id = r.from_page
  GROUP BY 1
  ON CONFLICT (crawl_id, kind, status, writer) DO UPDATE SET n = crawl_counters.n + excluded.n;
  RETURN NULL;
END $$;

CREATE TRIGGER crawl_counters_links AFTER INSERT ON links
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crawl_counters_links();
CREATE TRIGGER crawl_counters_images AFTER INSERT ON images
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crawl_counters_found('images');
CREATE TRIGGER crawl_counters_documents AFTER INSERT ON page_data
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crawl_counters_found('documents');

-- The crawls made before: counted once, as writer 0.
INSERT INTO crawl_counters (crawl_id, kind, status, writer, n)
SELECT crawl_id, type, coalesce(status, -1), 0, count(*) FROM pages GROUP BY 1, 2, 3;
INSERT INTO crawl_counters (crawl_id, kind, status, writer, n)
SELECT p.crawl_id, 'links', -1, 0, count(*) FROM links l JOIN pages p ON p.id = l.from_page GROUP BY 1;
INSERT INTO crawl_counters (crawl_id, kind, status, writer, n)
SELECT p.crawl_id, 'images', -1, 0, count(*) FROM images i JOIN pages p ON p.id = i.page_id GROUP BY 1;
INSERT INTO crawl_counters (crawl_id, kind, status, writer, n)
SELECT p.crawl_id, 'documents', -1, 0, count(*) FROM page_data d JOIN pages p ON p.id = d.page_id GROUP BY 1;

-- Load-time and queue-wait percentiles of a finished crawl never change: computed at its first status read
-- after it ended and kept here (a running crawl's are computed on each read).
ALTER TABLE crawls ADD COLUMN timings jsonb;
