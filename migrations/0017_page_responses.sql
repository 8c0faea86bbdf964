-- What a WARC export (docs/reference.md#warc) needs beyond the page row and the stored HTML body: each
-- response's headers as received, and, for a crawl with store.warc, the body of a response that is not an
-- HTML page (an error page, a text file). Kept apart from pages, as bodies are, so listing pages drags none of it.
CREATE TABLE page_responses (
  page_id    bigint PRIMARY KEY REFERENCES pages (id) ON DELETE CASCADE,
  -- [[name, value], …] in the order received, names lower-case
  headers    jsonb NOT NULL,
  -- gzip of the body as read (Content-Encoding undone); null: the HTML body in page_contents, or none kept
  body_gzip  bytea
);
