-- The outgoing links of pages $1 (a batch of an export): from, the target's URL and the anchor text.
SELECT l.from_page, p.url, l.anchor FROM links l JOIN pages p ON p.id = l.to_page
WHERE l.from_page = ANY($1::bigint[]) ORDER BY l.from_page, p.id
