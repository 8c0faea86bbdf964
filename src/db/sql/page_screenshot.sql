-- The stored PNG of page $2 of crawl $1 (render.screenshot); no row: none was taken.
SELECT s.png FROM page_screenshots s JOIN pages p ON p.id = s.page_id WHERE p.crawl_id = $1 AND p.id = $2
