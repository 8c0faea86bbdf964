-- Links and images found per HTML page of crawl $1: the pages, and the mean and the largest count per page.
SELECT count(*)::int AS html_pages,
       coalesce(avg(l.n), 0)::float8 AS links_mean,
       coalesce(max(l.n), 0)::int AS links_max,
       coalesce(avg(i.n), 0)::float8 AS images_mean,
       coalesce(max(i.n), 0)::int AS images_max
FROM pages p
CROSS JOIN LATERAL (SELECT count(*) AS n FROM links WHERE from_page = p.id) l
CROSS JOIN LATERAL (SELECT count(*) AS n FROM images WHERE page_id = p.id) i
WHERE p.crawl_id = $1 AND p.type = 'HTML'
