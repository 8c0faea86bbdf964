-- What a schedule's next run depends on: whether a crawl of it is still queued or running, and the last of its
-- crawls that completed (the one the run recrawls).
SELECT
  EXISTS (SELECT 1 FROM crawls WHERE schedule_id = $1 AND status IN ('queued', 'running')) AS unfinished,
  (SELECT id FROM crawls WHERE schedule_id = $1 AND status = 'completed'
   ORDER BY finished_at DESC NULLS LAST, created_at DESC LIMIT 1) AS last_completed
