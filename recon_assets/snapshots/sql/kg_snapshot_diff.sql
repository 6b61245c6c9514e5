CREATE OR REPLACE TABLE kg_snapshot_diff (
    previous_snapshot_id VARCHAR NOT NULL,
    current_snapshot_id  VARCHAR NOT NULL,
    change               VARCHAR NOT NULL,
    element_type         VARCHAR NOT NULL,
    elements             BIGINT NOT NULL,
    names                VARCHAR[],
    element_key          VARCHAR,
    research_area        VARCHAR,
    dataset_id           VARCHAR,
    publication_id       VARCHAR,
    before               VARCHAR,
    after                VARCHAR,
    causes               VARCHAR[] NOT NULL,
    reason               VARCHAR NOT NULL
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN kg_snapshot_diff.previous_snapshot_id IS 'The snapshot compared from: the last one recorded before the current one (kg_snapshot_history role previous).';
COMMENT ON COLUMN kg_snapshot_diff.current_snapshot_id IS 'The snapshot compared to: the one in kg_nodes when kg_snapshot_diff last ran.';
COMMENT ON COLUMN kg_snapshot_diff.change IS 'node_added, node_removed, relationship_added, relationship_removed (one row per label or type, with a count), publication_doi_changed, publication_year_changed or edge_label_changed (one row each).';
COMMENT ON COLUMN kg_snapshot_diff.element_type IS 'The node label or relationship type; Publication for DOI and year changes; USES_DATASET for label changes.';
COMMENT ON COLUMN kg_snapshot_diff.elements IS 'How many nodes or relationships were added or removed (parallel relationships counted); 1 on per-element rows.';
COMMENT ON COLUMN kg_snapshot_diff.names IS 'Nodes and relationships added or removed: the first 10 of them by name (a node by its DOI, else its globalId; a relationship as <start> -> <end>), in name order; reason names them too and counts the rest. NULL on per-element rows.';
COMMENT ON COLUMN kg_snapshot_diff.element_key IS 'The publication''s KG globalId (its node id when it has none) on DOI and year changes; NULL otherwise.';
COMMENT ON COLUMN kg_snapshot_diff.research_area IS 'The edge''s research area (edge_label_changed only).';
COMMENT ON COLUMN kg_snapshot_diff.dataset_id IS 'The edge''s dataset (edge_label_changed only).';
COMMENT ON COLUMN kg_snapshot_diff.publication_id IS 'The edge''s publication (edge_label_changed only).';
COMMENT ON COLUMN kg_snapshot_diff.before IS 'The DOI, year or label in the previous snapshot''s record (text).';
COMMENT ON COLUMN kg_snapshot_diff.after IS 'The DOI, year or label now (text).';
COMMENT ON COLUMN kg_snapshot_diff.causes IS 'Which recorded inputs differ between the two scorings, all that apply: graph (the KG snapshot), enrichment (the OpenAlex record''s fetch time, or the OpenAlex/Crossref values the edge recorded), settings (the scoring settings'' SHA-256), as_of, judgement (coherence or dispute judgement); [graph] for node, relationship, DOI and year changes; empty when none differs.';
COMMENT ON COLUMN kg_snapshot_diff.reason IS 'The same in words, old -> new (snapshot ids, fetch dates, settings digests, as_of), with the edge''s reliability before and after.';
