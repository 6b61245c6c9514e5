"""The whole asset graph of recon_assets, in the order data flows:

kg_snapshot -> publications, datasets -> dataset_publication_edges, publication_citations, publication_research_areas
-> openalex_works -> openalex_citing_works, crossref_retractions -> crossref_relations (per research area)
-> publication_centrality
-> coherence_judgements, recorded_disputes (per research area) -> edge_reliability (per research area)
-> dataset_verdicts (per research area)
"""

import dagster as dg

from recon_assets.centrality.assets import publication_centrality
from recon_assets.checks import asset_checks
from recon_assets.enrichment.assets import crossref_relations, crossref_retractions, openalex_citing_works, openalex_works
from recon_assets.evaluation.assets import dispute_evaluation, reliability_evaluation
from recon_assets.judgement.assets import coherence_judgements, recorded_disputes, steward_judgements
from recon_assets.kg.assets import (
    dataset_publication_edges,
    datasets,
    kg_snapshot,
    publication_citations,
    publication_research_areas,
    publications,
)
from recon_assets.lifecycle.assets import dataset_lineage
from recon_assets.reliability.assets import edge_reliability
from recon_assets.resources import resources_from_environment
from recon_assets.schedules import (
    edge_reliability_daily_schedule,
    edge_reliability_job,
    kg_tables_job,
    openalex_refresh_job,
    openalex_weekly_schedule,
    reliability_evaluation_job,
)
from recon_assets.verdicts.assets import dataset_verdicts

ASSETS = [
    kg_snapshot,
    publications,
    datasets,
    dataset_lineage,
    dataset_publication_edges,
    publication_citations,
    publication_research_areas,
    openalex_works,
    openalex_citing_works,
    crossref_retractions,
    crossref_relations,
    publication_centrality,
    steward_judgements,
    coherence_judgements,
    recorded_disputes,
    edge_reliability,
    dataset_verdicts,
    reliability_evaluation,
    dispute_evaluation,
]


def build_defs(resources: dict[str, dg.ConfigurableResource]) -> dg.Definitions:
    """The Definitions with the given resources (tests pass their own; `defs` below reads the environment)."""
    return dg.Definitions(
        assets=ASSETS,
        asset_checks=asset_checks,
        jobs=[kg_tables_job, openalex_refresh_job, edge_reliability_job, reliability_evaluation_job],
        schedules=[edge_reliability_daily_schedule, openalex_weekly_schedule],
        resources=resources,
        # Every step writes the one DuckDB file, which allows one writer: steps run in one process, in order,
        # instead of a subprocess each that would only wait for the pool.
        executor=dg.in_process_executor,
    )


defs = build_defs(resources_from_environment())
