-- Stores chunk $2 (0-based, in upload order) of the edges file of queued ranking $1.
INSERT INTO ranking_uploads (ranking_id, seq, chunk) VALUES ($1, $2, $3)
