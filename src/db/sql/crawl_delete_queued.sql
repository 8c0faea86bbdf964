-- Removes a crawl that no runner has started (its jobs could not be queued); one that started is kept.
DELETE FROM crawls WHERE id = $1 AND status = 'queued' RETURNING id
