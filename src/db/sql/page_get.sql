-- One page of a crawl (its record, migrations/0023) with its redirect hops, truncation flag and the links and
-- images it could not keep.
SELECT p.* FROM page_records p WHERE p.crawl_id = $1 AND p.id = $2
