-- The robots.txt a worker stored for a site, if any has been fetched yet.
SELECT robots_status, robots_body, robots_error, robots_fetched_at FROM sites WHERE id = $1 AND robots_fetched_at IS NOT NULL
