-- Crawl $1's word counter: totals and the counts document.
SELECT total_words, distinct_words, pages_counted, counts, updated_at
FROM crawl_word_stats WHERE crawl_id = $1
