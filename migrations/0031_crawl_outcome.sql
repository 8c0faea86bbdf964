-- Why a crawl ended as it did when it fetched nothing: a failed crawl's RFC 9457 problem, with the reason for
-- each seed (src/crawler/engine/crawl-outcome.ts), and a completed crawl's warnings.
ALTER TABLE crawls
  ADD COLUMN problem jsonb,
  ADD COLUMN warnings text[] NOT NULL DEFAULT '{}';
