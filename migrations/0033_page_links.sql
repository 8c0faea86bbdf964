-- A page's links are stored as one row: the pages it links to and the anchors, in two arrays. A realistic
-- page carries about a hundred links, and a row per link cost PostgreSQL a heap tuple and a primary-key
-- entry each (most of its work per page written); a row per page is one tuple, one key entry and one TOAST
-- value at most. Links are written once, with their page (page_complete.sql), and read the way they are
-- stored: a page's outlinks, an export's batch of pages, the graph of a crawl's pages.
--
-- to_pages is in ascending page id, without duplicates; anchors[i] is the anchor of the first link to
-- to_pages[i] on the page. A crawl leaves a page's links to itself out, and a page that links to no other
-- page of its crawl has no row.
CREATE TABLE page_links (
  page_id   bigint PRIMARY KEY,
  to_pages  bigint[] NOT NULL,
  anchors   text[] NOT NULL,
  CHECK (cardinality(to_pages) = cardinality(anchors))
);
-- A page's row stays inline and uncompressed up to a heap page's size: a typical page's arrays (a few KB)
-- would otherwise pass the default 2 KB threshold and be compressed with pglz on every write, the largest
-- single cost of the row; only a page with thousands of links goes to TOAST.
ALTER TABLE page_links SET (toast_tuple_target = 8160);

INSERT INTO page_links (page_id, to_pages, anchors)
SELECT from_page, array_agg(to_page ORDER BY to_page), array_agg(anchor ORDER BY to_page)
FROM links
GROUP BY from_page;

DROP TABLE links;

-- Readers see one row per link, as they did: (from_page, to_page, anchor), in each page's to_page order.
CREATE VIEW links AS
SELECT pl.page_id AS from_page, l.to_page, l.anchor
FROM page_links pl
CROSS JOIN LATERAL unnest(pl.to_pages, pl.anchors) AS l(to_page, anchor);
ALTER VIEW links ALTER COLUMN anchor SET DEFAULT '';

-- A row inserted into the view joins its page's row, kept in order and without duplicates (a link already
-- there is left as it is, as the primary key (from_page, to_page) left it). Crawls write page_links whole;
-- this is for a graph built by hand, a link at a time.
CREATE FUNCTION links_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO page_links AS pl (page_id, to_pages, anchors)
  VALUES (NEW.from_page, ARRAY[NEW.to_page], ARRAY[NEW.anchor])
  ON CONFLICT (page_id) DO UPDATE
  SET (to_pages, anchors) = (
    SELECT array_agg(m.to_page ORDER BY m.to_page), array_agg(m.anchor ORDER BY m.to_page)
    FROM unnest(pl.to_pages || NEW.to_page, pl.anchors || NEW.anchor) AS m(to_page, anchor)
  )
  WHERE NOT (NEW.to_page = ANY (pl.to_pages));
  RETURN NEW;
END $$;

CREATE TRIGGER links_insert INSTEAD OF INSERT ON links FOR EACH ROW EXECUTE FUNCTION links_insert();

-- The links counter counts links, not rows.
CREATE OR REPLACE FUNCTION crawl_counters_links() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO crawl_counters (crawl_id, kind, status, writer, n)
  SELECT (SELECT p.crawl_id FROM pages p WHERE p.id = r.page_id), 'links', -1, pg_backend_pid(),
         sum(cardinality(r.to_pages))
  FROM new_rows r
  GROUP BY 1
  ON CONFLICT (crawl_id, kind, status, writer) DO UPDATE SET n = crawl_counters.n + excluded.n;
  RETURN NULL;
END $$;

CREATE TRIGGER crawl_counters_links AFTER INSERT ON page_links
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crawl_counters_links();

-- A link added to a page's row through the view counts too.
CREATE FUNCTION crawl_counters_links_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO crawl_counters (crawl_id, kind, status, writer, n)
  SELECT (SELECT p.crawl_id FROM pages p WHERE p.id = r.page_id), 'links', -1, pg_backend_pid(), sum(r.n)
  FROM (
    SELECT page_id, cardinality(to_pages) AS n FROM new_rows
    UNION ALL
    SELECT page_id, -cardinality(to_pages) FROM old_rows
  ) r
  GROUP BY 1
  HAVING sum(r.n) <> 0
  ON CONFLICT (crawl_id, kind, status, writer) DO UPDATE SET n = crawl_counters.n + excluded.n;
  RETURN NULL;
END $$;

CREATE TRIGGER crawl_counters_links_added AFTER UPDATE ON page_links
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION crawl_counters_links_added();

-- A deleted page takes its links along (migrations 0028 and 0030 say why the source alone is enough).
CREATE OR REPLACE FUNCTION pages_deleted_take_found() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM page_links WHERE page_id IN (SELECT id FROM old_rows);
  DELETE FROM images WHERE page_id IN (SELECT id FROM old_rows);
  RETURN NULL;
END $$;
