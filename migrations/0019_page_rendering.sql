-- Pages rendered in headless Chromium (docs/reference.md#rendering): whether a page's DOM came from the
-- browser and why (always, auto:<rule>, or why not), what its fetch and its render each cost (load_ms is
-- their sum), where a page that navigated itself away started, and what the render ran into (a timeout,
-- requests the crawl's rules refused). Pages of crawls that never render keep the defaults.
ALTER TABLE pages
  ADD COLUMN rendered boolean NOT NULL DEFAULT false,
  ADD COLUMN render_reason text,
  ADD COLUMN fetch_ms integer,
  ADD COLUMN render_ms integer,
  ADD COLUMN render_note text,
  ADD COLUMN navigated_from text;

-- A rendered page's PNG (render.screenshot, at most 1280×2000), apart from the page row so page reads never
-- carry it; deleted with its page, so with its crawl.
CREATE TABLE page_screenshots (
  page_id  bigint PRIMARY KEY REFERENCES pages (id) ON DELETE CASCADE,
  png      bytea NOT NULL
);

-- Worker processes alive, and whether each can render (Chromium found at its start): a crawl asking to render
-- is refused at POST when no live worker can. Each worker refreshes its row while it runs and removes it as
-- it closes; a row not refreshed for a while is a dead worker's.
CREATE TABLE workers (
  id          text PRIMARY KEY,
  can_render  boolean NOT NULL,
  seen_at     timestamptz NOT NULL DEFAULT now()
);
