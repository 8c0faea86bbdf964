-- Progress of a running build.
UPDATE corpora SET progress = $2 WHERE id = $1 AND status = 'running'
