-- A run of the schedule made no crawl: its request was refused ($2 says why).
UPDATE schedules SET last_error = $2, last_run_at = now() WHERE id = $1
