CREATE OR REPLACE TABLE dataset_lineage (
    dataset_id           VARCHAR PRIMARY KEY,
    family               VARCHAR NOT NULL,
    version_text         VARCHAR,
    version_sort         INTEGER[] NOT NULL,
    status               VARCHAR NOT NULL,
    version_source       VARCHAR,
    version_issue        VARCHAR,
    successor_dataset_id VARCHAR,
    successor_family     VARCHAR,
    successor_version    VARCHAR,
    current_version      VARCHAR,
    superseded           BOOLEAN NOT NULL,
    superseded_since     VARCHAR,
    collection_progress  VARCHAR,
    succession_basis     VARCHAR,
    evidence             VARCHAR
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN dataset_lineage.dataset_id IS 'The dataset (datasets.dataset_id).';
COMMENT ON COLUMN dataset_lineage.family IS 'Its version family: the short name without version and status markers.';
COMMENT ON COLUMN dataset_lineage.version_text IS 'The version as spelled where it was found (006, V031, V4-21), NULL when none.';
COMMENT ON COLUMN dataset_lineage.version_sort IS 'The version as integers that order the family (061 -> [6, 1]; V031 -> [3, 1]).';
COMMENT ON COLUMN dataset_lineage.status IS 'standard, provisional or near_real_time (an NRT stream never succeeds the standard product).';
COMMENT ON COLUMN dataset_lineage.version_source IS 'Field that revealed the version: short name, long name or DOI.';
COMMENT ON COLUMN dataset_lineage.version_issue IS 'Why no version could be parsed.';
COMMENT ON COLUMN dataset_lineage.successor_dataset_id IS 'The dataset that replaces it (next version of the family, or curated cross-family successor).';
COMMENT ON COLUMN dataset_lineage.successor_family IS 'The successor''s family: its own for a newer version, the curated successor family otherwise; NULL when only CMR retired it.';
COMMENT ON COLUMN dataset_lineage.successor_version IS 'The successor''s version text.';
COMMENT ON COLUMN dataset_lineage.current_version IS 'The version that ends its successor chain within its family (MYD11A1 V005 -> V006 -> V061: V061 for all three), its own when nothing in its family replaces it (a successor of another family, a parallel stream, CMR alone retiring it); NULL when it has no version. From successor_dataset_id and successor_family (lifecycle/lineage.py).';
COMMENT ON COLUMN dataset_lineage.superseded IS 'True when CMR marks it SUPERSEDED or DEPRECATED, a curated line names its successor, or a newer version of its family is in this KG (and no curated line makes the two parallel streams).';
COMMENT ON COLUMN dataset_lineage.superseded_since IS 'When its successor came out: the curated date or year, else the successor''s CMR ReleaseDate (YYYY-MM-DD; one on the day the collection''s data begin is no release date); when that is unknown, ''by YYYY-MM-DD'', the first record of it (a later link of its chain, the CMR revision that retired it, the CMR extract listing its successor): it counts from then; NULL when nothing dates it (then it does not count).';
COMMENT ON COLUMN dataset_lineage.collection_progress IS 'CMR UMM-C CollectionProgress of the collection (ACTIVE, COMPLETE, DEPRECATED, ...) when the shipped CMR metadata has it.';
COMMENT ON COLUMN dataset_lineage.succession_basis IS 'The authority for superseded: cmr_collection_progress, curated (a line of recon_assets/reference/dataset_successors.csv and its source) or inferred (version ordering alone); NULL when current.';
COMMENT ON COLUMN dataset_lineage.evidence IS 'Why: the CMR CollectionProgress (concept id, revision date), the curated line and its source, or the version change and the fields it was read from.';
