-- What a page may contain must not lose the page. Links and images whose URL is too long to be a crawl's key
-- are listed on the page that holds them (null: none); a page the crawl-text job could not count is marked
-- done with the reason, so the job finishes the rest and the word statistics can be complete.
ALTER TABLE pages ADD COLUMN skipped jsonb;
ALTER TABLE page_contents ADD COLUMN text_error text;
-- Few pages ever fail: the statistics find them without reading every page of the crawl.
CREATE INDEX page_contents_text_failed ON page_contents (page_id) WHERE text_error IS NOT NULL;
