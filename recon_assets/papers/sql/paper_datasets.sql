CREATE TABLE IF NOT EXISTS paper_datasets (
    paper_key      VARCHAR NOT NULL,
    position       INTEGER NOT NULL,
    matched        BOOLEAN NOT NULL,
    dataset_id     VARCHAR,
    name           VARCHAR NOT NULL,
    version        VARCHAR,
    stated_version VARCHAR,
    found_by       VARCHAR,
    reason         VARCHAR,
    quote          VARCHAR NOT NULL,
    page           INTEGER NOT NULL,
    section        VARCHAR,
    superseded     BOOLEAN,
    lifecycle      VARCHAR,
    PRIMARY KEY (paper_key, position)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN paper_datasets.paper_key IS 'The paper (paper_documents.paper_key).';
COMMENT ON COLUMN paper_datasets.position IS 'Order, from 1: matched datasets first, then the unmatched mentions.';
COMMENT ON COLUMN paper_datasets.matched IS 'True when the mention is a Dataset node of the graph; false for a dataset the paper names that no node matches (listed, not dropped).';
COMMENT ON COLUMN paper_datasets.dataset_id IS 'The Dataset node (datasets.dataset_id); NULL when unmatched.';
COMMENT ON COLUMN paper_datasets.name IS 'The dataset''s version family as the graph has it (matched), or the name or DOI as the paper writes it (unmatched).';
COMMENT ON COLUMN paper_datasets.version IS 'The graph dataset''s version (dataset_lineage.version_text); NULL when unmatched or unversioned.';
COMMENT ON COLUMN paper_datasets.stated_version IS 'The version as the paper states it (V7, Collection 6.1); NULL when found by DOI or none is stated.';
COMMENT ON COLUMN paper_datasets.found_by IS 'DOI in text, DOI in references, short name and version, short name without a version, the graph''s USES_DATASET relationship (a paper given by DOI), or read by the model (groq/<model>), checked against the text (online, the papers'' opt-in on); two sources joined by "; ". Set for unmatched mentions too.';
COMMENT ON COLUMN paper_datasets.reason IS 'Why an unmatched mention matched no Dataset node (a version the graph lacks, several candidates, no version stated, no such name); NULL when matched.';
COMMENT ON COLUMN paper_datasets.quote IS 'The sentence it was found in (at most 400 characters, cut between words with "…" at a cut end); for a link found only in the graph, the relationship ids.';
COMMENT ON COLUMN paper_datasets.page IS 'The 1-based page of the quote (1 for a link found only in the graph).';
COMMENT ON COLUMN paper_datasets.section IS 'The heading the quote is under (References, caption for those; knowledge graph for a link found only in the graph); set for unmatched mentions too.';
COMMENT ON COLUMN paper_datasets.superseded IS 'dataset_lineage.superseded of the matched dataset; for an unmatched graph family stated with a version the graph lacks, whether the lifecycle''s rules replace that version (a later version of the family in the graph, unless a curated line makes them parallel streams; NULL, status unknown, for a version no record attests: papers.stated_lifecycle.version_known); NULL otherwise or when there is no lineage row.';
COMMENT ON COLUMN paper_datasets.lifecycle IS 'One line on its lifecycle from dataset_lineage: uses <family> <version>: current, or replaced by <successor> (since <date>, or on an unknown date, on record by <date>; its authority in words: on the authority of CMR''s CollectionProgress, on the authority of curated (dataset_successors.csv), or inferred from the version order, no notice recorded: papers.datasets.AUTHORITY_WORDS); for a version the graph lacks: uses <family> <version> (a version the graph lacks): ..., or version not known to the catalogue; the family''s current version is <V>; NULL for other unmatched mentions.';
