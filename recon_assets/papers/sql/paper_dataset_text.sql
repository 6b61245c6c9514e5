-- The datasets the paper $1 uses as named with their versions (the version matched, else the one stated), each once.
SELECT DISTINCT concat_ws(' ', name, coalesce(version, stated_version)) FROM paper_datasets WHERE paper_key = $1 ORDER BY 1
