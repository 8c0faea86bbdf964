-- Bytes each of trawl's tables takes on disk (with its indexes and TOAST), for the trawl_stored_bytes gauge:
-- catalog reads, cheap at any size.
SELECT c.relname AS table, pg_total_relation_size(c.oid)::bigint AS bytes
FROM pg_class c
WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
