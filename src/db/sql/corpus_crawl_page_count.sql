-- HTML pages of a crawl whose body is stored and documents whose text was read: the documents a corpus built
-- from that crawl will have.
-- A page that stored no body of its own (a recrawl's 304) has the one it points at (body_of).
SELECT count(*)::integer AS n
FROM pages p JOIN page_contents c ON c.page_id = coalesce(p.body_of, p.id)
WHERE p.crawl_id = $1
  AND ((p.type = 'HTML' AND (c.html IS NOT NULL OR c.html_gzip IS NOT NULL)) OR (p.type = 'BINARY' AND c.main_text IS NOT NULL))
