-- The binary document a BINARY page is, if any.
SELECT data_type, content_type, bytes FROM page_data WHERE page_id = $1
