-- The rankings of crawl $1's link graph, which its purge removes with it.
SELECT id FROM rankings WHERE crawl_id = $1
