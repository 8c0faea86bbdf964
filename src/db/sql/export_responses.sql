-- What a WARC export writes of pages $1 (a batch) beyond their rows: the response headers and stored body (the
-- HTML body, else another kept with store.warc; raw, or gzip for rows written before raw bodies), whether the
-- body was cut, the redirect hops before the answer, and for a copy of another page's body (a DUPLICATE of the
-- same sha256) the page it repeats: URL and fetch time. A recrawl's 304 stored no body: it reads the body it
-- points at (body_of), whose page's URL and fetch time its WARC revisit record names.
SELECT p.id, p.truncated, p.redirects, r.headers, coalesce(c.html, r.body) AS body,
       coalesce(c.html_gzip, r.body_gzip) AS body_gzip,
       o.id AS original_id, coalesce(o.final_url, o.url) AS original_url, o.fetched_at AS original_fetched_at,
       b.id AS body_of, coalesce(b.final_url, b.url) AS body_of_url, b.fetched_at AS body_of_fetched_at
FROM pages p
LEFT JOIN page_responses r ON r.page_id = p.id
LEFT JOIN page_contents c ON c.page_id = coalesce(p.body_of, p.id)
LEFT JOIN pages b ON b.id = p.body_of
LEFT JOIN pages o ON p.type = 'DUPLICATE' AND o.id = p.duplicate_of AND o.sha256 = p.sha256
WHERE p.id = ANY($1::bigint[])
