-- Pages $1 of an export's batch, in id order, each with the first $4 bytes of its stored body (raw, or gzip for
-- rows written before raw bodies) when $2, the first $5 characters of its main text when $3 and whether the
-- text went on past them; a page without stored content has nulls. Only as many pages as fit $6 bytes of those slices beyond the first page, so a
-- batch of huge pages is not read at once: the caller asks again for the rest. A page that stored no body of its
-- own (a recrawl's 304) has the contents of the page it points at (body_of, migrations/0045).
SELECT page_id, html, html_gzip, main_text, text_cut
FROM (
  SELECT ids.page_id,
         CASE WHEN $2::boolean THEN substring(c.html FROM 1 FOR $4) END AS html,
         CASE WHEN $2::boolean THEN substring(c.html_gzip FROM 1 FOR $4) END AS html_gzip,
         CASE WHEN $3::boolean THEN left(c.main_text, $5) END AS main_text,
         $3::boolean AND coalesce(char_length(c.main_text) > $5, false) AS text_cut,
         coalesce(sum(
           CASE WHEN $2::boolean THEN coalesce(least(octet_length(coalesce(c.html, c.html_gzip)), $4), 0) ELSE 0 END
           + CASE WHEN $3::boolean THEN coalesce(least(octet_length(c.main_text), $5), 0) ELSE 0 END
         ) OVER (ORDER BY ids.page_id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS bytes_before
  FROM unnest($1::bigint[]) AS ids(page_id)
  LEFT JOIN pages p ON p.id = ids.page_id
  LEFT JOIN page_contents c ON c.page_id = coalesce(p.body_of, ids.page_id)
) batch
WHERE bytes_before = 0 OR bytes_before < $6
ORDER BY page_id
