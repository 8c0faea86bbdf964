-- How a page of a crawl that renders was read (docs/reference.md#rendering), written just before its outcome
-- (page_complete.sql) so a crash between the two only means the page is leased again and redone: rendered or
-- not and why ($2, $3), fetch and render times ($4, $5), what the render ran into ($6), the URL a page that
-- navigated itself away left ($7), and its screenshot ($8, PNG; null: none).
WITH shot AS (
  INSERT INTO page_screenshots (page_id, png)
  SELECT $1, $8 WHERE $8::bytea IS NOT NULL
  ON CONFLICT (page_id) DO UPDATE SET png = EXCLUDED.png
)
UPDATE pages
SET rendered = $2, render_reason = $3, fetch_ms = $4, render_ms = $5, render_note = $6, navigated_from = $7
WHERE id = $1
