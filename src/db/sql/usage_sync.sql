-- Adds the pages fetched by active and recently ended crawls since the last sync to their tenant's figure for
-- this month (migrations/0041). A crawl another sweep holds is skipped (it is being counted there).
WITH fetched AS (
  SELECT c.id, coalesce(c.owner::text, 'open') AS tenant, c.pages_counted,
         (SELECT coalesce(sum(k.n), 0) FROM crawl_counters k
          WHERE k.crawl_id = c.id AND k.kind NOT IN ('FRONTIER', 'DISALLOWED', 'links', 'images', 'documents')
            AND NOT (k.kind = 'DUPLICATE' AND k.status = -1))::int AS n
  FROM crawls c
  WHERE c.status IN ('queued', 'running', 'purging') OR c.finished_at > now() - interval '10 minutes'
  FOR NO KEY UPDATE OF c SKIP LOCKED
),
counted AS (
  UPDATE crawls c SET pages_counted = f.n
  FROM fetched f
  WHERE c.id = f.id AND f.n > f.pages_counted
  RETURNING f.tenant, f.n - f.pages_counted AS added
)
INSERT INTO usage_months (tenant, month, pages_fetched)
SELECT tenant, date_trunc('month', now() AT TIME ZONE 'UTC')::date, sum(added) FROM counted GROUP BY tenant
ON CONFLICT (tenant, month) DO UPDATE SET pages_fetched = usage_months.pages_fetched + excluded.pages_fetched
