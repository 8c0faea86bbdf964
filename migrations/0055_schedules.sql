-- Schedules (docs/guide.md#schedules): a crawl request run on time, each run a recrawl of the last crawl of the
-- schedule that completed. When it runs is BullMQ's job scheduler of the same id (docs/operations.md#schedules);
-- this row holds what runs, whose it is, and what its runs did.
CREATE TABLE schedules (
  id            uuid PRIMARY KEY,
  name          text,
  -- the crawl request as given (seeds and settings, never `recrawl`: each run sets it)
  request       jsonb NOT NULL,
  -- exactly one of: every_ms, or cron with its IANA time zone
  every_ms      bigint,
  cron          text,
  timezone      text,
  owner         uuid,
  runs          integer NOT NULL DEFAULT 0,
  skipped_runs  integer NOT NULL DEFAULT 0,
  last_crawl_id uuid REFERENCES crawls (id) ON DELETE SET NULL,
  last_run_at   timestamptz,
  -- why the last run made no crawl (its request refused: a corpus gone, the key's running-crawls cap); null once one does
  last_error    text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  CHECK ((every_ms IS NULL) <> (cron IS NULL)),
  CHECK ((cron IS NULL) = (timezone IS NULL))
);
CREATE INDEX schedules_owner_created ON schedules (owner, created_at DESC, id DESC);
CREATE INDEX schedules_created ON schedules (created_at DESC, id DESC);

-- The crawls a schedule made: a run recrawls the last one that completed and is skipped while one is unfinished.
ALTER TABLE crawls ADD COLUMN schedule_id uuid REFERENCES schedules (id) ON DELETE SET NULL;
CREATE INDEX crawls_by_schedule ON crawls (schedule_id, created_at DESC) WHERE schedule_id IS NOT NULL;
