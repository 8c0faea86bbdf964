-- Poison pages: a page whose processing kills its worker would kill every worker that retakes it. Each page
-- counts the leases on it that ran out (the worker holding it died, or stopped renewing); a page retaken after
-- one is fetched alone, so the pages in flight beside a poison page are not condemned with it, and a page
-- whose lease ran out twice is recorded INVALID ("worker-lost") instead of being fetched again.
ALTER TABLE pages ADD COLUMN lease_expiries smallint NOT NULL DEFAULT 0;
