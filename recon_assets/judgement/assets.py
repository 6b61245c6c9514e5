"""Assets of the `judgement` group: pairwise coherence judgements, one partition per research area."""

from datetime import datetime, timezone

import dagster as dg
from dagster_duckdb import DuckDBResource
from pydantic import Field

from recon_assets.centrality.assets import publication_centrality
from recon_assets.judgement.offline_judge import DEFAULT_MIN_SIMILARITY, DEFAULT_TOP_K, DEFAULT_WINDOW_YEARS, judge_edges
from recon_assets.kg.assets import OWNERS, dataset_publication_edges, publication_research_areas, publications
from recon_assets.metadata import per_partition_figures, table_metadata
from recon_assets.partitions import research_area_partitions
from recon_assets.resources import AsOfDate
from recon_assets.sql_files import load_sql
from recon_assets.storage import replace_partitions


class JudgeConfig(dg.Config):
    """Settings of the offline judge (see recon_assets.judgement.offline_judge for what each means)."""

    top_k: int = Field(default=DEFAULT_TOP_K, ge=1, description="Newer publications judged per edge, most similar first.")
    min_similarity: float = Field(
        default=DEFAULT_MIN_SIMILARITY, ge=-1.0, le=1.0, description="Cosine similarity below which a newer paper is not evidence."
    )
    window_years: int = Field(default=DEFAULT_WINDOW_YEARS, ge=1, description="Evidence comes from the last this many years before as_of.")


@dg.asset(
    deps=[publications, dataset_publication_edges, publication_research_areas, publication_centrality],
    partitions_def=research_area_partitions,
    backfill_policy=dg.BackfillPolicy.single_run(),
    group_name="judgement", kinds={"duckdb", "python"}, owners=OWNERS, pool="duckdb",
)
def coherence_judgements(
    context: dg.AssetExecutionContext, config: JudgeConfig, duckdb: DuckDBResource, as_of: AsOfDate
) -> dg.MaterializeResult:
    """Pairwise judgements (older publication, newer publication using the same dataset) by the offline judge:
    verdict SUPPORTED / CONTRADICTED / SUPERSEDED, a coherence value and a rationale quoting the cue.
    One run judges every selected research area; each area's rows are replaced, never duplicated."""
    areas = list(context.partition_keys)
    as_of_date = as_of.date()
    with duckdb.get_connection() as con:
        pool = con.execute(load_sql("judge_inputs"), [areas]).df()
        con.execute("CREATE OR REPLACE TEMP TABLE judge_pool AS SELECT * FROM pool")
        texts = con.execute(load_sql("judged_publications")).df()
        context.log.info(f"judging {len(pool):,} edges of {pool['dataset_id'].nunique():,} datasets for {len(areas)} research area(s)")
        pairs = judge_edges(
            pool, texts, as_of=as_of_date, top_k=config.top_k, min_similarity=config.min_similarity, window_years=config.window_years
        )
        area_of = con.execute(
            "SELECT publication_id AS older_publication_id, research_area FROM publication_research_areas WHERE list_contains(?, research_area)",
            [areas],
        ).df()
        rows = pairs.merge(area_of, on="older_publication_id").assign(as_of=as_of_date, judged_at=datetime.now(timezone.utc))
        con.execute(load_sql("coherence_judgements"))
        replace_partitions(con, "coherence_judgements", rows, areas)
        verdicts = rows["verdict"].value_counts().to_dict()
        context.log.info(f"{len(rows):,} judged pairs: {verdicts}")
        metadata = table_metadata(
            con, "coherence_judgements", where="list_contains(?, research_area)", params=[areas],
            preview_columns=["dataset_id", "older_publication_id", "newer_publication_id", "verdict", "coherence", "rationale"],
            lineage={
                "older_publication_id": [("dataset_publication_edges", "publication_id")],
                "newer_publication_id": [("dataset_publication_edges", "publication_id")],
                "similarity": [("publications", "title"), ("publications", "abstract")],
                "verdict": [("publications", "abstract")],
                "newer_centrality": [("publication_centrality", "centrality")],
            },
        )
    per_area = per_partition_figures(context, rows, areas)
    return dg.MaterializeResult(
        metadata={
            **metadata, "verdicts": verdicts, "as_of": as_of_date.isoformat(),
            "rows_per_research_area": {area: figures["rows"] for area, figures in per_area.items()},
        }
    )
