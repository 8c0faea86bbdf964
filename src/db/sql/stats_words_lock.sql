-- Locks crawl $1's word counter for an update and says which state it is in.
SELECT pages_counted, total_words, updated_at
FROM crawl_word_stats WHERE crawl_id = $1 FOR UPDATE
