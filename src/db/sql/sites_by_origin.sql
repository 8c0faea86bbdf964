-- Site ids of crawl $1 for the given origins.
SELECT id, origin FROM sites WHERE crawl_id = $1 AND origin = ANY($2::text[])
