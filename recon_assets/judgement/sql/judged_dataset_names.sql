-- The names of the datasets $1 (a list of ids) the LLM judge's pairs are about: id, short name, long name.
SELECT dataset_id, short_name, long_name FROM datasets WHERE list_contains($1, dataset_id)
