-- A runner with nothing to claim asks whether its crawl still has work (frontier_state.sql): pages waiting,
-- pages in flight. As two EXISTS over the crawl's FRONTIER rows, the planner, trusting statistics from when
-- most pages were FRONTIER, read them by a sequential scan of the page table (growing with the crawl, run
-- every idle poll of every runner: on a polite crawl, which mostly waits, PostgreSQL's busiest statement).
-- The frontier's leases in an index of their own: the first and last lease in index order answer both
-- questions whatever the statistics say (an ordered LIMIT 1 the index serves costs nothing to sort).
CREATE INDEX pages_frontier_leases ON pages (crawl_id, (coalesce(leased_until, '-infinity'::timestamptz)))
  WHERE type = 'FRONTIER';
