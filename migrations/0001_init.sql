-- trawl's system of record. Every table lives in the schema named by DB_SCHEMA (search_path is set per
-- connection), so tests and several deployments can share one database without seeing each other.

CREATE TABLE crawls (
  id              uuid PRIMARY KEY,
  request         jsonb NOT NULL,
  strategy        text NOT NULL,
  status          text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
  max_pages       integer NOT NULL,
  -- pages handed to fetchers so far; compared with max_pages under the row lock taken by each claim
  claimed_pages   integer NOT NULL DEFAULT 0,
  error           text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  started_at      timestamptz,
  finished_at     timestamptz,
  heartbeat_at    timestamptz
);
CREATE INDEX crawls_created ON crawls (created_at DESC, id DESC);
CREATE INDEX crawls_active ON crawls (status) WHERE status IN ('queued', 'running');

-- One row per origin (scheme://host:port) a crawl meets: its robots.txt as fetched, and the politeness delay.
CREATE TABLE sites (
  id                 bigserial PRIMARY KEY,
  crawl_id           uuid NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
  origin             text NOT NULL,
  robots_status      integer,
  robots_body        text,
  robots_error       text,
  robots_fetched_at  timestamptz,
  sitemaps           text[] NOT NULL DEFAULT '{}',
  crawl_delay_ms     integer,
  UNIQUE (crawl_id, origin)
);

-- Per-host politeness across all workers: a host has perHostConcurrency slots; a worker leases a slot for
-- one fetch and, on release, the slot may not be used again before next_fetch_at.
CREATE TABLE host_slots (
  site_id        bigint NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  slot           smallint NOT NULL,
  next_fetch_at  timestamptz NOT NULL DEFAULT now(),
  leased_until   timestamptz,
  leased_by      text,
  PRIMARY KEY (site_id, slot)
);

CREATE TABLE pages (
  id               bigserial PRIMARY KEY,
  crawl_id         uuid NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
  site_id          bigint NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  url              text NOT NULL,
  canonical_url    text NOT NULL,
  final_url        text,
  type             text NOT NULL DEFAULT 'FRONTIER'
                   CHECK (type IN ('HTML', 'BINARY', 'DUPLICATE', 'INVALID', 'DISALLOWED', 'FRONTIER')),
  status           integer,
  content_type     text,
  bytes            integer,
  truncated        boolean NOT NULL DEFAULT false,
  sha256           text,
  load_ms          integer,
  queued_at        timestamptz NOT NULL DEFAULT now(),
  fetched_at       timestamptz,
  depth            integer NOT NULL,
  priority         double precision NOT NULL DEFAULT 0,
  score            double precision,
  discovered_from  bigint REFERENCES pages (id) ON DELETE SET NULL,
  duplicate_of     bigint REFERENCES pages (id) ON DELETE SET NULL,
  title            text,
  error            text,
  redirects        jsonb,
  attempts         integer NOT NULL DEFAULT 0,
  leased_until     timestamptz,
  leased_by        text,
  UNIQUE (crawl_id, canonical_url)
);
-- the frontier: best priority first, then first queued (docs/reference.md#weighted-queue), per host
CREATE INDEX pages_frontier ON pages (site_id, priority DESC, id) WHERE type = 'FRONTIER';
CREATE INDEX pages_by_crawl ON pages (crawl_id, id);
CREATE INDEX pages_by_crawl_type ON pages (crawl_id, type);

-- Bodies live apart from the metadata rows so listing pages never drags HTML along.
CREATE TABLE page_contents (
  page_id    bigint PRIMARY KEY REFERENCES pages (id) ON DELETE CASCADE,
  html_gzip  bytea,
  main_text  text
);

-- First page of a crawl with a given body hash; a later page with the same hash is its DUPLICATE.
CREATE TABLE content_hashes (
  crawl_id  uuid NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
  sha256    text NOT NULL,
  page_id   bigint NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  PRIMARY KEY (crawl_id, sha256)
);

CREATE TABLE links (
  from_page  bigint NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  to_page    bigint NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  anchor     text NOT NULL DEFAULT '',
  PRIMARY KEY (from_page, to_page)
);
CREATE INDEX links_to ON links (to_page);

CREATE TABLE images (
  id            bigserial PRIMARY KEY,
  page_id       bigint NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
  url           text NOT NULL,
  alt           text NOT NULL DEFAULT '',
  content_type  text,
  UNIQUE (page_id, url)
);

-- Binary documents (pdf, doc, docx, ppt, pptx) by data type, on the BINARY page that is the document.
CREATE TABLE page_data (
  id            bigserial PRIMARY KEY,
  page_id       bigint NOT NULL UNIQUE REFERENCES pages (id) ON DELETE CASCADE,
  data_type     text NOT NULL,
  content_type  text,
  bytes         bigint
);
