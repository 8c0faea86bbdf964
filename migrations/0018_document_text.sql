-- The text of documents (PDF, DOCX, PPTX, ODT) is read as the crawl fetches them and stored as the page's main
-- text (docs/reference.md#documents), where it waits for the text job to count its words as an HTML body does
-- (text_extracted_at null). The index of pages waiting for the text job covers both.
DROP INDEX page_contents_text_pending;
CREATE INDEX page_contents_text_pending ON page_contents (page_id)
  WHERE text_extracted_at IS NULL AND (html_gzip IS NOT NULL OR main_text IS NOT NULL);
