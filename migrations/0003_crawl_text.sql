-- Main text and word statistics of a crawl, filled by the crawl-text job after the pages are stored (never in
-- the fetch path). A page is counted exactly once: the job sets text_extracted_at and adds the page's words to
-- crawl_word_stats in one transaction, under the stats row's lock.

ALTER TABLE page_contents ADD COLUMN text_extracted_at timestamptz;

-- Bodies whose text is still to extract: few at any time, so the job's batches and the "stale?" check of the
-- stats endpoint stay cheap however large the crawl.
CREATE INDEX page_contents_text_pending ON page_contents (page_id)
  WHERE text_extracted_at IS NULL AND html_gzip IS NOT NULL;

-- One word counter per crawl: WordCounter.toJSON() in counts, its totals beside it for cheap reads.
CREATE TABLE crawl_word_stats (
  crawl_id        uuid PRIMARY KEY REFERENCES crawls (id) ON DELETE CASCADE,
  total_words     bigint NOT NULL DEFAULT 0,
  distinct_words  integer NOT NULL DEFAULT 0,
  counts          jsonb NOT NULL,
  pages_counted   integer NOT NULL DEFAULT 0,
  updated_at      timestamptz NOT NULL DEFAULT now()
);
