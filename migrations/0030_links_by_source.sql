-- A link row costs PostgreSQL less to write with one index fewer: about 100 rows per realistic page, each
-- kept in the primary key (from_page, to_page) and, until now, in links_to (to_page) as well.
--
-- No reader looks links up by their target: a page's outlinks, an export's batch and the reports find links
-- by from_page, and the graph and ranking reads join a crawl's pages to links by from_page (src/db/sql). The
-- one user of links_to was the statement trigger of migration 0028 deleting the links that point to deleted
-- pages. Deleting by the source alone is enough, because:
--   - a link and both its ends are in one crawl: page_complete.sql looks each target up among the pages of
--     the crawl of the page it writes;
--   - pages are only ever deleted with their whole crawl (the cascades from crawls and from that crawl's
--     sites, in one transaction; nothing deletes a page alone), so every page a deleted page's links point
--     to is deleted in the same transaction, by this statement or by another cascade, and a link is gone once
--     its source is.
-- Should a page ever be deleted alone while its crawl lives on, links pointing to it would stay behind: such
-- a delete must take them itself, and would want links_to back to find them.
DROP INDEX links_to;

CREATE OR REPLACE FUNCTION pages_deleted_take_found() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM links WHERE from_page IN (SELECT id FROM old_rows);
  DELETE FROM images WHERE page_id IN (SELECT id FROM old_rows);
  RETURN NULL;
END $$;
