-- Drops the uploaded edges file of ranking $1 (parsed, or the ranking failed).
DELETE FROM ranking_uploads WHERE ranking_id = $1
