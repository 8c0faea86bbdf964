-- Crawls of key $1 that are queued or running (the MAX_RUNNING_CRAWLS_PER_KEY cap counts both).
SELECT count(*)::integer AS n FROM crawls WHERE owner = $1 AND status IN ('queued', 'running')
