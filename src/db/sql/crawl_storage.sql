-- What crawl $1 stores: bytes of its bodies, WARC-only bodies and screenshots as stored (pg_column_size: after
-- compression, without reading the values), rows of its pages and links. A scan of the crawl's pages with a
-- key probe per page into each table: for a finished crawl once (then kept), for a running one at most every
-- few seconds per process. text_pending: bodies the text job has still to read, whose rows it rewrites (a
-- body stored inline may then be compressed), so a finished crawl's figure is kept only once it is 0.
SELECT count(*)::bigint AS page_rows,
       coalesce(sum(cardinality(l.to_pages)), 0)::bigint AS link_rows,
       coalesce(sum(coalesce(pg_column_size(c.html), 0) + coalesce(pg_column_size(c.html_gzip), 0)), 0)::bigint
         AS body_bytes,
       coalesce(sum(coalesce(pg_column_size(r.body), 0) + coalesce(pg_column_size(r.body_gzip), 0)), 0)::bigint
         AS warc_body_bytes,
       coalesce(sum(pg_column_size(s.png)), 0)::bigint AS screenshot_bytes,
       count(*) FILTER (WHERE c.page_id IS NOT NULL AND c.text_extracted_at IS NULL
                          AND (c.html IS NOT NULL OR c.html_gzip IS NOT NULL OR c.main_text IS NOT NULL))::bigint
         AS text_pending,
       now() AS measured_at
FROM pages p
LEFT JOIN page_contents c ON c.page_id = p.id
LEFT JOIN page_responses r ON r.page_id = p.id
LEFT JOIN page_screenshots s ON s.page_id = p.id
LEFT JOIN page_links l ON l.page_id = p.id
WHERE p.crawl_id = $1
