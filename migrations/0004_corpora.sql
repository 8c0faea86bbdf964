-- Corpora for the TF-IDF scorer (docs/reference.md#tfidf): a document count and one document frequency per term,
-- built once by a `corpus` job (from a URL list, a finished crawl or uploaded documents) and reused by id.

CREATE TABLE corpora (
  id              uuid PRIMARY KEY,
  name            text NOT NULL,
  status          text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  -- what the corpus is built from:
  -- {kind: 'urls', urls} | {kind: 'crawl', crawlId} | {kind: 'documents', documents}
  source          jsonb NOT NULL,
  document_count  integer NOT NULL DEFAULT 0,
  -- distinct terms stored, kept here so a status read does not count corpus_terms
  term_count      integer NOT NULL DEFAULT 0,
  -- {documentsDone, documentsTotal, skipped, skippedDocuments: [{url, error}]}, written at most once a second
  progress        jsonb NOT NULL DEFAULT '{}',
  error           text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz
);
CREATE INDEX corpora_created ON corpora (created_at DESC, id DESC);

-- term is COLLATE "C" so ties among the top terms are ordered by code point, not by locale.
CREATE TABLE corpus_terms (
  corpus_id           uuid NOT NULL REFERENCES corpora (id) ON DELETE CASCADE,
  term                text COLLATE "C" NOT NULL,
  document_frequency  integer NOT NULL CHECK (document_frequency > 0),
  PRIMARY KEY (corpus_id, term)
);
-- GET /v1/corpora/:id shows the top terms by document frequency without sorting the whole corpus
CREATE INDEX corpus_terms_by_frequency ON corpus_terms (corpus_id, document_frequency DESC, term);
