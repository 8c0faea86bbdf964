-- What a crawl and a tenant store and fetch (docs/operations.md#usage), read without slowing what writes it.
--
-- A finished crawl's storage (bytes of bodies, WARC-only bodies and screenshots as stored, after TOAST
-- compression; rows of pages and links) never changes: measured at its first status read and kept here, as
-- its timings are (a running crawl's is measured at most every few seconds per process, never per read).
ALTER TABLE crawls ADD COLUMN storage jsonb;

-- Pages fetched per tenant (an API key id, or 'open') and calendar month (UTC). A crawl's pages are added as it
-- goes, by the sweep every worker runs (usage_sync.sql), from the crawl's counters: pages_counted is how many
-- of its pages are in a month's figure already, so each page is added once, to the month it was seen in, and
-- the figure outlives the crawl (a purge does not give a month's pages back).
CREATE TABLE usage_months (
  tenant         text NOT NULL,
  month          date NOT NULL,
  pages_fetched  bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant, month)
);
ALTER TABLE crawls ADD COLUMN pages_counted integer NOT NULL DEFAULT 0;
