-- Stores a site's robots.txt response (RFC 9309: fetched once per origin per crawl), its Crawl-delay and sitemaps.
UPDATE sites
SET robots_status = $2, robots_body = $3, robots_error = $4, robots_fetched_at = $5, crawl_delay_ms = $6, sitemaps = $7
WHERE id = $1
