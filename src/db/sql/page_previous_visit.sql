-- The earlier crawl's page of recrawl page $2 of crawl $1 (none: a page the earlier crawl never fetched), with
-- its response's validators (ETag, Last-Modified) when the earlier crawl kept its headers, and the links it
-- recorded (its page_links row: the targets' canonical URLs and anchors), which a 304 answer takes as its own.
-- Read with the visit, not after a 304: a second round trip for most pages of a recrawl cost more than reading
-- the links of the few that changed.
SELECT e.id, e.type, e.url, e.final_url, e.sha256, e.content_type, e.title,
       (SELECT h ->> 1 FROM jsonb_array_elements(r.headers) h WHERE h ->> 0 = 'etag' LIMIT 1) AS etag,
       (SELECT h ->> 1 FROM jsonb_array_elements(r.headers) h WHERE h ->> 0 = 'last-modified' LIMIT 1) AS last_modified,
       coalesce(links.urls, '{}') AS link_urls, coalesce(links.anchors, '{}') AS link_anchors
FROM pages p
JOIN pages e ON e.id = p.previous_page
LEFT JOIN page_responses r ON r.page_id = e.id
LEFT JOIN LATERAL (
  SELECT array_agg(t.canonical_url ORDER BY l.n) AS urls, array_agg(l.anchor ORDER BY l.n) AS anchors
  FROM page_links pl
  CROSS JOIN LATERAL unnest(pl.to_pages, pl.anchors) WITH ORDINALITY AS l(to_page, anchor, n)
  JOIN pages t ON t.id = l.to_page
  WHERE pl.page_id = e.id
) links ON true
WHERE p.crawl_id = $1 AND p.id = $2
