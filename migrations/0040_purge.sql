-- Purging (DELETE /v1/crawls/:id?purge=true, DELETE /v1/rankings/:id, DELETE /v1/corpora/:id; docs/guide.md):
-- what a crawl, a ranking or a corpus stores is removed by a `purge` job in bounded batches, each its own short
-- statement, so that PostgreSQL and the API stay responsive while millions of rows go.
--
-- A crawl being purged says so (`purging`) until its last row is gone, and its webhook may hear `purged`.
ALTER TABLE crawls DROP CONSTRAINT crawls_status_check;
ALTER TABLE crawls ADD CONSTRAINT crawls_status_check
  CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled', 'purging'));
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_event_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_event_check
  CHECK (event IN ('started', 'page', 'completed', 'failed', 'cancelled', 'purged'));

-- Foreign keys whose action looks a deleted row up by a column no index leads with: each page of a batch would
-- cost a scan of every crawl's pages (discovered_from, duplicate_of, site_id) or content hashes (page_id). The
-- rows on both ends belong to one crawl, and a crawl's pages, sites and hashes are only ever deleted together
-- (the purge, or the cascade from the crawl row), so the constraints guarded nothing a delete could break; a
-- page id a purge leaves dangling for a moment names a page of a crawl no reader can see any more.
ALTER TABLE pages DROP CONSTRAINT pages_discovered_from_fkey;
ALTER TABLE pages DROP CONSTRAINT pages_duplicate_of_fkey;
ALTER TABLE pages DROP CONSTRAINT pages_site_id_fkey;
ALTER TABLE content_hashes DROP CONSTRAINT content_hashes_page_id_fkey;

-- A ranking's vertices and a corpus's terms are deleted in batches after their row (which answers 404 at
-- once), by a job that carries the id: a cascade would delete them all in the row's one statement.
ALTER TABLE ranking_vertices DROP CONSTRAINT ranking_vertices_ranking_id_fkey;
ALTER TABLE corpus_terms DROP CONSTRAINT corpus_terms_corpus_id_fkey;

-- A crawl's webhook events by crawl (the existing indexes are partial), and deliveries by event, for the
-- cascade from events: webhook rows are the last a purge removes, with the crawl row.
CREATE INDEX webhook_events_by_crawl ON webhook_events (crawl_id, id);
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);
