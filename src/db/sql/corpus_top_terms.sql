-- The terms in most documents of a corpus, ties by code point (corpus_terms_by_frequency).
SELECT term, document_frequency FROM corpus_terms WHERE corpus_id = $1
ORDER BY document_frequency DESC, term
LIMIT $2
