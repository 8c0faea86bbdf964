-- Downloaded documents of crawl $1 by data type (pdf, docx, …): how many and their bytes, each body once (a
-- byte-identical copy, a DUPLICATE page, is counted apart, in duplicates).
SELECT d.data_type,
       (count(*) FILTER (WHERE p.type <> 'DUPLICATE'))::int AS documents,
       coalesce(sum(d.bytes) FILTER (WHERE p.type <> 'DUPLICATE'), 0)::bigint AS bytes,
       (count(*) FILTER (WHERE p.type = 'DUPLICATE'))::int AS duplicates
FROM page_data d
JOIN pages p ON p.id = d.page_id
WHERE p.crawl_id = $1
GROUP BY d.data_type
ORDER BY documents DESC, d.data_type
