-- Webhooks. An event is written once (started/completed/failed/cancelled at most once per crawl, a
-- row per batch of pages) and delivered in order per crawl by `webhook` jobs; every HTTP attempt is a
-- delivery row, so GET /v1/crawls/:id/webhooks shows what the receiver answered and when.

CREATE TABLE webhook_events (
  id               bigserial PRIMARY KEY,
  crawl_id         uuid NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
  event            text NOT NULL CHECK (event IN ('started', 'page', 'completed', 'failed', 'cancelled')),
  -- event data (page summaries for page events, the error of a failed crawl)
  data             jsonb NOT NULL DEFAULT '{}'::jsonb,
  state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  created_at       timestamptz NOT NULL DEFAULT now()
);
-- every runner of a crawl sees it start and end: the index keeps one row per lifecycle event
CREATE UNIQUE INDEX webhook_events_once ON webhook_events (crawl_id, event) WHERE event <> 'page';
CREATE INDEX webhook_events_pending ON webhook_events (crawl_id, id) WHERE state = 'pending';

CREATE TABLE webhook_deliveries (
  id           bigserial PRIMARY KEY,
  event_id     bigint NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  crawl_id     uuid NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
  attempt      integer NOT NULL,
  -- the receiver's HTTP status; null when no answer came (timeout, refused address, connection error)
  status       integer,
  outcome      text NOT NULL CHECK (outcome IN ('delivered', 'retrying', 'failed')),
  error        text,
  duration_ms  integer NOT NULL,
  attempted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_by_crawl ON webhook_deliveries (crawl_id, id);
