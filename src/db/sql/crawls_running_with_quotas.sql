-- Running crawls whose owner's key has a page or byte quota, with the quotas.
SELECT c.id, c.owner, k.max_pages_per_month, k.max_stored_bytes
FROM crawls c JOIN api_keys k ON k.id = c.owner
WHERE c.status = 'running' AND (k.max_pages_per_month IS NOT NULL OR k.max_stored_bytes IS NOT NULL)
