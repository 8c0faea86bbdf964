-- Whether a live worker (one seen in the last $1 seconds) can render pages in headless Chromium.
SELECT EXISTS (
  SELECT 1 FROM workers WHERE can_render AND seen_at > now() - make_interval(secs => $1)
) AS can_render
