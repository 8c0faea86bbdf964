-- Frontier URLs of running crawls, for the trawl_frontier_size gauge.
SELECT count(*)::bigint AS n
FROM pages p JOIN crawls c ON c.id = p.crawl_id
WHERE c.status = 'running' AND p.type = 'FRONTIER'
