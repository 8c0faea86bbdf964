-- Before crawl $1's pages go: up to $2 of its stored bodies that pages of other crawls read (a recrawl's 304
-- pages point at the earlier body with body_of, migrations/0045) pass to the first such page, which holds the
-- body from then on (keeping its own text, or waiting for the text job when it had none); the other readers
-- point at it. Returns how many bodies passed; 0 when none is left.
WITH owned AS (
  SELECT DISTINCT ON (r.body_of) r.body_of AS owner, r.id AS heir
  FROM pages r JOIN pages o ON o.id = r.body_of
  WHERE r.body_of IS NOT NULL AND o.crawl_id = $1 AND r.crawl_id <> $1
  ORDER BY r.body_of, r.id
  LIMIT $2
),
received AS (
  INSERT INTO page_contents (page_id, html, html_gzip)
  SELECT owned.heir, c.html, c.html_gzip
  FROM owned JOIN page_contents c ON c.page_id = owned.owner
  ON CONFLICT (page_id) DO UPDATE SET html = EXCLUDED.html, html_gzip = EXCLUDED.html_gzip
),
repointed AS (
  UPDATE pages r SET body_of = nullif(owned.heir, r.id)
  FROM owned
  WHERE r.body_of = owned.owner
)
SELECT count(*)::int AS n FROM owned
