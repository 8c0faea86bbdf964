-- API keys and tenancy. A key is stored only as the SHA-256 of its text: the key is 32 random
-- bytes, so a fast hash is as safe as a slow one (nothing to brute-force) and lets every request look it up
-- by an indexed equality instead of comparing against each row with bcrypt. Revoking sets revoked_at; keys
-- are never deleted, so "some key exists" (the service is no longer open) never turns back to false.

CREATE TABLE api_keys (
  id          uuid PRIMARY KEY,
  name        text NOT NULL,
  key_hash    text NOT NULL UNIQUE,
  -- the first characters of the key, shown in listings so a person can tell keys apart
  prefix      text NOT NULL,
  is_admin    boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz
);
CREATE INDEX api_keys_prefix ON api_keys (prefix);

-- The key that made a crawl, ranking or corpus; NULL for ones made while the service ran open (no key at all).
-- No foreign key: a key is never deleted, and a revoked key's crawls stay as they are.
ALTER TABLE crawls ADD COLUMN owner uuid;
CREATE INDEX crawls_owner_created ON crawls (owner, created_at DESC, id DESC);
CREATE INDEX crawls_owner_active ON crawls (owner) WHERE status IN ('queued', 'running');
ALTER TABLE rankings ADD COLUMN owner uuid;
-- corpora come from 0004_corpora.sql, written at the same time as this file: guarded so that this migration
-- also applies on a tree where 0004 is not there yet.
DO $$
BEGIN
  IF to_regclass('corpora') IS NOT NULL THEN
    ALTER TABLE corpora ADD COLUMN owner uuid;
  END IF;
END
$$;
