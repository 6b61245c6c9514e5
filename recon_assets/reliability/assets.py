"""Assets of the `reliability` group: the edge_reliability table, one partition per research area."""

from datetime import datetime, timezone

import dagster as dg
import pandas as pd

from recon_assets.declarations import ASSET_TABLES
from recon_assets.judgement import steward
from recon_assets.judgement.assets import stored_steward_judgements
from recon_assets.kg.assets import OWNERS
from recon_assets.kg.ingest import current_snapshot_id
from recon_assets.kg.partitions import research_area_partitions
from recon_assets.reliability.edge_scores import score_research_area_edges
from recon_assets.reliability.labels import EVIDENCE, LABELS, UNVERIFIED
from recon_assets.reliability.run_config import ScoringConfig
from recon_assets.shared.as_of import AsOfDate
from recon_assets.shared.metadata import add_partition_metadata, distribution, partitioned_result, run_figures, table_description_metadata, written_version
from recon_assets.storage.duckdb_store import TableStore


EDGE_RELIABILITY = ASSET_TABLES["edge_reliability"]


@dg.asset(
    **EDGE_RELIABILITY.asset_arguments(),
    partitions_def=research_area_partitions,
    backfill_policy=dg.BackfillPolicy.single_run(),
    group_name="reliability", kinds={"duckdb"}, owners=OWNERS, pool="duckdb",
)
def edge_reliability(
    context: dg.AssetExecutionContext, config: ScoringConfig, store: TableStore, as_of: AsOfDate
) -> dg.MaterializeResult:
    """How much each Dataset→Publication edge should be trusted as of the run's as_of: centrality (PageRank and
    OpenAlex citations), recency, coherence, a penalty for a superseded dataset version, the weighted reliability,
    and a label concluded from the evidence observed (DOMAIN.md "Labels are findings": SUPERSEDED, FOUNDATIONAL,
    DECLINING, CURRENT, or UNVERIFIED when nothing can be concluded), with the evidence, the negative signals, the
    signal that drove the label and a reason. One row per edge and research area; each area's rows are replaced
    on re-materialization. Edges of publications from after as_of's year are not scored."""
    areas = list(context.partition_keys)
    as_of_date = as_of.for_run(context)
    recent_from = as_of_date.year - config.thresholds.recent_citation_years
    with store.connect() as con:
        con.create("edge_reliability")
        edges = con.query("edges_in_research_areas", [areas, as_of_date.year, recent_from])
        # through Arrow: DuckDB converts text columns to a DataFrame faster that way than with .df()
        pairs = con.arrow("area_judgements", [areas]).to_pandas()
        stewards = steward.applicable(stored_steward_judgements(con), "edge", as_of_date)
        rows, after_as_of = score_research_area_edges(edges, pairs, as_of=as_of_date, settings=config, stewards=stewards)
        rows = rows.assign(
            as_of=as_of_date, snapshot_id=current_snapshot_id(con), scoring_settings=config.model_dump_json(),
            scored_at=datetime.now(timezone.utc),
        )
        con.replace_partitions("edge_reliability", rows, areas)
        version = written_version(context, con, EDGE_RELIABILITY.writes)
        metadata = table_description_metadata(con, "edge_reliability", lineage=EDGE_RELIABILITY_LINEAGE)
        add_partition_metadata(context, con, "edge_reliability", rows, edge_figures, preview_columns=PREVIEW)
    # `rows` are exactly the rows just written for these areas: count them here rather than query them back.
    figures = edge_figures(rows)
    context.log.info(
        f"scored {len(rows):,} edges in {len(areas)} research area(s) as of {as_of_date}: {figures['label_distribution']}; "
        f"{figures['edges_to_superseded_datasets']:,} to a superseded dataset version; {after_as_of:,} left out (published "
        f"after as_of); evidence observed: {figures['evidence_observed']}"
    )
    return partitioned_result(
        context,
        {**metadata, "as_of": as_of_date.isoformat(), **run_figures({**figures, "edges_after_as_of": after_as_of})},
        version,
    )


PREVIEW = ["dataset_short_name", "publication_doi", "reliability", "label", "reason"]


def edge_figures(rows: pd.DataFrame) -> dict[str, object]:
    """Figures of scored edge rows (one research area's, or a run's): label_distribution, unverified_share (0..1),
    evidence_observed {evidence: edges}, openalex_signals {signal: edges} and edges_to_superseded_datasets."""
    labels = distribution(rows["label"], LABELS)
    observed = rows["evidence"].explode().value_counts()
    evidence = {name: int(observed.get(name, 0)) for name in EVIDENCE}
    return {
        "label_distribution": labels,
        "unverified_share": float(labels[UNVERIFIED] / len(rows)) if len(rows) else 0.0,
        "evidence_observed": evidence,
        "openalex_signals": {
            "with_citation_record": evidence["citation_record"],
            "centrality_from_citations": int((rows["centrality_source"] == "citations").sum()),
            "without_centrality_evidence": int((~rows["centrality_evidence"].astype(bool)).sum()),
            "retracted": evidence["retraction"],
            "year_from_openalex": int((rows["year_source"] == "openalex").sum()),
        },
        "edges_to_superseded_datasets": int(rows["dataset_superseded"].sum()),
    }


_CITATION_RECORD = [("openalex_works", "cited_by_count"), ("openalex_works", "counts_by_year"), ("openalex_works", "fetched_at")]
_YEAR = [("publications", "year"), ("openalex_works", "publication_year")]
_KG_CITATIONS = [("publication_citations", "citing_publication_id"), ("publications", "year")]
_LIFECYCLE = [("dataset_lineage", "superseded"), ("dataset_lineage", "superseded_since")]
_SCORE_INPUTS = [("publication_centrality", "centrality"), *_CITATION_RECORD, *_YEAR, ("coherence_judgements", "coherence"), *_LIFECYCLE]
_LABEL_INPUTS = [
    *_SCORE_INPUTS, *_KG_CITATIONS, ("openalex_works", "citation_percentile_low"), ("openalex_works", "is_retracted"),
    ("crossref_retractions", "notice_dois"), ("coherence_judgements", "verdict"), ("recorded_disputes", "relation"),
]
EDGE_RELIABILITY_LINEAGE = EDGE_RELIABILITY.column_lineage({
    "dataset_id": [("dataset_publication_edges", "dataset_id")],
    "publication_id": [("dataset_publication_edges", "publication_id")],
    "dataset_doi": [("datasets", "doi")],
    "publication_doi": [("publications", "doi")],
    "dataset_short_name": [("datasets", "short_name")],
    "publication_year": _YEAR,
    "year_source": _YEAR,
    "research_area": [("publication_research_areas", "research_area")],
    "pagerank_centrality": [("publication_centrality", "centrality")],
    "kg_citations": _KG_CITATIONS,
    "cited_by_count": [("openalex_works", "cited_by_count")],
    "citations_as_of": _CITATION_RECORD,
    "citation_centrality": _CITATION_RECORD,
    "centrality": [("publication_centrality", "centrality"), *_CITATION_RECORD],
    "centrality_source": [("publication_centrality", "centrality"), *_CITATION_RECORD],
    "centrality_evidence": [*_CITATION_RECORD, *_KG_CITATIONS],
    "field_percentile_low": [("openalex_works", "citation_percentile_low"), ("openalex_works", "fetched_at")],
    "field_percentile_high": [("openalex_works", "citation_percentile_high"), ("openalex_works", "fetched_at")],
    "recent_citations": _CITATION_RECORD,
    "citation_trend": [*_CITATION_RECORD, *_YEAR],
    "is_retracted": [("openalex_works", "is_retracted"), ("openalex_works", "is_retraction_notice"), ("crossref_retractions", "notice_dois")],
    "retraction_source": [("openalex_works", "is_retracted"), ("crossref_retractions", "notice_dois")],
    "openalex_status": [("openalex_works", "status")],
    "recency": _YEAR,
    "coherence": [("coherence_judgements", "coherence"), ("recorded_disputes", "relation")],
    "coherence_status": [("coherence_judgements", "verdict")],
    "dispute_status": [("recorded_disputes", "relation")],
    **{
        column: [("dataset_lineage", source)]
        for column, source in (
            ("dataset_superseded", "superseded"), ("dataset_version", "version_text"), ("successor_version", "successor_version"),
            ("superseded_since", "superseded_since"), ("succession_basis", "succession_basis"),
        )
    },
    "lifecycle_penalty": _LIFECYCLE,
    "reliability": _SCORE_INPUTS,
    "label": _LABEL_INPUTS,
    "dominant_signal": _LABEL_INPUTS,
    "negative_signals": _LABEL_INPUTS,
    "evidence": _LABEL_INPUTS,
    "reason": [*_LABEL_INPUTS, ("publications", "first_author_tag"), ("coherence_judgements", "rationale"), ("openalex_works", "status")],
})
