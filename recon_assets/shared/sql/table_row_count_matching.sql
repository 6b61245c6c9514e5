-- The rows of table $1 whose columns named in the struct $2 hold its values (equality on each: {'research_area': 'x'}
-- counts that area's rows; a NULL column never matches), one column.
SELECT count(*) FROM query_table($1) NATURAL SEMI JOIN (SELECT unnest($2))
