-- Binary documents of crawl $1 by data type (pdf, docx, …): how many and their bytes.
SELECT d.data_type, count(*)::int AS documents, coalesce(sum(d.bytes), 0)::bigint AS bytes
FROM page_data d
JOIN pages p ON p.id = d.page_id
WHERE p.crawl_id = $1
GROUP BY d.data_type
ORDER BY documents DESC, d.data_type
