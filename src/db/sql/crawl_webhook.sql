-- The webhook settings of crawl $1 (null when it has none).
SELECT request -> 'webhook' AS webhook FROM crawls WHERE id = $1
