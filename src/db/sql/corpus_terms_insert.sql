-- One batch of terms with their document frequencies (parallel arrays).
INSERT INTO corpus_terms (corpus_id, term, document_frequency)
SELECT $1, term, document_frequency FROM unnest($2::text[], $3::integer[]) AS batch (term, document_frequency)
