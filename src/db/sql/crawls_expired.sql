-- Ended crawls past their retention, oldest first, at most $2: the fewer of their own retention.days and the
-- server's $1 (NULL: the server keeps crawls), counted from their end.
SELECT id, finished_at, least((request -> 'retention' ->> 'days')::int, $1::int) AS days
FROM crawls
WHERE status IN ('completed', 'failed', 'cancelled')
  AND finished_at < now() - make_interval(days => least((request -> 'retention' ->> 'days')::int, $1::int))
ORDER BY finished_at
LIMIT $2
