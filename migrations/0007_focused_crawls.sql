-- Focused crawls (best-first, topic): relevant pages counted as they are written, so the claim can stop at
-- the request's maxResults without counting pages; pages listed by score.
ALTER TABLE crawls ADD COLUMN relevant_pages integer NOT NULL DEFAULT 0;

CREATE INDEX pages_by_crawl_score ON pages (crawl_id, score DESC NULLS LAST, id);
