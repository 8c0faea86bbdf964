-- A crawl queued or running that scores with corpus $1 (relevance.corpus), if any: the corpus may not go.
SELECT id FROM crawls
WHERE status IN ('queued', 'running') AND request -> 'relevance' ->> 'corpus' = $1::text
LIMIT 1
