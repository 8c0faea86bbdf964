-- Terms left by an earlier attempt of the same build.
DELETE FROM corpus_terms WHERE corpus_id = $1
