-- The text settings a stored corpus was built with (docs/reference.md#document-model): the tokenizer's
-- version, the stop list and stemming. Scoring with other settings would compare words that were never
-- counted alike, so it is refused (409) and names the difference. NULL: built before the reference
-- tokenizer (letter runs, stopwords-iso's list), to be rebuilt.
ALTER TABLE corpora ADD COLUMN text_settings jsonb;
