-- Refreshes the planner's statistics of the page table, which also invalidates the cached plans built on
-- them (see PgCrawlStore.noteInsertedPages; pages_row_estimate.sql reads the new size).
ANALYZE pages
