-- Harvest rate of crawl $1 over time: after every $3-th page fetched (and after the last), the pages fetched
-- so far and how many of them scored at least $2, in fetch order. Fetched as the status counts it: a request
-- was made (a redirect target reached inside another page's fetch, DUPLICATE without a status, is not one).
WITH fetched AS (
  SELECT row_number() OVER w AS pages_fetched,
         count(*) FILTER (WHERE score >= $2) OVER w AS relevant,
         count(*) OVER () AS total,
         fetched_at
  FROM pages
  WHERE crawl_id = $1 AND fetched_at IS NOT NULL AND type NOT IN ('FRONTIER', 'DISALLOWED')
    AND NOT (type = 'DUPLICATE' AND status IS NULL)
  WINDOW w AS (ORDER BY fetched_at, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
)
SELECT pages_fetched::int, relevant::int, fetched_at
FROM fetched
WHERE pages_fetched % $3 = 0 OR pages_fetched = total
ORDER BY pages_fetched
