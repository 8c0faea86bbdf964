-- The links of one page, in the order they were recorded.
SELECT l.to_page, p.url, l.anchor FROM links l JOIN pages p ON p.id = l.to_page WHERE l.from_page = $1 ORDER BY p.id
