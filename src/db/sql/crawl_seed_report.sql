-- The pages of crawl $1's seeds ($2, canonical URLs) and whether any of its pages got an HTTP response, to
-- judge how a crawl that ran out of work ends.
SELECT coalesce((
         SELECT jsonb_agg(jsonb_build_object('url', p.url, 'type', p.type, 'status', p.status, 'error', p.error)
                          ORDER BY p.id)
         FROM pages p WHERE p.crawl_id = $1 AND p.canonical_url = ANY($2::text[])
       ), '[]'::jsonb) AS seeds,
       EXISTS (SELECT 1 FROM pages p WHERE p.crawl_id = $1 AND p.status IS NOT NULL) AS any_response
