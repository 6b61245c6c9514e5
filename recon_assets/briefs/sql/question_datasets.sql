-- The KG's datasets as a question's scope matches them (`questions.resolve_scope`): id, short name, version text, DOI;
-- and the research areas known.
SELECT d.dataset_id, d.short_name, l.version_text, d.doi
FROM datasets AS d LEFT JOIN dataset_lineage AS l USING (dataset_id)
ORDER BY d.dataset_id;
