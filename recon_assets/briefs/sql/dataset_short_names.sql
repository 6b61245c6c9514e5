-- Each dataset's short name, by id: a plan's scope terms.
SELECT dataset_id, short_name FROM datasets
