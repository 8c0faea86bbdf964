-- A run of the schedule was skipped: its previous crawl had not finished.
UPDATE schedules SET skipped_runs = skipped_runs + 1 WHERE id = $1
