-- Deletes a schedule; its crawls stay (their schedule_id is set null).
DELETE FROM schedules WHERE id = $1
