-- Replaces crawl $1's word counter after $5 more pages were counted.
UPDATE crawl_word_stats
SET total_words = $2, distinct_words = $3, counts = $4, pages_counted = pages_counted + $5, updated_at = now()
WHERE crawl_id = $1
RETURNING pages_counted, total_words, updated_at
