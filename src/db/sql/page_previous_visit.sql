-- The earlier crawl's page of recrawl page $2 of crawl $1 (none: a page the earlier crawl never fetched), with
-- its response's validators (ETag, Last-Modified) when the earlier crawl kept its headers.
SELECT e.id, e.type, e.url, e.final_url, e.sha256, e.content_type, e.title,
       (SELECT h ->> 1 FROM jsonb_array_elements(r.headers) h WHERE h ->> 0 = 'etag' LIMIT 1) AS etag,
       (SELECT h ->> 1 FROM jsonb_array_elements(r.headers) h WHERE h ->> 0 = 'last-modified' LIMIT 1) AS last_modified
FROM pages p
JOIN pages e ON e.id = p.previous_page
LEFT JOIN page_responses r ON r.page_id = e.id
WHERE p.crawl_id = $1 AND p.id = $2
