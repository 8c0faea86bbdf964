-- Pages fetched per tenant this month (UTC) and in all, as the usage sweep added them; every tenant's, or only
-- tenant $2 when $1.
SELECT tenant,
       coalesce(sum(pages_fetched) FILTER (WHERE month = date_trunc('month', now() AT TIME ZONE 'UTC')::date), 0)::bigint
         AS this_month,
       sum(pages_fetched)::bigint AS total
FROM usage_months
WHERE NOT $1::boolean OR tenant = $2
GROUP BY tenant
