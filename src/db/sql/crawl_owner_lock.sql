-- Serializes crawl creation per key for the rest of the transaction, so two requests cannot both pass the cap.
SELECT pg_advisory_xact_lock(hashtextextended('trawl.crawls.owner:' || $1::text, 0))
