-- Creates crawl $1's empty word counter if it has none ($2: the empty WordCounter JSON).
INSERT INTO crawl_word_stats (crawl_id, counts) VALUES ($1, $2) ON CONFLICT (crawl_id) DO NOTHING
