CREATE TABLE IF NOT EXISTS edge_reliability (
    dataset_id            VARCHAR NOT NULL,
    publication_id        VARCHAR NOT NULL,
    dataset_doi           VARCHAR,
    publication_doi       VARCHAR,
    dataset_short_name    VARCHAR,
    publication_year      BIGINT,
    year_source           VARCHAR,
    research_area         VARCHAR NOT NULL,
    pagerank_centrality   DOUBLE NOT NULL,
    kg_citations          BIGINT NOT NULL,
    cited_by_count        BIGINT,
    citations_as_of       BIGINT,
    citation_centrality   DOUBLE,
    centrality            DOUBLE NOT NULL,
    centrality_source     VARCHAR NOT NULL,
    centrality_evidence   BOOLEAN NOT NULL,
    field_percentile_low  DOUBLE,
    field_percentile_high DOUBLE,
    recent_citations      BIGINT,
    citation_trend        DOUBLE,
    is_retracted          BOOLEAN NOT NULL,
    retraction_source     VARCHAR,
    openalex_status       VARCHAR,
    recency               DOUBLE NOT NULL,
    coherence             DOUBLE NOT NULL,
    coherence_status      VARCHAR NOT NULL,
    coherence_judges      VARCHAR,
    dispute_status        VARCHAR,
    dataset_superseded    BOOLEAN NOT NULL,
    dataset_version       VARCHAR,
    successor_version     VARCHAR,
    superseded_since      VARCHAR,
    succession_basis      VARCHAR,
    lifecycle_penalty     DOUBLE NOT NULL,
    reliability           DOUBLE NOT NULL,
    label                 VARCHAR NOT NULL,
    dominant_signal       VARCHAR NOT NULL,
    negative_signals      VARCHAR[] NOT NULL,
    evidence              VARCHAR[] NOT NULL,
    reason                VARCHAR NOT NULL,
    as_of                 DATE NOT NULL,
    snapshot_id           VARCHAR NOT NULL,
    scoring_settings      JSON NOT NULL,
    scored_at             TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (research_area, dataset_id, publication_id)
);

-- What each column means: read back from DuckDB's catalog for the Dagster column schema and docs/TABLES.md
-- (recon_assets/shared/table_docs.py).
COMMENT ON COLUMN edge_reliability.dataset_id IS 'The dataset.';
COMMENT ON COLUMN edge_reliability.publication_id IS 'The publication using it.';
COMMENT ON COLUMN edge_reliability.dataset_doi IS 'Canonical DOI of the dataset.';
COMMENT ON COLUMN edge_reliability.publication_doi IS 'Canonical DOI of the publication.';
COMMENT ON COLUMN edge_reliability.dataset_short_name IS 'Dataset short name.';
COMMENT ON COLUMN edge_reliability.publication_year IS 'Publication year: the KG''s, else OpenAlex''s (see year_source); NULL when unknown. Edges of publications from after as_of''s year are not scored.';
COMMENT ON COLUMN edge_reliability.year_source IS 'kg, or openalex when the KG year was missing or rejected and OpenAlex filled it; NULL when unknown.';
COMMENT ON COLUMN edge_reliability.research_area IS 'Partition: the publication''s research area.';
COMMENT ON COLUMN edge_reliability.pagerank_centrality IS 'PageRank centrality in [0, 1] (publication_centrality.centrality: PageRank read on the citation scale).';
COMMENT ON COLUMN edge_reliability.kg_citations IS 'KG publications citing it (CITES) with a year up to as_of''s; 0 means its PageRank is no evidence of centrality.';
COMMENT ON COLUMN edge_reliability.cited_by_count IS 'OpenAlex cited_by_count when fetched (NULL without an OpenAlex record).';
COMMENT ON COLUMN edge_reliability.citations_as_of IS 'OpenAlex citations up to as_of: cited_by_count less the counts_by_year after as_of; NULL when there is no record or it cannot be taken back that far.';
COMMENT ON COLUMN edge_reliability.citation_centrality IS 'min(1, log1p(citations_as_of) / log1p(10000)); NULL without a citation record.';
COMMENT ON COLUMN edge_reliability.centrality IS 'PageRank centrality and citation centrality combined by the centrality rule (default max), each only as evidence: a PageRank without KG citations up to as_of does not count; the one with evidence alone, 0 when neither is.';
COMMENT ON COLUMN edge_reliability.centrality_source IS 'Which input set the centrality: pagerank, citations, mean, or none (neither is evidence: no KG citations up to as_of, no citation record; centrality 0).';
COMMENT ON COLUMN edge_reliability.centrality_evidence IS 'Centrality rests on evidence: a citation record, or KG citations. Without it a low centrality says nothing (DOMAIN.md).';
COMMENT ON COLUMN edge_reliability.field_percentile_low IS 'Field-and-year citation percentile in [0, 1] (OpenAlex), low end; NULL when unknown or fetched in a later year than as_of''s. Evidence for FOUNDATIONAL (>= 0.99).';
COMMENT ON COLUMN edge_reliability.field_percentile_high IS 'High end of the same percentile; below 0.5 an old paper is measurably peripheral.';
COMMENT ON COLUMN edge_reliability.recent_citations IS 'OpenAlex citations in the 3 years before as_of (and as_of''s year up to as_of); NULL when unknown.';
COMMENT ON COLUMN edge_reliability.citation_trend IS '(recent - earlier) / max(recent, earlier) of citations per year, last 3 complete years vs the 3 before, as of as_of; NULL when too young or under 5 citations.';
COMMENT ON COLUMN edge_reliability.is_retracted IS 'Retracted per OpenAlex is_retracted or a Crossref retraction notice (a notice itself never is): label SUPERSEDED.';
COMMENT ON COLUMN edge_reliability.retraction_source IS 'Which source said retracted (OpenAlex is_retracted; Crossref notice <doi>).';
COMMENT ON COLUMN edge_reliability.openalex_status IS 'found, not_found, mismatch or error in openalex_works; NULL without a DOI.';
COMMENT ON COLUMN edge_reliability.recency IS 'Age decay in [0, 1] against as_of (linear: max(0, 1 - age/20)); 0 when the year is unknown (1 under decay none).';
COMMENT ON COLUMN edge_reliability.coherence IS 'In [0, 1], DOMAIN.md''s scale: the weighted mean of the judged pairs that count (offline_judge.aggregate_edge_coherence; a SUPPORTED edge''s over its works without objection), 0.5 (neutral) when UNVERIFIED; a recorded dispute caps an objection at, and otherwise sets, 0.1 commented / 0.5 debated / 0.7 corrected; a steward''s edge judgement replaces it.';
COMMENT ON COLUMN edge_reliability.coherence_status IS 'CONTRADICTED or SUPERSEDED (the heavier; ties CONTRADICTED) when the objecting pairs strictly outweigh the works read without objection, or an LLM''s or steward''s objection outweighs the supporting pairs (offline_judge.aggregate_edge_coherence); else SUPPORTED when a judged pair supports it; else UNVERIFIED (nothing read states a stance that carries, or nothing was judged); a steward''s edge judgement replaces it.';
COMMENT ON COLUMN edge_reliability.coherence_judges IS 'The judges behind the coherence, with the LLM''s prompt version: ''offline/<version>'', ''groq/<model> (prompt <version>)'', ''steward/<name>'', ''; ''-joined; a steward''s edge judgement alone when there is one; NULL when nothing was judged.';
COMMENT ON COLUMN edge_reliability.dispute_status IS 'Recorded dispute as of as_of: commented (a published comment on it that its authors have not answered on record: a standing dispute), debated (commented and answered by its authors: DECLINING at most), corrected; NULL when none is recorded.';
COMMENT ON COLUMN edge_reliability.dataset_superseded IS 'The dataset version is superseded (dataset_lineage.superseded), on any date.';
COMMENT ON COLUMN edge_reliability.dataset_version IS 'The dataset''s version text (dataset_lineage.version_text).';
COMMENT ON COLUMN edge_reliability.successor_version IS 'What replaced it: the newer version (''V7.0''), or the successor family with its version now (''GPM_3IMERGHH (now V07)''; superseded_since is the family''s date).';
COMMENT ON COLUMN edge_reliability.superseded_since IS 'When the successor came out, or ''by YYYY-MM-DD'' of the first record of a supersession whose date is unknown (dataset_lineage.superseded_since); NULL when nothing dates it (no lifecycle penalty).';
COMMENT ON COLUMN edge_reliability.succession_basis IS 'Where the succession comes from (dataset_lineage.succession_basis): cmr_collection_progress, curated or inferred (version ordering alone).';
COMMENT ON COLUMN edge_reliability.lifecycle_penalty IS 'Subtracted from the reliability because the dataset version was superseded on or before as_of (setting lifecycle_penalty, default 0.15); 0 otherwise.';
COMMENT ON COLUMN edge_reliability.reliability IS 'w1*centrality + w2*recency + w3*coherence - lifecycle_penalty, clipped to [0, 1].';
COMMENT ON COLUMN edge_reliability.label IS 'SUPERSEDED, FOUNDATIONAL, DECLINING, CURRENT or UNVERIFIED: DOMAIN.md''s rules on the observed evidence, first match wins (docs/METHOD.md).';
COMMENT ON COLUMN edge_reliability.dominant_signal IS 'What drove the label: retraction, contradiction, dispute, supersession, centrality, field_percentile, citation_trend (growing), superseded_version, citation_decline, peripheral, recency, citations (cited recently), or none (UNVERIFIED).';
COMMENT ON COLUMN edge_reliability.negative_signals IS 'Negative signals observed: retraction, contradiction, dispute, supersession, superseded_version, citation_decline, peripheral.';
COMMENT ON COLUMN edge_reliability.evidence IS 'Signals observed for the edge: retraction, citation_record, kg_citations, field_percentile, citation_trend, cited_recently, recent, judged_pairs, recorded_dispute, superseded_version.';
COMMENT ON COLUMN edge_reliability.reason IS 'One line a domain expert can check: the label and the rule and bar that concluded it, then every signal and its evidence.';
COMMENT ON COLUMN edge_reliability.as_of IS 'The date scores are computed as of (one per run).';
COMMENT ON COLUMN edge_reliability.snapshot_id IS 'The KG snapshot scored.';
COMMENT ON COLUMN edge_reliability.scoring_settings IS 'JSON of the ScoringSettings the row was scored with (weights, decay, centrality rule, lifecycle penalty, label thresholds, trend rules).';
COMMENT ON COLUMN edge_reliability.scored_at IS 'When the row was written (UTC).';
