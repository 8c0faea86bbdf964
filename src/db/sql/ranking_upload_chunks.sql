-- A run of the uploaded edges file of ranking $1 in order: chunks from seq $2 on, at most $3 of them.
SELECT seq, chunk FROM ranking_uploads WHERE ranking_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3
