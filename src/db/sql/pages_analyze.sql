-- Refreshes the planner's statistics of the page table and returns its estimated row count afterwards
-- (see PgCrawlStore.noteInsertedPages: cached plans of the per-page statements are rebuilt from them).
ANALYZE pages
