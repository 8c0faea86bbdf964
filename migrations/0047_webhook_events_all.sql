-- The webhook events a crawl may record, a purge's `purged` and a recrawl's `page.changed` together.
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_event_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_event_check
  CHECK (event IN ('started', 'page', 'page.changed', 'completed', 'failed', 'cancelled', 'purged'));
