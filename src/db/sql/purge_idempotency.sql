-- Forgets the replayable answers that created crawl $1 (their Location names it).
DELETE FROM idempotency_keys WHERE headers ->> 'location' = '/v1/crawls/' || $1::text
