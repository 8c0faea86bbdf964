-- Frees politeness slot $2 of site $1 when a request to that host is over, mid-way through a fetch (its
-- redirect goes on to another host): the host may be asked again after $3 ms. request_done.sql ends a fetch.
UPDATE host_slots
SET leased_until = NULL, leased_by = NULL, next_fetch_at = now() + make_interval(secs => $3::float8 / 1000)
WHERE site_id = $1 AND slot = $2
