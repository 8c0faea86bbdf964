-- The main text stored for the earlier crawl's page of recrawl page $2 of crawl $1 (the page holding its body,
-- when the earlier page was itself a 304), if any: a changed page's text is compared with it as it is recorded.
SELECT ec.main_text
FROM pages p
JOIN pages e ON e.id = p.previous_page
JOIN page_contents ec ON ec.page_id = coalesce(e.body_of, e.id)
WHERE p.crawl_id = $1 AND p.id = $2 AND ec.main_text IS NOT NULL
