-- Quotas per API key (docs/operations.md#quotas), set when the key is made and changed later (PATCH
-- /v1/keys/:id); NULL: no limit of the key's own (crawls running at once then fall back to
-- MAX_RUNNING_CRAWLS_PER_KEY). A start over a limit is refused; a running crawl that reaches its tenant's
-- page or byte limit stops `completed`, with the reason kept on the crawl.
ALTER TABLE api_keys
  ADD COLUMN max_running_crawls integer CHECK (max_running_crawls >= 0),
  ADD COLUMN max_pages_per_month bigint CHECK (max_pages_per_month >= 0),
  ADD COLUMN max_stored_bytes bigint CHECK (max_stored_bytes >= 0);

-- Why a crawl stopped before its frontier ran out, when something other than its own request stopped it.
ALTER TABLE crawls ADD COLUMN stop_reason text;
