-- table_digest's figures per research area of the list $3 that has rows in table $1, in one scan:
-- (research_area, rows, sum of the row hashes of every column but those in the list $2).
SELECT research_area, count(*), coalesce(sum(hash(*COLUMNS(lambda c: NOT list_contains($2, c)))), 0)
FROM query_table($1)
WHERE list_contains($3, research_area)
GROUP BY research_area
