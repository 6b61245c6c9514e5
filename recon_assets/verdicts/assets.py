"""Assets of the `verdicts` group: the critic's verdict on every dataset's evidence, one partition per research area."""

from datetime import datetime, timezone
from functools import partial

import dagster as dg
import pandas as pd

from recon_assets.declarations import ASSET_TABLES
from recon_assets.kg.assets import OWNERS
from recon_assets.kg.ingest import current_snapshot_id
from recon_assets.kg.partitions import research_area_partitions
from recon_assets.shared.as_of import AsOfDate
from recon_assets.shared.metadata import add_partition_metadata, distribution, partitioned_result, run_figures, table_description_metadata, written_version
from recon_assets.storage.duckdb_store import TableStore
from recon_assets.verdicts.critic import VERDICTS, VerdictRules
from recon_assets.verdicts.dataset_judgements import (
    dataset_evidence,
    expanded_edge_scorer,
    expansion_predicate,
    judge_datasets,
    with_history,
)
from recon_assets.verdicts.expansion import CACHE_SOURCE, ENRICHMENT_SOURCE, cached_citing_works, enriched_citing_works, expand


DATASET_VERDICTS = ASSET_TABLES["dataset_verdicts"]


@dg.asset(
    **DATASET_VERDICTS.asset_arguments(),
    partitions_def=research_area_partitions,
    backfill_policy=dg.BackfillPolicy.single_run(),
    group_name="verdicts", kinds={"duckdb"}, owners=OWNERS, pool="duckdb",
)
def dataset_verdicts(
    context: dg.AssetExecutionContext, config: VerdictRules, store: TableStore, as_of: AsOfDate
) -> dg.MaterializeResult:
    """The critic's verdict on each dataset's evidence in the research area (DOMAIN.md "Verdicts over an
    evidence set"): the staleness and contradiction checks first (STALE, CONTRADICTED), then sufficiency
    (INSUFFICIENT or PASS), or FORCED_PASS when publications citing the dataset's DOI (the OpenAlex works cache, then
    the citing works openalex_citing_works fetched) still do not make the evidence sufficient after 2 rounds that ran
    (when OpenAlex was not asked for the DOI, round 2 did not run and the verdict stays INSUFFICIENT); no request is
    made here; with a reason naming the edges that drove it. Verdicts keep history: the
    previous verdict and when it changed, and a row in dataset_verdict_history whenever a verdict is new or changes."""
    areas = list(context.partition_keys)
    as_of_date = as_of.for_run(context)
    rules = config
    now = datetime.now(timezone.utc)
    with store.connect() as con:
        con.create("openalex_cache", "openalex_citing_works", "dataset_verdicts", "dataset_verdict_history")
        edges = con.query("verdict_evidence", [areas])
        pairs = con.query("contradicting_pairs", [areas, as_of_date])
        disputes = con.query("dataset_disputes", [areas, as_of_date.year])
        evidence = dataset_evidence(edges)
        rounds = expand(
            evidence.evidence,
            evidence.dataset_dois,
            evidence.known_dois,
            [(CACHE_SOURCE, partial(cached_citing_works, con)), (ENRICHMENT_SOURCE, partial(enriched_citing_works, con))],
            expanded_edge_scorer(evidence.datasets, as_of=as_of_date),
            expansion_predicate(evidence, pairs, disputes, as_of=as_of_date, rules=rules),
            rules,
            as_of=as_of_date,
        )
        verdicts = judge_datasets(evidence, pairs, disputes, rounds, as_of=as_of_date, rules=rules).assign(
            as_of=as_of_date, snapshot_id=current_snapshot_id(con), verdict_rules=rules.model_dump_json()
        )
        latest = con.query("latest_dataset_verdicts", [areas])
        rows, history = with_history(verdicts, latest, judged_at=now)
        # History first: were the replace to fail, a re-run finds the verdict unchanged and appends nothing twice.
        con.upsert("dataset_verdict_history", history)
        con.replace_partitions("dataset_verdicts", rows, areas)
        version = written_version(context, con, DATASET_VERDICTS.writes)
        metadata = table_description_metadata(con, "dataset_verdicts", lineage=DATASET_VERDICTS_LINEAGE)
        add_partition_metadata(context, con, "dataset_verdicts", rows, verdict_figures, preview_columns=PREVIEW)
    figures = verdict_figures(rows)
    context.log.info(
        f"judged {len(rows):,} datasets in {len(areas)} research area(s): {figures['verdict_distribution']}; expansion: "
        f"{figures['expanded_datasets']:,} datasets, {figures['expanded_publications']:,} publications; "
        f"{figures['verdicts_changed']:,} verdicts changed"
    )
    return partitioned_result(context, {**metadata, "as_of": as_of_date.isoformat(), **run_figures(figures)}, version)

PREVIEW = ["research_area", "dataset_short_name", "verdict", "previous_verdict", "reason"]


def verdict_figures(rows: pd.DataFrame) -> dict[str, object]:
    """Figures of dataset_verdicts rows (one research area's, or a run's): verdict_distribution, expanded_datasets,
    expanded_publications and verdicts_changed (rows whose verdict is new or changed in this judging)."""
    return {
        "verdict_distribution": distribution(rows["verdict"], VERDICTS),
        "expanded_datasets": int((rows["expansion_rounds"] > 0).sum()),
        "expanded_publications": int(rows["expanded_publications"].sum()),
        "verdicts_changed": int((rows["verdict_changed_at"] == rows["judged_at"]).sum()),
    }


_EVIDENCE = [("edge_reliability", "reliability"), ("edge_reliability", "label")]
DATASET_VERDICTS_LINEAGE = DATASET_VERDICTS.column_lineage({
    "research_area": [("edge_reliability", "research_area")],
    "dataset_id": [("edge_reliability", "dataset_id")],
    "dataset_doi": [("edge_reliability", "dataset_doi")],
    "dataset_short_name": [("edge_reliability", "dataset_short_name")],
    "verdict": [*_EVIDENCE, ("dataset_lineage", "superseded"), ("coherence_judgements", "verdict"), ("openalex_cache", "work")],
    "stale": [*_EVIDENCE, ("dataset_lineage", "superseded"), ("dataset_lineage", "superseded_since")],
    "staleness_reason": [*_EVIDENCE, ("dataset_lineage", "version_text"), ("dataset_lineage", "successor_version")],
    "contradicted": [("coherence_judgements", "verdict"), ("recorded_disputes", "relation")],
    "contradiction_reason": [("coherence_judgements", "verdict"), ("recorded_disputes", "relation")],
    "n_edges": [("edge_reliability", "publication_id"), ("openalex_cache", "work")],
    "n_reliable_edges": [("edge_reliability", "reliability"), ("openalex_cache", "work")],
    "expanded_publications": [("openalex_cache", "work"), ("openalex_citing_works", "citing_openalex_id")],
})
