-- Page bodies are stored as read (Content-Encoding undone), raw, and PostgreSQL compresses them (TOAST) rather
-- than the crawl worker gzipping each one: compressing bodies was the worker's largest single cost, and the
-- server's lz4 does it for a fraction of that. Rows written before keep html_gzip / body_gzip and are read
-- as before (src/services/content/stored-body.ts); a row has one of the two columns set, never both.
ALTER TABLE page_contents ADD COLUMN html bytea;
ALTER TABLE page_responses ADD COLUMN body bytea;

-- lz4 where the server was built with it. A server without it (the embedded PostgreSQL binaries, which link no
-- liblz4) raises feature_not_supported, and its columns keep the default, pglz: slower and denser, still
-- correct, and no migration has to know which server it runs on.
DO $$
BEGIN
  ALTER TABLE page_contents ALTER COLUMN html SET COMPRESSION lz4;
  ALTER TABLE page_responses ALTER COLUMN body SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;

-- Pages waiting for the text job: a raw body waits as a gzip one does.
DROP INDEX page_contents_text_pending;
CREATE INDEX page_contents_text_pending ON page_contents (page_id)
  WHERE text_extracted_at IS NULL AND (html IS NOT NULL OR html_gzip IS NOT NULL OR main_text IS NOT NULL);
