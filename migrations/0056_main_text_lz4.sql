-- Main texts are written as each page is stored, tens of kilobytes for an article page: compressed with lz4
-- as the bodies beside them are (0034_raw_bodies.sql), where pglz cost the server more than the rest of the
-- page's write. A server without lz4 keeps pglz.
DO $$
BEGIN
  ALTER TABLE page_contents ALTER COLUMN main_text SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END
$$;
