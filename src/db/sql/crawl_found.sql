-- Links, images and binary documents found by a crawl, summed over its writers' counters (migrations/0016).
SELECT coalesce(sum(n) FILTER (WHERE kind = 'links'), 0)::int AS links,
       coalesce(sum(n) FILTER (WHERE kind = 'images'), 0)::int AS images,
       coalesce(sum(n) FILTER (WHERE kind = 'documents'), 0)::int AS documents
FROM crawl_counters
WHERE crawl_id = $1 AND kind IN ('links', 'images', 'documents')
