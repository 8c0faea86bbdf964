-- Gives a leased page back to the frontier untouched (its fetch was abandoned), if this worker still holds it.
UPDATE pages SET leased_until = NULL, leased_by = NULL WHERE id = $1 AND leased_by = $2 AND type = 'FRONTIER'
