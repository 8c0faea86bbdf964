-- `trawl keys open` returns the service to open mode on purpose: it revokes every key and marks it released.
-- A key holds the service closed from its creation until it is released; revoking a key alone does not
-- reopen the service (a forgotten last key must not leave it open to anyone).
ALTER TABLE api_keys ADD COLUMN released_at timestamptz;
