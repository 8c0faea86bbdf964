-- Keyset pagination of a crawl's pages served by an index for each order and the filters users combine most,
-- checked with EXPLAIN on a 200,000-page crawl (bench/soak.ts): a filter on type, on a status other than 200,
-- or the order by score no longer reads and sorts every matching row of the crawl to return 50.
-- The type index gains id (same size class, same write cost: it replaces the old one); the status index is
-- partial: 200 is most pages, where the primary key in id order with a filter already finds 50 rows at once,
-- so only the rarer statuses are indexed (a smaller index on the write path).
DROP INDEX pages_by_crawl_type;
CREATE INDEX pages_by_crawl_type ON pages (crawl_id, type, id);
CREATE INDEX pages_by_crawl_status ON pages (crawl_id, status, id) WHERE status <> 200;
-- Best score first, unscored last, ties in id order, as one ascending key so that a cursor is one row
-- comparison the index can seek to (pages_list_by_score.sql); scores lie in [0, 1], so -1 sorts last.
DROP INDEX pages_by_crawl_score;
CREATE INDEX pages_by_crawl_score ON pages (crawl_id, (-coalesce(score, -1)), id);
