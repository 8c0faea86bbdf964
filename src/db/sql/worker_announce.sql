-- A worker process is alive ($1 its id) and can ($2) or cannot render pages; refreshed while it runs.
INSERT INTO workers (id, can_render, seen_at) VALUES ($1, $2, now())
ON CONFLICT (id) DO UPDATE SET can_render = EXCLUDED.can_render, seen_at = now()
