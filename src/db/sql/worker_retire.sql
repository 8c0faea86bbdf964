-- A worker process closing: it no longer counts among the live workers.
DELETE FROM workers WHERE id = $1
