-- Creates a corpus in status queued with what it is to be built from and its text settings ($6), owned by
-- key $5 (NULL when open).
INSERT INTO corpora (id, name, status, source, progress, owner, text_settings)
VALUES ($1, $2, 'queued', $3, $4, $5, $6)
