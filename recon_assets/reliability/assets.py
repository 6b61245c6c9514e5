"""Assets of the `reliability` group: the edge_reliability table, one partition per research area."""

from datetime import datetime, timezone

import dagster as dg
from dagster_duckdb import DuckDBResource
from pydantic import Field

from recon_assets.centrality.assets import publication_centrality
from recon_assets.enrichment.assets import crossref_retractions, openalex_works
from recon_assets.judgement.assets import coherence_judgements
from recon_assets.kg.assets import OWNERS, dataset_publication_edges, datasets, publication_research_areas, publications
from recon_assets.kg.ingest import current_snapshot_id
from recon_assets.lifecycle.assets import dataset_lineage
from recon_assets.metadata import distribution, per_partition_figures, table_metadata
from recon_assets.partitions import research_area_partitions
from recon_assets.reliability.edge_scores import score_research_area_edges
from recon_assets.reliability.scoring import LABELS, CentralityRule, Decay, ScoringSettings, Thresholds, TrendRules, Weights
from recon_assets.resources import AsOfDate
from recon_assets.sql_files import load_sql
from recon_assets.storage import replace_partitions


class ReliabilityConfig(dg.Config):
    """Weights (each in [0, 1], summing to 1), recency decay and label thresholds (DOMAIN.md defaults), how
    centrality combines PageRank and citations, the citation-trend rules (`scoring.TrendRules`) and the
    lifecycle penalty of an edge to a superseded dataset version (`scoring` module docstring). The defaults
    are the `scoring` dataclasses' own."""

    weight_centrality: float = Field(default=Weights.centrality, ge=0.0, le=1.0)
    weight_recency: float = Field(default=Weights.recency, ge=0.0, le=1.0)
    weight_coherence: float = Field(default=Weights.coherence, ge=0.0, le=1.0)
    decay: Decay = ScoringSettings.decay
    foundational_centrality: float = Field(default=Thresholds.foundational_centrality, ge=0.0, le=1.0)
    foundational_coherence: float = Field(default=Thresholds.foundational_coherence, ge=0.0, le=1.0)
    current_recency: float = Field(default=Thresholds.current_recency, ge=0.0, le=1.0)
    current_reliability: float = Field(default=Thresholds.current_reliability, ge=0.0, le=1.0)
    declining_reliability: float = Field(default=Thresholds.declining_reliability, ge=0.0, le=1.0)
    centrality_rule: CentralityRule = Field(
        default=ScoringSettings.centrality_rule,
        description="Centrality from the PageRank centrality and OpenAlex citation centrality: max, mean, or one alone.",
    )
    trend_decline: float = Field(
        default=TrendRules.decline, ge=-1.0, le=0.0, description="Citation trend at or below which CURRENT becomes DECLINING."
    )
    trend_growth: float = Field(
        default=TrendRules.growth, ge=0.0, le=1.0, description="Citation trend at or above which an old paper is growing."
    )
    trend_growth_min_age: int = Field(
        default=TrendRules.growth_min_age, ge=0, description="Age in years from which a growing paper counts as old."
    )
    trend_growth_foundational_centrality: float = Field(
        default=TrendRules.growth_foundational_centrality, ge=0.0, le=1.0,
        description="Centrality from which an old, growing paper is FOUNDATIONAL.",
    )

    lifecycle_penalty: float = Field(
        default=ScoringSettings.lifecycle_penalty, ge=0.0, le=1.0,
        description="Subtracted from the reliability of an edge to a superseded dataset version (0 turns it off).",
    )

    def settings(self) -> ScoringSettings:
        """The validated settings. Raises ValueError when the weights do not sum to 1."""
        return ScoringSettings(
            weights=Weights(self.weight_centrality, self.weight_recency, self.weight_coherence),
            decay=self.decay,
            centrality_rule=self.centrality_rule,
            lifecycle_penalty=self.lifecycle_penalty,
            thresholds=Thresholds(
                self.foundational_centrality, self.foundational_coherence, self.current_recency,
                self.current_reliability, self.declining_reliability,
            ),
            trend_rules=TrendRules(
                self.trend_decline, self.trend_growth, self.trend_growth_min_age, self.trend_growth_foundational_centrality
            ),
        )


@dg.asset(
    deps=[
        publications, datasets, dataset_lineage, dataset_publication_edges, publication_research_areas,
        publication_centrality, openalex_works, crossref_retractions, coherence_judgements,
    ],
    partitions_def=research_area_partitions,
    backfill_policy=dg.BackfillPolicy.single_run(),
    group_name="reliability", kinds={"duckdb"}, owners=OWNERS, pool="duckdb",
)
def edge_reliability(
    context: dg.AssetExecutionContext, config: ReliabilityConfig, duckdb: DuckDBResource, as_of: AsOfDate
) -> dg.MaterializeResult:
    """How much each Dataset→Publication edge should be trusted today: centrality (PageRank and OpenAlex
    citations), recency, coherence, a penalty for a superseded dataset version, the weighted reliability, a label (FOUNDATIONAL / CURRENT / DECLINING /
    SUPERSEDED; retracted publications always SUPERSEDED; the citation trend can move it), the signal that
    drove it and a reason. One row per edge and research area; each area's rows are replaced on re-materialization."""
    areas = list(context.partition_keys)
    as_of_date = as_of.date()
    settings = config.settings()
    with duckdb.get_connection() as con:
        edges = con.execute(load_sql("edges_in_research_areas"), [areas]).df()
        pairs = con.execute(load_sql("area_judgements"), [areas]).df()
        rows = score_research_area_edges(edges, pairs, as_of=as_of_date, settings=settings)
        rows = rows.assign(
            as_of=as_of_date, snapshot_id=current_snapshot_id(con), weights=settings.to_json(), scored_at=datetime.now(timezone.utc)
        )
        con.execute(load_sql("edge_reliability"))
        replace_partitions(con, "edge_reliability", rows, areas)
        where, params = "list_contains(?, research_area)", [areas]
        metadata = table_metadata(
            con, "edge_reliability", where=where, params=params,
            preview_columns=["dataset_short_name", "publication_doi", "reliability", "label", "reason"],
            lineage=EDGE_RELIABILITY_LINEAGE,
        )
    # `rows` are exactly the rows just written for these areas: count them here rather than query them back.
    label_counts = distribution(rows["label"], LABELS)
    per_area = per_partition_figures(context, rows, areas, LABELS)
    signals = {
        "with_citation_count": int(rows["cited_by_count"].notna().sum()),
        "centrality_from_citations": int((rows["centrality_source"] == "citations").sum()),
        "retracted": int(rows["is_retracted"].sum()),
        "year_from_openalex": int((rows["year_source"] == "openalex").sum()),
        "label_moved_by_citation_trend": int((rows["dominant_signal"] == "citation_trend").sum()),
    }
    superseded = int(rows["dataset_superseded"].sum())
    context.log.info(
        f"scored {sum(label_counts.values()):,} edges in {len(areas)} research area(s): {label_counts}; "
        f"{superseded:,} to a superseded dataset version; OpenAlex/Crossref: {signals}"
    )
    return dg.MaterializeResult(
        metadata={
            **metadata, "label_distribution": label_counts, "openalex_signals": signals,
            "edges_to_superseded_datasets": superseded, "as_of": as_of_date.isoformat(),
            "rows_per_research_area": {area: figures["rows"] for area, figures in per_area.items()},
            "label_distribution_per_research_area": {area: figures["label_distribution"] for area, figures in per_area.items()},
        }
    )


EDGE_RELIABILITY_LINEAGE = {
    "dataset_id": [("dataset_publication_edges", "dataset_id")],
    "publication_id": [("dataset_publication_edges", "publication_id")],
    "dataset_doi": [("datasets", "doi")],
    "publication_doi": [("publications", "doi")],
    "dataset_short_name": [("datasets", "short_name")],
    "publication_year": [("publications", "year"), ("openalex_works", "publication_year")],
    "year_source": [("publications", "year"), ("openalex_works", "publication_year")],
    "research_area": [("publication_research_areas", "research_area")],
    "pagerank_centrality": [("publication_centrality", "centrality")],
    "cited_by_count": [("openalex_works", "cited_by_count")],
    "citation_centrality": [("openalex_works", "cited_by_count")],
    "centrality": [("publication_centrality", "centrality"), ("openalex_works", "cited_by_count")],
    "centrality_source": [("publication_centrality", "centrality"), ("openalex_works", "cited_by_count")],
    "citation_trend": [("openalex_works", "citation_trend")],
    "is_retracted": [("openalex_works", "is_retracted"), ("openalex_works", "is_retraction_notice"), ("crossref_retractions", "notice_dois")],
    "retraction_source": [("openalex_works", "is_retracted"), ("crossref_retractions", "notice_dois")],
    "openalex_status": [("openalex_works", "status")],
    "recency": [("publications", "year"), ("openalex_works", "publication_year")],
    "coherence": [("coherence_judgements", "coherence")],
    "coherence_status": [("coherence_judgements", "verdict")],
    **{
        column: [("dataset_lineage", source)]
        for column, source in (
            ("dataset_superseded", "superseded"), ("dataset_version", "version_text"), ("successor_version", "successor_version"),
            ("superseded_since", "superseded_since"), ("lifecycle_penalty", "superseded"),
        )
    },
    "reliability": [
        ("publication_centrality", "centrality"), ("openalex_works", "cited_by_count"), ("publications", "year"),
        ("coherence_judgements", "coherence"), ("dataset_lineage", "superseded"),
    ],
    "label": [
        ("publication_centrality", "centrality"), ("openalex_works", "cited_by_count"), ("publications", "year"),
        ("coherence_judgements", "coherence"), ("openalex_works", "is_retracted"), ("openalex_works", "citation_trend"),
        ("crossref_retractions", "notice_dois"),
    ],
    "reason": [("publications", "first_author_tag"), ("coherence_judgements", "rationale"), ("openalex_works", "status")],
}
