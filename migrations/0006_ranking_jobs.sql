-- Rankings computed as BullMQ jobs: a big upload is stored in chunks beside its queued ranking
-- and parsed by the job; a job that fails keeps its error (problem fields: code, detail, field, line).

ALTER TABLE rankings ADD COLUMN error jsonb;
ALTER TABLE rankings ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

-- The uploaded edges file of a queued ranking, in order, as the request streamed it in; deleted once the
-- job has parsed it (and with the ranking).
CREATE TABLE ranking_uploads (
  ranking_id  uuid NOT NULL REFERENCES rankings (id) ON DELETE CASCADE,
  seq         integer NOT NULL,
  chunk       bytea NOT NULL,
  PRIMARY KEY (ranking_id, seq)
);
