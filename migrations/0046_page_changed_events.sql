-- The page.changed webhook event (docs/operations.md#webhooks): a recrawl's new, changed and gone pages, in
-- batches. Like page events it may occur many times per crawl, so the once-per-crawl index leaves it out.
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_event_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_event_check
  CHECK (event IN ('started', 'page', 'page.changed', 'completed', 'failed', 'cancelled'));
DROP INDEX webhook_events_once;
CREATE UNIQUE INDEX webhook_events_once ON webhook_events (crawl_id, event) WHERE event NOT IN ('page', 'page.changed');
