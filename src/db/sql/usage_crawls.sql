-- The crawls of every tenant, or of key $2 only when $1 (NULL: the open tenant's): each one's status, its kept
-- storage, and for a crawl still counted by the usage sweep the pages it fetched that the sweep has not added
-- to its tenant's month yet (usage_sync.sql).
SELECT c.id, coalesce(c.owner::text, 'open') AS tenant, c.status, c.storage, c.finished_at,
       CASE WHEN c.status IN ('queued', 'running', 'purging') OR c.finished_at > now() - interval '10 minutes'
         THEN greatest(
           (SELECT coalesce(sum(k.n), 0) FROM crawl_counters k
            WHERE k.crawl_id = c.id AND k.kind NOT IN ('FRONTIER', 'DISALLOWED', 'links', 'images', 'documents')
              AND NOT (k.kind = 'DUPLICATE' AND k.status = -1)) - c.pages_counted,
           0)
         ELSE 0
       END::int AS unsynced_pages
FROM crawls c
WHERE NOT $1::boolean OR c.owner = $2::uuid OR ($2::uuid IS NULL AND c.owner IS NULL)
