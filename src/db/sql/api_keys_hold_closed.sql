-- Whether any API key holds the service closed: every key ever created but those `trawl keys open` released.
SELECT EXISTS (SELECT 1 FROM api_keys WHERE released_at IS NULL) AS closed
