-- Whether any API key was ever created (revoked ones count: revoking every key must not reopen the service).
SELECT EXISTS (SELECT 1 FROM api_keys) AS exist
