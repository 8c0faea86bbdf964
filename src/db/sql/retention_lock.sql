-- Takes the retention sweeper's lock of this schema until the transaction ends, if no other process holds it.
SELECT pg_try_advisory_xact_lock(hashtext(current_schema() || '.retention-sweeper')) AS locked
