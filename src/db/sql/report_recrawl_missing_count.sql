-- The earlier pages recrawl $1 never reached: reached by none, so they keep no change class
-- (pages_recrawl_unreached, migrations/0045; GET /v1/crawls/:id/changes/missing lists them).
SELECT count(*)::int AS missing
FROM pages
WHERE crawl_id = $1 AND previous_page IS NOT NULL AND change IS NULL
