-- The status of crawl $1 alone (null: no such crawl), to tell whether a kept status view still holds.
SELECT status FROM crawls WHERE id = $1
