-- The planner's estimate of the page table's row count (-1 before its first ANALYZE).
SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = 'pages'::regclass
