-- The lowest frontier page id of crawl $1 (every page below it is written for good) and its highest page id.
SELECT (SELECT min(id) FROM pages WHERE crawl_id = $1 AND type = 'FRONTIER') AS frontier_low,
       (SELECT max(id) FROM pages WHERE crawl_id = $1) AS max_id
