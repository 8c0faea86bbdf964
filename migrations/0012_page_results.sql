-- A focused crawl's results: the first maxResults relevant pages in the order their outcomes were recorded.
-- Pages fetched in parallel past that point keep their score but are not results (crawls.relevant_pages
-- counts results only), so the result list never exceeds maxResults however many fetches were in flight.
ALTER TABLE pages ADD COLUMN result boolean NOT NULL DEFAULT false;
-- earlier crawls counted every relevant page: those stay their results
UPDATE pages p SET result = true
FROM crawls c
WHERE c.id = p.crawl_id AND jsonb_typeof(c.request -> 'relevance') = 'object'
  AND p.score >= (c.request -> 'relevance' ->> 'threshold')::float8;
CREATE INDEX pages_results ON pages (crawl_id, id) WHERE result;
