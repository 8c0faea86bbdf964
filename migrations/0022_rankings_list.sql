-- GET /v1/rankings lists a key's rankings newest first, keyset-paginated on (created_at, id), as crawls and
-- corpora are: served by an index per owner (open mode's rankings have no owner and share the NULL entry).
CREATE INDEX rankings_owner_created ON rankings (owner, created_at DESC, id DESC);
