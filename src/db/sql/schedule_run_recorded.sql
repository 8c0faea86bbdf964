-- A run of the schedule made crawl $2.
UPDATE schedules SET runs = runs + 1, last_crawl_id = $2, last_run_at = now(), last_error = NULL WHERE id = $1
