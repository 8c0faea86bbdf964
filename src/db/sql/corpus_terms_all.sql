-- Every term of a corpus with its document frequency (loaded once into a Map).
SELECT term, document_frequency FROM corpus_terms WHERE corpus_id = $1
