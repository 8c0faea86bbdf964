-- A build job takes the corpus (again, after a retry or a worker's death: the build starts over); its source
-- and the text settings its words are made with.
UPDATE corpora SET status = 'running', progress = $2, error = NULL
WHERE id = $1 AND status IN ('queued', 'running')
RETURNING source, text_settings
