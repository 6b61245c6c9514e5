-- The KG's datasets as a question's scope matches them (`questions.resolve_scope`, `questions.datasets_named_in`): id, short
-- name, version text, DOI, long name (the CMR entry title);
-- and the research areas known.
SELECT d.dataset_id, d.short_name, l.version_text, d.doi, d.long_name
FROM datasets AS d LEFT JOIN dataset_lineage AS l USING (dataset_id)
ORDER BY d.dataset_id;
