-- Creates a corpus in status queued with what it is to be built from, owned by key $5 (NULL when open).
INSERT INTO corpora (id, name, status, source, progress, owner) VALUES ($1, $2, 'queued', $3, $4, $5)
